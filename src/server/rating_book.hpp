// server/rating_book: ratings derived from the games' logs (docs/ratings.md). A rated game's result
// is read from its store entry alone (the creation settings name each seat's player and say
// "rated"; the `end` event gives scores and who resigned or ran out of time), rated with the
// Weng–Lin model (server/rating) from each player's rating in the game's bucket, grown by the
// days since their last rated game. The server rates each game as it ends; `carcassonne ratings
// rebuild` replays every rated game in order (its end time, then its id) and must give the same
// table, row for row. Pure: no I/O.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "server/rating.hpp"
#include "server/store.hpp"

namespace carc::server::rating {

// What rating needs of a finished rated game.
struct RatedGame {
  std::string id, game;
  std::int64_t time = 0;             // its `end` event's time
  std::vector<std::string> players;  // per seat
  std::vector<int> scores;
  std::vector<bool> forfeited;  // resigned or ran out of time: last
};

// How a game's log ends: its `end` event's time, reason, scores, and the seats that resigned or
// ran out of time; nullopt when it has none (or one without scores).
struct EndResult {
  std::int64_t time = 0;
  std::string reason;
  std::vector<int> scores;
  std::vector<bool> forfeited;  // per seat
};
std::optional<EndResult> end_result(const std::vector<Event>& events);

// The rated game of a store entry and its log; nullopt for a game that is not rated, not over, or
// aborted (an aborted game is not rated), or whose seats are not all players.
std::optional<RatedGame> rated_game(const GameMeta& meta, const std::vector<Event>& events);

// A player's standing in one bucket.
struct Standing {
  Rating r;
  std::int64_t last = 0;  // the time of their last rated game (0: none)
  int games = 0;
  bool operator==(const Standing& o) const {
    return r.mu == o.r.mu && r.sigma == o.r.sigma && last == o.last && games == o.games;
  }
};

// One player's change by one game.
struct HistoryRow {
  std::string game, player, bucket;
  Rating before, after;
  std::int64_t time = 0;
  bool operator==(const HistoryRow& o) const {
    return game == o.game && player == o.player && bucket == o.bucket && before.mu == o.before.mu &&
           before.sigma == o.before.sigma && after.mu == o.after.mu && after.sigma == o.after.sigma && time == o.time;
  }
};

// Rates `g` from the players' standings in its bucket (`current`, by player: a missing one starts
// at the model's defaults; updated in place): each prior grows by the days since the player's last
// rated game (rating::idle), then the model's step with τ. Returns a row per seat.
std::vector<HistoryRow> rate_game(const RatedGame& g, std::map<std::string, Standing>& current,
                                  const ModelParams& p = {});

// Every rated game rated in order: the table and the history a rebuild makes.
struct RatingBook {
  std::map<std::pair<std::string, std::string>, Standing> table;  // (bucket, player)
  std::vector<HistoryRow> history;
  // Games in any order: sorted by (time, id) first; the history ends in the stores' order (time,
  // game, player).
  void rate_all(std::vector<RatedGame> games, const ModelParams& p = {});
  void add(const RatedGame& g, const ModelParams& p = {});
};

// Every finished rated game of the store, rated in order: what `carcassonne ratings rebuild`
// writes and what the incremental tables must equal.
RatingBook rebuild(Store& store, const ModelParams& p = {});

// A double as text that reads back to the same double (the stores keep ratings so).
std::string exact(double v);
double read_exact(const std::string& text);

}  // namespace carc::server::rating
