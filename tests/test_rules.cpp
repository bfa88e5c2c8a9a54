// Rules of the base game beyond the rulebook's worked examples: placement legality, distinct
// rotations, feature merging and counting, field-city adjacency of every tile type, monasteries
// with missing neighbours, discards, the farmers option and the player count.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "scenario.hpp"

namespace carc::test {
namespace {

Move place_move(int player, int x, int y, int rot_deg) {
  Move m;
  m.kind = MoveKind::Place;
  m.player = static_cast<u8>(player);
  m.x = static_cast<i8>(x);
  m.y = static_cast<i8>(y);
  m.rot = static_cast<u8>(rot_deg / 90);
  return m;
}

// A copy of the scenario's state with tile `id` drawn by `player`.
State with_drawn(const Scenario& sc, const std::string& id, int player) {
  State t = sc.s;
  t.current = static_cast<u8>(player);
  const bool ok = apply_draw(t, sc.rs->tiles.find(id));
  EXPECT_TRUE(ok) << id;
  return t;
}

std::set<std::tuple<int, int, int>> placements(const State& t) {
  MoveList ml;
  gen_placements(t, ml);
  std::set<std::tuple<int, int, int>> out;
  for (const Move& m : ml) {
    EXPECT_EQ(m.kind, MoveKind::Place);
    out.emplace(m.x, m.y, m.rot * 90);
  }
  EXPECT_EQ(out.size(), ml.size()) << "duplicate placements listed";
  return out;
}

std::string feature_type_name(const State& s, const Move& m) {
  return s.rs->ftype(s.type_of(s.last_placed()).feats[m.feat].type).name;
}

// ---------------------------------------------------------------------------------------------
// Placement legality

TEST(Placement, EdgesMustMatch) {
  Scenario sc(2);
  const State t = with_drawn(sc, "E", 0);
  // north of the start tile: its city must meet a city
  EXPECT_FALSE(is_legal(t, place_move(0, 0, -1, 0)));    // field S against the city
  EXPECT_FALSE(is_legal(t, place_move(0, 0, -1, 90)));
  EXPECT_FALSE(is_legal(t, place_move(0, 0, -1, 270)));
  EXPECT_TRUE(is_legal(t, place_move(0, 0, -1, 180)));   // city S against the city
  // east of it: the road must meet a road
  EXPECT_FALSE(is_legal(t, place_move(0, 1, 0, 0)));
  const State u = with_drawn(sc, "U", 0);
  EXPECT_FALSE(is_legal(u, place_move(0, 1, 0, 0)));     // field W against the road
  EXPECT_TRUE(is_legal(u, place_move(0, 1, 0, 90)));
  EXPECT_TRUE(is_legal(u, place_move(0, 1, 0, 270)));    // the same picture
  EXPECT_FALSE(is_legal(u, place_move(0, 0, 1, 0)));     // road N against the field
  EXPECT_TRUE(is_legal(u, place_move(0, 0, 1, 90)));
}

TEST(Placement, MustTouchAndCellMustBeFree) {
  Scenario sc(2);
  const State t = with_drawn(sc, "B", 0);
  EXPECT_TRUE(is_legal(t, place_move(0, 0, 1, 0)));
  EXPECT_FALSE(is_legal(t, place_move(0, 0, 0, 0)));     // occupied by the start tile
  EXPECT_FALSE(is_legal(t, place_move(0, 1, 1, 0)));     // corner contact only
  EXPECT_FALSE(is_legal(t, place_move(0, 0, 2, 0)));     // touches nothing
  EXPECT_FALSE(is_legal(t, place_move(0, 5, -7, 0)));
  EXPECT_FALSE(is_legal(t, place_move(1, 0, 1, 0)));     // not this player's decision
  Move piece;
  piece.kind = MoveKind::Piece;
  piece.feat = 0;
  EXPECT_FALSE(is_legal(t, piece));                      // a tile must be placed first
}

TEST(Placement, GameExplainsIllegalPlacements) {
  auto rs = base_rules();
  // a scripted record: the first draw is B, so player 1 must place B
  Record r;
  r.players = {{"a", ""}, {"b", ""}};
  r.draws = {"B", "U"};
  Game g = Game::replay(r);
  ASSERT_EQ(g.state().phase, Phase::Place);
  auto message = [&](int x, int y, int rot) {
    try {
      g.play(g.placement(x, y, rot));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message(0, 0, 0).find("already holds a tile"), std::string::npos);
  EXPECT_NE(message(3, 3, 0).find("touches no placed tile"), std::string::npos);
  EXPECT_NE(message(0, -1, 0).find("does not fit"), std::string::npos);
  EXPECT_THROW(g.placement(0, 1, 45), InputError);
  EXPECT_THROW(g.placement(500, 1, 0), InputError);
  EXPECT_EQ(message(0, 1, 0), "accepted");
}

// Part by part: a side whose thirds hold the same terrains in another order does not match.
// Uses a small custom game with a second field-like terrain ("lake") so that thirds can differ.
TEST(Placement, SidesMatchPartByPart) {
  static const GameDef game = [] {
    GameDef g = *find_game("base");
    g.id = "lakes";
    g.ftypes.push_back({"lake", FClass::Field, 4, true, 0, 0, 0, 0});
    return g;
  }();
  const std::string text = R"({
    "format": "carcassonne-tiles/1", "game": "lakes", "total_tiles": 5,
    "start": [{"tile": "S0", "x": 0, "y": 0, "rot": 0}],
    "tiles": [
      {"id": "S0", "count": 1, "features": [
        {"type": "field", "ports": ["NNW","N","ENE","E","ESE","SSE","S","SSW","WSW","W","WNW"]},
        {"type": "lake", "ports": ["NNE"]}]},
      {"id": "T1", "count": 2, "features": [
        {"type": "field", "ports": ["NNW","N","NNE","ENE","E","ESE","S","SSW","WSW","W","WNW"]},
        {"type": "lake", "ports": ["SSE"]}]},
      {"id": "T2", "count": 2, "features": [
        {"type": "field", "ports": ["NNW","N","NNE","ENE","E","ESE","SSE","S","WSW","W","WNW"]},
        {"type": "lake", "ports": ["SSW"]}]}
    ]})";
  TileSet ts = parse_tileset(text, "lakes.json", game.ftypes);
  auto rs = make_ruleset(game, std::move(ts), {});
  State s;
  init_state(s, *rs, 2);
  // T1's lake in the east third of its S side meets S0's lake in the east third of its N side
  State t1 = s;
  ASSERT_TRUE(apply_draw(t1, rs->tiles.find("T1")));
  EXPECT_TRUE(is_legal(t1, place_move(0, 0, -1, 0)));
  for (int r : {90, 180, 270}) EXPECT_FALSE(is_legal(t1, place_move(0, 0, -1, r))) << r;
  // T2's lake is in the west third: the same terrains on that side, in the wrong parts
  State t2 = s;
  ASSERT_TRUE(apply_draw(t2, rs->tiles.find("T2")));
  for (int r : {0, 90, 180, 270}) EXPECT_FALSE(is_legal(t2, place_move(0, 0, -1, r))) << r;
  EXPECT_TRUE(is_legal(t2, place_move(0, 1, 0, 0)));     // elsewhere it fits
  MoveList ml;
  gen_placements(t2, ml);
  for (const Move& m : ml) EXPECT_FALSE(m.x == 0 && m.y == -1);
}

// A symmetric tile lists each distinct picture once.
TEST(Placement, DistinctRotations) {
  auto rs = base_rules();
  const std::map<std::string, int> want = {
      {"A", 4}, {"B", 1}, {"C", 1}, {"D", 4}, {"E", 4}, {"F", 2}, {"G", 2}, {"H", 2},
      {"I", 4}, {"J", 4}, {"K", 4}, {"L", 4}, {"M", 4}, {"N", 4}, {"O", 4}, {"P", 4},
      {"Q", 4}, {"R", 4}, {"S", 4}, {"T", 4}, {"U", 2}, {"V", 4}, {"W", 4}, {"X", 1}};
  ASSERT_EQ(rs->tiles.types.size(), want.size());
  for (const auto& [id, n] : want) {
    const int t = rs->tiles.find(id);
    ASSERT_GE(t, 0) << id;
    EXPECT_EQ(rs->tiles.types[static_cast<std::size_t>(t)].nrots, n) << id;
  }
}

// gen_placements on the start position (only D at 0,0): exact lists.
TEST(Placement, GenPlacementsOnTheStartPosition) {
  Scenario sc(2);
  using P = std::set<std::tuple<int, int, int>>;
  EXPECT_EQ(placements(with_drawn(sc, "C", 0)), (P{{0, -1, 0}}));
  EXPECT_EQ(placements(with_drawn(sc, "B", 0)), (P{{0, 1, 0}}));
  EXPECT_EQ(placements(with_drawn(sc, "X", 0)), (P{{1, 0, 0}, {-1, 0, 0}}));
  EXPECT_EQ(placements(with_drawn(sc, "U", 0)), (P{{1, 0, 90}, {-1, 0, 90}, {0, 1, 90}}));
  EXPECT_EQ(placements(with_drawn(sc, "I", 0)), (P{{0, -1, 180}, {0, -1, 270}, {0, 1, 180}, {0, 1, 270}}));
  EXPECT_EQ(placements(with_drawn(sc, "E", 0)), (P{{0, -1, 180}, {0, 1, 90}, {0, 1, 180}, {0, 1, 270}}));
  EXPECT_EQ(placements(with_drawn(sc, "D", 0)).size(), 6u);
  // H (two city edges on opposite sides) looks the same after a half turn
  EXPECT_EQ(placements(with_drawn(sc, "H", 0)), (P{{0, -1, 0}, {0, 1, 90}}));
  EXPECT_EQ(placements(with_drawn(sc, "F", 0)), (P{{0, -1, 90}, {0, 1, 0}}));
}

// ---------------------------------------------------------------------------------------------
// Features

TEST(Features, MonkScoresWhenItsTileCompletesTheMonastery) {
  Scenario sc(2);
  sc.place("U", -1, 0, 90, 1);
  sc.place("U", 1, 0, 90, 1);
  sc.place("B", -1, 1, 0, 1);
  sc.place("B", 1, 1, 0, 1);
  sc.place("E", -1, 2, 180, 1);
  sc.place("E", 1, 2, 180, 1);
  sc.place("E", 0, 2, 180, 1);
  const auto ev = sc.place("B", 0, 1, 0, 0, "C");   // into the hole: all 8 neighbours present
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].player, 0);
  EXPECT_EQ(ev[0].points, 9);
  EXPECT_EQ(ev[0].reason, ScoreReason::Completed);
  EXPECT_EQ(sc.s.supply[0], 7);
  EXPECT_TRUE(sc.s.pieces.empty());
}

