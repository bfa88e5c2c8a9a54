#include "cli/terminal_view.hpp"

#include "core/io.hpp"
#include "view/view.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <map>

namespace carc::cli {

namespace {

constexpr int kCellW = 5, kCellH = 3;
constexpr int kLeft = 5;  // row labels: "%4d "

// Where each port (and C) is drawn inside a cell: {column, row}.
constexpr std::array<std::array<int, 2>, 13> kPortPos = {{
    {1, 0},
    {2, 0},
    {3, 0},  // NNW N NNE
    {4, 0},
    {4, 1},
    {4, 2},  // ENE E ESE
    {3, 2},
    {2, 2},
    {1, 2},  // SSE S SSW
    {0, 2},
    {0, 1},
    {0, 0},  // WSW W WNW
    {2, 1},  // C
}};

// Road shapes by the sides they leave through (bit 0 N, 1 E, 2 S, 3 W).
constexpr std::array<const char*, 16> kBox = {"·", "╵", "╶", "└", "╷", "│", "┌", "├",
                                              "╴", "┘", "─", "┴", "┐", "┤", "┬", "┼"};

enum class St : u8 { None, Field, Area, Path, Point, Shield, Piece, Slot, SlotLabel, Water, River, Lake, Forest, Hole, Jeep };

struct Glyph {
  std::string ch = " ";
  St st = St::None;
  u8 shade = 0;   // 0/1: checkerboard of tiles, 2: the last placed tile
  u8 player = 0;  // Piece: whose
  u8 fg = 0;      // a symbol drawn on a feature: bold in this colour on the feature's background
};
using Cell = std::array<std::array<Glyph, kCellW>, kCellH>;  // [row][column]

// Player colours (256-colour palette): background of a follower, and text colour of a name.
constexpr std::array<int, kMaxPlayers> kPlayerBg = {196, 27, 226, 40, 201};
constexpr std::array<int, kMaxPlayers> kPlayerFg = {231, 231, 16, 16, 231};
constexpr std::array<int, kMaxPlayers> kPlayerText = {196, 33, 178, 34, 201};

std::string sgr(const Glyph& g) {
  static constexpr std::array<int, 3> kFieldBg = {22, 28, 64};
  static constexpr std::array<int, 3> kAreaBg = {94, 130, 172};
  static constexpr std::array<int, 3> kPointBg = {88, 124, 160};
  static constexpr std::array<int, 3> kWaterBg = {25, 26, 32};
  static constexpr std::array<int, 3> kForestBg = {234, 236, 239};
  const std::size_t sh = std::min<std::size_t>(g.shade, 2);
  if (g.fg != 0) {
    int bg = kFieldBg[sh];
    if (g.st == St::Area || g.st == St::Shield) bg = kAreaBg[sh];
    if (g.st == St::Point) bg = kPointBg[sh];
    if (g.st == St::Water || g.st == St::River || g.st == St::Lake) bg = kWaterBg[sh];
    if (g.st == St::Forest) bg = kForestBg[sh];
    return fmt::format("\x1b[1;38;5;{};48;5;{}m", g.fg, bg);
  }
  switch (g.st) {
    case St::Water:
      return fmt::format("\x1b[38;5;153;48;5;{}m", kWaterBg[sh]);
    case St::River:
      return fmt::format("\x1b[1;38;5;117;48;5;{}m", kWaterBg[sh]);
    case St::Lake:
      return fmt::format("\x1b[1;38;5;231;48;5;{}m", kWaterBg[sh]);
    case St::Forest:
      return fmt::format("\x1b[38;5;40;48;5;{}m", kForestBg[sh]);
    case St::Hole:  // a watering hole's quarter: its token (or a free quarter) on water blue
      return "\x1b[1;38;5;231;48;5;31m";
    case St::Jeep:
      return "\x1b[1;38;5;16;48;5;214m";
    case St::None:
      return "";
    case St::Field:
      return fmt::format("\x1b[38;5;71;48;5;{}m", kFieldBg[sh]);
    case St::Area:
      return fmt::format("\x1b[38;5;223;48;5;{}m", kAreaBg[sh]);
    case St::Path:
      return fmt::format("\x1b[1;38;5;231;48;5;{}m", kFieldBg[sh]);
    case St::Point:
      return fmt::format("\x1b[1;38;5;231;48;5;{}m", kPointBg[sh]);
    case St::Shield:
      return fmt::format("\x1b[1;38;5;231;48;5;{}m", kAreaBg[sh]);
    case St::Piece: {
      const std::size_t p = std::min<std::size_t>(g.player, kMaxPlayers - 1);
      return fmt::format("\x1b[1;38;5;{};48;5;{}m", kPlayerFg[p], kPlayerBg[p]);
    }
    case St::Slot:
      return "\x1b[38;5;244m";
    case St::SlotLabel:
      return "\x1b[1m";
  }
  return "";
}

// One line of glyphs as text; trailing blanks dropped, colours only when asked.
std::string emit(std::vector<Glyph> line, bool color) {
  while (!line.empty() && line.back().st == St::None && line.back().ch == " ") line.pop_back();
  std::string out, cur;
  for (const Glyph& g : line) {
    if (color) {
      std::string want = sgr(g);
      if (want != cur) {
        if (!cur.empty()) out += "\x1b[0m";
        out += want;
        cur = std::move(want);
      }
    }
    out += g.ch;
  }
  if (color && !cur.empty()) out += "\x1b[0m";
  return out;
}

void put_text(std::vector<Glyph>& line, std::string_view text) {
  for (char c : text) line.push_back(Glyph{std::string(1, c)});
}

std::string point_letter(const FeatureTypeDef& fd) {
  if (fd.name.empty()) return "*";
  return std::string(1, static_cast<char>(std::toupper(static_cast<unsigned char>(fd.name[0]))));
}

// A path nobody can claim is water (the Amazon).
bool is_water(const FeatureTypeDef& fd) { return fd.cls == FClass::Path && !fd.claimable; }
// A claimable path joined into networks (rivers through lakes): drawn like a road, in blue.
bool is_river(const FeatureTypeDef& fd) { return fd.cls == FClass::Path && fd.claimable && fd.network_kind != 0xFF; }
// A centre feature nobody claims (a lake): "(2)" across the middle of the tile, its first symbol's count inside.
bool is_lake(const FeatureTypeDef& fd) { return fd.cls == FClass::Centre && !fd.claimable; }

// An area type with a mark of its own (a forest's trees) is drawn in it, the rest as city walls.
Glyph area_glyph(const GameDef& g, const FeatureTypeDef& fd) {
  const Presentation::Mark* m = nullptr;
  for (const auto& mk : g.present.marks)
    if (mk.name == fd.name && !mk.mark.empty()) m = &mk;
  return m ? Glyph{m->mark, St::Forest} : Glyph{"▒", St::Area};
}
St path_style(const FeatureTypeDef& fd) { return is_river(fd) ? St::River : St::Path; }

Glyph feature_glyph(const Ruleset& rs, const TileType& tt, int f, bool vertical) {
  if (f < 0 || f >= tt.nfeat) return Glyph{"·", St::Field};
  const FeatureTypeDef& fd = rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
  switch (fd.cls) {
    case FClass::Field:
      return Glyph{"·", St::Field};
    case FClass::Area:
      return area_glyph(*rs.game, fd);
    case FClass::Path:
      if (is_water(fd)) return Glyph{"≈", St::Water};
      return Glyph{vertical ? "│" : "─", path_style(fd)};
    case FClass::Centre:
    case FClass::Point:
      return Glyph{point_letter(fd), St::Point};
  }
  return Glyph{"·", St::Field};
}

FClass feature_class(const Ruleset& rs, const TileType& tt, int f) {
  if (f < 0 || f >= tt.nfeat) return FClass::Field;
  return rs.ftype(tt.feats[static_cast<std::size_t>(f)].type).cls;
}

bool water_feature(const Ruleset& rs, const TileType& tt, int f) {
  return f >= 0 && f < tt.nfeat && is_water(rs.ftype(tt.feats[static_cast<std::size_t>(f)].type));
}

// A game's mark for a symbol, special or feature type name (Presentation::marks), or nullptr.
const Presentation::Mark* mark_of(const GameDef& g, std::string_view name) {
  for (const auto& m : g.present.marks)
    if (m.name == name) return &m;
  return nullptr;
}

// How a symbol is drawn on a feature: the game's mark (its initial if none) in a colour by the mark
// (a diamond in the shield style: bold on the feature's background), letters by the symbol's slot.
struct SymbolGlyph {
  std::string ch;
  u8 fg = 0;  // 0: the shield style
};
SymbolGlyph symbol_glyph(const GameDef& g, std::string_view name, int slot) {
  static constexpr std::array<std::pair<std::string_view, u8>, 13> kColour = {{{"◆", 0},
                                                                              {"●", 208},
                                                                              {"▲", 226},
                                                                              {"∴", 223},
                                                                              {"♠", 203},
                                                                              {"▮", 252},
                                                                              {"@", 219},
                                                                              {"^", 202},
                                                                              {"∪", 229},
                                                                              {"⊙", 229},
                                                                              {"⊠", 229},
                                                                              {"#", 229},
                                                                              {"×", 246}}};
  static constexpr std::array<u8, 6> kSlotColour = {226, 223, 216, 208, 214, 117};  // letters by slot
  const Presentation::Mark* m = mark_of(g, name);
  std::string ch = m && !m->mark.empty() ? m->mark : name.empty() ? std::string("*") : std::string(1, static_cast<char>(std::tolower(static_cast<unsigned char>(name[0]))));
  for (const auto& [glyph, fg] : kColour)
    if (glyph == ch) return {ch, fg};
  return {ch, slot >= 0 ? kSlotColour[static_cast<std::size_t>(slot) % kSlotColour.size()] : u8{231}};
}
// Symbols no longer counted (covered by a special): "×".
const SymbolGlyph kCovered{"×", 246};

// The type of local feature f of a tile type.
const FeatureTypeDef& ftype_at(const Ruleset& rs, const TileType& tt, int f) {
  return rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
}

// A tile drawn as a cell. `covered`: bit f set when local feature f's symbols no longer count (the
// pit trap covered its animals): they are drawn as "×".
Cell tile_cell(const Ruleset& rs, const TileType& tt, int rot, u16 covered = 0) {
  const RotatedTile& rt = tt.rot[static_cast<std::size_t>(rot & 3)];
  auto feat = [&](int p) {
    return rt.port_feat[static_cast<std::size_t>(p)] == 0xFF ? -1 : rt.port_feat[static_cast<std::size_t>(p)];
  };
  auto sides = [&](int f) {
    return f < 0 ? 0 : std::popcount(static_cast<unsigned>(rt.feat_sides[static_cast<std::size_t>(f)] & 15));
  };
  Cell c;
  std::array<std::array<int, kCellW>, kCellH> own{};  // which local feature each glyph shows (-1: none)
  for (auto& row : own) row.fill(-1);
  for (auto& row : c)
    for (auto& g : row) g = Glyph{"·", St::Field};
  // the rim: twelve ports
  for (int p = 0; p < kPorts; ++p) {
    const auto [col, row] = kPortPos[static_cast<std::size_t>(p)];
    const int side = port_side(p);
    c[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)] =
        feature_glyph(rs, tt, feat(p), side == 0 || side == 2);
    own[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)] = feat(p);
  }
  // a corner shows the side third it is drawn for, unless that would join two separate cities
  constexpr std::array<std::array<int, 2>, 4> kCorner = {{{11, 0}, {3, 2}, {5, 6}, {9, 8}}};
  for (const auto& [p, q] : kCorner) {
    const int fp = feat(p), fq = feat(q);
    if (fp != fq && feature_class(rs, tt, fp) == FClass::Area && feature_class(rs, tt, fq) == FClass::Area) {
      const auto [col, row] = kPortPos[static_cast<std::size_t>(p)];
      c[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)] = Glyph{"·", St::Field};
      own[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)] = -1;
    }
  }
  // roads leaving through the middle ports (water apart)
  unsigned mask = 0;
  int water = -1;
  for (int sd = 0; sd < 4; ++sd) {
    const int f = feat(3 * sd + 1);
    if (water_feature(rs, tt, f))
      water = f;
    else if (feature_class(rs, tt, f) == FClass::Path)
      mask |= 1u << sd;
  }
  // between the west/east middle port and the centre
  for (const auto& [p, col] : {std::pair{10, 1}, std::pair{4, 3}}) {
    const int f = feat(p);
    Glyph g{"·", St::Field};
    int o = feature_class(rs, tt, f) == FClass::Field ? f : -1;
    if (water_feature(rs, tt, f)) {
      g = Glyph{"≈", St::Water};
      o = f;
    } else if (feature_class(rs, tt, f) == FClass::Path) {
      g = Glyph{"─", path_style(ftype_at(rs, tt, f))};
      o = f;
    } else if (feature_class(rs, tt, f) == FClass::Area && sides(f) >= 2) {
      g = area_glyph(*rs.game, ftype_at(rs, tt, f));
      o = f;
    }
    c[1][static_cast<std::size_t>(col)] = g;
    own[1][static_cast<std::size_t>(col)] = o;
  }
  // the centre
  int centre_feat = feat(kCentre);
  Glyph centre{"·", St::Field};
  int centre_own = -1;
  if (centre_feat >= 0) {
    centre = feature_class(rs, tt, centre_feat) == FClass::Path
                 ? Glyph{kBox[mask], path_style(ftype_at(rs, tt, centre_feat))}
                 : feature_glyph(rs, tt, centre_feat, false);
    centre_own = centre_feat;
  } else if (water >= 0) {
    centre = Glyph{"≈", St::Water};  // the Amazon runs through; tributaries end at its bank
    centre_own = water;
  } else if (std::popcount(mask) >= 2) {
    centre = Glyph{kBox[mask], St::Path};
    for (int sd = 0; sd < 4; ++sd)
      if (mask & (1u << sd)) centre.st = path_style(ftype_at(rs, tt, feat(3 * sd + 1)));
    for (int sd = 0; sd < 4; ++sd) {
      if (!(mask & (1u << sd))) continue;
      const int f = feat(3 * sd + 1);
      centre_own = centre_own == -1 ? f : (centre_own == f ? f : -2);
    }
    if (centre_own < 0) {
      // separate paths: a crossing only where the tile has one (a centre feature joins them);
      // two separate curves (N-E and S-W) meet nowhere: the middle is the field between them
      bool curves = true;
      for (int sd = 0; sd < 4; ++sd)
        if ((mask & (1u << sd)) && sides(feat(3 * sd + 1)) != 2) curves = false;
      if (curves) centre = Glyph{"·", St::Field};
      centre_own = -1;
    }
  } else {
    for (int f = 0; f < tt.nfeat; ++f)
      if (feature_class(rs, tt, f) == FClass::Area && sides(f) >= 2) {
        centre = area_glyph(*rs.game, ftype_at(rs, tt, f));
        centre_feat = f;
        centre_own = f;
        break;
      }
    if (centre_feat < 0 && mask != 0) {
      centre = Glyph{"▪", St::Path};  // a path ending in the open: at a rock (a river: its spring)
      for (int sd = 0; sd < 4; ++sd)
        if (mask & (1u << sd)) {
          centre_own = feat(3 * sd + 1);
          centre.st = path_style(ftype_at(rs, tt, centre_own));
        }
    }
  }
  c[1][2] = centre;
  own[1][2] = centre_own;
  // lakes: the one at C as "(2)" across the middle (2 fish); a lake without a port (a second lake
  // on the tile) as "≋" in the corner between the rivers that flow into it
  for (int f = 0; f < tt.nfeat; ++f) {
    const TileFeature& tf = tt.feats[static_cast<std::size_t>(f)];
    if (!is_lake(rs.ftype(tf.type))) continue;
    if (feat(kCentre) == f) {
      const int n = tf.attr[0];
      c[1][1] = Glyph{"(", St::Lake};
      c[1][2] = Glyph{n < 10 ? std::to_string(n) : std::string("+"), St::Lake};
      c[1][3] = Glyph{")", St::Lake};
      if (tf.special != 0 && tf.special <= rs.game->specials.size()) {  // canoe, raft: "(1#"
        const SymbolGlyph sg = symbol_glyph(*rs.game, rs.game->specials[tf.special - 1u], -1);
        c[1][3] = Glyph{sg.ch, St::Lake, 0, 0, sg.fg};
      }
      for (int col = 1; col <= 3; ++col) own[1][static_cast<std::size_t>(col)] = f;
      continue;
    }
    unsigned in = 0;  // board sides of the rivers flowing into it
    for (int g = 0; g < tt.nfeat; ++g)
      if (tf.links & (1u << g)) in |= rt.feat_sides[static_cast<std::size_t>(g)] & 15u;
    // the later port of the corner between two of those sides (a piece in that corner's meadow
    // stands at the earlier one)
    int port = 9;  // WSW
    if ((in & 3u) == 3u) port = 3;        // N+E: ENE
    else if ((in & 6u) == 6u) port = 6;   // E+S: SSE
    else if ((in & 12u) == 12u) port = 9; // S+W: WSW
    else if ((in & 9u) == 9u) port = 11;  // W+N: WNW
    const auto [col, row] = kPortPos[static_cast<std::size_t>(port)];
    c[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)] = Glyph{"≋", St::Lake};
    own[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)] = f;
  }
  // symbols on the features (shields, fruit, boat icons, animals): one glyph per unit, where the
  // feature is drawn; a city's first symbol at its centre or its first middle port as before
  std::array<std::array<bool, kCellW>, kCellH> used{};
  for (int f = 0; f < tt.nfeat; ++f) {
    const TileFeature& tf = tt.feats[static_cast<std::size_t>(f)];
    const FeatureTypeDef& fd = rs.ftype(tf.type);
    if (is_water(fd) || is_lake(fd)) continue;
    std::vector<std::pair<int, int>> spots;  // {col, row}, best first
    auto add = [&](int col, int row) {
      if (own[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)] != f) return;
      if (std::find(spots.begin(), spots.end(), std::pair{col, row}) == spots.end()) spots.push_back({col, row});
    };
    auto add_port = [&](int p) { add(kPortPos[static_cast<std::size_t>(p)][0], kPortPos[static_cast<std::size_t>(p)][1]); };
    switch (fd.cls) {
      case FClass::Area:
      case FClass::Centre:
      case FClass::Point:
        add(2, 1);
        for (int sd = 0; sd < 4; ++sd) add_port(3 * sd + 1);
        for (int p = 0; p < kPorts; ++p) add_port(p);
        add(1, 1);
        add(3, 1);
        break;
      case FClass::Path:
        add(1, 1);
        add(3, 1);
        add(2, 1);
        for (int p = 0; p < kPorts; ++p) add_port(p);
        break;
      case FClass::Field:
        for (int p : {2, 8, 5, 11, 0, 6, 3, 9, 1, 7, 4, 10}) add_port(p);
        add(1, 1);
        add(3, 1);
        add(2, 1);
        break;
    }
    std::size_t next = 0;
    auto put = [&](const SymbolGlyph& sg) {
      while (next < spots.size() && used[static_cast<std::size_t>(spots[next].second)][static_cast<std::size_t>(spots[next].first)]) ++next;
      if (next >= spots.size()) return;
      const auto [col, row] = spots[next++];
      Glyph& g = c[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)];
      if (sg.fg == 0)
        g = Glyph{sg.ch, St::Shield};
      else
        g = Glyph{sg.ch, g.st, 0, 0, sg.fg};
      used[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)] = true;
    };
    // a bonus tile's special (pit trap, shaman, ...) first, then the symbols; animals covered by
    // the pit trap as "×"
    if (tf.special != 0 && tf.special <= rs.game->specials.size()) put(symbol_glyph(*rs.game, rs.game->specials[tf.special - 1u], -1));
    const bool hidden = (covered >> f) & 1u;
    for (std::size_t k = 0; k < fd.attrs.size() && k < kAttrs; ++k) {
      const SymbolGlyph sg = hidden ? kCovered : symbol_glyph(*rs.game, fd.attrs[k], static_cast<int>(k));
      for (int n = 0; n < tf.attr[k]; ++n) put(sg);
    }
  }
  // the Amazon's creatures as counts on the water: "2c1p" = 2 caimans, 1 piranha
  if (water >= 0) {
    const TileFeature& tf = tt.feats[static_cast<std::size_t>(water)];
    const FeatureTypeDef& fd = rs.ftype(tf.type);
    static constexpr std::array<u8, 4> kCreatureFg = {120, 210, 229, 231};
    std::vector<Glyph> text;
    for (std::size_t k = 0; k < fd.attrs.size() && k < kAttrs; ++k) {
      if (tf.attr[k] == 0) continue;
      const std::string letter(1, fd.attrs[k].empty() ? '?' : fd.attrs[k][0]);
      const u8 fg = kCreatureFg[std::min<std::size_t>(k, 3)];
      text.push_back(Glyph{std::to_string(tf.attr[k]), St::Water, 0, 0, fg});
      text.push_back(Glyph{letter, St::Water, 0, 0, fg});
    }
    std::vector<int> cols;
    for (int col = 0; col < kCellW; ++col)
      if (own[1][static_cast<std::size_t>(col)] == water) cols.push_back(col);
    // whole "2c" pairs only, leaving the west end as water when there is room (a tile turned so
    // that the water runs north-south, as drawn in the hand, shows none)
    std::size_t at = cols.size() > text.size() ? 1 : 0;
    for (std::size_t i = 0; i + 1 < text.size() && at + 1 < cols.size(); i += 2) {
      c[1][static_cast<std::size_t>(cols[at++])] = text[i];
      c[1][static_cast<std::size_t>(cols[at++])] = text[i + 1];
    }
  }
  return c;
}

