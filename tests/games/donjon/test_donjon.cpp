// The keep (tests/games/donjon): exact scores of the wall's stones (taken when a score reaches or
// passes their space, after a turn's scoring and after the final scoring of the features), the
// end's stone points and the keep, the 7x7 board, and the setup key "stones" with its refusals.
// Seats 0 and 1. The start tile D at 0,0: a city on its N side, a road W-E.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "ai/bots.hpp"
#include "conformance.hpp"
#include "donjon_state.hpp"
#include "rl/encoding.hpp"
#include "scenario.hpp"
#include "setup_refusal.hpp"

namespace carc::test {
namespace {

// One event as text: "completed city 0 4", "stone 1 @10 (2)", "wall 0 5 (2 stones)", "keep 0 5".
std::string text(const Ruleset& rs, const ScoreEvent& e) {
  const std::string_view why = reason_name(*rs.game, e);
  if (why == "stone" || why == "stone_at_end") return fmt::format("{} {} @{} ({})", why, e.player, e.tiles, e.attr);
  if (why == "wall") return fmt::format("wall {} {} ({} stones)", e.player, e.points, e.tiles);
  if (why == "keep") return fmt::format("keep {} {}", e.player, e.points);
  return fmt::format("{} {} {} {}", why, rs.ftype(e.ftype).name, e.player, e.points);
}

std::vector<std::string> texts(const Scenario& sc, const EventSink& ev) {
  std::vector<std::string> out;
  for (const auto& e : ev) out.push_back(text(*sc.rs, e));
  return out;
}

using Lines = std::vector<std::string>;

class Keep : public ::testing::Test {
 protected:
  conformance::TestGamesOn on_;
  Scenario sc{load_ruleset("donjon", {}), 2};
};

TEST_F(Keep, AllStonesLieOnTheWallAtTheStart) {
  for (const u8 h : keep_state(sc.s).holder) EXPECT_EQ(h, kOnWall);
}

// Seat 0 at 3 points closes the start city with E at 0,-1 (a knight on it): 4 points, 7 in all;
// the stone on space 5 is taken, the one on 10 stays.
TEST_F(Keep, AStoneIsTakenWhenAScorePassesItsSpace) {
  sc.s.score[0] = 3;
  const EventSink ev = sc.place("E", 0, -1, 180, 0, "S");
  EXPECT_EQ(texts(sc, ev), (Lines{"completed city 0 4", "stone 0 @5 (2)"}));
  EXPECT_EQ(sc.score(0), 7) << "a stone scores nothing when taken";
  EXPECT_EQ(keep_state(sc.s).holder[0], 0);
  EXPECT_EQ(keep_state(sc.s).holder[1], kOnWall);
}

// Seat 1 already stands at 12 when seat 0 reaches 7: the player whose turn it is takes first (the
// stone on 5), then seat 1 takes what its score reaches and is left (the stone on 10).
TEST_F(Keep, ThePlayerWhoseTurnItIsTakesFirst) {
  sc.s.score[0] = 3;
  sc.s.score[1] = 12;
  const EventSink ev = sc.place("E", 0, -1, 180, 0, "S");
  EXPECT_EQ(texts(sc, ev), (Lines{"completed city 0 4", "stone 0 @5 (2)", "stone 1 @10 (2)"}));
}

// At the end: each stone's points, then the keep for the most stones (5).
TEST_F(Keep, TheEndScoresTheStonesAndTheKeep) {
  keep_state(sc.s).holder[0] = 0;  // space 5, 2 points
  keep_state(sc.s).holder[3] = 0;  // space 20, 3 points
  keep_state(sc.s).holder[1] = 1;  // space 10, 2 points
  const EventSink ev = sc.finish();
  EXPECT_EQ(texts(sc, ev), (Lines{"wall 0 5 (2 stones)", "wall 1 2 (1 stones)", "keep 0 5"}));
  EXPECT_EQ(sc.score(0), 10);
  EXPECT_EQ(sc.score(1), 2);
}

TEST_F(Keep, TiedPlayersEachScoreTheKeep) {
  keep_state(sc.s).holder[5] = 0;  // space 30, 4 points
  keep_state(sc.s).holder[2] = 1;  // space 15, 3 points
  const EventSink ev = sc.finish();
  EXPECT_EQ(texts(sc, ev), (Lines{"wall 0 4 (1 stones)", "wall 1 3 (1 stones)", "keep 0 5", "keep 1 5"}));
}

TEST_F(Keep, NoStonesNoKeep) {
  EXPECT_TRUE(sc.finish().empty());
  EXPECT_EQ(sc.score(0), 0);
}

// Stones reached in the final scoring of the features are taken then; the stones' own points take
// no more: 28 reaches 5 to 25 (2+2+3+3+4 = 14 points), and 28 + 14 + 5 = 47 leaves the stone on 30.
TEST_F(Keep, StonesReachedInTheFinalScoringAreTakenThen) {
  sc.s.score[0] = 28;
  const EventSink ev = sc.finish();
  EXPECT_EQ(texts(sc, ev),
            (Lines{"stone_at_end 0 @5 (2)", "stone_at_end 0 @10 (2)", "stone_at_end 0 @15 (3)",
                   "stone_at_end 0 @20 (3)", "stone_at_end 0 @25 (4)", "wall 0 14 (5 stones)", "keep 0 5"}));
  EXPECT_EQ(sc.score(0), 47);
  EXPECT_EQ(keep_state(sc.s).holder[5], kOnWall);
}

// The board is 7x7: a road east from the start reaches x = 3 and no further.
TEST_F(Keep, APlacementOutsideTheSquareIsRefused) {
  for (int x = 1; x <= 3; ++x) sc.place("U", x, 0, 90, 0);
  sc.s.current = 1;
  // the box holds 3 U and all 3 are on the board: a 4th in the pile, for this test only
  const auto u = static_cast<std::size_t>(sc.rs->tiles.find("U"));
  ++sc.s.remaining[u];
  ++sc.s.pile;
  ++sc.s.kind_left[sc.rs->tiles.types[u].kind & 7];
  ASSERT_TRUE(apply_draw(sc.s, static_cast<int>(u)));
  EXPECT_FALSE(is_legal(sc.s, Scenario::place_move(1, 4, 0, 90)));
  EXPECT_TRUE(is_legal(sc.s, Scenario::place_move(1, -1, 0, 90)));
  MoveList ml;
  gen_placements(sc.s, ml);
  for (const Move& m : ml) EXPECT_TRUE(std::abs(m.x) <= 3 && std::abs(m.y) <= 3) << int{m.x} << "," << int{m.y};
}

// Every game ends with the pile empty, the tiles within the square and the stones' points and the
// keep as the events say (a tile that fits nowhere is discarded by the engine).
TEST_F(Keep, RandomGamesEndWithinTheSquare) {
  for (u64 seed = 1; seed <= 30; ++seed) {
    State s;
    init_state(s, *sc.rs, 2 + static_cast<int>(seed % 3));
    Rng rng(seed);
    MoveList ml;
    while (s.phase != Phase::Over) {
      if (is_chance(s)) {
        chance_step(s, rng);
        continue;
      }
      legal_moves(s, ml);
      ASSERT_FALSE(ml.empty());
      apply_move(s, ml[rng.below(static_cast<u32>(ml.size()))]);
    }
    EXPECT_EQ(s.pile, 0);
    for (const PlacedTile& t : s.tiles) EXPECT_TRUE(std::abs(t.x) <= 3 && std::abs(t.y) <= 3) << "seed " << seed;
    EXPECT_LE(s.tiles.size(), 49u);
  }
}

// The bots and the learning interface read the wall through the game's hooks: held (the stones),
// greedy_term (their points and the keep as it stands), observe (per seat, and the stones left).
TEST_F(Keep, BotsAndTheObservationSeeTheWall) {
  sc.s.score[0] = 3;
  sc.place("E", 0, -1, 180, 0, "S");  // seat 0 takes the stone on 5 (2 points)
  const Hooks& h = sc.rs->game->hooks;
  EXPECT_EQ(h.held(sc.s, 0), 1);
  EXPECT_EQ(h.held(sc.s, 1), 0);
  EXPECT_DOUBLE_EQ(h.greedy_term(sc.s, 0), 2 + 5) << "its points and the keep, alone";
  EXPECT_DOUBLE_EQ(h.greedy_term(sc.s, 1), 0);
  std::array<double, kMaxPlayers> with{}, without{};
  greedy_values(sc.s, with);
  State bare = sc.s;
  keep_state(bare).holder.fill(kOnWall);
  greedy_values(bare, without);
  EXPECT_DOUBLE_EQ(with[0] - without[0], 7);
  EXPECT_DOUBLE_EQ(with[1] - without[1], 0);

  const rl::Encoding enc(sc.rs, 2);
  std::vector<float> obs(static_cast<std::size_t>(enc.observation_size()));
  const auto scalar = [&](const std::string& name) {
    const auto& names = enc.scalar_names();
    const auto it = std::find(names.begin(), names.end(), name);
    EXPECT_NE(it, names.end()) << name;
    return obs[static_cast<std::size_t>(enc.observation_size() - enc.num_scalars() + (it - names.begin()))];
  };
  enc.observe(sc.s, 1, obs.data());  // seen from seat 1: seat 0 is the next one, "seat+1"
  EXPECT_EQ(scalar("wall_stones_seat+0"), 0);
  EXPECT_EQ(scalar("wall_stones_seat+1"), 1);
  EXPECT_EQ(scalar("wall_points_seat+1"), 2);
  EXPECT_EQ(scalar("stone_on_space_5"), 0);
  EXPECT_EQ(scalar("stone_on_space_10"), 1);
}

// What a player sees: the wall's panel (a row per seat: stones, their spaces, their points; the
// stones left on the score track) and the summary beside a picture.
TEST_F(Keep, ThePanelAndTheSummaryShowWhoHoldsWhich) {
  keep_state(sc.s).holder[0] = 1;
  keep_state(sc.s).holder[2] = 1;
  const Presentation& pr = sc.rs->game->present;
  const std::vector<Panel> panels = pr.panels(sc.s);
  ASSERT_EQ(panels.size(), 1u);
  EXPECT_EQ(panels[0].id, "wall");
  EXPECT_EQ(panels[0].columns[0], "seat");
  EXPECT_EQ(panels[0].rows, (std::vector<std::vector<std::string>>{{"0", "0", "none", "0"}, {"1", "2", "5, 15", "5"}}));
  EXPECT_EQ(panels[0].lines[0],
            "On the score track: space 10 (2 points), space 20 (3 points), space 25 (4 points), space 30 (4 points).");
  EXPECT_EQ(pr.summary(sc.s),
            (std::vector<std::string>{
                "The wall: 4 stones left, on space 10 (2 points), space 20 (3 points), space 25 (4 points), "
                "space 30 (4 points)",
                "Stones held: {p1} 2"}));
}

std::string refusal(const std::string& setup, int players = 2) { return setup_refusal("donjon", setup, players); }

TEST_F(Keep, SetupStonesAreHeld) {
  const Game g = Game::replay(record_from_json(
      R"({"game": "donjon", "players": ["a", "b"], "seed": 1, "moves": [], "setup": {"stones": [[20, 5], []]}})",
      "r.json"));
  const KeepState& k = keep_state(g.state());
  EXPECT_EQ(k.holder[0], 0);
  EXPECT_EQ(k.holder[3], 0);
  EXPECT_EQ(k.holder[1], kOnWall);
  EXPECT_EQ(g.ruleset().game->hooks.export_keys(g.state()), R"({"stones":[[5,20],[]]})");
}

TEST_F(Keep, SetupRefusalsNameTheKey) {
  EXPECT_REFUSED(refusal(R"({"stones": [[5]]})"), "setup: stones", "one list per player (2), not 1");
  EXPECT_REFUSED(refusal(R"({"stones": [[5], [7]]})"), "setup: stones[1][0]", "no stone of the wall lies on space 7");
  EXPECT_REFUSED(refusal(R"({"stones": [[5], [5]]})"), "setup: stones[1][0]", "held twice");
  EXPECT_REFUSED(refusal(R"({"stones": [["5"], []]})"), "stones[0][0]");
  EXPECT_REFUSED(refusal(R"({"stones": {}})"), "stones");
  EXPECT_REFUSED(
      refusal(R"({"tiles": [{"tile": "D", "x": 0, "y": 0, "rot": 0}, {"tile": "U", "x": 1, "y": 0, "rot": 90},
      {"tile": "U", "x": 2, "y": 0, "rot": 90}, {"tile": "U", "x": 3, "y": 0, "rot": 90}, {"tile": "V", "x": 4, "y": 0, "rot": 90}]})"),
      "setup: tiles: V at 4,0", "outside the board");
  EXPECT_REFUSED(refusal(R"({"walls": []})"), "unknown key \"walls\"", "stones");
}

}  // namespace
}  // namespace carc::test
