#include "cli/terminal_view.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
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

enum class St : u8 { None, Field, Area, Path, Point, Shield, Piece, Slot, SlotLabel };

struct Glyph {
  std::string ch = " ";
  St st = St::None;
  u8 shade = 0;   // 0/1: checkerboard of tiles, 2: the last placed tile
  u8 player = 0;  // Piece: whose
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
  const std::size_t sh = std::min<std::size_t>(g.shade, 2);
  switch (g.st) {
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

Glyph feature_glyph(const Ruleset& rs, const TileType& tt, int f, bool vertical) {
  if (f < 0 || f >= tt.nfeat) return Glyph{"·", St::Field};
  const FeatureTypeDef& fd = rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
  switch (fd.cls) {
    case FClass::Field:
      return Glyph{"·", St::Field};
    case FClass::Area:
      return Glyph{"▒", St::Area};
    case FClass::Path:
      return Glyph{vertical ? "│" : "─", St::Path};
    case FClass::Point:
      return Glyph{point_letter(fd), St::Point};
  }
  return Glyph{"·", St::Field};
}

FClass feature_class(const Ruleset& rs, const TileType& tt, int f) {
  if (f < 0 || f >= tt.nfeat) return FClass::Field;
  return rs.ftype(tt.feats[static_cast<std::size_t>(f)].type).cls;
}

Cell tile_cell(const Ruleset& rs, const TileType& tt, int rot) {
  const RotatedTile& rt = tt.rot[static_cast<std::size_t>(rot & 3)];
  auto feat = [&](int p) {
    return rt.port_feat[static_cast<std::size_t>(p)] == 0xFF ? -1 : rt.port_feat[static_cast<std::size_t>(p)];
  };
  auto sides = [&](int f) {
    return f < 0 ? 0 : std::popcount(static_cast<unsigned>(rt.feat_sides[static_cast<std::size_t>(f)] & 15));
  };
  Cell c;
  for (auto& row : c)
    for (auto& g : row) g = Glyph{"·", St::Field};
  // the rim: twelve ports
  for (int p = 0; p < kPorts; ++p) {
    const auto [col, row] = kPortPos[static_cast<std::size_t>(p)];
    const int side = port_side(p);
    c[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)] =
        feature_glyph(rs, tt, feat(p), side == 0 || side == 2);
  }
  // a corner shows the side third it is drawn for, unless that would join two separate cities
  constexpr std::array<std::array<int, 2>, 4> kCorner = {{{11, 0}, {3, 2}, {5, 6}, {9, 8}}};
  for (const auto& [p, q] : kCorner) {
    const int fp = feat(p), fq = feat(q);
    if (fp != fq && feature_class(rs, tt, fp) == FClass::Area && feature_class(rs, tt, fq) == FClass::Area) {
      const auto [col, row] = kPortPos[static_cast<std::size_t>(p)];
      c[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)] = Glyph{"·", St::Field};
    }
  }
  // roads leaving through the middle ports
  unsigned mask = 0;
  for (int sd = 0; sd < 4; ++sd)
    if (feature_class(rs, tt, feat(3 * sd + 1)) == FClass::Path) mask |= 1u << sd;
  // between the west/east middle port and the centre
  for (const auto& [p, col] : {std::pair{10, 1}, std::pair{4, 3}}) {
    const int f = feat(p);
    Glyph g{"·", St::Field};
    if (feature_class(rs, tt, f) == FClass::Path)
      g = Glyph{"─", St::Path};
    else if (feature_class(rs, tt, f) == FClass::Area && sides(f) >= 2)
      g = Glyph{"▒", St::Area};
    c[1][static_cast<std::size_t>(col)] = g;
  }
  // the centre
  int centre_feat = feat(kCentre);
  Glyph centre{"·", St::Field};
  if (centre_feat >= 0) {
    centre = feature_class(rs, tt, centre_feat) == FClass::Path ? Glyph{kBox[mask], St::Path}
                                                                : feature_glyph(rs, tt, centre_feat, false);
  } else if (std::popcount(mask) >= 2) {
    centre = Glyph{kBox[mask], St::Path};
  } else {
    for (int f = 0; f < tt.nfeat; ++f)
      if (feature_class(rs, tt, f) == FClass::Area && sides(f) >= 2) {
        centre = Glyph{"▒", St::Area};
        centre_feat = f;
        break;
      }
    if (centre_feat < 0 && mask != 0) centre = Glyph{kBox[mask], St::Path};
  }
  c[1][2] = centre;
  // attributes (shields) on city-like features
  for (int f = 0; f < tt.nfeat; ++f) {
    const TileFeature& tf = tt.feats[static_cast<std::size_t>(f)];
    if (tf.attr[0] == 0 || rs.ftype(tf.type).cls != FClass::Area) continue;
    if (f == centre_feat) {
      c[1][2] = Glyph{"◆", St::Shield};
      continue;
    }
    for (int sd = 0; sd < 4; ++sd)
      if (feat(3 * sd + 1) == f) {
        const auto [col, row] = kPortPos[static_cast<std::size_t>(3 * sd + 1)];
        c[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)] = Glyph{"◆", St::Shield};
        break;
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

std::string pad(const std::string& s, int w) {
  const int dw = display_width(s);
  return dw >= w ? s : s + std::string(static_cast<std::size_t>(w - dw), ' ');
}

std::string plural(int n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string plural_of(const std::string& noun) {
  if (!noun.empty() && noun.back() == 'y') return noun.substr(0, noun.size() - 1) + "ies";
  return noun + "s";
}

std::string badge(int p, bool color) {
  const std::string d = std::to_string(p + 1);
  if (!color) return d;
  Glyph g{d, St::Piece, 0, static_cast<u8>(p)};
  return sgr(g) + d + "\x1b[0m";
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}
std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!cur.empty()) out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

std::optional<int> to_int(std::string_view t) {
  if (!t.empty() && t[0] == '+') t.remove_prefix(1);
  int v = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || ptr != t.data() + t.size() || t.empty()) return std::nullopt;
  return v;
}

// "90", "r90", "R90", "90°", "90deg" -> 90; anything else -> nullopt.
std::optional<int> to_rotation(std::string_view t) {
  if (!t.empty() && (t[0] == 'r' || t[0] == 'R')) t.remove_prefix(1);
  for (std::string_view suffix : {std::string_view("\xC2\xB0"), std::string_view("deg")})
    if (t.size() > suffix.size() && t.substr(t.size() - suffix.size()) == suffix) t.remove_suffix(suffix.size());
  const auto v = to_int(t);
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

std::string render_board(const State& s, const ViewOptions& o, const std::vector<Candidate>& cands) {
  if (s.tiles.empty()) return "(the board is empty)\n";
  int bx0 = 1 << 20, bx1 = -(1 << 20), by0 = 1 << 20, by1 = -(1 << 20);
  auto grow = [&](int x, int y) {
    bx0 = std::min(bx0, x);
    bx1 = std::max(bx1, x);
    by0 = std::min(by0, y);
    by1 = std::max(by1, y);
  };
  for (const PlacedTile& t : s.tiles) grow(t.x, t.y);
  for (const Candidate& c : cands) grow(c.x, c.y);
  int ncols = std::max(1, (o.width - kLeft) / kCellW);
  if (o.max_cols > 0) ncols = std::min(ncols, o.max_cols);
  const int nrows = std::max(1, o.max_rows);
  const auto focus = o.centre.value_or(std::pair<int, int>{s.last_placed().x, s.last_placed().y});
  auto window = [](int lo, int hi, int n, int f) {
    if (hi - lo + 1 <= n) return std::pair{lo, hi};
    int a = f - (n - 1) / 2;
    a = std::clamp(a, lo, hi - n + 1);
    return std::pair{a, a + n - 1};
  };
  const auto [x0, x1] = window(bx0, bx1, ncols, focus.first);
  const auto [y0, y1] = window(by0, by1, nrows, focus.second);

  std::map<std::pair<int, int>, const Candidate*> slot;
  for (const Candidate& c : cands) slot[{c.x, c.y}] = &c;
  const int last = static_cast<int>(s.tiles.size()) - 1;
  const bool last_is_move = s.tiles.back().player != 0xFF;

  // follower positions: placed tile index -> (port position, player)
  std::map<int, std::vector<std::pair<int, int>>> pieces;
  for (const PieceOnBoard& pc : s.pieces) {
    const Segment& sg = s.graph[pc.seg];
    const std::string port = feature_port(s, s.tiles[sg.tile], sg.local);
    const auto p = port_from_name(port);
    pieces[sg.tile].push_back({p ? *p : kCentre, pc.player});
  }

  std::string out;
  auto label_line = [&] {
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
        c = tile_cell(*s.rs, s.type_of(t), t.rot);
        const u8 shade = (ti == last && last_is_move) ? 2 : static_cast<u8>((x + y) & 1);
        for (auto& row : c)
          for (auto& g : row) g.shade = shade;
        if (const auto it = pieces.find(ti); it != pieces.end())
          for (const auto& [port, player] : it->second) {
            const auto [col, row] = kPortPos[static_cast<std::size_t>(port)];
            c[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)] =
                Glyph{std::to_string(player + 1), St::Piece, shade, static_cast<u8>(player)};
          }
      } else if (const auto it = slot.find({x, y}); it != slot.end()) {
        c = slot_cell(it->second->label);
      }
      for (std::size_t r = 0; r < kCellH; ++r) lines[r].insert(lines[r].end(), c[r].begin(), c[r].end());
    }
    for (auto& l : lines) out += emit(l, o.color) + "\n";
  }
  label_line();
  if (x0 != bx0 || x1 != bx1 || y0 != by0 || y1 != by1)
    out += wrap(fmt::format("(showing x {}..{} of {}..{}, y {}..{} of {}..{}; 'view X Y' to move)", x0, x1, bx0, bx1,
                            y0, y1, by0, by1),
                o.width);
  return out;
}

