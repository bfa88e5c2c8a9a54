// The SQLite store: one file in WAL mode, synchronous=FULL (a commit is on disk before it is
// acknowledged). One connection writes (group commits, job leases), another reads, so that
// reading a log never waits for an fsync.
#include <sqlite3.h>

#include <mutex>
#include <utility>

#include "server/store.hpp"

namespace carc::server {
namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS games(
  id TEXT PRIMARY KEY, game TEXT NOT NULL, settings TEXT NOT NULL, seed TEXT NOT NULL,
  created INTEGER NOT NULL, status TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS games_by_status ON games(status, created);
CREATE TABLE IF NOT EXISTS events(
  game TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, seat INTEGER NOT NULL,
  cid TEXT NOT NULL, time INTEGER NOT NULL, body TEXT NOT NULL,
  PRIMARY KEY(game, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS jobs(
  game TEXT NOT NULL, seq INTEGER NOT NULL, seat INTEGER NOT NULL, spec TEXT NOT NULL,
  lease TEXT NOT NULL, lease_until INTEGER NOT NULL, made INTEGER NOT NULL,
  PRIMARY KEY(game, seq));
CREATE INDEX IF NOT EXISTS jobs_by_age ON jobs(made);
)sql";

class Db {
 public:
  Db(const std::string& path, bool writer) {
    const int flags = writer ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
                             : SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
      const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      db_ = nullptr;
      throw StoreError("sqlite: cannot open " + path + ": " + why);
    }
    sqlite3_busy_timeout(db_, 10000);
    exec("PRAGMA journal_mode=WAL");
    exec("PRAGMA synchronous=FULL");
    exec("PRAGMA foreign_keys=ON");
    if (writer) exec(kSchema);
  }
  ~Db() { sqlite3_close(db_); }
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  void exec(const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
      const std::string why = err ? err : "?";
      sqlite3_free(err);
      throw StoreError(std::string("sqlite: ") + why);
    }
  }
  [[nodiscard]] sqlite3* get() const { return db_; }
  [[nodiscard]] std::string error() const { return sqlite3_errmsg(db_); }

 private:
  sqlite3* db_ = nullptr;
};

// A prepared statement: bind, step, read columns; reset on destruction.
class Stmt {
 public:
  Stmt(Db& db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db.get(), sql, -1, &st_, nullptr) != SQLITE_OK) throw StoreError("sqlite: " + db.error());
  }
  ~Stmt() { sqlite3_finalize(st_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  Stmt& bind(int i, const std::string& v) {
    check(sqlite3_bind_text(st_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
    return *this;
  }
  Stmt& bind(int i, std::int64_t v) {
    check(sqlite3_bind_int64(st_, i, v));
    return *this;
  }
  // true: a row; false: done. Throws on an error; `constraint` (if given) is set instead of
  // throwing when a constraint failed.
  bool step(bool* constraint = nullptr) {
    const int rc = sqlite3_step(st_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    if (constraint && (rc & 0xFF) == SQLITE_CONSTRAINT) {
      *constraint = true;
      return false;
    }
    throw StoreError("sqlite: " + db_.error());
  }
  void reset() { sqlite3_reset(st_); }
  [[nodiscard]] std::int64_t i64(int c) const { return sqlite3_column_int64(st_, c); }
  [[nodiscard]] std::string text(int c) const {
    const auto* p = sqlite3_column_text(st_, c);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(st_, c))) : std::string();
  }

 private:
  void check(int rc) const {
    if (rc != SQLITE_OK) throw StoreError("sqlite: " + db_.error());
  }
  Db& db_;
  sqlite3_stmt* st_ = nullptr;
};

GameMeta meta_of(const Stmt& q) {
  GameMeta m;
  m.id = q.text(0);
  m.game = q.text(1);
  m.settings = q.text(2);
  m.seed = q.text(3);
  m.created = q.i64(4);
  m.status = q.text(5);
  return m;
}

Job job_of(const Stmt& q) {
  Job j;
  j.game = q.text(0);
  j.seq = q.i64(1);
  j.seat = static_cast<int>(q.i64(2));
  j.spec = q.text(3);
  j.lease = q.text(4);
  j.lease_until = q.i64(5);
  return j;
}

class SqliteStore final : public Store {
 public:
  explicit SqliteStore(const std::string& path) : w_(path, true), r_(path, false) {}

  [[nodiscard]] std::string kind() const override { return "sqlite"; }

  void create(const GameMeta& m, const Append& first) override {
    const std::lock_guard lock(wmu_);
    w_.exec("BEGIN IMMEDIATE");
    try {
      bool dup = false;
      Stmt q(w_, "INSERT INTO games(id, game, settings, seed, created, status) VALUES(?,?,?,?,?,?)");
      q.bind(1, m.id).bind(2, m.game).bind(3, m.settings).bind(4, m.seed).bind(5, m.created).bind(6, m.status).step(&dup);
      if (dup) throw StoreError("game " + m.id + " exists");
      if (!append(first)) throw StoreError("game " + m.id + ": its first events do not start at seq 1");
      w_.exec("COMMIT");
    } catch (...) {
      w_.exec("ROLLBACK");
      throw;
    }
  }

  std::vector<bool> commit(const std::vector<Append>& batch) override {
    const std::lock_guard lock(wmu_);
    std::vector<bool> ok;
    ok.reserve(batch.size());
    w_.exec("BEGIN IMMEDIATE");
    try {
      for (const Append& a : batch) {
        w_.exec("SAVEPOINT one");
        const bool done = append(a);
        w_.exec(done ? "RELEASE one" : "ROLLBACK TO one");
        if (!done) w_.exec("RELEASE one");
        ok.push_back(done);
      }
      w_.exec("COMMIT");
    } catch (...) {
      sqlite3_exec(w_.get(), "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
    return ok;
  }

  std::optional<GameMeta> game(const std::string& id) override {
    const std::lock_guard lock(rmu_);
    Stmt q(r_, "SELECT id, game, settings, seed, created, status FROM games WHERE id = ?");
    q.bind(1, id);
    if (!q.step()) return std::nullopt;
    return meta_of(q);
  }

  std::vector<Event> events(const std::string& id, std::int64_t since) override {
    const std::lock_guard lock(rmu_);
    Stmt q(r_, "SELECT seq, type, seat, cid, time, body FROM events WHERE game = ? AND seq > ? ORDER BY seq");
    q.bind(1, id).bind(2, since);
    std::vector<Event> out;
    while (q.step()) {
      Event e;
      e.seq = q.i64(0);
      e.type = q.text(1);
      e.seat = static_cast<int>(q.i64(2));
      e.cid = q.text(3);
      e.time = q.i64(4);
      e.body = q.text(5);
      out.push_back(std::move(e));
    }
    return out;
  }

  std::vector<std::string> active() override {
    const std::lock_guard lock(rmu_);
    Stmt q(r_, "SELECT id FROM games WHERE status = 'active' ORDER BY created, id");
    std::vector<std::string> out;
    while (q.step()) out.push_back(q.text(0));
    return out;
  }

  std::vector<GameMeta> list(const std::string& status, int limit) override {
    const std::lock_guard lock(rmu_);
    Stmt q(r_, status.empty() ? "SELECT id, game, settings, seed, created, status FROM games ORDER BY created DESC, id DESC LIMIT ?"
                              : "SELECT id, game, settings, seed, created, status FROM games WHERE status = ? ORDER BY created DESC, id DESC LIMIT ?");
    if (status.empty()) {
      q.bind(1, static_cast<std::int64_t>(limit));
    } else {
      q.bind(1, status).bind(2, static_cast<std::int64_t>(limit));
    }
    std::vector<GameMeta> out;
    while (q.step()) out.push_back(meta_of(q));
    return out;
  }

  std::optional<Job> take_job(const std::string& lease, std::int64_t now, std::int64_t lease_ms, JobLane lane) override {
    const std::lock_guard lock(wmu_);
    w_.exec("BEGIN IMMEDIATE");
    try {
      std::optional<Job> j;
      {
        static const std::string cheap =
            "SELECT game, seq, seat, spec, lease, lease_until FROM jobs WHERE (lease = '' OR lease_until < ?) "
            "AND spec IN " +
            cheap_bots_sql() + " ORDER BY made, game, seq LIMIT 1";
        static const std::string costly =
            "SELECT game, seq, seat, spec, lease, lease_until FROM jobs WHERE (lease = '' OR lease_until < ?) "
            "AND spec NOT IN " +
            cheap_bots_sql() + " ORDER BY made, game, seq LIMIT 1";
        Stmt q(w_,
               lane == JobLane::cheap ? cheap.c_str()
               : lane == JobLane::costly
                   ? costly.c_str()
                   : "SELECT game, seq, seat, spec, lease, lease_until FROM jobs WHERE lease = '' OR lease_until < ? "
                     "ORDER BY made, game, seq LIMIT 1");
        q.bind(1, now);
        if (q.step()) j = job_of(q);
      }
      if (j) {
        j->lease = lease;
        j->lease_until = now + lease_ms;
        Stmt u(w_, "UPDATE jobs SET lease = ?, lease_until = ? WHERE game = ? AND seq = ?");
        u.bind(1, j->lease).bind(2, j->lease_until).bind(3, j->game).bind(4, j->seq).step();
      }
      w_.exec("COMMIT");
      return j;
    } catch (...) {
      sqlite3_exec(w_.get(), "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }

  std::vector<Job> jobs() override {
    const std::lock_guard lock(rmu_);
    Stmt q(r_, "SELECT game, seq, seat, spec, lease, lease_until FROM jobs ORDER BY made, game, seq");
    std::vector<Job> out;
    while (q.step()) out.push_back(job_of(q));
    return out;
  }

  void release_job(const std::string& game, std::int64_t seq, const std::string& lease) override {
    const std::lock_guard lock(wmu_);
    Stmt u(w_, "UPDATE jobs SET lease = '', lease_until = 0 WHERE game = ? AND seq = ? AND lease = ?");
    u.bind(1, game).bind(2, seq).bind(3, lease).step();
  }

 private:
  // One game's append inside the open transaction; false (and partly written: the caller rolls
  // back to its savepoint) if fenced.
  bool append(const Append& a) {
    if (!a.events.empty()) {
      Stmt last(w_, "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game = ?");
      last.bind(1, a.game);
      last.step();
      std::int64_t next = last.i64(0) + 1;
      for (const Event& e : a.events)
        if (e.seq != next++) return false;
      {
        Stmt exists(w_, "SELECT 1 FROM games WHERE id = ?");
        exists.bind(1, a.game);
        if (!exists.step()) return false;
      }
      Stmt ins(w_, "INSERT INTO events(game, seq, type, seat, cid, time, body) VALUES(?,?,?,?,?,?,?)");
      for (const Event& e : a.events) {
        bool conflict = false;
        ins.bind(1, a.game).bind(2, e.seq).bind(3, e.type).bind(4, static_cast<std::int64_t>(e.seat)).bind(5, e.cid).bind(6, e.time).bind(7, e.body);
        ins.step(&conflict);
        if (conflict) return false;
        ins.reset();
      }
    }
    for (const std::int64_t s : a.done_jobs) {
      Stmt d(w_, "DELETE FROM jobs WHERE game = ? AND seq = ?");
      d.bind(1, a.game).bind(2, s).step();
    }
    if (a.job) {
      Stmt j(w_, "INSERT OR REPLACE INTO jobs(game, seq, seat, spec, lease, lease_until, made) VALUES(?,?,?,?,?,?,?)");
      const std::int64_t made = a.events.empty() ? 0 : a.events.back().time;
      j.bind(1, a.game).bind(2, a.job->seq).bind(3, static_cast<std::int64_t>(a.job->seat)).bind(4, a.job->spec).bind(5, a.job->lease).bind(6, a.job->lease_until).bind(7, made).step();
    }
    if (!a.status.empty()) {
      Stmt u(w_, "UPDATE games SET status = ? WHERE id = ?");
      u.bind(1, a.status).bind(2, a.game).step();
    }
    return true;
  }

  std::mutex wmu_, rmu_;
  Db w_, r_;
};

}  // namespace

std::unique_ptr<Store> make_sqlite_store(const std::string& path) { return std::make_unique<SqliteStore>(path); }

}  // namespace carc::server
