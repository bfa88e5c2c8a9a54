#include "ai/review.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "view/tile_geometry.hpp"

namespace carc {

nlohmann::json option_json(const OptionStats& st, const std::string& text) {
  return {{"move", text},
          {"visits", st.visits},
          {"margin", std::round(st.margin * 100) / 100},
          {"se", std::round(st.margin_se * 100) / 100},
          {"win", std::round(st.win * 1000) / 1000},
          {"win_prob", std::round(st.win_prob * 1000) / 1000}};
}

nlohmann::json ownership_json(const State& s, const std::vector<FeatureOwnership>& own, std::size_t max) {
  const std::size_t n = std::min(max, own.size());
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t k = 0; k < n; ++k) {
    const FeatureOwnership& f = own[k];
    const PlacedTile& pt = s.tiles[static_cast<std::size_t>(s.placed_at(f.x, f.y))];
    nlohmann::json share = nlohmann::json::array(), points = nlohmann::json::array(), pieces = nlohmann::json::array(),
                   at = nlohmann::json::array();
    for (int p = 0; p < s.nplayers; ++p) {
      share.push_back(std::round(f.share[static_cast<std::size_t>(p)] * 1000) / 1000);
      points.push_back(std::round(f.points[static_cast<std::size_t>(p)] * 100) / 100);
      pieces.push_back(f.pieces[static_cast<std::size_t>(p)]);
    }
    // its cells: the tiles of its segments (a monastery's: its own tile), walking its member ring
    std::vector<u16> seen;
    int m = f.root;
    do {
      const u16 ti = s.graph[m].tile;
      if (std::find(seen.begin(), seen.end(), ti) == seen.end()) {
        seen.push_back(ti);
        at.push_back({s.tiles[ti].x, s.tiles[ti].y});
      }
      m = s.graph[m].next;
    } while (m != f.root);
    // where a piece on it would stand in that tile: where a front end marks it
    const view::Point a = view::piece_spot(*s.rs, s.type_of(pt), s.type_of(pt).rot[pt.rot], f.local);
    out.push_back({{"feature", s.rs->ftype(f.ftype).name},
                   {"x", f.x},
                   {"y", f.y},
                   {"port", feature_port(s, pt, f.local)},
                   {"anchor", {std::round(a.x * 1000) / 1000, std::round(a.y * 1000) / 1000}},
                   {"tiles", f.tiles},
                   {"cells", at},
                   {"pieces", pieces},
                   {"share", share},
                   {"points", points}});
  }
  return out;
}

nlohmann::json review_to_json(const Review& rv, const Record& r) {
  nlohmann::json j;
  j["game"] = rv.game;
  j["players"] = nlohmann::json::array();
  for (int p = 0; p < rv.players; ++p) j["players"].push_back(r.players[static_cast<std::size_t>(p)].name);
  j["final_scores"] = rv.final_scores;
  j["playouts"] = rv.options.playouts;
  j["seed"] = rv.options.seed;
  j["share"] = rv.options.force_share;
  j["value"] = rv.options.value;
  j["scale"] = rv.scale;
  j["thresholds"] = {{"inaccuracy", rv.inaccuracy}, {"mistake", rv.mistake}, {"blunder", rv.blunder}};
  j["decisions"] = nlohmann::json::array();
  struct Sum {
    int n = 0, inacc = 0, mistakes = 0, blunders = 0;
    double loss = 0;
  };
  std::vector<Sum> sums(static_cast<std::size_t>(rv.players));
  for (const ReviewedDecision& d : rv.decisions) {
    nlohmann::json top = nlohmann::json::array();
    for (std::size_t k = 0; k < d.top.size(); ++k) top.push_back(option_json(d.top[k], d.top_text[k]));
    j["decisions"].push_back({{"index", d.index},
                              {"move", d.move},
                              {"turn", d.turn},
                              {"player", d.player},
                              {"options", d.options},
                              {"played", option_json(d.played_stats, d.played)},
                              {"best", option_json(d.best_stats, d.best)},
                              {"loss", std::round(d.loss * 100) / 100},
                              {"loss_se", std::round(d.loss_se * 100) / 100},
                              {"mark", d.mark},
                              {"top", top}});
    if (!d.ownership.is_null()) j["decisions"].back()["ownership"] = d.ownership;
    Sum& s = sums[static_cast<std::size_t>(d.player)];
    ++s.n;
    s.loss += d.loss;
    s.inacc += d.mark == "inaccuracy";
    s.mistakes += d.mark == "mistake";
    s.blunders += d.mark == "blunder";
  }
  // the curve: after each reviewed decision, the expected final margin and win probability of
  // seat 0 (two players: the mover's, or its opposite) or, with more players, of the mover
  j["curve"] = nlohmann::json::array();
  for (const ReviewedDecision& d : rv.decisions) {
    const bool flip = rv.players == 2 && d.player != 0;
    j["curve"].push_back(
        {{"index", d.index},
         {"turn", d.turn},
         {"seat", flip ? 0 : d.player},
         {"margin", std::round((flip ? -d.best_stats.margin : d.best_stats.margin) * 100) / 100},
         {"win_prob", std::round((flip ? 1 - d.best_stats.win_prob : d.best_stats.win_prob) * 1000) / 1000}});
  }
  j["summary"] = nlohmann::json::array();
  for (int p = 0; p < rv.players; ++p) {
    const Sum& s = sums[static_cast<std::size_t>(p)];
    j["summary"].push_back({{"player", p},
                            {"decisions", s.n},
                            {"mean_loss", s.n ? std::round(s.loss / s.n * 100) / 100 : 0.0},
                            {"inaccuracies", s.inacc},
                            {"mistakes", s.mistakes},
                            {"blunders", s.blunders}});
  }
  return j;
}

