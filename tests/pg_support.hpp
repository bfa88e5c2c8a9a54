// The PostgreSQL cluster of the store contracts' postgresql cases (tests/pg_store.sh starts one and
// names it in CARC_TEST_PG): its URL, and a statement run on it (each case makes and drops a
// database of its own).
#pragma once
#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <cstdlib>
#include <string>

namespace carc::test {

inline std::string pg_url() {
  const char* u = std::getenv("CARC_TEST_PG");
  return u ? u : "";
}

inline void pg_exec(const std::string& url, const std::string& sql) {
  PGconn* c = PQconnectdb(url.c_str());
  ASSERT_EQ(PQstatus(c), CONNECTION_OK) << PQerrorMessage(c);
  PGresult* r = PQexec(c, sql.c_str());
  EXPECT_EQ(PQresultStatus(r), PGRES_COMMAND_OK) << PQresultErrorMessage(r);
  PQclear(r);
  PQfinish(c);
}

}  // namespace carc::test
