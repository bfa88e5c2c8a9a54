// The PostgreSQL store, through libpq: the same contract as SQLite (server/store.hpp). Several
// `serve` processes may share one database: (game, seq) is the primary key of the log, so two
// writers can never both extend a game; jobs are leased with FOR UPDATE SKIP LOCKED.
#include <fmt/format.h>
#include <libpq-fe.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <utility>

#include "server/store.hpp"

namespace carc::server {
namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS games(
  id TEXT PRIMARY KEY, game TEXT NOT NULL, settings TEXT NOT NULL, seed TEXT NOT NULL,
  created BIGINT NOT NULL, status TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS games_by_status ON games(status, created);
CREATE TABLE IF NOT EXISTS events(
  game TEXT NOT NULL, seq BIGINT NOT NULL, type TEXT NOT NULL, seat INTEGER NOT NULL,
  cid TEXT NOT NULL, time BIGINT NOT NULL, body TEXT NOT NULL,
  PRIMARY KEY(game, seq));
CREATE TABLE IF NOT EXISTS jobs(
  game TEXT NOT NULL, seq BIGINT NOT NULL, seat INTEGER NOT NULL, spec TEXT NOT NULL,
  lease TEXT NOT NULL, lease_until BIGINT NOT NULL, made BIGINT NOT NULL,
  PRIMARY KEY(game, seq));
CREATE INDEX IF NOT EXISTS jobs_by_age ON jobs(made);
)sql";

// A query's result; freed on destruction.
class Result {
 public:
  explicit Result(PGresult* r) : r_(r) {}
  ~Result() { PQclear(r_); }
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;
  Result(Result&& o) noexcept : r_(std::exchange(o.r_, nullptr)) {}
  [[nodiscard]] int rows() const { return PQntuples(r_); }
  [[nodiscard]] std::string text(int row, int col) const { return PQgetvalue(r_, row, col); }
  [[nodiscard]] std::int64_t i64(int row, int col) const { return std::stoll(PQgetvalue(r_, row, col)); }

 private:
  PGresult* r_;
};

// What both connections of a store share: the counts for /metrics and the log's callback.
struct Link {
  std::atomic<std::uint64_t> lost{0}, reconnects{0}, failed_reconnects{0};
  StoreLog log;
  std::mutex log_mu;  // the callback is set once, before the store is shared; guards the copy
  void log_event(const std::string& event, const std::string& message) {
    StoreLog f;
    {
      const std::lock_guard lock(log_mu);
      f = log;
    }
    if (f) f(event, message);
  }
};

// libpq's message without its trailing newlines (several lines joined by "; ").
std::string one_line(std::string why) {
  while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
  for (char& ch : why)
    if (ch == '\n') ch = ';';
  return why;
}

// One connection, opened again when it is found broken (the cluster restarted, the connection was
// dropped): `ready()` before each use reconnects at once the first time, then at most once per
// back-off (100 ms doubling to 2 s) while the database stays down; a use in between fails at once
// (StoreError) rather than waiting.
class Conn {
 public:
  Conn(std::string conninfo, Link& link, const char* role) : info_(std::move(conninfo)), link_(link), role_(role) {
    c_ = PQconnectdb(info_.c_str());
    if (!c_ || PQstatus(c_) != CONNECTION_OK) {
      const std::string why = c_ ? PQerrorMessage(c_) : "out of memory";
      PQfinish(c_);
      c_ = nullptr;
      throw StoreError("postgresql: cannot connect: " + one_line(why));
    }
    quiet_notices();
  }
  ~Conn() { PQfinish(c_); }
  Conn(const Conn&) = delete;
  Conn& operator=(const Conn&) = delete;

  [[nodiscard]] bool ok() const { return c_ && PQstatus(c_) == CONNECTION_OK; }

