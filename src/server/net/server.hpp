// The network side of `carcassonne serve` (internal to src/server/net): the Server, which runs
// HTTP and WebSocket with Boost.Beast on one io_context thread (which also runs every room, so
// rooms need no locks), a committer thread doing group commits, and bot worker threads. Each of
// its jobs is in a file of its own in this folder: routes.cpp (the route table), http_call.cpp
// (a request through the checks to its handler), http_session.cpp and ws_session.cpp (the
// connections), ws_messages.cpp (what a WebSocket says), rooms.cpp, commit.cpp, workers.cpp,
// analysis.cpp, limits.cpp, metrics.cpp, the API's handlers (api_*.cpp) and lifecycle.cpp (start,
// drain, stop).
#pragma once
#include <fmt/format.h>

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <iostream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <span>
#include <sstream>
#include <string_view>
#include <thread>
#include <unordered_map>

#include <sys/resource.h>

#include "ai/review.hpp"
#include "core/core.hpp"
#include "core/i18n.hpp"
#include "core/io.hpp"
#include "core/json_input.hpp"
#include "rules/words.hpp"
#include "server/accounts/account_store.hpp"
#include "server/accounts/credentials.hpp"
#include "server/accounts/login_limits.hpp"
#include "server/bot_turn.hpp"
#include "server/crypto.hpp"
#include "server/pairing.hpp"
#include "server/rating_book.hpp"
#include "server/room.hpp"
#include "server/server.hpp"
#include "server/store.hpp"
#include "server/web_api.hpp"

