#include "ai/judge.hpp"

#include <algorithm>
#include <cmath>

#include "ai/bots.hpp"
#include "ai/mcts.hpp"

namespace carc {

namespace {

// The mover's margin (own score minus the best other's) at the end of one continuation.
double continuation(const State& s, const Move& m, int me, const JudgeOptions& o, u64 stream) {
  Rng chance(stream);
  Rng bots(stream ^ 0xA0761D6478BD642FULL);
  const std::unique_ptr<Bot> bot = make_bot(o.bot);
  State t = s;
  apply_move(t, m);
  MoveList ml;
  int decisions = 0;
  const bool judged = o.eval_playouts > 0 && o.depth >= 0;
  while (t.phase != Phase::Over) {
    if (is_chance(t)) {
      chance_step(t, chance);
      continue;
    }
    // a deeper analysis judges the position (two players: the other's margin is the mover's
    // negated; with more, play on to the end)
    if (judged && decisions >= o.depth && (to_move(t) == me || t.nplayers == 2)) {
      MctsOptions a;
      a.playouts = o.eval_playouts;
      a.threads = 1;
      const Analysis an = mcts_analyze(t, a, bots.next());
      const double v = an.options.front().margin;
      return to_move(t) == me ? v : -v;
    }
    legal_moves(t, ml);
    const Move mv = ml.size() == 1 ? ml[0] : bot->choose(t, ml, bots);
    apply_move(t, mv);
    ++decisions;
  }
  std::array<double, kMaxPlayers> margins{};
  score_margins(t, margins);
  return margins[static_cast<std::size_t>(me)];
}

}  // namespace

Judgement judge_moves(const State& s, const Move& better, const Move& played, double threshold, const JudgeOptions& o) {
  if (is_chance(s) || s.phase == Phase::Over) throw InputError("judge: the position is not a decision");
  MoveList legal;
  legal_moves(s, legal);
  for (const Move* m : {&better, &played})
    if (std::find(legal.begin(), legal.end(), *m) == legal.end()) throw InputError("judge: a move is not legal here");
  const int me = to_move(s);
  Judgement j;
  Rng streams(o.seed);
  const int least = std::max(2, o.pairs);
  const int most = std::max(least, o.max_pairs);
  while (true) {
    const u64 stream = streams.next();
    j.diffs.push_back(continuation(s, better, me, o, stream) - continuation(s, played, me, o, stream));
    const auto n = static_cast<int>(j.diffs.size());
    if (n < least) continue;
    double sum = 0;
    for (const double d : j.diffs) sum += d;
    const double mean = sum / n;
    double sq = 0;
    for (const double d : j.diffs) sq += (d - mean) * (d - mean);
    j.loss = mean;
    j.se = std::sqrt(sq / (n - 1) / n);
    j.pairs = n;
    if (n >= most || std::abs(mean - threshold) > 2.5 * j.se) return j;
  }
}

}  // namespace carc
