// rules: the generic turn machine over a flat, cheaply copied State. Games plug in through
// GameDef (data: feature types, pieces, options) and a short hook list; nothing here names a game.
//
// Turn:  Draw (chance: which tile) -> Place (x, y, rotation) -> Piece (a follower spot, or pass)
//        -> completion scoring -> next player's Draw. A drawn tile that fits nowhere is discarded
//        and the same player draws again. When the pile is empty at a Draw, final scoring runs and
//        the phase becomes Over.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "features/feature_graph.hpp"
#include "tiles/tileset.hpp"

namespace carc {

struct State;
struct Move;

struct OptionDef {
  std::string name;
  std::vector<std::string> values;  // first is the default
  std::string help;
};

// Hooks a game may set; the base game sets none. Each is called at one fixed point of the turn.
struct Hooks {
  // May veto a placement the edges allow (e.g. Amazonas' river front).
  bool (*placement_allowed)(const State&, int tile, int x, int y, int rot) = nullptr;
  // After a tile is placed and its features merged.
  void (*on_tile_placed)(State&, int placed_index) = nullptr;
  // After completion scoring of a turn.
  void (*on_scoring)(State&) = nullptr;
  // After the generic final scoring.
  void (*on_final_scoring)(State&) = nullptr;
};

struct GameDef {
  std::string id;     // "base"
  std::string title;  // "Carcassonne"
  std::vector<FeatureTypeDef> ftypes;
  std::vector<std::string> attr_names;
  std::vector<OptionDef> options;
  int pieces_per_player = 7;
  int min_players = 2, max_players = 5;
  int farm_points_per_city = 3;
  Hooks hooks;
};

// A game definition with its tile set and chosen options: everything a State points to.
struct Ruleset {
  const GameDef* game = nullptr;
  TileSet tiles;
  std::map<std::string, std::string> options;  // every option of the game, with its value
  bool farmers = true;
  [[nodiscard]] const FeatureTypeDef& ftype(int t) const { return game->ftypes[static_cast<std::size_t>(t)]; }
};

// Parses "name=value" settings against the game's options (defaults for the rest).
std::map<std::string, std::string> resolve_options(const GameDef& g, const std::vector<std::string>& settings);
std::shared_ptr<const Ruleset> make_ruleset(const GameDef& g, TileSet tiles, const std::map<std::string, std::string>& options);

enum class Phase : u8 { Draw, Place, Piece, Over };
enum class MoveKind : u8 { Place, Piece, Pass };

struct Move {
  MoveKind kind = MoveKind::Pass;
  u8 player = 0;  // who decides this move
  i8 x = 0, y = 0;
  u8 rot = 0;     // quarter turns clockwise
  u8 feat = 0xFF; // Piece: local feature index on the tile just placed
  bool operator==(const Move&) const = default;
};

// Every legal move of one decision. Placements: at most (frontier cells x 4) entries.
using MoveList = StaticVec<Move, 4 * 320>;

enum class ScoreReason : u8 { Completed, Final, Farm };
struct ScoreEvent {
  u16 turn = 0;
  u8 player = 0;
  u8 ftype = 0;
  ScoreReason reason = ScoreReason::Completed;
  i16 points = 0;
  u8 tiles = 0;   // tiles counted (point features: tiles in the 3x3 area)
  u8 attr = 0;    // attribute units counted (shields)
  u8 cities = 0;  // farm scoring: completed cities bordering the field
  u16 feature = 0;  // feature id (its union-find root) for grouping events
};
using EventSink = std::vector<ScoreEvent>;

struct PlacedTile {
  u8 type = 0, rot = 0;
  i8 x = 0, y = 0;
  u16 seg0 = 0;  // first segment; local feature f is segment seg0 + f
  u8 player = 0xFF;  // who placed it (0xFF: start board)
  u8 turn = 0;
};

struct PieceOnBoard {
  u16 seg = 0;
  u8 player = 0;
  u8 kind = 0;
};

struct FrontierCell {
  i8 x = 0, y = 0;
  u64 req = 0, mask = 0;  // side codes a tile must show here (see TileType::side_code)
};

inline constexpr int kMaxPlaced = 128;
inline constexpr int kMaxFrontier = 320;

struct State {
  const Ruleset* rs = nullptr;
  Phase phase = Phase::Draw;
  u8 nplayers = 2;
  u8 current = 0;
  u8 in_hand = 0xFF;  // tile type drawn and not yet placed
  u16 turn = 0;       // turns begun (a turn begins with a successful draw)
  u16 pile = 0;       // tiles left in the draw pile
  u16 discards = 0;
  std::array<i16, kMaxPlayers> score{};
  std::array<u8, kMaxPlayers> supply{};
  std::array<u8, kMaxTileTypes> remaining{};
  StaticVec<PlacedTile, kMaxPlaced> tiles;
  StaticVec<PieceOnBoard, kMaxPlayers * 8> pieces;
  StaticVec<FrontierCell, kMaxFrontier> frontier;
  StaticVec<u16, 32> open_points;  // segments of point features not yet closed (monasteries)
  FeatureGraph graph;
  CellMap cells;  // value: placed index + 1, or 0x8000 | frontier index

