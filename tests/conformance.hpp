// The conformance suite (tests/test_conformance.cpp) runs the same checks over every game,
// the test games of tests/games/GAMES included, as OpenSpiel's basic_tests do: seeded random games
// and bot games of each game at each player count it supports. A game adds checks of its own (its
// own invariants: Safari's tokens, Amazonas' boats, Hunters' bonus turns, the base game's edge
// matching recomputed from the tile data) by registering a GameChecks beside the game, in
// src/games/<game>/test_*.cpp:
//
//   CARC_CONFORMANCE_CHECKS(safari, (conformance::Plan{.random_games = 240, .bot_games = 40}),
//                           SafariChecks)
//
// A game that registers nothing is still checked by every generic check (docs/testing.md).
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/engine.hpp"

namespace carc::test::conformance {

// A game's own checks, called by the suite's random games (a bare State, chance drawn from the
// game's generator `rng`, every step). One object per game id and test: it keeps its own tallies
// over all the random games and says what it expects of them at the end.
class GameChecks {
 public:
  virtual ~GameChecks() = default;
  // A new random game: game number k (0-based) of `games`, on `rs` with `players` players.
  virtual void begin(const Ruleset& rs, int players, int k) { (void)rs, (void)players, (void)k; }
  // A decision: the listed moves (the generic checks have already checked them against is_legal).
  // rng: the game's generator (a check may sample from it; the same seed plays the same game).
  virtual void decision(const State& s, const MoveList& ml, Rng& rng) { (void)s, (void)ml, (void)rng; }
  // The move to play at a decision, if the game picks its own way (to reach its rarer rules);
  // nullopt: the suite picks one uniformly (a placement half the time by sample_placement).
  virtual std::optional<Move> pick(const State& s, const MoveList& ml, Rng& rng) {
    (void)s, (void)ml, (void)rng;
    return std::nullopt;
  }
  // After one step: `m` is the move played, nullptr for a chance step (placed: false when the
  // drawn tile fit nowhere); `events` the step's score events.
  virtual void step(const State& before, const State& after, const Move* m, bool placed,
                    std::span<const ScoreEvent> events) {
    (void)before, (void)after, (void)m, (void)placed, (void)events;
  }
  // The pieces of `player` of kind `kind` neither in the supply nor on a board feature (Safari's
  // photographers at watering holes), for the generic conservation check.
  virtual int held_elsewhere(const State& s, int player, int kind) const {
    (void)s, (void)player, (void)kind;
    return 0;
  }
  // The game's end: the final state and every event of the game.
  virtual void end(const State& s, const EventSink& ev) { (void)s, (void)ev; }
  // After all the random games: what the game expects of its tallies (the rules exercised, no
  // violation counted). `games`: how many were played.
  virtual void expect(long games) { (void)games; }
};

// How much of a game the suite plays (before scaled(): sanitizer builds play half).
struct Plan {
  int random_games = 40;  // bare-State random games over all player counts
  int bot_games = 8;      // greedy and random bots through Game, over all player counts
};

struct Registration {
  Plan plan;
  std::function<std::unique_ptr<GameChecks>()> make;
};

// The test games are seen with CARCASSONNE_TEST_GAMES=1 (src/games/registry.cpp reads it on every
// call): set while one lives, restored after. A test over every game holds one while it runs.
class TestGamesOn {
 public:
  TestGamesOn();
  ~TestGamesOn();
  TestGamesOn(const TestGamesOn&) = delete;
  TestGamesOn& operator=(const TestGamesOn&) = delete;

 private:
  bool had_ = false;
  std::string saved_;
};
// Every game, the test games included: what a test over every game instantiates over.
std::vector<std::string> every_game();

// Registers a game's checks (from a static initializer); returns true.
bool register_checks(const std::string& game, Plan plan, std::function<std::unique_ptr<GameChecks>()> make);
// The game's registration; a default one (generic checks only) if it registered none.
Registration registration(const std::string& game);

}  // namespace carc::test::conformance

#define CARC_CONFORMANCE_CHECKS(game, plan, Checks)                       \
  [[maybe_unused]] static const bool carc_conformance_registered_##game = \
      ::carc::test::conformance::register_checks(#game, plan, [] { return std::make_unique<Checks>(); })
