// rules: the generic turn machine over a flat, cheaply copied State. Games plug in through
// GameDef (data: feature types, pieces, options) and a short hook list; nothing here names a game.
//
// Turn:  Draw (chance: which tile) -> Place (x, y, rotation) -> Piece (a follower spot, or pass)
//        -> completion scoring -> next player's Draw. A drawn tile that fits nowhere is discarded
//        and the same player draws again. When the pile is empty at a Draw, final scoring runs and
//        the phase becomes Over.
#pragma once
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "features/feature_graph.hpp"
#include "tiles/tileset.hpp"

namespace carc {

struct State;
struct GameDef;
struct Move;
enum class MoveKind : u8 { Place, Piece, Pass, Choose, Act };
struct ScoreEvent;
struct PlacedTile;
// Every legal move of one decision: placements (frontier cells x 4), pieces, or a game's own
// actions and choices (Safari: jeep moves and watering-hole actions; bounded by the tile loader).
using MoveList = StaticVec<Move, 4096>;

struct OptionDef {
  std::string name;
  std::vector<std::string> values;  // first is the default
  std::string help;
};

using EventSink = std::vector<ScoreEvent>;

// Where a game writes its own part of an observation (Hooks::observe, GameDef::observation; the
// learning interface, rl/encoding.hpp, places it and turns it with the board).
class ObservationSink {
 public:
  virtual ~ObservationSink() = default;
  // Adds v to the game's board plane k (GameDef::observation.planes[k]) at cell (x, y), or at
  // grid point (x, y) for a plane at points; player: the seat of a per-seat plane (else -1).
  // Outside the observation's window: nothing.
  virtual void plane(int k, int player, int x, int y, float v) = 0;
  // The game's per-seat value k (observation.seat_values[k]) of player.
  virtual void seat_value(int player, int k, float v) = 0;
  // The game's value k (observation.values[k]).
  virtual void value(int k, float v) = 0;
};

// What a game adds to the observation: board planes after the generic ones, values per seat
// after the generic per-seat values and values after the generic ones (names as docs/python.md
// gives them: a per-seat plane or value is named "{name}_seat+{k}" for the seat k after the
// observer's).
struct ObservationPlan {
  struct Plane {
    std::string name;
    bool per_seat = false;  // one plane per seat, from the observer's
    bool at_point = false;  // at grid points (a cell's north-west corner), not at cells
  };
  std::vector<Plane> planes;
  std::vector<std::string> seat_values;
  std::vector<std::string> values;
};

// Hooks a game may set; the base game sets none. Each is called at one fixed point of the turn.
struct Hooks {
  // After the start board is laid: the game's own state (reset_game_state), its track.
  void (*on_init)(State&) = nullptr;
  // A prepared position (init_prepared), after its board, piles and pieces: derive the game's own
  // state from a board of its own (own_board) and apply the game's setup keys (GameDef::setup_keys;
  // `keys` is a JSON object's text, empty if none). Throws InputError naming the key at fault.
  // A game with on_init and no prepare accepts only its start board and no keys.
  void (*prepare)(State&, const std::string& keys, bool own_board) = nullptr;
  // A prepared board's tile has been laid (in the board's order, before the next): the lasting
  // effects of its placement other than points (Hunters: a pit trap covers animals).
  void (*on_board_tile)(State&, int placed_index) = nullptr;
  // The game's own state as setup keys (a JSON object's text) that prepare turns back into it.
  std::string (*export_keys)(const State&) = nullptr;
  // Chance: which tile type is drawn next (default: uniform over the pile's remaining tiles), and
  // the probability of each tile type (a game with sample_draw gives draw_odds too).
  int (*sample_draw)(const State&, Rng&) = nullptr;
  void (*draw_odds)(const State&, std::vector<std::pair<int, double>>&) = nullptr;
  // May veto a placement the edges allow (e.g. Amazonas' river front).
  bool (*placement_allowed)(const State&, int tile, int x, int y, int rot) = nullptr;
  // Just before the drawn tile is placed (to note what the merge will change).
  void (*before_place)(State&, const Move&) = nullptr;
  // After a tile is placed and its features merged. May set phase Choose for a further decision.
  void (*on_tile_placed)(State&, int placed_index, EventSink*) = nullptr;
  // Phase Choose: the game's own decisions (Amazonas: which double tile, which way round).
  void (*gen_choices)(const State&, MoveList&) = nullptr;
  void (*apply_choice)(State&, const Move&, EventSink*) = nullptr;
  // After the piece decision (a piece placed, or a pass), before completion scoring.
  void (*on_piece)(State&, const Move&, EventSink*) = nullptr;
  // After completion scoring of a turn.
  void (*on_scoring)(State&, EventSink*) = nullptr;
  // After the generic final scoring (network pieces such as huts are still on the board).
  void (*on_final_scoring)(State&, EventSink*) = nullptr;
  // Extra points of a completed feature beyond the per-tile/per-symbol data (Hunters: the fish in
  // the lakes at a river's ends).
  int (*completion_bonus)(const State&, int root) = nullptr;
  // Final value of a field-like feature (Hunters: animals after tigers, traps, fire).
  int (*field_value)(const State&, int root) = nullptr;
  // Phase Choose as text, for records and the command line (default: a tile id and a rotation).
  std::string (*choice_text)(const State&, const Move&) = nullptr;
  Move (*choice_parse)(const State&, std::string_view text) = nullptr;  // throws InputError
  // The game's own alternatives to a piece in the Piece decision (MoveKind::Act; Safari: move a
  // jeep, found or explore a watering hole), applied instead of a piece, before completion scoring.
  void (*gen_actions)(const State&, MoveList&) = nullptr;
  void (*apply_action)(State&, const Move&, EventSink*) = nullptr;
  std::string (*action_text)(const State&, const Move&) = nullptr;
  // What an option of the piece decision (a piece, a pass or an action) gains its player at once
  // beyond its piece's feature, in points, less what it spends, for cheap policies such as the
  // search's playouts (nullptr: nothing). Safari: a watering hole's points less the token's end
  // value.
  double (*option_gain)(const State&, const Move&) = nullptr;
  // Moves after which every evaluation of the bots values the position alike (ai/bots.hpp,
  // eval_twin) share a key in 1..63, so that a bot evaluates one of them; 0: a move of its own.
  // Safari: 1 for a move that only moves a jeep (no evaluation looks at the jeeps), a key per
  // species for a watering hole founded with it anywhere.
  u32 (*eval_twin)(const State&, const Move&) = nullptr;
  // What a player holds of the game's own that scores later (Safari: tokens in hand or still to
  // be dealt to it), as a count: the fitted value's feature "held" (ai/value.hpp).
  int (*held)(const State&, int player) = nullptr;
  // The game's own term of the greedy evaluation of a player's position, in points (Safari: 1.6 a
  // token held).
  double (*greedy_term)(const State&, int player) = nullptr;
  // The game's own part of the learning interface's observation, as GameDef::observation declares
  // it (rl/encoding.hpp).
  void (*observe)(const State&, ObservationSink&) = nullptr;
  // What each player's place on the game's per-player track is still worth, in points, by a model
  // of the race to the end (Amazonas: the Amazon scorings and the river mouth still to come), for
  // the search's evaluation (ai/bots.hpp, greedy_values_from with race); nullptr: the greedy
  // evaluation's 0.6 a space. out[p] for p < nplayers; false where the game has no model for the
  // position (Amazonas with five players), and the 0.6 a space stands.
  bool (*track_worth)(const State&, std::array<double, kMaxPlayers>& out) = nullptr;
  Move (*action_parse)(const State&, std::string_view text) = nullptr;  // throws InputError
  // Replaces the generic majority scoring of a completed feature (paths, areas, point features).
  // Returns false to pause the turn for a decision (phase Choose, any player as s.decider) or a
  // chance event (phase Chance); the game resumes with continue_turn(), which calls this again
  // for the same feature unless the hook marked it scored.
  bool (*score_completed)(State&, int root, EventSink*) = nullptr;
  // Replaces the generic scoring of an unfinished feature with pieces at the end of the game.
  void (*score_unfinished)(State&, int root, EventSink*) = nullptr;
  // The game's own chance events (phase Chance; Safari: a token from the face-down pile): draw an
  // outcome, apply it (the hook then sets the next phase or calls continue_turn), and name it in
  // records.
  int (*sample_chance)(const State&, Rng&) = nullptr;
  void (*apply_chance)(State&, int outcome, EventSink*) = nullptr;
  std::string (*chance_text)(const State&, int outcome) = nullptr;
  int (*chance_parse)(const State&, std::string_view text) = nullptr;  // -1: not a valid outcome
  // Every outcome of the game's own chance event now, with its probability (as sample_chance draws).
  void (*chance_odds)(const State&, std::vector<std::pair<int, double>>&) = nullptr;
};

// A game's own panel of a position, as data for every front end (the presentation hook
// GameDef::present): a title, named counters, a table and lines of text. Never drawing code.
// A table whose first column is "seat" has a row per player, the seat number (from 0) in that
// column: front ends show the player there. In any text, "{p0}" ... "{p4}" stand for a player's
// name. `track` > 0: each seat's row also stands on a track of that many spaces, at the space its
// "space" column gives (Amazonas' boats).
struct Panel {
  std::string id, title;
  std::vector<std::pair<std::string, std::string>> counters;  // name, value
  std::vector<std::string> columns;                             // the table's header
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> lines;
  int track = 0;
};

// What one option of a Choose or Act decision is, for front ends (Presentation::option_info): a
// sentence in the game's words and what the option names, so that a front end can show it without
// knowing the game (a cell to label on the board, a piece to point at, a tile to draw, a token).
struct OptionInfo {
  enum class Target : u8 { None, Cell, Piece, Tile, Token, Point };
  std::string text;  // "" for none: the front end shows the notation
  Target target = Target::None;
  int x = 0, y = 0;        // Cell, Piece: the cell (Piece: of the tile the piece stands on); Point: the
                           // cell whose corner (quarter of the grid point) it fills
  int px = 0, py = 0;      // Point: the grid point (the north-west corner of cell px, py)
  bool located = false;    // Tile, Token, None: x, y is the cell where it acts (offered there)
  int local = -1;          // Piece: the local feature of that tile
  int tile = -1, rot = 0;  // Tile: the tile type and its quarter turns (a multi-cell tile: its first cell)
  int token = -1;          // Token: the token kind (Presentation::state_names.tokens names it)
  std::string overlay;     // the overlay the option acts on (Overlay::id), "" none
};

// What stands on the board besides tiles and pieces (Presentation::overlays): Safari's jeeps and
// watering holes, Amazonas' boats on their track. Front ends draw it with the glyphs of the game's
// look (src/games/<game>/look.json) and never know what it is. `at`: Cell (x, y: a cell), Point
// (x, y: a grid point, the north-west corner of cell x, y) or Track (x: a space 1..track_len of the
// game's track, drawn under the board). `seat` >= 0: drawn in that seat's colour. Parts are drawn
// round the overlay's anchor: dx, dy in tile units (1 = one tile), rot degrees clockwise.
struct OverlayPart {
  std::string glyph;
  double dx = 0, dy = 0;
  int rot = 0;
  int seat = -1;
  std::string label;  // a sentence, "" none
};
struct Overlay {
  enum class At : u8 { Cell, Point, Track };
  std::string id;     // stable while it stays: "jeep:0", "hole:2,-1"
  std::string glyph;  // "" none (only its parts are drawn)
  At at = At::Cell;
  int x = 0, y = 0;
  int seat = -1;
  std::string label;  // what it is, in words
  bool done = false;  // finished (a complete watering hole): drawn ringed
  std::vector<OverlayPart> parts;
};

// The presentation hooks of a game: how its own state is shown, as data (src/view builds the
// rest of a view generically). Each game sets them in its folder's present.cpp.
struct Presentation {
  // What stands on the board besides tiles and pieces (nullptr: nothing).
  std::vector<Overlay> (*overlays)(const State&) = nullptr;
  // The game's own state in a few short lines, for a picture's side panel ("Tokens: 30 face
  // down, 2 discarded"); "{pN}" stands for seat N's name. nullptr: none.
  std::vector<std::string> (*summary)(const State&) = nullptr;
  // The game's look: the text of src/games/<game>/look.json, compiled in (docs/look.md); empty:
  // the generic look. src/view reads and checks it (view::look_of).
  std::string_view look;
  // The game's words: the text of src/games/<game>/messages.json, compiled in (docs/i18n.md);
  // empty: the engine's words only (rules/words.hpp reads it).
  std::string_view messages;
  // What the last space of the game's track is (GameDef::track_name), for its heading: "the river mouth".
  std::string track_end;
  // The game's panels (Amazonas: the river; Hunters: the piles; Safari: tokens, jeeps, watering holes).
  std::vector<Panel> (*panels)(const State&) = nullptr;
  // What a free spot for a piece is worth, in words (the view's piece options, the terminal's
  // spot list); nullptr: the generic words (view::spot_sentence).
  std::string (*spot_text)(const State&, const PlacedTile&, int local) = nullptr;
  // What a player holds besides pieces, by name (Safari: tokens by species).
  std::vector<std::pair<std::string, int>> (*hand)(const State&, int player) = nullptr;
  // The names of the game's kinds of token, as data (a token option's target,
  // OptionInfo::Target::Token; Safari: the species). Empty: none.
  struct StateNames {
    std::vector<std::string> tokens;
  };
  StateNames state_names;
  // How sentences name a symbol, a special or a feature type when its own name will not do:
  // {"boat", "boat icon"}. (How a picture or the terminal draws it is the game's look.)
  std::vector<std::pair<std::string, std::string>> nouns;
  // What a player's hand holds, one of it ("token"); what taking a marker's cell does ("" none);
  // what a network of features is called (Hunters: "river system"; in the players' language: the
  // game's message network.name, where it has one).
  std::string hand_noun, marker_text, network_name = "network";

