// The account store's contract (server/accounts/account_store), on SQLite in memory, an SQLite file
// and PostgreSQL (a database of its own per test in the cluster CARC_TEST_PG names: tests/pg_store.sh
// starts one and runs the postgresql cases): migrations, guests and sessions, claims, recovery
// codes, reset links, bans, deletion, seats bound to players.
#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <filesystem>
#include <thread>

#include "pg_support.hpp"
#include "server/accounts/account_store.hpp"
#include "server/accounts/credentials.hpp"
#include "server/accounts/schema.hpp"
#include "server/crypto.hpp"
#include "server/store.hpp"

using namespace carc::server;
using namespace carc::server::accounts;

namespace {

std::string pg_base() { return carc::test::pg_url(); }
void pg_run(const std::string& url, const std::string& sql) { carc::test::pg_exec(url, sql); }

class AccountStoreContract : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "postgresql") {
      if (pg_base().empty()) GTEST_SKIP() << "CARC_TEST_PG names no cluster (tests/pg_store.sh runs these)";
      db_ = "carc_acc_" + random_hex(6);
      pg_run(pg_base(), "CREATE DATABASE " + db_);
      url_ = pg_base().substr(0, pg_base().rfind('/') + 1) + db_;
    } else if (GetParam() == "sqlite") {
      path_ = std::filesystem::temp_directory_path() / ("carc-acc-" + random_hex(6) + ".db");
      url_ = "sqlite:" + path_.string();
    } else {
      url_ = "memory";
    }
  }
  void TearDown() override {
    if (!db_.empty()) pg_run(pg_base(), "DROP DATABASE IF EXISTS " + db_ + " WITH (FORCE)");
    if (!path_.empty())
      for (const char* ext : {"", "-wal", "-shm"}) std::filesystem::remove(path_.string() + ext);
  }
  std::unique_ptr<Sql> sql() { return open_sql(url_); }
  std::string url_, db_;
  std::filesystem::path path_;
};

constexpr std::int64_t kT = 1'700'000'000'000;

}  // namespace

TEST_P(AccountStoreContract, MigrationsApplyOnceAndRefuseANewerDatabase) {
  AccountStore s(sql());
  EXPECT_EQ(s.version(), migrations().back().version);
  EXPECT_EQ(migrate(s.sql(), migrations()), migrations().back().version) << "a second run applies nothing";
  const auto rows = s.sql().run("SELECT version FROM schema_migrations ORDER BY version");
  ASSERT_EQ(rows.size(), migrations().size());
  for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(rows[i].i(0), migrations()[i].version);
  if (GetParam() == "memory") return;  // (a second connection to a memory database is another one)
  s.sql().run("INSERT INTO schema_migrations(version, name, applied) VALUES (99, 'later', 0)");
  EXPECT_THROW(AccountStore{sql()}, StoreError) << "a database a newer server wrote";
}

TEST_P(AccountStoreContract, ConcurrentStartsMigrateOnce) {
  if (GetParam() == "memory") GTEST_SKIP() << "one connection only";
  std::vector<std::thread> ts;
  std::atomic<int> ok{0};
  for (int i = 0; i < 4; ++i)
    ts.emplace_back([&] {
      AccountStore s(sql());
      if (s.version() == migrations().back().version) ++ok;
    });
  for (auto& t : ts) t.join();
  EXPECT_EQ(ok.load(), 4);
  AccountStore s(sql());
  EXPECT_EQ(s.sql().run("SELECT COUNT(*) FROM schema_migrations").at(0).i(0),
            static_cast<std::int64_t>(migrations().size()));
}

