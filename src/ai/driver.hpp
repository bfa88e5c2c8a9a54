// ai/driver: the one loop that lets bots play a Game. Each decision goes to the bot of the player
// who makes it (to_move: a game's choice off turn goes to its decider's bot), the bot chooses among
// the legal moves and the game plays the move, which also settles the chance events up to the next
// decision (draws, a game's own chance). Every command, the server's bot turns and the tests that
// let bots play go through play_bots; the rest of this file is its common uses.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "ai/bots.hpp"
#include "engine/engine.hpp"

namespace carc {

// What play_bots did: the decisions the bots took, and whether it stopped at a decision of a
// player who has no bot (bot_of gave nullptr: a person decides next).
struct BotRun {
  long decisions = 0;
  bool needs_person = false;
};

// play_bots' default callbacks: never stop early, watch nothing.
struct NeverStop {
  bool operator()(const Game&, long) const { return false; }
};
struct WatchNothing {
  void operator()(const State&, const MoveList&, const Move&) const {}
};

// Plays the bots' decisions until the game is over or waits for a draw that no source can give
// (stalled), until stop(game, decisions so far) says so (asked before each decision), or until
// the player to move has no bot. bot_of(seat) gives the seat's Bot* or nullptr. on_move(state,
// legal, move) sees each decision before it is played. Throws InputError if a decision has no
// legal move, and what Game::play throws.
template <class BotOf, class Stop = NeverStop, class OnMove = WatchNothing>
BotRun play_bots(Game& g, BotOf&& bot_of, Rng& rng, Stop&& stop = {}, OnMove&& on_move = {}) {
  BotRun run;
  MoveList ml;
  while (!g.over() && !g.stalled() && !stop(static_cast<const Game&>(g), run.decisions)) {
    const State& s = g.state();
    Bot* bot = bot_of(to_move(s));
    if (!bot) {
      run.needs_person = true;
      break;
    }
    legal_moves(s, ml);
    if (ml.empty()) throw InputError("the bot has no legal move");
    bot->foresee(g.generator());
    const Move m = bot->choose(s, ml, rng);
    on_move(s, static_cast<const MoveList&>(ml), m);
    g.play(m);
    ++run.decisions;
  }
  return run;
}

// A stop for play_bots: the turn in progress is over. The turn's decisions are its tile (Place),
// then what the tile asks for (Choose: an Amazonas double tile, Safari's hand-ins and jeep, by
// whoever decides them) and its piece (Piece); the next Place is the next turn (a bonus turn too).
inline bool turn_over(const Game& g, long decisions) {
  const Phase ph = g.state().phase;
  return ph != Phase::Choose && ph != Phase::Piece && (decisions > 0 || ph != Phase::Place);
}

// Plays until the game is over (or stalls for lack of scripted draws), each seat by its bot.
// Returns the number of decisions taken; `placements` (if given) accumulates the number of legal
// tile placements seen.
inline long play_out(Game& g, std::vector<std::unique_ptr<Bot>>& bots, Rng& rng, long* placements = nullptr) {
  const auto bot_of = [&bots](int p) { return bots[static_cast<std::size_t>(p)].get(); };
  const auto count = [placements](const State& s, const MoveList& ml, const Move&) {
    if (placements && s.phase == Phase::Place) *placements += static_cast<long>(ml.size());
  };
  return play_bots(g, bot_of, rng, NeverStop{}, count).decisions;
}

// One turn (its tile, then its choices and piece) by one bot, whoever decides (a game's choice
// off turn included).
inline void play_bot_turn(Game& g, Bot& bot, Rng& rng) {
  const auto its_bot = [&bot](int) { return &bot; };
  play_bots(g, its_bot, rng, turn_over);
}

// The rest of the turn in progress, each decision by the bot of the player who makes it (a
// scorer's token hand-in, even off turn). Returns false, with the decision still to make, when
// that player has no bot (bot_of gives nullptr: a person decides it); true when the turn is over.
inline bool play_bot_turn(Game& g, const std::function<Bot*(int)>& bot_of, Rng& rng) {
  return !play_bots(g, bot_of, rng, turn_over).needs_person;
}

}  // namespace carc
