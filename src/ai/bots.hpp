// ai: bots choose among the moves the engine lists. Specs: "random", "greedy".
#pragma once
#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rules/rules.hpp"

namespace carc {

// Why a bot chose its last move, for front ends and tools (the protocol's "bot" command).
struct BotReport {
  std::string summary;  // in words; "" when the bot has nothing to say (random)
  double value = 0;     // greedy: its evaluation of the move; mcts: the share of root visits it got
  long visits = 0;      // mcts: root visits of the chosen move, and of all moves
  long total_visits = 0;
};

// A search's early end, shared with whoever may end it: a flag another thread sets (the engine
// protocol's input closed, a server draining) and a deadline on the steady clock. The search
// checks it every 16 playouts and stops with what it has; an unset SearchStop never stops it.
struct SearchStop {
  const std::atomic<bool>* flag = nullptr;
  std::int64_t deadline_ns = 0;  // std::chrono::steady_clock's count in nanoseconds; 0: none
  [[nodiscard]] bool due() const;
  // A stop at `flag` or `ms` milliseconds from now (ms <= 0: no deadline).
  static SearchStop after_ms(const std::atomic<bool>* flag, long long ms);
};

class Bot {
 public:
  virtual ~Bot() = default;
  [[nodiscard]] virtual BotReport report() const { return {}; }
  // s is at a Place or Piece decision of the player to move; legal is legal_moves(s).
  virtual Move choose(const State& s, const MoveList& legal, Rng& rng) = 0;
  [[nodiscard]] virtual std::string spec() const = 0;
  // Ends the bot's searches early from now on (a searching bot; others decide at once): its
  // choose() then returns the best move found when the stop came.
  virtual void set_stop(const SearchStop& /*stop*/) {}
  // Before each decision play_bots tells the bot the game's generator (Game::generator: what the
  // next chance events will be drawn from; nullptr when unknown). Only a clairvoyant search
  // (mcts:seer=1, the strength ceiling of docs/mcts.md) looks at it; every other bot ignores it.
  virtual void foresee(const Rng* /*generator*/) {}
};

// Throws InputError for an unknown spec. The levels easy, normal and hard name mcts bots of that
// strength (bot_level_spec), in every command alike.
std::unique_ptr<Bot> make_bot(std::string_view spec);
bool is_bot_spec(std::string_view spec);
// The mcts spec of a strength level in a game (GameDef::levels; without a game or where the game
// sets none, ai/bot_limits.hpp kBotLevels). Empty for a word that is not a level. A bot made
// from a level's name (make_bot("easy")) plays each game's own spec for that level.
std::string bot_level_spec(std::string_view level, const GameDef* game = nullptr);
// Labels that tell seats apart: each spec, and "#k" after a spec that occurs more than once
// ("greedy #1", "greedy #2").
std::vector<std::string> bot_labels(const std::vector<std::string>& specs);

// Splits a comma-separated list of bots, keeping a bot's own options together:
// "mcts:ms=500,threads=1,greedy" is {"mcts:ms=500,threads=1", "greedy"} (a part with '=' that
// does not start a bot belongs to the bot before it). Parts are trimmed of spaces.
std::vector<std::string> split_bot_list(std::string_view list);

// The greedy bot's evaluation of a position for `player`: its score plus what its pieces on
// unfinished features are worth now, plus a little per follower in supply, minus the best
// opponent's same sum. race > 0: a place on the game's track is worth race times what the game's
// Hooks::track_worth says (Amazonas: the race's model) instead of 0.6 a space (the search's
// evaluation, mcts:race; the greedy bot keeps 0.6).
double greedy_eval(const State& s, int player, double race = 0);
// Each player's margin: its value minus the best other player's (values[p] for p < nplayers).
void margins_of(int nplayers, const std::array<double, kMaxPlayers>& values, std::array<double, kMaxPlayers>& out);
// The same of the scores now (at the end: the final margins).
void score_margins(const State& s, std::array<double, kMaxPlayers>& out);

// A position judged for `player` as it stands: greedy_eval, or with `value` the fitted value
// (ai/value.hpp) with these weights.
double position_eval(const State& s, int player, const std::vector<double>* value, double race = 0);

// greedy_eval for every player at once (the board's potentials worked out once).
void greedy_evals(const State& s, std::array<double, kMaxPlayers>& out, double race = 0);
// The greedy evaluation's own sum for every player (score, potential, followers...), before the
// best opponent's is taken off.
void greedy_values(const State& s, std::array<double, kMaxPlayers>& value, double race = 0);
// The same from the players' potentials already summed (pot: claim_worth over the claims each
// player holds the majority of, huts' fish plus a half).
void greedy_values_from(const State& s, const std::array<double, kMaxPlayers>& pot,
                        std::array<double, kMaxPlayers>& value, double race = 0);

// The best greedy_eval `me` can reach from t while the decisions stay theirs (the rest of a turn:
// a double tile's choice, the piece, a token hand-in, a jeep's new cell), one ply, no chance.
// value: judge the end of the turn by this fitted value's weights (ai/value.hpp) instead.
double greedy_continuation(const State& t, int me, const std::vector<double>* value = nullptr, double race = 0);

// The claims on the board, each once: on_net(net) for each river system with huts on it (its
// network root segment; Hunters), on_feature(root, info) for each other feature with pieces.
template <typename OnNet, typename OnFeature>
void for_each_claim(const State& s, OnNet&& on_net, OnFeature&& on_feature) {
  StaticVec<u16, kMaxPlayers * kMaxPieces> seen;
  StaticVec<u16, kMaxPlayers * kMaxPieces> seen_nets;
  for (const PieceOnBoard& pc : s.pieces) {
    const FeatureTypeDef& pfd = s.rs->ftype(s.graph[pc.seg].ftype);
    if (pc.kind == pfd.network_kind) {
      const int net = s.graph.net_find(pc.seg);
      if (std::find(seen_nets.begin(), seen_nets.end(), net) != seen_nets.end()) continue;
      seen_nets.push_back(static_cast<u16>(net));
      on_net(s.graph[net]);
      continue;
    }
    const int root = s.graph.find(pc.seg);
    if (std::find(seen.begin(), seen.end(), root) != seen.end()) continue;
    seen.push_back(static_cast<u16>(root));
    on_feature(root, feature_info(s, root));
  }
}

// What a field pays its majority at the end as it stands (0 without farmers).
double field_worth(const State& s, int root, const FeatureInfo& fi);
// What a claimed feature counts for its majority holders in the greedy evaluation: a field what
// it pays now; a feature that pays only when completed half of that (done); another its end
// value now (now), half as much again for a city-like one.
double claim_worth(const FeatureTypeDef& fd, double now, double done);

// Moves after which every evaluation here (the greedy evaluation, the fitted value, and the rest
// of the turn played by them) values the position alike share a key in 1..63 (0: a move of its
// own), as the game's Hooks::eval_twin gives them (Safari: every jeep move; watering holes
// founded with the same species anywhere). Such moves need evaluating once.
u32 eval_twin(const State& t, const Move& m);

// The values of moves evaluated so far, by their eval_twin key.
class TwinMemo {
 public:
  bool get(u32 key, double& v) const {
    assert(key < 64 && "Hooks::action_twin keys are 2..63");
    if (key == 0 || !((have_ >> key) & 1u)) return false;
    v = v_[key];
    return true;
  }
  void put(u32 key, double v) {
    if (key == 0) return;
    have_ |= u64{1} << key;
    v_[key] = v;
  }

 private:
  u64 have_ = 0;
  std::array<double, 64> v_{};
};

}  // namespace carc
