// server/store: the game server's storage. The per-game event log is the only source of truth: a
// game's state is the replay of its log (server/room). One interface, run on SQLite (the default,
// one file in WAL mode) and PostgreSQL (libpq), and in memory for tests; one conformance suite
// runs against all of them (tests/test_server_store.cpp).
//
// Fencing: events are keyed (game, seq). An append whose first seq is taken fails as a conflict,
// so two writers (two `serve` processes, or a process that lost a game to another) can never both
// extend a game.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ai/bot_limits.hpp"

namespace carc::server {

// One entry of a game's log. `body` is the event's own fields as a JSON object text
// (docs/server-protocol.md lists them per type).
struct Event {
  std::int64_t seq = 0;   // 1, 2, 3, ... without gaps
  std::string type;  // created, draw, chance, turn, resign, abort, timeout, seat_bot, seat_back, end, rematch, name
  int seat = -1;          // the seat that made it (-1: the server)
  std::string cid;        // the client id of the command that made it ("" none)
  std::int64_t time = 0;  // server time (ms since the epoch) when it was made
  std::string body = "{}";
  bool operator==(const Event&) const = default;
};

// What a game is, fixed at creation. The seed is secret until the game ends (its hash is published
// in the first event). Seat tokens are stored only as their SHA-256 hashes.
struct GameMeta {
  std::string id;
  std::string game;             // the game's id (game_ids())
  std::string settings = "{}";  // creation request as JSON: options, seats (with token hashes), clock, absence
  std::string seed;             // decimal
  std::int64_t created = 0;     // ms since the epoch
  std::string status = "active";  // active, finished, aborted
  bool operator==(const GameMeta&) const = default;
};

// A bot's turn waiting for a worker: the seat to move at `seq` (the last seq when it became due).
struct Job {
  std::string game;
  std::int64_t seq = 0;
  int seat = 0;
  std::string spec;             // bot spec ("mcts:playouts=300", "greedy")
  std::string lease;            // "" free; else the holder's lease id
  std::int64_t lease_until = 0; // ms since the epoch; a lease past it may be taken again
  bool operator==(const Job&) const = default;
};

// One game's part of a group commit: its new events (seq must follow the stored log), the job it
// makes due (if any), the jobs it settles, and the status it moves to ("" unchanged).
struct Append {
  std::string game;
  std::vector<Event> events;
  std::optional<Job> job;
  std::vector<std::int64_t> done_jobs;  // seqs of this game's jobs that are finished
  std::string status;
};

// The bots whose turns take milliseconds (ai/bot_limits.hpp, cheap_bot): the server plays them in
// a lane of their own, so that they never wait behind searching bots.
enum class JobLane { any, cheap, costly };
// The cheap bots as an SQL list for the stores' queries: "('random', 'greedy', 'easy')".
inline std::string cheap_bots_sql() {
  std::string out = "(";
  for (const std::string_view b : kCheapBots) out += (out.size() > 1 ? ", '" : "'") + std::string(b) + "'";
  return out + ")";
}
inline bool in_lane(const std::string& spec, JobLane lane) {
  return lane == JobLane::any || (lane == JobLane::cheap) == cheap_bot(spec);
}

// A store operation that failed for a reason other than a fenced append (I/O, a broken database).
struct StoreError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A store's connection to its database, for /healthz, /metrics and the log. A store that can lose
// its connection (PostgreSQL: a restart of the cluster, a dropped connection) reconnects by itself
// when it is next used, at most once per back-off (100 ms doubling to 2 s while it fails).
struct StoreHealth {
  bool up = true;                       // its connections are open (as of their last use)
  std::uint64_t lost = 0;               // connections found broken
  std::uint64_t reconnects = 0;         // connections opened again
  std::uint64_t failed_reconnects = 0;  // tries that failed (the database still down)
};
// What the store tells the server's log: an event name (store_lost, store_reconnected,
// store_reconnect_failed) and what happened. Called on the thread that used the store.
using StoreLog = std::function<void(const std::string& event, const std::string& message)>;

class Store {
 public:
  virtual ~Store() = default;
  virtual void set_log(StoreLog) {}
  [[nodiscard]] virtual StoreHealth health() { return {}; }
  // Throws StoreError if the store does not answer now (GET /healthz).
  virtual void check() { (void)game("healthz"); }
  [[nodiscard]] virtual std::string kind() const = 0;  // "memory", "sqlite", "postgresql"
  // Creates the game with its first events. Throws StoreError if the id exists.
  virtual void create(const GameMeta& meta, const Append& first) = 0;
  // Commits many games' appends in one transaction (group commit). Per append: true if committed,
  // false if fenced (its game's log does not end just before its first event; nothing of it is
  // written). Throws StoreError if the transaction as a whole failed (then nothing is written).
  virtual std::vector<bool> commit(const std::vector<Append>& batch) = 0;
  [[nodiscard]] virtual std::optional<GameMeta> game(const std::string& id) = 0;
  // The events with seq > since, in order.
  [[nodiscard]] virtual std::vector<Event> events(const std::string& id, std::int64_t since) = 0;
  // Games with status "active", oldest first.
  [[nodiscard]] virtual std::vector<std::string> active() = 0;
  // Games by status (all when empty), newest first, at most `limit`.
  [[nodiscard]] virtual std::vector<GameMeta> list(const std::string& status, int limit) = 0;
  // Takes the oldest job that is free or whose lease ended before `now`: gives it `lease` until
  // now + lease_ms and returns it. lane: every job, only those of the bots that answer at once
  // (cheap_bot: the server's fast lane), or only the others (its searching workers).
  virtual std::optional<Job> take_job(const std::string& lease, std::int64_t now, std::int64_t lease_ms, JobLane lane = JobLane::any) = 0;
  [[nodiscard]] virtual std::vector<Job> jobs() = 0;
  // Gives back a job taken with `lease` (a worker that stops before it is done: a drain), so that
  // the next worker takes it at once rather than when the lease ends. Nothing if it is not held so.
  virtual void release_job(const std::string& game, std::int64_t seq, const std::string& lease) = 0;
  // The last seq of each of these games (several processes: who else extended them).
  [[nodiscard]] virtual std::vector<std::pair<std::string, std::int64_t>> heads(const std::vector<std::string>& ids) {
    std::vector<std::pair<std::string, std::int64_t>> out;
    for (const auto& id : ids) {
      const auto e = events(id, 0);
      out.emplace_back(id, e.empty() ? 0 : e.back().seq);
    }
    return out;
  }
};

// "memory", "sqlite:FILE" (or a path ending in .db/.sqlite), "postgresql://..." (or "postgres://").
// Throws StoreError when it cannot be opened.
std::unique_ptr<Store> open_store(const std::string& url);
std::unique_ptr<Store> make_memory_store();
std::unique_ptr<Store> make_sqlite_store(const std::string& path);
std::unique_ptr<Store> make_pg_store(const std::string& conninfo);

}  // namespace carc::server
