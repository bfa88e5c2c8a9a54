// server/accounts/login_limits: how many failed logins the server takes, per account and address,
// per account, per address, and in all (docs/security.md, "Login limits"). Pure: the caller passes
// the time (ms) and whether the address is one the account logged in from before; no clock, no I/O.
//
// Each limit counts in a window that opens at its first count and closes `window` later (a fixed
// window per key): at the threshold the key is refused until its window closes.
// - account and address: `pair_failures` failed logins; always applies.
// - account: `account_failures` failed logins from any address; refuses only addresses not known
//   for the account, so strangers elsewhere cannot lock the owner out where the owner logged in
//   before.
// - address: `address_failures` failed logins across accounts; refuses only for accounts the
//   address is not known for.
// - global: `global_attempts` attempts (checks allowed) from addresses not known for their
//   account, in a window of `global_window_ms`.
// Memory: each of the three tables holds at most `max_entries` keys; when a new key finds a table
// full, the closed windows go, and if it is still full, the older half (by window start).
#pragma once
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace carc::server::accounts {

struct LoginLimitParams {
  std::int64_t window_ms = 15 * 60 * 1000;    // the failures' window: 15 minutes
  int pair_failures = 5;                      // per (account, address)
  int account_failures = 20;                  // per account (refuses addresses not known for it)
  int address_failures = 30;                  // per address across accounts (for accounts it is not known for)
  std::int64_t global_window_ms = 60 * 1000;  // the global window: 1 minute
  int global_attempts = 1000;                 // attempts from addresses not known for their account
  std::size_t max_entries = 50'000;           // keys per table (pairs, accounts, addresses)
};

class LoginLimits {
 public:
  struct Decision {
    bool allowed = true;
    int retry_after_s = 0;  // when refused: seconds until the limit that refuses releases (>= 1)
    std::string limit;      // when refused: "account_address", "account", "address" or "global"
  };

  explicit LoginLimits(const LoginLimitParams& p = {}) : p_(p) {}

  // May `address` try to log into `account` now? `known_address`: the account logged in from this
  // address before. When several limits refuse, the one that releases last is named. An allowed
  // check from an address not known for the account counts as one attempt for the global limit.
  Decision check(std::string_view account, std::string_view address, bool known_address, std::int64_t now_ms);
  // A failed login (wrong password, or an unknown name: the account key is counted all the same).
  void failed(std::string_view account, std::string_view address, std::int64_t now_ms);
  // A successful login: the pair's failures are forgotten (not the account's nor the address's).
  void succeeded(std::string_view account, std::string_view address, std::int64_t now_ms);

  [[nodiscard]] std::size_t entries() const;  // keys held in all tables
  [[nodiscard]] const LoginLimitParams& params() const { return p_; }

 private:
  struct Window {
    std::int64_t start = 0;
    int count = 0;
  };
  using Table = std::unordered_map<std::string, Window>;
  void bump(Table& t, const std::string& key, std::int64_t now);
  void prune(Table& t, std::int64_t now);

  LoginLimitParams p_;
  mutable std::mutex m_;
  Table pairs_, accounts_, addresses_;
  Window global_;
};

}  // namespace carc::server::accounts
