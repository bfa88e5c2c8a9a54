// ai/judge: a move's true loss against another, from paired continuations (docs/mcts.md, "How
// right the marks are").
#include <gtest/gtest.h>

#include "ai/judge.hpp"
#include "scenario.hpp"

namespace carc {
namespace {

constexpr int kRed = 0, kBlue = 1;

// The game's last tile (the rulebook's monastery, tests/scenario.hpp): after the placement only
// the piece decision is left, so each continuation is exact and every pair gives the same
// difference: the best margin of one placement less the best of the other, with no error
// (with a judge that finds the best piece).
TEST(Judge, TheLastTilesLossIsExactAndCertain) {
  const test::Scenario sc = test::monastery_last_tile();
  MoveList places, pieces;
  legal_moves(sc.s, places);
  int best = -1000, at_gap = -1000;
  Move best_move, gap_move;
  for (const Move& pm : places) {
    State t = sc.s;
    apply_move(t, pm);
    legal_moves(t, pieces);
    int here = -1000;
    for (const Move& km : pieces) {
      State u = t;
      apply_move(u, km);
      here = std::max(here, u.score[kRed] - u.score[kBlue]);
    }
    if (here > best) {
      best = here;
      best_move = pm;
    }
    if (pm.x == 0 && pm.y == 2 && here > at_gap) {
      at_gap = here;
      gap_move = pm;
    }
  }
  ASSERT_GT(best, at_gap);
  JudgeOptions o;
  o.pairs = 3;
  // without the prior: at 200 playouts the default search follows its prior's 300 virtual
  // playouts to a piece one point short here (follower N for 11 after E 0,-1 r180, not S for 12)
  o.bot = "mcts:playouts=200,threads=1,prior=0";
  const Judgement j = judge_moves(sc.s, best_move, gap_move, 0.5, o);
  EXPECT_DOUBLE_EQ(j.loss, best - at_gap);
  EXPECT_DOUBLE_EQ(j.se, 0.0);
  EXPECT_EQ(j.pairs, 3);  // certain at once: no pair beyond the least
  ASSERT_EQ(j.diffs.size(), 3u);
  // the other way round: the same loss, negative
  EXPECT_DOUBLE_EQ(judge_moves(sc.s, gap_move, best_move, 2.0, o).loss, at_gap - best);
  // a move that is not legal here, and a position that is not a decision, are refused
  Move wrong = best_move;
  wrong.x = 40;
  EXPECT_THROW((void)judge_moves(sc.s, wrong, gap_move, 2.0, o), InputError);
  State over = sc.s;
  apply_move(over, best_move);
  legal_moves(over, pieces);
  apply_move(over, pieces[0]);
  ASSERT_EQ(over.phase, Phase::Over);
  EXPECT_THROW((void)judge_moves(over, best_move, gap_move, 2.0, o), InputError);
}

}  // namespace
}  // namespace carc
