// Terminal drawing of a game for `play` (owned by the play command). Pure functions of the game
// state that return text (optionally with ANSI colours), plus the parsers of what a player types,
// so that both can be unit-tested without a terminal.
//
// A tile is drawn as a cell 5 characters wide and 3 high. Its twelve ports sit on the rim
// (WNW NNW N NNE ENE on the top row, W . C . E in the middle, WSW SSW S SSE ESE at the bottom);
// the centre shows a centre feature (monastery: "M") or how the roads meet. Glyphs: field "·",
// city "▒", shield "◆", roads "─ │ ┌ ┼ …", a follower is its player's number.
//
// Other games use the same shapes by feature class (Amazonas: tributaries like roads, villages like
// cities, jungle like fields) plus: a path that cannot be claimed is water ("≈", the Amazon) with its
// creatures as counts ("2c1p": 2 caimans, 1 piranha); symbols on features by name (fruit "●", boat
// icon "▲", animal "∴", shield "◆"); a path ending in the open is a rock "▪"; a piece of the second
// kind (camp) is a circled player number "①".. "⑤". board_legend() says it in words.
//
// Hunters & Gatherers: rivers like roads on blue ("▪": a spring), a lake as "(2)" across the middle
// (2 fish; "(1#": with the raft's mark; a second lake without a port "≋"), forests "♣", meadows "·";
// fish "f", deer "d", aurochs "a", mammoth "m", tiger "t" (covered by the pit trap: "×"), mushroom
// glade "♠", menhir "▮"; specials canoe "∪", pit trap "⊙", shaman "@", big trap "⊠", fire "^",
// raft "#"; a tribe member is its player's number, a hut the circled number.
//
// Safari: trails like roads ("▪": a dead end), bushes "▒", savanna "·", baobabs "B"; animals by
// species letter (monkey "m", elephant "e", giraffe "g", lion "l", zebra "z"), birds "v"; a
// photographer is its player's number. An empty cell holding a jeep reads "jeep". A watering hole
// sits at a grid point, where up to four tiles meet: each of those tiles shows, in its corner at the
// point, the token there as a capital letter ("L": a lion token) or "○" (a free savanna quarter),
// with the digit of the photographer on that token beside it.
#pragma once
#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ai/bots.hpp"
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
  bool jeep = false;  // Safari: a jeep stands there (placing the tile takes it: +3)
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
std::string render_placements(const std::vector<Candidate>& cands, int width, bool compact = false);

// After a tile is placed: the legal follower spots (port, feature type, what the feature is worth
// now), "none", and the features of the tile already taken. In a game with two piece kinds
// (Amazonas: explorers and camps) each spot names its piece, tributaries say how far the boat
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

// Safari, at the Piece decision: the actions besides a photographer. Found (by point: the free
// savanna corners), explore (by watering hole: its free quarters, the species that may go there and
// the points), jeep moves (from which cell, how many target cells). Compact: only the points around
// this turn's tile and counts; full: every corner and every jeep cell. "" when there are none.
std::string render_actions(const State& s, bool full, int width = 80);

// What a player typed at the Piece prompt of Safari as an action: the engine's forms ("jeep from
// -2,0 to 3,1", "found lion at 2,1 NE", "explore zebra at 1,1 SE") and shorthands: "j", "f", "x" for
// jeep, found, explore; species by name, plural or first letter (m e g l z); "from", "to", "at"
// optional; "2,1" or "2 1"; "jeep 3,1" when one jeep is on the board; the species may be left out
// when only one of your tokens fits, the corner when only one corner of that cell fits. `text` is the
// engine's form; on failure `error` says what is wrong (why the action is not possible).
struct ParsedAction {
  Move move;
  std::string text;
  std::string error;
};
ParsedAction parse_action(std::string_view text, const State& s);
// Whether a typed line is meant as an action (starts with jeep/found/explore or a shorthand).
bool is_action_text(std::string_view text, const State& s);

// Safari, after a jeep was taken: the empty cells it may go back on, labelled a, b, c, ... like
// placement candidates (rots empty).
std::vector<Candidate> jeep_candidates(const State& s);

// The tokens each player drew since `before` (Safari: a baobab's deal), one indented line per
// player: "    Ann draws 2 tokens: lion, zebra". "" if none.
std::string tokens_drawn(const Tokens& before, const State& after, const std::vector<PlayerInfo>& players, bool color);

// Dense places of the boats on the track: 1 for the furthest space, 2 for the next occupied one...
// With 2 players a 2nd boat not directly behind the 1st gets 0 (it scores nothing). RULES.md §2.
std::vector<int> track_places(const State& s);

// Phase Choose (after an Amazon "!" tile): the double tiles set aside, each drawn in both
// orientations (rotation 0 and 180, two cells each) with its caimans and piranhas and what the 1st
// and 2nd boat would score, and where it goes. Empty unless the state is at Choose.
// Hunters (the shaman, GameDef::choice_key "shaman"): the player's tribe members on the board,
// numbered 1, 2, ... with where each stands ("N at 3,-1") and what its feature is worth, and none.
std::string render_choices(const State& s, bool color);

