// SVG drawing of a board (see svg.hpp). Geometry is worked out in a unit tile (0..1, y down, in
// board orientation) and scaled to pixels when written.
#include "cli/svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace carc::cli {

namespace {

struct Pt {
  double x = 0, y = 0;
};

// Rotate a unit-tile point r quarter turns clockwise about the centre (y grows down).
Pt rot_pt(Pt p, int r) {
  for (int i = 0; i < ((r % 4) + 4) % 4; ++i) p = Pt{1.0 - p.y, p.x};
  return p;
}

// Where port p meets the tile edge (C: the centre).
Pt port_pt(int p) {
  if (p == kCentre) return {0.5, 0.5};
  return rot_pt(Pt{(1.0 + 2.0 * (p % 3)) / 6.0, 0.0}, p / 3);
}

Pt toward_centre(Pt p, double k) { return {p.x + (0.5 - p.x) * k, p.y + (0.5 - p.y) * k}; }

std::string num(double v) {
  v = std::round(v * 100.0) / 100.0;
  if (std::abs(v) < 0.005) v = 0.0;
  return fmt::format("{:g}", v);
}

std::string esc(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

// Path data in a unit tile, rotated r quarter turns and scaled to t pixels.
class PathD {
 public:
  PathD(double t, int r) : t_(t), r_(r) {}
  PathD& M(Pt p) { return cmd('M', {p}); }
  PathD& L(Pt p) { return cmd('L', {p}); }
  PathD& Q(Pt c, Pt p) { return cmd('Q', {c, p}); }
  PathD& Z() {
    d_ += "Z";
    return *this;
  }
  [[nodiscard]] const std::string& str() const { return d_; }

 private:
  PathD& cmd(char c, std::initializer_list<Pt> pts) {
    if (!d_.empty() && d_.back() != 'Z') d_ += ' ';
    d_ += c;
    bool first = true;
    for (Pt p : pts) {
      p = rot_pt(p, r_);
      if (!first) d_ += ' ';
      first = false;
      d_ += num(p.x * t_) + "," + num(p.y * t_);
    }
    return *this;
  }
  std::string d_;
  double t_;
  int r_;
};

struct Palette {
  std::string_view fill, edge;
};

// Colours by feature name, falling back on the feature class for other games' names.
Palette colours(const FeatureTypeDef& f) {
  const std::string& n = f.name;
  if (n == "road" || n == "trail") return {"#f6f1e3", "#6e6558"};
  if (n == "river" || n == "tributary") return {"#5b9bd5", "#2e5f8f"};
  if (n == "city" || n == "village") return {"#d8b47a", "#7a4b22"};
  if (n == "forest" || n == "bush") return {"#2f6e36", "#1c4420"};
  if (n == "field" || n == "meadow") return {"#8fc46b", "#6fa24e"};
  if (n == "jungle") return {"#5e9c3c", "#437a28"};
  if (n == "savanna") return {"#d9c76a", "#b3a247"};
  if (n == "monastery") return {"#efe3c6", "#b3432e"};
  switch (f.cls) {
    case FClass::Path: return {"#f6f1e3", "#6e6558"};
    case FClass::Area: return {"#d8b47a", "#7a4b22"};
    case FClass::Field: return {"#8fc46b", "#6fa24e"};
    case FClass::Point: return {"#efe3c6", "#b3432e"};
  }
  return {"#cccccc", "#666666"};
}

// The sides (bit s) an Area feature covers on a placed tile, from the rotated port table.
int area_sides(const RotatedTile& rt, int f) {
  int m = 0;
  for (int p = 0; p < kPorts; ++p)
    if (rt.port_feat[static_cast<std::size_t>(p)] == f) m |= 1 << port_side(p);
  return m;
}

// Characters (UTF-8 code points) in s.
double text_len(std::string_view s) {
  double n = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) n += 1;
  return n;
}

int popcount4(int m) { return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1); }

