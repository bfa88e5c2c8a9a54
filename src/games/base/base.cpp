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
