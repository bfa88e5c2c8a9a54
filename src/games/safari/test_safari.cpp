// Carcassonne: Safari (../shared/spec/RULES.md section 4; rulebook ../shared/seeds/004_*.txt,
// Russian). Every worked example of the rulebook as a built position with its exact scores, then
// the rules around them: token hand-ins (each scorer decides, even off turn), baobabs and their
// token deals, jeeps, watering holes (found, explore, the diagonal exception, completion) and the
// discard pile reshuffled into the face-down pile.
//
// Positions use the real tiles, data/tiles/safari.tiles.json (one id per physical copy: CS1a,
// CS1b, ...). The start board: CSS1 at -1,0 (a bush S with an elephant), CSS2 at 0,0 (a dead-end
// trail S with a giraffe), CSS3 at 1,0 (a bush N with 1 bird, a dead-end trail E with a monkey);
// the jeeps start at -2,0 and 2,0. Board: x grows east, y grows SOUTH; a rotation is clockwise
// (rot 90 turns a tile's N side to the E). Seats: 0 red ("you"), 1 blue, 2 yellow.
//
// Token draws are chance events: each game starts with the opening deal (2 tokens per player in
// seat order) given explicitly, and each baobab deal is fed the outcomes the example needs.
// A watering hole sits at a grid point, the NW corner of cell (x, y); a found/explore move names a
// cell and one of its corners (0 NE, 1 SE, 2 SW, 3 NW), which is that quarter of the point.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "games/safari/safari_state.hpp"
#include "scenario.hpp"