  // The game's explanation of the decision now (phases Piece and Choose), as panels: the actions
  // beside a piece, what each option of a choice scores, who else is concerned. "{pN}" stands for
  // seat N's name. full: everything (a player asked for it); else what fits beside the options.
  // A panel's id is also its name for a player asking for it in full.
  std::vector<Panel> (*decision_panels)(const State&, bool full) = nullptr;
  // One option of a Choose or Act decision: its sentence and target (nullptr: the notation only).
  OptionInfo (*option_info)(const State&, const Move&) = nullptr;
  // The game's typed shorthands for the decision now ("f l 2,1 ne", "lion", "D2 180", "N 3 -1"),
  // given lower case with single spaces: the move (the caller checks that it is legal), nullopt
  // when the text is not of the game's forms, or InputError saying what is wrong with a text that
  // is. Tried by parse_notation after the exact notation, so every front end accepts them.
  std::optional<Move> (*parse_alias)(const State&, std::string_view text) = nullptr;
  // The game's sections of a player's help: title, rows {what to type, what it does}, lines of
  // notes (a section without title adds notes to the one before). A section with id "piece"
  // replaces the generic section on placing a piece.
  std::vector<Panel> help;
  // The same sections in the calling thread's language (i18n::Scope), for a game whose help is
  // messages; nullptr: `help` as it stands.
  std::vector<Panel> (*help_in)(const GameDef&) = nullptr;
  // An extra turn in progress (State::in_extra), as a sentence: "{p}" is the player (in the
  // players' language: the game's message extra_turn, where it has one).
  std::string extra_turn;
  // A recorded action or choice in the game's words, as a turn's summary tells it after "placed
  // the tile at x,y" (past tense: "moved a jeep from -2,0 to 3,1"); "" to leave it out, nullptr for
  // the generic words. `text` is the record's text of the move.
  std::string (*told)(const State&, MoveKind kind, std::string_view text, int x, int y) = nullptr;
};

struct GameDef {
  std::string id;     // "base"
  std::string title;  // "Carcassonne"
  std::vector<FeatureTypeDef> ftypes;
  std::vector<std::string> tile_kinds = {"land"};  // names a tile file may give as "kind"
  std::vector<OptionDef> options;
  int pieces_per_player = 7;   // pieces of kind 0 (followers, explorers)
  int pieces2_per_player = 0;  // pieces of kind 1 (camps, huts)
  std::array<std::string, 2> piece_names = {"follower", "piece"};
  std::string pass_text = "pass";  // what a pass does, e.g. "no explorer or camp: boat moves 1"
  std::string track_name;          // a per-player track (Amazonas: "boat"), empty if none
  std::vector<std::string> specials;  // names a tile file may give as a feature's "special"
  std::string choice_key = "double";  // record key of a turn's Choose decision
  // Choose decisions are recorded as a list of {player, choice} (several per turn, by any player)
  bool choices_listed = false;
  // Keys a record's prepared position ("setup") may give for the game's own state (Amazonas:
  // boats; Safari: jeeps, tokens, watering holes), applied by Hooks::prepare.
  std::vector<std::string> setup_keys;
  // ScoreReason::Special events by cause (Hunters: 1 canoe, 2 pit_trap): the effect's name in
  // records and the keys of its tiles and attr fields (empty: not written).
  // `subject`: what the event is about in records ("feature"), when it is not a feature type of
  // the game (Safari: a watering hole, a jeep, tokens); such events carry no feature_id.
  struct Effect {
    std::string name, tiles_key, attr_key, subject;
    bool at_end = false;  // scored in final scoring (Safari: the tokens left in hand)
  };
  std::vector<Effect> special_effects;
  // The game's own events (ScoreReason::Own, ScoreEvent::kind indexes this): the reason records
  // and views give them ("track"), record keys for the tiles, attr, amount and cause fields ("" not
  // written), a key written as `cause == 1` (Hunters: "raft"), whether it comes in the final
  // scoring, and whether it is about its feature type (the view names the feature).
  struct OwnEvent {
    std::string reason;
    std::array<std::string, 4> keys{};
    std::string flag_key;
    bool at_end = false;
    bool feature = false;
  };
  std::vector<OwnEvent> own_events;
  // Completed/Final events: record keys for the tiles, attr, amount and cause fields when the game
  // gives them its own meaning (Safari: tiles, species, birds, token); empty: the generic keys.
  // A cause key names the symbol slot cause-1 of the feature type (a species).
  std::array<std::string, 4> event_keys{};
  std::array<std::string, 4> final_event_keys{};  // the same for Final events
  // Wording of the game's own events (Track, Amazon, Mouth).
  std::string (*describe)(const State&, const ScoreEvent&) = nullptr;
  int min_players = 2, max_players = 5;
  // The search's tuning for the game (docs/mcts.md), measured in the arena against greedy:
  // playouts end after this many decisions and the greedy evaluation scores them (0: whole
  // playouts); the greedy prior counts as this many virtual playouts.
  int search_horizon = 0;
  int search_prior = 30;
  // The fitted value (value_weights below) in the search by default (MctsOptions::value): 0 not
  // used; 1 playouts end after search_value_horizon decisions and the fitted value judges them, in
  // place of search_horizon and the greedy evaluation; 2 the same, and the fitted value also orders
  // and seeds the tree (the prior).
  int search_value = 0;
  // With three or more players, search_value in its place (0: search_value).
  int search_value_many = 0;
  [[nodiscard]] int search_value_for(int players) const {
    return players >= 3 && search_value_many != 0 ? search_value_many : search_value;
  }
  int search_value_horizon = 0;
  // With search_value 2: the fitted value's prior counts as this many virtual playouts (0:
  // search_prior). Analysis keeps search_prior and the greedy evaluation.
  int search_value_prior = 0;
  // With two players, tree nodes this many decisions from the root or nearer are expanded with the
  // prior (1: the root and the rest of its turn; deeper tile placements are judged by the position
  // after the tile alone): MctsOptions::prior_depth, docs/mcts.md "The prior deeper in the tree".
  // With three or more players search_prior_depth_many (base: 1, measured no better there), and
  // with search_prior_full_many the placements below the root's turn are judged as the root's
  // options (the rest of the turn played greedily) and expanded on their first visit
  // (MctsOptions::prior_cheap and prior_lazy 0; Amazonas: docs/mcts.md "Amazonas with three
  // players: the next player's reply in the prior").
  // search_prior_depth_many and search_prior_full_many hold from search_prior_many_from players
  // (at least three) up to search_prior_many_upto players (Amazonas: four players only; with
  // three and with five no better at equal CPU); outside them the prior stays at the root's turn
  // (depth 1).
  int search_prior_depth = 1;
  int search_prior_depth_many = 1;
  bool search_prior_full_many = false;
  int search_prior_many_from = 3;
  int search_prior_many_upto = 5;
  // The search's greedy evaluation values the track by search_race times Hooks::track_worth
  // (MctsOptions::race; 0: 0.6 a space, as the greedy bot's), and then the greedy prior counts as
  // search_race_prior virtual playouts (0: search_prior). Analysis keeps 0 and search_prior.
  double search_race = 0;
  int search_race_prior = 0;
  [[nodiscard]] bool prior_many_for(int players) const {
    return players >= 3 && players >= search_prior_many_from && players <= search_prior_many_upto;
  }
  [[nodiscard]] int prior_depth_for(int players) const {
    if (prior_many_for(players)) return search_prior_depth_many;
    return players == 2 ? search_prior_depth : 1;
  }
  [[nodiscard]] bool prior_full_for(int players) const { return prior_many_for(players) && search_prior_full_many; }
  // The strength levels' mcts specs in this game (easy, normal, hard; ai/bot_limits.hpp), chosen
  // in the arena so that each wins about 75% against the one below (docs/mcts.md "Levels");
  // empty: kBotLevels' own.
  std::array<std::string, 3> levels{};
  // chance nodes keep at most 1 + search_widen * sqrt(visits) outcomes (double progressive
  // widening; 0: every draw its own)
  double search_widen = 1.0;
  // A review's point scale (ai/review, docs/mcts.md "Review"): the mean final margin of two greedy
  // bots over 200 two-player deals (`carcassonne arena --bots greedy,greedy --games 200 --seed 1
  // --records DIR`). Inaccuracy, mistake and blunder are losses of 1/8, 1/4 and 1/2 of it.
  double review_margin = 18;
  // Win probability from an expected final margin m (docs/mcts.md "Win probability"):
  // 1 / (1 + exp(-m / s)) with s = win_scale[players] points, fitted by tools/calibrate_win.py on
  // reviewed arena games; 0: not fitted for that player count (the nearest fitted one is used).
  std::array<double, kMaxPlayers + 1> win_scale{};
  // The search's fitted evaluation (ai/value.hpp, docs/mcts.md "Fitted value"): the weights of
  // value_features per player count, fitted by `carcassonne fit-value`; empty: not fitted (the
  // greedy evaluation is used).
  std::array<std::vector<double>, kMaxPlayers + 1> value_weights{};
  int farm_points_per_city = 3;
  // The game's own decisions (Choose and Act moves) in the fixed action space of the learning
  // interface (src/rl, docs/python.md): one block per kind of move, in this order, after the
  // generic blocks (placements, pieces, pass). A move belongs to the first block whose kind and pk
  // are its own and whose feat range holds its feat (feats 0: feat must be 0xFF).
  struct ActionBlock {
    std::string name, help;
    MoveKind kind = MoveKind::Choose;
    u8 pk = 0xFF;                // the moves' pk
    bool cell = false;           // x, y: a cell of the window
    int rots = 0;                // rot in [0, rots) (0: not used, always 0)
    bool rot_is_corner = false;  // rot names a corner of the cell (it turns with the board)
    int feats = 0;               // feat in [0, feats) (0: not used, always 0xFF); -1: a tile type; -2: a tile's local feature
    bool none = false;           // feat may also be 0xFF (none), after the others
  };
  std::vector<ActionBlock> action_blocks;
  // The rules do not change when the whole board turns a quarter (Amazonas: the river runs east),
  // so turned positions are positions of the same game (data augmentation, src/rl).
  bool turn_symmetric = true;
  // The window of cells the learning interface sees: [centre - radius, centre + radius] on both
  // axes (Amazonas: the river runs 24 cells east of the start).
  std::array<int, 2> window_centre{0, 0};
  int window_radius = 15;
  // The most actions one turn can take after its tile draw, decisions and chance outcomes:
  // turn_actions + turn_actions_per_player x players (a bound, not a typical count: the Python
  // module's max_game_length). Base: the placement and the piece decision.
  // The most outcomes of the game's own chance event (Hooks::sample_chance; Safari: 5 species):
  // the learning interface numbers them after the tile types.
  int chance_outcomes = 0;
  int turn_actions = 2;
  int turn_actions_per_player = 0;
  Hooks hooks;
  Presentation present;
  // The game's own part of the learning interface's observation, filled by Hooks::observe.
  ObservationPlan observation;
};

// A game definition with its tile set and chosen options: everything a State points to.
struct Ruleset {
  const GameDef* game = nullptr;
  TileSet tiles;
  std::map<std::string, std::string> options;  // every option of the game, with its value
  bool farmers = true;
  std::string tiles_file;  // the tile file, when not the game's default one (written into records)
  std::vector<u8> option_index;  // per GameDef option: the index of its value (hot-path lookups)
  [[nodiscard]] const FeatureTypeDef& ftype(int t) const { return game->ftypes[static_cast<std::size_t>(t)]; }
};

// Parses "name=value" settings against the game's options (defaults for the rest).
std::map<std::string, std::string> resolve_options(const GameDef& g, const std::vector<std::string>& settings);
std::shared_ptr<Ruleset> make_ruleset(const GameDef& g, TileSet tiles, const std::map<std::string, std::string>& options);

// Draw and Chance are chance nodes (a tile; a game's own outcome such as a token); Score is
// transient (completion scoring in progress) and never seen between moves.
enum class Phase : u8 { Draw, Place, Choose, Piece, Over, Chance, Score };
struct Move {
  MoveKind kind = MoveKind::Pass;
  u8 player = 0;  // who decides this move
  i8 x = 0, y = 0;  // Place: the cell; Piece: the cell of the tile the piece goes on
  u8 rot = 0;     // quarter turns clockwise
  u8 feat = 0xFF; // Piece: local feature index on that tile; Choose: the option (e.g. a tile type)
  u8 pk = 0xFF;   // Piece: 0xFF the feature's own kind of piece; else that kind claiming the
                  // feature's network (Hunters: 1, a hut on the river system). Act: the action.
  bool operator==(const Move&) const = default;
};

// Every legal move of one decision. Placements: at most (frontier cells x 4) entries.

// Completed, Final, Farm: the generic scorings. Special: a bonus tile's effect
// (GameDef::special_effects[cause]). Own: one of the game's own events, GameDef::own_events[kind]
// (Amazonas: a boat's move along the track, an Amazon scoring, the river mouth; Hunters: a river
// system's huts).
enum class ScoreReason : u8 { Completed, Final, Farm, Special, Own };
// A scoring event, or (a game's own event) a move along its track with no points.
struct ScoreEvent {
  u16 turn = 0;
  u8 player = 0;
  u8 ftype = 0;
  ScoreReason reason = ScoreReason::Completed;
  i16 points = 0;
  u8 tiles = 0;   // tiles counted (point features: tiles in the 3x3 area)
  u8 attr = 0;    // attribute units counted (shields)
  u8 cities = 0;  // farm scoring: completed cities bordering the field
  u8 kind = 0;    // Own: which of the game's own events (GameDef::own_events)
  u16 feature = 0;  // feature id (its union-find root) for grouping events
  // Two more numbers whose meaning the event's game describes, with tiles and attr: record keys
  // GameDef::own_events[kind].keys (Own), event_keys and final_event_keys (Completed, Final).
  // cause: which effect (Special: GameDef::special_effects[cause]), symbol slot (cause - 1) or
  // case the event is about; amount: a further count (Amazonas: the spaces a boat moved). Each
  // game's meanings are documented beside its own_events.
  u8 amount = 0;
  u8 cause = 0;
};

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

inline constexpr i8 kOffBoard = -128;

// Corner c of cell (x, y) is the grid point (x + kCornerDx[c], y + kCornerDy[c]); the cell whose
// corner c touches point (px, py) is (px - kCornerDx[c], py - kCornerDy[c]).
inline constexpr std::array<int, 4> kCornerDx = {1, 1, 0, 0}, kCornerDy = {0, 1, 1, 0};
inline constexpr std::array<std::string_view, 4> kCornerNames = {"NE", "SE", "SW", "NW"};

// The largest decisions fit a MoveList: placements (frontier cells x 4 rotations). A game with
// larger decisions of its own asserts its bound beside its state (Safari: safari_state.hpp).
static_assert(kMaxFrontier * 4 <= 4096);

// The game's own state (docs/architecture.md, "A game's own state"): one fixed-size, trivially
// copyable block in State that each game lays out in its own folder and reads through
// game_state<T>(s). init_state zeroes it; a game whose state is not all zeros at the start
// constructs it in its on_init hook (reset_game_state<T>). The search copies states by value, so
// a block holds no pointer and owns nothing.
inline constexpr std::size_t kGameStateBytes = 768;

struct State {
  const Ruleset* rs = nullptr;
  Phase phase = Phase::Draw;
  u8 nplayers = 2;
  u8 current = 0;
  u8 in_hand = 0xFF;  // tile type drawn and not yet placed
  u16 turn = 0;       // turns begun (a turn begins with a successful draw)
  u16 pile = 0;       // tiles left in the draw pile
  u16 bonus_pile = 0; // tiles left in the bonus pile
  u8 extra = 0;       // the current player has earned an extra turn from the bonus pile
  u8 in_extra = 0;    // this turn is such an extra turn
  u16 discards = 0;
  std::array<i16, kMaxPlayers> score{};
  std::array<u8, kMaxPlayers> supply{};   // pieces of kind 0 in supply
  std::array<u8, kMaxPlayers> supply2{};  // pieces of kind 1 in supply
  // A per-player track every front end draws (GameDef::track_name; Amazonas: the boats): each
  // player's space (1-based, 0 not on it) and the track's length (0: no track).
  std::array<u8, kMaxPlayers> track{};
  u8 track_len = 0;
  // Who decides a Choose move when it is not the current player (0xFF: the current player).
  u8 decider = 0xFF;
  u8 stage = 0;  // 0 before the turn's piece decision, 1 completion scoring, 2 after on_scoring
  u16 turn_first = 0;  // index of the first tile placed this turn
  u16 piece_from = 0;  // pieces this turn go on tiles [piece_from, tiles.size())
  std::array<u8, kMaxTileTypes> remaining{};
  std::array<u8, 8> kind_left{};  // tiles left in the pile by tile kind
  StaticVec<PlacedTile, kMaxPlaced> tiles;
  StaticVec<PieceOnBoard, kMaxPlayers * kMaxPieces> pieces;
  StaticVec<FrontierCell, kMaxFrontier> frontier;
  StaticVec<u16, kMaxOpenPoints> open_points;  // segments of point features not yet closed (monasteries)
  FeatureGraph graph;
  CellMap cells;  // value: placed index + 1, or 0x8000 | frontier index
  // The game's own state: read it with game_state<T>(s) (above).
  alignas(8) std::array<std::byte, kGameStateBytes> game_block{};

