// The base tile set loads as published, and bad tile files are rejected with a message naming the
// file and the tile.
#include <gtest/gtest.h>

#include <bit>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "scenario.hpp"

namespace carc::test {
namespace {

using nlohmann::json;

const std::string kReference = CARC_SOURCE_DATA_DIR "/../../shared/reference/tiles/base.json";

json load_reference() {
  std::ifstream in(kReference);
  return json::parse(in);
}

// src/games/GAMES is the one list of games (docs/architecture.md, "Adding a game"): game_ids()
// gives its ids in its order (test games follow only with CARCASSONNE_TEST_GAMES=1); each is found
// by its id, is the game of that id, and loads its tile file.
TEST(Games, GameIdsAreTheListInItsOrder) {
  std::ifstream in(CARC_SOURCE_DATA_DIR "/../src/games/GAMES");
  ASSERT_TRUE(in);
  std::vector<std::string> listed;
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find('#'));  // a comment
    line.erase(line.find_last_not_of(" \t\r") + 1);
    line.erase(0, line.find_first_not_of(" \t"));
    if (!line.empty()) listed.push_back(line);
  }
  ASSERT_FALSE(listed.empty());
  const std::vector<std::string> ids = game_ids();
  ASSERT_GE(ids.size(), listed.size());
  EXPECT_EQ(std::vector<std::string>(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(listed.size())), listed);
  const char* test_games = std::getenv("CARCASSONNE_TEST_GAMES");
  if (!test_games || std::string_view(test_games) != "1") {
    EXPECT_EQ(ids, listed);
  }
  for (const std::string& id : ids) {
    const GameDef* g = find_game(id);
    ASSERT_NE(g, nullptr) << id;
    EXPECT_EQ(g->id, id);
    EXPECT_EQ(load_ruleset(id, {})->tiles.game, id);
  }
  EXPECT_EQ(find_game("chess"), nullptr);
  EXPECT_EQ(find_game(""), nullptr);
}

TEST(Tiles, BaseSetLoads) {
  auto rs = base_rules();
  const TileSet& ts = rs->tiles;
  EXPECT_EQ(ts.game, "base");
  ASSERT_EQ(ts.types.size(), 24u);
  EXPECT_EQ(ts.total, 72);
  EXPECT_EQ(ts.draw_total, 71);
  for (std::size_t i = 0; i < ts.types.size(); ++i) EXPECT_EQ(ts.types[i].id, std::string(1, static_cast<char>('A' + i)));
  ASSERT_EQ(ts.start.size(), 1u);
  EXPECT_EQ(ts.types[static_cast<std::size_t>(ts.start[0].tile)].id, "D");
  EXPECT_EQ(ts.start[0].x, 0);
  EXPECT_EQ(ts.start[0].y, 0);
  EXPECT_EQ(ts.start[0].rot, 0);
  const std::map<std::string, int> counts = {
      {"A", 2}, {"B", 4}, {"C", 1}, {"D", 4}, {"E", 5}, {"F", 2}, {"G", 1}, {"H", 3}, {"I", 2}, {"J", 3}, {"K", 3}, {"L", 3},
      {"M", 2}, {"N", 3}, {"O", 2}, {"P", 3}, {"Q", 1}, {"R", 3}, {"S", 2}, {"T", 1}, {"U", 8}, {"V", 9}, {"W", 4}, {"X", 1}};
  for (const auto& [id, n] : counts) {
    const int t = ts.find(id);
    ASSERT_GE(t, 0) << id;
    EXPECT_EQ(ts.types[static_cast<std::size_t>(t)].count, n) << id;
    EXPECT_EQ(ts.types[static_cast<std::size_t>(t)].draw_count, id == "D" ? n - 1 : n) << id;
  }
  EXPECT_EQ(ts.find("Y"), -1);
  // a new game: 71 tiles in the pile, the start tile on the board
  State s;
  init_state(s, *rs, 2);
  EXPECT_EQ(s.pile, 71);
  int sum = 0;
  for (std::size_t t = 0; t < ts.types.size(); ++t) sum += s.remaining[t];
  EXPECT_EQ(sum, 71);
  EXPECT_EQ(s.tiles.size(), 1u);
  EXPECT_EQ(s.placed_at(0, 0), 0);
}