std::string render_hand(const State& s, const std::vector<Candidate>& cands, const ViewOptions& o) {
  if (s.in_hand == 0xFF) return "";
  const TileType& tt = s.rs->tiles.types[s.in_hand];
  std::string out = fmt::format("In hand: tile {} ({})\n", tt.id, tt.description);
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
  if (some_unfit) out += "  (a rotation in brackets fits nowhere now)\n";
  return out;
}

std::string render_placements(const std::vector<Candidate>& cands, int width) {
  if (cands.empty()) return "The tile fits nowhere.\n";
  std::size_t total = 0;
  std::vector<std::string> items;
  for (const Candidate& c : cands) {
    std::string rots;
    for (int r : c.rots) rots += fmt::format(" r{}", r);
    items.push_back(fmt::format("{:<2}{},{}:{}", c.label.empty() ? "" : c.label, c.x, c.y, rots));
    total += c.rots.size();
  }
  std::size_t w = 0;
  for (const auto& it : items) w = std::max(w, it.size());
  const std::size_t per_line =
      std::max<std::size_t>(1, (static_cast<std::size_t>(std::max(width, 20)) - 2 + 3) / (w + 3));
  std::string out = fmt::format("It fits at {} ({}):\n", plural(static_cast<int>(cands.size()), "cell", "cells"),
                                plural(static_cast<int>(total), "placement", "placements"));
  for (std::size_t i = 0; i < items.size(); ++i) {
    const bool end = (i + 1) % per_line == 0 || i + 1 == items.size();
    out += (i % per_line == 0 ? "  " : "") + (end ? items[i] : fmt::format("{:<{}}   ", items[i], w));
    if (end) out += "\n";
  }
  return out;
}

