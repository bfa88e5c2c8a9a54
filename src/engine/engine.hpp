// engine: the one façade over rules + games. A Game owns a ruleset, the live State, the chance
// source (seeded generator or a scripted draw order) and the game record; it checks every move,
// applies it, records it and can take back the last decisions (snapshots: State is a flat value).
#pragma once
#include <algorithm>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "games/games.hpp"

namespace carc {

// A recorded chance outcome (a tile in "draws", an outcome in "chance") that cannot happen where
// the record puts it. Its message names the entry (draws[17]), not the move before it.
struct DrawError : InputError {
  using InputError::InputError;
};

inline constexpr u8 kDrawDiscarded = 1, kDrawBonus = 2, kDrawUnmarked = 0x80;  // Record::draw_marks

// A record that does not replay: the move it failed at (1-based; 0 before the first move or for
// the stated results) and a stable reason code for tools: game_over, draws_ran_out,
// chance_ran_out, wrong_tile, wrong_player, illegal_placement, illegal_choice, illegal_piece,
// illegal_action, bad_key, bad_draw, results_differ.
struct ReplayError : InputError {
  ReplayError(const std::string& msg, int mv, std::string c) : InputError(msg), move(mv), code(std::move(c)) {}
  int move = 0;
  std::string code;
};

struct PlayerInfo {
  std::string name;
  std::string bot;  // "" for a human
};

struct RecordMove {
  int player = 0;
  std::string tile;
  int x = 0, y = 0, rot = 0;           // rot in degrees clockwise: 0, 90, 180, 270
  std::optional<std::string> follower;  // port name, or none
  // Amazonas "!" turns: the double tile chosen and its rotation (0 or 180), placed downstream.
  std::optional<std::string> choice;
  int choice_rot = 0;
  // The cell of the tile the follower stands on, when it is not the tile at x,y (double tiles).
  std::optional<std::pair<int, int>> follower_at;
  // The piece's kind by name when it claims the feature's network rather than the feature (a hut).
  std::optional<std::string> piece;
  // The game's own action instead of a piece (Safari: "jeep from -2,0 to 1,1", "found lion at 2,1 NE").
  std::optional<std::string> action;
  // Games whose decisions come several per turn, by any player (Safari's token hand-ins, the
  // jeep's new cell): every Choose decision of the turn in order, with who made it.
  std::vector<std::pair<int, std::string>> choices;
  // The turn is not finished (a record saved mid-turn, only ever its last move): the decisions it
  // lists are made and the next one is pending; without it a missing piece decision is a pass.
  bool partial = false;
  // A partial turn past its piece decision: the piece, the action or the pass (a "follower" key,
  // null for a pass) is made; what is pending comes after it (Safari: the taken jeep's new cell).
  bool decided = false;
};

// A record's prepared position (docs/record.md, "setup"): tiles by id, rotations in degrees.
struct RecordSetup {
  struct Tile {
    std::string id;
    int x = 0, y = 0, rot = 0;
  };
  struct Piece {
    int player = 0, x = 0, y = 0;
    std::string port, piece;  // piece: empty for the feature's own piece
  };
  std::vector<Tile> tiles;  // empty: the game's start board
  std::vector<Piece> pieces;
  std::vector<int> scores;
  std::vector<std::array<int, 2>> supplies;  // by seat: pieces of kind 0 and 1 in supply
  std::optional<std::vector<std::string>> pile;  // a short pile, in draw order
  std::string game_keys;  // the game's own keys (GameDef::setup_keys) as a JSON object's text; empty: none
  int to_move = 0;        // the seat that draws first
};

// The position as a prepared-position setup that replays to the same state: the board in
// placement order, pieces, scores, supplies, the game's own state (Hooks::export_keys), the seat
// to move and the draw pile as a short pile (tile ids in type order; at a Place phase the tile in
// hand is counted back in, so a record continuing from here draws it first). Only between turns
// (Draw) or at the start of one (Place, nothing placed yet), and not in a Hunters bonus turn.
// Throws InputError otherwise.
RecordSetup position_setup(const State& s);

struct Record {
  std::string game = "base";
  std::map<std::string, std::string> options;
  std::vector<PlayerInfo> players;
  std::optional<u64> seed;
  std::string tiles;  // tile file used, if not the game's default (replay loads it)
  std::optional<RecordSetup> setup;  // a prepared position instead of the start of a game
  std::string folder;  // the folder a read record came from: a relative `tiles` path is relative to it
  std::vector<std::string> draws;  // every tile drawn, in order, discarded ones included
  // Per draw, what the record states of it (kDraw* bits; kDrawUnmarked: nothing, as a plain id in
  // JSON). The engine marks every draw it makes; replay refuses a mark that does not hold.
  std::vector<u8> draw_marks;
  std::vector<std::string> chance;  // every outcome of the game's own chance events (Safari: tokens drawn)
  std::vector<RecordMove> moves;
  // Written by the engine. A read record keeps what it states (final_scores, finished, and the
  // stated events and status as given); Game::replay re-derives them and refuses a difference.
  std::vector<ScoreEvent> events;
  std::vector<int> final_scores;
  bool finished = false;
  std::optional<std::string> stated_events;  // the record's "events" array, as JSON text
  std::optional<std::string> stated_status;  // "finished", "in_progress", or an early end below
  // The record format's version as read ("carcassonne-record/N"; none: 1). 1: records of the
  // versions before format 2 (their events' labels are not checked); 2: what this version writes
  // (early-end statuses). Written records are always the newest.
  int format = 2;
  // A game its players or clocks ended before its last tile (the game server's): "resigned",
  // "timeout" or "aborted"; "" for a game played to its end or still going. Written as the
  // record's status; kept by replay, which refuses it on a game that played to its end.
  std::string ended;
  // Hints (docs/record.md, "hints"): whether the game allows them (between people only when every
  // seat agreed at its creation), and each one a seat asked for: the seat and the number of the
  // record's move it was deciding (from 1). Kept by replay; a hint taken back with its turn stays.
  bool hints_allowed = false;
  struct Hint {
    int player = 0;
    int move = 0;
  };
  std::vector<Hint> hints;
};

std::string record_to_json(const Record& r, const Ruleset& rs, int indent = 1);
// Parses and checks the structure of a record (not its legality: replay does that).
Record record_from_json(const std::string& text, const std::string& where);
// Reads a record file: a regular file of at most kMaxRecordBytes (core/io.hpp).
Record load_record(const std::string& path);
// Throws InputError naming the first difference between what `stated` says of its results
// (events, final_scores, status) and the replayed record.
void check_stated_results(const Record& stated, const Record& replayed, const Ruleset& rs);
void save_record(const Record& r, const Ruleset& rs, const std::string& path);

class Game {
 public:
  // A fresh game: draws come from the seeded generator.
  Game(std::shared_ptr<const Ruleset> rs, std::vector<PlayerInfo> players, u64 seed);
  // Replays a record; throws InputError naming the move number and reason on an illegal move.
  // If the record's draws run out before the end and it has a seed, later draws continue from the
  // generator; without a seed the game stops there (still in progress) unless continue_seed is set.
  // tiles_override: load this tile file instead of the record's (or the default one).
  // on_decision, if set, sees every decision before it is played: the state, the move and the
  // index of the record's move it belongs to (for tools that step through a game).
  using DecisionHook = std::function<void(const State&, const Move&, int)>;
  static Game replay(const Record& r, std::optional<u64> continue_seed = std::nullopt, const std::string& tiles_override = "",
                     const DecisionHook& on_decision = {});

