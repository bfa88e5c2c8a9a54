// Drives a Game with bots: each decision goes to the bot of the player who decides it.
#pragma once
#include <vector>

#include "ai/bots.hpp"
#include "engine/engine.hpp"

namespace carc {

// Plays until the game is over (or stalls for lack of scripted draws). Returns the number of
// decisions taken; `placements` (if given) accumulates the number of legal tile placements seen.
inline long play_out(Game& g, std::vector<std::unique_ptr<Bot>>& bots, Rng& rng, long* placements = nullptr) {
  MoveList ml;
  long decisions = 0;
  while (!g.over() && !g.stalled()) {
    const State& s = g.state();
    legal_moves(s, ml);
    if (placements && s.phase == Phase::Place) *placements += static_cast<long>(ml.size());
    g.play(bots[static_cast<std::size_t>(to_move(s))]->choose(s, ml, rng));
    ++decisions;
  }
  return decisions;
}

}  // namespace carc
