// Terminal drawing of a game for `play` (owned by the play command). Pure functions of the game
// state that return text (optionally with ANSI colours), plus the parsers of what a player types,
// so that both can be unit-tested without a terminal.
//
// A tile is drawn as a cell 5 characters wide and 3 high. Its twelve ports sit on the rim
// (WNW NNW N NNE ENE on the top row, W . C . E in the middle, WSW SSW S SSE ESE at the bottom);
// the centre shows a centre feature (monastery: "M") or how the roads meet. Glyphs: field "·",
// city "▒", shield "◆", roads "─ │ ┌ ┼ …", a follower is its player's number.
#pragma once
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
  // Keep this cell in view (default: the last placed tile).
  std::optional<std::pair<int, int>> centre;
};

// A cell where the tile in hand fits, with the rotations (degrees) that fit there.
struct Candidate {
  int x = 0, y = 0;
  std::string label;  // "a".."z", "A".."Z"; "" once those run out
  std::vector<int> rots;
};

// The legal placements of the tile in hand grouped by cell, in reading order (top row first,
// west to east), labelled a, b, c, ... Empty unless the state is at a Place decision.
std::vector<Candidate> placement_candidates(const State& s);

// The board: column numbers along the top (and bottom), row numbers on the left, every placed
// tile, the followers, and the candidate cells (a small box with the label). Cropped to the
// window that fits (width, max_rows) around ViewOptions::centre or the last placed tile.
std::string render_board(const State& s, const ViewOptions& o, const std::vector<Candidate>& cands = {});

// The three lines of one tile drawn alone.
std::vector<std::string> tile_picture(const State& s, int type, int rot_quarters, bool color);

// The tile in hand drawn in each of its distinct rotations, each labelled with the rotation.
std::string render_hand(const State& s, const std::vector<Candidate>& cands, const ViewOptions& o);

// "a  3,-1: r0 r90" entries, several per line within `width` columns.
std::string render_placements(const std::vector<Candidate>& cands, int width);

// After a tile is placed: the legal follower spots (port, feature type, what the feature is worth
// now), "none", and the features of the tile already taken.
std::string render_piece_options(const State& s, const std::vector<PlayerInfo>& players, bool color);

// Scores and followers in supply of every player; the player to move is marked.
std::string render_scores(const State& s, const std::vector<PlayerInfo>& players, bool color);

// A player's name (in the player's colour when color is set).
std::string player_name(const std::vector<PlayerInfo>& players, int p, bool color);

// carc::describe_event with the player's name instead of "player N".
std::string describe_event_named(const State& s, const ScoreEvent& e, const std::vector<PlayerInfo>& players,
                                 bool color);

// "greedy placed V at 2,0 r90, follower on road (S)". `s` is any state after the move was made.
std::string describe_record_move(const State& s, const RecordMove& m, const std::vector<PlayerInfo>& players,
                                 bool color);

// Final standings, best first, and the winner(s).
std::string render_final(const State& s, const std::vector<PlayerInfo>& players, bool color);

// The twelve ports and C around a tile.
std::string port_diagram();
std::string help_text();

// What a player typed at the placement prompt: "3 -1 90", "3,-1 r90", "(3,-1) 90", "a 90",
// "a" or "3 -1" (when exactly one rotation fits there). On failure `error` says what is wrong.
struct ParsedPlacement {
  int x = 0, y = 0, rot = 0;  // rot in degrees
  std::string error;
};
ParsedPlacement parse_placement(std::string_view text, const std::vector<Candidate>& cands);

// What a player typed at the follower prompt: a port name (any case), "none"/"pass"/"-", or a
// feature type name ("road") when exactly one free spot has that type. `port` is "none" for a pass.
struct ParsedPort {
  std::string port;
  std::string error;
};
ParsedPort parse_port(std::string_view text, const State& s);

// Helpers for laying out text: the text without ANSI escapes, and its width in columns
// (code points; every glyph used here is one column wide).
std::string strip_ansi(std::string_view text);
int display_width(std::string_view text);

}  // namespace carc::cli
