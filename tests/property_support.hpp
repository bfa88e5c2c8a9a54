// Shared by the property tests: how many games to play, and an independent edge-matching check
// computed straight from the tile definitions (not from the engine's packed tables).
#pragma once
#include <algorithm>
#include <array>
#include <cstdlib>

#include "rules/rules.hpp"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
#define CARC_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define CARC_SANITIZED 1
#endif
#endif

namespace carc::test {

// How many games a property test plays: CARC_PROPERTY_SCALE (percent, default 100) scales the
// count; sanitizer builds run half of them (about 8x slower), unoptimised builds a tenth.
inline int scaled(int n) {
  int pct = 100;
#if defined(CARC_SANITIZED)
  pct = 50;
#endif
#if !defined(__OPTIMIZE__)
  pct = 10;
#endif
  if (const char* e = std::getenv("CARC_PROPERTY_SCALE"); e && *e) pct = std::max(1, std::atoi(e));
  return std::max(1, n * pct / 100);
}

// The local feature at a board port of a tile rotated `rot` quarter turns clockwise, straight
// from the tile definition (canonical port p shows at board port p + 3 rot).
inline int feat_at(const TileType& tt, int rot, int board_port) {
  const int canon = board_port == kCentre ? kCentre : ((board_port - 3 * rot) % 12 + 12) % 12;
  for (int f = 0; f < tt.nfeat; ++f)
    if (tt.feats[static_cast<std::size_t>(f)].ports & (1u << canon)) return f;
  return -1;
}

inline int type_at(const TileType& tt, int rot, int board_port) {
  const int f = feat_at(tt, rot, board_port);
  return f < 0 ? -1 : tt.feats[static_cast<std::size_t>(f)].type;
}

inline constexpr std::array<int, 4> kSx = {0, 1, 0, -1};  // N E S W
inline constexpr std::array<int, 4> kSy = {-1, 0, 1, 0};

// Does tile type `type` rotated `rot` fit at x,y: the cell is free, touches a tile, and every
// touching side matches third by third (third i of a side meets third 2-i of the facing side).
inline bool brute_fits(const State& s, int type, int x, int y, int rot) {
  if (s.placed_at(x, y) >= 0) return false;
  const TileType& tt = s.rs->tiles.types[static_cast<std::size_t>(type)];
  int touching = 0;
  for (int side = 0; side < 4; ++side) {
    const int idx = s.placed_at(x + kSx[static_cast<std::size_t>(side)], y + kSy[static_cast<std::size_t>(side)]);
    if (idx < 0) continue;
    ++touching;
    const PlacedTile& nb = s.tiles[static_cast<std::size_t>(idx)];
    const int opposite = (side + 2) % 4;
    for (int i = 0; i < 3; ++i)
      if (type_at(tt, rot, 3 * side + i) != type_at(s.type_of(nb), nb.rot, 3 * opposite + (2 - i))) return false;
  }
  return touching > 0;
}

}  // namespace carc::test