// Shields, monasteries, feature types and the partition of the twelve ports, type by type.
TEST(Tiles, BaseSetMatchesTheReference) {
  if (!std::filesystem::exists(kReference)) GTEST_SKIP() << "no reference at " << kReference;
  const json ref = load_reference();
  auto rs = base_rules();
  const TileSet& ts = rs->tiles;
  EXPECT_EQ(ref.at("total_tiles").get<int>(), ts.total);
  ASSERT_EQ(ref.at("tiles").size(), ts.types.size());
  const std::array<const char*, 4> sides = {"N", "E", "S", "W"};
  for (const auto& rt : ref.at("tiles")) {
    const std::string id = rt.at("id");
    const int t = ts.find(id);
    ASSERT_GE(t, 0) << id;
    const TileType& tt = ts.types[static_cast<std::size_t>(t)];
    EXPECT_EQ(tt.count, rt.at("count").get<int>()) << id;
    std::map<std::string, int> ours;   // label -> local feature
    std::map<int, std::string> theirs; // local feature -> label
    for (int s = 0; s < 4; ++s)
      for (int i = 0; i < 3; ++i) {
        const std::string label = rt.at("edges").at(sides[static_cast<std::size_t>(s)]).at(static_cast<std::size_t>(i));
        const int f = tt.rot[0].port_feat[static_cast<std::size_t>(3 * s + i)];
        ASSERT_NE(f, 0xFF) << id;
        auto [a, fa] = ours.emplace(label, f);
        auto [b, fb] = theirs.emplace(f, label);
        EXPECT_EQ(a->second, f) << id << ": label " << label << " is two features here";
        EXPECT_EQ(b->second, label) << id << ": feature " << f << " is two labels there";
      }
    int shields = 0;
    for (int f = 0; f < tt.nfeat; ++f) shields += tt.feats[static_cast<std::size_t>(f)].attr[0];
    const bool has_shield = !rt.at("shield_on").is_null();
    EXPECT_EQ(shields, has_shield ? 1 : 0) << id;
    if (has_shield) {
      const int f = ours.at(rt.at("shield_on").get<std::string>());
      EXPECT_EQ(tt.feats[static_cast<std::size_t>(f)].attr[0], 1) << id;
    }
    const bool monastery = rt.value("monastery", false);
    EXPECT_EQ(tt.centre != 0xFF, monastery) << id;
    if (monastery) {
      EXPECT_EQ(rs->ftype(tt.feats[tt.centre].type).name, "monastery") << id;
    }
    for (const auto& [label, f] : ours)
      EXPECT_EQ(rs->ftype(tt.feats[static_cast<std::size_t>(f)].type).name, rt.at("features").at(label).at("type").get<std::string>())
          << id << " " << label;
    EXPECT_EQ(static_cast<std::size_t>(tt.nfeat), ours.size() + (monastery ? 1u : 0u)) << id;
  }
}

