// server/accounts/account_store: players (guests and claimed accounts) and their sessions, over
// server/accounts/sql. Secrets are never stored: a session id, a recovery code and a reset link are
// kept as their SHA-256 (credentials' token_hash), a password as its Argon2id string. Times are ms
// since the epoch, passed in.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/accounts/sql.hpp"
#include "server/rating_book.hpp"

namespace carc::server::accounts {

struct Player {
  std::string id;
  std::string name;      // the account's name as written at claim time; "" for a guest
  std::string password;  // the Argon2id string ("" for a guest)
  std::int64_t created = 0, claimed = 0, banned = 0, deleted = 0;  // 0: not
  [[nodiscard]] bool guest() const { return claimed == 0; }
};

struct SessionInfo {
  std::string public_id;  // names the session in the list (not its secret)
  std::int64_t created = 0, seen = 0;
  std::string address, agent;
  bool current = false;
};

class AccountStore {
 public:
  // Opens the store's database (server/accounts/sql open_sql) and brings its schema up to date.
  explicit AccountStore(std::unique_ptr<Sql> db);
  [[nodiscard]] int version() const { return version_; }
  Sql& sql() { return *db_; }

  // A new guest and a session for it; returns the player and the session's secret.
  std::pair<Player, std::string> new_guest(std::int64_t now, const std::string& address, const std::string& agent);
  // How long a session lasts (docs/security.md, ASVS 3.3.2): an account's 30 days from its
  // login, whatever its use (then the player logs in again); a guest's, which has no password to
  // log in with, 400 days from its last use.
  static constexpr std::int64_t kAccountSessionMs = std::int64_t{30} * 24 * 3600 * 1000;
  static constexpr std::int64_t kGuestSessionMs = std::int64_t{400} * 24 * 3600 * 1000;
  // The player of a session's secret (nullopt: no such session, one past its lifetime, which is
  // removed, or its player is banned or deleted). Its `seen` is written at most once a minute.
  std::optional<Player> by_session(const std::string& secret, std::int64_t now);
  std::optional<Player> by_name(const std::string& name_key);
  std::optional<Player> by_id(const std::string& id);
  // A guest becomes an account (throws SqlUnique when the name is taken). False if the player is
  // not a guest any more.
  bool claim(const std::string& player, const std::string& name, const std::string& name_key,
             const std::string& password_hash, const std::vector<std::string>& code_hashes, std::int64_t now);
  // A new session for the player; returns its secret.
  std::string new_session(const std::string& player, std::int64_t now, const std::string& address,
                          const std::string& agent);
  void end_session(const std::string& secret);
  // Ends the player's session named `public_id`; false if it has none so named.
  bool end_session_named(const std::string& player, const std::string& public_id);
  // Ends every session of the player (but the one of `keep_secret`, if given).
  void end_sessions(const std::string& player, const std::string& keep_secret = "");
  std::vector<SessionInfo> sessions(const std::string& player, const std::string& current_secret);
  void set_password(const std::string& player, const std::string& password_hash);
  // Uses one of the player's recovery codes (by its hash): false if it is not one or was used.
  bool use_recovery_code(const std::string& player, const std::string& code_hash, std::int64_t now);
  int recovery_codes_left(const std::string& player);
  // A reset link's secret for the player, valid until now + ttl_ms, single use.
  std::string new_reset_link(const std::string& player, std::int64_t now, std::int64_t ttl_ms);
  // The player a reset link's secret would open (nothing used up); nullopt if unknown, used or expired.
  std::optional<std::string> reset_link_player(const std::string& secret, std::int64_t now);
  // The player a reset link's secret opens (and it is used up); nullopt if unknown, used or expired.
  std::optional<std::string> use_reset_link(const std::string& secret, std::int64_t now);
  // A ban ends the player's sessions; a banned player cannot log in.
  void set_banned(const std::string& player, bool banned, std::int64_t now);
  // The account is deleted: its name is replaced, its password, codes and sessions removed; its
  // games stay (under the player's id, shown with the replacement name).
  void delete_account(const std::string& player, std::int64_t now);
  // The seat of a game is the player's from the first time a player opens it: true if it is this
  // player's (now or before), false if another player's.
  bool bind_seat(const std::string& game, int seat, const std::string& player, std::int64_t now);
  struct SeatOf {
    std::string game;
    int seat = 0;
    std::int64_t bound = 0;
  };
  // The player a seat is bound to ("" none).
  std::string seat_player(const std::string& game, int seat);
  // The player's seats, the latest bound first, at most `limit`.
  std::vector<SeatOf> games_of(const std::string& player, int limit);
  // ---- ratings (docs/ratings.md) ----
  // Rates a finished rated game once: its players' standings read, the model's step, the history
  // rows and the new standings written in one transaction. False (nothing written) if the game
  // was rated before.
  bool rate(const rating::RatedGame& g, const rating::ModelParams& p = {});
  std::optional<rating::Standing> standing(const std::string& player, const std::string& bucket);
  // The whole table and history, in the rebuild's order (history: time, game, player).
  std::vector<std::pair<std::pair<std::string, std::string>, rating::Standing>> rating_table();
  std::vector<rating::HistoryRow> rating_history();
  // Replaces both tables with a rebuild's.
  void replace_ratings(const rating::RatingBook& book);
  // ---- blocks and quick pairing (docs/pairing.md) ----
  void block(const std::string& player, const std::string& blocked, std::int64_t now);
  void unblock(const std::string& player, const std::string& blocked);
  std::vector<std::string> blocked_by(const std::string& player);  // ids the player blocks
  // The players who block `player` or whom `player` blocks.
  std::vector<std::string> blocks_with(const std::string& player);
  // Whether either blocks the other.
  bool blocked_either(const std::string& a, const std::string& b);
  struct PoolEntry {
    std::string player, game, clock;
    int seats = 2;
    bool rated = false, guest = true;
    double rating = 1500;
    std::int64_t since = 0;
    int waves = 0;
  };
  // Joins (or moves to) a pool; a result of an earlier pairing is forgotten.
  void join_pool(const PoolEntry& e);
  bool leave_pool(const std::string& player);
  std::optional<PoolEntry> pool_entry(const std::string& player);
  int pool_size(const std::string& game, int seats, const std::string& clock, bool rated, bool guest);
  struct Paired {
    std::string game_id;
    int seat = 0;
  };
  std::optional<Paired> pairing_result(const std::string& player);
  void forget_result(const std::string& player);
  // A table a wave made: the game to create (its id chosen), its players in seat order.
  struct PairedTable {
    std::string game_id, game, clock;
    bool rated = false;
    std::vector<std::string> players;
  };
  // One wave over every pool, in one transaction (several processes: one at a time): each pool
  // paired by server/pairing's pair_wave with the players' blocks; the players seated leave the
  // pool for a result naming their game and seat, the others count a wave missed. Returns the
  // tables, whose games the caller creates.
  std::vector<PairedTable> pairing_wave(std::int64_t now);
  // ---- open tables ----
  struct Table {
    std::string id, host, game, clock, status, game_id;
    int seats = 2;
    std::vector<std::string> bots;  // levels filling the last seats
    bool rated = false, guest_chat = false;
    std::optional<int> min_rating, max_rating;
    std::int64_t created = 0, host_seen = 0;
    std::vector<std::string> players;  // in the order they sat down (the host first)
    std::vector<std::string> names;    // theirs: an account's name, "" for a guest
  };
  void open_table(const Table& t);
  int tables_hosted(const std::string& host);  // the host's open tables
  std::optional<Table> table(const std::string& id);
  // The open tables, newest first, at most `limit` (three statements, whatever their number).
  std::vector<Table> open_tables(int limit);
  // The pools' counts: those with someone waiting.
  struct PoolCount {
    std::string game, clock;
    int seats = 2;
    bool rated = false, guest = false;
    int waiting = 0;
    bool operator==(const PoolCount&) const = default;
  };
  std::vector<PoolCount> pool_counts();
  // Sits the player at an open table with a free seat; the table as it is after (nullopt: no
  // such open table). `full` tells whether this filled it (the caller starts its game).
  std::optional<Table> sit(const std::string& id, const std::string& player, std::int64_t now, bool& full);
  // The player gets up; the host getting up closes the table. False if they were not at it.
  bool stand(const std::string& id, const std::string& player);
  void set_table_status(const std::string& id, const std::string& status, const std::string& game_id = "");
  void host_seen(const std::string& host, std::int64_t now);
  // Real-time tables whose host was not seen since `before` close; returns their ids.
  std::vector<std::string> close_absent_hosts(std::int64_t before);
  // ---- profiles: ratings of one player, finished games, leaderboards ----
  std::vector<std::pair<std::string, rating::Standing>> standings_of(const std::string& player);  // by bucket
  std::vector<rating::HistoryRow> history_of(const std::string& player);                          // oldest first
  // One seat's result in a finished game (derived from its log when it ends: docs/server-protocol.md).
  struct GameResult {
    std::string game_id, player, kind, reason;
    int seat = 0, players = 0, place = 0, score = 0;
    bool rated = false;
    std::int64_t ended = 0;
  };
  void add_results(const std::vector<GameResult>& rows);                     // (a game's rows written once)
  std::vector<GameResult> results_of(const std::string& player, int limit);  // newest first
  struct ResultCount {
    std::string kind;
    int players = 0, played = 0, won = 0;
  };
  std::vector<ResultCount> result_counts(const std::string& player);
  struct LeaderRow {
    std::string name;
    rating::Standing s;
  };
  // The bucket's standings of accounts (not banned or deleted) with a rated game since `since`.
  std::vector<LeaderRow> leaderboard(const std::string& bucket, std::int64_t since);
  // ---- chat and reports ----
  struct ChatMessage {
    std::string id, game, channel, player, name, text, phrase;  // name: the writer's account's ("" a guest)
    int seat = -1;
    std::int64_t time = 0;
  };
  void add_chat(const ChatMessage& m);
  // The game's messages, oldest first: those not removed (with_removed: every one).
  std::vector<ChatMessage> chat_of(const std::string& game, bool with_removed = false);
  int chat_count(const std::string& game, const std::string& channel);
  bool remove_chat(const std::string& id, std::int64_t now);  // false: no such message shown
  struct Report {
    std::string id, reporter, reported, reason, game, message, note;
    std::int64_t made = 0, closed = 0;
  };
  void add_report(const Report& r);
  int reports_since(const std::string& reporter, std::int64_t since);
  std::vector<Report> reports(bool all);  // open ones (all: every one), oldest first
  bool close_report(const std::string& id, std::int64_t now);
  [[nodiscard]] bool known_address(const std::string& player, const std::string& address);
  void remember_address(const std::string& player, const std::string& address, std::int64_t now);

 private:
  std::unique_ptr<Sql> db_;
  int version_ = 0;
};

}  // namespace carc::server::accounts
