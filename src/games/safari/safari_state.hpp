// Safari's own state (docs/architecture.md, "A game's own state"): its block in State, read with
// safari_state(s). Animal tokens by species in hands and piles, the two jeeps, the watering holes and a
// completed feature waiting for its scorers' token decisions.
#pragma once

#include <string>

#include "rules/rules.hpp"

namespace carc {

inline constexpr int kTokenKinds = 5;
inline constexpr int kMaxSpots = 50;  // watering holes (each holds one of the 50 tokens for good)

// Animal tokens by species: in each hand, in the face-down pile and in the discard pile; deals not
// yet drawn (chance events) and who gets them (0xFF: every player in turn).
struct Tokens {
  std::array<std::array<u8, kTokenKinds>, kMaxPlayers> hand{};
  std::array<u8, kTokenKinds> pile{}, discard{};
  u8 deal_left = 0, deal_to = 0;
};

// A watering hole at a grid point. The point (x, y) is the north-west corner of cell (x, y);
// quarter c is corner c (0 NE, 1 SE, 2 SW, 3 NW) of the cell touching the point there.
struct Spot {
  i8 x = 0, y = 0;
  std::array<u8, 4> token{0xFF, 0xFF, 0xFF, 0xFF};  // token kind per quarter, 0xFF empty
  std::array<u8, 4> owner{0xFF, 0xFF, 0xFF, 0xFF};  // owner of the piece on that quarter, 0xFF none
  u8 ntokens = 0;
  u8 closed = 0;
};

struct SafariState {
  Tokens tokens;
  // the two jeeps (neutral markers on empty cells; kOffBoard when taken)
  std::array<std::array<i8, 2>, 2> markers{};
  u8 marker_taken = 0;  // the jeep taken this turn: 1 + index, 0 none
  FlatVec<Spot, kMaxSpots> spots;
  // a bit per (placed tile, corner) whose grid point holds a watering hole
  std::array<u64, kMaxPlaced * 4 / 64> spot_corner{};
  // a completed feature waiting for its scorers' decisions (0xFFFF none): who still decides (a bit
  // per player) and what each chose
  u16 pend_root = 0xFFFF;
  u8 pend_mask = 0;
  std::array<u8, kMaxPlayers> pend_pick{0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
};
static_assert(sizeof(SafariState) <= kGameStateBytes);
static_assert(std::is_trivially_copyable_v<SafariState>);

// Safari's decisions fit a MoveList: jeep moves to frontier cells; founding on any usable corner
// or exploring any open quarter, each with a species in hand.
static_assert(2 * kMaxFrontier + kMaxUsableCorners * kTokenKinds + kMaxSpots * 4 * kTokenKinds <= 4096);

[[nodiscard]] inline SafariState& safari_state(State& s) { return game_state<SafariState>(s); }
[[nodiscard]] inline const SafariState& safari_state(const State& s) { return game_state<SafariState>(s); }

// The watering hole at grid point (px, py): its index in safari_state(s).spots, or -1.
inline int find_spot(const State& s, int px, int py) {
  const auto& spots = safari_state(s).spots;
  for (std::size_t i = 0; i < spots.size(); ++i)
    if (spots[i].x == px && spots[i].y == py) return static_cast<int>(i);
  return -1;
}

namespace games {
// Safari's token species by index (monkey, elephant, giraffe, lion, zebra).
const std::array<std::string, kTokenKinds>& safari_species();
// Points for n different species on a completed Safari trail or bush: 0, 1, 3, 6, 10, 15.
int safari_species_points(int n);
// What a Safari trail/bush would score for its majority if completed now (species + birds).
int safari_completed_value(const State& s, int root);
}  // namespace games

}  // namespace carc