  // The connection is open, or opened again now; throws StoreError if it cannot be (yet).
  void ready() {
    if (ok()) return;
    const auto now = std::chrono::steady_clock::now();
    if (!down_) {
      down_ = true;
      down_since_ = now;
      tries_ = 0;
      backoff_ms_ = 0;
      next_try_ = now;
      ++link_.lost;
      link_.log_event("store_lost", fmt::format("postgresql: the {} connection is broken: {}", role_,
                                                one_line(c_ ? PQerrorMessage(c_) : "not open")));
    }
    if (now < next_try_) {
      const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next_try_ - now).count();
      throw StoreError(fmt::format("postgresql: the connection is broken; it is opened again in {} ms", wait));
    }
    ++tries_;
    PGconn* n = PQconnectdb(info_.c_str());
    if (n && PQstatus(n) == CONNECTION_OK) {
      PQfinish(c_);
      c_ = n;
      quiet_notices();
      down_ = false;
      ++link_.reconnects;
      const auto ms =
          std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - down_since_).count();
      link_.log_event(
          "store_reconnected",
          fmt::format("postgresql: the {} connection is open again after {} ms and {} tries", role_, ms, tries_));
      return;
    }
    const std::string why = one_line(n ? PQerrorMessage(n) : "out of memory");
    PQfinish(n);
    ++link_.failed_reconnects;
    backoff_ms_ = std::clamp(backoff_ms_ * 2, 100, 2000);
    next_try_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(backoff_ms_);
    link_.log_event("store_reconnect_failed",
                    fmt::format("postgresql: the {} connection cannot be opened again (try {}; the next in {} ms): {}",
                                role_, tries_, backoff_ms_, why));
    throw StoreError("postgresql: cannot reconnect: " + why);
  }

  // libpq prints the server's notices, and an error that arrives between queries ("FATAL:
  // terminating connection due to administrator command" when the cluster stops), on stderr: they
  // go to the server's log as events instead, which stays one JSON object per line.
  void quiet_notices() {
    PQsetNoticeProcessor(
        c_,
        [](void* self, const char* message) {
          auto* c = static_cast<Conn*>(self);
          c->link_.log_event("store_notice",
                             fmt::format("postgresql: the {} connection: {}", c->role_, one_line(message)));
        },
        this);
  }

  // Runs a statement with text parameters. `unique` (if given) is set instead of throwing when a
  // unique constraint failed.
  Result run(const char* sql, const std::vector<std::string>& params = {}, bool* unique = nullptr) {
    std::vector<const char*> p;
    p.reserve(params.size());
    for (const auto& s : params) p.push_back(s.c_str());
    PGresult* r = params.empty() ? PQexec(c_, sql)
                                 : PQexecParams(c_, sql, static_cast<int>(p.size()), nullptr, p.data(), nullptr, nullptr, 0);
    const auto st = PQresultStatus(r);
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) return Result(r);
    const char* code = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    const std::string state = code ? code : "";  // copied: it lives in r
    const std::string why = r ? PQresultErrorMessage(r) : PQerrorMessage(c_);
    PQclear(r);
    if (unique && state == "23505") {
      *unique = true;
      return Result(nullptr);
    }
    throw StoreError("postgresql: " + one_line(why));
  }

 private:
  std::string info_;
  Link& link_;
  const char* role_;
  PGconn* c_ = nullptr;
  bool down_ = false;
  int tries_ = 0, backoff_ms_ = 0;
  std::chrono::steady_clock::time_point down_since_, next_try_;
};

// f() on `c` (opened again first if it was found broken). A use that fails because the connection
// broke under it is tried once more on a new connection: nothing of a transaction that failed was
// written, and an append whose COMMIT did reach the database before the connection broke is fenced
// the second time (its seqs are taken), as an append of another writer would be.
template <class F>
auto on(Conn& c, F&& f) {
  c.ready();
  try {
    return f();
  } catch (const StoreError&) {
    if (c.ok()) throw;
  }
  c.ready();
  return f();
}

std::string num(std::int64_t v) { return std::to_string(v); }

GameMeta meta_of(const Result& q, int i) {
  return {q.text(i, 0), q.text(i, 1), q.text(i, 2), q.text(i, 3), q.i64(i, 4), q.text(i, 5)};
}

Job job_of(const Result& q, int i) {
  return {q.text(i, 0), q.i64(i, 1), static_cast<int>(q.i64(i, 2)), q.text(i, 3), q.text(i, 4), q.i64(i, 5)};
}

class PgStore final : public Store {
 public:
  explicit PgStore(const std::string& conninfo) : w_(conninfo, link_, "writing"), r_(conninfo, link_, "reading") {
    // one schema, whoever starts first: serialised by an advisory lock
    w_.run("SELECT pg_advisory_lock(7406)");
    try {
      w_.run(kSchema);
    } catch (...) {
      w_.run("SELECT pg_advisory_unlock(7406)");
      throw;
    }
    w_.run("SELECT pg_advisory_unlock(7406)");
  }

  [[nodiscard]] std::string kind() const override { return "postgresql"; }

  void set_log(StoreLog f) override {
    const std::lock_guard lock(link_.log_mu);
    link_.log = std::move(f);
  }

