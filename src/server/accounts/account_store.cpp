// server/accounts/account_store: the SQL, written once for SQLite and PostgreSQL.
#include "server/accounts/account_store.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "server/accounts/credentials.hpp"
#include "server/accounts/schema.hpp"
#include "server/crypto.hpp"
#include "server/pairing.hpp"

namespace carc::server::accounts {
namespace {

constexpr const char* kPlayerCols = "p.id, p.name, p.password, p.created, p.claimed, p.banned, p.deleted";

Player player_of(const SqlRow& r) { return Player{r.s(0), r.s(1), r.s(2), r.i(3), r.i(4), r.i(5), r.i(6)}; }

}  // namespace

AccountStore::AccountStore(std::unique_ptr<Sql> db) : db_(std::move(db)) { version_ = migrate(*db_, migrations()); }

std::pair<Player, std::string> AccountStore::new_guest(std::int64_t now, const std::string& address,
                                                       const std::string& agent) {
  Player p;
  p.id = random_id(12);
  p.created = now;
  SqlTx tx(*db_);
  db_->run("INSERT INTO players(id, created) VALUES ($1, $2)", {p.id, now});
  std::string secret = new_session(p.id, now, address, agent);
  tx.commit();
  return {p, secret};
}

std::optional<Player> AccountStore::by_session(const std::string& secret, std::int64_t now) {
  if (secret.empty()) return std::nullopt;
  const std::string h = token_hash(secret);
  const auto rows =
      db_->run(std::string("SELECT ") + kPlayerCols +
                   ", s.seen, s.created FROM sessions s JOIN players p ON p.id = s.player WHERE s.id_hash = $1",
               {h});
  if (rows.empty()) return std::nullopt;
  Player p = player_of(rows[0]);
  if (p.banned || p.deleted) return std::nullopt;
  if (p.guest() ? now - rows[0].i(7) >= kGuestSessionMs : now - rows[0].i(8) >= kAccountSessionMs) {
    db_->run("DELETE FROM sessions WHERE id_hash = $1", {h});
    return std::nullopt;
  }
  if (now - rows[0].i(7) >= 60000) db_->run("UPDATE sessions SET seen = $2 WHERE id_hash = $1", {h, now});
  return p;
}

std::optional<Player> AccountStore::by_name(const std::string& name_key) {
  const auto rows =
      db_->run(std::string("SELECT ") + kPlayerCols + " FROM players p WHERE p.name_key = $1", {name_key});
  if (rows.empty()) return std::nullopt;
  return player_of(rows[0]);
}

std::optional<Player> AccountStore::by_id(const std::string& id) {
  const auto rows = db_->run(std::string("SELECT ") + kPlayerCols + " FROM players p WHERE p.id = $1", {id});
  if (rows.empty()) return std::nullopt;
  return player_of(rows[0]);
}

bool AccountStore::claim(const std::string& player, const std::string& name, const std::string& name_key,
                         const std::string& password_hash, const std::vector<std::string>& code_hashes,
                         std::int64_t now) {
  SqlTx tx(*db_);
  const auto rows = db_->run(
      "UPDATE players SET name = $2, name_key = $3, password = $4, claimed = $5 "
      "WHERE id = $1 AND claimed IS NULL AND deleted IS NULL RETURNING id",
      {player, name, name_key, password_hash, now});
  if (rows.empty()) return false;
  for (const std::string& c : code_hashes)
    db_->run("INSERT INTO recovery_codes(player, code_hash) VALUES ($1, $2)", {player, c});
  tx.commit();
  return true;
}

std::string AccountStore::new_session(const std::string& player, std::int64_t now, const std::string& address,
                                      const std::string& agent) {
  std::string secret = random_id(32);
  db_->run(
      "INSERT INTO sessions(id_hash, public_id, player, created, seen, address, agent) VALUES ($1, $2, $3, $4, $4, $5, "
      "$6)",
      {token_hash(secret), random_id(9), player, now, address, agent.substr(0, 200)});
  return secret;
}

void AccountStore::end_session(const std::string& secret) {
  if (!secret.empty()) db_->run("DELETE FROM sessions WHERE id_hash = $1", {token_hash(secret)});
}

bool AccountStore::end_session_named(const std::string& player, const std::string& public_id) {
  return !db_->run("DELETE FROM sessions WHERE player = $1 AND public_id = $2 RETURNING public_id", {player, public_id})
              .empty();
}

void AccountStore::end_sessions(const std::string& player, const std::string& keep_secret) {
  db_->run("DELETE FROM sessions WHERE player = $1 AND id_hash <> $2",
           {player, keep_secret.empty() ? std::string() : token_hash(keep_secret)});
}

std::vector<SessionInfo> AccountStore::sessions(const std::string& player, const std::string& current_secret) {
  const std::string cur = current_secret.empty() ? std::string() : token_hash(current_secret);
  std::vector<SessionInfo> out;
  for (const SqlRow& r : db_->run("SELECT public_id, created, seen, address, agent, id_hash FROM sessions WHERE player "
                                  "= $1 ORDER BY seen DESC, public_id",
                                  {player}))
    out.push_back({r.s(0), r.i(1), r.i(2), r.s(3), r.s(4), r.s(5) == cur});
  return out;
}

void AccountStore::set_password(const std::string& player, const std::string& password_hash) {
  db_->run("UPDATE players SET password = $2 WHERE id = $1", {player, password_hash});
}

bool AccountStore::use_recovery_code(const std::string& player, const std::string& code_hash, std::int64_t now) {
  return !db_->run(
                 "UPDATE recovery_codes SET used = $3 WHERE player = $1 AND code_hash = $2 AND used IS NULL RETURNING "
                 "player",
                 {player, code_hash, now})
              .empty();
}

int AccountStore::recovery_codes_left(const std::string& player) {
  return static_cast<int>(
      db_->run("SELECT COUNT(*) FROM recovery_codes WHERE player = $1 AND used IS NULL", {player}).at(0).i(0));
}

std::string AccountStore::new_reset_link(const std::string& player, std::int64_t now, std::int64_t ttl_ms) {
  std::string secret = random_id(32);
  db_->run("INSERT INTO reset_links(token_hash, player, expires) VALUES ($1, $2, $3)",
           {token_hash(secret), player, now + ttl_ms});
  return secret;
}

std::optional<std::string> AccountStore::reset_link_player(const std::string& secret, std::int64_t now) {
  const auto rows = db_->run("SELECT player FROM reset_links WHERE token_hash = $1 AND used IS NULL AND expires > $2",
                             {token_hash(secret), now});
  if (rows.empty()) return std::nullopt;
  return rows[0].s(0);
}

std::optional<std::string> AccountStore::use_reset_link(const std::string& secret, std::int64_t now) {
  const auto rows = db_->run(
      "UPDATE reset_links SET used = $2 WHERE token_hash = $1 AND used IS NULL AND expires > $2 RETURNING player",
      {token_hash(secret), now});
  if (rows.empty()) return std::nullopt;
  return rows[0].s(0);
}

void AccountStore::set_banned(const std::string& player, bool banned, std::int64_t now) {
  SqlTx tx(*db_);
  db_->run("UPDATE players SET banned = $2 WHERE id = $1", {player, banned ? SqlParam{now} : SqlParam{nullptr}});
  if (banned) db_->run("DELETE FROM sessions WHERE player = $1", {player});
  tx.commit();
}

void AccountStore::delete_account(const std::string& player, std::int64_t now) {
  SqlTx tx(*db_);
  db_->run("UPDATE players SET name = NULL, name_key = NULL, password = NULL, deleted = $2 WHERE id = $1",
           {player, now});
  db_->run("DELETE FROM sessions WHERE player = $1", {player});
  db_->run("DELETE FROM recovery_codes WHERE player = $1", {player});
  db_->run("DELETE FROM reset_links WHERE player = $1", {player});
  db_->run("DELETE FROM known_addresses WHERE player = $1", {player});
  tx.commit();
}

bool AccountStore::bind_seat(const std::string& game, int seat, const std::string& player, std::int64_t now) {
  db_->run(
      "INSERT INTO game_players(game, seat, player, bound) VALUES ($1, $2, $3, $4) ON CONFLICT(game, seat) DO NOTHING",
      {game, std::int64_t{seat}, player, now});
  const auto rows =
      db_->run("SELECT player FROM game_players WHERE game = $1 AND seat = $2", {game, std::int64_t{seat}});
  return !rows.empty() && rows[0].s(0) == player;
}

std::string AccountStore::seat_player(const std::string& game, int seat) {
  const auto rows =
      db_->run("SELECT player FROM game_players WHERE game = $1 AND seat = $2", {game, std::int64_t{seat}});
  return rows.empty() ? std::string() : rows[0].s(0);
}

std::vector<AccountStore::SeatOf> AccountStore::games_of(const std::string& player, int limit) {
  std::vector<SeatOf> out;
  for (const SqlRow& r :
       db_->run("SELECT game, seat, bound FROM game_players WHERE player = $1 ORDER BY bound DESC, game LIMIT $2",
                {player, std::int64_t{limit}}))
    out.push_back({r.s(0), static_cast<int>(r.i(1)), r.i(2)});
  return out;
}

bool AccountStore::rate(const rating::RatedGame& g, const rating::ModelParams& p) {
  SqlTx tx(*db_);
  if (!db_->run("SELECT 1 FROM rating_history WHERE game = $1", {g.id}).empty()) return false;
  const std::string b = rating::bucket(g.game, static_cast<int>(g.players.size()));
  std::map<std::string, rating::Standing> current;
  for (const std::string& pl : g.players)
    if (const auto s = standing(pl, b)) current[pl] = *s;
  for (const rating::HistoryRow& r : rating::rate_game(g, current, p))
    db_->run(
        "INSERT INTO rating_history(game, player, bucket, mu_before, sigma_before, mu_after, sigma_after, time) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        {r.game, r.player, r.bucket, rating::exact(r.before.mu), rating::exact(r.before.sigma),
         rating::exact(r.after.mu), rating::exact(r.after.sigma), r.time});
  for (const auto& [pl, s] : current)
    db_->run(
        "INSERT INTO ratings(player, bucket, mu, sigma, games, last) VALUES ($1, $2, $3, $4, $5, $6) "
        "ON CONFLICT(player, bucket) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
        "last = excluded.last",
        {pl, b, rating::exact(s.r.mu), rating::exact(s.r.sigma), std::int64_t{s.games}, s.last});
  tx.commit();
  return true;
}

