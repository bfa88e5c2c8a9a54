// ai/mcts: Monte Carlo tree search over the engine's decision and chance nodes (docs/mcts.md).
//
// The State holds only what a player may know about chance (tiles and tokens left, as counts; never
// an order), so the search cannot peek at the real pile: every iteration samples each draw from
// what remains. Chance nodes keep one child per outcome met (sampled with its true probability);
// decision nodes one child per legal move, listed best first by the greedy evaluation where that
// is affordable (which also seeds them with virtual playouts), widened progressively, chosen by
// UCB1 on the deciding player's own mean reward (max^n for several players). Reward per player:
// 0.5 + 0.5 tanh((own score - best other) / 20) at the end of a playout (or of the greedy
// evaluation when the playout is cut at the horizon). Root parallel: each thread grows its own
// tree; visits are summed.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ai/bots.hpp"

namespace carc {

struct MctsOptions {
  int playouts = 0;   // iterations per move (all threads together); 0: use the time budget
  int ms = 1000;      // time per move when playouts is 0
  int threads = 2;    // root-parallel trees
  double c = 0.6;     // UCB exploration constant (rewards in [0, 1])
  double eps = 0.2;   // playout policy: probability of a uniformly random piece decision
  double scale = 20;  // points of score difference that make tanh(1)
  double econ = 0;    // playouts: a follower kept is worth this much more, times the share of the pile left
  int piece_prior = -1;  // the prior's virtual playouts at piece decisions; -1: as prior
  int informed = 1;      // playouts: a placement is the best of this many sampled (placement_score)
  double gains = -1;     // playouts: a piece decision's option is worth this times what the game
                         // says it gains at once beyond its feature (Hooks::option_gain) more; 0:
                         // nothing; -1: 1 (0 in mcts_analyze, whose calibrations were fitted without)
  int prior_depth = -1;  // nodes this many decisions from the root or nearer are expanded with the
                         // prior (0: the root only; 1: the root and the rest of its turn); -1: the
                         // game's default (GameDef::prior_depth_for; 1 in mcts_analyze)
  int prior_cheap = -1;  // 1: tile placements deeper than 1 (down to prior_depth) are judged by the
                         // position after the tile alone; 0: by the rest of the turn played greedily,
                         // as at the root; -1: the game's default (0 where GameDef::prior_full_for,
                         // else 1)
  int prior_lazy = -1;   // 1: those deeper placements are expanded on their second visit (the first
                         // plays out from the node); 0: on the first, as every other node; -1: as
                         // prior_cheap
  double pw = 1;         // progressive widening: a decision node visited n times considers 3 + pw * sqrt(n) children
  double follow = 0.1;   // with a playout budget: the next decision of the turn is answered from this
                         // search when it got this share of the budget (above 1: never)
  double slip = 0;       // the bot plays a legal move at random, unsearched, at this share of its
                         // decisions that have a choice (a level's weakness: ai/bot_limits.hpp)
  int value = -1;        // a playout cut at the horizon is judged by: 0 the greedy evaluation, 1 the
                         // game's fitted value (ai/value.hpp; the greedy evaluation where none is
                         // fitted), cut at GameDef::search_value_horizon unless horizon is set; 2 the
                         // fitted value, which also orders and seeds the tree (prior); 3 the fitted
                         // value in the prior only, the greedy evaluation (and horizon) at the
                         // horizon; -1: the game's default for the player count
                         // (GameDef::search_value_for; 0 where it has no fitted weights and in
                         // mcts_analyze)
  int prior = -1;        // virtual playouts at the greedy evaluation for children expanded with it;
                         // -1: the game's default (30; Amazonas 100, or with race 1000; with the
                         // fitted value in the prior, GameDef::search_value_prior where set: base 300)
  int horizon = -1;   // playout decisions before the greedy evaluation ends a playout; 0: to the
                      // end; -1: the game's default (kDefaultHorizon)
  // the fitted value's weights in place of the game's (weights=FILE: a file `fit-value --save`
  // wrote, for trying a fit without rebuilding); kept as the path and the numbers
  std::string weights_file;
  std::shared_ptr<const std::vector<double>> weights;
  // Sequential halving at the root (docs/mcts.md, "Options" and "The root's allocation and
  // exploration with the fitted value"): with a
  // playout budget, the root's `halving` best options by the prior share the playouts in rounds,
  // the better half by mean reward kept after each; 0: UCB at the root as below it
  int halving = 0;
  int halving_q = 0;  // 1: the rounds rank options by their real playouts only (the prior left out)
  // Common random numbers (docs/mcts.md, "Options"): 1: the n-th playout through each root option
  // draws its tiles (and other chance outcomes) from the same random numbers, so the options are
  // compared on the same luck; 0: every draw from the tree's one generator
  int crn = 0;
  // Clairvoyance (docs/mcts.md, "Strength": the ceiling): 1: every chance event of every
  // iteration comes from `future`, the game's own generator as the bot was told it
  // (Bot::foresee), so the search sees the true order of the draws (not a fair player: a
  // measure of what any fair search could reach); without a future it searches as with 0
  int seer = 0;
  std::optional<Rng> future;  // not part of a spec: set by MctsBot::foresee when seer is 1
  double race = -1;           // > 0: the search's greedy evaluation values a per-player track by the game's
                              // Hooks::track_worth (Amazonas' boat race), times this, instead of 0.6 a
                              // space; 0: not; -1: the game's default (GameDef::search_race; 0 in mcts_analyze)
  SearchStop stop;            // ends the search early (playouts then counts fewer); not part of a spec
  double widen = -1;          // chance nodes: at most 1 + widen * sqrt(visits) outcomes; 0: every draw its
                              // own; -1: the game's default (GameDef::search_widen; 0 in mcts_analyze)
};

// "mcts", "mcts:playouts=2000", "mcts:ms=500,threads=1". Throws InputError on a bad option.
MctsOptions parse_mcts_spec(std::string_view spec);
std::unique_ptr<Bot> make_mcts_bot(const MctsOptions& o);

// One search from the decision s as the mcts bot makes it, seeded: every legal move with its root
// visits (summed over the trees) and the most visited (ties: the engine's order). Throws InputError
// if s is not a decision.
struct SearchVisits {
  std::vector<std::pair<Move, long>> visits;
  Move best;
  long deep_priors = 0;   // tile placements below the root's turn that the trees expanded with the prior
  int widest_chance = 0;  // the most outcomes a chance node of the trees has (clairvoyant: 1)
};
SearchVisits mcts_search(const State& s, const MctsOptions& o, u64 seed);

// Analysis (docs/mcts.md, "Analysis"): the search's statistics per root option, from the view of
// the player to move: real visits (the prior's virtual ones left out), the expected final margin
// (own score minus the best other's at the end of each playout through the option, or the greedy
// evaluation's margin where the playout was cut at the horizon) and the win share (playouts with
// a positive margin, half for a tie). `force`: a move (the one played, in a review) given at least
// `force_share` of the root's playouts, so that its value is measured and not guessed. Options
// best first: most visits, then the engine's order. Deterministic for a seed with threads=1.
struct OptionStats {
  Move move;
  long visits = 0;
  double margin = 0;     // mean, in points (0 when not visited)
  double margin_se = 0;  // the mean's standard error (0 with fewer than 2 playouts)
  double win = 0;        // share in [0, 1]
  double win_prob = 0;   // the margin's calibrated win probability (win_probability)
};
// The calibrated probability that a player expecting a final margin of `margin` points wins a game
// of `g` with `players` players (GameDef::win_scale; 0.5 at a margin of 0).
double win_probability(const GameDef& g, int players, double margin);

// Ownership of an open feature of the root position: per seat, the share of playouts in which
// the seat scored it (completed, at the end, or as a field) and the mean points it scored from it
// (over all playouts). A playout cut at the horizon counts what the feature would pay its
// majority now at the end. Features: every open one (at most 64, largest first), each named by
// its first segment's tile and port.
struct FeatureOwnership {
  int root = 0;  // its union-find root (segment) at the root position
  int ftype = 0;
  int tiles = 0;
  int x = 0, y = 0;  // a tile of it
  int local = 0;     // its feature on that tile
  std::array<int, kMaxPlayers> pieces{};
  std::array<double, kMaxPlayers> share{}, points{};
};
struct Analysis {
  int player = 0;
  long playouts = 0;
  std::vector<OptionStats> options;
  std::vector<FeatureOwnership> ownership;  // with ownership=true
};
Analysis mcts_analyze(const State& s, const MctsOptions& o, u64 seed, const Move* force = nullptr,
                      double force_share = 0.25, bool ownership = false);

// One playout from s to the end with the playout policy (for benchmarks); returns decisions made.
int mcts_playout(State& s, Rng& rng);
// One decision of the playout policy at the decision s, applied (ml: scratch).
void mcts_playout_move(State& s, Rng& rng, MoveList& ml);

}  // namespace carc