TEST(Features, JoiningTwoClaimedFeaturesKeepsBothFollowers) {
  Scenario sc(2);
  sc.place("N", 0, -1, 90, 0, "S");   // player 0's knight: start city + N
  sc.place("D", 1, 0, 0, 1, "N");     // player 1's knight: a separate city edge
  const auto ev = sc.place("R", 1, -1, 180, 0);   // joins them, stays open to the east
  EXPECT_TRUE(ev.empty());
  ASSERT_EQ(sc.s.pieces.size(), 2u);
  EXPECT_EQ(sc.s.graph.find(sc.s.pieces[0].seg), sc.s.graph.find(sc.s.pieces[1].seg));
  const FeatureInfo fi = feature_info(sc.s, sc.s.pieces[0].seg);
  EXPECT_FALSE(fi.closed);
  EXPECT_EQ(fi.tiles, 4);
  EXPECT_EQ(fi.pieces[0], 1);
  EXPECT_EQ(fi.pieces[1], 1);
  EXPECT_EQ(sc.s.supply[0], 6);
  EXPECT_EQ(sc.s.supply[1], 6);
  // nobody may add a knight to the joined city
  EXPECT_FALSE(sc.can_claim("E", 2, -1, 270, 0, "W"));
  EXPECT_FALSE(sc.can_claim("E", 2, -1, 270, 1, "W"));
  // at the end both hold the majority: 4 tiles, no shield
  const auto fin = sc.finish();
  ASSERT_EQ(fin.size(), 2u);
  for (const auto& e : fin) EXPECT_EQ(e.points, 4);
  EXPECT_EQ(sc.score(0), 4);
  EXPECT_EQ(sc.score(1), 4);
}

