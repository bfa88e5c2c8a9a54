#include "rl/batched_mcts.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace carc::rl {


BatchedMcts::BatchedMcts(std::shared_ptr<const Encoding> enc, const AzOptions& o) : enc_(std::move(enc)), o_(o), gen_(o.seed), rng_(o.seed ^ 0xA5A5A5A5u) {
  if (o.simulations < 1 || o.simulations > 1000000) throw InputError(fmt::format("simulations {}: must be from 1 to 1000000", o.simulations));
  if (!(o.c_puct >= 0) || !(o.dirichlet_alpha > 0) || !(o.noise >= 0 && o.noise <= 1))
    throw InputError("c_puct must be >= 0, dirichlet_alpha > 0 and noise in 0..1");
}

bool BatchedMcts::descend(int t, const State& root, Pending& p) {
  Tree& tr = trees_[static_cast<std::size_t>(t)];
  p.root = t;
  p.s = root;
  p.path.clear();
  State& s = p.s;
  u32 node = 0;
  std::vector<std::pair<int, double>> odds;
  for (;;) {
    if (s.phase == Phase::Over) {
      ++tr.nodes[node].n;
      backup(tr, p.path, final_returns(s));
      return false;
    }
    if (is_chance(s)) {
      if (s.phase == Phase::Draw && s.pile == 0 && !s.extra) {
        end_if_pile_empty(s, nullptr);
        continue;
      }
      if (!tr.nodes[node].expanded) {
        chance_odds(s, odds);
        Node& nd = tr.nodes[node];
        nd.chance = true;
        nd.expanded = true;
        nd.first = static_cast<u32>(tr.edges.size());
        nd.count = static_cast<u32>(odds.size());
        for (const auto& [o, pr] : odds) {
          Edge e;
          e.action = o;
          e.prior = static_cast<float>(pr);
          tr.edges.push_back(e);
        }
      }
      const Hooks& hk = s.rs->game->hooks;
      const int o = s.phase == Phase::Chance ? hk.sample_chance(s, rng_) : sample_draw(s, rng_);
      const Node nd = tr.nodes[node];
      u32 ei = nd.first;
      while (ei < nd.first + nd.count && tr.edges[ei].action != o) ++ei;
      if (ei == nd.first + nd.count) throw std::logic_error("a sampled outcome the odds did not list");
      p.path.emplace_back(node, ei);
      if (s.phase == Phase::Chance) hk.apply_chance(s, o, nullptr);
      else apply_draw(s, o, nullptr);
      if (!tr.edges[ei].child) {
        tr.edges[ei].child = static_cast<u32>(tr.nodes.size());
        tr.nodes.emplace_back();
      }
      node = tr.edges[ei].child;
      continue;
    }
    if (!tr.nodes[node].expanded) {
      p.leaf = node;
      enc_->legal(s, p.legal);
      return true;
    }
    const Node nd = tr.nodes[node];
    const double sq = std::sqrt(static_cast<double>(std::max<u32>(1, nd.n)));
    u32 best = nd.first;
    double best_score = -1e300;
    for (u32 ei = nd.first; ei < nd.first + nd.count; ++ei) {
      const Edge& e = tr.edges[ei];
      const double q = e.n ? static_cast<double>(e.w) / e.n : 0.0;
      const double sc = q + o_.c_puct * e.prior * sq / (1.0 + e.n);
      if (sc > best_score) {
        best_score = sc;
        best = ei;
      }
    }
    p.path.emplace_back(node, best);
    apply_move(s, tr.edges[best].move, nullptr);
    if (!tr.edges[best].child) {
      tr.edges[best].child = static_cast<u32>(tr.nodes.size());
      tr.nodes.emplace_back();
    }
    node = tr.edges[best].child;
  }
}

void BatchedMcts::expand(Tree& tr, u32 node, const Encoding::Legal& legal, const float* policy, bool root_noise) {
  Node& nd = tr.nodes[node];
  nd.expanded = true;
  nd.first = static_cast<u32>(tr.edges.size());
  nd.count = static_cast<u32>(legal.moves.size());
  double sum = 0;
  for (std::size_t i = 0; i < legal.moves.size(); ++i) {
    const float w = policy[legal.actions[i]];
    sum += std::isfinite(w) && w > 0 ? w : 0.0;
  }
  for (std::size_t i = 0; i < legal.moves.size(); ++i) {
    Edge e;
    e.action = legal.actions[i];
    e.move = legal.moves[i];
    const float w = policy[legal.actions[i]];
    e.prior = sum > 0 ? static_cast<float>((std::isfinite(w) && w > 0 ? w : 0.0) / sum) : 1.0f / static_cast<float>(legal.moves.size());
    tr.edges.push_back(e);
  }
  if (root_noise && nd.count > 1) {
    std::gamma_distribution<double> g(o_.dirichlet_alpha, 1.0);
    std::vector<double> eta(nd.count);
    double t = 0;
    for (auto& x : eta) t += (x = g(gen_));
    for (u32 i = 0; i < nd.count; ++i) {
      Edge& e = tr.edges[nd.first + i];
      e.prior = static_cast<float>((1 - o_.noise) * e.prior + o_.noise * (t > 0 ? eta[i] / t : 1.0 / nd.count));
    }
  }
}

