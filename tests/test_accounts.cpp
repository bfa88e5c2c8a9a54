// Players' accounts, the pure parts (server/accounts/credentials and login_limits,
// docs/security.md "Passwords and sessions: the pure parts"): the name and password rules, Argon2id
// hashes through libsodium, the hash pool's caps, ids, hashes of secrets, recovery codes, and the
// login limits on a fake clock.
#include <gtest/gtest.h>
#include <sodium.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <condition_variable>
#include <cstdint>
#include <future>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "server/accounts/credentials.hpp"
#include "server/accounts/login_limits.hpp"

using namespace carc::server::accounts;

namespace {

// Cheap parameters for the tests that do not check the cost itself.
const HashParams kFast{1, std::size_t{64} << 10};

// Sets today's hash parameters for one test and puts the server's back after it.
struct ParamsFor {
  explicit ParamsFor(const HashParams& p) { set_hash_params(p); }
  ~ParamsFor() { set_hash_params(HashParams{}); }
};

// A count that threads raise and a test waits for (no clock).
struct Count {
  std::mutex m;
  std::condition_variable cv;
  int n = 0;
  void up() {
    {
      std::lock_guard lock(m);
      ++n;
    }
    cv.notify_all();
  }
  void wait_for(int k) {
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return n >= k; });
  }
  int get() {
    std::lock_guard lock(m);
    return n;
  }
};

}  // namespace

// ---------------------------------------------------------------- names

TEST(Credentials, UsernamesFollowLichessRules) {
  for (const char* ok : {"ab", "Alice", "bob_42", "x-y", "a1", "Zz9", "k_a-r_l"})
    EXPECT_EQ(username_problem(ok), std::nullopt) << ok;
  EXPECT_EQ(username_problem(std::string(30, 'a')), std::nullopt);
  EXPECT_EQ(username_problem(std::string(31, 'a')), "username_length");
  EXPECT_EQ(username_problem(""), "username_length");
  EXPECT_EQ(username_problem("a"), "username_length");
  for (const char* bad : {"1abc", "_abc", "-abc", "abc_", "abc-", "a__b", "a-_b", "a--b", "a b", "a.b", "a@b",
                          "a\xc3\xb1"
                          "b",
                          "ab\n"})
    EXPECT_EQ(username_problem(bad), "username_chars") << bad;
}

TEST(Credentials, ReservedNamesAreRefused) {
  for (const char* r : {"admin",   "Admin", "ADMIN",   "ad_min",  "a-d-m-i-n", "root",   "moderator", "mod",
                        "support", "guest", "Guest42", "guest_7", "Player1",   "bot9",   "deleted12", "carcassonne",
                        "null",    "me",    "api",     "login",   "logout",    "account"})
    EXPECT_EQ(username_problem(r), "username_reserved") << r;
  for (const char* ok : {"guestrin", "admiral", "administrators", "bottle", "player_one", "me2", "rooted"})
    EXPECT_EQ(username_problem(ok), std::nullopt) << ok;
}

TEST(Credentials, UsernameKeyIsAsciiLowerCase) {
  EXPECT_EQ(username_key("AliCe_9-Z"), "alice_9-z");
  EXPECT_EQ(username_key("alice"), username_key("ALICE"));
}

// ---------------------------------------------------------------- passwords

TEST(Credentials, PasswordLengthCountsCodePoints) {
  EXPECT_EQ(password_problem("xk8#vq2", ""), "password_short");
  EXPECT_EQ(password_problem("xk8#vq2!", ""), std::nullopt);
  // seven Cyrillic letters are 14 bytes and still too short; eight are enough
  EXPECT_EQ(password_problem("\xd0\xb6\xd0\xb8\xd1\x80\xd0\xb0\xd1\x84\xd0\xb0\xd1\x8f", ""), "password_short");
  EXPECT_EQ(password_problem("\xd0\xb6\xd0\xb8\xd1\x80\xd0\xb0\xd1\x84\xd0\xb0\xd1\x8f\xd1\x8f", ""), std::nullopt);
  // a 4-byte character is one: with six letters, seven (short); with seven, eight
  EXPECT_EQ(password_problem("\xf0\x9f\x8e\xb2"
                             "abcdef",
                             ""),
            "password_short");
  EXPECT_EQ(password_problem("\xf0\x9f\x8e\xb2"
                             "abcdefg",
                             ""),
            std::nullopt);
}

