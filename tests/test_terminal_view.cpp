// The terminal view of `carcassonne play`: board text, placements, follower spots, parsing of
// typed moves. Positions are built through the real rules (init_state / apply_draw / apply_move).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bit>
#include <sstream>

#include "ai/driver.hpp"
#include "cli/terminal/terminal.hpp"
#include "core/i18n.hpp"
#include "games/amazonas/amazonas_state.hpp"
#include "games/safari/safari_state.hpp"
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

// The text with each run of spaces and newlines as one space (wrapped sentences read whole).
std::string flat(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == ' ' || c == '\n') {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
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
  const std::string list = cli::render_placements(sc.s, cs, 80);
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

TEST(TerminalView, AFollowerBesideItsMonasteryAndSeparateCurvesDoNotCross) {
  Scenario sc;
  sc.place("B", 0, 1, 0, 0, "C");  // a monastery with Ann's follower on it: both stay visible
  const std::string b = cli::render_board(sc.s, ViewOptions{});
  EXPECT_NE(b.find("M1"), std::string::npos) << b;
  // Hunters: tiles with two separate river curves show no crossing in the middle
  const auto rs = load_ruleset("hunters", {});
  State hs;
  init_state(hs, *rs, 2);
  int curved = 0;
  for (std::size_t t = 0; t < rs->tiles.types.size(); ++t) {
    const TileType& tt = rs->tiles.types[t];
    int paths = 0;
    for (int f = 0; f < tt.nfeat; ++f)
      paths += rs->ftype(tt.feats[static_cast<std::size_t>(f)].type).cls == FClass::Path &&
               std::popcount(static_cast<unsigned>(tt.rot[0].feat_sides[static_cast<std::size_t>(f)] & 15)) == 2;
    if (paths != 2 || tt.centre != 0xFF) continue;
    ++curved;
    const auto pic = cli::tile_picture(hs, static_cast<int>(t), 0, false);
    EXPECT_EQ(pic[1].find("┼"), std::string::npos) << tt.id << ":\n" << pic[0] << "\n" << pic[1] << "\n" << pic[2];
  }
  EXPECT_GT(curved, 0);
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
  // the words of the player's language are taken as the notation's (what the help shows them)
  {
    const i18n::Scope ru(i18n::Lang::Ru);
    EXPECT_EQ(cli::parse_port("дорога", sc.s).port, "E");
    EXPECT_EQ(cli::parse_port("Город", sc.s).port, "N");
    EXPECT_EQ(cli::parse_port("нет", sc.s).port, "none");
    EXPECT_EQ(cli::parse_port("road", sc.s).port, "E");  // the notation's words still
    EXPECT_EQ(cli::help_text(sc.s).find("road, city"), std::string::npos);
    EXPECT_EQ(cli::typed_in_notation(*sc.rs->game, "Дорога at 3,-1"), "road at 3,-1");
    EXPECT_EQ(cli::typed_in_notation(*sc.rs->game, "полевой"), "полевой");  // whole words only
  }
  {
    const i18n::Scope ro(i18n::Lang::Ro);
    EXPECT_EQ(cli::parse_port("drum", sc.s).port, "E");
    EXPECT_EQ(cli::parse_port("ORAȘ", sc.s).port, "N");
    EXPECT_EQ(cli::parse_port("oraş", sc.s).port, "N");  // the cedilla form too
  }
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
      cropped |= b.find("\"view X Y\" to move") != std::string::npos;
      EXPECT_LE(widest(cli::render_placements(s, cs, 80)), 80);
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
  EXPECT_NE(b.find("(showing x 4..8 of 0..8, y 0..0 of 0..0; \"view X Y\" to move)"), std::string::npos) << b;
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


// ---------------------------------------------------------------------------------------------
// Amazonas (RULES.md §2): the board's water and symbols, the river panel, the double-tile choice,
// explorer and camp spots on a named cell, and a bot-only game played turn by turn as `play` does.

const std::vector<PlayerInfo> kAmz = {{"You", ""}, {"greedy 2", "greedy"}, {"greedy 3", "greedy"}};

std::shared_ptr<const Ruleset> amazonas_rules() { return load_ruleset("amazonas", {}); }

// A Game whose draws are scripted (no seed: it waits once they run out).
Game scripted_amazonas(const std::vector<std::string>& draws, std::vector<PlayerInfo> players = kAmz) {
  Record r;
  r.game = "amazonas";
  r.players = std::move(players);
  r.draws = draws;
  return Game::replay(r);
}

TEST(TerminalViewAmazonas, StartBoardShowsTheAmazonAndSymbols) {
  auto rs = amazonas_rules();
  State s;
  init_state(s, *rs, 3);
  const std::string b = cli::render_board(s, ViewOptions{});
  const auto ls = lines_of(b);
  ASSERT_EQ(ls.size(), 8u) << b;  // labels, 2 rows of 3 lines, labels
  EXPECT_EQ(ls[0], "  y\\x  0    1    2    3");
  // row 0: the source S1 (a tributary from the west ends there), then the Amazon as water
  EXPECT_EQ(ls[2], "   0 ──≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈") << b;
  // S2's village on the north bank with its fruit; S7's tributary with a boat icon; animals
  EXPECT_NE(ls[1].find("▒●▒"), std::string::npos) << b;
  EXPECT_NE(ls[5].find("┘"), std::string::npos) << b;
  EXPECT_NE(ls[5].find("▲"), std::string::npos) << b;
  EXPECT_NE(b.find("∴"), std::string::npos) << b;
  // an Amazon tile shows its creatures on the water: A08 has 2 caimans and 2 piranhas
  const auto a08 = cli::tile_picture(s, rs->tiles.find("A08"), 0, false);
  EXPECT_EQ(a08[1], "≈2c2p") << a08[1];
  const auto a01 = cli::tile_picture(s, rs->tiles.find("A01"), 2, false);  // 2 caimans, turned
  EXPECT_EQ(a01[1], "≈2c≈≈") << a01[1];
  // turned across the river (as in the hand's unfit rotations) it shows water, no broken counts
  const auto a08r = cli::tile_picture(s, rs->tiles.find("A08"), 1, false);
  EXPECT_EQ(a08r[1].find('2'), std::string::npos) << a08r[1];
  // the legend names every glyph used
  const std::string leg = cli::board_legend(*rs->game);
  for (const char* w : {"≈ the Amazon", "2c1p: 2 caimans, 1 piranha", "● fruit", "▲ boat icon", "∴ animal",
                        "▒ village", "· jungle", "tributaries", "①②③④⑤: camps", "explorers"})
    EXPECT_NE(leg.find(w), std::string::npos) << w << "\n" << leg;
  EXPECT_LE(widest(leg), 80) << leg;
  // colour: water in blue, same text without the escapes
  ViewOptions c;
  c.color = true;
  const std::string col = cli::render_board(s, c);
  EXPECT_NE(col.find("48;5;25m"), std::string::npos);
  EXPECT_EQ(cli::strip_ansi(col), b);
}

TEST(TerminalViewAmazonas, RiverPanelShowsBoatsPlacesFrontAndDoubleTiles) {
  Game g = scripted_amazonas({"L05"});
  // You pass: your boat moves 1 (to space 2), so you are 1st and the others 2nd
  const auto cs = cli::placement_candidates(g.state());
  ASSERT_FALSE(cs.empty());
  for (const Candidate& c : cs) EXPECT_LE(c.x, amazonas_state(g.state()).front) << "land only up to the front";
  g.play(g.placement(cs[0].x, cs[0].y, cs[0].rots[0]));
  g.play(g.piece_at_port("none"));
  const State& s = g.state();
  EXPECT_EQ(s.track[0], 2);
  const std::string r = cli::render_panels(s, kAmz, false);
  const auto ls = lines_of(r);
  ASSERT_GE(ls.size(), 5u) << r;
  EXPECT_EQ(ls[0], "River: 16 spaces for the boats, from 1 (source) to 16 (mouth)") << r;
  EXPECT_EQ(ls[1], "   1 You       ≈1≈≈≈≈≈≈≈≈≈≈≈≈≈≈  at 2  1st") << r;
  EXPECT_EQ(ls[2], " ▶ 2 greedy 2  2≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈  at 1  2nd") << r;
  EXPECT_EQ(ls[3], "   3 greedy 3  3≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈  at 1  2nd") << r;
  // the river's end in words, no coordinates (issue 52)
  EXPECT_NE(r.find("The river's end: the next Amazon tile goes at the Amazon's east end"), std::string::npos) << r;
  EXPECT_EQ(r.find("x = "), std::string::npos) << r;
  EXPECT_NE(r.find("Amazon tiles in the pile: 15 (3 with \"!\")\n"), std::string::npos) << r;
  EXPECT_NE(r.find("Double tiles set aside: D1 (2c1p), D2 (2c2p), D3 (3c3p), D4 (1c1p).\n"), std::string::npos) << r;
  EXPECT_LE(widest(r), 80) << r;
  // the base game has no river
  Scenario sc;
  EXPECT_EQ(cli::render_panels(sc.s, kPlayers, false), "");
  // places: dense, and with 2 players a 2nd boat not directly behind the 1st has none (0)
  State t = s;
  t.track = {9, 7, 7, 0, 0};
  EXPECT_EQ(games::amazonas_boat_ranks(t), (std::array<int, kMaxPlayers>{1, 2, 2, 0, 0}));
  auto rs = amazonas_rules();
  State two;
  init_state(two, *rs, 2);
  two.track = {6, 4, 0, 0, 0};
  EXPECT_EQ(games::amazonas_boat_ranks(two), (std::array<int, kMaxPlayers>{1, 0, 0, 0, 0}));
  EXPECT_NE(flat(cli::render_panels(two, {{"a", ""}, {"b", ""}}, false)).find("at 4 2nd, not directly behind the 1st: scores nothing"),
            std::string::npos);
  two.track = {6, 5, 0, 0, 0};
  EXPECT_EQ(games::amazonas_boat_ranks(two), (std::array<int, kMaxPlayers>{1, 2, 0, 0, 0}));
  // scores: explorers and camps in supply, and the boat
  const std::string sco = cli::render_scores(s, kAmz, false);
  EXPECT_NE(sco.find("   1 You         0 points  explorers 4/4  camps 2/2  boat at 2   (human)"), std::string::npos)
      << sco;
  EXPECT_NE(sco.find(" ▶ 2 greedy 2"), std::string::npos) << sco;
  EXPECT_LE(widest(sco), 80) << sco;
  // the turn's summary shows the boat move
  const std::string sum = cli::turn_summary(s, g.record(), 0, kAmz, false);
  EXPECT_NE(sum.find("You placed L05 at"), std::string::npos) << sum;
  EXPECT_NE(sum.find(", no explorer or camp\n    Your boat moves 1 to space 2 (no explorer or camp placed)"),
            std::string::npos)
      << sum;
}

TEST(TerminalViewAmazonas, ChooseListsTheDoubleTilesAndATypedChoiceParses) {
  Game g = scripted_amazonas({"X1"});
  const auto cs = cli::placement_candidates(g.state());
  ASSERT_EQ(cands_text(cs), "a 4,0: r0\n");  // a "!" tile: only at the river's end
  g.play(g.placement(4, 0, 0));
  ASSERT_EQ(g.state().phase, Phase::Choose);
  const std::string c = cli::render_choices(g.state(), false);
  EXPECT_NE(flat(c).find("It goes on the Amazon at 5,0 and 6,0"), std::string::npos) << c;
  const auto ls = lines_of(c);
  const auto at = std::find_if(ls.begin(), ls.end(), [](const std::string& l) { return l.rfind("  D3 ", 0) == 0; });
  ASSERT_NE(at, ls.end()) << c;
  // D3 both ways: rotation 0 (D3 then D3b) and 180 (D3b turned, then D3 turned), with its creatures
  EXPECT_EQ(*at, "  D3    ∴··∴····∴·    ··│···▒●▒·  3 caimans, 3 piranhas") << c;
  EXPECT_EQ(*(at + 1), "        ≈1c2p≈2c1p    ≈2c1p≈1c2p  1st boat +6, 2nd boat +3") << c;
  EXPECT_EQ(*(at + 2), "        ·▒●▒···│··    ·∴····∴··∴  type \"D3 0\" or \"D3 180\"") << c;
  for (const char* id : {"  D1 ", "  D2 ", "  D4 "}) EXPECT_NE(c.find(id), std::string::npos) << id;
  EXPECT_LE(widest(c), 80) << c;
  // typed choices
  auto p = cli::parse_choice("d3 r180", g.state());
  ASSERT_TRUE(p.error.empty()) << p.error;
  EXPECT_EQ(p.option, "D3 r180");
  EXPECT_EQ(p.move, g.choice("D3", 180));
  EXPECT_TRUE(is_legal(g.state(), p.move));
  EXPECT_EQ(cli::parse_choice("D2,0", g.state()).move, g.choice("D2", 0));
  auto bad = [&](const std::string& in, const std::string& says) {
    const auto q = cli::parse_choice(in, g.state());
    EXPECT_NE(q.error.find(says), std::string::npos) << in << ": " << q.error;
  };
  bad("D3", "add the rotation");
  bad("D3 90", "0 or 180");
  bad("D1b 0", "not a double tile set aside (D1, D2, D3, D4)");
  bad("zz", "type a tile and its rotation");
  bad("", "e.g.");
  bad("D3 0 0", "too much");
  // once D3 is used it is no longer offered
  g.play(p.move);
  EXPECT_EQ(g.record().moves.back().choice, "D3");
  EXPECT_EQ(g.record().moves.back().choice_rot, 180);
  EXPECT_EQ(cli::render_choices(g.state(), false), "");  // not at Choose any more
  EXPECT_NE(cli::render_panels(g.state(), kAmz, false).find("Double tiles set aside: D1 (2c1p), D2 (2c2p), D4 (1c1p).\n"),
            std::string::npos);
}

TEST(TerminalViewAmazonas, PieceOptionsOnADoubleTileListCampsExplorersAndCells) {
  Game g = scripted_amazonas({"X1"});
  g.play(g.placement(4, 0, 0));
  g.play(g.choice("D3", 0));  // D3 at 5,0 and D3b at 6,0
  ASSERT_EQ(g.state().phase, Phase::Piece);
  const std::string t = cli::render_piece_options(g.state(), kAmz, false);
  // grouped by piece: explorers on the village and the tributary, camps on the jungles; each spot
  // names its cell
  EXPECT_EQ(t,
            "Explorer and camp spots on double tile D3 at 5,0 and 6,0:\n"
            " Explorers (4 in supply):\n"
            "  S at 5,0   village    1 tile so far, open, 1 fruit\n"
            "  S at 6,0   tributary  1 tile so far, open, no boat icons (your boat stays)\n"
            " Camps (2 in supply):\n"
            "  N at 5,0   jungle     5 animals so far (scores 1 per animal at the end)\n"
            "  ESE at 5,0 jungle     5 animals so far (scores 1 per animal at the end)\n"
            "  ESE at 6,0 jungle     0 animals so far (scores 1 per animal at the end)\n"
            "  none       no explorer or camp (boat moves 1)\n");
  EXPECT_LE(widest(t), 80) << t;
  // naming the cell
  auto at = [](const cli::ParsedPort& p) {
    return p.at ? std::to_string(p.at->first) + "," + std::to_string(p.at->second) : std::string("-");
  };
  const State& s = g.state();
  auto pp = cli::parse_port("s at 6,0", s);
  EXPECT_EQ(pp.port, "S");
  EXPECT_EQ(at(pp), "6,0");
  EXPECT_EQ(at(cli::parse_port("S 6 0", s)), "6,0");
  EXPECT_EQ(at(cli::parse_port("6,0 S", s)), "6,0");
  EXPECT_EQ(at(cli::parse_port("N", s)), "5,0");  // only 5,0 has a free spot at N
  EXPECT_NE(cli::parse_port("S", s).error.find("\"S at 5,0\" or \"S at 6,0\""), std::string::npos);
  EXPECT_EQ(cli::parse_port("village", s).port, "S");
  EXPECT_EQ(at(cli::parse_port("village", s)), "5,0");
  EXPECT_EQ(at(cli::parse_port("tributary", s)), "6,0");
  EXPECT_NE(cli::parse_port("camp", s).error.find("3 free spots for a camp"), std::string::npos);
  EXPECT_NE(cli::parse_port("explorer", s).error.find("2 free spots for an explorer"), std::string::npos);
  EXPECT_EQ(cli::parse_port("jungle at 6,0", s).port, "ESE");
  EXPECT_NE(cli::parse_port("N at 9,9", s).error.find("not a tile placed this turn"), std::string::npos);
  EXPECT_EQ(cli::parse_port("none", s).port, "none");
  // played as `play` does: an explorer on the tributary of the second cell
  const std::size_t ev0 = g.record().events.size();
  g.play(g.piece_at(pp.at->first, pp.at->second, pp.port));
  const RecordMove& rm = g.record().moves.back();
  ASSERT_TRUE(rm.follower_at.has_value());
  const std::string sum = cli::turn_summary(g.state(), g.record(), ev0, kAmz, false);
  EXPECT_EQ(lines_of(sum)[0], "You placed X1 at 4,0 r0, then the double tile D3 r0, explorer on tributary (S at 6,0)")
      << sum;
  EXPECT_NE(sum.find("in the Amazon scoring"), std::string::npos) << sum;
  // the board shows the explorer as your number
  const std::string b = cli::render_board(g.state(), ViewOptions{});
  EXPECT_NE(lines_of(b)[3].find("1"), std::string::npos) << b;
}

TEST(TerminalViewAmazonas, ExplorerOnBoatIconsAndCampsAreShown) {
  // some placement of L02 (tributary with a boat icon) offers an explorer that moves the boat
  auto rs = amazonas_rules();
  State s;
  init_state(s, *rs, 3);
  ASSERT_TRUE(apply_draw(s, rs->tiles.find("L02")));
  MoveList ml;
  gen_placements(s, ml);
  bool found = false;
  for (const Move& m : ml) {
    State t = s;
    apply_move(t, m);
    const std::string o = cli::render_piece_options(t, kAmz, false);
    const auto explorers = o.find(" Explorers (4 in supply):\n"), camps = o.find(" Camps (2 in supply):\n");
    const auto boat = o.find("(your boat moves 1)");
    if (boat != std::string::npos) {
      found = true;
      EXPECT_LT(explorers, boat) << o;
      EXPECT_LT(boat, camps) << o;
      EXPECT_NE(o.find("jungle ", camps), std::string::npos) << o;
      EXPECT_LE(widest(o), 80) << o;
      // take the jungle with a camp: drawn as a circled 1
      const auto pp = cli::parse_port("S", t);
      ASSERT_TRUE(pp.error.empty()) << pp.error;
      Move c;
      c.kind = MoveKind::Piece;
      c.player = 0;
      c.x = t.last_placed().x;
      c.y = t.last_placed().y;
      c.feat = static_cast<u8>(feature_at_port(t, t.last_placed(), pp.port));
      if (!is_legal(t, c)) continue;
      apply_move(t, c);
      EXPECT_NE(cli::render_board(t, ViewOptions{}).find("①"), std::string::npos);
      EXPECT_NE(cli::render_scores(t, kAmz, false).find("camps 1/2"), std::string::npos);
      break;
    }
  }
  EXPECT_TRUE(found);
}

TEST(TerminalViewAmazonas, HelpNamesTheNewDecisionsAndFits) {
  auto rs = amazonas_rules();
  State st;
  init_state(st, *rs, 2);
  const std::string h = cli::help_text(st);
  EXPECT_LE(widest(h), 80) << h;
  for (const char* w : {"D2 180", "PORT at X,Y", "N at 9,0", "camp", "explorer", "no explorer or camp (boat moves 1)",
                        "≈ the Amazon", "undo", "quit"})
    EXPECT_NE(h.find(w), std::string::npos) << w;
  const auto brs = base_rules();  // the state points into it: kept alive
  State base;
  init_state(base, *brs, 2);
  EXPECT_EQ(cli::help_text(base), cli::help_text());  // the base game's help is unchanged
}

// A bot-only game through the same calls as `play` (play_bot_turn, turn_summary, the panels):
// every "!" tile brings a double tile, boats move, the game ends with the river mouth.
TEST(TerminalViewAmazonas, BotGameThroughPlayTurnsFinishes) {
  auto rs = amazonas_rules();
  const std::vector<PlayerInfo> pl = {{"a", "greedy"}, {"b", "random"}, {"c", "greedy"}};
  Game g(rs, pl, 2024);
  std::vector<std::unique_ptr<Bot>> bots;
  for (const auto& p : pl) bots.push_back(make_bot(p.bot));
  Rng rng(9);
  int turns = 0, doubles = 0, boat_lines = 0;
  while (!g.over()) {
    ASSERT_FALSE(g.stalled());
    const std::size_t ev0 = g.record().events.size();
    const std::size_t moves0 = g.record().moves.size();
    play_bot_turn(g, *bots[g.state().current], rng);
    ASSERT_EQ(g.record().moves.size(), moves0 + 1) << "one whole turn";
    const std::string sum = cli::turn_summary(g.state(), g.record(), ev0, pl, false);
    doubles += sum.find("then the double tile") != std::string::npos;
    boat_lines += sum.find("boat moves") != std::string::npos;
    EXPECT_EQ(sum.find("river mouth"), std::string::npos) << "final scoring is not a turn's news";
    if (++turns % 10 == 0 && !g.over()) {
      ViewOptions o;
      const auto cs = cli::placement_candidates(g.state());
      EXPECT_LE(widest(cli::render_board(g.state(), o, cs)), 80);
      EXPECT_LE(widest(cli::render_panels(g.state(), pl, false)), 80);
      EXPECT_LE(widest(cli::render_scores(g.state(), pl, false)), 80);
      EXPECT_LE(widest(cli::render_hand(g.state(), cs, o)), 80);
    }
  }
  EXPECT_EQ(doubles, 3) << "3 \"!\" tiles, 4 double tiles";
  EXPECT_GT(boat_lines, 5);
  int mouth = 0;
  for (const ScoreEvent& e : g.record().events)
    mouth += reason_name(*g.state().rs->game, e) == "mouth" && cli::is_final_event(g.state(), e);
  EXPECT_GE(mouth, 2);
  EXPECT_NE(cli::render_final(g.state(), pl, false).find("Final scores:"), std::string::npos);
  // the record replays to the same scores
  const Game r = Game::replay(g.record());
  EXPECT_TRUE(r.over());
  EXPECT_EQ(r.record().final_scores, g.record().final_scores);
}

// ---------------------------------------------------------------------------------------------
// Hunters & Gatherers (RULES.md §3): rivers, lakes, forests, meadows and their animals on the board,
// the piles panel, tribe member and hut spots, the shaman's choice, and a bot-only game played turn
// by turn as `play` does (bonus turns, specials, river systems at the end).

namespace hunt {

const std::vector<PlayerInfo> kHunt = {{"Ann", ""}, {"greedy", "greedy"}};

std::shared_ptr<const Ruleset> hunters_rules() { return load_ruleset("hunters", {}); }

// A Game whose draws are scripted (no seed: it waits once they run out). A scripted bonus tile is
// drawn as one, for an extra turn.
Game scripted_hunters(const std::vector<std::string>& draws, std::vector<PlayerInfo> players = kHunt) {
  Record r;
  r.game = "hunters";
  r.players = std::move(players);
  r.draws = draws;
  return Game::replay(r);
}

// The first placement (reading order, then rotation) of the tile in hand.
Move first_placement(const Game& g) {
  const auto cs = cli::placement_candidates(g.state());
  EXPECT_FALSE(cs.empty());
  return g.placement(cs.at(0).x, cs.at(0).y, cs.at(0).rots.at(0));
}

}  // namespace hunt

TEST(TerminalViewHunters, BoardShowsRiversLakesForestsAnimalsAndSpecials) {
  auto rs = hunt::hunters_rules();
  State s;
  init_state(s, *rs, 2);
  const std::string b = cli::render_board(s, ViewOptions{});
  const auto ls = lines_of(b);
  ASSERT_EQ(ls.size(), 5u) << b;
  // start tile 56: meadow N with an aurochs, the river W into the lake with 1 fish, forest E+S with a menhir
  EXPECT_EQ(ls[1], "     ···a♣") << b;
  EXPECT_EQ(ls[2], "   0 ─(1)▮") << b;
  EXPECT_EQ(ls[3], "     ·♣♣♣♣") << b;
  auto pic = [&](const char* id, int rot) { return cli::tile_picture(s, rs->tiles.find(id), rot, false); };
  // three rivers into a lake with the canoe / the raft: the special's mark closes the lake
  EXPECT_EQ(pic("93", 0)[1], "─(1∪─");
  EXPECT_EQ(pic("91", 0)[1], "─(1#─");
  EXPECT_EQ(pic("93", 0)[0], "··│··");
  // two lakes: the second one (no port) in the corner between the rivers flowing into it
  const auto two = pic("83", 0);
  EXPECT_EQ(two[1], "─(2)─") << two[1];
  EXPECT_EQ(two[2].find("≋"), 0u) << two[2];
  const auto two90 = pic("83", 1);  // turned: the corner between the W and N rivers
  EXPECT_EQ(two90[0].find("≋"), 0u) << two90[0];
  // animals as letters, forest marks, specials
  const auto a81 = pic("81", 0);  // meadow N+W with a mammoth and a tiger; forest E+S with a menhir
  const std::string all81 = a81[0] + a81[1] + a81[2];
  for (const char* g : {"m", "t", "▮", "♣"}) EXPECT_NE(all81.find(g), std::string::npos) << g << "\n" << all81;
  EXPECT_NE((pic("87", 0)[0] + pic("87", 0)[1] + pic("87", 0)[2]).find("♠"), std::string::npos);  // mushroom glade
  for (const auto& [id, mark] : std::vector<std::pair<const char*, const char*>>{
           {"94", "⊙"}, {"88", "@"}, {"92", "⊠"}, {"85", "^"}}) {
    const auto p = pic(id, 0);
    EXPECT_NE((p[0] + p[1] + p[2]).find(mark), std::string::npos) << id << " " << mark;
  }
  // the legend names them
  const std::string leg = cli::board_legend(*rs->game);
  for (const char* w : {"─│┌┼ rivers (▪ a spring where one ends)", "(2) a lake with 2 fish", "♣ forest", "· meadow",
                        "f fish", "d deer", "a aurochs", "m mammoth", "t tiger", "× covered (no longer counted)",
                        "♠ mushroom glade", "▮ menhir", "∪ canoe", "⊙ pit trap", "@ shaman", "⊠ big trap", "^ fire",
                        "# raft", "1..5: tribe members of that player, ①②③④⑤: huts"})
    EXPECT_NE(leg.find(w), std::string::npos) << w << "\n" << leg;
  EXPECT_LE(widest(leg), 80) << leg;
  // colour: rivers and lakes on blue, forests dark; the same text without the escapes
  ViewOptions c;
  c.color = true;
  const std::string col = cli::render_board(s, c);
  EXPECT_NE(col.find("48;5;"), std::string::npos);
  EXPECT_NE(col.find("38;5;117;48;5;"), std::string::npos) << "a blue river";
  EXPECT_EQ(cli::strip_ansi(col), b);
}

TEST(TerminalViewHunters, PitTrapScoresAndItsAnimalsAreShownCovered) {
  // some placement of the pit trap (bonus tile 94) next to the start tile takes in its aurochs
  auto rs = hunt::hunters_rules();
  State s;
  init_state(s, *rs, 2);
  ASSERT_TRUE(apply_draw(s, rs->tiles.find("94")));
  MoveList ml;
  gen_placements(s, ml);
  bool found = false;
  for (const Move& m : ml) {
    State t = s;
    EventSink ev;
    apply_move(t, m, &ev);
    if (ev.empty() || ev[0].reason != ScoreReason::Special || ev[0].tiles == 0) continue;
    found = true;
    const std::string b = cli::render_board(t, ViewOptions{});
    EXPECT_NE(b.find("×"), std::string::npos) << b;         // the aurochs, covered
    EXPECT_EQ(b.find("a♣"), std::string::npos) << b;        // no longer shown as an aurochs
    EXPECT_NE(b.find("⊙"), std::string::npos) << b;         // the trap itself
    const std::string d = cli::describe_event_named(t, ev[0], hunt::kHunt, false);
    EXPECT_EQ(d.rfind("Ann scores 2 with the pit trap", 0), 0u) << d;
    break;
  }
  EXPECT_TRUE(found);
}

TEST(TerminalViewHunters, PilesPanelShowsTilesBonusTurnsAndSupplies) {
  Game g = hunt::scripted_hunters({"7", "12"});
  const std::string p0 = cli::render_panels(g.state(), hunt::kHunt, false);
  const auto ls = lines_of(p0);
  ASSERT_EQ(ls.size(), 5u) << p0;
  EXPECT_EQ(ls[0], "Tiles: 77 regular left (the game ends when none are left), 16 bonus left") << p0;
  EXPECT_EQ(ls[1], "  Bonus turn: none due (completing a forest with a menhir earns one)") << p0;
  EXPECT_EQ(ls[2], "             in supply          on the board") << p0;
  EXPECT_EQ(ls[3], " ▶ 1 Ann     5 members, 3 huts  -") << p0;
  EXPECT_EQ(ls[4], "   2 greedy  5 members, 3 huts  -") << p0;
  // Ann: tile 7 with a hut on its river system
  g.play(g.placement(0, -1, 270));
  g.play(g.piece_at(0, -1, "W", "hut"));
  const std::string p1 = cli::render_panels(g.state(), hunt::kHunt, false);
  EXPECT_NE(p1.find("   1 Ann     5 members, 2 huts  1 hut\n"), std::string::npos) << p1;
  EXPECT_NE(p1.find(" ▶ 2 greedy"), std::string::npos) << p1;
  EXPECT_NE(p1.find("76 regular left"), std::string::npos) << p1;
  // a bonus turn in progress
  State t = g.state();
  t.in_extra = 1;
  EXPECT_NE(cli::render_panels(t, hunt::kHunt, false).find("  Bonus turn now: a bonus tile for greedy"), std::string::npos);
  t.current = 0;
  EXPECT_NE(cli::render_panels(t, {{"You", ""}, {"greedy", "greedy"}}, false).find("Bonus turn now: a bonus tile for You"),
            std::string::npos);
  EXPECT_LE(widest(p1), 80) << p1;
  // games without a bonus pile have no such panel
  Scenario sc;
  EXPECT_EQ(cli::render_panels(sc.s, kPlayers, false), "");
  const auto amz_rules = amazonas_rules();  // the state points into it: keep it alive
  State amz;
  init_state(amz, *amz_rules, 3);
  EXPECT_EQ(cli::render_panels(amz, kAmz, false).find("bonus"), std::string::npos);
  // the scores show both supplies
  EXPECT_NE(cli::render_scores(g.state(), hunt::kHunt, false).find("tribe members 5/5  huts 2/3"), std::string::npos);
}

TEST(TerminalViewHunters, PieceOptionsListTribeMembersByRoleAndHutsPerRiverSystem) {
  Game g = hunt::scripted_hunters({"7"});
  g.play(g.placement(0, -1, 270));  // rivers W, N, E into the lake (1 fish); the tiger's meadow S
  const State& s = g.state();
  ASSERT_EQ(s.phase, Phase::Piece);
  const std::string t = cli::render_piece_options(s, hunt::kHunt, false);
  EXPECT_EQ(t,
            "Tribe member and hut spots on tile 7 at 0,-1:\n"
            " Tribe members (5 in supply): meadow: hunter, river: fisher\n"
            "  S     meadow     1 aurochs, 1 tiger = 2 points so far (at the end)\n"
            "  W     river      1 tile so far, open, 1 fish in its lakes\n"
            "  NNW   meadow     no animals = 0 points so far (at the end)\n"
            "  N     river      1 tile so far, open, 1 fish in its lakes\n"
            "  NNE   meadow     no animals = 0 points so far (at the end)\n"
            "  E     river      1 tile so far, open, 1 fish in its lakes\n"
            " Huts (3 in supply): on a river or lake: the whole river system, to the end\n"
            "  hut W river      its river system: 1 fish, 1 lake so far, no huts yet\n"
            "  none  no tribe member or hut\n");
  EXPECT_LE(widest(t), 80) << t;
  // typed: a tribe member by port or role, a hut by "hut PORT", "PORT hut" or "hut"
  auto pp = cli::parse_port("hut W", s);
  EXPECT_TRUE(pp.error.empty()) << pp.error;
  EXPECT_EQ(pp.port, "W");
  EXPECT_EQ(pp.piece, "hut");
  EXPECT_EQ(cli::parse_port("N hut", s).piece, "hut");
  EXPECT_EQ(cli::parse_port("N hut", s).port, "N");
  EXPECT_EQ(cli::parse_port("hut", s).port, "W");
  EXPECT_EQ(cli::parse_port("hut", s).piece, "hut");
  EXPECT_EQ(cli::parse_port("hut C", s).piece, "hut");  // the lake: its river system
  EXPECT_NE(cli::parse_port("C", s).error.find("type \"hut C\""), std::string::npos) << cli::parse_port("C", s).error;
  EXPECT_NE(cli::parse_port("hut S", s).error.find("only on a river or lake"), std::string::npos);
  EXPECT_EQ(cli::parse_port("W", s).port, "W");
  EXPECT_EQ(cli::parse_port("W", s).piece, "");
  EXPECT_NE(cli::parse_port("fisher", s).error.find("3 free rivers"), std::string::npos) << cli::parse_port("fisher", s).error;
  EXPECT_NE(cli::parse_port("hunter", s).error.find("3 free meadows"), std::string::npos);
  EXPECT_NE(cli::parse_port("tribe member", s).error.find("6 free spots for a tribe member"), std::string::npos)
      << cli::parse_port("tribe member", s).error;
  EXPECT_EQ(cli::parse_port("none", s).port, "none");
  // played as `play` does: the hut, recorded, described and drawn as a circled 1
  const std::size_t ev0 = g.record().events.size();
  g.play(g.piece_at(0, -1, pp.port, pp.piece));
  EXPECT_EQ(g.record().moves.back().piece, "hut");
  const std::string sum = cli::turn_summary(g.state(), g.record(), ev0, hunt::kHunt, false);
  EXPECT_EQ(sum, "Ann placed 7 at 0,-1 r270, hut on the river system (W)\n");
  EXPECT_NE(cli::render_board(g.state(), ViewOptions{}).find("①(1)"), std::string::npos)
      << cli::render_board(g.state(), ViewOptions{});
}

TEST(TerminalViewHunters, TakenRiverSystemsAndHutsOnLaterTiles) {
  // Ann's hut on the start lake's system; greedy's tile 12 extends it: no hut offered, shown taken
  Game g = hunt::scripted_hunters({"7", "12"});
  g.play(g.placement(0, -1, 270));
  g.play(g.piece_at(0, -1, "W", "hut"));
  bool found = false;
  for (const Candidate& c : cli::placement_candidates(g.state())) {
    Game h = g;
    h.play(h.placement(c.x, c.y, c.rots[0]));
    const std::string t = cli::render_piece_options(h.state(), hunt::kHunt, false);
    if (t.find("its river system: huts of Ann") == std::string::npos) continue;
    found = true;
    EXPECT_NE(t.find(" Huts (3 in supply): no free spot on this tile"), std::string::npos) << t;
    EXPECT_NE(cli::parse_port("hut", h.state()).error.find("no free spot for a hut"), std::string::npos);
    EXPECT_LE(widest(t), 80) << t;
    break;
  }
  EXPECT_TRUE(found);
}

// Two regular tiles that close the start tile's forest (it has a menhir): the first at 1,0, the second at
// 0,1, each turned as given (quarter turns).
struct MenhirPair {
  std::string t1, t2;
  int r1 = 0, r2 = 0;
};
MenhirPair find_menhir_pair(const Ruleset& rs) {
  State s;
  init_state(s, rs, 2);
  const int forest = s.tiles[0].seg0 + feature_at_port(s, s.tiles[0], "E");
  for (std::size_t a = 0; a < rs.tiles.types.size(); ++a) {
    if (rs.tiles.types[a].pile == kPileBonus || s.remaining[a] == 0) continue;
    for (int ra = 0; ra < 4; ++ra) {
      State t = s;
      if (!apply_draw(t, static_cast<int>(a))) break;
      Move m{MoveKind::Place, 0, 1, 0, static_cast<u8>(ra)};
      if (!is_legal(t, m)) continue;
      apply_move(t, m);
      apply_move(t, Move{});  // no piece
      if (t.graph[t.graph.find(forest)].open != 1) continue;
      for (std::size_t b = 0; b < rs.tiles.types.size(); ++b) {
        if (rs.tiles.types[b].pile == kPileBonus || t.remaining[b] == 0) continue;
        for (int rb = 0; rb < 4; ++rb) {
          State u = t;
          if (!apply_draw(u, static_cast<int>(b))) break;
          Move n{MoveKind::Place, 1, 0, 1, static_cast<u8>(rb)};
          if (!is_legal(u, n)) continue;
          apply_move(u, n);
          if (u.graph[u.graph.find(forest)].open == 0)
            return {rs.tiles.types[a].id, rs.tiles.types[b].id, ra * 90, rb * 90};
        }
      }
    }
  }
  return {};
}

TEST(TerminalViewHunters, ShamanListsYourTribeMembersAndATypedChoiceParses) {
  // greedy half-closes the start tile's forest (menhir); Ann closes it, with a hunter on her tile:
  // a bonus turn, and the bonus tile is the shaman
  auto rs = hunt::hunters_rules();
  const MenhirPair mp = find_menhir_pair(*rs);
  ASSERT_FALSE(mp.t1.empty());
  const std::vector<PlayerInfo> pl = {{"greedy", "greedy"}, {"Ann", ""}};
  Game g = hunt::scripted_hunters({mp.t1, mp.t2, "88"}, pl);
  g.play(g.placement(1, 0, mp.r1));
  g.play(g.piece_at_port("none"));
  g.play(g.placement(0, 1, mp.r2));
  const std::string opts = cli::render_piece_options(g.state(), pl, false);
  EXPECT_NE(flat(opts).find("Menhir: this tile completes a forest with a menhir: after this turn, a bonus tile and an extra turn for Ann."),
            std::string::npos)
      << opts;
  EXPECT_NE(cli::render_panels(g.state(), pl, false).find("Bonus turn due: a bonus tile for Ann after this turn"),
            std::string::npos);
  // a hunter (tribe members in meadows stay to the end)
  MoveList ml;
  gen_pieces(g.state(), ml);
  Move hunter;
  for (const Move& m : ml) {
    if (m.kind != MoveKind::Piece || m.pk != 0xFF) continue;
    const PlacedTile& pt = g.state().tiles.back();
    if (g.ruleset().ftype(g.state().type_of(pt).feats[m.feat].type).name == "meadow") hunter = m;
  }
  ASSERT_EQ(hunter.kind, MoveKind::Piece);
  std::size_t ev0 = g.record().events.size();
  g.play(hunter);
  const std::string menhir = cli::turn_summary(g.state(), g.record(), ev0, pl, false);
  EXPECT_NE(menhir.find("    Menhir! A bonus tile and an extra turn for Ann.\n"), std::string::npos) << menhir;
  ASSERT_EQ(g.state().current, 1);
  ASSERT_TRUE(g.state().in_extra);
  g.play(hunt::first_placement(g));
  ASSERT_EQ(g.state().phase, Phase::Choose);
  const State& s = g.state();
  const PlacedTile& mine = s.tiles[s.tiles.size() - 2];
  const std::string place = fmt::format("{} at {},{}", feature_port(s, mine, hunter.feat), mine.x, mine.y);
  const std::string c = cli::render_choices(s, pl, false);
  EXPECT_NE(flat(c).find("Shaman: before placing a piece, Ann may send one of their tribe members home"), std::string::npos) << c;
  EXPECT_NE(c.find("\n  1  " + place + "  meadow  hunter: "), std::string::npos) << c;
  EXPECT_NE(c.find("\n  2  none "), std::string::npos) << c;
  EXPECT_NE(c.find("  keep them all where they are\n"), std::string::npos) << c;
  EXPECT_LE(widest(c), 80) << c;
  // typed choices
  auto ok = [&](const std::string& in, const std::string& option) {
    const auto p = cli::parse_choice(in, s);
    EXPECT_TRUE(p.error.empty()) << in << ": " << p.error;
    EXPECT_EQ(p.option, option) << in;
    EXPECT_TRUE(is_legal(s, p.move)) << in;
  };
  ok("1", place);
  ok(place, place);
  ok(fmt::format("{} {} {}", cli::strip_ansi(feature_port(s, mine, hunter.feat)), mine.x, mine.y), place);
  ok(fmt::format("{},{}", mine.x, mine.y), place);
  ok("hunter", place);
  ok("meadow", place);
  ok("none", "none");
  EXPECT_EQ(cli::parse_choice(place, s).move, g.choice(place, 0));
  EXPECT_EQ(cli::parse_choice("none", s).move, g.choice("none", 0));
  auto bad = [&](const std::string& in, const std::string& says) {
    const auto q = cli::parse_choice(in, s);
    EXPECT_NE(q.error.find(says), std::string::npos) << in << ": " << q.error;
  };
  bad("3", "not on the list: type 1..2");
  bad("N at 5,5", "none of your tribe members stands at N at 5,5");
  bad("fisher", "none of your tribe members stands at fisher");
  bad("xyz", "not a number from the list");
  bad("", "e.g. \"" + place + "\"");
  // played: the hunter goes home; the record and the summary say so
  ev0 = g.record().events.size();
  EXPECT_EQ(g.state().supply[1], 4);
  g.play(cli::parse_choice("1", s).move);
  EXPECT_EQ(g.state().supply[1], 5);
  EXPECT_EQ(cli::render_choices(g.state(), false), "");  // not at Choose any more
  g.play(g.piece_at_port("none"));
  EXPECT_EQ(g.record().moves.back().choice, place);
  const std::string sum = cli::turn_summary(g.state(), g.record(), ev0, pl, false);
  EXPECT_NE(sum.find("Ann placed bonus tile 88 at "), std::string::npos) << sum;
  EXPECT_NE(sum.find(", the shaman sends a hunter home (" + place + "), no tribe member or hut"), std::string::npos) << sum;
  EXPECT_EQ(sum.find("Menhir"), std::string::npos) << "no bonus turn after a bonus turn";
  // the record replays
  const Game r = Game::replay(g.record());
  EXPECT_EQ(r.record().moves.size(), 3u);
  EXPECT_EQ(r.state().supply[1], 5);
}

TEST(TerminalViewHunters, HelpNamesHutsShamanAndBonusTurnsAndFits) {
  auto rs = hunt::hunters_rules();
  State st;
  init_state(st, *rs, 2);
  const std::string h = cli::help_text(st);
  EXPECT_LE(widest(h), 80) << h;
  for (const char* w : {"hut PORT", "\"PORT hut\"", "N at 3,-1", "menhir", "bonus turn", "fisher", "gatherer", "hunter",
                        "no tribe member or hut", "(2) a lake with 2 fish", "undo", "quit"})
    EXPECT_NE(h.find(w), std::string::npos) << w;
  EXPECT_EQ(h.find("Amazon"), std::string::npos);
}

// A bot-only game through the same calls as `play`: bonus turns after menhirs, the specials, huts,
// and at the end meadows and river systems; the record replays to the same scores.
TEST(TerminalViewHunters, BotGameThroughPlayTurnsFinishes) {
  auto rs = hunt::hunters_rules();
  const std::vector<PlayerInfo> pl = {{"a", "greedy"}, {"b", "random"}, {"c", "greedy"}};
  int menhirs = 0, bonus_tiles = 0, huts = 0, games = 0;
  bool network_final = false, meadow_final = false;
  for (const u64 seed : {7ull, 11ull, 5ull}) {
    Game g(rs, pl, seed);
    std::vector<std::unique_ptr<Bot>> bots;
    for (const auto& p : pl) bots.push_back(make_bot(p.bot));
    Rng rng(seed);
    int turns = 0;
    while (!g.over()) {
      ASSERT_FALSE(g.stalled());
      const std::size_t ev0 = g.record().events.size();
      const std::size_t moves0 = g.record().moves.size();
      play_bot_turn(g, *bots[g.state().current], rng);
      ASSERT_EQ(g.record().moves.size(), moves0 + 1) << "one whole turn";
      const std::string sum = cli::turn_summary(g.state(), g.record(), ev0, pl, false);
      menhirs += sum.find("Menhir! ") != std::string::npos;
      bonus_tiles += sum.find(" placed bonus tile ") != std::string::npos;
      huts += sum.find("hut on the river system") != std::string::npos;
      EXPECT_EQ(sum.find("river system with"), std::string::npos) << "final scoring is not a turn's news";
      EXPECT_EQ(sum.find("fishs"), std::string::npos) << sum;
      if (sum.find("Menhir! ") != std::string::npos) {
        EXPECT_TRUE(g.state().in_extra || g.over());
        EXPECT_NE(cli::render_panels(g.state(), pl, false).find("Bonus turn now: "), std::string::npos);
      }
      if (++turns % 10 == 0 && !g.over()) {
        ViewOptions o;
        const auto cs = cli::placement_candidates(g.state());
        EXPECT_LE(widest(cli::render_board(g.state(), o, cs)), 80);
        EXPECT_LE(widest(cli::render_panels(g.state(), pl, false)), 80);
        EXPECT_LE(widest(cli::render_scores(g.state(), pl, false)), 80);
        EXPECT_LE(widest(cli::render_hand(g.state(), cs, o)), 80);
      }
    }
    ++games;
    for (const ScoreEvent& e : g.record().events) {
      if (!cli::is_final_event(g.state(), e)) continue;
      const std::string d = cli::describe_event_named(g.state(), e, pl, false);
      if (e.reason == ScoreReason::Own) {  // Hunters' only own event: a river system's huts
        network_final = true;
        EXPECT_NE(d.find("for the hut majority on a river system with"), std::string::npos) << d;
      }
      if (e.reason == ScoreReason::Farm) {
        meadow_final = true;
        EXPECT_NE(d.find("for a meadow with"), std::string::npos) << d;
      }
    }
    EXPECT_NE(cli::render_final(g.state(), pl, false).find("Final scores:"), std::string::npos);
    EXPECT_EQ(cli::render_panels(g.state(), pl, false).find("Bonus turn"), std::string::npos) << "nothing due at the end";
    // the record replays to the same scores
    const Game r = Game::replay(g.record());
    EXPECT_TRUE(r.over());
    EXPECT_EQ(r.record().final_scores, g.record().final_scores);
  }
  EXPECT_EQ(games, 3);
  EXPECT_GT(menhirs, 0);
  EXPECT_GE(bonus_tiles, menhirs);
  EXPECT_GT(huts, 0);
  EXPECT_TRUE(network_final);
  EXPECT_TRUE(meadow_final);
}
// ---- Safari ---------------------------------------------------------------------------------

namespace saf {

const std::vector<PlayerInfo> kSafari = {{"Ann", ""}, {"greedy", "greedy"}};
const std::array<const char*, 5> kSpecies = {"monkey", "elephant", "giraffe", "lion", "zebra"};
const std::array<const char*, 4> kCorner = {"NE", "SE", "SW", "NW"};

std::shared_ptr<const Ruleset> safari_rules() { return load_ruleset("safari", {}); }

// Places the first legal placement of the tile in hand (the state must be at Place).
void place_first(Game& g) {
  MoveList ml;
  legal_moves(g.state(), ml);
  ASSERT_FALSE(ml.empty());
  g.play(ml[0]);
}

// The first legal action of kind pk (1 jeep, 2 found, 3 explore) at the Piece decision, if any.
std::optional<Move> first_action(const State& s, int pk) {
  MoveList ml;
  legal_moves(s, ml);
  for (const Move& m : ml)
    if (m.kind == MoveKind::Act && m.pk == pk) return m;
  return std::nullopt;
}

std::string lower(std::string t) {
  for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return t;
}

}  // namespace saf

// A game of no folder: the base game with an overlay on a cell and one at a grid point, drawn
// only from the view (its overlays) and its look's terminal section: the terminal knows nothing of
// it. The cell's overlay is its mark across the empty cell; at the point, a part at the origin
// turned 0 degrees stands in quarter 0 (corner NE of cell 0,0) and a seat's part offset south-west
// is that seat's number beside it; parts without a terminal mark are not drawn.
TEST(TerminalView, OverlaysAreDrawnFromTheViewWithTheLooksTerminalMarks) {
  static GameDef g = [] {
    GameDef d = *find_game("base");
    d.id = "overlay-test";
    d.present.look =
        R"({"glyphs": {"flag": {"svg": "<circle r='3'/>", "title": "flag"}, "ring": {"svg": "<circle r='5'/>"},
      "pin": {"svg": "<circle r='2'/>", "seat": true}, "plain": {"svg": "<circle r='1'/>"}},
      "terminal": {"glyphs": {"flag": {"mark": "FLAG", "fg": 16, "bg": 214}, "ring": {"mark": "R", "fg": 231, "bg": 31},
                              "pin": {"seat": true}},
                   "legend": ["FLAG: a flag on an empty cell"]}})";
    d.present.overlays = [](const State&) {
      Overlay flag;
      flag.id = "flag:0";
      flag.glyph = "flag";
      flag.x = 2;
      flag.y = 0;
      Overlay ring;
      ring.id = "ring:1,0";
      ring.at = Overlay::At::Point;
      ring.x = 1;
      ring.y = 0;
      ring.parts = {{"plain", 0, 0, 90, -1, ""}, {"ring", 0, 0, 0, -1, ""}, {"pin", -0.3, 0.3, 0, 1, ""}};
      return std::vector<Overlay>{flag, ring};
    };
    return d;
  }();
  const auto rs = make_ruleset(g, load_ruleset("base", {})->tiles, {});
  Game game(rs, {{"a", ""}, {"b", ""}}, 1);
  ViewOptions o;
  o.centre = std::pair{0, 0};
  const std::string b = cli::render_board(game.state(), o, cli::placement_candidates(game.state()));
  std::istringstream in(b);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_GE(lines.size(), 4u) << b;
  // the columns: "  y\x" then 5 per cell from x0; the window starts at the leftmost cell shown
  const auto x0 = cli::board_window(game.state(), o, cli::placement_candidates(game.state()))[0];
  const auto col = [&](int x) { return static_cast<std::size_t>(5 + 5 * (x - x0)); };
  std::size_t row0 = 0;  // the first line of the cells of row 0
  for (std::size_t i = 1; i < lines.size(); ++i)
    if (lines[i].rfind("   0 ", 0) == 0) row0 = i - 1;
  ASSERT_GT(row0, 0u) << b;
  auto cells = [&](const std::string& line, std::size_t from, std::size_t n) {  // n glyphs from column `from`
    std::vector<std::string> g8;
    for (std::size_t i = 0, c = 0; i < line.size(); ++c) {
      const auto u = static_cast<unsigned char>(line[i]);
      const std::size_t len = u < 0x80 ? 1 : (u & 0xE0) == 0xC0 ? 2 : (u & 0xF0) == 0xE0 ? 3 : 4;
      if (c >= from && c < from + n) g8.push_back(line.substr(i, len));
      i += len;
    }
    std::string out;
    for (const auto& x : g8) out += x;
    return out;
  };
  EXPECT_EQ(cells(lines[row0 + 1], col(2) + 1, 4), "FLAG") << b;
  EXPECT_EQ(cells(lines[row0], col(0) + 3, 2), "2R") << b;
  // placing on the flag's cell would say so (by its glyph's title); the legend comes from the look
  Candidate c;
  c.marker = true;
  c.mark = "flag";
  c.x = 2;
  c.rots = {0};
  c.label = "a";
  EXPECT_NE(cli::render_placements(game.state(), {c}, 80).find("a 2,0: r0 flag"), std::string::npos);
  EXPECT_NE(cli::board_legend(g).find("FLAG: a flag on an empty cell"), std::string::npos) << cli::board_legend(g);
  // in colour: the mark in its look's colours
  o.color = true;
  EXPECT_NE(cli::render_board(game.state(), o).find("\x1b[1;38;5;16;48;5;214mFLAG"), std::string::npos);
}

