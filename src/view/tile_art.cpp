// view/tile_art: the picture of one tile (see svg.hpp: draw_tile_art, tile_svg), drawn from the
// tile data with the game's look (view/look.hpp). Geometry is worked out in a unit tile (0..1, y
// down, in board orientation) and scaled to pixels when written.
#include "core/io.hpp"
#include "rules/words.hpp"
#include "view/look.hpp"
#include "view/svg.hpp"
#include "view/svg_util.hpp"
#include "view/tile_geometry.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace carc::view {

namespace {

using svg::esc;
using svg::num;
using svg::text_len;

using Pt = Point;

// Path data in a unit tile, rotated r quarter turns and scaled to t pixels. It also keeps the
// outline flattened (unit tile, board orientation, one polyline per subpath) for the layout of
// the symbols (see TileLayout).
class PathD {
 public:
  PathD(double t, int r) : t_(t), r_(r) {}
  PathD& M(Pt p) {
    polys_.emplace_back();
    polys_.back().push_back(rot_pt(p, r_));
    return cmd('M', {p});
  }
  PathD& L(Pt p) {
    polys_.back().push_back(rot_pt(p, r_));
    return cmd('L', {p});
  }
  PathD& Q(Pt c, Pt p) {
    const Pt a = polys_.back().back(), cr = rot_pt(c, r_), pr = rot_pt(p, r_);
    for (int i = 1; i <= 12; ++i) {
      const double u = i / 12.0, v = 1.0 - u;
      polys_.back().push_back(
          {v * v * a.x + 2 * u * v * cr.x + u * u * pr.x, v * v * a.y + 2 * u * v * cr.y + u * u * pr.y});
    }
    return cmd('Q', {c, p});
  }
  PathD& Z() {
    d_ += "Z";
    return *this;
  }
  [[nodiscard]] const std::string& str() const { return d_; }
  [[nodiscard]] const std::vector<std::vector<Pt>>& polys() const { return polys_; }

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
  std::vector<std::vector<Pt>> polys_;
};

// The sides (bit s) an Area feature covers on a placed tile, from the rotated port table.
int area_sides(const RotatedTile& rt, int f) {
  int m = 0;
  for (int p = 0; p < kPorts; ++p)
    if (rt.port_feat[static_cast<std::size_t>(p)] == f) m |= 1 << port_side(p);
  return m;
}

int popcount4(int m) { return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1); }

// A city (Area feature) covering the sides in `mask`: fill path, wall path (its inner edge) and
// where a shield goes (unit tile). One connected shape per feature: two features on one tile are
// two shapes, so H and I show two separate city edges while F, M, Q ... show one.
struct AreaShape {
  std::string fill, wall;
  Pt shield;
  std::vector<Pt> poly;  // the fill outline, flattened (unit tile)
};

AreaShape area_shape(int mask, double t) {
  AreaShape a;
  const int n = popcount4(mask);
  auto bit = [](int s) { return 1 << (s % 4); };
  if (n == 4) {
    PathD d(t, 0);
    d.M({0, 0}).L({1, 0}).L({1, 1}).L({0, 1}).Z();
    a.fill = d.str();
    a.poly = d.polys().front();
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
    a.poly = d.polys().front();
    a.wall = w.str();
    a.shield = rot_pt({0.8, 0.2}, r);
  } else if (n == 2 && (mask == (bit(1) | bit(3)) || mask == (bit(0) | bit(2)))) {
    const int r = mask == (bit(1) | bit(3)) ? 0 : 1;  // canonical: a band W-E
    PathD d(t, r), w(t, r);
    d.M({0, 0}).Q({0.5, 0.45}, {1, 0}).L({1, 1}).Q({0.5, 0.55}, {0, 1}).Z();
    w.M({0, 0}).Q({0.5, 0.45}, {1, 0}).M({1, 1}).Q({0.5, 0.55}, {0, 1});
    a.fill = d.str();
    a.poly = d.polys().front();
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
    a.poly = d.polys().front();
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
    a.poly = d.polys().front();
    a.wall = w.str();
    a.shield = rot_pt({0.74, 0.1}, r);
  } else {
    // an Area at the centre only (not in the base game): a disc
    PathD d(t, 0);
    d.M({0.3, 0.5}).Q({0.3, 0.3}, {0.5, 0.3}).Q({0.7, 0.3}, {0.7, 0.5}).Q({0.7, 0.7}, {0.5, 0.7}).Q({0.3, 0.7}, {0.3, 0.5}).Z();
    a.fill = d.str();
    a.poly = d.polys().front();
    a.wall = d.str();
    a.shield = {0.5, 0.5};
  }
  return a;
}

// Stroke widths (unit tile) of path features: claimable paths (roads, tributaries) and the wide
// band of an unclaimable river.
constexpr double kRoadEdge = 0.15, kRoadFill = 0.1, kRiverEdge = 0.38, kRiverFill = 0.32;

bool river_band(const FeatureTypeDef& ft) { return ft.cls == FClass::Path && !ft.claimable; }