TEST(Credentials, PasswordOverCapIsRefusedNotTruncated) {
  const std::string at_cap(kMaxPasswordBytes, 'q');
  EXPECT_EQ(password_problem(at_cap, ""), std::nullopt);
  EXPECT_EQ(password_problem(at_cap + "q", ""), "password_long");
  EXPECT_EQ(password_problem(std::string(kMaxPasswordBytes + 1, '\xff'), ""), "password_long");  // first
  EXPECT_THROW(hash_password(at_cap + "q", kFast), std::invalid_argument);
  // every byte counts: a hash of the full password does not take a shorter or longer one
  const std::string h = hash_password(at_cap, kFast);
  EXPECT_TRUE(verify_password(h, at_cap));
  EXPECT_FALSE(verify_password(h, at_cap.substr(0, kMaxPasswordBytes - 1)));
  EXPECT_FALSE(verify_password(h, at_cap + "q"));
}

TEST(Credentials, PasswordMustBeValidUtf8) {
  EXPECT_EQ(password_problem("abcdefgh\xff", ""), "password_utf8");
  EXPECT_EQ(password_problem("\xc0\xaf"
                             "abcdefgh",
                             ""),
            "password_utf8");  // overlong '/'
  EXPECT_EQ(password_problem("\xed\xa0\x80"
                             "abcdefgh",
                             ""),
            "password_utf8");  // a surrogate
  EXPECT_EQ(password_problem("\xf4\x90\x80\x80"
                             "abcdefgh",
                             ""),
            "password_utf8");                                            // above U+10FFFF
  EXPECT_EQ(password_problem("abcdefgh\xe2\x82", ""), "password_utf8");  // cut short
  EXPECT_EQ(password_problem("dice \xf0\x9f\x8e\xb2 and \xe2\x82\xac", ""), std::nullopt);
  EXPECT_EQ(password_problem("abcdefgh\x80", ""), "password_utf8");  // a lone continuation byte
}

TEST(Credentials, CommonPasswordsAreRefusedInAnyCase) {
  EXPECT_EQ(common_password_count(), 3309u);  // 3,337 lines of 8 or more characters, 3,309 in lower case
  for (const char* c : {"password", "PASSWORD", "PassWord", "12345678", "qwertyuiop", "baseball", "iloveyou",
                        "trustno1", "bubbles1"})  // the first entries, one from the middle, the last
    EXPECT_EQ(password_problem(c, ""), "password_common") << c;
  EXPECT_EQ(password_problem("correct horse battery staple", ""), std::nullopt);
  EXPECT_FALSE(common_password("# From SecLists"));  // the source line is no entry
}

TEST(Credentials, PasswordEqualToNameIsRefused) {
  EXPECT_EQ(password_problem("AliceInChains", "aliceinchains"), "password_username");
  EXPECT_EQ(password_problem("aliceinchains", "AliceInChains"), "password_username");
  EXPECT_EQ(password_problem("aliceinchains2", "AliceInChains"), std::nullopt);
  EXPECT_EQ(password_problem("AliceInChains", ""), std::nullopt);
}

TEST(Credentials, EveryProblemHasAText) {
  for (const char* code : {"username_length", "username_chars", "username_reserved", "password_short", "password_long",
                           "password_utf8", "password_username", "password_common"})
    EXPECT_FALSE(problem_text(code).empty()) << code;
  EXPECT_EQ(problem_text("nonsense"), "");
}

// ---------------------------------------------------------------- hashes

