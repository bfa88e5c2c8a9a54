// render: the SVG board drawing and the record prefix replay behind `carcassonne render`.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
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


// ---- Amazonas ------------------------------------------------------------------------------

// A greedy self-play Amazonas game, as a record.
Record amazonas_record(u64 seed, int players) {
  std::vector<PlayerInfo> seats;
  std::vector<std::unique_ptr<Bot>> bots;
  for (int p = 0; p < players; ++p) {
    seats.push_back({fmt::format("p{}", p + 1), "greedy"});
    bots.push_back(make_bot("greedy"));
  }
  Game g(load_ruleset("amazonas", {}), seats, seed);
  Rng rng(seed);
  play_out(g, bots, rng);
  EXPECT_TRUE(g.over());
  return g.record();
}

// The element starting at `from` (an opening tag) up to its matching close tag.
std::string element_at(const std::string& svg, std::size_t from) {
  const std::size_t name_end = svg.find_first_of(" >", from + 1);
  const std::string name = svg.substr(from + 1, name_end - from - 1);
  int depth = 0;
  for (std::size_t i = from; i < svg.size(); ++i) {
    if (svg[i] != '<') continue;
    const std::size_t end = svg.find('>', i);
    if (svg.compare(i + 1, name.size() + 1, name + " ") == 0 || svg.compare(i + 1, name.size() + 1, name + ">") == 0) {
      if (svg[end - 1] != '/') ++depth;
    } else if (svg.compare(i, name.size() + 3, "</" + name + ">") == 0 && --depth == 0) {
      return svg.substr(from, end + 1 - from);
    }
    i = end;
  }
  return {};
}

// The whole <g class="tile"> element of placed tile k.
std::string tile_element(const std::string& svg, int k) {
  const std::size_t at = svg.find("<g class=\"tile\" id=\"tile-" + std::to_string(k) + "\"");
  return at == std::string::npos ? std::string() : element_at(svg, at);
}

// Every element opening with `head` (e.g. "<g class=\"follower").
std::vector<std::string> elements(const std::string& svg, const std::string& head) {
  std::vector<std::string> out;
  for (std::size_t p = svg.find(head); p != std::string::npos; p = svg.find(head, p + 1)) out.push_back(element_at(svg, p));
  return out;
}

// The symbols the tile data puts on placed tile k: (local feature, symbol name) -> count.
std::map<std::pair<int, std::string>, int> symbols_on(const State& s, int k) {
  std::map<std::pair<int, std::string>, int> out;
  const TileType& tt = s.type_of(s.tiles[static_cast<std::size_t>(k)]);
  for (int f = 0; f < tt.nfeat; ++f) {
    const TileFeature& tf = tt.feats[static_cast<std::size_t>(f)];
    const FeatureTypeDef& ft = s.rs->ftype(tf.type);
    for (std::size_t a = 0; a < ft.attrs.size(); ++a)
      if (tf.attr[a] > 0) out[{f, ft.attrs[a]}] += tf.attr[a];
  }
  return out;
}

bool has_river(const State& s, const PlacedTile& t) {
  const TileType& tt = s.type_of(t);
  for (int f = 0; f < tt.nfeat; ++f) {
    const FeatureTypeDef& ft = s.rs->ftype(tt.feats[static_cast<std::size_t>(f)].type);
    if (ft.cls == FClass::Path && !ft.claimable) return true;
  }
  return false;
}