// A city (Area feature) covering the sides in `mask`: fill path, wall path (its inner edge) and
// where a shield goes (unit tile). One connected shape per feature: two features on one tile are
// two shapes, so H and I show two separate city edges while F, M, Q ... show one.
struct AreaShape {
  std::string fill, wall;
  Pt shield;
};

AreaShape area_shape(int mask, double t) {
  AreaShape a;
  const int n = popcount4(mask);
  auto bit = [](int s) { return 1 << (s % 4); };
  if (n == 4) {
    PathD d(t, 0);
    d.M({0, 0}).L({1, 0}).L({1, 1}).L({0, 1}).Z();
    a.fill = d.str();
    a.shield = {0.8, 0.2};
  } else if (n == 3) {
    int missing = 0;
    for (int s = 0; s < 4; ++s)
      if (!(mask & bit(s))) missing = s;
    const int r = (missing + 2) % 4;  // canonical: N, E, W covered, S open
    PathD d(t, r), w(t, r);
    d.M({0, 0}).L({1, 0}).L({1, 1}).Q({0.5, 0.3}, {0, 1}).Z();
    w.M({1, 1}).Q({0.5, 0.3}, {0, 1});
    a.fill = d.str();
    a.wall = w.str();
    a.shield = rot_pt({0.8, 0.2}, r);
  } else if (n == 2 && (mask == (bit(1) | bit(3)) || mask == (bit(0) | bit(2)))) {
    const int r = mask == (bit(1) | bit(3)) ? 0 : 1;  // canonical: a band W-E
    PathD d(t, r), w(t, r);
    d.M({0, 0}).Q({0.5, 0.45}, {1, 0}).L({1, 1}).Q({0.5, 0.55}, {0, 1}).Z();
    w.M({0, 0}).Q({0.5, 0.45}, {1, 0}).M({1, 1}).Q({0.5, 0.55}, {0, 1});
    a.fill = d.str();
    a.wall = w.str();
    a.shield = {0.5, 0.5};
  } else if (n == 2) {
    int r = 0;
    for (int s = 0; s < 4; ++s)
      if (mask == (bit(s) | bit(s + 1))) r = s;  // canonical: N and E, the corner NE
    PathD d(t, r), w(t, r);
    d.M({0, 0}).L({1, 0}).L({1, 1}).Q({0.6, 0.4}, {0, 0}).Z();
    w.M({1, 1}).Q({0.6, 0.4}, {0, 0});
    a.fill = d.str();
    a.wall = w.str();
    a.shield = rot_pt({0.8, 0.2}, r);
  } else if (n == 1) {
    int r = 0;
    for (int s = 0; s < 4; ++s)
      if (mask == bit(s)) r = s;  // canonical: a cap on N
    PathD d(t, r), w(t, r);
    d.M({0, 0}).L({1, 0}).Q({0.5, 0.6}, {0, 0}).Z();
    w.M({1, 0}).Q({0.5, 0.6}, {0, 0});
    a.fill = d.str();
    a.wall = w.str();
    a.shield = rot_pt({0.74, 0.1}, r);
  } else {
    // an Area at the centre only (not in the base game): a disc
    PathD d(t, 0);
    d.M({0.3, 0.5}).Q({0.3, 0.3}, {0.5, 0.3}).Q({0.7, 0.3}, {0.7, 0.5}).Q({0.7, 0.7}, {0.5, 0.7}).Q({0.3, 0.7}, {0.3, 0.5}).Z();
    a.fill = d.str();
    a.wall = d.str();
    a.shield = {0.5, 0.5};
  }
  return a;
}

