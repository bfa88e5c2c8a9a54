// selfplay: K bot games, aggregate statistics as JSON (or a short table).
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "ai/driver.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/text.hpp"

namespace carc::cli {

namespace {
struct Opts {
  std::string game = "base";
  std::string tiles;
  int players = 2;
  std::string bots = "random";
  int games = 100;
  u64 seed = 1;
  std::vector<std::string> options;
  std::string records;
  bool json = false;
};

void run(const Opts& o) {
  auto rs = load_ruleset(o.game, o.options, o.tiles);
  auto specs = split_bot_list(o.bots);
  if (specs.size() == 1) specs.assign(static_cast<std::size_t>(o.players), specs[0]);
  if (specs.size() != static_cast<std::size_t>(o.players))
    throw InputError(fmt::format("--bots names {} bots for {} players", specs.size(), o.players));
  check_seed_range(o.seed, static_cast<u64>(o.games), fmt::format("{} games", o.games));
  for (const auto& sp : specs) make_bot(sp);  // validate early
  if (!o.records.empty()) prepare_output_folder(o.records, "--records");  // before any game is played
  const auto np = static_cast<std::size_t>(o.players);
  std::vector<double> sum(np), sumsq(np), wins(np);
  double turns = 0, placements = 0, placement_turns = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < o.games; ++k) {
    std::vector<PlayerInfo> players;
    std::vector<std::unique_ptr<Bot>> bots;
    for (std::size_t p = 0; p < np; ++p) {
      players.push_back({fmt::format("{} {}", specs[p], p + 1), specs[p]});
      bots.push_back(make_bot(specs[p]));
    }
    const u64 seed = o.seed + static_cast<u64>(k);
    Game g(rs, players, seed);
    Rng rng(seed ^ 0x5DEECE66DULL);
    long pl = 0;
    play_out(g, bots, rng, &pl);
    const State& s = g.state();
    placements += static_cast<double>(pl);
    placement_turns += s.turn;
    turns += s.turn;
    int best = -1;
    for (std::size_t p = 0; p < np; ++p) best = std::max<int>(best, s.score[p]);
    int nbest = 0;
    for (std::size_t p = 0; p < np; ++p) nbest += s.score[p] == best;
    for (std::size_t p = 0; p < np; ++p) {
      sum[p] += s.score[p];
      sumsq[p] += static_cast<double>(s.score[p]) * s.score[p];
      if (s.score[p] == best) wins[p] += 1.0 / nbest;
    }
    if (!o.records.empty()) save_record(g.record(), *rs, fmt::format("{}/game-{:05}.json", o.records, k + 1));
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  nlohmann::json j;
  j["game"] = o.game;
  j["options"] = rs->options;
  j["players"] = o.players;
  j["bots"] = specs;
  j["games"] = o.games;
  j["seed"] = o.seed;
  const double n = o.games;
  for (std::size_t p = 0; p < np; ++p) {
    const double mean = sum[p] / n;
    const double var = n > 1 ? std::max(0.0, (sumsq[p] - n * mean * mean) / (n - 1)) : 0.0;
    j["seats"].push_back({{"seat", p + 1}, {"bot", specs[p]}, {"mean_score", mean}, {"stdev_score", std::sqrt(var)}, {"win_share", wins[p] / n}});
  }
  j["mean_legal_placements_per_turn"] = placement_turns > 0 ? placements / placement_turns : 0.0;
  j["mean_turns"] = turns / n;
  j["seconds"] = secs;
  j["games_per_second"] = n / secs;
  if (o.json) {
    std::cout << j.dump(2) << "\n";
    return;
  }
  fmt::print("{} games of {} ({} players) in {:.2f}s ({:.0f} games/s)\n", o.games, o.game, o.players, secs, n / secs);
  for (const auto& seat : j["seats"])
    fmt::print("  seat {} {:8}: mean {:6.1f}  stdev {:5.1f}  wins {:5.1f}%\n", seat["seat"].get<int>(), seat["bot"].get<std::string>(),
               seat["mean_score"].get<double>(), seat["stdev_score"].get<double>(), 100 * seat["win_share"].get<double>());
  fmt::print("  mean turns {:.1f}, mean legal placements per turn {:.1f}\n", turns / n, j["mean_legal_placements_per_turn"].get<double>());
}
}  // namespace

void register_selfplay(CLI::App& app) {
  auto o = std::make_shared<Opts>();
  auto* c = app.add_subcommand("selfplay", "Play games between bots and print aggregate statistics");
  c->add_option("--game", o->game, fmt::format("Game: {}", fmt::join(game_ids(), ", ")))->capture_default_str();
  c->add_option("--tiles", o->tiles, "Tile file to use instead of the game's default (e.g. a corrected reconstruction)");
  add_int_option(c, "--players", o->players, 2, 5, "Number of players (2-5)");
  c->add_option("--bots", o->bots, "Comma-separated bot per seat (random, greedy), or one for all")->capture_default_str();
  add_int_option(c, "--games", o->games, 1, 100000000, "Number of games");
  add_seed_option(c, "--seed", o->seed, "Seed of the first game (game k uses seed+k)");
  c->add_option("--option", o->options, "Rule option name=value (e.g. farmers=off); repeatable");
  c->add_option("--records", o->records, "Write each game's record into this folder");
  c->add_flag("--json", o->json, "Print the statistics as JSON");
  c->callback([o] { run(*o); });
}

}  // namespace carc::cli
