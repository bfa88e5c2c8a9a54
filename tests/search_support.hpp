// Helpers for tests of the search's options (tests/test_mcts.cpp, src/games/amazonas/test_amazonas.cpp).
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "ai/mcts.hpp"

namespace carc::test {

// A game of `game` with `players` played by the search's playout policy (seed 5); at each of its
// first `n` decisions that `pick` accepts, the search with `spec` (150 or 200 playouts) must give
// the same visits as with `same`, and counts where it gives other visits than with `other`; at
// the first, the analysis with `spec` must equal the analysis with `unset(options)` applied.
// Returns how many decisions differed with `other`.
template <typename Pick, typename Unset>
int decisions_searched_otherwise(const std::string& game, const std::string& spec, const std::string& same,
                                 const std::string& other, int n, Pick pick, Unset unset) {
  auto rs = load_ruleset(game, {});
  State s;
  init_state(s, *rs, 2);
  Rng rng(5);
  MoveList ml;
  int differ = 0, decisions = 0;
  const auto visits = [&](const std::string& sp) { return mcts_search(s, parse_mcts_spec(sp), 3).visits; };
  while (s.phase != Phase::Over && decisions < n) {
    if (is_chance(s)) {
      chance_step(s, rng);
      continue;
    }
    legal_moves(s, ml);
    if (ml.size() > 1 && pick(s)) {
      ++decisions;
      const auto d = visits(spec);
      EXPECT_EQ(d, visits(same)) << "decision " << decisions;
      differ += d != visits(other);
      if (decisions == 1) {
        MctsOptions o = parse_mcts_spec(spec);
        const Analysis a = mcts_analyze(s, o, 7);
        unset(o);
        const Analysis b = mcts_analyze(s, o, 7);
        EXPECT_EQ(a.options.size(), b.options.size());
        for (std::size_t i = 0; i < a.options.size() && i < b.options.size(); ++i) {
          EXPECT_EQ(a.options[i].visits, b.options[i].visits);
          EXPECT_EQ(a.options[i].margin, b.options[i].margin);
        }
      }
    }
    mcts_playout_move(s, rng, ml);
  }
  EXPECT_EQ(decisions, n);
  return differ;
}

}  // namespace carc::test
