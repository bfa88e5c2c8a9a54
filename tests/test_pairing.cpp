// Quick pairing (server/pairing, docs/pairing.md): one wave as a pure function of (pool, blocks,
// now). Exact tables for small pools, then the rules as properties over seeded random pools.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <tuple>

#include "server/pairing.hpp"

using namespace carc::server::pairing;

namespace {

using Tables = std::vector<std::vector<std::string>>;

Waiting W(std::string id, double rating, int waves = 0, std::int64_t since = 0,
          std::optional<std::pair<double, double>> range = std::nullopt) {
  return Waiting{std::move(id), rating, since, waves, range};
}

PoolParams params(int seats, int min_seats = -1) {
  PoolParams p;
  p.seats = seats;
  p.min_seats = min_seats < 0 ? seats : min_seats;
  return p;
}

std::vector<std::string> ids(const std::vector<Waiting>& ws) {
  std::vector<std::string> r;
  for (const auto& w : ws) r.push_back(w.player);
  return r;
}

const std::int64_t kNow = 1'000'000;

}  // namespace

TEST(Pairing, EmptyPool) {
  Wave w = pair_wave({}, Blocks{}, kNow, params(4, 2));
  EXPECT_TRUE(w.tables.empty());
  EXPECT_TRUE(w.left.empty());
}

TEST(Pairing, FullPoolPairsAtOnce) {
  // Exactly `seats` players within the base spread, none of whom has waited a wave: one table.
  Wave w = pair_wave({W("d", 1600), W("a", 1480), W("c", 1550), W("b", 1500)}, Blocks{}, kNow, params(4));
  EXPECT_EQ(w.tables, (Tables{{"a", "b", "c", "d"}}));
  EXPECT_TRUE(w.left.empty());
  Wave two = pair_wave({W("x", 1500), W("y", 1650)}, Blocks{}, kNow, params(2));
  EXPECT_EQ(two.tables, (Tables{{"x", "y"}}));
  EXPECT_TRUE(two.left.empty());
}

TEST(Pairing, ExactTablesTwoSeats) {
  std::vector<Waiting> pool = {W("p1000", 1000), W("p1100", 1100), W("p1400", 1400),
                               W("p1420", 1420), W("p1700", 1700), W("p2000", 2000)};
  Wave w = pair_wave(pool, Blocks{}, kNow, params(2));
  EXPECT_EQ(w.tables, (Tables{{"p1000", "p1100"}, {"p1400", "p1420"}}));
  ASSERT_EQ(ids(w.left), (std::vector<std::string>{"p1700", "p2000"}));
  EXPECT_EQ(w.left[0].waves_missed, 1);
  EXPECT_EQ(w.left[1].waves_missed, 1);
  // 300 apart: both need two waves missed (150 + 2 * 75 = 300).
  pool = {W("p1700", 1700, 2), W("p2000", 2000, 2)};
  EXPECT_EQ(pair_wave(pool, Blocks{}, kNow, params(2)).tables, (Tables{{"p1700", "p2000"}}));
  pool = {W("p1700", 1700, 2), W("p2000", 2000, 1)};  // one of them allows only 225
  EXPECT_TRUE(pair_wave(pool, Blocks{}, kNow, params(2)).tables.empty());
}

TEST(Pairing, ExactTablesThreeSeats) {
  // Sorted: a1200 b1210 c1300 d1330 e1500 f1560 g1580 h1900. The first anchor takes the nearest
  // two; the next anchor (d1330) cannot reach e1500 (170 > 150) and waits; e1500 takes f and g.
  std::vector<Waiting> pool = {W("h", 1900), W("a", 1200), W("c", 1300), W("f", 1560),
                               W("b", 1210), W("e", 1500), W("g", 1580), W("d", 1330)};
  Wave w = pair_wave(pool, Blocks{}, kNow, params(3));
  EXPECT_EQ(w.tables, (Tables{{"a", "b", "c"}, {"e", "f", "g"}}));
  EXPECT_EQ(ids(w.left), (std::vector<std::string>{"d", "h"}));
}

