// The terminal's board (part of `play`, src/cli/terminal/): pure functions of the game state that
// return text (optionally with ANSI colours), so that they can be unit-tested without a terminal.
//
// A tile is drawn as a cell 5 characters wide and 3 high. Its twelve ports sit on the rim
// (WNW NNW N NNE ENE on the top row, W . C . E in the middle, WSW SSW S SSE ESE at the bottom);
// the centre shows a centre feature (monastery: "M") or how the roads meet. Glyphs: field "·",
// city "▒", shield "◆", roads "─ │ ┌ ┼ …", a follower is its player's number.
//
// Every game uses the same shapes by feature class (paths like roads, areas like cities, fields
// like fields) plus: a path that cannot be claimed is water ("≈") with its symbols as counts
// ("2c1p": 2 of its first symbol, 1 of its second); symbols on features by the marks of the game's
// look (docs/look.md, "terminal"), else their initial; a path ending in the open is a rock "▪"; a
// piece of the second kind is a circled player number "①".. "⑤". board_legend() says it in words.
//
// Networks: paths joined into networks are drawn like roads on blue ("▪": a spring), an unclaimed
// centre feature as "(2)" across the middle (its first symbol's count; a special's mark after it; a
// second one without a port "≋"); an area type with a mark of its own in the look is drawn in it;
// symbols and specials as marks of their own (symbols covered by a special: "×"); a piece of the
// second kind is the circled number.
//
// What stands on the board besides tiles and pieces (the view's overlays, View::overlays) is drawn
// with the terminal marks of the game's look: an overlay on an empty cell as its mark (a word of up
// to 4 characters) across the cell; the parts of an overlay at a grid point, where up to four tiles
// meet, in the corners of those tiles (a part's mark in the corner, a seat's piece beside it).
// Overlays on a track are shown by the game's panels.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/engine.hpp"

namespace carc::cli {

struct ViewOptions {
  bool color = false;
  int width = 80;     // terminal columns available
  int max_rows = 10;  // at most this many rows of tiles on the board
  int max_cols = 0;   // at most this many columns of tiles (0: as many as fit in width)
  // Keep this cell in view (default: the last placed tile, with as many places for the tile in
  // hand as the window can show).
  std::optional<std::pair<int, int>> centre;
  bool bottom_axis = true;  // the column numbers under the board too (off on a short terminal)
};

// A cell where the tile in hand fits, with the rotations (degrees) that fit there.
struct Candidate {
  int x = 0, y = 0;
  std::string label;  // "a".."z", "A".."Z"; "" once those run out
  std::vector<int> rots;
  bool marker = false;    // an overlay of the game stands there (placing the tile takes it: Presentation::marker_text)
  std::string mark = {};  // what it is: its glyph's title in the game's look ("" none)
};

// The legal placements of the tile in hand grouped by cell, in reading order (top row first,
// west to east), labelled a, b, c, ... Empty unless the state is at a Place decision.
std::vector<Candidate> placement_candidates(const State& s);

// The board: column numbers along the top (and bottom), row numbers on the left, every placed
// tile, the followers, and the candidate cells (a small box with the label). Cropped to the
// window that fits (width, max_rows) around ViewOptions::centre or the last placed tile.
std::string render_board(const State& s, const ViewOptions& o, const std::vector<Candidate>& cands = {});

// The cells render_board shows: x0, x1, y0, y1.
std::array<int, 4> board_window(const State& s, const ViewOptions& o, const std::vector<Candidate>& cands = {});

// The three lines of one tile drawn alone.
std::vector<std::string> tile_picture(const State& s, int type, int rot_quarters, bool color);

// The tile in hand drawn in each of its distinct rotations, each labelled with the rotation.
// compact: the title on one line (cut short), no note under the pictures.
std::string render_hand(const State& s, const std::vector<Candidate>& cands, const ViewOptions& o,
                        bool compact = false);

// "a  3,-1: r0 r90" entries, several per line within `width` columns. Compact (a short terminal,
// where the letters are on the board): "a r0/90" entries.
// A cell holding an overlay says so (its mark), and a note says what taking it does (marker_text).
std::string render_placements(const State& s, const std::vector<Candidate>& cands, int width, bool compact = false);

// The cells the options of a Choose decision name (OptionInfo target "cell", e.g. where an
// overlay may go), labelled a, b, c, ... like placement candidates (rots empty).
std::vector<Candidate> choice_cells(const State& s);

}  // namespace carc::cli