TEST_P(AccountStoreContract, GuestsSessionsAndClaims) {
  AccountStore s(sql());
  auto [g, secret] = s.new_guest(kT, "10.0.0.1", "agent");
  EXPECT_TRUE(g.guest());
  const auto p = s.by_session(secret, kT + 1);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->id, g.id);
  EXPECT_FALSE(s.by_session(secret + "x", kT + 1));
  EXPECT_FALSE(s.by_session("", kT + 1));
  // only the hash of the secret is stored
  for (const auto& r : s.sql().run("SELECT id_hash, public_id FROM sessions")) {
    EXPECT_EQ(r.s(0), token_hash(secret));
    EXPECT_NE(r.s(1), secret);
  }
  EXPECT_TRUE(s.claim(g.id, "Ann_B", "ann_b", "$argon2id$x", {token_hash("c1"), token_hash("c2")}, kT + 2));
  EXPECT_FALSE(s.claim(g.id, "Ann_C", "ann_c", "$argon2id$x", {}, kT + 3)) << "claimed once";
  const auto acct = s.by_name("ann_b");
  ASSERT_TRUE(acct);
  EXPECT_EQ(acct->id, g.id);
  EXPECT_EQ(acct->name, "Ann_B");
  EXPECT_FALSE(acct->guest());
  auto [g2, secret2] = s.new_guest(kT, "10.0.0.2", "agent");
  EXPECT_THROW(s.claim(g2.id, "ANN_b", "ann_b", "$argon2id$y", {}, kT + 4), SqlUnique) << "names are unique";
  EXPECT_TRUE(s.by_session(secret2, kT + 5)) << "the failed claim left the guest as it was";
  EXPECT_TRUE(s.by_session(secret2, kT + 5)->guest());
  // recovery codes: each once
  EXPECT_EQ(s.recovery_codes_left(g.id), 2);
  EXPECT_TRUE(s.use_recovery_code(g.id, token_hash("c1"), kT + 6));
  EXPECT_FALSE(s.use_recovery_code(g.id, token_hash("c1"), kT + 7));
  EXPECT_FALSE(s.use_recovery_code(g2.id, token_hash("c2"), kT + 7)) << "another player's code";
  EXPECT_EQ(s.recovery_codes_left(g.id), 1);
}

TEST_P(AccountStoreContract, SessionsEndOneAllAndOnBan) {
  AccountStore s(sql());
  auto [g, a] = s.new_guest(kT, "10.0.0.1", "browser A");
  const std::string b = s.new_session(g.id, kT + 10, "10.0.0.2", "browser B");
  const std::string c = s.new_session(g.id, kT + 20, "10.0.0.3", "browser C");
  auto list = s.sessions(g.id, b);
  ASSERT_EQ(list.size(), 3u);
  int current = 0;
  for (const auto& x : list) current += x.current ? 1 : 0;
  EXPECT_EQ(current, 1);
  const auto it = std::find_if(list.begin(), list.end(), [](const SessionInfo& x) { return x.agent == "browser C"; });
  ASSERT_NE(it, list.end());
  EXPECT_FALSE(s.end_session_named("someone else", it->public_id));
  EXPECT_TRUE(s.end_session_named(g.id, it->public_id));
  EXPECT_FALSE(s.by_session(c, kT + 30));
  s.end_sessions(g.id, b);
  EXPECT_FALSE(s.by_session(a, kT + 30));
  EXPECT_TRUE(s.by_session(b, kT + 30)) << "the one kept";
  s.end_session(b);
  EXPECT_FALSE(s.by_session(b, kT + 31));
  const std::string d = s.new_session(g.id, kT + 40, "x", "y");
  s.set_banned(g.id, true, kT + 50);
  EXPECT_FALSE(s.by_session(d, kT + 51)) << "a ban ends the sessions";
  EXPECT_TRUE(s.by_id(g.id)->banned);
  s.set_banned(g.id, false, kT + 60);
  EXPECT_FALSE(s.by_id(g.id)->banned);
}

TEST_P(AccountStoreContract, AccountSessionsLastThirtyDaysGuestsSlide) {
  AccountStore s(sql());
  constexpr std::int64_t kDay = 24 * 3600 * 1000;
  auto [g, guest] = s.new_guest(kT, "1", "x");
  EXPECT_TRUE(s.by_session(guest, kT + 399 * kDay)) << "a guest's session: 400 days from its last use";
  EXPECT_TRUE(s.by_session(guest, kT + 798 * kDay)) << "(used on day 399: it slid)";
  EXPECT_FALSE(s.by_session(guest, kT + 1198 * kDay + 1)) << "400 days unused";
  auto [a, first] = s.new_guest(kT, "1", "x");
  ASSERT_TRUE(s.claim(a.id, "Acct", "acct", "$argon2id$x", {}, kT));
  const std::string login = s.new_session(a.id, kT, "1", "x");
  EXPECT_TRUE(s.by_session(login, kT + 29 * kDay)) << "used on day 29";
  EXPECT_FALSE(s.by_session(login, kT + 30 * kDay)) << "an account's session ends 30 days after its login, used or not";
  EXPECT_FALSE(s.by_session(login, kT)) << "and is removed";
}

