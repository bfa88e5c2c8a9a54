// Looks (docs/look.md): every game's look loads; a bad look is refused naming the file and field.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/io.hpp"
#include "games/games.hpp"
#include "view/look.hpp"

namespace carc {
namespace {

using view::Look;

std::string error_of(const std::string& text) {
  try {
    (void)view::parse_look(text, "test.json", &view::generic_look());
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Look, EveryGameLooksValidAndNamesOnlyItsOwnFeatures) {
  for (const std::string& id : game_ids()) {
    const GameDef& g = *find_game(id);
    const Look& l = view::look_of(g);
    for (const FeatureTypeDef& ft : g.ftypes) {
      const view::FeatureStyle& st = view::style_of(l, ft);
      EXPECT_EQ(st.fill.size(), 7u) << id << " " << ft.name;
      for (const std::string& sym : ft.attrs)
        if (const std::string gl = view::symbol_glyph(l, sym, 0); !gl.empty()) {
          EXPECT_NE(view::glyph_of(l, gl), nullptr) << sym;
        }
    }
    for (int kind = 0; kind < 2; ++kind)
      EXPECT_NE(view::glyph_of(l, view::piece_glyph(l, g.piece_names[static_cast<std::size_t>(kind)], kind, false)), nullptr) << id;
    for (const auto& [name, glyph] : l.glyphs) {
      EXPECT_EQ(glyph.svg.find("{{"), std::string::npos) << id << " " << name << ": references expanded";
      EXPECT_EQ(glyph.svg.find('\''), std::string::npos) << id << " " << name << ": attributes quoted with \"";
    }
  }
  // a look's own glyphs: Safari's jeep, Hunters' house for the hut, the base game's shield badge
  EXPECT_NE(view::glyph_of(view::look_of(*find_game("safari")), "jeep"), nullptr);
  const Look& hunters = view::look_of(*find_game("hunters"));
  EXPECT_EQ(view::piece_glyph(hunters, "hut", 1, true), "house");
  EXPECT_EQ(view::piece_glyph(view::generic_look(), "camp", 1, false), "tent");
  EXPECT_EQ(view::piece_glyph(view::generic_look(), "anything", 1, true), "house");
}

TEST(Look, EveryGamesTexturesTileTheirSquareAndStonesAreColours) {
  // every texture a game's look names: a glyph whose square divides the tile (the pattern runs on
  // from tile to tile) and holds no seat colour; the generic look's field is grass
  int textures = 0;
  for (const std::string& id : game_ids()) {
    const GameDef& g = *find_game(id);
    const Look& l = view::look_of(g);
    for (const FeatureTypeDef& ft : g.ftypes) {
      const view::FeatureStyle& st = view::style_of(l, ft);
      if (!st.stones.empty()) {
        EXPECT_EQ(st.stones.size(), 7u) << id << " " << ft.name;
      }
      if (st.texture.empty()) continue;
      ++textures;
      const view::Glyph* t = view::glyph_of(l, st.texture);
      ASSERT_NE(t, nullptr) << id << " " << ft.name;
      EXPECT_FALSE(t->seat) << id << " " << st.texture;
      EXPECT_NEAR(64.0 / t->size, std::round(64.0 / t->size), 1e-9) << id << " " << st.texture << " size " << t->size;
    }
  }
  EXPECT_GE(textures, 10);
  EXPECT_EQ(view::generic_look().classes.at("field").texture, "grass");
  const Look& base = view::look_of(*find_game("base"));
  EXPECT_EQ(base.features.at("city").texture, "roofs");
  EXPECT_FALSE(base.features.at("city").stones.empty());
}

TEST(Look, EveryGamesPiecesAreAtLeastAThirdOfATileAcross) {
  // a piece on the board reads at a glance: its glyph at least 22 of a tile's 64 units, drawn in the
  // seat's colour with an outline; each game's own pieces have their own silhouettes
  for (const std::string& id : game_ids()) {
    const GameDef& g = *find_game(id);
    const Look& l = view::look_of(g);
    for (int kind = 0; kind < 2; ++kind)
      for (const bool network : {false, true}) {
        const std::string name = view::piece_glyph(l, g.piece_names[static_cast<std::size_t>(kind)], kind, network);
        const view::Glyph* gl = view::glyph_of(l, name);
        ASSERT_NE(gl, nullptr) << id << " " << name;
        EXPECT_GE(gl->size, 22.0) << id << " " << name;
        EXPECT_TRUE(gl->seat) << id << " " << name;
      }
  }
  EXPECT_EQ(view::piece_glyph(view::look_of(*find_game("amazonas")), "explorer", 0, false), "explorer");
  EXPECT_EQ(view::piece_glyph(view::look_of(*find_game("hunters")), "tribe member", 0, false), "tribe-member");
  EXPECT_EQ(view::piece_glyph(view::look_of(*find_game("safari")), "photographer", 0, false), "photographer");
  EXPECT_GE(view::glyph_of(view::generic_look(), "track-piece")->size, 22.0) << "Amazonas' boat on its river";
}

TEST(Look, TerminalMarksComeFromTheLook) {
  // the marks the terminal draws: symbols (one character and a colour), overlay glyphs (a word, a
  // seat's piece), the legend; every game's look names only its own symbols, specials and types
  const Look& amazonas = view::look_of(*find_game("amazonas"));
  ASSERT_NE(view::term_mark(amazonas, "boat"), nullptr);
  EXPECT_EQ(view::term_mark(amazonas, "boat")->mark, "▲");
  EXPECT_EQ(view::term_mark(amazonas, "boat")->fg, 226);
  EXPECT_EQ(view::term_mark(amazonas, "shield"), nullptr) << "the base game's marks are its own";
  const Look& safari = view::look_of(*find_game("safari"));
  ASSERT_NE(view::term_glyph(safari, "jeep"), nullptr);
  EXPECT_EQ(view::term_glyph(safari, "jeep")->mark, "jeep");
  EXPECT_EQ(view::term_glyph(safari, "jeep")->bg, 214);
  ASSERT_NE(view::term_glyph(safari, "photographer"), nullptr);
  EXPECT_TRUE(view::term_glyph(safari, "photographer")->seat);
  EXPECT_FALSE(safari.terminal.legend.empty());
  EXPECT_EQ(view::term_mark(view::generic_look(), "shield"), nullptr);
  // a game's look may mark only what the game has
  GameDef g = *find_game("base");
  const std::string text = R"({"terminal": {"marks": {"fruit": {"mark": "o"}}}})";
  g.present.look = text;
  try {
    (void)view::look_of(g);
    ADD_FAILURE() << "a mark of a symbol the game does not have was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(
        std::string(e.what()).find("terminal.marks.fruit: the game has no symbol, special or feature type \"fruit\""),
        std::string::npos)
        << e.what();
  }
}

TEST(Look, GlyphReferencesExpandAndQuotesAreRewritten) {
  const Look l = view::parse_look(R"({"glyphs": {"a": {"svg": "<circle r='2'/>"}, "b": {"svg": "<g fill='#fff'>{{a}}{{meeple}}</g>", "seat": true}}})",
                                  "test.json", &view::generic_look());
  EXPECT_EQ(view::glyph_of(l, "b")->svg.substr(0, 37), R"(<g fill="#fff"><circle r="2"/><path d)");
  EXPECT_TRUE(view::glyph_of(l, "b")->seat);
  EXPECT_NE(view::glyph_of(l, "meeple"), nullptr) << "the generic glyphs stay";
}

TEST(Look, BadLooksAreRefusedNamingTheField) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"colour": {}})", "test.json: colour: unknown field"},
      {R"({"features": {"road": {"fill": "red", "edge": "#000000"}}})",
       "test.json: features.road.fill: \"red\" is not a colour"},
      {R"({"features": {"road": {"fill": "#ffffff"}}})", "test.json: features.road: needs a fill and an edge"},
      {R"({"glyphs": {"x": {"svg": "<g><circle/>"}}})", "test.json: glyphs.x.svg: <g> is not closed"},
      {R"({"glyphs": {"x": {"svg": "<g></circle>"}}})", "test.json: glyphs.x.svg: </circle> closes <g>"},
      {R"({"glyphs": {"x": {"svg": "<script>alert(1)</script>"}}})",
       "test.json: glyphs.x.svg: may not hold \"<script\""},
      {R"({"glyphs": {"x": {"svg": "<circle onload='f()'/>"}}})",
       "test.json: glyphs.x.svg: may not hold event handlers"},
      {R"({"glyphs": {"x": {"svg": "<circle\tONclick =\"f()\"/>"}}})",
       "test.json: glyphs.x.svg: may not hold event handlers"},
      {R"({"features": {"road": {"fill": "#12345g", "edge": "#000"}}})",
       "features.road.fill: \"#12345g\" is not a colour"},
      {R"({"glyphs": {"x": {"svg": "<use href='#a'/>"}}})", "test.json: glyphs.x.svg: may not hold \"href\""},
      {R"({"glyphs": {"x": {"svg": "{{nothing}}"}}})", "test.json: glyphs.x.svg: refers to no glyph \"nothing\""},
      {R"({"glyphs": {"x": {"svg": "{{y}}"}, "y": {"svg": "{{x}}"}}})", "references nest deeper than 8"},
      {R"({"glyphs": {"x y": {"svg": "<g/>"}}})", "test.json: glyphs.x y: a glyph's name may not hold spaces"},
      {R"({"glyphs": {"x": {"svg": "<g/>", "size": -1}}})", "test.json: glyphs.x.size: must be a number in (0, 256]"},
      {R"({"pieces": {"hut": "castle"}})", "test.json: pieces.hut: no glyph \"castle\""},
      {R"({"symbols": {"fruit": []}})", "test.json: symbols.fruit: must be a glyph's name or a list of them"},
      {R"({"hand": "token"})", "test.json: hand: must hold \"{}\""},
      {R"({"key": [{"glyph": "meeple", "scale": 0}]})", "test.json: key[0].scale: must be a positive number"},
      {R"({"features": {"road": {"fill": "#ffffff", "edge": "#000000", "dead_end": "pointed"}}})",
       "dead_end: must be \"round\" or \"square\""},
      {"[1, 2", "test.json"},
      {R"({"glyphs": {"x": {"svg": "<g>\u0000</g>"}}})", "test.json: glyphs.x.svg: a control character at byte 4"},
      {R"({"terminal": {"colours": {}}})", "test.json: terminal.colours: unknown field"},
      {R"({"terminal": {"marks": {"fruit": {"mark": "ab"}}}})",
       "test.json: terminal.marks.fruit.mark: must be one character"},
      {R"({"terminal": {"marks": {"fruit": {"mark": ""}}}})",
       "test.json: terminal.marks.fruit.mark: must be one character"},
      {R"({"terminal": {"marks": {"fruit": {"mark": "o", "fg": 256}}}})",
       "test.json: terminal.marks.fruit.fg: must be a colour number 0..255"},
      {R"({"terminal": {"marks": {"fruit": {"mark": "o", "seat": true}}}})",
       "test.json: terminal.marks.fruit.seat: unknown field"},
      {R"({"terminal": {"glyphs": {"meeple": {"mark": "tents"}}}})",
       "test.json: terminal.glyphs.meeple.mark: must be 1 to 4 characters"},
      {R"({"terminal": {"glyphs": {"meeple": {"mark": "\u001b[1m"}}}})",
       "test.json: terminal.glyphs.meeple.mark: may not hold control characters"},
      {R"({"terminal": {"glyphs": {"castle": {"mark": "C"}}}})",
       "test.json: terminal.glyphs.castle: no glyph \"castle\""},
      {R"({"terminal": {"glyphs": {"meeple": {"seat": true, "mark": "1"}}}})",
       "test.json: terminal.glyphs.meeple: a seat's piece has no mark of its own"},
      {R"({"terminal": {"glyphs": {"meeple": {"mark": "m", "bg": "blue"}}}})",
       "test.json: terminal.glyphs.meeple.bg: must be a colour number 0..255"},
      {R"({"terminal": {"legend": "jeep"}})", "test.json: terminal.legend: must be a list of strings"},
      {R"({"features": {"road": {"fill": "#ffffff", "edge": "#000000", "texture": "plaid"}}})",
       "test.json: features.road.texture: no glyph \"plaid\""},
      {R"({"features": {"road": {"fill": "#ffffff", "edge": "#000000", "texture": 3}}})",
       "test.json: features.road.texture: must be a string"},
      {R"({"classes": {"field": {"texture": "moss"}}})", "test.json: classes.field.texture: no glyph \"moss\""},
      {R"({"track": {"bank": "green"}})", "test.json: track.bank: \"green\" is not a colour"},
      {R"({"features": {"city": {"fill": "#ffffff", "edge": "#000000", "stones": "grey"}}})",
       "test.json: features.city.stones: \"grey\" is not a colour"},
  };
  for (const auto& [text, want] : cases) {
    const std::string e = error_of(text);
    EXPECT_NE(e.find(want), std::string::npos) << text << "\n  got: " << e;
  }
}

}  // namespace
}  // namespace carc