std::optional<rating::Standing> AccountStore::standing(const std::string& player, const std::string& bucket) {
  const auto rows =
      db_->run("SELECT mu, sigma, last, games FROM ratings WHERE player = $1 AND bucket = $2", {player, bucket});
  if (rows.empty()) return std::nullopt;
  return rating::Standing{{rating::read_exact(rows[0].s(0)), rating::read_exact(rows[0].s(1))},
                          rows[0].i(2),
                          static_cast<int>(rows[0].i(3))};
}

std::vector<std::pair<std::pair<std::string, std::string>, rating::Standing>> AccountStore::rating_table() {
  std::vector<std::pair<std::pair<std::string, std::string>, rating::Standing>> out;
  for (const SqlRow& r : db_->run("SELECT bucket, player, mu, sigma, last, games FROM ratings ORDER BY bucket, player"))
    out.push_back(
        {{r.s(0), r.s(1)},
         rating::Standing{{rating::read_exact(r.s(2)), rating::read_exact(r.s(3))}, r.i(4), static_cast<int>(r.i(5))}});
  return out;
}

namespace {
// A rating_history row read as (game, player, bucket, mu_before, sigma_before, mu_after, sigma_after, time).
rating::HistoryRow history_row(const SqlRow& r) {
  return {r.s(0),
          r.s(1),
          r.s(2),
          {rating::read_exact(r.s(3)), rating::read_exact(r.s(4))},
          {rating::read_exact(r.s(5)), rating::read_exact(r.s(6))},
          r.i(7)};
}
}  // namespace