TEST_P(AccountStoreContract, ResetLinksWorkOnceBeforeTheyExpire) {
  AccountStore s(sql());
  auto [g, a] = s.new_guest(kT, "10.0.0.1", "x");
  const std::string link = s.new_reset_link(g.id, kT, 3'600'000);
  EXPECT_FALSE(s.use_reset_link(link + "x", kT + 1));
  EXPECT_EQ(s.use_reset_link(link, kT + 1), g.id);
  EXPECT_FALSE(s.use_reset_link(link, kT + 2)) << "once";
  const std::string late = s.new_reset_link(g.id, kT, 3'600'000);
  EXPECT_FALSE(s.use_reset_link(late, kT + 3'600'000)) << "expired";
}

TEST_P(AccountStoreContract, DeletionKeepsThePlayerWithoutItsName) {
  AccountStore s(sql());
  auto [g, a] = s.new_guest(kT, "10.0.0.1", "x");
  ASSERT_TRUE(s.claim(g.id, "Leaver", "leaver", "$argon2id$x", {token_hash("c")}, kT));
  ASSERT_TRUE(s.bind_seat("game1", 0, g.id, kT));
  s.delete_account(g.id, kT + 1);
  EXPECT_FALSE(s.by_name("leaver"));
  EXPECT_FALSE(s.by_session(a, kT + 2));
  const auto p = s.by_id(g.id);
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->deleted);
  EXPECT_EQ(p->name, "");
  EXPECT_EQ(s.games_of(g.id, 10).size(), 1u) << "its games stay";
  auto [g2, b] = s.new_guest(kT, "10.0.0.1", "x");
  EXPECT_TRUE(s.claim(g2.id, "Leaver", "leaver", "$argon2id$y", {}, kT + 3)) << "the name is free again";
}

TEST_P(AccountStoreContract, SeatsBindToTheFirstPlayerWhoOpensThem) {
  AccountStore s(sql());
  auto [a, sa] = s.new_guest(kT, "1", "x");
  auto [b, sb] = s.new_guest(kT, "2", "x");
  EXPECT_TRUE(s.bind_seat("g1", 0, a.id, kT + 1));
  EXPECT_TRUE(s.bind_seat("g1", 0, a.id, kT + 2)) << "again: still theirs";
  EXPECT_FALSE(s.bind_seat("g1", 0, b.id, kT + 3)) << "another player's seat";
  EXPECT_TRUE(s.bind_seat("g1", 1, b.id, kT + 4));
  EXPECT_TRUE(s.bind_seat("g2", 1, a.id, kT + 5));
  const auto mine = s.games_of(a.id, 10);
  ASSERT_EQ(mine.size(), 2u);
  EXPECT_EQ(mine[0].game, "g2") << "the latest first";
  EXPECT_EQ(mine[1].game, "g1");
  EXPECT_EQ(mine[1].seat, 0);
  EXPECT_EQ(s.games_of(a.id, 1).size(), 1u);
}

TEST_P(AccountStoreContract, KnownAddresses) {
  AccountStore s(sql());
  auto [a, sa] = s.new_guest(kT, "1", "x");
  EXPECT_FALSE(s.known_address(a.id, "10.0.0.1"));
  s.remember_address(a.id, "10.0.0.1", kT);
  s.remember_address(a.id, "10.0.0.1", kT + 5);
  EXPECT_TRUE(s.known_address(a.id, "10.0.0.1"));
  EXPECT_FALSE(s.known_address(a.id, "10.0.0.2"));
}