TEST(Credentials, HashAtServerParametersIsArgon2id64MiB2Passes) {
  EXPECT_EQ(hash_params().ops, 2u);  // today's, unless a test changes them
  EXPECT_EQ(hash_params().mem, std::size_t{64} << 20);
  ParamsFor real{HashParams{}};
  const std::string h = hash_password("correct horse battery staple");
  EXPECT_EQ(h.rfind("$argon2id$v=19$m=65536,t=2,", 0), 0u) << h;
  EXPECT_TRUE(verify_password(h, "correct horse battery staple"));
  EXPECT_FALSE(verify_password(h, "correct horse battery stapler"));
  EXPECT_FALSE(needs_rehash(h));
}

TEST(Credentials, HashVerifiesAndSaltsEachTime) {
  const std::string a = hash_password("correct horse", kFast), b = hash_password("correct horse", kFast);
  EXPECT_EQ(a.rfind("$argon2id$v=19$m=64,t=1,", 0), 0u) << a;
  EXPECT_NE(a, b);
  EXPECT_TRUE(verify_password(a, "correct horse"));
  EXPECT_TRUE(verify_password(b, "correct horse"));
  EXPECT_FALSE(verify_password(a, "Correct horse"));
  EXPECT_FALSE(verify_password(a, ""));
  EXPECT_FALSE(verify_password("", "correct horse"));
  EXPECT_FALSE(verify_password("$argon2id$v=19$m=64,t=1,p=1$garbage", "correct horse"));
  EXPECT_FALSE(verify_password(std::string(500, '$'), "correct horse"));
}

TEST(Credentials, NeedsRehashWhenParametersOrAlgorithmChange) {
  const std::string h = hash_password("correct horse", kFast);
  EXPECT_FALSE(needs_rehash(h, kFast));
  EXPECT_TRUE(needs_rehash(h, HashParams{}));
  EXPECT_TRUE(needs_rehash(h, HashParams{2, kFast.mem}));
  {
    ParamsFor fast{kFast};
    EXPECT_FALSE(needs_rehash(h));
  }
  EXPECT_TRUE(needs_rehash(h));  // the server's parameters again
  // Argon2i (3 passes at least) with the same cost is hashed again as Argon2id
  ASSERT_GE(sodium_init(), 0);
  const HashParams three{3, kFast.mem};
  char argon2i[crypto_pwhash_STRBYTES];
  ASSERT_EQ(crypto_pwhash_str_alg(argon2i, "correct horse", 13, three.ops, three.mem, crypto_pwhash_ALG_ARGON2I13), 0);
  EXPECT_TRUE(verify_password(argon2i, "correct horse"));
  EXPECT_FALSE(needs_rehash(hash_password("correct horse", three), three));
  EXPECT_TRUE(needs_rehash(argon2i, three));
  EXPECT_TRUE(needs_rehash("", kFast));
  EXPECT_TRUE(needs_rehash("garbage", kFast));
}

TEST(Credentials, BurnVerifyUsesTodaysParameters) {
  {
    ParamsFor fast{kFast};
    const std::string h = burn_hash();
    EXPECT_FALSE(needs_rehash(h)) << h;  // the cost a real account's verification has
    EXPECT_EQ(burn_hash(), h);           // made once
    burn_verify();
  }
  ParamsFor other{HashParams{2, kFast.mem}};
  EXPECT_FALSE(needs_rehash(burn_hash())) << burn_hash();  // made again for the new cost
}

// ---------------------------------------------------------------- ids, hashes of secrets, codes

TEST(Credentials, RandomIdsAreUrlSafeBase64WithoutPadding) {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    const std::string id = random_id();
    ASSERT_EQ(id.size(), 22u) << id;  // 128 bits
    for (char c : id) ASSERT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') << id;
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 1000u);
  EXPECT_EQ(random_id(32).size(), 43u);
  EXPECT_EQ(random_id(1).size(), 2u);
  EXPECT_THROW(random_id(0), std::invalid_argument);
  EXPECT_THROW(random_id(1025), std::invalid_argument);
}