TEST(Features, MajorityHolderAloneScores) {
  Scenario sc(3);
  sc.place("D", 1, 0, 0, 0, "N");
  sc.place("D", 2, 0, 0, 1, "N");
  sc.place("D", 3, 0, 0, 0, "N");
  sc.place("N", 1, -1, 90, 2);
  sc.place("R", 2, -1, 180, 2);
  const auto ev = sc.place("N", 3, -1, 180, 2);   // closes the city: 6 tiles
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].player, 0);
  EXPECT_EQ(ev[0].points, 12);
  EXPECT_EQ(sc.s.supply[0], 7);
  EXPECT_EQ(sc.s.supply[1], 7);   // the minority's knight comes back too, unscored
}

// Tiles are counted, not segments: a road loop leaving and re-entering one junction tile.
TEST(Features, RoadLoopCountsTheJunctionTileOnce) {
  Scenario sc(2);
  sc.place("W", 1, 0, 0, 1);          // junction: roads W (to the start tile), E, S
  sc.place("V", 2, 0, 0, 0, "W");     // robber on the loop
  sc.place("V", 2, 1, 90, 1);
  const auto ev = sc.place("V", 1, 1, 180, 1);   // back into the junction's S road
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].player, 0);
  EXPECT_EQ(ev[0].tiles, 4);
  EXPECT_EQ(ev[0].points, 4);         // 5 road segments on 4 tiles
  EXPECT_EQ(sc.s.supply[0], 7);
}