TEST(Pairing, SpreadGrowsWithEachWaveMissed) {
  // 290 apart: 150 (wave 0), 225 (one missed), 300 (two missed): paired on the third wave.
  std::vector<Waiting> pool = {W("lo", 1400, 0, 10), W("hi", 1690, 0, 20)};
  Wave w = pair_wave(pool, Blocks{}, kNow, params(2));
  EXPECT_TRUE(w.tables.empty());
  ASSERT_EQ(w.left.size(), 2u);
  EXPECT_EQ(w.left[0], W("lo", 1400, 1, 10));
  EXPECT_EQ(w.left[1], W("hi", 1690, 1, 20));
  w = pair_wave(w.left, Blocks{}, kNow + 5000, params(2));
  EXPECT_TRUE(w.tables.empty());
  EXPECT_EQ(w.left[0].waves_missed, 2);
  w = pair_wave(w.left, Blocks{}, kNow + 10000, params(2));
  EXPECT_EQ(w.tables, (Tables{{"lo", "hi"}}));
  EXPECT_TRUE(w.left.empty());
}

TEST(Pairing, BlockedPlayersSkipToTheNextCandidate) {
  Blocks blocks;
  blocks.add("b", "a");  // b blocked a: the pair is blocked both ways
  EXPECT_TRUE(blocks.blocked("a", "b"));
  EXPECT_TRUE(blocks.blocked("b", "a"));
  EXPECT_FALSE(blocks.blocked("a", "c"));
  Wave w = pair_wave({W("a", 1500), W("b", 1510), W("c", 1520)}, blocks, kNow, params(2));
  EXPECT_EQ(w.tables, (Tables{{"a", "c"}}));
  EXPECT_EQ(ids(w.left), (std::vector<std::string>{"b"}));
  // In a table of three the candidate must be free of blocks with every member, not only the anchor.
  blocks.add("c", "d");
  w = pair_wave({W("a", 1500), W("c", 1520), W("d", 1530), W("e", 1540)}, blocks, kNow, params(3));
  EXPECT_EQ(w.tables, (Tables{{"a", "c", "e"}}));
  EXPECT_EQ(ids(w.left), (std::vector<std::string>{"d"}));
}

TEST(Pairing, OwnRatingRangesBothWays) {
  // a accepts only 1530..1650: b (1520) is skipped for c (1540).
  Wave w =
      pair_wave({W("a", 1500, 0, 0, std::pair{1530.0, 1650.0}), W("b", 1520), W("c", 1540)}, Blocks{}, kNow, params(2));
  EXPECT_EQ(w.tables, (Tables{{"a", "c"}}));
  EXPECT_EQ(ids(w.left), (std::vector<std::string>{"b"}));
  // b accepts only 1510 and up: a (1500) is not for b, though a accepts anyone.
  w = pair_wave({W("a", 1500), W("b", 1520, 0, 0, std::pair{1510.0, 2000.0}), W("c", 1530)}, Blocks{}, kNow, params(2));
  EXPECT_EQ(w.tables, (Tables{{"a", "c"}}));
  EXPECT_EQ(ids(w.left), (std::vector<std::string>{"b"}));
}

TEST(Pairing, SmallerTableOnlyAfterEnoughWaves) {
  PoolParams p = params(4, 2);  // waves_before_smaller = 3
  // Three players, full table impossible: none has missed 3 waves, so no table.
  Wave w = pair_wave({W("a", 1500, 2), W("b", 1510, 2), W("c", 1520, 2)}, Blocks{}, kNow, p);
  EXPECT_TRUE(w.tables.empty());
  EXPECT_EQ(w.left.size(), 3u);
  // All have missed 3: a table of three.
  w = pair_wave(w.left, Blocks{}, kNow, p);
  EXPECT_EQ(w.tables, (Tables{{"a", "b", "c"}}));
  // b has missed only 2: the smaller table takes only those who have missed 3.
  w = pair_wave({W("a", 1500, 3), W("b", 1510, 2), W("c", 1520, 3)}, Blocks{}, kNow, p);
  EXPECT_EQ(w.tables, (Tables{{"a", "c"}}));
  ASSERT_EQ(w.left.size(), 1u);
  EXPECT_EQ(w.left[0], W("b", 1510, 3));
  // Never below min_seats: five seats, at least three, two eligible players wait.
  w = pair_wave({W("a", 1500, 9), W("b", 1510, 9)}, Blocks{}, kNow, params(5, 3));
  EXPECT_TRUE(w.tables.empty());
  // A game without smaller tables (min_seats == seats) never makes one.
  w = pair_wave({W("a", 1500, 9), W("b", 1510, 9), W("c", 1520, 9)}, Blocks{}, kNow, params(4));
  EXPECT_TRUE(w.tables.empty());
}