namespace carc::server::net_side {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using nlohmann::json;

inline std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

inline constexpr std::size_t kMaxBody = 256 * 1024;
inline constexpr std::size_t kMaxFrame = 64 * 1024;
inline constexpr std::size_t kMaxHeader = 16 * 1024;
// A real-time open table closes when its host was not seen (a lobby socket, GET /api/tables) this long.
inline constexpr std::int64_t kHostAbsentMs = 30000;
// The lobby's WebSocket is /ws/lobby: this "game" (games' ids are 12 hex digits).
inline constexpr std::string_view kLobby = "lobby";
// Per player: new open tables and pool joins a minute.
inline constexpr double kTablesPerMinute = 10, kPoolJoinsPerMinute = 20;

// JSON text for a reply or a log line: a string that is not UTF-8 (nothing the server writes
// should hold one) is written with U+FFFD rather than failing the reply.
inline std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// Counters for GET /metrics (Prometheus' text format). Touched on the io thread only, except the
// atomics (the worker threads').
struct Histogram {
  std::vector<double> bounds;
  std::vector<std::uint64_t> counts;  // one per bound, and +Inf
  double sum = 0;
  std::uint64_t n = 0;
  explicit Histogram(std::vector<double> b) : bounds(std::move(b)), counts(bounds.size() + 1, 0) {}
  void add(double x) {
    std::size_t i = 0;
    while (i < bounds.size() && x > bounds[i]) ++i;
    ++counts[i];
    sum += x;
    ++n;
  }
  void write(std::string& out, const std::string& name, const std::string& help) const {
    out += fmt::format("# HELP {} {}\n# TYPE {} histogram\n", name, help, name);
    std::uint64_t cum = 0;
    for (std::size_t i = 0; i < bounds.size(); ++i) {
      cum += counts[i];
      out += fmt::format("{}_bucket{{le=\"{}\"}} {}\n", name, bounds[i], cum);
    }
    out += fmt::format("{}_bucket{{le=\"+Inf\"}} {}\n{}_sum {}\n{}_count {}\n", name, n, name, sum, name, n);
  }
};

class Server;

// A connection's way to receive text: a WebSocket's frames, or an HTTP request's one answer.
using Sink = std::function<void(const std::string&)>;

// ---- WebSocket session ---------------------------------------------------------------------

// A connection's place in the server's counts (total and per client address): given back when
// the last session holding the connection ends.
using Slot = std::shared_ptr<void>;

// A clock class's clock: "realtime" 10 minutes and 10 s a move, "days" 2 days a move.
json clock_of(const std::string& cls);
// An open table as GET /api/tables and the lobby's socket show it.
json table_json(const accounts::AccountStore::Table& t);

// A WebSocket connection's session (ws_session.cpp): the handshake of `req`, then its frames to
// the server's ws_message, its sink for what the server sends.
void start_ws_session(tcp::socket&& s, Server& srv, std::uint64_t id, std::string game, Slot slot,
                      http::request<http::string_body>&& req, std::int64_t idle_ms);
// An HTTP connection's session (http_session.cpp): requests read within the limits, each to
// Server::handle_http.
void start_http_session(tcp::socket&& s, Server& srv, std::string client, Slot slot);

// ---- the server ----------------------------------------------------------------------------

struct Host {
  std::unique_ptr<Room> room;
  std::deque<std::function<void()>> waiting;  // what came while a commit was in flight, in order
  std::set<std::uint64_t> greeted;            // said hello (its answer may still wait for a commit)
  std::set<std::uint64_t> conns;              // get the room's broadcasts
  std::unique_ptr<net::steady_timer> timer;
  std::int64_t armed = 0;
  std::int64_t used = 0;      // when last asked for (the sweep unloads games idle for --unload-after)
  std::int64_t retry_at = 0;  // the store refused its last commit: its clock's next try not before
};

struct Stats {
  std::uint64_t commits = 0, appends = 0, events = 0, max_batch = 0, failed = 0;
  std::vector<double> commit_ms;  // the last commits' durations (a ring)
  Histogram commit_seconds{{0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5}};
  Histogram batch_size{{1, 2, 4, 8, 16, 32, 64, 128, 256}};
  Histogram job_wait_seconds{{0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60}};
  std::map<int, std::uint64_t> http_by_status;   // answers by HTTP status
  std::map<std::string, std::uint64_t> refused;  // refused or failed, by code
  std::uint64_t handler_failures = 0, accept_errors = 0, password_checks = 0, paired_tables = 0, ws_messages = 0,
                lobby_messages = 0, http_requests = 0, unloaded = 0;
};

// A client address's bucket of game creations (a token bucket: `create_burst` tokens, refilled at
// `create_rate` per minute).
struct Bucket {
  double tokens = 0;
  std::int64_t at = 0;
};
// Takes a token from `key`'s bucket (`cap` tokens, refilled at `per_ms` a ms; a new key's is full):
// 0, or the seconds until one is there (nothing taken). Buckets full again are forgotten past
// 100,000 keys.
int take_token(std::unordered_map<std::string, Bucket>& buckets, const std::string& key, double cap, double per_ms,
               std::int64_t now);

class Server {
 public:
  explicit Server(const ServeOptions& o) : o_(o), acceptor_(ioc_) {}

  int run(std::atomic<bool>* stop);
  net::io_context& ioc() { return ioc_; }

  // the WebSocket side
  void ws_message(std::uint64_t conn, const std::string& game, const std::string& text);
  void ws_binary(std::uint64_t conn);
  void ws_message_in(std::uint64_t conn, const std::string& game, const std::string& text,
                     const std::function<void(const std::string&, const std::string&)>& error);
  void ws_gone(std::uint64_t conn, const std::string& game);
  void add_sink(std::uint64_t conn, Sink s) { sinks_[conn] = std::move(s); }
  // A WebSocket's client address (for the log lines of what it is refused).
  void note_client(std::uint64_t conn, const std::string& client, std::string session = "") {
    ws_clients_[conn] = client;
    if (!session.empty()) ws_sessions_[conn] = std::move(session);
  }
  std::uint64_t next_conn() { return ++conn_ids_; }
  // One request from `client` (its address); `reply` gets the answer, now or after a commit.
  void handle_http(http::request<http::string_body>&& req, const std::string& client,
                   std::function<void(http::response<http::string_body>&&)> reply);
  using Respond =
      std::function<void(http::status, const std::string&, const std::string&, const std::vector<std::string>&)>;
  using Problem = std::function<void(http::status, const std::string&, const std::string&)>;
  // The request's route (kRoutes) and its handler, after the checks every request gets.
  void handle_http_in(http::request<http::string_body>& req, const std::string& client,
                      std::function<void(http::response<http::string_body>&&)>& reply, const Respond& respond,
                      const Problem& problem, int& retry_after);
  // A request refused before it reached a handler (a timeout, a bad request line, too large):
  // counted and logged.
  void refused(const std::string& code, const std::string& client, const std::string& message, int status = 0);
  [[nodiscard]] const ServeOptions& options() const { return o_; }
  [[nodiscard]] bool draining() const { return draining_; }
  // The session's secret from the request's cookie ("" none).
  [[nodiscard]] std::string session_secret(const http::request<http::string_body>& req) const;
  // Whether a browser page at `origin` may send requests here: this server's own (by the Host it
  // was asked as) or one of --origin.
  [[nodiscard]] bool origin_allowed(std::string_view origin, std::string_view host) const;