// The centre line of path feature f on a placed tile (unit tile; path data scaled to t): one curve
// for two ports, else a line from each port to the centre (a crossing or a dead end).
PathD path_line(const RotatedTile& rt, int f, double t, bool& to_centre) {
  std::vector<int> ports;
  for (int p = 0; p < kPorts; ++p)
    if (rt.port_feat[static_cast<std::size_t>(p)] == f) ports.push_back(p);
  PathD d(t, 0);
  to_centre = false;
  if (ports.size() == 2) {
    d.M(port_pt(ports[0])).Q({0.5, 0.5}, port_pt(ports[1]));
  } else {
    for (int p : ports) d.M(port_pt(p)).L({0.5, 0.5});
    to_centre = !ports.empty();
  }
  return d;
}

// Fresh water: claimable paths that join networks through centre features (rivers into
// lakes) and the centre features that never close (lakes). A water path is drawn over the areas
// (a river may cross a forest to reach its lake); each single-port end runs into the lake it is
// linked to (TileFeature::links) or, linked to none, stops at a spring on the tile.
bool water_path(const FeatureTypeDef& ft) { return ft.cls == FClass::Path && ft.claimable && ft.network_kind != 0xFF; }
constexpr double kWaterEdge = 0.2, kWaterFill = 0.14, kSpringR = 0.065;

bool in_lake(const Lake& l, Pt p) {
  const double dx = (p.x - l.c.x) / l.rx, dy = (p.y - l.c.y) / l.ry;
  return dx * dx + dy * dy <= 1.0;
}

// The centre line of water path f (unit tile; path data scaled to t) and its spring, if it has one.
struct WaterLine {
  PathD d;
  std::optional<Pt> spring;
};

WaterLine water_line(const Ruleset& rs, const TileType& tt, const RotatedTile& rt, const Lakes& lakes, int f, double t) {
  std::vector<int> ports, into;
  for (int p = 0; p < kPorts; ++p)
    if (rt.port_feat[static_cast<std::size_t>(p)] == f) ports.push_back(p);
  for (int g = 0; g < tt.nfeat; ++g)
    if (g != f && rs.ftype(tt.feats[static_cast<std::size_t>(g)].type).cls == FClass::Centre && linked(tt, f, g))
      into.push_back(g);
  WaterLine w{PathD(t, 0), std::nullopt};
  const Pt mid{0.5, 0.5};
  if (ports.size() == 1) {
    const Pt a = port_pt(ports[0]);
    if (into.empty()) {  // a spring, kept clear of the tile's lakes (it does not run into them)
      double k = 0.6;
      auto near_lake = [&](Pt p) {
        for (int g = 0; g < tt.nfeat; ++g) {
          if (rs.ftype(tt.feats[static_cast<std::size_t>(g)].type).cls != FClass::Centre) continue;
          Lake halo = lakes[static_cast<std::size_t>(g)];
          halo.rx += 0.13;
          halo.ry += 0.13;
          if (in_lake(halo, p)) return true;
        }
        return false;
      };
      while (k > 0.25 && near_lake(toward_centre(a, k))) k -= 0.05;
      w.spring = toward_centre(a, k);
      w.d.M(a).L(*w.spring);
    }
    for (int g : into) {
      const Pt c = lakes[static_cast<std::size_t>(g)].c;
      if (std::abs(c.x - 0.5) < 1e-9 && std::abs(c.y - 0.5) < 1e-9) {
        w.d.M(a).L(c);
        continue;
      }
      // a lake off the middle: leave the edge square (the stroke stays on the tile), then bend
      const Pt side = port_pt(ports[0] / 3 * 3 + 1);
      const Pt n{(0.5 - side.x) * 2, (0.5 - side.y) * 2};  // inward unit normal of the port's side
      const double depth = 0.7 * ((c.x - a.x) * n.x + (c.y - a.y) * n.y);
      w.d.M(a).Q({a.x + n.x * depth, a.y + n.y * depth}, c);
    }
    return w;
  }
  if (ports.size() == 2) {
    w.d.M(port_pt(ports[0])).Q(mid, port_pt(ports[1]));
  } else {
    for (int p : ports) w.d.M(port_pt(p)).L(mid);
  }
  for (int g : into) w.d.M(mid).L(lakes[static_cast<std::size_t>(g)].c);
  return w;
}

// Where n symbols of lake l go: a row across it, a little below its middle (a network piece stands on its
// upper rim).
std::vector<Pt> lake_spots(const Lake& l, int n) {
  std::vector<Pt> out;
  const double dx = std::min(0.11, 1.7 * l.rx / std::max(1, n));
  for (int k = 0; k < n; ++k) out.push_back({l.c.x + dx * (k - (n - 1) / 2.0), l.c.y + 0.03});
  return out;
}

double seg_dist(Pt p, Pt a, Pt b) {
  const double dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy;
  double u = l2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / l2 : 0.0;
  u = std::clamp(u, 0.0, 1.0);
  return std::hypot(p.x - a.x - u * dx, p.y - a.y - u * dy);
}

double line_dist(const std::vector<std::vector<Pt>>& polys, Pt p) {
  double d = 1e9;
  for (const auto& pl : polys) {
    if (pl.size() == 1) d = std::min(d, std::hypot(p.x - pl[0].x, p.y - pl[0].y));
    for (std::size_t i = 1; i < pl.size(); ++i) d = std::min(d, seg_dist(p, pl[i - 1], pl[i]));
  }
  return d;
}

