// Terminal drawing of a game for `play` (owned by the play command). Pure functions of the game
// state that return text (optionally with ANSI colours), plus the parsers of what a player types,
// so that both can be unit-tested without a terminal.
//
// A tile is drawn as a cell 5 characters wide and 3 high. Its twelve ports sit on the rim
// (WNW NNW N NNE ENE on the top row, W . C . E in the middle, WSW SSW S SSE ESE at the bottom);
// the centre shows a centre feature (monastery: "M") or how the roads meet. Glyphs: field "·",
// city "▒", shield "◆", roads "─ │ ┌ ┼ …", a follower is its player's number.
//
// Other games use the same shapes by feature class (tributaries like roads, villages like cities,
// jungle like fields) plus: a path that cannot be claimed is water ("≈", the Amazon) with its
// creatures as counts ("2c1p": 2 caimans, 1 piranha); symbols on features by name (fruit "●", boat
// icon "▲", animal "∴", shield "◆"); a path ending in the open is a rock "▪"; a piece of the second
// kind (camp) is a circled player number "①".. "⑤". board_legend() says it in words.
//
// Networks: paths joined into networks are drawn like roads on blue ("▪": a spring), an unclaimed
// centre feature as "(2)" across the middle (its first symbol's count; a special's mark after it; a
// second one without a port "≋"); an area named "forest" with trees "♣"; symbols and specials as
// letters and marks of their own (symbols covered by a special: "×"); a piece of the second kind is
// the circled number.
//
// Markers and sites (GameDef::present): an empty cell holding a marker reads its name ("jeep"). A
// site sits at a grid point, where up to four tiles meet: each of those tiles shows, in its corner
// at the point, the token there as the capital initial of its kind or "○" (a free quarter), with
// the digit of the piece on that token beside it.
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
  bool marker = false;  // a game's marker stands there (placing the tile takes it: Presentation::marker_text)
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
std::string render_hand(const State& s, const std::vector<Candidate>& cands, const ViewOptions& o, bool compact = false);

// "a  3,-1: r0 r90" entries, several per line within `width` columns. Compact (a short terminal,
// where the letters are on the board): "a r0/90" entries.
// A cell holding a game's marker says so, and a note says what taking it does (marker_text).
std::string render_placements(const State& s, const std::vector<Candidate>& cands, int width, bool compact = false);

// After a tile is placed: the legal follower spots (port, feature type, what the feature is worth
// now), "none", and the features of the tile already taken. In a game with two piece kinds
// (explorers and camps) each spot names its piece, tributaries say how far the boat
// moves, jungles count their animals, and "none" says what a pass does (GameDef::pass_text). On a
// turn with several tiles (a double tile) each spot names its cell: "N at 9,0".
std::string render_piece_options(const State& s, const std::vector<PlayerInfo>& players, bool color);

// Scores and followers in supply of every player; the player to move is marked. Games with a second
// piece kind or a track show each kind in supply (by GameDef::piece_names) and the track space.
std::string render_scores(const State& s, const std::vector<PlayerInfo>& players, bool color);

// Each game's own panels (GameDef::present: data from the game's folder), drawn the same way for
// every game: a panel with a table starts with its title, then its counters ("  name: value"),
// the table (a "seat" table as a line per player: ▶ for the player who decides, the seat's badge
// and name, the track when the panel has one, the other columns) and its lines, indented; a panel
// without a table is a note: its counters ("  name: value"), or "  Title:" and its lines further in. "{pN}" in
// any text is seat N's name. "" for a game without panels (the base game).
std::string render_panels(const State& s, const std::vector<PlayerInfo>& players, bool color, int width = 80);
// One panel, as render_panels draws it.
std::string render_panel(const State& s, const Panel& panel, const std::vector<PlayerInfo>& players, bool color, int width = 80);

// The game's explanation of the decision now (Presentation::decision_panels), each panel drawn
// as render_panel draws it: at the Piece decision the actions beside a piece (compact: what fits
// beside the spots; full: everything), at a Choose what its options do. "" when there is none.
std::string render_decision(const State& s, const std::vector<PlayerInfo>& players, bool color, bool full, int width = 80);

// The cells the options of a Choose decision name (OptionInfo target "cell", e.g. a jeep's new
// cell), labelled a, b, c, ... like placement candidates (rots empty).
std::vector<Candidate> choice_cells(const State& s);

// What each player holds besides pieces (Presentation::hand), by seat; and the news of what each
// drew since `before` (empty: nothing before, the opening deal), one indented line per player:
// "    Ann draws 2 tokens: lion, zebra" (Presentation::hand_noun). "" if none.
using Hands = std::vector<std::vector<std::pair<std::string, int>>>;
Hands hands_of(const State& s);
std::string hand_news(const Hands& before, const State& after, const std::vector<PlayerInfo>& players, bool color);

