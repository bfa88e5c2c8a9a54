// server/accounts/login_limits: fixed windows per key, bounded tables.
#include "server/accounts/login_limits.hpp"

#include <algorithm>
#include <vector>

namespace carc::server::accounts {
namespace {

std::string pair_key(std::string_view account, std::string_view address) {
  std::string k(account);
  k += '\n';  // in neither an account key nor an address
  k += address;
  return k;
}

bool window_open(std::int64_t start, std::int64_t len, std::int64_t now) { return now < start + len; }

// Seconds until a window that opened at `start` closes: at least 1, at most the window (a clock
// that went back does not stretch it).
int seconds_left(std::int64_t start, std::int64_t len, std::int64_t now) {
  const std::int64_t ms = std::clamp<std::int64_t>(start + len - now, 1, len);
  return static_cast<int>((ms + 999) / 1000);
}

}  // namespace

LoginLimits::Decision LoginLimits::check(std::string_view account, std::string_view address, bool known_address,
                                         std::int64_t now) {
  std::lock_guard lock(m_);
  Decision d;
  const auto refuse = [&](const Window& w, std::int64_t len, const char* name) {
    const int s = seconds_left(w.start, len, now);
    if (d.allowed || s > d.retry_after_s) {
      d.allowed = false;
      d.retry_after_s = s;
      d.limit = name;
    }
  };
  const auto over = [&](const Table& t, const std::string& key, int threshold) -> const Window* {
    const auto it = t.find(key);
    if (it == t.end() || !window_open(it->second.start, p_.window_ms, now) || it->second.count < threshold)
      return nullptr;
    return &it->second;
  };
  if (const Window* w = over(pairs_, pair_key(account, address), p_.pair_failures))
    refuse(*w, p_.window_ms, "account_address");
  if (!known_address) {
    if (const Window* w = over(accounts_, std::string(account), p_.account_failures))
      refuse(*w, p_.window_ms, "account");
    if (const Window* w = over(addresses_, std::string(address), p_.address_failures))
      refuse(*w, p_.window_ms, "address");
    if (window_open(global_.start, p_.global_window_ms, now) && global_.count >= p_.global_attempts)
      refuse(global_, p_.global_window_ms, "global");
    if (d.allowed) {
      if (!window_open(global_.start, p_.global_window_ms, now)) global_ = Window{now, 0};
      ++global_.count;
    }
  }
  return d;
}

void LoginLimits::failed(std::string_view account, std::string_view address, std::int64_t now) {
  std::lock_guard lock(m_);
  bump(pairs_, pair_key(account, address), now);
  bump(accounts_, std::string(account), now);
  bump(addresses_, std::string(address), now);
}

void LoginLimits::succeeded(std::string_view account, std::string_view address, std::int64_t /*now*/) {
  std::lock_guard lock(m_);
  pairs_.erase(pair_key(account, address));
}

std::size_t LoginLimits::entries() const {
  std::lock_guard lock(m_);
  return pairs_.size() + accounts_.size() + addresses_.size();
}

void LoginLimits::bump(Table& t, const std::string& key, std::int64_t now) {
  auto it = t.find(key);
  if (it == t.end()) {
    if (t.size() >= p_.max_entries) prune(t, now);
    it = t.emplace(key, Window{now, 0}).first;
  } else if (!window_open(it->second.start, p_.window_ms, now)) {
    it->second = Window{now, 0};
  }
  ++it->second.count;
}

void LoginLimits::prune(Table& t, std::int64_t now) {
  std::erase_if(t, [&](const auto& kv) { return !window_open(kv.second.start, p_.window_ms, now); });
  if (t.size() < p_.max_entries) return;
  // Still full of open windows: the older half goes (the windows nearest their end).
  std::vector<std::int64_t> starts;
  starts.reserve(t.size());
  for (const auto& kv : t) starts.push_back(kv.second.start);
  const auto mid = starts.begin() + static_cast<std::ptrdiff_t>(starts.size() / 2);
  std::nth_element(starts.begin(), mid, starts.end());
  const std::int64_t cut = *mid;
  std::erase_if(t, [&](const auto& kv) { return kv.second.start < cut; });
  // many windows opened in the same ms: any of them go, down to half
  for (auto it = t.begin(); t.size() > p_.max_entries / 2 && it != t.end();) it = t.erase(it);
}

}  // namespace carc::server::accounts
