// server: `carcassonne serve`, the game server (docs/server-protocol.md, docs/deploy.md). One
// process serves HTTP and WebSocket (Boost.Beast, in http_server.cpp only); games live in rooms
// (server/room) whose logs go to a store (server/store) by group commit; bots' turns are jobs in
// the store, done by workers inside the server or by `carcassonne worker` processes.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>

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
};

// Runs until SIGINT or SIGTERM (or *stop turns true). Prints "listening on http://HOST:PORT" once
// ready (the port is the one bound when --listen gives port 0). Returns the exit code.
int serve(const ServeOptions& o, std::atomic<bool>* stop = nullptr);

}  // namespace carc::server
