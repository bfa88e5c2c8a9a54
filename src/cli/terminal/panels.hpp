// The terminal's text beside the board (part of `play`, src/cli/terminal/): the decision's options,
// scores, the game's panels, what players hold, what happened in a turn, the final standings. Pure
// functions of the game state that return text (optionally with ANSI colours).
#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/engine.hpp"

namespace carc::cli {

// After a tile is placed: the legal follower spots (port, feature type, what the feature is worth
// now), "none", and the features of the tile already taken. In a game with two piece kinds
// each spot names its piece, a path with the game's track symbol says how far the
// player's track piece moves, fields count their symbols, and "none" says what a pass does (GameDef::pass_text). On a
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
std::string render_panel(const State& s, const Panel& panel, const std::vector<PlayerInfo>& players, bool color,
                         int width = 80);

// The game's explanation of the decision now (Presentation::decision_panels), each panel drawn
// as render_panel draws it: at the Piece decision the actions beside a piece (compact: what fits
// beside the spots; full: everything), at a Choose what its options do. "" when there is none.
std::string render_decision(const State& s, const std::vector<PlayerInfo>& players, bool color, bool full,
                            int width = 80);

// What each player holds besides pieces (Presentation::hand), by seat; and the news of what each
// drew since `before` (empty: nothing before, the opening deal), one indented line per player:
// "    Ann draws 2 tokens: A, B" (Presentation::hand_noun). "" if none.
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

// A player's name (in the player's colour when color is set).
// full: the whole name (the list of players at the start), else cut to kNameColumns columns.
std::string player_name(const std::vector<PlayerInfo>& players, int p, bool color, bool full = false);

// carc::describe_event (the game's own words, GameDef::describe) with the player's name instead
// of "player N".
std::string describe_event_named(const State& s, const ScoreEvent& e, const std::vector<PlayerInfo>& players,
                                 bool color);

// "greedy placed V at 2,0 r90, follower on road (S)". `s` is any state after the move was made.
// A game's choices and actions in its words (Presentation::told): "greedy placed X1 at 8,0 r0,
// then TILE D2 r180, PIECE on TYPE (S at 10,0)"; a piece by its role ("ROLE on TYPE (E)");
// a piece claiming a network: "PIECE on the NETWORK (W)".
std::string describe_record_move(const State& s, const RecordMove& m, const std::vector<PlayerInfo>& players,
                                 bool color);

// One finished turn as `play` reports it: the move, then each event of the turn that is not final
// scoring (completed features, a game's own events) on its own indented line; the game's
// extra-turn sentence (Presentation::extra_turn) when a bonus turn follows. `s` is the state after
// the turn, `events_before` the number of record events before the turn began.
std::string turn_summary(const State& s, const Record& rec, std::size_t events_before,
                         const std::vector<PlayerInfo>& players, bool color);

// Whether a final-scoring event, shown once at the end and not in a turn summary (rules:
// is_final_scoring: unfinished features, fields, the game's own events and effects marked at_end).
bool is_final_event(const State& s, const ScoreEvent& e);

// An extra turn in progress (Presentation::extra_turn, the player by name).
std::string extra_turn_text(const State& s, const std::vector<PlayerInfo>& players, bool color);

// Final standings, best first, and the winner(s).
std::string render_final(const State& s, const std::vector<PlayerInfo>& players, bool color);

// Helpers for laying out text: the text without ANSI escapes, and its width in columns
// (code points; every glyph used here is one column wide).
std::string strip_ansi(std::string_view text);
int display_width(std::string_view text);
// A name as the terminal shows it: at most kNameColumns columns, cut with "…" (never inside a
// character; combining marks count no column).
inline constexpr int kNameColumns = 20;
std::string fit_columns(const std::string& s, int columns);

}  // namespace carc::cli