  [[nodiscard]] const TileType& type_of(const PlacedTile& t) const { return rs->tiles.types[t.type]; }
  [[nodiscard]] int placed_at(int x, int y) const {
    const u16 v = cells.get(x, y);
    return (v != 0 && !(v & 0x8000)) ? v - 1 : -1;
  }
  [[nodiscard]] const PlacedTile& last_placed() const { return tiles.back(); }
  [[nodiscard]] u8& supply_of(int kind, int player) {
    return (kind == 0 ? supply : supply2)[static_cast<std::size_t>(player)];
  }
  [[nodiscard]] u8 supply_of(int kind, int player) const {
    return (kind == 0 ? supply : supply2)[static_cast<std::size_t>(player)];
  }
};

// The game's own state block as the game's type T (its own folder's state header).
template <class T>
[[nodiscard]] T& game_state(State& s) {
  static_assert(std::is_trivially_copyable_v<T>, "a game's state block is copied with the State");
  static_assert(sizeof(T) <= kGameStateBytes, "a game's state block is at most kGameStateBytes");
  static_assert(alignof(T) <= 8, "a game's state block is aligned to 8 bytes at most");
  return *std::launder(reinterpret_cast<T*>(s.game_block.data()));
}
template <class T>
[[nodiscard]] const T& game_state(const State& s) {
  return game_state<T>(const_cast<State&>(s));  // NOLINT(cppcoreguidelines-pro-type-const-cast)
}
// Starts the block as a T{} (the game's on_init).
template <class T>
T& reset_game_state(State& s) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= kGameStateBytes && alignof(T) <= 8);
  return *::new (static_cast<void*>(s.game_block.data())) T{};
}

