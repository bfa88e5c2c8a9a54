// The learning interface (src/rl, docs/python.md): chance odds as the samplers draw; every legal
// move of random games of every game has its own action in the fixed space, and actions turn
// with the board; explicit chance nodes reproduce the engine's own seeded games.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "engine/engine.hpp"
#include "games/games.hpp"
#include "rl/batched_mcts.hpp"
#include "rl/encoding.hpp"
#include "rl/vec_env.hpp"

namespace carc::test {
namespace {

const std::vector<std::string> kGames = game_ids();

// Plays random decisions and sampled chance until `stop` says so or the game ends.
template <class F>
void random_walk(State& s, Rng& rng, F&& at_node) {
  MoveList ml;
  while (s.phase != Phase::Over) {
    if (!at_node(s)) return;
    if (is_chance(s)) {
      chance_step(s, rng);
      continue;
    }
    legal_moves(s, ml);
    apply_move(s, ml[rng.below(static_cast<u32>(ml.size()))]);
  }
}

TEST(Rl, ChanceOddsAreWhatTheSamplersDraw) {
  for (const std::string spread : {"even", "uniform"})
    for (const std::string& game : kGames) {
      auto rs = game == "amazonas" ? load_ruleset(game, {"spread=" + spread}) : load_ruleset(game, {});
      State s;
      init_state(s, *rs, 2);
      Rng rng(7);
      int checked = 0, nodes = 0;
      random_walk(s, rng, [&](const State& st) {
        if (!is_chance(st) || (st.phase == Phase::Draw && st.pile == 0 && !st.extra) || ++nodes % 9 != 1) return true;
        std::vector<std::pair<int, double>> odds;
        chance_odds(st, odds);
        double sum = 0;
        for (const auto& o : odds) sum += o.second;
        EXPECT_NEAR(sum, 1.0, 1e-9) << game;
        std::map<int, int> seen;
        Rng r2(static_cast<u64>(nodes));
        const int n = 4000;
        for (int i = 0; i < n; ++i)
          ++seen[st.phase == Phase::Chance ? rs->game->hooks.sample_chance(st, r2) : sample_draw(st, r2)];
        for (const auto& [o, p] : odds) EXPECT_NEAR(static_cast<double>(seen[o]) / n, p, 0.03) << game << " outcome " << o;
        for (const auto& [o, c] : seen)
          EXPECT_TRUE(std::any_of(odds.begin(), odds.end(), [&](const auto& x) { return x.first == o; })) << game << " drew " << o << " at odds 0";
        ++checked;
        return true;
      });
      EXPECT_GT(checked, 5) << game;
    }
}

TEST(Rl, EveryLegalMoveHasItsOwnActionAndTurnsWithTheBoard) {
  for (const std::string& game : kGames)
    for (int players : {2, 4}) {
      auto rs = load_ruleset(game, {});
      const rl::Encoding enc(rs, players);
      std::set<std::string> blocks_met;
      long decisions = 0, actions = 0;
      for (u64 seed = 1; seed <= 6; ++seed) {
        State s;
        init_state(s, *rs, players);
        Rng rng(seed);
        random_walk(s, rng, [&](const State& st) {
          if (is_chance(st)) return true;
          rl::Encoding::Legal l;
          enc.legal(st, l);
          EXPECT_FALSE(l.actions.empty());
          ++decisions;
          actions += static_cast<long>(l.actions.size());
          std::set<int> distinct(l.actions.begin(), l.actions.end());
          EXPECT_EQ(distinct.size(), l.actions.size()) << game << ": two legal moves share an action";
          for (std::size_t i = 0; i < l.moves.size(); ++i) {
            const int a = l.actions[i];
            EXPECT_GE(a, 0);
            EXPECT_LT(a, enc.num_actions());
            for (const auto& b : enc.blocks())
              if (a >= b.offset && a < b.offset + b.size) blocks_met.insert(b.name);
            if (enc.turn_symmetric()) {
              // a full turn is no turn; a quarter turn keeps distinct actions distinct
              int t = a;
              for (int k = 0; k < 4 && t >= 0; ++k) t = enc.turn_action(st, t, 1);
              if (t >= 0) {
                EXPECT_EQ(t, a) << game;
              }
            }
          }
          return true;
        });
      }
      EXPECT_TRUE(blocks_met.count("place") && blocks_met.count("piece") && blocks_met.count("pass")) << game;
      EXPECT_GT(decisions, 6 * 100) << game;  // whole games were walked
      std::printf("%s, %d players: %ld decisions, %ld legal actions\n", game.c_str(), players, decisions, actions);
    }
}

TEST(Rl, ExplicitChanceFollowsTheSeededGame) {
  for (const std::string& game : kGames) {
    auto rs = load_ruleset(game, {});
    const std::vector<PlayerInfo> players = {{"a", ""}, {"b", ""}};
    Game ref(rs, players, 99);
    Game ex = Game::with_explicit_chance(rs, players, 99);
    Rng pick(5);
    MoveList ml;
    while (!ref.over()) {
      while (is_chance(ex.state()) && !ex.over()) ex.apply_chance_outcome(ex.sample_chance_outcome());
      ASSERT_EQ(ex.state().phase, ref.state().phase) << game;
      ASSERT_EQ(ex.state().in_hand, ref.state().in_hand) << game;
      legal_moves(ref.state(), ml);
      const Move m = ml[pick.below(static_cast<u32>(ml.size()))];
      ref.play(m);
      ex.play(m);
    }
    while (is_chance(ex.state()) && !ex.over()) ex.apply_chance_outcome(ex.sample_chance_outcome());
    EXPECT_TRUE(ex.over()) << game;
    EXPECT_EQ(record_to_json(ex.record(), *rs), record_to_json(ref.record(), *rs)) << game;
    // an outcome that cannot happen changes nothing
    Game fresh = Game::with_explicit_chance(rs, players, 1);
    const std::string before = record_to_json(fresh.record(), *rs);
    EXPECT_THROW(fresh.apply_chance_outcome(200), InputError);
    EXPECT_THROW(fresh.apply_chance_outcome(-1), InputError);
    EXPECT_EQ(record_to_json(fresh.record(), *rs), before);
  }
}

// Batched search and the batched environment under the sanitizers too (the Python tests cover the
// interface): whole games of every game through VecEnv on two threads, and searches from their
// positions with a uniform evaluator, visits only on legal actions.
TEST(Rl, VecEnvAndBatchedSearchPlayWholeGames) {
  for (const std::string& game : kGames) {
    auto rs = load_ruleset(game, {});
    auto enc = std::make_shared<rl::Encoding>(rs, 2);
    rl::VecEnv::Options o;
    o.num_envs = 3;
    o.threads = 2;
    o.records = true;
    o.seed = 5;
    rl::VecEnv env(enc, o);
    env.reset();
    std::vector<std::int32_t> a(3);
    int finished = 0;
    for (int step = 0; step < 5000 && finished < 3; ++step) {
      env.sample_actions(a.data());
      env.step(a.data());
      for (int i = 0; i < 3; ++i) finished += env.done()[i];
    }
    EXPECT_GE(finished, 3) << game;
    for (const std::string& text : env.take_records()) {
      const Game g = Game::replay(record_from_json(text, "vec_env"));
      EXPECT_TRUE(g.over()) << game;
    }
    rl::AzOptions ao;
    ao.simulations = 24;
    rl::BatchedMcts mcts(enc, ao);
    std::vector<const State*> roots;
    for (int i = 0; i < 3; ++i) roots.push_back(&env.state(i));
    std::vector<float> visits;
    long calls = 0;
    mcts.search(roots, [&](int n, const float*, float* policy, float* values) {
      ++calls;
      std::fill(policy, policy + static_cast<std::size_t>(n) * static_cast<std::size_t>(enc->num_actions()), 1.0f);
      std::fill(values, values + static_cast<std::size_t>(n) * 2, 0.0f);
    }, visits);
    EXPECT_EQ(calls, 24) << game;
    for (int i = 0; i < 3; ++i) {
      rl::Encoding::Legal l;
      enc->legal(*roots[static_cast<std::size_t>(i)], l);
      float sum = 0;
      for (int x = 0; x < enc->num_actions(); ++x) {
        const float v = visits[static_cast<std::size_t>(i * enc->num_actions() + x)];
        sum += v;
        if (v > 0) {
          EXPECT_NE(std::find(l.actions.begin(), l.actions.end(), x), l.actions.end()) << game;
        }
      }
      EXPECT_EQ(sum, 23.0f) << game;
    }
  }
}

// Gymnasium's next-step autoreset: the step that ends a game shows its final position (no legal
// action, to_play kTerminal), the next one ignores its action and starts the slot's next game;
// truncate() cuts a game the same way. A same-step env of the seed deals the same games.
TEST(Rl, VecEnvNextStepResetShowsTheEndThenRestarts) {
  for (const std::string& game : kGames) {
    auto enc = std::make_shared<rl::Encoding>(load_ruleset(game, {}), 2);
    rl::VecEnv::Options o;
    o.num_envs = 2;
    o.seed = 3;
    o.observations = false;
    o.next_step_reset = true;
    rl::VecEnv env(enc, o);
    env.reset();
    std::vector<std::int32_t> a(2);
    bool ended = false;
    for (int step = 0; step < 5000 && !ended; ++step) {
      env.sample_actions(a.data());
      env.step(a.data());
      if (!env.done()[0]) continue;
      ended = true;
      const long long started = env.episodes() + env.done()[1];  // game 1 may end at this step too
      EXPECT_EQ(env.to_play()[0], rl::VecEnv::kTerminal) << game;
      EXPECT_EQ(env.state(0).phase, Phase::Over) << game;
      const std::uint8_t* m = env.masks();
      EXPECT_EQ(std::count(m, m + enc->num_actions(), 1), 0) << game;
      env.sample_actions(a.data());
      EXPECT_EQ(a[0], 0) << game;  // any id: the action is ignored
      a[0] = enc->num_actions() - 1;
      env.step(a.data());
      EXPECT_FALSE(env.done()[0]) << game;
      EXPECT_NE(env.state(0).phase, Phase::Over) << game;
      EXPECT_GE(env.to_play()[0], 0) << game;
      EXPECT_EQ(env.episodes(), started + 1) << game;  // game 0 restarted (and game 1 if it ended)
    }
    EXPECT_TRUE(ended) << game;
    env.truncate({1});
    env.sample_actions(a.data());
    EXPECT_EQ(a[1], 0) << game;
    const long long before = env.episodes();
    env.step(a.data());
    EXPECT_EQ(env.episodes(), before + 1) << game;
    EXPECT_FALSE(env.done()[1]) << game;
    EXPECT_THROW(env.truncate({2}), InputError) << game;
  }
}

}  // namespace
}  // namespace carc::test
