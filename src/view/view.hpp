// view: a position as data for every front end (terminal, SVG, the engine protocol, the server,
// the browser, Python). Built from a Game on demand, never on the search path. Its JSON form is
// documented in docs/view.schema.json and returned by the protocol's "view" command.
//
// Front ends show this and send moves in the engine's notation (engine/notation); they hold no
// rules of their own. Each game's own state reaches them as panels (GameDef::present), never as
// game-specific code in a front end.
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/i18n.hpp"
#include "engine/engine.hpp"
#include "view/tile_geometry.hpp"

namespace carc::view {

struct TileView {
  std::string id;
  int x = 0, y = 0, rot = 0;  // rot in degrees clockwise
  int player = -1;            // who placed it (-1: the start board or a prepared position)
  bool last = false;          // placed in the last turn that placed tiles
  std::vector<int> covered;   // local features whose symbols no longer count (a pit trap covered them)
};

// What a feature is worth now: completed (and scored), its tiles, the points its majority would
// get now (completed features: what they scored or score now; open ones: at the end as it stands),
// the pieces on it per seat and the seats holding the majority.
struct Worth {
  bool completed = false;
  int tiles = 0;
  int points = 0;
  std::vector<int> pieces;  // by seat
  std::vector<int> owners;  // seats with the most pieces (none: no piece); completed: the seats that scored it
};

struct PieceView {
  int player = 0;
  std::string piece;    // the game's piece name ("follower", ...)
  int x = 0, y = 0;     // the tile's cell
  std::string port;     // the feature's port on that tile, as in the notation
  std::string feature;  // its type ("road")
  int feature_id = 0;   // FeatureView::id of the feature (or the network a network piece claims)
  Point anchor;         // where to draw it inside the tile: (0,0) the north-west corner, (1,1) south-east
};

struct FeatureView {
  int id = 0;  // stable while the feature lasts (its root segment)
  std::string type;
  Worth worth;
  std::vector<std::pair<int, int>> cells;  // the tiles it spans
};

// What stands on the board besides tiles and pieces (the game's Presentation::overlays, with the
// notations of the decision's options that act on it), drawn with the glyphs of the game's look.
struct OverlayView {
  Overlay overlay;
  std::vector<std::string> targets;  // options now naming it (OptionInfo::overlay), by notation
};

struct PlayerView {
  int seat = 0;
  std::string name, bot;  // bot: "" for a human
  int score = 0;
  std::vector<std::pair<std::string, int>> supply;  // pieces in supply by name
  std::vector<std::pair<std::string, int>> hand;    // what else the player holds (a game's tokens)
  // supply's and hand's names in the view's language (piece.<name>, noun.<name> messages)
  std::vector<std::string> supply_words, hand_words;
  int track = 0;  // space on the game's track, 0 none
};

// One option of the decision now: its notation (what to send), a sentence, and for pieces where
// it goes and what the feature is worth with it. A game's actions and choices say what they name
// (`target`, from the game's Presentation::option_info): "cell" (x, y: a cell to point at, e.g.
// a marker's new cell), "piece" (x, y, port, piece, feature: a piece on the board), "tile" (tile,
// rot: a tile to draw), "token" (token: a kind of token), "point" (x, y: a grid point, the
// north-west corner of cell x, y; cell: the cell whose quarter of it the option fills), "" nothing.
// `located`: a tile, token or nothing that acts at cell x, y (a front end offers it there).
struct OptionView {
  std::string notation, text;
  std::string kind;  // "place", "piece", "pass", "action", "choice"
  int x = 0, y = 0;
  std::vector<int> rots;  // place: the rotations that fit at the cell (degrees)
  std::vector<std::string> notations;  // place: the move for each of rots ("U 1,0 r90"); notation is then empty
  std::string port, piece, feature;
  std::optional<Worth> worth;  // piece: the feature as it stands with the tile placed
  Point anchor;                // piece: where the piece would stand in its tile (as PieceView::anchor)
  std::string target;          // action, choice: "cell", "piece", "tile", "token" or ""
  std::string tile, token;     // target "tile": the tile id (rot: degrees); "token": its kind's name
  std::string overlay;         // action, choice: the overlay it acts on (OverlayView), "" none
  int rot = 0;
  int cx = 0, cy = 0;    // target "point": the cell whose quarter it fills
  bool located = false;  // target "tile", "token" or "": x, y is the cell where it acts
};

struct DecisionView {
  std::string phase;  // "place", "piece", "choose", "over", "waiting" (a draw no source can give)
  int player = -1;    // who decides
  std::string tile;   // the tile in hand (place)
  std::vector<OptionView> options;  // place: one per cell (rots listed); others: one per move
  // The game's explanation of the decision (Presentation::decision_panels, not in full): the
  // actions beside a piece, what a choice's options score, who else is concerned.
  std::vector<Panel> panels;
};

struct EventView {
  int turn = 0, player = 0, points = 0;
  std::string reason;  // completed, final, farm, special, or a game's own event (GameDef::own_events)
  std::string text;    // in words
  std::string feature;  // the feature type scored (road, city, ...); "" for a game's own event
};

struct View {
  std::string game, title;
  std::string lang;  // the language of its words: "en", "ru", "ro" (docs/i18n.md)
  int turn = 0;
  std::vector<TileView> tiles;
  std::vector<PieceView> pieces;
  std::vector<FeatureView> features;
  std::vector<OverlayView> overlays;
  int track_len = 0;        // the game's track (Overlay::At::Track), 0 none
  std::string track_title;  // its heading
  std::string track_name;   // what stands on it (GameDef::track_name)
  std::string track_word;   // the same in the view's language (track.<name> message)
  std::vector<PlayerView> players;
  int pile_left = 0, bonus_left = 0;
  std::vector<std::pair<std::string, int>> pile;  // tiles left by id (draw and bonus piles)
  DecisionView decision;
  std::vector<EventView> last_turn;  // the events of the last finished turn (and the final scoring)
  std::vector<Panel> panels;
  std::vector<std::string> summary;  // the game's own state in a few short lines (Presentation::summary)
  bool over = false;
  std::vector<int> final_scores, winners;
};

struct ViewOptions {
  bool features = true;  // list every feature on the board
  bool options = true;   // list the options of the decision now
  // The language of its words (docs/i18n.md); none: the calling thread's (i18n::Scope).
  std::optional<i18n::Lang> lang;
};

View build_view(const Game& g, const ViewOptions& o = {});
// The same with the seats' names as this reader sees them (`names`: the server's default names in
// the reader's language; a seat beyond it keeps the game's).
View build_view(const Game& g, const ViewOptions& o, const std::vector<std::string>& names);
// The view of a state alone: the same but for the last turn's events (a state keeps no events).
View build_view(const State& s, const std::vector<PlayerInfo>& players, const ViewOptions& o = {});
// What the options would be after the tentative placement `place` (a Place move of the decision
// now): the piece spots with their worth, the actions and the pass. Throws InputError if illegal.
std::vector<OptionView> options_after(const Game& g, const Move& place);
// The options of the decision now.
std::vector<OptionView> decision_options(const State& s);

// A move in words, as a game's log says it (in the calling thread's language), from the state
// before it: "tile L36 at 18,-2, turned 180°", "follower on the city (N)" (a piece named by its
// role where it has one), the game's own past-tense words for an action or choice
// (Presentation::told), else the option's sentence (the pass: "no piece"). `placed`: the cell of
// the turn's placement (a game's words may name it). Never on the search path.
std::string move_words(const State& s, const Move& m, std::optional<std::pair<int, int>> placed = std::nullopt);
// A turn's moves in words, one each, from the state before the first (each applied to a copy).
std::vector<std::string> turn_words(State s, const std::vector<Move>& moves);

// What one piece spot is worth (the feature with the piece's tile placed).
Worth worth_of(const State& s, int seg);
// A sentence for a piece option: "completes the road: scores 3 now", "a road of 2 tiles, open:
// 2 at the end as it stands" (or the game's own words, Presentation::spot_text), and who else is
// on it ("; joins 1 of Ann's pieces").
std::string spot_sentence(const State& s, const PlacedTile& t, int local, const std::vector<PlayerInfo>& players);

// A score event in words, players by name.
EventView event_view(const State& s, const ScoreEvent& e, const std::vector<PlayerInfo>& players);

// The tile set as a browser needs it to draw boards with the engine's own pictures
// (`carcassonne tiles`, docs/view.md): per tile type its id, picture file (file_of), copies and
// pile, and per feature its type, ports (rotation 0) and where a piece on it stands in each of the
// four rotations (anchors, unit tile). Plus the feature types, piece names and seat colours.
nlohmann::json tile_catalog(const Ruleset& rs, const std::vector<std::string>& files);
// A file name for a tile id: the id itself when it is safe in a path ([A-Za-z0-9_-], at most 40),
// else "tile-<index>".
std::string tile_file_stem(const std::string& id, int index);

nlohmann::json to_json(const View& v);
nlohmann::json to_json(const EventView& e);
nlohmann::json to_json(const OverlayView& o);
nlohmann::json to_json(const OptionView& o);
// The options as a JSON array appended to `out`: the same as an array of to_json(o), written
// directly (the protocol's legal replies, where building JSON objects cost more than the rules).
void append_options_json(std::string& out, const std::vector<OptionView>& options);
nlohmann::json to_json(const Worth& w);
nlohmann::json to_json(const Panel& p);

}  // namespace carc::view
