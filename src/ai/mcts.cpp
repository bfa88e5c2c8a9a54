#include "ai/mcts.hpp"

#include "ai/bot_limits.hpp"
#include "ai/value.hpp"
#include "core/io.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <thread>
#include <vector>

namespace carc {

namespace {

// ---- playout policy: uniform placements (without listing them), a cheap piece heuristic ----

// What a piece decision is worth to the mover, cheaply: a feature completed right now pays its
// value; an open one about half of what it would pay completed; a pass keeps the piece.
// econ: what a follower kept is worth on top, times the share of the pile left (0: the old policy).
// gains: what the game says an option gains at once beyond its feature (Hooks::option_gain:
// Safari's watering holes), times this, on top; 0: nothing (the policy before).
double quick_value(const State& s, const Move& m, double econ = 0, double gains = 1) {
  const auto hook = s.rs->game->hooks.option_gain;
  const double gain = gains != 0 && hook ? gains * hook(s, m) : 0.0;
  if (m.kind == MoveKind::Pass)
    return 1.0 + (s.supply[s.current] <= 2 ? 1.5 : 0.0) +
           (econ > 0 ? econ * s.pile / std::max(1, s.pile + s.turn) : 0.0) + gain;
  if (m.kind != MoveKind::Piece) return 0.9 + gain;  // a game's own action: about as good as a pass
  const int ti = s.placed_at(m.x, m.y);
  const PlacedTile& pt = s.tiles[static_cast<std::size_t>(ti)];
  const FeatureInfo fi = feature_info(s, pt.seg0 + m.feat);
  const FeatureTypeDef& fd = s.rs->ftype(fi.ftype);
  if (m.pk != 0xFF) return 2.0 + gain;  // a network piece (a hut)
  if (fd.cls == FClass::Field) return (s.turn > 40 ? 2.0 : 1.2) + gain;
  const double v = feature_value(s, fi, true);
  return (fi.closed ? v + 1.0 : 0.5 * v) + gain;
}

// A cheap judgement of a placement for playouts: each side that meets a claimed feature (not a
// field) counts for the mover if the mover holds it (at least shares the majority), against if
// an opponent does; double where the feature has one open side left (the tile may close it).
double placement_score(const State& s, const Move& m) {
  const int me = s.current;
  double v = 0;
  for (int side = 0; side < 4; ++side) {
    const int ti = s.placed_at(m.x + kDx[static_cast<std::size_t>(side)], m.y + kDy[static_cast<std::size_t>(side)]);
    if (ti < 0) continue;
    const PlacedTile& nb = s.tiles[static_cast<std::size_t>(ti)];
    const u8 nf = s.type_of(nb).rot[nb.rot].port_feat[static_cast<std::size_t>(facing_port(3 * side + 1))];
    if (nf == 0xFF) continue;
    const Segment& r = s.graph[s.graph.find(nb.seg0 + nf)];
    if (r.npieces == 0 || s.rs->ftype(r.ftype).cls == FClass::Field) continue;
    int other = 0;
    for (int p = 0; p < s.nplayers; ++p)
      if (p != me) other = std::max<int>(other, r.pieces[static_cast<std::size_t>(p)]);
    const double w = r.open == 1 ? 2.0 : 1.0;
    v += r.pieces[static_cast<std::size_t>(me)] >= other ? w : -w;
  }
  return v;
}

Move policy_move(State& s, Rng& rng, MoveList& ml, double eps, double econ = 0, int informed = 1, double gains = 1) {
  if (s.phase == Phase::Place) {
    Move best = sample_placement(s, rng);
    if (informed <= 1) return best;
    double bv = placement_score(s, best);
    for (int k = 1; k < informed; ++k) {
      const Move m = sample_placement(s, rng);
      const double v = placement_score(s, m);
      if (v > bv) {
        bv = v;
        best = m;
      }
    }
    return best;
  }
  legal_moves(s, ml);
  if (s.phase != Phase::Piece || rng.uniform() < eps) return ml[rng.below(static_cast<u32>(ml.size()))];
  double best = -1e9;
  std::size_t pick = 0;
  const std::size_t n = ml.size();
  // games with many actions (Safari) are sampled: the piece options first, then a few others
  for (std::size_t k = 0; k < n; ++k) {
    const Move& m = ml[k];
    if (m.kind == MoveKind::Act && n > 24 && rng.below(static_cast<u32>(n)) >= 16) continue;
    const double v = quick_value(s, m, econ, gains) + 0.01 * rng.uniform();
    if (v > best) {
      best = v;
      pick = k;
    }
  }
  return ml[pick];
}

void rewards(const State& s, double scale, std::array<float, kMaxPlayers>& r) {
  for (int p = 0; p < s.nplayers; ++p) {
    int other = -100000;
    for (int q = 0; q < s.nplayers; ++q)
      if (q != p) other = std::max<int>(other, s.score[static_cast<std::size_t>(q)]);
    const double d = (s.score[static_cast<std::size_t>(p)] - other) / scale;
    r[static_cast<std::size_t>(p)] = static_cast<float>(0.5 + 0.5 * std::tanh(d));
  }
}

// A playout cut short: the greedy evaluation (score plus what the pieces on the board are
// worth) stands in for the final score difference.
// margins: where given, gets the evaluation's margins (points).
// value: the fitted value's weights (nullptr: the greedy evaluation).
void eval_rewards(const State& s, double scale, std::array<float, kMaxPlayers>& r,
                  std::array<double, kMaxPlayers>* margins = nullptr, const std::vector<double>* value = nullptr,
                  double race = 0) {
  std::array<double, kMaxPlayers> e{};
  if (value)
    value_evals(s, *value, e);
  else
    greedy_evals(s, e, race);
  for (int p = 0; p < s.nplayers; ++p)
    r[static_cast<std::size_t>(p)] = static_cast<float>(0.5 + 0.5 * std::tanh(e[static_cast<std::size_t>(p)] / scale));
  if (margins) *margins = e;
}

// ---- the tree ----

// Tuning by game: GameDef::search_horizon and search_prior, set by each game from the arena's
// measurements (docs/mcts.md).
int default_horizon(const State& s) { return s.rs->game->search_horizon; }
int default_prior(const State& s) { return s.rs->game->search_prior; }
// o.value, or the game's default for the player count (GameDef::search_value_for) where the game
// has fitted weights.
int value_mode(const State& s, const MctsOptions& o) {
  if (o.value >= 0) return o.value;
  return o.weights || value_weights(s) ? s.rs->game->search_value_for(s.nplayers) : 0;
}

struct Node {
  Move move;           // the edge from the parent: a move, or (chance parent) the outcome in feat/x
  u32 first = 0;       // first child (0: none; node 0 is the root and never a child)
  u32 next = 0;        // next sibling
  u32 visits = 0;
  bool expanded = false;
  bool chance = false;  // a chance node: its children are outcomes
  u16 virt = 0;         // virtual visits from the prior (counted in visits)
  std::array<float, kMaxPlayers> sum{};
};

// Progressive widening: a decision node visited n times considers only its first
// kWiden0 + sqrt(n) children, which expand() lists best first by a prior.
constexpr double kWiden0 = 3.0;

class Tree {
 public:
  Tree(const State& root, const MctsOptions& o, u64 seed)
      : root_(root),
        o_(o),
        value_mode_(value_mode(root, o)),
        horizon_(o.horizon >= 0 ? o.horizon
                 : (value_mode_ == 1 || value_mode_ == 2) && root.rs->game->search_value_horizon > 0
                     ? root.rs->game->search_value_horizon
                     : default_horizon(root)),
        race_(o.race >= 0 ? o.race : root.rs->game->search_race),
        prior_n_(o.prior >= 0                                               ? o.prior
                 : value_mode_ > 1 && root.rs->game->search_value_prior > 0 ? root.rs->game->search_value_prior
                 : race_ > 0 && root.rs->game->search_race_prior > 0        ? root.rs->game->search_race_prior
                                                                            : default_prior(root)),
        rng_(seed),
        crn_base_(seed ^ 0x5851F42D4C957F2DULL) {
    chance_widen_ = o.widen >= 0 ? o.widen : root.rs->game->search_widen;
    if (o.future) chance_widen_ = 0;  // clairvoyant: a chance node has one outcome per path
    gains_ = o.gains >= 0 ? o.gains : 1.0;
    prior_depth_ = o.prior_depth >= 0 ? o.prior_depth : root.rs->game->prior_depth_for(root.nplayers);
    const int full = root.rs->game->prior_full_for(root.nplayers) ? 0 : 1;
    prior_cheap_ = o.prior_cheap >= 0 ? o.prior_cheap : full;
    prior_lazy_ = o.prior_lazy >= 0 ? o.prior_lazy : full;
    const std::vector<double>* w = value_mode_ == 0 ? nullptr : o.weights ? o.weights.get() : value_weights(root);
    value_w_ = value_mode_ == 3 ? nullptr : w;  // mode 3: the fitted value in the prior only
    value_prior_ = value_mode_ > 1 ? w : nullptr;
    nodes_.reserve(1 << 16);
    nodes_.emplace_back();
  }

