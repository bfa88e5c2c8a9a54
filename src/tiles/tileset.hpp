// tiles: the compiled tile tables of one game, loaded and validated from data/tiles/<game>.tiles.json
// (format: docs/tile-format.md). Everything the hot path needs per (tile type, rotation) is
// precomputed here: which local feature sits at each port, the packed side codes used for edge
// matching, and which rotations give a distinct picture.
#pragma once
#include <string>
#include <vector>

#include "board/geometry.hpp"

namespace carc {

// How a feature type behaves in the generic feature graph.
enum class FClass : u8 {
  Path,   // road-like: middle ports, closed when no open end is left (road, tributary, river, trail)
  Area,   // city-like: closed when no open side is left (city, village, forest, bush)
  Field,  // never closed (field, jungle, meadow, savanna)
  Point,  // centre feature closed by its 8 neighbours (monastery, baobab)
  Centre, // centre feature that never closes and touches no side (Hunters' lake); at C or portless
};

struct FeatureTypeDef {
  std::string name;
  FClass cls = FClass::Field;
  u8 terrain = 0;  // edge-matching code (1..15); thirds with equal codes match
  bool claimable = true;
  // Scoring: points per tile (distinct tiles; for a Point feature: tiles in its 3x3 area) and per
  // attribute unit (shields, fruit, ...), when completed and at the end of the game.
  int completed_per_tile = 0, completed_per_attr = 0, final_per_tile = 0, final_per_attr = 0;
  // Names of the symbols this feature type carries, by attribute slot (slot 0 is the one scored per
  // attribute unit): base city {"shield"}, Amazonas tributary {"fruit", "boat"}.
  std::vector<std::string> attrs = {};
  u8 piece_kind = 0;  // which kind of piece claims it (0: follower/explorer, 1: camp/hut)
  // Features with a network kind join networks (Hunters' river systems: rivers joined through
  // lakes); a piece of that kind claims the whole network (a hut), independently of piece_kind.
  u8 network_kind = 0xFF;
  // What a piece of kind 0 on this type is called, when the game names it by where it stands
  // (Hunters: a fisher on a river, a gatherer in a forest, a hunter in a meadow); "" the piece's name.
  std::string role = {};
};

inline constexpr int kMaxTileFeatures = 16;
inline constexpr int kMaxTileTypes = 96;

struct TileFeature {
  u8 type = 0;             // index into the game's feature types
  u16 ports = 0;           // bit p: canonical port p (bit 12: centre)
  std::array<u8, kAttrs> attr{};  // attribute counts by the feature type's slots (base: [0] = shields)
  u16 borders = 0;         // bit f: this (field-like) feature borders local feature f (an Area)
  u16 links = 0;           // bit f: joined to local feature f in a network (a river into its lake)
  u8 special = 0;          // 1 + index into the game's specials (0: none)
};

struct RotatedTile {
  std::array<u8, 13> port_feat{};  // board port -> local feature (0xFF none)
  u64 side_code = 0;               // 16 bits per board side: 3 thirds x 4-bit terrain
  std::array<u8, kMaxTileFeatures> feat_sides{};  // bit s: feature touches board side s
  u8 corners = 0;  // bit c: board corner c (0 NE, 1 SE, 2 SW, 3 NW) can hold a watering-hole quarter
};

struct TileType {
  std::string id;
  std::string description;
  int count = 0;       // copies in the box, the start board's included
  int draw_count = 0;  // copies in the draw pile
  u8 nfeat = 0;
  std::array<TileFeature, kMaxTileFeatures> feats{};
  std::array<RotatedTile, 4> rot{};
  std::array<u8, 4> distinct_rots{};  // rotations with distinct pictures (first nrots entries)
  u8 nrots = 0;
  std::array<u8, 4> same_rot{0, 1, 2, 3};  // per rotation: the distinct rotation with the same picture
  u8 centre = 0xFF;  // local feature at C, if any
  u8 kind = 0;       // index into the game's tile kinds (0: an ordinary tile)
  u8 pile = 0;       // TilePile
  u8 east = 0xFF;    // multi-cell tile: the tile type occupying the cell east of this one (rotation 0)
  u16 network_feats = 0;  // bit f: local feature f joins networks (its type has a network kind)
};

enum TilePile : u8 {
  kPileDraw = 0,   // shuffled into the draw pile
  kPileAside = 1,  // set aside; a rule brings it into play (Amazonas double tiles)
  kPilePart = 2,   // a further cell of a multi-cell tile, never placed alone
  kPileStart = 3,  // start board only
  kPileBonus = 4,  // a second draw pile, drawn from when a rule says so (Hunters' bonus tiles)
};

struct StartCell {
  int tile = 0, x = 0, y = 0, rot = 0;
};

// One side of the start board: the cells placed at the start, for a range of player counts.
struct StartSide {
  std::string name;
  int min_players = 1, max_players = 99;
  int track = 0;  // game-specific length of a track printed on it (Amazonas: boat spaces)
  std::vector<StartCell> cells;
};

struct TileSet {
  std::string game;
  std::string path;
  std::vector<TileType> types;
  std::vector<StartSide> sides;
  std::vector<StartCell> start;  // cells of the first side
  int total = 0;
  int draw_total = 0;
  int bonus_total = 0;  // tiles in the bonus pile
  std::array<int, 8> kind_total{};  // tiles in the draw pile by tile kind
  std::array<std::vector<u8>, 8> kind_types{};  // the draw pile's types by tile kind, in file order
  std::vector<u8> aside_types;  // the set-aside types in file order (Amazonas: bit k of State::aside is the k-th)
  // ids earlier versions of the tile file gave a type (a tile's "aliases"): records and stored
  // games that name them read as the type's id today
  std::vector<std::pair<std::string, int>> aliases;
  [[nodiscard]] int find(std::string_view id) const;
  // The type's id today for an id or an alias; anything else unchanged.
  [[nodiscard]] std::string canonical(std::string_view id) const;
  [[nodiscard]] const StartSide& side_for(int nplayers) const;
};

// Loads and validates a tile file against the game's feature types (with their attribute names)
// and tile kinds (first = the default kind). Throws InputError naming the file and the tile.
TileSet load_tileset(const std::string& path, const std::vector<FeatureTypeDef>& ftypes,
                     const std::vector<std::string>& tile_kinds = {"land"}, const std::vector<std::string>& specials = {});
TileSet parse_tileset(const std::string& text, const std::string& path,
                      const std::vector<FeatureTypeDef>& ftypes, const std::vector<std::string>& tile_kinds = {"land"},
                      const std::vector<std::string>& specials = {});

}  // namespace carc