namespace carc::test {
namespace {

constexpr int kRed = 0, kBlue = 1, kYellow = 2;
constexpr std::array<const char*, 5> kColour = {"red", "blue", "yellow", "green", "black"};
constexpr int kMonkey = 0, kElephant = 1, kGiraffe = 2, kLion = 3, kZebra = 4;
constexpr std::array<const char*, 5> kSpeciesName = {"monkey", "elephant", "giraffe", "lion", "zebra"};
constexpr int kNE = 0, kSE = 1, kSW = 2, kNW = 3;
constexpr u8 kNone = 0xFF;

using Hand = std::array<u8, kTokenKinds>;  // tokens by species: monkey, elephant, giraffe, lion, zebra
using Lines = std::vector<std::string>;

std::shared_ptr<const Ruleset> safari_rules() {
  static const auto rs = load_ruleset("safari", {});
  return rs;
}

// One event as text, so that a turn's events compare in order and read like the rulebook:
//   "completed trail red 10 (4 species, 0 birds, 3 tiles, lion handed in)"
//   "unfinished bush blue 10 (4 animals, 6 birds)"
//   "found blue 3 (zebra)" / "explore red 5 (token 3, monkey)" / "watering hole blue 3"
//   "jeep red 3" / "tokens red 3 (3 in hand)"
std::string text(const Ruleset& rs, const ScoreEvent& e) {
  const char* who = kColour[e.player];
  const std::string& name = rs.ftype(e.ftype).name;
  switch (e.reason) {
    case ScoreReason::Completed:
      return fmt::format(
          "completed {} {} {} ({} species, {} birds, {} tiles{})", name, who, e.points, e.attr, e.amount, e.tiles,
          e.cause ? fmt::format(", {} handed in", kSpeciesName[static_cast<std::size_t>(e.cause - 1)]) : "");
    case ScoreReason::Final:
      return fmt::format("unfinished {} {} {} ({} animals, {} birds)", name, who, e.points, e.attr, e.amount);
    case ScoreReason::Special:
      switch (e.cause) {
        case 1: return fmt::format("found {} {} ({})", who, e.points, kSpeciesName[e.attr % 5]);
        case 2: return fmt::format("explore {} {} (token {}, {})", who, e.points, e.tiles, kSpeciesName[e.attr % 5]);
        case 3: return fmt::format("watering hole {} {}", who, e.points);
        case 4: return fmt::format("jeep {} {}", who, e.points);
        case 5: return fmt::format("tokens {} {} ({} in hand)", who, e.points, e.tiles);
        default: return fmt::format("special {} {} cause {}", who, e.points, e.cause);
      }
    default: return fmt::format("unexpected event {} {}", who, e.points);
  }
}

Lines texts(const Scenario& sc, const EventSink& ev) {
  Lines out;
  for (const auto& e : ev) out.push_back(text(*sc.rs, e));
  return out;
}

// One token draw (a chance outcome) of the species given.
void deal(Scenario& sc, int species) {
  ASSERT_EQ(sc.s.phase, Phase::Chance) << "no token draw is due";
  ASSERT_GT(safari_state(sc.s).tokens.pile[static_cast<std::size_t>(species)], 0)
      << "no " << kSpeciesName[static_cast<std::size_t>(species)] << " left";
  sc.s.rs->game->hooks.apply_chance(sc.s, species, &sc.events);
}

// A new game with the opening deal given (2 per player in seat order: player 0 gets the first two).
Scenario safari(int players, const std::vector<int>& opening) {
  Scenario sc(safari_rules(), players);
  EXPECT_EQ(sc.s.phase, Phase::Chance) << "the opening deal is due";
  EXPECT_EQ(static_cast<int>(opening.size()), 2 * players);
  for (const int sp : opening) deal(sc, sp);
  EXPECT_EQ(sc.s.phase, Phase::Draw);
  return sc;
}

Hand hand(const Scenario& sc, int p) { return safari_state(sc.s).tokens.hand[static_cast<std::size_t>(p)]; }
Hand tokens(int monkey, int elephant, int giraffe, int lion, int zebra) {
  return {static_cast<u8>(monkey), static_cast<u8>(elephant), static_cast<u8>(giraffe), static_cast<u8>(lion), static_cast<u8>(zebra)};
}
int total(const Hand& h) {
  int n = 0;
  for (const u8 k : h) n += k;
  return n;
}

Move act(int player, int pk, int x, int y, int rot, int feat) {
  Move m;
  m.kind = MoveKind::Act;
  m.player = static_cast<u8>(player);
  m.pk = static_cast<u8>(pk);
  m.x = static_cast<i8>(x);
  m.y = static_cast<i8>(y);
  m.rot = static_cast<u8>(rot);
  m.feat = static_cast<u8>(feat);
  return m;
}
// Found a watering hole: a token of `species` and a photographer on corner `corner` of cell x,y.
Move found(int player, int x, int y, int corner, int species) { return act(player, 2, x, y, corner, species); }
Move explore(int player, int x, int y, int corner, int species) { return act(player, 3, x, y, corner, species); }
Move jeep_move(int player, int jeep, int x, int y) { return act(player, 1, x, y, jeep, kNone); }
// A token hand-in decision (species, or kNone to hand in nothing).
Move hand_in(int player, int species) {
  Move m;
  m.kind = MoveKind::Choose;
  m.player = static_cast<u8>(player);
  m.feat = static_cast<u8>(species);
  return m;
}
// The taken jeep's new cell (a Choose decision of the current player).
Move jeep_to(int player, int jeep, int x, int y) {
  Move m;
  m.kind = MoveKind::Choose;
  m.player = static_cast<u8>(player);
  m.feat = static_cast<u8>(jeep);
  m.x = static_cast<i8>(x);
  m.y = static_cast<i8>(y);
  m.pk = 1;  // a jeep
  return m;
}

std::vector<Move> legal(const State& s) {
  MoveList ml;
  legal_moves(s, ml);
  return std::vector<Move>(ml.begin(), ml.end());
}
// The listed actions of one kind (1 jeep, 2 found, 3 explore).
std::vector<Move> actions(const State& s, int pk) {
  std::vector<Move> out;
  for (const Move& m : legal(s))
    if (m.kind == MoveKind::Act && m.pk == pk) out.push_back(m);
  return out;
}
// The listed hand-in options of the deciding player, as species (kNone first).
std::vector<int> hand_in_options(const State& s) {
  std::vector<int> out;
  for (const Move& m : legal(s)) {
    EXPECT_EQ(m.kind, MoveKind::Choose);
    EXPECT_EQ(m.player, to_move(s));
    out.push_back(m.feat);
  }
  return out;
}

int photographers_on_board(const State& s, int p) {
  int n = 0;
  for (const auto& pc : s.pieces) n += pc.player == p;
  for (const Spot& sp : safari_state(s).spots)
    for (const u8 o : sp.owner) n += o == p;
  return n;
}

const Spot* spot_at(const State& s, int px, int py) {
  for (const Spot& sp : safari_state(s).spots)
    if (sp.x == px && sp.y == py) return &sp;
  return nullptr;
}

// ---------------------------------------------------------------------------------------------
// Rulebook: trails
// ---------------------------------------------------------------------------------------------

// "On your trail there are 3 different species: you score 6 points." The trail: the start
// board's giraffe (CSS2, dead end S), CS7 turned 180 (a N-E bend with an elephant, red's
// photographer) and CS16a turned 90 (a dead end W with a zebra), placed by blue: "your trail is
// completed even though your opponent placed the tile". Red holds only species already on the
// trail, so there is nothing to decide.
TEST(SafariRulebook, TrailWithThreeSpeciesScoresSix) {
  auto sc = safari(2, {kGiraffe, kElephant, kLion, kZebra});
  EXPECT_TRUE(sc.place("CS7a", 0, 1, 180, kRed, "N").empty()) << "an open trail scores nothing";
  EXPECT_EQ(sc.s.supply[kRed], 5);
  EXPECT_EQ(texts(sc, sc.place("CS16a", 1, 1, 90, kBlue)), Lines({"completed trail red 6 (3 species, 0 birds, 3 tiles)"}));
  EXPECT_EQ(sc.s.phase, Phase::Draw) << "no token to hand in: no decision";
  EXPECT_EQ(sc.score(kRed), 6);
  EXPECT_EQ(sc.score(kBlue), 0);
  EXPECT_EQ(sc.s.supply[kRed], 6) << "the photographer returns";
  EXPECT_EQ(hand(sc, kRed), tokens(0, 1, 1, 0, 0)) << "nothing handed in";
  EXPECT_EQ(total(safari_state(sc.s).tokens.discard), 0);
}

// "Your trail already has an elephant, a zebra and a giraffe. You add a lion token from your
// supply: 4 species, and you score 10 instead of 6." The same trail; red holds a lion and a monkey
// and decides (on blue's turn) which, if any, to hand in. The token goes to the discard pile.
TEST(SafariRulebook, TrailWithLionHandedInScoresTen) {
  auto sc = safari(2, {kLion, kMonkey, kElephant, kZebra});
  sc.place("CS7a", 0, 1, 180, kRed, "N");
  EXPECT_TRUE(sc.place("CS16a", 1, 1, 90, kBlue).empty()) << "scoring waits for red's decision";
  ASSERT_EQ(sc.s.phase, Phase::Choose);
  EXPECT_EQ(sc.s.current, kBlue);
  EXPECT_EQ(to_move(sc.s), kRed) << "red decides on blue's turn";
  EXPECT_EQ(hand_in_options(sc.s), std::vector<int>({kNone, kMonkey, kLion}));
  EXPECT_FALSE(is_legal(sc.s, hand_in(kRed, kZebra))) << "red holds no zebra (and the trail has one)";
  EXPECT_FALSE(is_legal(sc.s, hand_in(kBlue, kLion))) << "blue has no photographer there";
  EXPECT_EQ(texts(sc, sc.play(hand_in(kRed, kLion))),
            Lines({"completed trail red 10 (4 species, 0 birds, 3 tiles, lion handed in)"}));
  EXPECT_EQ(sc.score(kRed), 10);
  EXPECT_EQ(hand(sc, kRed), tokens(1, 0, 0, 0, 0));
  EXPECT_EQ(safari_state(sc.s).tokens.discard, tokens(0, 0, 0, 1, 0)) << "the lion goes to the discard pile";
  EXPECT_EQ(sc.s.supply[kRed], 6);
  EXPECT_EQ(sc.s.phase, Phase::Draw);
  EXPECT_EQ(sc.s.current, kRed) << "blue's turn is over";
  EXPECT_EQ(safari_state(sc.s).pend_root, 0xFFFF);
}

// ---------------------------------------------------------------------------------------------
// Rulebook: bushes
// ---------------------------------------------------------------------------------------------

// "Your bush already has a giraffe and a monkey. You add a zebra token: 3 species, 6 points. The 3
// birds in the bush give you 3 more: 9 points in all." The bush: the start board's (CSS3, 1 bird),
// CS30 turned 90 (a giraffe and 1 bird, red's photographer) and CS25 turned 90 (a monkey and 1 bird;
// its other bush, with a lion, stays apart), placed by blue.
TEST(SafariRulebook, BushWithZebraHandedInAndThreeBirdsScoresNine) {
  auto sc = safari(2, {kZebra, kGiraffe, kMonkey, kLion});
  EXPECT_TRUE(sc.place("CS30a", 1, -1, 90, kRed, "N").empty());
  EXPECT_TRUE(sc.place("CS25a", 1, -2, 90, kBlue).empty());
  ASSERT_EQ(sc.s.phase, Phase::Choose);
  EXPECT_EQ(to_move(sc.s), kRed);
  EXPECT_EQ(hand_in_options(sc.s), std::vector<int>({kNone, kZebra})) << "the giraffe is in the bush already";
  EXPECT_EQ(texts(sc, sc.play(hand_in(kRed, kZebra))),
            Lines({"completed bush red 9 (3 species, 3 birds, 3 tiles, zebra handed in)"}));
  EXPECT_EQ(sc.score(kRed), 9);
  EXPECT_EQ(safari_state(sc.s).tokens.discard, tokens(0, 0, 0, 0, 1));
  EXPECT_EQ(hand(sc, kRed), tokens(0, 0, 1, 0, 0));
  // CS25's lion bush is a separate, open bush
  const PlacedTile& t = sc.s.tiles[static_cast<std::size_t>(sc.s.placed_at(1, -2))];
  const int lion_bush = sc.s.graph.find(t.seg0 + feature_at_port(sc.s, t, "N"));
  EXPECT_NE(sc.s.graph[lion_bush].open, 0);
  EXPECT_EQ(sc.s.graph[lion_bush].attr[kLion], 1);
}

// ---------------------------------------------------------------------------------------------
// Rulebook: several photographers on one feature
// ---------------------------------------------------------------------------------------------

// "At the start of your turn your photographer and blue's stand on two different trails. You place
// a tile that joins them: the trail is completed and has 4 species. You add a token of a fifth
// species and score 15. Blue adds no token and scores 10." Red's trail: CSS2's giraffe and CS5a
// turned 90 (a lion); blue's: CS3 turned 90 (a dead end with an elephant) and CS6 turned 90 (a
// monkey); red's CS7 turned 180 (an elephant) joins them. Each scorer decides separately, red
// first (the current player), then blue, on red's turn.
TEST(SafariRulebook, JoinedTrailsFifteenWithTokenTenWithout) {
  auto sc = safari(2, {kZebra, kGiraffe, kZebra, kLion});
  sc.place("CS5a", 0, 1, 90, kRed, "N");
  sc.place("CS3a", 1, 1, 90, kBlue, "S");
  EXPECT_TRUE(sc.place("CS6a", 1, 2, 90, kBlue).empty());
  EXPECT_EQ(sc.s.supply[kRed], 5);
  EXPECT_EQ(sc.s.supply[kBlue], 5);
  EXPECT_TRUE(sc.place("CS7a", 0, 2, 180, kRed).empty());
  ASSERT_EQ(sc.s.phase, Phase::Choose);
  EXPECT_EQ(to_move(sc.s), kRed);
  EXPECT_EQ(hand_in_options(sc.s), std::vector<int>({kNone, kZebra}));
  EXPECT_TRUE(sc.play(hand_in(kRed, kZebra)).empty()) << "nothing scores before blue has decided";
  ASSERT_EQ(sc.s.phase, Phase::Choose);
  EXPECT_EQ(sc.s.current, kRed) << "still red's turn";
  EXPECT_EQ(to_move(sc.s), kBlue) << "blue decides on red's turn";
  EXPECT_EQ(hand_in_options(sc.s), std::vector<int>({kNone, kZebra})) << "blue's lion is on the trail already";
  EXPECT_FALSE(is_legal(sc.s, hand_in(kRed, kNone))) << "red has decided already";
  EXPECT_EQ(texts(sc, sc.play(hand_in(kBlue, kNone))),
            Lines({"completed trail red 15 (5 species, 0 birds, 5 tiles, zebra handed in)",
                   "completed trail blue 10 (4 species, 0 birds, 5 tiles)"}));
  EXPECT_EQ(sc.score(kRed), 15);
  EXPECT_EQ(sc.score(kBlue), 10);
  EXPECT_EQ(hand(sc, kRed), tokens(0, 0, 1, 0, 0));
  EXPECT_EQ(hand(sc, kBlue), tokens(0, 0, 0, 1, 1)) << "blue keeps his zebra";
  EXPECT_EQ(safari_state(sc.s).tokens.discard, tokens(0, 0, 0, 0, 1));
  EXPECT_EQ(sc.s.supply[kRed], 6);
  EXPECT_EQ(sc.s.supply[kBlue], 6);
  EXPECT_EQ(sc.s.phase, Phase::Draw);
  EXPECT_EQ(sc.s.current, kBlue);
}

// "Before your turn 3 photographers stand in different bushes. You join them with one tile into a
// big bush. You have more photographers there, so only you score; blue gets nothing. You hand in
// no token and score 11 (6 for 3 species and 5 for the birds)." Red's bushes: CS25 (a monkey and
// 1 bird) at -1,-1 and CS19a turned 90 (a giraffe and 1 bird) at 0,-2; blue's: CS26 turned 180 (an
// elephant and 2 birds) joined to the start board's bush (1 bird) at 1,-1. CS33 turned 270 (bush
// on its W, N and E sides, a monkey) joins the three at 0,-1. CS3 at 1,-2 only lets CS19a be placed.
TEST(SafariRulebook, BushMajorityTwoPhotographersAgainstOneScoresEleven) {
  auto sc = safari(2, {kLion, kMonkey, kZebra, kLion});
  sc.place("CS25a", -1, -1, 0, kRed, "E");
  sc.place("CS26a", 1, -1, 180, kBlue, "S");
  sc.place("CS3a", 1, -2, 180, kBlue);
  sc.place("CS19a", 0, -2, 90, kRed, "S");
  EXPECT_EQ(sc.s.supply[kRed], 4);
  EXPECT_EQ(sc.s.supply[kBlue], 5);
  EXPECT_TRUE(sc.place("CS33a", 0, -1, 270, kRed).empty());
  ASSERT_EQ(sc.s.phase, Phase::Choose);
  EXPECT_EQ(to_move(sc.s), kRed) << "only the majority decides: blue, with a zebra and a lion, is not asked";
  EXPECT_EQ(hand_in_options(sc.s), std::vector<int>({kNone, kLion}));
  EXPECT_EQ(texts(sc, sc.play(hand_in(kRed, kNone))), Lines({"completed bush red 11 (3 species, 5 birds, 5 tiles)"}));
  EXPECT_EQ(sc.s.phase, Phase::Draw) << "blue is never asked";
  EXPECT_EQ(sc.score(kRed), 11);
  EXPECT_EQ(sc.score(kBlue), 0);
  EXPECT_EQ(sc.s.supply[kRed], 6);
  EXPECT_EQ(sc.s.supply[kBlue], 6) << "blue's photographer returns too";
  EXPECT_EQ(hand(sc, kRed), tokens(1, 0, 0, 1, 0));
  EXPECT_EQ(hand(sc, kBlue), tokens(0, 0, 0, 1, 1));
}

// ---------------------------------------------------------------------------------------------
// Rulebook: watering holes
// ---------------------------------------------------------------------------------------------
// The point used below is 1,1 (the NW corner of cell 1,1): its quarters are the NE corner of cell
// 0,1 (quarter 0), the SE corner of CSS2 at 0,0 (1), the SW corner of CSS3 at 1,0 (2) and the NW
// corner of cell 1,1 (3). CS5a turned 90 at 0,1 and CS1 at 1,1 show savanna at every corner.

// "You place a tile and, instead of a photographer, found a watering hole: +3." "You explore a
// watering hole found earlier (zebra and giraffe tokens) with a token of another species (monkey):
// the third token, 5 points." "You finish exploring the watering hole: you score 6. Blue scores 3
// and takes his photographer back." With the 2nd token +4 in between.
TEST(SafariRulebook, WateringHoleFoundThreeThenFourFiveSixAndThreeForThePhotographer) {
  auto sc = safari(3, {kGiraffe, kLion, kZebra, kZebra, kMonkey, kGiraffe});
  // blue founds with a zebra on CSS2's SE corner (any placed tile, not only the new one)
  sc.draw_and_place("CS5a", 0, 1, 90, kBlue);
  EXPECT_EQ(texts(sc, sc.play(found(kBlue, 0, 0, kSE, kZebra))), Lines({"found blue 3 (zebra)"}));
  EXPECT_EQ(sc.s.supply[kBlue], 5) << "a photographer stands on the token";
  ASSERT_NE(spot_at(sc.s, 1, 1), nullptr);
  EXPECT_EQ(spot_at(sc.s, 1, 1)->owner[kSE], kBlue);
  EXPECT_EQ(hand(sc, kBlue), tokens(0, 0, 0, 0, 1));
  // red explores with a giraffe: the 2nd token
  sc.draw_and_place("CS1a", 1, 1, 0, kRed);
  EXPECT_EQ(texts(sc, sc.play(explore(kRed, 1, 0, kSW, kGiraffe))), Lines({"explore red 4 (token 2, giraffe)"}));
  EXPECT_EQ(sc.s.supply[kRed], 6) << "exploring takes no photographer";
  // yellow (a monkey and a giraffe) may explore only with the monkey, on either empty quarter
  sc.draw_and_place("CS1b", -1, -1, 0, kYellow);
  std::set<std::tuple<int, int, int, int>> at_point;
  for (const Move& m : actions(sc.s, 3)) at_point.emplace(m.x, m.y, m.rot, m.feat);
  EXPECT_EQ(at_point, (std::set<std::tuple<int, int, int, int>>{{0, 1, kNE, kMonkey}, {1, 1, kNW, kMonkey}}));
  EXPECT_FALSE(is_legal(sc.s, explore(kYellow, 0, 1, kNE, kGiraffe))) << "a giraffe is there already";
  EXPECT_FALSE(is_legal(sc.s, explore(kYellow, 1, 0, kSW, kMonkey))) << "that quarter holds a token";
  EXPECT_FALSE(is_legal(sc.s, found(kYellow, 0, 1, kNE, kMonkey))) << "founding needs a point with no token";
  EXPECT_EQ(texts(sc, sc.play(explore(kYellow, 0, 1, kNE, kMonkey))), Lines({"explore yellow 5 (token 3, monkey)"}));
  // red completes it with a lion: 6 for red, 3 for blue, whose photographer returns
  sc.draw_and_place("CS3a", 0, -1, 0, kRed);
  EXPECT_EQ(texts(sc, sc.play(explore(kRed, 1, 1, kNW, kLion))),
            Lines({"explore red 6 (token 4, lion)", "watering hole blue 3"}));
  EXPECT_EQ(sc.score(kRed), 10);
  EXPECT_EQ(sc.score(kBlue), 6);
  EXPECT_EQ(sc.score(kYellow), 5);
  EXPECT_EQ(sc.s.supply[kBlue], 6) << "blue's photographer returns";
  const Spot& sp = *spot_at(sc.s, 1, 1);
  EXPECT_EQ(sp.ntokens, 4);
  EXPECT_EQ(sp.closed, 1);
  EXPECT_EQ(sp.token, (std::array<u8, 4>{kMonkey, kZebra, kGiraffe, kLion}));
  EXPECT_EQ(sp.owner, (std::array<u8, 4>{kNone, kNone, kNone, kNone}));
  EXPECT_EQ(total(safari_state(sc.s).tokens.discard), 0) << "tokens stay at the watering hole";
  EXPECT_EQ(safari_state(sc.s).spots.size(), 1u);
}

// The search's playouts judge an action by Hooks::option_gain: the points it scores at once less
// the token spent (1 in hand at the end), the completion's 3 for the mover's photographer and
// against each other player's; a jeep moved, a photographer or a pass gains nothing. The same flow as the test above,
// and the diagonal exception's completion (both players' photographers there).
TEST(SafariRules, OptionGainIsTheWateringHolesPointsLessTheToken) {
  const auto gain = [](const State& s, const Move& m) {
    EXPECT_TRUE(is_legal(s, m));
    return s.rs->game->hooks.option_gain(s, m);
  };
  auto sc = safari(3, {kGiraffe, kLion, kZebra, kZebra, kMonkey, kGiraffe});
  ASSERT_NE(sc.s.rs->game->hooks.option_gain, nullptr);
  sc.draw_and_place("CS5a", 0, 1, 90, kBlue);
  for (const Move& m : actions(sc.s, 1)) EXPECT_EQ(gain(sc.s, m), 0.0) << "a jeep moved";
  for (const Move& m : legal(sc.s))
    if (m.kind != MoveKind::Act) {
      EXPECT_EQ(gain(sc.s, m), 0.0) << "a photographer or a pass";
    }
  EXPECT_EQ(gain(sc.s, found(kBlue, 0, 0, kSE, kZebra)), 3.0 - 1.0);
  sc.play(found(kBlue, 0, 0, kSE, kZebra));
  sc.draw_and_place("CS1a", 1, 1, 0, kRed);
  EXPECT_EQ(gain(sc.s, explore(kRed, 1, 0, kSW, kGiraffe)), 4.0 - 1.0);
  sc.play(explore(kRed, 1, 0, kSW, kGiraffe));
  sc.draw_and_place("CS1b", -1, -1, 0, kYellow);
  EXPECT_EQ(gain(sc.s, explore(kYellow, 0, 1, kNE, kMonkey)), 5.0 - 1.0);
  sc.play(explore(kYellow, 0, 1, kNE, kMonkey));
  sc.draw_and_place("CS3a", 0, -1, 0, kRed);
  EXPECT_EQ(gain(sc.s, explore(kRed, 1, 1, kNW, kLion)), 6.0 - 1.0 - 3.0) << "blue's photographer scores 3";

  auto d = safari(2, {kZebra, kElephant, kZebra, kLion});
  d.draw_and_place("CS5a", 0, 1, 90, kBlue);
  d.play(found(kBlue, 0, 0, kSE, kZebra));
  d.draw_and_place("CS1a", 1, 1, 0, kRed);
  d.play(found(kRed, 1, 1, kNW, kZebra));
  d.draw_and_place("CS1b", -1, -1, 0, kBlue);
  d.play(explore(kBlue, 0, 1, kNE, kLion));
  d.draw_and_place("CS3a", 0, -1, 0, kRed);
  EXPECT_EQ(gain(d.s, explore(kRed, 1, 0, kSW, kElephant)), 6.0 - 1.0 + 3.0 - 3.0)
      << "3 for red's photographer, 3 for blue's";
}

// "Exception: you may found a watering hole on the tile diagonal to a watering hole found
// already. The 2 tokens do not touch, so you may put a photographer on the new one. When it is
// fully explored, two players' photographers stand there. This is the only case where a watering
// hole may hold 2 equal animals." Blue founds with a zebra on quarter 1, red founds with a zebra
// on the diagonally opposite quarter 3; founding on quarters 0 and 2 (next to blue's token) and on
// bush corners is refused. Completion pays 3 to each owner.
TEST(SafariRulebook, WateringHoleDiagonalExceptionTwoOwnersScoreThreeEach) {
  auto sc = safari(2, {kZebra, kElephant, kZebra, kLion});
  sc.draw_and_place("CS5a", 0, 1, 90, kBlue);
  EXPECT_FALSE(is_legal(sc.s, found(kBlue, 1, 0, kNW, kZebra))) << "CSS3's NW corner shows its bush";
  EXPECT_FALSE(is_legal(sc.s, found(kBlue, -1, 0, kSE, kZebra))) << "CSS1's SE corner shows its bush";
  EXPECT_FALSE(is_legal(sc.s, found(kBlue, -1, 0, kSW, kZebra)));
  EXPECT_TRUE(is_legal(sc.s, found(kBlue, -1, 0, kNE, kZebra))) << "CSS1's NE corner is savanna";
  sc.play(found(kBlue, 0, 0, kSE, kZebra));
  sc.draw_and_place("CS1a", 1, 1, 0, kRed);
  std::set<std::tuple<int, int, int>> near;  // red's found moves around point 1,1
  for (const Move& m : actions(sc.s, 2))
    if ((m.x == 0 && m.y == 1 && m.rot == kNE) || (m.x == 1 && m.y == 0 && m.rot == kSW) || (m.x == 1 && m.y == 1 && m.rot == kNW) ||
        (m.x == 0 && m.y == 0 && m.rot == kSE))
      near.emplace(m.x, m.y, m.feat);
  EXPECT_EQ(near, (std::set<std::tuple<int, int, int>>{{1, 1, kZebra}, {1, 1, kElephant}})) << "only the diagonal quarter";
  EXPECT_FALSE(is_legal(sc.s, found(kRed, 0, 1, kNE, kElephant))) << "next to blue's token";
  EXPECT_FALSE(is_legal(sc.s, found(kRed, 1, 0, kSW, kElephant))) << "next to blue's token";
  EXPECT_EQ(texts(sc, sc.play(found(kRed, 1, 1, kNW, kZebra))), Lines({"found red 3 (zebra)"})) << "the same species is allowed";
  const Spot& sp = *spot_at(sc.s, 1, 1);
  EXPECT_EQ(sp.ntokens, 2);
  EXPECT_EQ(sp.token[kSE], kZebra);
  EXPECT_EQ(sp.token[kNW], kZebra);
  EXPECT_EQ(sp.owner[kSE], kBlue);
  EXPECT_EQ(sp.owner[kNW], kRed);
  EXPECT_EQ(safari_state(sc.s).spots.size(), 1u) << "one watering hole with two photographers";
  // blue explores the 3rd quarter (no third found: the point has 2 tokens now)
  sc.draw_and_place("CS1b", -1, -1, 0, kBlue);
  EXPECT_FALSE(is_legal(sc.s, found(kBlue, 0, 1, kNE, kLion)));
  EXPECT_EQ(texts(sc, sc.play(explore(kBlue, 0, 1, kNE, kLion))), Lines({"explore blue 5 (token 3, lion)"}));
  sc.draw_and_place("CS3a", 0, -1, 0, kRed);
  EXPECT_EQ(texts(sc, sc.play(explore(kRed, 1, 0, kSW, kElephant))),
            Lines({"explore red 6 (token 4, elephant)", "watering hole blue 3", "watering hole red 3"}));
  EXPECT_EQ(sc.score(kBlue), 3 + 5 + 3);
  EXPECT_EQ(sc.score(kRed), 3 + 6 + 3);
  EXPECT_EQ(sc.s.supply[kBlue], 6);
  EXPECT_EQ(sc.s.supply[kRed], 6);
}

// "If one player put two photographers on the watering hole, he still scores only 3 points." Red
// founds twice at point 1,1 (diagonally opposite quarters); blue explores the other two.
TEST(SafariRulebook, WateringHoleTwoPhotographersOfOnePlayerScoreThreeOnce) {
  auto sc = safari(2, {kZebra, kZebra, kGiraffe, kLion});
  sc.draw_and_place("CS5a", 0, 1, 90, kRed);
  sc.play(found(kRed, 0, 0, kSE, kZebra));
  sc.place("CS1a", 1, 1, 0, kBlue);
  sc.draw_and_place("CS1b", -1, -1, 0, kRed);
  EXPECT_EQ(texts(sc, sc.play(found(kRed, 1, 1, kNW, kZebra))), Lines({"found red 3 (zebra)"}));
  EXPECT_EQ(sc.s.supply[kRed], 4);
  EXPECT_EQ(photographers_on_board(sc.s, kRed), 2);
  sc.draw_and_place("CS3a", 0, -1, 0, kBlue);
  EXPECT_EQ(texts(sc, sc.play(explore(kBlue, 0, 1, kNE, kGiraffe))), Lines({"explore blue 5 (token 3, giraffe)"}));
  sc.place("CS3b", 0, -2, 180, kRed);
  sc.draw_and_place("CS3c", -1, -2, 0, kBlue);
  EXPECT_EQ(texts(sc, sc.play(explore(kBlue, 1, 0, kSW, kLion))), Lines({"explore blue 6 (token 4, lion)", "watering hole red 3"}));
  EXPECT_EQ(sc.score(kRed), 3 + 3 + 3);
  EXPECT_EQ(sc.score(kBlue), 5 + 6);
  EXPECT_EQ(sc.s.supply[kRed], 6) << "both photographers return";
}

// ---------------------------------------------------------------------------------------------
// Rulebook: the end of the game
// ---------------------------------------------------------------------------------------------

// "You score 2 points for the two animals on the trail." "You score 3 points for the 3 animal
// tokens left in your supply." "Blue scores nothing for the photographer on the baobab tile."
// Red's unfinished trail: CSS2's giraffe and CS5a turned 90 (a lion). Red reaches 3 tokens through
// a baobab (2 more) and a watering hole founded with one (its photographer also scores nothing
// at the end); blue keeps his 2 opening tokens and the 2 of his baobab.
TEST(SafariRulebook, FinalTrailTwoAnimalsTokensInHandBaobabNothing) {
  auto sc = safari(2, {kLion, kZebra, kMonkey, kElephant});
  sc.place("CS5a", 0, 1, 90, kRed, "N");
  EXPECT_TRUE(sc.place("CS1a", -1, -1, 0, kBlue, "C").empty());
  ASSERT_EQ(sc.s.phase, Phase::Chance) << "a photographer on a baobab takes 2 tokens";
  deal(sc, kGiraffe);
  deal(sc, kGiraffe);
  sc.place("CS1b", 1, 1, 0, kRed, "C");
  deal(sc, kElephant);
  deal(sc, kMonkey);
  EXPECT_EQ(hand(sc, kRed), tokens(1, 1, 0, 1, 1));
  sc.place("CS3a", 0, -1, 0, kBlue);
  sc.draw_and_place("CS3b", 0, -2, 270, kRed);
  EXPECT_EQ(texts(sc, sc.play(found(kRed, 0, 0, kNE, kLion))), Lines({"found red 3 (lion)"}));
  EXPECT_EQ(sc.s.phase, Phase::Draw);
  EXPECT_EQ(texts(sc, sc.finish()), Lines({"unfinished trail red 2 (2 animals, 0 birds)", "tokens red 3 (3 in hand)",
                                           "tokens blue 4 (4 in hand)"}));
  EXPECT_EQ(sc.score(kRed), 3 + 2 + 3);
  EXPECT_EQ(sc.score(kBlue), 4);
  EXPECT_EQ(sc.s.supply[kBlue], 6);
  EXPECT_EQ(sc.s.supply[kRed], 5) << "the watering hole's photographer stays there";
}

// "Your photographers and blue's stand in a big bush: 4 animals and 6 birds in all; you and blue
// score 10 points each." (No majority at the end.) "Blue scores 2 points for 1 animal and 1 bird in
// a small bush." The big bush is the majority example's, left open: red's CS25 (a monkey, 1 bird)
// and CS28 turned 90 (a giraffe, 2 birds, its bush open to the E), blue's CS26 turned 180 on the
// start board's bush (an elephant, 3 birds), joined by CS33 (a monkey). Blue's small bush: CS19a
// turned 90 at 0,1 (a giraffe and 1 bird).
TEST(SafariRulebook, FinalSharedBushTenEachAndSmallBushTwo) {
  auto sc = safari(2, {kLion, kZebra, kLion, kZebra});
  sc.place("CS25a", -1, -1, 0, kRed, "E");
  sc.place("CS26a", 1, -1, 180, kBlue, "S");
  sc.place("CS1b", -1, -2, 0, kRed);
  sc.place("CS19a", 0, 1, 90, kBlue, "S");
  sc.place("CS28a", 0, -2, 90, kRed, "S");
  EXPECT_TRUE(sc.place("CS33a", 0, -1, 270, kBlue).empty()) << "the joined bush is still open";
  const PlacedTile& j = sc.s.tiles[static_cast<std::size_t>(sc.s.placed_at(0, -1))];
  const FeatureInfo big = feature_info(sc.s, j.seg0 + feature_at_port(sc.s, j, "N"));
  EXPECT_FALSE(big.closed);
  EXPECT_EQ(big.pieces[kRed], 2);
  EXPECT_EQ(big.pieces[kBlue], 1);
  EXPECT_EQ(texts(sc, sc.finish()),
            Lines({"unfinished bush red 10 (4 animals, 6 birds)", "unfinished bush blue 10 (4 animals, 6 birds)",
                   "unfinished bush blue 2 (1 animals, 1 birds)", "tokens red 2 (2 in hand)", "tokens blue 2 (2 in hand)"}));
  EXPECT_EQ(sc.score(kRed), 12);
  EXPECT_EQ(sc.score(kBlue), 14);
  EXPECT_EQ(sc.s.supply[kRed], 6);
  EXPECT_EQ(sc.s.supply[kBlue], 6);
}

// ---------------------------------------------------------------------------------------------
// Rulebook: baobabs
// ---------------------------------------------------------------------------------------------

// "Having placed a baobab tile you may put a photographer on the baobab and take 2 animal tokens."
// "When the baobab tile with your photographer is surrounded on all sides (also diagonally), the
// photographer returns to your supply and you take 2 more tokens. A baobab gives no points."
// Red's baobab: CS1a at 0,-1 (3 of its neighbours are the start board); blue places the 8th
// neighbour, so red takes the tokens on blue's turn.
TEST(SafariRulebook, BaobabTakesTwoTokensAndTwoMoreWhenSurrounded) {
  auto sc = safari(2, {kMonkey, kMonkey, kElephant, kElephant});
  const Hand pile0 = safari_state(sc.s).tokens.pile;
  EXPECT_EQ(pile0, tokens(8, 8, 10, 10, 10));
  EXPECT_TRUE(sc.place("CS1a", 0, -1, 0, kRed, "C").empty());
  ASSERT_EQ(sc.s.phase, Phase::Chance);
  EXPECT_TRUE(is_chance(sc.s));
  EXPECT_EQ(safari_state(sc.s).tokens.deal_to, kRed);
  EXPECT_EQ(safari_state(sc.s).tokens.deal_left, 2);
  deal(sc, kLion);
  EXPECT_EQ(sc.s.phase, Phase::Chance) << "2 tokens at once";
  deal(sc, kZebra);
  EXPECT_EQ(sc.s.phase, Phase::Draw);
  EXPECT_EQ(sc.s.current, kBlue);
  EXPECT_EQ(hand(sc, kRed), tokens(2, 0, 0, 1, 1));
  EXPECT_EQ(safari_state(sc.s).tokens.pile, tokens(8, 8, 10, 9, 9));
  EXPECT_EQ(sc.s.supply[kRed], 5);
  sc.place("CS1b", -1, -1, 0, kBlue);
  sc.place("CS20a", 1, -1, 90, kRed);
  sc.place("CS3a", -1, -2, 0, kBlue);
  EXPECT_TRUE(sc.place("CS3b", 0, -2, 180, kRed).empty());
  EXPECT_EQ(sc.s.supply[kRed], 5) << "7 neighbours: the photographer stays";
  EXPECT_TRUE(sc.place("CS3c", 1, -2, 270, kBlue).empty()) << "a baobab never scores points";
  ASSERT_EQ(sc.s.phase, Phase::Chance) << "the 8th neighbour: red takes 2 more tokens";
  EXPECT_EQ(sc.s.current, kBlue);
  EXPECT_EQ(safari_state(sc.s).tokens.deal_to, kRed);
  EXPECT_EQ(sc.s.supply[kRed], 6) << "the photographer returns";
  deal(sc, kGiraffe);
  deal(sc, kElephant);
  EXPECT_EQ(hand(sc, kRed), tokens(2, 1, 1, 1, 1));
  EXPECT_EQ(hand(sc, kBlue), tokens(0, 2, 0, 0, 0));
  EXPECT_EQ(sc.s.phase, Phase::Draw);
  EXPECT_EQ(sc.s.current, kRed);
  EXPECT_EQ(sc.score(kRed), 0);
  EXPECT_EQ(sc.score(kBlue), 0);
  EXPECT_TRUE(sc.events.empty());
}

// ---------------------------------------------------------------------------------------------
// Rulebook: jeeps
// ---------------------------------------------------------------------------------------------

// "1b. You place the tile on a space taken by a jeep: take the jeep." "3b. Score the features the
// tile completed; the jeep in front of you gives you 3 points. After scoring you must put the jeep
// on an empty space next to any placed tile." "You may move only 1 jeep per turn: having taken a
// jeep you may not move the other." "2a. Instead of a photographer you may move a jeep to an empty
// space next to any tile." "Moving a jeep gives no points." "Two jeeps never share a space."
TEST(SafariRulebook, JeepTakenScoresThreeAfterScoringAndMustBeRelocated) {
  auto sc = safari(2, {kMonkey, kElephant, kLion, kZebra});
  EXPECT_EQ(safari_state(sc.s).markers[0], (std::array<i8, 2>{-2, 0}));
  EXPECT_EQ(safari_state(sc.s).markers[1], (std::array<i8, 2>{2, 0}));
  // red closes CSS3's monkey trail with CS3 turned 180 (an elephant) on the jeep at 2,0
  sc.draw_and_place("CS3a", 2, 0, 180, kRed);
  EXPECT_EQ(safari_state(sc.s).marker_taken, 2);
  EXPECT_EQ(safari_state(sc.s).markers[1][0], kOffBoard);
  EXPECT_TRUE(actions(sc.s, 1).empty()) << "no jeep move in a turn that took a jeep";
  EXPECT_FALSE(is_legal(sc.s, jeep_move(kRed, 0, 0, 1)));
  EXPECT_FALSE(actions(sc.s, 2).empty()) << "founding a watering hole is still possible";
  EXPECT_EQ(texts(sc, sc.play(sc.piece_move(kRed, 2, 0, "W"))),
            Lines({"completed trail red 3 (2 species, 0 birds, 2 tiles)", "jeep red 3"}));
  ASSERT_EQ(sc.s.phase, Phase::Choose) << "the jeep must go back on the board";
  EXPECT_EQ(to_move(sc.s), kRed);
  std::set<std::pair<int, int>> cells, frontier;
  for (const Move& m : legal(sc.s)) {
    EXPECT_EQ(m.feat, 1);
    cells.emplace(m.x, m.y);
  }
  for (const FrontierCell& fc : sc.s.frontier) frontier.emplace(fc.x, fc.y);
  EXPECT_EQ(frontier.count({-2, 0}), 1u);
  frontier.erase({-2, 0});
  EXPECT_EQ(cells, frontier) << "every empty cell next to the tiles but the other jeep's";
  EXPECT_FALSE(is_legal(sc.s, jeep_to(kRed, 1, -2, 0))) << "the other jeep stands there";
  EXPECT_FALSE(is_legal(sc.s, jeep_to(kRed, 1, 1, 0))) << "a tile is there";
  EXPECT_FALSE(is_legal(sc.s, jeep_to(kRed, 1, 5, 5))) << "not next to the tiles";
  EXPECT_FALSE(is_legal(sc.s, jeep_to(kBlue, 1, 0, 1))) << "the current player relocates it";
  EXPECT_TRUE(sc.play(jeep_to(kRed, 1, 0, 1)).empty());
  EXPECT_EQ(safari_state(sc.s).markers[1], (std::array<i8, 2>{0, 1}));
  EXPECT_EQ(safari_state(sc.s).marker_taken, 0);
  EXPECT_EQ(sc.s.phase, Phase::Draw);
  EXPECT_EQ(sc.s.current, kBlue);
  EXPECT_EQ(sc.score(kRed), 6);
  // blue moves a jeep instead of a photographer: any free cell next to the tiles, no points
  sc.draw_and_place("CS1a", -1, -1, 0, kBlue);
  const auto moves = actions(sc.s, 1);
  EXPECT_EQ(moves.size(), 2 * (sc.s.frontier.size() - 2)) << "each jeep to each free cell but the two jeeps' own";
  EXPECT_FALSE(is_legal(sc.s, jeep_move(kBlue, 0, 0, 1))) << "two jeeps never share a cell";
  EXPECT_FALSE(is_legal(sc.s, jeep_move(kBlue, 1, -2, 0)));
  EXPECT_FALSE(is_legal(sc.s, jeep_move(kBlue, 0, -2, 0))) << "to another cell";
  EXPECT_TRUE(sc.play(jeep_move(kBlue, 0, 1, 1)).empty()) << "moving a jeep scores nothing";
  EXPECT_EQ(safari_state(sc.s).markers[0], (std::array<i8, 2>{1, 1}));
  EXPECT_EQ(sc.score(kBlue), 0);
  EXPECT_EQ(sc.s.phase, Phase::Draw);
  // red takes the moved jeep: nothing completed, +3, and it may not go to the other jeep's cell
  EXPECT_EQ(texts(sc, sc.place("CS1b", 1, 1, 0, kRed)), Lines({"jeep red 3"}));
  ASSERT_EQ(sc.s.phase, Phase::Choose);
  EXPECT_EQ(safari_state(sc.s).marker_taken, 1);
  EXPECT_FALSE(is_legal(sc.s, jeep_to(kRed, 0, 0, 1)));
  EXPECT_TRUE(is_legal(sc.s, jeep_to(kRed, 0, -2, 0)));
  sc.play(jeep_to(kRed, 0, -2, 0));
  EXPECT_EQ(sc.score(kRed), 9);
  EXPECT_EQ(safari_state(sc.s).markers[0], (std::array<i8, 2>{-2, 0}));
}

// A tile completing a trail with a hand-in on a jeep's cell: the hand-in decision comes first, the
// completed trail scores, then the jeep's 3, then the relocation.
TEST(SafariRules, JeepScoresAfterTheHandInAndTheCompletedFeature) {
  auto sc = safari(2, {kLion, kGiraffe, kLion, kZebra});
  sc.draw_and_place("CS3a", 2, 0, 180, kRed);
  EXPECT_TRUE(sc.play(sc.piece_move(kRed, 2, 0, "W")).empty());
  ASSERT_EQ(sc.s.phase, Phase::Choose);
  EXPECT_EQ(hand_in_options(sc.s), std::vector<int>({kNone, kGiraffe, kLion}));
  EXPECT_EQ(texts(sc, sc.play(hand_in(kRed, kLion))),
            Lines({"completed trail red 6 (3 species, 0 birds, 2 tiles, lion handed in)", "jeep red 3"}));
  ASSERT_EQ(sc.s.phase, Phase::Choose);
  EXPECT_EQ(safari_state(sc.s).pend_root, 0xFFFF);
  EXPECT_TRUE(is_legal(sc.s, jeep_to(kRed, 1, 3, 0)));
  EXPECT_FALSE(is_legal(sc.s, hand_in(kRed, kGiraffe))) << "the hand-in is over";
  sc.play(jeep_to(kRed, 1, 3, 0));
  EXPECT_EQ(sc.score(kRed), 9);
}

// ---------------------------------------------------------------------------------------------
// Tokens: the discard pile
// ---------------------------------------------------------------------------------------------

// "If a player must take a token and the pile is used up, shuffle the discarded tokens into a new
// pile." The position moves all but one face-down token into the discard pile (as if they had
// been handed in during a long game: the 50 tokens are conserved); red's baobab then deals 2:
// the last lion, then one from the reshuffled pile.
TEST(SafariRules, DiscardPileIsReshuffledWhenThePileRunsOut) {
  auto sc = safari(2, {kMonkey, kElephant, kGiraffe, kLion});
  Tokens& t = safari_state(sc.s).tokens;
  t.discard = t.pile;
  t.discard[kLion] = static_cast<u8>(t.discard[kLion] - 1);
  t.pile = tokens(0, 0, 0, 1, 0);
  EXPECT_EQ(sc.rs->game->hooks.chance_parse(sc.s, "zebra"), -1) << "no zebra face down";
  sc.place("CS1a", 0, -1, 0, kRed, "C");
  ASSERT_EQ(sc.s.phase, Phase::Chance);
  for (u64 seed = 0; seed < 8; ++seed) {
    Rng rng(seed);
    EXPECT_EQ(sc.rs->game->hooks.sample_chance(sc.s, rng), kLion) << "only the lion is face down";
  }
  deal(sc, kLion);
  ASSERT_EQ(sc.s.phase, Phase::Chance) << "one token still due";
  EXPECT_EQ(t.pile, tokens(9, 9, 9, 8, 10)) << "the discard pile became the new pile";
  EXPECT_EQ(total(t.discard), 0);
  EXPECT_EQ(sc.rs->game->hooks.chance_parse(sc.s, "zebra"), kZebra);
  deal(sc, kZebra);
  EXPECT_EQ(hand(sc, kRed), tokens(1, 1, 0, 1, 1));
  EXPECT_EQ(t.pile, tokens(9, 9, 9, 8, 9));
  EXPECT_EQ(sc.s.phase, Phase::Draw);
}

// One tile surrounds two baobabs: their photographers take their tokens in seat order from the
// player who placed the tile (docs/record.md), which decides who gets the last tokens. Red's baobab
// was placed first (and comes first in the engine's own lists); blue surrounds both and is served
// first: blue takes the last 2 tokens and red gets none.
TEST(SafariRules, BaobabsSurroundedTogetherDealInSeatOrderFromThePlacer) {
  auto sc = safari(2, {kMonkey, kElephant, kGiraffe, kLion});
  sc.place("CS1a", 0, -1, 0, kRed, "C");
  deal(sc, kZebra);
  deal(sc, kZebra);
  sc.place("CS3a", -1, -1, 180, kBlue);
  sc.place("CS3b", -1, -2, 0, kRed);
  sc.place("CS3c", 0, -2, 180, kBlue);
  sc.place("CS1b", 1, -2, 0, kBlue, "C");
  deal(sc, kMonkey);
  deal(sc, kMonkey);
  sc.place("CS3d", 2, -2, 0, kRed);
  sc.place("CS5a", 2, -1, 0, kBlue);
  sc.place("CS7a", 0, -3, 90, kRed);
  sc.place("CS7b", 1, -3, 180, kBlue);
  sc.place("CS7c", 2, -3, 90, kRed);
  Tokens& t = safari_state(sc.s).tokens;  // only 2 tokens left anywhere (the rest in hands)
  for (int k = 0; k < kTokenKinds; ++k) {
    t.hand[kRed][static_cast<std::size_t>(k)] = static_cast<u8>(t.hand[kRed][static_cast<std::size_t>(k)] + t.pile[static_cast<std::size_t>(k)]);
    t.pile[static_cast<std::size_t>(k)] = 0;
  }
  t.hand[kRed][kGiraffe] = static_cast<u8>(t.hand[kRed][kGiraffe] - 2);
  t.pile[kGiraffe] = 2;
  const Hand red_before = hand(sc, kRed), blue_before = hand(sc, kBlue);
  sc.place("CS18a", 1, -1, 90, kBlue);
  ASSERT_EQ(sc.s.phase, Phase::Chance);
  EXPECT_EQ(safari_state(sc.s).tokens.deal_to, kBlue) << "the placer's own baobab deals first";
  deal(sc, kGiraffe);
  deal(sc, kGiraffe);
  EXPECT_EQ(sc.s.phase, Phase::Draw) << "no token left for red";
  EXPECT_EQ(total(hand(sc, kBlue)), total(blue_before) + 2);
  EXPECT_EQ(hand(sc, kRed), red_before);
  EXPECT_EQ(sc.s.supply[kRed], 6);
  EXPECT_EQ(sc.s.supply[kBlue], 6);
}

// With no token face down nor discarded (all in hands), a baobab deals nothing and the turn goes on.
TEST(SafariRules, NoTokenLeftAnywhereTheBaobabDealsNothing) {
  auto sc = safari(2, {kMonkey, kElephant, kGiraffe, kLion});
  Tokens& t = safari_state(sc.s).tokens;
  for (int k = 0; k < kTokenKinds; ++k) t.hand[kBlue][static_cast<std::size_t>(k)] = static_cast<u8>(t.hand[kBlue][static_cast<std::size_t>(k)] + t.pile[static_cast<std::size_t>(k)]);
  t.pile.fill(0);
  sc.place("CS1a", 0, -1, 0, kRed, "C");
  EXPECT_EQ(sc.s.phase, Phase::Draw);
  EXPECT_EQ(sc.s.current, kBlue);
  EXPECT_EQ(hand(sc, kRed), tokens(1, 1, 0, 0, 0));
  EXPECT_EQ(sc.s.supply[kRed], 5);
}

// The opening deal: 2 tokens per player in seat order, then the first tile draw.
TEST(SafariRules, OpeningDealTwoTokensPerPlayerInSeatOrder) {
  Scenario sc(safari_rules(), 3);
  EXPECT_EQ(sc.s.phase, Phase::Chance);
  EXPECT_EQ(safari_state(sc.s).tokens.deal_left, 6);
  const std::vector<int> outcomes = {kZebra, kLion, kMonkey, kMonkey, kGiraffe, kElephant};
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    EXPECT_EQ(sc.s.phase, Phase::Chance) << i;
    deal(sc, outcomes[i]);
  }
  EXPECT_EQ(sc.s.phase, Phase::Draw);
  EXPECT_EQ(sc.s.current, 0);
  EXPECT_EQ(hand(sc, 0), tokens(0, 0, 0, 1, 1));
  EXPECT_EQ(hand(sc, 1), tokens(2, 0, 0, 0, 0));
  EXPECT_EQ(hand(sc, 2), tokens(0, 1, 1, 0, 0));
  EXPECT_EQ(total(safari_state(sc.s).tokens.pile), 44);
  for (int p = 0; p < 3; ++p) EXPECT_EQ(sc.s.supply[static_cast<std::size_t>(p)], 6);
}

}  // namespace
}  // namespace carc::test