std::vector<rating::HistoryRow> AccountStore::rating_history() {
  std::vector<rating::HistoryRow> out;
  for (const SqlRow& r :
       db_->run("SELECT game, player, bucket, mu_before, sigma_before, mu_after, sigma_after, time FROM rating_history "
                "ORDER BY time, game, player"))
    out.push_back(history_row(r));
  return out;
}

void AccountStore::replace_ratings(const rating::RatingBook& book) {
  SqlTx tx(*db_);
  db_->run("DELETE FROM rating_history");
  db_->run("DELETE FROM ratings");
  for (const rating::HistoryRow& r : book.history)
    db_->run(
        "INSERT INTO rating_history(game, player, bucket, mu_before, sigma_before, mu_after, sigma_after, time) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        {r.game, r.player, r.bucket, rating::exact(r.before.mu), rating::exact(r.before.sigma),
         rating::exact(r.after.mu), rating::exact(r.after.sigma), r.time});
  for (const auto& [key, s] : book.table)
    db_->run("INSERT INTO ratings(player, bucket, mu, sigma, games, last) VALUES ($1, $2, $3, $4, $5, $6)",
             {key.second, key.first, rating::exact(s.r.mu), rating::exact(s.r.sigma), std::int64_t{s.games}, s.last});
  tx.commit();
}

