// server: `carcassonne serve`, the game server (docs/server-protocol.md, docs/deploy.md). One
// process serves HTTP and WebSocket (Boost.Beast, in src/server/net/ only); games live in rooms
// (server/room) whose logs go to a store (server/store) by group commit; bots' turns are jobs in
// the store, done by workers inside the server or by `carcassonne worker` processes.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ai/bot_limits.hpp"

namespace carc::server {

struct ServeOptions {
  std::string listen = "127.0.0.1:8080";
  std::string db;                  // store url (server/store.hpp open_store)
  std::string web_root;            // the browser client's built files; "" a placeholder page
  int workers = 1;                 // bot workers inside the server (0: only outside ones)
  bool allow_seed = false;         // create requests may set the seed (tests and the soak tool)
  std::string worker_key;          // what `carcassonne worker` must send (X-Worker-Key); "" none may
  std::int64_t idle_ms = 45000;    // a WebSocket silent this long is closed (clients ping every 15 s)
  std::int64_t lease_ms = 20000;   // a bot job's lease
  bool quiet = false;              // no log lines on stderr
  // Limits for a server strangers reach (docs/deploy.md, "Limits"); 0 turns a cap off.
  std::int64_t header_timeout_ms = 10000;  // a request's line and headers arrive within this
  std::int64_t body_timeout_ms = 30000;    // and its body within this after them
  std::int64_t keepalive_ms = 15000;       // an HTTP connection idle between requests is closed
  int max_conns = 0;                       // connections in all (0: the descriptor limit less 64)
  int max_conns_per_ip = 64;               // connections from one client address
  double create_rate = 30;                 // game creations per minute per client address
  int create_burst = 10;                   // creations allowed at once (the bucket's size)
  int max_games = 10000;                   // active games in all
  int max_games_per_ip = 20;               // active games created by one client address
  int max_spectators = 200;                // spectators of one game
  int bot_max_ms = kServerBotLimits.max_ms;              // a bot's time per decision (also caps the levels)
  int bot_max_playouts = kServerBotLimits.max_playouts;  // an mcts spec with playouts asks for at most this
  bool trusted_bots = false;               // any bot spec (a trusted server)
  int fast_workers = -1;                   // workers for the bots that answer at once (-1: 1 if workers > 0)
  std::int64_t unload_after_ms = 600000;   // an active game without connections leaves memory after
  std::int64_t drain_ms = 10000;           // SIGTERM: at most this long to finish what is queued
  std::string trust_proxy;                 // a proxy's address: its X-Forwarded-For names the client
  // Analyses of finished games (POST /api/games/ID/analysis): searched by the bot workers between
  // bots' turns, this many playouts per decision; at most max_analyses queued or running at once,
  // analyses_per_ip of them asked for by one client address.
  int analysis_playouts = 1000;
  int max_analyses = 8;
  int analyses_per_ip = 2;
  // Players and sessions (docs/security.md): the session cookie is `__Host-carc_session` with
  // Secure (behind TLS: docs/deploy.md), else `carc_session`; pages of these origins may send
  // requests too (besides the server's own); hashes at once at most (more wait; 64 waiting:
  // refused).
  bool secure_cookies = false;
  std::vector<std::string> origins;
  int hash_threads = 2;
  std::int64_t pairing_wave_ms = 3000;  // a quick-pairing wave this often (0: none in this process)
  std::int64_t lobby_ms = 1000;
  int correspondence_cap =
      30;  // a player's active days-per-move games at most         // the lobby socket's batches at most this often
};

// The HTTP side of a server without sockets, for the fuzzer (fuzz/fuzz_http.cpp) and tests: raw
// request bytes in (one request; pipelined extra bytes are ignored), the raw response out, through
// the same parser limits, router and handlers as `serve` (a store of the options' --db, usually
// "memory"). Returns "" when the bytes do not make a whole request (the connection would wait).
class HttpHarness {
 public:
  explicit HttpHarness(const ServeOptions& o);
  ~HttpHarness();
  HttpHarness(const HttpHarness&) = delete;
  HttpHarness& operator=(const HttpHarness&) = delete;
  std::string request(std::string_view raw, const std::string& client = "127.0.0.1");
  // A WebSocket to `game` ("lobby": the lobby's) whose upgrade carried the session `session` ("":
  // none): each frame as its text message, then the connection closes. What the server sent it.
  std::vector<std::string> websocket(const std::string& game, const std::string& session,
                                     const std::vector<std::string>& frames);
  // Handler failures (500 answers) so far.
  [[nodiscard]] std::uint64_t failures() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Runs until SIGINT or SIGTERM (or *stop turns true). Prints "listening on http://HOST:PORT" once
// ready (the port is the one bound when --listen gives port 0). Returns the exit code.
int serve(const ServeOptions& o, std::atomic<bool>* stop = nullptr);

}  // namespace carc::server
