// games: each game's data preset (feature types, pieces, options) and hooks, and the registry that
// finds a game and its tile file by name. Depends on rules; nothing below depends on it.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "rules/rules.hpp"

namespace carc {

// The games of src/games/GAMES, in its order (docs/architecture.md, "Adding a game"); with
// CARCASSONNE_TEST_GAMES=1 also those of tests/games/GAMES. find_game: nullptr for any other id.
const GameDef* find_game(std::string_view id);
std::vector<std::string> game_ids();

// The text of the game's rules page (its folder's rules.json, compiled in; games/rules_page.hpp
// reads it): "" for a game without one or an id find_game does not know.
std::string_view game_rules_text(std::string_view id);
// Its folder in the source tree ("src/games/base"), "" for an id find_game does not know.
std::string_view game_folder(std::string_view id);
// Whether it is a test-only game (tests/games/GAMES); false for an id find_game does not know.
bool is_test_game(std::string_view id);

// The folder holding data/tiles: $CARCASSONNE_DATA if set, else the source tree's data folder.
std::string data_dir();
// Load a game's ruleset from its tile file (data_dir()/tiles/<id>.tiles.json unless tiles_path
// is given), with "name=value" option settings. Throws InputError.
std::shared_ptr<const Ruleset> load_ruleset(std::string_view game, const std::vector<std::string>& settings,
                                            const std::string& tiles_path = "");

}  // namespace carc