  // The store, the committer and the workers, without a listening socket (HttpHarness).
  void start();
  void stop_threads();
  [[nodiscard]] std::uint64_t handler_failures() const { return stats_.handler_failures; }

 private:
  // One JSON object per line on stderr: {"time", "event", ...fields}.
  void log_event(const std::string& event, json fields) const {
    if (o_.quiet) return;
    fields["time"] = now_ms();
    fields["event"] = event;
    const std::string line = dump(fields) + "\n";
    // one line at a time: the io thread, the committer, the workers and the store all log
    const std::lock_guard lock(log_mu_);
    std::cerr << line << std::flush;
  }
  mutable std::mutex log_mu_;
  void log(const std::string& line) const { log_event("note", {{"message", line}}); }
  // The accept loop: a failed accept (out of descriptors) waits and tries again.
  void accept_later();
  Slot take_slot(const std::string& addr, std::string& why);
  // Game creation quotas for `client`; "" when it may create, else the refusal's code and message
  // (and `retry_s` for a rate limit).
  std::string create_quota(const std::string& client, std::string& message, int& retry_s);
  void game_ended(const std::string& id);
  // A finished game that was rated: its players' ratings change (docs/ratings.md), once.
  void rate_if_rated(const std::string& id);
  std::string metrics_text();
  // SIGTERM: stop accepting, let what is queued commit, tell clients to reconnect, stop.
  void drain();
  void drain_poll();
  void finish_drain();
  // Loaded games without connections leave memory (finished ones at once, active ones after
  // --unload-after); their clock deadlines stay in `dormant_` and load them when due.
  void sweep();
  Host* host(const std::string& id);  // loads the room if needed; nullptr if no such game
  // A game just committed to the store: counted, its creator's, its first job woken, hosted.
  void hold_new_game(const std::string& id, const std::string& client, bool job) {
    ++active_games_;
    creator_[id] = client;
    games_by_ip_[client].insert(id);
    if (job) wake_workers();
    (void)host(id);
  }
  void send(Host& h, const std::vector<Out>& out);
  // Runs `f` on the room now, or after the commit in flight.
  void when_free(Host& h, std::function<void()> f);
  // f(), with an exception counted and logged rather than thrown into the io loop.
  void guarded(const std::function<void()>& f);
  void run_step(Host& h, Step&& st);
  void arm(Host& h);
  void commit_loop();
  void worker_loop(int index, bool fast);
  [[nodiscard]] std::string worker_lease(int index, bool fast) const {
    return fmt::format("{}-{}{}", lease_prefix_, fast ? "fast" : "", index);
  }
  // A searching worker's job is in hand from its search's start until the room has its moves.
  void out_of_hand(const std::string& lease);
  // A job this process holds goes back to the store free (the next worker takes it at once).
  void give_back(const Job& j);
  // The drain's deadline or a second signal: the searches under way stop (their moves are not
  // played), none starts any more, and the jobs in hand are given back. Returns them.
  std::vector<Job> abandon_searches();
  // A searching worker's moves for job `j` to its room (on the io thread). A commit the store
  // refused (it is down: PostgreSQL restarting) is sent again a second later, `tries` times at most
  // while the game waits at the job's seq, rather than waiting for the job's lease to end.
  void bot_result(const Job& j, const std::vector<std::string>& moves, int tries);
  // Drops a room whose log another process has extended: its clients are told to reconnect
  // ("moved") and the next access loads it again from the store.
  void reload(const std::string& id);
  // host(id), reloaded first if the store holds events it has not (another process extended the
  // game: several processes share one PostgreSQL).
  Host* fresh(const std::string& id);
  void accept();
  // Several processes on one store: rooms with clients whose log another process extended are
  // reloaded (their clients told to say hello again), so that nobody waits on a stale room.
  void watch_heads();
  bool heads_failing_ = false;