std::string player_name(const std::vector<PlayerInfo>& players, int p, bool color) {
  const std::string name = p >= 0 && static_cast<std::size_t>(p) < players.size()
                               ? players[static_cast<std::size_t>(p)].name
                               : fmt::format("player {}", p + 1);
  if (!color || p < 0 || p >= kMaxPlayers) return name;
  return fmt::format("\x1b[1;38;5;{}m{}\x1b[0m", kPlayerText[static_cast<std::size_t>(p)], name);
}

std::string render_piece_options(const State& s, const std::vector<PlayerInfo>& players, bool color) {
  if (s.phase != Phase::Piece) return "";
  const PlacedTile& pt = s.last_placed();
  const TileType& tt = s.type_of(pt);
  const int supply = s.supply[s.current];
  std::string out = fmt::format("Follower spots on tile {} at {},{} ({} in supply):\n", tt.id, pt.x, pt.y,
                                plural(supply, "follower", "followers"));
  MoveList ml;
  gen_pieces(s, ml);
  std::string area_name = "city";
  for (const auto& fd : s.rs->game->ftypes)
    if (fd.cls == FClass::Area) {
      area_name = fd.name;
      break;
    }
  int spots = 0;
  for (const Move& m : ml) {
    if (m.kind != MoveKind::Piece) continue;
    ++spots;
    const FeatureTypeDef& fd = s.rs->ftype(tt.feats[m.feat].type);
    const FeatureInfo fi = feature_info(s, pt.seg0 + m.feat);
    const std::string attr_name = fd.attrs.empty() ? std::string("attribute") : fd.attrs[0];
    std::string info;
    switch (fd.cls) {
      case FClass::Path:
      case FClass::Area:
        if (fi.closed)
          info = fmt::format("completed by this tile: scores {} now", feature_value(s, fi, true));
        else
          info = fmt::format("{} so far, open", plural(fi.tiles, "tile", "tiles"));
        if (fi.attr) info += fmt::format(", {}", plural(fi.attr, attr_name, plural_of(attr_name)));
        break;
      case FClass::Point:
        info = fi.closed ? fmt::format("surrounded: scores {} now", feature_value(s, fi, true))
                         : fmt::format("{} of 9 tiles of its area placed", fi.tiles);
        break;
      case FClass::Field: {
        const int n = field_cities(s, fi.root);
        info = fmt::format("borders {} (scored at the end)",
                           plural(n, "completed " + area_name, "completed " + plural_of(area_name)));
        break;
      }
    }
    out += fmt::format("  {:<5} {:<10} {}\n", feature_port(s, pt, m.feat), fd.name, info);
  }
  if (supply == 0)
    out += "  (no follower left in supply)\n";
  else if (spots == 0)
    out += "  (every feature of this tile is already taken)\n";
  out += "  none  (keep your followers)\n";
  for (int f = 0; f < tt.nfeat; ++f) {
    const FeatureInfo fi = feature_info(s, pt.seg0 + f);
    std::vector<std::string> who;
    for (int p = 0; p < s.nplayers; ++p)
      if (fi.pieces[static_cast<std::size_t>(p)] > 0) who.push_back(player_name(players, p, color));
    if (who.empty()) continue;
    out += fmt::format("  {:<5} {:<10} taken by {}\n", feature_port(s, pt, f), s.rs->ftype(fi.ftype).name,
                       fmt::join(who, ", "));
  }
  return out;
}

