// render: the SVG board drawing and the record prefix replay behind `carcassonne render`.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ai/driver.hpp"
#include "cli/svg.hpp"
#include "scenario.hpp"

namespace carc {
namespace {

using cli::render_svg;
using cli::replay_prefix;
using cli::SvgOptions;

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + what.size())) ++n;
  return n;
}

// Tags nest and close properly, attributes are quoted pairs, and '&' only starts an entity.
::testing::AssertionResult well_formed(const std::string& svg) {
  std::string body = svg;
  while (!body.empty() && (body.back() == '\n' || body.back() == ' ')) body.pop_back();
  if (body.rfind("<svg", 0) != 0) return ::testing::AssertionFailure() << "does not start with <svg";
  if (body.size() < 6 || body.substr(body.size() - 6) != "</svg>")
    return ::testing::AssertionFailure() << "does not end with </svg>";
  std::vector<std::string> open;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '&') {
      const std::size_t semi = body.find(';', i);
      if (semi == std::string::npos || semi - i > 8) return ::testing::AssertionFailure() << "bare & at " << i;
      continue;
    }
    if (body[i] == '>') return ::testing::AssertionFailure() << "stray > at " << i;
    if (body[i] != '<') continue;
    const std::size_t end = body.find('>', i);
    if (end == std::string::npos) return ::testing::AssertionFailure() << "unterminated tag at " << i;
    const std::string tag = body.substr(i + 1, end - i - 1);
    if (tag.find('<') != std::string::npos) return ::testing::AssertionFailure() << "< inside tag at " << i;
    if (count(tag, "\"") % 2 != 0) return ::testing::AssertionFailure() << "unbalanced quotes in <" << tag << ">";
    if (tag[0] == '/') {
      const std::string name = tag.substr(1);
      if (open.empty() || open.back() != name)
        return ::testing::AssertionFailure() << "</" << name << "> closes <" << (open.empty() ? "" : open.back()) << ">";
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(tag.substr(0, tag.find_first_of(" \n")));
    }
    i = end;
  }
  if (!open.empty()) return ::testing::AssertionFailure() << "<" << open.back() << "> never closed";
  return ::testing::AssertionSuccess();
}

// The text of tile group k (up to the next tile group or the end of the tiles).
std::string tile_group(const std::string& svg, int k) {
  const std::size_t a = svg.find("id=\"tile-" + std::to_string(k) + "\"");
  if (a == std::string::npos) return {};
  std::size_t b = svg.find("id=\"tile-" + std::to_string(k + 1) + "\"", a);
  if (b == std::string::npos) b = svg.find("class=\"follower", a);
  return svg.substr(a, b == std::string::npos ? std::string::npos : b - a);
}

// The opening tags of every follower element.
std::vector<std::string> follower_tags(const std::string& svg) {
  std::vector<std::string> out;
  for (std::size_t p = svg.find("<g class=\"follower"); p != std::string::npos; p = svg.find("<g class=\"follower", p + 1))
    out.push_back(svg.substr(p, svg.find('>', p) - p));
  return out;
}

// A finished greedy self-play game, as a record.
Record greedy_record(u64 seed) {
  Game g(load_ruleset("base", {}), {{"ann", "greedy"}, {"bob", "greedy"}}, seed);
  std::vector<std::unique_ptr<Bot>> bots;
  bots.push_back(make_bot("greedy"));
  bots.push_back(make_bot("greedy"));
  Rng rng(seed);
  play_out(g, bots, rng);
  EXPECT_TRUE(g.over());
  return g.record();
}

TEST(Svg, WholeGameIsWellFormedWithOneGroupPerTile) {
  const Record r = greedy_record(3);
  const Game g = replay_prefix(r, std::nullopt, "test");
  ASSERT_TRUE(g.over());
  const std::string svg = render_svg(g.state(), SvgOptions{});
  EXPECT_TRUE(well_formed(svg));
  EXPECT_EQ(count(svg, "<g class=\"tile\""), static_cast<int>(g.state().tiles.size()));
  EXPECT_EQ(static_cast<int>(g.state().tiles.size()), 72 - g.state().discards);
  for (const PlacedTile& t : g.state().tiles)
    EXPECT_EQ(count(svg, fmt::format("data-x=\"{}\" data-y=\"{}\"", t.x, t.y)), 1) << t.x << "," << t.y;
  EXPECT_EQ(count(svg, "class=\"last\""), 1);
  EXPECT_NE(svg.find("game over"), std::string::npos);
}