// What a player typed at the Choose prompt: "D2 180", "d2 r0", "D2,180". `move` is the legal
// Choose move; on failure `error` says what is wrong (unknown tile, not set aside, no rotation...).
struct ParsedChoice {
  std::string option;  // tile id, e.g. "D2"
  int rot = 0;         // degrees: 0 or 180
  Move move;
  std::string error;
};
// Shaman: "2" (the list's number), "N at 3,-1", "N 3 -1", "3,-1" (one member there), "fisher" (the
// only one), or "none"; `option` is then "N at 3,-1" or "none" (the record's text).
// Safari: a token hand-in ("lion", "l", "hand in lion", "none") or the taken jeep's new cell ("3,1",
// "3 1", "jeep to 3,1", or a label of jeep_candidates); `option` is then the engine's text.
ParsedChoice parse_choice(std::string_view text, const State& s);
// render_choices with the players' names (Safari's hand-in names who decides and who else scores;
// it lists each token that may be handed in and what the feature would then score).
std::string render_choices(const State& s, const std::vector<PlayerInfo>& players, bool color);

// A player's name (in the player's colour when color is set).
std::string player_name(const std::vector<PlayerInfo>& players, int p, bool color);

// carc::describe_event with the player's name instead of "player N". Hunters adds what the engine's
// sentence leaves out: the fish in a completed river's lakes, a meadow's animals and what its tigers
// eat, and that a river system scores for its hut majority.
std::string describe_event_named(const State& s, const ScoreEvent& e, const std::vector<PlayerInfo>& players,
                                 bool color);

// "greedy placed V at 2,0 r90, follower on road (S)". `s` is any state after the move was made.
// Amazonas: "greedy placed X1 at 8,0 r0, then double tile D2 r180, camp on jungle (S at 10,0)".
// Hunters: "Ann placed bonus tile 88 at 2,1 r0, the shaman sends a fisher home (N at 0,-1), hunter on
// meadow (E)"; a hut: "hut on the river system (W)".
std::string describe_record_move(const State& s, const RecordMove& m, const std::vector<PlayerInfo>& players,
                                 bool color);

// One finished turn as `play` reports it: the move, then each event of the turn that is not final
// scoring (completed features; boat moves and Amazon scorings; canoe and pit trap) on its own
// indented line; Hunters: "Menhir! Ann draws a bonus tile and plays again." when a bonus turn follows. `s` is the
// state after the turn, `events_before` the number of record events before the turn began.
std::string turn_summary(const State& s, const Record& rec, std::size_t events_before,
                         const std::vector<PlayerInfo>& players, bool color);

// Whether a final-scoring event (shown once at the end, not in a turn summary): unfinished features,
// fields/meadows, the river mouth, river systems (huts).
bool is_final_event(const ScoreEvent& e);
// The same, knowing the game: Safari's tokens left in hand are scored at the end too.
bool is_final_event(const State& s, const ScoreEvent& e);

// Plays the whole turn of the player to move with `bot`: the tile, the double tile if the tile asks
// for one (Phase::Choose), then the piece or pass. `play` uses this for every bot seat.
void play_bot_turn(Game& g, Bot& bot, Rng& rng);
// The same with each decision made by the bot of the player who decides it (to_move: Safari's
// token hand-ins belong to any scorer). Plays from the current state (the tile if it is still to
// be placed) while that player has a bot (bot_of returns nullptr for a human). Returns true when
// the turn is over, false when a human must decide (then call again after that decision).
bool play_bot_turn(Game& g, const std::function<Bot*(int)>& bot_of, Rng& rng);

// Final standings, best first, and the winner(s).
std::string render_final(const State& s, const std::vector<PlayerInfo>& players, bool color);

// The twelve ports and C around a tile.
std::string port_diagram();
// The base game's help; help_text(g) is the same for the base game and adds a game's own decisions
// (Amazonas: double tiles, explorers and camps on a named cell) and its board legend.
std::string help_text();
std::string help_text(const GameDef& g);
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
// On a turn with several tiles (Amazonas double tile) a cell may follow: "N at 9,0", "N 9,0",
// "N 9 0"; `at` is then that cell (also when only one of the turn's tiles has a free spot at the
// port). In a game with two piece kinds, a piece name ("camp", "explorer") picks its only free spot.
//
// Hunters & Gatherers: "hut N" or "N hut" puts a hut on the river system through the feature at N
// (`piece` is then "hut"; pass it to Game::piece_at); "hut" alone picks the only hut spot; "N" alone
// is a tribe member (a lake takes none: the error says to type "hut C"); the roles "fisher",
// "gatherer", "hunter" name the free river, forest or meadow.
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