TEST(Features, RoadsEndAtJunctionsCitiesAndMonasteries) {
  Scenario sc(2);
  sc.place("X", 1, 0, 0, 0, "N");     // crossing: four separate roads; robber on the north one
  const PlacedTile x = sc.s.tiles[1];
  std::set<int> roots;
  for (const char* p : {"N", "E", "S", "W"}) roots.insert(sc.s.graph.find(x.seg0 + feature_at_port(sc.s, x, p)));
  EXPECT_EQ(roots.size(), 4u);
  // the north road runs into the city of an S tile: closed, 2 tiles
  auto ev = sc.place("S", 1, -1, 0, 1);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].player, 0);
  EXPECT_EQ(ev[0].points, 2);
  // the south road runs into a monastery: closed by the tile carrying the robber
  ev = sc.place("A", 1, 1, 180, 1, "N");
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].player, 1);
  EXPECT_EQ(ev[0].points, 2);
  // the west road joined the start tile's road, still open at its west end
  const FeatureInfo w = feature_info(sc.s, x.seg0 + feature_at_port(sc.s, x, "W"));
  EXPECT_FALSE(w.closed);
  EXPECT_EQ(w.tiles, 2);
}

// ---------------------------------------------------------------------------------------------
// Field-city adjacency of every tile type, against the reference tile data

TEST(Fields, BordersMatchTheReferenceForEveryTileType) {
  const std::string path = CARC_SOURCE_DATA_DIR "/../../shared/reference/tiles/base.json";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no reference tile data at " << path;
  std::ifstream in(path);
  const nlohmann::json ref = nlohmann::json::parse(in);
  auto rs = base_rules();
  const std::array<const char*, 4> sides = {"N", "E", "S", "W"};
  int checked_fields = 0;
  ASSERT_EQ(ref.at("tiles").size(), 24u);
  for (const auto& rt : ref.at("tiles")) {
    const std::string id = rt.at("id");
    const int t = rs->tiles.find(id);
    ASSERT_GE(t, 0) << id;
    const TileType& tt = rs->tiles.types[static_cast<std::size_t>(t)];
    // reference label -> our local feature, through the canonical ports
    std::map<std::string, int> local;
    for (int s = 0; s < 4; ++s)
      for (int i = 0; i < 3; ++i) {
        const std::string label = rt.at("edges").at(sides[static_cast<std::size_t>(s)]).at(static_cast<std::size_t>(i));
        const int f = tt.rot[0].port_feat[static_cast<std::size_t>(3 * s + i)];
        auto [it, fresh] = local.emplace(label, f);
        EXPECT_EQ(it->second, f) << id << " label " << label << " spans two of our features";
      }
    for (const auto& [label, f] : local) {
      const auto& rf = rt.at("features").at(label);
      EXPECT_EQ(rs->ftype(tt.feats[static_cast<std::size_t>(f)].type).name, rf.at("type").get<std::string>()) << id << " " << label;
      if (rf.at("type") != "field") continue;
      ++checked_fields;
      u16 want = 0;
      for (const auto& c : rf.at("adjacent_cities")) want = static_cast<u16>(want | (1u << local.at(c.get<std::string>())));
      EXPECT_EQ(tt.feats[static_cast<std::size_t>(f)].borders, want) << "tile " << id << " field " << label;
    }
    // no field of ours lacks a reference label
    for (int f = 0; f < tt.nfeat; ++f) {
      if (rs->ftype(tt.feats[static_cast<std::size_t>(f)].type).name != "field") continue;
      bool found = false;
      for (const auto& [label, g] : local) found |= g == f;
      EXPECT_TRUE(found) << id << " field " << f;
    }
  }
  EXPECT_GE(checked_fields, 40);
}

