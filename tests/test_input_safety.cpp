// Inputs that cannot be trusted (issue 12): tile files that would overflow the flat state, record
// paths that open anything, oversized inputs, out-of-range numbers, control characters, records
// whose stated results or draws lie, and the engine's all-or-nothing moves.
#include <gtest/gtest.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "ai/driver.hpp"
#include "core/io.hpp"
#include "scenario.hpp"

namespace carc::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

json game_file(const std::string& game) {
  std::ifstream in(data_dir() + "/tiles/" + game + ".tiles.json");
  return json::parse(in);
}
json& tile(json& f, const std::string& id) {
  for (auto& t : f["tiles"])
    if (t["id"] == id) return t;
  throw std::logic_error("no tile " + id);
}
TileSet parse_for(const std::string& game, const json& f) {
  const GameDef& g = *find_game(game);
  return parse_tileset(f.dump(), "t.json", g.ftypes, g.tile_kinds, g.specials);
}
// Parsing must fail with an InputError holding every one of `parts`.
void expect_tiles_rejected(const std::string& game, const json& f, const std::vector<std::string>& parts) {
  try {
    parse_for(game, f);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    for (const auto& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what() << " lacks " << p;
  }
}
// Plays `n` random games to the end on a tile set; none may exceed a capacity.
void play_random_games(const std::string& game, TileSet ts, int n, int players = 2) {
  auto rs = make_ruleset(*find_game(game), std::move(ts), {});
  MoveList ml;
  for (int k = 0; k < n; ++k) {
    State s;
    init_state(s, *rs, players);
    Rng rng(static_cast<u64>(k) + 1);
    for (int steps = 0; s.phase != Phase::Over; ++steps) {
      ASSERT_LT(steps, 100000);
      if (is_chance(s)) {
        chance_step(s, rng);
        continue;
      }
      legal_moves(s, ml);
      ASSERT_FALSE(ml.empty());
      apply_move(s, ml[rng.below(static_cast<u32>(ml.size()))]);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// 1. Tile files are validated against the state's real capacities

TEST(TileCapacity, ContainersRefuseToOverflowInEveryBuild) {
  StaticVec<int, 3> v;
  for (int i = 0; i < 3; ++i) v.push_back(i);
  EXPECT_THROW(v.push_back(3), CapacityError);
  EXPECT_EQ(v.size(), 3u);
  EXPECT_THROW(v.set_size(4), CapacityError);
}

TEST(TileCapacity, SixtyMonasteriesInTheBasePile) {
  json f = game_file("base");
  f.erase("total_tiles");
  tile(f, "B")["count"] = 60;  // monastery; the pile stays at 120
  tile(f, "V")["count"] = 2;
  EXPECT_NO_THROW(f.dump());
  expect_tiles_rejected("base", f, {"t.json", "point features", "at most 32"});
}

TEST(TileCapacity, ManyStartCells) {
  json f = game_file("base");
  f.erase("total_tiles");
  tile(f, "V")["count"] = 99;
  json cells = json::array();
  for (int k = 0; k < 90; ++k) cells.push_back({{"tile", "V"}, {"x", k % 17 - 8}, {"y", k / 17 - 8}, {"rot", 0}});
  f["start"] = cells;
  expect_tiles_rejected("base", f, {"t.json", "tiles could be on the board", "at most 128"});
  json g = game_file("base");
  g["start"] = json::array();
  for (int k = 0; k < 200; ++k) g["start"].push_back({{"tile", "V"}, {"x", 0}, {"y", 0}, {"rot", 0}});
  expect_tiles_rejected("base", g, {"t.json", "start", "200 items"});
}

TEST(TileCapacity, AmazonasPileAtTheAllowed120) {
  json f = game_file("amazonas");
  f.erase("total_tiles");
  const TileSet ts = parse_for("amazonas", f);
  // fill the draw pile up to 120 with more copies of land tiles: with the start board and the
  // double tiles set aside, more than 128 cells could be placed
  int extra = 120 - ts.draw_total;
  ASSERT_GT(extra, 0);
  for (auto& t : f["tiles"]) {
    if (t.contains("pile") || t.contains("kind") || extra == 0) continue;
    const int add = std::min(extra, 99 - t["count"].get<int>());
    t["count"] = t["count"].get<int>() + add;
    extra -= add;
  }
  ASSERT_EQ(extra, 0);
  expect_tiles_rejected("amazonas", f, {"t.json", "tiles could be on the board", "set-aside", "at most 128"});
}

TEST(TileCapacity, TwelveSinglePortFields) {
  json f = game_file("base");
  f.erase("total_tiles");
  json feats = json::array();
  for (const char* p : {"NNW", "N", "NNE", "ENE", "E", "ESE", "SSE", "S", "SSW", "WSW", "W", "WNW"})
    feats.push_back({{"type", "field"}, {"ports", {p}}});
  json d = tile(f, "D");  // the start tile, and 99 tiles of 12 fields each: 1192 features
  d["count"] = 1;
  f["tiles"] = json::array({d, {{"id", "F12"}, {"count", 99}, {"features", feats}}});
  expect_tiles_rejected("base", f, {"t.json", "features (one per feature per tile)", "at most 1024"});
}

TEST(TileCapacity, SymbolTalliesStayWithinTheirCounters) {
  json f = game_file("base");
  f.erase("total_tiles");
  for (auto& t : f["tiles"])
    for (auto& ft : t["features"])
      if (ft["type"] == "city") ft["attrs"] = {{"shield", 20}};
  expect_tiles_rejected("base", f, {"t.json", "symbols in attribute slot 0", "at most 255"});
}

// Right at the limits, every game plays to the end without touching a capacity.
TEST(TileCapacity, AtTheLimitsGamesPlayToTheEnd) {
  json f = game_file("base");
  f.erase("total_tiles");
  tile(f, "B")["count"] = 31;      // monasteries: 31 + one with a road (A) = 32, the limit
  tile(f, "A")["count"] = 1;
  tile(f, "V")["count"] = 9 + 31;  // the pile at its limit of 120 (121 tiles on the board)
  tile(f, "U")["count"] = 1;
  tile(f, "E")["count"] = 4;
  TileSet ts = parse_for("base", f);
  EXPECT_EQ(ts.draw_total, 120);
  play_random_games("base", std::move(ts), 40);
}

// ---------------------------------------------------------------------------------------------
// 2, 3. File paths and sizes

struct TempDir {
  fs::path dir;
  TempDir() : dir(fs::temp_directory_path() / ("carc_safety_" + std::to_string(::getpid()))) { fs::create_directories(dir); }
  ~TempDir() { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) const {
    const auto p = dir / name;
    std::ofstream(p) << text;
    return p.string();
  }
};

std::string small_record(const std::string& tiles = "") {
  Game g(load_ruleset("base", {}), {{"a", ""}, {"b", ""}}, 5);
  json j = json::parse(record_to_json(g.record(), g.ruleset()));
  if (!tiles.empty()) j["tiles"] = tiles;
  return j.dump();
}

void expect_load_error(const std::string& path, const std::vector<std::string>& parts, const std::vector<std::string>& absent = {}) {
  try {
    const Record r = load_record(path);
    (void)Game::replay(r);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    for (const auto& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << msg << " lacks " << p;
    for (const auto& p : absent) EXPECT_EQ(msg.find(p), std::string::npos) << msg << " quotes " << p;
  }
}

TEST(RecordFiles, TilesPathOpensOnlyRegularFiles) {
  TempDir t;
  expect_load_error(t.write("zero.json", small_record("/dev/zero")), {"/dev/zero", "not a regular file"});
  const std::string fifo = (t.dir / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_load_error(t.write("fifo.json", small_record(fifo)), {"fifo", "not a regular file"});  // must not hang
  expect_load_error(t.write("dir.json", small_record(t.dir.string())), {"folder"});
  // a file over the size cap
  const std::string big = t.write("big.tiles.json", std::string(kMaxTileFileBytes + 10, ' '));
  expect_load_error(t.write("big.json", small_record(big)), {"big.tiles.json", "limit"});
  // a parse error never quotes the file
  const std::string secret = t.write("secret.txt", "SECRET-PASSWORD-123 and more");
  expect_load_error(t.write("secret.json", small_record(secret)), {"secret.txt", "not valid JSON"}, {"SECRET"});
  EXPECT_THROW(load_record("/dev/zero"), InputError);
  EXPECT_THROW(load_record(fifo), InputError);
  EXPECT_THROW(load_record(t.dir.string()), InputError);
}

TEST(RecordFiles, RelativeTilesPathIsRelativeToTheRecord) {
  TempDir t;
  fs::create_directories(t.dir / "sub");
  fs::copy_file(data_dir() + "/tiles/base.tiles.json", t.dir / "sub" / "mine.tiles.json");
  const std::string rec = (t.dir / "sub" / "game.json").string();
  std::ofstream(rec) << small_record("mine.tiles.json");
  const Game g = Game::replay(load_record(rec));  // the working directory is elsewhere
  EXPECT_EQ(g.record().tiles, "mine.tiles.json");  // kept as written, so the record still travels
}

TEST(RecordFiles, SizesAndLengthsAreCapped) {
  TempDir t;
  expect_load_error(t.write("huge.json", std::string(kMaxRecordBytes + 1, ' ')), {"huge.json", "limit"});
  json j = json::parse(small_record());
  j["draws"] = json::array();
  for (std::size_t k = 0; k < kMaxRecordArray + 1; ++k) j["draws"].push_back("A");
  EXPECT_THROW(record_from_json(j.dump(), "r"), InputError);
  json n = json::parse(small_record());
  n["players"][0]["name"] = std::string(1000, 'x');
  EXPECT_THROW(record_from_json(n.dump(), "r"), InputError);
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  try {
    record_from_json(deep, "deep.json");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("nested"), std::string::npos) << e.what();
  }
}

// ---------------------------------------------------------------------------------------------
// 7, 8. Numbers: out of range is an input error naming the key, never a wrap or a crash

void expect_record_error(const std::string& text, const std::vector<std::string>& parts) {
  try {
    (void)Game::replay(record_from_json(text, "rec.json"));
    ADD_FAILURE() << "accepted " << text.substr(0, 200);
  } catch (const InputError& e) {
    for (const auto& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what() << " lacks " << p;
  }
}

TEST(Numbers, OutOfRangeValuesAreRefusedNotWrapped) {
  Game g(load_ruleset("base", {}), {{"a", ""}, {"b", ""}}, 5);
  MoveList ml;
  legal_moves(g.state(), ml);
  g.play(ml[0]);
  legal_moves(g.state(), ml);
  g.play(ml[0]);
  const json good = json::parse(record_to_json(g.record(), g.ruleset()));
  {
    std::string text = good.dump();
    text.replace(text.find("\"moves\":"), 8, "\"big\":1e99999,\"moves\":");
    expect_record_error(text, {"rec.json", "out of range"});
  }
  {
    json j = good;
    j["moves"][0]["player"] = 4294967296LL;
    expect_record_error(j.dump(), {"rec.json", "move 1", "player", "out of range"});
  }
  {
    json j = good;
    j["moves"][0]["x"] = 1.5;
    expect_record_error(j.dump(), {"move 1", "x", "integer"});
  }
  {
    json j = good;
    j["seed"] = -1;
    expect_record_error(j.dump(), {"seed"});
  }
  {
    json j = good;
    j["moves"][0]["follower_at"] = {300, 0};
    expect_record_error(j.dump(), {"follower_at"});
  }
}

TEST(Numbers, TileFileNumbersAreRangeChecked) {
  {
    json f = game_file("base");
    tile(f, "A")["count"] = 4294967298LL;  // not 2
    expect_tiles_rejected("base", f, {"t.json", "tile A", "count", "out of range"});
  }
  {
    json f = game_file("amazonas");
    f["start"][0]["players"] = {1e300, 3};
    expect_tiles_rejected("amazonas", f, {"t.json", "players"});
  }
  {
    json f = game_file("base");
    f["start"][0]["x"] = -2147483648LL;
    expect_tiles_rejected("base", f, {"t.json", "x", "out of range"});
  }
  {
    std::string text = game_file("base").dump();
    text.replace(text.find("\"total_tiles\":72"), 16, "\"total_tiles\":1e99999");
    try {
      parse_tileset(text, "t.json", find_game("base")->ftypes);
      ADD_FAILURE();
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("t.json"), std::string::npos);
    }
  }
}

TEST(Numbers, TypedCoordinatesNeverAlias) {
  // Hunters' shaman and Safari's jeep name cells in text: off the map is an error, not a wrap
  const Record hr = [] {
    Record r;
    r.game = "hunters";
    r.players = {{"a", ""}, {"b", ""}};
    r.seed = 3;
    return r;
  }();
  Game h = Game::replay(hr);
  EXPECT_THROW(find_game("hunters")->hooks.choice_parse(h.state(), "N at 251,-512"), InputError);
  EXPECT_THROW(find_game("hunters")->hooks.choice_parse(h.state(), "N at 0,99999999999999"), InputError);
  Record sr = hr;
  sr.game = "safari";
  Game s = Game::replay(sr);
  ASSERT_EQ(s.state().phase, Phase::Place);
  MoveList ml;
  legal_moves(s.state(), ml);
  s.play(ml[0]);
  try {
    (void)s.action("jeep from -2,0 to 255,2");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("255"), std::string::npos) << e.what();
  }
}

// ---------------------------------------------------------------------------------------------
// 11, 13. Strings from files are data; messages name the file, the tile and the key

TEST(Strings, ControlCharactersInRecordsAreRefusedAndNeutralised) {
  json j = json::parse(small_record());
  j["players"][0]["name"] = "evil\x1b]0;pwned\x07\x1b[2J";
  try {
    record_from_json(j.dump(), "rec.json");
    ADD_FAILURE();
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("players[0]"), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\x1b'), std::string::npos) << "the message itself must be safe to print";
    EXPECT_NE(msg.find("\\x1b"), std::string::npos) << msg;
  }
  EXPECT_EQ(printable("a\x1b[2Jb\xc2\x85" "c\xff"), "a\\x1b[2Jb\\u0085c\\xff");
  EXPECT_FALSE(has_control_chars("Zoë ✓"));
  EXPECT_TRUE(has_control_chars("a\nb"));
  // a file name with control characters is neutralised in messages too
  try {
    (void)load_record("/nonexistent/\x1b[2Jx.json");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).find('\x1b'), std::string::npos);
  }
}

TEST(Strings, TileLoaderMessagesNameFileTileAndKey) {
  json f = game_file("base");
  tile(f, "D")["features"][1]["type"] = 7;
  expect_tiles_rejected("base", f, {"t.json", "tile D feature 1", "type", "expected a string"});
  json g = game_file("base");
  tile(g, "D")["features"][1]["ports"] = "N";
  expect_tiles_rejected("base", g, {"t.json", "tile D feature 1", "ports", "expected an array"});
  json h = game_file("base");
  tile(h, "D")["count"] = "4";
  expect_tiles_rejected("base", h, {"t.json", "tile D", "count"});
  json k = game_file("base");
  tile(k, "D")["features"][1]["borders"] = {99};
  expect_tiles_rejected("base", k, {"t.json", "tile D feature 1", "borders", "out of range"});
  json m = game_file("base");
  m["start"][0].erase("x");
  expect_tiles_rejected("base", m, {"t.json", "start", "x", "missing"});
}

// ---------------------------------------------------------------------------------------------
// 6. Every engine call is all or nothing; recorded draws past the last move are a planned deal

TEST(AllOrNothing, AnIllegalMoveChangesNothing) {
  Game g(load_ruleset("hunters", {}), {{"a", ""}, {"b", ""}}, 9);
  g.enable_undo(true);
  const std::string before = record_to_json(g.record(), g.ruleset());
  const State s0 = g.state();
  EXPECT_THROW(g.play(Scenario::place_move(0, 50, 50, 0)), InputError);
  EXPECT_EQ(record_to_json(g.record(), g.ruleset()), before);
  EXPECT_EQ(g.state().turn, s0.turn);
  EXPECT_EQ(g.state().tiles.size(), s0.tiles.size());
  EXPECT_EQ(g.state().phase, s0.phase);
}

// A finished Hunters & Gatherers game cut back to an earlier turn and resumed: the old draws past
// the cut are a plan that stops fitting once play diverges (a bonus draw where a regular one is
// due, or the reverse). Play goes on from the seed; every record written along the way replays.
TEST(AllOrNothing, CutBackHuntersGamesPlayOnAndEveryRecordReplays) {
  int diverged = 0;
  for (u64 seed = 1; seed <= 6; ++seed) {
    std::vector<std::unique_ptr<Bot>> bots;
    bots.push_back(make_bot("greedy"));
    bots.push_back(make_bot("random"));
    Game full(load_ruleset("hunters", {}), {{"a", "greedy"}, {"b", "random"}}, seed);
    Rng rng(seed);
    play_out(full, bots, rng);
    ASSERT_TRUE(full.over());
    for (std::size_t cut : {std::size_t{3}, full.record().moves.size() / 2}) {
      Record r = full.record();
      r.moves.resize(cut);
      r.events.clear();
      r.final_scores.clear();
      r.finished = false;
      for (const bool keep_seed : {true, false}) {
        Record rr = r;
        if (!keep_seed) rr.seed.reset();
        Game g = Game::replay(rr, keep_seed ? std::nullopt : std::optional<u64>(seed + 1000));
        Rng other(seed * 31 + 7);  // other choices than the original game
        MoveList ml;
        for (int steps = 0; !g.over() && !g.stalled(); ++steps) {
          ASSERT_LT(steps, 2000);
          legal_moves(g.state(), ml);
          ASSERT_FALSE(ml.empty());
          g.play(ml[other.below(static_cast<u32>(ml.size()))]);
          if (steps % 16 != 7 && !g.over()) continue;  // every 16th record (mid-turn ones too) and the last
          const std::string saved = record_to_json(g.record(), g.ruleset());
          const Game again = Game::replay(record_from_json(saved, "autosave"));
          ASSERT_EQ(record_to_json(again.record(), again.ruleset()), saved) << "seed " << seed << " cut " << cut;
        }
        diverged += g.plans_dropped() > 0;
      }
    }
  }
  EXPECT_GT(diverged, 0) << "no game diverged from its plan: the test does not test it";
}

// ---------------------------------------------------------------------------------------------
// 10, 16. Pieces on the named tile only; draw marks

TEST(RecordMeaning, AmazonasPieceWithoutFollowerAtIsOnTheBangTile) {
  // find a greedy game where a piece went on a double tile (follower_at set)
  for (u64 seed = 1; seed <= 60; ++seed) {
    std::vector<std::unique_ptr<Bot>> bots;
    bots.push_back(make_bot("greedy"));
    bots.push_back(make_bot("greedy"));
    Game g(load_ruleset("amazonas", {}), {{"a", "greedy"}, {"b", "greedy"}}, seed);
    Rng rng(seed);
    play_out(g, bots, rng);
    json j = json::parse(record_to_json(g.record(), g.ruleset()));
    for (std::size_t i = 0; i < j["moves"].size(); ++i) {
      if (!j["moves"][i].contains("follower_at")) continue;
      EXPECT_NO_THROW(Game::replay(record_from_json(j.dump(), "a.json")));
      j["moves"][i].erase("follower_at");
      j.erase("events");
      j.erase("final_scores");
      j.erase("status");
      try {
        (void)Game::replay(record_from_json(j.dump(), "a.json"));
        ADD_FAILURE() << "a piece on the \"!\" tile was accepted";
      } catch (const ReplayError& e) {
        EXPECT_EQ(e.move, static_cast<int>(i + 1));
        EXPECT_EQ(e.code, "illegal_piece") << e.what();
      }
      return;
    }
  }
  FAIL() << "no piece on a double tile in 60 games";
}

TEST(RecordMeaning, DrawMarksAreWrittenAndChecked) {
  // a Hunters game with a bonus turn and a base game with a discard
  bool saw_bonus = false, saw_discard = false;
  for (const char* game : {"hunters", "base"}) {
    for (u64 seed = 1; seed <= 40 && !(std::string(game) == "hunters" ? saw_bonus : saw_discard); ++seed) {
      std::vector<std::unique_ptr<Bot>> bots;
      bots.push_back(make_bot("greedy"));
      bots.push_back(make_bot("greedy"));
      Game g(load_ruleset(game, {}), {{"a", "greedy"}, {"b", "greedy"}}, seed);
      Rng rng(seed);
      play_out(g, bots, rng);
      const json j = json::parse(record_to_json(g.record(), g.ruleset()));
      for (std::size_t i = 0; i < j["draws"].size(); ++i) {
        const json& d = j["draws"][i];
        if (!d.is_object()) continue;
        if (d.value("pile", "") == "bonus" && !saw_bonus) {
          saw_bonus = true;
          json k = j;
          k["draws"][i].erase("pile");  // a bonus draw claimed as a regular one
          k["draws"][i]["pile"] = "draw";
          try {
            (void)Game::replay(record_from_json(k.dump(), "h.json"));
            ADD_FAILURE();
          } catch (const ReplayError& e) {
            EXPECT_EQ(e.code, "bad_draw");
            EXPECT_NE(std::string(e.what()).find(fmt::format("draws[{}]", i)), std::string::npos) << e.what();
          }
        }
        if (d.value("discarded", false) && !saw_discard) {
          saw_discard = true;
          json k = j;
          k["draws"][i]["discarded"] = false;
          try {
            (void)Game::replay(record_from_json(k.dump(), "b.json"));
            ADD_FAILURE();
          } catch (const ReplayError& e) {
            EXPECT_NE(std::string(e.what()).find(fmt::format("draws[{}]", i)), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("discarded"), std::string::npos) << e.what();
          }
        }
      }
      EXPECT_NO_THROW(Game::replay(record_from_json(j.dump(), "ok.json")));
    }
  }
  EXPECT_TRUE(saw_bonus);
  EXPECT_TRUE(saw_discard);
}

TEST(RecordMeaning, ARecordWithoutGameIsABaseGame) {
  json j = json::parse(small_record());
  json minimal = {{"players", j["players"]}, {"draws", j["draws"]}, {"moves", j["moves"]}};
  const Game g = Game::replay(record_from_json(minimal.dump(), "m.json"));
  EXPECT_EQ(g.ruleset().game->id, "base");
}

}  // namespace
}  // namespace carc::test

