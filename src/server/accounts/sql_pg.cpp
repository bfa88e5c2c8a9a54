// server/accounts/sql on PostgreSQL: one connection (libpq), opened again once when a statement
// finds it broken outside a transaction.
#include <libpq-fe.h>

#include <mutex>

#include "server/accounts/sql.hpp"
#include "server/store.hpp"

namespace carc::server::accounts {
namespace {

std::string one_line(std::string why) {
  while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
  for (char& ch : why)
    if (ch == '\n') ch = ';';
  return why;
}

class PgSql final : public Sql {
 public:
  explicit PgSql(std::string info) : info_(std::move(info)) { connect(); }
  ~PgSql() override { PQfinish(c_); }
  PgSql(const PgSql&) = delete;
  PgSql& operator=(const PgSql&) = delete;

  [[nodiscard]] std::string dialect() const override { return "postgresql"; }

  std::vector<SqlRow> run(std::string_view sql, const std::vector<SqlParam>& params) override {
    const std::lock_guard lock(mu_);
    std::vector<std::string> text;
    std::vector<const char*> p;
    text.reserve(params.size());
    for (const auto& v : params) {
      if (const auto* n = std::get_if<std::int64_t>(&v))
        text.push_back(std::to_string(*n));
      else if (const auto* t = std::get_if<std::string>(&v))
        text.push_back(*t);
      else
        text.emplace_back();
    }
    for (std::size_t k = 0; k < params.size(); ++k)
      p.push_back(std::holds_alternative<std::nullptr_t>(params[k]) ? nullptr : text[k].c_str());
    const std::string q(sql);
    PGresult* r = exec([&] {
      return PQexecParams(c_, q.c_str(), static_cast<int>(p.size()), nullptr, p.data(), nullptr, nullptr, 0);
    });
    std::vector<SqlRow> rows;
    const int n = PQntuples(r), m = PQnfields(r);
    rows.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      SqlRow row;
      for (int c = 0; c < m; ++c)
        row.cells.emplace_back(PQgetisnull(r, i, c) ? std::nullopt : std::optional<std::string>(PQgetvalue(r, i, c)));
      rows.push_back(std::move(row));
    }
    PQclear(r);
    return rows;
  }
  void script(std::string_view sql) override {
    const std::lock_guard lock(mu_);
    const std::string q(sql);
    PQclear(exec([&] { return PQexec(c_, q.c_str()); }));
  }
  void begin() override {
    script("BEGIN");
    in_tx_ = true;
  }
  void commit() override {
    in_tx_ = false;
    script("COMMIT");
  }
  void rollback() override {
    in_tx_ = false;
    script("ROLLBACK");
  }

 private:
  void connect() {
    PGconn* n = PQconnectdb(info_.c_str());
    if (!n || PQstatus(n) != CONNECTION_OK) {
      const std::string why = n ? PQerrorMessage(n) : "out of memory";
      PQfinish(n);
      throw StoreError("postgresql: cannot connect: " + one_line(why));
    }
    PQfinish(c_);
    c_ = n;
    PQsetNoticeProcessor(
        c_, [](void*, const char*) {}, nullptr);
  }
  template <class F>
  PGresult* exec(F&& f) {
    // a connection found broken outside a transaction is opened again once (inside one, the
    // transaction is lost: the caller's statement fails)
    if (PQstatus(c_) != CONNECTION_OK && !in_tx_) connect();
    PGresult* r = f();
    if (PQstatus(c_) != CONNECTION_OK && !in_tx_) {
      PQclear(r);
      connect();
      r = f();
    }
    const auto st = PQresultStatus(r);
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) return r;
    const char* code = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    const std::string state = code ? code : "";
    const std::string why = one_line(r ? PQresultErrorMessage(r) : PQerrorMessage(c_));
    PQclear(r);
    if (state == "23505") throw SqlUnique("postgresql: " + why);
    throw StoreError("postgresql: " + why);
  }

  std::string info_;
  PGconn* c_ = nullptr;
  bool in_tx_ = false;
  std::recursive_mutex mu_;
};

}  // namespace

std::unique_ptr<Sql> make_pg_sql(const std::string& conninfo) { return std::make_unique<PgSql>(conninfo); }

}  // namespace carc::server::accounts