  [[nodiscard]] const State& state() const { return state_; }
  [[nodiscard]] const Ruleset& ruleset() const { return *rs_; }
  [[nodiscard]] std::shared_ptr<const Ruleset> ruleset_ptr() const { return rs_; }
  [[nodiscard]] const Record& record() const { return rec_; }
  // Over: played to its end, or ended before it by the game server (resigned, timeout, aborted:
  // Record::ended), which no move, chance outcome or undo brings back to life.
  [[nodiscard]] bool over() const { return state_.phase == Phase::Over || !rec_.ended.empty(); }
  // How a game ended before its last tile ("resigned", "timeout", "aborted"), or "".
  [[nodiscard]] const std::string& ended() const { return rec_.ended; }
  // Recorded draws and chance outcomes that a replay found past the position its moves lead to:
  // the planned deal, used while it fits (see Game::replay).
  [[nodiscard]] std::size_t unused_draws() const { return unused_draws_; }
  [[nodiscard]] std::size_t unused_chance() const { return unused_chance_; }
  // How often a planned deal stopped fitting and was dropped (play then draws from the generator).
  [[nodiscard]] std::size_t plans_dropped() const { return plans_dropped_; }
  // The generator the next chance events will come from, as it stands (a copy draws them in the
  // game's order: the clairvoyant search of docs/mcts.md, "Strength"); nullptr when recorded
  // draws or outcomes still lead (a replay's planned deal), in explicit-chance mode, or without one.
  [[nodiscard]] const Rng* generator() const {
    if (explicit_ || !rng_ || scripted_ < rec_.draws.size() || chance_scripted_ < rec_.chance.size()) return nullptr;
    return &*rng_;
  }
  // True if the game waits for a draw that no source can supply (scripted draws ran out).
  [[nodiscard]] bool stalled() const { return is_chance(state_); }

