// The limits a server strangers reach: connections per address, creation quotas, what is
// refused, and the sweep of idle games.
#include "server/net/server.hpp"

namespace carc::server::net_side {

// ---- limits --------------------------------------------------------------------------------

void Server::refused(const std::string& code, const std::string& client, const std::string& message, int status) {
  ++stats_.refused[code];
  if (status) ++stats_.http_by_status[status];
  log_event("refused", {{"code", code}, {"client", client}, {"status", status}, {"message", printable(message)}});
}

Slot Server::take_slot(const std::string& addr, std::string& why) {
  Counts& c = *counts_;
  if (max_conns_ > 0 && c.total >= max_conns_) {
    why = fmt::format("the server holds its {} connections", max_conns_);
    return nullptr;
  }
  const bool proxied = !o_.trust_proxy.empty() && addr == o_.trust_proxy;
  int& mine = c.by_ip[addr];
  if (!proxied && o_.max_conns_per_ip > 0 && mine >= o_.max_conns_per_ip) {
    why = fmt::format("your address holds {} connections, the most one address may", o_.max_conns_per_ip);
    if (mine == 0) c.by_ip.erase(addr);
    return nullptr;
  }
  ++mine;
  ++c.total;
  // given back on the io thread when the last session holding the connection ends
  return Slot(static_cast<void*>(counts_.get()), [counts = counts_, addr](void*) {
    --counts->total;
    const auto it = counts->by_ip.find(addr);
    if (it != counts->by_ip.end() && --it->second <= 0) counts->by_ip.erase(it);
  });
}

std::string Server::create_quota(const std::string& client, std::string& message, int& retry_s) {
  if (o_.max_games > 0 && active_games_ >= o_.max_games) {
    retry_s = 60;
    message = fmt::format("the server has its {} active games: try again later", o_.max_games);
    return "server_full";
  }
  if (o_.max_games_per_ip > 0) {
    const auto it = games_by_ip_.find(client);
    if (it != games_by_ip_.end() && static_cast<int>(it->second.size()) >= o_.max_games_per_ip) {
      retry_s = 60;
      message = fmt::format("your address has {} active games, the most one address may: finish or abort one first",
                            o_.max_games_per_ip);
      return "too_many_games";
    }
  }
  if (o_.create_rate > 0) {
    retry_s = take_token(buckets_, client, std::max(1, o_.create_burst), o_.create_rate / 60000.0, now_ms());
    if (retry_s > 0) {
      message = fmt::format("too many new games from your address (at most {} a minute): try again in {} s",
                            o_.create_rate, retry_s);
      return "rate_limited";
    }
  }
  return "";
}

int take_token(std::unordered_map<std::string, Bucket>& buckets, const std::string& key, double cap, double per_ms,
               std::int64_t now) {
  if (buckets.size() > 100000)  // forget the keys whose buckets are full again
    for (auto it = buckets.begin(); it != buckets.end();)
      it = it->second.tokens + static_cast<double>(now - it->second.at) * per_ms >= cap ? buckets.erase(it)
                                                                                        : std::next(it);
  Bucket& b = buckets.try_emplace(key, Bucket{cap, now}).first->second;
  b.tokens = std::min(cap, b.tokens + static_cast<double>(now - b.at) * per_ms);
  b.at = now;
  if (b.tokens < 1) return std::max(1, static_cast<int>(std::ceil((1 - b.tokens) / per_ms / 1000.0)));
  b.tokens -= 1;
  return 0;
}

bool Server::player_rate(const std::string& kind, const std::string& player, double per_minute, int& retry_s) {
  retry_s = take_token(player_buckets_[kind], player, per_minute, per_minute / 60000.0, now_ms());
  if (retry_s == 0) return true;
  ++stats_.refused["rate_limited"];
  return false;
}

void Server::game_ended(const std::string& id) {
  if (const auto it = creator_.find(id); it != creator_.end()) {
    if (const auto g = games_by_ip_.find(it->second); g != games_by_ip_.end()) {
      g->second.erase(id);
      if (g->second.empty()) games_by_ip_.erase(g);
    }
    creator_.erase(it);
  }
  active_games_ = std::max<std::int64_t>(0, active_games_ - 1);
  dormant_.erase(id);
}

void Server::sweep() {
  const std::int64_t now = now_ms();
  std::vector<std::string> gone;
  for (const auto& [id, h] : hosts_) {
    if (!h->conns.empty() || !h->greeted.empty() || h->room->busy() || !h->waiting.empty()) continue;
    if (h->room->over() || (o_.unload_after_ms > 0 && now - h->used >= o_.unload_after_ms)) gone.push_back(id);
  }
  for (const std::string& id : gone) {
    const auto it = hosts_.find(id);
    Host& h = *it->second;
    const std::int64_t d = h.room->over() ? 0 : h.room->deadline();
    h.timer->cancel();
    if (d) dormant_[id] = d;
    hosts_.erase(it);
    ++stats_.unloaded;
  }
  // deadlines of unloaded games: load them, their timers take it from there
  std::vector<std::string> due;
  for (const auto& [id, d] : dormant_)
    if (d <= now + 1000) due.push_back(id);
  for (const std::string& id : due) {
    try {
      if (!host(id)) dormant_.erase(id);  // (loaded: host() takes it out of dormant_)
    } catch (const StoreError&) {
      // the store does not answer (PostgreSQL restarting): the game stays dormant and the next
      // sweep tries again, so that its clock still runs out once the store is back
    } catch (const std::exception& e) {
      dormant_.erase(id);
      ++stats_.handler_failures;
      log_event("handler_failed", {{"game", id}, {"error", printable(e.what())}});
    }
  }
}

}  // namespace carc::server::net_side