TEST(TerminalViewSafari, BoardShowsJeepsAndAWateringHoleAndThePanelShowsIt) {
  auto rs = saf::safari_rules();
  Game g(rs, saf::kSafari, 4);
  ASSERT_EQ(g.state().phase, Phase::Place) << "the opening deal is done";
  // the start: both jeeps on their cells, each marked "jeep"; placements on a jeep's cell say so
  ViewOptions o;
  const auto cands = cli::placement_candidates(g.state());
  const std::string b0 = cli::render_board(g.state(), o, cands);
  std::size_t jeeps = 0;
  for (std::size_t at = 0; (at = b0.find("jeep", at)) != std::string::npos; ++at) ++jeeps;
  EXPECT_EQ(jeeps, 2u) << b0;
  for (const Candidate& c : cands) EXPECT_EQ(c.marker, c.y == 0 && (c.x == -2 || c.x == 2)) << c.x << "," << c.y;
  EXPECT_TRUE(cli::choice_cells(g.state()).empty()) << "no jeep to put back";
  // a tile, then a watering hole founded with a token and a photographer
  saf::place_first(g);
  const auto found = saf::first_action(g.state(), 2);
  ASSERT_TRUE(found) << "no found option";
  const std::string species = saf::kSpecies[found->feat];
  const State before = g.state();
  g.play(*found);
  const State& s = g.state();
  ASSERT_EQ(safari_state(s).spots.size(), 1u);
  o.centre = std::pair{found->x, found->y};
  const std::string b = cli::render_board(s, o);
  const char letter = static_cast<char>(std::toupper(species[0]));
  // the token as a capital letter in the tile's corner, Ann's photographer (1) beside it
  const std::string mark = found->rot <= 1 ? fmt::format("1{}", letter) : fmt::format("{}1", letter);
  EXPECT_NE(b.find(mark), std::string::npos) << mark << "\n" << b;
  EXPECT_LE(widest(b), 80);
  const std::string legend = cli::board_legend(*rs->game);
  for (const char* w : {"jeep: a jeep on an empty cell", "M E G L Z", "○ its free quarters", "m monkey", "v bird", "▪ a dead end"})
    EXPECT_NE(legend.find(w), std::string::npos) << w << "\n" << legend;
  // the panel: the hands (face up), the pile, the jeeps, the watering hole with its token and photographer
  const std::string panel = cli::render_panels(s, saf::kSafari, false);
  EXPECT_LE(widest(panel), 80) << panel;
  for (const char* w : {"monkey elephant giraffe lion zebra", "Face-down pile: 46 tokens", "discard pile: 0",
                        "Jeeps: at ", "Watering holes:", "photographers"})
    EXPECT_NE(panel.find(w), std::string::npos) << w << "\n" << panel;
  const int px = found->x + (found->rot <= 1 ? 1 : 0), py = found->y + (found->rot == 1 || found->rot == 2 ? 1 : 0);
  // the hole named by its point, then its species and photographers (no quarter coordinates)
  EXPECT_NE(panel.find(fmt::format("Watering hole {},{}: {} (photographers: Ann); explore +4", px, py, species)),
            std::string::npos)
      << panel;
  EXPECT_EQ(panel.find(fmt::format("{},{} {}", found->x, found->y, saf::kCorner[found->rot])), std::string::npos)
      << panel;
  // each player's row shows their hand, species by species
  for (int p = 0; p < 2; ++p) {
    std::string counts;
    for (int k = 0; k < kTokenKinds; ++k)
      counts +=
          fmt::format(" {:>{}}", safari_state(s).tokens.hand[static_cast<std::size_t>(p)][static_cast<std::size_t>(k)],
                      std::string(saf::kSpecies[static_cast<std::size_t>(k)]).size());
    EXPECT_NE(panel.find(fmt::format("{:<6}{}", saf::kSafari[static_cast<std::size_t>(p)].name, counts)), std::string::npos)
        << p << " '" << counts << "'\n" << panel;
  }
  EXPECT_EQ(safari_state(before).tokens.hand[0][found->feat], safari_state(s).tokens.hand[0][found->feat] + 1)
      << "the token left Ann's hand";
  // the turn reads as a Safari turn
  const std::string sum = cli::turn_summary(s, g.record(), 0, saf::kSafari, false);
  EXPECT_NE(sum.find(fmt::format("founded a watering hole with {} {} token at {},{} {}", species[0] == 'e' ? "an" : "a", species,
                                 found->x, found->y, saf::kCorner[found->rot])),
            std::string::npos)
      << sum;
  EXPECT_NE(sum.find(fmt::format("Ann scores 3 for founding a watering hole with {} {} token", species[0] == 'e' ? "an" : "a", species)),
            std::string::npos)
      << sum;
}

