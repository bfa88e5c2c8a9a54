#include "server/web_api.hpp"

#include <fmt/format.h>

#include <map>
#include <mutex>
#include <nlohmann/json.hpp>

#include "ai/bot_limits.hpp"
#include "ai/bots.hpp"
#include "core/io.hpp"
#include "core/json_input.hpp"
#include "engine/engine.hpp"
#include "games/games.hpp"
#include "games/rules_page.hpp"
#include "rules/words.hpp"
#include "view/svg.hpp"
#include "view/view.hpp"

namespace carc::server {

using json = nlohmann::json;

namespace {
// The levels' specs in a game (GameDef::levels, or the defaults)
json levels_of(const GameDef* g) {
  json out = json::array();
  for (const BotLevel& lv : kBotLevels)
    out.push_back({{"level", std::string(lv.name)}, {"spec", bot_level_spec(lv.name, g)}});
  return out;
}
}  // namespace

std::string catalog_json() {
  json games = json::array();
  for (const std::string& id : game_ids()) {
    const GameDef* g = find_game(id);
    if (!g) continue;
    json options = json::array();
    for (const OptionDef& o : g->options) {
      // in the request's language where the game's catalog words them (setting.<name>[.<value>|.help])
      auto word = [&](const std::string& key, const std::string& fallback) {
        return has_message(*g, key) ? say(*g, key) : fallback;
      };
      json value_words = json::array();
      for (const std::string& v : o.values) value_words.push_back(word("setting." + o.name + "." + v, v));
      options.push_back({{"name", o.name},
                         {"values", o.values},
                         {"help", word("setting." + o.name + ".help", o.help)},
                         {"word", word("setting." + o.name, o.name)},
                         {"value_words", value_words}});
    }
    games.push_back({{"id", g->id},
                     {"title", has_message(*g, "game.title") ? say(*g, "game.title") : g->title},
                     {"min_players", g->min_players},
                     {"max_players", g->max_players},
                     {"options", options},
                     {"levels", levels_of(g)}});
  }
  json bots = json::array();
  for (const BotLevel& lv : kBotLevels)
    bots.push_back({{"level", std::string(lv.name)},
                    {"spec", std::string(lv.spec)},
                    {"word", say(fmt::format("bot.level.{}", lv.name))}});
  json colours = json::array();
  for (const auto c : view::kSeatColours) colours.push_back(std::string(c));
  return json{{"games", games}, {"bots", bots}, {"seat_colours", colours}}.dump();
}

std::string tiles_json(const std::string& game) {
  static std::mutex mu;
  static std::map<std::string, std::string> cache;  // by game and language
  std::lock_guard lock(mu);
  const std::string key = fmt::format("{}/{}", game, i18n::code(i18n::current()));
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  if (!find_game(game)) throw InputError(fmt::format("no game \"{}\" (games: {})", printable(game), fmt::join(game_ids(), ", ")));
  const auto rs = load_ruleset(game, {});
  constexpr int kPx = 96;
  std::vector<std::string> files;
  for (std::size_t i = 0; i < rs->tiles.types.size(); ++i)
    files.push_back(view::tile_file_stem(rs->tiles.types[i].id, static_cast<int>(i)) + ".svg");
  json index = view::tile_catalog(*rs, files);
  index["px"] = kPx;
  for (std::size_t i = 0; i < rs->tiles.types.size(); ++i) index["tiles"][i]["svg"] = view::tile_svg(*rs, static_cast<int>(i), kPx);
  return cache.emplace(key, index.dump()).first->second;
}

std::string rules_json(const std::string& game) {
  const GameDef* g = find_game(game);
  if (!g) throw NotFound(fmt::format("no game \"{}\" (games: {})", printable(game), fmt::join(game_ids(), ", ")));
  const RulesPage* page = nullptr;
  try {
    page = rules_page(game);
  } catch (const InputError& e) {
    throw std::logic_error(e.what());  // shipped data: tests/test_rules_page.cpp checks every game's
  }
  const i18n::Lang lang = i18n::current();
  const auto l = static_cast<std::size_t>(lang);
  json sections = json::array();
  if (page)
    for (const RulesSection& s : page->sections)
      sections.push_back({{"id", s.id}, {"title", s.title[l]}, {"text", s.text[l]}, {"tiles", s.tiles}});
  return json{{"game", g->id},
              {"title", has_message(*g, "game.title") ? say(*g, "game.title") : g->title},
              {"lang", std::string(i18n::code(lang))},
              {"sections", sections}}
      .dump();
}

std::string web_file(std::string_view path) {
  if (path.empty() || path.front() != '/') throw InputError("path: not absolute");
  std::vector<std::string> segs;
  std::size_t at = 1;
  while (at <= path.size()) {
    const std::size_t end = std::min(path.find('/', at), path.size());
    const std::string_view raw = path.substr(at, end - at);
    std::string seg;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != '%') {
        seg += raw[i];
        continue;
      }
      auto hex = [&](std::size_t k) -> int {
        if (k >= raw.size()) return -1;
        const char c = raw[k];
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
      };
      const int hi = hex(i + 1), lo = hex(i + 2);
      if (hi < 0 || lo < 0) throw InputError("path: a % not followed by two hex digits");
      seg += static_cast<char>(hi * 16 + lo);
      i += 2;
    }
    if (!valid_utf8(seg)) throw InputError("path: not UTF-8 once decoded");
    if (seg.find('/') != std::string::npos || seg.find('\\') != std::string::npos || has_control_chars(seg))
      throw InputError("path: an encoded slash, a backslash or a control character");
    if (seg == "..") {
      if (segs.empty()) throw InputError("path: \"..\" above the web root");
      segs.pop_back();
    } else if (!seg.empty() && seg != ".") {
      if (seg.front() == '.') throw NotFound("path: a hidden file");
      segs.push_back(std::move(seg));
    }
    at = end + 1;
  }
  if (segs.empty() || segs.back().find('.') == std::string::npos) return "index.html";
  return fmt::format("{}", fmt::join(segs, "/"));
}