  // The HTTP API: a table of routes, {method, path pattern, handler}, matched in one place
  // (handle_http_in), and a handler per route.
  struct HttpCall;
  struct Route {
    http::verb method;
    std::string_view pattern;
    void (Server::*handler)(HttpCall&);
  };
  static const Route kRoutes[];
  static std::span<const Route> routes();
  bool worker_allowed(HttpCall& c);
  void http_create_game(HttpCall& c);
  void http_rematch(HttpCall& c);
  void http_list_games(HttpCall& c);
  void http_take_job(HttpCall& c);
  void http_job_result(HttpCall& c);
  void http_health(HttpCall& c);
  void http_metrics(HttpCall& c);
  void http_catalog(HttpCall& c);
  void http_tiles(HttpCall& c);
  void http_rules(HttpCall& c);
  void http_replay(HttpCall& c);
  void http_stats(HttpCall& c);
  void http_game(HttpCall& c);
  void http_web_file(HttpCall& c);
  void http_analysis(HttpCall& c);
  // Players and sessions (api_accounts.cpp, docs/server-protocol.md "Players and sessions")
  void http_session(HttpCall& c);
  void http_me(HttpCall& c);
  void http_claim(HttpCall& c);
  void http_login(HttpCall& c);
  void http_logout(HttpCall& c);
  void http_sessions(HttpCall& c);
  void http_end_session(HttpCall& c);
  void http_password(HttpCall& c);
  void http_recover(HttpCall& c);
  void http_reset(HttpCall& c);
  void http_delete_account(HttpCall& c);
  void http_my_games(HttpCall& c);
  // Quick pairing, blocks, players' pages (api_pairing.cpp)
  void http_pairing_join(HttpCall& c);
  void http_pairing_status(HttpCall& c);
  void http_pairing_leave(HttpCall& c);
  void http_block(HttpCall& c);
  void http_unblock(HttpCall& c);
  void http_blocks(HttpCall& c);
  void http_player(HttpCall& c);
  // A pairing wave over every pool: the tables' games created, their seats bound to the players.
  void pairing_wave();
  // A game whose seats are players (bound to them, "rated" if asked) and then bots (pairing, tables).
  void create_seated_game(const std::string& game_id, const std::string& game, const std::string& clock,
                          const std::vector<std::string>& players, const std::vector<std::string>& bots, bool rated,
                          const std::string& origin, bool guest_chat = false);
  // Open tables (api_tables.cpp)
  void http_table_open(HttpCall& c);
  void http_tables(HttpCall& c);
  void http_table(HttpCall& c);
  void http_table_join(HttpCall& c);
  void http_table_leave(HttpCall& c);
  // The lobby's WebSocket (lobby.cpp): hello answered with the whole lobby, then a batch of
  // changes at most every --lobby-ms.
  void lobby_message(std::uint64_t conn, const std::string& text);
  void lobby_gone(std::uint64_t conn);
  void lobby_tick();
  struct LobbyState {
    std::map<std::uint64_t, std::string> conns;  // said hello: their player ("" without a session)
    std::map<std::string, std::string> tables;   // the last batch's tables: id -> its JSON text
    std::vector<accounts::AccountStore::PoolCount> pools;
    std::int64_t seq = 0;
  } lobby_;
  // Your turn, profiles, leaderboards (api_players.cpp)
  void http_turns(HttpCall& c);
  void http_leaderboard(HttpCall& c);
  // The player's active games with a days-per-move clock.
  int correspondence_games(const std::string& player);
  // A finished game's result per seat bound to a player (game_results), once.
  void record_results(const std::string& id);
  // Chat and reports (chat.cpp): the connection's side, its history after hello, a message.
  struct ChatConn {
    std::string game, player, name;
    int seat = -1;
    std::string refusal;           // why it may not write ("" it may): chat_account, chat_guest
    std::set<std::string> blocks;  // players it blocks or is blocked by
  };
  std::unordered_map<std::uint64_t, ChatConn> chat_conns_;
  std::unordered_map<std::string, std::deque<std::int64_t>> chat_times_;  // by player: their last messages
  void chat_hello(std::uint64_t conn, const std::string& game, Host& h, int seat);
  void chat_message(std::uint64_t conn, Host& h, const json& msg);
  void http_chat(HttpCall& c);
  void http_report(HttpCall& c);
  // Per player rate buckets, one map per kind ("table", "pool"): true when the player may go on,
  // else false with `retry_s`.
  bool player_rate(const std::string& kind, const std::string& player, double per_minute, int& retry_s);
  std::map<std::string, std::unordered_map<std::string, Bucket>> player_buckets_;
  // The signed-in player of the request's session, or nullopt after answering 401 no_session.
  std::optional<accounts::Player> signed_in(HttpCall& c, std::int64_t now);
  // f() every `ms` on the io thread (guarded), from `ms` from now; stops at a drain unless `in_drain`.
  void every(net::steady_timer& t, std::int64_t ms, bool in_drain, std::function<void()> f);
  // A seat opened with its token by a connection with a session: the seat is its player's.
  void bind_seat(std::uint64_t conn, const std::string& game, int seat);
  // Whether the connection's session player holds the seat (bound by an earlier hello with its token).
  bool seat_is_mine(std::uint64_t conn, const std::string& game, int seat);
  [[nodiscard]] std::string session_cookie(const std::string& secret, bool clear = false) const;
  // The login limits for `key` from the request's address (known to the account or not): true
  // when refused (answered 429 with Retry-After).
  bool login_limited(HttpCall& c, const std::string& key, const std::optional<accounts::Player>& p, std::int64_t now);
  // A hash or verification on the hash pool, then `done` on the io thread; false when the pool is
  // full (the caller answers 503).
  bool off_thread(std::function<void()> work, std::function<void()> done);
  std::unique_ptr<accounts::AccountStore> accounts_;
  std::unique_ptr<accounts::HashPool> hashes_;
  accounts::LoginLimits login_limits_;
  // GET/POST /api/games/ID/analysis: the stored analysis, or the job's progress (202); POST starts one.
  void analysis_answer(HttpCall& c, Host& h, bool start);