void AccountStore::block(const std::string& player, const std::string& blocked, std::int64_t now) {
  db_->run("INSERT INTO blocks(player, blocked, made) VALUES ($1, $2, $3) ON CONFLICT(player, blocked) DO NOTHING",
           {player, blocked, now});
}

void AccountStore::unblock(const std::string& player, const std::string& blocked) {
  db_->run("DELETE FROM blocks WHERE player = $1 AND blocked = $2", {player, blocked});
}

std::vector<std::string> AccountStore::blocked_by(const std::string& player) {
  std::vector<std::string> out;
  for (const SqlRow& r : db_->run("SELECT blocked FROM blocks WHERE player = $1 ORDER BY made, blocked", {player}))
    out.push_back(r.s(0));
  return out;
}

std::vector<std::string> AccountStore::blocks_with(const std::string& player) {
  std::vector<std::string> out;
  for (const SqlRow& r : db_->run(
           "SELECT blocked FROM blocks WHERE player = $1 UNION SELECT player FROM blocks WHERE blocked = $1", {player}))
    out.push_back(r.s(0));
  return out;
}

bool AccountStore::blocked_either(const std::string& a, const std::string& b) {
  return !db_->run("SELECT 1 FROM blocks WHERE (player = $1 AND blocked = $2) OR (player = $2 AND blocked = $1)",
                   {a, b})
              .empty();
}

void AccountStore::join_pool(const PoolEntry& e) {
  SqlTx tx(*db_);
  db_->run("DELETE FROM pairing_results WHERE player = $1", {e.player});
  db_->run(
      "INSERT INTO pairing_pool(player, game, seats, clock, rated, guest, rating, since, waves) "
      "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0) ON CONFLICT(player) DO UPDATE SET game = excluded.game, "
      "seats = excluded.seats, clock = excluded.clock, rated = excluded.rated, guest = excluded.guest, "
      "rating = excluded.rating, since = excluded.since, waves = 0",
      {e.player, e.game, std::int64_t{e.seats}, e.clock, std::int64_t{e.rated ? 1 : 0}, std::int64_t{e.guest ? 1 : 0},
       rating::exact(e.rating), e.since});
  tx.commit();
}

bool AccountStore::leave_pool(const std::string& player) {
  return !db_->run("DELETE FROM pairing_pool WHERE player = $1 RETURNING player", {player}).empty();
}

namespace {
constexpr const char* kPoolCols = "player, game, seats, clock, rated, guest, rating, since, waves";
AccountStore::PoolEntry pool_of(const SqlRow& r) {
  return {r.s(0),
          r.s(1),
          r.s(3),
          static_cast<int>(r.i(2)),
          r.i(4) != 0,
          r.i(5) != 0,
          rating::read_exact(r.s(6)),
          r.i(7),
          static_cast<int>(r.i(8))};
}
}  // namespace

std::optional<AccountStore::PoolEntry> AccountStore::pool_entry(const std::string& player) {
  const auto rows = db_->run(std::string("SELECT ") + kPoolCols + " FROM pairing_pool WHERE player = $1", {player});
  if (rows.empty()) return std::nullopt;
  return pool_of(rows[0]);
}

int AccountStore::pool_size(const std::string& game, int seats, const std::string& clock, bool rated, bool guest) {
  return static_cast<int>(
      db_->run("SELECT COUNT(*) FROM pairing_pool WHERE game = $1 AND seats = $2 AND clock = $3 AND rated = $4 AND "
               "guest = $5",
               {game, std::int64_t{seats}, clock, std::int64_t{rated ? 1 : 0}, std::int64_t{guest ? 1 : 0}})
          .at(0)
          .i(0));
}

