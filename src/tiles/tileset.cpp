#include "tiles/tileset.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "core/json_input.hpp"

namespace carc {

using nlohmann::json;

int TileSet::find(std::string_view id) const {
  for (std::size_t i = 0; i < types.size(); ++i)
    if (types[i].id == id) return static_cast<int>(i);
  return -1;
}

std::string TileSet::canonical(std::string_view id) const {
  if (find(id) >= 0) return std::string(id);
  for (const auto& [alias, t] : aliases)
    if (alias == id) return types[static_cast<std::size_t>(t)].id;
  return std::string(id);
}

const StartSide& TileSet::side_for(int nplayers) const {
  for (const StartSide& sd : sides)
    if (nplayers >= sd.min_players && nplayers <= sd.max_players) return sd;
  return sides.front();
}

namespace {

using jin::fail;

// Canonical picture of a rotation: per board port, the feature relabelled in first-seen order,
// plus each feature's type and attributes. Equal signatures mean the same picture.
std::string picture(const TileType& t, int r) {
  const auto& pf = t.rot[static_cast<std::size_t>(r)].port_feat;
  std::array<int, kMaxTileFeatures> relabel{};
  relabel.fill(-1);
  int next = 0;
  for (int p = 0; p < 13; ++p) {  // first pass: number features in port order
    const u8 f = pf[static_cast<std::size_t>(p)];
    if (f != 0xFF && relabel[f] < 0) relabel[f] = next++;
  }
  std::string sig;
  for (int p = 0; p < 13; ++p) {
    const u8 f = pf[static_cast<std::size_t>(p)];
    if (f == 0xFF) {
      sig += "-;";
      continue;
    }
    const TileFeature& tf = t.feats[f];
    sig += fmt::format("{}:{}:{}:s{}:", relabel[f], tf.type, fmt::join(tf.attr, ","), tf.special);
    for (int g = 0; g < t.nfeat; ++g)
      if (tf.links & (1u << g)) sig += fmt::format("l{},", relabel[static_cast<std::size_t>(g)]);
    std::vector<int> b;  // borders, relabelled and sorted
    for (int g = 0; g < t.nfeat; ++g)
      if (tf.borders & (1u << g)) b.push_back(relabel[static_cast<std::size_t>(g)]);
    std::sort(b.begin(), b.end());
    for (int x : b) sig += fmt::format("b{},", x);
    sig += ';';
  }
  return sig;
}

// Every tile that can ever be on the board at once: the largest start side, every copy in the draw
// and bonus piles, every set-aside tile with its further cells. The flat state's capacities
// (core.hpp) must hold all of them, with every feature they carry.
void check_capacities(const TileSet& ts, const std::vector<FeatureTypeDef>& ftypes, const std::string& file) {
  struct Load {
    long long cells = 0, segs = 0, points = 0, corners = 0;
    std::array<long long, kAttrs> attr{};
    void add(const TileType& t, long long n, const std::vector<FeatureTypeDef>& ft) {
      cells += n;
      segs += n * t.nfeat;
      for (int f = 0; f < t.nfeat; ++f) {
        const TileFeature& tf = t.feats[static_cast<std::size_t>(f)];
        if (ft[tf.type].cls == FClass::Point) points += n;
        for (std::size_t a = 0; a < kAttrs; ++a) attr[a] += n * tf.attr[a];
      }
      corners += n * std::popcount(static_cast<unsigned>(t.rot[0].corners));
    }
  };
  Load piles;
  for (const TileType& t : ts.types) {
    const long long n = t.pile == kPileDraw || t.pile == kPileBonus ? t.draw_count : t.pile == kPileAside ? t.count : 0;
    if (n == 0) continue;
    piles.add(t, n, ftypes);
    if (t.east != 0xFF) piles.add(ts.types[t.east], n, ftypes);
  }
  Load start;  // the largest start side, metric by metric
  for (const StartSide& sd : ts.sides) {
    Load l;
    for (const StartCell& c : sd.cells) l.add(ts.types[static_cast<std::size_t>(c.tile)], 1, ftypes);
    start.cells = std::max(start.cells, l.cells);
    start.segs = std::max(start.segs, l.segs);
    start.points = std::max(start.points, l.points);
    start.corners = std::max(start.corners, l.corners);
    for (std::size_t a = 0; a < kAttrs; ++a) start.attr[a] = std::max(start.attr[a], l.attr[a]);
  }
  auto check = [&](long long s, long long p, long long cap, const char* what) {
    if (s + p > cap)
      fail(file, "tiles", fmt::format("up to {} {} could be on the board ({} on the largest start side, {} in the piles and set-aside tiles); "
                                      "the engine holds at most {}", s + p, what, s, p, cap));
  };
  check(start.cells, piles.cells, kMaxPlaced, "tiles");
  check(start.segs, piles.segs, kMaxSegments, "features (one per feature per tile)");
  check(start.points, piles.points, kMaxOpenPoints, "point features (monasteries, baobabs)");
  check(start.corners, piles.corners, kMaxUsableCorners, "usable corners");
  for (std::size_t a = 0; a < kAttrs; ++a)
    check(start.attr[a], piles.attr[a], kMaxAttrTotal, fmt::format("symbols in attribute slot {}", a).c_str());
}

}  // namespace

TileSet parse_tileset(const std::string& text, const std::string& path, const std::vector<FeatureTypeDef>& ftypes,
                      const std::vector<std::string>& tile_kinds, const std::vector<std::string>& specials) {
  const std::string file = printable(path);
  const json j = jin::parse(text, file);
  TileSet ts;
  ts.path = path;
  if (!j.is_object()) fail(file, "top level", fmt::format("expected an object, not {}", jin::type_name(j)));
  {
    const json* fmtv = jin::opt(j, "format");
    if (!fmtv || !fmtv->is_string() || fmtv->get_ref<const std::string&>() != "carcassonne-tiles/1")
      fail(file, "format", "expected \"carcassonne-tiles/1\"");
  }
  ts.game = jin::string(jin::need(j, "game", file), file, "game", 32);
  const json& tiles = jin::array(jin::need(j, "tiles", file), file, "tiles", kMaxTileTypes);
  if (tiles.empty()) fail(file, "tiles", "expected a non-empty array");
  std::vector<std::string> east_of(tiles.size());
  for (std::size_t tix = 0; tix < tiles.size(); ++tix) {
    const json& jt = tiles[tix];
    TileType t;
    const std::string tw = fmt::format("{}: tiles[{}]", file, tix);
    if (!jt.is_object()) fail(tw, "", fmt::format("a tile is an object, not {}", jin::type_name(jt)));
    t.id = jin::string(jin::need(jt, "id", tw), tw, "id", 6);
    const std::string where = fmt::format("{}: tile {}", file, t.id);
    if (t.id.empty()) fail(tw, "id", "must have 1 to 6 characters");
    if (t.id.find_first_of(" ,") != std::string::npos) fail(where, "id", "must not contain spaces or commas");
    if (ts.find(t.id) >= 0) fail(where, "id", "duplicate tile id");
    t.count = static_cast<int>(jin::integer(jin::need(jt, "count", where), 1, 99, where, "count"));
    if (const json* d = jin::opt(jt, "description")) t.description = jin::string(*d, where, "description", 500);
    if (const json* al = jin::opt(jt, "aliases")) {
      const json& arr = jin::array(*al, where, "aliases", 8);
      for (std::size_t k = 0; k < arr.size(); ++k) {
        const std::string a = jin::string(arr[k], where, fmt::format("aliases[{}]", k), 6);
        if (a.empty() || a.find_first_of(" ,") != std::string::npos) fail(where, fmt::format("aliases[{}]", k), "must have 1 to 6 characters, no spaces or commas");
        ts.aliases.emplace_back(a, static_cast<int>(tix));
      }
    }
    if (const json* jk = jin::opt(jt, "kind")) {
      const std::string k = jin::string(*jk, where, "kind");
      const auto it = std::find(tile_kinds.begin(), tile_kinds.end(), k);
      if (it == tile_kinds.end())
        fail(where, "kind", fmt::format("unknown kind \"{}\" (kinds: {})", k, fmt::join(tile_kinds, ", ")));
      t.kind = static_cast<u8>(it - tile_kinds.begin());
    }
    if (const json* jp = jin::opt(jt, "pile")) {
      const std::string pl = jin::string(*jp, where, "pile");
      static const std::array<const char*, 5> kPiles = {"draw", "aside", "part", "start", "bonus"};
      const auto it = std::find(kPiles.begin(), kPiles.end(), pl);
      if (it == kPiles.end()) fail(where, "pile", fmt::format("\"{}\" is not draw, aside, part, start or bonus", pl));
      t.pile = static_cast<u8>(it - kPiles.begin());
    }
    if (const json* je = jin::opt(jt, "east")) east_of[tix] = jin::string(*je, where, "east", 6);
    const json& feats = jin::array(jin::need(jt, "features", where), where, "features", kMaxTileFeatures);
    if (feats.empty()) fail(where, "features", fmt::format("must be an array of 1 to {}", kMaxTileFeatures));
    u16 covered = 0;
    for (std::size_t fi = 0; fi < feats.size(); ++fi) {
      const json& jf = feats[fi];
      const std::string fwhere = fmt::format("{} feature {}", where, fi);
      if (!jf.is_object()) fail(fwhere, "", fmt::format("a feature is an object, not {}", jin::type_name(jf)));
      TileFeature f;
      const std::string type = jin::string(jin::need(jf, "type", fwhere), fwhere, "type");
      int ti = -1;
      for (std::size_t k = 0; k < ftypes.size(); ++k)
        if (ftypes[k].name == type) ti = static_cast<int>(k);
      if (ti < 0) fail(fwhere, "type", fmt::format("unknown feature type \"{}\" for game {}", type, ts.game));
      f.type = static_cast<u8>(ti);
      const FClass cls = ftypes[static_cast<std::size_t>(ti)].cls;
      const json& ports = jin::array(jin::need(jf, "ports", fwhere), fwhere, "ports", 13);
      for (const auto& jp : ports) {
        const std::string pn = jin::string(jp, fwhere, "ports", 8);
        const auto p = port_from_name(pn);
        if (!p) fail(fwhere, "ports", fmt::format("unknown port \"{}\"", pn));
        if (covered & (1u << *p)) fail(fwhere, "ports", fmt::format("port {} belongs to two features", kPortNames[*p]));
        const bool centre_cls = cls == FClass::Point || cls == FClass::Centre;
        if (centre_cls && *p != kCentre) fail(fwhere, "ports", fmt::format("a {} sits only at C", type));
        if (!centre_cls && *p == kCentre) fail(fwhere, "ports", "only a centre feature (monastery, lake, ...) sits at C");
        if (cls == FClass::Path && *p % 3 != 1) fail(fwhere, "ports", fmt::format("a {} uses middle ports only, not {}", type, kPortNames[*p]));
        covered = static_cast<u16>(covered | (1u << *p));
        f.ports = static_cast<u16>(f.ports | (1u << *p));
      }
      if (f.ports == 0 && cls != FClass::Centre) fail(fwhere, "ports", "feature has no ports");
      if (const json* js = jin::opt(jf, "special")) {
        const std::string sp = jin::string(*js, fwhere, "special");
        const auto it = std::find(specials.begin(), specials.end(), sp);
        if (it == specials.end())
          fail(fwhere, "special", fmt::format("unknown special \"{}\" (specials: {})", sp, specials.empty() ? std::string("none") : fmt::format("{}", fmt::join(specials, ", "))));
        f.special = static_cast<u8>(1 + (it - specials.begin()));
      }
      if (const json* ja = jin::opt(jf, "attrs")) {
        const auto& names = ftypes[static_cast<std::size_t>(ti)].attrs;
        for (const auto& [name, val] : jin::object(*ja, fwhere, "attrs").items()) {
          int ai = -1;
          for (std::size_t k = 0; k < names.size(); ++k)
            if (names[k] == name) ai = static_cast<int>(k);
          if (ai < 0 || ai >= kAttrs)
            fail(fwhere, "attrs", fmt::format("a {} has no attribute \"{}\" (it has: {})", type, printable(name),
                                              names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
          f.attr[static_cast<std::size_t>(ai)] = static_cast<u8>(jin::integer(val, 0, 20, fwhere, "attrs." + name));
        }
      }
      t.feats[fi] = f;
    }
    t.nfeat = static_cast<u8>(feats.size());
    for (int f = 0; f < t.nfeat; ++f)
      if (ftypes[t.feats[static_cast<std::size_t>(f)].type].network_kind != 0xFF) t.network_feats = static_cast<u16>(t.network_feats | (1u << f));
    // links (networks) and borders (after all features are known)
    for (std::size_t fi = 0; fi < feats.size(); ++fi) {
      const json* jls = jin::opt(feats[fi], "links");
      if (!jls) continue;
      const std::string fwhere = fmt::format("{} feature {}", where, fi);
      for (const auto& jl : jin::array(*jls, fwhere, "links", kMaxTileFeatures)) {
        const int l = static_cast<int>(jin::integer(jl, 0, t.nfeat - 1, fwhere, "links"));
        if (l == static_cast<int>(fi)) fail(fwhere, "links", fmt::format("link {} is not another feature of this tile", l));
        if (ftypes[t.feats[fi].type].network_kind == 0xFF || ftypes[t.feats[static_cast<std::size_t>(l)].type].network_kind == 0xFF)
          fail(fwhere, "links", fmt::format("link {}: only network features (e.g. river, lake) link", l));
        t.feats[fi].links = static_cast<u16>(t.feats[fi].links | (1u << l));
      }
    }
    for (std::size_t fi = 0; fi < feats.size(); ++fi)
      for (int l = 0; l < t.nfeat; ++l)
        if ((t.feats[fi].links >> l & 1u) && !(t.feats[static_cast<std::size_t>(l)].links >> fi & 1u))
          fail(where, "links", fmt::format("feature {} links {} but not the other way round", fi, l));
    for (std::size_t fi = 0; fi < feats.size(); ++fi) {
      const json* jbs = jin::opt(feats[fi], "borders");
      if (!jbs) continue;
      const std::string fwhere = fmt::format("{} feature {}", where, fi);
      if (ftypes[t.feats[fi].type].cls != FClass::Field) fail(fwhere, "borders", "only field-like features have borders");
      for (const auto& jb : jin::array(*jbs, fwhere, "borders", kMaxTileFeatures)) {
        const int b = static_cast<int>(jin::integer(jb, 0, t.nfeat - 1, fwhere, "borders"));
        if (ftypes[t.feats[static_cast<std::size_t>(b)].type].cls != FClass::Area)
          fail(fwhere, "borders", fmt::format("border {} is not a city-like feature of this tile", b));
        t.feats[fi].borders = static_cast<u16>(t.feats[fi].borders | (1u << b));
      }
    }
    if ((covered & 0xFFF) != 0xFFF) {
      for (int p = 0; p < 12; ++p)
        if (!(covered & (1u << p))) fail(where, "features", fmt::format("port {} belongs to no feature", kPortNames[static_cast<std::size_t>(p)]));
    }
    // edge consistency: an area covers whole sides
    for (int f = 0; f < t.nfeat; ++f) {
      const TileFeature& tf = t.feats[static_cast<std::size_t>(f)];
      if (ftypes[tf.type].cls != FClass::Area) continue;
      for (int sd = 0; sd < 4; ++sd)
        if ((tf.ports & (7u << (3 * sd))) && (tf.ports & (7u << (3 * sd))) != (7u << (3 * sd)))
          fail(where, fmt::format("feature {}", f), fmt::format("city-like feature covers only part of side {}", kSideNames[static_cast<std::size_t>(sd)]));
    }
    u8 corners = 0;  // Safari: usable corners (canonical orientation)
    if (const json* jcs = jin::opt(jt, "corners")) {
      static const std::array<const char*, 4> kCorners = {"NE", "SE", "SW", "NW"};
      for (const auto& jc : jin::array(*jcs, where, "corners", 4)) {
        const std::string c = jin::string(jc, where, "corners", 4);
        const auto it = std::find(kCorners.begin(), kCorners.end(), c);
        if (it == kCorners.end()) fail(where, "corners", fmt::format("corner \"{}\" is not NE, SE, SW or NW", c));
        corners = static_cast<u8>(corners | (1u << (it - kCorners.begin())));
      }
    }
    // compile the four rotations
    for (int r = 0; r < 4; ++r) {
      RotatedTile& rt = t.rot[static_cast<std::size_t>(r)];
      rt.port_feat.fill(0xFF);
      for (int c = 0; c < 4; ++c)  // a quarter turn clockwise takes corner c to c + 1
        if (corners & (1u << c)) rt.corners = static_cast<u8>(rt.corners | (1u << ((c + r) % 4)));
      for (int f = 0; f < t.nfeat; ++f) {
        for (int p = 0; p < 13; ++p) {
          if (!(t.feats[static_cast<std::size_t>(f)].ports & (1u << p))) continue;
          const int bp = rotate_port(p, r);
          rt.port_feat[static_cast<std::size_t>(bp)] = static_cast<u8>(f);
          if (bp != kCentre) rt.feat_sides[static_cast<std::size_t>(f)] |= static_cast<u8>(1u << port_side(bp));
          else t.centre = static_cast<u8>(f);
        }
      }
      for (int sd = 0; sd < 4; ++sd)
        for (int i = 0; i < 3; ++i) {
          const u8 f = rt.port_feat[static_cast<std::size_t>(3 * sd + i)];
          rt.side_code |= static_cast<u64>(ftypes[t.feats[f].type].terrain & 0xF) << (16 * sd + 4 * i);
        }
    }
    for (int r = 0; r < 4; ++r) {
      bool dup = false;
      for (int k = 0; k < t.nrots && !dup; ++k)
        if (picture(t, t.distinct_rots[static_cast<std::size_t>(k)]) == picture(t, r)) {
          dup = true;
          t.same_rot[static_cast<std::size_t>(r)] = t.distinct_rots[static_cast<std::size_t>(k)];
        }
      if (!dup) {
        t.same_rot[static_cast<std::size_t>(r)] = static_cast<u8>(r);
        t.distinct_rots[t.nrots++] = static_cast<u8>(r);
      }
    }
    ts.types.push_back(std::move(t));
  }
  // "start": a list of cells (one side), or a list of sides {name, players, track, cells}
  const json& jstart = jin::array(jin::need(j, "start", file), file, "start", kMaxPlaced);
  if (jstart.empty()) fail(file, "start", "expected a non-empty array");
  std::vector<json> jsides;
  if (jstart.front().is_object() && jstart.front().contains("cells")) {
    if (jstart.size() > 16) fail(file, "start", fmt::format("{} start sides; at most 16", jstart.size()));
    for (const auto& sd : jstart) jsides.push_back(sd);
  } else {
    jsides.push_back(json{{"cells", jstart}});
  }
  std::vector<int> max_uses(ts.types.size(), 0);
  for (std::size_t si = 0; si < jsides.size(); ++si) {
    const json& jsd = jsides[si];
    StartSide sd;
    const std::string sw0 = fmt::format("{}: start[{}]", file, si);
    if (!jsd.is_object()) fail(sw0, "", fmt::format("a start side is an object, not {}", jin::type_name(jsd)));
    if (const json* jn = jin::opt(jsd, "name")) sd.name = jin::string(*jn, sw0, "name", 40);
    else sd.name = "start";
    const std::string swhere = fmt::format("{}: start side {}", file, sd.name);
    if (const json* pl = jin::opt(jsd, "players")) {
      jin::array(*pl, swhere, "players", kMaxPlayers);
      if (pl->empty()) fail(swhere, "players", "lists the player counts the side is for");
      sd.min_players = static_cast<int>(jin::integer(pl->front(), 1, kMaxPlayers, swhere, "players"));
      sd.max_players = static_cast<int>(jin::integer(pl->back(), sd.min_players, kMaxPlayers, swhere, "players"));
    }
    if (const json* jtr = jin::opt(jsd, "track")) sd.track = static_cast<int>(jin::integer(*jtr, 0, 60, swhere, "track"));
    std::vector<int> uses(ts.types.size(), 0);
    const json& cells = jin::array(jin::need(jsd, "cells", swhere), swhere, "cells", kMaxPlaced);
    for (std::size_t ci = 0; ci < cells.size(); ++ci) {
      const json& js = cells[ci];
      const std::string cw = fmt::format("{} cell {}", swhere, ci);
      StartCell sc;
      const std::string id = jin::string(jin::need(js, "tile", cw), cw, "tile", 6);
      sc.tile = ts.find(id);
      if (sc.tile < 0) fail(cw, "tile", fmt::format("unknown tile \"{}\"", id));
      sc.x = static_cast<int>(jin::integer(jin::need(js, "x", cw), -8, 8, cw, "x"));
      sc.y = static_cast<int>(jin::integer(jin::need(js, "y", cw), -8, 8, cw, "y"));
      const long long rot = jin::integer(jin::need(js, "rot", cw), 0, 270, cw, "rot");
      if (rot % 90 != 0) fail(cw, "rot", "must be 0, 90, 180 or 270");
      sc.rot = static_cast<int>(rot / 90);
      for (const StartCell& o : sd.cells)
        if (o.x == sc.x && o.y == sc.y) fail(swhere, "cells", fmt::format("two start cells at {},{}", sc.x, sc.y));
      const auto ti = static_cast<std::size_t>(sc.tile);
      if (ts.types[ti].pile == kPilePart || ts.types[ti].pile == kPileAside)
        fail(cw, "tile", fmt::format("tile {} is set aside or part of a larger tile; it cannot be a start cell", id));
      if (++uses[ti] > ts.types[ti].count) fail(fmt::format("{}: tile {}", file, id), "count", "more start cells than copies");
      max_uses[ti] = std::max(max_uses[ti], uses[ti]);
      sd.cells.push_back(sc);
    }
    if (sd.cells.empty()) fail(swhere, "cells", "at least one start cell is needed");
    ts.sides.push_back(std::move(sd));
  }
  ts.start = ts.sides.front().cells;
  for (std::size_t t = 0; t < ts.types.size(); ++t) {
    TileType& tt = ts.types[t];
    tt.draw_count = tt.pile == kPileDraw || tt.pile == kPileBonus ? tt.count - max_uses[t] : 0;
    if (tt.pile == kPileStart && max_uses[t] == 0) fail(fmt::format("{}: tile {}", file, tt.id), "pile", "a start tile that no start side uses");
  }
  // an alias names one type only, and never another type's id
  for (std::size_t i = 0; i < ts.aliases.size(); ++i) {
    const auto& [a, t] = ts.aliases[i];
    const std::string where = fmt::format("{}: tile {}", file, ts.types[static_cast<std::size_t>(t)].id);
    if (ts.find(a) >= 0) fail(where, "aliases", fmt::format("\"{}\" is the id of a tile", a));
    for (std::size_t k = 0; k < i; ++k)
      if (ts.aliases[k].first == a) fail(where, "aliases", fmt::format("\"{}\" is an alias of another tile too", a));
  }
  // multi-cell tiles: "east" names the tile in the cell east of this one; the shared edge must match
  int aside_types = 0;
  for (std::size_t tix = 0; tix < ts.types.size(); ++tix) {
    TileType& tt = ts.types[tix];
    const std::string where = fmt::format("{}: tile {}", file, tt.id);
    if (tt.pile == kPileAside) ++aside_types;
    if (east_of[tix].empty()) {
      if (tt.pile == kPileAside) fail(where, "east", "a set-aside tile is a double tile: name its east cell");
      continue;
    }
    const std::string& id = east_of[tix];
    const int e = ts.find(id);
    if (e < 0) fail(where, "east", fmt::format("unknown tile \"{}\"", id));
    if (tt.pile != kPileAside) fail(where, "east", "only a set-aside (pile \"aside\") tile has an east cell");
    if (ts.types[static_cast<std::size_t>(e)].pile != kPilePart) fail(where, "east", fmt::format("tile {} must have pile \"part\"", id));
    const u64 a = (tt.rot[0].side_code >> 16) & 0xFFF;  // east side
    const u64 w = (ts.types[static_cast<std::size_t>(e)].rot[0].side_code >> 48) & 0xFFF;  // west side
    const u64 wr = ((w & 0xF) << 8) | (w & 0xF0) | ((w >> 8) & 0xF);
    if (a != wr) fail(where, "east", fmt::format("its east side does not match the west side of {}", id));
    tt.east = static_cast<u8>(e);
  }
  if (aside_types > 64) fail(file, "tiles", "at most 64 set-aside tile types");
  for (std::size_t i = 0; i < ts.types.size(); ++i) {
    const TileType& t = ts.types[i];
    if (t.pile == kPileAside) ts.aside_types.push_back(static_cast<u8>(i));
    if (t.pile == kPileDraw) ts.kind_types[t.kind & 7].push_back(static_cast<u8>(i));
    ts.total += t.count;
    if (t.pile == kPileBonus) {
      ts.bonus_total += t.draw_count;
      continue;
    }
    ts.draw_total += t.draw_count;
    ts.kind_total[t.kind & 7] += t.draw_count;
  }
  if (const json* jt = jin::opt(j, "total_tiles")) {
    const long long tt = jin::integer(*jt, 0, 100000, file, "total_tiles");
    if (tt != ts.total) fail(file, "total_tiles", fmt::format("says {} but the tile counts add up to {}", tt, ts.total));
  }
  if (ts.draw_total > 120) fail(file, "tiles", "at most 120 tiles in the draw pile");
  check_capacities(ts, ftypes, file);
  return ts;
}

TileSet load_tileset(const std::string& path, const std::vector<FeatureTypeDef>& ftypes,
                     const std::vector<std::string>& tile_kinds, const std::vector<std::string>& specials) {
  return parse_tileset(read_input_file(path, kMaxTileFileBytes, "tile file"), path, ftypes, tile_kinds, specials);
}

}  // namespace carc
