// How a tile is drawn as a terminal cell of 5 x 3 glyphs: the glyphs' styles and colours, a tile's
// features, its symbols by the marks of the game's look, the box of a place for the tile in hand.
#include "cli/terminal/common.hpp"
#include "core/io.hpp"
#include "view/look.hpp"
#include "view/view.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <map>

namespace carc::cli {

using namespace term;

namespace term {

std::string sgr(const Glyph& g) {
  static constexpr std::array<int, 3> kFieldBg = {22, 28, 64};
  static constexpr std::array<int, 3> kAreaBg = {94, 130, 172};
  static constexpr std::array<int, 3> kPointBg = {88, 124, 160};
  static constexpr std::array<int, 3> kWaterBg = {25, 26, 32};
  static constexpr std::array<int, 3> kForestBg = {234, 236, 239};
  const std::size_t sh = std::min<std::size_t>(g.shade, 2);
  if (g.st == St::Mark)
    return g.bg < 0 ? fmt::format("\x1b[1;38;5;{}m", g.fg) : fmt::format("\x1b[1;38;5;{};48;5;{}m", g.fg, g.bg);
  if (g.fg != 0) {
    int bg = kFieldBg[sh];
    if (g.st == St::Area) bg = kAreaBg[sh];
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
    case St::Mark:  // above
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

// A path nobody can claim is water.
bool is_water(const FeatureTypeDef& fd) { return fd.cls == FClass::Path && !fd.claimable; }
// A claimable path joined into networks (paths through centre features): drawn like a road, in blue.
bool is_river(const FeatureTypeDef& fd) { return fd.cls == FClass::Path && fd.claimable && fd.network_kind != 0xFF; }
// A centre feature nobody claims: "(2)" across the middle of the tile, its first symbol's count inside.
bool is_lake(const FeatureTypeDef& fd) { return fd.cls == FClass::Centre && !fd.claimable; }

// An area type with a mark of its own in the game's look (trees) is drawn in it, the rest as city walls.
Glyph area_glyph(const GameDef& g, const FeatureTypeDef& fd) {
  const view::TermMark* m = view::term_mark(view::look_of(g), fd.name);
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

// How a symbol is drawn on a feature: the mark of the game's look (its initial if none), bold on
// the feature's background in the mark's colour, else a colour by the symbol's slot.
SymbolGlyph symbol_glyph(const GameDef& g, std::string_view name, int slot) {
  static constexpr std::array<u8, 6> kSlotColour = {226, 223, 216, 208, 214, 117};  // letters by slot
  const view::TermMark* m = view::term_mark(view::look_of(g), name);
  const std::string ch = m ? m->mark
                         : name.empty()
                             ? std::string("*")
                             : std::string(1, static_cast<char>(std::tolower(static_cast<unsigned char>(name[0]))));
  if (m && m->fg >= 0) return {ch, static_cast<u8>(m->fg)};
  return {ch, slot >= 0 ? kSlotColour[static_cast<std::size_t>(slot) % kSlotColour.size()] : u8{231}};
}
// Symbols no longer counted (covered by a special): "×".
const SymbolGlyph kCovered{"×", 246};

// The type of local feature f of a tile type.
const FeatureTypeDef& ftype_at(const Ruleset& rs, const TileType& tt, int f) {
  return rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
}

// A tile drawn as a cell. `covered`: bit f set when local feature f's symbols no longer count (the
// a special covered them): they are drawn as "×".
Cell tile_cell(const Ruleset& rs, const TileType& tt, int rot, u16 covered) {
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
    centre = Glyph{"≈", St::Water};  // the water runs through; paths end at its bank
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
      centre = Glyph{"▪", St::Path};  // a path ending in the open: at a rock (a network's path: its spring)
      for (int sd = 0; sd < 4; ++sd)
        if (mask & (1u << sd)) {
          centre_own = feat(3 * sd + 1);
          centre.st = path_style(ftype_at(rs, tt, centre_own));
        }
    }
  }
  c[1][2] = centre;
  own[1][2] = centre_own;
  // unclaimable centres: the one at C as "(2)" across the middle (its first symbol: 2); one without a port (a second
  // one on the tile) as "≋" in the corner between the paths that flow into it
  for (int f = 0; f < tt.nfeat; ++f) {
    const TileFeature& tf = tt.feats[static_cast<std::size_t>(f)];
    if (!is_lake(rs.ftype(tf.type))) continue;
    if (feat(kCentre) == f) {
      const int n = tf.attr[0];
      c[1][1] = Glyph{"(", St::Lake};
      c[1][2] = Glyph{n < 10 ? std::to_string(n) : std::string("+"), St::Lake};
      c[1][3] = Glyph{")", St::Lake};
      if (tf.special != 0 && tf.special <= rs.game->specials.size()) {  // a special: "(1#"
        const SymbolGlyph sg = symbol_glyph(*rs.game, rs.game->specials[tf.special - 1u], -1);
        c[1][3] = Glyph{sg.ch, St::Lake, 0, 0, sg.fg};
      }
      for (int col = 1; col <= 3; ++col) own[1][static_cast<std::size_t>(col)] = f;
      continue;
    }
    unsigned in = 0;  // board sides of the paths flowing into it
    for (int g = 0; g < tt.nfeat; ++g)
      if (tf.links & (1u << g)) in |= rt.feat_sides[static_cast<std::size_t>(g)] & 15u;
    // the later port of the corner between two of those sides (a piece in that corner's field
    // stands at the earlier one)
    int port = 9;  // WSW
    if ((in & 3u) == 3u)
      port = 3;  // N+E: ENE
    else if ((in & 6u) == 6u)
      port = 6;  // E+S: SSE
    else if ((in & 12u) == 12u)
      port = 9;  // S+W: WSW
    else if ((in & 9u) == 9u)
      port = 11;  // W+N: WNW
    const auto [col, row] = kPortPos[static_cast<std::size_t>(port)];
    c[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)] = Glyph{"≋", St::Lake};
    own[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)] = f;
  }
  // symbols on the features (shields and the like): one glyph per unit, where the
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
    auto add_port = [&](int p) {
      add(kPortPos[static_cast<std::size_t>(p)][0], kPortPos[static_cast<std::size_t>(p)][1]);
    };
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
      while (next < spots.size() &&
             used[static_cast<std::size_t>(spots[next].second)][static_cast<std::size_t>(spots[next].first)])
        ++next;
      if (next >= spots.size()) return;
      const auto [col, row] = spots[next++];
      Glyph& g = c[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)];
      g = Glyph{sg.ch, g.st, 0, 0, sg.fg};
      used[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)] = true;
    };
    // a bonus tile's special first, then the symbols; symbols covered by a special as "×"
    if (tf.special != 0 && tf.special <= rs.game->specials.size())
      put(symbol_glyph(*rs.game, rs.game->specials[tf.special - 1u], -1));
    const bool hidden = (covered >> f) & 1u;
    for (std::size_t k = 0; k < fd.attrs.size() && k < kAttrs; ++k) {
      const SymbolGlyph sg = hidden ? kCovered : symbol_glyph(*rs.game, fd.attrs[k], static_cast<int>(k));
      for (int n = 0; n < tf.attr[k]; ++n) put(sg);
    }
  }
  // the water's symbols as counts: "2c1p" = 2 of the first symbol (initial c), 1 of the second (p)
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

}  // namespace term

}  // namespace carc::cli