// A piece on the board: kind 0 (follower, explorer) is its player's number, kind 1 (camp) the
// number in a circle.
std::string piece_mark(int player, int kind) {
  static constexpr std::array<const char*, kMaxPlayers> kCircled = {"①", "②", "③", "④", "⑤"};
  if (kind == 1 && player >= 0 && player < kMaxPlayers) return kCircled[static_cast<std::size_t>(player)];
  return std::to_string(player + 1);
}

Cell slot_cell(const std::string& label) {
  Cell c;
  const std::array<const char*, 5> top = {"╭", "─", "─", "─", "╮"};
  const std::array<const char*, 5> bot = {"╰", "─", "─", "─", "╯"};
  for (std::size_t i = 0; i < 5; ++i) {
    c[0][i] = Glyph{top[i], St::Slot};
    c[2][i] = Glyph{bot[i], St::Slot};
  }
  c[1][0] = Glyph{"│", St::Slot};
  c[1][4] = Glyph{"│", St::Slot};
  c[1][2] = Glyph{label.empty() ? "+" : label, label.empty() ? St::Slot : St::SlotLabel};
  return c;
}

std::string pad(const std::string& s, int w) {
  const int dw = display_width(s);
  return dw >= w ? s : s + std::string(static_cast<std::size_t>(w - dw), ' ');
}


std::string plural_of(const std::string& noun) { return plural_noun(noun); }  // English, by rules

std::string badge(int p, bool color) {
  const std::string d = std::to_string(p + 1);
  if (!color) return d;
  Glyph g{d, St::Piece, 0, static_cast<u8>(p)};
  return sgr(g) + d + "\x1b[0m";
}


std::vector<std::string> words(std::string_view s) { return split_words(s, " \t\n\r\f\v"); }

// "90", "r90", "R90", "90°", "90deg" -> 90; anything else -> nullopt.
std::optional<int> to_rotation(std::string_view t) {
  if (!t.empty() && (t[0] == 'r' || t[0] == 'R')) t.remove_prefix(1);
  for (std::string_view suffix : {std::string_view("\xC2\xB0"), std::string_view("deg")})
    if (t.size() > suffix.size() && t.substr(t.size() - suffix.size()) == suffix) t.remove_suffix(suffix.size());
  const auto v = typed_int(t);
  if (!v || (*v != 0 && *v != 90 && *v != 180 && *v != 270)) return std::nullopt;
  return v;
}

// Breaks plain text into lines of at most `width` columns at spaces; each line ends with "\n".
std::string wrap(const std::string& text, int width) {
  std::string out, line;
  for (const auto& w : words(text)) {
    if (!line.empty() && display_width(line) + 1 + display_width(w) > width) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + w;
  }
  return out + line + "\n";
}

// wrap() with a first-line prefix (e.g. "  found    ") and continuation lines indented by `hang`.
std::string wrap_hang(const std::string& prefix, const std::string& text, int hang, int width) {
  std::string out, line = prefix;
  bool fresh = true;  // nothing after the prefix yet
  for (const auto& w : words(text)) {
    if (!fresh && display_width(line) + 1 + display_width(w) > width) {
      out += line + "\n";
      line = std::string(static_cast<std::size_t>(hang), ' ');
      fresh = true;
    }
    line += (fresh ? "" : " ") + w;
    fresh = false;
  }
  return out + line + "\n";
}

// User text quoted back in a message: at most 24 characters.
std::string quote(std::string_view t) {
  std::string out(t.substr(0, 24));
  if (t.size() > 24) out += "...";
  return "\"" + out + "\"";
}

bool is_word(std::string_view t) {
  return !t.empty() &&
         std::all_of(t.begin(), t.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; });
}

// ---- Markers on cells and sites at grid points (GameDef::present) ------------------------------

// Corners and grid points: kCornerDx/kCornerDy and kCornerNames (rules.hpp).
// Where a corner is drawn in a cell {row, column}, and the glyph beside it (a piece there).
constexpr std::array<std::array<int, 2>, 4> kCornerGlyph = {{{0, 4}, {2, 4}, {2, 0}, {0, 0}}};
constexpr std::array<std::array<int, 2>, 4> kCornerBeside = {{{0, 3}, {2, 3}, {2, 1}, {0, 1}}};

int marker_at(const State& s, int x, int y) {
  if (s.rs->game->present.marker_name.empty()) return -1;
  for (std::size_t j = 0; j < s.markers.size(); ++j)
    if (s.markers[j][0] != kOffBoard && s.markers[j][0] == x && s.markers[j][1] == y) return static_cast<int>(j);
  return -1;
}

