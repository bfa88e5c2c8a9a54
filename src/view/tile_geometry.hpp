// view/tile_geometry: where things lie inside a tile, in the unit tile ((0,0) north-west corner,
// (1,1) south-east, y down, board orientation): the ports, where a piece on a feature stands, the
// lakes of a tile. One place for every front end (the terminal, SVG, the browser via the
// view's anchors) so that pictures and pieces agree.
#pragma once
#include <array>

#include "rules/rules.hpp"

namespace carc::view {

struct Point {
  double x = 0, y = 0;
};

// A unit-tile point rotated r quarter turns clockwise about the centre.
inline Point rot_pt(Point p, int r) {
  for (int i = 0; i < ((r % 4) + 4) % 4; ++i) p = Point{1.0 - p.y, p.x};
  return p;
}
// Where port p meets the tile edge (C: the centre).
inline Point port_pt(int p) {
  if (p == kCentre) return {0.5, 0.5};
  return rot_pt(Point{(1.0 + 2.0 * (p % 3)) / 6.0, 0.0}, p / 3);
}
inline Point toward_centre(Point p, double k) { return {p.x + (0.5 - p.x) * k, p.y + (0.5 - p.y) * k}; }

// Where a piece on local feature f of a tile stands: at the port naming the feature (a side's
// middle port first, as in records), pulled in from the edge by its class.
Point piece_anchor(const RotatedTile& rt, int f, FClass cls);

// A centre feature (a lake) of a placed tile: an oval in the unit tile.
struct Lake {
  Point c{0.5, 0.5};
  double rx = 0.22, ry = 0.16;
};
using Lakes = std::array<Lake, kMaxTileFeatures>;
// Features f and g of a tile are joined on it (either names the other in its links).
bool linked(const TileType& tt, int f, int g);
// Where the lakes of a placed tile lie: the only one at C; with several, each smaller and pulled
// toward the ports of the rivers linked to it.
Lakes lakes_of(const Ruleset& rs, const TileType& tt, const RotatedTile& rt);

// Where a piece on local feature f of a placed tile stands: piece_anchor, but on a lake (a network piece)
// at the lake's upper rim, clear of its symbols.
Point piece_spot(const Ruleset& rs, const TileType& tt, const RotatedTile& rt, int f);

}  // namespace carc::view
