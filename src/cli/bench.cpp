// bench: fixed seeded random games -> a deterministic signature (changes only when behaviour
// changes), then throughput measured with Google Benchmark on one core.
#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>
#include <fmt/format.h>

#include <chrono>

#include "ai/mcts.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "games/games.hpp"
#include "protocol/protocol.hpp"
#include "server/accounts/credentials.hpp"
#include "server/pairing.hpp"
#include "view/view.hpp"

namespace carc::cli {

namespace {

struct GameStats {
  u64 hash = 0;
  long turns = 0, decisions = 0, score = 0;
};

// One random game on a reused State: uniform over placements, then over {pieces, pass}.
// Placements by sample_placement (uniform over legal placements, without listing them) unless
// `enumerate` is set, which lists every placement first as the random bot does.
inline void random_game(State& s, const Ruleset& rs, int players, u64 seed, MoveList& ml, GameStats& st, bool enumerate = false) {
  Rng rng(seed);
  init_state(s, rs, players);
  while (s.phase != Phase::Over) {
    if (is_chance(s)) {
      chance_step(s, rng);
      continue;
    }
    Move m;
    if (s.phase == Phase::Place && !enumerate) {
      m = sample_placement(s, rng);
      ml.clear();
    } else {
      legal_moves(s, ml);
      m = ml[rng.below(static_cast<u32>(ml.size()))];
    }
    st.hash = (st.hash ^ (static_cast<u64>(ml.size()) << 32 ^ static_cast<u64>(static_cast<u8>(m.x)) << 16 ^
                          static_cast<u64>(static_cast<u8>(m.y)) << 8 ^ m.rot ^ static_cast<u64>(m.feat) << 24)) *
              0x100000001B3ULL;
    apply_move(s, m);
    ++st.decisions;
  }
  st.turns += s.turn;
  for (int p = 0; p < players; ++p) {
    st.score += s.score[static_cast<std::size_t>(p)];
    st.hash = (st.hash ^ static_cast<u64>(s.score[static_cast<std::size_t>(p)] + 1000)) * 0x100000001B3ULL;
  }
}

// A fixed mid-game position: 35 random turns from seed 7, with the next tile drawn.
std::unique_ptr<State> midgame(const Ruleset& rs, int players) {
  auto st = std::make_unique<State>();
  init_state(*st, rs, players);
  Rng rng(7);
  MoveList ml;
  while (st->turn < 35 && st->phase != Phase::Over) {
    if (is_chance(*st)) {
      chance_step(*st, rng);
      continue;
    }
    legal_moves(*st, ml);
    apply_move(*st, ml[rng.below(static_cast<u32>(ml.size()))]);
  }
  while (is_chance(*st)) chance_step(*st, rng);
  return st;
}

// Quick pairing (server/pairing.hpp, docs/pairing.md): one wave of one pool of 1,000 waiting
// players, whatever the game: 4 seats, tables of 2 or 3 after 3 waves missed; ratings 900..2100
// (densest at 1500), 0..5 waves missed, one in five with a rating range, 1,000 blocks. Each
// iteration copies the pool (pair_wave takes it by value) and cuts the wave.
void BM_PairingWave1000(benchmark::State& bs) {
  namespace pairing = carc::server::pairing;
  Rng rng(51);
  std::vector<pairing::Waiting> pool;
  for (int i = 0; i < 1000; ++i) {
    pairing::Waiting w;
    w.player = fmt::format("player{}", i);
    w.rating = 900.0 + rng.below(401) + rng.below(401) + rng.below(401);
    w.since_ms = 1'000'000 - rng.below(60'000);
    w.waves_missed = static_cast<int>(rng.below(6));
    if (rng.below(5) == 0) w.range = std::pair{w.rating - 100 - rng.below(300), w.rating + 100 + rng.below(300)};
    pool.push_back(std::move(w));
  }
  pairing::Blocks blocks;
  for (int k = 0; k < 1000; ++k) blocks.add(pool[rng.below(1000)].player, pool[rng.below(1000)].player);
  pairing::PoolParams p;
  p.seats = 4;
  p.min_seats = 2;
  std::size_t tables = 0;
  for (auto _ : bs) {
    pairing::Wave w = pairing::pair_wave(pool, blocks, 1'000'000, p);
    tables = w.tables.size();
    benchmark::DoNotOptimize(w.left.data());
  }
  bs.counters["tables"] = static_cast<double>(tables);
}

// A login's cost (server/accounts/credentials.hpp, docs/security.md): one Argon2id hash and one
// verification at the server's parameters (2 passes over 64 MiB), on one thread.
void BM_LoginHash(benchmark::State& bs) {
  namespace accounts = carc::server::accounts;
  const accounts::HashParams p;  // the server's
  const std::string password = "correct horse battery staple";
  for (auto _ : bs) {
    const std::string h = accounts::hash_password(password, p);
    benchmark::DoNotOptimize(accounts::verify_password(h, password));
  }
}

struct Opts {
  std::string game = "base";
  std::string tiles;
  int players = 2;
  int games = 2000;
  u64 seed = 1;
  std::vector<std::string> options;
  double min_time = 2.0;
  std::string filter;  // Google Benchmark cases whose name matches (a regex); empty: all
  bool no_gbench = false;
};

void run(const Opts& o) {
  auto rs = load_ruleset(o.game, o.options, o.tiles);
  check_seed_range(o.seed, static_cast<u64>(o.games), fmt::format("{} games", o.games));
  auto s = std::make_unique<State>();
  MoveList ml;
  GameStats st;
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < o.games; ++k) random_game(*s, *rs, o.players, o.seed + static_cast<u64>(k), ml, st);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string opts;
  for (const auto& [k, v] : rs->options) opts += fmt::format(" {}={}", k, v);
  fmt::print("bench: game {}{}, {} random {}-player games, seeds {}..{}\n", o.game, opts, o.games, o.players, o.seed,
             o.seed + static_cast<u64>(o.games) - 1);
  fmt::print("signature: {:016x}  turns {}  decisions {}  score-sum {}\n", st.hash, st.turns, st.decisions, st.score);
  fmt::print("signature-run: {:.0f} games/s ({:.3f}s)\n", o.games / secs, secs);
  if (o.no_gbench) return;

  const Ruleset* rsp = rs.get();
  const int players = o.players;
  benchmark::RegisterBenchmark(fmt::format("RandomGame/{}/{}p", o.game, players).c_str(), [rsp, players](benchmark::State& bs) {
    auto st2 = std::make_unique<State>();
    MoveList ml2;
    GameStats gs;
    u64 seed = 1;
    for (auto _ : bs) random_game(*st2, *rsp, players, seed++, ml2, gs);
    benchmark::DoNotOptimize(gs.hash);
    bs.counters["games/s"] = benchmark::Counter(static_cast<double>(bs.iterations()), benchmark::Counter::kIsRate);
  });
  benchmark::RegisterBenchmark(fmt::format("RandomGameListingMoves/{}/{}p", o.game, players).c_str(), [rsp, players](benchmark::State& bs) {
    auto st2 = std::make_unique<State>();
    MoveList ml2;
    GameStats gs;
    u64 seed = 1;
    for (auto _ : bs) random_game(*st2, *rsp, players, seed++, ml2, gs, true);
    benchmark::DoNotOptimize(gs.hash);
    bs.counters["games/s"] = benchmark::Counter(static_cast<double>(bs.iterations()), benchmark::Counter::kIsRate);
  });
  benchmark::RegisterBenchmark(fmt::format("MoveGen/{}/midgame", o.game).c_str(), [rsp, players](benchmark::State& bs) {
    auto st2 = midgame(*rsp, players);
    MoveList ml2;
    for (auto _ : bs) {
      legal_moves(*st2, ml2);
      benchmark::DoNotOptimize(ml2.size());
    }
  });
  benchmark::RegisterBenchmark(fmt::format("StateCopy/{}/midgame", o.game).c_str(), [rsp, players](benchmark::State& bs) {
    auto a = midgame(*rsp, players);
    auto b = std::make_unique<State>();
    for (auto _ : bs) {
      *b = *a;
      benchmark::DoNotOptimize(b->turn);
    }
  });
  // Front ends: the view of a mid-game position (built and written as JSON), and the engine
  // protocol's legal + play requests, per pair, averaged over whole games (text in, text out).
  const std::string game_id = o.game;
  benchmark::RegisterBenchmark(fmt::format("View/{}/midgame", o.game).c_str(), [game_id, players](benchmark::State& bs) {
    std::vector<PlayerInfo> ps;
    for (int p = 0; p < players; ++p) ps.push_back({fmt::format("p{}", p + 1), ""});
    Game g(load_ruleset(game_id, {}), ps, 5);
    Rng rng(5);
    MoveList ml2;
    while (g.state().turn < 35 && !g.over()) {
      legal_moves(g.state(), ml2);
      g.play(ml2[rng.below(static_cast<u32>(ml2.size()))]);
    }
    std::size_t bytes = 0;
    for (auto _ : bs) {
      const std::string text = view::to_json(view::build_view(g)).dump();
      bytes = text.size();
      benchmark::DoNotOptimize(text.data());
    }
    bs.counters["bytes"] = static_cast<double>(bytes);
  });
  benchmark::RegisterBenchmark(
      fmt::format("ProtocolLegalPlay/{}/whole-games", o.game).c_str(), [game_id, players](benchmark::State& bs) {
        protocol::EngineSession ses({}, 1);
        std::string players_json;
        for (int p = 0; p < players; ++p) players_json += fmt::format("{}\"p{}\"", p ? "," : "", p + 1);
        const std::string new_req =
            fmt::format(R"({{"cmd":"new","game":"{}","players":[{}],"seed":1}})", game_id, players_json);
        std::string id;
        bool over = true;
        long games = 0;
        for (auto _ : bs) {
          if (over) {
            bs.PauseTiming();
            if (!id.empty()) ses.handle(R"({"cmd":"close","game":")" + id + R"("})");
            const std::string r = ses.handle(new_req);
            id = r.substr(r.find(R"("game":")") + 8);
            id = id.substr(0, id.find('"'));
            ++games;
            bs.ResumeTiming();
          }
          const std::string legal = ses.handle(R"({"cmd":"legal","game":")" + id + R"("})");
          // the first option's (first) notation, cut from the reply text as a client would read it
          const auto k = legal.find(R"("notation)");
          const auto q = legal.find('"', legal.find(':', k));
          const std::string mv = legal.substr(q + 1, legal.find('"', q + 1) - q - 1);
          const std::string played = ses.handle(R"({"cmd":"play","game":")" + id + R"(","move":")" + mv + R"("})");
          over = played.find(R"("over":true)") != std::string::npos;
          benchmark::DoNotOptimize(played.data());
        }
        bs.counters["games"] = static_cast<double>(games);
      });
  // The legal request alone at a mid-game tile placement and at the piece decision after it
  for (const char* phase : {"place", "piece"}) {
    const std::string ph = phase;
    benchmark::RegisterBenchmark(
        fmt::format("ProtocolLegal/{}/midgame-{}", o.game, ph).c_str(), [game_id, players, ph](benchmark::State& bs) {
          protocol::EngineSession ses({}, 1);
          std::string players_json;
          for (int p = 0; p < players; ++p) players_json += fmt::format("{}\"p{}\"", p ? "," : "", p + 1);
          ses.handle(fmt::format(R"({{"cmd":"new","game":"{}","players":[{}],"seed":5}})", game_id, players_json));
          for (int k = 0; k < 400; ++k) {  // greedy play to turn 35, then (piece) the first placement
            const std::string listing = ses.handle(R"({"cmd":"games"})");
            const bool at_place = listing.find(R"("phase":"place")") != std::string::npos;
            const auto tp = listing.find(R"("turn":)");
            if (at_place && tp != std::string::npos && std::stoi(listing.substr(tp + 7)) >= 35) break;
            ses.handle(R"({"cmd":"bot","game":"g1","bot":"greedy","play":true})");
          }
          if (ph == "piece") {
            const std::string legal = ses.handle(R"({"cmd":"legal","game":"g1"})");
            const auto q = legal.find('"', legal.find(':', legal.find(R"("notation)")));
            ses.handle(R"({"cmd":"play","game":"g1","move":")" + legal.substr(q + 1, legal.find('"', q + 1) - q - 1) +
                       R"("})");
          }
          std::size_t bytes = 0;
          for (auto _ : bs) {
            const std::string r = ses.handle(R"({"cmd":"legal","game":"g1"})");
            bytes = r.size();
            benchmark::DoNotOptimize(r.data());
          }
          bs.counters["bytes"] = static_cast<double>(bytes);
        });
  }
  // MCTS: playouts (policy games to the end) from the opening position, and one search of 2000
  // playouts from the mid-game position, single-threaded (its playouts/s counts whole iterations:
  // selection, the prior's evaluations, the playout to the game's horizon)
  benchmark::RegisterBenchmark(fmt::format("MctsPlayout/{}/opening", o.game).c_str(), [rsp, players](benchmark::State& bs) {
    auto root = std::make_unique<State>();
    init_state(*root, *rsp, players);
    Rng rng(3);
    while (is_chance(*root)) chance_step(*root, rng);
    auto st2 = std::make_unique<State>();
    for (auto _ : bs) {
      *st2 = *root;
      benchmark::DoNotOptimize(mcts_playout(*st2, rng));
    }
    bs.counters["playouts/s"] = benchmark::Counter(static_cast<double>(bs.iterations()), benchmark::Counter::kIsRate);
  });
  // One search of 2000 playouts, single-threaded, from the opening (the first tile drawn) and from
  // the mid-game position: its playouts/s counts whole iterations (selection, the prior's
  // evaluations, the widening, the playout to the game's horizon), per CPU-second.
  for (const bool opening : {true, false}) {
    benchmark::RegisterBenchmark(
        fmt::format("MctsMove/{}/{}/2000playouts", o.game, opening ? "opening" : "midgame").c_str(),
        [rsp, players, opening](benchmark::State& bs) {
          std::unique_ptr<State> st2;
          if (opening) {
            st2 = std::make_unique<State>();
            init_state(*st2, *rsp, players);
            Rng r0(3);
            while (is_chance(*st2)) chance_step(*st2, r0);
          } else {
            st2 = midgame(*rsp, players);
          }
          MctsOptions mo;
          mo.playouts = 2000;
          mo.threads = 1;
          auto bot = make_mcts_bot(mo);
          MoveList ml2;
          legal_moves(*st2, ml2);
          Rng rng(11);
          for (auto _ : bs) benchmark::DoNotOptimize(bot->choose(*st2, ml2, rng));
          bs.counters["playouts/s"] =
              benchmark::Counter(static_cast<double>(bs.iterations()) * mo.playouts, benchmark::Counter::kIsRate);
        })
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::RegisterBenchmark("BM_PairingWave1000", BM_PairingWave1000)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_LoginHash", BM_LoginHash)->Unit(benchmark::kMillisecond);
  std::string mt = fmt::format("--benchmark_min_time={}", o.min_time);
  std::string prog = "carcassonne-bench";
  std::string fl = "--benchmark_filter=" + o.filter;
  std::vector<char*> argv = {prog.data(), mt.data()};
  if (!o.filter.empty()) argv.push_back(fl.data());
  int argc = static_cast<int>(argv.size());
  benchmark::Initialize(&argc, argv.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
}  // namespace

void register_bench(CLI::App& app) {
  auto o = std::make_shared<Opts>();
  auto* c = app.add_subcommand("bench", "Deterministic signature and throughput of seeded random games");
  c->add_option("--game", o->game, fmt::format("Game: {}", fmt::join(game_ids(), ", ")))->capture_default_str();
  c->add_option("--tiles", o->tiles, "Tile file to use instead of the game's default (e.g. a corrected reconstruction)");
  add_int_option(c, "--players", o->players, 2, 5, "Players");
  add_int_option(c, "--games", o->games, 1, 100000000, "Games in the signature run");
  add_seed_option(c, "--seed", o->seed, "First seed");
  c->add_option("--option", o->options, "Rule option name=value; repeatable");
  add_double_option(c, "--min-time", o->min_time, 0.01, 3600, "Seconds per Google Benchmark case");
  c->add_option("--filter", o->filter, "Only the Google Benchmark cases whose name matches this regular expression (e.g. View|Protocol)");
  c->add_flag("--no-gbench", o->no_gbench, "Only the signature run");
  c->callback([o] { run(*o); });
}

}  // namespace carc::cli
