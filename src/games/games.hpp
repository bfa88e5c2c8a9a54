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

namespace games {
// Safari's token species by index (monkey, elephant, giraffe, lion, zebra).
const std::array<std::string, kTokenKinds>& safari_species();
// Points for n different species on a completed Safari trail or bush: 0, 1, 3, 6, 10, 15.
int safari_species_points(int n);
// What a Safari trail/bush would score for its majority if completed now (species + birds).
int safari_completed_value(const State& s, int root);
// Amazonas boat places: dense ranks (1 = furthest downstream); with 2 players a 2nd boat not
// directly behind the 1st has no place (0). Used by Amazon scoring, the river mouth and the UI.
std::array<int, kMaxPlayers> amazonas_boat_ranks(const State& s);
// Amazonas double tiles still set aside (tile types of their first cells, in file order).
StaticVec<u8, 64> amazonas_aside_tiles(const State& s);
}

}  // namespace carc
