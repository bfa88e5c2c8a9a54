// Carcassonne: Amazonas (../shared/spec/RULES.md section 2; rulebooks ../shared/seeds/000_*.txt,
// Russian, and 003_*.txt, Romanian). Every worked example of the rulebooks as a built position with
// its exact scores and boat moves, then the placement rules of the river front, the "!" tiles and
// their double tiles, the boats' track, and a full game record replayed.
//
// Positions use the shipped (reconstructed) tile set, data/tiles/amazonas.tiles.json; one test uses
// a small inline tile set. The rulebook pictures are lost: each position is built to match its
// caption. Seats: 0 red ("you"), 1 blue, 2 yellow, 3 green, 4 black.
//
// Board: the Amazon runs along row y = 0 from the source S1 at (0,0) east to S4 at (3,0); the land
// row of the start board is y = 1 (S5..S8); y grows to the south, so "north of the river" is y < 0.
// Start board edges used below: S2 (1,0) has a village on its N side (1 fruit); S4 (3,0) has a
// tributary leaving N (it ends at the Amazon); S1 (0,0) has a tributary leaving W (it ends at the
// source); S3 (2,0) and S1 show jungle on their N sides.
//
// Boats are set directly in the state (s.track[p] = space) where a picture's boat positions
// matter; each such setup says so. Passing in a build step moves that player's boat 1, so the
// boats are set after the build, just before the turn of the example.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <set>
#include <utility>

#include "ai/driver.hpp"
#include "games/amazonas/amazonas_state.hpp"
#include "scenario.hpp"
#include "search_support.hpp"

