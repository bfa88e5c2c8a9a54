// Messages in three languages (docs/i18n.md): plural rules, formatting, catalog checks, every
// catalog complete, views in Russian and Romanian, English unchanged.
#include <gtest/gtest.h>

#include <string>

#include "core/core.hpp"
#include "core/i18n.hpp"
#include "engine/engine.hpp"
#include "games/games.hpp"
#include "rules/words.hpp"
#include "view/view.hpp"

namespace carc {
namespace {

using i18n::Lang;

TEST(I18n, PluralRules) {
  // CLDR: Russian one/few/many, Romanian one/few/other, English one/other
  const std::pair<long long, int> ru[] = {{0, 2},  {1, 0},  {2, 1},  {4, 1},  {5, 2},   {11, 2},  {12, 2},
                                          {14, 2}, {21, 0}, {22, 1}, {25, 2}, {101, 0}, {111, 2}, {-3, 1}};
  for (const auto& [n, f] : ru) EXPECT_EQ(i18n::plural_index(Lang::Ru, n), f) << n;
  const std::pair<long long, int> ro[] = {{0, 1},  {1, 0},   {2, 1},   {19, 1},  {20, 2},
                                          {21, 2}, {100, 2}, {101, 1}, {119, 1}, {120, 2}};
  for (const auto& [n, f] : ro) EXPECT_EQ(i18n::plural_index(Lang::Ro, n), f) << n;
  EXPECT_EQ(i18n::plural_index(Lang::En, 1), 0);
  EXPECT_EQ(i18n::plural_index(Lang::En, 0), 1);
  EXPECT_EQ(i18n::plural_index(Lang::En, 2), 1);
}

TEST(I18n, ParseLang) {
  EXPECT_EQ(i18n::parse_lang("ru"), Lang::Ru);
  EXPECT_EQ(i18n::parse_lang("ru-RU"), Lang::Ru);
  EXPECT_EQ(i18n::parse_lang("ro_RO.UTF-8"), Lang::Ro);
  EXPECT_EQ(i18n::parse_lang("EN"), Lang::En);
  EXPECT_FALSE(i18n::parse_lang("de"));
  EXPECT_FALSE(i18n::parse_lang(""));
  EXPECT_FALSE(i18n::parse_lang("russian"));
}

TEST(I18n, FormatPutsParametersAndPluralForms) {
  const std::vector<i18n::Arg> a = {{"n", 3}, {"who", "Аня"}};
  EXPECT_EQ(i18n::format("{who}: {n|# очко|# очка|# очков}", a, Lang::Ru), "Аня: 3 очка");
  EXPECT_EQ(i18n::format("{who}: {n|# очко|# очка|# очков}", {{"n", 11}, {"who", "Аня"}}, Lang::Ru), "Аня: 11 очков");
  EXPECT_EQ(i18n::format("{n|# punct|# puncte|# de puncte}", {{"n", 20}}, Lang::Ro), "20 de puncte");
  EXPECT_EQ(i18n::format("{n|# tile|# tiles}", {{"n", 1}}, Lang::En), "1 tile");
  EXPECT_EQ(i18n::format("left {missing} alone", a, Lang::En), "left {missing} alone");
}

std::string catalog_error(const std::string& text) {
  try {
    (void)i18n::Catalog::parse(text, "test.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(I18n, BadCatalogsAreRefusedNamingIdAndLanguage) {
  const std::pair<const char*, const char*> cases[] = {
      {R"([])", "test.json: must be an object"},
      {R"({"a b": {"en": "x"}})", "test.json: a b: a message id is made of"},
      {R"({"a": {"ru": "x"}})", "test.json: a: has no English text"},
      {R"({"a": {"en": "x", "de": "y"}})", "test.json: a.de: unknown field"},
      {R"({"a": {"en": "x", "ru": ""}})", "test.json: a.ru: is empty"},
      {R"({"a": {"en": "{n}", "ru": "{m}"}})", "test.json: a.ru: uses the parameter {m}"},
      {R"({"a": {"en": "{n|one|other}", "ru": "{n|один|два}"}})", "test.json: a.ru: {n|...} gives 2 forms; ru has 3"},
      {R"({"a": {"en": "{n"}})", "test.json: a.en: the '{' at byte 1 is not closed"},
      {R"({"a": {"en": "n}"}})", "test.json: a.en: a '}' at byte 2 closes nothing"},
      {R"({"a": {"en": "{N}"}})", "test.json: a.en: \"{N}\" is not a parameter"},
      {R"({"a": {"en": 3}})", "test.json: a.en: must be a string"},
      {R"({"a": {"en": "x\u0001"}})", "test.json: a.en: holds a control character"},
  };
  for (const auto& [text, want] : cases)
    EXPECT_NE(catalog_error(text).find(want), std::string::npos) << text << " -> " << catalog_error(text);
  EXPECT_EQ(catalog_error(R"({"a.b_c-1": {"en": "{n|# x|# xs}", "ru": "{n|#|#|#}", "ro": "ok", "note": "n"}})"), "");
}

// Every catalog the engine holds is complete in all three languages. The list of what is missing
// is printed, so that a translator sees it at once.
TEST(I18n, EveryCatalogIsCompleteInEveryLanguage) {
  std::vector<std::pair<std::string, const i18n::Catalog*>> cats = {{"src/rules/messages.json", &generic_messages()}};
  for (const std::string& id : game_ids())
    if (const i18n::Catalog* c = game_messages(*find_game(id))) cats.emplace_back(id, c);
  for (const auto& [name, c] : cats) {
    for (const Lang l : {Lang::Ru, Lang::Ro}) {
      const auto missing = c->missing(l);
      std::string list;
      for (const auto& m : missing) list += " " + m;
      EXPECT_TRUE(missing.empty()) << name << ": " << missing.size() << " of " << c->ids().size()
                                   << " messages have no " << i18n::code(l) << " text:" << list;
    }
  }
}

TEST(I18n, AViewSpeaksTheLanguageAskedForAndEnglishByDefault) {
  for (const std::string& id : game_ids()) {
    Game g(load_ruleset(id, {}), {{"a", ""}, {"b", ""}}, 7);
    const view::View en = view::build_view(g);
    view::ViewOptions o;
    o.lang = Lang::Ru;
    const view::View ru = view::build_view(g, o);
    EXPECT_EQ(en.lang, "en");
    EXPECT_EQ(ru.lang, "ru");
    EXPECT_EQ(i18n::current(), Lang::En) << "the view's language does not leak into the thread";
    ASSERT_EQ(en.decision.options.size(), ru.decision.options.size());
    if (!game_messages(*find_game(id)) || !game_messages(*find_game(id))->has("game.title")) continue;
    EXPECT_NE(en.title, ru.title) << id;
    // the placement options are sentences in Russian, with the same notation
    for (std::size_t i = 0; i < en.decision.options.size(); ++i) {
      EXPECT_EQ(en.decision.options[i].notation, ru.decision.options[i].notation);
      EXPECT_EQ(ru.decision.options[i].text.rfind("положить ", 0), 0u) << ru.decision.options[i].text;
    }
  }
}

TEST(I18n, EventsAndSpotsInRussianNameThePlayersAndUsePluralForms) {
  Game g(load_ruleset("base", {}), {{"Аня", ""}, {"b", ""}}, 11);
  const i18n::Scope ru(Lang::Ru);
  // play until a piece decision offers a spot, then check its sentence
  bool seen_piece = false;
  for (int turn = 0; turn < 40 && !g.over() && !seen_piece; ++turn) {
    g.advance();
    MoveList ml;
    legal_moves(g.state(), ml);
    g.play(ml[0]);
    const view::View v = view::build_view(g);
    for (const auto& o : v.decision.options)
      if (o.kind == "piece") {
        seen_piece = true;
        EXPECT_EQ(o.text.find(" on the "), std::string::npos) << o.text;
        EXPECT_NE(o.text.find("фишка"), std::string::npos) << o.text;
      }
  }
  EXPECT_TRUE(seen_piece);
  ScoreEvent e{};
  e.player = 1;
  e.points = 4;
  e.tiles = 2;
  e.reason = ScoreReason::Completed;
  e.ftype = 1;  // city
  EXPECT_EQ(describe_event(g.state(), e), "игрок 2: 4 очка за завершённый объект «город» из 2 квадратов");
  const i18n::Scope en(Lang::En);
  EXPECT_EQ(describe_event(g.state(), e), "player 2 scores 4 for a completed city of 2 tiles");
}

}  // namespace
}  // namespace carc
