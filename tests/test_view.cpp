// The view (src/view/view.hpp, docs/view.md): a position as data for every front end, its panels,
// pieces and sites. (The options written straight to text as the protocol sends them, in every
// game: the conformance suite, tests/test_conformance.cpp.)
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "games/games.hpp"
#include "view/view.hpp"

namespace carc::test {
namespace {

using nlohmann::json;

TEST(View, PanelsPiecesAndSitesAreData) {
  // a Safari game a few turns in: the view lists jeeps, tokens in hand and the game's panels
  Game g(load_ruleset("safari", {}), {{"a", ""}, {"b", "greedy"}}, 9);
  Rng rng(2);
  MoveList ml;
  for (int i = 0; i < 40 && !g.over(); ++i) {
    legal_moves(g.state(), ml);
    g.play(ml[rng.below(static_cast<u32>(ml.size()))]);
  }
  const view::View v = view::build_view(g);
  EXPECT_EQ(v.game, "safari");
  EXPECT_EQ(v.tiles.size(), g.state().tiles.size());
  EXPECT_EQ(v.pieces.size(), g.state().pieces.size());
  for (const auto& p : v.pieces) {
    EXPECT_GT(p.anchor.x, 0.0);
    EXPECT_LT(p.anchor.x, 1.0);
    EXPECT_GT(p.anchor.y, 0.0);
    EXPECT_LT(p.anchor.y, 1.0);
  }
  ASSERT_EQ(v.players.size(), 2u);
  EXPECT_EQ(v.players[1].bot, "greedy");
  EXPECT_EQ(v.players[0].hand.size(), 5u) << "tokens by species";
  std::vector<std::string> ids;
  for (const Panel& p : v.panels) ids.push_back(p.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"tokens", "jeeps", "watering_holes"}));
  const json j = view::to_json(v);
  EXPECT_EQ(j["board"]["tiles"].size(), v.tiles.size());
  EXPECT_TRUE(j["decision"].contains("options"));
  // every feature's cells are placed tiles, and the piece counts add up
  int pieces = 0;
  for (const auto& f : v.features) {
    for (const int k : f.worth.pieces) pieces += k;
    for (const auto& [x, y] : f.cells) EXPECT_GE(g.state().placed_at(x, y), 0);
  }
  int network_pieces = 0;
  for (const auto& p : v.pieces) network_pieces += p.piece == "hut";
  EXPECT_EQ(pieces + network_pieces, static_cast<int>(v.pieces.size()));
}

}  // namespace
}  // namespace carc::test