namespace carc::test {
namespace {

// ---------------------------------------------------------------------------------------------
// 15. Prepared positions and short piles: a puzzle, a rulebook example or a bug report is one record

TEST(Prepared, EmptyShortPileScoresThePositionAtOnce) {
  // tile D (city N, road W-E): red's follower on the road, scores 3 and 4, nothing left to draw
  const json rec = json::parse(R"({"game": "base", "players": ["red", "blue"],
    "setup": {"tiles": [{"tile": "D", "x": 0, "y": 0, "rot": 0}],
              "pieces": [{"player": 0, "x": 0, "y": 0, "port": "W"}],
              "scores": [3, 4], "pile": []},
    "moves": []})");
  const Game g = Game::replay(record_from_json(rec.dump(), "p.json"));
  ASSERT_TRUE(g.over());
  EXPECT_EQ(g.record().final_scores, (std::vector<int>{4, 4})) << "the unfinished road of 1 tile: 1 point";
  const std::string out = record_to_json(g.record(), g.ruleset());
  const Game again = Game::replay(record_from_json(out, "p2.json"));
  EXPECT_EQ(record_to_json(again.record(), again.ruleset()), out) << "the setup travels with the record";
}

// Supplies: a rulebook example where some followers are elsewhere (out of play)
TEST(Prepared, SuppliesAreGivenOrFollowFromThePieces) {
  const std::string head = R"({"game": "base", "players": ["red", "blue"], "moves": [], "setup": {"pile": ["U"],
    "pieces": [{"player": 0, "x": 0, "y": 0, "port": "W"}])";
  const Game a = Game::replay(record_from_json(head + "}}", "a.json"));
  EXPECT_EQ(a.state().supply[0], 6);
  EXPECT_EQ(a.state().supply[1], 7);
  const Game b = Game::replay(record_from_json(head + R"(, "supplies": [[2, 0], [7, 0]]}})", "b.json"));
  EXPECT_EQ(b.state().supply[0], 2);
  EXPECT_EQ(b.state().supply[1], 7);
  const std::string out = record_to_json(b.record(), b.ruleset());
  EXPECT_NE(out.find("\"supplies\""), std::string::npos);
  EXPECT_EQ(record_to_json(Game::replay(record_from_json(out, "c.json")).record(), b.ruleset()), out);
  try {
    (void)Game::replay(record_from_json(head + R"(, "supplies": [[7, 0]]}})", "d.json"));
    ADD_FAILURE() << "7 followers in supply and 1 on the board were accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("setup: supplies[0][0]"), std::string::npos) << e.what();
  }
}