// The engine uses the borders tile by tile: the field of every city-bearing tile type scores the
// completed city on that tile. For each type with a city, complete a city through it with a
// farmer on the bordering field and check the farm score.
TEST(Fields, FarmerBesideAClosedCityOnEachTileShape) {
  // E at 0,-1 closes the start city; the field of E borders it (checked by farm scoring)
  {
    Scenario sc(2);
    sc.place("E", 0, -1, 180, 0, "E");
    const auto fin = sc.finish();
    ASSERT_EQ(fin.size(), 1u);
    EXPECT_EQ(fin[0].points, 3);
    EXPECT_EQ(fin[0].cities, 1);
  }
  // H: two separate cities, one field between them borders both
  {
    Scenario sc(2);
    sc.place("H", 0, -1, 0, 0, "E");       // city S closes the start city; city N open
    sc.place("E", 0, -2, 180, 1);          // closes H's north city
    const auto fin = sc.finish();
    ASSERT_EQ(fin.size(), 1u);
    EXPECT_EQ(fin[0].cities, 2);
    EXPECT_EQ(fin[0].points, 6);
  }
  // U: a road tile's fields border no city, even beside the start tile's closed city
  {
    Scenario sc(2);
    sc.place("E", 0, -1, 180, 1);
    sc.place("U", 1, 0, 90, 0, "S");       // south field: joins the start tile's south field
    const auto fin = sc.finish();
    ASSERT_EQ(fin.size(), 1u);
    EXPECT_EQ(fin[0].cities, 0);
    EXPECT_EQ(fin[0].points, 0);
  }
}

// ---------------------------------------------------------------------------------------------
// Monasteries with missing neighbours

TEST(Monastery, UnfinishedScoresOnePlusNeighbours) {
  Scenario sc(2);
  sc.place("B", 0, 1, 0, 0, "C");          // only the start tile touches it
  {
    Scenario copy = sc;
    const auto fin = copy.finish();
    ASSERT_EQ(fin.size(), 1u);
    EXPECT_EQ(fin[0].points, 2);
    EXPECT_EQ(fin[0].tiles, 2);
  }
  sc.place("U", 1, 0, 90, 1);              // diagonal neighbours count
  sc.place("U", -1, 0, 90, 1);
  const auto fin = sc.finish();
  ASSERT_EQ(fin.size(), 1u);
  EXPECT_EQ(fin[0].points, 4);
  EXPECT_EQ(fin[0].reason, ScoreReason::Final);
  EXPECT_EQ(sc.s.supply[0], 7);
}

TEST(Monastery, NeighbourMonasteriesCountEachOther) {
  Scenario sc(2);
  sc.place("B", 0, 1, 0, 0, "C");
  sc.place("B", 1, 1, 0, 1, "C");
  sc.place("A", -1, 1, 90, 0);             // road W: a monastery with its road leading west
  const auto fin = sc.finish();
  ASSERT_EQ(fin.size(), 2u);
  for (const auto& e : fin) {
    // player 0 (0,1): 0,0; 1,1; -1,1.  player 1 (1,1): 0,0; 0,1
    EXPECT_EQ(e.points, e.player == 0 ? 1 + 3 : 1 + 2);
  }
}

