// server/accounts/sql: rows, the URL's database, migrations.
#include "server/accounts/sql.hpp"

#include <fmt/format.h>

#include <charconv>
#include <chrono>

#include "server/store.hpp"

namespace carc::server::accounts {

const std::string& SqlRow::s(std::size_t k) const {
  static const std::string kEmpty;
  const auto& c = cells.at(k);
  return c ? *c : kEmpty;
}

std::int64_t SqlRow::i(std::size_t k) const {
  const auto& c = cells.at(k);
  if (!c) return 0;
  std::int64_t v = 0;
  const auto r = std::from_chars(c->data(), c->data() + c->size(), v);
  if (r.ec != std::errc() || r.ptr != c->data() + c->size()) throw StoreError("sql: not an integer: " + *c);
  return v;
}

std::unique_ptr<Sql> open_sql(const std::string& url) {
  if (url == "memory") return make_sqlite_sql(":memory:");
  if (url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0) return make_pg_sql(url);
  if (url.rfind("sqlite:", 0) == 0 && url.size() > 7) return make_sqlite_sql(url.substr(7));
  throw StoreError("\"" + url + "\" is not sqlite:FILE or postgresql://...");
}

int migrate(Sql& db, const std::vector<Migration>& steps) {
  {
    // (PostgreSQL: two processes creating the table at once collide even with IF NOT EXISTS)
    SqlTx tx(db);
    if (db.dialect() == "postgresql") db.run("SELECT pg_advisory_xact_lock(7211051)");
    db.script(
        "CREATE TABLE IF NOT EXISTS schema_migrations(version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
        "applied BIGINT NOT NULL)");
    tx.commit();
  }
  int have = 1;
  for (const Migration& m : steps) {
    SqlTx tx(db);
    if (db.dialect() == "postgresql") db.run("SELECT pg_advisory_xact_lock(7211051)");
    const auto rows = db.run("SELECT COALESCE(MAX(version), 1) FROM schema_migrations");
    have = static_cast<int>(rows.at(0).i(0));
    if (have >= m.version) {
      tx.commit();
      continue;
    }
    if (have != m.version - 1)
      throw StoreError(fmt::format("sql: the database is at version {}, the next migration is {}", have, m.version));
    db.script(db.dialect() == "postgresql" ? m.postgresql : m.sqlite);
    db.run("INSERT INTO schema_migrations(version, name, applied) VALUES ($1, $2, $3)",
           {std::int64_t{m.version}, std::string(m.name),
            std::int64_t{std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count()}});
    tx.commit();
    have = m.version;
  }
  const auto rows = db.run("SELECT COALESCE(MAX(version), 1) FROM schema_migrations");
  have = static_cast<int>(rows.at(0).i(0));
  const int last = steps.empty() ? 1 : steps.back().version;
  if (have > last)
    throw StoreError(fmt::format(
        "sql: the database is at version {}, written by a newer server; this one knows versions up to {}", have, last));
  return have;
}

}  // namespace carc::server::accounts