  void iterate() {
    State s = root_;
    if (o_.future) seer_rng_ = *o_.future;  // clairvoyant: the game's own draws, in their order
    path_.clear();
    events_.clear();
    u32 node = 0;
    int depth = 0;  // decisions taken from the root
    path_.push_back(node);
    while (s.phase != Phase::Over) {
      if (is_chance(s)) {
        nodes_[node].chance = true;
        // sample an outcome from what is left, find or add its child; past the node's widening
        // limit, only among the outcomes it has (double progressive widening)
        Move key;
        const bool draw = s.phase == Phase::Draw;
        key.kind = draw ? MoveKind::Place : MoveKind::Choose;  // marks a tile or a game outcome
        const Hooks& hk = s.rs->game->hooks;
        Rng& cr = chance_rng();
        const auto sample = [&] { return static_cast<u8>(draw ? sample_draw(s, cr) : hk.sample_chance(s, cr)); };
        key.feat = sample();
        // Double progressive widening: a chance node visited n times has at most 1 + widen *
        // sqrt(n) outcomes; past that, a draw is sampled among the outcomes it has (in their true
        // proportions), so the playouts concentrate and the tree sees past the next tile.
        // Measured in arena at equal playouts and CPU (docs/mcts.md, "Chance nodes").
        if (chance_widen_ > 0) {
          u32 kids = 0, most = 0, most_visits = 0;
          bool known = false;
          for (u32 c = nodes_[node].first; c; c = nodes_[c].next) {
            ++kids;
            known |= nodes_[c].move.feat == key.feat;
            if (nodes_[c].visits >= most_visits) {
              most = c;
              most_visits = nodes_[c].visits;
            }
          }
          const double limit = 1.0 + chance_widen_ * std::sqrt(static_cast<double>(nodes_[node].visits));
          for (int tries = 0; !known && static_cast<double>(kids) >= limit; ++tries) {
            if (tries == 8) {
              key.feat = nodes_[most].move.feat;
              break;
            }
            key.feat = sample();
            for (u32 c = nodes_[node].first; c && !known; c = nodes_[c].next) known = nodes_[c].move.feat == key.feat;
          }
        }
        if (draw)
          apply_draw(s, key.feat, sink());
        else
          hk.apply_chance(s, key.feat, sink());
        node = child_for(node, key);
        path_.push_back(node);
        continue;
      }
      Node& nd = nodes_[node];
      if (!nd.expanded) {
        // a tile placement below the root's turn that the prior would judge is expanded on its
        // second visit (prior_lazy_: o.prior_lazy, or the game's): most are reached once, and a
        // playout needs no order
        if (prior_lazy_ != 0 && nd.visits == 0 && depth > 1 && depth <= prior_depth_ && s.phase == Phase::Place) break;
        expand(node, s, depth);
        const u32 c = nodes_[node].first;  // the first child: children are in list order
        if (node == 0) start_chance(c);
        apply_move(s, nodes_[c].move, sink());
        node = c;
        path_.push_back(node);
        break;  // a new leaf: play out from here
      }
      const bool at_root = node == 0;
      node = at_root && pinned_    ? pinned_
             : at_root && forcing_ ? select_root_forced(to_move(s))
                                   : select(node, to_move(s));
      if (at_root) start_chance(node);
      apply_move(s, nodes_[node].move, sink());
      path_.push_back(node);
      ++depth;
    }
    int left = horizon_ > 0 ? horizon_ : 1 << 30;
    while (s.phase != Phase::Over && left > 0) {
      if (is_chance(s)) {
        chance_step(s, chance_rng(), sink());
        continue;
      }
      apply_move(s, policy_move(s, rng_, ml_, o_.eps, o_.econ, o_.informed, gains_), sink());
      --left;
    }
    if (owning_) own(s);
    std::array<float, kMaxPlayers> r{};
    if (s.phase == Phase::Over) rewards(s, o_.scale, r);
    else
      eval_rewards(s, o_.scale, r, analyzing_ ? &margins_ : nullptr, value_w_, race_);
    if (analyzing_ && path_.size() > 1) {
      // the root player's margin at the end of this playout, kept for the root option it went through
      if (s.phase == Phase::Over) score_margins(s, margins_);
      const double m = margins_[static_cast<std::size_t>(root_player_)];
      RootSum& rs = root_sums_[path_[1]];
      rs.margin += m;
      rs.sq += m * m;
      rs.win += m > 0 ? 1.0 : m == 0 ? 0.5 : 0.0;
      ++rs.n;
    }
    for (const u32 n : path_) {
      Node& nd = nodes_[n];
      ++nd.visits;
      for (std::size_t p = 0; p < kMaxPlayers; ++p) nd.sum[p] += r[p];
    }
  }