namespace carc::test {
namespace {

constexpr int kRed = 0, kBlue = 1, kYellow = 2, kGreen = 3, kBlack = 4;
constexpr std::array<const char*, 5> kColour = {"red", "blue", "yellow", "green", "black"};

std::shared_ptr<const Ruleset> amazonas_rules(const std::vector<std::string>& opts = {}) {
  return load_ruleset("amazonas", opts);
}

// One event as text, so that a turn's events compare in order and read like the rulebook:
//   "track red +2 @3 cause 3"            boat moved 2 to space 3 (cause: 1 no piece, 2 explorer on
//                                        icons, 3 icons newly connected, 4 nothing in Amazon scoring)
//   "amazon blue 1 rank 2 (3c 1p)"       Amazon scoring: points, rank, caimans and piranhas
//   "mouth red 7 rank 1"                 river mouth at the end
//   "camp blue 3 (3 animals)"            final camp scoring of a jungle
//   "completed tributary red 4 (3 tiles, 1 fruit)" / "final village blue 4 (2 tiles, 2 fruit)"
std::string text(const Ruleset& rs, const ScoreEvent& e) {
  const char* who = kColour[e.player];
  const std::string_view own = reason_name(*rs.game, e);
  switch (e.reason) {
    case ScoreReason::Own:
      if (own == "track") return fmt::format("track {} +{} @{} cause {}", who, e.amount, e.tiles, e.cause);
      if (own == "amazon")
        return fmt::format("amazon {} {} rank {} ({}c {}p)", who, e.points, e.cause, e.tiles, e.attr);
      if (own == "mouth") return fmt::format("mouth {} {} rank {}", who, e.points, e.cause);
      return "not an Amazonas event";
    case ScoreReason::Farm: return fmt::format("camp {} {} ({} animals)", who, e.points, e.attr);
    case ScoreReason::Special:
      return "not an Amazonas event";
    case ScoreReason::Completed:
    case ScoreReason::Final:
      return fmt::format("{} {} {} {} ({} tiles, {} fruit)", e.reason == ScoreReason::Completed ? "completed" : "final",
                         rs.ftype(e.ftype).name, who, e.points, e.tiles, e.attr);
  }
  return "?";
}

std::vector<std::string> texts(const Scenario& sc, const EventSink& ev) {
  std::vector<std::string> out;
  for (const auto& e : ev) out.push_back(text(*sc.rs, e));
  return out;
}

using Lines = std::vector<std::string>;

void set_boats(Scenario& sc, std::initializer_list<int> spaces) {
  int p = 0;
  for (const int v : spaces) sc.s.track[static_cast<std::size_t>(p++)] = static_cast<u8>(v);
}

int boat(const Scenario& sc, int p) { return sc.s.track[static_cast<std::size_t>(p)]; }

int type_id(const Scenario& sc, const std::string& id) { return sc.rs->tiles.find(id); }

Move piece_move(const State& s, int x, int y, const std::string& port) {
  Move m;
  m.kind = MoveKind::Piece;
  m.player = s.current;
  m.x = static_cast<i8>(x);
  m.y = static_cast<i8>(y);
  const int ti = s.placed_at(x, y);
  m.feat = static_cast<u8>(ti < 0 ? 0xFF : feature_at_port(s, s.tiles[static_cast<std::size_t>(ti)], port));
  return m;
}

Move place_move(int player, int x, int y, int rot_quarters) {
  Move m;
  m.kind = MoveKind::Place;
  m.player = static_cast<u8>(player);
  m.x = static_cast<i8>(x);
  m.y = static_cast<i8>(y);
  m.rot = static_cast<u8>(rot_quarters);
  return m;
}

Move pass_move(const State& s) {
  Move m;
  m.player = s.current;
  return m;
}

std::set<std::pair<int, int>> cells_of(const MoveList& ml) {
  std::set<std::pair<int, int>> out;
  for (const Move& m : ml) out.insert({m.x, m.y});
  return out;
}

// =============================================================================================
// The rulebooks' worked examples
// =============================================================================================

// "You place your piece on the tile just placed, since the tributary holds no other explorer. The
// boat symbol means your boat moves 1 space down the river."
// L28 (straight tributary N-S, 1 boat icon) north of S4 continues S4's tributary, which has none.
TEST(AmazonasRulebook, ExplorerOnTributaryWithOneBoatIconMovesBoat1) {
  Scenario sc(amazonas_rules(), 2);
  const auto ev = sc.place("L28", 3, -1, 0, kRed, "N");
  EXPECT_EQ(texts(sc, ev), (Lines{"track red +1 @2 cause 2"}));
  EXPECT_EQ(boat(sc, kRed), 2);
  EXPECT_EQ(boat(sc, kBlue), 1);
  EXPECT_EQ(sc.s.supply[kRed], 3);
}

// Builds your tributary S4 + L30 (no icons, your explorer) open to the north at (3,-2), and west of
// it a separate tributary through L02 (village N, tributary W-E with 1 boat icon) at (2,-2), which
// ends open at (3,-2). With two_l02, a second L02 at (1,-2) continues it west (2 icons).
// Filler: L05 at (2,-1) turned 270 (village W, jungle N/E/S) so that (2,-2) can be reached.
void build_two_tributaries_north(Scenario& sc, bool two_l02) {
  sc.place("L30", 3, -1, 0, kRed, "N");     // your explorer on S4 + L30
  sc.place("L05", 2, -1, 270, kBlue);       // filler
  sc.place("L02", 2, -2, 0, kBlue);         // 1 boat icon, nobody on it
  if (two_l02) sc.place("L02", 1, -2, 0, kBlue);  // 1 more boat icon on the same tributary
}

// "By adding this tile to your tributary you connect your piece to three boat symbols and move 3
// spaces down the river." L31 (curve S-W, 1 icon) joins your tributary to the L02-L02 tributary
// (2 icons): 3 icons newly connected. You place a camp on L31, so no boat move for passing.
TEST(AmazonasRulebook, TileConnectingThreeBoatIconsMovesBoat3) {
  Scenario sc(amazonas_rules(), 2);
  build_two_tributaries_north(sc, true);
  set_boats(sc, {1, 1});  // position: both boats at the source
  const auto ev = sc.place("L31", 3, -2, 0, kRed, "N");  // camp in L31's big jungle
  EXPECT_EQ(texts(sc, ev), (Lines{"track red +3 @4 cause 3"}));
  EXPECT_EQ(boat(sc, kRed), 4);
  EXPECT_EQ(boat(sc, kBlue), 1);
  EXPECT_EQ(sc.s.supply2[kRed], 1);
}

// "Your piece already stands on this tributary. You add a tile that connects your piece to two boat
// symbols: your boat moves 2. Since you chose not to place an explorer or a camp, it moves 1 more.
// In all: 3 spaces."
TEST(AmazonasRulebook, TwoIconsConnectedAndNoPieceMoves2Plus1) {
  Scenario sc(amazonas_rules(), 2);
  build_two_tributaries_north(sc, false);
  set_boats(sc, {1, 1});  // position: both boats at the source
  const auto ev = sc.place("L31", 3, -2, 0, kRed);  // no piece
  EXPECT_EQ(texts(sc, ev), (Lines{"track red +2 @3 cause 3", "track red +1 @4 cause 1"}));
  EXPECT_EQ(boat(sc, kRed), 4);
  EXPECT_EQ(boat(sc, kBlue), 1);
}

// "Your opponent places the tile, but your tributary is completed all the same. Your tributary runs
// through 3 tiles and has 1 fruit symbol: you get 4 points." S4 (ends at the Amazon) + L29
// (straight, 1 fruit, your explorer) + L27 (the tributary ends at a village), placed by blue.
TEST(AmazonasRulebook, TributaryOf3TilesAnd1FruitCompletedByOpponentScores4) {
  Scenario sc(amazonas_rules(), 2);
  EXPECT_TRUE(sc.place("L29", 3, -1, 0, kRed, "N").empty());
  EXPECT_EQ(sc.s.supply[kRed], 3);
  set_boats(sc, {1, 1});  // position: both boats at the source
  const auto ev = sc.place("L27", 3, -2, 0, kBlue);  // blue passes: blue's boat moves 1
  EXPECT_EQ(texts(sc, ev), (Lines{"track blue +1 @2 cause 1", "completed tributary red 4 (3 tiles, 1 fruit)"}));
  EXPECT_EQ(sc.score(kRed), 4);
  EXPECT_EQ(sc.score(kBlue), 0);
  EXPECT_EQ(sc.s.supply[kRed], 4);  // the explorer is back in supply
  EXPECT_TRUE(sc.s.pieces.empty());
}

// "You get 7 points for this village: 2 per tile and 1 for the fruit symbol." S2's village (1 fruit)
// + L09 turned 90 (village band N-S, your explorer) + L07 turned 180 (village S) closes it.
TEST(AmazonasRulebook, VillageOf3TilesAnd1FruitScores7) {
  Scenario sc(amazonas_rules(), 2);
  EXPECT_TRUE(sc.place("L09", 1, -1, 90, kRed, "S").empty());
  set_boats(sc, {1, 1});  // position: both boats at the source
  const auto ev = sc.place("L07", 1, -2, 180, kRed);
  EXPECT_EQ(texts(sc, ev), (Lines{"track red +1 @2 cause 1", "completed village red 7 (3 tiles, 1 fruit)"}));
  EXPECT_EQ(sc.score(kRed), 7);
  EXPECT_EQ(sc.s.supply[kRed], 4);
}

// "You have just placed this tile. You cannot place a camp in the lower jungle, because there is
// already a blue camp in that jungle. But you can place a camp in the upper part, since that piece
// of jungle is separated by a tributary and a village."
// Blue's camp: L34 at (0,2) in the jungle south of the start board, which runs up through S5 into
// S1's south bank. Your tile: L02 (village N, tributary W-E) at (-1,0): its lower jungle meets S1's
// south bank (blue's jungle); its upper strip, between the village and the tributary, meets S1's
// north bank (no camp).
TEST(AmazonasRulebook, CampOnlyInTheJungleWithoutACamp) {
  Scenario sc(amazonas_rules(), 2);
  sc.place("L34", 0, 2, 0, kBlue, "N");  // blue camp
  EXPECT_EQ(sc.s.supply2[kBlue], 1);
  EXPECT_FALSE(sc.can_claim("L02", -1, 0, 0, kRed, "S"));    // lower jungle: blue camp there
  EXPECT_FALSE(sc.can_claim("L02", -1, 0, 0, kRed, "SSW"));  // (the same jungle)
  EXPECT_TRUE(sc.can_claim("L02", -1, 0, 0, kRed, "ENE"));   // upper jungle strip
  EXPECT_TRUE(sc.can_claim("L02", -1, 0, 0, kRed, "N"));     // an explorer in the village
  EXPECT_TRUE(sc.can_claim("L02", -1, 0, 0, kRed, "W"));     // or on the tributary
  // the listed piece moves of that tile: pass, village, upper jungle, tributary (not the lower jungle)
  State t = sc.s;
  t.current = kRed;
  ASSERT_TRUE(apply_draw(t, type_id(sc, "L02")));
  apply_move(t, place_move(kRed, -1, 0, 0));
  MoveList ml;
  legal_moves(t, ml);
  std::set<std::string> spots;
  for (const Move& m : ml)
    spots.insert(m.kind == MoveKind::Pass ? "pass" : t.rs->ftype(t.type_of(t.last_placed()).feats[m.feat].type).name + "@" +
                                                         feature_port(t, t.last_placed(), m.feat));
  EXPECT_EQ(spots, (std::set<std::string>{"pass", "village@N", "jungle@ENE", "tributary@E"}));
  // and the camp in the upper jungle is placed (a piece placed: no boat move; L02's boat icon joins
  // S1's tributary, which holds no explorer)
  EXPECT_TRUE(sc.place("L02", -1, 0, 0, kRed, "ENE").empty());
  EXPECT_EQ(sc.s.supply2[kRed], 1);
}

// "You add an Amazon tile. Since you chose not to place an explorer or a camp, your boat moves 1
// space down the river and so gets ahead." All three boats start on space 1; you pass (boat to 2),
// then the Amazon scoring of A02 (1 caiman, 1 piranha): you alone 1st get 2, the others tied 2nd
// get 1 each; nobody scored nothing, so nobody else moves.
TEST(AmazonasRulebook, AmazonTileWithoutPieceMovesBoat1) {
  Scenario sc(amazonas_rules(), 3);
  const auto ev = sc.place("A02", 4, 0, 0, kRed);
  EXPECT_EQ(texts(sc, ev), (Lines{"track red +1 @2 cause 1", "amazon red 2 rank 1 (1c 1p)", "amazon blue 1 rank 2 (1c 1p)",
                                  "amazon yellow 1 rank 2 (1c 1p)"}));
  EXPECT_EQ(sc.s.track_len, 17);  // 16 spaces (2-3 players side) + 1
  EXPECT_EQ(amazonas_state(sc.s).front, 4);
}

// "The tile just placed shows 3 caimans and 1 piranha. Since you are 1st you get 4 points (3 + 1).
// Blue and green are both 2nd: 1 point each for the piranha. Yellow scored nothing: its boat moves
// 1 space." 4 players; A10 (3 caimans, 1 piranha); you place a camp on its north bank.
TEST(AmazonasRulebook, AmazonScoring3Caimans1Piranha4Players) {
  Scenario sc(amazonas_rules(), 4);
  EXPECT_EQ(sc.s.track_len, 8);  // 4-5 players side
  set_boats(sc, {5, 3, 2, 3});   // position: red 5 (1st), blue and green 3 (2nd), yellow 2 (3rd)
  const auto ev = sc.place("A10", 4, 0, 0, kRed, "N");
  EXPECT_EQ(texts(sc, ev), (Lines{"amazon red 4 rank 1 (3c 1p)", "amazon blue 1 rank 2 (3c 1p)",
                                  "amazon green 1 rank 2 (3c 1p)", "track yellow +1 @3 cause 4"}));
  EXPECT_EQ(sc.score(kRed), 4);
  EXPECT_EQ(sc.score(kBlue), 1);
  EXPECT_EQ(sc.score(kGreen), 1);
  EXPECT_EQ(sc.score(kYellow), 0);
  EXPECT_EQ(boat(sc, kYellow), 3);
  EXPECT_EQ(boat(sc, kRed), 5);
  EXPECT_EQ(sc.s.track_len, 9);
}

// "Before your turn you and blue each had an explorer on two different tributaries. You place a tile
// joining them. First the boat symbols: your boat moves 2 (plus 1 since you placed no explorer or
// camp); blue's moves 1 (only 1 new symbol). The tributary is completed: you both get 5 points (4
// tiles and 1 fruit)."
// Yours: S4 + L29 (straight, 1 fruit) at (3,-1). Blue's: L39 turned 270 at (2,-2), a tributary from
// a rock leaving E with 1 boat icon. The joining tile: L31 (curve S-W, 1 icon) at (3,-2). New to
// you: L39's icon + L31's = 2; new to blue: L31's = 1. Filler L05 (village W) at (2,-1).
TEST(AmazonasRulebook, TwoTributariesJoinedBothScore5) {
  Scenario sc(amazonas_rules(), 2);
  sc.place("L29", 3, -1, 0, kRed, "N");
  sc.place("L05", 2, -1, 270, kBlue);
  const auto blue_ev = sc.place("L39", 2, -2, 270, kBlue, "E");
  EXPECT_EQ(texts(sc, blue_ev), (Lines{"track blue +1 @3 cause 2"}));  // blue's explorer on 1 icon
  set_boats(sc, {1, 1});  // position: both boats at the source
  const auto ev = sc.place("L31", 3, -2, 0, kRed);
  EXPECT_EQ(texts(sc, ev), (Lines{"track red +2 @3 cause 3", "track blue +1 @2 cause 3", "track red +1 @4 cause 1",
                                  "completed tributary red 5 (4 tiles, 1 fruit)",
                                  "completed tributary blue 5 (4 tiles, 1 fruit)"}));
  EXPECT_EQ(boat(sc, kRed), 4);
  EXPECT_EQ(boat(sc, kBlue), 2);
  EXPECT_EQ(sc.score(kRed), 5);
  EXPECT_EQ(sc.score(kBlue), 5);
  EXPECT_EQ(sc.s.supply[kRed], 4);
  EXPECT_EQ(sc.s.supply[kBlue], 4);
}

// "Before your turn the three pieces stood in three different villages. You place a tile joining
// all three into one big completed village. You have more pieces in it, so only you score; blue
// gets nothing. You get 13 points (10 for 5 village tiles and 3 for 3 fruit symbols)."
// West village: S2 (1 fruit) + L18 turned 90 (village E+S, 1 fruit) at (1,-1), your explorer.
// North village: L06 turned 180 (village S, 1 fruit) at (2,-2), your explorer.
// East village: L15 turned 270 (village W; its tributary continues S4's) at (3,-1), blue's explorer.
// The joining tile: L24 (village N, E, W) at (2,-1). Filler L07 turned 90 at (3,-2) so that (2,-2)
// can be reached.
TEST(AmazonasRulebook, ThreeVillagesJoinedMajorityScores13) {
  Scenario sc(amazonas_rules(), 2);
  sc.place("L18", 1, -1, 90, kRed, "E");
  sc.place("L15", 3, -1, 270, kBlue, "W");
  sc.place("L07", 3, -2, 90, kBlue);
  sc.place("L06", 2, -2, 180, kRed, "S");
  EXPECT_EQ(sc.s.supply[kRed], 2);
  EXPECT_EQ(sc.s.supply[kBlue], 3);
  const int red_before = sc.score(kRed), blue_before = sc.score(kBlue);
  set_boats(sc, {1, 1});  // position: both boats at the source
  const auto ev = sc.place("L24", 2, -1, 0, kRed);
  EXPECT_EQ(texts(sc, ev), (Lines{"track red +1 @2 cause 1", "completed village red 13 (5 tiles, 3 fruit)"}));
  EXPECT_EQ(sc.score(kRed) - red_before, 13);
  EXPECT_EQ(sc.score(kBlue) - blue_before, 0);
  EXPECT_EQ(sc.s.supply[kRed], 4);
  EXPECT_EQ(sc.s.supply[kBlue], 4);  // blue's explorer comes back too, with no points
}

// Two players: "The red boat gets 3 points. The blue boat gets nothing, because it is not directly
// behind red. Instead the blue boat moves 1 space down the river." A06: 2 caimans + 1 piranha.
TEST(AmazonasRulebook, TwoPlayersSecondNotDirectlyBehindScoresNothingAndMoves) {
  {
    Scenario sc(amazonas_rules(), 2);
    set_boats(sc, {6, 3});  // position: red 6, blue 3 (two spaces between them)
    const auto ev = sc.place("A06", 4, 0, 0, kRed, "N");  // red's camp on the north bank
    EXPECT_EQ(texts(sc, ev), (Lines{"amazon red 3 rank 1 (2c 1p)", "track blue +1 @4 cause 4"}));
    EXPECT_EQ(sc.score(kRed), 3);
    EXPECT_EQ(sc.score(kBlue), 0);
  }
  {  // the same with blue directly behind: blue scores the piranha
    Scenario sc(amazonas_rules(), 2);
    set_boats(sc, {6, 5});  // position: red 6, blue 5
    const auto ev = sc.place("A06", 4, 0, 0, kRed, "N");
    EXPECT_EQ(texts(sc, ev), (Lines{"amazon red 3 rank 1 (2c 1p)", "amazon blue 1 rank 2 (2c 1p)"}));
  }
  {  // three players: 2nd scores wherever it stands
    Scenario sc(amazonas_rules(), 3);
    set_boats(sc, {6, 3, 1});  // position: red 6, blue 3, yellow 1
    const auto ev = sc.place("A06", 4, 0, 0, kRed, "N");
    EXPECT_EQ(texts(sc, ev), (Lines{"amazon red 3 rank 1 (2c 1p)", "amazon blue 1 rank 2 (2c 1p)",
                                    "track yellow +1 @2 cause 4"}));
  }
}

// Final scoring: "Blue gets 3 points for its camp (3 animals in the jungle). Red gets 3 points for
// its tributary (2 tiles + 1 fruit). Red gets 5 points for its camp (5 animals in the jungle). Blue
// gets 4 points for its village (2 tiles + 2 fruit)."
// Red tributary: S1 (ends at the source) + L03 (straight W-E, 1 fruit) at (-1,0), open W.
// Blue village: S2 (1 fruit) + L08 turned 90 (village N-S, 1 fruit) at (1,-1), open N.
// Red camp: L05 (village N, jungle 2 animals) at (0,-1), in the jungle along the north bank of the
// start board: S1 (1 animal) + S2's strip + S3 (2) + S4 west of its tributary + L03's strip + L05
// (2) + L08's west jungle = 5 animals.
// Blue camp: A05 (Amazon tile, north bank 2 animals) at (4,0), whose north bank joins S4's bank
// east of its tributary (1 animal) = 3 animals.
TEST(AmazonasRulebook, FinalScoring) {
  Scenario sc(amazonas_rules(), 2);
  sc.place("L03", -1, 0, 0, kRed, "W");
  sc.place("L08", 1, -1, 90, kBlue, "S");
  sc.place("L05", 0, -1, 0, kRed, "S");
  sc.place("A05", 4, 0, 0, kBlue, "N");
  set_boats(sc, {10, 9});  // position: red 1st, blue directly behind
  const int red_before = sc.score(kRed), blue_before = sc.score(kBlue);
  const auto ev = sc.finish();
  Lines got = texts(sc, ev);
  ASSERT_EQ(got.size(), 6u);
  // the river mouth comes last
  EXPECT_EQ(Lines(got.end() - 2, got.end()), (Lines{"mouth red 6 rank 1", "mouth blue 3 rank 2"}));
  std::sort(got.begin(), got.end() - 2);
  EXPECT_EQ(Lines(got.begin(), got.end() - 2),
            (Lines{"camp blue 3 (3 animals)", "camp red 5 (5 animals)", "final tributary red 3 (2 tiles, 1 fruit)",
                   "final village blue 4 (2 tiles, 2 fruit)"}));
  EXPECT_EQ(sc.score(kRed) - red_before, 3 + 5 + 6);
  EXPECT_EQ(sc.score(kBlue) - blue_before, 3 + 4 + 3);
}

// River mouth, 4-5 players: "Red gets 7 points. Blue and green get 4 each. Black gets 1. Yellow
// gets nothing." Dense ranking: blue and green share 2nd, black is 3rd, yellow 4th.
TEST(AmazonasRulebook, RiverMouth5Players) {
  Scenario sc(amazonas_rules(), 5);
  EXPECT_EQ(sc.s.track_len, 8);
  set_boats(sc, {8, 6, 3, 6, 5});  // position: red 8, blue 6, yellow 3, green 6, black 5
  const auto ev = sc.finish();
  EXPECT_EQ(texts(sc, ev), (Lines{"mouth red 7 rank 1", "mouth blue 4 rank 2", "mouth green 4 rank 2", "mouth black 1 rank 3"}));
  EXPECT_EQ(sc.score(kYellow), 0);
  EXPECT_EQ(sc.score(kBlack), 1);
}

// River mouth, 2-3 players: 1st 6, 2nd 3. With 2 players the 2nd boat scores only directly behind
// the 1st ("this applies both to the Amazon scorings during the game and to the final scoring").
TEST(AmazonasRulebook, RiverMouth2And3Players) {
  struct Case {
    int players;
    std::vector<int> boats;
    Lines want;
  };
  const std::vector<Case> cases = {
      {3, {10, 7, 2}, {"mouth red 6 rank 1", "mouth blue 3 rank 2"}},                  // 3rd scores nothing
      {3, {10, 7, 7}, {"mouth red 6 rank 1", "mouth blue 3 rank 2", "mouth yellow 3 rank 2"}},
      {3, {4, 9, 9}, {"mouth red 3 rank 2", "mouth blue 6 rank 1", "mouth yellow 6 rank 1"}},
      {2, {10, 9}, {"mouth red 6 rank 1", "mouth blue 3 rank 2"}},                     // directly behind
      {2, {10, 8}, {"mouth red 6 rank 1"}},                                            // not directly behind
      {2, {5, 12}, {"mouth blue 6 rank 1"}},
      {2, {7, 7}, {"mouth red 6 rank 1", "mouth blue 6 rank 1"}},                      // tied 1st
  };
  for (const Case& c : cases) {
    Scenario sc(amazonas_rules(), c.players);
    EXPECT_EQ(sc.s.track_len, 16);
    for (int p = 0; p < c.players; ++p) sc.s.track[static_cast<std::size_t>(p)] = static_cast<u8>(c.boats[static_cast<std::size_t>(p)]);
    EXPECT_EQ(texts(sc, sc.finish()), c.want) << c.players << " players, boats " << c.boats[0] << "," << c.boats[1];
  }
}

// =============================================================================================
// Placement: the start board, the river front, Amazon tiles
// =============================================================================================

// "At the start of the game there are 10 places where a tile can be placed": 4 + 4 along the long
// sides and 2 at the source end; none at the downstream end.
TEST(Amazonas, StartHasExactly10LandCells) {
  for (const int players : {2, 4}) {  // both sides of the start board
    SCOPED_TRACE(players);
    Scenario sc(amazonas_rules(), players);
    EXPECT_EQ(sc.s.pile, 80);
    EXPECT_EQ(amazonas_state(sc.s).front, 3);
    std::set<std::pair<int, int>> cells;
    int land_types = 0;
    for (std::size_t t = 0; t < sc.rs->tiles.types.size(); ++t) {
      const TileType& tt = sc.rs->tiles.types[t];
      if (tt.kind != 0 || tt.pile != kPileDraw) continue;
      ++land_types;
      State u = sc.s;
      if (!apply_draw(u, static_cast<int>(t))) continue;
      MoveList ml;
      legal_moves(u, ml);
      for (const Move& m : ml) cells.insert({m.x, m.y});
      // is_legal agrees with the listing, over every frontier cell and rotation
      for (const FrontierCell& fc : u.frontier)
        for (int r = 0; r < 4; ++r) {
          if (!is_legal(u, place_move(u.current, fc.x, fc.y, r))) continue;
          EXPECT_TRUE(fc.x <= 3) << tt.id << " at " << int(fc.x) << "," << int(fc.y);
          cells.insert({fc.x, fc.y});
        }
    }
    EXPECT_EQ(land_types, 40);
    const std::set<std::pair<int, int>> want = {{0, -1}, {1, -1}, {2, -1}, {3, -1}, {0, 2},
                                                {1, 2},  {2, 2},  {3, 2},  {-1, 0}, {-1, 1}};
    EXPECT_EQ(cells, want);
    // the downstream end is next to the board (frontier) but takes no land tile
    EXPECT_TRUE(sc.s.cells.get(4, 1) & 0x8000);
    EXPECT_TRUE(sc.s.cells.get(4, 0) & 0x8000);
  }
}

// An Amazon tile (plain or "!") goes only at the river's end, (front + 1, 0), with the flow W->E or
// turned 180 degrees; every other cell and rotation is refused.
TEST(Amazonas, AmazonTileOnlyAtTheRiverEnd) {
  Scenario sc(amazonas_rules(), 2);
  int river_types = 0;
  for (std::size_t t = 0; t < sc.rs->tiles.types.size(); ++t) {
    const TileType& tt = sc.rs->tiles.types[t];
    if (tt.kind != 1 && tt.kind != 2) continue;  // amazon, amazon!
    ++river_types;
    State u = sc.s;
    ASSERT_TRUE(apply_draw(u, static_cast<int>(t))) << tt.id;
    for (const FrontierCell& fc : u.frontier)
      for (int r = 0; r < 4; ++r)
        EXPECT_EQ(is_legal(u, place_move(u.current, fc.x, fc.y, r)), fc.x == 4 && fc.y == 0 && (r == 0 || r == 2))
            << tt.id << " at " << int(fc.x) << "," << int(fc.y) << " r" << r * 90;
    MoveList ml;
    legal_moves(u, ml);
    ASSERT_FALSE(ml.empty()) << tt.id;
    for (const Move& m : ml) {
      EXPECT_EQ(std::make_pair(int(m.x), int(m.y)), std::make_pair(4, 0)) << tt.id;
      EXPECT_TRUE(m.rot == 0 || m.rot == 2) << tt.id;
    }
  }
  EXPECT_EQ(river_types, 15);
  // double tiles, their second cells and the start board never come from the pile
  for (std::size_t t = 0; t < sc.rs->tiles.types.size(); ++t)
    if (sc.rs->tiles.types[t].kind == 3 || sc.rs->tiles.types[t].pile == kPileStart) {
      EXPECT_EQ(sc.s.remaining[t], 0);
    }
}

// "You may never place land tiles further than the river has got." (4,1) lies east of S8 and its
// edge matches L05, yet it is refused while the river ends at x = 3; the Amazon tile at (4,0) moves
// the front and opens (4,-1) and (4,1); (5,1) then matches but lies beyond the front again.
TEST(Amazonas, LandRefusedBeyondTheRiverFront) {
  Scenario sc(amazonas_rules(), 2);
  const int l05 = type_id(sc, "L05");
  auto edges_match = [&](const State& u, int x, int y, int type, int rot) {
    const u16 v = u.cells.get(x, y);
    EXPECT_TRUE(v & 0x8000) << x << "," << y << " is not next to the board";
    const FrontierCell& fc = u.frontier[v & 0x7FFF];
    return ((u.rs->tiles.types[static_cast<std::size_t>(type)].rot[static_cast<std::size_t>(rot)].side_code ^ fc.req) & fc.mask) == 0;
  };
  {
    State u = sc.s;
    ASSERT_TRUE(apply_draw(u, l05));
    EXPECT_TRUE(edges_match(u, 4, 1, l05, 0));  // L05's W side is jungle, like S8's E side
    EXPECT_FALSE(is_legal(u, place_move(u.current, 4, 1, 0)));
    MoveList ml;
    legal_moves(u, ml);
    for (const Move& m : ml) EXPECT_LE(m.x, 3);
  }
  sc.place("A01", 4, 0, 0, kRed);
  EXPECT_EQ(amazonas_state(sc.s).front, 4);
  {
    State u = sc.s;
    ASSERT_TRUE(apply_draw(u, l05));
    EXPECT_TRUE(is_legal(u, place_move(u.current, 4, 1, 2)));   // village S, jungle N against A01's south bank
    EXPECT_TRUE(is_legal(u, place_move(u.current, 4, -1, 0)));  // village N, jungle S against A01's north bank
    MoveList ml;
    legal_moves(u, ml);
    const auto cells = cells_of(ml);
    EXPECT_TRUE(cells.count({4, 1}) && cells.count({4, -1}));
    for (const Move& m : ml) EXPECT_LE(m.x, 4);
  }
  sc.place("L05", 4, 1, 180, kBlue);
  {
    State u = sc.s;
    ASSERT_TRUE(apply_draw(u, type_id(sc, "L07")));
    EXPECT_TRUE(edges_match(u, 5, 1, type_id(sc, "L07"), 0));  // jungle W against L05's jungle E
    EXPECT_FALSE(is_legal(u, place_move(u.current, 5, 1, 0)));
  }
  {  // the next Amazon tile goes at (5,0) only
    State u = sc.s;
    ASSERT_TRUE(apply_draw(u, type_id(sc, "A02")));
    MoveList ml;
    legal_moves(u, ml);
    EXPECT_EQ(cells_of(ml), (std::set<std::pair<int, int>>{{5, 0}}));
  }
}

// =============================================================================================
// "!" tiles and double tiles
// =============================================================================================

// Draw and place a "!" tile; returns the state in phase Choose.
State after_bang(const Scenario& sc, const std::string& id, int player) {
  State u = sc.s;
  u.current = static_cast<u8>(player);
  EXPECT_TRUE(apply_draw(u, sc.rs->tiles.find(id)));
  apply_move(u, place_move(player, amazonas_state(u).front + 1, 0, 0));
  return u;
}

std::set<std::pair<std::string, int>> choices(const State& u) {
  MoveList ml;
  legal_moves(u, ml);
  std::set<std::pair<std::string, int>> out;
  for (const Move& m : ml) {
    EXPECT_EQ(m.kind, MoveKind::Choose);
    out.insert({u.rs->tiles.types[m.feat].id, m.rot * 90});
  }
  EXPECT_EQ(out.size(), ml.size());
  return out;
}

Move choose_move(const State& u, const std::string& id, int rot_degrees) {
  Move m;
  m.kind = MoveKind::Choose;
  m.player = u.current;
  m.feat = static_cast<u8>(u.rs->tiles.find(id));
  m.rot = static_cast<u8>(rot_degrees / 90);
  return m;
}

// After the "!" tile only Choose moves are legal (each set-aside double tile, both ways round);
// after the choice the double tile lies in the next two cells, the track grows by 1 + 2, pieces go
// only on the double tile, and the Amazon scoring runs for the "!" tile and then for the double
// tile, with the boat moves of the first scoring counting for the second.
TEST(Amazonas, BangTileThenDoubleTile) {
  Scenario sc(amazonas_rules(), 3);
  set_boats(sc, {3, 2, 1});  // position: red 3, blue 2, yellow 1
  State u = after_bang(sc, "X1", kRed);  // X1: 1 caiman, 1 piranha
  EXPECT_EQ(u.phase, Phase::Choose);
  EXPECT_EQ(u.track_len, 17);
  EXPECT_EQ(amazonas_state(u).front, 4);
  EXPECT_EQ(choices(u), (std::set<std::pair<std::string, int>>{
                            {"D1", 0}, {"D1", 180}, {"D2", 0}, {"D2", 180}, {"D3", 0}, {"D3", 180}, {"D4", 0}, {"D4", 180}}));
  EXPECT_FALSE(is_legal(u, pass_move(u)));
  EXPECT_FALSE(is_legal(u, piece_move(u, 4, 0, "N")));
  EXPECT_FALSE(is_legal(u, choose_move(u, "D2", 90)));
  EXPECT_FALSE(is_legal(u, choose_move(u, "D2b", 0)));  // the second cell is not a choice
  EXPECT_FALSE(is_legal(u, choose_move(u, "A01", 0)));

  EventSink ev;
  apply_move(u, choose_move(u, "D2", 0), &ev);  // D2: 2 caimans; D2b: 2 piranhas
  EXPECT_TRUE(ev.empty());
  EXPECT_EQ(u.phase, Phase::Piece);
  ASSERT_GE(u.placed_at(5, 0), 0);
  ASSERT_GE(u.placed_at(6, 0), 0);
  EXPECT_EQ(u.type_of(u.tiles[static_cast<std::size_t>(u.placed_at(5, 0))]).id, "D2");
  EXPECT_EQ(u.type_of(u.tiles[static_cast<std::size_t>(u.placed_at(6, 0))]).id, "D2b");
  EXPECT_EQ(u.track_len, 16 + 1 + 2);
  EXPECT_EQ(amazonas_state(u).front, 6);
  EXPECT_EQ(amazonas_state(u).aside, u64{0b1101});  // bit k: the k-th set-aside tile (D1..D4); D2 is used

  // pieces: only on the double tile's cells, never on the "!" tile
  MoveList ml;
  legal_moves(u, ml);
  int pieces = 0;
  for (const Move& m : ml) {
    if (m.kind == MoveKind::Pass) continue;
    ASSERT_EQ(m.kind, MoveKind::Piece);
    ++pieces;
    EXPECT_TRUE((m.x == 5 || m.x == 6) && m.y == 0) << int(m.x) << "," << int(m.y);
  }
  // D2's north bank west of its tributary, its tributary, the north-bank jungle it shares with D2b
  // east of the tributary, and the south bank shared by both cells
  EXPECT_EQ(pieces, 4);
  EXPECT_TRUE(is_legal(u, piece_move(u, 5, 0, "N")));     // explorer on D2's tributary
  EXPECT_FALSE(is_legal(u, piece_move(u, 4, 0, "N")));    // camp on the "!" tile's bank
  EXPECT_FALSE(is_legal(u, piece_move(u, 4, 0, "S")));
  EXPECT_FALSE(is_legal(u, piece_move(u, 5, 0, "E")));    // the Amazon holds no piece

  apply_move(u, pass_move(u), &ev);
  Lines got;
  for (const auto& e : ev) got.push_back(text(*sc.rs, e));
  EXPECT_EQ(got, (Lines{
                     "track red +1 @4 cause 1",       // no piece: red 3 -> 4
                     // Amazon scoring of X1 (1 caiman, 1 piranha): red 1st, blue 2nd, yellow 3rd
                     "amazon red 2 rank 1 (1c 1p)", "amazon blue 1 rank 2 (1c 1p)",
                     "track yellow +1 @2 cause 4",    // yellow joins blue on space 2
                     // Amazon scoring of the double tile D2 + D2b (2 caimans, 2 piranhas), one tile
                     "amazon red 4 rank 1 (2c 2p)", "amazon blue 2 rank 2 (2c 2p)", "amazon yellow 2 rank 2 (2c 2p)",
                 }));
  EXPECT_EQ(u.score[kRed], 6);
  EXPECT_EQ(u.score[kBlue], 3);
  EXPECT_EQ(u.score[kYellow], 2);
  EXPECT_EQ(u.phase, Phase::Draw);
  EXPECT_EQ(u.current, kBlue);
}

// Turned 180 degrees the double tile's downstream cell comes first (flow reversed, banks swapped).
TEST(Amazonas, DoubleTileTurned180) {
  Scenario sc(amazonas_rules(), 2);
  State u = after_bang(sc, "X3", kRed);
  apply_move(u, choose_move(u, "D1", 180));
  const PlacedTile& a = u.tiles[static_cast<std::size_t>(u.placed_at(5, 0))];
  const PlacedTile& b = u.tiles[static_cast<std::size_t>(u.placed_at(6, 0))];
  EXPECT_EQ(u.type_of(a).id, "D1b");
  EXPECT_EQ(a.rot, 2);
  EXPECT_EQ(u.type_of(b).id, "D1");
  EXPECT_EQ(b.rot, 2);
  // D1b's village (north bank in canonical orientation) is now on the south bank
  EXPECT_EQ(u.rs->ftype(u.type_of(a).feats[static_cast<std::size_t>(feature_at_port(u, a, "S"))].type).name, "village");
  // the Amazon flows on: both cells' rivers and X3's are one feature, open only at the far end
  const int ra = u.graph.find(a.seg0 + feature_at_port(u, a, "E"));
  const int rb = u.graph.find(b.seg0 + feature_at_port(u, b, "W"));
  EXPECT_EQ(ra, rb);
  EXPECT_EQ(u.graph[ra].open, 1);
}

// A used double tile is not offered again; after the three "!" tiles exactly one double tile is
// left unused.
TEST(Amazonas, UsedDoubleTilesAreNotOfferedAndOneRemains) {
  Scenario sc(amazonas_rules(), 2);
  sc.place_choose("X1", 4, 0, 0, kRed, "D2", 0);
  EXPECT_EQ(std::popcount(amazonas_state(sc.s).aside), 3);
  {
    const State u = after_bang(sc, "X2", kBlue);
    EXPECT_EQ(choices(u), (std::set<std::pair<std::string, int>>{{"D1", 0}, {"D1", 180}, {"D3", 0}, {"D3", 180}, {"D4", 0}, {"D4", 180}}));
    EXPECT_FALSE(is_legal(u, choose_move(u, "D2", 0)));
  }
  // X2 turned 180, then D4 turned 180 (D4b first, at (8,0)), and a camp on D4b's south bank
  sc.place_choose("X2", 7, 0, 180, kBlue, "D4", 180, 8, 0, "S");
  EXPECT_EQ(sc.s.supply2[kBlue], 1);
  EXPECT_EQ(std::popcount(amazonas_state(sc.s).aside), 2);
  {
    const State u = after_bang(sc, "X3", kRed);
    EXPECT_EQ(choices(u), (std::set<std::pair<std::string, int>>{{"D1", 0}, {"D1", 180}, {"D3", 0}, {"D3", 180}}));
  }
  sc.place_choose("X3", 10, 0, 0, kRed, "D3", 0);
  EXPECT_EQ(std::popcount(amazonas_state(sc.s).aside), 1);
  EXPECT_EQ(sc.s.track_len, 16 + 3 * (1 + 2));
  EXPECT_EQ(amazonas_state(sc.s).front, 12);
  // the one left is D1 (the first set-aside tile); no "!" tile is left to ask for it
  EXPECT_EQ(amazonas_state(sc.s).aside, u64{1});
  for (const char* id : {"X1", "X2", "X3"}) EXPECT_EQ(sc.s.remaining[static_cast<std::size_t>(type_id(sc, id))], 0);
}

// ENGINE BUG (kept failing on purpose): a feature that spans both cells of a double tile can be
// claimed only by naming it on the cell the engine lists first. The rules allow the explorer or
// camp anywhere on the double tile (RULES.md section 2, "!" tiles: "The explorer or camp of that
// turn may go only on the double tile"); D2 + D2b's north bank east of D2's tributary is one jungle,
// so a camp placed on it through D2b's half, (6,0) port N, is the same legal placement as through
// D2's half, (5,0) port NNE. is_legal (rules.cpp) compares the move with the list of gen_pieces,
// which lists a feature spanning both cells only once, on its first cell, so the D2b form is
// refused ("that feature cannot take a piece" from Game::play / Game::piece_at) and a record naming
// it (follower_at [6,0], "N") cannot be replayed.
TEST(Amazonas, DoubleTileFeatureClaimableFromEitherCell) {
  Scenario sc(amazonas_rules(), 2);
  State u = after_bang(sc, "X1", kRed);
  apply_move(u, choose_move(u, "D2", 0));
  const Move via_d2 = piece_move(u, 5, 0, "NNE");
  const Move via_d2b = piece_move(u, 6, 0, "N");
  const PlacedTile& d2 = u.tiles[static_cast<std::size_t>(u.placed_at(5, 0))];
  const PlacedTile& d2b = u.tiles[static_cast<std::size_t>(u.placed_at(6, 0))];
  ASSERT_EQ(u.graph.find(d2.seg0 + via_d2.feat), u.graph.find(d2b.seg0 + via_d2b.feat));  // one jungle
  EXPECT_TRUE(is_legal(u, via_d2));
  EXPECT_TRUE(is_legal(u, via_d2b)) << "the same jungle, named on the double tile's second cell, is refused";
  // the same through records: a camp on that jungle named on either cell
  auto record = [](const char* cell, const char* port) {
    return fmt::format(R"({{"game": "amazonas", "players": ["ann", "bob"], "draws": ["X1"],
      "moves": [{{"player": 0, "tile": "X1", "x": 4, "y": 0, "rot": 0, "double": {{"tile": "D2", "rot": 0}},
                 "follower": "{}", "follower_at": {}}}]}})",
                       port, cell);
  };
  EXPECT_NO_THROW((void)Game::replay(record_from_json(record("[5, 0]", "NNE"), "mem")));
  EXPECT_NO_THROW((void)Game::replay(record_from_json(record("[6, 0]", "N"), "mem")));
}

