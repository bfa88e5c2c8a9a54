// Analysis and review (ai/mcts mcts_analyze, ai/review): exact margins where the game ends with
// the decision, the forced share of the playouts, determinism, and a review that tells a random
// player's moves from the greedy bot's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "ai/driver.hpp"
#include "ai/mcts.hpp"
#include "ai/review.hpp"
#include "scenario.hpp"

namespace carc {
namespace {

using test::Scenario;

constexpr int kRed = 0, kBlue = 1;

// The rulebook's monastery at the last tile (test::monastery_last_tile): red has placed the
// game's last tile at 0,2, completing the monastery; the piece decision ends the game, so every
// option's final margin is exact and known by trying it.
State last_piece_decision() {
  const Scenario sc = test::monastery_last_tile();
  MoveList places;
  legal_moves(sc.s, places);
  for (const Move& m : places)
    if (m.x == 0 && m.y == 2) {
      State t = sc.s;
      apply_move(t, m);
      return t;
    }
  ADD_FAILURE() << "no placement at 0,2";
  return sc.s;
}

TEST(Analysis, MarginsAreExactWhereTheGameEndsAndTheForcedMoveGetsItsShare) {
  const State s = last_piece_decision();
  ASSERT_EQ(s.phase, Phase::Piece);
  MoveList legal;
  legal_moves(s, legal);
  ASSERT_GE(legal.size(), 2u);
  std::map<std::string, int> exact;
  int best = -1000;
  for (const Move& m : legal) {
    State t = s;
    apply_move(t, m);
    ASSERT_EQ(t.phase, Phase::Over);
    exact[notation(s, m)] = t.score[kRed] - t.score[kBlue];
    best = std::max(best, t.score[kRed] - t.score[kBlue]);
  }
  // the worst option, forced
  Move worst = legal[0];
  for (const Move& m : legal)
    if (exact[notation(s, m)] < exact[notation(s, worst)]) worst = m;
  ASSERT_LT(exact[notation(s, worst)], best);
  MctsOptions o;
  o.playouts = 400;
  o.threads = 1;
  const Analysis a = mcts_analyze(s, o, 7, &worst, 0.3);
  EXPECT_EQ(a.player, kRed);
  EXPECT_EQ(a.playouts, 400);
  long sum = 0;
  for (const OptionStats& st : a.options) {
    sum += st.visits;
    if (st.visits == 0) continue;
    EXPECT_DOUBLE_EQ(st.margin, exact[notation(s, st.move)]) << notation(s, st.move);
    EXPECT_NEAR(st.margin_se, 0, 1e-6) << "every playout ends with the same margin";
    EXPECT_EQ(st.win, exact[notation(s, st.move)] > 0 ? 1.0 : exact[notation(s, st.move)] == 0 ? 0.5 : 0.0);
    if (st.move == worst) {
      EXPECT_GE(st.visits, 0.3 * 400 - 1);
    }
  }
  EXPECT_EQ(sum, 400);
  EXPECT_EQ(a.options.front().margin, best) << "the most visited option is the best";
  // deterministic for a seed; a forced move must be legal
  const Analysis b = mcts_analyze(s, o, 7, &worst, 0.3);
  ASSERT_EQ(a.options.size(), b.options.size());
  for (std::size_t i = 0; i < a.options.size(); ++i) {
    EXPECT_EQ(a.options[i].move, b.options[i].move);
    EXPECT_EQ(a.options[i].visits, b.options[i].visits);
    EXPECT_EQ(a.options[i].margin, b.options[i].margin);
  }
  Move bad = worst;
  bad.x = 40;
  EXPECT_THROW(mcts_analyze(s, o, 7, &bad, 0.3), InputError);
  EXPECT_THROW(mcts_analyze(s, o, 7, &worst, 1.5), InputError);
}

// Red's monk below the start tile (7 of 8 neighbours placed) scores in every playout: 9 if the
// last tile completes it, else 8 at the end; blue has no piece on it.
TEST(Analysis, OwnershipOfTheMonasteryIsRedsInEveryPlayout) {
  const Scenario sc = test::monastery_last_tile();
  ASSERT_EQ(sc.s.phase, Phase::Place);
  MctsOptions o;
  o.playouts = 300;
  o.threads = 1;
  const Analysis a = mcts_analyze(sc.s, o, 3, nullptr, 0.25, true);
  ASSERT_FALSE(a.ownership.empty());
  const FeatureOwnership* monastery = nullptr;
  for (const FeatureOwnership& f : a.ownership)
    if (f.x == 0 && f.y == 1 && sc.s.rs->ftype(f.ftype).name == "monastery") monastery = &f;
  ASSERT_NE(monastery, nullptr);
  EXPECT_EQ(monastery->pieces[kRed], 1);
  EXPECT_DOUBLE_EQ(monastery->share[kRed], 1.0);
  EXPECT_DOUBLE_EQ(monastery->share[kBlue], 0.0);
  EXPECT_GE(monastery->points[kRed], 8.0);
  EXPECT_LE(monastery->points[kRed], 9.0);
  for (const FeatureOwnership& f : a.ownership)
    for (int p = 0; p < 2; ++p) {
      EXPECT_GE(f.share[static_cast<std::size_t>(p)], 0.0);
      EXPECT_LE(f.share[static_cast<std::size_t>(p)], 1.0);
      if (f.share[static_cast<std::size_t>(p)] == 0) {
        EXPECT_EQ(f.points[static_cast<std::size_t>(p)], 0.0);
      }
    }
}

TEST(Analysis, WinProbabilityFollowsTheGamesCalibration) {
  auto rs = load_ruleset("base", {});
  const GameDef& g = *rs->game;
  ASSERT_GT(g.win_scale[2], 0);
  EXPECT_DOUBLE_EQ(win_probability(g, 2, 0), 0.5);
  EXPECT_NEAR(win_probability(g, 2, g.win_scale[2]), 1 / (1 + std::exp(-1.0)), 1e-12);
  EXPECT_NEAR(win_probability(g, 2, -7) + win_probability(g, 2, 7), 1.0, 1e-12);
  EXPECT_LT(win_probability(g, 2, 3), win_probability(g, 2, 6));
  EXPECT_GT(win_probability(g, 2, 1e9), 0.999);
  // a player count without its own fit takes the nearest one's
  EXPECT_GT(win_probability(g, 5, 10), 0.5);
}

// A base game of greedy (seat 1) against random (seat 2), played out: the deal's seed, the bots'.
Game greedy_against_random(u64 seed, u64 bots_seed) {
  auto rs = load_ruleset("base", {});
  std::vector<PlayerInfo> info = {{"greedy", "greedy"}, {"random", "random"}};
  std::vector<std::unique_ptr<Bot>> bots;
  for (const auto& p : info) bots.push_back(make_bot(p.bot));
  Game g(rs, info, seed);
  Rng rng(bots_seed);
  play_out(g, bots, rng);
  return g;
}

TEST(Review, TellsARandomPlayersMovesFromTheGreedyBotsAndIsDeterministicWithEitherSearch) {
  const Game g = greedy_against_random(3, 2);
  ASSERT_TRUE(g.over());
  ReviewOptions o;
  o.playouts = 150;
  const Review rv = review_record(g.record(), o);
  EXPECT_EQ(rv.game, "base");
  EXPECT_EQ(rv.scale, 18.1);
  EXPECT_DOUBLE_EQ(rv.blunder, 18.1 / 2);
  double loss[2] = {0, 0};
  int n[2] = {0, 0};
  int prev = 0;
  for (const ReviewedDecision& d : rv.decisions) {
    EXPECT_GT(d.index, prev);
    prev = d.index;
    EXPECT_GE(d.options, 2);
    EXPECT_GE(d.loss, 0);
    // marked as far as the search is sure (one standard error below the loss), in points
    EXPECT_EQ(d.mark, review_mark(d.loss - d.loss_se, rv.scale));
    if (d.best == d.played) {
      EXPECT_EQ(d.loss_se, 0);
    } else {
      EXPECT_GT(d.loss_se, 0);
      EXPECT_NEAR(d.loss_se, std::hypot(d.best_stats.margin_se, d.played_stats.margin_se), 1e-12);
      EXPECT_LT(d.loss_se, 10) << "a few points at most with 150 playouts";
    }
    EXPECT_GE(d.played_stats.visits, 0.25 * 150 - 1) << "the played move measured";
    EXPECT_EQ(d.loss == 0, d.best == d.played);
    loss[d.player] += d.loss;
    ++n[d.player];
  }
  ASSERT_GT(n[0], 30);
  ASSERT_GT(n[1], 30);
  EXPECT_GT(std::count_if(rv.decisions.begin(), rv.decisions.end(),
                          [](const ReviewedDecision& d) { return !d.mark.empty(); }),
            0)
      << "the random player's moves while the game is open are marked";
  EXPECT_EQ(review_mark(30, 18.1), "blunder") << "in points, however the game stands";
  EXPECT_EQ(review_mark(5, 18.1), "mistake");
  EXPECT_EQ(review_mark(3, 18.1), "inaccuracy");
  EXPECT_EQ(review_mark(2, 18.1), "");
  EXPECT_GT(loss[1] / n[1], 2 * loss[0] / n[0]) << "random loses more per decision than greedy";
  const Review again = review_record(g.record(), o);
  ASSERT_EQ(again.decisions.size(), rv.decisions.size());
  for (std::size_t i = 0; i < rv.decisions.size(); ++i) {
    EXPECT_EQ(again.decisions[i].best, rv.decisions[i].best);
    EXPECT_EQ(again.decisions[i].loss, rv.decisions[i].loss);
  }
  // --value -1: the game's default search (base: the fitted value as prior and judge) reviews the
  // same decisions with other margins, still telling the random player from the greedy bot
  EXPECT_EQ(rv.options.value, 0);
  o.value = -1;
  const Review fitted = review_record(g.record(), o);
  EXPECT_EQ(fitted.options.value, 2) << "the base game's search";
  ASSERT_EQ(fitted.decisions.size(), rv.decisions.size());
  int differ = 0;
  double floss[2] = {0, 0};
  for (std::size_t i = 0; i < fitted.decisions.size(); ++i) {
    const ReviewedDecision& d = fitted.decisions[i];
    EXPECT_EQ(d.index, rv.decisions[i].index);
    differ += d.played_stats.margin != rv.decisions[i].played_stats.margin;
    EXPECT_EQ(d.mark, review_mark(d.loss - d.loss_se, fitted.scale));
    floss[d.player] += d.loss;
  }
  EXPECT_GT(differ, static_cast<int>(fitted.decisions.size()) / 2) << "another search: other margins";
  EXPECT_GT(floss[1] / n[1], 2 * floss[0] / n[0]) << "random loses more per decision than greedy";
  for (const int bad : {-2, 3}) {
    o.value = bad;
    EXPECT_THROW(review_record(g.record(), o), InputError) << bad;
  }
  o.value = 0;
  o.playouts = 0;
  EXPECT_THROW(review_record(g.record(), o), InputError);
}

// The server's analysis asks for each decision's ownership: at most the 12 largest open features
// of its position, each seat's share of the playouts scoring it in [0, 1] with its mean points,
// the feature's cells; the same search as without it (the margins and marks unchanged), and the
// same again for the same seed.
TEST(Review, OwnershipPerDecisionIsTheProtocolsShapeAndChangesNothingElse) {
  const Game g = greedy_against_random(5, 7);
  ASSERT_TRUE(g.over());
  ReviewOptions o;
  o.playouts = 100;
  const Review plain = review_record(g.record(), o);
  o.ownership = true;
  const Review rv = review_record(g.record(), o);
  ASSERT_EQ(rv.decisions.size(), plain.decisions.size());
  const nlohmann::json j = review_to_json(rv, g.record());
  const nlohmann::json jp = review_to_json(plain, g.record());
  ASSERT_EQ(j["decisions"].size(), rv.decisions.size());
  int features = 0, owned = 0, over_one = 0;
  for (std::size_t i = 0; i < rv.decisions.size(); ++i) {
    const ReviewedDecision& d = rv.decisions[i];
    const ReviewedDecision& p = plain.decisions[i];
    EXPECT_EQ(d.best, p.best);
    EXPECT_EQ(d.played_stats.margin, p.played_stats.margin) << "ownership changes nothing of the search";
    EXPECT_EQ(d.loss, p.loss);
    EXPECT_EQ(d.mark, p.mark);
    EXPECT_FALSE(jp["decisions"][i].contains("ownership")) << "only when asked";
    const nlohmann::json& own = j["decisions"][i]["ownership"];
    ASSERT_TRUE(own.is_array());
    EXPECT_LE(own.size(), kReviewOwnershipFeatures);
    int prev_tiles = 1 << 30;
    for (const nlohmann::json& f : own) {
      ++features;
      for (const char* k : {"feature", "x", "y", "port", "anchor", "tiles", "cells", "pieces", "share", "points"})
        EXPECT_TRUE(f.contains(k)) << k;
      EXPECT_LE(f["tiles"].get<int>(), prev_tiles) << "largest first";
      prev_tiles = f["tiles"].get<int>();
      // its cells: as many as its tiles (a monastery's: its own), one of them its named tile
      if (f["feature"] == "monastery")
        EXPECT_EQ(f["cells"].size(), 1U);
      else
        EXPECT_EQ(f["cells"].size(), f["tiles"].get<std::size_t>());
      EXPECT_NE(std::find(f["cells"].begin(), f["cells"].end(), nlohmann::json{f["x"], f["y"]}), f["cells"].end());
      ASSERT_EQ(f["share"].size(), 2U);
      ASSERT_EQ(f["points"].size(), 2U);
      ASSERT_EQ(f["pieces"].size(), 2U);
      double sum = 0;
      for (std::size_t s = 0; s < 2; ++s) {
        const double share = f["share"][s].get<double>(), points = f["points"][s].get<double>();
        EXPECT_GE(share, 0);
        EXPECT_LE(share, 1);
        EXPECT_GE(points, 0);
        EXPECT_EQ(share > 0, points > 0) << "a seat scores points from it exactly in the playouts it scores it";
        sum += share;
      }
      // a tied majority scores for both seats: the shares sum past 1 by the playouts with a tie
      // (a fifth of the features in this game, mostly fields)
      EXPECT_LE(sum, 2.0005);
      over_one += sum > 1.0005;
      owned += sum > 0;
    }
  }
  EXPECT_GT(features, 3 * static_cast<int>(rv.decisions.size())) << "several open features per decision";
  EXPECT_GT(owned, features / 4) << "many features are scored by someone";
  EXPECT_LT(over_one, features / 2) << "shares summing past 1 (ties) are the exception";
  const Review again = review_record(g.record(), o);
  EXPECT_EQ(review_to_json(again, g.record()), j) << "deterministic for a seed and playouts";
}

}  // namespace
}  // namespace carc