// ---------------------------------------------------------------------------------------------
// Discards

// Once the start city is closed, the all-city tile C fits nowhere.
TEST(Discard, UnplaceableTileIsDiscardedAndTheSamePlayerDrawsAgain) {
  Scenario sc(3);
  {
    // at the start C fits (north of the start tile)
    State t = sc.s;
    EXPECT_TRUE(apply_draw(t, sc.rs->tiles.find("C")));
  }
  sc.place("E", 0, -1, 180, 0);
  ASSERT_EQ(sc.s.current, 1);
  const u16 pile = sc.s.pile, turn = sc.s.turn;
  const int c = sc.rs->tiles.find("C");
  EXPECT_FALSE(apply_draw(sc.s, c));
  EXPECT_EQ(sc.s.pile, pile - 1);
  EXPECT_EQ(sc.s.discards, 1);
  EXPECT_EQ(sc.s.remaining[static_cast<std::size_t>(c)], 0);
  EXPECT_EQ(sc.s.phase, Phase::Draw);
  EXPECT_EQ(sc.s.current, 1);
  EXPECT_EQ(sc.s.turn, turn);
  EXPECT_EQ(sc.s.tiles.size(), 2u);
  // the same player draws again and plays
  sc.place("U", 1, 0, 90, 1);
  EXPECT_EQ(sc.s.current, 2);
}

TEST(Discard, GameRecordsTheDiscardAndTheSamePlayerPlaysNext) {
  Record r;
  r.players = {{"a", ""}, {"b", ""}};
  r.draws = {"E", "C", "U"};
  RecordMove m1;
  m1.player = 0;
  m1.tile = "E";
  m1.x = 0;
  m1.y = -1;
  m1.rot = 180;
  RecordMove m2;
  m2.player = 1;
  m2.tile = "U";
  m2.x = 1;
  m2.y = 0;
  m2.rot = 90;
  r.moves = {m1, m2};
  Game g = Game::replay(r);
  EXPECT_EQ(g.state().discards, 1);
  EXPECT_EQ(g.state().turn, 2);
  EXPECT_TRUE(g.stalled());
  EXPECT_EQ(g.state().current, 0);
  // a record that gives the move after the discard to the other player is rejected
  Record bad = r;
  bad.moves[1].player = 0;
  EXPECT_THROW(Game::replay(bad), InputError);
}

TEST(Discard, DiscardingTheLastTileEndsTheGame) {
  Scenario sc(2);
  sc.place("B", 0, 1, 0, 0, "C");
  sc.place("E", 0, -1, 180, 1);
  const int c = sc.rs->tiles.find("C");
  sc.s.remaining.fill(0);
  sc.s.remaining[static_cast<std::size_t>(c)] = 1;
  sc.s.pile = 1;
  EventSink ev;
  EXPECT_FALSE(apply_draw(sc.s, c, &ev));
  EXPECT_EQ(sc.s.phase, Phase::Over);
  EXPECT_EQ(sc.s.pile, 0);
  ASSERT_EQ(ev.size(), 1u);                  // final scoring ran: the monk's 1 + 1 neighbour
  EXPECT_EQ(ev[0].points, 2);
  EXPECT_EQ(sc.s.supply[0], 7);
}

// ---------------------------------------------------------------------------------------------
// The farmers option