// =============================================================================================
// Boats
// =============================================================================================

// "If you must move your boat and there is no next space, simply stop on the last space." Boats
// move only downstream; a longer river (each Amazon tile adds a space) lets them go on.
TEST(Amazonas, BoatStopsOnTheLastSpace) {
  Scenario sc(amazonas_rules(), 2);
  EXPECT_EQ(sc.s.track_len, 16);
  set_boats(sc, {15, 16});  // position: red one space before the end, blue on the last space
  // L28 at (1,2) continues the start board's tributary S3-S7-S6 (S7 has 1 boat icon): 2 icons
  auto ev = sc.place("L28", 1, 2, 0, kRed, "N");
  EXPECT_EQ(texts(sc, ev), (Lines{"track red +1 @16 cause 2"}));
  EXPECT_EQ(boat(sc, kRed), 16);
  ev = sc.place("L05", 0, -1, 0, kBlue);  // blue passes on the last space
  EXPECT_EQ(texts(sc, ev), (Lines{"track blue +0 @16 cause 1"}));
  EXPECT_EQ(boat(sc, kBlue), 16);
  // A01 (2 caimans, no piranha) adds space 17: blue passes onto it and is 1st alone; red, directly
  // behind, is 2nd and scores A01's piranhas, none, so it moves 1
  ev = sc.place("A01", 4, 0, 0, kBlue);
  EXPECT_EQ(texts(sc, ev), (Lines{"track blue +1 @17 cause 1", "amazon blue 2 rank 1 (2c 0p)", "track red +1 @17 cause 4"}));
  EXPECT_EQ(sc.s.track_len, 17);
  // 4 players: two boats tie 1st; 2nd place with no piranha to score moves 1, and 3rd too
  Scenario sc4(amazonas_rules(), 4);
  set_boats(sc4, {8, 7, 8, 5});  // position: red and yellow on the last space 8, blue 7, green 5
  ev = sc4.place("A01", 4, 0, 0, kRed, "N");
  EXPECT_EQ(texts(sc4, ev), (Lines{"amazon red 2 rank 1 (2c 0p)", "amazon yellow 2 rank 1 (2c 0p)",
                                   "track blue +1 @8 cause 4", "track green +1 @6 cause 4"}));
  EXPECT_EQ(sc4.s.track_len, 9);
}

