// The keep's own state (docs/architecture.md, "A game's own state"): its block in State, read
// with keep_state(s). The wall: six stones lying on spaces of the score track, each on the track or
// held by the player who reached its space first.
#pragma once

#include "rules/rules.hpp"

namespace carc {

// The board: tiles only within this many cells of the start tile, on both axes (a 7x7 square).
inline constexpr int kKeepReach = 3;
// The wall's stones, by the score-track space each lies on, and what each scores at the end.
inline constexpr int kKeepStones = 6;
inline constexpr std::array<int, kKeepStones> kKeepStoneSpace = {5, 10, 15, 20, 25, 30};
inline constexpr std::array<int, kKeepStones> kKeepStoneValue = {2, 2, 3, 3, 4, 4};
// The keep: the player (players, tied) with the most stones at the end scores this.
inline constexpr int kKeepBonus = 5;
inline constexpr u8 kOnWall = 0xFF;

struct KeepState {
  // who holds each stone (a seat), kOnWall while it lies on the score track
  std::array<u8, kKeepStones> holder{};
};
static_assert(sizeof(KeepState) == kKeepStones && sizeof(KeepState) <= kGameStateBytes);
static_assert(std::is_trivially_copyable_v<KeepState>);

[[nodiscard]] inline KeepState& keep_state(State& s) { return game_state<KeepState>(s); }
[[nodiscard]] inline const KeepState& keep_state(const State& s) { return game_state<KeepState>(s); }

// The stones a player holds, and what they score at the end.
[[nodiscard]] inline int keep_stones(const State& s, int p) {
  int n = 0;
  for (const u8 h : keep_state(s).holder) n += h == p;
  return n;
}
[[nodiscard]] inline int keep_stone_points(const State& s, int p) {
  int v = 0;
  for (std::size_t i = 0; i < kKeepStones; ++i) v += keep_state(s).holder[i] == p ? kKeepStoneValue[i] : 0;
  return v;
}

}  // namespace carc
