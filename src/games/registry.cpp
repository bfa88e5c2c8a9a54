#include <fmt/format.h>

#include <cstdlib>
#include <map>
#include <mutex>

#include "games/game_table.hpp"
#include "games/games.hpp"

#ifndef CARC_SOURCE_DATA_DIR
#define CARC_SOURCE_DATA_DIR "data"
#endif
#ifndef CARC_SOURCE_DIR
#define CARC_SOURCE_DIR "."
#endif

namespace carc {

namespace {
// Games of tests/games/GAMES are compiled in but seen only when CARCASSONNE_TEST_GAMES=1 (read on
// every call: a test may set it in its own process).
bool visible(const GameEntry& e) {
  if (!e.test_only) return true;
  const char* on = std::getenv("CARCASSONNE_TEST_GAMES");
  return on && std::string_view(on) == "1";
}
}  // namespace

const GameDef* find_game(std::string_view id) {
  for (const GameEntry& e : game_table())
    if (e.id == id && visible(e)) return &e.def();
  return nullptr;
}

std::vector<std::string> game_ids() {
  std::vector<std::string> ids;
  for (const GameEntry& e : game_table())
    if (visible(e)) ids.emplace_back(e.id);
  return ids;
}

std::string_view game_rules_text(std::string_view id) {
  for (const GameEntry& e : game_table())
    if (e.id == id && visible(e)) return e.rules;
  return {};
}

std::string_view game_folder(std::string_view id) {
  for (const GameEntry& e : game_table())
    if (e.id == id && visible(e)) return e.dir;
  return {};
}

bool is_test_game(std::string_view id) {
  for (const GameEntry& e : game_table())
    if (e.id == id && visible(e)) return e.test_only;
  return false;
}

std::string data_dir() {
  if (const char* d = std::getenv("CARCASSONNE_DATA"); d && *d) return d;
  return CARC_SOURCE_DATA_DIR;
}

std::shared_ptr<const Ruleset> load_ruleset(std::string_view game, const std::vector<std::string>& settings,
                                            const std::string& tiles_path) {
  const GameDef* g = find_game(game);
  if (!g) throw InputError(fmt::format("unknown game \"{}\" (games: {})", game, fmt::join(game_ids(), ", ")));
  const auto opts = resolve_options(*g, settings);
  // a shipped game's tile file is data_dir()/tiles/<id>.tiles.json; a test-only game's lies in its
  // folder (tests/games/<id>/<id>.tiles.json)
  std::string path = tiles_path.empty() ? fmt::format("{}/tiles/{}.tiles.json", data_dir(), g->id) : tiles_path;
  if (tiles_path.empty())
    for (const GameEntry& e : game_table())
      if (e.id == g->id && e.test_only) path = fmt::format("{}/{}/{}.tiles.json", CARC_SOURCE_DIR, e.dir, e.id);
  // the shipped tile files are read once per process and options (a server replays many games);
  // a tile file given by path is read every time (it may change between calls)
  static std::mutex mu;
  static std::map<std::pair<std::string, std::vector<std::string>>, std::shared_ptr<const Ruleset>> cache;
  std::vector<std::string> key_opts;
  for (const auto& [k, v] : opts) key_opts.push_back(fmt::format("{}={}", k, v));
  const auto key = std::pair{path, key_opts};
  if (tiles_path.empty()) {
    const std::lock_guard lock(mu);
    if (const auto it = cache.find(key); it != cache.end()) return it->second;
  }
  TileSet ts = load_tileset(path, g->ftypes, g->tile_kinds, g->specials);
  if (ts.game != g->id) throw InputError(fmt::format("{}: tile file is for game \"{}\", not \"{}\"", path, ts.game, g->id));
  auto rs = make_ruleset(*g, std::move(ts), opts);
  rs->tiles_file = tiles_path;
  if (tiles_path.empty()) {
    const std::lock_guard lock(mu);
    cache.emplace(key, rs);
  }
  return rs;
}

}  // namespace carc
