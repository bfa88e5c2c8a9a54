// Each game's rules page (src/games/<game>/rules.json, docs/architecture.md "Adding a game"): every
// game has one, it loads, it names only tiles of the game's own tile set, it is whole in every
// language; the checks refuse what a page may not hold; GET /api/rules/GAME serves it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "core/core.hpp"
#include "core/i18n.hpp"
#include "games/games.hpp"
#include "games/rules_page.hpp"
#include "server/web_api.hpp"

namespace carc {
namespace {

using i18n::Lang;

// The test games too (tests/games/GAMES), for the length of a block.
struct WithTestGames {
  std::string saved;
  bool had = false;
  WithTestGames() {
    if (const char* v = std::getenv("CARCASSONNE_TEST_GAMES")) had = true, saved = v;
    setenv("CARCASSONNE_TEST_GAMES", "1", 1);
  }
  ~WithTestGames() {
    if (had)
      setenv("CARCASSONNE_TEST_GAMES", saved.c_str(), 1);
    else
      unsetenv("CARCASSONNE_TEST_GAMES");
  }
  WithTestGames(const WithTestGames&) = delete;
  WithTestGames& operator=(const WithTestGames&) = delete;
};

std::string error_of(const std::string& text) {
  try {
    parse_rules_page(text, "t.json", {"A", "B"});
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const char* kOk = R"({"sections": [{"id": "turn", "title": {"en": "The turn", "ru": "Ход", "ro": "Tura"},
  "text": {"en": ["One.", "Two."], "ru": ["Один.", "Два."], "ro": ["Unu.", "Doi."]}, "tiles": ["A"]}]})";

}  // namespace

TEST(RulesPage, EveryGameHasAPageThatLoadsAndNamesItsOwnTiles) {
  const WithTestGames all;
  for (const std::string& game : game_ids()) {
    SCOPED_TRACE(game);
    const RulesPage* page = nullptr;
    ASSERT_NO_THROW(page = rules_page(game));
    ASSERT_NE(page, nullptr) << game_folder(game) << "/rules.json is missing";
    EXPECT_GE(page->sections.size(), 2u);
    std::size_t tiles = 0;
    const auto rs = load_ruleset(game, {});
    for (const RulesSection& s : page->sections) {
      for (const Lang l : i18n::kAllLangs) {
        EXPECT_FALSE(s.title[static_cast<std::size_t>(l)].empty()) << s.id;
        EXPECT_FALSE(s.text[static_cast<std::size_t>(l)].empty()) << s.id;
      }
      for (const std::string& id : s.tiles) EXPECT_GE(rs->tiles.find(id), 0) << s.id << ": " << id;
      tiles += s.tiles.size();
    }
    EXPECT_GT(tiles, 0u) << "no section draws a tile";
    // the first section is the turn
    EXPECT_EQ(page->sections.front().id, "turn");
  }
  EXPECT_EQ(rules_page("chess"), nullptr);
}

TEST(RulesPage, ChecksRefuseWhatAPageMayNotHold) {
  EXPECT_EQ(error_of(kOk), "");
  const RulesPage p = parse_rules_page(kOk, "t.json", {"A", "B"});
  ASSERT_EQ(p.sections.size(), 1u);
  EXPECT_EQ(p.sections[0].title[static_cast<std::size_t>(Lang::Ru)], "Ход");
  EXPECT_EQ(p.sections[0].text[static_cast<std::size_t>(Lang::Ro)][1], "Doi.");
  const auto with = [](const std::string& from, const std::string& to) {
    std::string s = kOk;
    const auto at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  struct Case {
    std::string text, says;
  };
  const Case cases[] = {
      {R"({"sections": [], "extra": 1})", "unknown key \"extra\""},
      {R"({"sections": []})", "at least one"},
      {with(R"("id": "turn",)", R"("id": "turn", "picture": "x",)"),
       "section \"turn\"" /* unknown key, before the id is read */},
      {with(R"("id": "turn",)", R"("id": "turn", "picture": "x",)"), "unknown key \"picture\""},
      {with(R"("ro": "Tura")", R"("de": "Zug")"), "\"de\" is not a language"},
      {with(R"(, "ro": "Tura")", ""), "title: no \"ro\" text"},
      {with(R"("ru": ["Один.", "Два."])", R"("ru": ["Один."])"), "text.ru: 1 paragraphs, but English has 2"},
      {with(R"("Doi.")", R"("  ")"), "text.ro[1]: an empty text"},
      {with(R"(["A"])", R"(["Z"])"), "tiles[0]: \"Z\" is not a tile of the game's tile set"},
      {with(R"(["A"])", R"(["A", "A"])"), "\"A\" is listed twice"},
      {with(R"("id": "turn")", R"("id": "The turn")"), "is not an id"},
      {with(R"("One.")", R"("One.\u0007")"), "control character"},
  };
  for (const Case& c : cases) {
    const std::string e = error_of(c.text);
    EXPECT_NE(e.find(c.says), std::string::npos) << c.text << "\n-> " << e;
    EXPECT_EQ(e.rfind("t.json", 0), 0u) << e;
  }
  // two sections of one id
  std::string two = kOk;
  const std::string sec = two.substr(two.find('{', 1), two.rfind(']') - two.find('{', 1));
  two.insert(two.rfind(']'), ", " + sec);
  EXPECT_NE(error_of(two).find("names an earlier section too"), std::string::npos) << error_of(two);
}

TEST(RulesPage, TheServerGivesItInTheRequestedLanguage) {
  for (const std::string& game : game_ids()) {
    const RulesPage* page = rules_page(game);
    ASSERT_NE(page, nullptr);
    for (const Lang l : i18n::kAllLangs) {
      const i18n::Scope scope(l);
      const auto j = nlohmann::json::parse(server::rules_json(game));
      EXPECT_EQ(j.at("game"), game);
      EXPECT_EQ(j.at("lang"), std::string(i18n::code(l)));
      ASSERT_EQ(j.at("sections").size(), page->sections.size());
      for (std::size_t i = 0; i < page->sections.size(); ++i) {
        const auto& s = j.at("sections")[i];
        EXPECT_EQ(s.at("id"), page->sections[i].id);
        EXPECT_EQ(s.at("title"), page->sections[i].title[static_cast<std::size_t>(l)]);
        EXPECT_EQ(s.at("text"), page->sections[i].text[static_cast<std::size_t>(l)]);
        EXPECT_EQ(s.at("tiles"), page->sections[i].tiles);
      }
    }
  }
  {
    const i18n::Scope ru(Lang::Ru);
    EXPECT_EQ(nlohmann::json::parse(server::rules_json("base")).at("title"), "Каркассон");
  }
  EXPECT_THROW(server::rules_json("chess"), server::NotFound);
}

}  // namespace carc
