// Carcassonne: Safari (RULES.md section 4): the game's data only, so far. The tile set
// (data/tiles/safari.tiles.json) loads and validates against these feature types; the rules that
// are not data (species scoring, token hand-ins, baobab tokens, jeeps, watering holes) are not
// written yet, so the game is NOT registered in games/registry.cpp and cannot be played.
#include "games/games.hpp"

namespace carc::games {

const GameDef& safari_data() {
  static const GameDef def = [] {
    GameDef g;
    g.id = "safari";
    g.title = "Carcassonne: Safari";
    const std::vector<std::string> species = {"monkey", "elephant", "giraffe", "lion", "zebra"};
    std::vector<std::string> bush = species;
    bush.push_back("bird");
    //             name       class          terrain claim done/tile done/attr final/tile final/attr symbols
    g.ftypes = {
        {"trail", FClass::Path, 1, true, 0, 0, 0, 0, species},
        {"bush", FClass::Area, 2, true, 0, 0, 0, 0, bush},
        {"savanna", FClass::Field, 3, false, 0, 0, 0, 0, {}},
        {"baobab", FClass::Point, 0, true, 0, 0, 0, 0, {}},
    };
    g.pieces_per_player = 6;
    g.piece_names = {"photographer", "piece"};
    g.min_players = 2;
    g.max_players = 5;
    g.farm_points_per_city = 0;
    return g;
  }();
  return def;
}

}  // namespace carc::games
