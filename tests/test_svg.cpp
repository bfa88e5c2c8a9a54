// render: the SVG board drawing and the record prefix replay behind `carcassonne render`.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ai/driver.hpp"
#include "games/games.hpp"
#include "games/safari/safari_state.hpp"
#include "scenario.hpp"
#include "view/look.hpp"
#include "view/svg.hpp"

namespace carc {
namespace {

using view::render_svg;
using view::replay_prefix;
using view::SvgOptions;

struct Pt2 {
  double x = 0, y = 0;
};

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
  const view::SvgOptions o = view::record_svg_options(r, ten, 10, "game.json");
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
  for (std::size_t p = 0; p < 5; ++p) EXPECT_NE(svg.find(std::string(view::kSeatColours[p])), std::string::npos);
  EXPECT_EQ(view::kSeatColourNames[0], "red");
  EXPECT_EQ(view::kSeatColourNames[1], "blue");
}

// Every url(#id) the picture uses is defined exactly once in it, and every defined id is used.
::testing::AssertionResult refs_resolve(const std::string& svg) {
  std::map<std::string, int> defined, used;
  for (std::size_t p = svg.find(" id=\""); p != std::string::npos; p = svg.find(" id=\"", p + 1))
    ++defined[svg.substr(p + 5, svg.find('"', p + 5) - p - 5)];
  for (std::size_t p = svg.find("url(#"); p != std::string::npos; p = svg.find("url(#", p + 1))
    ++used[svg.substr(p + 5, svg.find(')', p + 5) - p - 5)];
  for (const auto& [id, n] : used)
    if (defined[id] != 1)
      return ::testing::AssertionFailure() << "url(#" << id << ") defined " << defined[id] << " times";
  for (const auto& [id, n] : defined)
    if (n != 1) return ::testing::AssertionFailure() << "id " << id << " defined " << n << " times";
  return ::testing::AssertionSuccess();
}

TEST(SvgTiles, EveryTilePictureIsWellFormedSafeAndHoldsItsOwnTextures) {
  for (const std::string& id : game_ids()) {
    const auto rs = load_ruleset(id, {});
    int textured = 0;
    for (std::size_t i = 0; i < rs->tiles.types.size(); ++i) {
      const std::string svg = view::tile_svg(*rs, static_cast<int>(i), 96);
      SCOPED_TRACE(id + " " + rs->tiles.types[i].id);
      EXPECT_TRUE(well_formed(svg));
      EXPECT_TRUE(refs_resolve(svg));
      std::string low = svg;
      for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      for (const char* bad : {"<script", "javascript:", "<foreignobject", "href", "<image"})
        EXPECT_EQ(low.find(bad), std::string::npos) << bad;
      EXPECT_EQ(count(svg, "<defs>"), svg.find("url(#") == std::string::npos ? 0 : 1);
      textured += count(svg, "<pattern ") > 0 ? 1 : 0;
      EXPECT_LT(svg.size(), 6000u) << "a tile's picture stays small (the catalog sends them all)";
    }
    EXPECT_EQ(textured, static_cast<int>(rs->tiles.types.size()))
        << id << ": every tile's field (or water) is textured";
  }
}

TEST(SvgTiles, ABoardSharesOneDefsAmongItsTiles) {
  for (const std::string& id : {std::string("base"), std::string("hunters")}) {
    Game g(load_ruleset(id, {}), {{"a", "greedy"}, {"b", "greedy"}}, 5);
    std::vector<std::unique_ptr<Bot>> bots;
    bots.push_back(make_bot("greedy"));
    bots.push_back(make_bot("greedy"));
    Rng rng(5);
    play_out(g, bots, rng);
    for (const int px : {24, 64}) {
      SvgOptions o;
      o.tile_px = px;
      const std::string svg = render_svg(g.state(), o);
      EXPECT_TRUE(well_formed(svg)) << id;
      EXPECT_TRUE(refs_resolve(svg)) << id;
      EXPECT_EQ(count(svg, "<defs>"), 1) << id;
      EXPECT_LT(svg.find("<defs>"), svg.find("<g class=\"tile\"")) << id;
      EXPECT_GT(count(svg, "<pattern "), 1) << id;
      if (px != 64) {
        EXPECT_NE(svg.find(fmt::format("patternTransform=\"scale({})\"", px / 64.0)), std::string::npos) << id;
      }
    }
  }
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
  EXPECT_EQ(count(svg, "<g class=\"overlay track-piece\""), s.nplayers);
  for (int p = 0; p < s.nplayers; ++p) {
    EXPECT_EQ(count(svg, fmt::format("<g class=\"overlay track-piece\" data-overlay=\"boat:{0}\" data-at=\"track\" data-player=\"{0}\" data-space=\"{1}\"", p,
                                     s.track[static_cast<std::size_t>(p)])),
              1)
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
    EXPECT_NE(e.find(fmt::format("fill=\"{}\"", view::kSeatColours[pc.player])), std::string::npos) << e;
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


// ---- Hunters & Gatherers ------------------------------------------------------------------

std::shared_ptr<const Ruleset> hunters_rules() {
  static const auto rs = load_ruleset("hunters", {});
  return rs;
}

// A greedy self-play Hunters game, as a record.
Record hunters_record(u64 seed, int players) {
  std::vector<PlayerInfo> seats;
  std::vector<std::unique_ptr<Bot>> bots;
  for (int p = 0; p < players; ++p) {
    seats.push_back({fmt::format("p{}", p + 1), "greedy"});
    bots.push_back(make_bot("greedy"));
  }
  Game g(hunters_rules(), seats, seed);
  Rng rng(seed);
  play_out(g, bots, rng);
  EXPECT_TRUE(g.over());
  return g.record();
}

// The value of attribute `name` in the first tag of `e` that has it ("" if none).
std::string attr_of(const std::string& e, const std::string& name) {
  const std::size_t a = e.find(" " + name + "=\"");
  if (a == std::string::npos) return {};
  const std::size_t v = a + name.size() + 3;
  return e.substr(v, e.find('"', v) - v);
}

// The translate(x,y) of an element's opening tag.
Pt2 translate_of(const std::string& e) {
  const std::size_t a = e.find("translate(");
  if (a == std::string::npos) return {-1e9, -1e9};
  const std::size_t comma = e.find(',', a);
  return {std::stod(e.substr(a + 10, comma - a - 10)), std::stod(e.substr(comma + 1))};
}

// The boat track is a river: land, water between wavy banks, ripples, the spaces on the water and
// the sea at its mouth past the last space; the boats float on the water above their spaces.
TEST(SvgAmazonas, TheBoatTrackIsARiverWithTheSeaPastTheLastSpace) {
  const Record r = amazonas_record(7, 3);
  for (const int moves : {0, 40}) {
    const Game g = replay_prefix(r, moves, "test");
    const State& s = g.state();
    for (const int px : {24, 64, 128}) {
      SvgOptions o;
      o.tile_px = px;
      const std::string svg = render_svg(s, o);
      SCOPED_TRACE(fmt::format("move {} at {} px", moves, px));
      EXPECT_TRUE(well_formed(svg));
      const std::size_t at = svg.find("<g class=\"track\"");
      ASSERT_NE(at, std::string::npos);
      const std::string track = element_at(svg, at);
      EXPECT_EQ(count(track, "<rect class=\"bank\""), 1);
      EXPECT_EQ(count(track, "<path class=\"water\""), 1);
      EXPECT_EQ(count(track, "<path class=\"sea\""), 1);
      EXPECT_EQ(count(track, "<path class=\"ripples\""), 1);
      const std::string bank = track.substr(track.find("<rect class=\"bank\""));
      const double land_top = std::stod(attr_of(bank, "y")),
                   land_bottom = land_top + std::stod(attr_of(bank, "height"));
      const double land_right = std::stod(attr_of(bank, "x")) + std::stod(attr_of(bank, "width"));
      const std::string sea = track.substr(track.find("<path class=\"sea\""));
      const double sea_x = std::stod(attr_of(sea, "d").substr(1));
      const std::string last =
          element_at(track, track.find(fmt::format("<g class=\"space\" data-space=\"{}\"", s.track_len)));
      const double last_x = std::stod(attr_of(last, "cx"));
      EXPECT_GT(sea_x, last_x) << "the sea lies past the last space";
      EXPECT_LE(sea_x, land_right);
      EXPECT_NE(last.find(view::generic_look().track.last), std::string::npos) << last;
      for (const std::string& boat : elements(track, "<g class=\"overlay track-piece\"")) {
        const Pt2 p = translate_of(boat);
        EXPECT_GT(p.y, land_top) << boat;
        EXPECT_LT(p.y, land_bottom) << boat;
        EXPECT_LT(p.x, sea_x) << boat;
      }
      // the picture is wide enough for the sea
      const double width = std::stod(attr_of(svg, "width"));
      EXPECT_LE(land_right, width);
    }
  }
}

bool is_river(const FeatureTypeDef& ft) { return ft.name == "river"; }
bool is_lake(const FeatureTypeDef& ft) { return ft.name == "lake"; }

int ports_of(const TileFeature& tf) {
  int n = 0;
  for (int p = 0; p < 12; ++p) n += (tf.ports >> p) & 1;
  return n;
}

// Everything the drawing of a Hunters state must show, checked against the state and the tile
// data; returns the number of symbols seen.
int check_hunters_svg(const State& s, const std::string& svg) {
  EXPECT_TRUE(well_formed(svg));
  const int n = static_cast<int>(s.tiles.size());
  const double t = 64;
  EXPECT_EQ(count(svg, "<g class=\"tile\""), n);
  std::map<std::string, int> totals;
  int symbols = 0, specials = 0, crosses = 0;
  for (int k = 0; k < n; ++k) {
    const PlacedTile& pt = s.tiles[static_cast<std::size_t>(k)];
    const TileType& tt = s.type_of(pt);
    const std::string g = tile_element(svg, k);
    SCOPED_TRACE(fmt::format("tile {} at {},{} rot {}", tt.id, pt.x, pt.y, pt.rot * 90));
    EXPECT_NE(g.find(fmt::format("data-x=\"{}\" data-y=\"{}\" data-rot=\"{}\"", pt.x, pt.y, pt.rot * 90)), std::string::npos);
    EXPECT_EQ(count(g, "class=\"road"), 0) << "rivers are water, not roads";
    EXPECT_EQ(count(g, "class=\"junction\""), 0);
    // symbols: one glyph per unit of every slot, in its own feature; crossed exactly where covered
    const auto want = symbols_on(s, k);
    int here = 0;
    for (const auto& [key, c] : want) {
      EXPECT_EQ(count(g, fmt::format("class=\"symbol {}\" data-feature=\"{}\"", key.second, key.first)), c)
          << "feature " << key.first << " " << key.second;
      totals[key.second] += c;
      here += c;
    }
    EXPECT_EQ(count(g, "class=\"symbol "), here);
    symbols += here;
    int crossed_here = 0;
    for (int f = 0; f < tt.nfeat; ++f) {
      const TileFeature& tf = tt.feats[static_cast<std::size_t>(f)];
      const FeatureTypeDef& ft = s.rs->ftype(tf.type);
      int units = 0;
      for (std::size_t a = 0; a < ft.attrs.size(); ++a) units += tf.attr[a];
      const bool covered = s.graph[pt.seg0 + f].covered != 0;
      EXPECT_EQ(count(g, fmt::format("data-feature=\"{}\" data-covered=\"1\"", f)), covered ? units : 0) << "feature " << f;
      crossed_here += covered ? units : 0;
      // rivers: blue water paths, into the lake they are linked to or ending at a spring
      if (is_river(ft)) {
        const std::vector<std::string> w = elements(g, fmt::format("<g class=\"water river\" data-feature=\"{}\"", f));
        EXPECT_EQ(w.size(), 1u) << "river " << f;
        if (w.size() != 1) continue;
        const std::string d = attr_of(w[0], "d");
        int into = 0;
        for (int l = 0; l < tt.nfeat; ++l) {
          if (!is_lake(s.rs->ftype(tt.feats[static_cast<std::size_t>(l)].type)) || !((tf.links >> l) & 1)) continue;
          ++into;
          const std::string lake = element_at(g, g.find(fmt::format("<g class=\"water lake\" data-feature=\"{}\"", l)));
          const std::string end = attr_of(lake, "cx") + "," + attr_of(lake, "cy");
          if (ports_of(tf) == 1 && (tf.links & (tf.links - 1)) == 0) {  // from its port straight into the lake
            const std::string last = d.substr(d.rfind(' ') + 1);
            EXPECT_TRUE(last == end || last == "L" + end) << "river " << f << " does not end in lake " << l << ": " << d;
          } else {
            EXPECT_NE(d.find(end), std::string::npos) << "river " << f << " does not reach lake " << l << ": " << d;
          }
        }
        EXPECT_EQ(count(w[0], "class=\"spring\""), ports_of(tf) == 1 && into == 0 ? 1 : 0) << "river " << f;
      }
      // lakes: one oval each, inside the tile; their fish inside the oval
      if (is_lake(ft)) {
        EXPECT_EQ(count(g, fmt::format("<g class=\"water lake\" data-feature=\"{}\"", f)), 1) << "lake " << f;
        const std::string lake = element_at(g, g.find(fmt::format("<g class=\"water lake\" data-feature=\"{}\"", f)));
        const double cx = std::stod(attr_of(lake, "cx")), cy = std::stod(attr_of(lake, "cy"));
        const double rx = std::stod(attr_of(lake, "rx")), ry = std::stod(attr_of(lake, "ry"));
        EXPECT_TRUE(cx - rx >= 0 && cx + rx <= t && cy - ry >= 0 && cy + ry <= t) << lake;
        for (const std::string& sym : elements(g, fmt::format("<g class=\"symbol fish\" data-feature=\"{}\"", f))) {
          const Pt2 p = translate_of(sym);
          EXPECT_LE(std::pow((p.x - cx) / rx, 2) + std::pow((p.y - cy) / ry, 2), 1.0) << sym << " outside " << lake;
        }
      }
      if (ft.name == "forest") {
        EXPECT_EQ(count(g, fmt::format("<g class=\"city forest\" data-feature=\"{}\"", f)), 1);
      }
      // a special: one labelled badge on this feature of this tile
      if (tf.special != 0) {
        const std::string& name = s.rs->game->specials[tf.special - 1U];
        EXPECT_EQ(count(g, fmt::format("<g class=\"special\" data-special=\"{}\" data-feature=\"{}\"", name, f)), 1) << name;
        ++specials;
      }
    }
    // every crossed symbol is a covered one and every covered one is crossed
    EXPECT_EQ(count(g, "class=\"cross\""), crossed_here);
    for (const std::string& sym : elements(g, "<g class=\"symbol "))
      EXPECT_EQ(sym.find("data-covered=\"1\"") != std::string::npos, sym.find("class=\"cross\"") != std::string::npos) << sym;
    crosses += crossed_here;
    int specials_here = 0;
    for (int f = 0; f < tt.nfeat; ++f) specials_here += tt.feats[static_cast<std::size_t>(f)].special != 0 ? 1 : 0;
    EXPECT_EQ(count(g, "<g class=\"special\""), specials_here);
  }
  for (const auto& [name, c] : totals) EXPECT_EQ(count(svg, fmt::format("class=\"symbol {}\"", name)), c) << name;
  EXPECT_EQ(count(svg, "<g class=\"special\""), specials);
  EXPECT_EQ(count(svg, "<path class=\"cross\""), crosses + 1);  // the key shows one crossed animal
  // pieces, one for one in the state's order: huts are houses on a river or lake, tribe members
  // meeples (lying in meadows: hunters), in the owner's colour
  const auto pieces = elements(svg, "<g class=\"follower");
  EXPECT_EQ(pieces.size(), s.pieces.size());
  int huts = 0;
  for (std::size_t i = 0; i < pieces.size() && i < s.pieces.size(); ++i) {
    const std::string& e = pieces[i];
    const PieceOnBoard& pc = s.pieces[i];
    const Segment& seg = s.graph[pc.seg];
    const PlacedTile& pt = s.tiles[seg.tile];
    const FeatureTypeDef& ft = s.rs->ftype(s.type_of(pt).feats[seg.local].type);
    EXPECT_NE(e.find(fmt::format("data-player=\"{}\" data-feature=\"{}\" fill=\"{}\"", pc.player, ft.name,
                                 view::kSeatColours[pc.player])),
              std::string::npos)
        << e;
    if (pc.kind == 1) {
      ++huts;
      EXPECT_EQ(e.find("<g class=\"follower hut\" data-player"), 0u) << e;
      EXPECT_TRUE(ft.name == "river" || ft.name == "lake") << e;
      EXPECT_NE(e.find("class=\"house\""), std::string::npos) << e;
      EXPECT_EQ(e.find("<circle"), std::string::npos) << e;
    } else {
      const bool hunter = ft.cls == FClass::Field;
      EXPECT_EQ(e.find(hunter ? "<g class=\"follower farmer tribe-member\" data-player" : "<g class=\"follower tribe-member\" data-player"), 0u) << e;
      EXPECT_NE(ft.name, "lake") << "no fisher on a lake";
      EXPECT_NE(e.find("<circle"), std::string::npos) << e;
      EXPECT_EQ(e.find("class=\"house\""), std::string::npos) << e;
      EXPECT_EQ(e.find("rotate(90)") != std::string::npos, hunter) << e;
    }
    // the piece stands on its own tile
    const Pt2 at = translate_of(e), tile = translate_of(tile_element(svg, seg.tile));
    EXPECT_TRUE(at.x >= tile.x && at.x <= tile.x + t && at.y >= tile.y && at.y <= tile.y + t) << e;
  }
  EXPECT_EQ(count(svg, "<g class=\"follower hut\""), huts);
  EXPECT_EQ(count(svg, "<g class=\"follower"), static_cast<int>(s.pieces.size()));
  // heading: scores, pieces left of both kinds, bonus tiles left; the key
  for (int p = 0; p < s.nplayers; ++p) {
    const auto sp = static_cast<std::size_t>(p);
    EXPECT_NE(svg.find(fmt::format("<tspan font-weight=\"bold\">{}</tspan> ({} tribe member{}, {} hut{} left)", s.score[sp],
                                   s.supply[sp], s.supply[sp] == 1 ? "" : "s", s.supply2[sp], s.supply2[sp] == 1 ? "" : "s")),
              std::string::npos)
        << "player " << p;
  }
  EXPECT_NE(svg.find(fmt::format("{} bonus tile{} left", s.bonus_pile, s.bonus_pile == 1 ? "" : "s")), std::string::npos);
  EXPECT_EQ(count(svg, "<g class=\"key\">"), 1);
  for (const char* name : {"fish", "deer", "aurochs", "mammoth", "tiger", "menhir", "mushroom", "covered", "tribe member", "hut"})
    EXPECT_EQ(count(svg, fmt::format("<g class=\"key-item\" data-item=\"{}\"", name)), 1) << name;
  return symbols;
}

TEST(SvgHunters, FinishedGamesDrawEveryFeatureSymbolAndPieceFromTheData) {
  for (int players : {2, 3, 5}) {
    SCOPED_TRACE(fmt::format("{} players", players));
    const Record r = hunters_record(static_cast<u64>(20 + players), players);
    const Game g = replay_prefix(r, std::nullopt, "test");
    ASSERT_TRUE(g.over());
    const State& s = g.state();
    const std::string svg = render_svg(s, SvgOptions{});
    EXPECT_GT(check_hunters_svg(s, svg), 60);
    EXPECT_NE(svg.find("game over"), std::string::npos);
    // the whole regular pile is placed, and a bonus tile for every bonus turn
    EXPECT_EQ(static_cast<int>(s.tiles.size()) + s.discards, 1 + 78 + (16 - s.bonus_pile));
    // fish, animals of every species, menhirs: the tile set has plenty of each on a finished board
    for (const char* name : {"fish", "deer", "menhir"}) EXPECT_GT(count(svg, fmt::format("class=\"symbol {}\"", name)), 3) << name;
    EXPECT_GT(count(svg, "<g class=\"water lake\""), 5);
    EXPECT_GT(count(svg, "<g class=\"water river\""), 20);
  }
}

TEST(SvgHunters, MidGameBoardsMatchTheStateTurnByTurn) {
  const Record r = hunters_record(8, 3);
  int huts_and_members = 0;
  for (int turn = 0; turn <= static_cast<int>(r.moves.size()); turn += 4) {
    const Game g = replay_prefix(r, turn, "test");
    const State& s = g.state();
    SCOPED_TRACE(fmt::format("turn {}", turn));
    check_hunters_svg(s, render_svg(s, SvgOptions{}));
    bool hut = false, member = false;
    for (const PieceOnBoard& pc : s.pieces) (pc.kind == 1 ? hut : member) = true;
    huts_and_members += hut && member ? 1 : 0;
    if (HasFailure()) break;
  }
  EXPECT_GT(huts_and_members, 5);  // the checks above saw both kinds of pieces on many boards
}

TEST(SvgHunters, StartBoardHeadingPiecesLeftAndBonusTiles) {
  const Record r = hunters_record(4, 3);
  const Game g = replay_prefix(r, 0, "test");
  const std::string svg = render_svg(g.state(), SvgOptions{});
  check_hunters_svg(g.state(), svg);
  EXPECT_EQ(count(svg, "(5 tribe members, 3 huts left)"), 3);
  EXPECT_NE(svg.find("16 bonus tiles left"), std::string::npos);
  EXPECT_NE(svg.find(fmt::format("next: tile {} for player 1 \u2014 77 left in the pile", r.draws[0])), std::string::npos);
  // the start tile: a lake with 1 fish, its river W, a meadow with an aurochs, a forest with a menhir
  const std::string start = tile_element(svg, 0);
  EXPECT_EQ(count(start, "<g class=\"water lake\""), 1);
  EXPECT_EQ(count(start, "<g class=\"water river\""), 1);
  EXPECT_EQ(count(start, "class=\"symbol fish\""), 1);
  EXPECT_EQ(count(start, "class=\"symbol aurochs\""), 1);
  EXPECT_EQ(count(start, "class=\"symbol menhir\""), 1);
  EXPECT_NE(start.find("<ellipse cx=\"32\" cy=\"32\""), std::string::npos) << "the only lake lies at C";
  // the other games show no bonus pile and no key
  const std::string base = render_svg(replay_prefix(greedy_record(3), std::nullopt, "test").state(), SvgOptions{});
  EXPECT_EQ(base.find("bonus"), std::string::npos);
  EXPECT_EQ(base.find("class=\"key\""), std::string::npos);
  EXPECT_EQ(base.find("class=\"water"), std::string::npos);
}

// "You place the pit trap tile and score its hunting grounds ... then you cover the animals of the
// hunting grounds": those four animals are drawn crossed, the others not (the position of
// HuntersRulebook.PitTrapScoresFourThenCoversTheAnimals).
TEST(SvgHunters, PitTrapCrossesExactlyTheCoveredAnimals) {
  test::Scenario sc(hunters_rules(), 2);
  sc.place("62", 0, -1, 0, 1);    // 1 deer; joins the start tile's N meadow (1 aurochs)
  sc.place("37", 1, -1, 180, 1);  // 1 deer
  sc.place("31", 1, -2, 90, 1);   // 1 tiger
  sc.place("35", 1, -3, 90, 1);   // 1 mammoth in another meadow
  sc.place("61", -1, -1, 0, 1);   // 1 mammoth
  const std::string before = render_svg(sc.s, SvgOptions{});
  check_hunters_svg(sc.s, before);
  EXPECT_EQ(count(before, "data-covered"), 0);
  sc.place("94", 0, -2, 0, 0, "S");  // the pit trap; red's hunter in that meadow
  const std::string after = render_svg(sc.s, SvgOptions{});
  check_hunters_svg(sc.s, after);
  EXPECT_EQ(count(after, "data-covered=\"1\""), 4);
  auto crossed = [&](int x, int y, const std::string& animal) {
    const std::string g = tile_element(after, sc.s.placed_at(x, y));
    return count(g, fmt::format("class=\"symbol {}\" data-feature=\"", animal)) == 1 &&
           count(g, "data-covered=\"1\"") == 1 && g.find(fmt::format("<title>{} (covered", animal)) != std::string::npos;
  };
  EXPECT_TRUE(crossed(0, -1, "deer"));
  EXPECT_TRUE(crossed(1, -1, "deer"));
  EXPECT_TRUE(crossed(1, -2, "tiger"));
  EXPECT_TRUE(crossed(-1, -1, "mammoth"));
  EXPECT_EQ(count(tile_element(after, 0), "data-covered"), 0) << "the start tile's aurochs is outside the 3x3 area";
  EXPECT_EQ(count(tile_element(after, sc.s.placed_at(1, -3)), "data-covered"), 0) << "another meadow's mammoth";
  const std::string trap = tile_element(after, sc.s.placed_at(0, -2));
  EXPECT_EQ(count(trap, "<g class=\"special\" data-special=\"pit_trap\""), 1);
  EXPECT_NE(trap.find(">pit trap</text>"), std::string::npos);
  // a later tile's animals in the same meadow are not covered
  sc.place("52", -1, 0, 0, 1);
  const std::string later = render_svg(sc.s, SvgOptions{});
  check_hunters_svg(sc.s, later);
  EXPECT_EQ(count(later, "data-covered=\"1\""), 4);
  EXPECT_EQ(count(tile_element(later, sc.s.placed_at(-1, 0)), "data-covered"), 0);
}

// Every bonus tile with a power shows it as a badge on that tile (the positions of the rulebook
// tests for each power), whatever else is on the board.
TEST(SvgHunters, BonusTilePowersAreBadgesOnTheirTiles) {
  struct Case {
    std::string special, tile;
    std::function<void(test::Scenario&)> build;
  };
  const std::vector<Case> cases = {
      {"canoe", "93",
       [](test::Scenario& sc) {
         sc.place("13", -1, 0, 0, 1, "C", 1);
         sc.place("59", -1, -1, 180, 1);
         sc.place("93", -2, 0, 0, 0, "E");
       }},
      {"raft", "91", [](test::Scenario& sc) { sc.place("91", -1, 0, 0, 0, "E", 1); }},
      {"fire", "85",
       [](test::Scenario& sc) {
         sc.place("62", 0, -1, 0, 1);
         sc.place("65", 1, -1, 90, 1);
         sc.place("85", -1, -1, 0, 0, "N");
       }},
      {"big_trap", "92",
       [](test::Scenario& sc) {
         sc.place("51", -1, 0, 0, 1);
         sc.place("61", -1, -1, 0, 0, "N");
         sc.place("35", -1, -2, 180, 1);
         sc.place("31", 0, -2, 180, 1);
         sc.place("33", 0, -3, 0, 1);
         sc.place("75", 1, -3, 270, 1);
         sc.place("30", 1, -2, 0, 1);
         sc.place("60", 1, 0, 0, 1);
         sc.place("92", 0, -1, 0, 0);
       }},
      {"shaman", "88",
       [](test::Scenario& sc) {
         sc.place("51", -1, 0, 0, 0, "E", 1);
         sc.place("39", 0, -1, 0, 1, "S");
         sc.draw_and_place("88", -2, 0, 0, 0);
         Move pass;
         pass.kind = MoveKind::Pass;
         pass.player = 0;
         sc.play(pass);
       }},
      {"pit_trap", "94", [](test::Scenario& sc) { sc.place("94", 0, -1, 0, 0, "S"); }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.special);
    test::Scenario sc(hunters_rules(), 2);
    c.build(sc);
    if (HasFailure()) return;
    const std::string svg = render_svg(sc.s, SvgOptions{});
    check_hunters_svg(sc.s, svg);
    EXPECT_EQ(count(svg, "<g class=\"special\""), 1);
    const auto at = std::find_if(sc.s.tiles.begin(), sc.s.tiles.end(),
                                 [&](const PlacedTile& pt) { return sc.s.type_of(pt).id == c.tile; });
    ASSERT_NE(at, sc.s.tiles.end());
    const std::string g = tile_element(svg, static_cast<int>(at - sc.s.tiles.begin()));
    EXPECT_NE(g.find(fmt::format("<g class=\"special\" data-special=\"{}\"", c.special)), std::string::npos) << g;
    std::string label = c.special;
    std::replace(label.begin(), label.end(), '_', ' ');
    EXPECT_NE(g.find(fmt::format(">{}</text>", label)), std::string::npos);
  }
  // mushroom glades (bonus tile 79): a mushroom in the forest, no badge
  test::Scenario sc(hunters_rules(), 2);
  sc.place("79", 0, -1, 180, 0, "E");
  const std::string svg = render_svg(sc.s, SvgOptions{});
  check_hunters_svg(sc.s, svg);
  const std::string g = tile_element(svg, 1);
  EXPECT_EQ(count(g, fmt::format("class=\"symbol mushroom\" data-feature=\"{}\"", feature_at_port(sc.s, sc.s.tiles[1], "E"))), 1);
  EXPECT_EQ(count(svg, "<g class=\"special\""), 0);
}

// Tile 83: two lakes (one with no port), each with the two rivers that run into it and its own
// fish; the picture turns with the tile.
TEST(SvgHunters, TwoLakesOnOneTileEachWithItsRivers) {
  std::vector<std::pair<double, double>> first_lake;
  for (int rot : {0, 180}) {
    SCOPED_TRACE(fmt::format("rot {}", rot));
    test::Scenario sc(hunters_rules(), 2);
    sc.place("83", -1, 0, rot, 0, "E", 1);  // a hut on the river system at E
    const std::string svg = render_svg(sc.s, SvgOptions{});
    check_hunters_svg(sc.s, svg);
    const std::string g = tile_element(svg, 1);
    const auto lakes = elements(g, "<g class=\"water lake\"");
    ASSERT_EQ(lakes.size(), 2u);
    const double x0 = std::stod(attr_of(lakes[0], "cx")), y0 = std::stod(attr_of(lakes[0], "cy"));
    const double x1 = std::stod(attr_of(lakes[1], "cx")), y1 = std::stod(attr_of(lakes[1], "cy"));
    EXPECT_GT(std::hypot(x1 - x0, y1 - y0), 2 * std::stod(attr_of(lakes[0], "rx"))) << "the ovals do not overlap";
    EXPECT_EQ(count(g, "<g class=\"water river\""), 4);
    EXPECT_EQ(count(g, "class=\"spring\""), 0);
    EXPECT_EQ(count(g, "class=\"symbol fish\""), 4);
    EXPECT_EQ(count(g, "class=\"symbol deer\""), 2);
    first_lake.emplace_back(x0, y0);
    EXPECT_EQ(count(svg, "<g class=\"follower hut\" data-player=\"0\" data-feature=\"river\""), 1);
  }
  // the lake the N and E rivers run into lies NE at rotation 0 and SW turned 180 degrees
  ASSERT_EQ(first_lake.size(), 2u);
  EXPECT_GT(first_lake[0].first, 32);
  EXPECT_LT(first_lake[0].second, 32);
  EXPECT_NEAR(first_lake[1].first, 64 - first_lake[0].first, 0.02);
  EXPECT_NEAR(first_lake[1].second, 64 - first_lake[0].second, 0.02);
}

// Nothing is drawn from tile ids: renamed tiles draw the same picture, and changed symbols,
// specials and links show up where the data puts them.
TEST(SvgHunters, DrawnFromTheTileDataNotTheIds) {
  const Record r = hunters_record(12, 3);
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

  // a "corrected" tile set, on placed tiles: one more fish in a lake, a deer and a tiger more in a
  // meadow, a mushroom and a menhir in a forest, a raft on a lake, a river no longer linked to its
  // lake (it ends at a spring)
  Ruleset fixed = g.ruleset();
  std::vector<bool> placed(fixed.tiles.types.size(), false);
  for (const PlacedTile& pt : s.tiles) placed[pt.type] = true;
  const auto raft = static_cast<u8>(std::find(fixed.game->specials.begin(), fixed.game->specials.end(), "raft") -
                                    fixed.game->specials.begin() + 1);
  int lake_tile = -1, meadow_tile = -1, forest_tile = -1, unlinked_tile = -1;
  for (std::size_t i = 0; i < fixed.tiles.types.size(); ++i) {
    if (!placed[i]) continue;
    TileType& tt = fixed.tiles.types[i];
    int lakes = 0, specials = 0;
    for (int f = 0; f < tt.nfeat; ++f) {
      lakes += fixed.ftype(tt.feats[static_cast<std::size_t>(f)].type).name == "lake" ? 1 : 0;
      specials += tt.feats[static_cast<std::size_t>(f)].special != 0 ? 1 : 0;
    }
    if (specials > 0) continue;
    for (int f = 0; f < tt.nfeat; ++f) {
      TileFeature& tf = tt.feats[static_cast<std::size_t>(f)];
      const std::string& name = fixed.ftype(tf.type).name;
      if (name == "lake" && lake_tile < 0 && lakes == 1) {
        tf.attr[0] = static_cast<u8>(tf.attr[0] + 1);
        tf.special = raft;
        lake_tile = static_cast<int>(i);
      } else if (name == "meadow" && meadow_tile < 0 && lake_tile >= 0 && static_cast<int>(i) != lake_tile) {
        tf.attr[0] = static_cast<u8>(tf.attr[0] + 1);
        tf.attr[3] = static_cast<u8>(tf.attr[3] + 1);
        meadow_tile = static_cast<int>(i);
      } else if (name == "forest" && forest_tile < 0 && meadow_tile >= 0 && static_cast<int>(i) != meadow_tile) {
        tf.attr[0] = static_cast<u8>(tf.attr[0] + 1);
        tf.attr[1] = static_cast<u8>(tf.attr[1] + 1);
        forest_tile = static_cast<int>(i);
      } else if (name == "river" && tf.links != 0 && unlinked_tile < 0 && forest_tile >= 0 && static_cast<int>(i) != lake_tile &&
                 lakes == 1) {
        for (int l = 0; l < tt.nfeat; ++l)
          if ((tf.links >> l) & 1) tt.feats[static_cast<std::size_t>(l)].links &= static_cast<u16>(~(1u << f));
        tf.links = 0;
        unlinked_tile = static_cast<int>(i);
      }
    }
  }
  ASSERT_GE(lake_tile, 0);
  ASSERT_GE(meadow_tile, 0);
  ASSERT_GE(forest_tile, 0);
  ASSERT_GE(unlinked_tile, 0);
  s.rs = &fixed;
  const std::string svg_fixed = render_svg(s, SvgOptions{});
  for (const auto& [name, more] : std::vector<std::pair<std::string, int>>{
           {"fish", 1}, {"deer", 1}, {"aurochs", 0}, {"mammoth", 0}, {"tiger", 1}, {"mushroom", 1}, {"menhir", 1}})
    EXPECT_EQ(count(svg_fixed, fmt::format("class=\"symbol {}\"", name)), count(svg, fmt::format("class=\"symbol {}\"", name)) + more)
        << name;
  EXPECT_EQ(count(svg_fixed, "data-special=\"raft\""), count(svg, "data-special=\"raft\"") + 1);
  EXPECT_EQ(count(svg_fixed, "class=\"spring\""), count(svg, "class=\"spring\"") + 1);
  const int k = static_cast<int>(std::find_if(s.tiles.begin(), s.tiles.end(), [&](const PlacedTile& pt) { return pt.type == lake_tile; }) -
                                 s.tiles.begin());
  EXPECT_NE(tile_element(svg_fixed, k).find("data-special=\"raft\""), std::string::npos);
  check_hunters_svg(s, svg_fixed);
}

// ---- Safari ----------------------------------------------------------------------------------

std::shared_ptr<const Ruleset> safari_rules() {
  static const auto rs = load_ruleset("safari", {});
  return rs;
}

// A self-play Safari game (greedy bots unless told), as a record.
Record safari_record(u64 seed, int players, const std::string& bot = "greedy") {
  std::vector<PlayerInfo> seats;
  std::vector<std::unique_ptr<Bot>> bots;
  for (int p = 0; p < players; ++p) {
    seats.push_back({fmt::format("p{}", p + 1), bot});
    bots.push_back(make_bot(bot));
  }
  Game g(safari_rules(), seats, seed);
  Rng rng(seed);
  play_out(g, bots, rng);
  EXPECT_TRUE(g.over());
  return g.record();
}

constexpr std::array<const char*, 5> kSafariSpecies = {"monkey", "elephant", "giraffe", "lion", "zebra"};
// quarter c of a watering hole at point (x, y) is corner c of cell (x - kQx[c], y - kQy[c])
constexpr std::array<int, 4> kQx = {1, 1, 0, 0}, kQy = {0, 1, 1, 0};
constexpr std::array<std::string_view, 4> kCorner = {"NE", "SE", "SW", "NW"};

// Everything the drawing of a Safari state must show, checked against the state and the tile
// data; returns the number of tokens drawn at watering holes.
int check_safari_svg(const State& s, const std::string& svg) {
  EXPECT_TRUE(well_formed(svg));
  const double t = 64;
  const int n = static_cast<int>(s.tiles.size());
  EXPECT_EQ(count(svg, "<g class=\"tile\""), n);
  EXPECT_EQ(count(svg, "class=\"monastery\""), 0) << "baobabs are trees";
  std::map<std::pair<int, int>, Pt2> tile_at;  // cell -> the tile group's translate
  for (int k = 0; k < n; ++k) {
    const PlacedTile& pt = s.tiles[static_cast<std::size_t>(k)];
    const TileType& tt = s.type_of(pt);
    const std::string g = tile_element(svg, k);
    SCOPED_TRACE(fmt::format("tile {} at {},{} rot {}", tt.id, pt.x, pt.y, pt.rot * 90));
    tile_at[{pt.x, pt.y}] = translate_of(g);
    // animals (trails and bushes) and birds (bushes): one glyph per unit, in its own feature
    const auto want = symbols_on(s, k);
    int here = 0;
    for (const auto& [key, c] : want) {
      EXPECT_EQ(count(g, fmt::format("class=\"symbol {}\" data-feature=\"{}\"", key.second, key.first)), c)
          << "feature " << key.first << " " << key.second;
      here += c;
    }
    EXPECT_EQ(count(g, "class=\"symbol "), here);
    for (const auto& sym : elements(g, "<g class=\"symbol ")) EXPECT_NE(sym.find("<title>"), std::string::npos) << sym;
    for (int f = 0; f < tt.nfeat; ++f) {
      const std::string& name = s.rs->ftype(tt.feats[static_cast<std::size_t>(f)].type).name;
      EXPECT_EQ(count(g, fmt::format("<g class=\"baobab\" data-feature=\"{}\"", f)), name == "baobab" ? 1 : 0) << f;
      EXPECT_EQ(count(g, fmt::format("<g class=\"road trail\" data-feature=\"{}\"", f)), name == "trail" ? 1 : 0) << f;
      EXPECT_EQ(count(g, fmt::format("<g class=\"city bush\" data-feature=\"{}\"", f)), name == "bush" ? 1 : 0) << f;
    }
  }
  // photographers on trails, bushes and baobabs: one for one in the state's order, in seat colours
  std::vector<std::string> on_features;
  for (const std::string& e : elements(svg, "<g class=\"follower photographer\"")) on_features.push_back(e);
  EXPECT_EQ(on_features.size(), s.pieces.size());
  for (std::size_t i = 0; i < on_features.size() && i < s.pieces.size(); ++i) {
    const PieceOnBoard& pc = s.pieces[i];
    const Segment& seg = s.graph[pc.seg];
    const PlacedTile& pt = s.tiles[seg.tile];
    const std::string& name = s.rs->ftype(s.type_of(pt).feats[seg.local].type).name;
    EXPECT_NE(on_features[i].find(fmt::format("data-player=\"{}\" data-feature=\"{}\" fill=\"{}\"", pc.player, name,
                                              view::kSeatColours[pc.player])),
              std::string::npos)
        << on_features[i];
    EXPECT_NE(on_features[i].find("class=\"camera\""), std::string::npos);
    const Pt2 at = translate_of(on_features[i]), tile = translate_of(tile_element(svg, seg.tile));
    EXPECT_TRUE(at.x >= tile.x && at.x <= tile.x + t && at.y >= tile.y && at.y <= tile.y + t) << on_features[i];
  }
  // where cell (x, y) is drawn, from any placed tile
  const Pt2 ref = tile_at.begin()->second;
  const int rx = tile_at.begin()->first.first, ry = tile_at.begin()->first.second;
  auto cell_px = [&](int x, int y) { return Pt2{ref.x + (x - rx) * t, ref.y + (y - ry) * t}; };
  // the jeeps: a glyph on each jeep's (empty) cell
  int on_board = 0;
  for (std::size_t j = 0; j < safari_state(s).markers.size(); ++j) {
    const int x = safari_state(s).markers[j][0], y = safari_state(s).markers[j][1];
    if (x == kOffBoard) continue;
    ++on_board;
    EXPECT_LT(s.placed_at(x, y), 0) << "a jeep stands on an empty cell";
    const auto jeep = elements(svg, fmt::format("<g class=\"overlay jeep\" data-overlay=\"jeep:{}\" data-at=\"cell\" data-x=\"{}\" data-y=\"{}\"", j, x, y));
    EXPECT_EQ(jeep.size(), 1u) << "jeep " << j;
    if (jeep.size() != 1) continue;
    const Pt2 c = translate_of(jeep[0]);
    EXPECT_NEAR(c.x, cell_px(x, y).x + t / 2, 0.01);
    EXPECT_NEAR(c.y, cell_px(x, y).y + t / 2, 0.01);
    EXPECT_NE(jeep[0].find(fmt::format("<title>jeep on cell {},{}: ", x, y)), std::string::npos) << jeep[0];
  }
  EXPECT_EQ(count(svg, "<g class=\"overlay jeep\""), on_board);
  // watering holes: an overlay at the grid point, water on the usable quarters (the look's
  // quarter glyph turned 90 degrees per quarter), each token in its quarter (toward its cell),
  // each photographer beside it on a rim in the owner's colour
  EXPECT_EQ(count(svg, "<g class=\"overlay watering-hole"), static_cast<int>(safari_state(s).spots.size()));
  int tokens = 0, hole_photographers = 0;
  auto turned = [](int c) { return c == 0 ? std::string("translate(0,0)") : fmt::format("translate(0,0) rotate({})", 90 * c); };
  for (const Spot& sp : safari_state(s).spots) {
    SCOPED_TRACE(fmt::format("watering hole at {},{}", sp.x, sp.y));
    const auto hole = elements(svg, fmt::format("<g class=\"overlay watering-hole{}\" data-overlay=\"watering-hole:{},{}\" data-at=\"point\" data-x=\"{}\" data-y=\"{}\"",
                                                sp.closed ? " done" : "", sp.x, sp.y, sp.x, sp.y));
    EXPECT_EQ(hole.size(), 1u);
    if (hole.size() != 1) continue;
    const std::string& h = hole[0];
    const Pt2 at = translate_of(h);
    EXPECT_NEAR(at.x, cell_px(sp.x, sp.y).x, 0.01);
    EXPECT_NEAR(at.y, cell_px(sp.x, sp.y).y, 0.01);
    EXPECT_EQ(count(h, "class=\"part pond-complete\""), sp.closed ? 1 : 0);
    int here = 0;
    for (int c = 0; c < 4; ++c) {
      const auto sc = static_cast<std::size_t>(c);
      const int cx = sp.x - kQx[sc], cy = sp.y - kQy[sc];
      const int ti = s.placed_at(cx, cy);
      const bool usable = ti >= 0 && ((s.type_of(s.tiles[static_cast<std::size_t>(ti)]).rot[s.tiles[static_cast<std::size_t>(ti)].rot].corners >> c) & 1u);
      EXPECT_EQ(count(h, fmt::format("<g class=\"part pond-quarter\" transform=\"{}\"", turned(c))), usable ? 1 : 0) << c;
      EXPECT_EQ(count(h, fmt::format("<g class=\"part pond-quarter-unusable\" transform=\"{}\"", turned(c))), usable ? 0 : 1) << c;
      const u8 k = sp.token[sc];
      if (k == 0xFF) continue;
      ++here;
      EXPECT_TRUE(usable) << "a token sits on a usable quarter";
      const auto tok = elements(h, fmt::format("<g class=\"part token-{}\"", kSafariSpecies[k]));
      const std::string title = fmt::format("<title>{} token at {},{} {}</title>", kSafariSpecies[k], cx, cy, kCorner[sc]);
      const auto it = std::find_if(tok.begin(), tok.end(), [&](const std::string& e) { return e.find(title) != std::string::npos; });
      EXPECT_NE(it, tok.end()) << c;
      if (it == tok.end()) continue;
      const Pt2 off = translate_of(*it);  // toward the quarter's cell
      EXPECT_EQ(off.x > 0, cx == sp.x) << *it;
      EXPECT_EQ(off.y > 0, cy == sp.y) << *it;
      const u8 o = sp.owner[sc];
      EXPECT_EQ(count(h, fmt::format("<g class=\"part pond-claim\" data-player=\"{}\" transform=\"{}\"", o, turned(c))), o == 0xFF ? 0 : 1) << c;
      if (o == 0xFF) continue;
      // the photographer beside its token, further out, in the owner's colour
      const auto ph = elements(h, fmt::format("<g class=\"part photographer\" data-player=\"{}\"", o));
      const auto mine = std::find_if(ph.begin(), ph.end(), [&](const std::string& e) {
        const Pt2 p = translate_of(e);
        return (p.x > 0) == (off.x > 0) && (p.y > 0) == (off.y > 0);
      });
      EXPECT_NE(mine, ph.end()) << c;
      if (mine == ph.end()) continue;
      ++hole_photographers;
      EXPECT_NE(mine->find(fmt::format("fill=\"{}\"", view::kSeatColours[o])), std::string::npos);
      const Pt2 p = translate_of(*mine);
      EXPECT_GT(std::hypot(p.x, p.y), std::hypot(off.x, off.y)) << "beside its token, further out";
    }
    EXPECT_EQ(here, sp.ntokens);
    EXPECT_EQ(count(h, "<g class=\"part token-"), here);
    tokens += here;
  }
  EXPECT_EQ(count(svg, "<g class=\"part photographer\""), hole_photographers);
  // the side panel: per player the score, photographers in supply and every species in hand
  EXPECT_EQ(count(svg, "<g class=\"panel\">"), 1);
  for (int p = 0; p < s.nplayers; ++p) {
    const auto sp = static_cast<std::size_t>(p);
    const auto hand = elements(svg, fmt::format("<g class=\"hand\" data-player=\"{}\"", p));
    EXPECT_EQ(hand.size(), 1u) << p;
    if (hand.size() != 1) continue;
    EXPECT_NE(hand[0].find(fmt::format("text-anchor=\"end\" fill=\"#222\">{}</text>", s.score[sp])), std::string::npos) << p;
    EXPECT_NE(hand[0].find(fmt::format("<g class=\"supply\" data-count=\"{}\"", s.supply[sp])), std::string::npos) << p;
    for (int k = 0; k < 5; ++k) {
      const int held = safari_state(s).tokens.hand[sp][static_cast<std::size_t>(k)];
      EXPECT_EQ(count(hand[0], fmt::format("<g class=\"hand-token {0}\" data-kind=\"{0}\" data-count=\"{1}\"{2}>",
                                           kSafariSpecies[static_cast<std::size_t>(k)], held, held == 0 ? " opacity=\"0.3\"" : "")),
                1)
          << p << " " << kSafariSpecies[static_cast<std::size_t>(k)];
    }
  }
  int pile = 0, discard = 0;
  for (int k = 0; k < 5; ++k) {
    pile += safari_state(s).tokens.pile[static_cast<std::size_t>(k)];
    discard += safari_state(s).tokens.discard[static_cast<std::size_t>(k)];
  }
  EXPECT_NE(svg.find(fmt::format("Tokens: {} face down, {} discarded", pile, discard)), std::string::npos);
  // the key: every species, birds, the pieces, baobabs, jeeps and watering holes
  EXPECT_EQ(count(svg, "<g class=\"key\">"), 1);
  for (const char* name : {"monkey", "elephant", "giraffe", "lion", "zebra", "bird", "photographer", "baobab", "jeep", "watering hole"})
    EXPECT_EQ(count(svg, fmt::format("<g class=\"key-item\" data-item=\"{}\"", name)), 1) << name;
  return tokens;
}

TEST(SvgSafari, FinishedGamesShowAnimalsBirdsBaobabsJeepsHolesAndHands) {
  int tokens = 0, birds = 0, baobabs = 0;
  for (int players : {2, 3, 5}) {
    SCOPED_TRACE(fmt::format("{} players", players));
    const Record r = safari_record(static_cast<u64>(40 + players), players);
    const Game g = replay_prefix(r, std::nullopt, "test");
    ASSERT_TRUE(g.over());
    const State& s = g.state();
    const std::string svg = render_svg(s, SvgOptions{});
    tokens += check_safari_svg(s, svg);
    EXPECT_NE(svg.find("game over"), std::string::npos);
    birds += count(svg, "<g class=\"symbol bird\"");
    baobabs += count(svg, "<g class=\"baobab\"");
    for (const char* name : kSafariSpecies) EXPECT_GT(count(svg, fmt::format("<g class=\"symbol {}\"", name)), 0) << name;
    EXPECT_EQ(count(svg, "<g class=\"symbol "), count(svg, "<g class=\"symbol monkey\"") + count(svg, "<g class=\"symbol elephant\"") +
                                                   count(svg, "<g class=\"symbol giraffe\"") + count(svg, "<g class=\"symbol lion\"") +
                                                   count(svg, "<g class=\"symbol zebra\"") + count(svg, "<g class=\"symbol bird\""))
        << "no other symbols";
    EXPECT_EQ(count(svg, "<text y="), 0) << "no lettered discs: every symbol has a glyph";
  }
  EXPECT_GT(tokens, 5);
  EXPECT_GT(birds, 10);
  EXPECT_GT(baobabs, 10);
}

// Nothing is drawn from tile ids: a "corrected" tile set with one more bird in a bush and one
// more lion on a trail shows both where the data puts them.
TEST(SvgSafari, DrawnFromTheTileData) {
  const Record r = safari_record(6, 2);
  const Game g = replay_prefix(r, std::nullopt, "test");
  State s = g.state();
  const std::string svg = render_svg(s, SvgOptions{});
  Ruleset fixed = g.ruleset();
  int bush_tile = -1, trail_tile = -1;
  for (const PlacedTile& pt : s.tiles) {
    TileType& tt = fixed.tiles.types[pt.type];
    for (int f = 0; f < tt.nfeat; ++f) {
      TileFeature& tf = tt.feats[static_cast<std::size_t>(f)];
      const std::string& name = fixed.ftype(tf.type).name;
      if (name == "bush" && bush_tile < 0) {
        tf.attr[5] = static_cast<u8>(tf.attr[5] + 1);
        bush_tile = pt.type;
      } else if (name == "trail" && trail_tile < 0 && pt.type != bush_tile) {
        tf.attr[3] = static_cast<u8>(tf.attr[3] + 1);
        trail_tile = pt.type;
      }
    }
  }
  ASSERT_GE(bush_tile, 0);
  ASSERT_GE(trail_tile, 0);
  int copies_bush = 0, copies_trail = 0;
  for (const PlacedTile& pt : s.tiles) {
    copies_bush += pt.type == bush_tile ? 1 : 0;
    copies_trail += pt.type == trail_tile ? 1 : 0;
  }
  s.rs = &fixed;
  const std::string svg_fixed = render_svg(s, SvgOptions{});
  EXPECT_EQ(count(svg_fixed, "<g class=\"symbol bird\""), count(svg, "<g class=\"symbol bird\"") + copies_bush);
  EXPECT_EQ(count(svg_fixed, "<g class=\"symbol lion\""), count(svg, "<g class=\"symbol lion\"") + copies_trail);
  check_safari_svg(s, svg_fixed);
}

TEST(SvgSafari, MidGameBoardsMatchTheStateTurnByTurn) {
  const Record r = safari_record(8, 3, "random");
  int with_hands = 0, with_holes = 0, jeeps = 0;
  for (int turn = 0; turn <= static_cast<int>(r.moves.size()); turn += 7) {
    SCOPED_TRACE(fmt::format("turn {}", turn));
    const Game g = replay_prefix(r, turn, "test");
    const State& s = g.state();
    const std::string svg = render_svg(s, SvgOptions{});
    check_safari_svg(s, svg);
    if (HasFailure()) return;
    for (int p = 0; p < s.nplayers; ++p)
      for (const u8 k : safari_state(s).tokens.hand[static_cast<std::size_t>(p)]) with_hands += k;
    with_holes += static_cast<int>(safari_state(s).spots.size());
    jeeps += count(svg, "<g class=\"overlay jeep\"");
  }
  EXPECT_GT(with_hands, 0);
  EXPECT_GT(with_holes, 0);
  EXPECT_GT(jeeps, 0);
}

// The start board: three tiles, a jeep on the cell beyond each end, two tokens in every hand.
TEST(SvgSafari, StartBoardHasBothJeepsAndTheOpeningTokens) {
  for (int players : {2, 4}) {
    const Record r = safari_record(static_cast<u64>(players), players);
    const Game g = replay_prefix(r, 0, "test");
    const State& s = g.state();
    const std::string svg = render_svg(s, SvgOptions{});
    check_safari_svg(s, svg);
    EXPECT_EQ(count(svg, "<g class=\"overlay jeep\""), 2);
    EXPECT_EQ(count(svg, "<g class=\"overlay watering-hole"), 0);
    int held = 0;
    for (const std::string& e : elements(svg, "<g class=\"hand-token ")) held += std::stoi(attr_of(e, "data-count"));
    EXPECT_EQ(held, 2 * players);
    EXPECT_NE(svg.find("Jeeps on "), std::string::npos);
  }
}

// A watering hole built move by move: founded (a token and a photographer), explored to four
// tokens (complete: the photographers go home and the pond is ringed).
TEST(SvgSafari, WateringHoleTokensSitInTheirQuartersAndACompleteOneIsRinged) {
  // find a game where some hole is completed, and check it before and after
  for (u64 seed = 40; seed < 80; ++seed) {
    const Record r = safari_record(seed, 5);
    const Game end = replay_prefix(r, std::nullopt, "test");
    const auto done = std::find_if(safari_state(end.state()).spots.begin(), safari_state(end.state()).spots.end(),
                                   [](const Spot& sp) { return sp.closed != 0; });
    if (done == safari_state(end.state()).spots.end()) continue;
    SCOPED_TRACE(fmt::format("seed {}", seed));
    // the last moment the hole had 3 tokens and its photographer(s)
    int before = -1;
    for (int turn = static_cast<int>(r.moves.size()); turn >= 0 && before < 0; --turn) {
      const Game g = replay_prefix(r, turn, "test");
      for (const Spot& sp : safari_state(g.state()).spots)
        if (sp.x == done->x && sp.y == done->y && sp.ntokens == 3) before = turn;
    }
    ASSERT_GE(before, 0);
    const Game g = replay_prefix(r, before, "test");
    const std::string svg = render_svg(g.state(), SvgOptions{});
    EXPECT_GE(check_safari_svg(g.state(), svg), 3);
    const auto open = elements(svg, fmt::format("<g class=\"overlay watering-hole\" data-overlay=\"watering-hole:{0},{1}\"", done->x, done->y));
    ASSERT_EQ(open.size(), 1u);
    EXPECT_EQ(count(open[0], "<g class=\"part token-"), 3);
    EXPECT_GE(count(open[0], "<g class=\"part photographer\""), 1);
    EXPECT_EQ(count(open[0], "class=\"part pond-complete\""), 0);
    const std::string after = render_svg(end.state(), SvgOptions{});
    check_safari_svg(end.state(), after);
    const auto ringed = elements(after, fmt::format("<g class=\"overlay watering-hole done\" data-overlay=\"watering-hole:{0},{1}\"", done->x, done->y));
    ASSERT_EQ(ringed.size(), 1u);
    EXPECT_EQ(count(ringed[0], "<g class=\"part token-"), 4);
    EXPECT_EQ(count(ringed[0], "<g class=\"part photographer"), 0) << "the photographers went home";
    EXPECT_EQ(count(ringed[0], "class=\"part pond-complete\""), 1);
    EXPECT_EQ(count(ringed[0], "class=\"part pond-quarter-unusable\""), 0);
    return;
  }
  FAIL() << "no game completed a watering hole";
}

// Tile size: the jeeps, ponds and tokens scale with the tiles; the picture stays well formed.
TEST(SvgSafari, LargeAndSmallTiles) {
  const Record r = safari_record(3, 3);
  const Game g = replay_prefix(r, 40, "test");
  for (int px : {16, 160}) {
    SvgOptions o;
    o.tile_px = px;
    const std::string svg = render_svg(g.state(), o);
    EXPECT_TRUE(well_formed(svg));
    EXPECT_EQ(count(svg, "<g class=\"overlay watering-hole"), static_cast<int>(safari_state(g.state()).spots.size()));
    for (const std::string& e : elements(svg, "<g class=\"overlay jeep\""))
      EXPECT_NE(e.find(fmt::format("scale({})", px / 64.0)), std::string::npos) << e;
  }
}

}  // namespace
}  // namespace carc

namespace carc::test {
namespace {
// Names with control characters and markup (from a caller that does not check them, as records
// now do) still give well-formed XML 1.0, checked by Python's XML parser.
TEST(SvgXml, ControlCharactersAndMarkupInNamesGiveWellFormedXml) {
  auto rs = base_rules();
  State s;
  init_state(s, *rs, 2);
  view::SvgOptions o;
  o.title = "t\x01itle <&>";
  // U+FFFF and U+FFFE are valid UTF-8 that XML 1.0 forbids; U+202E reverses what follows
  o.player_names = {"evil\x1b]0;x\x07\x1b[2J\x0c\xef\xbf\xbf", "b\xff\xfe\"'<tag>\xef\xbf\xbe\xe2\x80\xae"};
  const std::string svg = view::render_svg(s, o);
  EXPECT_EQ(svg.find('\x1b'), std::string::npos);
  EXPECT_EQ(svg.find('\x07'), std::string::npos);
  EXPECT_EQ(svg.find("\xef\xbf\xbf"), std::string::npos);
  EXPECT_EQ(svg.find("\xef\xbf\xbe"), std::string::npos);
  EXPECT_EQ(svg.find("\xe2\x80\xae"), std::string::npos);
  const auto path = std::filesystem::temp_directory_path() / ("carc_xml_" + std::to_string(::getpid()) + ".svg");
  std::ofstream(path) << svg;
  const std::string cmd = "/usr/bin/python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' " + path.string();
  EXPECT_EQ(std::system(cmd.c_str()), 0) << "ill-formed XML";
  std::filesystem::remove(path);
}
}  // namespace
}  // namespace carc::test
