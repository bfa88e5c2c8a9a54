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
  // limits for a server strangers reach (docs/deploy.md, "Limits"); 0 turns a cap off
  cmd->add_option("--header-timeout-ms", o->header_timeout_ms, "a request's line and headers must arrive within this")
      ->capture_default_str()->check(CLI::Range(100, 3600000));
  cmd->add_option("--body-timeout-ms", o->body_timeout_ms, "a request's body must arrive within this after its headers")
      ->capture_default_str()->check(CLI::Range(100, 3600000));
  cmd->add_option("--keepalive-ms", o->keepalive_ms, "close an HTTP connection idle this long between requests")
      ->capture_default_str()->check(CLI::Range(100, 3600000));
  cmd->add_option("--max-conns", o->max_conns, "connections in all (0: the descriptor limit less 64)")->capture_default_str()->check(CLI::Range(0, 1 << 20));
  cmd->add_option("--max-conns-per-ip", o->max_conns_per_ip, "connections from one client address (0: no cap)")
      ->capture_default_str()->check(CLI::Range(0, 1 << 20));
  cmd->add_option("--create-rate", o->create_rate, "new games per minute from one client address (0: no limit)")
      ->capture_default_str()->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--create-burst", o->create_burst, "new games one address may create at once")->capture_default_str()->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--max-games", o->max_games, "active games in all (0: no cap)")->capture_default_str()->check(CLI::Range(0, 1 << 30));
  cmd->add_option("--max-games-per-ip", o->max_games_per_ip, "active games created by one client address (0: no cap)")
      ->capture_default_str()->check(CLI::Range(0, 1 << 30));
  cmd->add_option("--max-spectators", o->max_spectators, "spectators of one game (0: no cap)")->capture_default_str()->check(CLI::Range(0, 1 << 20));
  cmd->add_option("--bot-max-ms", o->bot_max_ms,
                  "a bot's time per decision; a requested mcts spec must ask for no more")
      ->capture_default_str()
      ->check(CLI::Range(kServeBotMinMs, kServeBotMaxMs));
  cmd->add_option("--bot-max-playouts", o->bot_max_playouts, "the most playouts a requested mcts spec may ask for")
      ->capture_default_str()
      ->check(CLI::Range(1, kServeBotMaxPlayouts));
  cmd->add_flag("--trusted-bots", o->trusted_bots, "accept any bot spec and no time cap (a server for people you trust)");
  cmd->add_option("--fast-workers", o->fast_workers, "workers for the bots that answer at once: random, greedy, easy (default: 1 if --workers > 0)")
      ->check(CLI::Range(0, 16));
  cmd->add_option("--unload-after-ms", o->unload_after_ms, "an active game without connections leaves memory after this (0: never)")
      ->capture_default_str()->check(CLI::Range(0LL, 365LL * 86400000));
  cmd->add_option("--drain-ms", o->drain_ms, "on SIGTERM: at most this long to commit what is queued before stopping")
      ->capture_default_str()->check(CLI::Range(0, 600000));
  cmd->add_option("--analysis-playouts", o->analysis_playouts,
                  "search playouts per decision of a finished game's analysis")
      ->capture_default_str()
      ->check(CLI::Range(10, 100000));
  cmd->add_option("--max-analyses", o->max_analyses, "analyses queued or running at once (0: none are made)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000));
  cmd->add_option("--analyses-per-ip", o->analyses_per_ip, "analyses one client address may have queued or running")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--trust-proxy", o->trust_proxy, "the address of a proxy in front (nginx): its X-Forwarded-For names the client");
  cmd->add_flag("--secure-cookies", o->secure_cookies,
                "the session cookie is __Host-carc_session with Secure: behind TLS (docs/deploy.md)");
  cmd->add_option("--origin", o->origins, "a page origin besides the server's own that may send requests (repeatable)");
  cmd->add_option("--hash-threads", o->hash_threads, "password hashes at once (each 64 MiB)")
      ->capture_default_str()
      ->check(CLI::Range(1, 16));
  cmd->add_option("--pairing-wave-ms", o->pairing_wave_ms,
                  "a quick-pairing wave this often (0: this process pairs nobody)")
      ->capture_default_str()
      ->check(CLI::Range(0, 600000));
  cmd->add_option("--lobby-ms", o->lobby_ms, "the lobby socket's batch of changes at most this often")
      ->capture_default_str()
      ->check(CLI::Range(50, 60000));
  cmd->add_option("--correspondence-cap", o->correspondence_cap,
                  "a player's active games with a days-per-move clock at most")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
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