bool inside(const std::vector<Pt>& poly, Pt p) {
  bool in = false;
  for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++)
    if ((poly[i].y > p.y) != (poly[j].y > p.y) &&
        p.x < (poly[j].x - poly[i].x) * (p.y - poly[i].y) / (poly[j].y - poly[i].y) + poly[i].x)
      in = !in;
  return in;
}

// Which local feature shows at each cell of a fine grid over a placed tile, worked out from the
// same geometry that is drawn (paths, the river band over them, areas, centre features) and, for
// field-like features, by flooding the rest of the tile from each field's ports. The symbols of a
// feature (every symbol of its type) are laid out in its own cells.
constexpr int kGrid = 25;  // odd: the middle lines of the tile run through cell centres
constexpr u8 kNoFeature = 0xFF, kBlocked = 0xFE;

struct TileLayout {
  std::array<u8, kGrid * kGrid> owner{};
  static Pt centre_of(int i) { return {(i % kGrid + 0.5) / kGrid, (i / kGrid + 0.5) / kGrid}; }
  static int cell_at(Pt p) {
    const int cx = std::clamp(static_cast<int>(p.x * kGrid), 0, kGrid - 1);
    const int cy = std::clamp(static_cast<int>(p.y * kGrid), 0, kGrid - 1);
    return cy * kGrid + cx;
  }
};

TileLayout tile_layout(const Ruleset& rs, const TileType& tt, const RotatedTile& rt) {
  TileLayout L;
  L.owner.fill(kNoFeature);
  auto paint = [&L](u8 f, auto&& covers) {
    for (int i = 0; i < kGrid * kGrid; ++i)
      if (covers(TileLayout::centre_of(i))) L.owner[static_cast<std::size_t>(i)] = f;
  };
  bool junction = false;
  for (int pass = 0; pass < 2; ++pass) {  // claimable paths, then the river band drawn over them
    for (int f = 0; f < tt.nfeat; ++f) {
      const FeatureTypeDef& ft = rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
      if (ft.cls != FClass::Path || water_path(ft) || river_band(ft) != (pass == 1)) continue;
      bool to_centre = false;
      const PathD d = path_line(rt, f, 1.0, to_centre);
      const double hw = (pass == 1 ? kRiverEdge : kRoadEdge) / 2;
      paint(static_cast<u8>(f), [&](Pt p) { return line_dist(d.polys(), p) <= hw; });
      junction = junction || (pass == 0 && to_centre);
    }
    if (pass == 0 && junction && tt.centre == 0xFF)
      paint(kBlocked, [](Pt p) { return std::abs(p.x - 0.5) <= 0.09 && std::abs(p.y - 0.5) <= 0.09; });
  }
  for (int f = 0; f < tt.nfeat; ++f) {
    const FeatureTypeDef& ft = rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
    if (ft.cls == FClass::Area) {
      const AreaShape a = area_shape(area_sides(rt, f), 1.0);
      paint(static_cast<u8>(f), [&a](Pt p) { return inside(a.poly, p); });
    } else if (ft.cls == FClass::Point) {
      paint(static_cast<u8>(f), [](Pt p) { return std::abs(p.x - 0.5) <= 0.2 && p.y >= 0.26 && p.y <= 0.72; });
    }
  }
  // fresh water over the areas: rivers (with their springs), then the lakes they run into
  const Lakes lakes = lakes_of(rs, tt, rt);
  for (int f = 0; f < tt.nfeat; ++f) {
    const FeatureTypeDef& ft = rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
    if (!water_path(ft)) continue;
    const WaterLine w = water_line(rs, tt, rt, lakes, f, 1.0);
    paint(static_cast<u8>(f), [&w](Pt p) {
      return line_dist(w.d.polys(), p) <= kWaterEdge / 2 ||
             (w.spring && std::hypot(p.x - w.spring->x, p.y - w.spring->y) <= kSpringR);
    });
  }
  for (int f = 0; f < tt.nfeat; ++f)
    if (rs.ftype(tt.feats[static_cast<std::size_t>(f)].type).cls == FClass::Centre)
      paint(static_cast<u8>(f), [&](Pt p) { return in_lake(lakes[static_cast<std::size_t>(f)], p); });
  for (int f = 0; f < tt.nfeat; ++f) {
    if (rs.ftype(tt.feats[static_cast<std::size_t>(f)].type).cls != FClass::Field) continue;
    std::vector<int> queue;
    for (int p = 0; p < kPorts; ++p) {
      if (rt.port_feat[static_cast<std::size_t>(p)] != f) continue;
      for (double k = 0.04; k < 0.8; k += 0.06) {
        const int c = TileLayout::cell_at(toward_centre(port_pt(p), k));
        const u8 o = L.owner[static_cast<std::size_t>(c)];
        if (o == f) break;
        if (o != kNoFeature) continue;
        L.owner[static_cast<std::size_t>(c)] = static_cast<u8>(f);
        queue.push_back(c);
        break;
      }
    }
    for (std::size_t q = 0; q < queue.size(); ++q) {
      const int c = queue[q], cx = c % kGrid, cy = c / kGrid;
      for (int side = 0; side < 4; ++side) {
        const int nx = cx + kDx[static_cast<std::size_t>(side)], ny = cy + kDy[static_cast<std::size_t>(side)];
        if (nx < 0 || ny < 0 || nx >= kGrid || ny >= kGrid) continue;
        auto& o = L.owner[static_cast<std::size_t>(ny * kGrid + nx)];
        if (o != kNoFeature) continue;
        o = static_cast<u8>(f);
        queue.push_back(ny * kGrid + nx);
      }
    }
  }
  return L;
}

