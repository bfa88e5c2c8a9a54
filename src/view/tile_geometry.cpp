#include "view/tile_geometry.hpp"

#include <cmath>
#include <vector>

namespace carc::view {

Point piece_anchor(const RotatedTile& rt, int f, FClass cls) {
  int port = -1;
  for (int p = 1; p < kPorts && port < 0; p += 3)
    if (rt.port_feat[static_cast<std::size_t>(p)] == f) port = p;
  const bool middle = port >= 0;
  for (int p = 0; p < 13 && port < 0; ++p)
    if (rt.port_feat[static_cast<std::size_t>(p)] == f) port = p;
  if (port < 0 || port == kCentre) return cls == FClass::Point ? Point{0.5, 0.56} : Point{0.5, 0.5};
  const Point p = port_pt(port);
  switch (cls) {
    case FClass::Area: return toward_centre(p, 0.3);
    case FClass::Path: return toward_centre(p, 0.45);
    case FClass::Field: return toward_centre(p, middle ? 0.3 : 0.35);
    case FClass::Centre:
    case FClass::Point: return {0.5, 0.56};
  }
  return toward_centre(p, 0.3);
}

bool linked(const TileType& tt, int f, int g) {
  return ((tt.feats[static_cast<std::size_t>(f)].links >> g) & 1u) != 0 ||
         ((tt.feats[static_cast<std::size_t>(g)].links >> f) & 1u) != 0;
}

Lakes lakes_of(const Ruleset& rs, const TileType& tt, const RotatedTile& rt) {
  Lakes L{};
  std::vector<int> centres;
  for (int f = 0; f < tt.nfeat; ++f)
    if (rs.ftype(tt.feats[static_cast<std::size_t>(f)].type).cls == FClass::Centre) centres.push_back(f);
  if (centres.size() < 2) return L;
  for (std::size_t k = 0; k < centres.size(); ++k) {
    const int c = centres[k];
    Lake& l = L[static_cast<std::size_t>(c)];
    l.rx = 0.15;
    l.ry = 0.115;
    Point sum;
    int n = 0;
    for (int p = 0; p < kPorts; ++p) {
      const int g = rt.port_feat[static_cast<std::size_t>(p)];
      if (g == 0xFF || g == c || !linked(tt, c, g)) continue;
      sum = {sum.x + port_pt(p).x, sum.y + port_pt(p).y};
      ++n;
    }
    const Point mean = n > 0 ? Point{sum.x / n, sum.y / n} : Point{0.5, 0.5};
    if (std::hypot(mean.x - 0.5, mean.y - 0.5) > 0.1) {
      l.c = toward_centre(mean, 0.25);
    } else {  // linked all round (or to nothing): spread on a circle round the middle
      const double a = 0.785398 + 6.283185 * static_cast<double>(k) / static_cast<double>(centres.size());
      l.c = {0.5 + 0.17 * std::cos(a), 0.5 - 0.17 * std::sin(a)};
    }
  }
  return L;
}

Point piece_spot(const Ruleset& rs, const TileType& tt, const RotatedTile& rt, int f) {
  const FeatureTypeDef& ft = rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
  if (ft.cls != FClass::Centre) return piece_anchor(rt, f, ft.cls);
  const Lake l = lakes_of(rs, tt, rt)[static_cast<std::size_t>(f)];
  return {l.c.x, l.c.y - l.ry};
}

}  // namespace carc::view