// Checks every Amazonas drawing rule on one state; returns the number of symbols seen.
int check_amazonas_svg(const State& s, const std::string& svg) {
  EXPECT_TRUE(well_formed(svg));
  const int n = static_cast<int>(s.tiles.size());
  EXPECT_EQ(count(svg, "<g class=\"tile\""), n);
  std::map<std::string, int> totals;
  int rivers = 0, bangs = 0, doubles = 0, symbols = 0;
  for (int k = 0; k < n; ++k) {
    const PlacedTile& t = s.tiles[static_cast<std::size_t>(k)];
    const TileType& tt = s.type_of(t);
    const std::string g = tile_element(svg, k);
    EXPECT_NE(g.find(fmt::format("data-x=\"{}\" data-y=\"{}\"", t.x, t.y)), std::string::npos) << k;
    EXPECT_EQ(count(svg, fmt::format("data-x=\"{}\" data-y=\"{}\" data-rot", t.x, t.y)), 1) << t.x << "," << t.y;
    // symbols: one glyph per unit, in the right feature of the right tile
    const auto want = symbols_on(s, k);
    int here = 0;
    for (const auto& [key, c] : want) {
      EXPECT_EQ(count(g, fmt::format("class=\"symbol {}\" data-feature=\"{}\"", key.second, key.first)), c)
          << "tile " << tt.id << " feature " << key.first << " " << key.second;
      totals[key.second] += c;
      here += c;
    }
    EXPECT_EQ(count(g, "class=\"symbol "), here) << tt.id;
    symbols += here;
    // the Amazon: a wide band on the river cells only, running W-E through the middle
    const bool river = has_river(s, t);
    EXPECT_EQ(count(g, "class=\"river\""), river ? 1 : 0) << tt.id;
    if (river) {
      ++rivers;
      EXPECT_EQ(t.y, 0);
      EXPECT_NE(g.find("stroke-width=\"24.32\""), std::string::npos) << g;  // 0.38 of a 64 px tile
      EXPECT_TRUE(g.find("d=\"M0,32 Q32,32 64,32\"") != std::string::npos ||
                  g.find("d=\"M64,32 Q32,32 0,32\"") != std::string::npos ||
                  g.find("d=\"M64,32 L32,32\"") != std::string::npos)
          << g;
      // creatures swim in the band, animals live on the banks
      for (const std::string& sym : elements(g, "<g class=\"symbol ")) {
        const double y = std::stod(sym.substr(sym.find(',', sym.find("translate(")) + 1));
        const bool creature = sym.find("symbol caiman") != std::string::npos || sym.find("symbol piranha") != std::string::npos;
        if (creature) {
          EXPECT_LE(std::abs(y - 32), 12.2) << sym;
        }
        if (sym.find("symbol animal") != std::string::npos) {
          EXPECT_GT(std::abs(y - 32), 12.2) << sym;
        }
      }
    }
    const bool bang = s.rs->game->tile_kinds[tt.kind].find('!') != std::string::npos;
    EXPECT_EQ(count(g, "class=\"bang\""), bang ? 1 : 0) << tt.id;
    bangs += bang ? 1 : 0;
    doubles += tt.east != 0xFF ? 1 : 0;
  }
  EXPECT_EQ(count(svg, "class=\"river\""), rivers);
  EXPECT_GE(rivers, 4);  // the start board's four Amazon cells at least
  EXPECT_EQ(count(svg, "class=\"bang\""), bangs);
  EXPECT_EQ(count(svg, "<rect class=\"double\""), doubles);
  for (const auto& [name, c] : totals) EXPECT_EQ(count(svg, fmt::format("class=\"symbol {}\"", name)), c) << name;
  // the boat track: one space per boat space, every boat at its space
  EXPECT_EQ(count(svg, fmt::format("<g class=\"track\" data-length=\"{}\"", s.track_len)), 1);
  EXPECT_EQ(count(svg, "<g class=\"space\""), s.track_len);
  EXPECT_EQ(count(svg, "<g class=\"boat\""), s.nplayers);
  for (int p = 0; p < s.nplayers; ++p) {
    EXPECT_EQ(count(svg, fmt::format("<g class=\"boat\" data-player=\"{}\" data-space=\"{}\"", p, s.track[static_cast<std::size_t>(p)])), 1)
        << "boat of player " << p;
    EXPECT_NE(svg.find(fmt::format("<g class=\"score\" data-player=\"{}\"", p)), std::string::npos);
    EXPECT_NE(svg.find(fmt::format("<tspan font-weight=\"bold\">{}</tspan>", s.score[static_cast<std::size_t>(p)])),
              std::string::npos);
  }
  // pieces: explorers are meeples (a head), camps are tents, in the owner's colour
  int explorers = 0, camps = 0;
  for (const PieceOnBoard& pc : s.pieces) (pc.kind == 1 ? camps : explorers)++;
  const auto pieces = elements(svg, "<g class=\"follower");
  EXPECT_EQ(pieces.size(), s.pieces.size());
  EXPECT_EQ(count(svg, "<g class=\"follower explorer\""), explorers);
  EXPECT_EQ(count(svg, "<g class=\"follower camp\""), camps);
  for (std::size_t i = 0; i < pieces.size() && i < s.pieces.size(); ++i) {
    const std::string& e = pieces[i];
    const PieceOnBoard& pc = s.pieces[i];
    EXPECT_NE(e.find(fmt::format("data-player=\"{}\"", pc.player)), std::string::npos) << e;
    EXPECT_NE(e.find(fmt::format("fill=\"{}\"", cli::kSeatColours[pc.player])), std::string::npos) << e;
    if (pc.kind == 1) {
      EXPECT_NE(e.find("class=\"follower camp\" data-player"), std::string::npos) << e;
      EXPECT_NE(e.find("data-feature=\"jungle\""), std::string::npos) << e;
      EXPECT_NE(e.find("class=\"tent\""), std::string::npos) << e;
      EXPECT_EQ(e.find("<circle"), std::string::npos) << e;
      EXPECT_EQ(e.find("rotate("), std::string::npos) << e;  // a camp stands, it is no lying farmer
    } else {
      EXPECT_NE(e.find("class=\"follower explorer\" data-player"), std::string::npos) << e;
      EXPECT_EQ(e.find("data-feature=\"jungle\""), std::string::npos) << e;
      EXPECT_NE(e.find("<circle"), std::string::npos) << e;
      EXPECT_EQ(e.find("class=\"tent\""), std::string::npos) << e;
    }
  }
  return symbols;
}