  StoreHealth health() override {
    StoreHealth h;
    {
      const std::lock_guard lock(wmu_);
      h.up = w_.ok();
    }
    {
      const std::lock_guard lock(rmu_);
      h.up = h.up && r_.ok();
    }
    h.lost = link_.lost;
    h.reconnects = link_.reconnects;
    h.failed_reconnects = link_.failed_reconnects;
    return h;
  }

  // Both connections answer (each opened again if it was broken).
  void check() override {
    {
      const std::lock_guard lock(rmu_);
      on(r_, [&] { return r_.run("SELECT 1"); });
    }
    const std::lock_guard lock(wmu_);
    on(w_, [&] { return w_.run("SELECT 1"); });
  }

  void create(const GameMeta& m, const Append& first) override {
    const std::lock_guard lock(wmu_);
    on(w_, [&] {
      w_.run("BEGIN");
      try {
        bool dup = false;
        w_.run("INSERT INTO games(id, game, settings, seed, created, status) VALUES($1,$2,$3,$4,$5,$6)",
               {m.id, m.game, m.settings, m.seed, num(m.created), m.status}, &dup);
        if (dup) throw StoreError("game " + m.id + " exists");
        if (!append(first)) throw StoreError("game " + m.id + ": its first events do not start at seq 1");
        w_.run("COMMIT");
      } catch (...) {
        rollback();
        throw;
      }
      return 0;
    });
  }

  std::vector<bool> commit(const std::vector<Append>& batch) override {
    const std::lock_guard lock(wmu_);
    return on(w_, [&] {
      std::vector<bool> ok;
      ok.reserve(batch.size());
      w_.run("BEGIN");
      try {
        for (const Append& a : batch) {
          w_.run("SAVEPOINT one");
          const bool done = append(a);
          w_.run(done ? "RELEASE SAVEPOINT one" : "ROLLBACK TO SAVEPOINT one");
          if (!done) w_.run("RELEASE SAVEPOINT one");
          ok.push_back(done);
        }
        w_.run("COMMIT");
      } catch (...) {
        rollback();
        throw;
      }
      return ok;
    });
  }

  std::optional<GameMeta> game(const std::string& id) override {
    const std::lock_guard lock(rmu_);
    return on(r_, [&]() -> std::optional<GameMeta> {
      const Result q = r_.run("SELECT id, game, settings, seed, created, status FROM games WHERE id = $1", {id});
      if (q.rows() == 0) return std::nullopt;
      return meta_of(q, 0);
    });
  }

  std::vector<Event> events(const std::string& id, std::int64_t since) override {
    const std::lock_guard lock(rmu_);
    return on(r_, [&] {
      const Result q =
          r_.run("SELECT seq, type, seat, cid, time, body FROM events WHERE game = $1 AND seq > $2 ORDER BY seq",
                 {id, num(since)});
      std::vector<Event> out;
      for (int i = 0; i < q.rows(); ++i)
        out.push_back(
            {q.i64(i, 0), q.text(i, 1), static_cast<int>(q.i64(i, 2)), q.text(i, 3), q.i64(i, 4), q.text(i, 5)});
      return out;
    });
  }

  std::vector<std::string> active() override {
    const std::lock_guard lock(rmu_);
    return on(r_, [&] {
      const Result q = r_.run("SELECT id FROM games WHERE status = 'active' ORDER BY created, id");
      std::vector<std::string> out;
      for (int i = 0; i < q.rows(); ++i) out.push_back(q.text(i, 0));
      return out;
    });
  }

  std::vector<GameMeta> list(const std::string& status, int limit) override {
    const std::lock_guard lock(rmu_);
    return on(r_, [&] {
      const Result q = status.empty() ? r_.run(
                                            "SELECT id, game, settings, seed, created, status FROM games ORDER BY "
                                            "created DESC, id DESC LIMIT $1",
                                            {num(limit)})
                                      : r_.run(
                                            "SELECT id, game, settings, seed, created, status FROM games WHERE status "
                                            "= $1 ORDER BY created DESC, id DESC LIMIT $2",
                                            {status, num(limit)});
      std::vector<GameMeta> out;
      for (int i = 0; i < q.rows(); ++i) out.push_back(meta_of(q, i));
      return out;
    });
  }