void BatchedMcts::backup(Tree& tr, const std::vector<std::pair<u32, u32>>& path, const std::array<float, kMaxPlayers>& value) {
  for (const auto& [node, edge] : path) {
    Node& nd = tr.nodes[node];
    ++nd.n;
    Edge& e = tr.edges[edge];
    ++e.n;
    if (!nd.chance) e.w += value[nd.mover];
  }
}

void BatchedMcts::search(const std::vector<const State*>& roots, const Evaluator& eval, std::vector<float>& visits) {
  const int n = static_cast<int>(roots.size());
  const int A = enc_->num_actions(), O = enc_->observation_size(), P = enc_->nplayers();
  for (const State* r : roots)
    if (is_chance(*r) || r->phase == Phase::Over) throw InputError("batched mcts: every root must be a decision");
  trees_.assign(static_cast<std::size_t>(n), Tree{});
  for (Tree& t : trees_) {
    t.nodes.reserve(static_cast<std::size_t>(o_.simulations) * 4 + 8);
    t.nodes.emplace_back();
  }
  std::vector<Pending> pend(static_cast<std::size_t>(n));
  std::vector<int> batch;
  std::vector<float> obs, policy, values;
  for (int sim = 0; sim < o_.simulations; ++sim) {
    batch.clear();
    for (int t = 0; t < n; ++t)
      if (descend(t, *roots[static_cast<std::size_t>(t)], pend[static_cast<std::size_t>(t)])) batch.push_back(t);
    if (batch.empty()) continue;
    const std::size_t k = batch.size();
    obs.resize(k * static_cast<std::size_t>(O));
    policy.assign(k * static_cast<std::size_t>(A), 0.0f);
    values.assign(k * static_cast<std::size_t>(P), 0.0f);
    for (std::size_t j = 0; j < k; ++j) {
      Pending& p = pend[static_cast<std::size_t>(batch[j])];
      enc_->observe(p.s, to_move(p.s), obs.data() + j * static_cast<std::size_t>(O), &p.legal);
    }
    eval(static_cast<int>(k), obs.data(), policy.data(), values.data());
    leaves_ += static_cast<long long>(k);
    for (std::size_t j = 0; j < k; ++j) {
      Pending& p = pend[static_cast<std::size_t>(batch[j])];
      Tree& tr = trees_[static_cast<std::size_t>(p.root)];
      const int mover = to_move(p.s);
      tr.nodes[p.leaf].mover = static_cast<u8>(mover);
      expand(tr, p.leaf, p.legal, policy.data() + j * static_cast<std::size_t>(A), p.leaf == 0 && o_.noise > 0);
      std::array<float, kMaxPlayers> v{};
      for (int q = 0; q < P; ++q) v[static_cast<std::size_t>((mover + q) % P)] = values[j * static_cast<std::size_t>(P) + static_cast<std::size_t>(q)];
      ++tr.nodes[p.leaf].n;
      backup(tr, p.path, v);
    }
  }
  visits.assign(static_cast<std::size_t>(n) * static_cast<std::size_t>(A), 0.0f);
  for (int t = 0; t < n; ++t) {
    const Tree& tr = trees_[static_cast<std::size_t>(t)];
    const Node& r = tr.nodes[0];
    for (u32 ei = r.first; ei < r.first + r.count; ++ei)
      visits[static_cast<std::size_t>(t) * static_cast<std::size_t>(A) + static_cast<std::size_t>(tr.edges[ei].action)] = static_cast<float>(tr.edges[ei].n);
  }
}

void BatchedMcts::root_q(std::vector<float>& q) const {
  const int A = enc_->num_actions();
  q.assign(trees_.size() * static_cast<std::size_t>(A), std::numeric_limits<float>::quiet_NaN());
  for (std::size_t t = 0; t < trees_.size(); ++t) {
    const Tree& tr = trees_[t];
    const Node& r = tr.nodes[0];
    for (u32 ei = r.first; ei < r.first + r.count; ++ei)
      if (tr.edges[ei].n) q[t * static_cast<std::size_t>(A) + static_cast<std::size_t>(tr.edges[ei].action)] = tr.edges[ei].w / static_cast<float>(tr.edges[ei].n);
  }
}

}  // namespace carc::rl
