// serve: the game server (docs/server-protocol.md, docs/deploy.md): HTTP and WebSocket, games in
// an SQLite file (the default) or PostgreSQL, bots inside the server.
#include <fmt/format.h>

#include <filesystem>

#include "cli/commands.hpp"
#include "core/core.hpp"
#include "server/server.hpp"
#include "server/store.hpp"

namespace carc::cli {

void register_serve(CLI::App& app) {
  auto* cmd = app.add_subcommand("serve", "Run the game server: HTTP and WebSocket (docs/server-protocol.md)");
  auto o = std::make_shared<server::ServeOptions>();
  auto data = std::make_shared<std::string>("data-server");
  cmd->add_option("--listen", o->listen, "HOST:PORT to listen on (port 0: any free port)")->capture_default_str();
  cmd->add_option("--db", o->db, "sqlite:FILE or postgresql://... (default: sqlite:DATA/games.db)");
  cmd->add_option("--data", *data, "the folder of the default SQLite store")->capture_default_str();
  cmd->add_option("--web", o->web_root, "the browser client's built files (default: a test page)");
  cmd->add_option("--workers", o->workers, "bot workers inside the server")->capture_default_str()->check(CLI::Range(0, 16));
  cmd->add_option("--worker-key", o->worker_key, "the key `carcassonne worker` processes must send");
  cmd->add_option("--idle-ms", o->idle_ms, "close a WebSocket silent this long")->capture_default_str()->check(CLI::Range(1000, 3600000));
  cmd->add_option("--lease-ms", o->lease_ms, "a bot job's lease")->capture_default_str()->check(CLI::Range(100, 3600000));
  cmd->add_flag("--allow-seed", o->allow_seed, "let create requests set the seed (tests only: players could know the draws)");
  cmd->add_flag("--quiet", o->quiet, "no log lines");
  cmd->callback([o, data] {
    if (o->db.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(*data, ec);
      if (ec) throw InputError(fmt::format("--data: cannot create the folder {}: {}", *data, ec.message()));
      o->db = "sqlite:" + (std::filesystem::path(*data) / "games.db").string();
    }
    try {
      const int rc = server::serve(*o);
      if (rc != 0) std::exit(rc);
    } catch (const server::StoreError& e) {
      throw InputError(fmt::format("--db: {}", e.what()));
    }
  });
}

}  // namespace carc::cli