// Where a piece on local feature f of a tile stands (unit tile): at the port naming the feature
// (a side's middle port first, as in records), pulled in from the edge.
Pt piece_anchor(const RotatedTile& rt, int f, FClass cls) {
  int port = -1;
  for (int p = 1; p < kPorts && port < 0; p += 3)
    if (rt.port_feat[static_cast<std::size_t>(p)] == f) port = p;
  const bool middle = port >= 0;
  for (int p = 0; p < 13 && port < 0; ++p)
    if (rt.port_feat[static_cast<std::size_t>(p)] == f) port = p;
  if (port < 0 || port == kCentre) return cls == FClass::Point ? Pt{0.5, 0.56} : Pt{0.5, 0.5};
  const Pt p = port_pt(port);
  switch (cls) {
    case FClass::Area: return toward_centre(p, 0.3);
    case FClass::Path: return toward_centre(p, 0.45);
    case FClass::Field: return toward_centre(p, middle ? 0.3 : 0.35);
    case FClass::Point: return {0.5, 0.56};
  }
  return toward_centre(p, 0.3);
}

// A meeple of height h centred on the origin (pixels).
std::string meeple_d(double h) {
  static const std::array<Pt, 13> body = {{{-0.08, -0.18},
                                           {-0.42, -0.1},
                                           {-0.4, 0.06},
                                           {-0.18, 0.08},
                                           {-0.38, 0.5},
                                           {-0.06, 0.5},
                                           {0, 0.32},
                                           {0.06, 0.5},
                                           {0.38, 0.5},
                                           {0.18, 0.08},
                                           {0.4, 0.06},
                                           {0.42, -0.1},
                                           {0.08, -0.18}}};
  std::string d;
  for (std::size_t i = 0; i < body.size(); ++i)
    d += fmt::format("{}{},{} ", i == 0 ? 'M' : 'L', num(body[i].x * h), num(body[i].y * h));
  d += "Z";
  return d;
}