std::optional<AccountStore::Paired> AccountStore::pairing_result(const std::string& player) {
  const auto rows = db_->run("SELECT game_id, seat FROM pairing_results WHERE player = $1", {player});
  if (rows.empty()) return std::nullopt;
  return Paired{rows[0].s(0), static_cast<int>(rows[0].i(1))};
}

void AccountStore::forget_result(const std::string& player) {
  db_->run("DELETE FROM pairing_results WHERE player = $1", {player});
}

std::vector<AccountStore::PairedTable> AccountStore::pairing_wave(std::int64_t now) {
  SqlTx tx(*db_);
  if (db_->dialect() == "postgresql") db_->run("SELECT pg_advisory_xact_lock(7211052)");
  std::map<std::tuple<std::string, int, std::string, bool, bool>, std::vector<PoolEntry>> pools;
  for (const SqlRow& r : db_->run(std::string("SELECT ") + kPoolCols + " FROM pairing_pool ORDER BY since, player")) {
    PoolEntry e = pool_of(r);
    pools[{e.game, e.seats, e.clock, e.rated, e.guest}].push_back(std::move(e));
  }
  std::vector<PairedTable> out;
  for (const auto& [key, entries] : pools) {
    const auto& [game, seats, clock, rated, guest] = key;
    std::vector<pairing::Waiting> pool;
    std::set<std::string> ids;
    for (const PoolEntry& e : entries) {
      pool.push_back({e.player, e.rating, e.since, e.waves, std::nullopt});
      ids.insert(e.player);
    }
    pairing::Blocks blocks;
    for (const PoolEntry& e : entries)
      for (const SqlRow& r : db_->run("SELECT blocked FROM blocks WHERE player = $1", {e.player}))
        if (ids.count(r.s(0))) blocks.add(e.player, r.s(0));
    pairing::PoolParams params;
    params.seats = seats;
    params.min_seats = 2;
    const pairing::Wave wave = pairing::pair_wave(std::move(pool), blocks, now, params);
    for (const auto& table : wave.tables) {
      PairedTable t{random_hex(6), game, clock, rated, table};
      for (std::size_t i = 0; i < table.size(); ++i) {
        db_->run("DELETE FROM pairing_pool WHERE player = $1", {table[i]});
        db_->run(
            "INSERT INTO pairing_results(player, game_id, seat, made) VALUES ($1, $2, $3, $4) "
            "ON CONFLICT(player) DO UPDATE SET game_id = excluded.game_id, seat = excluded.seat, made = excluded.made",
            {table[i], t.game_id, std::int64_t{static_cast<int>(i)}, now});
      }
      out.push_back(std::move(t));
    }
    for (const pairing::Waiting& w : wave.left)
      db_->run("UPDATE pairing_pool SET waves = $2 WHERE player = $1", {w.player, std::int64_t{w.waves_missed}});
  }
  tx.commit();
  return out;
}

namespace {
constexpr const char* kTableCols =
    "id, host, game, seats, bots, clock, rated, min_rating, max_rating, created, host_seen, status, game_id, "
    "guest_chat";

AccountStore::Table table_of_row(const SqlRow& r) {
  AccountStore::Table t;
  t.id = r.s(0);
  t.host = r.s(1);
  t.game = r.s(2);
  t.seats = static_cast<int>(r.i(3));
  for (const auto& b : nlohmann::json::parse(r.s(4))) t.bots.push_back(b.get<std::string>());
  t.clock = r.s(5);
  t.rated = r.i(6) != 0;
  if (!r.null(7)) t.min_rating = static_cast<int>(r.i(7));
  if (!r.null(8)) t.max_rating = static_cast<int>(r.i(8));
  t.created = r.i(9);
  t.host_seen = r.i(10);
  t.status = r.s(11);
  t.game_id = r.s(12);
  t.guest_chat = r.i(13) != 0;
  return t;
}

// The players at tables (table_id, player, name or NULL for a guest), in the order they sat down.
constexpr const char* kSeatedCols =
    "SELECT tp.table_id, tp.player, CASE WHEN p.claimed IS NULL THEN NULL ELSE p.name END FROM table_players tp "
    "LEFT JOIN players p ON p.id = tp.player ";
}  // namespace