TEST(Options, FarmersOffOffersNoFieldAndScoresNoField) {
  Scenario on(2), off(2, {"farmers=off"});
  EXPECT_TRUE(on.rs->farmers);
  EXPECT_FALSE(off.rs->farmers);
  EXPECT_EQ(off.rs->options.at("farmers"), "off");
  for (Scenario* sc : {&on, &off}) {
    State t = with_drawn(*sc, "E", 0);
    apply_move(t, place_move(0, 0, -1, 180));
    MoveList ml;
    legal_moves(t, ml);
    int fields = 0, cities = 0;
    for (const Move& m : ml) {
      if (m.kind != MoveKind::Piece) continue;
      (feature_type_name(t, m) == "field" ? fields : cities)++;
    }
    EXPECT_EQ(cities, 1);
    EXPECT_EQ(fields, sc == &on ? 1 : 0);
    Move farmer;
    farmer.kind = MoveKind::Piece;
    farmer.feat = static_cast<u8>(feature_at_port(t, t.last_placed(), "N"));
    farmer.x = t.last_placed().x;
    farmer.y = t.last_placed().y;
    EXPECT_EQ(is_legal(t, farmer), sc == &on);
  }
  // the same farmer, scored under each option (the state is moved to the farmers-off rules)
  on.place("E", 0, -1, 180, 0, "N");
  Scenario moved = on;
  moved.rs = off.rs;
  moved.s.rs = off.rs.get();
  EXPECT_EQ(points(on.finish(), 0), 3);
  EXPECT_TRUE(moved.finish().empty());
  EXPECT_EQ(moved.score(0), 0);
}

TEST(Options, FarmersOffWholeGameHasNoFarmEvents) {
  auto rs = base_rules({"farmers=off"});
  for (u64 seed = 1; seed <= 20; ++seed) {
    State s;
    init_state(s, *rs, 3);
    Rng rng(seed);
    EventSink ev;
    MoveList ml;
    while (s.phase != Phase::Over) {
      if (s.phase == Phase::Draw) {
        apply_draw(s, sample_draw(s, rng), &ev);
        continue;
      }
      legal_moves(s, ml);
      for (const Move& m : ml) {
        if (m.kind == MoveKind::Piece) {
          EXPECT_NE(feature_type_name(s, m), "field");
        }
      }
      apply_move(s, ml[rng.below(static_cast<u32>(ml.size()))], &ev);
    }
    for (const auto& e : ev) EXPECT_NE(e.reason, ScoreReason::Farm);
  }
}

TEST(Options, BadOptionsAreRejected) {
  EXPECT_THROW(base_rules({"farmers=maybe"}), InputError);
  EXPECT_THROW(base_rules({"shepherds=on"}), InputError);
  EXPECT_THROW(base_rules({"farmers"}), InputError);
  try {
    base_rules({"farmers=maybe"});
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("maybe"), std::string::npos);
  }
}

// ---------------------------------------------------------------------------------------------
// Player count

TEST(Players, TwoToFiveSupportedOneAndSixRejected) {
  auto rs = base_rules();
  for (int n = 2; n <= 5; ++n) {
    State s;
    init_state(s, *rs, n);
    EXPECT_EQ(s.nplayers, n);
    for (int p = 0; p < n; ++p) EXPECT_EQ(s.supply[static_cast<std::size_t>(p)], 7);
    std::vector<PlayerInfo> players(static_cast<std::size_t>(n), PlayerInfo{"p", "random"});
    Game g(rs, players, 1);
    EXPECT_FALSE(g.over());
  }
  for (int n : {0, 1, 6}) {
    State s;
    EXPECT_THROW(init_state(s, *rs, n), InputError) << n;
    std::vector<PlayerInfo> players(static_cast<std::size_t>(n), PlayerInfo{"p", "random"});
    EXPECT_THROW(Game(rs, players, 1), InputError) << n;
  }
}

// Turns pass in seat order; pieces run out after 7.
TEST(Players, TurnOrderAndSupplyLimit) {
  auto rs = base_rules();
  Game g(rs, {{"a", ""}, {"b", ""}, {"c", ""}}, 3);
  for (int k = 0; k < 9; ++k) {
    ASSERT_FALSE(g.over());
    EXPECT_EQ(g.state().current, k % 3);
    MoveList ml;
    legal_moves(g.state(), ml);
    g.play(ml[0]);
    legal_moves(g.state(), ml);
    g.play(ml[0]);   // always pass
  }
  // a player with an empty supply can only pass
  State s = g.state();
  MoveList ml;
  legal_moves(s, ml);
  apply_move(s, ml[0]);
  s.supply[s.current] = 0;
  legal_moves(s, ml);
  ASSERT_EQ(ml.size(), 1u);
  EXPECT_EQ(ml[0].kind, MoveKind::Pass);
}

}  // namespace
}  // namespace carc::test
