// tiles: every tile of a game as the engine draws it (one SVG per tile type, rotation 0) plus a
// JSON index with the features, their ports and piece anchors (docs/view.md), so that a browser
// draws boards with the engine's own pictures and holds no copy of the tile geometry.
#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "core/io.hpp"
#include "games/games.hpp"
#include "view/svg.hpp"
#include "view/view.hpp"

namespace carc::cli {

void register_tiles(CLI::App& app) {
  struct Opts {
    std::string game = "base", out, tiles;
    int px = 96;
  };
  auto o = std::make_shared<Opts>();
  auto* c = app.add_subcommand("tiles", "Write every tile's picture (SVG) and a JSON index of their features and piece anchors");
  c->add_option("--game", o->game, fmt::format("Game: {}", fmt::join(game_ids(), ", ")))->capture_default_str();
  c->add_option("-o,--out", o->out, "Folder to write (created if missing): <tile>.svg for each tile type and index.json")->required();
  c->add_option("--tiles", o->tiles, "Tile file to use instead of the game's default");
  add_int_option(c, "--px", o->px, 16, 1024, "Side of a tile picture in pixels");
  c->callback([o] {
    const auto rs = load_ruleset(o->game, {}, o->tiles);
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(o->out, ec);
    if (ec || !fs::is_directory(o->out)) throw InputError(fmt::format("{}: cannot create the folder: {}", printable(o->out), ec ? ec.message() : "not a folder"));
    std::vector<std::string> files;
    for (std::size_t i = 0; i < rs->tiles.types.size(); ++i) {
      const std::string file = view::tile_file_stem(rs->tiles.types[i].id, static_cast<int>(i)) + ".svg";
      write_file_atomic((fs::path(o->out) / file).string(), view::tile_svg(*rs, static_cast<int>(i), o->px));
      files.push_back(file);
    }
    nlohmann::json index = view::tile_catalog(*rs, files);
    index["px"] = o->px;
    write_file_atomic((fs::path(o->out) / "index.json").string(), index.dump(1) + "\n");
    fmt::print("{}: {} tile pictures and index.json for {}\n", printable(o->out), files.size(), rs->game->title);
  });
}

}  // namespace carc::cli
