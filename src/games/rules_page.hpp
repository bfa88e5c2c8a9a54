// A game's rules page for players (docs/architecture.md, "Adding a game"): its folder's rules.json,
// compiled in, in English, Russian and Romanian: sections (the turn, each feature and how it
// scores, the game's own pieces and rules), each with its paragraphs and tiles of the game's own
// tile set to draw beside it. The server serves it (GET /api/rules/GAME); the browser draws it.
#pragma once
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "core/i18n.hpp"

namespace carc {

struct RulesSection {
  std::string id;                                           // a-z 0-9 _ -, unique in the page
  std::array<std::string, i18n::kLangs> title;              // by language (i18n::Lang)
  std::array<std::vector<std::string>, i18n::kLangs> text;  // paragraphs, as many in every language
  std::vector<std::string> tiles;                           // tile ids of the game's tile set
};

struct RulesPage {
  std::vector<RulesSection> sections;
};

// Parses and checks a rules page: {"sections": [{"id", "title", "text", "tiles"}]}; "title" is
// {"en": text, "ru": text, "ro": text}, "text" the same with a list of paragraphs for each, and
// "tiles" (optional) a list of tile ids, each one of `tile_ids`. Throws InputError naming `where`,
// the section and the key for an unknown key, a missing or unknown language, an empty text, a
// different number of paragraphs between languages, a repeated section id or an unknown tile.
RulesPage parse_rules_page(std::string_view json_text, std::string_view where,
                           const std::vector<std::string>& tile_ids);

// The rules page of a game find_game() knows, parsed and checked against its shipped tile set once
// per process; nullptr for a game without a rules.json or an unknown id. Throws InputError when the
// page is not valid.
const RulesPage* rules_page(std::string_view game);

}  // namespace carc