// A marker's name in the 4 columns of a cell's line ("jeep").
std::string marker_word(const State& s) {
  std::string w = s.rs->game->present.marker_name.substr(0, 4);
  return w + std::string(4 - w.size(), ' ');
}

// A site token drawn as the capital initial of its kind ("L": a lion token).
std::string token_initial(const State& s, int k) {
  const auto& names = s.rs->game->present.site_tokens;
  const std::string n = k >= 0 && static_cast<std::size_t>(k) < names.size() && !names[static_cast<std::size_t>(k)].empty()
                            ? names[static_cast<std::size_t>(k)]
                            : std::string("?");
  return std::string(1, static_cast<char>(std::toupper(static_cast<unsigned char>(n[0]))));
}


}  // namespace

std::string strip_ansi(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      i += 2;
      while (i < text.size() && !(text[i] >= 0x40 && text[i] <= 0x7E)) ++i;
      continue;
    }
    out += text[i];
  }
  return out;
}

int display_width(std::string_view text) {
  int w = 0;
  for (char c : strip_ansi(text))
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++w;
  return w;
}

std::vector<Candidate> placement_candidates(const State& s) {
  std::vector<Candidate> out;
  if (s.phase != Phase::Place) return out;
  MoveList ml;
  gen_placements(s, ml);
  std::map<std::pair<int, int>, std::vector<int>> by_cell;  // (y, x) -> rotations
  for (const Move& m : ml) by_cell[{m.y, m.x}].push_back(m.rot * 90);
  static constexpr std::string_view kLabels = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (auto& [yx, rots] : by_cell) {
    Candidate c;
    c.x = yx.second;
    c.y = yx.first;
    std::sort(rots.begin(), rots.end());
    rots.erase(std::unique(rots.begin(), rots.end()), rots.end());
    c.rots = rots;
    c.marker = marker_at(s, c.x, c.y) >= 0;
    if (out.size() < kLabels.size()) c.label = std::string(1, kLabels[out.size()]);
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<std::string> tile_picture(const State& s, int type, int rot_quarters, bool color) {
  const Cell c = tile_cell(*s.rs, s.rs->tiles.types[static_cast<std::size_t>(type)], rot_quarters);
  std::vector<std::string> out;
  for (const auto& row : c) out.push_back(emit(std::vector<Glyph>(row.begin(), row.end()), color));
  return out;
}

namespace {
struct Window {
  int x0, x1, y0, y1;     // shown
  int bx0, bx1, by0, by1;  // the whole board
};
Window window_of(const State& s, const ViewOptions& o, const std::vector<Candidate>& cands) {
  int bx0 = 1 << 20, bx1 = -(1 << 20), by0 = 1 << 20, by1 = -(1 << 20);
  auto grow = [&](int x, int y) {
    bx0 = std::min(bx0, x);
    bx1 = std::max(bx1, x);
    by0 = std::min(by0, y);
    by1 = std::max(by1, y);
  };
  for (const PlacedTile& t : s.tiles) grow(t.x, t.y);
  for (const Candidate& c : cands) grow(c.x, c.y);
  for (const auto& mk : s.markers)  // a game's markers on empty cells next to the tiles
    if (!s.rs->game->present.marker_name.empty() && mk[0] != kOffBoard) grow(mk[0], mk[1]);
  int ncols = std::max(1, (o.width - kLeft) / kCellW);
  if (o.max_cols > 0) ncols = std::min(ncols, o.max_cols);
  const int nrows = std::max(1, o.max_rows);
  const auto focus = o.centre.value_or(std::pair<int, int>{s.last_placed().x, s.last_placed().y});
  // a window of n cells on [lo, hi] round f; when following the play, the one that shows the most
  // places for the tile in hand (their letters are what the player types), nearest f on a tie
  auto window = [&](int lo, int hi, int n, int f, bool vertical) {
    if (hi - lo + 1 <= n) return std::pair{lo, hi};
    int best = std::clamp(f - (n - 1) / 2, lo, hi - n + 1);
    if (!o.centre && !cands.empty()) {
      auto shown = [&](int a) {
        int k = 0;
        for (const Candidate& c : cands) k += (vertical ? c.y : c.x) >= a && (vertical ? c.y : c.x) < a + n;
        return k;
      };
      const int centred = best;
      for (int a = lo; a <= hi - n + 1; ++a)
        if (shown(a) > shown(best) || (shown(a) == shown(best) && std::abs(a - centred) < std::abs(best - centred))) best = a;
    }
    return std::pair{best, best + n - 1};
  };
  const auto [x0, x1] = window(bx0, bx1, ncols, focus.first, false);
  const auto [y0, y1] = window(by0, by1, nrows, focus.second, true);
  return {x0, x1, y0, y1, bx0, bx1, by0, by1};
}
}  // namespace

std::array<int, 4> board_window(const State& s, const ViewOptions& o, const std::vector<Candidate>& cands) {
  if (s.tiles.empty()) return {0, 0, 0, 0};
  const Window w = window_of(s, o, cands);
  return {w.x0, w.x1, w.y0, w.y1};
}

std::string render_board(const State& s, const ViewOptions& o, const std::vector<Candidate>& cands) {
  if (s.tiles.empty()) return "(the board is empty)\n";
  const Window win = window_of(s, o, cands);
  const int x0 = win.x0, x1 = win.x1, y0 = win.y0, y1 = win.y1, bx0 = win.bx0, bx1 = win.bx1, by0 = win.by0, by1 = win.by1;

  std::map<std::pair<int, int>, const Candidate*> slot;
  for (const Candidate& c : cands) slot[{c.x, c.y}] = &c;
  // the tiles of the last turn (one tile; a "!" tile and its double tile) are highlighted
  auto this_turn = [&](int ti) {
    return ti >= static_cast<int>(s.turn_first) && s.tiles[static_cast<std::size_t>(ti)].player != 0xFF;
  };

  // piece positions: placed tile index -> (port position, player, kind)
  struct Shown {
    int port, player, kind;
  };
  std::map<int, std::vector<Shown>> pieces;
  for (const PieceOnBoard& pc : s.pieces) {
    const Segment& sg = s.graph[pc.seg];
    const std::string port = feature_port(s, s.tiles[sg.tile], sg.local);
    const auto p = port_from_name(port);
    pieces[sg.tile].push_back({p ? *p : kCentre, pc.player, pc.kind});
  }

  std::string out;
  auto label_line = [&, x0 = x0, x1 = x1] {  // explicit: clang 14 cannot capture structured bindings
    std::vector<Glyph> line;
    put_text(line, "  y\\x");
    for (int x = x0; x <= x1; ++x) put_text(line, fmt::format("{:^5}", x));
    out += emit(line, false) + "\n";
  };
  label_line();
  for (int y = y0; y <= y1; ++y) {
    std::array<std::vector<Glyph>, kCellH> lines;
    put_text(lines[0], "     ");
    put_text(lines[1], fmt::format("{:>4} ", y));
    put_text(lines[2], "     ");
    for (int x = x0; x <= x1; ++x) {
      Cell c;
      const int ti = s.placed_at(x, y);
      if (ti >= 0) {
        const PlacedTile& t = s.tiles[static_cast<std::size_t>(ti)];
        u16 covered = 0;
        for (int f = 0; f < s.type_of(t).nfeat; ++f)
          if (s.graph[t.seg0 + f].covered) covered = static_cast<u16>(covered | (1u << f));
        c = tile_cell(*s.rs, s.type_of(t), t.rot, covered);
        const u8 shade = this_turn(ti) ? 2 : static_cast<u8>((x + y) & 1);
        for (auto& row : c)
          for (auto& g : row) g.shade = shade;
        if (const auto it = pieces.find(ti); it != pieces.end())
          for (const auto& [port, player, kind] : it->second) {
            auto [col, row] = kPortPos[static_cast<std::size_t>(port)];
            if (port == kCentre) col = 3;  // beside what stands at C (a monastery's M, a baobab's B, a lake's fish)
            c[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)] =
                Glyph{piece_mark(player, kind), St::Piece, shade, static_cast<u8>(player)};
          }
        // the sites at this tile's corners (a token as a capital letter, a free
        // savanna quarter as "○", a photographer's digit beside its token)
        for (int k = 0; k < 4 && !s.spots.empty(); ++k) {
          const auto kk = static_cast<std::size_t>(k);
          const int si = find_spot(s, x + kCornerDx[kk], y + kCornerDy[kk]);
          if (si < 0) continue;
          const Spot& sp = s.spots[static_cast<std::size_t>(si)];
          Glyph& g = c[static_cast<std::size_t>(kCornerGlyph[kk][0])][static_cast<std::size_t>(kCornerGlyph[kk][1])];
          if (sp.token[kk] != 0xFF) {
            g = Glyph{token_initial(s, sp.token[kk]), St::Hole, shade};
            if (sp.owner[kk] != 0xFF)
              c[static_cast<std::size_t>(kCornerBeside[kk][0])][static_cast<std::size_t>(kCornerBeside[kk][1])] =
                  Glyph{piece_mark(sp.owner[kk], 0), St::Piece, shade, sp.owner[kk]};
          } else if (!sp.closed && corner_usable(s, x, y, k)) {
            g = Glyph{"○", St::Hole, shade};
          }
        }
      } else if (const auto it = slot.find({x, y}); it != slot.end()) {
        c = slot_cell(it->second->label);
        if (marker_at(s, x, y) >= 0)  // the tile in hand may go on a marker's cell: it takes the marker
          for (std::size_t i = 1; i < kCellW; ++i) c[2][i] = Glyph{std::string(1, marker_word(s)[i - 1]), St::Jeep};
      } else if (marker_at(s, x, y) >= 0) {
        for (std::size_t i = 1; i < kCellW; ++i) c[1][i] = Glyph{std::string(1, marker_word(s)[i - 1]), St::Jeep};
      }
      for (std::size_t r = 0; r < kCellH; ++r) lines[r].insert(lines[r].end(), c[r].begin(), c[r].end());
    }
    for (auto& l : lines) out += emit(l, o.color) + "\n";
  }
  if (o.bottom_axis) label_line();
  if (x0 != bx0 || x1 != bx1 || y0 != by0 || y1 != by1)
    out += wrap(fmt::format("(showing x {}..{} of {}..{}, y {}..{} of {}..{}; 'view X Y' to move)", x0, x1, bx0, bx1,
                            y0, y1, by0, by1),
                o.width);
  return out;
}

std::string render_hand(const State& s, const std::vector<Candidate>& cands, const ViewOptions& o, bool compact) {
  if (s.in_hand == 0xFF) return "";
  const TileType& tt = s.rs->tiles.types[s.in_hand];
  std::string out = wrap(fmt::format("In hand: tile {} ({})", printable(tt.id), printable(tt.description)), 80);
  if (compact) {  // one line: the pictures say the rest
    std::string title = fmt::format("In hand: tile {} ({})", printable(tt.id), printable(tt.description));
    if (display_width(title) > std::min(o.width, 80)) {
      std::string cut;
      for (std::size_t i = 0; i < title.size();) {
        const auto n = static_cast<std::size_t>(title[i] & 0x80 ? ((title[i] & 0xE0) == 0xC0 ? 2 : (title[i] & 0xF0) == 0xE0 ? 3 : 4) : 1);
        if (display_width(cut) + 3 > std::min(o.width, 80)) break;
        cut += title.substr(i, n);
        i += n;
      }
      title = cut + "…)";
    }
    out = title + "\n";
  }
  std::array<bool, 4> fits{};
  for (const Candidate& c : cands)
    for (int r : c.rots) fits[static_cast<std::size_t>(r / 90) & 3] = true;
  std::vector<Glyph> labels;
  std::array<std::vector<Glyph>, kCellH> rows;
  bool some_unfit = false;
  for (int k = 0; k < tt.nrots; ++k) {
    const int r = tt.distinct_rots[static_cast<std::size_t>(k)];
    const bool f = fits[static_cast<std::size_t>(r)];
    some_unfit |= !f;
    put_text(labels, fmt::format("{:^7} ", f ? fmt::format("r{}", r * 90) : fmt::format("(r{})", r * 90)));
    const Cell c = tile_cell(*s.rs, tt, r);
    for (std::size_t i = 0; i < kCellH; ++i) {
      put_text(rows[i], " ");
      rows[i].insert(rows[i].end(), c[i].begin(), c[i].end());
      put_text(rows[i], "  ");
    }
  }
  out += "  " + emit(labels, false) + "\n";
  for (auto& r : rows) out += "  " + emit(r, o.color) + "\n";
  if (some_unfit && !compact) out += "  (a rotation in brackets fits nowhere now)\n";
  return out;
}

std::string render_placements(const State& s, const std::vector<Candidate>& cands, int width, bool compact) {
  const std::string& mname = s.rs->game->present.marker_name;
  if (cands.empty()) return "The tile fits nowhere.\n";
  std::size_t total = 0;
  std::vector<std::string> items;
  for (const Candidate& c : cands) {
    std::string rots;
    for (int r : c.rots) rots += compact ? fmt::format("{}{}", rots.empty() ? " r" : "/", r) : fmt::format(" r{}", r);
    if (compact && !c.label.empty())
      items.push_back(fmt::format("{}{}{}", c.label, rots, c.marker ? " " + mname : ""));
    else
      items.push_back(fmt::format("{:<2}{},{}:{}{}", c.label.empty() ? "" : c.label, c.x, c.y, rots, c.marker ? " " + mname : ""));
    total += c.rots.size();
  }
  std::size_t w = 0;
  for (const auto& it : items) w = std::max(w, it.size());
  const std::size_t per_line =
      std::max<std::size_t>(1, (static_cast<std::size_t>(std::max(width, 20)) - 2 + 3) / (w + 3));
  std::string out = compact ? fmt::format("Fits at {} (letter [rotation]):\n", plural(static_cast<int>(cands.size()), "cell", "cells"))
                            : fmt::format("It fits at {} ({}):\n", plural(static_cast<int>(cands.size()), "cell", "cells"),
                                          plural(static_cast<int>(total), "placement", "placements"));
  for (std::size_t i = 0; i < items.size(); ++i) {
    const bool end = (i + 1) % per_line == 0 || i + 1 == items.size();
    out += (i % per_line == 0 ? "  " : "") + (end ? items[i] : fmt::format("{:<{}}   ", items[i], w));
    if (end) out += "\n";
  }
  if (std::any_of(cands.begin(), cands.end(), [](const Candidate& c) { return c.marker; }) && !s.rs->game->present.marker_text.empty())
    out += wrap_hang("  ", fmt::format("({}: {})", mname, s.rs->game->present.marker_text), 3, std::max(width, 40));
  return out;
}

std::string player_name(const std::vector<PlayerInfo>& players, int p, bool color) {
  // a name comes from a record: control characters are shown as escapes, never sent to the terminal
  const std::string name = p >= 0 && static_cast<std::size_t>(p) < players.size()
                               ? printable(players[static_cast<std::size_t>(p)].name)
                               : fmt::format("player {}", p + 1);
  if (!color || p < 0 || p >= kMaxPlayers) return name;
  return fmt::format("\x1b[1;38;5;{}m{}\x1b[0m", kPlayerText[static_cast<std::size_t>(p)], name);
}

namespace {


std::string capitalized(std::string w) {
  if (!w.empty()) w[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(w[0])));
  return w;
}

// How a symbol is named in text: the game's noun for it ("boat icon"), else its name ("pit_trap":
// "pit trap").
std::string symbol_noun(const GameDef& g, const std::string& name) {
  if (const Presentation::Mark* m = mark_of(g, name); m && !m->noun.empty()) return m->noun;
  std::string out = name;
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

std::string count_of(int n, const std::string& noun) { return plural(n, noun, plural_of(noun)); }

// ---- Networks: features joined through others, claimed by a second kind of piece -------------

// A game whose features join networks claimed by a second kind of piece (huts).
bool has_networks(const GameDef& g) {
  return std::any_of(g.ftypes.begin(), g.ftypes.end(), [](const FeatureTypeDef& fd) { return fd.network_kind != 0xFF; });
}


// A network: its first symbol and its unclaimable centre features ("5 fish, 2 lakes"), and the
// specials it carries ("with the raft").
std::string network_text(const State& s, int net) {
  const GameDef& g = *s.rs->game;
  const Segment& n = s.graph[net];
  std::string symbol = "symbol", centre = "centre";
  for (const FeatureTypeDef& fd : g.ftypes) {
    if (fd.network_kind == 0xFF) continue;
    if (!fd.attrs.empty() && symbol == "symbol") symbol = fd.attrs[0];
    if (fd.cls == FClass::Centre) centre = fd.name;
  }
  std::string t = fmt::format("{}, {}", count_of(n.net_attr, symbol), count_of(n.net_centres, centre));
  for (std::size_t k = 0; k < g.specials.size() && k < 8; ++k)
    if ((n.net_flags >> k) & 1u) t += " (with the " + symbol_noun(g, g.specials[k]) + ")";
  return t;
}

// The feature types a piece of kind k claims networks through: "river or lake".
std::string network_types(const GameDef& g, int k) {
  std::vector<std::string> on;
  for (const FeatureTypeDef& fd : g.ftypes)
    if (fd.network_kind == k) on.push_back(fd.name);
  return fmt::format("{}", fmt::join(on, " or "));
}

// The players with pieces on a network: "Ann, greedy" ("" when none).
std::string network_owners(const State& s, int net, const std::vector<PlayerInfo>& players, bool color) {
  std::vector<std::string> who;
  for (int p = 0; p < s.nplayers; ++p) {
    const int n = s.graph[net].net_pieces[static_cast<std::size_t>(p)];
    if (n > 0) who.push_back(player_name(players, p, color) + (n > 1 ? fmt::format(" ({})", n) : ""));
  }
  return fmt::format("{}", fmt::join(who, ", "));
}

// ---- Layout helpers ----------------------------------------------------------------------------

// "Ann scores" / "You score": a player's name and the verb agreeing with it.
std::string who_verb(const std::vector<PlayerInfo>& players, int p, bool color, std::string_view you_verb,
                     std::string_view verb) {
  const bool you = p >= 0 && static_cast<std::size_t>(p) < players.size() && players[static_cast<std::size_t>(p)].name == "You";
  return fmt::format("{} {}", player_name(players, p, color), you ? you_verb : verb);
}

// Lines of items (each kept whole) separated by `sep`, each line starting with `indent` spaces.
std::string pack(const std::vector<std::string>& items, int indent, int width, std::string_view sep = "   ") {
  std::string out, line;
  for (const auto& it : items) {
    if (!line.empty() && indent + display_width(line) + static_cast<int>(sep.size()) + display_width(it) > width) {
      out += std::string(static_cast<std::size_t>(indent), ' ') + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : std::string(sep)) + it;
  }
  if (!line.empty()) out += std::string(static_cast<std::size_t>(indent), ' ') + line + "\n";
  return out;
}

// What a free spot is worth now and what taking it does.
std::string spot_info(const State& s, const PlacedTile& pt, int local) {
  const GameDef& g = *s.rs->game;
  if (g.present.spot_text) return g.present.spot_text(s, pt, local);  // the game's own words
  const FeatureTypeDef& fd = s.rs->ftype(s.type_of(pt).feats[static_cast<std::size_t>(local)].type);
  const FeatureInfo fi = feature_info(s, pt.seg0 + local);
  const Segment& root = s.graph[fi.root];
  const std::string attr_name = fd.attrs.empty() ? std::string("attribute") : symbol_noun(g, fd.attrs[0]);
  std::string area_name = "city";
  for (const auto& d : g.ftypes)
    if (d.cls == FClass::Area) {
      area_name = d.name;
      break;
    }
  std::string info;
  switch (fd.cls) {
    case FClass::Path:
    case FClass::Area:
      if (fi.closed)
        info = fmt::format("completed by this tile: scores {} now", feature_value(s, fi, true));
      else
        info = fmt::format("{} so far, open", plural(fi.tiles, "tile", "tiles"));
      if (fi.attr) info += fmt::format(", {}", plural(fi.attr, attr_name, plural_of(attr_name)));
      for (std::size_t k = 1; k < fd.attrs.size() && k < kAttrs; ++k) {
        const int n = root.attr[k];
        const bool track = !g.track_name.empty() && fd.attrs[k] == g.track_name && fd.piece_kind == 0;
        if (n > 0) info += fmt::format(", {}", count_of(n, symbol_noun(g, fd.attrs[k])));
        if (track)
          info += n > 0 ? fmt::format(" (your {} moves {})", g.track_name, n)
                        : fmt::format(", no {} (your {} stays)", plural_of(symbol_noun(g, fd.attrs[k])), g.track_name);
      }
      break;
    case FClass::Centre:
    case FClass::Point:
      info = fi.closed ? fmt::format("surrounded: scores {} now", feature_value(s, fi, true))
                       : fmt::format("{} of 9 tiles of its area placed", fi.tiles);
      break;
    case FClass::Field:
      if (g.farm_points_per_city > 0 || fd.final_per_attr == 0) {
        const int n = field_cities(s, fi.root);
        info = fmt::format("borders {} (scored at the end)",
                           plural(n, "completed " + area_name, "completed " + plural_of(area_name)));
      } else {
        info = fmt::format("{} so far (scores {} per {} at the end)", count_of(fi.attr, attr_name), fd.final_per_attr,
                           attr_name);
      }
      break;
  }
  return info;
}

}  // namespace

std::string render_piece_options(const State& s, const std::vector<PlayerInfo>& players, bool color) {
  if (s.phase != Phase::Piece || s.tiles.empty()) return "";
  const GameDef& g = *s.rs->game;
  const bool two = g.pieces2_per_player > 0;
  const std::size_t from = std::min<std::size_t>(s.piece_from, s.tiles.size() - 1);
  const bool multi = s.tiles.size() - from > 1;
  const PlacedTile& pt = s.tiles[from];
  const int supply = s.supply[s.current];
  const int supply2 = s.supply2[s.current];
  const std::string& n0 = g.piece_names[0];
  const std::string& n1 = g.piece_names[1];
  auto cell = [](const PlacedTile& t) { return fmt::format("{},{}", t.x, t.y); };
  // which tile: the one just placed, or (a double tile) the set-aside cell's id and every cell
  std::string id = printable(s.type_of(pt).id), where = cell(pt), kind;
  if (s.type_of(pt).pile == kPileBonus) kind = "bonus ";
  if (multi) {
    std::vector<std::string> cells;
    for (std::size_t i = from; i < s.tiles.size(); ++i) {
      const TileType& t = s.type_of(s.tiles[i]);
      if (t.pile == kPileAside) id = printable(t.id);
      cells.push_back(cell(s.tiles[i]));
      if (t.kind != 0 && t.kind < g.tile_kinds.size()) kind = g.tile_kinds[t.kind] + " ";
    }
    where = fmt::format("{}", fmt::join(cells, " and "));
  }
  std::string out;
  if (!two)
    out = fmt::format("{} spots on tile {} at {} ({} in supply):\n", capitalized(n0), id, where,
                      count_of(supply, n0));
  else
    out = fmt::format("{} and {} spots on {}tile {} at {}:\n", capitalized(n0), n1, kind, id, where);
  MoveList ml;
  gen_pieces(s, ml);
  struct Row {
    std::string label, type, info;
    int kind = 0;
  };
  std::vector<Row> rows;
  std::size_t w = 5, tw = 10;
  for (const Move& m : ml) {
    if (m.kind != MoveKind::Piece) continue;
    const PlacedTile& t = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
    const FeatureTypeDef& fd = s.rs->ftype(s.type_of(t).feats[m.feat].type);
    Row r;
    r.label = feature_port(s, t, m.feat) + (multi ? " at " + cell(t) : "");
    r.type = fd.name;
    r.info = spot_info(s, t, m.feat);
    r.kind = std::min<int>(fd.piece_kind, 1);
    if (m.pk != 0xFF) {  // a piece on the network through this feature: typed "hut N"
      const int net = s.graph.net_find(t.seg0 + m.feat);
      r.kind = std::min<int>(m.pk, 1);
      r.label = g.piece_names[r.kind] + " " + r.label;
      r.info = "its " + g.present.network_name + ": " + network_text(s, net) + " so far, no " + plural_of(g.piece_names[r.kind]) + " yet";
    }
    w = std::max(w, r.label.size());
    tw = std::max(tw, r.type.size());
    rows.push_back(std::move(r));
  }
  // the features of this turn's tiles already taken
  std::vector<Row> taken;
  std::vector<int> seen;
  for (std::size_t i = from; i < s.tiles.size(); ++i) {
    const PlacedTile& t = s.tiles[i];
    for (int f = 0; f < s.type_of(t).nfeat; ++f) {
      const FeatureInfo fi = feature_info(s, t.seg0 + f);
      if (multi && std::find(seen.begin(), seen.end(), fi.root) != seen.end()) continue;  // listed on the other cell
      seen.push_back(fi.root);
      std::vector<std::string> who;
      for (int p = 0; p < s.nplayers; ++p)
        if (fi.pieces[static_cast<std::size_t>(p)] > 0) who.push_back(player_name(players, p, color));
      if (who.empty()) continue;
      Row r;
      r.label = feature_port(s, t, f) + (multi ? " at " + cell(t) : "");
      r.type = s.rs->ftype(fi.ftype).name;
      r.info = fmt::format("taken by {}", fmt::join(who, ", "));
      w = std::max(w, r.label.size());
      taken.push_back(std::move(r));
    }
  }
  // networks through this turn's tiles that already have pieces
  std::vector<int> nets;
  for (std::size_t i = from; i < s.tiles.size(); ++i) {
    const PlacedTile& t = s.tiles[i];
    for (int f = 0; f < s.type_of(t).nfeat; ++f) {
      const FeatureTypeDef& fd = s.rs->ftype(s.type_of(t).feats[static_cast<std::size_t>(f)].type);
      if (fd.network_kind == 0xFF || s.type_of(t).feats[static_cast<std::size_t>(f)].ports == 0) continue;
      const int net = s.graph.net_find(t.seg0 + f);
      if (std::find(nets.begin(), nets.end(), net) != nets.end()) continue;
      nets.push_back(net);
      if (s.graph[net].net_npieces == 0) continue;
      Row r;
      r.label = feature_port(s, t, f) + (multi ? " at " + cell(t) : "");
      r.type = fd.name;
      r.info = fmt::format("its {}: {} of {} ({} so far)", g.present.network_name,
                           plural_of(g.piece_names[std::min<std::size_t>(fd.network_kind, 1)]),
                           network_owners(s, net, players, color), network_text(s, net));
      w = std::max(w, r.label.size());
      tw = std::max(tw, r.type.size());
      taken.push_back(std::move(r));
    }
  }
  auto row_text = [&](const Row& r) {
    std::string line = fmt::format("  {:<{}} {:<{}} {}", r.label, w, r.type, tw, r.info);
    if (display_width(line) > 80) {  // long rows go on under the info column
      const std::size_t indent = 2 + w + 1 + tw + 1;
      std::string text, cur = fmt::format("  {:<{}} {:<{}}", r.label, w, r.type, tw);
      for (const auto& word : words(r.info)) {
        if (display_width(cur) + 1 + display_width(word) > 80 && display_width(cur) > static_cast<int>(indent)) {
          text += cur + "\n";
          cur = std::string(indent - 1, ' ');
        }
        cur += " " + word;
      }
      return text + cur + "\n";
    }
    return line + "\n";
  };
  const std::string these = multi ? "these tiles" : "this tile";
  if (!two) {
    for (const Row& r : rows) out += row_text(r);
    if (supply == 0)
      out += fmt::format("  (no {} left in supply)\n", n0);
    else if (rows.empty())
      out += fmt::format("  (every feature of {} is already taken)\n", these);
  } else {
    // one group per piece kind: explorers (tributaries, villages), then camps (jungle)
    for (int k = 0; k < 2; ++k) {
      const std::string& pn = g.piece_names[static_cast<std::size_t>(k)];
      const int left = k == 0 ? supply : supply2;
      int n = 0;
      for (const Row& r : rows) n += r.kind == k;
      if (left == 0) {
        out += fmt::format(" {}: none left in supply\n", capitalized(plural_of(pn)));
        continue;
      }
      std::string roles;  // what a piece is called where it stands (FeatureTypeDef::role)
      if (k == 0 && n > 0) {  // "river: fisher, meadow: hunter" for the types listed
        std::vector<std::string> seen_types, parts;
        for (const Row& r : rows)
          for (const FeatureTypeDef& fd : g.ftypes)
            if (r.kind == 0 && fd.name == r.type && !fd.role.empty() &&
                std::find(seen_types.begin(), seen_types.end(), r.type) == seen_types.end()) {
              seen_types.push_back(r.type);
              parts.push_back(r.type + ": " + fd.role);
            }
        if (!parts.empty()) roles = fmt::format(" {}", fmt::join(parts, ", "));
      }
      if (k == 1 && n > 0 && has_networks(g)) {  // "on a river or lake: the whole river system, to the end"
        roles = fmt::format(" on a {}: the whole {}, to the end", network_types(g, k), g.present.network_name);
      }
      out += fmt::format(" {} ({} in supply){}{}\n", capitalized(plural_of(pn)), left,
                         n == 0 ? fmt::format(": no free spot on {}", these) : ":", roles);
      for (const Row& r : rows)
        if (r.kind == k) out += row_text(r);
    }
  }
  if (g.present.decision_panels) out += render_decision(s, players, color, false, 80);  // the game's: actions, notes
  const std::string none = g.pass_text == "pass" ? fmt::format("(keep your {})", plural_of(n0)) : g.pass_text;
  out += fmt::format("  {:<{}} {}\n", "none", w, none);
  for (const Row& r : taken) out += row_text(r);
  return out;
}

std::string render_scores(const State& s, const std::vector<PlayerInfo>& players, bool color) {
  const GameDef& g = *s.rs->game;
  const bool extra = g.pieces2_per_player > 0 || !g.track_name.empty();
  std::size_t w = 4;
  for (int p = 0; p < s.nplayers; ++p) w = std::max<std::size_t>(w, strip_ansi(player_name(players, p, false)).size());
  std::string out;
  for (int p = 0; p < s.nplayers; ++p) {
    const auto pi = static_cast<std::size_t>(p);
    const bool to_move = p == s.current && s.phase != Phase::Over;
    // the seat's kind in a word or two: "human", "bot greedy", "bot mcts"; nothing more when the
    // name says it ("Bot 2 (easy)"); a player line stays within 80 columns
    std::string kind = "human";
    if (pi < players.size() && !players[pi].bot.empty()) {
      const std::string& b = players[pi].bot;
      const std::string shown = b.rfind("mcts:", 0) == 0 ? "mcts" : b;
      const std::string& nm = players[pi].name;
      const bool said = nm.find("(easy)") != std::string::npos || nm.find("(normal)") != std::string::npos ||
                        nm.find("(hard)") != std::string::npos || nm.find(shown) != std::string::npos;
      kind = said ? "bot" : "bot " + shown;
    }
    if (!extra) {
      out += fmt::format(" {} {} {} {:>4} points   {} in supply: {}/{}   ({})\n", to_move ? "▶" : " ",
                         badge(p, color), pad(player_name(players, p, color), static_cast<int>(w)), s.score[pi],
                         plural_of(g.piece_names[0]), s.supply[pi], g.pieces_per_player, kind);
      continue;
    }
    std::string pieces = fmt::format("{} {}/{}", plural_of(g.piece_names[0]), s.supply[pi], g.pieces_per_player);
    if (g.pieces2_per_player > 0)
      pieces += fmt::format("  {} {}/{}", plural_of(g.piece_names[1]), s.supply2[pi], g.pieces2_per_player);
    if (!g.track_name.empty()) pieces += fmt::format("  {} at {:<2}", g.track_name, s.track[pi]);
    out += fmt::format(" {} {} {} {:>4} points  {}  ({})\n", to_move ? "▶" : " ", badge(p, color),
                       pad(player_name(players, p, color), static_cast<int>(w)), s.score[pi], pieces, kind);
  }
  return out;
}


namespace {
// "{p0}" ... "{p4}" in a panel's text: the players' names
std::string with_names(std::string t, const std::vector<PlayerInfo>& players, bool color) {
  for (int p = 0; p < kMaxPlayers; ++p) {
    const std::string key = fmt::format("{{p{}}}", p);
    for (auto at = t.find(key); at != std::string::npos; at = t.find(key)) t.replace(at, key.size(), player_name(players, p, color));
  }
  return t;
}
}  // namespace

std::string render_panel(const State& s, const Panel& panel, const std::vector<PlayerInfo>& players, bool color, int width) {
  const int wrap_at = std::min(width, 80);
  const std::string title = with_names(panel.title, players, color);
  std::string out;
  if (panel.rows.empty()) {  // a note: its counters on a line each, or its title and lines
    if (panel.lines.empty()) {
      for (const auto& [k, v] : panel.counters) out += wrap_hang("  " + k + ": ", with_names(v, players, color), 4, wrap_at);
      return out;
    }
    const bool said = !title.empty() && std::string_view(".:!?").find(title.back()) != std::string_view::npos;
    out += wrap_hang("  ", title + (said ? "" : ":"), 4, wrap_at);
    for (const auto& [k, v] : panel.counters) out += wrap_hang("    " + k + ": ", with_names(v, players, color), 6, wrap_at);
    for (const auto& l : panel.lines) out += wrap_hang("    ", with_names(l, players, color), 6, wrap_at);
    return out;
  }
  if (!title.empty()) out += wrap(title, wrap_at);
  for (const auto& [k, v] : panel.counters) out += wrap_hang("  " + k + ": ", with_names(v, players, color), 4, wrap_at);
  const bool seats = !panel.columns.empty() && panel.columns[0] == "seat";
  const std::size_t first = seats ? 1 : 0;
  const std::size_t ncols = panel.columns.size();
  std::vector<int> cw(ncols, 0);  // column widths (the header's too, unless a track shows the table)
  for (std::size_t c = first; c < ncols; ++c) {
    if (panel.track == 0) cw[c] = display_width(panel.columns[c]);
    for (const auto& r : panel.rows)
      if (c < r.size()) cw[c] = std::max(cw[c], display_width(with_names(r[c], players, false)));
  }
  auto numeric = [&](std::size_t c) {
    for (const auto& r : panel.rows)
      if (c < r.size() && (r[c].empty() || r[c].find_first_not_of("0123456789") != std::string::npos)) return false;
    return true;
  };
  int w = 4;  // the names' column
  if (seats)
    for (int p = 0; p < s.nplayers; ++p) w = std::max(w, display_width(strip_ansi(player_name(players, p, false))));
  w = std::min(w, 16);
  std::size_t space_col = ncols;
  for (std::size_t c = first; c < ncols; ++c)
    if (panel.columns[c] == "space") space_col = c;
  const bool header = std::any_of(panel.columns.begin() + static_cast<long>(first), panel.columns.end(), [](const std::string& c) { return !c.empty(); });
  if (panel.track == 0 && header) {  // the header
    std::string head = seats ? std::string(static_cast<std::size_t>(5 + w), ' ') : std::string("  ");
    for (std::size_t c = first; c < ncols; ++c) {
      const bool last = c + 1 == ncols;
      head += (c > first || seats ? (numeric(c) ? " " : "  ") : "") +
              (numeric(c) ? fmt::format("{:>{}}", panel.columns[c], cw[c]) : last ? panel.columns[c] : pad(panel.columns[c], cw[c]));
    }
    while (!head.empty() && head.back() == ' ') head.pop_back();
    out += head + "\n";
  }
  for (const auto& r : panel.rows) {
    std::string line;
    if (seats) {
      long long seat = -1;
      if (!r.empty()) (void)parse_int(r[0], 0, kMaxPlayers - 1, seat);
      const int p = static_cast<int>(seat);
      const bool decides = p == to_move(s) && s.phase != Phase::Over;
      line = fmt::format(" {} {} {}", decides ? "▶" : " ", p >= 0 ? badge(p, color) : "?", pad(p >= 0 ? player_name(players, p, color) : "?", w));
      if (panel.track > 0 && space_col < r.size()) {
        long long at = 0;
        (void)parse_int(r[space_col], 0, 255, at);
        std::vector<Glyph> track;
        for (int k = 1; k <= panel.track; ++k)
          track.push_back(k == at ? Glyph{std::to_string(p + 1), St::Piece, 0, static_cast<u8>(std::max(p, 0))} : Glyph{"≈", St::Water});
        line += "  " + emit(track, color) + fmt::format("  at {:<2}", at);
      }
    } else {
      line = " ";
    }
    bool after_track = panel.track > 0;  // "at 2  1st": the track's space is padded already
    std::string last_text;  // a long text in the last column goes on under itself
    for (std::size_t c = first; c < ncols && c < r.size(); ++c) {
      if (c == space_col && panel.track > 0) continue;
      const std::string v = with_names(r[c], players, color);
      const bool last = c + 1 == ncols;
      // numbers in narrow columns one space apart (counts under names), text two
      line += after_track || numeric(c) ? " " : "  ";
      if (last && !numeric(c)) last_text = v;
      else line += numeric(c) ? fmt::format("{:>{}}", v, cw[c]) : pad(v, cw[c]);
      after_track = false;
    }
    if (display_width(line) + display_width(last_text) > wrap_at && display_width(line) < wrap_at - 20) {
      out += wrap_hang(line, last_text, display_width(line), wrap_at);
      continue;
    }
    line += last_text;
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  for (const auto& l : panel.lines) out += wrap_hang("  ", with_names(l, players, color), 4, wrap_at);
  return out;
}

std::string extra_turn_text(const State& s, const std::vector<PlayerInfo>& players, bool color) {
  std::string t = s.rs->game->present.extra_turn.empty() ? std::string("An extra turn for {p}.") : s.rs->game->present.extra_turn;
  for (auto at = t.find("{p}"); at != std::string::npos; at = t.find("{p}")) t.replace(at, 3, player_name(players, s.current, color));
  return with_names(t, players, color);
}

std::string render_panels(const State& s, const std::vector<PlayerInfo>& players, bool color, int width) {
  const auto make = s.rs->game->present.panels;
  if (!make) return "";
  std::string out;
  for (const Panel& p : make(s)) out += render_panel(s, p, players, color, width);
  return out;
}

std::string render_decision(const State& s, const std::vector<PlayerInfo>& players, bool color, bool full, int width) {
  const auto make = s.rs->game->present.decision_panels;
  if (!make || (s.phase != Phase::Piece && s.phase != Phase::Choose)) return "";
  std::string out;
  for (const Panel& p : make(s, full)) out += render_panel(s, p, players, color, width);
  return out;
}

namespace {

// The options of a Choose decision as listed: those naming something first, the one naming
// nothing ("none") last, each with its move.
struct Listed {
  view::OptionView view;
  Move move;
};
std::vector<Listed> listed_choices(const State& s) {
  std::vector<Listed> out;
  if (s.phase != Phase::Choose) return out;
  MoveList ml;
  legal_moves(s, ml);
  const auto opts = view::decision_options(s);  // one per legal move, in the same order
  for (std::size_t i = 0; i < opts.size() && i < ml.size(); ++i) out.push_back({opts[i], ml[i]});
  std::stable_partition(out.begin(), out.end(), [](const Listed& l) { return !l.view.target.empty(); });
  return out;
}

// What an option names, as a player may type it: "lion", "N at 3,-1", "3,1", "D2 r180"; else its
// notation without the game's record key ("shaman none" -> "none").
std::string choice_label(const State& s, const view::OptionView& o) {
  if (o.target == "token") return o.token;
  if (o.target == "piece") return fmt::format("{} at {},{}", o.port, o.x, o.y);
  if (o.target == "cell") return fmt::format("{},{}", o.x, o.y);
  if (o.target == "tile") return fmt::format("{} r{}", o.tile, o.rot);
  const std::string& key = s.rs->game->choice_key;
  if (o.notation.rfind(key + " ", 0) == 0) return o.notation.substr(key.size() + 1);
  return o.notation;
}

bool all_target(const std::vector<Listed>& v, std::string_view t) {
  return !v.empty() && std::all_of(v.begin(), v.end(), [&](const Listed& l) { return l.view.target == t; });
}

// Tiles offered in rotations: each tile drawn once per rotation offered (a multi-cell tile with
// its other cells, in the order they lie from west to east), with the option's sentence.
std::string render_tile_choices(const State& s, const std::vector<Listed>& opts, bool color) {
  std::vector<std::string> ids;
  for (const Listed& l : opts)
    if (std::find(ids.begin(), ids.end(), l.view.tile) == ids.end()) ids.push_back(l.view.tile);
  std::vector<int> rots;  // the rotations offered for the first tile (the columns)
  for (const Listed& l : opts)
    if (l.view.tile == ids[0]) rots.push_back(l.view.rot);
  std::string head = "        ";
  for (const int r : rots) head += fmt::format("{:<14}", fmt::format("r{}", r));
  while (!head.empty() && head.back() == ' ') head.pop_back();
  std::string out = head + "\n";
  for (const std::string& id : ids) {
    const int t = s.rs->tiles.find(id);
    if (t < 0) continue;
    const TileType& tt = s.rs->tiles.types[static_cast<std::size_t>(t)];
    const int e = tt.east == 0xFF ? -1 : tt.east;
    std::array<std::vector<Glyph>, kCellH> rows;
    std::string text, forms;
    for (const Listed& l : opts) {
      if (l.view.tile != id) continue;
      const int q = (l.view.rot / 90) & 3;
      // a multi-cell tile lies west to east: turned 180, its east part comes first
      std::vector<std::pair<int, int>> cells = {{t, q}};
      if (e >= 0 && q == 0) cells.push_back({e, 0});
      if (e >= 0 && q == 2) cells = {{e, 2}, {t, 2}};
      for (std::size_t i = 0; i < kCellH; ++i) put_text(rows[i], "  ");
      for (const auto& [type, rot] : cells) {
        const Cell c = tile_cell(*s.rs, s.rs->tiles.types[static_cast<std::size_t>(type)], rot);
        for (std::size_t i = 0; i < kCellH; ++i) rows[i].insert(rows[i].end(), c[i].begin(), c[i].end());
      }
      for (std::size_t i = 0; i < kCellH; ++i) {
        for (std::size_t k = cells.size(); k < 2; ++k) put_text(rows[i], "     ");
        put_text(rows[i], "  ");
      }
      if (text.empty() && l.view.text != l.view.notation) text = l.view.text;
      forms += fmt::format("{}\"{} {}\"", forms.empty() ? "type " : " or ", printable(id), l.view.rot);
    }
    const int used = 6 + display_width(emit(rows[0], false)) + 2;
    std::vector<std::string> side;  // the sentence's parts ("; ") on lines of their own, wrapped
    for (std::size_t at = 0; at < text.size() && side.size() < 2;) {
      const std::size_t semi = std::min(text.find("; ", at), text.size());
      const std::string wrapped = wrap(text.substr(at, semi - at), std::max(20, 80 - used));
      for (std::size_t i = 0; i < wrapped.size() && side.size() < 2;) {
        const std::size_t j = wrapped.find('\n', i);
        side.push_back(wrapped.substr(i, j - i));
        i = j + 1;
      }
      at = semi + 2;
    }
    side.resize(2);
    side.push_back(forms);
    for (std::size_t i = 0; i < kCellH; ++i) {
      std::string line = fmt::format("  {:<4}", i == 0 ? printable(id) : "") + emit(rows[i], color) + "  " + side[i];
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
  }
  return out;
}

}  // namespace

std::vector<Candidate> choice_cells(const State& s) {
  std::vector<Candidate> out;
  const auto opts = listed_choices(s);
  if (!all_target(opts, "cell")) return out;
  std::vector<std::pair<int, int>> cells;  // (y, x)
  for (const Listed& l : opts) cells.emplace_back(l.view.y, l.view.x);
  std::sort(cells.begin(), cells.end());
  cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
  static constexpr std::string_view kLabels = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (const auto& [y, x] : cells) {
    Candidate c;
    c.x = x;
    c.y = y;
    if (out.size() < kLabels.size()) c.label = std::string(1, kLabels[out.size()]);
    out.push_back(std::move(c));
  }
  return out;
}

Hands hands_of(const State& s) {
  Hands out;
  const auto hand = s.rs->game->present.hand;
  if (!hand) return out;
  for (int p = 0; p < s.nplayers; ++p) out.push_back(hand(s, p));
  return out;
}

std::string hand_news(const Hands& before, const State& after, const std::vector<PlayerInfo>& players, bool color) {
  const Hands now = hands_of(after);
  const std::string& noun = after.rs->game->present.hand_noun.empty() ? std::string("item") : after.rs->game->present.hand_noun;
  std::string out;
  for (std::size_t p = 0; p < now.size(); ++p) {
    std::vector<std::string> got;
    for (std::size_t k = 0; k < now[p].size(); ++k) {
      const int was = p < before.size() && k < before[p].size() ? before[p][k].second : 0;
      for (int i = was; i < now[p][k].second; ++i) got.push_back(now[p][k].first);
    }
    if (!got.empty())
      out += fmt::format("    {} {}: {}\n", who_verb(players, static_cast<int>(p), color, "draw", "draws"),
                         plural(static_cast<int>(got.size()), noun, plural_of(noun)), fmt::join(got, ", "));
  }
  return out;
}

std::string render_choices(const State& s, const std::vector<PlayerInfo>& players, bool color) {
  if (s.phase != Phase::Choose) return "";
  std::string out = render_decision(s, players, color, false);
  const auto opts = listed_choices(s);
  if (all_target(opts, "tile")) return out + render_tile_choices(s, opts, color);
  if (all_target(opts, "cell")) {
    std::vector<std::string> items;
    for (const Candidate& c : choice_cells(s)) items.push_back(fmt::format("{:<2}{},{}", c.label, c.x, c.y));
    out += fmt::format("A boxed letter on the board, or X,Y ({}):\n", plural(static_cast<int>(items.size()), "cell", "cells"));
    return out + pack(items, 2, 80);
  }
  Panel list;  // numbered: what each option names, then what it does
  list.columns = {"", "", ""};
  const bool pieces = std::any_of(opts.begin(), opts.end(), [](const Listed& l) { return l.view.target == "piece"; });
  if (pieces) list.columns.emplace_back();
  for (std::size_t i = 0; i < opts.size(); ++i) {
    const auto& o = opts[i].view;
    std::vector<std::string> row{std::to_string(i + 1), choice_label(s, o)};
    if (pieces) row.push_back(o.feature);
    row.push_back(o.text != o.notation ? o.text : std::string());
    list.rows.push_back(std::move(row));
  }
  return out + render_panel(s, list, players, color, 80);
}

std::string render_choices(const State& s, bool color) { return render_choices(s, {}, color); }

ParsedChoice parse_choice(std::string_view text, const State& s) {
  ParsedChoice r;
  const auto opts = listed_choices(s);
  if (opts.empty()) {
    r.error = "there is no choice to make now";
    return r;
  }
  auto pick = [&](const Listed& l) {
    r.move = l.move;
    r.option = choice_label(s, l.view);
    return r;
  };
  const std::string example = choice_label(s, opts[0].view);
  std::string t(text);
  for (char& c : t)
    if (c == ',' || c == '(' || c == ')' || c == ';') c = ' ';
  const auto w = words(t);
  if (w.empty()) {
    r.error = fmt::format("type a number from the list or an option as listed (e.g. \"{}\")", example);
    return r;
  }
  const bool cells = all_target(opts, "cell"), tiles = all_target(opts, "tile");
  if (w.size() == 1 && typed_int(w[0]) && !cells && !tiles) {  // the list's number
    const int k = *typed_int(w[0]);
    if (k >= 1 && k <= static_cast<int>(opts.size())) return pick(opts[static_cast<std::size_t>(k - 1)]);
    r.error = fmt::format("{} is not on the list: type 1..{}", k, opts.size());
    return r;
  }
  if (w.size() == 1 && cells && is_word(w[0])) {  // a boxed letter on the board ("a" and "A" differ)
    const auto labels = choice_cells(s);
    std::optional<std::pair<int, int>> cell;
    for (const Candidate& c : labels)
      if (c.label == w[0]) cell = std::pair{c.x, c.y};
    if (!cell && labels.size() <= 26)
      for (const Candidate& c : labels)
        if (c.label == lower(w[0])) cell = std::pair{c.x, c.y};
    if (cell)
      for (const Listed& l : opts)
        if (l.view.x == cell->first && l.view.y == cell->second) return pick(l);
  }
  const std::string typed = lower(fmt::format("{}", fmt::join(w, " ")));
  for (const Listed& l : opts) {  // an option as listed
    std::string label = choice_label(s, l.view);
    for (char& c : label)
      if (c == ',') c = ' ';
    if (lower(fmt::format("{}", fmt::join(words(label), " "))) == typed) return pick(l);
  }
  auto found = [&](const Move& m) {
    for (const Listed& l : opts)
      if (l.move == m) return pick(l);
    r.error = "that option is not available";
    return r;
  };
  try {  // the game's shorthand: its own message when the text is of its forms but wrong
    if (const auto m = parse_alias(s, text)) return found(*m);
  } catch (const InputError& e) {
    r.error = e.what();
    return r;
  }
  try {  // the engine's notation
    return found(parse_notation(s, text));
  } catch (const InputError&) {
    r.error = cells   ? fmt::format("{} is not a boxed letter on the board or a cell X,Y of the list (e.g. {})", quote(text), example)
              : tiles ? fmt::format("{} is not a tile as listed: type a tile and its rotation (e.g. \"{}\")", quote(text), example)
                      : fmt::format("{} is not a number from the list or an option as listed (e.g. \"{}\")", quote(text), example);
  }
  return r;
}


std::string describe_event_named(const State& s, const ScoreEvent& e, const std::vector<PlayerInfo>& players,
                                 bool color) {
  std::string text = describe_event(s, e);  // the game's own words first (GameDef::describe)
  const std::string prefix = fmt::format("player {} ", e.player + 1);
  const std::string possessive = fmt::format("player {}'s ", e.player + 1);
  if (text.rfind(prefix, 0) == 0 && static_cast<std::size_t>(e.player) < players.size()) {
    std::string rest = text.substr(prefix.size());
    if (players[e.player].name == "You" && rest.rfind("scores ", 0) == 0) rest = "score " + rest.substr(7);
    text = player_name(players, e.player, color) + " " + rest;
  } else if (text.rfind(possessive, 0) == 0 && static_cast<std::size_t>(e.player) < players.size()) {
    const std::string rest = text.substr(possessive.size());
    text = players[e.player].name == "You" ? "Your " + rest : player_name(players, e.player, color) + "'s " + rest;
  }
  return text;
}

std::string describe_record_move(const State& s, const RecordMove& m, const std::vector<PlayerInfo>& players,
                                 bool color) {
  const GameDef& g = *s.rs->game;
  const int type_id = s.rs->tiles.find(m.tile);
  const bool bonus = type_id >= 0 && s.rs->tiles.types[static_cast<std::size_t>(type_id)].pile == kPileBonus;
  std::string out = fmt::format("{} placed {}{} at {},{} r{}", player_name(players, m.player, color),
                                bonus ? "bonus tile " : "", printable(m.tile), m.x, m.y, m.rot);
  // a game's action or choice in its own words (Presentation::told), else its record text
  auto told = [&](MoveKind kind, const std::string& text) {
    if (g.present.told) return g.present.told(s, kind, text, m.x, m.y);
    return kind == MoveKind::Choose ? fmt::format("then {} {}", g.choice_key, printable(text)) : printable(text);
  };
  if (m.choice) {  // a turn's one choice, recorded with its rotation when it is a tile's
    const std::string text = s.rs->tiles.find(*m.choice) >= 0 ? fmt::format("{} r{}", *m.choice, m.choice_rot) : *m.choice;
    if (const std::string t = told(MoveKind::Choose, text); !t.empty()) out += ", " + t;
  }
  if (m.follower && *m.follower != "none") {
    std::string type = "?", piece = g.piece_names[0];
    const auto [cx, cy] = m.follower_at.value_or(std::pair<int, int>{m.x, m.y});
    const int ti = s.placed_at(cx, cy);
    if (ti >= 0) {
      const PlacedTile& t = s.tiles[static_cast<std::size_t>(ti)];
      const int f = feature_at_port(s, t, *m.follower);
      if (f >= 0) {
        const FeatureTypeDef& fd = s.rs->ftype(s.type_of(t).feats[static_cast<std::size_t>(f)].type);
        type = fd.name;
        piece = g.piece_names[std::min<std::size_t>(fd.piece_kind, 1)];
        if (!fd.role.empty() && fd.piece_kind == 0) piece = fd.role;  // "fisher"
        if (m.piece && *m.piece != piece) {  // a piece claiming the feature's network: a hut
          piece = *m.piece;
          type = "the " + g.present.network_name;
        }
      }
    }
    const std::string at = m.follower_at ? fmt::format(" at {},{}", cx, cy) : "";
    out += fmt::format(", {} on {} ({}{})", piece, type, printable(*m.follower), at);
  } else if (m.action) {
    out += ", " + told(MoveKind::Act, *m.action);
  } else if (g.pieces2_per_player > 0) {
    out += fmt::format(", no {} or {}", g.piece_names[0], g.piece_names[1]);
  } else if (g.hooks.gen_actions) {
    out += fmt::format(", no {} or action", g.piece_names[0]);
  } else {
    out += fmt::format(", no {}", g.piece_names[0]);
  }
  for (const auto& [who, text] : m.choices)  // the turn's choices by any player, in order
    if (const std::string t = told(MoveKind::Choose, text); !t.empty()) out += ", " + t;
  return out;
}

bool is_final_event(const State& s, const ScoreEvent& e) { return is_final_scoring(*s.rs->game, e); }

std::string turn_summary(const State& s, const Record& rec, std::size_t events_before,
                         const std::vector<PlayerInfo>& players, bool color) {
  if (rec.moves.empty()) return "";
  std::string text = describe_record_move(s, rec.moves.back(), players, color);
  bool any = false;
  for (std::size_t i = events_before; i < rec.events.size(); ++i) {
    const ScoreEvent& e = rec.events[i];
    if (is_final_event(s, e)) continue;  // final scoring is shown at the end
    if (!any) text += "\n";
    any = true;
    text += "    " + describe_event_named(s, e, players, color) + "\n";
  }
  if (!any) text += "\n";
  // a regular tile that earned an extra turn: the same player plays a bonus tile
  const RecordMove& m = rec.moves.back();
  const int t = s.rs->tiles.find(m.tile);
  if (s.rs->tiles.bonus_total > 0 && s.in_extra && s.current == m.player && s.phase != Phase::Over && t >= 0 &&
      s.rs->tiles.types[static_cast<std::size_t>(t)].pile != kPileBonus)
    text += "    " + extra_turn_text(s, players, color) + "\n";
  return text;
}


std::string render_final(const State& s, const std::vector<PlayerInfo>& players, bool color) {
  std::vector<int> order;
  for (int p = 0; p < s.nplayers; ++p) order.push_back(p);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return s.score[static_cast<std::size_t>(a)] > s.score[static_cast<std::size_t>(b)];
  });
  std::size_t w = 4;
  for (int p = 0; p < s.nplayers; ++p) w = std::max<std::size_t>(w, strip_ansi(player_name(players, p, false)).size());
  std::string out = "Final scores:\n";
  int rank = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const int p = order[i];
    if (i == 0 || s.score[static_cast<std::size_t>(p)] != s.score[static_cast<std::size_t>(order[i - 1])])
      rank = static_cast<int>(i) + 1;
    out += fmt::format("  {}. {} {} {:>4} points\n", rank, badge(p, color),
                       pad(player_name(players, p, color), static_cast<int>(w)), s.score[static_cast<std::size_t>(p)]);
  }
  const int best = s.score[static_cast<std::size_t>(order[0])];
  std::vector<std::string> winners;
  for (int p : order)
    if (s.score[static_cast<std::size_t>(p)] == best) winners.push_back(player_name(players, p, color));
  if (winners.size() == 1)
    out += fmt::format("Winner: {} with {} points.\n", winners[0], best);
  else
    out += fmt::format("Tie for first place between {} with {} points.\n", fmt::join(winners, " and "), best);
  return out;
}

