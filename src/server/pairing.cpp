// server/pairing: one quick-pairing wave (pairing.hpp has the algorithm).
#include "server/pairing.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>

namespace carc::server::pairing {

void Blocks::add(const std::string& a, const std::string& b) {
  if (a == b) return;
  if (by_player_[a].insert(b).second) ++pairs_;
  by_player_[b].insert(a);
}

bool Blocks::blocked(const std::string& a, const std::string& b) const {
  auto it = by_player_.find(a);
  return it != by_player_.end() && it->second.contains(b);
}

double allowance(const Waiting& w, const PoolParams& p) { return p.base_spread + p.spread_per_wave * w.waves_missed; }

namespace {

void check(const std::vector<Waiting>& pool, const PoolParams& p) {
  if (p.seats < 2) throw std::invalid_argument("pairing: seats must be at least 2");
  if (p.min_seats < 2 || p.min_seats > p.seats) throw std::invalid_argument("pairing: min_seats must be in 2..seats");
  if (!(p.base_spread >= 0) || !(p.spread_per_wave >= 0) || !std::isfinite(p.base_spread) ||
      !std::isfinite(p.spread_per_wave))
    throw std::invalid_argument("pairing: spreads must be finite and not negative");
  if (p.waves_before_smaller < 0) throw std::invalid_argument("pairing: waves_before_smaller must not be negative");
  if (p.scan_window < p.seats - 1) throw std::invalid_argument("pairing: scan_window must be at least seats - 1");
  std::unordered_set<std::string> seen;
  seen.reserve(pool.size());
  for (const Waiting& w : pool) {
    if (!std::isfinite(w.rating)) throw std::invalid_argument("pairing: rating not finite for " + w.player);
    if (w.range && (!std::isfinite(w.range->first) || !std::isfinite(w.range->second)))
      throw std::invalid_argument("pairing: range not finite for " + w.player);
    if (w.waves_missed < 0) throw std::invalid_argument("pairing: waves_missed negative for " + w.player);
    if (!seen.insert(w.player).second) throw std::invalid_argument("pairing: player twice in the pool: " + w.player);
  }
}

bool in_range(const Waiting& who, double rating) {
  return !who.range || (rating >= who.range->first && rating <= who.range->second);
}

}  // namespace

Wave pair_wave(std::vector<Waiting> pool, const Blocks& blocks, std::int64_t now_ms, const PoolParams& p) {
  check(pool, p);
  Wave out;
  // 1. late joiners wait for the next wave, unchanged
  std::vector<Waiting> late;
  std::erase_if(pool, [&](Waiting& w) {
    if (w.since_ms <= now_ms) return false;
    late.push_back(std::move(w));
    return true;
  });
  // 2. a total order
  auto order = [](const Waiting& a, const Waiting& b) {
    return std::tie(a.rating, a.since_ms, a.player) < std::tie(b.rating, b.since_ms, b.player);
  };
  std::sort(pool.begin(), pool.end(), order);

  const int n = static_cast<int>(pool.size());
  std::vector<char> seated(static_cast<std::size_t>(n), 0);
  // next[i]: the first unseated index >= i (n if none), by path halving over seated players
  std::vector<int> next(static_cast<std::size_t>(n) + 1);
  for (int i = 0; i <= n; ++i) next[static_cast<std::size_t>(i)] = i;
  auto find = [&](int i) {
    while (next[static_cast<std::size_t>(i)] != i) {
      auto& ni = next[static_cast<std::size_t>(i)];
      ni = next[static_cast<std::size_t>(ni)];
      i = ni;
    }
    return i;
  };
  auto seat = [&](int i) {
    seated[static_cast<std::size_t>(i)] = 1;
    next[static_cast<std::size_t>(i)] = i + 1;
  };

  std::vector<int> table;
  table.reserve(static_cast<std::size_t>(p.seats));
  // The anchor's scan: candidates above it, in order, each taken if it fits the table so far.
  // `eligible_only`: only players who have missed enough waves for a smaller table.
  auto scan = [&](int a, bool eligible_only) {
    const Waiting& anchor = pool[static_cast<std::size_t>(a)];
    table.assign(1, a);
    double cap = allowance(anchor, p);  // the smallest allowance of the table so far
    int looked = 0;
    for (int j = find(a + 1); j < n && looked < p.scan_window && static_cast<int>(table.size()) < p.seats;
         j = find(j + 1)) {
      const Waiting& c = pool[static_cast<std::size_t>(j)];
      const double spread = c.rating - anchor.rating;  // sorted: the candidate is the table's highest
      if (spread > allowance(anchor, p)) break;        // nor will any later candidate fit the anchor
      ++looked;
      if (eligible_only && c.waves_missed < p.waves_before_smaller) continue;
      if (spread > cap || spread > allowance(c, p)) continue;
      bool fits = true;
      for (int m : table) {
        const Waiting& w = pool[static_cast<std::size_t>(m)];
        if (!in_range(w, c.rating) || !in_range(c, w.rating) || blocks.blocked(w.player, c.player)) {
          fits = false;
          break;
        }
      }
      if (!fits) continue;
      table.push_back(j);
      cap = std::min(cap, allowance(c, p));
    }
    return static_cast<int>(table.size());
  };

  // 3.-5. anchors in order
  for (int a = find(0); a < n; a = find(a + 1)) {
    int size = scan(a, false);
    if (size < p.seats) {
      if (pool[static_cast<std::size_t>(a)].waves_missed < p.waves_before_smaller) continue;
      size = scan(a, true);
      if (size < p.min_seats) continue;
    }
    std::vector<std::string> ids;
    ids.reserve(table.size());
    for (int m : table) {
      seat(m);
      ids.push_back(pool[static_cast<std::size_t>(m)].player);
    }
    out.tables.push_back(std::move(ids));
  }

  // 6. the rest wait, one more wave missed; the late joiners with them, in the same order
  for (int i = 0; i < n; ++i) {
    if (seated[static_cast<std::size_t>(i)]) continue;
    Waiting w = std::move(pool[static_cast<std::size_t>(i)]);
    ++w.waves_missed;
    out.left.push_back(std::move(w));
  }
  const auto mid = static_cast<std::ptrdiff_t>(out.left.size());
  std::sort(late.begin(), late.end(), order);
  for (Waiting& w : late) out.left.push_back(std::move(w));
  std::inplace_merge(out.left.begin(), out.left.begin() + mid, out.left.end(), order);
  return out;
}

}  // namespace carc::server::pairing
