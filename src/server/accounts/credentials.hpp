// server/accounts/credentials: the pure parts of players' accounts (docs/security.md, "Passwords and
// sessions: the pure parts"): the rules for names and passwords, Argon2id password hashes through
// libsodium, a pool that caps the hashes running at once, random ids, hashes of secrets and
// recovery codes. No I/O and no clock: the store (account_store) and the routes (server/net) call
// these.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace carc::server::accounts {

// ---- names ----
// lichess's rule for new names (lila's nameRules): ASCII letters, digits, `_` and `-`, 2 to 30
// characters, starting with a letter, ending with a letter or a digit, no two of `_`/`-` in a
// row; unique without regard to case (username_key); a list of reserved names refused.
inline constexpr std::size_t kMinUsername = 2;
inline constexpr std::size_t kMaxUsername = 30;

// The problem with `name` as a new account's name, or nullopt when it is fine:
// "username_length" (not 2..30 characters), "username_chars" (a character other than a letter,
// digit, `_` or `-`; a first character that is not a letter; a last one that is not a letter or a
// digit; two of `_`/`-` in a row), "username_reserved" (reserved_username).
std::optional<std::string> username_problem(std::string_view name);
// Reserved: with `_` and `-` taken out and in lower case, one of the reserved words (admin, root,
// support, carcassonne, login, ...: credentials.cpp kReserved), or one of guest, anonymous,
// player, bot, deleted followed by digits only (guest42, Player_7: names the server gives).
bool reserved_username(std::string_view name);
// The name as it is unique: ASCII lower case.
std::string username_key(std::string_view name);

// ---- passwords ----
// At least 8 characters (Unicode code points of valid UTF-8), at most 1024 bytes (a cap against
// hashing abuse: longer is refused, never truncated), no composition rules, not one of the common
// passwords (data/common-passwords.txt), not the account's name (both without regard to ASCII case).
inline constexpr std::size_t kMinPasswordChars = 8;
inline constexpr std::size_t kMaxPasswordBytes = 1024;

// The problem with `password` for the account `username` ("" : no name to compare), or nullopt:
// "password_long" (over 1024 bytes), "password_utf8" (not valid UTF-8), "password_short" (under 8
// code points), "password_username" (the name, in any ASCII case), "password_common" (in the list,
// in any ASCII case). Checked in that order.
std::optional<std::string> password_problem(std::string_view password, std::string_view username);
// In the common-passwords list (ASCII case ignored).
bool common_password(std::string_view password);
// How many distinct (lower-case) entries the list holds.
std::size_t common_password_count();

// An English sentence for a problem code of username_problem or password_problem ("" for
// another code).
std::string problem_text(std::string_view code);

// ---- password hashes: Argon2id (libsodium crypto_pwhash_str_alg, ALG_ARGON2ID13) ----
// The cost of one hash: `ops` passes over `mem` bytes. The defaults are the server's (2 passes,
// 64 MiB: a string "$argon2id$v=19$m=65536,t=2,p=1$..."). Tests lower them to stay fast.
struct HashParams {
  unsigned long long ops = 2;
  std::size_t mem = std::size_t{64} << 20;
};
// The parameters hash_password(pw), needs_rehash(stored) and burn_verify() use; settable (for
// tests; safe to call from any thread).
HashParams hash_params();
void set_hash_params(const HashParams& p);

// The Argon2id string of `password` with fresh random salt. Throws std::invalid_argument for a
// password over kMaxPasswordBytes, std::runtime_error when libsodium fails (out of memory).
std::string hash_password(std::string_view password);
std::string hash_password(std::string_view password, const HashParams& p);
// Whether `password` matches the stored string (false for a malformed string or a password over
// kMaxPasswordBytes, which no stored hash can match).
bool verify_password(std::string_view stored, std::string_view password);
// Whether the stored string should be hashed again (after a successful login): not Argon2id, or
// made with other parameters than today's.
bool needs_rehash(std::string_view stored);
bool needs_rehash(std::string_view stored, const HashParams& p);
// One verification against a fixed hash made with today's parameters (burn_hash: made once, and
// again when they change): a login for an unknown name costs the time a wrong password does.
void burn_verify();
std::string burn_hash();

// At most `threads` hashes or verifications at once, on the pool's own threads, and at most
// `queue_cap` more waiting: submit() refuses beyond that ("busy"), so logins cannot starve the
// server. The destructor lets running jobs finish, drops the waiting ones and joins the threads.
// A job's exception is swallowed (a job reports its own failures).
class HashPool {
 public:
  explicit HashPool(int threads = 2, std::size_t queue_cap = 64);
  ~HashPool();
  HashPool(const HashPool&) = delete;
  HashPool& operator=(const HashPool&) = delete;

  // Queues `job`; false (nothing queued) when `queue_cap` jobs already wait, or after shutdown().
  bool submit(std::function<void()> job);
  // What the destructor does, once: no more jobs, the waiting ones dropped, the running ones
  // finished, the threads joined.
  void shutdown();
  [[nodiscard]] bool stopping() const;
  [[nodiscard]] std::size_t waiting() const;  // queued, not started
  [[nodiscard]] int running() const;          // started, not finished
  [[nodiscard]] int threads() const { return static_cast<int>(workers_.size()); }
  [[nodiscard]] std::size_t queue_cap() const { return cap_; }

 private:
  void work();
  mutable std::mutex m_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  std::size_t cap_;
  int running_ = 0;
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

// ---- random ids and hashes of secrets ----
// `bytes` random bytes (libsodium's CSPRNG) as URL-safe base64 without padding (16 bytes: 22
// characters, 128 bits). Throws std::invalid_argument unless 1 <= bytes <= 1024.
std::string random_id(int bytes = 16);
// SHA-256 of `token` as lowercase hex (64 characters): what the store keeps of a session id, a
// recovery code or a reset link.
std::string token_hash(std::string_view token);

// `n` recovery codes "xxxx-xxxx-xxxx": 12 symbols from Crockford's base-32 alphabet in lower case
// (kCodeAlphabet: no i, l, o, u), 60 random bits each. Throws std::invalid_argument unless
// 1 <= n <= 100.
inline constexpr std::string_view kCodeAlphabet = "0123456789abcdefghjkmnpqrstvwxyz";
std::vector<std::string> recovery_codes(int n = 8);
// A typed code in the form the store hashes: ASCII whitespace and `-` removed, lower case, and
// the look-alikes read as Crockford does (i and l as 1, o as 0). A generated code and its typed
// variants ("ABCD EFGH JK0M", "abcd-efgh-jkom") give the same string.
std::string normalize_code(std::string_view typed);

}  // namespace carc::server::accounts