// Where n symbols of feature f go (unit tile, sorted west to east): the cells of the feature
// deepest inside it (for an area or field capped at a few cells, so the symbols cluster round its
// middle; for a path not capped, so they sit on its centre line), nearest its middle first, kept
// `apart` from each other and clear of the spots where pieces stand; the constraints are relaxed
// until all n have a place.
std::vector<Pt> symbol_spots(const TileLayout& L, int f, int n, const std::vector<Pt>& avoid, Pt fallback, bool path,
                             double apart) {
  std::vector<Pt> out;
  std::vector<int> region;
  for (int i = 0; i < kGrid * kGrid; ++i)
    if (L.owner[static_cast<std::size_t>(i)] == f) region.push_back(i);
  if (region.empty()) {
    for (int k = 0; k < n; ++k) out.push_back({fallback.x + 0.12 * (k - (n - 1) / 2.0), fallback.y});
    return out;
  }
  // depth: steps (8-neighbour) to the nearest cell outside the feature or (but for a path, which
  // goes on into the next tile) off the tile
  std::array<int, kGrid * kGrid> depth{};
  std::vector<int> queue;
  for (int i = 0; i < kGrid * kGrid; ++i) {
    const int cx = i % kGrid, cy = i / kGrid;
    if (L.owner[static_cast<std::size_t>(i)] != f) {
      depth[static_cast<std::size_t>(i)] = 0;
      queue.push_back(i);
    } else if (!path && (cx == 0 || cy == 0 || cx == kGrid - 1 || cy == kGrid - 1)) {
      depth[static_cast<std::size_t>(i)] = 1;
      queue.push_back(i);
    } else {
      depth[static_cast<std::size_t>(i)] = -1;
    }
  }
  for (std::size_t q = 0; q < queue.size(); ++q) {
    const int c = queue[q], cx = c % kGrid, cy = c / kGrid;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int nx = cx + dx, ny = cy + dy;
        if (nx < 0 || ny < 0 || nx >= kGrid || ny >= kGrid) continue;
        int& d = depth[static_cast<std::size_t>(ny * kGrid + nx)];
        if (d >= 0) continue;
        d = depth[static_cast<std::size_t>(c)] + 1;
        queue.push_back(ny * kGrid + nx);
      }
  }
  Pt mid;
  for (int i : region) {
    mid.x += TileLayout::centre_of(i).x / static_cast<double>(region.size());
    mid.y += TileLayout::centre_of(i).y / static_cast<double>(region.size());
  }
  auto dist = [](Pt a, Pt b) { return std::hypot(a.x - b.x, a.y - b.y); };
  std::stable_sort(region.begin(), region.end(), [&](int a, int b) {
    const int cap = path ? kGrid : 3;
    const int da = std::min(depth[static_cast<std::size_t>(a)], cap), db = std::min(depth[static_cast<std::size_t>(b)], cap);
    if (da != db) return da > db;
    return dist(TileLayout::centre_of(a), mid) < dist(TileLayout::centre_of(b), mid);
  });
  std::vector<bool> used(region.size(), false);
  struct Pass {
    double apart;
    bool avoid_pieces;
  };
  for (const Pass pass : {Pass{apart, true}, Pass{apart, false}, Pass{apart * 0.66, false}, Pass{apart * 0.4, false},
                          Pass{0.0, false}}) {
    for (std::size_t k = 0; k < region.size() && static_cast<int>(out.size()) < n; ++k) {
      if (used[k]) continue;
      const Pt c = TileLayout::centre_of(region[k]);
      bool ok = true;
      for (const Pt& o : out) ok = ok && dist(c, o) >= pass.apart;
      if (pass.avoid_pieces)
        for (const Pt& a : avoid) ok = ok && dist(c, a) >= 0.17;
      if (!ok) continue;
      used[k] = true;
      out.push_back(c);
    }
  }
  while (static_cast<int>(out.size()) < n) {  // more symbols than cells: share them
    const Pt again = out[out.size() % region.size()];
    out.push_back(again);
  }
  std::stable_sort(out.begin(), out.end(), [](Pt a, Pt b) { return a.x != b.x ? a.x < b.x : a.y < b.y; });
  return out;
}