  // The iteration goes through root option c: its chance events draw from the option's n-th
  // stream of common random numbers (o.crn), n the option's visits so far.
  void start_chance(u32 c) {
    if (o_.crn == 0) return;
    crn_iter_ = crn_base_ + 0x9E3779B97F4A7C15ULL * (static_cast<u64>(nodes_[c].visits) + 1);
    crn_event_ = 0;
  }
  // The generator for the iteration's next chance event.
  Rng& chance_rng() {
    if (o_.future) return seer_rng_;
    if (o_.crn == 0) return rng_;
    crn_rng_.reseed(crn_iter_ ^ (0xD1B54A32D192ED03ULL * ++crn_event_));
    return crn_rng_;
  }

  // Sequential halving over the root's best k options by the prior (the list's order) with n
  // iterations: rounds of equal shares, the better half by mean reward for the player to move
  // kept after each (with real_q, over the rounds' playouts only; else with the prior's virtual
  // playouts and the expanding one); a tenth of the budget, and what rounding
  // leaves, goes to the last one standing, so that it is the most visited.
  void halving(int n, int k, bool real_q) {
    if (n <= 0) return;
    iterate();  // expands the root
    --n;
    // each candidate with its sum and visits before the rounds (real_q: left out of its mean)
    struct Cand {
      u32 node;
      double sum0;
      u32 visits0;
    };
    std::vector<Cand> cand;
    const auto player = static_cast<std::size_t>(to_move(root_));
    for (u32 c = nodes_[0].first; c && static_cast<int>(cand.size()) < k; c = nodes_[c].next)
      cand.push_back(real_q ? Cand{c, nodes_[c].sum[player], nodes_[c].visits} : Cand{c, 0.0, 0});
    if (cand.size() > 1) {
      int rounds = 0;
      while ((std::size_t{1} << rounds) < cand.size()) ++rounds;
      const int per_round = (n - n / 10) / rounds;
      auto q = [&](const Cand& c) {
        const Node& nd = nodes_[c.node];
        const u32 v = nd.visits - c.visits0;
        return v == 0 ? -1.0 : (nd.sum[player] - c.sum0) / v;
      };
      for (int r = 0; r < rounds && cand.size() > 1; ++r) {
        const int each = std::max(1, per_round / static_cast<int>(cand.size()));
        for (int i = 0; i < each && n > 0; ++i) {
          if ((i & 15) == 15 && o_.stop.due()) n = 0;
          for (std::size_t j = 0; j < cand.size() && n > 0; ++j, --n) {
            pinned_ = cand[j].node;
            iterate();
          }
        }
        std::stable_sort(cand.begin(), cand.end(), [&](const Cand& a, const Cand& b) { return q(a) > q(b); });
        cand.resize((cand.size() + 1) / 2);
      }
    }
    pinned_ = cand.empty() ? 0 : cand.front().node;
    for (; n > 0; --n) {
      if ((n & 15) == 0 && o_.stop.due()) break;
      iterate();
    }
    pinned_ = 0;
  }

  // root children: move and visits
  void root_stats(std::vector<std::pair<Move, u32>>& out) const { child_stats(0, out); }