// A small tile set with a tributary tile carrying 3 boat icons (no such tile in the reconstructed
// set): an explorer on it moves the boat 3; icons newly connected move it too, never beyond the
// last space; a track of 4 spaces.
TEST(Amazonas, CustomTileSetThreeBoatIconsOnOneTile) {
  const std::string json = R"({
    "format": "carcassonne-tiles/1", "game": "amazonas",
    "start": [{"name": "test", "players": [2, 5], "track": 4, "cells": [{"tile": "SRC", "x": 0, "y": 0, "rot": 0}]}],
    "tiles": [
      {"id": "SRC", "count": 1, "pile": "start", "features": [
        {"type": "jungle", "ports": ["NNW", "N", "NNE", "ENE", "ESE", "SSE", "S", "SSW", "WSW", "W", "WNW"]},
        {"type": "amazon", "ports": ["E"]}]},
      {"id": "T3", "count": 4, "features": [
        {"type": "jungle", "ports": ["NNW", "N", "NNE", "ENE", "WNW"]},
        {"type": "tributary", "ports": ["E", "W"], "attrs": {"boat": 3}},
        {"type": "jungle", "ports": ["ESE", "SSE", "S", "SSW", "WSW"]}]},
      {"id": "R", "count": 1, "kind": "amazon", "features": [
        {"type": "jungle", "ports": ["NNW", "N", "NNE", "ENE", "WNW"]},
        {"type": "amazon", "ports": ["E", "W"], "attrs": {"caiman": 1}},
        {"type": "jungle", "ports": ["ESE", "SSE", "S", "SSW", "WSW"]}]}
    ]})";
  const GameDef& g = *find_game("amazonas");
  TileSet ts = parse_tileset(json, "test.json", g.ftypes, g.tile_kinds);
  Scenario sc(make_ruleset(g, std::move(ts), {{"spread", "uniform"}}), 2);
  EXPECT_EQ(sc.s.track_len, 4);
  EXPECT_EQ(sc.s.pile, 5);
  auto ev = sc.place("T3", 0, -1, 0, kRed, "E");  // explorer on 3 icons
  EXPECT_EQ(texts(sc, ev), (Lines{"track red +3 @4 cause 2"}));
  set_boats(sc, {2, 1});  // position: red 2, blue 1
  ev = sc.place("T3", -1, -1, 0, kBlue);  // blue extends red's tributary: 3 new icons for red
  EXPECT_EQ(texts(sc, ev), (Lines{"track red +2 @4 cause 3", "track blue +1 @2 cause 1"}));
  ev = sc.place("T3", -2, -1, 0, kBlue);  // 3 more for red, already on the last space
  EXPECT_EQ(texts(sc, ev), (Lines{"track red +0 @4 cause 3", "track blue +1 @3 cause 1"}));
  ev = sc.place("R", 1, 0, 0, kBlue);  // the river grows: blue passes to 4, ties red
  EXPECT_EQ(texts(sc, ev), (Lines{"track blue +1 @4 cause 1", "amazon red 1 rank 1 (1c 0p)", "amazon blue 1 rank 1 (1c 0p)"}));
  EXPECT_EQ(sc.s.track_len, 5);
}

