// Amazonas' own state (docs/architecture.md, "A game's own state"): its block in State, read with
// amazonas_state(s). The boats' race is the generic per-player track (State::track).
#pragma once

#include "rules/rules.hpp"

namespace carc {

struct AmazonasState {
  u64 aside = 0;                          // the set-aside double tiles still to come (a bit per type, in tile order)
  i8 front = 0;                           // x of the most downstream Amazon cell
  std::array<u8, kMaxPlayers> scratch{};  // per player, within one hook call (boat icons reached)
};
static_assert(sizeof(AmazonasState) <= kGameStateBytes);
static_assert(std::is_trivially_copyable_v<AmazonasState>);

[[nodiscard]] inline AmazonasState& amazonas_state(State& s) { return game_state<AmazonasState>(s); }
[[nodiscard]] inline const AmazonasState& amazonas_state(const State& s) { return game_state<AmazonasState>(s); }

namespace games {
// Amazonas boat places: dense ranks (1 = furthest downstream); with 2 players a 2nd boat not
// directly behind the 1st has no place (0). Used by Amazon scoring, the river mouth and the UI.
std::array<int, kMaxPlayers> amazonas_boat_ranks(const State& s);
// Amazonas double tiles still set aside (tile types of their first cells, in file order).
StaticVec<u8, 64> amazonas_aside_tiles(const State& s);
}  // namespace games

}  // namespace carc