  // Analyses of finished games: jobs in memory, searched a slice at a time by the searching
  // workers when no bot's turn is due (docs/server-protocol.md, "Analysis").
  struct AnalysisJob {
    std::string game, client;
    Record record;
    ReviewOptions options;
    std::unique_ptr<ReviewRun> run;  // made by the first slice (a replay)
    std::atomic<int> done{0}, total{0};
    std::atomic<bool> running{false}, saving{false};
    std::atomic<std::int64_t> saved_at{0};  // when `saving` was set (ms since the epoch)
    std::string error;                      // the record could not be reviewed (set before `saving`)
  };
  // A slice of the oldest queued analysis (about 250 ms of search); false if none is queued.
  bool analysis_slice();
  std::mutex amu_;
  std::map<std::string, std::shared_ptr<AnalysisJob>> analyses_;  // by game, queued to stored (under amu_)
  std::deque<std::shared_ptr<AnalysisJob>> aqueue_;               // those waiting for a slice (under amu_)

  ServeOptions o_;
  net::io_context ioc_{1};
  tcp::acceptor acceptor_;
  // (io objects after ioc_: destroyed before it, while its services live)
  std::unique_ptr<net::steady_timer> accept_timer_, sweep_timer_, drain_timer_, heads_timer_, pairing_timer_,
      lobby_timer_;
  int accept_backoff_ms_ = 0;
  int max_conns_ = 0;
  // open connections, in all and per address; shared with the slots that give them back, which
  // may outlive the server (sessions still queued in the io_context when it is destroyed)
  struct Counts {
    int total = 0;
    std::unordered_map<std::string, int> by_ip;
  };
  std::shared_ptr<Counts> counts_ = std::make_shared<Counts>();
  std::unordered_map<std::string, Bucket> buckets_;
  std::unordered_map<std::string, std::set<std::string>> games_by_ip_;  // active games each address created
  std::unordered_map<std::string, std::string> creator_;                // game -> the address that created it
  std::int64_t active_games_ = 0;
  std::map<std::string, std::int64_t> dormant_;  // unloaded active games with a clock deadline
  bool draining_ = false;
  std::int64_t drain_until_ = 0, farewell_ms_ = 300;
  std::atomic<int> busy_workers_{0};
  int fast_lanes_ = 0;  // workers for the cheap bots (set before the workers start)
  std::thread committer_;
  std::vector<std::thread> workers_;
  std::unique_ptr<Store> store_;
  std::map<std::string, std::unique_ptr<Host>> hosts_;
  std::map<std::uint64_t, Sink> sinks_;
  std::unordered_map<std::uint64_t, std::string> ws_clients_;
  std::unordered_map<std::uint64_t, std::string> ws_sessions_;  // the session's secret of its upgrade request
  std::uint64_t conn_ids_ = 0;
  Stats stats_;
  // group commit
  std::mutex cmu_;
  std::condition_variable ccv_;
  std::vector<Append> cq_;  // rooms' appends (each with events) and settled jobs (none)
  bool cstop_ = false;
  bool committing_ = false;  // a batch is in the store's hands
  // workers
  std::condition_variable wcv_;
  std::mutex wmu_;
  bool wstop_ = false;
  std::uint64_t wake_ = 0;                    // bumped (under wmu_) when jobs may be due: idle workers look again
  bool abandon_ = false;                      // (under wmu_) the drain is past its deadline: no search starts
  std::atomic<bool> cancel_searches_{false};  // stops the searches under way (set with abandon_)
  std::map<std::string, Job> in_hand_;        // (under wmu_) by worker lease: searched, or moves on the way
  void wake_workers() {
    {
      const std::lock_guard lock(wmu_);
      ++wake_;
    }
    wcv_.notify_all();
  }
  std::string lease_prefix_ = "srv-" + random_hex(6);
};

// One HTTP request as its route's handler sees it: the request, the client, how to answer, the
// path without its query, and the text the route's wildcard matched.
struct Server::HttpCall {
  http::request<http::string_body>& req;
  const std::string& client;
  std::function<void(http::response<http::string_body>&&)>& reply;
  const Respond& respond_;
  const Problem& problem;
  int& retry_after;
  std::string target;  // the path, without the query
  std::string query;
  std::string arg;  // what the route's '*' or '+' matched

  std::vector<std::string> cookies;  // Set-Cookie lines for the answer
  void respond(http::status st, const std::string& body, const std::string& type = "application/json") const {
    respond_(st, body, type, cookies);
  }
  // A query parameter's value ("" if absent).
  [[nodiscard]] std::string param(const std::string& key) const {
    for (std::size_t at = 0; at <= query.size();) {
      const auto amp = query.find('&', at);
      const std::string kv = query.substr(at, amp == std::string::npos ? std::string::npos : amp - at);
      if (kv.rfind(key + "=", 0) == 0) return kv.substr(key.size() + 1);
      if (amp == std::string::npos) break;
      at = amp + 1;
    }
    return "";
  }
};

}  // namespace carc::server::net_side