void AccountStore::open_table(const Table& t) {
  SqlTx tx(*db_);
  nlohmann::json bots = t.bots;
  db_->run(
      "INSERT INTO open_tables(id, host, game, seats, bots, clock, rated, min_rating, max_rating, created, host_seen, "
      "status, guest_chat) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, 'open', $11)",
      {t.id, t.host, t.game, std::int64_t{t.seats}, bots.dump(), t.clock, std::int64_t{t.rated ? 1 : 0},
       t.min_rating ? SqlParam{std::int64_t{*t.min_rating}} : SqlParam{nullptr},
       t.max_rating ? SqlParam{std::int64_t{*t.max_rating}} : SqlParam{nullptr}, t.created,
       std::int64_t{t.guest_chat ? 1 : 0}});
  db_->run("INSERT INTO table_players(table_id, player, joined) VALUES ($1, $2, $3)", {t.id, t.host, t.created});
  tx.commit();
}

int AccountStore::tables_hosted(const std::string& host) {
  return static_cast<int>(
      db_->run("SELECT COUNT(*) FROM open_tables WHERE host = $1 AND status = 'open'", {host}).at(0).i(0));
}

std::optional<AccountStore::Table> AccountStore::table(const std::string& id) {
  const auto rows = db_->run(std::string("SELECT ") + kTableCols + " FROM open_tables WHERE id = $1", {id});
  if (rows.empty()) return std::nullopt;
  Table t = table_of_row(rows[0]);
  for (const SqlRow& p :
       db_->run(std::string(kSeatedCols) + "WHERE tp.table_id = $1 ORDER BY tp.joined, tp.player", {id})) {
    t.players.push_back(p.s(1));
    t.names.push_back(p.s(2));
  }
  return t;
}

std::vector<AccountStore::Table> AccountStore::open_tables(int limit) {
  std::vector<Table> out;
  std::map<std::string, std::size_t> at;
  for (const SqlRow& r : db_->run(std::string("SELECT ") + kTableCols +
                                      " FROM open_tables WHERE status = 'open' ORDER BY created DESC, id LIMIT $1",
                                  {std::int64_t{limit}})) {
    at[r.s(0)] = out.size();
    out.push_back(table_of_row(r));
  }
  if (out.empty()) return out;
  for (const SqlRow& p :
       db_->run(std::string(kSeatedCols) +
                "JOIN open_tables t ON t.id = tp.table_id WHERE t.status = 'open' ORDER BY tp.joined, tp.player")) {
    const auto it = at.find(p.s(0));
    if (it == at.end()) continue;  // (a table past the limit)
    out[it->second].players.push_back(p.s(1));
    out[it->second].names.push_back(p.s(2));
  }
  return out;
}

std::vector<AccountStore::PoolCount> AccountStore::pool_counts() {
  std::vector<PoolCount> out;
  for (const SqlRow& r : db_->run(
           "SELECT game, seats, clock, rated, guest, COUNT(*) FROM pairing_pool GROUP BY game, seats, clock, rated, "
           "guest ORDER BY game, seats, clock, rated, guest"))
    out.push_back({r.s(0), r.s(2), static_cast<int>(r.i(1)), r.i(3) != 0, r.i(4) != 0, static_cast<int>(r.i(5))});
  return out;
}

std::optional<AccountStore::Table> AccountStore::sit(const std::string& id, const std::string& player, std::int64_t now,
                                                     bool& full) {
  SqlTx tx(*db_);
  full = false;
  auto t = table(id);
  if (!t || t->status != "open") return std::nullopt;
  const int people = t->seats - static_cast<int>(t->bots.size());
  if (std::find(t->players.begin(), t->players.end(), player) == t->players.end()) {
    if (static_cast<int>(t->players.size()) >= people) return std::nullopt;
    db_->run("INSERT INTO table_players(table_id, player, joined) VALUES ($1, $2, $3)", {id, player, now});
    t->players.push_back(player);
  }
  full = static_cast<int>(t->players.size()) == people;
  if (full) db_->run("UPDATE open_tables SET status = 'starting' WHERE id = $1", {id});
  tx.commit();
  return t;
}