// One symbol (attribute unit) named `name` centred at (x, y) pixels in a tile of t pixels, as a
// <g class="symbol NAME">. k numbers the symbols of one feature (fruit colours vary with it).
// One symbol (attribute unit) named `name` centred at (x, y) pixels in a tile of t pixels, as a
// <g class="symbol NAME">: the look's glyph for it (the k-th symbol of a feature: see
// Look::symbols), else a white disc with its initial. `covered`: the symbol no longer counts; it is
// drawn faded and crossed (data-covered="1").
void draw_symbol(std::string& out, const GameDef& game, const Look& look, std::string_view name, int k, int f, double x,
                 double y, double t, bool covered = false) {
  out += fmt::format(R"~(<g class="symbol {}" data-feature="{}"{} transform="translate({},{})">)~", esc(name), f,
                     covered ? R"~( data-covered="1")~" : "", num(x), num(y));
  const std::string gname = symbol_glyph(look, name, k);
  if (const Glyph* g = gname.empty() ? nullptr : glyph_of(look, gname)) {
    // its name in the current language (noun.NAME), else the look's English title
    const std::string word = has_message(game, fmt::format("noun.{}", name)) ? noun_word(game, name)
                             : g->title.empty()                              ? std::string(name)
                                                                             : g->title;
    out += fmt::format("<title>{}</title>", esc(covered ? say("svg.symbol_covered", {{"name", word}}) : word));
    out += covered ? fmt::format(R"~(<g opacity="0.55">{}</g>)~", svg::glyph_svg(*g, t / 64.0)) : svg::glyph_svg(*g, t / 64.0);
  } else {
    out += fmt::format(
        R"~(<circle r="{}" fill="#ffffff" stroke="#333333" stroke-width="0.8"/><text y="{}" font-size="{}" text-anchor="middle" fill="#333333">{}</text>)~",
        num(0.045 * t * 1.3), num(0.025 * t * 1.3), num(0.065 * t * 1.3), esc(name.substr(0, 1)));
  }
  if (covered)
    if (const Glyph* cross = glyph_of(look, "cross")) out += svg::glyph_svg(*cross, t / 64.0);
  out += "</g>\n";
}

// A labelled badge for a feature's special (a game's bonus-tile powers, GameDef::specials): its label, font size
// (pixels), width and height (unit tile).
struct Badge {
  std::string name, label;
  double fs = 0, w = 0, h = 0;
};

Badge badge_of(const GameDef& g, std::string_view special, double t) {
  Badge b{std::string(special), noun_word(g, special)};  // its word in the language ("noun.NAME")
  std::replace(b.label.begin(), b.label.end(), '_', ' ');
  b.fs = std::max(6.5, 0.1 * t);
  b.w = (0.62 * b.fs * text_len(b.label) + 0.7 * b.fs) / t;
  if (b.w > 0.9) {  // a long word (another language's): a smaller font, the badge within the tile
    b.fs *= 0.9 / b.w;
    b.w = 0.9;
  }
  b.h = 1.45 * b.fs / t;
  return b;
}

// The badge centred near c, moved inside the tile.
Pt badge_clamp(const Badge& b, Pt c) {
  const double m = 1.5 / 64;
  return {std::clamp(c.x, b.w / 2 + m, std::max(b.w / 2 + m, 1 - b.w / 2 - m)), std::clamp(c.y, b.h / 2 + m, 1 - b.h / 2 - m)};
}

// How far the nearest of `avoid` (where pieces stand) is from the badge centred at c.
double badge_clearance(const Badge& b, Pt c, const std::vector<Pt>& avoid) {
  double d = 1e9;
  for (const Pt& a : avoid)
    d = std::min(d, std::hypot(std::max(0.0, std::abs(a.x - c.x) - b.w / 2), std::max(0.0, std::abs(a.y - c.y) - b.h / 2)));
  return d;
}

// Where the badge goes (unit tile): the first candidate leaving room round the pieces, nearest
// `mid` among them; else the one leaving the most.
Pt badge_spot(const Badge& b, const std::vector<Pt>& candidates, Pt mid, const std::vector<Pt>& avoid) {
  constexpr double kRoom = 0.13;
  Pt best = badge_clamp(b, candidates.empty() ? mid : candidates.front()), roomiest = best;
  double best_d = 1e9, most = -1;
  for (const Pt& c0 : candidates) {
    const Pt c = badge_clamp(b, c0);
    const double room = badge_clearance(b, c, avoid), d = std::hypot(c.x - mid.x, c.y - mid.y);
    if (room >= kRoom && d < best_d - 1e-9) {
      best = c;
      best_d = d;
    }
    if (room > most + 1e-9) {
      roomiest = c;
      most = room;
    }
  }
  return best_d < 1e9 ? best : roomiest;
}

// The badge b centred at (x, y) pixels.
void draw_special(std::string& out, const Badge& b, int f, double x, double y, double t) {
  out += fmt::format(
      R"~(<g class="special" data-special="{}" data-feature="{}" transform="translate({},{})"><title>{}</title><rect x="{}" y="{}" width="{}" height="{}" rx="{}" fill="#fff1b8" stroke="#7a5200" stroke-width="0.8"/><text y="{}" font-size="{}" font-weight="bold" text-anchor="middle" fill="#4a3200">{}</text></g>)~",
      esc(b.name), f, num(x), num(y), esc(say("svg.bonus_tile", {{"name", b.label}})), num(-b.w * t / 2),
      num(-b.h * t / 2), num(b.w * t), num(b.h * t), num(b.h * t / 3), num(0.36 * b.fs), num(b.fs), esc(b.label));
  out += "\n";
}

// A def (pattern, clip path) named by its content: `tag` and `rest` (everything after the id) make
// the element; the id is `prefix` and a hash of them. Written into defs once.
std::string def_id(ArtDefs& defs, std::string_view prefix, std::string_view tag, const std::string& rest) {
  u64 h = 1469598103934665603ULL;
  for (const char c : tag) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  for (const char c : rest) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  std::string id = fmt::format("{}{:08x}", prefix, static_cast<u32>(h ^ (h >> 32)));
  if (defs.ids.insert(id).second) defs.text += fmt::format(R"~(<{} id="{}"{})~", tag, id, rest);
  return id;
}

