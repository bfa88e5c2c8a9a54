// Bot workers: inside the server (threads) and outside (`carcassonne worker`, over HTTP).
#include "server/net/server.hpp"

namespace carc::server::net_side {

// ---- bot workers inside the server ---------------------------------------------------------

void Server::worker_loop(int index, bool fast) {
  const std::string lease = worker_lease(index, fast);
  bool failing = false;  // the store failed the last take (it is down): logged once
  for (;;) {
    std::uint64_t seen = 0;  // wake_ before looking for a job: a commit after it wakes us
    {
      std::unique_lock lock(wmu_);
      if (wstop_) return;
      seen = wake_;
    }
    std::optional<Job> job;
    try {
      // with a fast lane, the searching workers leave the cheap bots to it: an all-cheap load is
      // played by one thread, as without the lane
      job = store_->take_job(lease, now_ms(), o_.lease_ms,
                             fast              ? JobLane::cheap
                             : fast_lanes_ > 0 ? JobLane::costly
                                               : JobLane::any);
      failing = false;
    } catch (const std::exception& e) {
      if (!failing) log_event("worker_failed", {{"error", printable(e.what())}});  // once, not every 200 ms
      failing = true;
    }
    if (!job && !fast && analysis_slice()) continue;  // no bot's turn is due: a slice of an analysis
    if (!job) {
      // wait for a commit that makes a job due (or 200 ms: jobs of other processes, leases ending)
      std::unique_lock lock(wmu_);
      wcv_.wait_for(lock, std::chrono::milliseconds(200), [&] { return wstop_ || wake_ != seen; });
      continue;
    }
    // the position: a copy of the room's game (on the io thread). A room another process has
    // extended is reloaded from the store first; a job the game has moved past is settled.
    // (shared: a drain may end this thread's wait before the io thread answers)
    auto game = std::make_shared<std::optional<Game>>();
    for (int tries = 0; tries < 50 && !*game; ++tries) {
      auto got = std::make_shared<std::promise<int>>();  // 0 got it, 1 busy: again, 2 stale
      auto fut = got->get_future();
      net::post(ioc_, [this, j = *job, got, game] {
        try {
          Host* h = fresh(j.game);
          if (!h || (!h->room->busy() && h->room->seq() > j.seq)) {
            Append settle;  // the game went on without this job
            settle.game = j.game;
            settle.done_jobs = {j.seq};
            const std::lock_guard lock(cmu_);
            cq_.push_back(std::move(settle));
            ccv_.notify_one();
            got->set_value(2);
          } else if (h->room->busy() || h->room->seq() != j.seq) {
            got->set_value(1);
          } else {
            game->emplace(h->room->game());
            if (!h->room->log().empty())
              stats_.job_wait_seconds.add(static_cast<double>(now_ms() - h->room->log().back().time) / 1000.0);
            got->set_value(0);
          }
        } catch (const std::exception&) {
          got->set_value(2);
        }
      });
      bool stop = false;
      while (!stop && fut.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready) {
        const std::lock_guard lock(wmu_);
        stop = wstop_;
      }
      if (stop) {  // stopping before the search began: the job back to the store, free
        give_back(*job);
        return;
      }
      const int r = fut.get();
      if (r == 2) break;
      if (r == 1) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!*game) continue;
    bool taken = false;
    {
      // in hand until its moves are with the room (a drain waits for it); past the drain's
      // deadline no search starts: the job is given back for the next start
      const std::lock_guard lock(wmu_);
      if (!abandon_) {
        in_hand_[lease] = *job;
        ++busy_workers_;
        taken = true;
      }
    }
    if (!taken) {
      give_back(*job);
      return;
    }
    std::vector<std::string> moves;
    try {
      const std::uint64_t seed =
          std::hash<std::string>{}(job->game) ^ static_cast<std::uint64_t>(job->seq) * 0x9E3779B97F4A7C15ULL;
      moves = bot_decisions(
          std::move(**game), job->seat, job->spec, seed,
          BotLimits{.max_ms = o_.trusted_bots ? 0 : o_.bot_max_ms, .max_threads = o_.trusted_bots ? 0 : 1},
          &cancel_searches_);
    } catch (const SearchCancelled&) {
      return;  // the drain's deadline, or a second signal: the job was given back (abandon_searches)
    } catch (const std::exception& e) {
      // stale (the game went on): its job is settled by the room
      log_event("job_failed", {{"game", job->game}, {"seq", job->seq}, {"error", printable(e.what())}});
      out_of_hand(lease);
      continue;
    }
    // out of hand once the room has the moves (busy with their commit, or queued behind one)
    net::post(ioc_, [this, j = *job, moves = std::move(moves), lease] {
      bot_result(j, moves, 0);
      out_of_hand(lease);
    });
  }
}

void Server::out_of_hand(const std::string& lease) {
  const std::lock_guard lock(wmu_);
  if (in_hand_.erase(lease)) --busy_workers_;
}

void Server::give_back(const Job& j) {
  try {
    store_->release_job(j.game, j.seq, j.lease);
  } catch (const std::exception& e) {
    log_event("job_failed", {{"game", j.game}, {"seq", j.seq}, {"error", printable(e.what())}});
  }
}

std::vector<Job> Server::abandon_searches() {
  std::vector<Job> cancelled;
  cancel_searches_ = true;  // the searches stop within a few playouts (SearchStop)
  {
    const std::lock_guard lock(wmu_);
    abandon_ = true;
    wstop_ = true;
    for (const auto& [lease, j] : in_hand_) cancelled.push_back(j);
  }
  wcv_.notify_all();
  for (const Job& j : cancelled) give_back(j);
  return cancelled;
}

void Server::bot_result(const Job& j, const std::vector<std::string>& moves, int tries) {
  guarded([&] {
    Host* h = host(j.game);
    if (!h) return;
    const std::uint64_t conn = next_conn();
    sinks_[conn] = [this, conn, j, moves, tries](const std::string& text) {
      net::post(ioc_, [this, conn] { sinks_.erase(conn); });
      if (text.find(R"("code":"store")") == std::string::npos || draining_ || tries >= 30) return;
      auto again = std::make_shared<net::steady_timer>(ioc_, std::chrono::seconds(1));
      again->async_wait([this, again, j, moves, tries](beast::error_code ec) {
        if (!ec && !draining_) bot_result(j, moves, tries + 1);
      });
    };
    when_free(*h, [this, h, j, moves, conn] {
      run_step(*h, h->room->bot_play(conn, j.seat, fmt::format("job:{}", j.seq), j.seq, moves, now_ms()));
    });
  });
}

// Bot workers outside the server come only with the server's --worker-key.
bool Server::worker_allowed(HttpCall& c) {
  if (o_.worker_key.empty() || c.req["X-Worker-Key"] != o_.worker_key) {
    c.problem(http::status::forbidden, "bad_key", "workers need the server's --worker-key (X-Worker-Key)");
    return false;
  }
  return true;
}

// POST /api/jobs/take: a bot's turn to play, with its game's record (204: none is due).
void Server::http_take_job(HttpCall& c) {
  if (!worker_allowed(c)) return;
  for (int tries = 0; tries < 8 && !draining_; ++tries) {
    const auto job = store_->take_job(fmt::format("{}-http-{}", lease_prefix_, ++conn_ids_), now_ms(), o_.lease_ms);
    if (!job) break;
    Host* h = fresh(job->game);
    if (!h || h->room->seq() != job->seq || h->room->busy()) continue;  // settled or about to be: the room clears it
    c.respond(http::status::ok, json{{"game", job->game},
                                     {"seq", job->seq},
                                     {"seat", job->seat},
                                     {"spec", job->spec},
                                     {"lease", job->lease},
                                     {"lease_until", job->lease_until},
                                     {"record", json::parse(h->room->record_json())}}
                                    .dump());
    return;
  }
  http::response<http::string_body> r{http::status::no_content, c.req.version()};
  r.set(http::field::server, "carcassonne");
  c.reply(std::move(r));
}

// POST /api/games/ID/job: a worker's moves for a job, answered after they are committed.
void Server::http_job_result(HttpCall& c) {
  if (!worker_allowed(c)) return;
  json body;
  const std::string& game = c.arg;
  std::int64_t seq = 0;
  int seat = 0;
  std::vector<std::string> moves;
  try {
    body = jin::parse(c.req.body(), "request");
    seq = jin::integer(jin::need(body, "seq", "request"), 0, std::int64_t{1} << 50, "request", "seq");
    seat = static_cast<int>(jin::integer(jin::need(body, "seat", "request"), 0, kMaxPlayers - 1, "request", "seat"));
    const json& mv = jin::array(jin::need(body, "moves", "request"), "request", "moves", 16);
    for (std::size_t i = 0; i < mv.size(); ++i)
      moves.push_back(jin::string(mv[i], "request", fmt::format("moves[{}]", i), 200));
  } catch (const std::exception& e) {
    c.problem(http::status::bad_request, "bad_request", e.what());
    return;
  }
  Host* h = host(game);
  if (!h) {
    c.problem(http::status::not_found, "unknown_game", fmt::format("no game \"{}\"", printable(game)));
    return;
  }
  // the answer (a reject now, or the ack after the commit) goes to this request
  const std::uint64_t conn = next_conn();
  auto answer = std::make_shared<std::function<void(http::response<http::string_body> &&)>>(std::move(c.reply));
  const unsigned version = c.req.version();
  sinks_[conn] = [this, conn, answer, version, sent = std::make_shared<bool>(false)](const std::string& text) {
    if (*sent) return;
    *sent = true;
    http::response<http::string_body> r{http::status::ok, version};
    r.set(http::field::content_type, "application/json");
    r.body() = text;
    r.prepare_payload();
    (*answer)(std::move(r));
    net::post(ioc_, [this, conn] { sinks_.erase(conn); });
  };
  when_free(*h, [this, h, conn, seat, seq, moves] {
    run_step(*h, h->room->bot_play(conn, seat, fmt::format("job:{}", seq), seq, moves, now_ms()));
  });
}

}  // namespace carc::server::net_side
