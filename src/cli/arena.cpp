// arena: bots against each other over N games with rotating seats; win shares with 95% confidence
// intervals, mean score margins, Elo ratings (Bradley-Terry maximum likelihood over every pair of
// bots in every game) and each bot's CPU time per decision, as a table or JSON.
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <ctime>
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
  std::string bots;
  int games = 20;
  u64 seed = 1;
  std::vector<std::string> options;
  std::string records;
  bool json = false;
  bool quiet = false;
};

// The process's CPU time in seconds (every thread: an mcts bot's own threads count).
double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// A seat's bot, timed: the CPU time of its decisions with a choice (more than one legal move; a
// bot answers the others at once) and their number, added to its bot's totals.
class TimedBot final : public Bot {
 public:
  TimedBot(std::unique_ptr<Bot> inner, double& cpu, long& decisions)
      : inner_(std::move(inner)), cpu_(cpu), decisions_(decisions) {}
  [[nodiscard]] BotReport report() const override { return inner_->report(); }
  [[nodiscard]] std::string spec() const override { return inner_->spec(); }
  void set_stop(const SearchStop& stop) override { inner_->set_stop(stop); }
  void foresee(const Rng* generator) override { inner_->foresee(generator); }
  Move choose(const State& s, const MoveList& legal, Rng& rng) override {
    if (legal.size() < 2) return inner_->choose(s, legal, rng);
    const double t0 = cpu_seconds();
    const Move m = inner_->choose(s, legal, rng);
    cpu_ += cpu_seconds() - t0;
    ++decisions_;
    return m;
  }

 private:
  std::unique_ptr<Bot> inner_;
  double& cpu_;
  long& decisions_;
};

// Elo ratings from pairwise results: wins[i][j] = games (or half games) bot i beat bot j.
// Bradley-Terry by minorization-maximization, then 400 log10 scale, the first bot at 0.
std::vector<double> elo(const std::vector<std::vector<double>>& wins) {
  const std::size_t n = wins.size();
  std::vector<double> g(n, 1.0);
  for (int it = 0; it < 2000; ++it) {
    std::vector<double> ng(n);
    for (std::size_t i = 0; i < n; ++i) {
      double w = 0, d = 0;
      for (std::size_t j = 0; j < n; ++j) {
        if (i == j) continue;
        const double nij = wins[i][j] + wins[j][i];
        w += wins[i][j];
        if (nij > 0) d += nij / (g[i] + g[j]);
      }
      // a bot that never lost (or never won) gets a finite rating: half a game of prior each way
      ng[i] = (w + 0.5) / (d + 1.0 / (g[i] + 1.0));
    }
    g = ng;
  }
  std::vector<double> r(n);
  for (std::size_t i = 0; i < n; ++i) r[i] = 400.0 * std::log10(g[i] / g[0]);
  return r;
}