TEST(Prepared, ShortPileIsDrawnInOrderThenTheGameEnds) {
  const json rec = json::parse(R"({"game": "base", "players": ["red", "blue"],
    "setup": {"tiles": [{"tile": "D", "x": 0, "y": 0, "rot": 0}, {"tile": "V", "x": 1, "y": 0, "rot": 0}],
              "pile": ["U", "U", "E"]},
    "moves": []})");
  Game g = Game::replay(record_from_json(rec.dump(), "p.json"));
  EXPECT_EQ(g.state().tiles.size(), 2u);
  EXPECT_EQ(g.state().pile + 1, 3) << "one tile in hand, two in the pile";
  EXPECT_EQ(g.ruleset().tiles.types[g.state().in_hand].id, "U");
  MoveList ml;
  while (!g.over()) {
    legal_moves(g.state(), ml);
    ASSERT_FALSE(ml.empty());
    g.play(ml[0]);
  }
  EXPECT_EQ(g.state().turn, 3);
  const std::string out = record_to_json(g.record(), g.ruleset());
  EXPECT_NO_THROW(Game::replay(record_from_json(out, "p2.json")));
}

// Amazonas and Safari keep their start board (and their own state as in a new game): pieces,
// scores and a short pile work there too.
TEST(Prepared, ShortPilesOnTheStartBoardInEveryGame) {
  for (const char* game : {"amazonas", "safari", "hunters"}) {
    auto rs = load_ruleset(game, {});
    // the pile: the first three draw-pile tile types of the set, in file order
    json pile = json::array();
    for (const TileType& t : rs->tiles.types)
      if (t.pile == kPileDraw && pile.size() < 3) pile.push_back(t.id);
    json rec = {{"game", game}, {"players", {"red", "blue"}}, {"seed", 7}, {"moves", json::array()},
                {"setup", {{"scores", {10, 20}}, {"pile", pile}}}};
    Game g = Game::replay(record_from_json(rec.dump(), "p.json"));
    EXPECT_EQ(g.state().score[0], 10) << game;
    EXPECT_EQ(g.state().score[1], 20) << game;
    MoveList ml;
    Rng rng(3);
    for (int steps = 0; !g.over(); ++steps) {
      ASSERT_LT(steps, 200) << game;
      legal_moves(g.state(), ml);
      ASSERT_FALSE(ml.empty()) << game;
      g.play(ml[rng.below(static_cast<u32>(ml.size()))]);
    }
    EXPECT_LE(g.state().turn, 3) << game << ": the game ends when the short pile is used up";
    const std::string out = record_to_json(g.record(), g.ruleset());
    const Game again = Game::replay(record_from_json(out, "p2.json"));
    EXPECT_EQ(record_to_json(again.record(), again.ruleset()), out) << game;
  }
}

