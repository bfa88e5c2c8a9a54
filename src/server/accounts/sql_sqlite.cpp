// server/accounts/sql on SQLite: one connection (WAL, synchronous=FULL, a busy timeout).
#include <sqlite3.h>

#include <mutex>

#include "server/accounts/sql.hpp"
#include "server/store.hpp"

namespace carc::server::accounts {
namespace {

class SqliteSql final : public Sql {
 public:
  explicit SqliteSql(const std::string& path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        nullptr) != SQLITE_OK) {
      const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      db_ = nullptr;
      throw StoreError("sqlite: cannot open " + path + ": " + why);
    }
    sqlite3_busy_timeout(db_, 10000);
    if (path != ":memory:") {
      script("PRAGMA journal_mode=WAL");
      script("PRAGMA synchronous=FULL");
    }
  }
  ~SqliteSql() override { sqlite3_close(db_); }
  SqliteSql(const SqliteSql&) = delete;
  SqliteSql& operator=(const SqliteSql&) = delete;

  [[nodiscard]] std::string dialect() const override { return "sqlite"; }

  std::vector<SqlRow> run(std::string_view sql, const std::vector<SqlParam>& params) override {
    const std::lock_guard lock(mu_);
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &st, nullptr) != SQLITE_OK)
      throw StoreError(std::string("sqlite: ") + sqlite3_errmsg(db_));
    struct Fin {
      sqlite3_stmt* s;
      ~Fin() { sqlite3_finalize(s); }
    } fin{st};
    for (std::size_t k = 0; k < params.size(); ++k) {
      const std::string name = "$" + std::to_string(k + 1);
      const int idx = sqlite3_bind_parameter_index(st, name.c_str());
      if (idx == 0) continue;  // not used by this statement
      int rc = SQLITE_OK;
      if (const auto* v = std::get_if<std::int64_t>(&params[k]))
        rc = sqlite3_bind_int64(st, idx, *v);
      else if (const auto* t = std::get_if<std::string>(&params[k]))
        rc = sqlite3_bind_text(st, idx, t->data(), static_cast<int>(t->size()), SQLITE_TRANSIENT);
      else
        rc = sqlite3_bind_null(st, idx);
      if (rc != SQLITE_OK) throw StoreError(std::string("sqlite: ") + sqlite3_errmsg(db_));
    }
    std::vector<SqlRow> rows;
    for (;;) {
      const int rc = sqlite3_step(st);
      if (rc == SQLITE_DONE) break;
      if (rc == SQLITE_ROW) {
        SqlRow r;
        const int n = sqlite3_column_count(st);
        r.cells.reserve(static_cast<std::size_t>(n));
        for (int c = 0; c < n; ++c) {
          if (sqlite3_column_type(st, c) == SQLITE_NULL)
            r.cells.emplace_back(std::nullopt);
          else {
            const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(st, c));
            r.cells.emplace_back(std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(st, c))));
          }
        }
        rows.push_back(std::move(r));
        continue;
      }
      if (sqlite3_extended_errcode(db_) == SQLITE_CONSTRAINT_UNIQUE ||
          sqlite3_extended_errcode(db_) == SQLITE_CONSTRAINT_PRIMARYKEY)
        throw SqlUnique(std::string("sqlite: ") + sqlite3_errmsg(db_));
      throw StoreError(std::string("sqlite: ") + sqlite3_errmsg(db_));
    }
    return rows;
  }

  void script(std::string_view sql) override {
    const std::lock_guard lock(mu_);
    char* err = nullptr;
    const std::string text(sql);
    if (sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      const std::string why = err ? err : "?";
      sqlite3_free(err);
      throw StoreError("sqlite: " + why);
    }
  }
  void begin() override { script("BEGIN IMMEDIATE"); }
  void commit() override { script("COMMIT"); }
  void rollback() override { script("ROLLBACK"); }

 private:
  sqlite3* db_ = nullptr;
  std::recursive_mutex mu_;
};

}  // namespace

std::unique_ptr<Sql> make_sqlite_sql(const std::string& path) { return std::make_unique<SqliteSql>(path); }

}  // namespace carc::server::accounts
