// render: draw a game record's board (after all moves, or after the first T) as an SVG file.
#include <fmt/format.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "core/i18n.hpp"
#include "view/svg.hpp"

namespace carc::cli {

using view::record_svg_options;
using view::render_svg;
using view::replay_prefix;
using view::SvgOptions;

namespace {
// The output must name an SVG file (the only format written), or be "-" for standard output.
std::string check_output(const std::string& out) {
  if (out == "-") return "";
  std::string ext = std::filesystem::path(out).extension().string();
  for (char& ch : ext) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (ext != ".svg")
    return fmt::format("{}: render writes SVG only: give a file name ending in .svg (or - for standard output)",
                       printable(out));
  return "";
}
}  // namespace

void register_render(CLI::App& app) {
  struct Opts {
    std::string file, out, tiles, lang = "en";
    int turn = 0;
    int tile_px = 64;
  };
  auto o = std::make_shared<Opts>();
  auto* c = app.add_subcommand("render", "Draw a game record's board as an SVG picture");
  c->add_option("file", o->file, "Record (JSON)")->required();
  auto* turn = add_int_option(c, "--turn", o->turn, 0, 1000000,
                              "Draw the board after the first T moves (0: the start board)", false);
  c->add_option("-o,--output", o->out, "SVG file to write (- for standard output)")
      ->required()
      ->check(CLI::Validator(check_output, "FILE.svg|-"));
  c->add_option("--tiles", o->tiles, "Tile file to use instead of the record's (or the game's default)");
  add_int_option(c, "--tile-size", o->tile_px, 16, 512, "Tile side in pixels (16..512)");
  c->add_option("--lang", o->lang, "Language of the picture's words: en, ru, ro (default en)")
      ->check([](const std::string& v) {
        return i18n::parse_lang(v) ? std::string() : "not a language (en, ru, ro): " + v;
      });
  c->callback([o, turn] {
    const i18n::Scope language(*i18n::parse_lang(o->lang));
    const bool to_stdout = o->out == "-";
    if (!to_stdout && std::filesystem::is_directory(o->out))
      throw InputError(fmt::format("{}: is a folder; give the SVG file to write (e.g. {}/board.svg)", printable(o->out),
                                   printable(o->out)));
    Record r = load_record(o->file);
    if (!o->tiles.empty()) r.tiles = o->tiles;
    const std::optional<int> moves = turn->count() > 0 ? std::optional<int>(o->turn) : std::nullopt;
    const Game g = replay_prefix(r, moves, o->file);
    SvgOptions so = record_svg_options(r, g, moves, std::filesystem::path(o->file).filename().string());
    so.tile_px = o->tile_px;
    const std::string svg = render_svg(g.state(), so);
    if (to_stdout) {
      if (std::fwrite(svg.data(), 1, svg.size(), stdout) != svg.size() || std::fflush(stdout) != 0)
        throw InputError("standard output: write failed");
      return;
    }
    write_file_atomic(o->out, svg);  // a failed write keeps any previous file
    fmt::print("{}\n", printable(o->out));
  });
}

}  // namespace carc::cli