std::string port_diagram() {
  return "       NNW  N  NNE\n"
         "   WNW ┌─────────┐ ENE\n"
         "     W │    C    │ E\n"
         "   WSW └─────────┘ ESE\n"
         "       SSW  S  SSE\n";
}

namespace {

const char* kHelpPlace =
    "Placing the tile:\n"
    "  X Y ROT      column X, row Y, ROT degrees clockwise (0 90 180 270),\n"
    "               e.g. \"3 -1 90\" or \"3,-1 r90\"\n"
    "  X Y          the same, when only one rotation fits there\n"
    "  a [ROT]      at the cell marked a on the board\n"
    "  x grows to the east (right), y grows to the SOUTH (down).\n";

const char* kHelpAnyTime =
    "Every move may also be typed as records and the engine protocol write it:\n"
    "  \"U 1,0 r90\", \"follower N\", \"camp S at 10,0\", \"pass\", \"double D2 r180\".\n"
    "Any time:\n"
    "  board        show the board again       moves   list where the tile fits\n"
    "  view X Y     centre the board on X,Y    view    follow the play again\n"
    "  scores       show the scores            help    this text\n";

}  // namespace

std::string help_text() {
  return std::string(kHelpPlace) +
         "Placing a follower (after the tile):\n"
         "  PORT         the feature touching that port: N E S W C NNE ENE ... (see below)\n"
         "  road, city…  the free spot of that type, if there is just one\n"
         "  none         no follower this turn\n" +
         kHelpAnyTime +
         "  undo         take back your turn (until the next player acts; at the follower\n"
         "               prompt it takes back the tile)\n"
         "  quit         save and exit (continue later with --resume FILE)\n"
         "Ports of a tile:\n" +
         port_diagram() +
         "Board: · field  ▒ city  ◆ shield  ─│┌┼ roads  M monastery  digits: followers of\n"
         "that player; boxed letters: where the tile in hand fits.\n";
}