std::string review_mark(double loss, double scale) {
  if (loss >= scale / 2) return "blunder";
  if (loss >= scale / 4) return "mistake";
  if (loss >= scale / 8) return "inaccuracy";
  return "";
}

ReviewRun::ReviewRun(const Record& r, const ReviewOptions& o) {
  if (o.playouts < 1) throw InputError("review: playouts: at least 1");
  if (!(o.force_share >= 0 && o.force_share <= 0.9)) throw InputError("review: the forced share is not in 0..0.9");
  if (o.value < -1 || o.value > 2) throw InputError("review: value: -1 (the game's default), 0, 1 or 2");
  // the positions first (a replay), then the searches
  int decisions = 0;
  const Game g = Game::replay(r, std::nullopt, "", [&](const State& s, const Move& m, int move_index) {
    ++decisions;
    MoveList ml;
    legal_moves(s, ml);
    if (ml.size() > 1) at_.push_back({s, m, move_index + 1, decisions});  // a decision without a choice is not searched
  });
  rv_.game = g.ruleset().game->id;
  rv_.players = g.state().nplayers;
  rv_.scale = g.ruleset().game->review_margin;
  rv_.inaccuracy = rv_.scale / 8;
  rv_.mistake = rv_.scale / 4;
  rv_.blunder = rv_.scale / 2;
  rv_.options = o;
  for (int p = 0; p < g.state().nplayers; ++p) rv_.final_scores.push_back(g.state().score[static_cast<std::size_t>(p)]);
  mo_.playouts = o.playouts;
  mo_.threads = 1;
  mo_.stop = o.stop;
  mo_.value = o.value < 0 ? g.ruleset().game->search_value_for(g.state().nplayers) : o.value;
  rv_.options.value = mo_.value;  // what the searches used (the JSON says it)
}

void ReviewRun::step(int n) {
  for (; n > 0 && !finished(); --n) {
    const At& a = at_[rv_.decisions.size()];
    const Analysis an = mcts_analyze(a.s, mo_, rv_.options.seed ^ (0x9E3779B97F4A7C15ULL * static_cast<u64>(a.index)),
                                     &a.m, rv_.options.force_share, rv_.options.ownership);
    ReviewedDecision d;
    d.index = a.index;
    d.move = a.move;
    d.turn = a.s.turn;
    d.player = an.player;
    d.options = static_cast<int>(an.options.size());
    d.played = notation(a.s, a.m);
    // the played move is measured (its forced share of the playouts); the search's choice among
    // the others is the most visited of them. Best: that one when it is worth more than the played
    // one, else the played move (no loss).
    const OptionStats* other = nullptr;
    for (const OptionStats& st : an.options) {
      if (st.move == a.m)
        d.played_stats = st;
      else if (!other)
        other = &st;
    }
    d.best_stats = other && other->visits > 0 && other->margin > d.played_stats.margin ? *other : d.played_stats;
    d.best = notation(a.s, d.best_stats.move);
    d.loss = d.best_stats.margin - d.played_stats.margin;
    // marked only as far as the search is sure of the loss (one standard error below it), in
    // points, however the game stands
    if (!(d.best_stats.move == d.played_stats.move))
      d.loss_se = std::hypot(d.best_stats.margin_se, d.played_stats.margin_se);
    d.mark = review_mark(d.loss - d.loss_se, rv_.scale);
    for (std::size_t k = 0; k < an.options.size() && k < 3; ++k) {
      d.top.push_back(an.options[k]);
      d.top_text.push_back(notation(a.s, an.options[k].move));
    }
    if (rv_.options.ownership) d.ownership = ownership_json(a.s, an.ownership, kReviewOwnershipFeatures);
    rv_.decisions.push_back(std::move(d));
  }
}

Review review_record(const Record& r, const ReviewOptions& o, const std::function<void(int, int)>& progress) {
  ReviewRun run(r, o);
  const auto cut = [&] {
    return ReviewCut(fmt::format("the review stopped after {} of {} decisions", run.done(), run.total()), run.done(),
                     run.total());
  };
  while (!run.finished()) {
    if (o.stop.due()) throw cut();
    run.step();
    if (o.stop.due()) throw cut();  // the last search may have been cut short: its figures are not whole
    if (progress) progress(run.done(), run.total());
  }
  return run.review();
}

}  // namespace carc
