// SVG drawing of a board and of single tiles (render, the tile catalog, the server's pictures),
// with the game's look (view/look.hpp, docs/look.md): no game is named here.
//
// Everything is drawn from the tile data (ports, feature classes, attributes), no bitmaps and never
// from tile ids (fills textured with the look's patterns, written once in a <defs>: docs/look.md,
// "Textures"): each placed tile is one <g class="tile"> holding its fields (the background),
// claimable paths (lines from the middle ports to the centre, or one curve for a two-port path;
// a path the look ends round ends in a round stop), paths nobody claims (a wide band
// <g class="river">), areas (one polygon per feature covering its sides, with a wall along the
// inner edge; the slot-0 symbol drawn as the look's badge), point features (the look's glyph or a
// building at C), fresh water (claimable paths joining networks drawn as water into their lakes or
// from a <circle class="spring">; centre features as ovals <g class="water">). Every other symbol
// is one <g class="symbol NAME" data-feature="F"> with the look's glyph (a lettered disc if none)
// laid out in its own feature's part of the tile; covered symbols are faded, crossed and carry
// data-covered="1". A feature's special is a labelled <g class="special"> badge; a tile kind named
// with "!" gets a <g class="bang"> mark; a two-cell tile a dashed <rect class="double">; the tiles of
// the last turn a <rect class="last">.
// Pieces are <g class="follower [farmer] [NAME]" data-player data-feature> with the look's glyph
// for the piece in the owner's colour at its anchor (a first-kind piece on a field lies down).
// Overlays (View::overlays) are <g class="overlay GLYPH [done]" data-overlay="ID" data-at data-x
// data-y> round their cell's centre or grid point, their parts <g class="part GLYPH"
// [data-player]>. The game's track is a river (<g class="track">: <rect class="bank">,
// <path class="water">, the sea past the last space <path class="sea">), its spaces on the water
// (<g class="space" data-space="K">), overlays on it afloat above their spaces
// (<g class="overlay ..." data-at="track" data-player data-space>).
// When players hold things besides pieces, a side panel (<g class="panel">) shows per player
// (<g class="hand" data-player>) the score, the pieces in supply and each kind held
// (<g class="hand-token KIND" data-kind data-count>), then the game's summary lines. A look with a
// key gets <g class="key"> under the scores.
// Board conventions: x grows east, y grows SOUTH, rotation is clockwise (the rotated port table of
// each tile is used, so nothing is rotated twice).
#pragma once
#include <array>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.hpp"
#include "view/view.hpp"

namespace carc::view {

// Seat colours: red, blue, yellow, green, black.
inline constexpr std::array<std::string_view, kMaxPlayers> kSeatColours = {"#d62728", "#1f5fd6", "#f2c200", "#1a9a3a",
                                                                         "#1b1b1b"};
inline constexpr std::array<std::string_view, kMaxPlayers> kSeatColourNames = {"red", "blue", "yellow", "green",
                                                                             "black"};

struct SvgOptions {
  int tile_px = 64;                       // side of one tile in pixels
  std::string title;                      // first heading line; empty: the game's title
  std::string subtitle;                   // e.g. "after move 12 of 71"; the game status is appended
  std::vector<std::string> player_names;  // by seat; missing names read "player N"
  bool highlight_last = true;             // frame the last placed tile
  bool coords = true;                     // x,y label in each tile and axis labels
  bool key = true;                        // a key to the symbols (games with specials)
};

// What tile pictures refer to by id: the look's textures (<pattern>). Ids are made from the content
// ("tx" and a hash), so two tiles drawn in one document share them, and `ids` keeps each written once.
struct ArtDefs {
  std::set<std::string> ids;
  std::string text;  // the elements, to go inside one <defs>
};

// One tile type's picture at rotation `rot` in a t x t box at the origin (SVG elements, no
// document): fields, paths, areas, symbols and specials, as the board draws it. covered_feats: bit
// f set when feature f's symbols are covered (a game's effect covered them). With `defs`, what the
// picture refers to by id is added there (the caller writes it in the document's <defs>); without,
// the picture starts with its own <defs>.
void draw_tile_art(std::string& out, const Ruleset& rs, int type, int rot, double t, u32 covered_feats = 0,
                   ArtDefs* defs = nullptr);
// One tile type at rotation 0 as a standalone SVG document px pixels square (`carcassonne tiles`,
// the browser's pictures). Rotate it about its centre for the other rotations.
std::string tile_svg(const Ruleset& rs, int type, int px = 96);

// A whole board as a standalone SVG document (starts with "<svg", ends with "</svg>\n"), drawn
// from the view `v` of a game played with ruleset `rs`, with the game's look.
std::string render_svg(const View& v, const Ruleset& rs, const SvgOptions& o);
// The same for a state (its view built without options or features).
std::string render_svg(const State& s, const SvgOptions& o);

// Replays the first `moves` moves of a record (every move without a value). The record's draws
// stay, so a game cut short waits at the next drawn tile. Throws InputError naming `where` if the
// move count is out of range or the record does not replay.
Game replay_prefix(const Record& r, std::optional<int> moves, const std::string& where);

// Heading options for a record replayed up to `moves` moves (nullopt: all of them).
SvgOptions record_svg_options(const Record& r, const Game& g, std::optional<int> moves, const std::string& where);

}  // namespace carc::view
