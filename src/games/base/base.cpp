// Carcassonne, base game (RULES.md section 1): pure data, no hooks.
#include "games/games.hpp"

namespace carc::games {

// the game's look (src/games/base/look.json, compiled in: docs/look.md)
constexpr std::string_view kLook =
#include "look_base.inc"
    ;
constexpr std::string_view kMessages =
#include "messages_base.inc"
    ;

const GameDef& base() {
  static const GameDef def = [] {
    GameDef g;
    g.id = "base";
    g.title = "Carcassonne";
    g.review_margin = 18.1;  // greedy against greedy: mean |margin| 18.1 points (median 16)
    // tools/calibrate_win.py (60 games of each player count, 100 playouts): docs/mcts.md
    g.win_scale[2] = 6.49;
    g.win_scale[3] = 7.31;
    g.win_scale[4] = 6.01;
    g.search_value = 2;  // measured in arena: docs/mcts.md "Fitted value"
    g.search_value_horizon = 24;
    g.search_value_prior = 300;
    g.search_prior_depth = 4;  // with two players: docs/mcts.md "The prior deeper in the tree"
    // the levels keep the search their spacing was measured with (docs/mcts.md "Levels")
    g.levels = {"mcts:playouts=10,threads=1,value=0,pdepth=1", "mcts:playouts=100,threads=1,pdepth=1",
                "mcts:playouts=3000,threads=1,pdepth=1"};
    // the search's fitted value (docs/mcts.md "Fitted value"): 2 players on games of the one-ply bot
    // that judged by the playout fit (commit 0ed7ba8): `carcassonne fit-value --game base --players
    // 2 --games 10000 --test-games 1000 --bots mcts:playouts=1,threads=1,value=2 --seed 100001`;
    // 3 and 4 players: first on games of the playout policy (`... --players N --games 50000`), then
    // one round on the one-ply bot's games (`... --players N --games 10000 --test-games 1000 --bots
    // mcts:playouts=1,threads=1,value=2 --seed 100001`)
    g.value_weights[2] = {2.984,   1.737,   1.714,   10.54,   2.742, 0,       0,     0,      -0.7447, 0.06382, -0.7447,
                          0.06382, 1.388,   -0.5351, -0.1057, -1.07, -0.2115, 2.216, -1.494, -0.8963, 0.2956,  -0.2427,
                          0.1518,  -0.7389, 0.398,   -0.7389, 0.398, -0.8269, 0,     0,      0,       0,       0,
                          -0.8973, 10.35,   0,       2.426,   0,     0,       0,     0,      0,       0,       0};
    g.value_weights[3] = {2.365,   0.7662,  1.136,   8.008,  1.487,   0,       0,       0,       -0.3345,
                          0.06216, -0.3345, 0.06216, 0.321,  -0.2905, -0.1719, -0.581,  -0.3438, 2.085,
                          -0.7426, -0.9247, 0.5835,  0.6748, 0.05591, -0.3423, 0.08779, -0.3423, 0.08779,
                          -0.2783, 0,       0,       0,      0,       0,       -0.2737, 8.545,   0,
                          1.634,   0,       0,       0,      0,       0,       0,       0};
    g.value_weights[4] = {1.961,   0.4565,  1.166,   6.161,  1.175,    0,       0,        0,       0.06124,
                          -0.1535, 0.06124, -0.1535, 0.4491, -0.04922, -0.2091, -0.09844, -0.4182, 1.846,
                          0.05196, -1.02,   0.4952,  0.6308, 0.165,    0.05587, -0.08933, 0.05587, -0.08933,
                          0.01318, 0,       0,       0,      0,        0,       -0.2559,  7.567,   0,
                          0.8543,  0,       0,       0,      0,        0,       0,        0};
    //            name        class          terrain claim  done/tile done/attr final/tile final/attr
    g.ftypes = {
        {"road", FClass::Path, 1, true, 1, 0, 1, 0},
        {"city", FClass::Area, 2, true, 2, 2, 1, 1, {"shield"}},
        {"field", FClass::Field, 3, true, 0, 0, 0, 0},
        {"monastery", FClass::Point, 0, true, 1, 0, 1, 0},  // 1 per tile of its 3x3 area: 9 when done
    };
    g.options = {{"farmers", {"on", "off"}, "score fields at the end (farmers may be placed)"}};
    g.pieces_per_player = 7;
    g.min_players = 2;
    g.max_players = 5;
    g.farm_points_per_city = 3;
    g.present.look = kLook;
    g.present.messages = kMessages;
    return g;
  }();
  return def;
}

}  // namespace carc::games
