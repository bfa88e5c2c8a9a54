// The PostgreSQL store, through libpq: the same contract as SQLite (server/store.hpp). Several
// `serve` processes may share one database: (game, seq) is the primary key of the log, so two
// writers can never both extend a game; jobs are leased with FOR UPDATE SKIP LOCKED.
#include <fmt/format.h>
#include <libpq-fe.h>

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

class Conn {
 public:
  explicit Conn(const std::string& conninfo) : c_(PQconnectdb(conninfo.c_str())) {
    if (!c_ || PQstatus(c_) != CONNECTION_OK) {
      const std::string why = c_ ? PQerrorMessage(c_) : "out of memory";
      PQfinish(c_);
      c_ = nullptr;
      throw StoreError("postgresql: cannot connect: " + why);
    }
  }
  ~Conn() { PQfinish(c_); }
  Conn(const Conn&) = delete;
  Conn& operator=(const Conn&) = delete;

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
    const std::string why = PQresultErrorMessage(r);
    PQclear(r);
    if (unique && state == "23505") {
      *unique = true;
      return Result(nullptr);
    }
    throw StoreError("postgresql: " + why);
  }

 private:
  PGconn* c_ = nullptr;
};

std::string num(std::int64_t v) { return std::to_string(v); }

GameMeta meta_of(const Result& q, int i) {
  return {q.text(i, 0), q.text(i, 1), q.text(i, 2), q.text(i, 3), q.i64(i, 4), q.text(i, 5)};
}

Job job_of(const Result& q, int i) {
  return {q.text(i, 0), q.i64(i, 1), static_cast<int>(q.i64(i, 2)), q.text(i, 3), q.text(i, 4), q.i64(i, 5)};
}

class PgStore final : public Store {
 public:
  explicit PgStore(const std::string& conninfo) : w_(conninfo), r_(conninfo) {
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

  void create(const GameMeta& m, const Append& first) override {
    const std::lock_guard lock(wmu_);
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
  }

  std::vector<bool> commit(const std::vector<Append>& batch) override {
    const std::lock_guard lock(wmu_);
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
  }

  std::optional<GameMeta> game(const std::string& id) override {
    const std::lock_guard lock(rmu_);
    const Result q = r_.run("SELECT id, game, settings, seed, created, status FROM games WHERE id = $1", {id});
    if (q.rows() == 0) return std::nullopt;
    return meta_of(q, 0);
  }

  std::vector<Event> events(const std::string& id, std::int64_t since) override {
    const std::lock_guard lock(rmu_);
    const Result q = r_.run("SELECT seq, type, seat, cid, time, body FROM events WHERE game = $1 AND seq > $2 ORDER BY seq", {id, num(since)});
    std::vector<Event> out;
    for (int i = 0; i < q.rows(); ++i)
      out.push_back({q.i64(i, 0), q.text(i, 1), static_cast<int>(q.i64(i, 2)), q.text(i, 3), q.i64(i, 4), q.text(i, 5)});
    return out;
  }

  std::vector<std::string> active() override {
    const std::lock_guard lock(rmu_);
    const Result q = r_.run("SELECT id FROM games WHERE status = 'active' ORDER BY created, id");
    std::vector<std::string> out;
    for (int i = 0; i < q.rows(); ++i) out.push_back(q.text(i, 0));
    return out;
  }

  std::vector<GameMeta> list(const std::string& status, int limit) override {
    const std::lock_guard lock(rmu_);
    const Result q = status.empty()
                         ? r_.run("SELECT id, game, settings, seed, created, status FROM games ORDER BY created DESC, id DESC LIMIT $1", {num(limit)})
                         : r_.run("SELECT id, game, settings, seed, created, status FROM games WHERE status = $1 ORDER BY created DESC, id DESC LIMIT $2",
                                  {status, num(limit)});
    std::vector<GameMeta> out;
    for (int i = 0; i < q.rows(); ++i) out.push_back(meta_of(q, i));
    return out;
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
    const Result q = w_.run(sql.c_str(), {lease, num(now + lease_ms), num(now)});
    if (q.rows() == 0) return std::nullopt;
    return job_of(q, 0);
  }

  std::vector<std::pair<std::string, std::int64_t>> heads(const std::vector<std::string>& ids) override {
    std::string arr = "{";
    for (std::size_t i = 0; i < ids.size(); ++i) arr += (i ? "," : "") + ids[i];  // ids are hex
    arr += "}";
    const std::lock_guard lock(rmu_);
    const Result q = r_.run("SELECT game, MAX(seq) FROM events WHERE game = ANY($1::text[]) GROUP BY game", {arr});
    std::vector<std::pair<std::string, std::int64_t>> out;
    for (int i = 0; i < q.rows(); ++i) out.emplace_back(q.text(i, 0), q.i64(i, 1));
    return out;
  }

  std::vector<Job> jobs() override {
    const std::lock_guard lock(rmu_);
    const Result q = r_.run("SELECT game, seq, seat, spec, lease, lease_until FROM jobs ORDER BY made, game, seq");
    std::vector<Job> out;
    for (int i = 0; i < q.rows(); ++i) out.push_back(job_of(q, i));
    return out;
  }

 private:
  void rollback() {
    try {
      w_.run("ROLLBACK");
    } catch (const StoreError&) {
      // the connection is gone; the transaction with it
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
  Conn w_, r_;
};

}  // namespace

std::unique_ptr<Store> make_pg_store(const std::string& conninfo) { return std::make_unique<PgStore>(conninfo); }

}  // namespace carc::server
