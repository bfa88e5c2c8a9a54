// ai/judge: how much one move really loses to another, measured by playing both on with a
// stronger continuation than a review's own playouts (docs/mcts.md, "How right the marks are").
//
// Both moves are played on in pairs: the n-th continuation of each draws its chance outcomes and
// its bots' seeds from the same random stream, so a pair differs by the move more than by luck.
// A continuation is `depth` decisions of the judge's bot (a search at every decision, both
// sides), then the expected final margin of a deeper analysis (`eval_playouts`) of the position
// reached, or the real margin where the game ends first. Pairs are added from `pairs` up to
// `max_pairs` while the mean paired difference lies within 2.5 standard errors of `threshold`.
#pragma once
#include <string>
#include <vector>

#include "rules/rules.hpp"

namespace carc {

struct JudgeOptions {
  std::string bot = "mcts:playouts=200,threads=1";  // the continuation's decisions, both sides
  int depth = 8;             // decisions played before the analysis judges the position (0: none)
  int eval_playouts = 2000;  // that analysis' playouts (0: play every continuation to the end)
  int pairs = 8;
  int max_pairs = 32;
  u64 seed = 1;
};

struct Judgement {
  double loss = 0;  // mean of (margin after `better`) - (margin after `played`), the mover's view
  double se = 0;    // its standard error
  int pairs = 0;
  std::vector<double> diffs;
};

// The mover is the player to move at s (a decision). Throws InputError if s is not a decision or
// a move is not legal there.
Judgement judge_moves(const State& s, const Move& better, const Move& played, double threshold, const JudgeOptions& o);

}  // namespace carc