TEST(Pairing, TiesBrokenBySinceThenPlayer) {
  // Equal ratings: y and z (since 3) before x (since 5); y before z by id.
  Wave w = pair_wave({W("x", 1500, 0, 5), W("z", 1500, 0, 3), W("y", 1500, 0, 3)}, Blocks{}, kNow, params(2));
  EXPECT_EQ(w.tables, (Tables{{"y", "z"}}));
  EXPECT_EQ(ids(w.left), (std::vector<std::string>{"x"}));
}

TEST(Pairing, LateJoinersWaitForTheNextWaveUnchanged) {
  // c joined after the wave was cut (since > now): not paired, no wave counted against it.
  Wave w = pair_wave({W("a", 1500, 0, kNow - 10), W("c", 1505, 0, kNow + 1), W("b", 1510, 0, kNow)}, Blocks{}, kNow,
                     params(2));
  EXPECT_EQ(w.tables, (Tables{{"a", "b"}}));
  ASSERT_EQ(w.left.size(), 1u);
  EXPECT_EQ(w.left[0], W("c", 1505, 0, kNow + 1));
}

TEST(Pairing, RejectsBadInput) {
  EXPECT_THROW(pair_wave({W("a", 1500), W("a", 1600)}, Blocks{}, kNow, params(2)), std::invalid_argument);
  EXPECT_THROW(pair_wave({W("a", std::nan(""))}, Blocks{}, kNow, params(2)), std::invalid_argument);
  EXPECT_THROW(pair_wave({W("a", 1500, 0, 0, std::pair{0.0, INFINITY})}, Blocks{}, kNow, params(2)),
               std::invalid_argument);
  EXPECT_THROW(pair_wave({W("a", 1500, -1)}, Blocks{}, kNow, params(2)), std::invalid_argument);
  EXPECT_THROW(pair_wave({}, Blocks{}, kNow, params(1)), std::invalid_argument);
  EXPECT_THROW(pair_wave({}, Blocks{}, kNow, params(3, 4)), std::invalid_argument);
  EXPECT_THROW(pair_wave({}, Blocks{}, kNow, params(3, 1)), std::invalid_argument);
  PoolParams p = params(4);
  p.scan_window = 2;
  EXPECT_THROW(pair_wave({}, Blocks{}, kNow, p), std::invalid_argument);
  p = params(2);
  p.base_spread = -1;
  EXPECT_THROW(pair_wave({}, Blocks{}, kNow, p), std::invalid_argument);
}

