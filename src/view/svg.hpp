// SVG drawing of a board for `render` (owned by the render command).
//
// Everything is drawn from the tile data (ports, feature classes, attributes), no bitmaps and never
// from tile ids: each placed tile is one <g class="tile"> holding its fields (the background),
// roads and other claimable paths (lines from the middle ports to the centre, or one curve for a
// two-port path; Amazonas tributaries narrow and light blue), rivers nobody claims (the Amazon: a
// wide blue band <g class="river">, round where it rises inside a tile), cities and other areas
// (one polygon per feature covering its sides, with a wall along the inner edge; villages ochre),
// monasteries (a small building at C) and shields. Every other attribute unit is one
// <g class="symbol NAME" data-feature="F"> glyph (fruit, boat, animal, caiman, piranha; other
// names a lettered disc) laid out inside its own feature's part of the tile. A tile kind whose
// name holds "!" gets a <g class="bang"> mark; a tile of two cells (TileType::east) a dashed
// <rect class="double"> round both cells; the tiles of the last turn a <rect class="last">.
// Pieces are <g class="follower ..."> elements in the owner's seat colour at a port of their
// feature: kind 0 a meeple (farmers lie on their side), kind 1 a tent (Amazonas camps); the
// piece name is a further class unless it is "follower". A game with a track (GameDef::track_name,
// Amazonas boats) gets a panel under the board: <g class="space"> 1..track_len and one
// <g class="boat" data-player="P" data-space="K"> per player.
// Fresh water (Hunters & Gatherers): a claimable path joining networks (a river) is a blue
// <g class="water river"> drawn over the forests, each single-port end into the lake it is linked
// to (TileFeature::links) or ending at a <circle class="spring">; centre features that never close
// (lakes) are blue ovals <g class="water lake">, at C or, when a tile has several (one may have no
// port), each toward its rivers; their symbols (fish) lie in a row across the oval. Fish, deer,
// aurochs, mammoth, tiger, menhir and mushroom have glyphs of their own (with a <title>); symbols of
// a segment marked Segment::covered (the pit trap) are faded, crossed (<path class="cross">) and
// carry data-covered="1". A feature's special (TileFeature::special, a bonus tile's power) is a
// labelled <g class="special" data-special="NAME" data-feature="F"> badge. A piece of kind 1 on a
// feature of network kind 1 (a hut claiming a river system) is a house (<path class="house">);
// piece names with spaces become one class ("tribe-member"). A game with specials gets a key
// (<g class="key">) under the scores, and a tile set with a bonus pile the bonus tiles left in the
// status line.
// Carcassonne: Safari: savanna is the ground, trails sandy paths (a dead end is a round stop),
// bushes light green areas; monkey, elephant, giraffe, lion, zebra and bird have glyphs of their
// own (a key lists them); a baobab (Point feature named "baobab") is a <g class="baobab"> tree at C.
// Photographers are meeples with a camera (<g class="follower photographer">). The jeeps
// (State::markers) are <g class="jeep" data-jeep="J" data-x data-y> on their empty cells (the
// board's frame takes them in); each watering hole (State::spots) a <g class="watering-hole"
// data-x data-y data-tokens data-closed> pond round its grid point: one <path class="quarter">
// (water) per usable quarter or <path class="quarter unusable"> (dashed), each token a
// <g class="token SPECIES" data-quarter="C"> in the quadrant toward its cell, each photographer a
// <g class="follower photographer" data-feature="watering-hole"> beside it on a rim in the owner's
// colour (<path class="claim">), a complete hole ringed (class "complete"). A side panel right of
// the board (<g class="panel">) shows per player (<g class="hand" data-player>) the score, the
// photographers in supply and every species in hand (<g class="hand-token SPECIES"
// data-count="N">), then the token piles, where the jeeps are and the watering holes.
// Board conventions: x grows east,
// y grows SOUTH, rotation is clockwise (the rotated port table of each tile is used, so nothing
// is rotated twice).
#pragma once
#include <array>
#include <optional>
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
  bool key = true;                        // a key to the symbols (games with specials: Hunters)
};

// One tile type's picture at rotation `rot` in a t x t box at the origin (SVG elements, no
// document): fields, paths, areas, symbols and specials, as the board draws it. covered_feats: bit
// f set when feature f's symbols are covered (Hunters' pit trap).
void draw_tile_art(std::string& out, const Ruleset& rs, int type, int rot, double t, u32 covered_feats = 0);
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