  [[nodiscard]] const TileType& type_of(const PlacedTile& t) const { return rs->tiles.types[t.type]; }
  [[nodiscard]] int placed_at(int x, int y) const {
    const u16 v = cells.get(x, y);
    return (v != 0 && !(v & 0x8000)) ? v - 1 : -1;
  }
  [[nodiscard]] const PlacedTile& last_placed() const { return tiles.back(); }
};

// Set up a new game: start board placed, pile full, player 0 to draw.
void init_state(State& s, const Ruleset& rs, int nplayers);

// Chance: the tile types with copies left, weighted by count.
int sample_draw(const State& s, Rng& rng);
// Apply a draw outcome. Returns false if the tile fits nowhere and was discarded (still Draw).
// Ends the game (final scoring) if it empties the pile with a discard.
bool apply_draw(State& s, int type, EventSink* ev = nullptr);

void legal_moves(const State& s, MoveList& out);
void gen_placements(const State& s, MoveList& out);
void gen_pieces(const State& s, MoveList& out);
// A tile placement drawn uniformly from the legal ones without listing them (rejection sampling
// over frontier cells x distinct rotations): the same distribution as picking uniformly from
// gen_placements, at a fraction of the cost. For playouts. Requires phase Place.
Move sample_placement(const State& s, Rng& rng);
[[nodiscard]] bool is_legal(const State& s, const Move& m);
// Apply a legal move (the caller checks legality; see is_legal).
void apply_move(State& s, const Move& m, EventSink* ev = nullptr);
// Start a Draw: if the pile is empty, final scoring runs and the game is Over.
void end_if_pile_empty(State& s, EventSink* ev);

// Feature value queries (for scoring, bots and the UI).
struct FeatureInfo {
  int root = 0;
  int ftype = 0;
  bool closed = false;
  int tiles = 0;
  int attr = 0;
  std::array<int, kMaxPlayers> pieces{};
};
FeatureInfo feature_info(const State& s, int seg);
// Points the majority holders of this feature would get now (completed or final value).
int feature_value(const State& s, const FeatureInfo& f, bool completed);
// Completed Area features bordering the field whose root is `root`.
int field_cities(const State& s, int root);

// Canonical port naming a tile feature (board orientation), e.g. "N", "NNW", "C".
std::string feature_port(const State& s, const PlacedTile& t, int local);
// Local feature at a port name on a placed tile, or -1.
int feature_at_port(const State& s, const PlacedTile& t, std::string_view port);

std::string describe_event(const State& s, const ScoreEvent& e);

}  // namespace carc