bool AccountStore::stand(const std::string& id, const std::string& player) {
  SqlTx tx(*db_);
  const auto t = table(id);
  if (!t || t->status != "open") return false;
  if (std::find(t->players.begin(), t->players.end(), player) == t->players.end()) return false;
  if (t->host == player)
    db_->run("UPDATE open_tables SET status = 'closed' WHERE id = $1", {id});
  else
    db_->run("DELETE FROM table_players WHERE table_id = $1 AND player = $2", {id, player});
  tx.commit();
  return true;
}

void AccountStore::set_table_status(const std::string& id, const std::string& status, const std::string& game_id) {
  db_->run("UPDATE open_tables SET status = $2, game_id = $3 WHERE id = $1", {id, status, game_id});
}

void AccountStore::host_seen(const std::string& host, std::int64_t now) {
  db_->run("UPDATE open_tables SET host_seen = $2 WHERE host = $1 AND status = 'open' AND clock = 'realtime'",
           {host, now});
}

std::vector<std::string> AccountStore::close_absent_hosts(std::int64_t before) {
  std::vector<std::string> out;
  for (const SqlRow& r : db_->run(
           "UPDATE open_tables SET status = 'closed' WHERE status = 'open' AND clock = 'realtime' AND host_seen < $1 "
           "RETURNING id",
           {before}))
    out.push_back(r.s(0));
  return out;
}

std::vector<std::pair<std::string, rating::Standing>> AccountStore::standings_of(const std::string& player) {
  std::vector<std::pair<std::string, rating::Standing>> out;
  for (const SqlRow& r :
       db_->run("SELECT bucket, mu, sigma, games, last FROM ratings WHERE player = $1 ORDER BY bucket", {player}))
    out.emplace_back(
        r.s(0),
        rating::Standing{{rating::read_exact(r.s(1)), rating::read_exact(r.s(2))}, r.i(4), static_cast<int>(r.i(3))});
  return out;
}

std::vector<rating::HistoryRow> AccountStore::history_of(const std::string& player) {
  std::vector<rating::HistoryRow> out;
  for (const SqlRow& r :
       db_->run("SELECT game, player, bucket, mu_before, sigma_before, mu_after, sigma_after, time FROM rating_history "
                "WHERE player = $1 ORDER BY time, game",
                {player}))
    out.push_back(history_row(r));
  return out;
}

void AccountStore::add_results(const std::vector<GameResult>& rows) {
  SqlTx tx(*db_);
  for (const GameResult& g : rows)
    db_->run(
        "INSERT INTO game_results(game, seat, player, kind, players, place, score, rated, reason, ended) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT(game, seat) DO NOTHING",
        {g.game_id, std::int64_t{g.seat}, g.player, g.kind, std::int64_t{g.players}, std::int64_t{g.place},
         std::int64_t{g.score}, std::int64_t{g.rated ? 1 : 0}, g.reason, g.ended});
  tx.commit();
}

std::vector<AccountStore::GameResult> AccountStore::results_of(const std::string& player, int limit) {
  std::vector<GameResult> out;
  for (const SqlRow& r :
       db_->run("SELECT game, player, kind, reason, seat, players, place, score, rated, ended FROM game_results "
                "WHERE player = $1 ORDER BY ended DESC, game LIMIT $2",
                {player, std::int64_t{limit}}))
    out.push_back({r.s(0), r.s(1), r.s(2), r.s(3), static_cast<int>(r.i(4)), static_cast<int>(r.i(5)),
                   static_cast<int>(r.i(6)), static_cast<int>(r.i(7)), r.i(8) != 0, r.i(9)});
  return out;
}

std::vector<AccountStore::ResultCount> AccountStore::result_counts(const std::string& player) {
  std::vector<ResultCount> out;
  for (const SqlRow& r :
       db_->run("SELECT kind, players, COUNT(*), SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END) FROM game_results "
                "WHERE player = $1 GROUP BY kind, players ORDER BY kind, players",
                {player}))
    out.push_back({r.s(0), static_cast<int>(r.i(1)), static_cast<int>(r.i(2)), static_cast<int>(r.i(3))});
  return out;
}

