// Every worked example of the base rulebook (../shared/seeds/001_7ef3dbd4d05a29bf.txt) as a built
// position with its exact score. The rulebook's pictures are lost; each position below is built to
// match its caption. Seats: 0 red, 1 blue, 2 yellow, 3 green, 4 black.
//
// Coordinates: x grows east, y grows south; the start tile D lies at 0,0 (city N, road W-E, field S).
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "scenario.hpp"

namespace carc::test {
namespace {

constexpr int kRed = 0, kBlue = 1, kYellow = 2, kGreen = 3, kBlack = 4;

struct Want {
  int player;
  int points;
  ScoreReason reason;
};

// The events must be exactly `want` (as a multiset of player/points/reason).
void expect_events(const EventSink& ev, std::vector<Want> want) {
  std::vector<std::tuple<int, int, int>> got, exp;
  for (const auto& e : ev) got.emplace_back(e.player, e.points, static_cast<int>(e.reason));
  for (const auto& w : want) exp.emplace_back(w.player, w.points, static_cast<int>(w.reason));
  std::sort(got.begin(), got.end());
  std::sort(exp.begin(), exp.end());
  EXPECT_EQ(got, exp);
}

int pieces_of(const State& s, int player) {
  int n = 0;
  for (const auto& pc : s.pieces) n += pc.player == player;
  return n;
}

// Followers conserved and the given supply reached.
void expect_supply(const Scenario& sc, int player, int supply) {
  EXPECT_EQ(sc.s.supply[static_cast<std::size_t>(player)], supply) << "player " << player;
  EXPECT_EQ(sc.s.supply[static_cast<std::size_t>(player)] + pieces_of(sc.s, player), 7) << "player " << player;
}

const char* ftype_name(const Scenario& sc, const ScoreEvent& e) { return sc.rs->ftype(e.ftype).name.c_str(); }

// ---------------------------------------------------------------------------------------------
// Completed roads

// "Red gets 4 points": a road of 4 tiles between two junctions.
TEST(Rulebook, RoadCompletedRedGets4) {
  Scenario sc(2);
  EXPECT_TRUE(sc.place("W", -1, 0, 0, kBlue).empty());        // junction; its E road meets the start tile
  EXPECT_TRUE(sc.place("U", 1, 0, 90, kRed, "E").empty());    // robber on the road
  expect_supply(sc, kRed, 6);
  const auto ev = sc.place("W", 2, 0, 0, kBlue);              // second junction closes the road
  expect_events(ev, {{kRed, 4, ScoreReason::Completed}});
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_STREQ(ftype_name(sc, ev[0]), "road");
  EXPECT_EQ(ev[0].tiles, 4);
  expect_supply(sc, kRed, 7);
  EXPECT_EQ(sc.score(kRed), 4);
  EXPECT_EQ(sc.score(kBlue), 0);
}

// "Red gets 3 points": a road of 3 tiles from a junction to a monastery.
TEST(Rulebook, RoadCompletedRedGets3) {
  Scenario sc(2);
  EXPECT_TRUE(sc.place("L", 1, 0, 0, kBlue).empty());         // junction east of the start tile
  EXPECT_TRUE(sc.place("U", 1, 1, 0, kRed, "N").empty());     // robber on the N-S road below it
  const auto ev = sc.place("A", 1, 2, 180, kBlue);            // the monastery ends the road
  expect_events(ev, {{kRed, 3, ScoreReason::Completed}});
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].tiles, 3);
  expect_supply(sc, kRed, 7);
}

// ---------------------------------------------------------------------------------------------
// Completed cities

// "Red gets 8 points (3 city tiles and 1 shield)".
TEST(Rulebook, CityThreeTilesOneShieldRedGets8) {
  Scenario sc(2);
  EXPECT_TRUE(sc.place("M", 0, -1, 90, kRed, "S").empty());   // shield tile, city E+S, knight
  expect_supply(sc, kRed, 6);
  const auto ev = sc.place("E", 1, -1, 270, kBlue);           // city W closes it
  expect_events(ev, {{kRed, 8, ScoreReason::Completed}});
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_STREQ(ftype_name(sc, ev[0]), "city");
  EXPECT_EQ(ev[0].tiles, 3);
  EXPECT_EQ(ev[0].attr, 1);
  expect_supply(sc, kRed, 7);
}

