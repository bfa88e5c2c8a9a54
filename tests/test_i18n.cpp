// Messages in three languages (docs/i18n.md): plural rules, formatting, catalog checks, every
// catalog complete, views in Russian and Romanian, English unchanged.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "ai/bots.hpp"
#include "core/core.hpp"
#include "core/i18n.hpp"
#include "engine/engine.hpp"
#include "games/games.hpp"
#include "games/safari/safari_state.hpp"
#include "rules/words.hpp"
#include "view/view.hpp"

namespace carc {
namespace {

using i18n::Lang;

std::string catalog_error(const std::string& text);

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
  EXPECT_EQ(i18n::parse_lang("xx"), Lang::Xx);  // the pseudo-locale, never offered to players
}

TEST(I18n, PseudoLocaleAltersEveryLetterAndKeepsWhatIsTyped) {
  // letters accented, the text bracketed and lengthened by a third; parameters and what stands in
  // double quotes (typed as it is) kept; plural forms altered but their '#' kept
  EXPECT_EQ(i18n::pseudo("Turn {turn}"), "[Ţúŕñ {turn} ~~]");
  EXPECT_EQ(i18n::pseudo("type \"view X Y\""), "[ţýþé \"view X Y\" ~~]");
  EXPECT_EQ(i18n::pseudo("{n|# tile|# tiles}"), "[{n|# ţíĺé|# ţíĺéš} ~~~]");
  EXPECT_EQ(i18n::pseudo("a"), "á");                   // a mark or a one-letter word: not lengthened
  EXPECT_EQ(i18n::pseudo("Done.\n"), "[Đóñé. ~~]\n");  // the line break stays last
  EXPECT_EQ(i18n::format(i18n::pseudo("{n|# tile|# tiles} left"), {{"n", 2}}, Lang::Xx), "[2 ţíĺéš ĺéƒţ ~~~~~]");
  // a catalog's pseudo text is made from its English one: no catalog writes "xx"
  const auto c = i18n::Catalog::parse(R"({"a.b": {"en": "Your turn", "ru": "Ваш ход"}})", "t.json");
  ASSERT_NE(c.find("a.b", Lang::Xx), nullptr);
  EXPECT_EQ(*c.find("a.b", Lang::Xx), "[Ýóúŕ ţúŕñ ~~~]");
  EXPECT_NE(catalog_error(R"({"a.b": {"en": "x", "xx": "y"}})"), "");
}

TEST(I18n, StoredSeatNamesAreShownInWords) {
  const GameDef& g = *find_game("base");
  const i18n::Scope ru(Lang::Ru);
  EXPECT_EQ(seat_name_words(g, "Bot easy"), "Лёгкий бот");
  EXPECT_EQ(seat_name_words(g, "Bot hard #2"), "Сильный бот №2");
  EXPECT_EQ(seat_name_words(g, "Player 3"), "Игрок 3");
  for (const char* kept : {"Ann", "Bot", "Bot easy #", "Bot easy #x", "Bot strong", "Player", "Player 0", "Botanist"})
    EXPECT_EQ(seat_name_words(g, kept), kept);
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

// The piece options' texts (in the thread's language) at the first piece decision that has any,
// each turn playing the first legal move; none if 40 turns show none.
std::vector<std::string> first_piece_options(Game& g) {
  std::vector<std::string> out;
  for (int turn = 0; turn < 40 && !g.over() && out.empty(); ++turn) {
    g.advance();
    MoveList ml;
    legal_moves(g.state(), ml);
    g.play(ml[0]);
    for (const auto& o : view::build_view(g).decision.options)
      if (o.kind == "piece") out.push_back(o.text);
  }
  return out;
}

TEST(I18n, EventsAndSpotsInRussianNameThePlayersAndUsePluralForms) {
  Game g(load_ruleset("base", {}), {{"Аня", ""}, {"b", ""}}, 11);
  const i18n::Scope ru(Lang::Ru);
  // play until a piece decision offers a spot, then check its sentence
  const auto pieces = first_piece_options(g);
  EXPECT_FALSE(pieces.empty());
  for (const std::string& text : pieces) {
    EXPECT_EQ(text.find(" on the "), std::string::npos) << text;
    EXPECT_NE(text.find("фишка"), std::string::npos) << text;
  }
  ScoreEvent e{};
  e.player = 1;
  e.points = 4;
  e.tiles = 2;
  e.reason = ScoreReason::Completed;
  e.ftype = 1;  // city
  EXPECT_EQ(describe_event(g.state(), e), "игрок 2: 4 очка за завершённый город из 2 квадратов");
  const i18n::Scope en(Lang::En);
  EXPECT_EQ(describe_event(g.state(), e), "player 2 scores 4 for a completed city of 2 tiles");
}

// A sentence that names a feature after a preposition or with an adjective takes the feature's
// own form (feature.<name>.<form>, docs/i18n.md): its case, its gender and the preposition it
// takes ("за завершённую дорогу", "mănăstire nefinalizată", "în oraș" but "pe drum").
TEST(I18n, FeatureWordsAgreeWithTheirSentence) {
  Game g(load_ruleset("base", {}), {{"a", ""}, {"b", ""}}, 11);
  const GameDef& bd = *g.state().rs->game;
  auto ftype = [&](const std::string& name) {
    for (std::size_t i = 0; i < bd.ftypes.size(); ++i)
      if (bd.ftypes[i].name == name) return static_cast<u8>(i);
    ADD_FAILURE() << name;
    return u8{0};
  };
  ScoreEvent e{};
  e.player = 0;
  e.points = 25;
  e.tiles = 25;
  e.reason = ScoreReason::Completed;
  e.ftype = ftype("road");
  {
    const i18n::Scope ru(Lang::Ru);
    EXPECT_EQ(describe_event(g.state(), e), "игрок 1: 25 очков за завершённую дорогу из 25 квадратов");
  }
  {
    const i18n::Scope ro(Lang::Ro);
    e.reason = ScoreReason::Final;
    e.ftype = ftype("monastery");
    e.tiles = 9;
    EXPECT_EQ(describe_event(g.state(), e), "jucătorul 1: 25 de puncte pentru mănăstire nefinalizată din 9 cartonașe");
    e.reason = ScoreReason::Farm;
    e.ftype = ftype("field");
    e.cities = 20;
    EXPECT_EQ(describe_event(g.state(), e), "jucătorul 1: 25 de puncte pentru câmp lângă 20 de orașe finalizate");
    EXPECT_EQ(feature_form(bd, "city", "on"), "în oraș");
    EXPECT_EQ(feature_form(bd, "road", "on"), "pe drum");
    EXPECT_EQ(feature_form(bd, "field", "nonesuch"), "câmp");  // no such form: the word
  }
  const GameDef& hd = *find_game("hunters");
  const i18n::Scope ru(Lang::Ru);
  EXPECT_EQ(feature_form(hd, "meadow", "acc"), "низину");
  EXPECT_EQ(feature_form(hd, "river", "acc"), "реку");
  EXPECT_EQ(feature_form(*find_game("amazonas"), "village", "done"), "завершённую деревню");
  // a piece option says where the piece stands, with the feature's preposition
  const auto pieces = first_piece_options(g);
  EXPECT_FALSE(pieces.empty());
  for (const std::string& text : pieces) {
    const bool placed_well = text.rfind("фишка на дороге", 0) == 0 || text.rfind("фишка в городе", 0) == 0 ||
                             text.rfind("фишка на поле", 0) == 0 || text.rfind("фишка в монастыре", 0) == 0;
    EXPECT_TRUE(placed_well) << text;
  }
}

// Every sentence of a Safari view in `l`, gathered along a game that founds and explores watering
// holes, moves and takes jeeps and hands tokens in: option texts, the decision's panels (also in
// full), the game's panels, overlays and their parts, the summary, events and a turn's words.
// Texts quoted inside a sentence ("found lion 2,1 NE": what to type) and the first column of the
// actions panel (the commands) are the notation and stay English, so they are left out.
struct SafariTexts {
  std::vector<std::string> texts;
  int jeep_options = 0, found_options = 0, explore_options = 0, hand_ins = 0, holes = 0, events = 0;
};

std::string unquoted(std::string t) {
  for (auto a = t.find('"'); a != std::string::npos; a = t.find('"')) {
    const auto b = t.find('"', a + 1);
    t.erase(a, b == std::string::npos ? std::string::npos : b - a + 1);
  }
  return t;
}

void play_safari(SafariTexts& out, Lang l, u64 seed) {
  Game g(load_ruleset("safari", {}), {{"Аня", ""}, {"Bob", ""}, {"Ioana", ""}}, seed);
  std::mt19937 rng(static_cast<unsigned>(seed));
  view::ViewOptions vo;
  vo.lang = l;
  auto add_panels = [&](const std::vector<Panel>& ps) {
    for (const Panel& p : ps) {
      out.texts.push_back(p.title);
      for (const auto& [name, value] : p.counters) {
        out.texts.push_back(name);
        out.texts.push_back(value);
      }
      for (std::size_t c = 0; c < p.columns.size(); ++c)
        if (p.columns[c] != "seat") out.texts.push_back(p.columns[c]);
      for (const auto& row : p.rows)
        for (std::size_t c = p.id == "actions" ? 1 : 0; c < row.size(); ++c) out.texts.push_back(row[c]);
      for (const auto& line : p.lines) out.texts.push_back(line);
    }
  };
  for (int step = 0; step < 400 && !g.over(); ++step) {
    g.advance();
    if (g.over()) break;
    const view::View v = view::build_view(g, vo);
    for (const auto& o : v.decision.options) {
      out.texts.push_back(o.text);
      if (o.kind == "action" && o.overlay.rfind("jeep:", 0) == 0) ++out.jeep_options;
      if (o.kind == "action" && o.notation.rfind("found ", 0) == 0) ++out.found_options;
      if (o.kind == "action" && o.notation.rfind("explore ", 0) == 0) ++out.explore_options;
      if (o.kind == "choice" && o.notation.rfind("hand in ", 0) == 0) ++out.hand_ins;
    }
    add_panels(v.decision.panels);
    add_panels(v.panels);
    for (const auto& s : v.summary) out.texts.push_back(s);
    for (const auto& ov : v.overlays) {
      out.texts.push_back(ov.overlay.label);
      out.holes += ov.overlay.id.rfind("watering-hole:", 0) == 0;
      for (const auto& part : ov.overlay.parts) out.texts.push_back(part.label);
    }
    for (const auto& e : v.last_turn) {
      out.texts.push_back(e.text);
      ++out.events;
    }
    const State& s = g.state();
    const Presentation& pr = s.rs->game->present;
    MoveList ml;
    legal_moves(s, ml);
    std::vector<Move> acts;
    for (const Move& m : ml)
      if (m.kind == MoveKind::Act && m.pk != 1) acts.push_back(m);
    // found and explore often, so that watering holes fill up; otherwise any move
    const Move m = !acts.empty() && rng() % 2 ? acts[rng() % acts.size()] : ml[rng() % ml.size()];
    {
      const i18n::Scope scope(l);
      if (s.phase == Phase::Piece || s.phase == Phase::Choose) add_panels(pr.decision_panels(s, true));
      if (m.kind == MoveKind::Act || m.kind == MoveKind::Choose) {
        const std::string text =
            m.kind == MoveKind::Act ? s.rs->game->hooks.action_text(s, m) : s.rs->game->hooks.choice_text(s, m);
        out.texts.push_back(
            pr.told(s, m.kind, text, safari_state(s).markers[m.rot & 1][0], safari_state(s).markers[m.rot & 1][1]));
      }
    }
    g.play(m);
  }
  const view::View end = view::build_view(g, vo);
  for (const auto& e : end.last_turn) {
    out.texts.push_back(e.text);
    ++out.events;
  }
}

// Games until every kind of text has been seen (a hand-in needs a completed trail or bush whose
// scorer holds a species not on it), at most 12.
SafariTexts safari_texts(Lang l) {
  SafariTexts out;
  for (u64 seed = 1; seed <= 12; ++seed) {
    play_safari(out, l, seed);
    if (out.jeep_options && out.found_options && out.explore_options && out.hand_ins && out.holes) break;
  }
  return out;
}

void expect_no_words(const SafariTexts& t, const std::vector<std::string>& words, const char* lang) {
  EXPECT_GT(t.jeep_options, 0);
  EXPECT_GT(t.found_options, 0);
  EXPECT_GT(t.explore_options, 0);
  EXPECT_GT(t.hand_ins, 0);
  EXPECT_GT(t.holes, 0);
  EXPECT_GT(t.events, 0);
  int shown = 0;
  for (const std::string& text : t.texts) {
    EXPECT_EQ(text.find("[species."), std::string::npos) << text;
    const std::string bare = unquoted(text);
    for (const std::string& w : words)
      if (bare.find(w) != std::string::npos && shown++ < 20) ADD_FAILURE() << lang << ": \"" << w << "\" in: " << text;
  }
}

TEST(I18n, SafariSpeaksRussian) {
  // the same game in English says the words looked for (the check sees the texts)
  int english = 0;
  for (const std::string& text : safari_texts(Lang::En).texts)
    english += text.find("watering") != std::string::npos && text.find("photographer") != std::string::npos;
  EXPECT_GT(english, 0);
  const SafariTexts t = safari_texts(Lang::Ru);
  expect_no_words(
      t, {" the ", "jeep", "Jeep",  "watering", "token",    "scores",  "photographer", "species", " with ",   " and ",
          " at ",  "lion", "zebra", "monkey",   "elephant", "giraffe", "trail",        "bush",    "complete", "point "},
      "ru");
  bool holes = false, jeeps = false;
  for (const std::string& text : t.texts) {
    holes |= text.find("водопой") != std::string::npos;
    jeeps |= text.find("внедорожник") != std::string::npos;
  }
  EXPECT_TRUE(holes && jeeps);
}

TEST(I18n, SafariSpeaksRomanian) {
  const SafariTexts t = safari_texts(Lang::Ro);
  // Romanian says "jeep" too; no English sentence words, no Russian letters
  expect_no_words(
      t, {" the ", "watering", "token",    "scores",  "photographer", "species", " with ",    " and ",  " at ",
          "lion",  "monkey",   "elephant", "giraffe", "trail",        "bush",    "complete ", "point ", "Jeeps",
          "а",     "о",        "е"},
      "ro");
  bool holes = false, tokens = false;
  for (const std::string& text : t.texts) {
    holes |= text.find("adăpătoare") != std::string::npos;
    tokens |= text.find("jeton") != std::string::npos;
  }
  EXPECT_TRUE(holes && tokens);
}

TEST(I18n, SafariEnglishIsTheSameInAnEnglishScope) {
  // the words of a Safari view do not depend on the thread's language when the view asks for English
  Game g(load_ruleset("safari", {}), {{"a", ""}, {"b", ""}}, 3);
  g.advance();
  const view::View en = view::build_view(g);
  const i18n::Scope ru(Lang::Ru);
  view::ViewOptions vo;
  vo.lang = Lang::En;
  EXPECT_EQ(view::to_json(view::build_view(g, vo)).dump(), view::to_json(en).dump());
}

// ---- Amazonas and Hunters & Gatherers ----

// Every sentence of a view of `game` in `l` along seeded games (as for Safari): option texts, the
// decision's panels (also in full), the game's panels (titles, counters, columns, rows, lines),
// overlays, the track's title and its word, the supply words, events (the final scoring's too), a
// turn's words for a choice (Presentation::told) and what a mistyped choice is told. `seen` counts
// what the games went through, so that a test can ask that every kind of text was met.
struct GameTexts {
  std::vector<std::string> texts;
  std::map<std::string, int> seen;
};

void add_panels(GameTexts& out, const std::vector<Panel>& ps) {
  for (const Panel& p : ps) {
    out.texts.push_back(p.title);
    for (const auto& [name, value] : p.counters) {
      out.texts.push_back(name);
      out.texts.push_back(value);
    }
    for (const auto& c : p.columns)
      if (c != "seat") out.texts.push_back(c);
    for (const auto& row : p.rows)
      for (const auto& cell : row) out.texts.push_back(cell);
    for (const auto& line : p.lines) out.texts.push_back(line);
  }
}

// Shorthands a player may mistype at a choice (the double tile, the shaman): the errors they get.
const std::vector<std::string> kBadChoices = {"D2", "D2 45", "D2 0 0", "D1 0", "N 99 99", "N at 99,99", "99 99", "3 3"};

void play_game(GameTexts& out, const std::string& game, Lang l, u64 seed) {
  Game g(load_ruleset(game, {}), {{"Аня", ""}, {"Bob", ""}, {"Ioana", ""}}, seed);
  std::mt19937 rng(static_cast<unsigned>(seed));
  Rng bot_rng(seed);
  const auto greedy = make_bot("greedy");
  view::ViewOptions vo;
  vo.lang = l;
  auto add_view = [&](const view::View& v) {
    for (const auto& o : v.decision.options) {
      out.texts.push_back(o.text);
      ++out.seen["option." + o.kind];
      if (o.piece == "hut") ++out.seen["option.hut"];
    }
    add_panels(out, v.decision.panels);
    for (const Panel& p : v.decision.panels) ++out.seen["panel." + p.id];
    add_panels(out, v.panels);
    for (const auto& s : v.summary) out.texts.push_back(s);
    for (const auto& ov : v.overlays) {
      out.texts.push_back(ov.overlay.label);
      for (const auto& part : ov.overlay.parts) out.texts.push_back(part.label);
    }
    if (!v.track_title.empty()) out.texts.push_back(v.track_title);
    if (!v.track_word.empty()) out.texts.push_back(v.track_word);
    for (const auto& pv : v.players)
      for (const auto& w : pv.supply_words) out.texts.push_back(w);
    for (const auto& e : v.last_turn) {
      out.texts.push_back(e.text);
      ++out.seen["event." + e.reason];
    }
  };
  for (int step = 0; step < 600 && !g.over(); ++step) {
    g.advance();
    if (g.over()) break;
    const State& s = g.state();
    if (s.in_extra) ++out.seen["bonus_turn"];
    add_view(view::build_view(g, vo));
    const Presentation& pr = s.rs->game->present;
    MoveList ml;
    legal_moves(s, ml);
    // the greedy bot (it places pieces, completes forests with menhirs) or, now and then, any move
    const bool own = s.phase == Phase::Place || s.phase == Phase::Piece;
    const Move m = own && rng() % 4 ? greedy->choose(s, ml, bot_rng) : ml[rng() % ml.size()];
    {
      const i18n::Scope scope(l);
      if (pr.decision_panels && (s.phase == Phase::Piece || s.phase == Phase::Choose))
        add_panels(out, pr.decision_panels(s, true));
      if (s.phase == Phase::Choose) {
        for (const std::string& bad : kBadChoices) {
          try {
            if (pr.parse_alias) (void)pr.parse_alias(s, bad);
            if (s.rs->game->hooks.choice_parse) (void)s.rs->game->hooks.choice_parse(s, bad);
          } catch (const InputError& e) {
            out.texts.push_back(e.what());
            ++out.seen["error"];
          }
        }
        const std::string text = s.rs->game->hooks.choice_text
                                     ? s.rs->game->hooks.choice_text(s, m)
                                     : fmt::format("{} r{}", s.rs->tiles.types[m.feat].id, m.rot * 90);
        if (pr.told) out.texts.push_back(pr.told(s, m.kind, text, m.x, m.y));
      }
    }
    g.play(m);
  }
  add_view(view::build_view(g, vo));
}

GameTexts game_texts(const std::string& game, Lang l, int games) {
  GameTexts out;
  for (int seed = 1; seed <= games; ++seed) play_game(out, game, l, static_cast<u64>(seed));
  return out;
}

// An id no catalog has is said as "[id]".
bool names_a_missing_message(const std::string& text) {
  for (auto a = text.find('['); a != std::string::npos; a = text.find('[', a + 1)) {
    const auto b = text.find(']', a);
    const std::string inner = b == std::string::npos ? std::string() : text.substr(a + 1, b - a - 1);
    if (!inner.empty() && inner.find('.') != std::string::npos &&
        inner.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789._-") == std::string::npos)
      return true;
  }
  return false;
}

void expect_none_of(const GameTexts& t, const std::vector<std::string>& words, const std::string& what) {
  int shown = 0;
  for (const std::string& text : t.texts) {
    EXPECT_FALSE(names_a_missing_message(text)) << what << ": " << text;
    const std::string bare = unquoted(text);
    for (const std::string& w : words)
      if (bare.find(w) != std::string::npos && shown++ < 20) ADD_FAILURE() << what << ": \"" << w << "\" in: " << text;
  }
}

bool any_text_has(const GameTexts& t, const std::string& word) {
  return std::any_of(t.texts.begin(), t.texts.end(),
                     [&](const std::string& x) { return x.find(word) != std::string::npos; });
}

void expect_amazonas_seen(const GameTexts& t) {
  // the double tiles (a choice, its panel, typed mistakes), boats moving on their track, the
  // Amazon scorings, the river mouth, the jungles' camps at the end, passes
  for (const char* k : {"option.choice", "panel.double_tile", "error", "event.track", "event.amazon", "event.mouth",
                        "event.farm", "event.completed", "event.final", "option.pass", "option.piece"})
    EXPECT_GT(t.seen.count(k) ? t.seen.at(k) : 0, 0) << k;
}

const std::vector<std::string> kAmazonasEnglish = {
    " the ",  "boat",   "Boat",   "explorer", "camp", "tributary", "village", "jungle", "river", "River", "space",
    "scores", " place", "double", "Double",   "tile", "fruit",     " and ",   " with ", "mouth", "Front", "pile"};

TEST(I18n, AmazonasSpeaksRussian) {
  int english = 0;  // the same games in English say the words looked for (the check sees the texts)
  for (const std::string& text : game_texts("amazonas", Lang::En, 3).texts)
    english += text.find("boat") != std::string::npos || text.find("double tile") != std::string::npos;
  EXPECT_GT(english, 0);
  const GameTexts t = game_texts("amazonas", Lang::Ru, 3);
  expect_amazonas_seen(t);
  std::vector<std::string> words = kAmazonasEnglish;
  for (const char* w : {"caiman", "piranha", "animal", "Amazon"}) words.emplace_back(w);
  expect_none_of(t, words, "ru");
  for (const char* w : {"лодка", "кайман", "пирани", "устье", "двойн", "делени", "исследовател", "стоянк"})
    EXPECT_TRUE(any_text_has(t, w)) << w;
}

TEST(I18n, AmazonasSpeaksRomanian) {
  const GameTexts t = game_texts("amazonas", Lang::Ro, 3);
  expect_amazonas_seen(t);
  // Romanian says caiman, piranha, animal and Amazon too; no English sentence words, no Russian letters
  std::vector<std::string> words = kAmazonasEnglish;
  for (const char* w : {"а", "о", "е", "и"}) words.emplace_back(w);
  expect_none_of(t, words, "ro");
  for (const char* w : {"barc", "caiman", "gura fluviului", "cartonaș-dublu", "spațiu", "tabăr"})
    EXPECT_TRUE(any_text_has(t, w)) << w;
}

void expect_hunters_seen(const GameTexts& t) {
  // the shaman (a choice, its panel, typed mistakes), the menhir's bonus turns, huts on river
  // systems and their final scoring, the meadows' hunters, the canoe or the pit trap
  for (const char* k : {"option.choice", "panel.shaman", "panel.menhir", "error", "bonus_turn", "option.hut",
                        "event.network", "event.farm", "event.completed", "event.special", "option.pass"})
    EXPECT_GT(t.seen.count(k) ? t.seen.at(k) : 0, 0) << k;
}

const std::vector<std::string> kHuntersEnglish = {
    " the ",  "tribe",  "member",  "hut",     "fisher", "gatherer", "hunter", "river",  "lake",   "forest", "meadow",
    "fish",   "deer",   "aurochs", "mammoth", "tiger",  "mushroom", "shaman", "Shaman", "scores", "tile",   " and ",
    " with ", "so far", "supply",  "board",   "canoe",  "trap",     "raft",   "Tiles",  "keep"};

TEST(I18n, HuntersSpeaksRussian) {
  int english = 0;
  for (const std::string& text : game_texts("hunters", Lang::En, 4).texts)
    english += text.find("tribe member") != std::string::npos || text.find("hut") != std::string::npos;
  EXPECT_GT(english, 0);
  const GameTexts t = game_texts("hunters", Lang::Ru, 4);
  expect_hunters_seen(t);
  std::vector<std::string> words = kHuntersEnglish;
  for (const char* w : {"menhir", "Menhir", "bonus", "Bonus"}) words.emplace_back(w);
  expect_none_of(t, words, "ru");
  for (const char* w : {"соплеменник", "хижин", "низин", "речн", "менгир", "шаман", "бонусн", "олен"})
    EXPECT_TRUE(any_text_has(t, w)) << w;
}

TEST(I18n, HuntersSpeaksRomanian) {
  const GameTexts t = game_texts("hunters", Lang::Ro, 4);
  expect_hunters_seen(t);
  // Romanian says menhir, bonus and canoe ("canoea") too; no English sentence words, no Russian letters
  std::vector<std::string> words;
  for (const std::string& w : kHuntersEnglish)
    if (w != "canoe") words.push_back(w);
  for (const char* w : {"а", "о", "е", "и"}) words.emplace_back(w);
  expect_none_of(t, words, "ro");
  for (const char* w : {"colib", "membr", "pajiște", "sistem de râuri", "Șaman", "cartonaș bonus", "pești"})
    EXPECT_TRUE(any_text_has(t, w)) << w;
}

TEST(I18n, AmazonasAndHuntersEnglishIsTheSameInAnyScope) {
  // the words of a view asked for in English do not depend on the thread's language, along a game
  for (const char* game : {"amazonas", "hunters"}) {
    Game g(load_ruleset(game, {}), {{"a", ""}, {"b", ""}}, 5);
    std::mt19937 rng(5);
    view::ViewOptions en;
    en.lang = Lang::En;
    for (int step = 0; step < 300 && !g.over(); ++step) {
      g.advance();
      const std::string plain = view::to_json(view::build_view(g)).dump();
      for (const Lang l : {Lang::Ru, Lang::Ro}) {
        const i18n::Scope scope(l);
        ASSERT_EQ(view::to_json(view::build_view(g, en)).dump(), plain) << game << " step " << step;
      }
      if (g.over()) break;
      MoveList ml;
      legal_moves(g.state(), ml);
      g.play(ml[rng() % ml.size()]);
    }
  }
}

}  // namespace
}  // namespace carc
