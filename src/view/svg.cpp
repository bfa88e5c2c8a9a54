// view/svg: SVG drawing of a board and of single tiles (see svg.hpp). Geometry is worked out in a unit tile (0..1, y down, in
// board orientation) and scaled to pixels when written.
#include "view/svg.hpp"
#include "view/tile_geometry.hpp"
#include "core/io.hpp"

#include "games/games.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace carc::view {

namespace {

using Pt = Point;

std::string num(double v) {
  v = std::round(v * 100.0) / 100.0;
  if (std::abs(v) < 0.005) v = 0.0;
  return fmt::format("{:g}", v);
}

// Text for XML 1.0 content and attributes: control characters (which XML 1.0 forbids) and invalid
// UTF-8 become visible escapes first (printable), then the markup characters are escaped.
std::string esc(std::string_view raw) {
  const std::string s = printable(raw);
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

struct Palette {
  std::string_view fill, edge;
};

// Colours by feature name, falling back on the feature class for other games' names.
Palette colours(const FeatureTypeDef& f) {
  const std::string& n = f.name;
  if (n == "road") return {"#f6f1e3", "#6e6558"};
  if (n == "trail") return {"#f1e2bd", "#8a6a3c"};
  if (n == "tributary") return {"#a9dcf7", "#3d7fb3"};
  if (n == "amazon") return {"#2f7cc4", "#1b4d80"};
  if (n == "river" || n == "lake") return {"#5b9bd5", "#2e5f8f"};
  if (n == "city") return {"#d8b47a", "#7a4b22"};
  if (n == "village") return {"#cf9546", "#6b3d16"};
  if (n == "forest") return {"#2f6e36", "#1c4420"};
  if (n == "bush") return {"#5f9c3a", "#2c5418"};
  if (n == "field" || n == "meadow") return {"#8fc46b", "#6fa24e"};
  if (n == "jungle") return {"#3f8f3a", "#2b6a27"};
  if (n == "savanna") return {"#d9c76a", "#b3a247"};
  if (n == "monastery") return {"#efe3c6", "#b3432e"};
  if (f.cls == FClass::Path && !f.claimable) return {"#2f7cc4", "#1b4d80"};
  switch (f.cls) {
    case FClass::Path: return {"#f6f1e3", "#6e6558"};
    case FClass::Area: return {"#d8b47a", "#7a4b22"};
    case FClass::Field: return {"#8fc46b", "#6fa24e"};
    case FClass::Centre:
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

// Stroke widths (unit tile) of path features: claimable paths (roads, tributaries) and the wide
// band of an unclaimable river (the Amazon).
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

// Fresh water (Hunters): claimable paths that join networks through centre features (rivers into
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

// Where n symbols of lake l go: a row across it, a little below its middle (a hut stands on its
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
// feature (fruit, boat icons, animals, caimans, piranhas ...) are laid out in its own cells.
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
// Glyphs of Hunters & Gatherers' symbols, about 12 px across, drawn for a 64 px tile (the caller
// scales them): fish, the four animals (each its own silhouette and colour), menhir, mushroom.
// Empty for other names.
std::string_view wild_glyph(std::string_view name) {
  if (name == "fish")
    return R"~(<path d="M-3.4,0 Q-0.6,-2.9 3.8,0 Q-0.6,2.9 -3.4,0 Z M-3.2,0 L-5.6,-2.1 L-5.6,2.1 Z" fill="#eef6fc" stroke="#14324d" stroke-width="0.7" stroke-linejoin="round"/><circle cx="2.1" cy="-0.4" r="0.55" fill="#14324d"/>)~";
  if (name == "deer")  // light brown, slim, antlers
    return R"~(<g stroke="#3b2412" stroke-width="0.7" stroke-linecap="round"><path d="M-3,1.8 L-3.3,4.8 M-1.6,2.1 L-1.6,4.8 M1.2,2.1 L1.2,4.8 M2.5,1.8 L2.7,4.8 M2.4,0 L3.5,-2.2" fill="none"/><ellipse cx="-0.4" cy="0.5" rx="3.6" ry="1.8" fill="#c98a4b"/><ellipse cx="4" cy="-2.4" rx="1.5" ry="1.05" fill="#c98a4b"/><path d="M3.4,-3.3 L2.4,-5.9 M2.85,-4.7 L1.5,-5.3 M4.4,-3.3 L5,-5.9 M4.75,-4.8 L6,-5.3" fill="none" stroke="#5a3413" stroke-width="0.8"/></g>)~";
  if (name == "aurochs")  // dark brown, heavy, pale horns
    return R"~(<g stroke="#120a05" stroke-width="0.7" stroke-linecap="round"><path d="M-3.2,2 L-3.2,4.8 M-1.5,2.4 L-1.5,4.8 M1.3,2.4 L1.3,4.8 M2.9,2 L2.9,4.8" fill="none" stroke-width="1.2"/><path d="M-4.6,0.6 Q-4.6,-2.2 -1,-2.4 Q2.6,-3.4 3.6,-1 Q4,1.4 2.4,2.6 L-3,2.6 Q-4.6,2.4 -4.6,0.6 Z" fill="#4a3020"/><circle cx="4.3" cy="-0.8" r="1.6" fill="#4a3020"/><path d="M3.4,-2 Q2.5,-4.4 4.1,-4.7 M5.2,-2 Q6.3,-4 5,-4.8" fill="none" stroke="#f1e7c8" stroke-width="1"/></g>)~";
  if (name == "mammoth")  // big, shaggy grey-brown, trunk and tusk
    return R"~(<g stroke="#2a2320" stroke-width="0.7" stroke-linecap="round"><path d="M-3.4,2 L-3.4,5 M-1.3,2.6 L-1.3,5 M1.1,2.6 L1.1,5 M2.9,2 L2.9,5" fill="none" stroke-width="1.6"/><path d="M-5,1.2 Q-5.4,-3.8 -0.6,-4 Q3.4,-4.4 4.2,-1.4 Q4.4,1.8 2.6,2.8 L-3.6,2.8 Q-5,2.6 -5,1.2 Z" fill="#7d6a5c"/><circle cx="4" cy="-1.2" r="2.1" fill="#7d6a5c"/><path d="M5.6,-0.6 Q6.8,2.2 5.4,4.4" fill="none" stroke="#7d6a5c" stroke-width="1.4"/><path d="M4.4,0.6 Q6.4,1.8 7,-0.2" fill="none" stroke="#f4ecd6" stroke-width="0.9"/></g>)~";
  if (name == "tiger")  // orange, black stripes, long tail
    return R"~(<g stroke="#2a1405" stroke-width="0.7" stroke-linecap="round"><path d="M-3,1.8 L-3.2,4.6 M-1.4,2 L-1.4,4.6 M1.4,2 L1.4,4.6 M2.8,1.8 L3,4.6 M-4.4,0 Q-6.4,-1.2 -5.8,-3.6" fill="none" stroke="#2a1405" stroke-width="1.1"/><ellipse cx="-0.4" cy="0.4" rx="4.2" ry="1.9" fill="#f08c1e"/><circle cx="3.9" cy="-1" r="1.7" fill="#f08c1e"/><path d="M-2.6,-1.3 L-2.2,1.2 M-0.9,-1.5 L-0.5,1.3 M0.8,-1.4 L1.1,1.2 M3.3,-2.6 L3.6,-1.7" fill="none" stroke="#111111" stroke-width="0.8"/></g>)~";
  // Safari's animals (each its own silhouette and colour) and birds
  if (name == "monkey")  // brown, sitting, pale face, curled tail
    return R"~(<g stroke="#2b1606" stroke-width="0.7" stroke-linecap="round"><path d="M-1.8,3.8 Q-6,4.2 -5.6,0.6 Q-5.4,-1.8 -3.6,-1.4" fill="none" stroke="#5a3315" stroke-width="1.1"/><ellipse cx="-0.6" cy="1.5" rx="2.6" ry="3" fill="#7a4a22"/><circle cx="-1.1" cy="-3" r="0.95" fill="#e6c097"/><circle cx="1.2" cy="-2.8" r="2.4" fill="#7a4a22"/><ellipse cx="1.9" cy="-2.5" rx="1.5" ry="1.3" fill="#e6c097" stroke="none"/><circle cx="1.5" cy="-2.9" r="0.3" fill="#111111" stroke="none"/><circle cx="2.5" cy="-2.9" r="0.3" fill="#111111" stroke="none"/></g>)~";
  if (name == "elephant")  // grey, big ear, trunk, tusk
    return R"~(<g stroke="#262b30" stroke-width="0.7" stroke-linecap="round" stroke-linejoin="round"><path d="M-3.6,2 L-3.6,4.8 M-1.5,2.4 L-1.5,4.8 M0.9,2.4 L0.9,4.8 M2.6,2 L2.6,4.8" fill="none" stroke-width="1.7"/><path d="M-5.2,1.4 Q-5.4,-3.6 -0.8,-3.6 Q3,-3.8 3.6,-0.6 Q3.8,2.4 2,2.8 L-3.8,2.8 Q-5.2,2.6 -5.2,1.4 Z" fill="#9aa3ad"/><path d="M4.6,-1.2 Q6.6,0.2 6.1,3 Q5.9,4.2 5,4.5" fill="none" stroke-width="2"/><circle cx="3.9" cy="-1.4" r="2.1" fill="#9aa3ad"/><path d="M4.6,-1.2 Q6.6,0.2 6.1,3 Q5.9,4.2 5,4.5" fill="none" stroke="#9aa3ad" stroke-width="1.1"/><path d="M1.5,-3.1 Q3.3,-3.7 3.3,-1.2 Q3.2,1.2 1.3,0.8 Q0.7,-1 1.5,-3.1 Z" fill="#bcc4cc"/><path d="M4.9,0.2 Q5.4,1.3 4.3,1.6" fill="none" stroke="#fffbea" stroke-width="0.8"/><circle cx="4.6" cy="-2" r="0.3" fill="#111111" stroke="none"/></g>)~";
  if (name == "giraffe")  // yellow with brown patches, long neck
    return R"~(<g stroke="#4a2a0a" stroke-width="0.6" stroke-linecap="round" stroke-linejoin="round"><path d="M-3,1.6 L-3.2,5.2 M-1.8,1.8 L-1.8,5.2 M0.8,1.8 L0.8,5.2 M2,1.6 L2.2,5.2 M-4,0.2 L-5,2" fill="none" stroke-width="0.9"/><path d="M-4,0.6 Q-4,-1 -2,-1 L1,-1.2 L3.1,-5.4 L4.5,-5 L2.6,-0.6 Q3,1.8 1.4,2 L-3,2 Q-4,1.8 -4,0.6 Z" fill="#f0b43c"/><path d="M3.6,-6 L3.4,-7.2 M4.3,-6.1 L4.3,-7.3" fill="none" stroke-width="0.7"/><path d="M3,-5.5 Q3.6,-6.6 5,-6.2 L6.4,-5.4 Q6.4,-4.8 5.6,-4.8 L4.4,-4.7 Z" fill="#f0b43c"/><g fill="#8a4b16" stroke="none"><circle cx="-2.7" cy="0.3" r="0.65"/><circle cx="-0.9" cy="0.7" r="0.6"/><circle cx="0.7" cy="-0.2" r="0.6"/><circle cx="-1.4" cy="-0.5" r="0.4"/><circle cx="2.2" cy="-2.3" r="0.45"/><circle cx="3" cy="-3.9" r="0.4"/></g></g>)~";
  if (name == "lion")  // golden, dark mane, tufted tail
    return R"~(<g stroke="#3a1e05" stroke-width="0.7" stroke-linecap="round"><path d="M-3,1.8 L-3,4.6 M-1.5,2 L-1.5,4.6 M1.2,2 L1.2,4.6 M2.6,1.8 L2.6,4.6 M-4.2,0 Q-6,0.6 -5.8,-2.4" fill="none" stroke-width="1.1"/><circle cx="-5.8" cy="-2.6" r="0.8" fill="#7a3a0e"/><ellipse cx="-0.6" cy="0.5" rx="3.8" ry="1.8" fill="#e0a94a"/><circle cx="3.4" cy="-1" r="2.7" fill="#8a4513"/><circle cx="3.9" cy="-0.8" r="1.5" fill="#edbd62"/><circle cx="4.3" cy="-1.2" r="0.3" fill="#111111" stroke="none"/></g>)~";
  if (name == "zebra")  // white with black stripes and mane
    return R"~(<g stroke="#111111" stroke-width="0.7" stroke-linecap="round" stroke-linejoin="round"><path d="M-3,1.8 L-3,4.8 M-1.6,2 L-1.6,4.8 M1.2,2 L1.2,4.8 M2.6,1.8 L2.6,4.8 M-4.2,0 L-5.2,2" fill="none" stroke-width="1"/><ellipse cx="-0.5" cy="0.4" rx="3.8" ry="1.8" fill="#ffffff"/><path d="M1.8,-0.8 L3.6,-4 Q4.2,-4.8 5,-4.2 L6.2,-2.2 Q6.4,-1.4 5.6,-1.4 L4.6,-2 L3.2,0.8 Z" fill="#ffffff"/><path d="M1.7,-1.1 L3.4,-4.2 M-3.2,-0.9 L-2.8,1.6 M-1.7,-1.3 L-1.3,2 M-0.2,-1.4 L0.2,2.1 M1.3,-1.2 L1.6,1.8 M3.4,-2.5 L4.4,-2.1 M3,-1.4 L3.9,-0.9" fill="none" stroke-width="0.9"/></g>)~";
  if (name == "bird")  // a small blue bird, perched
    return R"~(<g stroke="#102a3d" stroke-width="0.6" stroke-linejoin="round" stroke-linecap="round"><path d="M-0.6,2.1 L-0.8,3.6 M0.6,2.1 L0.6,3.6" fill="none"/><path d="M-2,0.6 L-5,2.4 L-4.2,-0.2 Z" fill="#2f7fc0"/><ellipse cx="-0.4" cy="0.4" rx="2.8" ry="1.9" fill="#5cc0f2"/><circle cx="2.2" cy="-1.4" r="1.5" fill="#5cc0f2"/><path d="M3.5,-1.9 L5.2,-1.2 L3.5,-0.8 Z" fill="#ffcf33"/><path d="M-2,-0.2 Q0,-1.4 1.4,0.4 Q-0.4,1.6 -2,-0.2 Z" fill="#2f7fc0"/><circle cx="2.5" cy="-1.7" r="0.35" fill="#111111" stroke="none"/></g>)~";
  if (name == "menhir")  // a grey standing stone
    return R"~(<path d="M-2,4 L-2.4,-1.8 Q-1.8,-5.4 0.5,-5.2 Q2.3,-4.6 2.2,-1 L2,4 Z" fill="#aaa69c" stroke="#262626" stroke-width="0.7" stroke-linejoin="round"/><path d="M-3.6,4 L3.6,4 M-0.8,-2.6 L0.6,-1.6" fill="none" stroke="#262626" stroke-width="0.7" stroke-linecap="round"/>)~";
  if (name == "mushroom")  // red cap, white spots
    return R"~(<path d="M-1.2,-0.2 L-1.4,3.8 L1.4,3.8 L1.2,-0.2 Z" fill="#f4ecd8" stroke="#4a100a" stroke-width="0.7"/><path d="M-3.8,0 Q-3.6,-4.4 0,-4.4 Q3.6,-4.4 3.8,0 Z" fill="#d9342b" stroke="#4a100a" stroke-width="0.7" stroke-linejoin="round"/><circle cx="-1.6" cy="-2.2" r="0.65" fill="#ffffff"/><circle cx="1.3" cy="-2.9" r="0.6" fill="#ffffff"/><circle cx="0.5" cy="-1" r="0.45" fill="#ffffff"/>)~";
  return {};
}

// A baobab (Safari), drawn for a 64 px tile round the tile's centre: a fat trunk under a flat,
// spreading crown; a photographer on it stands on the trunk.
constexpr std::string_view kBaobab =
    R"~(<path d="M-6,15 Q-4.6,4 -3,-5.5 L3,-5.5 Q4.6,4 6,15 Z" fill="#a27d58" stroke="#5a3d22" stroke-width="1" stroke-linejoin="round"/><path d="M-1.6,-5 L-7,-12 M0,-5 L0,-13 M1.6,-5 L7,-12 M-4.4,-8.6 L-10,-10" fill="none" stroke="#5a3d22" stroke-width="1.8" stroke-linecap="round"/><g fill="#5e8f2c" stroke="#2e4a14" stroke-width="0.9"><ellipse cx="-8.5" cy="-13" rx="6.5" ry="3.6"/><ellipse cx="8" cy="-13" rx="6.5" ry="3.6"/><ellipse cx="0" cy="-15.5" rx="8" ry="4"/></g>)~";

// A jeep (Safari), side view, about 44 px long for a 64 px tile, centred on the origin.
constexpr std::string_view kJeep =
    R"~(<ellipse cy="11.5" rx="21" ry="2.4" fill="#000000" fill-opacity="0.15"/><circle cx="-21.5" cy="-0.5" r="4.2" fill="#2a2a2a" stroke="#111111" stroke-width="1"/><path d="M-14,-4 L-14,-13 L6,-13 L9.5,-4" fill="none" stroke="#2d3312" stroke-width="1.8" stroke-linejoin="round"/><path d="M6.4,-11.8 L9,-4.5 L6.6,-4.5 L4.6,-10.4 Z" fill="#bfe3f5" stroke="#2d3312" stroke-width="0.6"/><path d="M-20,6 L-20,-4 L19,-4 Q22,-4 22,-1 L22,6 Z" fill="#8a9a3b" stroke="#2d3312" stroke-width="1.4" stroke-linejoin="round"/><path d="M-20,0.5 L22,0.5" stroke="#e7d9a8" stroke-width="1.4"/><circle cx="20.4" cy="-2" r="1.2" fill="#ffe680" stroke="#2d3312" stroke-width="0.5"/><g fill="#222222" stroke="#111111" stroke-width="1"><circle cx="-11" cy="6.5" r="5"/><circle cx="12" cy="6.5" r="5"/></g><g fill="#c4c4c4"><circle cx="-11" cy="6.5" r="2"/><circle cx="12" cy="6.5" r="2"/></g>)~";

// A red cross over a symbol that no longer counts (Hunters' pit trap covered it), 64 px tile.
constexpr std::string_view kCross =
    R"~(<path class="cross" d="M-5,-5 L5,5 M5,-5 L-5,5" fill="none" stroke="#d40000" stroke-width="1.6" stroke-linecap="round"/>)~";

// A glyph drawn for a 64 px tile, scaled to a tile of t pixels.
std::string scaled(std::string_view body, double t) {
  if (std::abs(t - 64.0) < 1e-9) return std::string(body);
  return fmt::format(R"~(<g transform="scale({})">{}</g>)~", num(t / 64.0), body);
}

// One symbol (attribute unit) named `name` centred at (x, y) pixels in a tile of t pixels, as a
// <g class="symbol NAME">. k numbers the symbols of one feature (fruit colours vary with it).
// `covered`: the symbol no longer counts; it is drawn faded and crossed (data-covered="1").
void draw_symbol(std::string& out, std::string_view name, int k, int f, double x, double y, double t, bool covered = false) {
  auto P = [t](double v) { return num(v * t * 1.3); };
  out += fmt::format(R"~(<g class="symbol {}" data-feature="{}"{} transform="translate({},{})">)~", esc(name), f,
                     covered ? R"~( data-covered="1")~" : "", num(x), num(y));
  if (const std::string_view wild = wild_glyph(name); !wild.empty()) {
    out += fmt::format("<title>{}{}</title>", esc(name), covered ? " (covered: it no longer counts)" : "");
    out += covered ? fmt::format(R"~(<g opacity="0.55">{}</g>)~", scaled(wild, t)) : scaled(wild, t);
  } else if (name == "fruit") {
    static constexpr std::array<std::string_view, 3> kFruit = {"#e8452c", "#f5a623", "#9b2fae"};
    out += fmt::format(R"~(<circle r="{}" fill="{}" stroke="#3d1400" stroke-width="0.8"/><path d="M0,{} L{},{}" stroke="#1f6b1a" stroke-width="1.2"/>)~",
                       P(0.042), kFruit[static_cast<std::size_t>(k) % kFruit.size()], P(-0.04), P(0.025), P(-0.065));
  } else if (name == "boat") {
    out += fmt::format(
        R"~(<path d="M{0},{1} L{2},{1} L{3},{4} L{5},{4} Z" fill="#8a5a2b" stroke="#2a1a08" stroke-width="0.8"/><path d="M{6},{7} L{6},{8} L{9},{7} Z" fill="#ffffff" stroke="#2a1a08" stroke-width="0.8"/>)~",
        P(-0.085), P(0.0), P(0.085), P(0.055), P(0.045), P(-0.055), P(-0.01), P(-0.015), P(-0.095), P(0.06));
  } else if (name == "animal") {
    // a paw print
    out += fmt::format(
        R"~(<g fill="#f4e2b0" stroke="#3b2a12" stroke-width="0.6"><ellipse cy="{}" rx="{}" ry="{}"/><circle cx="{}" cy="{}" r="{}"/><circle cy="{}" r="{}"/><circle cx="{}" cy="{}" r="{}"/></g>)~",
        P(0.015), P(0.032), P(0.025), P(-0.034), P(-0.024), P(0.013), P(-0.04), P(0.013), P(0.034), P(-0.024), P(0.013));
  } else if (name == "caiman") {
    out += fmt::format(
        R"~(<path d="M{0},{1} L{2},{3} L{4},{5} L{6},{7} L{6},{8} L{4},{9} L{2},{10} Z M{11},{12} L{13},{14} M{11},{15} L{13},{16} M{17},{12} L{18},{14} M{17},{15} L{18},{16}" fill="#56852c" stroke="#16300a" stroke-width="0.8"/><circle cx="{19}" cy="{20}" r="{21}" fill="#ffe14d"/>)~",
        P(-0.08), P(0.0), P(-0.035), P(-0.02), P(0.035), P(-0.022), P(0.08), P(-0.006), P(0.006), P(0.022), P(0.02),
        P(-0.02), P(-0.018), P(-0.035), P(-0.042), P(0.018), P(0.042), P(0.025), P(0.04), P(0.045), P(-0.01),
        P(0.008));
  } else if (name == "piranha") {
    out += fmt::format(
        R"~(<path d="M{0},0 L{1},{2} L{1},{3} Z" fill="#d92f2f" stroke="#4a0909" stroke-width="0.8"/><ellipse cx="{4}" rx="{5}" ry="{6}" fill="#d92f2f" stroke="#4a0909" stroke-width="0.8"/><circle cx="{7}" cy="{8}" r="{9}" fill="#ffffff"/>)~",
        P(-0.02), P(-0.06), P(-0.028), P(0.028), P(0.012), P(0.04), P(0.028), P(0.03), P(-0.008), P(0.008));
  } else {
    // a symbol of another game: a white disc with its initial
    out += fmt::format(
        R"~(<circle r="{}" fill="#ffffff" stroke="#333333" stroke-width="0.8"/><text y="{}" font-size="{}" text-anchor="middle" fill="#333333">{}</text>)~",
        P(0.045), P(0.025), P(0.065), esc(name.substr(0, 1)));
  }
  if (covered) out += scaled(kCross, t);
  out += "</g>\n";
}

// A labelled badge for a feature's special (Hunters' bonus-tile powers: canoe, pit trap, shaman,
// big trap, fire, raft): its label, font size (pixels), width and height (unit tile).
struct Badge {
  std::string name, label;
  double fs = 0, w = 0, h = 0;
};

Badge badge_of(std::string_view special, double t) {
  Badge b{std::string(special), std::string(special)};
  std::replace(b.label.begin(), b.label.end(), '_', ' ');
  b.fs = std::max(6.5, 0.1 * t);
  b.w = (0.62 * b.fs * text_len(b.label) + 0.7 * b.fs) / t;
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
      R"~(<g class="special" data-special="{}" data-feature="{}" transform="translate({},{})"><title>bonus tile: {}</title><rect x="{}" y="{}" width="{}" height="{}" rx="{}" fill="#fff1b8" stroke="#7a5200" stroke-width="0.8"/><text y="{}" font-size="{}" font-weight="bold" text-anchor="middle" fill="#4a3200">{}</text></g>)~",
      esc(b.name), f, num(x), num(y), esc(b.label), num(-b.w * t / 2), num(-b.h * t / 2), num(b.w * t), num(b.h * t),
      num(b.h * t / 3), num(0.36 * b.fs), num(b.fs), esc(b.label));
  out += "\n";
}

// A piece name as one class name ("tribe member" -> "tribe-member").
std::string class_name(std::string name) {
  std::replace(name.begin(), name.end(), ' ', '-');
  return name;
}

// A house of height h centred on the origin (pixels): a piece claiming a whole network (a hut).
std::string house(double h) {
  return fmt::format(
      R"~(<path class="house" d="M{0},{1} L{0},{2} L{3},{2} L0,{4} L{5},{2} L{6},{2} L{6},{1} Z"/><rect x="{7}" y="{8}" width="{9}" height="{10}" fill="#000000" fill-opacity="0.5" stroke="none"/>)~",
      num(-0.34 * h), num(0.38 * h), num(-0.04 * h), num(-0.48 * h), num(-0.5 * h), num(0.48 * h), num(0.34 * h),
      num(-0.09 * h), num(0.12 * h), num(0.18 * h), num(0.26 * h));
}

std::string photographer(double h);

// A game's markers on cells and sites at grid points (GameDef::present: Safari's jeeps and
// watering holes), drawn from the state's generic fields; and a side panel when players hold
// things besides pieces (Presentation::hand: Safari's tokens).
bool has_markers_or_sites(const GameDef& game) { return !game.present.marker_name.empty() || !game.present.site_name.empty(); }
bool has_hands(const GameDef& game) { return game.present.hand != nullptr; }
constexpr std::string_view kPondFill = "#4aa3df", kPondEdge = "#1d5f8f";
// "watering hole" for the site name "watering_hole"
std::string site_label(const GameDef& game) {
  std::string l = game.present.site_name;
  std::replace(l.begin(), l.end(), '_', ' ');
  return l;
}

// One entry of the key under the scores: a glyph (drawn round the origin) and its label.
struct KeyItem {
  std::string label, glyph;
  double width = 0;
};

// The key of a game: every symbol with a glyph of its own, a crossed one (covered), both pieces.
std::vector<KeyItem> key_items(const GameDef& game) {
  std::vector<KeyItem> out;
  auto add = [&out](std::string label, std::string glyph) {
    const double w = 16 + 7.4 * text_len(label) + 14;
    out.push_back({std::move(label), std::move(glyph), w});
  };
  std::string covered;
  for (const FeatureTypeDef& ft : game.ftypes)
    for (const std::string& name : ft.attrs) {
      const std::string_view wild = wild_glyph(name);
      if (wild.empty() || std::any_of(out.begin(), out.end(), [&](const KeyItem& k) { return k.label == name; })) continue;
      add(name, std::string(wild));
      if (ft.cls == FClass::Field && covered.empty())
        covered = fmt::format(R"~(<g opacity="0.55">{}</g>{})~", wild, kCross);
    }
  if (!covered.empty()) add("covered", covered);
  if (game.piece_names[0] == "photographer")
    add(game.piece_names[0],
        fmt::format(R"~(<g fill="#a0a0a0" stroke="#111111" stroke-width="1" stroke-linejoin="round">{}</g>)~", photographer(14)));
  else
    add(game.piece_names[0], fmt::format(R"~(<g fill="#a0a0a0" stroke="#111111" stroke-width="1" stroke-linejoin="round"><path d="{}"/><circle cy="{}" r="{}"/></g>)~",
                                         meeple_d(14), num(-0.32 * 14), num(0.16 * 14)));
  if (game.pieces2_per_player > 0 &&
      std::any_of(game.ftypes.begin(), game.ftypes.end(), [](const FeatureTypeDef& ft) { return ft.network_kind == 1; }))
    add(game.piece_names[1],
        fmt::format(R"~(<g fill="#a0a0a0" stroke="#111111" stroke-width="1" stroke-linejoin="round">{}</g>)~", house(14)));
  // glyphs drawn by name: a point feature named baobab, the game's markers and sites
  for (const FeatureTypeDef& ft : game.ftypes)
    if (ft.cls == FClass::Point && ft.name == "baobab") add("baobab", fmt::format(R"~(<g transform="translate(0,1) scale(0.42)">{}</g>)~", kBaobab));
  if (game.present.marker_name == "jeep") add("jeep", fmt::format(R"~(<g transform="translate(-0.5,-0.5) scale(0.3)">{}</g>)~", kJeep));
  if (!game.present.site_name.empty())
    add(site_label(game), fmt::format(R"~(<circle r="7" fill="{}" stroke="{}" stroke-width="1.2"/><path d="M-7,0 L7,0 M0,-7 L0,7" stroke="#ffffff" stroke-opacity="0.7" stroke-width="0.8"/>)~",
                                      kPondFill, kPondEdge));
  return out;
}

// ---- Safari: jeeps on empty cells, watering holes at grid points, tokens in hand ----

// A watering hole's quarter c is corner c (0 NE, 1 SE, 2 SW, 3 NW) of the cell touching the point
// there: cell (x - kCornerDx[c], y - kCornerDy[c]) for the point (x, y) at the NW corner of cell (x, y).
constexpr double kPondR = 0.34, kTokenOff = 0.16, kTokenR = 0.12, kHolePieceOff = 0.31;


// An animal token of radius r pixels: a cardboard disc with the species' glyph, round the origin.
std::string token_disc(std::string_view species, double r) {
  return fmt::format(R"~(<circle r="{}" fill="#f6ecd2" stroke="#5a4630" stroke-width="{}"/><g transform="scale({})">{}</g>)~",
                     num(r), num(std::max(0.6, r / 9.0)), num(r / 7.8), wild_glyph(species));
}

// A photographer (a meeple with a camera) of height h round the origin, in the owner's colour.
std::string photographer(double h) {
  return fmt::format(
      R"~(<path d="{}"/><circle cx="0" cy="{}" r="{}"/><rect class="camera" x="{}" y="{}" width="{}" height="{}" rx="{}" fill="#222222" stroke="#ffffff" stroke-width="0.5"/><circle cx="0" cy="{}" r="{}" fill="#9fd3ff" stroke="none"/>)~",
      meeple_d(h), num(-0.32 * h), num(0.16 * h), num(-0.17 * h), num(-0.07 * h), num(0.34 * h), num(0.22 * h),
      num(0.04 * h), num(0.04 * h), num(0.07 * h));
}

// Where the cell of quarter c lies from its point: -1 or +1 along x and y.
int quarter_dx(int c) { return 1 - 2 * kCornerDx[static_cast<std::size_t>(c)]; }
int quarter_dy(int c) { return 1 - 2 * kCornerDy[static_cast<std::size_t>(c)]; }

// "X,Y CORNER": quarter c of point (x, y) named by its cell and corner, as in the game's moves.
std::string quarter_name(int x, int y, int c) {
  return fmt::format("{},{} {}", x - kCornerDx[static_cast<std::size_t>(c)], y - kCornerDy[static_cast<std::size_t>(c)],
                     kCornerNames[static_cast<std::size_t>(c)]);
}

// Watering holes: a pond round each grid point, its usable quarters water (a quarter not usable,
// its tile missing or bush at that corner, only a dashed outline), each token in its quarter and
// each photographer beside it, outside the pond, on that quarter's tile; a complete hole ringed.
void draw_holes(std::string& out, const State& s, double t, double ox, double oy) {
  const auto& species = s.rs->game->present.site_tokens;
  const double R = kPondR * t;
  for (const Spot& sp : s.spots) {
    std::string what;
    for (int c = 0; c < 4; ++c) {
      const u8 k = sp.token[static_cast<std::size_t>(c)];
      if (k == 0xFF || k >= species.size()) continue;
      what += fmt::format("{}{} at {}", what.empty() ? "" : ", ", species[k], quarter_name(sp.x, sp.y, c));
      if (sp.owner[static_cast<std::size_t>(c)] != 0xFF)
        what += fmt::format(" (photographer of player {})", sp.owner[static_cast<std::size_t>(c)] + 1);
    }
    out += fmt::format(
        R"~(<g class="watering-hole" data-x="{}" data-y="{}" data-tokens="{}" data-closed="{}" transform="translate({},{})"><title>watering hole at point {},{}{}: {}</title>)~",
        sp.x, sp.y, sp.ntokens, sp.closed ? 1 : 0, num(ox + sp.x * t), num(oy + sp.y * t), sp.x, sp.y,
        sp.closed ? " (complete)" : "", esc(what));
    if (sp.closed)
      out += fmt::format(R"~(<circle class="complete" r="{}" fill="none" stroke="#f2c200" stroke-width="{}"/>)~",
                         num(R + std::max(1.5, 0.03 * t)), num(std::max(2.0, 0.05 * t)));
    for (int c = 0; c < 4; ++c) {
      const int dx = quarter_dx(c), dy = quarter_dy(c);
      const std::string d = fmt::format("M0,0 L{},0 A{},{} 0 0 {} 0,{} Z", num(dx * R), num(R), num(R), dx * dy > 0 ? 1 : 0,
                                        num(dy * R));
      if (quarter_usable(s, sp.x, sp.y, c))
        out += fmt::format(R"~(<path class="quarter" data-quarter="{}" d="{}" fill="{}" stroke="{}" stroke-width="{}" stroke-linejoin="round"/>)~",
                           c, d, kPondFill, kPondEdge, num(std::max(1.0, 0.02 * t)));
      else
        out += fmt::format(R"~(<path class="quarter unusable" data-quarter="{}" d="{}" fill="none" stroke="{}" stroke-width="1" stroke-opacity="0.6" stroke-dasharray="3 2"/>)~",
                           c, d, kPondEdge);
    }
    for (int c = 0; c < 4; ++c) {
      const u8 k = sp.token[static_cast<std::size_t>(c)];
      if (k == 0xFF || k >= species.size()) continue;
      out += fmt::format(R"~(<g class="token {}" data-quarter="{}" transform="translate({},{})"><title>{} token at {}</title>{}</g>)~",
                         esc(species[k]), c, num(quarter_dx(c) * kTokenOff * t), num(quarter_dy(c) * kTokenOff * t),
                         esc(species[k]), quarter_name(sp.x, sp.y, c), token_disc(species[k], kTokenR * t));
    }
    for (int c = 0; c < 4; ++c) {
      const u8 o = sp.owner[static_cast<std::size_t>(c)];
      if (o == 0xFF) continue;
      // the quarter's rim in the owner's colour, the photographer standing on it
      const int dx = quarter_dx(c), dy = quarter_dy(c);
      out += fmt::format(R"~(<path class="claim" data-quarter="{}" d="M{},0 A{},{} 0 0 {} 0,{}" fill="none" stroke="{}" stroke-width="{}" stroke-linecap="round"/>)~",
                         c, num(dx * R), num(R), num(R), dx * dy > 0 ? 1 : 0, num(dy * R), kSeatColours[o % kMaxPlayers],
                         num(std::max(2.5, 0.05 * t)));
      out += fmt::format(
          R"~(<g class="follower photographer" data-player="{}" data-feature="watering-hole" data-quarter="{}" fill="{}" stroke="{}" stroke-width="1" stroke-linejoin="round" transform="translate({},{})">{}</g>)~",
          o, c, kSeatColours[o % kMaxPlayers], o == 4 ? "#e8e8e8" : "#111111", num(dx * kHolePieceOff * t),
          num(dy * kHolePieceOff * t), photographer(0.25 * t));
    }
    out += "</g>\n";
  }
}

// The two jeeps, each on its empty cell (placing a tile there takes it).
void draw_jeeps(std::string& out, const State& s, double t, double ox, double oy) {
  for (std::size_t j = 0; j < s.markers.size(); ++j) {
    const int x = s.markers[j][0], y = s.markers[j][1];
    if (x == kOffBoard) continue;
    out += fmt::format(
        R"~(<g class="jeep" data-jeep="{}" data-x="{}" data-y="{}"><title>jeep on cell {},{}: a tile placed here takes it (+3)</title><rect x="{}" y="{}" width="{}" height="{}" rx="{}" fill="#efe3b8" fill-opacity="0.6" stroke="#8a7a3a" stroke-width="1.2" stroke-dasharray="5 3"/><g transform="translate({},{}) scale({})">{}</g></g>)~",
        j, x, y, x, y, num(ox + x * t + 0.08 * t), num(oy + y * t + 0.08 * t), num(0.84 * t), num(0.84 * t), num(0.1 * t),
        num(ox + (x + 0.5) * t), num(oy + (y + 0.5) * t), num(t / 64.0), kJeep);
    out += "\n";
  }
}

// The side panel: each player's score, photographers in supply and animal tokens in hand (every
// species, those not held faded), then the token piles, the jeeps and the watering holes.
constexpr double kPanelW = 226, kPanelRow = 66;
double panel_height(const State& s) { return 30 + kPanelRow * s.nplayers + 62; }

void draw_panel(std::string& out, const State& s, const std::vector<std::string>& names, double x0, double y0) {
  const GameDef& game = *s.rs->game;
  out += fmt::format(R"~(<g class="panel"><rect x="{}" y="{}" width="{}" height="{}" rx="6" fill="#ebe4d3" stroke="#b9ab8a" stroke-width="1"/>)~",
                     num(x0), num(y0), num(kPanelW), num(panel_height(s)));
  out += fmt::format(R"~(<text x="{}" y="{}" font-size="13" font-weight="bold" fill="#222">Scores and tokens in hand</text>)~",
                     num(x0 + 10), num(y0 + 19));
  out += "\n";
  for (int p = 0; p < s.nplayers; ++p) {
    const auto sp = static_cast<std::size_t>(p);
    const double by = y0 + 30 + kPanelRow * p;
    std::string name = names[sp];
    if (text_len(name) > 17) name = name.substr(0, 16) + "~";
    out += fmt::format(R"~(<g class="hand" data-player="{}">)~", p);
    if (s.phase != Phase::Over && p == (s.decider != 0xFF ? s.decider : s.current))
      out += fmt::format(R"~(<rect class="current" x="{}" y="{}" width="{}" height="{}" rx="4" fill="#fff8e0" stroke="{}" stroke-width="1.5"/>)~",
                         num(x0 + 4), num(by - 4), num(kPanelW - 8), num(kPanelRow - 4), kSeatColours[sp]);
    out += fmt::format(
        R"~(<rect x="{}" y="{}" width="12" height="12" fill="{}" stroke="#111" stroke-width="1"/><text x="{}" y="{}" font-size="12" fill="#222">{}</text><text class="panel-score" x="{}" y="{}" font-size="13" font-weight="bold" text-anchor="end" fill="#222">{}</text>)~",
        num(x0 + 10), num(by), kSeatColours[sp], num(x0 + 27), num(by + 10.5), esc(name), num(x0 + kPanelW - 10),
        num(by + 11), s.score[sp]);
    // photographers in supply
    out += fmt::format(R"~(<g class="supply" data-count="{}" fill="{}" stroke="{}" stroke-width="0.8" stroke-linejoin="round">)~",
                       s.supply[sp], kSeatColours[sp], p == 4 ? "#e8e8e8" : "#111111");
    for (int i = 0; i < s.supply[sp]; ++i)
      out += fmt::format(R"~(<g transform="translate({},{})"><path d="{}"/><circle cy="{}" r="{}"/></g>)~", num(x0 + 16 + 10 * i),
                         num(by + 24), meeple_d(11), num(-0.32 * 11), num(0.16 * 11));
    out += fmt::format(R"~(</g><text x="{}" y="{}" font-size="10" fill="#555">{} {}{} in supply</text>)~",
                       num(x0 + 16 + 10 * std::max<int>(1, s.supply[sp])), num(by + 27), s.supply[sp], esc(game.piece_names[0]),
                       s.supply[sp] == 1 ? "" : "s");
    // what the player holds besides pieces (Presentation::hand), each kind with its count
    const auto held = game.present.hand(s, p);
    for (std::size_t k = 0; k < held.size(); ++k) {
      const auto& [what, n] = held[k];
      const double cx = x0 + 20 + 42 * static_cast<double>(k), cy = by + 46;
      out += fmt::format(
          R"~(<g class="hand-token {0}" data-species="{0}" data-count="{1}"{2}><title>{0}: {1} in hand</title><g transform="translate({3},{4})">{5}</g><text x="{6}" y="{7}" font-size="11" font-weight="bold" fill="#222">&#215;{1}</text></g>)~",
          esc(what), n, n == 0 ? R"~( opacity="0.3")~" : "", num(cx), num(cy), token_disc(what, 9), num(cx + 10.5), num(cy + 4));
    }
    out += "</g>\n";
  }
  // the token piles, the jeeps and the watering holes
  int pile = 0, discard = 0;
  for (int k = 0; k < kTokenKinds; ++k) {
    pile += s.tokens.pile[static_cast<std::size_t>(k)];
    discard += s.tokens.discard[static_cast<std::size_t>(k)];
  }
  std::vector<std::string> jeeps;
  int taken = 0;
  for (const auto& m : s.markers) {
    if (m[0] == kOffBoard) ++taken;
    else jeeps.push_back(fmt::format("{},{}", m[0], m[1]));
  }
  std::string jeep_line = jeeps.empty() ? "Jeeps: none on the board" : fmt::format("Jeep{} on {}", jeeps.size() == 1 ? "" : "s",
                                                                                    jeeps.size() == 1 ? jeeps[0] : jeeps[0] + " and " + jeeps[1]);
  if (taken > 0 && !jeeps.empty()) jeep_line += fmt::format(" ({} off the board)", taken);
  int closed = 0;
  for (const Spot& sp : s.spots) closed += sp.closed ? 1 : 0;
  const double ty = y0 + 30 + kPanelRow * s.nplayers + 8;
  out += fmt::format(
      R"~(<text class="piles" x="{0}" y="{1}" font-size="11" fill="#333">Tokens: {2} face down, {3} discarded</text><text class="jeeps" x="{0}" y="{4}" font-size="11" fill="#333">{5}</text><text class="holes" x="{0}" y="{6}" font-size="11" fill="#333">Watering holes: {7} ({8} complete)</text>)~",
      num(x0 + 10), num(ty + 4), pile, discard, num(ty + 21), esc(jeep_line), num(ty + 38), s.spots.size(), closed);
  out += "</g>\n";
}

}  // namespace

void draw_tile_art(std::string& out, const Ruleset& rs, int type, int rot, double t, u32 covered_feats) {
  const TileType& tt = rs.tiles.types[static_cast<std::size_t>(type)];
  const RotatedTile& rt = tt.rot[static_cast<std::size_t>(rot)];
  const GameDef& game = *rs.game;
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
  bool ends_at_centre = false, trail_end = false;
  std::string_view trail_edge;
  for (int f = 0; f < tt.nfeat; ++f) {
    const FeatureTypeDef& ft = rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
    if (ft.cls != FClass::Path || river_band(ft) || water_path(ft)) continue;
    bool to_centre = false;
    const PathD d = path_line(rt, f, t, to_centre);
    if (d.polys().empty()) continue;
    ends_at_centre = ends_at_centre || to_centre;
    const Palette c = colours(ft);
    if (to_centre && ft.name == "trail") {
      trail_end = true;
      trail_edge = c.edge;
    }
    out += fmt::format(
        R"~(<g class="road{}" data-feature="{}"><path d="{}" fill="none" stroke="{}" stroke-width="{}"/><path d="{}" fill="none" stroke="{}" stroke-width="{}"/></g>)~",
        ft.name == "road" ? "" : " " + esc(ft.name), f, d.str(), c.edge, num(kRoadEdge * t), d.str(), c.fill,
        num(kRoadFill * t));
    out += "\n";
  }
  if (ends_at_centre && tt.centre == 0xFF && trail_end)  // Safari: trails end in the savanna, round
    out += fmt::format(R"~(<circle class="junction" cx="{0}" cy="{0}" r="{1}" fill="{2}"/>)~", num(0.5 * t), num(0.09 * t),
                       trail_edge);
  else if (ends_at_centre && tt.centre == 0xFF)
    out += fmt::format(R"~(<rect class="junction" x="{0}" y="{0}" width="{1}" height="{1}" fill="#5d4e3f"/>)~", num(0.41 * t),
                       num(0.18 * t));
  // rivers nobody claims (the Amazon): a wide band over the paths that end at it; a river that
  // ends inside the tile (the source) ends round
  for (int f = 0; f < tt.nfeat; ++f) {
    const FeatureTypeDef& ft = rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
    if (!river_band(ft)) continue;
    bool to_centre = false;
    const PathD d = path_line(rt, f, t, to_centre);
    if (d.polys().empty()) continue;
    const Palette c = colours(ft);
    out += fmt::format(R"~(<g class="river" data-feature="{}" data-type="{}">)~", f, esc(ft.name));
    if (to_centre)
      out += fmt::format(R"~(<circle cx="{0}" cy="{0}" r="{1}" fill="{2}"/>)~", num(0.5 * t), num(kRiverEdge / 2 * t), c.edge);
    out += fmt::format(R"~(<path d="{}" fill="none" stroke="{}" stroke-width="{}"/>)~", d.str(), c.edge, num(kRiverEdge * t));
    if (to_centre)
      out += fmt::format(R"~(<circle cx="{0}" cy="{0}" r="{1}" fill="{2}"/>)~", num(0.5 * t), num(kRiverFill / 2 * t), c.fill);
    out += fmt::format(R"~(<path d="{}" fill="none" stroke="{}" stroke-width="{}"/>)~", d.str(), c.fill, num(kRiverFill * t));
    out += "</g>\n";
  }
  // cities (and other area features)
  for (int f = 0; f < tt.nfeat; ++f) {
    const TileFeature& tf = tt.feats[static_cast<std::size_t>(f)];
    const FeatureTypeDef& ft = rs.ftype(tf.type);
    if (ft.cls != FClass::Area) continue;
    const AreaShape a = area_shape(area_sides(rt, f), t);
    const Palette c = colours(ft);
    out += fmt::format(R"~(<g class="city{}" data-feature="{}"><path d="{}" fill="{}"/>)~",
                       ft.name == "city" ? "" : " " + esc(ft.name), f, a.fill, c.fill);
    if (!a.wall.empty())
      out += fmt::format(R"~(<path d="{}" fill="none" stroke="{}" stroke-width="{}" stroke-linecap="round"/>)~", a.wall,
                         c.edge, num(0.05 * t));
    out += "</g>\n";
    if (tf.attr[0] > 0 && (ft.attrs.empty() || ft.attrs[0] == "shield")) {
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
  // fresh water over the areas: rivers (blue paths into their lakes, or ending at a spring), then
  // the lakes (blue ovals)
  const Lakes lakes = lakes_of(rs, tt, rt);
  for (int f = 0; f < tt.nfeat; ++f) {
    const FeatureTypeDef& ft = rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
    if (!water_path(ft)) continue;
    const WaterLine w = water_line(rs, tt, rt, lakes, f, t);
    const Palette c = colours(ft);
    out += fmt::format(R"~(<g class="water {}" data-feature="{}"><path d="{}" fill="none" stroke="{}" stroke-width="{}"/>)~",
                       esc(ft.name), f, w.d.str(), c.edge, num(kWaterEdge * t));
    if (w.spring)
      out += fmt::format(R"~(<circle class="spring" cx="{}" cy="{}" r="{}" fill="{}" stroke="{}" stroke-width="{}"/>)~",
                         num(w.spring->x * t), num(w.spring->y * t), num(kSpringR * t), c.fill, c.edge,
                         num((kWaterEdge - kWaterFill) / 2 * t));
    out += fmt::format(R"~(<path d="{}" fill="none" stroke="{}" stroke-width="{}"/></g>)~", w.d.str(), c.fill,
                       num(kWaterFill * t));
    out += "\n";
  }
  for (int f = 0; f < tt.nfeat; ++f) {
    const FeatureTypeDef& ft = rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
    if (ft.cls != FClass::Centre) continue;
    const Lake& l = lakes[static_cast<std::size_t>(f)];
    const Palette c = colours(ft);
    out += fmt::format(
        R"~(<g class="water {}" data-feature="{}"><ellipse cx="{}" cy="{}" rx="{}" ry="{}" fill="{}" stroke="{}" stroke-width="{}"/></g>)~",
        esc(ft.name), f, num(l.c.x * t), num(l.c.y * t), num(l.rx * t), num(l.ry * t), c.fill, c.edge,
        num(std::max(1.0, 0.03 * t)));
    out += "\n";
  }
  // monasteries (and other centre features): a small building at C
  for (int f = 0; f < tt.nfeat; ++f) {
    const FeatureTypeDef& ft = rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
    if (ft.cls != FClass::Point) continue;
    if (ft.name == "baobab") {
      out += fmt::format(R"~(<g class="baobab" data-feature="{}" transform="translate({},{})">{}</g>)~", f, num(0.5 * t),
                         num(0.5 * t), scaled(kBaobab, t));
      out += "\n";
      continue;
    }
    const Palette c = colours(ft);
    out += fmt::format(
        R"~(<g class="monastery" data-feature="{}"><rect x="{}" y="{}" width="{}" height="{}" fill="{}" stroke="#5a4630" stroke-width="1"/><path d="M{},{} L{},{} L{},{} Z" fill="{}" stroke="#5a4630" stroke-width="1"/><rect x="{}" y="{}" width="{}" height="{}" fill="#5a4630"/></g>)~",
        f, num(0.34 * t), num(0.44 * t), num(0.32 * t), num(0.26 * t), c.fill, num(0.3 * t), num(0.45 * t), num(0.5 * t),
        num(0.26 * t), num(0.7 * t), num(0.45 * t), c.edge, num(0.46 * t), num(0.58 * t), num(0.08 * t), num(0.12 * t));
    out += "\n";
  }
  // symbols (every attribute unit but the shields drawn above): one glyph each, in the feature's
  // own part of the tile (a lake's in a row across it), clear of where pieces stand (pieces
  // claiming a whole network, Hunters' huts, may stand on a lake too); symbols of a segment whose
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
    const Badge b = badge_of(game.specials[tf.special - 1U], t);
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
      if (ft.attrs[k] == "shield" && ft.cls == FClass::Area) continue;
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
      draw_symbol(out, names[k], static_cast<int>(k), f, at[k].x * t, at[k].y * t, t, covered);
  }
  // a tile kind marked "!" (Amazonas: a double tile follows it)
  if (tt.kind < game.tile_kinds.size() && game.tile_kinds[tt.kind].find('!') != std::string::npos)
    out += fmt::format(
        R"~(<g class="bang"><circle cx="{0}" cy="{1}" r="{2}" fill="#ffd500" stroke="#1b1b1b" stroke-width="1.2"/><text x="{0}" y="{3}" font-size="{4}" font-weight="bold" text-anchor="middle" fill="#1b1b1b">!</text></g>)~",
        num(0.86 * t), num(0.14 * t), num(std::max(6.0, 0.1 * t)), num(0.14 * t + std::max(6.0, 0.1 * t) * 0.55),
        num(std::max(9.0, 0.16 * t)));
}

namespace {

void draw_tile(std::string& out, const State& s, int index, double t, double ox, double oy, bool coords) {
  const PlacedTile& pt = s.tiles[static_cast<std::size_t>(index)];
  const TileType& tt = s.type_of(pt);
  const GameDef& game = *s.rs->game;
  const double X = ox + pt.x * t, Y = oy + pt.y * t;
  const std::string kind =
      tt.kind != 0 && tt.kind < game.tile_kinds.size() ? fmt::format(R"~( data-kind="{}")~", esc(game.tile_kinds[tt.kind])) : "";
  out += fmt::format(R"~(<g class="tile" id="tile-{}" data-tile="{}" data-x="{}" data-y="{}" data-rot="{}"{} transform="translate({},{})">)~",
                     index, esc(tt.id), pt.x, pt.y, pt.rot * 90, kind, num(X), num(Y));
  out += "\n";
  u32 covered = 0;  // features whose symbols a pit trap covered
  for (int f = 0; f < tt.nfeat; ++f)
    if (s.graph[pt.seg0 + f].covered) covered |= 1u << f;
  draw_tile_art(out, *s.rs, pt.type, pt.rot, t, covered);
  if (coords)
    out += fmt::format(
        R"~(<text class="coord" x="2" y="{}" font-size="{}" fill="#1b1b1b" fill-opacity="0.75" stroke="#ffffff" stroke-opacity="0.6" stroke-width="2" paint-order="stroke">{},{}</text>)~",
        num(t - 3), num(std::max(7.0, 0.14 * t)), pt.x, pt.y);
  out += "\n</g>\n";
}

}  // namespace

std::string tile_svg(const Ruleset& rs, int type, int px) {
  const double t = px;
  std::string out = fmt::format(R"~(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{0}" viewBox="0 0 {0} {0}" data-tile="{1}">)~", px,
                                esc(rs.tiles.types[static_cast<std::size_t>(type)].id));
  out += "\n";
  draw_tile_art(out, rs, type, 0, t, 0);
  out += "</svg>\n";
  return out;
}

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
  const GameDef& game = *s.rs->game;
  // Safari: the board takes in the jeeps' cells, and room round the watering holes on its edge
  const bool sites = has_markers_or_sites(game);
  const bool hands = has_hands(game);
  double pad_l = 0, pad_r = 0, pad_t = 0, pad_b = 0;
  if (sites && !s.tiles.empty()) {
    for (const auto& m : s.markers) {
      if (m[0] == kOffBoard) continue;
      minx = std::min<int>(minx, m[0]);
      maxx = std::max<int>(maxx, m[0]);
      miny = std::min<int>(miny, m[1]);
      maxy = std::max<int>(maxy, m[1]);
    }
    const double pad = (kPondR + 0.04) * t;
    for (const Spot& sp : s.spots) {
      if (sp.x <= minx) pad_l = pad;
      if (sp.x > maxx) pad_r = pad;
      if (sp.y <= miny) pad_t = pad;
      if (sp.y > maxy) pad_b = pad;
    }
  }
  const int cols = maxx - minx + 1, rows = maxy - miny + 1;
  // a key to the symbols under the scores, for games with bonus-tile specials (Hunters) or with
  // symbols of their own (Safari's animals)
  const bool glyphs = std::any_of(game.ftypes.begin(), game.ftypes.end(), [](const FeatureTypeDef& ft) {
    return std::any_of(ft.attrs.begin(), ft.attrs.end(), [](const std::string& a) { return !wild_glyph(a).empty(); });
  });
  const std::vector<KeyItem> key = o.key && (!game.specials.empty() || glyphs) ? key_items(game) : std::vector<KeyItem>{};
  double key_w = 12;
  for (const KeyItem& k : key) key_w += k.width;
  const double left = (o.coords ? 36 : 14) + pad_l, top = (o.coords ? 96 : 80) + (key.empty() ? 0 : 24) + pad_t,
               right = 14 + pad_r, bottom = 14 + pad_b;
  const double ox = left - minx * t, oy = top - miny * t;
  double height = top + rows * t + bottom;
  // a per-player track (Amazonas: the boats on the river spaces 1..track_len), under the board
  const bool track = !game.track_name.empty() && s.track_len > 0;
  const double sc = std::clamp(t / 64.0, 1.0, 2.5);  // the track grows with large tiles
  const double space_w = 28 * sc, boat_row = 13 * sc;
  const double track_top = top + rows * t + 10;
  const double track_row = track_top + 24 + boat_row * s.nplayers + 8 * sc;  // y of the spaces' centres
  if (track) height = track_row + 13 * sc + 12;
  // Safari: a side panel right of the board (scores, tokens in hand, piles, jeeps, watering holes)
  const double panel_x = left + cols * t + right + 10, panel_y = top - pad_t;
  if (hands) height = std::max(height, panel_y + panel_height(s) + 14);

  // heading: one column per player with the score and the pieces left (both kinds, if the game
  // has two: then the columns are as wide as the longest entry)
  const bool two_kinds = game.pieces2_per_player > 0;
  std::vector<std::string> names, left_over;
  double col = 150.0;
  for (int p = 0; p < s.nplayers; ++p) {
    const auto sp = static_cast<std::size_t>(p);
    std::string name = sp < o.player_names.size() && !o.player_names[sp].empty() ? o.player_names[sp]
                                                                                 : fmt::format("player {}", p + 1);
    if (name.size() > 18) name = name.substr(0, 17) + "~";
    names.push_back(name);
    left_over.push_back(two_kinds ? fmt::format("{} {}{}, {} {}{} left", s.supply[sp], game.piece_names[0],
                                                s.supply[sp] == 1 ? "" : "s", s.supply2[sp], game.piece_names[1],
                                                s.supply2[sp] == 1 ? "" : "s")
                                  : fmt::format("{} left", s.supply[sp]));
    if (two_kinds)
      col = std::max(col, 36.0 + 7.2 * text_len(fmt::format("{}: {} ({})", name, s.score[sp], left_over.back())));
  }

  // heading: title, status, scores
  const std::string title = o.title.empty() ? s.rs->game->title : o.title;
  std::string status = o.subtitle;
  auto add = [&status](const std::string& part) { status += status.empty() ? part : " \u2014 " + part; };
  add(fmt::format("{} tile{} placed", s.tiles.size(), s.tiles.size() == 1 ? "" : "s"));
  if (s.phase == Phase::Over) {
    add("game over");
  } else {
    if (s.in_hand != 0xFF)
      add(fmt::format("next: {}tile {} for player {}", s.rs->tiles.types[s.in_hand].pile == kPileBonus ? "bonus " : "",
                      s.rs->tiles.types[s.in_hand].id, s.current + 1));
    add(fmt::format("{} left in the pile", s.pile));
  }
  if (s.rs->tiles.bonus_total > 0) add(fmt::format("{} bonus tile{} left", s.bonus_pile, s.bonus_pile == 1 ? "" : "s"));
  // wide enough for the heading (rough text widths: the picture is not clipped by the viewer)
  const double width = std::max({left + cols * t + right, 40.0 + col * s.nplayers, 24.0 + 10.0 * text_len(title),
                                 24.0 + 7.0 * text_len(status), track ? left + 16 * sc + s.track_len * space_w + right : 0.0,
                                 key.empty() ? 0.0 : key_w, hands ? panel_x + kPanelW + 14 : 0.0});

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
    const double x = 12 + col * p;
    out += fmt::format(
        R"~(<g class="score" data-player="{}"><rect x="{}" y="52" width="12" height="12" fill="{}" stroke="#111" stroke-width="1"/><text x="{}" y="62" font-size="12" fill="#222">{}: <tspan font-weight="bold">{}</tspan> ({})</text></g>)~",
        p, num(x), kSeatColours[sp], num(x + 16), esc(names[sp]), s.score[sp], esc(left_over[sp]));
    out += "\n";
  }

  if (!key.empty()) {
    out += R"~(<g class="key">)~";
    double x = 12;
    for (const KeyItem& k : key) {
      out += fmt::format(
          R"~(<g class="key-item" data-item="{}"><g transform="translate({},76)">{}</g><text x="{}" y="80" font-size="11" fill="#333">{}</text></g>)~",
          esc(k.label), num(x + 7), k.glyph, num(x + 16), esc(k.label));
      x += k.width;
    }
    out += "</g>\n";
  }

  // axes
  if (o.coords) {
    out += fmt::format(R"~(<text class="axis" x="4" y="{}" font-size="10" fill="#555">x&#8594;</text>)~", num(top - pad_t - 6));
    out += fmt::format(R"~(<text class="axis" x="4" y="{}" font-size="10" fill="#555">y&#8595;</text>)~", num(top - pad_t + 12));
    out += "\n";
    for (int x = minx; x <= maxx; ++x)
      out += fmt::format(R"~(<text class="axis" x="{}" y="{}" font-size="11" fill="#333" text-anchor="middle">{}</text>)~",
                         num(ox + (x + 0.5) * t), num(top - pad_t - 6), x);
    out += "\n";
    for (int y = miny; y <= maxy; ++y)
      out += fmt::format(R"~(<text class="axis" x="{}" y="{}" font-size="11" fill="#333" text-anchor="end">{}</text>)~",
                         num(left - pad_l - 6), num(oy + (y + 0.5) * t + 4), y);
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

  // tiles of two cells (Amazonas double tiles): a dashed frame round both
  for (const PlacedTile& a : s.tiles) {
    const TileType& at = s.type_of(a);
    if (at.east == 0xFF) continue;
    const int side = (1 + a.rot) % 4;  // where the east cell lies after the rotation
    const int bx = a.x + kDx[static_cast<std::size_t>(side)], by = a.y + kDy[static_cast<std::size_t>(side)];
    const int bi = s.placed_at(bx, by);
    if (bi < 0 || s.tiles[static_cast<std::size_t>(bi)].type != at.east) continue;
    const int x0 = std::min<int>(a.x, bx), y0 = std::min<int>(a.y, by);
    out += fmt::format(
        R"~(<rect class="double" data-x="{}" data-y="{}" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#fff3a0" stroke-width="2" stroke-dasharray="6 3"/>)~",
        a.x, a.y, num(ox + x0 * t + 2), num(oy + y0 * t + 2), num((std::abs(bx - a.x) + 1) * t - 4),
        num((std::abs(by - a.y) + 1) * t - 4));
    out += "\n";
  }

  // the tiles placed in the last turn (more than one after an Amazonas "!" tile)
  if (o.highlight_last && !s.tiles.empty() && s.tiles.back().player != 0xFF) {
    for (const PlacedTile& last : s.tiles) {
      if (last.player == 0xFF || last.turn != s.tiles.back().turn) continue;
      out += fmt::format(R"~(<rect class="last" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#ff00d4" stroke-width="3"/>)~",
                         num(ox + last.x * t + 1.5), num(oy + last.y * t + 1.5), num(t - 3), num(t - 3));
      out += "\n";
    }
  }

  // Safari: the jeeps on their cells and the watering holes (their tokens and photographers)
  if (sites) {
    draw_jeeps(out, s, t, ox, oy);
    draw_holes(out, s, t, ox, oy);
  }

  // followers (pieces of kind 0: meeples, lying on fields) and pieces of kind 1 (camps: tents)
  const std::string meeple = meeple_d(0.3 * t);
  for (const PieceOnBoard& pc : s.pieces) {
    const Segment& seg = s.graph[pc.seg];
    const PlacedTile& pt = s.tiles[seg.tile];
    const TileType& tt = s.type_of(pt);
    const FeatureTypeDef& ft = s.rs->ftype(tt.feats[seg.local].type);
    const Pt a = piece_spot(*s.rs, tt, tt.rot[pt.rot], seg.local);
    const auto colour = kSeatColours[pc.player % kMaxPlayers];
    const std::string& piece = game.piece_names[pc.kind < 2 ? pc.kind : 0];
    const std::string named = piece == "follower" ? "" : " " + esc(class_name(piece));
    const char* outline = pc.player == 4 ? "#e8e8e8" : "#111111";
    const double px = ox + (pt.x + a.x) * t, py = oy + (pt.y + a.y) * t;
    if (pc.kind == 1 && ft.network_kind == 1) {  // claims the whole network (Hunters' hut): a house
      out += fmt::format(
          R"~(<g class="follower{}" data-player="{}" data-feature="{}" fill="{}" stroke="{}" stroke-width="1.2" stroke-linejoin="round" transform="translate({},{})">{}</g>)~",
          named, pc.player, esc(ft.name), colour, outline, num(px), num(py), house(0.28 * t));
      out += "\n";
      continue;
    }
    if (pc.kind == 1) {
      const double h = 0.3 * t;
      out += fmt::format(
          R"~(<g class="follower{}" data-player="{}" data-feature="{}" fill="{}" stroke="{}" stroke-width="1.2" stroke-linejoin="round" transform="translate({},{})"><path class="tent" d="M0,{} L{},{} L{},{} Z"/><path d="M{},{} L0,{} L{},{} Z" fill="#000000" fill-opacity="0.5" stroke="none"/></g>)~",
          named, pc.player, esc(ft.name), colour, outline, num(px), num(py), num(-0.5 * h), num(0.5 * h), num(0.38 * h),
          num(-0.5 * h), num(0.38 * h), num(-0.13 * h), num(0.38 * h), num(0.02 * h), num(0.13 * h), num(0.38 * h));
      out += "\n";
      continue;
    }
    const bool farmer = ft.cls == FClass::Field;
    if (piece == "photographer") {  // Safari: a meeple with a camera
      out += fmt::format(
          R"~(<g class="follower photographer" data-player="{}" data-feature="{}" fill="{}" stroke="{}" stroke-width="1.2" stroke-linejoin="round" transform="translate({},{})">{}</g>)~",
          pc.player, esc(ft.name), colour, outline, num(px), num(py), photographer(0.3 * t));
      out += "\n";
      continue;
    }
    out += fmt::format(
        R"~(<g class="follower{}{}" data-player="{}" data-feature="{}" fill="{}" stroke="{}" stroke-width="1.2" stroke-linejoin="round" transform="translate({},{}){}"><path d="{}"/><circle cx="0" cy="{}" r="{}"/></g>)~",
        farmer ? " farmer" : "", named, pc.player, esc(ft.name), colour, outline, num(px), num(py),
        farmer ? " rotate(90)" : "", meeple, num(-0.32 * 0.3 * t), num(0.16 * 0.3 * t));
    out += "\n";
  }

  // the track: spaces 1..track_len on a river band, each player's boat above its space (boats on
  // one space stacked in seat order)
  if (track) {
    auto S = [sc](double v) { return num(v * sc); };
    const double x0 = left;
    out += fmt::format(R"~(<g class="track" data-length="{}">)~", s.track_len);
    out += "\n";
    std::string name = game.track_name;
    name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
    out += fmt::format(
        R"~(<text x="{}" y="{}" font-size="12" font-weight="bold" fill="#222">{} track: spaces 1&#8211;{} (the last is the river mouth)</text>)~",
        num(x0), num(track_top + 12), esc(name), s.track_len);
    out += fmt::format(
        R"~(<rect x="{}" y="{}" width="{}" height="{}" rx="{}" fill="#9ccbee" stroke="#2f6e9f" stroke-width="1.5"/>)~",
        num(x0), num(track_row - 13 * sc), num(16 * sc + s.track_len * space_w), S(26), S(13));
    out += "\n";
    for (int k = 1; k <= s.track_len; ++k) {
      const double cx = x0 + 8 * sc + (k - 0.5) * space_w;
      out += fmt::format(
          R"~(<g class="space" data-space="{0}"><circle cx="{1}" cy="{2}" r="{5}" fill="{3}" stroke="#2f6e9f" stroke-width="1"/><text x="{1}" y="{4}" font-size="{6}" text-anchor="middle" fill="#1b3550">{0}</text></g>)~",
          k, num(cx), num(track_row), k == s.track_len ? "#ffe28a" : "#ffffff", num(track_row + 3.5 * sc), S(10), S(10));
    }
    out += "\n";
    std::array<int, 256> stacked{};
    for (int p = 0; p < s.nplayers; ++p) {
      const auto sp = static_cast<std::size_t>(p);
      const int k = s.track[sp];
      const double cx = x0 + 8 * sc + (k - 0.5) * space_w;
      const double cy = track_row - 19 * sc - boat_row * stacked[static_cast<std::size_t>(k)]++;
      out += fmt::format(
          R"~(<g class="boat" data-player="{}" data-space="{}" transform="translate({},{}) scale({})"><title>{}: space {}</title><path d="M-10,0 L10,0 L6.5,5.5 L-6.5,5.5 Z" fill="{}" stroke="#111111" stroke-width="1"/><path d="M-1,-1.5 L-1,-9 L6,-1.5 Z" fill="#ffffff" stroke="#111111" stroke-width="0.8"/></g>)~",
          p, k, num(cx), num(cy), num(sc), esc(names[sp]), k, kSeatColours[sp]);
      out += "\n";
    }
    out += "</g>\n";
  }
  if (hands) draw_panel(out, s, names, panel_x, panel_y);
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
  // a bot's seat: its name, and what bot it is unless the name says so ("Bot (normal)")
  for (const PlayerInfo& p : r.players) {
    const std::string label = p.bot.rfind("mcts:", 0) == 0 ? "mcts" : p.bot;
    bool said = p.bot.empty() || p.name.find(label) != std::string::npos;
    for (const char* lv : {"(easy)", "(normal)", "(hard)"}) said = said || p.name.find(lv) != std::string::npos;
    o.player_names.push_back(said ? p.name : fmt::format("{} ({})", p.name, label));
  }
  return o;
}

}  // namespace carc::view
