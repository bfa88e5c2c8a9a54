// server/accounts/schema: the steps. SQLite and PostgreSQL read the same text here (BIGINT is an
// integer to both); a step that needs to differ gives each its own.
#include "server/accounts/schema.hpp"

namespace carc::server::accounts {
namespace {

// 2: players (guests and accounts), their sessions, recovery codes, reset links, and the
// addresses each account logged in from (the login limits spare them).
constexpr std::string_view kPlayers = R"sql(
CREATE TABLE players(
  id TEXT PRIMARY KEY, name TEXT, name_key TEXT UNIQUE, password TEXT,
  created BIGINT NOT NULL, claimed BIGINT, banned BIGINT, deleted BIGINT);
CREATE TABLE sessions(
  id_hash TEXT PRIMARY KEY, public_id TEXT NOT NULL UNIQUE, player TEXT NOT NULL REFERENCES players(id),
  created BIGINT NOT NULL, seen BIGINT NOT NULL, address TEXT NOT NULL, agent TEXT NOT NULL);
CREATE INDEX sessions_by_player ON sessions(player);
CREATE TABLE recovery_codes(
  player TEXT NOT NULL REFERENCES players(id), code_hash TEXT NOT NULL, used BIGINT,
  PRIMARY KEY(player, code_hash));
CREATE TABLE reset_links(
  token_hash TEXT PRIMARY KEY, player TEXT NOT NULL REFERENCES players(id), expires BIGINT NOT NULL, used BIGINT);
CREATE TABLE known_addresses(
  player TEXT NOT NULL REFERENCES players(id), address TEXT NOT NULL, last BIGINT NOT NULL,
  PRIMARY KEY(player, address));
)sql";

// 3: the seats players opened (an invite link binds its seat to the first player who opens it):
// each player's games.
constexpr std::string_view kGamePlayers = R"sql(
CREATE TABLE game_players(
  game TEXT NOT NULL, seat INTEGER NOT NULL, player TEXT NOT NULL REFERENCES players(id), bound BIGINT NOT NULL,
  PRIMARY KEY(game, seat));
CREATE INDEX game_players_by_player ON game_players(player, bound);
)sql";

// 4: ratings (docs/ratings.md): each player's standing per bucket and every change, derived from
// the rated games' logs (`carcassonne ratings rebuild` makes both again). Numbers as text that
// reads back to the same double.
constexpr std::string_view kRatings = R"sql(
CREATE TABLE ratings(
  player TEXT NOT NULL REFERENCES players(id), bucket TEXT NOT NULL, mu TEXT NOT NULL, sigma TEXT NOT NULL,
  games INTEGER NOT NULL, last BIGINT NOT NULL, PRIMARY KEY(player, bucket));
CREATE INDEX ratings_by_bucket ON ratings(bucket, last);
CREATE TABLE rating_history(
  game TEXT NOT NULL, player TEXT NOT NULL REFERENCES players(id), bucket TEXT NOT NULL,
  mu_before TEXT NOT NULL, sigma_before TEXT NOT NULL, mu_after TEXT NOT NULL, sigma_after TEXT NOT NULL,
  time BIGINT NOT NULL, PRIMARY KEY(game, player));
CREATE INDEX rating_history_by_player ON rating_history(player, bucket, time);
)sql";

// 5: blocks (never paired, docs/pairing.md) and the quick-pairing pools: who waits, and the tables
// a wave made (each player's game and seat, until they open it).
constexpr std::string_view kPairing = R"sql(
CREATE TABLE blocks(
  player TEXT NOT NULL REFERENCES players(id), blocked TEXT NOT NULL REFERENCES players(id), made BIGINT NOT NULL,
  PRIMARY KEY(player, blocked));
CREATE INDEX blocks_by_blocked ON blocks(blocked);
CREATE TABLE pairing_pool(
  player TEXT PRIMARY KEY REFERENCES players(id), game TEXT NOT NULL, seats INTEGER NOT NULL, clock TEXT NOT NULL,
  rated INTEGER NOT NULL, guest INTEGER NOT NULL, rating TEXT NOT NULL, since BIGINT NOT NULL, waves INTEGER NOT NULL);
CREATE TABLE pairing_results(
  player TEXT PRIMARY KEY REFERENCES players(id), game_id TEXT NOT NULL, seat INTEGER NOT NULL, made BIGINT NOT NULL);
)sql";

// 6: open tables (docs/server-protocol.md, "Open tables"): a host's table anyone may join until it
// is full, then its game starts; `host_seen` keeps a real-time table open while its host is there.
constexpr std::string_view kTables = R"sql(
CREATE TABLE open_tables(
  id TEXT PRIMARY KEY, host TEXT NOT NULL REFERENCES players(id), game TEXT NOT NULL, seats INTEGER NOT NULL,
  bots TEXT NOT NULL, clock TEXT NOT NULL, rated INTEGER NOT NULL, min_rating INTEGER, max_rating INTEGER,
  created BIGINT NOT NULL, host_seen BIGINT NOT NULL, status TEXT NOT NULL, game_id TEXT);
CREATE INDEX open_tables_by_status ON open_tables(status, created);
CREATE TABLE table_players(
  table_id TEXT NOT NULL REFERENCES open_tables(id), player TEXT NOT NULL REFERENCES players(id), joined BIGINT NOT NULL,
  PRIMARY KEY(table_id, player));
)sql";

// 7: what the lobby, profiles and the tables' talk keep (docs/server-protocol.md): whether guests
// may write in an open table's game, each finished game's result per player (derived from its log
// when it ends), the games' chats (outside their logs) and the reports for the operator's queue.
constexpr std::string_view kPlace = R"sql(
ALTER TABLE open_tables ADD COLUMN guest_chat INTEGER NOT NULL DEFAULT 0;
CREATE TABLE game_results(
  game TEXT NOT NULL, seat INTEGER NOT NULL, player TEXT NOT NULL REFERENCES players(id), kind TEXT NOT NULL,
  players INTEGER NOT NULL, place INTEGER NOT NULL, score INTEGER NOT NULL, rated INTEGER NOT NULL,
  reason TEXT NOT NULL, ended BIGINT NOT NULL, PRIMARY KEY(game, seat));
CREATE INDEX game_results_by_player ON game_results(player, ended);
CREATE TABLE chat_messages(
  id TEXT PRIMARY KEY, game TEXT NOT NULL, channel TEXT NOT NULL, seat INTEGER NOT NULL,
  player TEXT NOT NULL REFERENCES players(id), text TEXT NOT NULL, phrase TEXT NOT NULL, time BIGINT NOT NULL,
  removed BIGINT);
CREATE INDEX chat_by_game ON chat_messages(game, time);
CREATE TABLE reports(
  id TEXT PRIMARY KEY, reporter TEXT NOT NULL REFERENCES players(id), reported TEXT NOT NULL REFERENCES players(id),
  reason TEXT NOT NULL, game TEXT NOT NULL, message TEXT NOT NULL, note TEXT NOT NULL, made BIGINT NOT NULL,
  closed BIGINT);
CREATE INDEX reports_by_reporter ON reports(reporter, made);
)sql";

}  // namespace

const std::vector<Migration>& migrations() {
  static const std::vector<Migration> kSteps = {
      {2, "players", kPlayers, kPlayers},   {3, "game_players", kGamePlayers, kGamePlayers},
      {4, "ratings", kRatings, kRatings},   {5, "pairing", kPairing, kPairing},
      {6, "open_tables", kTables, kTables}, {7, "place", kPlace, kPlace},
  };
  return kSteps;
}

}  // namespace carc::server::accounts