TEST(Svg, FollowersInSeatColoursFarmersLying) {
  const Record r = greedy_record(5);
  for (int turn : {12, 25, 40}) {
    const Game g = replay_prefix(r, turn, "test");
    const State& s = g.state();
    ASSERT_FALSE(s.pieces.empty()) << "turn " << turn;
    const std::string svg = render_svg(s, SvgOptions{});
    EXPECT_TRUE(well_formed(svg));
    const auto tags = follower_tags(svg);
    ASSERT_EQ(tags.size(), s.pieces.size());
    std::array<int, 2> by_player{}, farmers_expected{}, farmers_seen{};
    for (const PieceOnBoard& pc : s.pieces) {
      ++by_player[pc.player];
      const Segment& seg = s.graph[pc.seg];
      const TileType& tt = s.type_of(s.tiles[seg.tile]);
      if (s.rs->ftype(tt.feats[seg.local].type).cls == FClass::Field) ++farmers_expected[pc.player];
    }
    std::array<int, 2> seen{};
    for (const std::string& tag : tags) {
      const int p = tag.find("data-player=\"0\"") != std::string::npos ? 0 : 1;
      ++seen[static_cast<std::size_t>(p)];
      EXPECT_NE(tag.find(p == 0 ? "fill=\"#d62728\"" : "fill=\"#1f5fd6\""), std::string::npos) << tag;
      if (tag.find("farmer") != std::string::npos) {
        ++farmers_seen[static_cast<std::size_t>(p)];
        EXPECT_NE(tag.find("rotate(90)"), std::string::npos) << tag;
      }
    }
    EXPECT_EQ(seen, by_player) << "turn " << turn;
    EXPECT_EQ(farmers_seen, farmers_expected) << "turn " << turn;
  }
}

TEST(Svg, TurnCutsTheGameShort) {
  const Record r = greedy_record(3);
  const Game all = replay_prefix(r, std::nullopt, "test");
  const Game ten = replay_prefix(r, 10, "test");
  const Game start = replay_prefix(r, 0, "test");
  EXPECT_EQ(ten.state().tiles.size(), 11u);
  EXPECT_EQ(start.state().tiles.size(), 1u);
  EXPECT_EQ(ten.state().phase, Phase::Place);  // the next draw is applied: it waits for move 11
  const std::string s_all = render_svg(all.state(), SvgOptions{});
  const std::string s_ten = render_svg(ten.state(), SvgOptions{});
  const std::string s_start = render_svg(start.state(), SvgOptions{});
  EXPECT_TRUE(well_formed(s_ten));
  EXPECT_TRUE(well_formed(s_start));
  EXPECT_EQ(count(s_ten, "<g class=\"tile\""), 11);
  EXPECT_LT(count(s_ten, "<g class=\"tile\""), count(s_all, "<g class=\"tile\""));
  EXPECT_EQ(count(s_start, "<g class=\"tile\""), 1);
  EXPECT_EQ(count(s_start, "class=\"last\""), 0);  // the start tile is nobody's move
  EXPECT_NE(s_ten.find(fmt::format("next: tile {} for player", r.draws[10])), std::string::npos);
  const cli::SvgOptions o = cli::record_svg_options(r, ten, 10, "game.json");
  EXPECT_NE(render_svg(ten.state(), o).find(fmt::format("turn 10 of {}", r.moves.size())), std::string::npos);
}