void run(const Opts& o) {
  auto rs = load_ruleset(o.game, o.options, o.tiles);
  const auto specs = split_bot_list(o.bots);
  const std::size_t n = specs.size();
  if (n < 2) throw InputError("--bots needs at least two bots, e.g. --bots mcts,greedy");
  if (n < static_cast<std::size_t>(rs->game->min_players) || n > static_cast<std::size_t>(rs->game->max_players))
    throw InputError(fmt::format("{} takes {} to {} players; --bots names {}", rs->game->title, rs->game->min_players,
                                 rs->game->max_players, n));
  check_seed_range(o.seed, (static_cast<u64>(o.games) - 1) / n + 1, fmt::format("{} games of {} seats", o.games, n));
  for (const auto& sp : specs) make_bot(sp);  // validate early
  const std::vector<std::string> labels = bot_labels(specs);  // two equal bots told apart
  if (!o.records.empty()) prepare_output_folder(o.records, "--records");  // before any game is played
  std::vector<double> wins(n), score(n), margin(n), margin_sq(n), cpu(n);
  std::vector<long> decisions(n);
  std::vector<std::vector<double>> pair(n, std::vector<double>(n, 0.0));
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = cpu_seconds();
  for (int k = 0; k < o.games; ++k) {
    // game k: the deal of seed + k / n, bots rotated k places (each deal is played from every seat)
    const std::size_t rot = static_cast<std::size_t>(k) % n;
    std::vector<std::size_t> bot_at(n);  // seat -> bot index
    std::vector<PlayerInfo> players;
    std::vector<std::unique_ptr<Bot>> bots;
    for (std::size_t seat = 0; seat < n; ++seat) {
      bot_at[seat] = (seat + rot) % n;
      players.push_back({fmt::format("{} ({})", specs[bot_at[seat]], bot_at[seat] + 1), specs[bot_at[seat]]});
      const std::size_t b = bot_at[seat];
      bots.push_back(std::make_unique<TimedBot>(make_bot(specs[b]), cpu[b], decisions[b]));
    }
    const u64 seed = o.seed + static_cast<u64>(k) / n;
    Game g(rs, players, seed);
    Rng rng(seed ^ 0x5DEECE66DULL ^ (static_cast<u64>(k) << 32));
    play_out(g, bots, rng);
    const State& s = g.state();
    int best = -100000;
    for (std::size_t seat = 0; seat < n; ++seat) best = std::max<int>(best, s.score[seat]);
    int nbest = 0;
    for (std::size_t seat = 0; seat < n; ++seat) nbest += s.score[seat] == best;
    std::string line;
    for (std::size_t seat = 0; seat < n; ++seat) {
      const std::size_t b = bot_at[seat];
      int other = -100000;
      for (std::size_t q = 0; q < n; ++q)
        if (q != seat) other = std::max<int>(other, s.score[q]);
      score[b] += s.score[seat];
      margin[b] += s.score[seat] - other;
      margin_sq[b] += static_cast<double>(s.score[seat] - other) * (s.score[seat] - other);
      if (s.score[seat] == best) wins[b] += 1.0 / nbest;
      for (std::size_t q = 0; q < n; ++q) {
        if (q == seat) continue;
        if (s.score[seat] > s.score[q]) pair[b][bot_at[q]] += 1.0;
        else if (s.score[seat] == s.score[q]) pair[b][bot_at[q]] += 0.5;
      }
      line += fmt::format("{}{} {}", seat ? ", " : "", labels[b], s.score[seat]);
    }
    if (!o.quiet && !o.json) fmt::print("game {:3} (seed {}): {}\n", k + 1, seed, line);
    if (!o.records.empty()) save_record(g.record(), *rs, fmt::format("{}/arena-{:05}.json", o.records, k + 1));
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu_secs = cpu_seconds() - cpu0;
  const auto ratings = elo(pair);
  const double N = o.games;
  nlohmann::json j;
  j["game"] = o.game;
  j["options"] = rs->options;
  j["games"] = o.games;
  j["seed"] = o.seed;
  j["seconds"] = secs;
  j["cpu_seconds"] = cpu_secs;
  for (std::size_t b = 0; b < n; ++b) {
    // Wilson score interval (stays inside 0..1 and is not degenerate at 0% or 100%)
    const double p = wins[b] / N, z = 1.96, z2 = z * z;
    const double centre = (p + z2 / (2 * N)) / (1 + z2 / N);
    const double half = z / (1 + z2 / N) * std::sqrt(std::max(p * (1 - p), 0.0) / N + z2 / (4 * N * N));
    const double mm = margin[b] / N;
    const double msd = N > 1 ? std::sqrt(std::max(0.0, (margin_sq[b] - N * mm * mm) / (N - 1))) : 0.0;
    j["bots"].push_back(
        {{"bot", labels[b]},
         {"spec", specs[b]},
         {"win_share", p},
         {"win_share_ci95", {std::max(0.0, centre - half), std::min(1.0, centre + half)}},
         {"mean_score", score[b] / N},
         {"mean_margin", mm},
         {"mean_margin_ci95", {mm - 1.96 * msd / std::sqrt(N), mm + 1.96 * msd / std::sqrt(N)}},
         {"elo", ratings[b]},
         {"decisions", decisions[b]},
         {"cpu_seconds", cpu[b]},
         {"cpu_ms_per_decision", decisions[b] > 0 ? 1000.0 * cpu[b] / static_cast<double>(decisions[b]) : 0.0}});
  }
  if (o.json) {
    std::cout << j.dump(2) << "\n";
    return;
  }
  fmt::print("{} games of {} ({} players, seats rotating) in {:.1f}s, {:.1f}s of CPU\n", o.games, o.game, n, secs,
             cpu_secs);
  fmt::print("  {:<28} {:>22} {:>8} {:>18} {:>7} {:>12}\n", "bot", "wins (95% CI)", "score", "margin (95% CI)", "Elo",
             "CPU/decision");
  for (const auto& b : j["bots"]) {
    const auto& ci = b["win_share_ci95"];
    const auto& mci = b["mean_margin_ci95"];
    fmt::print("  {:<28} {:5.1f}% ({:5.1f}-{:5.1f}%) {:8.1f} {:+6.1f} ({:+.1f},{:+.1f}) {:7.0f} {:9.2f} ms\n",
               b["bot"].get<std::string>(), 100 * b["win_share"].get<double>(), 100 * ci[0].get<double>(),
               100 * ci[1].get<double>(), b["mean_score"].get<double>(), b["mean_margin"].get<double>(),
               mci[0].get<double>(), mci[1].get<double>(), b["elo"].get<double>(),
               b["cpu_ms_per_decision"].get<double>());
  }
}
}  // namespace

void register_arena(CLI::App& app) {
  auto o = std::make_shared<Opts>();
  auto* c = app.add_subcommand("arena", "Bots against each other: win shares with 95% confidence intervals, margins, Elo");
  c->add_option("--game", o->game, fmt::format("Game: {}", fmt::join(game_ids(), ", ")))->capture_default_str();
  c->add_option("--tiles", o->tiles, "Tile file to use instead of the game's default");
  c->add_option("--bots", o->bots, "Comma-separated bots, one per seat (random, greedy, easy, normal, hard, mcts[:playouts=N|ms=N,threads=N])")->required();
  add_int_option(c, "--games", o->games, 1, 100000000,
                 "Number of games (seats rotate each game; each deal is played from every seat)");
  add_seed_option(c, "--seed", o->seed, "Seed of the first deal");
  c->add_option("--option", o->options, "Rule option name=value; repeatable");
  c->add_option("--records", o->records, "Write each game's record into this folder");
  c->add_flag("--json", o->json, "Print the results as JSON");
  c->add_flag("--quiet", o->quiet, "No line per game");
  c->callback([o] { run(*o); });
}

}  // namespace carc::cli