  std::optional<Job> take_job(const std::string& lease, std::int64_t now, std::int64_t lease_ms, JobLane lane) override {
    const std::lock_guard lock(wmu_);
    const std::string filter = lane == JobLane::cheap    ? " AND spec IN " + cheap_bots_sql()
                               : lane == JobLane::costly ? " AND spec NOT IN " + cheap_bots_sql()
                                                         : "";
    const std::string sql = fmt::format(
        "UPDATE jobs SET lease = $1, lease_until = $2 WHERE (game, seq) = (SELECT game, seq FROM jobs WHERE (lease = '' OR lease_until < $3){} "
        "ORDER BY made, game, seq LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING game, seq, seat, spec, lease, lease_until",
        filter);
    return on(w_, [&]() -> std::optional<Job> {
      const Result q = w_.run(sql.c_str(), {lease, num(now + lease_ms), num(now)});
      if (q.rows() == 0) return std::nullopt;
      return job_of(q, 0);
    });
  }

  std::vector<std::pair<std::string, std::int64_t>> heads(const std::vector<std::string>& ids) override {
    std::string arr = "{";
    for (std::size_t i = 0; i < ids.size(); ++i) arr += (i ? "," : "") + ids[i];  // ids are hex
    arr += "}";
    const std::lock_guard lock(rmu_);
    return on(r_, [&] {
      const Result q = r_.run("SELECT game, MAX(seq) FROM events WHERE game = ANY($1::text[]) GROUP BY game", {arr});
      std::vector<std::pair<std::string, std::int64_t>> out;
      for (int i = 0; i < q.rows(); ++i) out.emplace_back(q.text(i, 0), q.i64(i, 1));
      return out;
    });
  }

  std::vector<Job> jobs() override {
    const std::lock_guard lock(rmu_);
    return on(r_, [&] {
      const Result q = r_.run("SELECT game, seq, seat, spec, lease, lease_until FROM jobs ORDER BY made, game, seq");
      std::vector<Job> out;
      for (int i = 0; i < q.rows(); ++i) out.push_back(job_of(q, i));
      return out;
    });
  }

  void release_job(const std::string& game, std::int64_t seq, const std::string& lease) override {
    const std::lock_guard lock(wmu_);
    on(w_, [&] {
      return w_.run("UPDATE jobs SET lease = '', lease_until = 0 WHERE game = $1 AND seq = $2 AND lease = $3",
                    {game, num(seq), lease});
    });
  }

 private:
  void rollback() {
    if (!w_.ok()) return;  // the connection is gone; the transaction with it
    try {
      w_.run("ROLLBACK");
    } catch (const StoreError&) {
      // the connection broke now; the transaction is gone with it
    }
  }

  bool append(const Append& a) {
    if (!a.events.empty()) {
      const Result last = w_.run("SELECT COALESCE(MAX(seq), 0), (SELECT COUNT(*) FROM games WHERE id = $1) FROM events WHERE game = $1", {a.game});
      if (last.i64(0, 1) == 0) return false;
      std::int64_t next = last.i64(0, 0) + 1;
      for (const Event& e : a.events)
        if (e.seq != next++) return false;
      for (const Event& e : a.events) {
        bool taken = false;
        w_.run("INSERT INTO events(game, seq, type, seat, cid, time, body) VALUES($1,$2,$3,$4,$5,$6,$7)",
               {a.game, num(e.seq), e.type, num(e.seat), e.cid, num(e.time), e.body}, &taken);
        if (taken) return false;
      }
    }
    for (const std::int64_t s : a.done_jobs) w_.run("DELETE FROM jobs WHERE game = $1 AND seq = $2", {a.game, num(s)});
    if (a.job) {
      const std::int64_t made = a.events.empty() ? 0 : a.events.back().time;
      w_.run("INSERT INTO jobs(game, seq, seat, spec, lease, lease_until, made) VALUES($1,$2,$3,$4,$5,$6,$7) "
             "ON CONFLICT (game, seq) DO UPDATE SET seat = EXCLUDED.seat, spec = EXCLUDED.spec",
             {a.game, num(a.job->seq), num(a.job->seat), a.job->spec, a.job->lease, num(a.job->lease_until), num(made)});
    }
    if (!a.status.empty()) w_.run("UPDATE games SET status = $1 WHERE id = $2", {a.status, a.game});
    return true;
  }

  std::mutex wmu_, rmu_;
  Link link_;  // (before the connections, which refer to it)
  Conn w_, r_;
};

}  // namespace

std::unique_ptr<Store> make_pg_store(const std::string& conninfo) { return std::make_unique<PgStore>(conninfo); }

}  // namespace carc::server