// "Red gets 8 points (4 city tiles)".
TEST(Rulebook, CityFourTilesRedGets8) {
  Scenario sc(2);
  EXPECT_TRUE(sc.place("N", 0, -1, 90, kRed, "E").empty());   // city E+S, knight
  EXPECT_TRUE(sc.place("N", 1, -1, 180, kBlue).empty());      // city S+W
  const auto ev = sc.place("D", 1, 0, 0, kBlue);              // city N closes it
  expect_events(ev, {{kRed, 8, ScoreReason::Completed}});
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].tiles, 4);
  EXPECT_EQ(ev[0].attr, 0);
  expect_supply(sc, kRed, 7);
}

// "When both parts of a city on one tile belong to the same city, they count as 1 tile, not 2."
// Tile I (two separate city edges) below the start tile; its two city edges are joined into one
// ring-shaped city by three N tiles. 4 tiles (5 city segments): 8 points, not 10.
TEST(Rulebook, TwoPartsOfOneCityOnOneTileCountOnce) {
  Scenario sc(2);
  EXPECT_TRUE(sc.place("I", 0, 1, 180, kRed, "S").empty());   // city edges S and E, knight on S
  EXPECT_TRUE(sc.place("N", 0, 2, 0, kBlue).empty());         // city N+E
  EXPECT_TRUE(sc.place("N", 1, 1, 180, kBlue).empty());       // city S+W
  // before the ring closes, the two city edges of I are still separate features
  const PlacedTile& i_tile = sc.s.tiles[1];
  const int s_part = feature_at_port(sc.s, i_tile, "S"), e_part = feature_at_port(sc.s, i_tile, "E");
  ASSERT_GE(s_part, 0);
  ASSERT_GE(e_part, 0);
  EXPECT_NE(s_part, e_part);
  EXPECT_NE(sc.s.graph.find(i_tile.seg0 + s_part), sc.s.graph.find(i_tile.seg0 + e_part));
  const auto ev = sc.place("N", 1, 2, 270, kBlue);            // city W+N closes the ring
  EXPECT_EQ(sc.s.graph.find(i_tile.seg0 + s_part), sc.s.graph.find(i_tile.seg0 + e_part));
  expect_events(ev, {{kRed, 8, ScoreReason::Completed}});
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].tiles, 4);
  expect_supply(sc, kRed, 7);
}

// "Blue gets 9 points": a monastery surrounded by 8 tiles.
TEST(Rulebook, MonasteryCompletedBlueGets9) {
  Scenario sc(2);
  EXPECT_TRUE(sc.place("B", 0, 1, 0, kBlue, "C").empty());    // monk below the start tile
  EXPECT_TRUE(sc.place("U", -1, 0, 90, kRed).empty());
  EXPECT_TRUE(sc.place("U", 1, 0, 90, kRed).empty());
  EXPECT_TRUE(sc.place("B", -1, 1, 0, kRed).empty());
  EXPECT_TRUE(sc.place("B", 1, 1, 0, kRed).empty());
  EXPECT_TRUE(sc.place("E", -1, 2, 180, kRed).empty());
  EXPECT_TRUE(sc.place("E", 1, 2, 180, kRed).empty());
  expect_supply(sc, kBlue, 6);
  const auto ev = sc.place("E", 0, 2, 180, kRed);             // the eighth neighbour
  expect_events(ev, {{kBlue, 9, ScoreReason::Completed}});
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_STREQ(ftype_name(sc, ev[0]), "monastery");
  expect_supply(sc, kBlue, 7);
  EXPECT_EQ(sc.score(kBlue), 9);
}

// "The new tile joined the city parts into one city. Red and blue get 10 points each, as each
// has the same number of knights in the city." 4 tiles + 1 shield.
TEST(Rulebook, JoiningTileTieBothGet10) {
  Scenario sc(3);
  EXPECT_TRUE(sc.place("N", 0, -1, 90, kRed, "S").empty());   // red's part: start city + N
  EXPECT_TRUE(sc.place("D", 1, 0, 0, kBlue, "N").empty());    // blue's part: a separate city
  expect_supply(sc, kRed, 6);
  expect_supply(sc, kBlue, 6);
  const auto ev = sc.place("M", 1, -1, 180, kYellow);         // shield tile joins and closes both
  expect_events(ev, {{kRed, 10, ScoreReason::Completed}, {kBlue, 10, ScoreReason::Completed}});
  for (const auto& e : ev) {
    EXPECT_EQ(e.tiles, 4);
    EXPECT_EQ(e.attr, 1);
  }
  expect_supply(sc, kRed, 7);
  expect_supply(sc, kBlue, 7);
  EXPECT_EQ(sc.score(kYellow), 0);
}

