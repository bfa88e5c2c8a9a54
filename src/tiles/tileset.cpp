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
    sig += fmt::format("{}:{}:{}:{}:", relabel[f], tf.type, tf.attr[0], tf.attr[1]);
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
                      const std::vector<std::string>& attr_names) {
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
          if (cls == FClass::Point && *p != kCentre) fail(path, fwhere, "a point feature sits only at C");
          if (cls != FClass::Point && *p == kCentre) fail(path, fwhere, "only a point feature sits at C");
          if (cls == FClass::Path && *p % 3 != 1) fail(path, fwhere, fmt::format("a {} uses middle ports only, not {}", type, kPortNames[*p]));
          covered = static_cast<u16>(covered | (1u << *p));
          f.ports = static_cast<u16>(f.ports | (1u << *p));
        }
        if (f.ports == 0) fail(path, fwhere, "feature has no ports");
        if (jf.contains("attrs")) {
          for (const auto& [name, val] : jf.at("attrs").items()) {
            int ai = -1;
            for (std::size_t k = 0; k < attr_names.size(); ++k)
              if (attr_names[k] == name) ai = static_cast<int>(k);
            if (ai < 0 || ai >= kAttrs) fail(path, fwhere, fmt::format("unknown attribute \"{}\"", name));
            if (!val.is_number_integer() || val.get<int>() < 0 || val.get<int>() > 20)
              fail(path, fwhere, fmt::format("attribute {} must be an integer from 0 to 20", name));
            f.attr[static_cast<std::size_t>(ai)] = static_cast<u8>(val.get<int>());
          }
        }
        t.feats[fi] = f;
      }
      t.nfeat = static_cast<u8>(feats.size());
      // borders (after all features are known)
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
      // compile the four rotations
      for (int r = 0; r < 4; ++r) {
        RotatedTile& rt = t.rot[static_cast<std::size_t>(r)];
        rt.port_feat.fill(0xFF);
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
      t.draw_count = t.count;
      } catch (const json::exception& e) {
        fail(path, fmt::format("tile {}", t.id), e.what());
      }
      ts.types.push_back(std::move(t));
    }
    for (const auto& js : j.at("start")) {
      StartCell sc;
      const std::string id = js.at("tile").get<std::string>();
      sc.tile = ts.find(id);
      if (sc.tile < 0) fail(path, "start", fmt::format("unknown tile \"{}\"", id));
      sc.x = js.at("x").get<int>();
      sc.y = js.at("y").get<int>();
      sc.rot = js.at("rot").get<int>();
      if (sc.rot % 90 != 0 || sc.rot < 0 || sc.rot > 270) fail(path, "start", "rot must be 0, 90, 180 or 270");
      sc.rot /= 90;
      if (std::abs(sc.x) > 8 || std::abs(sc.y) > 8) fail(path, "start", "start cells lie within 8 of the origin");
      auto& tt = ts.types[static_cast<std::size_t>(sc.tile)];
      if (tt.draw_count == 0) fail(path, fmt::format("tile {}", id), "more start cells than copies");
      --tt.draw_count;
      ts.start.push_back(sc);
    }
    if (ts.start.empty()) fail(path, "start", "at least one start cell is needed");
    for (const auto& t : ts.types) {
      ts.total += t.count;
      ts.draw_total += t.draw_count;
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
                     const std::vector<std::string>& attr_names) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("{}: cannot open tile file", path));
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_tileset(ss.str(), path, ftypes, attr_names);
}

}  // namespace carc