namespace {

// The seats' names in the request's language ("Bot easy" -> «Лёгкий бот»; rules/words.hpp).
std::vector<std::string> shown_names(const Game& g) {
  std::vector<std::string> out;
  for (const PlayerInfo& p : g.record().players) out.push_back(seat_name_words(*g.ruleset().game, p.name));
  return out;
}

// The record without what the game gave (replay derives it).
Record without_results(Record r) {
  r.events.clear();
  r.final_scores.clear();
  r.finished = false;
  r.stated_events.reset();
  r.stated_status.reset();
  return r;
}

// The record's first `step` turns as a record to replay; a turn cut off is whole.
Record first_turns(Record r, int step) {
  r.moves.resize(static_cast<std::size_t>(step));
  if (!r.moves.empty()) r.moves.back().partial = false;
  r.ended.clear();
  return without_results(std::move(r));
}

}  // namespace

std::string whatif_json(const std::string& record_json, const std::string& review_json, int k) {
  const json rv = json::parse(review_json);
  const json* dec = nullptr;
  for (const json& d : rv.at("decisions"))
    if (d.at("index").get<int>() == k) dec = &d;
  if (!dec) throw NotFound(fmt::format("the analysis has no decision {} (decisions with a choice only)", k));
  const Record full = record_from_json(record_json, "record");
  const int move = dec->at("move").get<int>();  // the record's turn it belongs to, from 1
  // the decisions of that turn before this one, as played
  std::vector<std::string> before;
  int n = 0;
  (void)Game::replay(full, std::nullopt, "", [&](const State& s, const Move& m, int move_index) {
    ++n;
    if (move_index + 1 == move && n < k) before.push_back(notation(s, m));
  });
  Game g = Game::replay(first_turns(full, move - 1));
  for (const std::string& text : before) g.play(parse_notation(g.state(), text));
  g.play(parse_notation(g.state(), dec->at("best").at("move").get<std::string>()));
  json one{{"decisions", json::array({*dec})}};  // the decision's moves in words too
  add_move_words(one, record_json);
  return json{{"decision", one["decisions"][0]},
              {"step", move - 1},
              {"view", view::to_json(view::build_view(g, {}, shown_names(g)))}}
      .dump();
}

void add_move_words(json& review, const std::string& record_json) {
  if (!review.is_object() || !review.contains("decisions") || !review["decisions"].is_array()) return;
  std::map<int, json*> by_index;
  for (json& d : review["decisions"])
    if (d.is_object() && d.contains("index") && d["index"].is_number_integer()) by_index[d["index"].get<int>()] = &d;
  const Record full = record_from_json(record_json, "record");
  int n = 0;
  (void)Game::replay(full, std::nullopt, "", [&](const State& s, const Move&, int) {
    const auto it = by_index.find(++n);  // decisions are numbered from 1, as the review counts them
    if (it == by_index.end()) return;
    auto words_of = [&](json& option) {
      if (!option.is_object() || !option.contains("move") || !option["move"].is_string()) return;
      try {
        option["words"] = view::move_words(s, parse_notation(s, option["move"].get<std::string>()));
      } catch (const InputError&) {  // not a move there: left in the notation alone
      }
    };
    json& d = *it->second;
    for (const char* k : {"played", "best"})
      if (d.contains(k)) words_of(d[k]);
    if (d.contains("top") && d["top"].is_array())
      for (json& o : d["top"]) words_of(o);
  });
}

std::string replay_json(const std::string& body) {
  if (body.size() > kMaxRecordBytes + 1024) throw InputError(fmt::format("request: larger than {} bytes", kMaxRecordBytes));
  const json req = jin::parse(body, "request");
  if (!req.is_object() || !req.contains("record")) throw InputError("request: an object with \"record\" (and \"step\") is expected");
  for (const auto& [k, v] : req.items())
    if (k != "record" && k != "step") throw InputError(fmt::format("request: unknown key \"{}\" (keys: record, step)", printable(k)));
  const json& rj = req["record"];
  Record r = record_from_json(rj.is_string() ? rj.get<std::string>() : rj.dump(), "record");
  if (!r.tiles.empty()) throw InputError("record: tiles: the server replays games with their own tile sets only (no \"tiles\" file)");
  const int total = static_cast<int>(r.moves.size());
  int step = total;
  if (const auto it = req.find("step"); it != req.end()) {
    if (!it->is_number_integer() || it->get<long long>() < 0 || it->get<long long>() > total)
      throw InputError(fmt::format("request: step: a whole number from 0 to {} (the record's turns) is expected", total));
    step = it->get<int>();
  }
  const Game g = Game::replay(step < total ? first_turns(std::move(r), step) : without_results(std::move(r)));
  return json{{"steps", total}, {"step", step}, {"view", view::to_json(view::build_view(g, {}, shown_names(g)))}}
      .dump();
}

}  // namespace carc::server