  // Applies chance events until a player must decide or the game is over.
  void advance();

  // Explicit chance nodes (the learning interface, docs/python.md): a fresh game that stops at
  // every chance event (a tile draw, a game's own outcome) until apply_chance_outcome settles it.
  // seed: the generator sample_chance_outcome draws from, written into the record (none: no
  // generator; outcomes come only from the caller).
  static Game with_explicit_chance(std::shared_ptr<const Ruleset> rs, std::vector<PlayerInfo> players, std::optional<u64> seed);
  // From now on the game stops at chance events (a replayed game continued by the caller); seed:
  // the generator sample_chance_outcome draws from (the record's seed is kept as it is).
  void set_explicit_chance(std::optional<u64> generator_seed);
  [[nodiscard]] bool explicit_chance() const { return explicit_; }
  // The chance node's outcome the generator would draw (without drawing it: apply_chance_outcome
  // keeps the generator in step). Tile type for a draw, the game's outcome for its own chance.
  // Throws InputError if this is not a chance node or there is no generator.
  [[nodiscard]] int sample_chance_outcome() const;
  // Settles the chance node with this outcome (recorded as a draw or a chance entry); throws
  // InputError, changing nothing, if the outcome is not possible here.
  void apply_chance_outcome(int outcome);
  // Checks and applies a decision, then the chance events up to the next decision. All or nothing:
  // on any error (InputError with the reason if it is illegal) nothing has changed.
  void play(const Move& m);
  // Takes back decisions to the last snapshot taken by the same player at a Place phase.
  // Snapshots are kept only after enable_undo(true) (interactive play); off for self-play speed.
  bool undo_turn(int player);
  // Whether undo_turn(player) would take something back.
  [[nodiscard]] bool can_undo(int player) const {
    return rec_.ended.empty() &&
           std::any_of(undo_.begin(), undo_.end(), [player](const Snapshot& sn) { return sn.state.current == player; });
  }
  void enable_undo(bool on) {
    keep_undo_ = on;
    if (!on) undo_.clear();
  }
  // Gives a player another name (the game server's invited players name themselves): the record
  // and the views name them so from now on. Throws InputError for a seat out of range.
  void rename_player(int player, std::string name);
  // Hints (Record::hints_allowed, Record::hints): whether the game allows them (set at its
  // creation), and a hint asked for by `player` at the decision now. note_hint throws InputError
  // when the game does not allow hints or the seat is out of range.
  void allow_hints(bool on) { rec_.hints_allowed = on; }
  void note_hint(int player);
  // Drops snapshots older than the current player's turn (called when a new player acts).
  void forget_undo() { undo_.clear(); }