// Over whole random games with 2 to 5 players: boats never move upstream, never pass the last
// space; every Choose decision offers each unused double tile both ways round and nothing else;
// pieces after a double go only on its cells; at the end one double tile is unused and the track
// has grown by 12 + 3 (Amazon tiles) + 3 x 2 (double tiles).
TEST(Amazonas, BoatsOnlyMoveDownstreamInRandomGames) {
  auto rs = amazonas_rules();
  for (int players = 2; players <= 5; ++players) {
    for (u64 seed = 1; seed <= 3; ++seed) {
      std::vector<PlayerInfo> info;
      for (int p = 0; p < players; ++p) info.push_back({"p" + std::to_string(p + 1), "random"});
      Game g(rs, info, seed * 31 + static_cast<u64>(players));
      auto bot = make_bot("random");
      Rng rng(seed);
      const int start_len = g.state().track_len;
      EXPECT_EQ(start_len, players <= 3 ? 16 : 8);
      std::array<u8, kMaxPlayers> prev = g.state().track;
      int chooses = 0;
      MoveList ml;
      while (!g.over()) {
        const State& s = g.state();
        legal_moves(s, ml);
        ASSERT_FALSE(ml.empty());
        if (s.phase == Phase::Choose) {
          ++chooses;
          EXPECT_EQ(ml.size(), 2u * static_cast<std::size_t>(std::popcount(amazonas_state(s).aside)));
          for (const Move& m : ml) EXPECT_EQ(m.kind, MoveKind::Choose);
        } else if (s.phase == Phase::Piece) {
          for (const Move& m : ml) {
            if (m.kind != MoveKind::Piece) continue;
            EXPECT_GE(s.placed_at(m.x, m.y), s.piece_from);
            if (s.piece_from != s.turn_first) {
              EXPECT_EQ(s.type_of(s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))]).kind, 3);
            }
          }
        }
        g.play(bot->choose(s, ml, rng));
        const State& t = g.state();
        for (int p = 0; p < players; ++p) {
          const auto pi = static_cast<std::size_t>(p);
          EXPECT_GE(t.track[pi], prev[pi]) << "boat " << p << " moved upstream";
          EXPECT_LE(t.track[pi], t.track_len) << "boat " << p << " passed the last space";
          prev[pi] = t.track[pi];
        }
      }
      EXPECT_EQ(chooses, 3);
      // option spread=even (the default): the 80 draws cut into 15 equal blocks hold one Amazon
      // tile each
      const auto& draws = g.record().draws;
      ASSERT_EQ(draws.size(), 80u);
      for (int blk = 0; blk < 15; ++blk) {
        int river = 0;
        for (int i = blk * 80 / 15; i < (blk + 1) * 80 / 15; ++i)
          river += rs->tiles.types[static_cast<std::size_t>(rs->tiles.find(draws[static_cast<std::size_t>(i)]))].kind != 0;
        EXPECT_EQ(river, 1) << "block " << blk;
      }
      EXPECT_EQ(std::popcount(amazonas_state(g.state()).aside), 1);
      EXPECT_EQ(g.state().track_len, start_len + 15 + 6);
      for (const ScoreEvent& e : g.record().events)
        if (reason_name(*g.state().rs->game, e) == "track") {
          EXPECT_LE(e.amount, 3);
          EXPECT_GE(e.cause, 1);
          EXPECT_LE(e.cause, 4);
        }
    }
  }
}

