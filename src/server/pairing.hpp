// server/pairing: quick pairing (issue 51, section 2; docs/pairing.md). One wave of one pool as a
// pure function of (pool, blocks, now) -> tables: no I/O, no clock, no randomness.
//
// A pool is one (game, seats, clock class) (PoolKey). Players wait in it (Waiting); every few
// seconds, or when the pool is full, the caller runs pair_wave over the pool's players and gets
// back the tables to open and the players still waiting (their state updated: keep `left` as the
// pool for the next wave).
//
// The wave, step by step:
//  1. Players whose since_ms is after now_ms joined after the wave was cut: they are not paired and
//     come back in `left` unchanged (they missed no wave).
//  2. The others are sorted by (rating, since_ms, player id): a total order, so the result does not
//     depend on the order of the input.
//  3. Anchors in that order: the lowest-rated player not yet seated (the anchor) opens a table and
//     scans the players above it, in order, taking each candidate that fits the table so far, until
//     the table has `seats` players. A candidate fits when
//       - it blocks no member and no member blocks it (Blocks),
//       - the table's spread with it (max - min rating) is within the allowance of every member and
//         of the candidate: allowance(w) = base_spread + spread_per_wave * w.waves_missed (the
//         bonus for each wave missed),
//       - its rating is inside every member's own range (if set), and every member's rating is
//         inside the candidate's range (if set): a range is the opponents' ratings a player accepts.
//     The scan stops at the first candidate above the anchor's allowance (no later one can fit) or
//     after `scan_window` unseated candidates, so a wave is O(n log n + n * scan_window * seats).
//  4. If no full table came of it and the anchor has missed at least waves_before_smaller waves,
//     the anchor scans again, taking only candidates that have missed at least as many, and a table
//     of min_seats..seats players is accepted (the largest the scan finds).
//  5. If still no table, the anchor stays unseated and the next unseated player becomes the
//     anchor (a later anchor only looks above itself: this one waits for the next wave).
//  6. Every player not seated (and not in step 1) comes back in `left` with waves_missed + 1.
//
// Output order: tables in the order they were formed (by anchor), members of a table in the sort
// order of step 2; `left` in the sort order of step 2. The greedy scan is not an optimal matching:
// it seats the nearest fitting players first, which keeps tables tight and the wave linear.
#pragma once
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace carc::server::pairing {

// Which pool: a game, its number of seats and its clock class (e.g. "realtime", "correspondence").
struct PoolKey {
  std::string game;
  int seats = 2;
  std::string clock_class;
  auto operator<=>(const PoolKey&) const = default;
};

// One player waiting in a pool. `rating` is the displayed rating (1500 scale); `since_ms` when the
// player joined the pool; `waves_missed` how many waves passed without seating them; `range`
// (optional) the lowest and highest rating of the opponents they accept.
struct Waiting {
  std::string player;
  double rating = 1500;
  std::int64_t since_ms = 0;
  int waves_missed = 0;
  std::optional<std::pair<double, double>> range;
  bool operator==(const Waiting&) const = default;
};

struct PoolParams {
  int seats = 2;      // a full table
  int min_seats = 2;  // the smallest table the game allows: 2 <= min_seats <= seats
  double base_spread = 150;
  double spread_per_wave = 75;
  int waves_before_smaller = 3;
  int scan_window = 64;  // unseated candidates an anchor looks at, at most (>= seats - 1)
};

// The players' blocks, unordered: blocked(a, b) is true if a blocked b or b blocked a.
class Blocks {
 public:
  void add(const std::string& a, const std::string& b);
  bool blocked(const std::string& a, const std::string& b) const;
  std::size_t size() const { return pairs_; }  // distinct unordered pairs

 private:
  std::unordered_map<std::string, std::unordered_set<std::string>> by_player_;
  std::size_t pairs_ = 0;
};

struct Wave {
  std::vector<std::vector<std::string>> tables;  // player ids, each table of min_seats..seats
  std::vector<Waiting> left;                     // the pool for the next wave
};

// The allowance of a player: base_spread + spread_per_wave * waves_missed.
double allowance(const Waiting& w, const PoolParams& p);

// One wave (the algorithm above). Throws std::invalid_argument on parameters out of range
// (seats < 2, min_seats outside 2..seats, a negative or infinite spread, waves_before_smaller < 0,
// scan_window < seats - 1), a rating or range bound that is not finite, a negative waves_missed, or
// the same player twice in the pool.
Wave pair_wave(std::vector<Waiting> pool, const Blocks& blocks, std::int64_t now_ms, const PoolParams& p);

}  // namespace carc::server::pairing