std::string render_scores(const State& s, const std::vector<PlayerInfo>& players, bool color) {
  std::size_t w = 4;
  for (int p = 0; p < s.nplayers; ++p) w = std::max<std::size_t>(w, strip_ansi(player_name(players, p, false)).size());
  std::string out;
  for (int p = 0; p < s.nplayers; ++p) {
    const bool to_move = p == s.current && s.phase != Phase::Over;
    const std::string kind =
        static_cast<std::size_t>(p) < players.size() && !players[static_cast<std::size_t>(p)].bot.empty()
            ? "bot " + players[static_cast<std::size_t>(p)].bot
            : "human";
    out += fmt::format(" {} {} {} {:>4} points   followers in supply: {}/{}   ({})\n", to_move ? "▶" : " ",
                       badge(p, color), pad(player_name(players, p, color), static_cast<int>(w)),
                       s.score[static_cast<std::size_t>(p)], s.supply[static_cast<std::size_t>(p)],
                       s.rs->game->pieces_per_player, kind);
  }
  return out;
}

std::string describe_event_named(const State& s, const ScoreEvent& e, const std::vector<PlayerInfo>& players,
                                 bool color) {
  std::string text = describe_event(s, e);
  const std::string prefix = fmt::format("player {} ", e.player + 1);
  if (text.rfind(prefix, 0) == 0 && static_cast<std::size_t>(e.player) < players.size()) {
    std::string rest = text.substr(prefix.size());
    if (players[e.player].name == "You" && rest.rfind("scores ", 0) == 0) rest = "score " + rest.substr(7);
    text = player_name(players, e.player, color) + " " + rest;
  }
  return text;
}