// A follower placed on a feature the same tile completes scores at once and comes back:
// "Red gets 4 points" (a two-tile city) ...
TEST(Rulebook, FollowerScoresOnTheTurnItIsPlacedCity4) {
  Scenario sc(2);
  const auto ev = sc.place("E", 0, -1, 180, kRed, "S");
  expect_events(ev, {{kRed, 4, ScoreReason::Completed}});
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].tiles, 2);
  expect_supply(sc, kRed, 7);
  EXPECT_TRUE(sc.s.pieces.empty());
}

// ... and "Red gets 3 points" (a three-tile road closed by the tile carrying the robber).
TEST(Rulebook, FollowerScoresOnTheTurnItIsPlacedRoad3) {
  Scenario sc(2);
  EXPECT_TRUE(sc.place("W", -1, 0, 0, kBlue).empty());
  const auto ev = sc.place("W", 1, 0, 180, kRed, "W");         // junction rotated: roads W, N, E
  expect_events(ev, {{kRed, 3, ScoreReason::Completed}});
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].tiles, 3);
  expect_supply(sc, kRed, 7);
  EXPECT_TRUE(sc.s.pieces.empty());
}

// ---------------------------------------------------------------------------------------------
// Placing followers

// "Here blue can only place a farmer, as the city already holds another player's knight."
TEST(Rulebook, BlueCanOnlyPlaceAFarmer) {
  Scenario sc(2);
  sc.place("N", 0, -1, 90, kRed, "S");                        // red knight, city open to the E
  // G (city band W-E, fields N and S) continues red's city
  EXPECT_FALSE(sc.can_claim("G", 1, -1, 0, kBlue, "W"));
  EXPECT_FALSE(sc.can_claim("G", 1, -1, 0, kBlue, "E"));
  EXPECT_TRUE(sc.can_claim("G", 1, -1, 0, kBlue, "N"));
  EXPECT_TRUE(sc.can_claim("G", 1, -1, 0, kBlue, "S"));
  // the list of follower moves after placing it: pass and the two fields only
  State t = sc.s;
  t.current = kBlue;
  ASSERT_TRUE(apply_draw(t, sc.rs->tiles.find("G")));
  Move m;
  m.kind = MoveKind::Place;
  m.player = kBlue;
  m.x = 1;
  m.y = -1;
  m.rot = 0;
  ASSERT_TRUE(is_legal(t, m));
  apply_move(t, m);
  MoveList ml;
  legal_moves(t, ml);
  int pass = 0, fields = 0, other = 0;
  for (const Move& pm : ml) {
    if (pm.kind == MoveKind::Pass) ++pass;
    else if (sc.rs->ftype(t.type_of(t.last_placed()).feats[pm.feat].type).name == "field") ++fields;
    else ++other;
  }
  EXPECT_EQ(pass, 1);
  EXPECT_EQ(fields, 2);
  EXPECT_EQ(other, 0);

  // without red's knight, the same city could be claimed
  Scenario free_city(2);
  free_city.place("N", 0, -1, 90, kRed);
  EXPECT_TRUE(free_city.can_claim("G", 1, -1, 0, kBlue, "W"));
}

// "Red may place a robber or a knight, but no farmer on the big field, where his own farmer
// already stands; he may place a farmer on the small field."
TEST(Rulebook, RedCannotJoinHisOwnFarmerButMayTakeTheSmallField) {
  Scenario sc(2);
  sc.place("E", 0, 1, 180, kRed, "N");  // red farmer on the field south of the start tile
  // J rotated 180: roads W and N, city S; its big field (WSW, NNE, E side) meets the start
  // tile's south field, its small corner (WNW, NNW) meets the start tile's north strip.
  EXPECT_TRUE(sc.can_claim("J", 1, 0, 180, kRed, "W"));     // robber
  EXPECT_TRUE(sc.can_claim("J", 1, 0, 180, kRed, "S"));     // knight
  EXPECT_FALSE(sc.can_claim("J", 1, 0, 180, kRed, "E"));    // big field: red's farmer is there
  EXPECT_FALSE(sc.can_claim("J", 1, 0, 180, kRed, "WSW"));
  EXPECT_FALSE(sc.can_claim("J", 1, 0, 180, kBlue, "E"));   // nor anyone else
  EXPECT_TRUE(sc.can_claim("J", 1, 0, 180, kRed, "NNW"));   // small field: free
  // without the farmer, the big field is free
  Scenario empty(2);
  empty.place("E", 0, 1, 180, kRed);
  EXPECT_TRUE(empty.can_claim("J", 1, 0, 180, kRed, "E"));
}

