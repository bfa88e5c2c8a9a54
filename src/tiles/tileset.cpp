#include "tiles/tileset.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace carc {

using nlohmann::json;

int TileSet::find(std::string_view id) const {
  for (std::size_t i = 0; i < types.size(); ++i)
    if (types[i].id == id) return static_cast<int>(i);
  return -1;
}

const StartSide& TileSet::side_for(int nplayers) const {
  for (const StartSide& sd : sides)
    if (nplayers >= sd.min_players && nplayers <= sd.max_players) return sd;
  return sides.front();
}

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& where, const std::string& what) {
  throw InputError(fmt::format("{}: {}: {}", path, where, what));
}

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

}  // namespace

TileSet parse_tileset(const std::string& text, const std::string& path, const std::vector<FeatureTypeDef>& ftypes,
                      const std::vector<std::string>& tile_kinds, const std::vector<std::string>& specials) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    fail(path, "JSON", e.what());
  }
  TileSet ts;
  ts.path = path;
  try {
    if (!j.is_object()) fail(path, "top level", "expected an object");
    if (j.value("format", std::string()) != "carcassonne-tiles/1")
      fail(path, "format", "expected \"carcassonne-tiles/1\"");
    ts.game = j.at("game").get<std::string>();
    const auto& tiles = j.at("tiles");
    if (!tiles.is_array() || tiles.empty()) fail(path, "tiles", "expected a non-empty array");
    if (tiles.size() > kMaxTileTypes) fail(path, "tiles", fmt::format("at most {} tile types", kMaxTileTypes));
    for (std::size_t tix = 0; tix < tiles.size(); ++tix) {
      const auto& jt = tiles[tix];
      TileType t;
      if (!jt.is_object() || !jt.contains("id") || !jt.at("id").is_string())
        fail(path, fmt::format("tiles[{}]", tix), "a tile is an object with a string \"id\"");
      t.id = jt.at("id").get<std::string>();
      try {
      const std::string where = fmt::format("tile {}", t.id.empty() ? "?" : t.id);
      if (t.id.empty() || t.id.size() > 6) fail(path, where, "id must have 1 to 6 characters");
      if (ts.find(t.id) >= 0) fail(path, where, "duplicate tile id");
      if (!jt.at("count").is_number_integer() || jt.at("count").get<int>() < 1 || jt.at("count").get<int>() > 99)
        fail(path, where, "count must be an integer from 1 to 99");
      t.count = jt.at("count").get<int>();
      t.description = jt.value("description", std::string());
      if (jt.contains("kind")) {
        const std::string k = jt.at("kind").get<std::string>();
        const auto it = std::find(tile_kinds.begin(), tile_kinds.end(), k);
        if (it == tile_kinds.end())
          fail(path, where, fmt::format("unknown kind \"{}\" (kinds: {})", k, fmt::join(tile_kinds, ", ")));
        t.kind = static_cast<u8>(it - tile_kinds.begin());
      }
      if (jt.contains("pile")) {
        const std::string pl = jt.at("pile").get<std::string>();
        static const std::array<const char*, 5> kPiles = {"draw", "aside", "part", "start", "bonus"};
        const auto it = std::find(kPiles.begin(), kPiles.end(), pl);
        if (it == kPiles.end()) fail(path, where, fmt::format("pile \"{}\" is not draw, aside, part, start or bonus", pl));
        t.pile = static_cast<u8>(it - kPiles.begin());
      }
      const auto& feats = jt.at("features");
      if (!feats.is_array() || feats.empty() || feats.size() > kMaxTileFeatures)
        fail(path, where, fmt::format("features must be an array of 1 to {}", kMaxTileFeatures));
      u16 covered = 0;
      for (std::size_t fi = 0; fi < feats.size(); ++fi) {
        const auto& jf = feats[fi];
        const std::string fwhere = fmt::format("{} feature {}", where, fi);
        TileFeature f;
        const std::string type = jf.at("type").get<std::string>();
        int ti = -1;
        for (std::size_t k = 0; k < ftypes.size(); ++k)
          if (ftypes[k].name == type) ti = static_cast<int>(k);
        if (ti < 0) fail(path, fwhere, fmt::format("unknown feature type \"{}\" for game {}", type, ts.game));
        f.type = static_cast<u8>(ti);
        const FClass cls = ftypes[static_cast<std::size_t>(ti)].cls;
        for (const auto& jp : jf.at("ports")) {
          const auto p = port_from_name(jp.get<std::string>());
          if (!p) fail(path, fwhere, fmt::format("unknown port \"{}\"", jp.get<std::string>()));
          if (covered & (1u << *p)) fail(path, fwhere, fmt::format("port {} belongs to two features", kPortNames[*p]));
          const bool centre_cls = cls == FClass::Point || cls == FClass::Centre;
          if (centre_cls && *p != kCentre) fail(path, fwhere, fmt::format("a {} sits only at C", type));
          if (!centre_cls && *p == kCentre) fail(path, fwhere, "only a centre feature (monastery, lake, ...) sits at C");
          if (cls == FClass::Path && *p % 3 != 1) fail(path, fwhere, fmt::format("a {} uses middle ports only, not {}", type, kPortNames[*p]));
          covered = static_cast<u16>(covered | (1u << *p));
          f.ports = static_cast<u16>(f.ports | (1u << *p));
        }
        if (f.ports == 0 && cls != FClass::Centre) fail(path, fwhere, "feature has no ports");
        if (jf.contains("special")) {
          const std::string sp = jf.at("special").get<std::string>();
          const auto it = std::find(specials.begin(), specials.end(), sp);
          if (it == specials.end())
            fail(path, fwhere, fmt::format("unknown special \"{}\" (specials: {})", sp, specials.empty() ? std::string("none") : fmt::format("{}", fmt::join(specials, ", "))));
          f.special = static_cast<u8>(1 + (it - specials.begin()));
        }
        if (jf.contains("attrs")) {
          const auto& names = ftypes[static_cast<std::size_t>(ti)].attrs;
          for (const auto& [name, val] : jf.at("attrs").items()) {
            int ai = -1;
            for (std::size_t k = 0; k < names.size(); ++k)
              if (names[k] == name) ai = static_cast<int>(k);
            if (ai < 0 || ai >= kAttrs)
              fail(path, fwhere, fmt::format("a {} has no attribute \"{}\" (it has: {})", type, name,
                                             names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
            if (!val.is_number_integer() || val.get<int>() < 0 || val.get<int>() > 20)
              fail(path, fwhere, fmt::format("attribute {} must be an integer from 0 to 20", name));
            f.attr[static_cast<std::size_t>(ai)] = static_cast<u8>(val.get<int>());
          }
        }
        t.feats[fi] = f;
      }
      t.nfeat = static_cast<u8>(feats.size());
      for (int f = 0; f < t.nfeat; ++f)
        if (ftypes[t.feats[static_cast<std::size_t>(f)].type].network_kind != 0xFF) t.network_feats = static_cast<u16>(t.network_feats | (1u << f));
      // links (networks) and borders (after all features are known)
      for (std::size_t fi = 0; fi < feats.size(); ++fi) {
        if (!feats[fi].contains("links")) continue;
        const std::string fwhere = fmt::format("{} feature {}", where, fi);
        for (const auto& jl : feats[fi].at("links")) {
          if (!jl.is_number_integer()) fail(path, fwhere, "links lists feature indices");
          const int l = jl.get<int>();
          if (l < 0 || l >= t.nfeat || l == static_cast<int>(fi)) fail(path, fwhere, fmt::format("link {} is not another feature of this tile", l));
          if (ftypes[t.feats[fi].type].network_kind == 0xFF || ftypes[t.feats[static_cast<std::size_t>(l)].type].network_kind == 0xFF)
            fail(path, fwhere, fmt::format("link {}: only network features (e.g. river, lake) link", l));
          t.feats[fi].links = static_cast<u16>(t.feats[fi].links | (1u << l));
        }
      }
      for (std::size_t fi = 0; fi < feats.size(); ++fi)
        for (int l = 0; l < t.nfeat; ++l)
          if ((t.feats[fi].links >> l & 1u) && !(t.feats[static_cast<std::size_t>(l)].links >> fi & 1u))
            fail(path, where, fmt::format("feature {} links {} but not the other way round", fi, l));
      for (std::size_t fi = 0; fi < feats.size(); ++fi) {
        if (!feats[fi].contains("borders")) continue;
        const std::string fwhere = fmt::format("{} feature {}", where, fi);
        if (ftypes[t.feats[fi].type].cls != FClass::Field) fail(path, fwhere, "only field-like features have borders");
        for (const auto& jb : feats[fi].at("borders")) {
          if (!jb.is_number_integer()) fail(path, fwhere, "borders lists feature indices");
          const int b = jb.get<int>();
          if (b < 0 || b >= t.nfeat || ftypes[t.feats[static_cast<std::size_t>(b)].type].cls != FClass::Area)
            fail(path, fwhere, fmt::format("border {} is not a city-like feature of this tile", b));
          t.feats[fi].borders = static_cast<u16>(t.feats[fi].borders | (1u << b));
        }
      }
      if ((covered & 0xFFF) != 0xFFF) {
        for (int p = 0; p < 12; ++p)
          if (!(covered & (1u << p))) fail(path, where, fmt::format("port {} belongs to no feature", kPortNames[static_cast<std::size_t>(p)]));
      }
      // edge consistency: a side with a path in the middle has non-path thirds; an area covers whole sides
      for (int s = 0; s < 4; ++s) {
        for (int i = 0; i < 3; ++i) {
          const int p = 3 * s + i;
          for (int f = 0; f < t.nfeat; ++f) {
            if (!(t.feats[static_cast<std::size_t>(f)].ports & (1u << p))) continue;
            if (ftypes[t.feats[static_cast<std::size_t>(f)].type].cls == FClass::Area &&
                (t.feats[static_cast<std::size_t>(f)].ports & (7u << (3 * s))) != (7u << (3 * s)))
              fail(path, where, fmt::format("city-like feature {} covers only part of side {}", f, kSideNames[static_cast<std::size_t>(s)]));
          }
        }
      }
      u8 corners = 0;  // Safari: usable corners (canonical orientation)
      if (jt.contains("corners")) {
        static const std::array<const char*, 4> kCorners = {"NE", "SE", "SW", "NW"};
        for (const auto& jc : jt.at("corners")) {
          const std::string c = jc.get<std::string>();
          const auto it = std::find(kCorners.begin(), kCorners.end(), c);
          if (it == kCorners.end()) fail(path, where, fmt::format("corner \"{}\" is not NE, SE, SW or NW", c));
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
        for (int s = 0; s < 4; ++s)
          for (int i = 0; i < 3; ++i) {
            const u8 f = rt.port_feat[static_cast<std::size_t>(3 * s + i)];
            rt.side_code |= static_cast<u64>(ftypes[t.feats[f].type].terrain & 0xF) << (16 * s + 4 * i);
          }
      }
      for (int r = 0; r < 4; ++r) {
        bool dup = false;
        for (int k = 0; k < t.nrots; ++k)
          if (picture(t, t.distinct_rots[static_cast<std::size_t>(k)]) == picture(t, r)) dup = true;
        if (!dup) t.distinct_rots[t.nrots++] = static_cast<u8>(r);
      }
      } catch (const json::exception& e) {
        fail(path, fmt::format("tile {}", t.id), e.what());
      }
      ts.types.push_back(std::move(t));
    }
    // "start": a list of cells (one side), or a list of sides {name, players, track, cells}
    const auto& jstart = j.at("start");
    if (!jstart.is_array() || jstart.empty()) fail(path, "start", "expected a non-empty array");
    std::vector<json> jsides;
    if (jstart.front().contains("cells")) {
      for (const auto& sd : jstart) jsides.push_back(sd);
    } else {
      jsides.push_back(json{{"cells", jstart}});
    }
    std::vector<int> max_uses(ts.types.size(), 0);
    for (std::size_t si = 0; si < jsides.size(); ++si) {
      const json& jsd = jsides[si];
      StartSide sd;
      sd.name = jsd.value("name", std::string("start"));
      const std::string swhere = fmt::format("start side {}", sd.name);
      if (jsd.contains("players")) {
        const auto& pl = jsd.at("players");
        if (!pl.is_array() || pl.empty()) fail(path, swhere, "players lists the player counts the side is for");
        sd.min_players = pl.front().get<int>();
        sd.max_players = pl.back().get<int>();
      }
      sd.track = jsd.value("track", 0);
      if (sd.track < 0 || sd.track > 60) fail(path, swhere, "track must be from 0 to 60");
      std::vector<int> uses(ts.types.size(), 0);
      for (const auto& js : jsd.at("cells")) {
        StartCell sc;
        const std::string id = js.at("tile").get<std::string>();
        sc.tile = ts.find(id);
        if (sc.tile < 0) fail(path, swhere, fmt::format("unknown tile \"{}\"", id));
        sc.x = js.at("x").get<int>();
        sc.y = js.at("y").get<int>();
        sc.rot = js.at("rot").get<int>();
        if (sc.rot % 90 != 0 || sc.rot < 0 || sc.rot > 270) fail(path, swhere, "rot must be 0, 90, 180 or 270");
        sc.rot /= 90;
        if (std::abs(sc.x) > 8 || std::abs(sc.y) > 8) fail(path, swhere, "start cells lie within 8 of the origin");
        for (const StartCell& o : sd.cells)
          if (o.x == sc.x && o.y == sc.y) fail(path, swhere, fmt::format("two start cells at {},{}", sc.x, sc.y));
        const auto ti = static_cast<std::size_t>(sc.tile);
        if (++uses[ti] > ts.types[ti].count) fail(path, fmt::format("tile {}", id), "more start cells than copies");
        max_uses[ti] = std::max(max_uses[ti], uses[ti]);
        sd.cells.push_back(sc);
      }
      if (sd.cells.empty()) fail(path, swhere, "at least one start cell is needed");
      ts.sides.push_back(std::move(sd));
    }
    ts.start = ts.sides.front().cells;
    for (std::size_t t = 0; t < ts.types.size(); ++t) {
      TileType& tt = ts.types[t];
      tt.draw_count = tt.pile == kPileDraw || tt.pile == kPileBonus ? tt.count - max_uses[t] : 0;
      if (tt.pile == kPileStart && max_uses[t] == 0) fail(path, fmt::format("tile {}", tt.id), "a start tile that no start side uses");
    }
    // multi-cell tiles: "east" names the tile in the cell east of this one; the shared edge must match
    for (std::size_t tix = 0; tix < tiles.size(); ++tix) {
      if (!tiles[tix].contains("east")) continue;
      TileType& tt = ts.types[tix];
      const std::string id = tiles[tix].at("east").get<std::string>();
      const int e = ts.find(id);
      if (e < 0) fail(path, fmt::format("tile {}", tt.id), fmt::format("east: unknown tile \"{}\"", id));
      if (ts.types[static_cast<std::size_t>(e)].pile != kPilePart)
        fail(path, fmt::format("tile {}", tt.id), fmt::format("east: tile {} must have pile \"part\"", id));
      const u64 a = (tt.rot[0].side_code >> 16) & 0xFFF;  // east side
      const u64 w = (ts.types[static_cast<std::size_t>(e)].rot[0].side_code >> 48) & 0xFFF;  // west side
      const u64 wr = ((w & 0xF) << 8) | (w & 0xF0) | ((w >> 8) & 0xF);
      if (a != wr) fail(path, fmt::format("tile {}", tt.id), fmt::format("its east side does not match the west side of {}", id));
      tt.east = static_cast<u8>(e);
    }
    for (const auto& t : ts.types) {
      ts.total += t.count;
      if (t.pile == kPileBonus) {
        ts.bonus_total += t.draw_count;
        continue;
      }
      ts.draw_total += t.draw_count;
      ts.kind_total[t.kind & 7] += t.draw_count;
    }
    if (j.contains("total_tiles") && j.at("total_tiles").get<int>() != ts.total)
      fail(path, "total_tiles", fmt::format("says {} but the tile counts add up to {}", j.at("total_tiles").get<int>(), ts.total));
    if (ts.draw_total > 120) fail(path, "tiles", "at most 120 tiles in the draw pile");
  } catch (const json::exception& e) {
    fail(path, "structure", e.what());
  }
  return ts;
}

TileSet load_tileset(const std::string& path, const std::vector<FeatureTypeDef>& ftypes,
                     const std::vector<std::string>& tile_kinds, const std::vector<std::string>& specials) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("{}: cannot open tile file", path));
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_tileset(ss.str(), path, ftypes, tile_kinds, specials);
}

}  // namespace carc