// Rotations: a quarter turn clockwise maps port p to p + 3 (the N side goes to E).
TEST(Tiles, RotationMapsPorts) {
  auto rs = base_rules();
  const TileType& e = rs->tiles.types[static_cast<std::size_t>(rs->tiles.find("E"))];  // city N
  const int city = e.rot[0].port_feat[1];
  for (int r = 0; r < 4; ++r) {
    for (int p = 0; p < 12; ++p) {
      const bool is_city = e.rot[static_cast<std::size_t>(r)].port_feat[static_cast<std::size_t>(p)] == city;
      EXPECT_EQ(is_city, p / 3 == r) << "rot " << r << " port " << p;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Bad tile files

json good_file() {
  return json::parse(R"({
    "format": "carcassonne-tiles/1", "game": "base", "total_tiles": 3,
    "start": [{"tile": "Y", "x": 0, "y": 0, "rot": 0}],
    "tiles": [
      {"id": "Y", "count": 1, "features": [
        {"type": "city", "ports": ["NNW", "N", "NNE"]},
        {"type": "field", "ports": ["ENE", "E", "ESE", "SSE", "S", "SSW", "WSW", "W", "WNW"], "borders": [0]}]},
      {"id": "Z", "count": 2, "features": [
        {"type": "field", "ports": ["NNW", "SSW", "WSW", "W", "WNW"]},
        {"type": "road", "ports": ["N", "S"]},
        {"type": "field", "ports": ["NNE", "ENE", "E", "ESE", "SSE"]}]}
    ]})");
}

TileSet parse(const std::string& text) {
  return parse_tileset(text, "bad.json", find_game("base")->ftypes);
}

// The parse must fail with an InputError whose message holds every one of `parts`.
void expect_rejected(const std::string& text, const std::vector<std::string>& parts) {
  try {
    parse(text);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const InputError& e) {
    const std::string msg = e.what();
    for (const auto& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "message \"" << msg << "\" lacks \"" << p << "\"";
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not an InputError: " << e.what();
  }
}

json& feature(json& f, const std::string& tile, int k) {
  for (auto& t : f["tiles"])
    if (t["id"] == tile) return t["features"][static_cast<std::size_t>(k)];
  throw std::logic_error("no tile " + tile);
}

TEST(BadTiles, TheGoodFileParses) {
  const TileSet ts = parse(good_file().dump());
  EXPECT_EQ(ts.types.size(), 2u);
  EXPECT_EQ(ts.total, 3);
  EXPECT_EQ(ts.draw_total, 2);
  const TileType& z = ts.types[1];
  EXPECT_EQ(z.nrots, 2);
}

TEST(BadTiles, UnknownPort) {
  json f = good_file();
  feature(f, "Z", 0)["ports"][0] = "NW";
  expect_rejected(f.dump(), {"bad.json", "tile Z", "NW"});
}

TEST(BadTiles, PortInTwoFeatures) {
  json f = good_file();
  feature(f, "Z", 0)["ports"].push_back("E");
  expect_rejected(f.dump(), {"bad.json", "tile Z", "port E belongs to two features"});
}

TEST(BadTiles, MissingPort) {
  json f = good_file();
  feature(f, "Z", 0)["ports"] = json::array({"NNW", "SSW", "W", "WNW"});   // no WSW
  expect_rejected(f.dump(), {"bad.json", "tile Z", "WSW"});
}

TEST(BadTiles, RoadOnASideThird) {
  json f = good_file();
  feature(f, "Z", 1)["ports"] = json::array({"N", "S", "ENE"});
  feature(f, "Z", 2)["ports"] = json::array({"NNE", "E", "ESE", "SSE"});
  expect_rejected(f.dump(), {"bad.json", "tile Z", "ENE"});
}

TEST(BadTiles, CityCoveringPartOfASide) {
  json f = good_file();
  feature(f, "Y", 0)["ports"] = json::array({"NNW", "N"});
  feature(f, "Y", 1)["ports"].push_back("NNE");
  expect_rejected(f.dump(), {"bad.json", "tile Y", "side N"});
}

TEST(BadTiles, UnknownFeatureType) {
  json f = good_file();
  feature(f, "Z", 1)["type"] = "river";
  expect_rejected(f.dump(), {"bad.json", "tile Z", "river"});
}

TEST(BadTiles, CountsNotAddingUpToTotal) {
  json f = good_file();
  f["total_tiles"] = 4;
  expect_rejected(f.dump(), {"bad.json", "total_tiles", "4", "3"});
  json g = good_file();
  g["tiles"][1]["count"] = 3;
  expect_rejected(g.dump(), {"bad.json", "total_tiles", "4"});
}

TEST(BadTiles, MalformedJson) {
  const std::string text = good_file().dump();
  expect_rejected(text.substr(0, text.size() / 2), {"bad.json"});
  expect_rejected("", {"bad.json"});
  expect_rejected("[1, 2, 3]", {"bad.json"});
}

TEST(BadTiles, OtherStructuralErrors) {
  {
    json f = good_file();
    f["tiles"][1]["id"] = "Y";
    expect_rejected(f.dump(), {"bad.json", "tile Y", "duplicate"});
  }
  {
    json f = good_file();
    f["tiles"][1]["count"] = 0;
    expect_rejected(f.dump(), {"bad.json", "tile Z", "count"});
  }
  {
    json f = good_file();
    feature(f, "Z", 0)["borders"] = json::array({1});   // a road is no city
    expect_rejected(f.dump(), {"bad.json", "tile Z", "border"});
  }
  {
    json f = good_file();
    f["start"][0]["tile"] = "Q";
    expect_rejected(f.dump(), {"bad.json", "start", "Q"});
  }
  {
    json f = good_file();
    f["format"] = "carcassonne-tiles/2";
    expect_rejected(f.dump(), {"bad.json", "format"});
  }
  {
    json f = good_file();
    feature(f, "Y", 0)["attrs"] = json{{"banner", 1}};
    expect_rejected(f.dump(), {"bad.json", "tile Y", "banner"});
  }
}

// A required key missing inside a tile: the message must still say which tile.
TEST(BadTiles, MissingKeyNamesTheTile) {
  {
    json f = good_file();
    feature(f, "Z", 1).erase("ports");
    expect_rejected(f.dump(), {"bad.json", "tile Z", "ports"});
  }
  {
    json f = good_file();
    feature(f, "Z", 1).erase("type");
    expect_rejected(f.dump(), {"bad.json", "tile Z", "type"});
  }
  {
    json f = good_file();
    f["tiles"][1].erase("count");
    expect_rejected(f.dump(), {"bad.json", "tile Z", "count"});
  }
  {
    json f = good_file();
    f["tiles"][1].erase("features");
    expect_rejected(f.dump(), {"bad.json", "tile Z", "features"});
  }
}

TEST(BadTiles, LoadingNamesTheFile) {
  const auto dir = std::filesystem::temp_directory_path() / "carc_test_tiles";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "broken.tiles.json").string();
  {
    json f = good_file();
    feature(f, "Z", 1)["type"] = "river";
    std::ofstream(path) << f.dump();
  }
  try {
    load_ruleset("base", {}, path);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  // a tile file of another game
  {
    json f = good_file();
    f["game"] = "amazonas";
    std::ofstream(path) << f.dump();
  }
  EXPECT_THROW(load_ruleset("base", {}, path), InputError);
  EXPECT_THROW(load_ruleset("base", {}, (dir / "missing.json").string()), InputError);
  EXPECT_THROW(load_ruleset("chess", {}), InputError);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace carc::test

namespace carc::test {
namespace {

// Safari's tile data (its rules come later): the file loads against Safari's feature types, the
// totals match RULES.md §4 and the reference, and watering-hole corners rotate with the tile.
TEST(SafariTiles, LoadWithTheStatedTotals) {
  const GameDef& g = *find_game("safari");
  const TileSet ts = load_tileset(data_dir() + "/tiles/safari.tiles.json", g.ftypes, g.tile_kinds, g.specials);
  EXPECT_EQ(ts.game, "safari");
  EXPECT_EQ(ts.types.size(), 75u);
  EXPECT_EQ(ts.draw_total, 72);
  ASSERT_EQ(ts.start.size(), 3u);
  std::array<int, 6> symbols{};  // 5 species + birds, start board included
  int baobabs = 0, usable = 0;
  for (const TileType& t : ts.types) {
    for (int f = 0; f < t.nfeat; ++f) {
      const TileFeature& tf = t.feats[static_cast<std::size_t>(f)];
      for (std::size_t k = 0; k < 6; ++k) symbols[k] += tf.attr[k];
      baobabs += g.ftypes[tf.type].name == "baobab";
    }
    usable += std::popcount(t.rot[0].corners);
    // a corner is usable iff both edge thirds meeting there are savanna (the file's [D] rule)
    static constexpr std::array<std::array<int, 2>, 4> kThirds = {{{2, 3}, {5, 6}, {8, 9}, {11, 0}}};  // NE SE SW NW
    for (int c = 0; c < 4; ++c) {
      const bool sav = g.ftypes[t.feats[t.rot[0].port_feat[static_cast<std::size_t>(kThirds[static_cast<std::size_t>(c)][0])]].type].name == "savanna" &&
                       g.ftypes[t.feats[t.rot[0].port_feat[static_cast<std::size_t>(kThirds[static_cast<std::size_t>(c)][1])]].type].name == "savanna";
      EXPECT_EQ(sav, (t.rot[0].corners >> c & 1) != 0) << t.id << " corner " << c;
      for (int r = 1; r < 4; ++r)  // after r quarter turns clockwise the corner is c + r
        EXPECT_EQ((t.rot[0].corners >> c & 1), (t.rot[static_cast<std::size_t>(r)].corners >> ((c + r) % 4) & 1)) << t.id;
    }
  }
  for (std::size_t k = 0; k < 5; ++k) EXPECT_EQ(symbols[k], 20) << "species " << k;
  EXPECT_EQ(symbols[5], 35);  // 34 birds on land tiles + 1 on the start board
  EXPECT_EQ(baobabs, 29);
  EXPECT_EQ(usable, 168);
}

}  // namespace
}  // namespace carc::test
