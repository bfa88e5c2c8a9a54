// render: draw a game record's board (after all moves, or after the first T) as an SVG file.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <optional>

#include "cli/commands.hpp"
#include "cli/svg.hpp"

namespace carc::cli {

void register_render(CLI::App& app) {
  struct Opts {
    std::string file, out, tiles;
    int turn = 0;
    int tile_px = 64;
  };
  auto o = std::make_shared<Opts>();
  auto* c = app.add_subcommand("render", "Draw a game record's board as an SVG picture");
  c->add_option("file", o->file, "Record (JSON)")->required();
  auto* turn = c->add_option("--turn", o->turn, "Draw the board after the first T moves (0: the start board)");
  c->add_option("-o,--output", o->out, "SVG file to write")->required();
  c->add_option("--tiles", o->tiles, "Tile file to use instead of the record's (or the game's default)");
  c->add_option("--tile-size", o->tile_px, "Tile side in pixels (16..512)")->capture_default_str();
  c->callback([o, turn] {
    if (o->tile_px < 16 || o->tile_px > 512) throw InputError(fmt::format("--tile-size {} is not in 16..512", o->tile_px));
    Record r = load_record(o->file);
    if (!o->tiles.empty()) r.tiles = o->tiles;
    const std::optional<int> moves = turn->count() > 0 ? std::optional<int>(o->turn) : std::nullopt;
    const Game g = replay_prefix(r, moves, o->file);
    SvgOptions so = record_svg_options(r, g, moves, std::filesystem::path(o->file).filename().string());
    so.tile_px = o->tile_px;
    const std::string svg = render_svg(g.state(), so);
    std::ofstream out(o->out, std::ios::binary);
    if (!out) throw InputError(fmt::format("{}: cannot write", o->out));
    out << svg;
    out.close();
    if (!out) throw InputError(fmt::format("{}: write failed", o->out));
    fmt::print("{}\n", o->out);
  });
}

}  // namespace carc::cli