  // Analysis: keep each root option's margins and wins; `force` (if any) gets at least `share`
  // of the root's visits.
  void analyze(const Move* force, double share) {
    analyzing_ = true;
    root_player_ = to_move(root_);
    if (force) force_ = *force;
    forcing_ = force != nullptr;
    force_share_ = share;
  }
  // Ownership: the root's open features, then per playout who scored them.
  void own_features() {
    owning_ = true;
    std::vector<int> seen;
    for (const PlacedTile& pt : root_.tiles) {
      const int n = root_.type_of(pt).nfeat;
      for (int local = 0; local < n; ++local) {
        const FeatureInfo fi = feature_info(root_, pt.seg0 + local);
        if (fi.closed || std::find(seen.begin(), seen.end(), fi.root) != seen.end()) continue;
        seen.push_back(fi.root);
        FeatureOwnership f;
        f.root = fi.root;
        f.ftype = fi.ftype;
        f.tiles = fi.tiles;
        f.x = pt.x;
        f.y = pt.y;
        f.local = local;
        f.pieces = fi.pieces;
        owned_.push_back(f);
      }
    }
    std::stable_sort(owned_.begin(), owned_.end(),
                     [](const FeatureOwnership& a, const FeatureOwnership& b) { return a.tiles > b.tiles; });
    if (owned_.size() > 64) owned_.resize(64);
    events_.reserve(256);
  }
  [[nodiscard]] const std::vector<FeatureOwnership>& owned() const { return owned_; }
  [[nodiscard]] long owned_playouts() const { return owned_n_; }

  struct RootSum {
    double margin = 0, win = 0, sq = 0;  // sums of the margins, wins and squared margins
    long n = 0;
  };
  // tile placements below the root's turn expanded with the prior (SearchVisits::deep_priors)
  [[nodiscard]] long deep_priors() const { return deep_priors_; }
  // the most outcomes any chance node of the tree has (SearchVisits::widest_chance)
  [[nodiscard]] int widest_chance() const {
    int most = 0;
    for (const Node& nd : nodes_) {
      if (!nd.chance) continue;
      int kids = 0;
      for (u32 c = nd.first; c; c = nodes_[c].next) ++kids;
      most = std::max(most, kids);
    }
    return most;
  }

  // root children: move, real visits and sums
  void root_sums(std::vector<std::pair<Move, RootSum>>& out) const {
    for (u32 c = nodes_[0].first; c; c = nodes_[c].next) {
      const auto it = root_sums_.find(c);
      out.emplace_back(nodes_[c].move, it == root_sums_.end() ? RootSum{} : it->second);
    }
  }

  // The children of the root's child `m` when that child is a decision node (the rest of the
  // same turn, e.g. the piece after the tile): move and visits.
  void follow_stats(const Move& m, std::vector<std::pair<Move, u32>>& out) const {
    for (u32 c = nodes_[0].first; c; c = nodes_[c].next)
      if (nodes_[c].move == m) {
        if (nodes_[c].expanded && !nodes_[c].chance) child_stats(c, out);
        return;
      }
  }

 private:
  // Lists a node's children best first by a prior: the greedy evaluation near the root and for
  // small decisions, the cheap piece heuristic for other piece decisions, a random order for
  // tile placements deep in the tree.
  void expand(u32 node, const State& s, int depth) {
    legal_moves(s, ml_);
    const std::size_t n = ml_.size();
    order_.clear();
    bool evaluated = false;
    int me = 0;
    for (std::size_t i = n; i > 1; --i) std::swap(ml_[i - 1], ml_[rng_.below(static_cast<u32>(i))]);
    if (n > 1 && (depth <= prior_depth_ || (s.phase != Phase::Place && n <= 16))) {
      me = to_move(s);
      evaluated = true;  // weighed below by the prior's virtual playouts (none at 0)
      prior_.resize(n);
      TwinMemo memo;  // moves the evaluation cannot tell apart are judged once (eval_twin)
      const bool cheap = prior_cheap_ != 0 && depth > 1 && s.phase == Phase::Place;
      if (depth > 1 && s.phase == Phase::Place) ++deep_priors_;
      for (std::size_t i = 0; i < n; ++i) {
        const u32 key = eval_twin(s, ml_[i]);
        if (memo.get(key, prior_[i])) continue;
        State t = s;
        apply_move(t, ml_[i]);
        prior_[i] = cheap ? position_eval(t, me, value_prior_, race_) : greedy_continuation(t, me, value_prior_, race_);
        memo.put(key, prior_[i]);
      }
      sort_by_prior(n);
    } else if (n > 1 && s.phase == Phase::Piece) {
      prior_.resize(n);
      for (std::size_t i = 0; i < n; ++i) prior_[i] = quick_value(s, ml_[i], o_.econ, gains_);
      sort_by_prior(n);
    }
    u32 prev = 0;
    const int pn = s.phase == Phase::Piece && o_.piece_prior >= 0 ? o_.piece_prior : prior_n_;
    for (std::size_t i = 0; i < n; ++i) {
      const Move& m = order_.empty() ? ml_[i] : ml_[order_[i]];
      const u32 id = static_cast<u32>(nodes_.size());
      nodes_.emplace_back();
      nodes_.back().move = m;
      if (evaluated && pn > 0) {
        // the greedy evaluation as pn virtual playouts: few real playouts cannot undo it by
        // chance, many can
        Node& ch = nodes_.back();
        ch.visits = static_cast<u32>(pn);
        ch.virt = static_cast<u16>(pn);
        const double v = prior_[order_.empty() ? i : order_[i]];
        for (std::size_t p = 0; p < kMaxPlayers; ++p) ch.sum[p] = static_cast<float>(pn * 0.5);
        ch.sum[static_cast<std::size_t>(me)] = static_cast<float>(pn * (0.5 + 0.5 * std::tanh(v / o_.scale)));
      }
      if (prev) nodes_[prev].next = id;
      else nodes_[node].first = id;
      prev = id;
    }
    nodes_[node].expanded = true;
  }

  void sort_by_prior(std::size_t n) {
    order_.resize(n);
    for (std::size_t i = 0; i < n; ++i) order_[i] = static_cast<u32>(i);
    std::stable_sort(order_.begin(), order_.end(), [&](u32 a, u32 b) { return prior_[a] > prior_[b]; });
  }

  void child_stats(u32 node, std::vector<std::pair<Move, u32>>& out) const {
    for (u32 c = nodes_[node].first; c; c = nodes_[c].next)
      out.emplace_back(nodes_[c].move, nodes_[c].visits - nodes_[c].virt);
  }