std::vector<AccountStore::LeaderRow> AccountStore::leaderboard(const std::string& bucket, std::int64_t since) {
  std::vector<LeaderRow> out;
  for (const SqlRow& r : db_->run(
           "SELECT p.name, r.mu, r.sigma, r.games, r.last FROM ratings r JOIN players p ON p.id = r.player "
           "WHERE r.bucket = $1 AND r.last >= $2 AND p.claimed IS NOT NULL AND p.banned IS NULL AND p.deleted IS NULL",
           {bucket, since}))
    out.push_back(
        {r.s(0),
         rating::Standing{{rating::read_exact(r.s(1)), rating::read_exact(r.s(2))}, r.i(4), static_cast<int>(r.i(3))}});
  return out;
}

void AccountStore::add_chat(const ChatMessage& m) {
  db_->run(
      "INSERT INTO chat_messages(id, game, channel, seat, player, text, phrase, time) "
      "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
      {m.id, m.game, m.channel, std::int64_t{m.seat}, m.player, m.text, m.phrase, m.time});
}

std::vector<AccountStore::ChatMessage> AccountStore::chat_of(const std::string& game, bool with_removed) {
  std::vector<ChatMessage> out;
  for (const SqlRow& r : db_->run(
           std::string("SELECT c.id, c.game, c.channel, c.player, CASE WHEN p.claimed IS NULL THEN NULL ELSE p.name "
                       "END, c.text, c.phrase, c.seat, c.time FROM chat_messages c LEFT JOIN players p ON p.id = "
                       "c.player WHERE c.game = $1 ") +
               (with_removed ? "" : "AND c.removed IS NULL ") + "ORDER BY c.time, c.id",
           {game}))
    out.push_back({r.s(0), r.s(1), r.s(2), r.s(3), r.s(4), r.s(5), r.s(6), static_cast<int>(r.i(7)), r.i(8)});
  return out;
}

int AccountStore::chat_count(const std::string& game, const std::string& channel) {
  return static_cast<int>(
      db_->run("SELECT COUNT(*) FROM chat_messages WHERE game = $1 AND channel = $2", {game, channel}).at(0).i(0));
}

bool AccountStore::remove_chat(const std::string& id, std::int64_t now) {
  return !db_->run("UPDATE chat_messages SET removed = $2 WHERE id = $1 AND removed IS NULL RETURNING id", {id, now})
              .empty();
}

void AccountStore::add_report(const Report& r) {
  db_->run(
      "INSERT INTO reports(id, reporter, reported, reason, game, message, note, made) "
      "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
      {r.id, r.reporter, r.reported, r.reason, r.game, r.message, r.note, r.made});
}

int AccountStore::reports_since(const std::string& reporter, std::int64_t since) {
  return static_cast<int>(
      db_->run("SELECT COUNT(*) FROM reports WHERE reporter = $1 AND made >= $2", {reporter, since}).at(0).i(0));
}

std::vector<AccountStore::Report> AccountStore::reports(bool all) {
  std::vector<Report> out;
  for (const SqlRow& r :
       db_->run(std::string("SELECT id, reporter, reported, reason, game, message, note, made, closed FROM reports ") +
                (all ? "" : "WHERE closed IS NULL ") + "ORDER BY made, id"))
    out.push_back({r.s(0), r.s(1), r.s(2), r.s(3), r.s(4), r.s(5), r.s(6), r.i(7), r.i(8)});
  return out;
}

bool AccountStore::close_report(const std::string& id, std::int64_t now) {
  return !db_->run("UPDATE reports SET closed = $2 WHERE id = $1 AND closed IS NULL RETURNING id", {id, now}).empty();
}

bool AccountStore::known_address(const std::string& player, const std::string& address) {
  return !db_->run("SELECT 1 FROM known_addresses WHERE player = $1 AND address = $2", {player, address}).empty();
}

void AccountStore::remember_address(const std::string& player, const std::string& address, std::int64_t now) {
  db_->run(
      "INSERT INTO known_addresses(player, address, last) VALUES ($1, $2, $3) "
      "ON CONFLICT(player, address) DO UPDATE SET last = excluded.last",
      {player, address, now});
}

}  // namespace carc::server::accounts
