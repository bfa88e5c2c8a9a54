// server/bot_turn: a bot's decisions for one turn of a game on the server (what a worker sends
// for a job): from the game's record (without its seed: replayed up to the decision now), every
// decision of `seat` up to the next draw or the next player's decision, in the engine's notation.
#pragma once
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ai/bot_limits.hpp"
#include "engine/engine.hpp"

namespace carc::server {

// `budget` is a worker's CPU budget (ai/bot_limits.hpp, make_bot_within): a searching bot (a
// level, or mcts) gets at most budget.max_ms per decision and budget.max_threads threads (0: as
// its spec says). Bots with a fixed number of playouts keep it: their strength does not depend on
// the machine. Throws InputError if the record does not replay or `seat` does not decide now.
std::vector<std::string> bot_decisions(const std::string& record_json, int seat, const std::string& spec,
                                       std::uint64_t seed, const BotLimits& budget = {});
// Thrown by bot_decisions when `cancel` turned true: the search stopped early, and its moves are
// not the bot's (a drain gives the job back rather than playing them).
struct SearchCancelled : std::runtime_error {
  SearchCancelled() : std::runtime_error("the bot's search was cancelled") {}
};
// The same from a copy of the game (a worker inside the server: no record to read). `cancel`
// (if given) stops the search within a few playouts once it is true (SearchCancelled).
std::vector<std::string> bot_decisions(Game g, int seat, const std::string& spec, std::uint64_t seed,
                                       const BotLimits& budget = {}, const std::atomic<bool>* cancel = nullptr);

}  // namespace carc::server