TEST(SvgAmazonas, FinishedGamesShowTilesRiverSymbolsBoatsAndScores) {
  for (int players : {2, 3, 4, 5}) {
    SCOPED_TRACE(fmt::format("{} players", players));
    const Record r = amazonas_record(static_cast<u64>(10 + players), players);
    const Game g = replay_prefix(r, std::nullopt, "test");
    ASSERT_TRUE(g.over());
    const State& s = g.state();
    const std::string svg = render_svg(s, SvgOptions{});
    EXPECT_GT(check_amazonas_svg(s, svg), 100);
    EXPECT_NE(svg.find("game over"), std::string::npos);
    // the whole pile is placed: 8 start cells, 80 drawn tiles, 3 double tiles of 2 cells
    EXPECT_EQ(s.tiles.size() + s.discards, 94u);
    EXPECT_EQ(count(svg, "class=\"bang\""), 3);
    EXPECT_EQ(count(svg, "<rect class=\"double\""), 3);
    // the river: 4 start cells, 15 Amazon tiles, 3 double tiles; as many spaces as the start board's
    // track plus one per Amazon cell
    EXPECT_EQ(count(svg, "class=\"river\""), 4 + 15 + 6);
    EXPECT_EQ(s.track_len, (players <= 3 ? 16 : 8) + 15 + 6);
    // the "!" turn that ended the game (if any) frames all its tiles; otherwise the last tile
    EXPECT_GE(count(svg, "class=\"last\""), 1);
  }
}

TEST(SvgAmazonas, MidGameExplorersAndCampsAreDistinct) {
  const Record r = amazonas_record(7, 3);
  int both = 0;
  for (int turn = 0; turn <= static_cast<int>(r.moves.size()); turn += 3) {
    const Game g = replay_prefix(r, turn, "test");
    const State& s = g.state();
    const std::string svg = render_svg(s, SvgOptions{});
    SCOPED_TRACE(fmt::format("turn {}", turn));
    check_amazonas_svg(s, svg);
    bool explorer = false, camp = false;
    for (const PieceOnBoard& pc : s.pieces) (pc.kind == 1 ? camp : explorer) = true;
    both += explorer && camp ? 1 : 0;
    if (HasFailure()) break;
  }
  EXPECT_GT(both, 5);  // the checks above saw both kinds of pieces on many boards
}

TEST(SvgAmazonas, StartBoardHasTheSourceAndAllBoatsOnSpace1) {
  for (int players : {3, 4}) {
    const Record r = amazonas_record(5, players);
    const Game g = replay_prefix(r, 0, "test");
    const State& s = g.state();
    const std::string svg = render_svg(s, SvgOptions{});
    check_amazonas_svg(s, svg);
    EXPECT_EQ(count(svg, "<g class=\"tile\""), 8);
    EXPECT_EQ(count(svg, "class=\"river\""), 4);
    EXPECT_EQ(count(svg, "<g class=\"space\""), players <= 3 ? 16 : 8);
    EXPECT_EQ(count(svg, "data-space=\"1\" transform"), players);  // every boat on space 1
    EXPECT_EQ(count(svg, "class=\"last\""), 0);
    // the source (the river cell with one port) ends round in the middle of its tile
    int sources = 0;
    for (int k = 0; k < 8; ++k) {
      const std::string t = tile_element(svg, k);
      if (t.find("class=\"river\"") == std::string::npos) continue;
      const bool round = t.find("<circle cx=\"32\" cy=\"32\" r=\"12.16\"") != std::string::npos;
      sources += round ? 1 : 0;
      if (round) {
        EXPECT_NE(t.find("d=\"M64,32 L32,32\""), std::string::npos) << t;
      }
    }
    EXPECT_EQ(sources, 1);
    // heading: both kinds of pieces left
    EXPECT_NE(svg.find("(4 explorers, 2 camps left)"), std::string::npos);
  }
}

