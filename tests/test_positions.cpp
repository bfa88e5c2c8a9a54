// Prepared positions (a record's "setup") in every game: a position written as a setup
// (position_setup) replays, through JSON, to the same game. Seeded random games of all four games
// are cut at a random turn; the rest of the game, replayed from the written position, must give
// the same scores, events, pieces and game-specific state as the original. Plus the refusals of
// boards a game could not reach (Amazonas' river, Safari's jeeps, tokens and watering holes).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <bit>
#include <nlohmann/json.hpp>

#include "conformance.hpp"
#include "engine/engine.hpp"
#include "games/amazonas/amazonas_state.hpp"
#include "games/games.hpp"
#include "games/safari/safari_state.hpp"
#include "setup_refusal.hpp"

namespace carc::test {
namespace {

using nlohmann::json;

struct Cut {
  RecordSetup setup;
  std::size_t moves = 0, draws = 0, chance = 0, events = 0;
};

// A random game of `game` with `n` players; cut at the first turn start at or after `cut_turn`
// that a setup can express. Returns the finished game and the cut (moves: 0 if none was found).
Game random_game(const std::string& game, int n, u64 seed, int cut_turn, Cut& cut) {
  std::vector<PlayerInfo> players;
  for (int p = 0; p < n; ++p) players.push_back({fmt::format("p{}", p + 1), "random"});
  Game g(load_ruleset(game, {}), players, seed);
  Rng rng(seed * 31 + 7);
  MoveList ml;
  bool taken = false;
  while (!g.over()) {
    const State& s = g.state();
    if (!taken && s.phase == Phase::Place && s.turn >= cut_turn && !s.in_extra && !s.extra) {
      taken = true;
      cut.setup = position_setup(s);
      cut.moves = g.record().moves.size();
      cut.draws = g.record().draws.size() - 1;  // the tile in hand was the last draw
      cut.chance = g.record().chance.size();
      cut.events = g.record().events.size();
    }
    legal_moves(s, ml);
    g.play(ml[rng.below(static_cast<u32>(ml.size()))]);
  }
  if (!taken) cut.moves = 0;
  return g;
}

template <class T>
std::vector<T> tail(const std::vector<T>& v, std::size_t from) {
  return std::vector<T>(v.begin() + static_cast<std::ptrdiff_t>(std::min(from, v.size())), v.end());
}

void check_round_trip(const std::string& game, int n, u64 seed) {
  Cut cut;
  const int cut_turn = 1 + static_cast<int>(seed * 7 % 50);
  const Game g = random_game(game, n, seed, cut_turn, cut);
  if (cut.moves == 0) return;  // the game ended before the cut (rare)
  const Record& full = g.record();
  Record r;
  r.game = game;
  r.options = full.options;
  r.players = full.players;
  r.setup = cut.setup;
  r.draws = tail(full.draws, cut.draws);
  r.draw_marks = tail(full.draw_marks, cut.draws);
  r.chance = tail(full.chance, cut.chance);
  r.moves = tail(full.moves, cut.moves);
  // through JSON, as a tool would write it; the stated final scores are checked by the replay
  r.finished = true;
  r.final_scores = full.final_scores;
  json written = json::parse(record_to_json(r, g.ruleset()));
  written.erase("events");  // not stated: compared below, but for turn numbers
  const std::string text = written.dump(1);
  const std::string ctx = fmt::format("{} {} players seed {} cut at turn {}", game, n, seed, cut_turn);
  Game h = [&] {
    try {
      return Game::replay(record_from_json(text, "position.json"));
    } catch (const std::exception& e) {
      ADD_FAILURE() << ctx << ": " << e.what() << "\n" << text.substr(0, 3000);
      throw;
    }
  }();
  ASSERT_TRUE(h.over()) << ctx;
  const State& a = g.state();
  const State& b = h.state();
  EXPECT_EQ(a.score, b.score) << ctx;
  EXPECT_EQ(a.supply, b.supply) << ctx;
  EXPECT_EQ(a.supply2, b.supply2) << ctx;
  EXPECT_EQ(a.tiles.size(), b.tiles.size()) << ctx;
  EXPECT_EQ(a.pieces.size(), b.pieces.size()) << ctx;
  EXPECT_EQ(a.track, b.track) << ctx;
  EXPECT_EQ(a.track_len, b.track_len) << ctx;
  // the game's own state, as its setup keys say it
  if (const auto keys = a.rs->game->hooks.export_keys) {
    EXPECT_EQ(keys(a), keys(b)) << ctx;
  }
  // the events after the cut, but for turn numbers (the prepared game counts from its own start)
  const auto ea = tail(full.events, cut.events);
  const auto& eb = h.record().events;
  ASSERT_EQ(ea.size(), eb.size()) << ctx;
  for (std::size_t i = 0; i < ea.size(); ++i) {
    EXPECT_EQ(ea[i].player, eb[i].player) << ctx << " event " << i;
    EXPECT_EQ(ea[i].reason, eb[i].reason) << ctx << " event " << i;
    EXPECT_EQ(ea[i].points, eb[i].points) << ctx << " event " << i << ": " << describe_event(g.state(), ea[i]) << " / " << describe_event(h.state(), eb[i]);
    EXPECT_EQ(ea[i].ftype, eb[i].ftype) << ctx << " event " << i;
  }
  // and the position written again from the replayed start is the one that was read
  Record start = r;
  start.draws.clear();
  start.draw_marks.clear();
  start.chance.clear();
  start.moves.clear();
  start.finished = false;
  start.final_scores.clear();
  start.seed = 1;
  const Game s0 = Game::replay(record_from_json(record_to_json(start, g.ruleset()), "start.json"));
  if (s0.state().phase == Phase::Place) {
    const RecordSetup again = position_setup(s0.state());
    EXPECT_EQ(json::parse(again.game_keys.empty() ? "{}" : again.game_keys), json::parse(cut.setup.game_keys.empty() ? "{}" : cut.setup.game_keys)) << ctx;
    EXPECT_EQ(again.pieces.size(), cut.setup.pieces.size()) << ctx;
    EXPECT_EQ(again.scores, cut.setup.scores) << ctx;
  }
}

class PositionRoundTrip : public ::testing::TestWithParam<std::string> {
 protected:
  conformance::TestGamesOn on_;  // the test games too
};

TEST_P(PositionRoundTrip, AWrittenPositionReplaysToTheSameGame) {
  const GameDef& g = *find_game(GetParam());
  // a game with its own state at the start (on_init) but no prepare accepts only its start board
  // (Hooks::prepare): the toy
  if (g.hooks.on_init && !g.hooks.prepare) GTEST_SKIP() << GetParam() << " accepts only its start board";
  for (u64 seed = 1; seed <= 60; ++seed) {
    const int players = 2 + static_cast<int>(seed % 4);
    if (players >= g.min_players && players <= g.max_players) check_round_trip(GetParam(), players, seed);
  }
}

INSTANTIATE_TEST_SUITE_P(AllGames, PositionRoundTrip, ::testing::ValuesIn(conformance::every_game()));

std::string refusal(const std::string& game, const std::string& setup, int players = 2) {
  return setup_refusal(game, setup, players);
}

// The Amazonas start board (2-3 players), as setup tiles, plus more.
std::string amazonas_board(const std::string& more) {
  std::string t;
  for (int i = 0; i < 8; ++i) t += fmt::format(R"({}{{"tile": "S{}", "x": {}, "y": {}, "rot": 0}})", i ? ", " : "", i + 1, i % 4, i / 4);
  return "[" + t + more + "]";
}

TEST(PreparedAmazonas, BoardOfItsOwn) {
  // A01 continues the Amazon at x=4: the front moves, the track grows by 1, boats as stated
  const std::string text = R"({"game": "amazonas", "players": ["a", "b"], "seed": 3, "moves": [], "setup": {"tiles": )" +
                           amazonas_board(R"(, {"tile": "A01", "x": 4, "y": 0, "rot": 0})") + R"(, "boats": [4, 2]}})";
  const Game g = Game::replay(record_from_json(text, "r.json"));
  EXPECT_EQ(amazonas_state(g.state()).front, 4);
  EXPECT_EQ(g.state().track_len, 17);
  EXPECT_EQ(g.state().track[0], 4);
  EXPECT_EQ(g.state().track[1], 2);
  EXPECT_EQ(std::popcount(amazonas_state(g.state()).aside), 4) << "no double tile on the board: all 4 still set aside";
  // the pile is the box minus the board: 80 - 1
  EXPECT_EQ(g.state().pile + (g.state().phase == Phase::Place ? 1 : 0), 79);
}

TEST(PreparedAmazonas, UnreachableBoardsAreRefused) {
  EXPECT_REFUSED(refusal("amazonas", R"({"tiles": )" + amazonas_board(R"(, {"tile": "A01", "x": 5, "y": 0, "rot": 0})") + "}"),
                 "setup: tiles[8]");  // touches nothing
  EXPECT_REFUSED(refusal("amazonas", R"({"tiles": )" + amazonas_board(R"(, {"tile": "X1", "x": 4, "y": 0, "rot": 0})") + "}"),
                 "setup: tiles: X1 at 4,0", "followed at once by a double");
  EXPECT_REFUSED(refusal("amazonas", R"({"tiles": )" + amazonas_board(R"(, {"tile": "D1", "x": 4, "y": 0, "rot": 0})") + "}"),
                 "D1 at 4,0", "other cell");
  EXPECT_REFUSED(refusal("amazonas", R"({"tiles": )" + amazonas_board("") + R"(, "boats": [17, 1]})"), "boats[0]");
  EXPECT_REFUSED(refusal("amazonas", R"({"tiles": )" + amazonas_board("") + R"(, "boats": [1]})"), "boats", "one space per player");
  EXPECT_REFUSED(refusal("amazonas", R"({"jeeps": []})"), "unknown key \"jeeps\"", "boats");
  EXPECT_REFUSED(refusal("base", R"({"boats": [1, 1]})"), "unknown key \"boats\"");
}

TEST(PreparedSafari, JeepsTokensAndWateringHoles) {
  // the start board with a watering hole founded by player 2 and explored once, tokens dealt
  const std::string base = R"({"game": "safari", "players": ["a", "b"], "seed": 5, "moves": [], "setup": )";
  const Game start = Game::replay(record_from_json(base + R"({"pile": []}})", "r.json"));
  // find a usable corner on the start board
  int cx = 0, cy = 0, cc = -1;
  for (const PlacedTile& t : start.state().tiles)
    for (int c = 0; c < 4 && cc < 0; ++c)
      if (corner_usable(start.state(), t.x, t.y, c)) cx = t.x, cy = t.y, cc = c;
  ASSERT_GE(cc, 0);
  const std::string corner(kCornerNames[static_cast<std::size_t>(cc)]);
  const std::string setup = fmt::format(
      R"({{"jeeps": [null, [{}, {}]], "watering_holes": [{{"x": {}, "y": {}, "corner": "{}", "token": "lion", "player": 1}}],
          "tokens": {{"hands": [[1, 0, 0, 0, 0], [0, 2, 0, 0, 0]], "discard": [0, 0, 0, 3, 0]}}, "to_move": 1}})",
      safari_state(start.state()).markers[1][0], safari_state(start.state()).markers[1][1], cx, cy, corner);
  const Game g = Game::replay(record_from_json(base + setup + "}", "r.json"));
  const State& s = g.state();
  EXPECT_EQ(s.current, 1);
  EXPECT_EQ(safari_state(s).markers[0][0], kOffBoard);
  ASSERT_EQ(safari_state(s).spots.size(), 1u);
  EXPECT_EQ(safari_state(s).spots[0].ntokens, 1);
  EXPECT_EQ(s.supply[1], 5) << "the photographer at the watering hole";
  EXPECT_EQ(safari_state(s).tokens.pile[3], 10 - 1 - 3) << "lions: one at the hole, three discarded";
  EXPECT_EQ(safari_state(s).tokens.pile[1], 8);
  EXPECT_EQ(safari_state(s).tokens.hand[1][1], 2);
  EXPECT_EQ(s.phase, Phase::Place) << "no opening deal once tokens are stated";

  const auto refused = [&](const std::string& su) { return refusal("safari", su); };
  EXPECT_REFUSED(refused(R"({"jeeps": [[0, 0], null]})"), "jeeps[0]", "not an empty cell");
  EXPECT_REFUSED(refused(R"({"jeeps": [[40, 40], null]})"), "jeeps[0]", "next to the tiles");
  EXPECT_REFUSED(refused(R"({"tokens": {"hands": [[11, 0, 0, 0, 0], [0, 0, 0, 0, 0]]}})"), "hands[0][0]");
  EXPECT_REFUSED(refused(R"({"tokens": {"hands": [[6, 0, 0, 0, 0], [5, 0, 0, 0, 0]]}})"), "11 monkey tokens", "10");
  EXPECT_REFUSED(refused(R"({"tokens": {"hands": [[0, 0, 0, 0, 0]]}})"), "hands", "one per player");
  EXPECT_REFUSED(refused(fmt::format(R"({{"watering_holes": [{{"x": {}, "y": {}, "corner": "{}", "token": "lion"}},
                                       {{"x": {}, "y": {}, "corner": "{}", "token": "lion"}}]}})",
                                     cx, cy, corner, cx, cy, corner)),
                 "watering_holes[1]", "already holds a token");
  EXPECT_REFUSED(refused(fmt::format(R"({{"watering_holes": [{{"x": {}, "y": {}, "corner": "{}", "token": "dodo"}}]}})", cx, cy, corner)),
                 "watering_holes[0]: token", "dodo");
  EXPECT_REFUSED(refused(R"({"watering_holes": [{"x": 9, "y": 9, "corner": "NE", "token": "lion"}]})"), "watering_holes[0]", "no savanna");
  // a board of its own: one start cell alone, the jeeps' start places not next to it
  const std::string one = fmt::format(R"({{"tiles": [{{"tile": "{}", "x": {}, "y": {}, "rot": {}}}]}})",
                                      start.ruleset().tiles.types[start.state().tiles[0].type].id, start.state().tiles[0].x,
                                      start.state().tiles[0].y, start.state().tiles[0].rot * 90);
  const std::string got = refused(one);
  if (got != "accepted") EXPECT_REFUSED(got, "jeeps", "give \"jeeps\"");
}

}  // namespace
}  // namespace carc::test
