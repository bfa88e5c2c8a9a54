// server/accounts/sql: what the account tables need of a database, written once for SQLite and
// PostgreSQL: statements with `$1, $2, ...` parameters (text or integer; both databases read
// them), rows of text values, transactions, and versioned migrations. The game log keeps its own
// tuned stores (server/store); accounts, sessions and what grows from them use this.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace carc::server::accounts {

using SqlParam = std::variant<std::nullptr_t, std::int64_t, std::string>;

struct SqlRow {
  std::vector<std::optional<std::string>> cells;
  [[nodiscard]] bool null(std::size_t i) const { return !cells.at(i); }
  [[nodiscard]] const std::string& s(std::size_t i) const;  // "" for NULL
  [[nodiscard]] std::int64_t i(std::size_t i) const;        // 0 for NULL
};

// Thrown when a statement breaks a unique constraint (a name taken).
struct SqlUnique : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Sql {
 public:
  virtual ~Sql() = default;
  [[nodiscard]] virtual std::string dialect() const = 0;  // "sqlite", "postgresql"
  // Runs one statement; its rows (none for a statement without). Throws StoreError (a database
  // failure) or SqlUnique (a unique constraint).
  virtual std::vector<SqlRow> run(std::string_view sql, const std::vector<SqlParam>& params = {}) = 0;
  // Runs several statements without parameters (a migration).
  virtual void script(std::string_view sql) = 0;
  // A write transaction: begin() takes the database's write lock at once (SQLite: BEGIN
  // IMMEDIATE), so that reads inside see what no other writer can change before the commit.
  virtual void begin() = 0;
  virtual void commit() = 0;
  virtual void rollback() = 0;
};

// A transaction that rolls back unless committed.
class SqlTx {
 public:
  explicit SqlTx(Sql& db) : db_(db) { db_.begin(); }
  ~SqlTx() {
    if (!done_) try {
        db_.rollback();
      } catch (...) {  // NOLINT(bugprone-empty-catch): a broken connection has rolled back
      }
  }
  SqlTx(const SqlTx&) = delete;
  SqlTx& operator=(const SqlTx&) = delete;
  void commit() {
    db_.commit();
    done_ = true;
  }

 private:
  Sql& db_;
  bool done_ = false;
};

// The database of a store URL (server/store.hpp open_store): "memory" an SQLite database in
// memory, "sqlite:FILE" the same file as the games, "postgresql://..." the same database.
std::unique_ptr<Sql> open_sql(const std::string& url);
std::unique_ptr<Sql> make_sqlite_sql(const std::string& path);
std::unique_ptr<Sql> make_pg_sql(const std::string& conninfo);

// One step of the schema: its number (from 2 up: version 1 is the game log's tables, which the
// stores create) and its statements per dialect.
struct Migration {
  int version;
  std::string_view name;
  std::string_view sqlite, postgresql;
};
// Applies the migrations the database has not had, in order, each in a transaction with its
// number recorded in `schema_migrations`; several processes starting at once apply each once.
// Returns the database's version afterwards. A database of a later version than the last
// migration is refused (StoreError: this binary is older than the data).
int migrate(Sql& db, const std::vector<Migration>& steps);

}  // namespace carc::server::accounts