// Nothing is drawn from tile ids: renamed tiles draw the same picture, and changed symbols, kinds
// and feature ports show up where the data puts them.
TEST(SvgAmazonas, DrawnFromTheTileDataNotTheIds) {
  const Record r = amazonas_record(9, 3);
  const Game g = replay_prefix(r, std::nullopt, "test");
  const std::string svg = render_svg(g.state(), SvgOptions{});
  auto strip_ids = [](std::string t) {
    for (std::size_t p = t.find("data-tile=\""); p != std::string::npos; p = t.find("data-tile=\"", p + 1))
      t.erase(p + 11, t.find('"', p + 11) - (p + 11));
    return t;
  };
  Ruleset renamed = g.ruleset();
  for (std::size_t i = 0; i < renamed.tiles.types.size(); ++i) renamed.tiles.types[i].id = fmt::format("T{}", i);
  State s = g.state();
  s.rs = &renamed;
  const std::string svg_renamed = render_svg(s, SvgOptions{});
  EXPECT_NE(svg_renamed, svg);
  EXPECT_EQ(strip_ids(svg_renamed), strip_ids(svg));

  // a "corrected" tile set: more boat icons on a land tile, one more caiman on an Amazon tile that
  // is now a "!" tile
  Ruleset fixed = g.ruleset();
  const auto& kinds = fixed.game->tile_kinds;
  const auto bang_kind = static_cast<u8>(
      std::find_if(kinds.begin(), kinds.end(), [](const std::string& k) { return k.find('!') != std::string::npos; }) -
      kinds.begin());
  ASSERT_LT(bang_kind, kinds.size());
  int land = -1, amazon = -1;
  for (std::size_t i = 0; i < fixed.tiles.types.size(); ++i) {
    TileType& tt = fixed.tiles.types[i];
    const std::string& kind = fixed.game->tile_kinds[tt.kind];
    for (int f = 0; f < tt.nfeat; ++f) {
      const FeatureTypeDef& ft = fixed.ftype(tt.feats[static_cast<std::size_t>(f)].type);
      if (ft.name == "tributary" && land < 0 && kind == "land") {
        tt.feats[static_cast<std::size_t>(f)].attr[1] = static_cast<u8>(tt.feats[static_cast<std::size_t>(f)].attr[1] + 2);
        land = static_cast<int>(i);
      }
      if (ft.name == "amazon" && amazon < 0 && kind == "amazon") {
        tt.feats[static_cast<std::size_t>(f)].attr[0] = static_cast<u8>(tt.feats[static_cast<std::size_t>(f)].attr[0] + 1);
        tt.kind = bang_kind;
        amazon = static_cast<int>(i);
      }
    }
  }
  ASSERT_GE(land, 0);
  ASSERT_GE(amazon, 0);
  s.rs = &fixed;
  const std::string svg_fixed = render_svg(s, SvgOptions{});
  const int land_copies = static_cast<int>(std::count_if(s.tiles.begin(), s.tiles.end(), [&](const PlacedTile& t) { return t.type == land; }));
  ASSERT_GT(land_copies, 0);
  EXPECT_EQ(count(svg_fixed, "class=\"symbol boat\""), count(svg, "class=\"symbol boat\"") + 2 * land_copies);
  EXPECT_EQ(count(svg_fixed, "class=\"symbol caiman\""), count(svg, "class=\"symbol caiman\"") + 1);
  EXPECT_EQ(count(svg_fixed, "class=\"bang\""), count(svg, "class=\"bang\"") + 1);
  check_amazonas_svg(s, svg_fixed);
}

}  // namespace
}  // namespace carc