std::string board_legend(const GameDef& g) {
  std::vector<std::string> items;
  for (const FeatureTypeDef& fd : g.ftypes) {
    switch (fd.cls) {
      case FClass::Field:
        items.push_back("· " + fd.name);
        break;
      case FClass::Area:
        items.push_back(area_glyph(g, fd).ch + " " + fd.name);
        break;
      case FClass::Path:
        if (is_river(fd)) {
          items.push_back("─│┌┼ " + plural_of(fd.name) + " (▪ a spring where one ends)");
        } else if (is_water(fd)) {
          std::string example, words_;
          for (std::size_t k = 0; k < fd.attrs.size() && k < 2; ++k) {
            const int n = 2 - static_cast<int>(k);
            example += fmt::format("{}{}", n, fd.attrs[k].empty() ? '?' : fd.attrs[k][0]);
            words_ += (k ? ", " : "") + count_of(n, fd.attrs[k]);
          }
          items.push_back(fmt::format("≈ the {}{}", capitalized(fd.name),
                                      example.empty() ? "" : " (" + example + ": " + words_ + ")"));
        } else {
          items.push_back("─│┌┼ " + plural_of(fd.name) + " (▪ a dead end)");
        }
        break;
      case FClass::Centre:
      case FClass::Point:
        if (is_lake(fd) && !fd.attrs.empty())
          items.push_back(fmt::format("(2) a {} with 2 {} (≋ a second {})", fd.name, plural_of(fd.attrs[0]), fd.name));
        else
          items.push_back(point_letter(fd) + " " + fd.name);
        break;
    }
  }
  bool animals = false;
  for (const FeatureTypeDef& fd : g.ftypes) {
    if (is_water(fd) || is_lake(fd)) continue;
    animals |= fd.cls == FClass::Field && !g.specials.empty() && !fd.attrs.empty();
    for (const std::string& a : fd.attrs) {
      const std::string item = symbol_glyph(g, a, 0).ch + " " + symbol_noun(g, a);
      if (std::find(items.begin(), items.end(), item) == items.end()) items.push_back(item);
    }
  }
  // symbols covered by a special (the pit trap), and the bonus tiles' specials
  if (animals) items.push_back("× covered (no longer counted)");
  for (const std::string& sp : g.specials) items.push_back(symbol_glyph(g, sp, -1).ch + " " + symbol_noun(g, sp));
  std::string pieces = fmt::format("digits: {} of that player", plural_of(g.piece_names[0]));
  if (g.pieces2_per_player > 0) {
    std::string circled;
    for (int p = 0; p < g.max_players; ++p) circled += piece_mark(p, 1);
    pieces = fmt::format("1..{}: {} of that player, {}: {}", g.max_players, plural_of(g.piece_names[0]), circled,
                         plural_of(g.piece_names[1]));
  }
  items.push_back(pieces);
  const Presentation& pr = g.present;  // the game's markers and sites
  if (!pr.marker_name.empty()) items.push_back(fmt::format("{}: {} {} on an empty cell", pr.marker_name, article(pr.marker_name), pr.marker_name));
  if (!pr.site_tokens.empty()) {
    std::string initials, site = pr.site_name;
    std::replace(site.begin(), site.end(), '_', ' ');
    for (const auto& t : pr.site_tokens) initials += (initials.empty() ? "" : " ") + std::string(1, static_cast<char>(std::toupper(static_cast<unsigned char>(t[0]))));
    items.push_back(fmt::format("{} in a tile's corner: {} {}'s tokens", initials, article(site), site));
    items.push_back("○ its free quarters");
    items.push_back(fmt::format("a digit beside a token: its {}", g.piece_names[0]));
  }
  items.push_back("boxed letters: where the tile in hand fits");
  // items kept whole, two spaces apart, lines of at most 80 columns
  std::string out, line = "Board:";
  for (const std::string& it : items) {
    const std::string sep = line == "Board:" ? " " : "  ";
    if (display_width(line) + 2 + display_width(it) > 80) {
      out += line + "\n";
      line = "     ";
    }
    line += sep + it;
  }
  return out + line + "\n";
}

