// The terminal game of `play` (src/cli/play.cpp registers the subcommand): seats of humans and
// bots in any mix (hot seat allowed), each decision asked of the player who makes it (bots at
// once, people at a prompt), the screen of each turn, undo, and the record saved after every turn,
// so that `quit`, end of input or a closed terminal leave a file that --resume continues.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/core.hpp"
#include "core/i18n.hpp"

namespace carc::cli {

// The options of `play` (carcassonne play --help).
struct PlayOptions {
  std::string game = "base";
  std::string tiles;
  int players = 0;
  std::string seats;
  std::string level;  // the default opponents' strength: easy, normal, hard
  std::vector<std::string> names;
  std::optional<u64> seed;
  std::vector<std::string> options;
  std::string autosave;
  std::string resume;
  bool overwrite = false;  // --overwrite: a new game may replace an existing --autosave file
  bool no_color = false;
  int width = 0;
  int rows = 0;                      // terminal lines to draw for (0: the terminal's; none: no fitting)
  i18n::Lang lang = i18n::Lang::En;  // --lang: the language of its words
  // --hints / --no-hints: whether `hint` may be used (default: on with one person at the table,
  // off between people unless --hints says they all agreed); fixed at the game's creation
  int hints = -1;            // -1: not given
  int hint_playouts = 1000;  // --hint-playouts: the search behind a hint and the end's review
};

// Plays a game in the terminal until it ends or the player quits.
void run_play(const PlayOptions& o);

}  // namespace carc::cli
