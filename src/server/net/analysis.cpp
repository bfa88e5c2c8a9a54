// Analyses of finished games: asked for over HTTP, searched a slice at a time by the workers.
#include "server/net/server.hpp"

namespace carc::server::net_side {

// POST /api/games/ID/analysis ({} or no body): a finished game's analysis, made once and stored
// with the game (an `analysis` event); 202 with the progress while it is queued or running.
void Server::http_analysis(HttpCall& c) {
  if (!c.req.body().empty()) {
    try {
      const json body = jin::parse(c.req.body(), "request");
      if (!body.is_object() || !body.empty())
        throw InputError("request: an analysis request has no fields ({} or no body)");
    } catch (const InputError& e) {
      c.problem(http::status::bad_request, "bad_request", e.what());
      return;
    }
  }
  std::string id = c.arg;
  Host* h = host(id);
  if (!h) {
    c.problem(http::status::not_found, "unknown_game", fmt::format("no game \"{}\"", printable(id)));
    return;
  }
  analysis_answer(c, *h, true);
}

void Server::analysis_answer(HttpCall& c, Host& h, bool start) {
  const std::string id = h.room->id();
  const std::string* stored = h.room->analysis();
  std::shared_ptr<AnalysisJob> job;
  std::string error;
  {
    const std::lock_guard lock(amu_);
    if (const auto it = analyses_.find(id); it != analyses_.end()) {
      // stored: the job is done; saved but not stored and nothing in flight: its event was lost
      // (a fenced commit), so it is made again below
      if (stored || (it->second->saving && !h.room->busy() && it->second->error.empty() && start &&
                     now_ms() - it->second->saved_at > 10000)) {
        analyses_.erase(it);
      } else {
        job = it->second;
        error = job->error;
      }
    }
  }
  if (stored) {
    json body = json::parse(*stored);
    body["status"] = "done";
    // the seats as the request's language names them ("Bot easy" -> «Лёгкий бот»); stored in English
    if (json* players = body.contains("review") ? &body["review"]["players"] : nullptr; players && players->is_array())
      for (json& name : *players)
        if (name.is_string()) name = seat_name_words(h.room->game_def(), name.get<std::string>());
    if (body.contains("review")) add_move_words(body["review"], h.room->record_json());  // its moves in words
    c.respond(http::status::ok, dump(body));
    return;
  }
  if (job && !error.empty()) {
    c.problem(http::status::unprocessable_entity, "bad_record", error);
    return;
  }
  if (!job && !start) {
    c.problem(http::status::not_found, "no_analysis",
              "the game has no analysis: POST /api/games/ID/analysis makes one");
    return;
  }
  if (!job) {
    if (!h.room->over() || h.room->busy()) {
      c.problem(http::status::conflict, "not_over", "the game is not over: its analysis is made after the end");
      return;
    }
    if (draining_) {
      c.retry_after = 5;
      c.problem(http::status::service_unavailable, "restarting",
                "the server is restarting: try again in a few seconds");
      return;
    }
    if (o_.workers < 1 || o_.max_analyses < 1) {
      c.problem(http::status::service_unavailable, "no_analysis_workers",
                "this server makes no analyses (--workers 0 or --max-analyses 0)");
      return;
    }
    job = std::make_shared<AnalysisJob>();
    job->game = id;
    job->client = c.client;
    job->record = h.room->game().record();
    job->options.playouts = o_.analysis_playouts;
    job->options.seed = std::hash<std::string>{}(id) | 1;
    job->options.ownership = true;  // who is likely to score each open feature, per decision
    const std::lock_guard lock(amu_);
    // a job being saved (or saved: its entry goes when the game is next asked about, or a minute
    // after) is not under way and holds no slot
    int mine = 0, under_way = 0;
    for (auto it = analyses_.begin(); it != analyses_.end();) {
      const AnalysisJob& j = *it->second;
      if (j.saving && now_ms() - j.saved_at > 60000) {
        it = analyses_.erase(it);
        continue;
      }
      under_way += !j.saving;
      mine += !j.saving && j.client == c.client;
      ++it;
    }
    if (under_way >= o_.max_analyses || mine >= o_.analyses_per_ip) {
      c.retry_after = 30;
      c.problem(http::status::service_unavailable, "busy",
                mine >= o_.analyses_per_ip
                    ? fmt::format("you have {} analyses under way: try again when one is done", mine)
                    : "the server is making as many analyses as it may: try again in a minute");
      return;
    }
    analyses_[id] = job;
    aqueue_.push_back(job);
  }
  if (start) wake_workers();
  std::size_t ahead = 0;
  {
    const std::lock_guard lock(amu_);
    for (const auto& q : aqueue_) {
      if (q == job) break;
      ++ahead;
    }
  }
  const std::string status = job->saving ? "saving" : job->running || job->done > 0 ? "running" : "queued";
  c.respond(http::status::accepted, dump(json{{"status", status},
                                              {"done", job->done.load()},
                                              {"total", job->total.load()},
                                              {"ahead", ahead},
                                              {"playouts", job->options.playouts}}));
}

bool Server::analysis_slice() {
  std::shared_ptr<AnalysisJob> job;
  {
    const std::lock_guard lock(amu_);
    if (aqueue_.empty()) return false;
    job = aqueue_.front();
    aqueue_.pop_front();
  }
  job->running = true;
  ++busy_workers_;
  std::string error;
  try {
    if (!job->run) {
      job->run = std::make_unique<ReviewRun>(job->record, job->options);
      job->total = job->run->total();
    }
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(250);
    do {
      job->run->step();
      job->done = job->run->done();
    } while (!job->run->finished() && std::chrono::steady_clock::now() < until);
  } catch (const std::exception& e) {
    error = printable(e.what());
  }
  --busy_workers_;
  job->running = false;
  if (error.empty() && !job->run->finished()) {
    const std::lock_guard lock(amu_);  // to the back: the other analyses and every bot's turn go first
    aqueue_.push_back(job);
    return true;
  }
  if (!error.empty()) {
    {
      const std::lock_guard lock(amu_);
      job->error = error;
    }
    job->saving = true;
    log_event("analysis_failed", {{"game", job->game}, {"error", error}});
    return true;
  }
  job->saved_at = now_ms();
  job->saving = true;
  json body{{"playouts", job->options.playouts},
            {"seed", job->options.seed},
            {"review", review_to_json(job->run->review(), job->record)}};
  job->run.reset();
  net::post(ioc_, [this, id = job->game, body = std::move(body)] {
    guarded([&] {
      Host* h = host(id);
      if (!h) return;
      when_free(*h, [this, h, body] { run_step(*h, h->room->add_analysis(body, now_ms())); });
    });
  });
  return true;
}

}  // namespace carc::server::net_side
