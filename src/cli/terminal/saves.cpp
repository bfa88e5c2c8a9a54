// Saved games of the terminal game (saves.hpp): reading, listing and naming save files.
#include "cli/terminal/saves.hpp"
#include <fmt/format.h>
#include "cli/terminal/words.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <ctime>
#include <filesystem>
#include <optional>

#include "core/io.hpp"
#include "engine/engine.hpp"

namespace carc::cli::term {

// What a file holds, if it is a game record we can read (regular files only, size-capped).
std::optional<SaveInfo> read_save(const std::string& path) {
  try {
    const Record r = record_from_json(read_input_file(path, kMaxRecordBytes, "record"), path);
    SaveInfo si;
    si.path = path;
    const GameDef* gd = find_game(r.game);
    si.title = !gd ? r.game : has_message(*gd, "game.title") ? say(*gd, "game.title") : gd->title;
    si.players = r.players;
    si.turns = r.moves.size();
    si.finished = r.finished;
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) si.mtime = st.st_mtime;
    return si;
  } catch (const std::exception&) {
    return std::nullopt;  // not a record (or unreadable): not offered
  }
}

std::string local_time(std::time_t t, const char* format) {
  std::tm tm{};
  localtime_r(&t, &tm);
  std::array<char, 64> buf{};
  const std::size_t n = std::strftime(buf.data(), buf.size(), format, &tm);
  return std::string(buf.data(), n);
}

// "Carcassonne: You vs Bot (normal), 12 turns played, saved 2026-11-23 16:42" (names made printable)
std::string describe_save(const SaveInfo& si) {
  std::vector<std::string> names;
  for (const auto& p : si.players) names.push_back(printable(p.name));
  return cli_say("save.describe",
                 {{"title", printable(si.title)},
                  {"names", fmt::format("{}", fmt::join(names, " vs "))},
                  {"turns", si.turns},
                  {"saved", si.mtime ? cli_say("save.saved_at", {{"when", local_time(si.mtime, "%Y-%m-%d %H:%M")}})
                                     : std::string()}});
}

// The unfinished games in the saves folder (and the old shared autosave), most recent first.
std::vector<SaveInfo> unfinished_saves() {
  std::vector<std::string> files;
  std::error_code ec;
  if (std::filesystem::is_directory(kSavesDir, ec))
    for (const auto& e : std::filesystem::directory_iterator(kSavesDir, ec)) {
      if (files.size() >= 1000) break;  // a folder this full is not ours to read through
      std::error_code ec2;
      if (e.path().extension() == ".json" && e.is_regular_file(ec2)) files.push_back(e.path().string());
    }
  if (std::filesystem::is_regular_file(kOldAutosave, ec)) files.emplace_back(kOldAutosave);
  std::vector<SaveInfo> out;
  for (const auto& f : files)
    if (auto si = read_save(f); si && !si->finished) out.push_back(std::move(*si));
  std::sort(out.begin(), out.end(), [](const SaveInfo& a, const SaveInfo& b) {
    return a.mtime != b.mtime ? a.mtime > b.mtime : a.path < b.path;
  });
  return out;
}

// A file of its own for a new game in the saves folder (created if missing).
std::string new_save_path(const std::string& game, u64 seed) {
  std::error_code ec;
  std::filesystem::create_directories(kSavesDir, ec);
  if (!std::filesystem::is_directory(kSavesDir))
    throw InputError(
        fmt::format("cannot create the folder {} for saved games ({}); save the game elsewhere with --autosave FILE",
                    kSavesDir, ec ? ec.message() : std::string("a file of that name is in the way")));
  const std::string stem =
      fmt::format("{}/{}-{}-s{}", kSavesDir, game, local_time(std::time(nullptr), "%Y%m%d-%H%M"), seed);
  std::string path = stem + ".json";
  for (int k = 2; std::filesystem::exists(std::filesystem::symlink_status(path, ec)); ++k)
    path = fmt::format("{}-{}.json", stem, k);
  return path;
}

}  // namespace carc::cli::term
