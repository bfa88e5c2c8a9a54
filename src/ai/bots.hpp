// ai: bots choose among the moves the engine lists. Specs: "random", "greedy".
#pragma once
#include <memory>
#include <string>

#include "rules/rules.hpp"

namespace carc {

class Bot {
 public:
  virtual ~Bot() = default;
  // s is at a Place or Piece decision of the player to move; legal is legal_moves(s).
  virtual Move choose(const State& s, const MoveList& legal, Rng& rng) = 0;
  [[nodiscard]] virtual std::string spec() const = 0;
};

// Throws InputError for an unknown spec.
std::unique_ptr<Bot> make_bot(std::string_view spec);
bool is_bot_spec(std::string_view spec);

// The greedy bot's evaluation of a position for `player`: its score plus what its pieces on
// unfinished features are worth now, plus a little per follower in supply, minus the best
// opponent's same sum.
double greedy_eval(const State& s, int player);

}  // namespace carc