TEST(Credentials, TokenHashIsSha256Hex) {
  EXPECT_EQ(token_hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(token_hash(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(token_hash(std::string("a\0b", 3)).size(), 64u);
  EXPECT_NE(token_hash(std::string("a\0b", 3)), token_hash("a"));
}

TEST(Credentials, RecoveryCodesHave60BitsWithoutLookAlikes) {
  ASSERT_EQ(kCodeAlphabet.size(), 32u);  // 5 bits a symbol, 12 symbols: 60 bits
  for (char c : std::string_view("ilou")) EXPECT_EQ(kCodeAlphabet.find(c), std::string_view::npos) << c;
  EXPECT_EQ(std::set<char>(kCodeAlphabet.begin(), kCodeAlphabet.end()).size(), 32u);
  const auto codes = recovery_codes();
  ASSERT_EQ(codes.size(), 8u);
  EXPECT_EQ(std::set<std::string>(codes.begin(), codes.end()).size(), 8u);
  std::set<char> used;
  for (int round = 0; round < 50; ++round)
    for (const std::string& c : recovery_codes(20)) {
      ASSERT_EQ(c.size(), 14u) << c;
      ASSERT_EQ(c[4], '-') << c;
      ASSERT_EQ(c[9], '-') << c;
      for (std::size_t i = 0; i < c.size(); ++i)
        if (i != 4 && i != 9) {
          ASSERT_NE(kCodeAlphabet.find(c[i]), std::string_view::npos) << c;
          used.insert(c[i]);
        }
    }
  EXPECT_EQ(used.size(), 32u);  // 12,000 symbols use the whole alphabet
  EXPECT_THROW(recovery_codes(0), std::invalid_argument);
}

TEST(Credentials, NormalizedCodesMatchWhatPeopleType) {
  for (const std::string& c : recovery_codes(20)) {
    std::string upper = c, spaced;
    for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    for (char ch : upper) spaced += ch == '-' ? std::string(" ") : std::string(1, ch) + " ";
    EXPECT_EQ(normalize_code(upper), normalize_code(c));
    EXPECT_EQ(normalize_code(spaced), normalize_code(c));
    EXPECT_EQ(normalize_code(" " + c + "\n"), normalize_code(c));
    std::string bare = c;
    std::erase(bare, '-');
    EXPECT_EQ(normalize_code(c), bare);
  }
  EXPECT_EQ(normalize_code("ABCD EFGH JK0M"), normalize_code("abcd-efgh-jkom"));
  EXPECT_EQ(normalize_code("Il1-oO0"), "111000");
  EXPECT_NE(normalize_code("abcd-efgh-jkmn"), normalize_code("abcd-efgh-jkmp"));
}

// ---------------------------------------------------------------- the hash pool

TEST(HashPool, RunsAtMostItsThreadsAtOnce) {
  HashPool pool(2, 64);
  std::promise<void> gate;
  std::shared_future<void> open = gate.get_future().share();
  std::atomic<int> now{0}, most{0};
  Count started, done;
  for (int i = 0; i < 10; ++i)
    ASSERT_TRUE(pool.submit([&] {
      const int n = ++now;
      int m = most.load();
      while (n > m && !most.compare_exchange_weak(m, n)) {
      }
      started.up();
      open.wait();
      --now;
      done.up();
    }));
  started.wait_for(2);
  EXPECT_EQ(pool.running(), 2);
  EXPECT_EQ(pool.waiting(), 8u);
  EXPECT_EQ(started.get(), 2);
  gate.set_value();
  done.wait_for(10);
  EXPECT_EQ(most.load(), 2);
}

TEST(HashPool, RefusesBeyondItsQueueCap) {
  HashPool pool(2, 3);
  std::promise<void> gate;
  std::shared_future<void> open = gate.get_future().share();
  Count started, done;
  const auto held = [&] {
    started.up();
    open.wait();
    done.up();
  };
  ASSERT_TRUE(pool.submit(held));
  ASSERT_TRUE(pool.submit(held));
  started.wait_for(2);  // both threads busy: what comes now waits
  EXPECT_TRUE(pool.submit(held));
  EXPECT_TRUE(pool.submit(held));
  EXPECT_TRUE(pool.submit(held));
  EXPECT_EQ(pool.waiting(), 3u);
  bool ran_refused = false;
  EXPECT_FALSE(pool.submit([&] { ran_refused = true; }));  // busy
  EXPECT_EQ(pool.waiting(), 3u);
  gate.set_value();
  done.wait_for(5);
  EXPECT_EQ(done.get(), 5);
  EXPECT_FALSE(ran_refused);
  Count again;
  EXPECT_TRUE(pool.submit([&] { again.up(); }));  // room again
  again.wait_for(1);
}

TEST(HashPool, ShutdownFinishesRunningDropsWaiting) {
  HashPool pool(1, 8);
  std::promise<void> gate;
  std::shared_future<void> open = gate.get_future().share();
  Count started;
  std::atomic<int> finished{0}, queued_ran{0};
  ASSERT_TRUE(pool.submit([&] {
    started.up();
    open.wait();
    ++finished;
  }));
  started.wait_for(1);
  ASSERT_TRUE(pool.submit([&] { ++queued_ran; }));
  ASSERT_TRUE(pool.submit([&] { ++queued_ran; }));
  std::thread closer([&] { pool.shutdown(); });
  while (!pool.stopping()) std::this_thread::yield();
  EXPECT_FALSE(pool.submit([&] { ++queued_ran; }));
  gate.set_value();
  closer.join();
  EXPECT_EQ(finished.load(), 1);
  EXPECT_EQ(queued_ran.load(), 0);
  EXPECT_EQ(pool.running(), 0);
}

TEST(HashPool, AJobThatThrowsLeavesTheThreadWorking) {
  HashPool pool(1, 8);
  Count done;
  ASSERT_TRUE(pool.submit([] { throw std::runtime_error("out of memory"); }));
  ASSERT_TRUE(pool.submit([&] { done.up(); }));
  done.wait_for(1);
  EXPECT_EQ(done.get(), 1);
}

TEST(HashPool, HashesThroughThePool) {
  HashPool pool(2, 4);
  std::promise<std::string> got;
  ASSERT_TRUE(pool.submit([&] { got.set_value(hash_password("correct horse", kFast)); }));
  EXPECT_TRUE(verify_password(got.get_future().get(), "correct horse"));
}

// ---------------------------------------------------------------- login limits (a fake clock)

namespace {
constexpr std::int64_t kT0 = 1'700'000'000'000;  // ms
constexpr std::int64_t kMin = 60'000;
}  // namespace

TEST(LoginLimits, PairTripsAtFiveAndReleasesAfterFifteenMinutes) {
  LoginLimits l;
  for (int i = 0; i < 4; ++i) l.failed("alice", "10.0.0.1", kT0 + i);
  EXPECT_TRUE(l.check("alice", "10.0.0.1", true, kT0 + 10).allowed);  // 4: still allowed, even where known
  l.failed("alice", "10.0.0.1", kT0 + 10);
  auto d = l.check("alice", "10.0.0.1", true, kT0 + 10);
  EXPECT_FALSE(d.allowed);
  EXPECT_EQ(d.limit, "account_address");
  EXPECT_EQ(d.retry_after_s, 900);
  d = l.check("alice", "10.0.0.1", true, kT0 + 15 * kMin - 1);
  EXPECT_FALSE(d.allowed);
  EXPECT_EQ(d.retry_after_s, 1);
  EXPECT_TRUE(l.check("alice", "10.0.0.1", true, kT0 + 15 * kMin).allowed);
  EXPECT_TRUE(l.check("alice", "10.0.0.2", true, kT0 + 10).allowed);  // another address
  EXPECT_TRUE(l.check("bob", "10.0.0.1", true, kT0 + 10).allowed);    // another account
}

TEST(LoginLimits, AccountTripsAtTwentyForStrangersOnly) {
  LoginLimits l;
  for (int i = 0; i < 19; ++i) l.failed("alice", "198.51.100." + std::to_string(i), kT0 + i);
  EXPECT_TRUE(l.check("alice", "203.0.113.9", false, kT0 + 100).allowed);
  l.failed("alice", "198.51.100.19", kT0 + 100);
  auto d = l.check("alice", "203.0.113.9", false, kT0 + 100);
  EXPECT_FALSE(d.allowed);
  EXPECT_EQ(d.limit, "account");
  EXPECT_EQ(d.retry_after_s, 900);                                      // the window opened at kT0
  EXPECT_TRUE(l.check("alice", "192.0.2.1", true, kT0 + 100).allowed);  // the owner where known
  EXPECT_TRUE(l.check("bob", "203.0.113.9", false, kT0 + 100).allowed);
  EXPECT_FALSE(l.check("alice", "203.0.113.9", false, kT0 + 15 * kMin - 1).allowed);
  EXPECT_TRUE(l.check("alice", "203.0.113.9", false, kT0 + 15 * kMin).allowed);
}

TEST(LoginLimits, AddressTripsAtThirtyAcrossAccounts) {
  LoginLimits l;
  for (int i = 0; i < 29; ++i) l.failed("user" + std::to_string(i), "198.51.100.7", kT0 + i);
  EXPECT_TRUE(l.check("victim", "198.51.100.7", false, kT0 + 100).allowed);
  l.failed("user29", "198.51.100.7", kT0 + 100);
  auto d = l.check("victim", "198.51.100.7", false, kT0 + 100);
  EXPECT_FALSE(d.allowed);
  EXPECT_EQ(d.limit, "address");
  EXPECT_TRUE(l.check("mine", "198.51.100.7", true, kT0 + 100).allowed);  // an account it is known for
  EXPECT_TRUE(l.check("victim", "198.51.100.8", false, kT0 + 100).allowed);
  EXPECT_FALSE(l.check("victim", "198.51.100.7", false, kT0 + 15 * kMin - 1).allowed);
  EXPECT_TRUE(l.check("victim", "198.51.100.7", false, kT0 + 15 * kMin).allowed);
}

TEST(LoginLimits, GlobalTripsAtOneThousandAttemptsAMinute) {
  LoginLimits l;
  for (int i = 0; i < 1000; ++i)
    ASSERT_TRUE(l.check("u" + std::to_string(i), "a" + std::to_string(i), false, kT0 + i).allowed) << i;
  auto d = l.check("late", "late-address", false, kT0 + 1000);
  EXPECT_FALSE(d.allowed);
  EXPECT_EQ(d.limit, "global");
  EXPECT_EQ(d.retry_after_s, 59);                                   // the window opened at kT0
  EXPECT_TRUE(l.check("owner", "home", true, kT0 + 1000).allowed);  // known addresses are spared
  EXPECT_FALSE(l.check("late", "late-address", false, kT0 + kMin - 1).allowed);
  EXPECT_TRUE(l.check("late", "late-address", false, kT0 + kMin).allowed);
}

TEST(LoginLimits, StrangersCannotLockTheOwnerOutWhereTheOwnerLoggedIn) {
  LoginLimits l;
  // 2,000 addresses, 4 failures each (under the pair limit), on the owner's account
  for (int a = 0; a < 2000; ++a)
    for (int k = 0; k < 4; ++k) l.failed("alice", "bot-" + std::to_string(a), kT0 + a);
  EXPECT_FALSE(l.check("alice", "bot-new", false, kT0 + 3000).allowed);
  EXPECT_TRUE(l.check("alice", "home", true, kT0 + 3000).allowed);
  for (int k = 0; k < 1500; ++k) (void)l.check("x" + std::to_string(k), "y", false, kT0 + 3000);  // global too
  EXPECT_TRUE(l.check("alice", "home", true, kT0 + 3000).allowed);
}

TEST(LoginLimits, SuccessForgetsThePairOnly) {
  LoginLimits l;
  for (int i = 0; i < 4; ++i) l.failed("alice", "home", kT0);
  l.succeeded("alice", "home", kT0 + 1);
  for (int i = 0; i < 4; ++i) l.failed("alice", "home", kT0 + 2);
  EXPECT_TRUE(l.check("alice", "home", true, kT0 + 3).allowed);  // 4 since the success
  // an attacker's own account's success does not clear its address
  for (int i = 0; i < 30; ++i) l.failed("v" + std::to_string(i), "evil", kT0);
  l.succeeded("mine", "evil", kT0 + 1);
  EXPECT_FALSE(l.check("victim", "evil", false, kT0 + 2).allowed);
}

TEST(LoginLimits, RefusalNamesTheLimitThatReleasesLast) {
  {
    LoginLimits l;
    for (int i = 0; i < 15; ++i) l.failed("alice", "a" + std::to_string(i), kT0 - 10 * kMin);  // account opens
    for (int i = 0; i < 5; ++i) l.failed("alice", "cafe", kT0);  // pair: 5 at kT0; account: 20
    const auto d = l.check("alice", "cafe", false, kT0);
    EXPECT_FALSE(d.allowed);
    EXPECT_EQ(d.limit, "account_address");  // 900 s; the account's 300 s
    EXPECT_EQ(d.retry_after_s, 900);
  }
  {
    LoginLimits l;
    for (int i = 0; i < 15; ++i) l.failed("alice", "a" + std::to_string(i), kT0 - 14 * kMin);
    for (int i = 0; i < 5; ++i) l.failed("alice", "cafe", kT0 - 10 * kMin);  // pair until kT0 + 5 min
    // the account's window closed at kT0 + 1 min; 20 more open another
    for (int i = 0; i < 20; ++i) l.failed("alice", "b" + std::to_string(i), kT0 + 2 * kMin);
    const auto d = l.check("alice", "cafe", false, kT0 + 2 * kMin);
    EXPECT_FALSE(d.allowed);
    EXPECT_EQ(d.limit, "account");  // 900 s; the pair's 180 s
    EXPECT_EQ(d.retry_after_s, 900);
    EXPECT_EQ(l.check("alice", "cafe", true, kT0 + 2 * kMin).retry_after_s, 180);  // known: the pair only
  }
}

TEST(LoginLimits, MemoryStaysBoundedUnder100kAddresses) {
  LoginLimits l;  // the server's parameters: 50,000 keys a table
  const std::size_t cap = l.params().max_entries;
  for (int i = 0; i < 100'000; ++i) {
    const std::string who = std::to_string(i);
    l.failed("acct" + who, "addr" + who, kT0 + i);
    (void)l.check("acct" + who, "addr" + who, false, kT0 + i);
    ASSERT_LE(l.entries(), 3 * cap) << i;
  }
  // the newer keys are kept: a recent address still trips at its fifth failure
  for (int k = 0; k < 4; ++k) l.failed("acct60000", "addr60000", kT0 + 100'000);
  EXPECT_EQ(l.check("acct60000", "addr60000", true, kT0 + 100'000).limit, "account_address");
  // closed windows go first: after the window one new key empties a full table
  LoginLimitParams p;
  p.max_entries = 100;
  LoginLimits small(p);
  for (int i = 0; i < 100; ++i) small.failed("a", "addr" + std::to_string(i), kT0);
  EXPECT_EQ(small.entries(), 100u + 1 + 100);
  small.failed("b", "fresh", kT0 + 15 * kMin);
  EXPECT_EQ(small.entries(), 1u + 2 + 1);  // the new pair; accounts a and b; the new address
}