namespace {

// One row of a help section: what to type, then what it does (wrapped, hanging at column 15); a
// form wider than the column gets a line of its own.
std::string help_row(const std::string& form, const std::string& what) {
  if (display_width(form) <= 12) return wrap_hang(fmt::format("  {:<12} ", form), what, 15, 80);
  return "  " + form + "\n" + wrap_hang(std::string(15, ' '), what, 15, 80);
}

std::string help_section(const Panel& p) {
  std::string out = p.title.empty() ? std::string() : p.title + "\n";
  for (const auto& r : p.rows) out += help_row(r.empty() ? std::string() : r[0], r.size() > 1 ? r[1] : std::string());
  for (const auto& l : p.lines) out += wrap_hang("  ", l, 2, 80);
  return out;
}

}  // namespace

std::string help_text(const State& s) {
  const GameDef& g = *s.rs->game;
  const Presentation& pr = g.present;
  if (g.pieces2_per_player == 0 && g.track_name.empty() && g.tile_kinds.size() <= 1 && pr.help.empty() && !pr.panels) return help_text();
  const std::string& n0 = g.piece_names[0];
  const std::string& n1 = g.piece_names[1];
  std::string out = kHelpPlace;
  bool piece = false;
  for (const Panel& p : pr.help) {
    piece |= p.id == "piece";
    out += help_section(p);
  }
  if (!piece) {  // the generic section on pieces: by port, by type or piece, or none
    std::vector<std::string> types;
    for (const FeatureTypeDef& fd : g.ftypes)
      if (fd.claimable) types.push_back(fd.name);
    const bool two = g.pieces2_per_player > 0;
    Panel p;
    p.title = two ? fmt::format("Placing {} {} or {} {} (after the tile):", article(n0), n0, article(n1), n1)
                  : fmt::format("Placing {} {} (after the tile):", article(n0), n0);
    p.rows.push_back({"PORT", "the feature touching that port: N E S W NNE ENE ... (see below)"});
    if (g.hooks.gen_choices)  // a turn may lay several tiles
      p.rows.push_back({"PORT at X,Y", "e.g. \"N at 9,0\" (or \"N 9,0\"): that port of the cell X,Y, on a turn with several tiles"});
    p.rows.push_back({fmt::format("{}{}", fmt::join(types, ", "), two ? fmt::format(", {}, {}", n0, n1) : std::string()),
                      fmt::format("the free spot of that type{}, if just one", two ? " (or for that piece)" : "")});
    p.rows.push_back({"none", g.pass_text == "pass" ? fmt::format("no {} this turn", n0) : g.pass_text});
    out += help_section(p);
  }
  out += kHelpAnyTime;
  std::vector<std::string> names;  // the game's panels, each by its id
  if (pr.panels)
    for (const Panel& p : pr.panels(s)) names.push_back(p.id);
  if (!names.empty())
    out += help_row("panels", fmt::format("the game's panels (each also by its name: {})", fmt::join(names, ", ")));
  out += help_row("undo", "take back your turn (until the next player acts; at a later prompt of your turn it takes back the tile)");
  out += help_row("quit", "save and exit (continue later with --resume FILE)");
  out += "Ports of a tile:\n" + port_diagram() + board_legend(g);
  return out;
}

