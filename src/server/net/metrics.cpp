// GET /metrics (Prometheus' text format) and GET /api/stats.
#include "server/net/server.hpp"

namespace carc::server::net_side {

// GET /metrics: Prometheus' text format.
void Server::http_metrics(HttpCall& c) {
  c.respond(http::status::ok, metrics_text(), "text/plain; version=0.0.4; charset=utf-8");
}

// GET /api/stats: the group commit's numbers.
void Server::http_stats(HttpCall& c) {
  std::vector<double> ms = stats_.commit_ms;
  std::sort(ms.begin(), ms.end());
  auto pct = [&](double p) {
    return ms.empty() ? 0.0 : ms[std::min(ms.size() - 1, static_cast<std::size_t>(p * static_cast<double>(ms.size())))];
  };
  c.respond(http::status::ok,
            json{{"games_loaded", hosts_.size()},
                 {"connections", sinks_.size()},
                 {"commits", stats_.commits},
                 {"appends", stats_.appends},
                 {"events", stats_.events},
                 {"max_batch", stats_.max_batch},
                 {"mean_batch",
                  stats_.commits ? static_cast<double>(stats_.appends) / static_cast<double>(stats_.commits) : 0.0},
                 {"failed", stats_.failed},
                 {"commit_ms_p50", pct(0.5)},
                 {"commit_ms_p99", pct(0.99)},
                 {"store", store_->kind()}}
                .dump());
}

std::string Server::metrics_text() {
  std::string out;
  auto gauge = [&](const std::string& name, const std::string& help, double v, const char* type = "gauge") {
    out += fmt::format("# HELP {} {}\n# TYPE {} {}\n{} {}\n", name, help, name, type, name, v);
  };
  std::size_t ws = 0, spectators = 0;
  for (const auto& [id, h] : hosts_) {
    ws += h->conns.size();
    spectators += static_cast<std::size_t>(h->room->spectators());
  }
  std::size_t queued = 0;
  {
    const std::lock_guard lock(cmu_);
    queued = cq_.size();
  }
  std::size_t jobs_due = 0;
  try {
    jobs_due = store_->jobs().size();
  } catch (const std::exception&) {
  }
  gauge("carc_connections", "open TCP connections (HTTP and WebSocket)", counts_->total);
  gauge("carc_websockets", "WebSocket connections that said hello to a game", static_cast<double>(ws));
  gauge("carc_spectators", "spectators of loaded games", static_cast<double>(spectators));
  gauge("carc_games_loaded", "games held in memory", static_cast<double>(hosts_.size()));
  gauge("carc_games_dormant", "active games unloaded with a clock deadline to come",
        static_cast<double>(dormant_.size()));
  gauge("carc_games_active", "active games (this process's count)", static_cast<double>(active_games_));
  gauge("carc_games_unloaded_total", "games that left memory", static_cast<double>(stats_.unloaded), "counter");
  gauge("carc_commits_total", "group commits", static_cast<double>(stats_.commits), "counter");
  gauge("carc_commit_appends_total", "games' appends committed", static_cast<double>(stats_.appends), "counter");
  gauge("carc_commit_events_total", "events committed", static_cast<double>(stats_.events), "counter");
  gauge("carc_commit_failed_total", "appends that failed (fenced or a store error)", static_cast<double>(stats_.failed),
        "counter");
  gauge("carc_commit_queue", "appends waiting for the committer", static_cast<double>(queued));
  stats_.commit_seconds.write(out, "carc_commit_seconds", "duration of a group commit");
  stats_.batch_size.write(out, "carc_commit_batch_size", "appends in a group commit");
  gauge("carc_jobs_due", "bot jobs in the store (due or leased)", static_cast<double>(jobs_due));
  const StoreHealth sh = store_->health();
  gauge("carc_store_up", "1 while the store's connections are open (as of their last use), 0 while one is broken",
        sh.up ? 1 : 0);
  gauge("carc_store_lost_total", "store connections found broken (PostgreSQL restarted or dropped them)",
        static_cast<double>(sh.lost), "counter");
  gauge("carc_store_reconnects_total", "store connections opened again", static_cast<double>(sh.reconnects), "counter");
  gauge("carc_store_reconnect_failures_total", "tries to open a store connection again that failed (with back-off)",
        static_cast<double>(sh.failed_reconnects), "counter");
  gauge("carc_workers_busy", "bot workers inside the server playing a turn now", busy_workers_.load());
  stats_.job_wait_seconds.write(out, "carc_job_wait_seconds", "from a bot's turn becoming due to a worker taking it");
  gauge("carc_http_requests_total", "HTTP requests read", static_cast<double>(stats_.http_requests), "counter");
  gauge("carc_paired_tables_total", "tables quick pairing made", static_cast<double>(stats_.paired_tables), "counter");
  gauge("carc_lobby_sockets", "lobby WebSockets that said hello", static_cast<double>(lobby_.conns.size()));
  gauge("carc_lobby_messages_total", "lobby batches sent (one per socket)", static_cast<double>(stats_.lobby_messages),
        "counter");
  gauge("carc_password_checks_total", "logins' password verifications (an unknown name costs one too)",
        static_cast<double>(stats_.password_checks), "counter");
  out += "# HELP carc_http_responses_total HTTP answers by status\n# TYPE carc_http_responses_total counter\n";
  for (const auto& [code, n] : stats_.http_by_status)
    out += fmt::format("carc_http_responses_total{{status=\"{}\"}} {}\n", code, n);
  out +=
      "# HELP carc_refused_total requests and messages refused or failed, by code (429s are rate_limited)\n# TYPE "
      "carc_refused_total counter\n";
  for (const auto& [code, n] : stats_.refused) out += fmt::format("carc_refused_total{{code=\"{}\"}} {}\n", code, n);
  gauge("carc_handler_failures_total", "requests and messages whose handler failed (answered 500 or an internal error)",
        static_cast<double>(stats_.handler_failures), "counter");
  gauge("carc_accept_errors_total", "failed accepts (out of descriptors): the accept loop waits and tries again",
        static_cast<double>(stats_.accept_errors), "counter");
  gauge("carc_ws_messages_total", "WebSocket messages read", static_cast<double>(stats_.ws_messages), "counter");
  return out;
}

}  // namespace carc::server::net_side