// =============================================================================================
// Records
// =============================================================================================

// A whole Amazonas game played by bots, written as JSON and read back, replays to the same draws,
// events and final scores (and the same JSON).
TEST(Amazonas, RecordOfAFullGameReplays) {
  auto rs = amazonas_rules();
  int k = 0;
  for (int players = 2; players <= 5; ++players) {
    for (const char* botname : {"random", "greedy"}) {
      const u64 seed = 700 + static_cast<u64>(k++);
      std::vector<PlayerInfo> info;
      std::vector<std::unique_ptr<Bot>> bots;
      for (int p = 0; p < players; ++p) {
        info.push_back({"p" + std::to_string(p + 1), botname});
        bots.push_back(make_bot(botname));
      }
      Game g(rs, info, seed);
      Rng rng(seed * 7919 + 1);
      play_out(g, bots, rng);
      ASSERT_TRUE(g.over());
      int doubles = 0;
      for (const RecordMove& m : g.record().moves) doubles += m.choice ? 1 : 0;
      EXPECT_EQ(doubles, 3);
      const std::string text_json = record_to_json(g.record(), g.ruleset());
      const Game h = Game::replay(record_from_json(text_json, "mem"));
      ASSERT_TRUE(h.over());
      const std::vector<int> want(g.state().score.begin(), g.state().score.begin() + players);
      EXPECT_EQ(std::vector<int>(h.state().score.begin(), h.state().score.begin() + players), want) << seed;
      EXPECT_EQ(h.record().final_scores, want);
      EXPECT_EQ(h.state().track, g.state().track);
      ASSERT_EQ(h.record().events.size(), g.record().events.size());
      for (std::size_t i = 0; i < g.record().events.size(); ++i) {
        const ScoreEvent& a = g.record().events[i];
        const ScoreEvent& b = h.record().events[i];
        EXPECT_EQ(text(*rs, a), text(*rs, b)) << i;
        EXPECT_EQ(a.turn, b.turn) << i;
      }
      EXPECT_EQ(record_to_json(h.record(), h.ruleset()), text_json) << seed;
    }
  }
}