void draw_tile(std::string& out, const State& s, int index, double t, double ox, double oy, bool coords) {
  const PlacedTile& pt = s.tiles[static_cast<std::size_t>(index)];
  const TileType& tt = s.type_of(pt);
  const RotatedTile& rt = tt.rot[pt.rot];
  const Ruleset& rs = *s.rs;
  const double X = ox + pt.x * t, Y = oy + pt.y * t;
  out += fmt::format(R"~(<g class="tile" id="tile-{}" data-tile="{}" data-x="{}" data-y="{}" data-rot="{}" transform="translate({},{})">)~",
                     index, esc(tt.id), pt.x, pt.y, pt.rot * 90, num(X), num(Y));
  out += "\n";
  // fields: the background, in the colour of the tile's first field-like feature
  Palette bg{"#8fc46b", "#6fa24e"};
  for (int f = 0; f < tt.nfeat; ++f)
    if (rs.ftype(tt.feats[static_cast<std::size_t>(f)].type).cls == FClass::Field) {
      bg = colours(rs.ftype(tt.feats[static_cast<std::size_t>(f)].type));
      break;
    }
  out += fmt::format(R"~(<rect class="field" width="{0}" height="{0}" fill="{1}"/>)~", num(t), bg.fill);
  out += fmt::format(R"~(<rect width="{0}" height="{0}" x="0.5" y="0.5" fill="none" stroke="{1}" stroke-width="1"/>)~",
                     num(t - 1), bg.edge);
  out += "\n";
  // roads (and other path features): under the cities, so a road ending at a city stops at its wall
  bool ends_at_centre = false;
  for (int f = 0; f < tt.nfeat; ++f) {
    const FeatureTypeDef& ft = rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
    if (ft.cls != FClass::Path) continue;
    std::vector<int> ports;
    for (int p = 0; p < kPorts; ++p)
      if (rt.port_feat[static_cast<std::size_t>(p)] == f) ports.push_back(p);
    if (ports.empty()) continue;
    PathD d(t, 0);
    if (ports.size() == 2) {
      d.M(port_pt(ports[0])).Q({0.5, 0.5}, port_pt(ports[1]));
    } else {
      for (int p : ports) d.M(port_pt(p)).L({0.5, 0.5});
      ends_at_centre = true;
    }
    const Palette c = colours(ft);
    out += fmt::format(
        R"~(<g class="road" data-feature="{}"><path d="{}" fill="none" stroke="{}" stroke-width="{}"/><path d="{}" fill="none" stroke="{}" stroke-width="{}"/></g>)~",
        f, d.str(), c.edge, num(0.15 * t), d.str(), c.fill, num(0.1 * t));
    out += "\n";
  }
  if (ends_at_centre && tt.centre == 0xFF)
    out += fmt::format(R"~(<rect class="junction" x="{0}" y="{0}" width="{1}" height="{1}" fill="#5d4e3f"/>)~", num(0.41 * t),
                       num(0.18 * t));
  // cities (and other area features)
  for (int f = 0; f < tt.nfeat; ++f) {
    const TileFeature& tf = tt.feats[static_cast<std::size_t>(f)];
    const FeatureTypeDef& ft = rs.ftype(tf.type);
    if (ft.cls != FClass::Area) continue;
    const AreaShape a = area_shape(area_sides(rt, f), t);
    const Palette c = colours(ft);
    out += fmt::format(R"~(<g class="city" data-feature="{}"><path d="{}" fill="{}"/>)~", f, a.fill, c.fill);
    if (!a.wall.empty())
      out += fmt::format(R"~(<path d="{}" fill="none" stroke="{}" stroke-width="{}" stroke-linecap="round"/>)~", a.wall,
                         c.edge, num(0.05 * t));
    out += "</g>\n";
    if (tf.attr[0] > 0) {
      // a small blue shield, upright
      const double w = 0.075 * t, h = 0.09 * t;
      const double sx = a.shield.x * t, sy = a.shield.y * t;
      out += fmt::format(
          R"~(<path class="shield" d="M{},{} L{},{} L{},{} Q{},{} {},{} Q{},{} {},{} Z" fill="#1f4fa8" stroke="#ffffff" stroke-width="1"/>)~",
          num(sx - w), num(sy - h), num(sx + w), num(sy - h), num(sx + w), num(sy), num(sx + w), num(sy + 0.8 * h),
          num(sx), num(sy + h), num(sx - w), num(sy + 0.8 * h), num(sx - w), num(sy));
      out += "\n";
    }
  }
  // monasteries (and other centre features): a small building at C
  for (int f = 0; f < tt.nfeat; ++f) {
    const FeatureTypeDef& ft = rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
    if (ft.cls != FClass::Point) continue;
    const Palette c = colours(ft);
    out += fmt::format(
        R"~(<g class="monastery" data-feature="{}"><rect x="{}" y="{}" width="{}" height="{}" fill="{}" stroke="#5a4630" stroke-width="1"/><path d="M{},{} L{},{} L{},{} Z" fill="{}" stroke="#5a4630" stroke-width="1"/><rect x="{}" y="{}" width="{}" height="{}" fill="#5a4630"/></g>)~",
        f, num(0.34 * t), num(0.44 * t), num(0.32 * t), num(0.26 * t), c.fill, num(0.3 * t), num(0.45 * t), num(0.5 * t),
        num(0.26 * t), num(0.7 * t), num(0.45 * t), c.edge, num(0.46 * t), num(0.58 * t), num(0.08 * t), num(0.12 * t));
    out += "\n";
  }
  if (coords)
    out += fmt::format(
        R"~(<text class="coord" x="2" y="{}" font-size="{}" fill="#1b1b1b" fill-opacity="0.75" stroke="#ffffff" stroke-opacity="0.6" stroke-width="2" paint-order="stroke">{},{}</text>)~",
        num(t - 3), num(std::max(7.0, 0.14 * t)), pt.x, pt.y);
  out += "\n</g>\n";
}

}  // namespace