// The paint of a feature's fill: its colour, or with a texture a <pattern> of the look's glyph
// tiled (a square of the glyph's size, in 64ths of a tile) over that colour. The scale keeps five
// digits, so the squares meet the tile's edges exactly (at 24 px: 0.375).
std::string paint(const Look& look, const FeatureStyle& st, double t, ArtDefs& defs) {
  const Glyph* g = st.texture.empty() ? nullptr : glyph_of(look, st.texture);
  if (!g) return st.fill;
  const double k = t / 64.0;
  const std::string s = num(g->size);
  const std::string rest = fmt::format(
      R"~( width="{0}" height="{0}" patternUnits="userSpaceOnUse"{1}><rect width="{0}" height="{0}" fill="{2}"/>{3}</pattern>)~",
      s, std::abs(k - 1.0) < 1e-9 ? std::string() : fmt::format(R"~( patternTransform="scale({:.5g})")~", k), st.fill,
      svg::glyph_svg(*g, 1.0, st.fill, st.edge));
  return fmt::format("url(#{}) {}", def_id(defs, "tx", "pattern", rest), st.fill);
}

}  // namespace

void draw_tile_art(std::string& out, const Ruleset& rs, int type, int rot, double t, u32 covered_feats,
                   ArtDefs* shared) {
  ArtDefs own;
  ArtDefs& defs = shared ? *shared : own;
  const std::size_t start = out.size();
  const TileType& tt = rs.tiles.types[static_cast<std::size_t>(type)];
  const RotatedTile& rt = tt.rot[static_cast<std::size_t>(rot)];
  const GameDef& game = *rs.game;
  const Look& look = look_of(game);
  // the class of a feature's group: the look's, else the type's name
  auto css = [](const FeatureStyle& st, const FeatureTypeDef& ft) {
    if (!st.css_set) return " " + esc(ft.name);
    return st.css.empty() ? std::string() : " " + st.css;
  };
  // fields: the background, in the colour of the tile's first field-like feature
  FeatureStyle bg = look.classes.find("field")->second;
  for (int f = 0; f < tt.nfeat; ++f)
    if (rs.ftype(tt.feats[static_cast<std::size_t>(f)].type).cls == FClass::Field) {
      bg = style_of(look, rs.ftype(tt.feats[static_cast<std::size_t>(f)].type));
      break;
    }
  out +=
      fmt::format(R"~(<rect class="field" width="{0}" height="{0}" fill="{1}"/>)~", num(t), paint(look, bg, t, defs));
  out += fmt::format(R"~(<rect width="{0}" height="{0}" x="0.5" y="0.5" fill="none" stroke="{1}" stroke-width="1"/>)~",
                     num(t - 1), bg.edge);
  out += "\n";
  // roads (and other path features): under the cities, so a road ending at a city stops at its wall
  bool ends_at_centre = false, trail_end = false;
  std::string_view trail_edge;
  for (int f = 0; f < tt.nfeat; ++f) {
    const FeatureTypeDef& ft = rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
    if (ft.cls != FClass::Path || river_band(ft) || water_path(ft)) continue;
    bool to_centre = false;
    const PathD d = path_line(rt, f, t, to_centre);
    if (d.polys().empty()) continue;
    ends_at_centre = ends_at_centre || to_centre;
    const FeatureStyle& c = style_of(look, ft);
    if (to_centre && c.round_end) {
      trail_end = true;
      trail_edge = c.edge;
    }
    out += fmt::format(
        R"~(<g class="road{}" data-feature="{}"><path d="{}" fill="none" stroke="{}" stroke-width="{}"/><path d="{}" fill="none" stroke="{}" stroke-width="{}"/></g>)~",
        css(c, ft), f, d.str(), c.edge, num(kRoadEdge * t), d.str(), paint(look, c, t, defs), num(kRoadFill * t));
    out += "\n";
  }
  if (ends_at_centre && tt.centre == 0xFF && trail_end)  // paths whose look ends them round
    out += fmt::format(R"~(<circle class="junction" cx="{0}" cy="{0}" r="{1}" fill="{2}"/>)~", num(0.5 * t), num(0.09 * t),
                       trail_edge);
  else if (ends_at_centre && tt.centre == 0xFF)
    out += fmt::format(R"~(<rect class="junction" x="{0}" y="{0}" width="{1}" height="{1}" fill="#5d4e3f"/>)~", num(0.41 * t),
                       num(0.18 * t));
  // rivers nobody claims: a wide band over the paths that end at it; a river that
  // ends inside the tile (the source) ends round
  for (int f = 0; f < tt.nfeat; ++f) {
    const FeatureTypeDef& ft = rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
    if (!river_band(ft)) continue;
    bool to_centre = false;
    const PathD d = path_line(rt, f, t, to_centre);
    if (d.polys().empty()) continue;
    const FeatureStyle& c = style_of(look, ft);
    out += fmt::format(R"~(<g class="river" data-feature="{}" data-type="{}">)~", f, esc(ft.name));
    if (to_centre)
      out += fmt::format(R"~(<circle cx="{0}" cy="{0}" r="{1}" fill="{2}"/>)~", num(0.5 * t), num(kRiverEdge / 2 * t), c.edge);
    out += fmt::format(R"~(<path d="{}" fill="none" stroke="{}" stroke-width="{}"/>)~", d.str(), c.edge, num(kRiverEdge * t));
    if (to_centre)
      out += fmt::format(R"~(<circle cx="{0}" cy="{0}" r="{1}" fill="{2}"/>)~", num(0.5 * t), num(kRiverFill / 2 * t), c.fill);
    out += fmt::format(R"~(<path d="{}" fill="none" stroke="{}" stroke-width="{}"/>)~", d.str(),
                       paint(look, c, t, defs), num(kRiverFill * t));
    out += "</g>\n";
  }
  // cities (and other area features)
  for (int f = 0; f < tt.nfeat; ++f) {
    const TileFeature& tf = tt.feats[static_cast<std::size_t>(f)];
    const FeatureTypeDef& ft = rs.ftype(tf.type);
    if (ft.cls != FClass::Area) continue;
    const AreaShape a = area_shape(area_sides(rt, f), t);
    const FeatureStyle& c = style_of(look, ft);
    out += fmt::format(R"~(<g class="city{}" data-feature="{}"><path d="{}" fill="{}"/>)~", css(c, ft), f, a.fill,
                       paint(look, c, t, defs));
    if (!a.wall.empty() && !c.stones.empty())  // a stone wall: blocks on the wall's dark edge
      out += fmt::format(
          R"~(<path d="{0}" fill="none" stroke="{1}" stroke-width="{2}" stroke-linecap="round"/><path d="{0}" fill="none" stroke="{3}" stroke-width="{4}" stroke-dasharray="{5} {6}"/>)~",
          a.wall, c.edge, num(0.075 * t), c.stones, num(0.045 * t), num(0.055 * t), num(0.02 * t));
    else if (!a.wall.empty())
      out += fmt::format(R"~(<path d="{}" fill="none" stroke="{}" stroke-width="{}" stroke-linecap="round"/>)~", a.wall,
                         c.edge, num(0.05 * t));
    out += "</g>\n";
    // the symbol of slot 0 as the look's badge (a shield), upright at the area's badge spot
    if (tf.attr[0] > 0 && !c.badge.empty()) {
      out += fmt::format(R"~(<g transform="translate({},{})">{}</g>)~", num(a.shield.x * t), num(a.shield.y * t),
                         svg::glyph_svg(*glyph_of(look, c.badge), t / 64.0));
      out += "\n";
    }
  }
  // fresh water over the areas: rivers (blue paths into their lakes, or ending at a spring), then
  // the lakes (blue ovals)
  const Lakes lakes = lakes_of(rs, tt, rt);
  for (int f = 0; f < tt.nfeat; ++f) {
    const FeatureTypeDef& ft = rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
    if (!water_path(ft)) continue;
    const WaterLine w = water_line(rs, tt, rt, lakes, f, t);
    const FeatureStyle& c = style_of(look, ft);
    out += fmt::format(R"~(<g class="water {}" data-feature="{}"><path d="{}" fill="none" stroke="{}" stroke-width="{}"/>)~",
                       esc(ft.name), f, w.d.str(), c.edge, num(kWaterEdge * t));
    if (w.spring)
      out += fmt::format(R"~(<circle class="spring" cx="{}" cy="{}" r="{}" fill="{}" stroke="{}" stroke-width="{}"/>)~",
                         num(w.spring->x * t), num(w.spring->y * t), num(kSpringR * t), c.fill, c.edge,
                         num((kWaterEdge - kWaterFill) / 2 * t));
    out += fmt::format(R"~(<path d="{}" fill="none" stroke="{}" stroke-width="{}"/></g>)~", w.d.str(),
                       paint(look, c, t, defs), num(kWaterFill * t));
    out += "\n";
  }
  for (int f = 0; f < tt.nfeat; ++f) {
    const FeatureTypeDef& ft = rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
    if (ft.cls != FClass::Centre) continue;
    const Lake& l = lakes[static_cast<std::size_t>(f)];
    const FeatureStyle& c = style_of(look, ft);
    out += fmt::format(
        R"~(<g class="water {}" data-feature="{}"><ellipse cx="{}" cy="{}" rx="{}" ry="{}" fill="{}" stroke="{}" stroke-width="{}"/></g>)~",
        esc(ft.name), f, num(l.c.x * t), num(l.c.y * t), num(l.rx * t), num(l.ry * t), paint(look, c, t, defs), c.edge,
        num(std::max(1.0, 0.03 * t)));
    out += "\n";
  }
  // monasteries (and other centre features): a small building at C
  for (int f = 0; f < tt.nfeat; ++f) {
    const FeatureTypeDef& ft = rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
    if (ft.cls != FClass::Point) continue;
    const FeatureStyle& c = style_of(look, ft);
    const Glyph* g = glyph_of(look, c.glyph.empty() ? "building" : c.glyph);
    out += fmt::format(R"~(<g class="{}" data-feature="{}" transform="translate({},{})">{}</g>)~", c.css_set && !c.css.empty() ? c.css : esc(ft.name), f,
                       num(0.5 * t), num(0.5 * t), svg::glyph_svg(*g, t / 64.0, c.fill, c.edge));
    out += "\n";
  }
  // symbols (every attribute unit but the shields drawn above): one glyph each, in the feature's
  // own part of the tile (a lake's in a row across it), clear of where pieces stand (pieces
  // claiming a whole network may stand on a lake too); symbols of a segment whose
  // symbols no longer count (Segment::covered) are crossed. A special (a bonus tile's power) is a
  // labelled badge in its feature's part of the tile, under a lake.
  std::optional<TileLayout> layout;
  std::vector<Pt> avoid;
  for (int f = 0; f < tt.nfeat; ++f) {
    const TileFeature& tf = tt.feats[static_cast<std::size_t>(f)];
    const FeatureTypeDef& ft = rs.ftype(tf.type);
    if (ft.claimable || (ft.cls == FClass::Centre && ft.network_kind != 0xFF)) avoid.push_back(piece_spot(rs, tt, rt, f));
  }
  for (int f = 0; f < tt.nfeat; ++f) {
    const TileFeature& tf = tt.feats[static_cast<std::size_t>(f)];
    if (tf.special == 0 || tf.special > game.specials.size()) continue;
    const FeatureTypeDef& ft = rs.ftype(tf.type);
    const Badge b = badge_of(game, game.specials[tf.special - 1U], t);
    std::vector<Pt> candidates;
    Pt mid;
    if (ft.cls == FClass::Centre) {  // under the lake, else over it
      const Lake& l = lakes[static_cast<std::size_t>(f)];
      candidates = {{l.c.x, l.c.y + l.ry + b.h / 2 + 0.03}, {l.c.x, l.c.y - l.ry - b.h / 2 - 0.03}};
      mid = candidates.front();
    } else {  // in the feature's part of the tile, nearest its middle
      if (!layout) layout = tile_layout(rs, tt, rt);
      int n = 0;
      for (int i = 0; i < kGrid * kGrid; ++i) {
        if (layout->owner[static_cast<std::size_t>(i)] != f) continue;
        const Pt c = TileLayout::centre_of(i);
        candidates.push_back(c);
        mid = {mid.x + c.x, mid.y + c.y};
        ++n;
      }
      mid = n > 0 ? Pt{mid.x / n, mid.y / n} : piece_anchor(rt, f, ft.cls);
      if (n == 0) candidates.push_back(mid);
    }
    const Pt at = badge_spot(b, candidates, mid, avoid);
    avoid.push_back(at);
    draw_special(out, b, f, at.x * t, at.y * t, t);
  }
  for (int f = 0; f < tt.nfeat; ++f) {
    const TileFeature& tf = tt.feats[static_cast<std::size_t>(f)];
    const FeatureTypeDef& ft = rs.ftype(tf.type);
    std::vector<std::string_view> names;
    for (std::size_t k = 0; k < ft.attrs.size() && k < tf.attr.size(); ++k) {
      if (k == 0 && ft.cls == FClass::Area && !style_of(look, ft).badge.empty()) continue;  // drawn as the badge
      for (int u = 0; u < tf.attr[k]; ++u) names.push_back(ft.attrs[k]);
    }
    if (names.empty()) continue;
    if (!layout) layout = tile_layout(rs, tt, rt);
    const std::vector<Pt> at =
        ft.cls == FClass::Centre
            ? lake_spots(lakes[static_cast<std::size_t>(f)], static_cast<int>(names.size()))
            : symbol_spots(*layout, f, static_cast<int>(names.size()), avoid, piece_anchor(rt, f, ft.cls),
                           ft.cls == FClass::Path,
                           river_band(ft) ? std::min(0.2, 0.85 / static_cast<double>(names.size())) : 0.16);
    const bool covered = ((covered_feats >> f) & 1u) != 0;
    for (std::size_t k = 0; k < names.size(); ++k)
      draw_symbol(out, game, look, names[k], static_cast<int>(k), f, at[k].x * t, at[k].y * t, t, covered);
  }
  // a tile kind marked "!" (a further tile follows it)
  if (tt.kind < game.tile_kinds.size() && game.tile_kinds[tt.kind].find('!') != std::string::npos)
    out += fmt::format(
        R"~(<g class="bang"><circle cx="{0}" cy="{1}" r="{2}" fill="#ffd500" stroke="#1b1b1b" stroke-width="1.2"/><text x="{0}" y="{3}" font-size="{4}" font-weight="bold" text-anchor="middle" fill="#1b1b1b">!</text></g>)~",
        num(0.86 * t), num(0.14 * t), num(std::max(6.0, 0.1 * t)), num(0.14 * t + std::max(6.0, 0.1 * t) * 0.55),
        num(std::max(9.0, 0.16 * t)));
  if (!shared && !own.text.empty()) out.insert(start, "<defs>" + own.text + "</defs>\n");
}

std::string tile_svg(const Ruleset& rs, int type, int px) {
  const double t = px;
  std::string out = fmt::format(R"~(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{0}" viewBox="0 0 {0} {0}" data-tile="{1}">)~", px,
                                esc(rs.tiles.types[static_cast<std::size_t>(type)].id));
  out += "\n";
  draw_tile_art(out, rs, type, 0, t, 0);
  out += "</svg>\n";
  return out;
}

}  // namespace carc::view
