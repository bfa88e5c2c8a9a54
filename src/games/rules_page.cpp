#include "games/rules_page.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

#include "core/io.hpp"
#include "core/json_input.hpp"
#include "games/games.hpp"

namespace carc {

namespace {

using nlohmann::json;

constexpr std::size_t kMaxTitleBytes = 200;
constexpr std::size_t kMaxParagraphBytes = 2000;
constexpr std::size_t kMaxParagraphs = 12;
constexpr std::size_t kMaxSections = 40;
constexpr std::size_t kMaxTiles = 8;

std::string language_list() {
  std::vector<std::string> codes;
  for (const i18n::Lang l : i18n::kAllLangs) codes.emplace_back(i18n::code(l));
  return fmt::format("{}", fmt::join(codes, ", "));
}

std::string pseudo_of(const std::string& en) { return i18n::pseudo(en); }
std::vector<std::string> pseudo_of(const std::vector<std::string>& en) {
  std::vector<std::string> out;
  for (const std::string& p : en) out.push_back(i18n::pseudo(p));
  return out;
}

// {"en": V, "ru": V, "ro": V}: every language, no other key; `one` reads each value.
template <class T, class Read>
std::array<T, i18n::kLangs> by_language(const json& v, const std::string& where, std::string_view key, Read one) {
  if (!v.is_object())
    jin::fail(where, key,
              fmt::format("expected an object with a text for each language ({}), not {}", language_list(),
                          jin::type_name(v)));
  for (const auto& [k, _] : v.items()) {
    const auto l = i18n::parse_lang(k);
    if (!l || i18n::code(*l) != k || *l == i18n::Lang::Xx)
      jin::fail(where, key, fmt::format("\"{}\" is not a language (languages: {})", printable(k), language_list()));
  }
  std::array<T, i18n::kLangs> out{};
  for (const i18n::Lang l : i18n::kAllLangs) {
    const auto it = v.find(std::string(i18n::code(l)));
    if (it == v.end())
      jin::fail(where, key,
                fmt::format("no \"{}\" text (every language is needed: {})", i18n::code(l), language_list()));
    out[static_cast<std::size_t>(l)] = one(*it, fmt::format("{}.{}", key, i18n::code(l)));
  }
  out[static_cast<std::size_t>(i18n::Lang::Xx)] = pseudo_of(out[0]);  // the pseudo-locale's: from English
  return out;
}

std::string nonempty(const json& v, const std::string& where, const std::string& key, std::size_t max_len) {
  std::string s = jin::string(v, where, key, max_len);
  if (s.find_first_not_of(" ") == std::string::npos) jin::fail(where, key, "an empty text");
  return s;
}

}  // namespace

RulesPage parse_rules_page(std::string_view json_text, std::string_view where_in,
                           const std::vector<std::string>& tile_ids) {
  const std::string where(where_in);
  const json doc = jin::parse(json_text, where);
  if (!doc.is_object())
    jin::fail(where, "", fmt::format("expected an object {{\"sections\": [...]}}, not {}", jin::type_name(doc)));
  for (const auto& [k, _] : doc.items())
    if (k != "sections") jin::fail(where, "", fmt::format("unknown key \"{}\" (keys: sections)", printable(k)));
  const auto secs = doc.find("sections");
  if (secs == doc.end() || !secs->is_array() || secs->empty())
    jin::fail(where, "sections", "expected a list of sections, at least one");
  if (secs->size() > kMaxSections)
    jin::fail(where, "sections", fmt::format("{} sections; at most {}", secs->size(), kMaxSections));
  RulesPage page;
  for (std::size_t i = 0; i < secs->size(); ++i) {
    const json& s = (*secs)[i];
    std::string at = fmt::format("{}: sections[{}]", where, i);
    if (!s.is_object())
      jin::fail(
          at, "",
          fmt::format("expected an object {{\"id\", \"title\", \"text\", \"tiles\"}}, not {}", jin::type_name(s)));
    // errors name the section by its id once it has one
    if (const auto id = s.find("id"); id != s.end() && id->is_string())
      at = fmt::format("{}: section \"{}\"", where, printable(id->get<std::string>().substr(0, 40)));
    for (const auto& [k, _] : s.items())
      if (k != "id" && k != "title" && k != "text" && k != "tiles")
        jin::fail(at, "", fmt::format("unknown key \"{}\" (keys: id, title, text, tiles)", printable(k)));
    for (const char* k : {"id", "title", "text"})
      if (!s.contains(k)) jin::fail(at, "", fmt::format("no \"{}\"", k));
    RulesSection sec;
    sec.id = jin::string(s["id"], at, "id", 40);
    if (sec.id.empty() || sec.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") != std::string::npos)
      jin::fail(at, "id", fmt::format("\"{}\" is not an id (a-z, 0-9, _ and -)", printable(sec.id)));
    for (const RulesSection& other : page.sections)
      if (other.id == sec.id) jin::fail(at, "id", fmt::format("\"{}\" names an earlier section too", sec.id));
    sec.title = by_language<std::string>(s["title"], at, "title", [&](const json& v, const std::string& key) {
      return nonempty(v, at, key, kMaxTitleBytes);
    });
    sec.text = by_language<std::vector<std::string>>(s["text"], at, "text", [&](const json& v, const std::string& key) {
      if (!v.is_array() || v.empty())
        jin::fail(at, key, fmt::format("expected a list of paragraphs, at least one, not {}", jin::type_name(v)));
      if (v.size() > kMaxParagraphs)
        jin::fail(at, key, fmt::format("{} paragraphs; at most {}", v.size(), kMaxParagraphs));
      std::vector<std::string> paras;
      for (std::size_t p = 0; p < v.size(); ++p)
        paras.push_back(nonempty(v[p], at, fmt::format("{}[{}]", key, p), kMaxParagraphBytes));
      return paras;
    });
    const std::size_t n = sec.text[0].size();
    for (const i18n::Lang l : i18n::kAllLangs)
      if (sec.text[static_cast<std::size_t>(l)].size() != n)
        jin::fail(at, fmt::format("text.{}", i18n::code(l)),
                  fmt::format("{} paragraphs, but English has {} (each paragraph is translated)",
                              sec.text[static_cast<std::size_t>(l)].size(), n));
    if (const auto t = s.find("tiles"); t != s.end()) {
      if (!t->is_array())
        jin::fail(at, "tiles", fmt::format("expected a list of tile ids, not {}", jin::type_name(*t)));
      if (t->size() > kMaxTiles) jin::fail(at, "tiles", fmt::format("{} tiles; at most {}", t->size(), kMaxTiles));
      for (std::size_t k = 0; k < t->size(); ++k) {
        const std::string key = fmt::format("tiles[{}]", k);
        std::string id = jin::string((*t)[k], at, key);
        if (std::find(tile_ids.begin(), tile_ids.end(), id) == tile_ids.end())
          jin::fail(at, key, fmt::format("\"{}\" is not a tile of the game's tile set", printable(id)));
        if (std::find(sec.tiles.begin(), sec.tiles.end(), id) != sec.tiles.end())
          jin::fail(at, key, fmt::format("\"{}\" is listed twice", printable(id)));
        sec.tiles.push_back(std::move(id));
      }
    }
    page.sections.push_back(std::move(sec));
  }
  return page;
}

const RulesPage* rules_page(std::string_view game) {
  const std::string_view text = game_rules_text(game);
  if (text.empty()) return nullptr;
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<const RulesPage>, std::less<>> cache;
  const std::lock_guard lock(mu);
  if (const auto it = cache.find(game); it != cache.end()) return it->second.get();
  std::vector<std::string> ids;
  for (const TileType& t : load_ruleset(game, {})->tiles.types) ids.push_back(t.id);
  const std::string where = fmt::format("{}/rules.json", game_folder(game));
  auto page = std::make_unique<const RulesPage>(parse_rules_page(text, where, ids));
  return cache.emplace(std::string(game), std::move(page)).first->second.get();
}

}  // namespace carc
