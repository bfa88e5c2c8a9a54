// rl/batched_mcts: AlphaZero's search (PUCT with a network's priors and values) over many games at
// once, so that a network is evaluated on batches (docs/python.md). Each simulation round descends
// one path in every game's tree to a leaf; the leaves' observations go to the evaluator together;
// their priors expand the leaves and their values are backed up. Chance nodes (tile draws, a
// game's own draws) sample their outcomes with the engine's samplers from what is left.
#pragma once
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "rl/encoding.hpp"

namespace carc::rl {

struct AzOptions {
  int simulations = 64;         // simulations per root
  double c_puct = 1.5;
  double dirichlet_alpha = 0.3;  // noise on the roots' priors (AlphaZero: 0.3 for chess)
  double noise = 0.25;           // its weight; 0: none
  u64 seed = 0;
};

// Fills, for n leaves: policy [n x num_actions] (non-negative weights, normalised here over the
// legal actions) and values [n x players] (column q: the value for the seat q places after the
// leaf's player to move, from -1 to 1 like the returns) from obs [n x observation_size].
using Evaluator = std::function<void(int n, const float* obs, float* policy, float* values)>;

class BatchedMcts {
 public:
  BatchedMcts(std::shared_ptr<const Encoding> enc, const AzOptions& o);
  // The encoding (game, players, window) of the states this search takes.
  [[nodiscard]] const std::shared_ptr<const Encoding>& encoding() const { return enc_; }
  // Searches from every root (each a decision); visits receives roots.size() x num_actions root
  // visit counts.
  void search(const std::vector<const State*>& roots, const Evaluator& eval, std::vector<float>& visits);
  [[nodiscard]] long long leaves_evaluated() const { return leaves_; }
  // After a search: roots x num_actions mean values of the root's actions for the root's player to
  // move (NaN for an action not visited or not legal); what Gumbel AlphaZero's improved policy
  // needs beside the visits.
  void root_q(std::vector<float>& q) const;
  [[nodiscard]] int num_actions() const { return enc_->num_actions(); }

 private:
  struct Edge {
    int action = 0;  // decision: the action; chance: the outcome
    Move move;
    float prior = 0;
    u32 child = 0;  // 0: not yet a node
    u32 n = 0;
    float w = 0;  // sum of the values, for the player deciding at the edge's node
  };
  struct Node {
    u32 first = 0, count = 0;  // edges [first, first + count)
    u32 n = 0;
    bool expanded = false;
    bool chance = false;
    u8 mover = 0;  // a decision node's player to move
  };
  struct Tree {
    std::vector<Node> nodes;
    std::vector<Edge> edges;
  };
  struct Pending {
    int root = 0;
    std::vector<std::pair<u32, u32>> path;  // (node, edge) taken
    u32 leaf = 0;
    State s;
    Encoding::Legal legal;
  };
  // Descends from the root of tree t; returns true if the leaf waits for an evaluation (p filled),
  // false if the simulation ended (a game's end, backed up already).
  bool descend(int t, const State& root, Pending& p);
  void expand(Tree& tr, u32 node, const Encoding::Legal& legal, const float* policy, bool root_noise);
  void backup(Tree& tr, const std::vector<std::pair<u32, u32>>& path, const std::array<float, kMaxPlayers>& value);

  std::shared_ptr<const Encoding> enc_;
  AzOptions o_;
  std::mt19937_64 gen_;
  Rng rng_;
  std::vector<Tree> trees_;
  long long leaves_ = 0;
};

}  // namespace carc::rl