  u32 child_for(u32 node, const Move& key) {
    for (u32 c = nodes_[node].first; c; c = nodes_[c].next)
      if (nodes_[c].move.kind == key.kind && nodes_[c].move.feat == key.feat) return c;
    const u32 id = static_cast<u32>(nodes_.size());
    nodes_.emplace_back();
    nodes_.back().move = key;
    nodes_.back().next = nodes_[node].first;
    nodes_[node].first = id;
    nodes_[node].expanded = true;
    return id;
  }

  // The forced move while it has less than its share of the root's real visits, else as select.
  u32 select_root_forced(int player) {
    long real = 0;
    u32 forced = 0;
    for (u32 c = nodes_[0].first; c; c = nodes_[c].next) {
      real += nodes_[c].visits - nodes_[c].virt;
      if (nodes_[c].move == force_) forced = c;
    }
    if (forced &&
        static_cast<double>(nodes_[forced].visits - nodes_[forced].virt) < force_share_ * static_cast<double>(real + 1))
      return forced;
    return select(0, player);
  }

  EventSink* sink() { return owning_ ? &events_ : nullptr; }

  // After a playout: each root feature's points by seat in it (sums; shares count playouts).
  void own(const State& s) {
    ++owned_n_;
    for (FeatureOwnership& f : owned_) {
      const FeatureInfo now = feature_info(s, f.root);
      std::array<int, kMaxPlayers> pts{};
      bool scored = false;
      for (const ScoreEvent& e : events_)
        if (e.feature == now.root &&
            (e.reason == ScoreReason::Completed || e.reason == ScoreReason::Final || e.reason == ScoreReason::Farm)) {
          pts[e.player] += e.points;
          scored = true;
        }
      if (!scored && !now.closed && s.phase != Phase::Over) {
        // cut at the horizon: what the majority would get at the end as it stands
        int most = 0;
        for (int p = 0; p < s.nplayers; ++p) most = std::max(most, now.pieces[static_cast<std::size_t>(p)]);
        const int v = most > 0 ? feature_value(s, now, false) : 0;
        for (int p = 0; p < s.nplayers && v > 0; ++p)
          if (now.pieces[static_cast<std::size_t>(p)] == most) pts[static_cast<std::size_t>(p)] += v;
      }
      for (int p = 0; p < s.nplayers; ++p) {
        const auto i = static_cast<std::size_t>(p);
        if (pts[i] > 0) f.share[i] += 1;
        f.points[i] += pts[i];
      }
    }
  }

  u32 select(u32 node, int player) {
    const Node& nd = nodes_[node];
    const double logn = std::log(static_cast<double>(std::max<u32>(nd.visits, 1)));
    const double width = kWiden0 + o_.pw * std::sqrt(static_cast<double>(nd.visits));
    double best = -1e18;
    u32 pick = nd.first;
    int k = 0;
    for (u32 c = nd.first; c && k < width; c = nodes_[c].next, ++k) {
      const Node& ch = nodes_[c];
      if (ch.visits == 0) return c;
      const double n = ch.visits;
      const double v = static_cast<double>(ch.sum[static_cast<std::size_t>(player)]) / n + o_.c * std::sqrt(logn / n);
      if (v > best) {
        best = v;
        pick = c;
      }
    }
    return pick;
  }

  const State& root_;
  MctsOptions o_;
  int value_mode_;  // 0 the greedy evaluation, 1 the fitted value at the horizon, 2 also in the prior,
                    // 3 in the prior only (the greedy evaluation at the horizon)
  int horizon_;
  double race_;  // the greedy evaluation values the track by race_ times Hooks::track_worth (MctsOptions::race)
  int prior_n_;
  Rng rng_;
  std::vector<Node> nodes_;
  std::vector<u32> path_;
  MoveList ml_;
  std::vector<double> prior_;
  std::vector<u32> order_;
  u32 pinned_ = 0;  // halving: the root child every iteration goes through (0: none)
  // common random numbers (o.crn): the chance events of an iteration through root option c, its
  // n-th, draw from generators seeded by (n, the event's number in the iteration), the same for
  // every option; the tree's own generator keeps the decisions' randomness
  u64 crn_base_;
  u64 crn_iter_ = 0;
  u32 crn_event_ = 0;
  Rng crn_rng_;
  Rng seer_rng_;  // clairvoyant (o.future): the iteration's copy of the game's generator
  // analysis only
  bool analyzing_ = false, forcing_ = false;
  int root_player_ = 0;
  Move force_;
  double force_share_ = 0;
  std::array<double, kMaxPlayers> margins_{};
  std::map<u32, RootSum> root_sums_;
  double chance_widen_ = 0;  // chance nodes: at most 1 + this * sqrt(visits) outcomes (0: every outcome drawn)
  double gains_ = 1;         // playouts: the options' gains (MctsOptions::gains)
  const std::vector<double>* value_w_ = nullptr;      // the fitted value's weights (o.value), or none
  const std::vector<double>* value_prior_ = nullptr;  // the same for the prior (o.value 2)
  int prior_depth_ = 1;                               // o.prior_depth, or the game's
  int prior_cheap_ = 1, prior_lazy_ = 1;              // o.prior_cheap and o.prior_lazy, or the game's
  long deep_priors_ = 0;                              // tile placements below the root's turn expanded with the prior
  bool owning_ = false;
  EventSink events_;
  std::vector<FeatureOwnership> owned_;
  long owned_n_ = 0;
};

// What identifies a position within a turn well enough to reuse a search's answer for the rest
// of that turn (the same bot saw the position one decision earlier).
struct Fingerprint {
  int turn = -1;
  Phase phase = Phase::Over;
  u8 who = 0;
  std::size_t tiles = 0, pieces = 0;
  std::array<i16, kMaxPlayers> score{};
  bool operator==(const Fingerprint&) const = default;
};

Fingerprint fingerprint(const State& s) {
  Fingerprint f;
  f.turn = s.turn;
  f.phase = s.phase;
  f.who = static_cast<u8>(to_move(s));
  f.tiles = s.tiles.size();
  f.pieces = s.pieces.size();
  for (std::size_t p = 0; p < kMaxPlayers; ++p) f.score[p] = static_cast<i16>(s.score[p]);
  return f;
}

// Visits per legal move, summed over the trees' lists.
std::vector<u32> summed_visits(const MoveList& legal, const std::vector<std::vector<std::pair<Move, u32>>>& stats) {
  std::vector<u32> visits(legal.size(), 0);
  for (const auto& st : stats)
    for (const auto& [m, v] : st)
      for (std::size_t i = 0; i < legal.size(); ++i)
        if (legal[i] == m) {
          visits[i] += v;
          break;
        }
  return visits;
}

// The index of the most visited move (ties: list order) and its visits.
std::pair<std::size_t, u32> most_visited(const std::vector<u32>& visits) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < visits.size(); ++i)
    if (visits[i] > visits[best]) best = i;
  return {best, visits[best]};
}