  // Moves parsed from the text forms used by records and the command line.
  Move placement(int x, int y, int rot_degrees) const;
  Move piece_at_port(std::string_view port) const;  // "none"/"pass" for a pass
  // The same on the tile at a given cell placed this turn (a double tile's cells).
  // kind: a piece name (e.g. "hut") to claim the feature's network; empty: the feature's own piece.
  Move piece_at(int x, int y, std::string_view port, std::string_view kind = "") const;
  // A Choose decision by option name (Amazonas: a double tile id) and rotation in degrees.
  Move choice(std::string_view option, int rot_degrees) const;
  // The game's own action by its text (Safari: "jeep from X,Y to X,Y", "found lion at 2,1 NE").
  Move action(std::string_view text) const;

 private:
  Game(std::shared_ptr<const Ruleset> rs, std::vector<PlayerInfo> players);
  bool draw_one();
  bool chance_one();
  void refuse_scripted(std::vector<std::string>& list, std::size_t index, const std::string& why);
  [[nodiscard]] std::string scripted_draw_problem(int type, const std::string& id, u8 claim) const;
  void play_unchecked(const Move& m);

  std::shared_ptr<const Ruleset> rs_;
  State state_;
  Record rec_;
  std::optional<Rng> rng_;
  std::size_t scripted_ = 0;  // draws taken from rec_.draws so far
  std::size_t chance_scripted_ = 0;  // outcomes taken from rec_.chance so far
  std::size_t unused_draws_ = 0, unused_chance_ = 0;
  // Scripted outcomes from these indices on are a planned deal (lenient), before them a record's
  // history (strict). A fresh game's draws are all its own.
  std::size_t planned_from_ = 0, chance_planned_from_ = 0;
  std::size_t plans_dropped_ = 0;
  struct Snapshot {
    State state;
    std::size_t moves, events, scripted, chance_scripted, plans_dropped;
    std::vector<std::string> draws, chance;  // whole: a planned deal may be cut short later
    std::vector<u8> draw_marks;
    std::optional<Rng> rng;
  };
  std::deque<Snapshot> undo_;  // the last kMaxUndo turn starts
  static constexpr std::size_t kMaxUndo = 64;
  bool keep_undo_ = false;
  bool explicit_ = false;
};

// The placement of the tile in hand at x,y turned rot_degrees, for the player to move; not
// checked for legality (InputError for a rotation or cell that is not one).
Move placement_move(const State& s, int x, int y, int rot_degrees);

// The engine's move notation (docs/engine-protocol.md): one decision as text, what front ends
// send and show. Place "U 1,0 r90"; a piece "follower N", "camp S at 10,0" (a turn of several
// tiles names the cell), "hut W" (a piece claiming the feature's network); "pass"; the game's
// actions ("jeep from -2,0 to 1,1", "found lion at 2,1 NE") and choices ("double D2 r180",
// "shaman N at 3,-1", "shaman none", Safari's "hand in lion", "none", "jeep to 3,1").
std::string notation(const State& s, const Move& m);
// The legal move of the decision now written `text` (letter case and spaces aside; a placement
// may leave out the tile id and the "r"), or in the game's own shorthand (parse_alias). Throws
// InputError saying why not.
Move parse_notation(const State& s, std::string_view text);
// The game's typed shorthand for the decision now (Presentation::parse_alias: "f l 2,1 ne",
// "lion", "D2 180", "N 3 -1"): the legal move, nullopt when the text is not of the game's forms.
// Throws InputError saying what is wrong with a text of its forms (not legal now included).
std::optional<Move> parse_alias(const State& s, std::string_view text);

}  // namespace carc