// Lay a tile with no legality check (start board, multi-cell tiles brought in by a game's rule).
void place_tile(State& s, int type, int x, int y, int rot, u8 player);
// Score one feature for its majority holders (no piece: nothing). Events go to ev.
void score_feature(State& s, int root, bool completed, EventSink* ev);
void return_pieces(State& s, int root);

// Corner c of the tile at cell (x, y) can hold a site's quarter: the tile is placed and its data
// lists that corner (Safari: it shows savanna).
bool corner_usable(const State& s, int x, int y, int c);
// Quarter c of grid point (px, py) can hold a token: corner_usable of the cell touching it there.
inline bool quarter_usable(const State& s, int px, int py, int c) {
  return corner_usable(s, px - kCornerDx[static_cast<std::size_t>(c)], py - kCornerDy[static_cast<std::size_t>(c)], c);
}

// Set up a new game: start board placed, pile full, player 0 to draw.
void init_state(State& s, const Ruleset& rs, int nplayers);

// A prepared position (a rulebook example, a puzzle, a bug report): the board instead of the start
// board (each tile touching and matching the ones before it), pieces on features not yet
// completed, scores, and optionally a short pile (exactly these tiles, then the game ends).
struct PreparedPiece {
  int player = 0, x = 0, y = 0;
  std::string port;
  u8 kind = 0xFF;  // 0xFF: the feature's own piece; else that kind claiming its network (a hut)
};
struct Prepared {
  std::vector<StartCell> board;  // empty: the game's start board
  std::vector<PreparedPiece> pieces;
  std::vector<int> scores;
  // pieces in each player's supply by kind (followers..., camps/huts); empty: what the pieces on
  // the board leave. At most the game's pieces minus those on the board (the rest are out of play).
  std::vector<std::array<int, 2>> supplies;
  bool short_pile = false;
  std::vector<int> pile;  // tile types, in draw order
  std::string game_keys;  // the game's own setup keys as a JSON object's text (Hooks::prepare); empty: none
  int to_move = 0;        // the seat that draws first
};
// Throws InputError naming the entry at fault.
void init_prepared(State& s, const Ruleset& rs, int nplayers, const Prepared& p);

