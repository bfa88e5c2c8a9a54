// The terminal view of `carcassonne play`: board text, placements, follower spots, parsing of
// typed moves. Positions are built through the real rules (init_state / apply_draw / apply_move).
#include <gtest/gtest.h>

#include <sstream>

#include "ai/driver.hpp"
#include "cli/terminal_view.hpp"
#include "scenario.hpp"

namespace carc::test {
namespace {

using cli::Candidate;
using cli::ViewOptions;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

int widest(const std::string& text) {
  int w = 0;
  for (const auto& l : lines_of(text)) w = std::max(w, cli::display_width(l));
  return w;
}

// Draws tile `id` for the player to move (the state must be at a Draw).
void draw(State& s, const Ruleset& rs, const std::string& id) {
  const int t = rs.tiles.find(id);
  ASSERT_GE(t, 0);
  ASSERT_TRUE(apply_draw(s, t));
}

std::string cands_text(const std::vector<Candidate>& cs) {
  std::string out;
  for (const auto& c : cs) {
    out += c.label + " " + std::to_string(c.x) + "," + std::to_string(c.y) + ":";
    for (int r : c.rots) out += " r" + std::to_string(r);
    out += "\n";
  }
  return out;
}

const std::vector<PlayerInfo> kPlayers = {{"Ann", ""}, {"greedy", "greedy"}};

TEST(TerminalView, StartBoardShowsTheStartTileWithCoordinates) {
  Scenario sc;
  const std::string b = cli::render_board(sc.s, ViewOptions{});
  const auto ls = lines_of(b);
  ASSERT_EQ(ls.size(), 5u);  // labels, 3 lines of the one tile, labels
  EXPECT_EQ(ls[0], "  y\\x  0");
  // D at 0,0: city on the north side, road west-east, field south
  EXPECT_EQ(ls[1], "     ·▒▒▒·");
  EXPECT_EQ(ls[2], "   0 ─────");
  EXPECT_EQ(ls[3], "     ·····");
  EXPECT_EQ(b.find('\x1b'), std::string::npos) << "no colour unless asked";
}

TEST(TerminalView, CandidatesForTheStartTileAreExact) {
  Scenario sc;
  draw(sc.s, *sc.rs, "D");
  const auto cs = cli::placement_candidates(sc.s);
  // reading order (north row first); a D fits the start D only road to road or city to city
  EXPECT_EQ(cands_text(cs),
            "a 0,-1: r180\n"
            "b -1,0: r0 r180\n"
            "c 1,0: r0 r180\n"
            "d 0,1: r180\n");
  const std::string list = cli::render_placements(cs, 80);
  EXPECT_NE(list.find("4 cells (6 placements)"), std::string::npos) << list;
  EXPECT_NE(list.find("-1,0: r0 r180"), std::string::npos) << list;
  EXPECT_NE(list.find("0,1: r180"), std::string::npos) << list;
  // the board marks the candidate cells with their letters
  const std::string b = cli::render_board(sc.s, ViewOptions{}, cs);
  for (const char* l : {"│ a │", "│ b │", "│ c │", "│ d │"}) EXPECT_NE(b.find(l), std::string::npos) << l << "\n" << b;
  EXPECT_NE(b.find("  y\\x -1    0    1"), std::string::npos) << b;
  EXPECT_EQ(lines_of(b)[2].rfind("  -1 ", 0), 0u) << b;
}

TEST(TerminalView, HandShowsEachDistinctRotationLabelled) {
  Scenario sc;
  draw(sc.s, *sc.rs, "D");
  const auto cs = cli::placement_candidates(sc.s);
  const std::string h = cli::render_hand(sc.s, cs, ViewOptions{});
  EXPECT_NE(h.find("tile D"), std::string::npos);
  // r90 and r270 fit nowhere next to the start tile: shown in brackets
  EXPECT_NE(h.find(" r0 "), std::string::npos) << h;
  EXPECT_NE(h.find("(r90)"), std::string::npos) << h;
  EXPECT_NE(h.find(" r180 "), std::string::npos) << h;
  EXPECT_NE(h.find("(r270)"), std::string::npos) << h;
  // the r90 picture: city on the east side, road north-south
  const auto pic = cli::tile_picture(sc.s, sc.rs->tiles.find("D"), 1, false);
  ASSERT_EQ(pic.size(), 3u);
  EXPECT_EQ(pic[0], "··│·▒");
  EXPECT_EQ(pic[1], "··│·▒");
  EXPECT_EQ(pic[2], "··│·▒");
}

TEST(TerminalView, TilePicturesShowMonasteryCrossingAndShield) {
  Scenario sc;
  const auto a = cli::tile_picture(sc.s, sc.rs->tiles.find("A"), 0, false);  // monastery, road S
  EXPECT_EQ(a[1], "··M··");
  EXPECT_EQ(a[2], "··│··");
  const auto x = cli::tile_picture(sc.s, sc.rs->tiles.find("X"), 0, false);  // four-way crossing
  EXPECT_EQ(x[1], "──┼──");
  const auto c = cli::tile_picture(sc.s, sc.rs->tiles.find("C"), 0, false);  // all city, shield
  EXPECT_EQ(c[1], "▒▒◆▒▒");
  EXPECT_EQ(c[0], "▒▒▒▒▒");
}

TEST(TerminalView, PlacedTilesAndFollowersAppearAtTheirCoordinates) {
  Scenario sc;
  sc.place("D", 1, 0, 0, 0, "E");    // Ann's robber on the road
  sc.place("E", 0, -1, 180, 1, "");  // city closes the start tile's city: scored, nobody on it
  const std::string b = cli::render_board(sc.s, ViewOptions{});
  const auto ls = lines_of(b);
  EXPECT_EQ(ls[0], "  y\\x  0    1");
  // row -1 then row 0: the E tile at 0,-1 turned 180 shows its city at the bottom
  EXPECT_NE(b.find("  -1 "), std::string::npos) << b;
  EXPECT_NE(b.find("   0 ─────────1"), std::string::npos) << b;  // Ann's follower on the E port of 1,0
  EXPECT_LE(widest(b), 80);
}

TEST(TerminalView, FollowerSpotsListFreeFeaturesOnly) {
  Scenario sc;
  sc.place("D", 1, 0, 0, 0, "E");  // Ann takes the road through 0,0 and 1,0
  draw(sc.s, *sc.rs, "D");
  Move m;
  m.kind = MoveKind::Place;
  m.player = sc.s.current;
  m.x = 2;
  m.y = 0;
  m.rot = 0;
  ASSERT_TRUE(is_legal(sc.s, m));
  apply_move(sc.s, m);
  const std::string t = cli::render_piece_options(sc.s, kPlayers, false);
  EXPECT_NE(t.find("tile D at 2,0"), std::string::npos) << t;
  EXPECT_NE(t.find("  N     city       1 tile so far, open"), std::string::npos) << t;
  EXPECT_NE(t.find("  S     field"), std::string::npos) << t;
  EXPECT_NE(t.find("  none"), std::string::npos) << t;
  // the road continues Ann's: not free, shown as taken
  EXPECT_EQ(t.find("  E     road       3 tiles"), std::string::npos) << t;
  EXPECT_NE(t.find("  E     road       taken by Ann"), std::string::npos) << t;
}

TEST(TerminalView, FollowerSpotSaysWhenTheTileCompletesAFeature) {
  Scenario sc;
  draw(sc.s, *sc.rs, "E");
  Move m;
  m.kind = MoveKind::Place;
  m.player = 0;
  m.x = 0;
  m.y = -1;
  m.rot = 2;  // city south, closing the start tile's city: 2 tiles
  ASSERT_TRUE(is_legal(sc.s, m));
  apply_move(sc.s, m);
  const std::string t = cli::render_piece_options(sc.s, kPlayers, false);
  EXPECT_NE(t.find("S     city       completed by this tile: scores 4 now"), std::string::npos) << t;
}

TEST(TerminalView, ParsePortAcceptsPortsTypesAndNone) {
  Scenario sc;
  draw(sc.s, *sc.rs, "D");
  Move m;
  m.kind = MoveKind::Place;
  m.player = 0;
  m.x = 1;
  m.y = 0;
  m.rot = 0;
  apply_move(sc.s, m);
  EXPECT_EQ(cli::parse_port("n", sc.s).port, "N");
  EXPECT_EQ(cli::parse_port(" wnw ", sc.s).port, "WNW");
  EXPECT_EQ(cli::parse_port("none", sc.s).port, "none");
  EXPECT_EQ(cli::parse_port("pass", sc.s).port, "none");
  EXPECT_EQ(cli::parse_port("road", sc.s).port, "E");
  EXPECT_EQ(cli::parse_port("city", sc.s).port, "N");
  EXPECT_NE(cli::parse_port("field", sc.s).error.find("2 free fields"), std::string::npos);
  EXPECT_NE(cli::parse_port("monastery", sc.s).error.find("no free monastery"), std::string::npos);
  EXPECT_FALSE(cli::parse_port("XYZ", sc.s).error.empty());
  EXPECT_FALSE(cli::parse_port("", sc.s).error.empty());
  EXPECT_FALSE(cli::parse_port("N S", sc.s).error.empty());
}

TEST(TerminalView, ParsePlacementForms) {
  const std::vector<Candidate> cs = {{3, -1, "a", {0, 90}}, {4, 0, "b", {180}}};
  auto ok = [&](const std::string& in, int x, int y, int r) {
    const auto p = cli::parse_placement(in, cs);
    EXPECT_TRUE(p.error.empty()) << in << ": " << p.error;
    EXPECT_EQ(p.x, x) << in;
    EXPECT_EQ(p.y, y) << in;
    EXPECT_EQ(p.rot, r) << in;
  };
  ok("3 -1 90", 3, -1, 90);
  ok("3,-1 r90", 3, -1, 90);
  ok("(3,-1) R0", 3, -1, 0);
  ok("  3  -1   270 ", 3, -1, 270);  // not a fit, but the engine says why
  ok("a 90", 3, -1, 90);
  ok("b", 4, 0, 180);        // one rotation fits there
  ok("4 0", 4, 0, 180);      // likewise by coordinates
  ok("7 7 180", 7, 7, 180);  // no candidate: left to the engine
  auto bad = [&](const std::string& in, const std::string& says) {
    const auto p = cli::parse_placement(in, cs);
    EXPECT_NE(p.error.find(says), std::string::npos) << in << ": " << p.error;
  };
  bad("", "X Y ROTATION");
  bad("3 -1 45", "not a rotation");
  bad("3", "column and the row");
  bad("x y 90", "not a command");
  bad("3 y 90", "not a cell");
  bad("a", "r0 or r90");
  bad("3 -1", "r0 or r90");
  bad("7 7", "fits nowhere at 7,7");
  bad("3 -1 90 5", "too much");
  bad("z 90", "not a command or a cell letter");
}

TEST(TerminalView, HelpFitsIn80ColumnsAndNamesTheCommands) {
  const std::string h = cli::help_text();
  EXPECT_LE(widest(h), 80) << h;
  for (const char* w : {"undo", "quit", "view X Y", "board", "none", "NNW", "WSW", "SOUTH"})
    EXPECT_NE(h.find(w), std::string::npos) << w;
}

TEST(TerminalView, ScoresAndMoveDescriptions) {
  Scenario sc;
  sc.place("D", 1, 0, 0, 0, "E");
  const std::string t = cli::render_scores(sc.s, kPlayers, false);
  EXPECT_NE(t.find("Ann"), std::string::npos);
  EXPECT_NE(t.find("followers in supply: 6/7"), std::string::npos) << t;
  EXPECT_NE(t.find("followers in supply: 7/7"), std::string::npos) << t;
  EXPECT_NE(t.find("▶ 2 greedy"), std::string::npos) << t;  // greedy is to move
  RecordMove rm;
  rm.player = 1;
  rm.tile = "D";
  rm.x = 1;
  rm.y = 0;
  rm.rot = 0;
  rm.follower = "E";
  EXPECT_EQ(cli::describe_record_move(sc.s, rm, kPlayers, false), "greedy placed D at 1,0 r0, follower on road (E)");
  rm.follower.reset();
  EXPECT_EQ(cli::describe_record_move(sc.s, rm, kPlayers, false), "greedy placed D at 1,0 r0, no follower");
  ScoreEvent e;
  e.player = 0;
  e.ftype = 1;  // city
  e.reason = ScoreReason::Completed;
  e.points = 8;
  e.tiles = 3;
  e.attr = 1;
  const std::string d = cli::describe_event_named(sc.s, e, kPlayers, false);
  EXPECT_EQ(d.rfind("Ann scores 8", 0), 0u) << d;
  EXPECT_NE(d.find("completed city of 3 tiles"), std::string::npos) << d;
}

// A whole bot game: the board drawn for 80 columns never gets wider (cropped around the focus),
// and the crop note says what is shown; colour only when asked.
TEST(TerminalView, FullGameBoardFitsIn80Columns) {
  auto rs = base_rules();
  Game g(rs, {{"a", "greedy"}, {"b", "greedy"}}, 12345);
  std::vector<std::unique_ptr<Bot>> bots;
  bots.push_back(make_bot("greedy"));
  bots.push_back(make_bot("greedy"));
  Rng rng(1);
  int checked = 0;
  bool cropped = false;
  MoveList ml;
  while (!g.over()) {
    const State& s = g.state();
    if (s.phase == Phase::Place && s.turn % 5 == 0) {
      const auto cs = cli::placement_candidates(s);
      ViewOptions o;
      const std::string b = cli::render_board(s, o, cs);
      EXPECT_LE(widest(b), 80) << b;
      EXPECT_LE(static_cast<int>(lines_of(b).size()), 3 * o.max_rows + 3);
      cropped |= b.find("'view X Y' to move") != std::string::npos;
      EXPECT_LE(widest(cli::render_placements(cs, 80)), 80);
      EXPECT_LE(widest(cli::render_hand(s, cs, o)), 80);
      ++checked;
    }
    legal_moves(s, ml);
    g.play(bots[s.current]->choose(s, ml, rng));
  }
  EXPECT_GT(checked, 5);
  EXPECT_TRUE(cropped) << "a full game's board is larger than 15 x 10 cells";
  // the last tile stays in view when cropping, wherever the user looked before
  const State& s = g.state();
  ViewOptions o;
  const std::string b = cli::render_board(s, o);
  const std::string label = std::to_string(s.last_placed().x);
  EXPECT_NE(lines_of(b)[0].find(label), std::string::npos) << b;
  // recentring shows that column instead
  o.centre = std::pair{s.last_placed().x + 40, s.last_placed().y};
  const std::string far = cli::render_board(s, o);
  EXPECT_LE(widest(far), 80);
  ViewOptions c;
  c.color = true;
  const std::string col = cli::render_board(s, c);
  EXPECT_NE(col.find("\x1b["), std::string::npos);
  EXPECT_EQ(cli::strip_ansi(col), cli::render_board(s, ViewOptions{}));
  const std::string fin = cli::render_final(s, {{"a", "greedy"}, {"b", "greedy"}}, false);
  EXPECT_NE(fin.find("Final scores:"), std::string::npos);
  EXPECT_TRUE(fin.find("Winner: ") != std::string::npos || fin.find("Tie for first") != std::string::npos) << fin;
}

TEST(TerminalView, CroppedWindowFollowsTheViewCentre) {
  // a straight road eastwards: columns 0..8
  Scenario sc;
  for (int x = 1; x <= 8; ++x) sc.place("U", x, 0, 90, x % 2);
  ViewOptions o;
  EXPECT_EQ(lines_of(cli::render_board(sc.s, o))[0], "  y\\x  0    1    2    3    4    5    6    7    8");
  o.max_cols = 5;  // as if the terminal were narrow
  auto b = cli::render_board(sc.s, o);
  EXPECT_EQ(lines_of(b)[0], "  y\\x  4    5    6    7    8") << b;  // around the last tile
  EXPECT_NE(b.find("(showing x 4..8 of 0..8, y 0..0 of 0..0; 'view X Y' to move)"), std::string::npos) << b;
  o.centre = std::pair{1, 0};
  b = cli::render_board(sc.s, o);
  EXPECT_EQ(lines_of(b)[0], "  y\\x  0    1    2    3    4") << b;  // clamped at the west edge
  o.centre = std::pair{5, 0};
  b = cli::render_board(sc.s, o);
  EXPECT_EQ(lines_of(b)[0], "  y\\x  3    4    5    6    7") << b;
  o.width = 30;  // five columns of 5 after the row labels
  o.max_cols = 0;
  EXPECT_LE(widest(cli::render_board(sc.s, o)), 30);
}

}  // namespace
}  // namespace carc::test