// "Each of the 3 farmers stands on a separate field, separated by the city and roads. The
// monastery tile joins all 3 fields: the player who places it cannot put a farmer on it."
TEST(Rulebook, MonasteryJoiningThreeFarmedFieldsTakesNoFarmer) {
  Scenario sc(3);
  EXPECT_TRUE(sc.can_claim("B", 0, 1, 0, kRed, "N"));        // at first the field is free
  sc.place("D", 1, 0, 180, kRed, "WSW");   // city S; red farmer on the strip beside it (start field)
  sc.place("D", -1, 0, 180, kBlue);        // city S
  sc.place("E", 1, 1, 0, kBlue, "S");      // closes the east city; blue farmer on its own field
  sc.place("E", -1, 1, 0, kYellow, "S");   // closes the west city; yellow farmer
  // three separate fields around the gap at 0,1
  const int f_red = sc.s.graph.find(sc.s.pieces[0].seg), f_blue = sc.s.graph.find(sc.s.pieces[1].seg),
            f_yel = sc.s.graph.find(sc.s.pieces[2].seg);
  EXPECT_NE(f_red, f_blue);
  EXPECT_NE(f_red, f_yel);
  EXPECT_NE(f_blue, f_yel);
  for (int p : {kRed, kBlue, kYellow}) {
    EXPECT_FALSE(sc.can_claim("B", 0, 1, 0, p, "N")) << p;
    EXPECT_TRUE(sc.can_claim("B", 0, 1, 0, p, "C")) << p;  // the monk is fine
  }
  sc.place("B", 0, 1, 0, kRed, "C");
  const FeatureInfo fi = feature_info(sc.s, sc.s.pieces[0].seg);
  EXPECT_EQ(fi.pieces[kRed], 1);
  EXPECT_EQ(fi.pieces[kBlue], 1);
  EXPECT_EQ(fi.pieces[kYellow], 1);
}

// ---------------------------------------------------------------------------------------------
// Final scoring of unfinished features

// "Red gets 3 points for the unfinished road. Yellow gets 5 points for the unfinished monastery."
TEST(Rulebook, FinalRoadRed3MonasteryYellow5) {
  Scenario sc(3);
  sc.place("U", 1, 0, 90, kRed, "E");      // robber: road start tile + U + U
  sc.place("U", 2, 0, 90, kBlue);
  sc.place("B", 0, 1, 0, kYellow, "C");    // neighbours: 0,0 and 1,0 so far
  sc.place("E", 1, 1, 180, kBlue);
  sc.place("E", 0, 2, 180, kBlue);         // 4 neighbours: 1 + 4 = 5
  const auto ev = sc.finish();
  expect_events(ev, {{kRed, 3, ScoreReason::Final}, {kYellow, 5, ScoreReason::Final}});
  for (int p : {kRed, kBlue, kYellow}) expect_supply(sc, p, 7);
  EXPECT_EQ(sc.score(kRed), 3);
  EXPECT_EQ(sc.score(kYellow), 5);
  EXPECT_EQ(sc.score(kBlue), 0);
}

// "Blue gets 2 points for the unfinished city. Green gets 7 points for another unfinished city.
// Black gets nothing: green has more knights in the big unfinished city."
TEST(Rulebook, FinalCitiesBlue2Green7BlackNothing) {
  Scenario sc(5);
  sc.place("G", 0, -1, 90, kBlue, "N");    // start city + G: 2 tiles, open to the north
  sc.place("D", 1, 0, 0, kGreen, "N");     // three separate city edges along the road
  sc.place("D", 2, 0, 0, kBlack, "N");
  sc.place("D", 3, 0, 0, kGreen, "N");
  sc.place("N", 1, -1, 90, kRed);          // joins them: N(1,-1) + C(2,-1) + N(3,-1)
  sc.place("C", 2, -1, 0, kRed);           // C stays open to the north
  sc.place("N", 3, -1, 180, kRed);
  const FeatureInfo big = feature_info(sc.s, sc.s.tiles[2].seg0);  // D at 1,0, city
  EXPECT_FALSE(big.closed);
  EXPECT_EQ(big.tiles, 6);
  EXPECT_EQ(big.pieces[kGreen], 2);
  EXPECT_EQ(big.pieces[kBlack], 1);
  const auto ev = sc.finish();
  expect_events(ev, {{kBlue, 2, ScoreReason::Final}, {kGreen, 7, ScoreReason::Final}});
  for (int p = 0; p < 5; ++p) expect_supply(sc, p, 7);
  EXPECT_EQ(sc.score(kBlack), 0);
}

// ---------------------------------------------------------------------------------------------
// Farm scoring