TEST(Prepared, BadSetupsAreNamed) {
  auto err = [](const std::string& setup, const std::vector<std::string>& parts, const std::string& game = "base") {
    const std::string text = R"({"game": ")" + game + R"(", "players": ["red", "blue"], "moves": [], "setup": )" + setup + "}";
    try {
      (void)Game::replay(record_from_json(text, "p.json"));
      ADD_FAILURE() << "accepted " << setup;
    } catch (const InputError& e) {
      for (const auto& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what() << " lacks " << p;
    }
  };
  err(R"({"tiles": [{"tile": "D", "x": 0, "y": 0, "rot": 0}, {"tile": "D", "x": 0, "y": -1, "rot": 0}], "pile": []})",
      {"setup: tiles[1]", "edges"});
  err(R"({"tiles": [{"tile": "D", "x": 0, "y": 0, "rot": 0}, {"tile": "D", "x": 5, "y": 5, "rot": 0}], "pile": []})",
      {"setup: tiles[1]", "touches none"});
  err(R"({"tiles": [{"tile": "C", "x": 0, "y": 0, "rot": 0}, {"tile": "C", "x": 1, "y": 0, "rot": 0}], "pile": []})",
      {"setup: tiles[1]", "more copies"});
  err(R"({"pieces": [{"player": 0, "x": 0, "y": 0, "port": "N"}, {"player": 0, "x": 0, "y": 0, "port": "C"}], "pile": []})",
      {"setup: pieces[1]", "no feature"});
  err(R"({"pieces": [{"player": 2, "x": 0, "y": 0, "port": "N"}], "pile": []})", {"pieces[0]", "player"});
  err(R"({"pile": ["Q9"]})", {"setup: pile[0]", "Q9"});
  err(R"({"scores": [1, 2, 3], "pile": []})", {"setup", "scores"});
  err(R"({"tiles": [{"tile": "L01", "x": 0, "y": 0, "rot": 0}], "pile": []})", {"setup: tiles", "no Amazon cell"}, "amazonas");
}

}  // namespace
}  // namespace carc::test