std::pair<std::size_t, u32> most_visited(const MoveList& legal, const std::vector<std::vector<std::pair<Move, u32>>>& stats) {
  return most_visited(summed_visits(legal, stats));
}

// The search from s over o.threads root-parallel trees, seeded from base: per tree, the root's
// visits per move (stats); the trees are kept for what they saw beyond the root.
std::vector<std::unique_ptr<Tree>> run_search(const State& s, const MctsOptions& o, u64 base,
                                              std::vector<std::vector<std::pair<Move, u32>>>& stats,
                                              const std::function<void(Tree&)>& setup = {}) {
  const int threads = std::max(1, o.threads);
  std::vector<std::unique_ptr<Tree>> trees(static_cast<std::size_t>(threads));
  stats.assign(static_cast<std::size_t>(threads), {});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(o.ms);
  auto work = [&](int t) {
    auto& tree = trees[static_cast<std::size_t>(t)];
    tree = std::make_unique<Tree>(s, o, base + static_cast<u64>(t) * 0x9E3779B97F4A7C15ULL);
    if (setup) setup(*tree);
    if (o.playouts > 0) {
      const int n = o.playouts / threads + (t < o.playouts % threads ? 1 : 0);
      if (o.halving > 1)
        tree->halving(n, o.halving, o.halving_q != 0);
      else  // the stop is looked at every 16 playouts (unset, it is two comparisons)
        for (int i = 0; i < n && ((i & 15) != 0 || !o.stop.due()); ++i) tree->iterate();
    } else {
      do {
        for (int i = 0; i < 16; ++i) tree->iterate();
      } while (std::chrono::steady_clock::now() < deadline && !o.stop.due());
    }
    tree->root_stats(stats[static_cast<std::size_t>(t)]);
  };
  if (threads == 1) {
    work(0);
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(work, t);
    for (auto& th : pool) th.join();
  }
  return trees;
}

class MctsBot final : public Bot {
 public:
  explicit MctsBot(const MctsOptions& o) : o_(o) {}
  void set_stop(const SearchStop& stop) override { o_.stop = stop; }
  void foresee(const Rng* generator) override {
    if (o_.seer) o_.future = generator ? std::optional<Rng>(*generator) : std::nullopt;
  }

  Move choose(const State& s, const MoveList& legal, Rng& rng) override {
    if (legal.size() == 1) {
      last_ = {"the only legal move", 1.0, 0, 0};
      return legal[0];
    }
    if (o_.slip > 0 && rng.uniform() < o_.slip) {
      follow_ = false;
      last_ = {fmt::format("a slip: one of {} moves at random, unsearched", legal.size()), 0.0, 0, 0};
      return legal[rng.below(static_cast<u32>(legal.size()))];
    }
    // the rest of a turn already searched (the piece after the tile): answer from that search
    // when it looked at this decision enough
    if (follow_ && fingerprint(s) == follow_fp_) {
      follow_ = false;
      const auto [i, v] = most_visited(legal, {follow_stats_});
      if (v >= follow_min_) {
        last_ = {fmt::format("the rest of the turn searched with the last move: {} visits", v), 0.0, static_cast<long>(v), 0};
        return legal[i];
      }
    }
    follow_ = false;
    std::vector<std::vector<std::pair<Move, u32>>> stats;
    const auto trees = run_search(s, o_, rng.next(), stats);
    const auto [bi, bv] = most_visited(legal, stats);
    const Move best = legal[bi];
    long total = 0;
    for (const auto& st : stats)
      for (const auto& [mv, n] : st) total += n;
    last_ = {fmt::format("most visited of {} moves: {} of {} root visits", legal.size(), bv, total), total > 0 ? static_cast<double>(bv) / static_cast<double>(total) : 0.0,
             static_cast<long>(bv), total};
    // keep what the trees saw of the same player's next decision after `best`
    State t = s;
    apply_move(t, best);
    if (!is_chance(t) && t.phase != Phase::Over && to_move(t) == to_move(s)) {
      follow_stats_.clear();
      for (const auto& tree : trees) tree->follow_stats(best, follow_stats_);
      follow_fp_ = fingerprint(t);
      follow_min_ = o_.playouts > 0 ? std::max<u32>(4, static_cast<u32>(o_.playouts * o_.follow)) : kFollowVisits;
      follow_ = !follow_stats_.empty();
    }
    return best;
  }