// City 1 = start tile + E(0,-1); city 2 = E(1,-1) + E(2,-1); city 3 = E(-1,-1), open.
// Blue's field (north of city 1) borders all three; red's field (east of city 2) borders city 2.
Scenario farm_three_cities() {
  Scenario sc(2);
  sc.place("E", 0, -1, 180, kBlue, "N");   // closes city 1; blue farmer
  sc.place("E", 1, -1, 90, kRed);          // city 2, its field joins blue's
  sc.place("E", 2, -1, 270, kRed, "E");    // closes city 2; red farmer on the field beyond
  sc.place("E", -1, -1, 270, kRed);        // city 3, unfinished, its field joins blue's
  return sc;
}

// "Blue gets 6 points. Red gets 3 points. The unfinished city gives no points to farmers."
TEST(Rulebook, FarmBlue6Red3UnfinishedCityNothing) {
  Scenario sc = farm_three_cities();
  const auto ev = sc.finish();
  expect_events(ev, {{kBlue, 6, ScoreReason::Farm}, {kRed, 3, ScoreReason::Farm}});
  for (const auto& e : ev) EXPECT_EQ(e.cities, e.player == kBlue ? 2 : 1);
  EXPECT_EQ(sc.score(kBlue), 6);
  EXPECT_EQ(sc.score(kRed), 3);
}

// "Blue gets 9 points": the same field once the third city is completed.
TEST(Rulebook, FarmBlue9) {
  Scenario sc = farm_three_cities();
  sc.place("E", -2, -1, 90, kRed);         // closes city 3
  const auto ev = sc.finish();
  expect_events(ev, {{kBlue, 9, ScoreReason::Farm}, {kRed, 3, ScoreReason::Farm}});
}

// City A = start tile + E(0,-1); city B = E(1,-1) + E(2,-1). The big field (north of A) borders
// A and B; the small field (the start tile's strip between city A and the road) borders A only.
// Farmers on the big field were placed on three separate fields joined later by A(1,-2) and
// B(2,-2). `second_red` puts red's second farmer there (2 red vs 1 yellow) or leaves it empty.
Scenario farm_big_and_small(bool second_red) {
  Scenario sc(3);
  sc.place("E", 0, -1, 180, kRed, "N");            // city A closed; red farmer (big field)
  sc.place("U", -1, 0, 90, kBlue, "N");            // blue farmer: small field (start tile's strip)
  sc.place("E", 1, -1, 90, kBlue);                 // city B begins
  sc.place("E", 2, -1, 270, kYellow, "E");         // city B closed; yellow farmer beyond it
  sc.place("U", 0, -2, 90, second_red ? kRed : kBlue, second_red ? "N" : "");  // field north of a road
  sc.place("A", 1, -2, 90, kBlue);                 // the road ends: fields join around it
  sc.place("B", 2, -2, 0, kBlue);                  // joins yellow's field
  return sc;
}

// "Red owns the bigger field (2 farmers against yellow's 1) and gets 6 points, for cities A and
// B. Blue owns the smaller field and gets 3 points for city A."
TEST(Rulebook, FarmMajorityRed6Blue3) {
  Scenario sc = farm_big_and_small(true);
  const FeatureInfo big = feature_info(sc.s, sc.s.pieces[0].seg);
  EXPECT_EQ(big.pieces[kRed], 2);
  EXPECT_EQ(big.pieces[kYellow], 1);
  EXPECT_EQ(big.pieces[kBlue], 0);
  const auto ev = sc.finish();
  expect_events(ev, {{kRed, 6, ScoreReason::Farm}, {kBlue, 3, ScoreReason::Farm}});
  EXPECT_EQ(sc.score(kYellow), 0);
}

// "On the bigger field red and yellow have as many farmers each, so both own it and get 6 points
// each (cities A and B). Blue owns the smaller field: 3 points for city A."
TEST(Rulebook, FarmTieRedAndYellow6Blue3) {
  Scenario sc = farm_big_and_small(false);
  const auto ev = sc.finish();
  expect_events(ev, {{kRed, 6, ScoreReason::Farm}, {kYellow, 6, ScoreReason::Farm}, {kBlue, 3, ScoreReason::Farm}});
}

// "If one completed city borders several fields, it scores 3 for the owner of each": one player
// owning two fields around the same city scores it twice.
TEST(Rulebook, SameCityScoresOncePerField) {
  Scenario sc(2);
  sc.place("E", 0, -1, 180, kRed, "N");    // city A closed; red farmer north of it
  sc.place("U", -1, 0, 90, kRed, "N");     // red farmer on the strip south of it
  const auto ev = sc.finish();
  expect_events(ev, {{kRed, 3, ScoreReason::Farm}, {kRed, 3, ScoreReason::Farm}});
  EXPECT_EQ(sc.score(kRed), 6);
}

}  // namespace
}  // namespace carc::test