namespace {

struct RandomPool {
  std::vector<Waiting> pool;
  Blocks blocks;
  std::set<std::pair<std::string, std::string>> blocked_pairs;  // both orders
  PoolParams p;
  std::int64_t now = kNow;
};

RandomPool random_pool(std::uint32_t seed) {
  std::mt19937 rng(seed);
  auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  RandomPool r;
  r.p.seats = uni(2, 5);
  r.p.min_seats = uni(2, r.p.seats);
  r.p.waves_before_smaller = uni(0, 4);
  const int n = uni(0, 40);
  const int width = uni(0, 3) == 0 ? 60 : 900;  // sometimes a crowded pool with many equal ratings
  for (int i = 0; i < n; ++i) {
    Waiting w;
    w.player = "p" + std::to_string(uni(0, 1'000'000)) + "_" + std::to_string(i);
    w.rating = 1500 - width / 2 + uni(0, width);
    if (uni(0, 3) == 0) w.rating = std::round(w.rating / 50) * 50;
    w.since_ms = kNow - uni(0, 60'000);
    if (uni(0, 15) == 0) w.since_ms = kNow + uni(1, 1000);  // joined after the wave was cut
    w.waves_missed = uni(0, 6);
    if (uni(0, 4) == 0) {
      double lo = w.rating - uni(0, 400), hi = w.rating + uni(0, 400);
      w.range = std::pair{lo, hi};
    }
    r.pool.push_back(w);
  }
  const int nblocks = n < 2 ? 0 : uni(0, n * 2);
  for (int k = 0; k < nblocks; ++k) {
    const auto& a = r.pool[static_cast<std::size_t>(uni(0, n - 1))].player;
    const auto& b = r.pool[static_cast<std::size_t>(uni(0, n - 1))].player;
    if (a == b) continue;
    r.blocks.add(a, b);
    r.blocked_pairs.insert({a, b});
    r.blocked_pairs.insert({b, a});
  }
  return r;
}

bool compatible(const Waiting& a, const Waiting& b, const PoolParams& p) {
  auto in = [](const Waiting& w, double x) { return !w.range || (x >= w.range->first && x <= w.range->second); };
  const double spread = std::abs(a.rating - b.rating);
  return spread <= allowance(a, p) && spread <= allowance(b, p) && in(a, b.rating) && in(b, a.rating);
}

}  // namespace

TEST(Pairing, RulesHoldOverRandomPools) {
  int tables = 0, smaller = 0, left = 0;
  for (std::uint32_t seed = 1; seed <= 5000; ++seed) {
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    RandomPool r = random_pool(seed);
    const PoolParams& p = r.p;
    std::map<std::string, Waiting> in;
    for (const auto& w : r.pool) in[w.player] = w;
    Wave wave = pair_wave(r.pool, r.blocks, r.now, p);

    std::map<std::string, int> seen;
    for (const auto& t : wave.tables) {
      ++tables;
      // sizes: full, or at least min_seats when every member has missed enough waves
      ASSERT_GE(static_cast<int>(t.size()), p.min_seats);
      ASSERT_LE(static_cast<int>(t.size()), p.seats);
      if (static_cast<int>(t.size()) < p.seats) {
        ++smaller;
        for (const auto& m : t) ASSERT_GE(in.at(m).waves_missed, p.waves_before_smaller) << m;
      }
      for (std::size_t i = 0; i < t.size(); ++i) {
        ++seen[t[i]];
        const Waiting& a = in.at(t[i]);
        ASSERT_LE(a.since_ms, r.now) << "a late joiner was seated: " << a.player;
        for (std::size_t j = 0; j < t.size(); ++j) {
          if (i == j) continue;
          const Waiting& b = in.at(t[j]);
          // never two players who block each other
          ASSERT_FALSE(r.blocked_pairs.contains({a.player, b.player})) << a.player << " " << b.player;
          // the spread within each member's allowance, each within the other's range
          ASSERT_TRUE(compatible(a, b, p)) << a.player << " " << b.player;
        }
      }
    }
    for (std::size_t i = 0; i < wave.left.size(); ++i) {
      ++left;
      const Waiting& w = wave.left[i];
      ++seen[w.player];
      Waiting expect = in.at(w.player);
      if (expect.since_ms <= r.now) ++expect.waves_missed;  // one more wave missed, nothing else changed
      ASSERT_EQ(w, expect);
      if (i > 0) {  // left in the sort order
        const Waiting& v = wave.left[i - 1];
        ASSERT_LT(std::tie(v.rating, v.since_ms, v.player), std::tie(w.rating, w.since_ms, w.player));
      }
    }
    // every player exactly once, in a table or left
    ASSERT_EQ(seen.size(), in.size());
    for (const auto& [id, k] : seen) ASSERT_EQ(k, 1) << id;
    // Nobody left who could have had a table of two: no two unblocked, compatible players left
    // waiting when a table of two was allowed for them (the pool is smaller than the scan window).
    for (std::size_t i = 0; i < wave.left.size(); ++i)
      for (std::size_t j = i + 1; j < wave.left.size(); ++j) {
        const Waiting& a = in.at(wave.left[i].player);
        const Waiting& b = in.at(wave.left[j].player);
        if (a.since_ms > r.now || b.since_ms > r.now) continue;
        if (r.blocked_pairs.contains({a.player, b.player}) || !compatible(a, b, p)) continue;
        const bool two_ok = p.seats == 2 || (p.min_seats == 2 && a.waves_missed >= p.waves_before_smaller &&
                                             b.waves_missed >= p.waves_before_smaller);
        ASSERT_FALSE(two_ok) << "left waiting though they fit: " << a.player << " " << b.player;
      }
  }
  // the pools are varied enough to exercise every rule
  EXPECT_GT(tables, 10000);
  EXPECT_GT(smaller, 500);
  EXPECT_GT(left, 10000);
}

TEST(Pairing, DeterministicWhateverTheInputOrder) {
  for (std::uint32_t seed = 1; seed <= 1000; ++seed) {
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    RandomPool r = random_pool(seed);
    const Wave first = pair_wave(r.pool, r.blocks, r.now, r.p);
    const Wave again = pair_wave(r.pool, r.blocks, r.now, r.p);
    ASSERT_EQ(again.tables, first.tables);
    ASSERT_EQ(again.left, first.left);
    std::mt19937 rng(seed);
    for (int k = 0; k < 3; ++k) {
      std::shuffle(r.pool.begin(), r.pool.end(), rng);
      const Wave shuffled = pair_wave(r.pool, r.blocks, r.now, r.p);
      ASSERT_EQ(shuffled.tables, first.tables);
      ASSERT_EQ(shuffled.left, first.left);
    }
  }
}