// Phase Choose, for any game: the game's explanation (render_decision), then its options as the
// view lists them: tiles drawn in each rotation offered (a multi-cell tile with its other cells)
// with the option's sentence; cells as the labels of choice_cells; anything else as a numbered
// list (what the option names, then its sentence), the option naming nothing last. "" unless the
// state is at Choose.
std::string render_choices(const State& s, const std::vector<PlayerInfo>& players, bool color);
std::string render_choices(const State& s, bool color);

// What a player typed at the Choose prompt: a number from render_choices' list, a label of
// choice_cells, what an option names as listed ("lion", "N at 3,-1"), the game's shorthand
// (parse_alias: "D2 180", "l", "3 1") or the engine's notation. `move` is the legal Choose move
// and `option` its text as listed; on failure `error` says what is wrong.
struct ParsedChoice {
  std::string option;
  Move move;
  std::string error;
};
ParsedChoice parse_choice(std::string_view text, const State& s);

// A player's name (in the player's colour when color is set).
std::string player_name(const std::vector<PlayerInfo>& players, int p, bool color);

// carc::describe_event (the game's own words, GameDef::describe) with the player's name instead
// of "player N".
std::string describe_event_named(const State& s, const ScoreEvent& e, const std::vector<PlayerInfo>& players,
                                 bool color);

// "greedy placed V at 2,0 r90, follower on road (S)". `s` is any state after the move was made.
// A game's choices and actions in its words (Presentation::told): "greedy placed X1 at 8,0 r0,
// then the double tile D2 r180, camp on jungle (S at 10,0)"; a piece by its role ("hunter on
// meadow (E)"); a piece claiming a network: "hut on the river system (W)".
std::string describe_record_move(const State& s, const RecordMove& m, const std::vector<PlayerInfo>& players,
                                 bool color);

// One finished turn as `play` reports it: the move, then each event of the turn that is not final
// scoring (completed features, a game's own events) on its own indented line; the game's
// extra-turn sentence (Presentation::extra_turn) when a bonus turn follows. `s` is the state after
// the turn, `events_before` the number of record events before the turn began.
std::string turn_summary(const State& s, const Record& rec, std::size_t events_before,
                         const std::vector<PlayerInfo>& players, bool color);

// Whether a final-scoring event, shown once at the end and not in a turn summary (rules:
// is_final_scoring).
bool is_final_event(const State& s, const ScoreEvent& e);

// An extra turn in progress (Presentation::extra_turn, the player by name).
std::string extra_turn_text(const State& s, const std::vector<PlayerInfo>& players, bool color);

// Final standings, best first, and the winner(s).
std::string render_final(const State& s, const std::vector<PlayerInfo>& players, bool color);

// The twelve ports and C around a tile.
std::string port_diagram();
// The base game's help; help_text(s) is the same for the base game and adds a game's own sections
// (Presentation::help: its choices, actions and notes; the piece section for two kinds of piece or
// a cell to name), its panels by name and its board legend.
std::string help_text();
std::string help_text(const State& s);
// What the board's glyphs mean in this game, built from its feature types (a few lines).
std::string board_legend(const GameDef& g);

// What a player typed at the placement prompt: "3 -1 90", "3,-1 r90", "(3,-1) 90", "a 90",
// "a" or "3 -1" (when exactly one rotation fits there). On failure `error` says what is wrong.
struct ParsedPlacement {
  int x = 0, y = 0, rot = 0;  // rot in degrees
  std::string error;
};
ParsedPlacement parse_placement(std::string_view text, const std::vector<Candidate>& cands);

// What a player typed at the follower prompt: a port name (any case), "none"/"pass"/"-", or a
// feature type name ("road") when exactly one free spot has that type. `port` is "none" for a pass.
// On a turn with several tiles (a double tile) a cell may follow: "N at 9,0", "N 9,0",
// "N 9 0"; `at` is then that cell (also when only one of the turn's tiles has a free spot at the
// port). In a game with two piece kinds, a piece name ("camp", "explorer") picks its only free spot.
//
// A game with networks: "hut N" or "N hut" puts a piece claiming the network through the feature
// at N (`piece` is then "hut"; pass it to Game::piece_at); "hut" alone picks the only such spot;
// "N" alone is a piece of the first kind (an unclaimable feature takes none: the error says to type
// "hut C"); a role (FeatureTypeDef::role: "fisher") names the free feature of its type.
struct ParsedPort {
  std::string port;
  std::optional<std::pair<int, int>> at;  // the tile's cell, when the player must or did name it
  std::string piece;  // "" the feature's own piece; else the piece claiming its network ("hut")
  std::string error;
};
ParsedPort parse_port(std::string_view text, const State& s);

// Helpers for laying out text: the text without ANSI escapes, and its width in columns
// (code points; every glyph used here is one column wide).
std::string strip_ansi(std::string_view text);
int display_width(std::string_view text);

}  // namespace carc::cli