  [[nodiscard]] BotReport report() const override { return last_; }
  [[nodiscard]] std::string spec() const override {
    std::string out = "mcts:";
    out += o_.playouts > 0 ? fmt::format("playouts={}", o_.playouts) : fmt::format("ms={}", o_.ms);
    out += fmt::format(",threads={}", o_.threads);
    const MctsOptions d;
    if (o_.prior != d.prior) out += fmt::format(",prior={}", o_.prior);
    if (o_.horizon != d.horizon) out += fmt::format(",horizon={}", o_.horizon);
    if (o_.c != d.c) out += fmt::format(",c={}", o_.c);
    if (o_.eps != d.eps) out += fmt::format(",eps={}", o_.eps);
    if (o_.widen != d.widen) out += fmt::format(",widen={}", o_.widen);
    if (o_.scale != d.scale) out += fmt::format(",scale={}", o_.scale);
    if (o_.econ != d.econ) out += fmt::format(",econ={}", o_.econ);
    if (o_.informed != d.informed) out += fmt::format(",informed={}", o_.informed);
    if (o_.gains != d.gains) out += fmt::format(",gains={}", o_.gains);
    if (o_.piece_prior != d.piece_prior) out += fmt::format(",pprior={}", o_.piece_prior);
    if (o_.prior_depth != d.prior_depth) out += fmt::format(",pdepth={}", o_.prior_depth);
    if (o_.prior_cheap != d.prior_cheap) out += fmt::format(",pcheap={}", o_.prior_cheap);
    if (o_.prior_lazy != d.prior_lazy) out += fmt::format(",plazy={}", o_.prior_lazy);
    if (o_.follow != d.follow) out += fmt::format(",follow={}", o_.follow);
    if (o_.pw != d.pw) out += fmt::format(",pw={}", o_.pw);
    if (o_.halving != d.halving) out += fmt::format(",halving={}", o_.halving);
    if (o_.halving_q != d.halving_q) out += fmt::format(",hq={}", o_.halving_q);
    if (o_.crn != d.crn) out += fmt::format(",crn={}", o_.crn);
    if (o_.seer != d.seer) out += fmt::format(",seer={}", o_.seer);
    if (o_.race != d.race) out += fmt::format(",race={}", o_.race);
    if (o_.value != d.value) out += fmt::format(",value={}", o_.value);
    if (o_.slip != d.slip) out += fmt::format(",slip={}", o_.slip);
    if (!o_.weights_file.empty()) out += fmt::format(",weights={}", o_.weights_file);
    return out;
  }

 private:
  static constexpr u32 kFollowVisits = 200;
  MctsOptions o_;
  bool follow_ = false;
  u32 follow_min_ = kFollowVisits;
  BotReport last_;
  Fingerprint follow_fp_;
  std::vector<std::pair<Move, u32>> follow_stats_;
};

}  // namespace

MctsOptions parse_mcts_spec(std::string_view spec) {
  MctsOptions o;
  if (spec == "mcts") return o;
  if (spec.substr(0, 5) != "mcts:") throw InputError(fmt::format("\"{}\" is not an mcts bot spec", spec));
  std::string_view rest = spec.substr(5);
  bool playouts_set = false;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos) throw InputError(fmt::format("mcts option \"{}\": expected name=value", item));
    const std::string name(item.substr(0, eq)), val(item.substr(eq + 1));
    if (name == "weights") {
      o.weights_file = val;
      o.weights = std::make_shared<const std::vector<double>>(load_value_weights(val));
      continue;
    }
    double v = 0;
    if (!parse_double(val, v)) throw InputError(fmt::format("mcts option {}: \"{}\" is not a number", name, val));
    auto whole = [&](double lo, double hi) {
      if (v != std::floor(v) || v < lo || v > hi) throw InputError(fmt::format("mcts option {}: {} is not a whole number in {}..{}", name, val, lo, hi));
      return static_cast<int>(v);
    };
    // a number in lo..hi (NaN is in no range)
    auto real = [&](double lo, double hi) {
      if (!(v >= lo && v <= hi))
        throw InputError(fmt::format("mcts option {}: {} is not in {}..{}", name, val, lo, hi));
      return v;
    };
    if (name == "playouts") {
      o.playouts = whole(1, kMctsMaxPlayouts);
      playouts_set = true;
    } else if (name == "ms") {
      o.ms = whole(1, kMctsMaxMs);
    } else if (name == "threads") {
      o.threads = whole(1, kMctsMaxThreads);
    } else if (name == "c") {
      o.c = real(0, 10);
    } else if (name == "prior") {
      o.prior = whole(0, 60000);
    } else if (name == "horizon") {
      o.horizon = whole(0, 100000);
    } else if (name == "eps") {
      o.eps = real(0, 1);
    } else if (name == "widen") {
      o.widen = real(0, 100);
    } else if (name == "pw") {
      o.pw = real(0, 100);
    } else if (name == "follow") {
      o.follow = real(0, 2);
    } else if (name == "pprior") {
      o.piece_prior = whole(0, 60000);
    } else if (name == "pdepth") {
      o.prior_depth = whole(0, 1000);
    } else if (name == "pcheap") {
      o.prior_cheap = whole(0, 1);
    } else if (name == "plazy") {
      o.prior_lazy = whole(0, 1);
    } else if (name == "informed") {
      o.informed = whole(1, 64);
    } else if (name == "gains") {
      o.gains = real(0, 100);
    } else if (name == "econ") {
      o.econ = real(0, 100);
    } else if (name == "value") {
      o.value = whole(0, 3);
    } else if (name == "halving") {
      o.halving = whole(0, 4096);
    } else if (name == "hq") {
      o.halving_q = whole(0, 1);
    } else if (name == "crn") {
      o.crn = whole(0, 1);
    } else if (name == "seer") {
      o.seer = whole(0, 1);
    } else if (name == "race") {
      o.race = real(0, 10);
    } else if (name == "slip") {
      o.slip = real(0, 1);
    } else if (name == "scale") {
      o.scale = real(1, 1000);
    } else {
      throw InputError(
          fmt::format("mcts option \"{}\" is unknown (playouts, ms, threads, c, eps, horizon, prior, widen, scale, "
                      "econ, informed, gains, pprior, pdepth, pcheap, plazy, follow, pw, value, halving, hq, crn, "
                      "seer, race, slip, weights)",
                      name));
    }
  }
  if (!playouts_set) o.playouts = 0;
  return o;
}