ParsedPlacement parse_placement(std::string_view text, const std::vector<Candidate>& cands) {
  ParsedPlacement r;
  std::string t(text);
  for (char& c : t)
    if (c == ',' || c == '(' || c == ')' || c == ';') c = ' ';
  const auto w = words(t);
  if (w.empty()) {
    r.error = "type X Y ROTATION (e.g. \"3 -1 90\"), a cell letter from the board (e.g. \"a 90\"), or help";
    return r;
  }
  std::size_t next = 0;
  const Candidate* cand = nullptr;
  if (is_word(w[0]) && !to_rotation(w[0])) {
    for (const Candidate& c : cands)
      if (!c.label.empty() && c.label == w[0]) cand = &c;
    if (!cand) {
      r.error = fmt::format("{} is not a command or a cell letter on the board (type help)", quote(w[0]));
      return r;
    }
    r.x = cand->x;
    r.y = cand->y;
    next = 1;
  } else {
    if (w.size() < 2) {
      r.error = "give the column and the row, then the rotation: e.g. \"3 -1 90\"";
      return r;
    }
    const auto x = typed_int(w[0]), y = typed_int(w[1]);
    if (!x || !y) {
      r.error = fmt::format("{} is not a cell: give two whole numbers, column then row (e.g. \"3 -1 90\")",
                            quote(w[0] + " " + w[1]));
      return r;
    }
    r.x = *x;
    r.y = *y;
    next = 2;
    for (const Candidate& c : cands)
      if (c.x == r.x && c.y == r.y) cand = &c;
  }
  if (w.size() > next + 1) {
    r.error = fmt::format("too much after the cell: expected just a rotation, got {}",
                          quote(fmt::format("{}", fmt::join(w.begin() + static_cast<long>(next), w.end(), " "))));
    return r;
  }
  if (w.size() == next + 1) {
    const auto rot = to_rotation(w[next]);
    if (!rot) {
      r.error = fmt::format("{} is not a rotation: use 0, 90, 180 or 270 (degrees clockwise)", quote(w[next]));
      return r;
    }
    r.rot = *rot;
    return r;
  }
  if (!cand) {
    r.error =
        fmt::format("the tile fits nowhere at {},{} (the boxed letters on the board show where it fits)", r.x, r.y);
    return r;
  }
  if (cand->rots.size() != 1) {
    std::vector<std::string> rs;
    for (int x : cand->rots) rs.push_back(fmt::format("r{}", x));
    r.error = fmt::format("at {},{} the tile fits as {}: add the rotation, e.g. \"{} {} {}\"", r.x, r.y,
                          fmt::join(rs, " or "), r.x, r.y, cand->rots.back());
    return r;
  }
  r.rot = cand->rots[0];
  return r;
}

