// server/accounts/credentials: names, passwords, Argon2id through libsodium, the hash pool, ids.
#include "server/accounts/credentials.hpp"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <iterator>
#include <stdexcept>

#include "core/io.hpp"

namespace carc::server::accounts {
namespace {

// The common passwords (data/common-passwords.txt, compiled in by CMake's carc_embed).
constexpr std::string_view kCommonPasswords =
#include "common_passwords.inc"
    ;

// Reserved words (compared with `_` and `-` taken out, in lower case): the server's and the
// operator's roles, the site's own words and paths, and words that read as nobody in particular.
constexpr std::string_view kReserved[] = {
    "admin",     "administrator", "root",      "system",     "sysadmin", "moderator", "mod",         "mods",
    "staff",     "operator",      "owner",     "official",   "support",  "help",      "helpdesk",    "security",
    "abuse",     "postmaster",    "webmaster", "hostmaster", "info",     "contact",   "noreply",     "guest",
    "anonymous", "anon",          "nobody",    "everyone",   "somebody", "unknown",   "deleted",     "player",
    "bot",       "bots",          "robot",     "computer",   "ai",       "server",    "carcassonne", "null",
    "nil",       "none",          "undefined", "true",       "false",    "me",        "you",         "api",
    "ws",        "www",           "login",     "logout",     "signin",   "signout",   "signup",      "register",
    "account",   "accounts",      "settings",  "profile",    "lobby",    "ratings",   "leaderboard", "reset",
};
// Words the server's own names start with: such a word followed by digits only is reserved.
constexpr std::string_view kReservedStems[] = {"guest", "anonymous", "player", "bot", "deleted"};

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
bool letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool digit(char c) { return c >= '0' && c <= '9'; }
bool separator(char c) { return c == '_' || c == '-'; }

std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = lower(c);
  return out;
}

// The list, in lower case, sorted and without repeats; built on first use.
const std::vector<std::string>& common_list() {
  static const std::vector<std::string> list = [] {
    std::vector<std::string> v;
    std::size_t at = 0;
    while (at < kCommonPasswords.size()) {
      std::size_t end = kCommonPasswords.find('\n', at);
      if (end == std::string_view::npos) end = kCommonPasswords.size();
      const std::string_view line = kCommonPasswords.substr(at, end - at);
      at = end + 1;
      if (line.empty() || line.front() == '#') continue;  // the source line
      v.push_back(ascii_lower(line));
    }
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
  }();
  return list;
}

void init_sodium() {
  static const bool ok = sodium_init() >= 0;  // thread-safe: a function-local static, once
  if (!ok) throw std::runtime_error("libsodium could not be initialised");
}

std::atomic<unsigned long long> g_ops{HashParams{}.ops};
std::atomic<std::size_t> g_mem{HashParams{}.mem};

}  // namespace

// ---- names ----

std::optional<std::string> username_problem(std::string_view name) {
  if (name.size() < kMinUsername || name.size() > kMaxUsername) return "username_length";
  for (char c : name)
    if (!letter(c) && !digit(c) && !separator(c)) return "username_chars";
  if (!letter(name.front())) return "username_chars";
  if (separator(name.back())) return "username_chars";
  for (std::size_t i = 1; i < name.size(); ++i)
    if (separator(name[i]) && separator(name[i - 1])) return "username_chars";
  if (reserved_username(name)) return "username_reserved";
  return std::nullopt;
}

bool reserved_username(std::string_view name) {
  std::string bare;
  for (char c : name)
    if (!separator(c)) bare += lower(c);
  if (std::find(std::begin(kReserved), std::end(kReserved), bare) != std::end(kReserved)) return true;
  for (std::string_view stem : kReservedStems) {
    if (bare.size() <= stem.size() || bare.compare(0, stem.size(), stem) != 0) continue;
    if (std::all_of(bare.begin() + static_cast<std::ptrdiff_t>(stem.size()), bare.end(), digit)) return true;
  }
  return false;
}

std::string username_key(std::string_view name) { return ascii_lower(name); }

// ---- passwords ----

bool common_password(std::string_view password) {
  const auto& list = common_list();
  return std::binary_search(list.begin(), list.end(), ascii_lower(password));
}

std::size_t common_password_count() { return common_list().size(); }

std::optional<std::string> password_problem(std::string_view password, std::string_view username) {
  if (password.size() > kMaxPasswordBytes) return "password_long";
  if (!carc::valid_utf8(password)) return "password_utf8";
  if (carc::utf8_chars(password) < kMinPasswordChars) return "password_short";
  if (!username.empty() && ascii_lower(password) == ascii_lower(username)) return "password_username";
  if (common_password(password)) return "password_common";
  return std::nullopt;
}

std::string problem_text(std::string_view code) {
  if (code == "username_length") return "a name has 2 to 30 characters";
  if (code == "username_chars")
    return "a name has letters, digits, _ and - only, starts with a letter, ends with a letter or a digit, and has no "
           "two of _ and - in a row";
  if (code == "username_reserved") return "this name is reserved";
  if (code == "password_short") return "a password has at least 8 characters";
  if (code == "password_long") return "a password has at most 1024 bytes";
  if (code == "password_utf8") return "a password must be valid UTF-8 text";
  if (code == "password_username") return "a password may not be the account's name";
  if (code == "password_common") return "this password is one of the most common ones: choose another";
  return "";
}

// ---- password hashes ----

HashParams hash_params() { return HashParams{g_ops.load(), g_mem.load()}; }