TEST_P(AccountStoreContract, PairingWavesSeatBlockedPlayersApart) {
  AccountStore s(sql());
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i) ids.push_back(s.new_guest(kT, "1", "x").first.id);
  s.block(ids[0], ids[1], kT);
  EXPECT_TRUE(s.blocked_either(ids[1], ids[0]));
  for (int i = 0; i < 2; ++i) s.join_pool({ids[i], "base", "realtime", 2, false, true, 1500, kT, 0});
  EXPECT_EQ(s.pool_size("base", 2, "realtime", false, true), 2);
  EXPECT_TRUE(s.pairing_wave(kT + 1).empty()) << "the two block each other";
  EXPECT_EQ(s.pool_entry(ids[0])->waves, 1);
  s.join_pool({ids[2], "base", "realtime", 2, false, true, 1500, kT, 0});
  s.join_pool({ids[3], "base", "days", 2, false, true, 1500, kT, 0});  // another pool
  const auto tables = s.pairing_wave(kT + 2);
  ASSERT_EQ(tables.size(), 1u);
  ASSERT_EQ(tables[0].players.size(), 2u);
  EXPECT_EQ(tables[0].players.front() == ids[2] || tables[0].players.back() == ids[2], true);
  for (std::size_t i = 0; i < 2; ++i) {
    const auto r = s.pairing_result(tables[0].players[i]);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->game_id, tables[0].game_id);
    EXPECT_EQ(r->seat, static_cast<int>(i));
    EXPECT_FALSE(s.pool_entry(tables[0].players[i]));
  }
  EXPECT_TRUE(s.pool_entry(ids[3])) << "alone in its pool";
  EXPECT_TRUE(s.leave_pool(ids[3]));
  EXPECT_FALSE(s.leave_pool(ids[3]));
  s.unblock(ids[0], ids[1]);
  EXPECT_FALSE(s.blocked_either(ids[0], ids[1]));
}

TEST_P(AccountStoreContract, TablesFillStartAndClose) {
  AccountStore s(sql());
  const std::string host = s.new_guest(kT, "1", "x").first.id, a = s.new_guest(kT, "1", "x").first.id,
                    b = s.new_guest(kT, "1", "x").first.id;
  AccountStore::Table t;
  t.id = "t1";
  t.host = host;
  t.game = "base";
  t.seats = 3;
  t.bots = {"easy"};
  t.clock = "realtime";
  t.created = kT;
  s.open_table(t);
  bool full = true;
  auto sat = s.sit("t1", a, kT + 1, full);
  ASSERT_TRUE(sat);
  EXPECT_TRUE(full) << "host, a and a bot: full";
  EXPECT_EQ(sat->players, (std::vector<std::string>{host, a}));
  EXPECT_FALSE(s.sit("t1", b, kT + 2, full)) << "not open any more";
  s.set_table_status("t1", "started", "g1");
  EXPECT_EQ(s.table("t1")->game_id, "g1");
  t.id = "t2";
  t.bots = {};
  s.open_table(t);
  EXPECT_EQ(s.open_tables(10).size(), 1u);
  EXPECT_FALSE(s.stand("t2", b)) << "not seated";
  EXPECT_TRUE(s.sit("t2", b, kT + 3, full));
  EXPECT_FALSE(full);
  EXPECT_TRUE(s.stand("t2", b));
  s.host_seen(host, kT + 100);
  EXPECT_TRUE(s.close_absent_hosts(kT + 50).empty()) << "seen after";
  EXPECT_EQ(s.close_absent_hosts(kT + 200), std::vector<std::string>{"t2"});
  EXPECT_TRUE(s.open_tables(10).empty());
}