ParsedPort parse_port(std::string_view text, const State& s) {
  ParsedPort r;
  std::string t(text);
  for (char& c : t)
    if (c == ',' || c == '(' || c == ')' || c == ';') c = ' ';
  auto w = words(t);
  const GameDef& g = *s.rs->game;
  // a piece that claims the feature's network, named with the port: "hut N", "N hut"; the
  // tribe member by its name's last word too ("member")
  auto piece_kind_named = [&](const std::string& word) -> std::optional<int> {
    if (g.pieces2_per_player == 0) return std::nullopt;
    const std::string lw = lower(word);
    for (int k = 0; k < 2; ++k) {
      const std::string& n = g.piece_names[static_cast<std::size_t>(k)];
      const std::string last = n.substr(n.rfind(' ') + 1);
      if (lw == n || lw == plural_of(n) || lw == last || lw == plural_of(last)) return k;
    }
    return std::nullopt;
  };
  std::optional<int> net_kind;  // the player asked for a piece claiming the network (a hut)
  if (has_networks(g) && w.size() >= 2) {
    const std::string joined = lower(fmt::format("{}", fmt::join(w, " ")));
    if (joined == g.piece_names[0] || joined == plural_of(g.piece_names[0])) w = {g.piece_names[0]};  // "tribe member"
    for (auto it = w.begin(); it != w.end() && w.size() >= 2; ++it) {
      const auto k = piece_kind_named(*it);
      bool network = false;
      for (const auto& fd : g.ftypes) network |= k && fd.network_kind == *k;
      if (network) {
        net_kind = *k;
        w.erase(it);
        break;
      }
    }
  }
  // a cell may follow (or lead): "N at 9,0", "N 9 0", "9,0 N"
  std::optional<std::pair<int, int>> cell;
  // (only in games where a turn can lay several tiles: those with a Choose decision)
  const bool cells_game = s.rs->game->hooks.gen_choices != nullptr;
  if (cells_game && w.size() >= 3) {
    std::vector<std::string> rest;
    std::vector<std::string> nums;
    for (const auto& x : w) {
      if (lower(x) == "at" || lower(x) == "on") continue;
      if (typed_int(x)) nums.push_back(x);
      else rest.push_back(x);
    }
    if (nums.size() == 2 && rest.size() == 1) {
      cell = std::pair{*typed_int(nums[0]), *typed_int(nums[1])};
      w = rest;
    }
  }
  if (w.size() != 1) {
    r.error = w.empty() ? "type a port name (N, E, S, W, C, NNE, ...), a feature type, or none"
                        : "type one port name (e.g. N or SSE), a feature type, or none";
    return r;
  }
  const std::string lo = lower(w[0]);
  if (lo == "none" || lo == "pass" || lo == "-" || lo == "no" || lo == "skip") {
    r.port = "none";
    return r;
  }
  // the tiles this turn's piece may go on (one, or the cells of a double tile)
  const std::size_t from = s.tiles.empty() ? 0 : std::min<std::size_t>(s.piece_from, s.tiles.size() - 1);
  const bool multi = s.phase == Phase::Piece && s.tiles.size() - from > 1;
  auto on_turn = [&](int x, int y) {
    if (!CellMap::in_range(x, y)) return false;  // the map's cells only (no aliasing of 265,0 to 9,0)
    const int ti = s.placed_at(x, y);
    return ti >= static_cast<int>(from);
  };
  if (cell && s.phase == Phase::Piece && !on_turn(cell->first, cell->second)) {
    std::vector<std::string> cells;
    for (std::size_t i = from; i < s.tiles.size(); ++i) cells.push_back(fmt::format("{},{}", s.tiles[i].x, s.tiles[i].y));
    r.error = fmt::format("{},{} is not a tile placed this turn (this turn: {})", cell->first, cell->second,
                          fmt::join(cells, " and "));
    return r;
  }
  MoveList ml;
  if (s.phase == Phase::Piece) gen_pieces(s, ml);
  auto spot_text = [&](const Move& m) {
    const PlacedTile& pt = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
    std::string port = feature_port(s, pt, m.feat);
    if (m.pk != 0xFF) port = g.piece_names[std::min<std::size_t>(m.pk, 1)] + " " + port;  // "hut N"
    return multi ? fmt::format("{} at {},{}", port, m.x, m.y) : port;
  };
  const std::string up = upper(w[0]);
  if (port_from_name(up) && has_networks(g) && s.phase == Phase::Piece && !multi) {
    // a piece on the feature at that port, or ("hut N") a piece on its network
    r.port = up;
    const PlacedTile& pt = s.tiles[from];
    const int f = feature_at_port(s, pt, up);
    if (f < 0) {
      r.error = fmt::format("the tile has no feature at {}", up);
      return r;
    }
    const FeatureTypeDef& fd = s.rs->ftype(s.type_of(pt).feats[static_cast<std::size_t>(f)].type);
    bool own = false, net = false;
    for (const Move& m : ml) {
      if (m.kind != MoveKind::Piece) continue;
      const PlacedTile& mt = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
      if (m.pk == 0xFF && s.graph.find(mt.seg0 + m.feat) == s.graph.find(pt.seg0 + f)) own = true;
      if (m.pk != 0xFF && fd.network_kind != 0xFF && s.graph.net_find(mt.seg0 + m.feat) == s.graph.net_find(pt.seg0 + f))
        net = true;
    }
    if (net_kind) {
      const std::string& hut = g.piece_names[static_cast<std::size_t>(*net_kind)];
      r.piece = hut;
      if (fd.network_kind != *net_kind)
        r.error = fmt::format("{} {} cannot go on a {}: only on a {} (its {})", article(hut), hut, fd.name, network_types(g, *net_kind),
                              g.present.network_name);
      else if (s.supply_of(*net_kind, s.current) == 0)
        r.error = fmt::format("you have no {} left in supply", hut);
      else if (!net)
        r.error = fmt::format("the {} at {} already has {} {}", g.present.network_name, up, article(hut), hut);
      return r;
    }
    if (!own && net) {  // a lake, or a river already taken: only a hut can go there
      const std::string& hut = g.piece_names[std::min<std::size_t>(fd.network_kind, 1)];
      r.error = fd.claimable ? fmt::format("no {} can go on the {} at {} (taken, or none in supply); for {} {} on its "
                                           "{} type \"{} {}\"",
                                           g.piece_names[0], fd.name, up, article(hut), hut, g.present.network_name, hut, up)
                             : fmt::format("no {} can stand on a {}; for {} {} on its {} type \"{} {}\"",
                                           g.piece_names[0], fd.name, article(hut), hut, g.present.network_name, hut, up);
    }
    return r;
  }
  if (port_from_name(up)) {
    r.port = up;
    if (cell) {
      r.at = cell;
    } else if (multi) {
      // the cell whose free spot touches that port
      std::vector<std::pair<int, int>> at;
      for (const Move& m : ml) {
        if (m.kind != MoveKind::Piece) continue;
        const PlacedTile& pt = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
        if (feature_at_port(s, pt, up) == m.feat) at.push_back({m.x, m.y});
      }
      if (at.size() == 1) {
        r.at = at[0];
      } else if (at.empty()) {
        r.error = fmt::format("no free spot at {} on this turn's tiles (see the list)", up);
      } else {
        r.error = fmt::format("both tiles have a free spot at {}: type \"{} at {},{}\" or \"{} at {},{}\"", up, up,
                              at[0].first, at[0].second, up, at[1].first, at[1].second);
      }
    }
    return r;
  }
  if (s.phase == Phase::Piece) {
    // a feature type name, or (games with two piece kinds) a piece name
    std::optional<std::size_t> ftype;
    std::optional<int> kind;
    std::string name;
    for (std::size_t t2 = 0; t2 < g.ftypes.size(); ++t2) {
      const std::string& role = g.ftypes[t2].role;  // what a piece there is called: "fisher" for a river
      if (lo == g.ftypes[t2].name || lo == plural_of(g.ftypes[t2].name) ||
          (!role.empty() && (lo == role || lo == plural_of(role)))) {
        ftype = t2;
        name = g.ftypes[t2].name;
      }
    }
    if (!ftype && g.pieces2_per_player > 0)
      for (int k = 0; k < 2; ++k)
        if (lo == g.piece_names[static_cast<std::size_t>(k)] || lo == plural_of(g.piece_names[static_cast<std::size_t>(k)]) ||
            (has_networks(g) && piece_kind_named(lo) == k)) {
          kind = k;
          name = g.piece_names[static_cast<std::size_t>(k)];
        }
    if (ftype && net_kind) {  // "hut river": a hut on the river system
      kind = net_kind;
      name = g.piece_names[static_cast<std::size_t>(*net_kind)];
    }
    if (ftype || kind) {
      std::vector<const Move*> spots;
      for (const Move& m : ml) {
        if (m.kind != MoveKind::Piece) continue;
        if (cell && (m.x != cell->first || m.y != cell->second)) continue;
        const PlacedTile& pt = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
        const FeatureTypeDef& fd = s.rs->ftype(s.type_of(pt).feats[m.feat].type);
        const int mk = m.pk != 0xFF ? m.pk : fd.piece_kind;  // a hut claims the network through the feature
        const bool type_ok = !ftype || s.type_of(pt).feats[m.feat].type == *ftype;
        const bool kind_ok = kind ? mk == *kind : m.pk == 0xFF;
        if (type_ok && kind_ok) spots.push_back(&m);
      }
      const std::string these = multi ? "these tiles have" : "this tile has";
      if (spots.size() == 1) {
        const Move& m = *spots[0];
        const PlacedTile& pt = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
        r.port = feature_port(s, pt, m.feat);
        if (m.pk != 0xFF) r.piece = g.piece_names[std::min<std::size_t>(m.pk, 1)];
        if (multi || cell) r.at = std::pair<int, int>{m.x, m.y};
      } else if (spots.empty()) {
        r.error = kind ? fmt::format("no free spot for {} {} on {}", article(name), name, multi ? "these tiles" : "this tile")
                       : fmt::format("no free {} on {}", name, multi ? "these tiles" : "this tile");
      } else {
        std::vector<std::string> names;
        for (const Move* m : spots) names.push_back(spot_text(*m));
        r.error = fmt::format("{} {} free {}: name the port ({})", these, spots.size(),
                              kind ? fmt::format("spots for {} {}", article(name), name) : plural_of(name),
                              fmt::join(names, " or "));
      }
      return r;
    }
  }
  r.error = fmt::format("{} is not a port name (N, NNE, C, ...), a feature type or none (type help)", quote(w[0]));
  return r;
}

}  // namespace carc::cli