std::unique_ptr<Bot> make_mcts_bot(const MctsOptions& o) { return std::make_unique<MctsBot>(o); }

SearchVisits mcts_search(const State& s, const MctsOptions& o, u64 seed) {
  if (is_chance(s) || s.phase == Phase::Over) throw InputError("mcts: the position is not a decision");
  MoveList legal;
  legal_moves(s, legal);
  std::vector<std::vector<std::pair<Move, u32>>> stats;
  Rng rng(seed);
  const auto trees = run_search(s, o, rng.next(), stats);  // as the bot seeds its trees
  SearchVisits out;
  for (const auto& t : trees) {
    out.deep_priors += t->deep_priors();
    out.widest_chance = std::max(out.widest_chance, t->widest_chance());
  }
  const std::vector<u32> visits = summed_visits(legal, stats);
  for (std::size_t i = 0; i < legal.size(); ++i) out.visits.emplace_back(legal[i], visits[i]);
  out.best = legal[most_visited(visits).first];
  return out;
}

double win_probability(const GameDef& g, int players, double margin) {
  double s = 0;
  for (int d = 0; d <= kMaxPlayers && s <= 0; ++d)
    for (const int n : {players - d, players + d})
      if (n >= 0 && n <= kMaxPlayers && s <= 0) s = g.win_scale[static_cast<std::size_t>(n)];
  if (s <= 0) s = 8;
  return 1 / (1 + std::exp(-std::clamp(margin / s, -60.0, 60.0)));
}

Analysis mcts_analyze(const State& s, const MctsOptions& o, u64 seed, const Move* force, double force_share,
                      bool ownership) {
  if (is_chance(s) || s.phase == Phase::Over) throw InputError("analysis: the position is not a decision");
  MoveList legal;
  legal_moves(s, legal);
  if (force && std::find(legal.begin(), legal.end(), *force) == legal.end())
    throw InputError("analysis: the forced move is not legal here");
  if (!(force_share >= 0 && force_share <= 1)) throw InputError("analysis: the forced share is not in 0..1");
  std::vector<std::vector<std::pair<Move, u32>>> stats;
  Rng rng(seed);
  // analysis measures with every draw its own (widen 0) unless told: the win probability's
  // calibration and the review's scale were fitted on that search's margins
  MctsOptions ao = o;
  if (ao.widen < 0) ao.widen = 0;
  if (ao.value < 0) ao.value = 0;              // the same for the fitted value: the greedy evaluation
  if (ao.prior_depth < 0) ao.prior_depth = 1;  // and for the prior's depth
  if (ao.gains < 0) ao.gains = 0;              // and for the playouts' gains
  if (ao.race < 0) ao.race = 0;                // and for the track's worth
  const auto trees = run_search(s, ao, rng.next(), stats, [&](Tree& t) {
    t.analyze(force, force_share);
    if (ownership) t.own_features();
  });
  Analysis out;
  out.player = to_move(s);
  std::vector<Tree::RootSum> sums(legal.size());
  for (const auto& tree : trees) {
    std::vector<std::pair<Move, Tree::RootSum>> rs;
    tree->root_sums(rs);
    for (const auto& [m, x] : rs)
      for (std::size_t i = 0; i < legal.size(); ++i)
        if (legal[i] == m) {
          sums[i].margin += x.margin;
          sums[i].sq += x.sq;
          sums[i].win += x.win;
          sums[i].n += x.n;
          break;
        }
  }
  for (std::size_t i = 0; i < legal.size(); ++i) {
    OptionStats st;
    st.move = legal[i];
    st.visits = sums[i].n;
    if (sums[i].n > 0) {
      st.margin = sums[i].margin / static_cast<double>(sums[i].n);
      st.win = sums[i].win / static_cast<double>(sums[i].n);
      if (sums[i].n > 1) {  // the mean's standard error from the playouts' spread
        const double n = static_cast<double>(sums[i].n);
        const double var = std::max(0.0, (sums[i].sq - sums[i].margin * sums[i].margin / n) / (n - 1));
        st.margin_se = std::sqrt(var / n);
      }
    }
    st.win_prob = win_probability(*s.rs->game, s.nplayers, st.margin);
    out.playouts += sums[i].n;
    out.options.push_back(st);
  }
  std::stable_sort(out.options.begin(), out.options.end(),
                   [](const OptionStats& a, const OptionStats& b) { return a.visits > b.visits; });
  if (ownership && !trees.empty()) {
    out.ownership = trees.front()->owned();
    long n = trees.front()->owned_playouts();
    for (std::size_t t = 1; t < trees.size(); ++t) {
      n += trees[t]->owned_playouts();
      for (std::size_t k = 0; k < out.ownership.size(); ++k)
        for (std::size_t p = 0; p < kMaxPlayers; ++p) {
          out.ownership[k].share[p] += trees[t]->owned()[k].share[p];
          out.ownership[k].points[p] += trees[t]->owned()[k].points[p];
        }
    }
    for (FeatureOwnership& f : out.ownership)
      for (std::size_t p = 0; p < kMaxPlayers; ++p) {
        f.share[p] = n > 0 ? f.share[p] / static_cast<double>(n) : 0.0;
        f.points[p] = n > 0 ? f.points[p] / static_cast<double>(n) : 0.0;
      }
  }
  return out;
}

int mcts_playout(State& s, Rng& rng) {
  MoveList ml;
  int n = 0;
  while (s.phase != Phase::Over) {
    if (is_chance(s)) {
      chance_step(s, rng);
      continue;
    }
    mcts_playout_move(s, rng, ml);
    ++n;
  }
  return n;
}

void mcts_playout_move(State& s, Rng& rng, MoveList& ml) { apply_move(s, policy_move(s, rng, ml, MctsOptions{}.eps)); }

}  // namespace carc
