// The rooms in memory: loaded from the store, their steps run, their clocks armed, reloaded when
// another process extends their log.
#include "server/net/server.hpp"

namespace carc::server::net_side {

// ---- rooms ---------------------------------------------------------------------------------

Host* Server::host(const std::string& id) {
  if (const auto it = hosts_.find(id); it != hosts_.end()) {
    it->second->used = now_ms();
    return it->second.get();
  }
  if (id.empty() || id.size() > 40 || has_control_chars(id)) return nullptr;
  const auto meta = store_->game(id);
  if (!meta) return nullptr;
  auto h = std::make_unique<Host>();
  h->room = std::make_unique<Room>(*meta, store_->events(id, 0));
  h->timer = std::make_unique<net::steady_timer>(ioc_);
  h->used = now_ms();
  dormant_.erase(id);
  Host* p = h.get();
  hosts_[id] = std::move(h);
  arm(*p);
  return p;
}

void Server::send(Host& h, const std::vector<Out>& out) {
  for (const Out& o : out) {
    if (o.conn != 0) {
      if (const auto it = sinks_.find(o.conn); it != sinks_.end()) it->second(o.text);
      continue;
    }
    for (const std::uint64_t c : h.conns)
      if (const auto it = sinks_.find(c); it != sinks_.end()) it->second(o.text);
  }
}

void Server::when_free(Host& h, std::function<void()> f) {
  if (h.room->busy() || !h.waiting.empty()) {
    h.waiting.push_back(std::move(f));
    return;
  }
  guarded(f);
}

void Server::guarded(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    ++stats_.handler_failures;
    log_event("handler_failed", {{"error", printable(e.what())}});
  }
}

void Server::run_step(Host& h, Step&& st) {
  send(h, st.now);
  if (st.commit) {
    const std::lock_guard lock(cmu_);
    cq_.push_back(std::move(*st.commit));
    ccv_.notify_one();
  }
  arm(h);
}

void Server::arm(Host& h) {
  std::int64_t d = h.room->deadline();
  if (d != 0 && d < h.retry_at) d = h.retry_at;  // (a timeout the store refused: again in a second)
  if (d == h.armed) return;
  h.armed = d;
  h.timer->cancel();
  if (d == 0) return;
  h.timer->expires_after(std::chrono::milliseconds(std::max<std::int64_t>(d - now_ms(), 0) + 5));
  const std::string id = h.room->id();
  h.timer->async_wait([this, id](beast::error_code ec) {
    if (ec) return;
    Host* hp = host(id);
    if (!hp) return;
    hp->armed = 0;
    when_free(*hp, [this, hp] { run_step(*hp, hp->room->tick(now_ms())); });
    arm(*hp);
  });
}

Host* Server::fresh(const std::string& id) {
  Host* h = host(id);
  bool extended = false;
  try {
    extended = h && !h->room->busy() && h->waiting.empty() && !store_->events(id, h->room->seq()).empty();
  } catch (const StoreError&) {
    // the store does not answer (PostgreSQL restarting): the room in memory is the game as this
    // process committed it; its clients see it, and their commands are refused until it is back
  }
  if (extended) {
    reload(id);
    h = host(id);
  }
  return h;
}

void Server::reload(const std::string& id) {
  const auto it = hosts_.find(id);
  if (it == hosts_.end()) return;
  for (const std::uint64_t c : it->second->greeted)
    if (const auto sk = sinks_.find(c); sk != sinks_.end())
      sk->second(json{{"type", "error"}, {"code", "moved"}, {"message", "the game went on elsewhere: say hello again"}}
                     .dump());
  for (auto& f : it->second->waiting) (void)f;  // dropped: their clients resend after the hello
  hosts_.erase(it);
}

void Server::watch_heads() {
  heads_timer_->expires_after(std::chrono::milliseconds(300));
  heads_timer_->async_wait([this](beast::error_code ec) {
    if (ec) return;
    std::vector<std::string> ids;
    for (const auto& [id, h] : hosts_)
      if (!h->conns.empty() && !h->room->busy() && h->waiting.empty() && !h->room->over()) ids.push_back(id);
    try {
      if (!ids.empty())
        for (const auto& [id, seq] : store_->heads(ids)) {
          const auto it = hosts_.find(id);
          if (it != hosts_.end() && !it->second->room->busy() && seq > it->second->room->seq()) reload(id);
        }
      heads_failing_ = false;
    } catch (const std::exception& e) {
      if (!heads_failing_) log(fmt::format("heads: {}", e.what()));  // once per outage, not every 300 ms
      heads_failing_ = true;
    }
    watch_heads();
  });
}

}  // namespace carc::server::net_side
