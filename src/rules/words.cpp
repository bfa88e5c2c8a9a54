#include "rules/words.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "rules/rules.hpp"

namespace carc {

namespace {
constexpr std::string_view kGeneric =
#include "messages_generic.inc"
    ;
}  // namespace

const i18n::Catalog& generic_messages() {
  static const i18n::Catalog& c = i18n::catalog(kGeneric, "src/rules/messages.json");
  return c;
}

const i18n::Catalog* game_messages(const GameDef& g) {
  if (g.present.messages.empty()) return nullptr;
  // every sentence asks for its game's catalog: the last one found, per thread, spares the lock
  // and the name of the shared lookup. Known by its compiled-in text, not by the GameDef's address:
  // a game says its help while its GameDef is built, in a local that another game's may reuse.
  thread_local const char* last_text = nullptr;
  thread_local const i18n::Catalog* last = nullptr;
  if (last_text != g.present.messages.data()) {
    last = &i18n::catalog(g.present.messages, g.id + "/messages.json");
    last_text = g.present.messages.data();
  }
  return last;
}

std::string say(const GameDef& g, std::string_view id, const MsgArgs& args) {
  return i18n::say({game_messages(g), &generic_messages()}, id, args);
}

std::string say(const State& s, std::string_view id, const MsgArgs& args) { return say(*s.rs->game, id, args); }

std::string say(std::string_view id, const MsgArgs& args) { return i18n::say({&generic_messages()}, id, args); }

bool has_message(const GameDef& g, std::string_view id) {
  const i18n::Catalog* c = game_messages(g);
  return (c && c->has(id)) || generic_messages().has(id);
}

namespace {
std::string word(const GameDef& g, std::string_view kind, std::string_view name) {
  std::string id = fmt::format("{}.{}", kind, name);
  for (char& c : id) c = c == ' ' ? '_' : c;
  return has_message(g, id) ? say(g, id) : std::string(name);
}
}  // namespace

std::string feature_word(const GameDef& g, std::string_view name) { return word(g, "feature", name); }
std::string piece_word(const GameDef& g, std::string_view name) { return word(g, "piece", name); }

std::string feature_form(const GameDef& g, std::string_view name, std::string_view form) {
  std::string id = fmt::format("feature.{}.{}", name, form);
  std::replace(id.begin(), id.end(), ' ', '_');
  return has_message(g, id) ? say(g, id) : feature_word(g, name);
}

std::string symbols_word(const GameDef& g, std::string_view name, int n) {
  const std::string id = fmt::format("symbol.{}", name);
  if (has_message(g, id)) return say(g, id, {{"n", n}});
  return n == 1 ? fmt::format("1 {}", name) : fmt::format("{} {}", n, plural_noun(std::string(name)));
}

std::string track_word(const GameDef& g) {
  const std::string id = "track." + g.track_name;
  return has_message(g, id) ? say(g, id) : g.track_name;
}

std::string noun_word(const GameDef& g, std::string_view name) {
  std::string id = fmt::format("noun.{}", name);
  std::replace(id.begin(), id.end(), ' ', '_');
  return has_message(g, id) ? say(g, id) : std::string(name);
}

std::string seat_name_words(const GameDef& g, const std::string& stored) {
  auto number = [](std::string_view t) -> int {  // "12" -> 12; 0 if not a small whole number
    if (t.empty() || t.size() > 3) return 0;
    int n = 0;
    for (const char c : t) {
      if (c < '0' || c > '9') return 0;
      n = n * 10 + (c - '0');
    }
    return n;
  };
  if (stored.rfind("Player ", 0) == 0)
    if (const int n = number(std::string_view(stored).substr(7)); n > 0) return say(g, "seat.player", {{"n", n}});
  if (stored.rfind("Bot ", 0) != 0) return stored;
  std::string_view rest = std::string_view(stored).substr(4);
  int n = 0;
  if (const std::size_t hash = rest.find(" #"); hash != std::string_view::npos) {
    n = number(rest.substr(hash + 2));
    if (n == 0) return stored;
    rest = rest.substr(0, hash);
  }
  const std::string id = fmt::format("bot.name.{}", rest);
  if (!has_message(g, id)) return stored;
  return n > 0 ? say(g, "bot.numbered", {{"name", say(g, id)}, {"n", n}}) : say(g, id);
}

std::string seat_ref(int seat) { return fmt::format("{{p{}}}", seat); }

std::string with_seat_names(std::string text, const std::vector<std::string>& names) {
  for (std::size_t at = text.find("{p"); at != std::string::npos; at = text.find("{p", at)) {
    const std::size_t e = text.find('}', at);
    if (e == std::string::npos || e == at + 2 || e > at + 4) {
      at += 2;
      continue;
    }
    int seat = 0;
    bool digits = true;
    for (std::size_t k = at + 2; k < e; ++k) {
      digits = digits && text[k] >= '0' && text[k] <= '9';
      seat = seat * 10 + (text[k] - '0');
    }
    if (!digits) {
      at += 2;
      continue;
    }
    const std::string name = static_cast<std::size_t>(seat) < names.size() ? names[static_cast<std::size_t>(seat)]
                                                                           : say("player.n", {{"n", seat + 1}});
    text.replace(at, e - at + 1, name);
    at += name.size();
  }
  return text;
}

}  // namespace carc