TEST(Svg, BadTurnIsRejected) {
  const Record r = greedy_record(3);
  const int n = static_cast<int>(r.moves.size());
  EXPECT_NO_THROW(replay_prefix(r, n, "g.json"));
  for (int bad : {-1, n + 1, 1000}) {
    try {
      replay_prefix(r, bad, "g.json");
      ADD_FAILURE() << "turn " << bad << " accepted";
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("g.json"), std::string::npos) << msg;
      EXPECT_NE(msg.find("out of range"), std::string::npos) << msg;
    }
  }
  // a record that does not replay names the file
  Record broken = r;
  broken.moves[3].x = 100;
  EXPECT_THROW(replay_prefix(broken, std::nullopt, "g.json"), InputError);
  EXPECT_NO_THROW(replay_prefix(broken, 3, "g.json"));  // the bad move is cut off
}

TEST(Svg, CityShapesFollowTheFeaturesAndTheRotation) {
  test::Scenario sc;
  sc.place("H", 0, -1, 0, 0, "N");   // two separate cities N and S; S closes D's city
  sc.place("F", 0, 1, 0, 1, "N");    // one city band E-W; a farmer in the north field
  sc.place("E", 1, -1, 90, 0, "E");  // city N turned to face E
  const std::string svg = render_svg(sc.s, SvgOptions{});
  EXPECT_TRUE(well_formed(svg));
  const std::string d = tile_group(svg, 0), h = tile_group(svg, 1), f = tile_group(svg, 2), e = tile_group(svg, 3);
  EXPECT_EQ(count(d, "class=\"city\""), 1);
  EXPECT_EQ(count(h, "class=\"city\""), 2);
  EXPECT_EQ(count(f, "class=\"city\""), 1);
  EXPECT_EQ(count(f, "class=\"shield\""), 1);
  EXPECT_EQ(count(h, "class=\"shield\""), 0);
  // start tile D rot 0: the city runs along the north edge, the road crosses from E to W at mid height
  EXPECT_NE(d.find("d=\"M0,0 L64,0 "), std::string::npos) << d;
  EXPECT_NE(d.find("d=\"M64,32 Q32,32 0,32\""), std::string::npos) << d;
  // E turned 90 degrees clockwise: its city runs along the east edge
  EXPECT_NE(e.find("d=\"M64,0 L64,64 "), std::string::npos) << e;
  EXPECT_NE(e.find("data-rot=\"90\""), std::string::npos);
  // followers: red knight on H, blue farmer on F, red knight on E (H's S city scored: the N one stays)
  const auto tags = follower_tags(svg);
  ASSERT_EQ(tags.size(), 3u);
  EXPECT_EQ(count(svg, "class=\"follower farmer\" data-player=\"1\" data-feature=\"field\" fill=\"#1f5fd6\""), 1);
  EXPECT_EQ(count(svg, "class=\"follower\" data-player=\"0\" data-feature=\"city\" fill=\"#d62728\""), 2);
  // the last placed tile (E at 1,-1) is framed: board origin x = 36 + 0 * 64, y = 96 + 1 * 64
  EXPECT_NE(svg.find("class=\"last\" x=\"101.5\" y=\"97.5\""), std::string::npos);
}

TEST(Svg, NamesAreEscapedAndSeatsColoured) {
  test::Scenario sc(5);
  SvgOptions o;
  o.title = "a <b> & \"c\"";
  o.player_names = {"<Bob & co>", "x"};
  const std::string svg = render_svg(sc.s, o);
  EXPECT_TRUE(well_formed(svg));
  EXPECT_NE(svg.find("&lt;Bob &amp; co&gt;"), std::string::npos);
  EXPECT_NE(svg.find("a &lt;b&gt; &amp; &quot;c&quot;"), std::string::npos);
  EXPECT_NE(svg.find("player 5"), std::string::npos);  // a missing name
  for (std::size_t p = 0; p < 5; ++p) EXPECT_NE(svg.find(std::string(cli::kSeatColours[p])), std::string::npos);
  EXPECT_EQ(cli::kSeatColourNames[0], "red");
  EXPECT_EQ(cli::kSeatColourNames[1], "blue");
}

}  // namespace
}  // namespace carc
