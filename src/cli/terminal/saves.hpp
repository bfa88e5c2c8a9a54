// The terminal game's saved games (src/cli/terminal/saves.cpp): what a save file holds, the
// unfinished games to offer for resuming, and the file of a new game. Internal to src/cli/terminal.
#pragma once
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "engine/engine.hpp"

namespace carc::cli::term {

// Saved games. Each new game gets its own file in the saves folder, named by game, date and time
// and seed (carcassonne-saves/base-20261123-1642-s12345.json); --autosave FILE overrides. The
// single shared file of earlier versions is still offered for resuming.
inline constexpr const char* kSavesDir = "carcassonne-saves";
inline constexpr const char* kOldAutosave = "carcassonne-autosave.json";

struct SaveInfo {
  std::string path;
  std::string title;  // the game's title
  std::vector<PlayerInfo> players;
  std::size_t turns = 0;  // turns played
  bool finished = false;
  std::time_t mtime = 0;
};

// What a file holds, if it is a game record we can read (regular files only, size-capped).
std::optional<SaveInfo> read_save(const std::string& path);
std::string local_time(std::time_t t, const char* format);
// "Carcassonne: You vs Bot (normal), 12 turns played, saved 2026-11-23 16:42" (names made printable)
std::string describe_save(const SaveInfo& si);
// The unfinished games in the saves folder (and the old shared autosave), most recent first.
std::vector<SaveInfo> unfinished_saves();
// A file of its own for a new game in the saves folder (created if missing).
std::string new_save_path(const std::string& game, u64 seed);

}  // namespace carc::cli::term
