// What a player types in the terminal game (part of `play`, src/cli/terminal/): the parsers of the
// placement, piece and choice prompts, and the help and board legend. Pure functions, testable
// without a terminal.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/engine.hpp"

#include "cli/terminal/board.hpp"

namespace carc::cli {

// What a player typed at the Choose prompt: a number from render_choices' list, a label of
// choice_cells, what an option names as listed ("TOKEN", "N at 3,-1"), the game's shorthand
// (parse_alias: "D2 180", "l", "3 1") or the engine's notation. `move` is the legal Choose move
// and `option` its text as listed; on failure `error` says what is wrong.
struct ParsedChoice {
  std::string option;
  Move move;
  std::string error;
};
ParsedChoice parse_choice(std::string_view text, const State& s);

// The twelve ports and C around a tile.
std::string port_diagram();
// The base game's help; help_text(s) is the same for the base game and adds a game's own sections
// (Presentation::help: its choices, actions and notes; the piece section for two kinds of piece or
// a cell to name), its panels by name and its board legend.
std::string help_text();
std::string help_text(const State& s);
// What the board's glyphs mean in this game, built from its feature types (a few lines).
std::string board_legend(const GameDef& g);

// What a player typed at the placement prompt: "3 -1 90", "3,-1 r90", "(3,-1) 90", "a 90",
// "a" or "3 -1" (when exactly one rotation fits there). On failure `error` says what is wrong.
struct ParsedPlacement {
  int x = 0, y = 0, rot = 0;  // rot in degrees
  std::string error;
};
ParsedPlacement parse_placement(std::string_view text, const std::vector<Candidate>& cands);

// What a player typed at the follower prompt: a port name (any case), "none"/"pass"/"-", or a
// feature type name ("road") when exactly one free spot has that type. `port` is "none" for a pass.
// On a turn with several tiles (a double tile) a cell may follow: "N at 9,0", "N 9,0",
// "N 9 0"; `at` is then that cell (also when only one of the turn's tiles has a free spot at the
// port). In a game with two piece kinds, a piece name (GameDef::piece_names) picks its only free spot.
//
// A game with networks: "PIECE N" or "N PIECE" (PIECE: the piece kind claiming networks) puts such
// a piece on the network through the feature at N (`piece` is then its name; pass it to
// Game::piece_at); "PIECE" alone picks the only such spot;
// "N" alone is a piece of the first kind (an unclaimable feature takes none: the error says to type
// "PIECE C"); a role (FeatureTypeDef::role) names the free feature of its type.
struct ParsedPort {
  std::string port;
  std::optional<std::pair<int, int>> at;  // the tile's cell, when the player must or did name it
  std::string piece;                      // "" the feature's own piece; else the piece claiming its network
  std::string error;
};
ParsedPort parse_port(std::string_view text, const State& s);
// What a player typed at the piece prompt with the words of their language put in the notation's
// ("дорога N" -> "road n", "drum" -> "road", "нет" -> "none"): feature types, roles and pieces in
// the singular and the plural, and the words for none ("typed.none"); folded to small letters.
std::string typed_in_notation(const GameDef& g, std::string_view text);
// Typed text folded for comparing words: ASCII, Cyrillic and Romanian capitals to small letters,
// "ё" to "е", the cedilla forms "ş ţ" to the comma forms "ș ț".
std::string fold_typed(std::string_view in);

}  // namespace carc::cli