TEST(TerminalViewSafari, ActionsAreListedAndParsedFromText) {
  auto rs = saf::safari_rules();
  Game g(rs, saf::kSafari, 4);
  EXPECT_TRUE(cli::render_decision(g.state(), {}, false, false).empty()) << "no actions before the tile";
  saf::place_first(g);
  const State& s = g.state();
  // the piece prompt lists the photographer spots, then the actions, then none
  const std::string opts = cli::render_piece_options(s, saf::kSafari, false);
  EXPECT_LE(widest(opts), 80) << opts;
  for (const char* w : {"Photographer spots", "Or one action instead of a photographer:", "   found  +3: a token", "   jeep   move the jeep at ",
                        "Type e.g. \"found ", "none  no action"})
    EXPECT_NE(opts.find(w), std::string::npos) << w << "\n" << opts;
  const std::string all = cli::render_decision(s, {}, false, true);
  EXPECT_NE(all.find("point "), std::string::npos) << all;
  // every legal found and jeep move parses back from a short form and from the engine's text
  MoveList ml;
  legal_moves(s, ml);
  int checked = 0;
  for (const Move& m : ml) {
    if (m.kind != MoveKind::Act) continue;
    std::string text;
    if (m.pk == 1)
      text =
          fmt::format("j {},{} {},{}", safari_state(s).markers[m.rot][0], safari_state(s).markers[m.rot][1], m.x, m.y);
    else
      text = fmt::format("{} {} {} {} {}", m.pk == 2 ? "f" : "x", saf::kSpecies[m.feat][0], m.x, m.y, saf::lower(saf::kCorner[m.rot]));
    const auto pa = parse_alias(s, text);  // the game's shorthand
    ASSERT_TRUE(pa) << text;
    EXPECT_EQ(*pa, m) << text;
    EXPECT_EQ(parse_notation(s, text), m) << text;  // the notation takes the shorthand too
    const std::string canon = notation(s, m);
    EXPECT_EQ(g.action(canon), m) << canon;  // the engine's form, as recorded
    EXPECT_EQ(parse_alias(s, canon), m) << canon;
    ++checked;
  }
  EXPECT_GT(checked, 10);
  // mistakes get a reason, never a move
  auto error = [&](const std::string& t) {
    try {
      (void)parse_alias(s, t);
      ADD_FAILURE() << t << ": no error";
    } catch (const InputError& e) {
      EXPECT_THROW((void)parse_notation(s, t), InputError) << t;
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error("j 1,1").find("two jeeps are on the board"), std::string::npos);
  EXPECT_NE(error("jeep 5,5 to 1,1").find("no jeep stands at 5,5"), std::string::npos);
  EXPECT_NE(error("jeep -2,0 to 0,0").find("0,0 holds a tile"), std::string::npos);
  EXPECT_NE(error("jeep -2,0 to 2,0").find("a jeep already stands at 2,0"), std::string::npos);
  EXPECT_NE(error("jeep -2,0 to 9,9").find("does not touch a placed tile"), std::string::npos);
  EXPECT_NE(error("found q 0,0 ne").find("\"q\" is not a species"), std::string::npos);
  EXPECT_NE(error("found").find("give the cell and its corner"), std::string::npos);
  unsigned missing = 0;  // a species Ann does not hold
  for (int k = 0; k < kTokenKinds; ++k)
    if (!safari_state(s).tokens.hand[0][static_cast<std::size_t>(k)]) missing = static_cast<unsigned>(k);
  const auto f = saf::first_action(s, 2);
  ASSERT_TRUE(f);
  EXPECT_NE(error(fmt::format("found {} {},{} {}", saf::kSpecies[missing], f->x, f->y, saf::kCorner[f->rot]))
                .find(fmt::format("you have no {} token", saf::kSpecies[missing])),
            std::string::npos);
  EXPECT_NE(error(fmt::format("explore {} {},{} {}", saf::kSpecies[f->feat], f->x, f->y, saf::kCorner[f->rot])).find("there is no watering hole at point"),
            std::string::npos);
  EXPECT_FALSE(parse_alias(s, "N"));  // not the game's forms: a port, a pass
  EXPECT_FALSE(parse_alias(s, "none"));
  // help names the actions and the short forms
  const std::string h = cli::help_text(s);
  EXPECT_LE(widest(h), 80) << h;
  for (const char* w : {"found SPECIES X,Y CORNER", "explore SPECIES X,Y CORNER", "jeep X,Y to X,Y", "\"f l 2,1 ne\"", "actions",
                        "hand in a token of a species not on it", "the jeep's new cell", "tokens", "undo", "quit"})
    EXPECT_NE(h.find(w), std::string::npos) << w;
}

// Games through the same calls as `play` with seat 0 a human for the Choose decisions: every
// token hand-in and jeep relocation of Ann is stopped for (play_bot_turn returns false), listed by
// render_choices and answered through parse_choice; bots decide the rest (each for itself).
TEST(TerminalViewSafari, HandInsAndJeepRelocationsArePromptedToWhoDecides) {
  auto rs = saf::safari_rules();
  const std::vector<u64> kSeeds = {3, 5, 10};  // seed 3: a hand-in of Ann's on random's turn
  const std::vector<PlayerInfo> pl = {{"Ann", ""}, {"greedy", "greedy"}, {"random", "random"}};
  int handins = 0, off_turn = 0, jeeps = 0, bot_handins = 0, games = 0;
  for (const u64 seed : kSeeds) {
    Game g(rs, pl, seed);
    std::vector<std::unique_ptr<Bot>> bots;
    bots.push_back(make_bot("greedy"));  // plays Ann's tiles and pieces
    bots.push_back(make_bot("greedy"));
    bots.push_back(make_bot("random"));
    Rng rng(seed);
    const auto bot_of = [&](int p) -> Bot* {
      if (p == 0 && g.state().phase == Phase::Choose) return nullptr;  // Ann's choices: a prompt
      return bots[static_cast<std::size_t>(p)].get();
    };
    while (!g.over()) {
      ASSERT_FALSE(g.stalled());
      const std::size_t ev0 = g.record().events.size(), moves0 = g.record().moves.size();
      const cli::Hands hands0 = cli::hands_of(g.state());
      while (!play_bot_turn(g, bot_of, rng)) {
        const State& s = g.state();
        ASSERT_EQ(s.phase, Phase::Choose);
        ASSERT_EQ(to_move(s), 0) << "only Ann's decisions stop the bots";
        const std::string text = cli::render_choices(s, pl, false);
        EXPECT_LE(widest(text), 80) << text;
        if (safari_state(s).pend_root != 0xFFFF) {  // a hand-in: none, and each species Ann may give, with the score
          ++handins;
          off_turn += s.current != 0;
          EXPECT_NE(text.find("is complete"), std::string::npos) << text;
          EXPECT_NE(text.find("Scoring it: Ann"), std::string::npos) << text;
          EXPECT_NE(text.find("none"), std::string::npos) << text;
          MoveList ml;
          legal_moves(s, ml);
          int best = -1;
          for (const Move& m : ml) {
            if (m.feat == 0xFF) continue;
            EXPECT_NE(text.find(fmt::format("  {} ", saf::kSpecies[m.feat])), std::string::npos) << text;
            best = m.feat;
          }
          // a species on the feature or not in hand is refused with a reason
          for (int k = 0; k < kTokenKinds; ++k) {
            if (std::any_of(ml.begin(), ml.end(), [&](const Move& m) { return m.feat == k; })) continue;
            const auto bad = cli::parse_choice(saf::kSpecies[static_cast<std::size_t>(k)], s);
            EXPECT_NE(bad.error, "") << saf::kSpecies[static_cast<std::size_t>(k)];
          }
          EXPECT_NE(cli::parse_choice("tiger", s).error.find("is not a species"), std::string::npos);
          const std::string said = best >= 0 ? std::string(1, saf::kSpecies[static_cast<std::size_t>(best)][0]) : std::string("none");
          const auto pc = cli::parse_choice(said, s);
          ASSERT_EQ(pc.error, "") << said;
          EXPECT_EQ(pc.option, best >= 0 ? std::string(saf::kSpecies[static_cast<std::size_t>(best)]) : std::string("none"));
          g.play(pc.move);
        } else {  // the jeep Ann took: the cells, labelled as on the board
          ++jeeps;
          EXPECT_EQ(s.current, 0);
          const auto cells = cli::choice_cells(s);
          ASSERT_FALSE(cells.empty());
          EXPECT_NE(text.find("Ann took the jeep at "), std::string::npos) << text;
          ViewOptions whole;
          whole.width = 400;
          whole.max_rows = 60;
          EXPECT_NE(cli::render_board(s, whole, cells).find("│ a │"), std::string::npos);
          EXPECT_NE(cli::parse_choice("0,0", s).error.find("holds a tile"), std::string::npos);
          EXPECT_NE(cli::parse_choice("jeep to", s).error, "");
          const bool by_label = jeeps % 2 == 1;
          const auto pc = cli::parse_choice(by_label ? "a" : fmt::format("jeep to {},{}", cells[0].x, cells[0].y), s);
          ASSERT_EQ(pc.error, "");
          EXPECT_EQ(pc.option, fmt::format("{},{}", cells[0].x, cells[0].y));
          g.play(pc.move);
        }
        if (g.state().phase != Phase::Choose && g.state().phase != Phase::Piece) break;
      }
      ASSERT_EQ(g.record().moves.size(), moves0 + 1) << "one whole turn";
      const std::string sum = cli::turn_summary(g.state(), g.record(), ev0, pl, false);
      EXPECT_EQ(sum.find("scores 1 for 1 token in hand"), std::string::npos) << "tokens in hand are final scoring";
      bot_handins += sum.find("greedy scores") != std::string::npos && sum.find("token handed in") != std::string::npos;
      const std::string drawn = cli::hand_news(hands0, g.state(), pl, false);
      if (!drawn.empty()) {
        EXPECT_NE(drawn.find(" draws "), std::string::npos) << drawn;
      }
    }
    ++games;
    EXPECT_NE(cli::render_final(g.state(), pl, false).find("Final scores:"), std::string::npos);
    // the record (every choice with who made it) replays to the same scores
    const Game r = Game::replay(g.record());
    EXPECT_TRUE(r.over());
    EXPECT_EQ(r.record().final_scores, g.record().final_scores);
  }
  EXPECT_EQ(games, static_cast<int>(kSeeds.size()));
  EXPECT_GT(handins, 0);
  EXPECT_GT(off_turn, 0) << "a hand-in of Ann's on another player's turn";
  EXPECT_GT(jeeps, 0);
  EXPECT_GT(bot_handins, 0);
}

}  // namespace
}  // namespace carc::test
