// fit-value: fits the search's evaluation (ai/value, docs/mcts.md "Fitted value") on games played
// with the playout policy, and reports how well it predicts final margins on other games, beside
// the greedy evaluation's prediction.
#include <fmt/format.h>

#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

#include "ai/bots.hpp"
#include "ai/mcts.hpp"
#include "ai/value.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "games/games.hpp"

namespace carc::cli {

namespace {
struct Opts {
  std::string game = "base";
  std::vector<std::string> options;
  int players = 2;
  int games = 20000;
  int test_games = 2000;
  u64 seed = 1;
  double ridge = 1e-4;
  std::string bots = "playout";
  std::string save;        // write the weights to this file (mcts:weights=FILE reads them)
  double blend = 1;        // the weights: blend * the fit + (1 - blend) * the previous weights
  std::string blend_with;  // the previous weights: this file, or the game's (empty)
  std::string dump;        // write every training row here (float32: features, then the target)
};

// Plays one game from the start, with the playout policy (no bots) or with bots[(p + rot) % n] in
// seat p; calls at(s) at every tile placement decision, then returns the final state.
template <typename F>
State play(const Ruleset& rs, int players, u64 seed, const std::vector<std::unique_ptr<Bot>>& bots, int rot, F&& at) {
  State s;
  init_state(s, rs, players);
  Rng rng(seed);
  MoveList ml;
  while (s.phase != Phase::Over) {
    if (is_chance(s)) {
      chance_step(s, rng);
      continue;
    }
    if (s.phase == Phase::Place) at(s);
    if (!bots.empty()) {
      legal_moves(s, ml);
      Bot& bot = *bots[static_cast<std::size_t>(to_move(s) + rot) % bots.size()];
      apply_move(s, bot.choose(s, ml, rng));
    } else {
      mcts_playout_move(s, rng, ml);
    }
  }
  return s;
}

void run(const Opts& o) {
  auto rs = load_ruleset(o.game, o.options, "");
  check_seed_range(o.seed, static_cast<u64>(o.games + o.test_games), "the games");
  const auto np = static_cast<std::size_t>(o.players);
  std::vector<std::unique_ptr<Bot>> bots;
  std::string who = "the playout policy";
  if (o.bots != "playout") {
    who.clear();
    for (const std::string& spec : split_bot_list(o.bots)) {
      bots.push_back(make_bot(spec));
      who += (who.empty() ? "" : ", ") + bots.back()->spec();
    }
    if (bots.size() > 1) who += " (seats rotating)";
  }
  // the training positions: each player's features, and the points it scored after them
  ValueFit fit;
  // the rows as they are in memory: float32, little-endian on every machine we build for
  static_assert(std::endian::native == std::endian::little, "fit-value --dump writes little-endian float32");
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> dump(o.dump.empty() ? nullptr : std::fopen(o.dump.c_str(), "wb"),
                                                       &std::fclose);
  if (!o.dump.empty() && !dump)
    throw InputError(fmt::format("fit-value --dump: cannot write {}: {}", o.dump, std::strerror(errno)));
  std::vector<std::pair<ValueFeatures, int>> rows;
  std::array<ValueFeatures, kMaxPlayers> x{};
  for (int k = 0; k < o.games; ++k) {
    rows.clear();
    const State end = play(*rs, o.players, o.seed + static_cast<u64>(k), bots, k, [&](const State& s) {
      value_features(s, x);
      for (std::size_t p = 0; p < np; ++p) rows.emplace_back(x[p], s.score[p]);
    });
    for (std::size_t i = 0; i < rows.size(); ++i) fit.add(rows[i].first, end.score[i % np] - rows[i].second);
    if (dump) {
      std::vector<float> buf;
      for (std::size_t i = 0; i < rows.size(); ++i) {
        for (const double v : rows[i].first) buf.push_back(static_cast<float>(v));
        buf.push_back(static_cast<float>(end.score[i % np] - rows[i].second));
      }
      if (std::fwrite(buf.data(), sizeof(float), buf.size(), dump.get()) != buf.size())
        throw InputError(fmt::format("fit-value --dump: writing {} failed: {}", o.dump, std::strerror(errno)));
    }
  }
  if (dump && std::fclose(dump.release()) != 0)
    throw InputError(fmt::format("fit-value --dump: writing {} failed: {}", o.dump, std::strerror(errno)));
  std::vector<double> w = fit.solve(o.ridge);
  if (o.blend < 1) {
    std::vector<double> prev;
    if (!o.blend_with.empty()) {
      prev = load_value_weights(o.blend_with);
    } else {
      State s;
      init_state(s, *rs, o.players);
      const std::vector<double>* g = value_weights(s);
      if (!g) throw InputError(fmt::format("fit-value --blend: {} has no fitted weights to blend with", o.game));
      prev = *g;
    }
    for (std::size_t k = 0; k < w.size(); ++k) w[k] = o.blend * w[k] + (1 - o.blend) * prev[k];
  }
  // the test: final margins predicted by the score alone, the greedy evaluation and the fit
  double se_score = 0, se_greedy = 0, se_fit = 0;
  long n = 0;
  std::vector<std::array<std::array<double, kMaxPlayers>, 3>> preds;
  for (int k = 0; k < o.test_games; ++k) {
    preds.clear();
    const State end = play(*rs, o.players, o.seed + static_cast<u64>(o.games + k), bots, k, [&](const State& s) {
      std::array<std::array<double, kMaxPlayers>, 3> e{};
      score_margins(s, e[0]);
      greedy_evals(s, e[1]);
      value_evals(s, w, e[2]);
      preds.push_back(e);
    });
    std::array<double, kMaxPlayers> final{};
    score_margins(end, final);
    for (const auto& e : preds)
      for (std::size_t p = 0; p < np; ++p) {
        const double m = final[p];
        se_score += (e[0][p] - m) * (e[0][p] - m);
        se_greedy += (e[1][p] - m) * (e[1][p] - m);
        se_fit += (e[2][p] - m) * (e[2][p] - m);
        ++n;
      }
  }
  const auto rmse = [&](double se) { return std::sqrt(se / static_cast<double>(std::max<long>(1, n))); };
  fmt::print("{} ({} players, {}): fitted on {} positions of {} games (seed {}), tested on {} positions of {} more\n",
             o.game, o.players, who, fit.rows(), o.games, o.seed, n, o.test_games);
  fmt::print("final margin's RMS error: score only {:.2f}, greedy evaluation {:.2f}, fitted value {:.2f} points\n",
             rmse(se_score), rmse(se_greedy), rmse(se_fit));
  const auto& names = value_feature_names();
  for (std::size_t k = 0; k < w.size(); ++k)
    if (w[k] != 0) fmt::print("  {:20} {:9.4f}\n", names[k], w[k]);
  fmt::print("g.value_weights[{}] = {{", o.players);
  for (std::size_t k = 0; k < w.size(); ++k) fmt::print("{}{:.4g}", k ? ", " : "", std::abs(w[k]) < 1e-9 ? 0.0 : w[k]);
  fmt::print("}};\n");
  if (!o.save.empty()) {
    save_value_weights(o.save, w,
                       fmt::format("fit-value --game {} --players {} --games {} --seed {} --bots {}{}", o.game,
                                   o.players, o.games, o.seed, o.bots,
                                   o.blend < 1 ? fmt::format(" --blend {} with {}", o.blend,
                                                             o.blend_with.empty() ? "the game's weights" : o.blend_with)
                                               : ""));
    fmt::print("weights written to {}\n", o.save);
  }
}
}  // namespace

void register_fit_value(CLI::App& app) {
  auto o = std::make_shared<Opts>();
  auto* c = app.add_subcommand("fit-value", "Fit the search's evaluation on played-out games and report its error");
  c->add_option("--game", o->game, fmt::format("Game: {}", fmt::join(game_ids(), ", ")))->capture_default_str();
  c->add_option("--option", o->options, "Rule option name=value (e.g. farmers=off); repeatable");
  add_int_option(c, "--players", o->players, 2, 5, "Number of players (2-5)");
  add_int_option(c, "--games", o->games, 1, 10000000, "Games to fit on");
  add_int_option(c, "--test-games", o->test_games, 1, 10000000, "Further games to measure the error on");
  add_seed_option(c, "--seed", o->seed, "Seed of the first game (game k uses seed+k)");
  c->add_option("--bots", o->bots,
                "Who plays the games: \"playout\" (the search's playout policy), a bot for every seat (e.g. "
                "mcts:playouts=1,value=2: one ply judged by the game's fitted value) or a comma-separated list "
                "of bots, seats rotating game by game")
      ->capture_default_str();
  c->add_option("--ridge", o->ridge, "Ridge added to the normal equations' diagonal, relative to its mean")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  c->add_option("--save", o->save, "Write the weights to this file (for mcts:weights=FILE)");
  c->add_option("--blend", o->blend, "Keep blend times the fit plus (1 - blend) times the previous weights")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  c->add_option("--blend-with", o->blend_with, "The previous weights for --blend: a file (default: the game's own)");
  c->add_option("--dump", o->dump,
                "Write the training rows to this file: per player and tile placement, the features then the "
                "points still to come, as little-endian float32");
  c->callback([o] { run(*o); });
}

}  // namespace carc::cli
