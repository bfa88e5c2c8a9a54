// The group commit: the rooms' appends and the settled jobs, many in one store transaction.
#include "server/net/server.hpp"

namespace carc::server::net_side {

// ---- group commit --------------------------------------------------------------------------

void Server::commit_loop() {
  for (;;) {
    std::vector<Append> batch;
    {
      std::unique_lock lock(cmu_);
      ccv_.wait(lock, [&] { return cstop_ || !cq_.empty(); });
      if (cq_.empty() && cstop_) return;
      batch.swap(cq_);
      committing_ = true;
    }
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<bool> ok;
    std::string why;
    try {
      ok = store_->commit(batch);
    } catch (const std::exception& e) {
      why = e.what();
      ok.assign(batch.size(), false);
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    net::post(ioc_, [this, batch = std::move(batch), ok = std::move(ok), why, ms]() mutable {
      {
        const std::lock_guard lock(cmu_);
        committing_ = false;
      }
      ++stats_.commits;
      stats_.appends += batch.size();
      stats_.max_batch = std::max<std::uint64_t>(stats_.max_batch, batch.size());
      if (stats_.commit_ms.size() >= 4096)
        stats_.commit_ms.erase(stats_.commit_ms.begin(), stats_.commit_ms.begin() + 2048);
      stats_.commit_ms.push_back(ms);
      stats_.commit_seconds.add(ms / 1000.0);
      stats_.batch_size.add(static_cast<double>(batch.size()));
      if (!why.empty()) log_event("commit_failed", {{"appends", batch.size()}, {"error", printable(why)}});
      bool jobs = false;
      for (std::size_t i = 0; i < batch.size(); ++i) {
        stats_.events += batch[i].events.size();
        jobs |= ok[i] && batch[i].job.has_value();
        if (ok[i] && !batch[i].status.empty() && batch[i].status != "active") {
          game_ended(batch[i].game);
          if (batch[i].status == "finished") {
            rate_if_rated(batch[i].game);
            record_results(batch[i].game);
          }
        }
        if (batch[i].events.empty()) continue;  // a job settled aside (a room's commit always has events)
        const auto it = hosts_.find(batch[i].game);
        if (it == hosts_.end()) continue;
        Host& h = *it->second;
        std::vector<Out> out;
        if (ok[i]) {
          h.retry_at = 0;
          h.room->committed(out);
          send(h, out);
        } else {
          ++stats_.failed;
          h.room->failed(why.empty() ? "another server extended this game" : why, out);
          send(h, out);
          if (!why.empty()) h.retry_at = now_ms() + 1000;
          if (why.empty()) {  // fenced: another process extended the game; reload its log
            log(fmt::format("game {}: fenced by another writer; reloading", batch[i].game));
            reload(batch[i].game);
            continue;
          }
        }
        // what waited for this commit, in order, until the room is busy again
        while (!h.room->busy() && !h.waiting.empty()) {
          auto f = std::move(h.waiting.front());
          h.waiting.pop_front();
          guarded(f);
        }
        arm(h);
      }
      if (jobs) wake_workers();
    });
  }
}

}  // namespace carc::server::net_side
