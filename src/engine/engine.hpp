// engine: the one façade over rules + games. A Game owns a ruleset, the live State, the chance
// source (seeded generator or a scripted draw order) and the game record; it checks every move,
// applies it, records it and can take back the last decisions (snapshots: State is a flat value).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "games/games.hpp"

namespace carc {

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
};

struct Record {
  std::string game = "base";
  std::map<std::string, std::string> options;
  std::vector<PlayerInfo> players;
  std::optional<u64> seed;
  std::string tiles;  // tile file used, if not the game's default (replay loads it)
  std::vector<std::string> draws;  // every tile drawn, in order, discarded ones included
  std::vector<std::string> chance;  // every outcome of the game's own chance events (Safari: tokens drawn)
  std::vector<RecordMove> moves;
  // Written by the engine; ignored (and re-derived) when a record is replayed.
  std::vector<ScoreEvent> events;
  std::vector<int> final_scores;
  bool finished = false;
};

std::string record_to_json(const Record& r, const Ruleset& rs, int indent = 1);
// Parses and checks the structure of a record (not its legality: replay does that).
Record record_from_json(const std::string& text, const std::string& where);
Record load_record(const std::string& path);
void save_record(const Record& r, const Ruleset& rs, const std::string& path);

class Game {
 public:
  // A fresh game: draws come from the seeded generator.
  Game(std::shared_ptr<const Ruleset> rs, std::vector<PlayerInfo> players, u64 seed);
  // Replays a record; throws InputError naming the move number and reason on an illegal move.
  // If the record's draws run out before the end and it has a seed, later draws continue from the
  // generator; without a seed the game stops there (still in progress) unless continue_seed is set.
  // tiles_override: load this tile file instead of the record's (or the default one).
  static Game replay(const Record& r, std::optional<u64> continue_seed = std::nullopt, const std::string& tiles_override = "");

  [[nodiscard]] const State& state() const { return state_; }
  [[nodiscard]] const Ruleset& ruleset() const { return *rs_; }
  [[nodiscard]] std::shared_ptr<const Ruleset> ruleset_ptr() const { return rs_; }
  [[nodiscard]] const Record& record() const { return rec_; }
  [[nodiscard]] bool over() const { return state_.phase == Phase::Over; }
  // True if the game waits for a draw that no source can supply (scripted draws ran out).
  [[nodiscard]] bool stalled() const { return is_chance(state_); }

  // Applies chance events until a player must decide or the game is over.
  void advance();
  // Checks and applies a decision; throws InputError with the reason if it is illegal.
  void play(const Move& m);
  // Takes back decisions to the last snapshot taken by the same player at a Place phase.
  // Snapshots are kept only after enable_undo(true) (interactive play); off for self-play speed.
  bool undo_turn(int player);
  void enable_undo(bool on) {
    keep_undo_ = on;
    if (!on) undo_.clear();
  }
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
  void draw_one();
  void chance_one();

  std::shared_ptr<const Ruleset> rs_;
  State state_;
  Record rec_;
  std::optional<Rng> rng_;
  std::size_t scripted_ = 0;  // draws taken from rec_.draws so far
  std::size_t chance_scripted_ = 0;  // outcomes taken from rec_.chance so far
  struct Snapshot {
    State state;
    std::size_t moves, events, draws, scripted, chance, chance_scripted;
    std::optional<Rng> rng;
  };
  std::vector<Snapshot> undo_;
  bool keep_undo_ = false;
};

std::string move_text(const State& s, const Move& m);  // "U 1,0 r90" / "follower N" / "pass"

}  // namespace carc