std::string describe_record_move(const State& s, const RecordMove& m, const std::vector<PlayerInfo>& players,
                                 bool color) {
  std::string out =
      fmt::format("{} placed {} at {},{} r{}", player_name(players, m.player, color), m.tile, m.x, m.y, m.rot);
  if (m.follower && *m.follower != "none") {
    std::string type = "?";
    const int ti = s.placed_at(m.x, m.y);
    if (ti >= 0) {
      const PlacedTile& t = s.tiles[static_cast<std::size_t>(ti)];
      const int f = feature_at_port(s, t, *m.follower);
      if (f >= 0) type = s.rs->ftype(s.type_of(t).feats[static_cast<std::size_t>(f)].type).name;
    }
    out += fmt::format(", follower on {} ({})", type, *m.follower);
  } else {
    out += ", no follower";
  }
  return out;
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

std::string help_text() {
  return "Placing the tile:\n"
         "  X Y ROT      column X, row Y, ROT degrees clockwise (0 90 180 270),\n"
         "               e.g. \"3 -1 90\" or \"3,-1 r90\"\n"
         "  X Y          the same, when only one rotation fits there\n"
         "  a [ROT]      at the cell marked a on the board\n"
         "  x grows to the east (right), y grows to the SOUTH (down).\n"
         "Placing a follower (after the tile):\n"
         "  PORT         the feature touching that port: N E S W C NNE ENE ... (see below)\n"
         "  road, city…  the free spot of that type, if there is just one\n"
         "  none         no follower this turn\n"
         "Any time:\n"
         "  board        show the board again       moves   list where the tile fits\n"
         "  view X Y     centre the board on X,Y    view    follow the play again\n"
         "  scores       show the scores            help    this text\n"
         "  undo         take back your turn (until the next player acts; at the follower\n"
         "               prompt it takes back the tile)\n"
         "  quit         save and exit (continue later with --resume FILE)\n"
         "Ports of a tile:\n" +
         port_diagram() +
         "Board: · field  ▒ city  ◆ shield  ─│┌┼ roads  M monastery  digits: followers of\n"
         "that player; boxed letters: where the tile in hand fits.\n";
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
    const auto x = to_int(w[0]), y = to_int(w[1]);
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
  const auto w = words(text);
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
  const std::string up = upper(w[0]);
  if (port_from_name(up)) {
    r.port = up;
    return r;
  }
  if (s.phase == Phase::Piece) {
    for (std::size_t t = 0; t < s.rs->game->ftypes.size(); ++t) {
      const std::string& name = s.rs->game->ftypes[t].name;
      if (lo != name && lo != plural_of(name)) continue;
      MoveList ml;
      gen_pieces(s, ml);
      std::vector<std::string> ports;
      for (const Move& m : ml)
        if (m.kind == MoveKind::Piece && s.type_of(s.last_placed()).feats[m.feat].type == t)
          ports.push_back(feature_port(s, s.last_placed(), m.feat));
      if (ports.size() == 1)
        r.port = ports[0];
      else if (ports.empty())
        r.error = fmt::format("no free {} on this tile", name);
      else
        r.error = fmt::format("this tile has {} free {}: name the port ({})", ports.size(), plural_of(name),
                              fmt::join(ports, " or "));
      return r;
    }
  }
  r.error = fmt::format("{} is not a port name (N, NNE, C, ...), a feature type or none (type help)", quote(w[0]));
  return r;
}

}  // namespace carc::cli