// Chance: the tile types with copies left, weighted by count.
int sample_draw(const State& s, Rng& rng);
// A chance node's outcomes with their probabilities (positive, summing to 1), as sample_draw (a
// Draw: tile types) or the game's sample_chance (a Chance: the game's outcomes) would draw them.
void chance_odds(const State& s, std::vector<std::pair<int, double>>& out);
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
// Completion scoring and the end of the turn, resumed after a pause (a game's decision or chance
// event during scoring). Games call it when their pending work is done.
void continue_turn(State& s, EventSink* ev);

// The player who decides now (a Choose may belong to another player: Safari's token hand-ins).
[[nodiscard]] inline int to_move(const State& s) {
  return s.phase == Phase::Choose && s.decider != 0xFF ? s.decider : s.current;
}
// Chance nodes: a tile draw or a game's own chance event.
[[nodiscard]] inline bool is_chance(const State& s) { return s.phase == Phase::Draw || s.phase == Phase::Chance; }
// Draws and applies one chance outcome from rng (a tile, or the game's own). Returns false for a
// tile that fits nowhere (discarded).
bool chance_step(State& s, Rng& rng, EventSink* ev = nullptr);

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
// A score event's reason as records and views name it: "completed", "final", "farm", "special",
// or the game's own event's reason ("track").
std::string_view reason_name(const GameDef& g, const ScoreEvent& e);
// Whether the event is scored in the final scoring (Final, Farm, the game's own events and
// effects marked at_end).
bool is_final_scoring(const GameDef& g, const ScoreEvent& e);
// The same with "{pN}" for the players (with_seat_names puts their names in).
std::string describe_event_text(const State& s, const ScoreEvent& e);
// English plural of a symbol name: "shield" -> "shields", "fish" -> "fish", "deer" -> "deer".
std::string plural_noun(const std::string& w);

}  // namespace carc