void set_hash_params(const HashParams& p) {
  g_ops.store(p.ops);
  g_mem.store(p.mem);
}

std::string hash_password(std::string_view password) { return hash_password(password, hash_params()); }

std::string hash_password(std::string_view password, const HashParams& p) {
  if (password.size() > kMaxPasswordBytes) throw std::invalid_argument("password over 1024 bytes");
  init_sodium();
  std::array<char, crypto_pwhash_STRBYTES> out{};
  if (crypto_pwhash_str_alg(out.data(), password.data(), password.size(), p.ops, p.mem, crypto_pwhash_ALG_ARGON2ID13) !=
      0)
    throw std::runtime_error("password hashing failed (out of memory, or parameters out of range)");
  return std::string(out.data());
}

bool verify_password(std::string_view stored, std::string_view password) {
  if (password.size() > kMaxPasswordBytes || stored.empty() || stored.size() >= crypto_pwhash_STRBYTES) return false;
  init_sodium();
  const std::string s(stored);  // libsodium reads a NUL-terminated string
  return crypto_pwhash_str_verify(s.c_str(), password.data(), password.size()) == 0;
}

bool needs_rehash(std::string_view stored) { return needs_rehash(stored, hash_params()); }

bool needs_rehash(std::string_view stored, const HashParams& p) {
  if (stored.size() >= crypto_pwhash_STRBYTES || stored.substr(0, 10) != "$argon2id$") return true;
  init_sodium();
  const std::string s(stored);
  return crypto_pwhash_str_needs_rehash(s.c_str(), p.ops, p.mem) != 0;
}

std::string burn_hash() {
  static std::mutex m;
  static HashParams made{0, 0};
  static std::string fixed;
  const HashParams p = hash_params();
  std::lock_guard lock(m);
  if (fixed.empty() || made.ops != p.ops || made.mem != p.mem) {
    fixed = hash_password(random_id(16), p);
    made = p;
  }
  return fixed;
}

void burn_verify() { (void)verify_password(burn_hash(), "not the password"); }

// ---- the hash pool ----

HashPool::HashPool(int threads, std::size_t queue_cap) : cap_(queue_cap) {
  const int n = std::max(1, threads);
  workers_.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) workers_.emplace_back([this] { work(); });
}

HashPool::~HashPool() { shutdown(); }

void HashPool::shutdown() {
  std::deque<std::function<void()>> dropped;
  {
    std::lock_guard lock(m_);
    if (stop_) return;
    stop_ = true;
    dropped.swap(queue_);
  }
  cv_.notify_all();
  for (std::thread& t : workers_) t.join();
}

bool HashPool::stopping() const {
  std::lock_guard lock(m_);
  return stop_;
}

bool HashPool::submit(std::function<void()> job) {
  {
    std::lock_guard lock(m_);
    if (stop_ || queue_.size() >= cap_) return false;
    queue_.push_back(std::move(job));
  }
  cv_.notify_one();
  return true;
}

std::size_t HashPool::waiting() const {
  std::lock_guard lock(m_);
  return queue_.size();
}

int HashPool::running() const {
  std::lock_guard lock(m_);
  return running_;
}

void HashPool::work() {
  std::unique_lock lock(m_);
  for (;;) {
    cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    if (stop_) return;
    std::function<void()> job = std::move(queue_.front());
    queue_.pop_front();
    ++running_;
    lock.unlock();
    try {
      job();
    } catch (...) {
      // a job reports its own failures (the server's off_thread catches and posts them)
    }
    job = nullptr;  // its captures go before the next job
    lock.lock();
    --running_;
  }
}

// ---- random ids and hashes of secrets ----

std::string random_id(int bytes) {
  if (bytes < 1 || bytes > 1024) throw std::invalid_argument("random_id: 1 to 1024 bytes");
  init_sodium();
  std::vector<unsigned char> raw(static_cast<std::size_t>(bytes));
  randombytes_buf(raw.data(), raw.size());
  std::vector<char> out(sodium_base64_ENCODED_LEN(raw.size(), sodium_base64_VARIANT_URLSAFE_NO_PADDING));
  sodium_bin2base64(out.data(), out.size(), raw.data(), raw.size(), sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  sodium_memzero(raw.data(), raw.size());
  return std::string(out.data());
}

std::string token_hash(std::string_view token) {
  init_sodium();
  std::array<unsigned char, crypto_hash_sha256_BYTES> h{};
  crypto_hash_sha256(h.data(), reinterpret_cast<const unsigned char*>(token.data()), token.size());
  std::array<char, crypto_hash_sha256_BYTES * 2 + 1> hex{};
  sodium_bin2hex(hex.data(), hex.size(), h.data(), h.size());
  return std::string(hex.data());
}

std::vector<std::string> recovery_codes(int n) {
  if (n < 1 || n > 100) throw std::invalid_argument("recovery_codes: 1 to 100 codes");
  init_sodium();
  std::vector<std::string> codes;
  codes.reserve(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) {
    std::string c;
    for (int i = 0; i < 12; ++i) {
      if (i == 4 || i == 8) c += '-';
      c += kCodeAlphabet[randombytes_uniform(static_cast<std::uint32_t>(kCodeAlphabet.size()))];
    }
    codes.push_back(std::move(c));
  }
  return codes;
}

std::string normalize_code(std::string_view typed) {
  std::string out;
  for (char c : typed) {
    if (c == '-' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') continue;
    c = lower(c);
    if (c == 'i' || c == 'l') c = '1';
    if (c == 'o') c = '0';
    out += c;
  }
  return out;
}

}  // namespace carc::server::accounts