// =============================================================================================
// The search's model of the boat race (Hooks::track_worth; docs/mcts.md, "Amazonas: a model of
// the boat race")
// =============================================================================================

// A whole-number step of a normal of variance v on -r..r, sampled by its cumulative sums.
struct NormalStep {
  std::array<double, 17> cdf{};
  int r = 8;
  explicit NormalStep(double v, int range = 8) : r(range) {
    double z = 0, acc = 0;
    for (int i = -r; i <= r; ++i) z += std::exp(-0.5 * i * i / v);
    for (int i = -r; i <= r; ++i) cdf[static_cast<std::size_t>(i + r)] = acc += std::exp(-0.5 * i * i / v) / z;
  }
  int operator()(Rng& rng) const {
    const double u = rng.uniform();
    int i = 0;
    while (i < 2 * r && u > cdf[static_cast<std::size_t>(i)]) ++i;
    return i - r;
  }
};

// The Amazon scorings of the full pile, as the model counts them: the draw pile's Amazon and "!"
// tiles, one double tile after each "!" tile (the doubles' mean), and what a scoring pays on
// average to 1st (caimans + piranhas) and 2nd (piranhas).
struct Scorings {
  int k = 0;
  double all = 0, pir = 0;
};
Scorings full_pile_scorings(const Ruleset& rs) {
  Scorings sc;
  int bangs = 0, doubles = 0;
  double d_all = 0, d_pir = 0;
  const auto river = [&](const TileType& t, double& a, double& p) {
    for (int f = 0; f < t.nfeat; ++f)
      if (rs.ftype(t.feats[static_cast<std::size_t>(f)].type).name == "amazon") {
        a += t.feats[static_cast<std::size_t>(f)].attr[0] + t.feats[static_cast<std::size_t>(f)].attr[1];
        p += t.feats[static_cast<std::size_t>(f)].attr[1];
      }
  };
  for (const TileType& t : rs.tiles.types) {
    const std::string& kind = rs.game->tile_kinds[t.kind];
    if (t.pile == kPileDraw && (kind == "amazon" || kind == "amazon!")) {
      double a = 0, p = 0;
      river(t, a, p);
      sc.k += t.count;
      sc.all += t.count * a;
      sc.pir += t.count * p;
      bangs += kind == "amazon!" ? t.count : 0;
    } else if (t.pile == kPileAside) {
      ++doubles;
      river(t, d_all, d_pir);
      if (t.east != 0xFF) river(rs.tiles.types[t.east], d_all, d_pir);
    }
  }
  const int used = std::min(bangs, doubles);
  sc.all += used * d_all / doubles;
  sc.pir += used * d_pir / doubles;
  sc.k += used;
  sc.all /= sc.k;
  sc.pir /= sc.k;
  return sc;
}

// With two players, the worth of each boat is the race of the model played out: before each
// scoring the lead moves by a normal step (variance 2.08; before the first, 2.08 / 5.33 per tile
// still to come before the next Amazon tile: 3 at the start, the middle of its block of 5), at a
// scoring a boat ahead or level scores 1st, one directly behind 2nd without moving, one further
// behind moves 1; after the last scoring a step of variance 0.71 and the river mouth (6 and 3, 2nd
// only directly behind). The hook's table against a plain simulation of that race.
TEST(AmazonasRace, TwoBoatsAreWorthTheirRacePlayedOut) {
  auto rs = amazonas_rules();
  const auto worth = rs->game->hooks.track_worth;
  ASSERT_NE(worth, nullptr);
  const Scorings sc = full_pile_scorings(*rs);
  EXPECT_EQ(sc.k, 18);  // 12 Amazon tiles, 3 "!" tiles and their 3 double tiles
  const NormalStep first(2.08 / 5.33 * 3), between(2.08), last(0.71);
  Rng rng(11);
  for (const int lead : {0, 1, 2, 4, -3}) {
    Scenario s(rs, 2);
    set_boats(s, {lead >= 0 ? 1 + lead : 1, lead >= 0 ? 1 : 1 - lead});
    std::array<double, kMaxPlayers> got{};
    ASSERT_TRUE(worth(s.s, got));
    constexpr int kRaces = 200000;
    double me = 0, other = 0;
    for (int r = 0; r < kRaces; ++r) {
      int d = lead;
      for (int j = 0; j < sc.k; ++j) {
        const int e = std::clamp(d + (j == 0 ? first : between)(rng), -16, 16);
        me += e >= 0 ? sc.all : e == -1 ? sc.pir : 0;
        other += e <= 0 ? sc.all : e == 1 ? sc.pir : 0;
        d = e < -1 ? e + 1 : e > 1 ? e - 1 : e;
      }
      const int e = d + last(rng);
      me += e >= 0 ? 6 : e == -1 ? 3 : 0;
      other += e <= 0 ? 6 : e == 1 ? 3 : 0;
    }
    EXPECT_NEAR(got[0], me / kRaces, 0.08) << "lead " << lead;
    EXPECT_NEAR(got[1], other / kRaces, 0.08) << "lead " << lead;
  }
}

