// The engine's move notation (docs/engine-protocol.md, "Moves"): the forgiving forms a player
// types, and the games' own shorthands. (That every legal move's notation reads back as that move,
// in every game: the conformance suite, tests/test_conformance.cpp.)
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "games/games.hpp"
#include "view/view.hpp"

namespace carc::test {
namespace {

bool same_move(const Move& a, const Move& b) {
  return a.kind == b.kind && a.x == b.x && a.y == b.y && a.rot == b.rot && a.feat == b.feat && a.pk == b.pk &&
         a.player == b.player;
}

TEST(Notation, ForgivingForms) {
  Game g(load_ruleset("base", {}), {{"a", ""}, {"b", ""}}, 3);
  MoveList ml;
  legal_moves(g.state(), ml);
  const Move& m = ml[0];
  const std::string id = g.ruleset().tiles.types[g.state().in_hand].id;
  for (const std::string& t :
       {fmt::format("{} {},{} r{}", id, m.x, m.y, m.rot * 90), fmt::format("{},{} r{}", m.x, m.y, m.rot * 90),
        fmt::format("  {},{}   {} ", m.x, m.y, m.rot * 90), fmt::format("{} {} {}", m.x, m.y, m.rot * 90)})
    EXPECT_TRUE(same_move(parse_notation(g.state(), t), m)) << t;
  for (const std::string& bad :
       {std::string("Z 0,0 r0"), std::string("0,0 r45"), std::string("99999,0 r0"), std::string("follower N"),
        std::string("\x1b[2J"), std::string(300, 'x'), std::string("")}) {
    try {
      (void)parse_notation(g.state(), bad);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const InputError& e) {
      EXPECT_FALSE(std::string(e.what()).empty());
      EXPECT_EQ(std::string(e.what()).find('\x1b'), std::string::npos) << "control characters are not echoed";
    }
  }
  g.play(m);
  legal_moves(g.state(), ml);
  for (const Move& pm : ml)
    if (pm.kind == MoveKind::Piece) {
      const std::string full = notation(g.state(), pm);  // "follower N": "N" alone names it too
      EXPECT_TRUE(same_move(parse_notation(g.state(), full.substr(full.find(' ') + 1)), pm)) << full;
    }
  EXPECT_EQ(parse_notation(g.state(), "none").kind, MoveKind::Pass);
}

// The games' shorthands (Presentation::parse_alias) read through the notation: every legal choice
// of Amazonas, Hunters and Safari and every Safari action in the short form a player types.
TEST(Notation, GamesShorthandsReadAsTheirMoves) {
  int choices = 0, actions = 0;
  for (const std::string game : {"amazonas", "hunters", "safari"}) {
    Game g(load_ruleset(game, {}), {{"a", ""}, {"b", ""}, {"c", ""}}, 5);
    Rng rng(7);
    MoveList ml;
    for (int i = 0; i < 400 && !g.over(); ++i) {
      const State& s = g.state();
      legal_moves(s, ml);
      const auto opts = view::decision_options(s);
      for (std::size_t k = 0; k < ml.size() && k < opts.size() && (s.phase == Phase::Choose || s.phase == Phase::Piece);
           ++k) {
        const auto& o = opts[k];
        std::string said;
        if (o.target == "token") said = o.token.substr(0, 1);                                 // "l": hand in a lion
        if (o.target == "cell" && o.kind == "choice") said = fmt::format("{} {}", o.x, o.y);  // the jeep's new cell
        if (o.target == "tile") said = fmt::format("{} {}", o.tile, o.rot);                   // "D2 180"
        if (o.target == "piece") said = fmt::format("{} {} {}", o.port, o.x, o.y);            // "N 3 -1": the shaman
        if (o.kind == "action" && k % 7 == 0) {  // "found lion at 2,1 NE" -> "f l 2,1 ne"
          const std::string& n = o.notation;
          if (n.rfind("jeep from ", 0) == 0)
            said = "j " + n.substr(10);
          else
            said = fmt::format("{} {}", n[0] == 'f' ? "f" : "x", n.substr(n.find(' ') + 1, 1)) +
                   n.substr(n.find(" at ") + 3);
        }
        if (said.empty()) continue;
        Move back;
        ASSERT_NO_THROW(back = parse_notation(s, said)) << game << ": " << said << " for " << o.notation;
        EXPECT_EQ(back, ml[k]) << game << ": " << said << " for " << o.notation;
        (o.kind == "action" ? actions : choices) += 1;
      }
      if (is_chance(s)) break;
      g.play(ml[rng.below(static_cast<u32>(ml.size()))]);
    }
  }
  EXPECT_GT(choices, 20);
  EXPECT_GT(actions, 20);
}

}  // namespace
}  // namespace carc::test