std::string render_svg(const State& s, const SvgOptions& o) {
  const double t = std::clamp(o.tile_px, 16, 512);
  int minx = 0, maxx = 0, miny = 0, maxy = 0;
  for (std::size_t i = 0; i < s.tiles.size(); ++i) {
    const PlacedTile& pt = s.tiles[i];
    if (i == 0) {
      minx = maxx = pt.x;
      miny = maxy = pt.y;
    }
    minx = std::min<int>(minx, pt.x);
    maxx = std::max<int>(maxx, pt.x);
    miny = std::min<int>(miny, pt.y);
    maxy = std::max<int>(maxy, pt.y);
  }
  const int cols = maxx - minx + 1, rows = maxy - miny + 1;
  const double left = o.coords ? 36 : 14, top = o.coords ? 96 : 80, right = 14, bottom = 14;
  const double ox = left - minx * t, oy = top - miny * t;
  const double height = top + rows * t + bottom;

  // heading: title, status, scores
  const std::string title = o.title.empty() ? s.rs->game->title : o.title;
  std::string status = o.subtitle;
  auto add = [&status](const std::string& part) { status += status.empty() ? part : " \u2014 " + part; };
  add(fmt::format("{} tile{} placed", s.tiles.size(), s.tiles.size() == 1 ? "" : "s"));
  if (s.phase == Phase::Over) {
    add("game over");
  } else {
    if (s.in_hand != 0xFF)
      add(fmt::format("next: tile {} for player {}", s.rs->tiles.types[s.in_hand].id, s.current + 1));
    add(fmt::format("{} left in the pile", s.pile));
  }
  // wide enough for the heading (rough text widths: the picture is not clipped by the viewer)
  const double width = std::max({left + cols * t + right, 40.0 + 150.0 * s.nplayers, 24.0 + 10.0 * text_len(title),
                                 24.0 + 7.0 * text_len(status)});

  std::string out = fmt::format(
      R"~(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" font-family="DejaVu Sans, Arial, sans-serif">)~",
      num(width), num(height));
  out += "\n";
  out += fmt::format(R"~(<rect width="{}" height="{}" fill="#f4f1ea"/>)~", num(width), num(height));
  out += "\n";

  out += fmt::format(R"~(<text class="title" x="12" y="22" font-size="16" font-weight="bold" fill="#222">{}</text>)~", esc(title));
  out += "\n";
  out += fmt::format(R"~(<text class="status" x="12" y="42" font-size="12" fill="#333">{}</text>)~", esc(status));
  out += "\n";
  for (int p = 0; p < s.nplayers; ++p) {
    const auto sp = static_cast<std::size_t>(p);
    std::string name = sp < o.player_names.size() && !o.player_names[sp].empty() ? o.player_names[sp]
                                                                                 : fmt::format("player {}", p + 1);
    if (name.size() > 18) name = name.substr(0, 17) + "~";
    const double x = 12 + 150.0 * p;
    out += fmt::format(
        R"~(<g class="score" data-player="{}"><rect x="{}" y="52" width="12" height="12" fill="{}" stroke="#111" stroke-width="1"/><text x="{}" y="62" font-size="12" fill="#222">{}: <tspan font-weight="bold">{}</tspan> ({} left)</text></g>)~",
        p, num(x), kSeatColours[sp], num(x + 16), esc(name), s.score[sp], s.supply[sp]);
    out += "\n";
  }

  // axes
  if (o.coords) {
    out += fmt::format(R"~(<text class="axis" x="4" y="{}" font-size="10" fill="#555">x&#8594;</text>)~", num(top - 6));
    out += fmt::format(R"~(<text class="axis" x="4" y="{}" font-size="10" fill="#555">y&#8595;</text>)~", num(top + 12));
    out += "\n";
    for (int x = minx; x <= maxx; ++x)
      out += fmt::format(R"~(<text class="axis" x="{}" y="{}" font-size="11" fill="#333" text-anchor="middle">{}</text>)~",
                         num(ox + (x + 0.5) * t), num(top - 6), x);
    out += "\n";
    for (int y = miny; y <= maxy; ++y)
      out += fmt::format(R"~(<text class="axis" x="{}" y="{}" font-size="11" fill="#333" text-anchor="end">{}</text>)~",
                         num(left - 6), num(oy + (y + 0.5) * t + 4), y);
    out += "\n";
  }
  // empty cells of the board's bounding box
  out += fmt::format(R"~(<g class="grid" fill="none" stroke="#d6d0c4" stroke-width="1">)~");
  for (int y = miny; y <= maxy; ++y)
    for (int x = minx; x <= maxx; ++x)
      if (s.placed_at(x, y) < 0)
        out += fmt::format(R"~(<rect x="{}" y="{}" width="{}" height="{}"/>)~", num(ox + x * t + 0.5), num(oy + y * t + 0.5),
                           num(t - 1), num(t - 1));
  out += "</g>\n";

  for (std::size_t i = 0; i < s.tiles.size(); ++i) draw_tile(out, s, static_cast<int>(i), t, ox, oy, o.coords);

  if (o.highlight_last && !s.tiles.empty() && s.tiles.back().player != 0xFF) {
    const PlacedTile& last = s.last_placed();
    out += fmt::format(R"~(<rect class="last" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#ff00d4" stroke-width="3"/>)~",
                       num(ox + last.x * t + 1.5), num(oy + last.y * t + 1.5), num(t - 3), num(t - 3));
    out += "\n";
  }

  // followers
  const std::string meeple = meeple_d(0.3 * t);
  for (const PieceOnBoard& pc : s.pieces) {
    const Segment& seg = s.graph[pc.seg];
    const PlacedTile& pt = s.tiles[seg.tile];
    const TileType& tt = s.type_of(pt);
    const FeatureTypeDef& ft = s.rs->ftype(tt.feats[seg.local].type);
    const Pt a = piece_anchor(tt.rot[pt.rot], seg.local, ft.cls);
    const bool farmer = ft.cls == FClass::Field;
    const auto colour = kSeatColours[pc.player % kMaxPlayers];
    out += fmt::format(
        R"~(<g class="follower{}" data-player="{}" data-feature="{}" fill="{}" stroke="{}" stroke-width="1.2" stroke-linejoin="round" transform="translate({},{}){}"><path d="{}"/><circle cx="0" cy="{}" r="{}"/></g>)~",
        farmer ? " farmer" : "", pc.player, esc(ft.name), colour, pc.player == 4 ? "#e8e8e8" : "#111111",
        num(ox + (pt.x + a.x) * t), num(oy + (pt.y + a.y) * t), farmer ? " rotate(90)" : "", meeple, num(-0.32 * 0.3 * t),
        num(0.16 * 0.3 * t));
    out += "\n";
  }
  out += "</svg>\n";
  return out;
}

Game replay_prefix(const Record& r, std::optional<int> moves, const std::string& where) {
  Record cut = r;
  if (moves) {
    if (*moves < 0 || static_cast<std::size_t>(*moves) > r.moves.size())
      throw InputError(fmt::format("{}: turn {} is out of range: the record has {} move{} (use 0..{})", where, *moves,
                                   r.moves.size(), r.moves.size() == 1 ? "" : "s", r.moves.size()));
    cut.moves.resize(static_cast<std::size_t>(*moves));
    cut.events.clear();
    cut.final_scores.clear();
    cut.finished = false;
  }
  try {
    return Game::replay(cut);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", where, e.what()));
  }
}

SvgOptions record_svg_options(const Record& r, const Game& g, std::optional<int> moves, const std::string& where) {
  SvgOptions o;
  o.title = fmt::format("{} \u2014 {}", g.ruleset().game->title, where);
  const std::size_t done = moves ? static_cast<std::size_t>(*moves) : r.moves.size();
  o.subtitle = fmt::format("turn {} of {}", done, r.moves.size());
  for (const PlayerInfo& p : r.players) o.player_names.push_back(p.bot.empty() || p.name.find(p.bot) != std::string::npos
                                                                     ? p.name
                                                                     : fmt::format("{} ({})", p.name, p.bot));
  return o;
}

}  // namespace carc::cli