TEST_P(AccountStoreContract, LobbyResultsChatAndReports) {
  AccountStore s(sql());
  const std::string host = s.new_guest(kT, "1", "x").first.id, a = s.new_guest(kT, "1", "x").first.id;
  ASSERT_TRUE(s.claim(a, "Ann", "ann", "h", {}, kT));
  // open tables: names of accounts, "" for a guest, in the order they sat; several tables in few statements
  for (const char* id : {"t1", "t2"}) {
    AccountStore::Table t;
    t.id = id;
    t.host = host;
    t.game = "base";
    t.seats = 3;
    t.clock = "days";
    t.created = kT + (id[1] - '0');
    t.guest_chat = id[1] == '2';
    s.open_table(t);
  }
  bool full = false;
  ASSERT_TRUE(s.sit("t1", a, kT + 5, full));
  const auto open = s.open_tables(10);
  ASSERT_EQ(open.size(), 2u);
  EXPECT_EQ(open[0].id, "t2") << "newest first";
  EXPECT_TRUE(open[0].guest_chat);
  EXPECT_EQ(open[1].names, (std::vector<std::string>{"", "Ann"}));
  EXPECT_EQ(s.table("t1")->names, open[1].names);
  EXPECT_EQ(s.open_tables(1).size(), 1u);
  // pool counts
  s.join_pool({a, "base", "days", 2, false, false, 1500, kT, 0});
  s.join_pool({host, "base", "days", 2, false, true, 1500, kT, 0});
  const auto pools = s.pool_counts();
  ASSERT_EQ(pools.size(), 2u);
  EXPECT_EQ(pools[0].waiting + pools[1].waiting, 2);
  EXPECT_NE(pools[0].guest, pools[1].guest);
  // results: written once per game and seat; counted by game and number of players
  s.add_results({{"g1", a, "base", "finished", 0, 2, 1, 30, true, kT + 10},
                 {"g1", host, "base", "finished", 1, 2, 2, 20, true, kT + 10}});
  s.add_results({{"g1", a, "base", "finished", 0, 2, 2, 0, true, kT + 10}});  // (again: kept as first written)
  s.add_results({{"g2", a, "amazonas", "resign", 1, 3, 3, 12, false, kT + 20}});
  const auto mine = s.results_of(a, 10);
  ASSERT_EQ(mine.size(), 2u);
  EXPECT_EQ(mine[0].game_id, "g2") << "newest first";
  EXPECT_EQ(mine[1].place, 1);
  const auto counts = s.result_counts(a);
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_EQ(counts[0].kind, "amazonas");
  EXPECT_EQ(counts[1].played, 1);
  EXPECT_EQ(counts[1].won, 1);
  // chat: kept in order, removed once, counted per side
  s.add_chat({"m1", "g1", "players", a, "", "hi", "", 0, kT + 1});
  s.add_chat({"m2", "g1", "spectators", host, "", "", "good_game", -1, kT + 2});
  auto chat = s.chat_of("g1");
  ASSERT_EQ(chat.size(), 2u);
  EXPECT_EQ(chat[0].name, "Ann");
  EXPECT_EQ(chat[1].name, "") << "a guest has no name";
  EXPECT_EQ(chat[1].phrase, "good_game");
  EXPECT_EQ(s.chat_count("g1", "players"), 1);
  EXPECT_TRUE(s.remove_chat("m1", kT + 3));
  EXPECT_FALSE(s.remove_chat("m1", kT + 4));
  EXPECT_EQ(s.chat_of("g1").size(), 1u);
  EXPECT_EQ(s.chat_of("g1", true).size(), 2u);
  // reports: the open queue, closed once
  s.add_report({"r1", host, a, "abuse", "g1", "m1", "rude", kT + 5, 0});
  s.add_report({"r2", host, a, "spam", "", "", "", kT + 6, 0});
  EXPECT_EQ(s.reports_since(host, kT + 6), 1);
  EXPECT_TRUE(s.close_report("r1", kT + 7));
  EXPECT_FALSE(s.close_report("r1", kT + 8));
  ASSERT_EQ(s.reports(false).size(), 1u);
  EXPECT_EQ(s.reports(false)[0].id, "r2");
  EXPECT_EQ(s.reports(true).size(), 2u);
  EXPECT_EQ(s.reports(true)[0].closed, kT + 7);
}

INSTANTIATE_TEST_SUITE_P(AccountStores, AccountStoreContract, ::testing::Values("memory", "sqlite", "postgresql"),
                         [](const auto& p) { return p.param; });
