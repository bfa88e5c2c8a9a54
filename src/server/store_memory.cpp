// The in-memory store: the same contract as SQLite and PostgreSQL, for the session tests.
#include <algorithm>
#include <map>
#include <mutex>

#include "server/store.hpp"

namespace carc::server {
namespace {

class MemoryStore final : public Store {
 public:
  [[nodiscard]] std::string kind() const override { return "memory"; }

  void create(const GameMeta& meta, const Append& first) override {
    const std::lock_guard lock(mu_);
    if (games_.count(meta.id)) throw StoreError("game " + meta.id + " exists");
    games_[meta.id] = {meta, {}};
    order_.push_back(meta.id);
    if (!apply(first)) throw StoreError("game " + meta.id + ": its first events do not start at seq 1");
  }

  std::vector<bool> commit(const std::vector<Append>& batch) override {
    const std::lock_guard lock(mu_);
    std::vector<bool> ok;
    ok.reserve(batch.size());
    for (const Append& a : batch) ok.push_back(apply(a));
    return ok;
  }

  std::optional<GameMeta> game(const std::string& id) override {
    const std::lock_guard lock(mu_);
    const auto it = games_.find(id);
    if (it == games_.end()) return std::nullopt;
    return it->second.meta;
  }

  std::vector<Event> events(const std::string& id, std::int64_t since) override {
    const std::lock_guard lock(mu_);
    std::vector<Event> out;
    const auto it = games_.find(id);
    if (it == games_.end()) return out;
    for (const Event& e : it->second.log)
      if (e.seq > since) out.push_back(e);
    return out;
  }

  std::vector<std::string> active() override {
    const std::lock_guard lock(mu_);
    std::vector<std::string> out;
    for (const auto& id : order_)
      if (games_.at(id).meta.status == "active") out.push_back(id);
    return out;
  }

  std::vector<GameMeta> list(const std::string& status, int limit) override {
    const std::lock_guard lock(mu_);
    std::vector<GameMeta> out;
    for (auto it = order_.rbegin(); it != order_.rend() && static_cast<int>(out.size()) < limit; ++it) {
      const GameMeta& m = games_.at(*it).meta;
      if (status.empty() || m.status == status) out.push_back(m);
    }
    return out;
  }

  std::optional<Job> take_job(const std::string& lease, std::int64_t now, std::int64_t lease_ms, JobLane lane) override {
    const std::lock_guard lock(mu_);
    for (Job& j : jobs_) {
      if ((!j.lease.empty() && j.lease_until >= now) || !in_lane(j.spec, lane)) continue;
      j.lease = lease;
      j.lease_until = now + lease_ms;
      return j;
    }
    return std::nullopt;
  }

  std::vector<Job> jobs() override {
    const std::lock_guard lock(mu_);
    return jobs_;
  }

  void release_job(const std::string& game, std::int64_t seq, const std::string& lease) override {
    const std::lock_guard lock(mu_);
    for (Job& j : jobs_)
      if (j.game == game && j.seq == seq && j.lease == lease) {
        j.lease.clear();
        j.lease_until = 0;
      }
  }

 private:
  struct Game {
    GameMeta meta;
    std::vector<Event> log;
  };

  // All or nothing for one game: the events must follow its log.
  bool apply(const Append& a) {
    const auto it = games_.find(a.game);
    if (it == games_.end()) return false;
    std::int64_t next = static_cast<std::int64_t>(it->second.log.size()) + 1;
    for (const Event& e : a.events)
      if (e.seq != next++) return false;
    for (const Event& e : a.events) it->second.log.push_back(e);
    for (const std::int64_t s : a.done_jobs)
      std::erase_if(jobs_, [&](const Job& j) { return j.game == a.game && j.seq == s; });
    if (a.job) {
      std::erase_if(jobs_, [&](const Job& j) { return j.game == a.game && j.seq == a.job->seq; });
      jobs_.push_back(*a.job);
    }
    if (!a.status.empty()) it->second.meta.status = a.status;
    return true;
  }

  std::mutex mu_;
  std::map<std::string, Game> games_;
  std::vector<std::string> order_;
  std::vector<Job> jobs_;  // oldest first
};

}  // namespace

std::unique_ptr<Store> make_memory_store() { return std::make_unique<MemoryStore>(); }

}  // namespace carc::server