// With three players each boat moves by its own step before each scoring (a normal's of variance
// 2.08 / 3 on -2..2); at a scoring the dense places: 1st caimans + piranhas, 2nd piranhas, and a
// boat that scored nothing moves 1; at the river mouth, as the boats stand, 6 and 3. The hook's
// table against a plain simulation of that race (fails if the table's recursion or its rules change).
TEST(AmazonasRace, ThreeBoatsAreWorthTheirRacePlayedOut) {
  auto rs = amazonas_rules();
  const auto worth = rs->game->hooks.track_worth;
  const Scorings sc = full_pile_scorings(*rs);
  const NormalStep step(2.08 / 3, 2);
  Rng rng(12);
  const auto places = [](const std::array<int, 3>& b) {  // dense: 1 + the distinct spaces ahead
    std::array<int, 3> r{};
    for (std::size_t p = 0; p < 3; ++p) {
      r[p] = 1;
      for (std::size_t q = 0; q < 3; ++q) {
        bool counted = false;
        for (std::size_t o = 0; o < q; ++o) counted = counted || b[o] == b[q];
        r[p] += !counted && b[q] > b[p] ? 1 : 0;
      }
    }
    return r;
  };
  for (const auto& start : std::vector<std::array<int, 3>>{{1, 1, 1}, {3, 1, 1}, {3, 2, 1}, {1, 4, 4}}) {
    Scenario s(rs, 3);
    set_boats(s, {start[0], start[1], start[2]});
    std::array<double, kMaxPlayers> got{};
    ASSERT_TRUE(worth(s.s, got));
    constexpr int kRaces = 200000;
    std::array<double, 3> want{};
    for (int race = 0; race < kRaces; ++race) {
      std::array<int, 3> b = start;
      for (int j = 0; j < sc.k; ++j) {
        for (int& x : b) x += step(rng);
        const auto r = places(b);
        for (std::size_t p = 0; p < 3; ++p) {
          want[p] += r[p] == 1 ? sc.all : r[p] == 2 ? sc.pir : 0;
          b[p] += r[p] > 2 ? 1 : 0;
        }
      }
      const auto r = places(b);
      for (std::size_t p = 0; p < 3; ++p) want[p] += r[p] == 1 ? 6 : r[p] == 2 ? 3 : 0;
    }
    for (std::size_t p = 0; p < 3; ++p)
      EXPECT_NEAR(got[p], want[p] / kRaces, 0.1)
          << "boats " << start[0] << " " << start[1] << " " << start[2] << ", boat " << p;
  }
}

// After the last Amazon tile only the river mouth is left: the lead's last step (variance 0.71)
// and 6 to 1st, 3 to 2nd directly behind.
TEST(AmazonasRace, AfterTheLastAmazonTileOnlyTheRiverMouthIsLeft) {
  auto rs = amazonas_rules();
  Scenario s(rs, 2);
  for (std::size_t t = 0; t < rs->tiles.types.size(); ++t) {  // every Amazon tile drawn, no double left
    const std::string& kind = rs->game->tile_kinds[rs->tiles.types[t].kind];
    if (kind == "amazon" || kind == "amazon!") {
      s.s.pile = static_cast<u16>(s.s.pile - s.s.remaining[t]);
      s.s.kind_left[rs->tiles.types[t].kind] = 0;
      s.s.remaining[t] = 0;
    }
  }
  std::array<double, 17> pr{};
  double z = 0;
  for (int i = -8; i <= 8; ++i) z += pr[static_cast<std::size_t>(i + 8)] = std::exp(-0.5 * i * i / 0.71);
  for (double& x : pr) x /= z;
  for (const int lead : {0, 1, 3}) {
    set_boats(s, {5 + lead, 5});
    double me = 0, other = 0;
    for (int i = -8; i <= 8; ++i) {
      const int e = lead + i;
      me += pr[static_cast<std::size_t>(i + 8)] * (e >= 0 ? 6 : e == -1 ? 3 : 0);
      other += pr[static_cast<std::size_t>(i + 8)] * (e <= 0 ? 6 : e == 1 ? 3 : 0);
    }
    std::array<double, kMaxPlayers> got{};
    ASSERT_TRUE(rs->game->hooks.track_worth(s.s, got));
    EXPECT_NEAR(got[0], me, 1e-9) << lead;
    EXPECT_NEAR(got[1], other, 1e-9) << lead;
  }
}

// With three or four players the race's table is from each boat's view: boats on one space are
// worth alike, a boat further ahead is worth more, and moving a boat on never makes it worth less
// nor the others more; with five players there is no model and the search's evaluation keeps the
// greedy evaluation's 0.6 a space.
TEST(AmazonasRace, ManyBoatsWorthMoreAheadAndAlikeOnOneSpace) {
  auto rs = amazonas_rules();
  for (const int players : {3, 4}) {
    SCOPED_TRACE(players);
    Scenario s(rs, players);
    std::array<double, kMaxPlayers> a{}, b{};
    for (int p = 0; p < players; ++p) s.s.track[static_cast<std::size_t>(p)] = 4;
    ASSERT_TRUE(rs->game->hooks.track_worth(s.s, a));
    for (int p = 1; p < players; ++p) EXPECT_DOUBLE_EQ(a[static_cast<std::size_t>(p)], a[0]);
    EXPECT_GT(a[0], 0);
    for (int ahead = 1; ahead <= 6; ++ahead) {
      s.s.track[0] = static_cast<u8>(4 + ahead);
      rs->game->hooks.track_worth(s.s, b);
      EXPECT_GT(b[0], a[0]) << ahead;
      EXPECT_LE(b[1], a[1]) << ahead;
      for (int p = 2; p < players; ++p) EXPECT_DOUBLE_EQ(b[static_cast<std::size_t>(p)], b[1]) << ahead;
      a = b;
    }
    EXPECT_GT(a[0], a[1] + 5) << "six spaces ahead";
    s.s.track[1] = 6;  // another boat between: the last is worth less than the middle one
    rs->game->hooks.track_worth(s.s, b);
    EXPECT_GT(b[0], b[1]);
    EXPECT_GT(b[1], b[2]);
  }
  Scenario s(rs, 5);
  set_boats(s, {9, 4, 4, 6, 1});
  std::array<double, kMaxPlayers> w{};
  EXPECT_FALSE(rs->game->hooks.track_worth(s.s, w)) << "five players: no model";
  for (int p = 0; p < 5; ++p)
    EXPECT_DOUBLE_EQ(greedy_eval(s.s, p, 1.0), greedy_eval(s.s, p)) << "the greedy evaluation's 0.6 a space";
}

// The greedy bot keeps 0.6 a space (its evaluation is the benchmark every strength figure is
// measured against); the search's evaluation with race takes the track's worth from the hook.
TEST(AmazonasRace, TheGreedyBotKeepsItsTrackAndTheSearchTakesTheRace) {
  auto rs = amazonas_rules();
  Scenario s(rs, 2);
  set_boats(s, {5, 5});
  const double level = greedy_eval(s.s, 0), level_race = greedy_eval(s.s, 0, 1.0);
  set_boats(s, {7, 5});
  EXPECT_NEAR(greedy_eval(s.s, 0) - level, 1.2, 1e-9);
  std::array<double, kMaxPlayers> w{};
  rs->game->hooks.track_worth(s.s, w);
  const double ahead = w[0] - w[1];
  set_boats(s, {5, 5});
  rs->game->hooks.track_worth(s.s, w);
  EXPECT_NEAR(greedy_eval(s.s, 0, 1.0) - level_race, 0, 1e-9);
  set_boats(s, {7, 5});
  EXPECT_NEAR(greedy_eval(s.s, 0, 1.0) - level_race, ahead - (w[0] - w[1]), 1e-9);
  EXPECT_GT(ahead, 4) << "two spaces ahead, with 18 scorings to come";
}

// Amazonas' search takes the race by default with the greedy prior trusted as 1000 virtual
// playouts (GameDef::search_race, search_race_prior); race=0 searches otherwise; analysis keeps
// race 0 (its calibrations were fitted without).
TEST(AmazonasRace, TheSearchTakesTheRaceByDefaultAndAnalysisDoesNot) {
  const int differ = decisions_searched_otherwise(
      "amazonas", "mcts:playouts=150,threads=1", "mcts:playouts=150,threads=1,race=1,prior=1000",
      "mcts:playouts=150,threads=1,race=0", 10, [](const State&) { return true; }, [](MctsOptions& o) { o.race = 0; });
  EXPECT_GT(differ, 0) << "race=0 searches alike";
}

}  // namespace
}  // namespace carc::test
