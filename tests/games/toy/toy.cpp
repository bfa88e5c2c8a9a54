// A toy game for tests (tests/games/GAMES: seen only with CARCASSONNE_TEST_GAMES=1): six tile
// types of the base game and a beacon. The beacon stands on an empty cell; instead of placing a
// follower a player may move it to any empty cell next to the board (an action), and a tile placed
// on its cell puts it out of the game. It exists to show that a game is one folder plus one tile
// file: its look (look.json: the beacon's glyph), its overlay (the beacon), its decision (the
// move) and its words come from here, and no front end names it.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "core/io.hpp"
#include "games/games.hpp"

namespace carc::games {

namespace {

constexpr std::string_view kLook =
#include "look_toy.inc"
    ;
constexpr std::string_view kMessages =
#include "messages_toy.inc"
    ;

// The toy's own state (its block in State): the beacon's cell, kOffBoard when it is off the board.
struct ToyState {
  std::array<i8, 2> beacon{};
};
ToyState& toy_state(State& s) { return game_state<ToyState>(s); }
const ToyState& toy_state(const State& s) { return game_state<ToyState>(s); }

void on_init(State& s) {
  int hi = -128, y = 0;
  for (const StartCell& c : s.rs->tiles.side_for(s.nplayers).cells) {
    hi = std::max<int>(hi, c.x);
    y = c.y;
  }
  reset_game_state<ToyState>(s).beacon = {static_cast<i8>(hi + 1), static_cast<i8>(y)};
}

void before_place(State& s, const Move& m) {
  if (toy_state(s).beacon[0] == m.x && toy_state(s).beacon[1] == m.y) toy_state(s).beacon = {kOffBoard, kOffBoard};
}

void gen_actions(const State& s, MoveList& out) {
  if (toy_state(s).beacon[0] == kOffBoard) return;
  Move m;
  m.kind = MoveKind::Act;
  m.player = s.current;
  m.pk = 1;
  for (const FrontierCell& fc : s.frontier) {
    if (fc.x == toy_state(s).beacon[0] && fc.y == toy_state(s).beacon[1]) continue;
    m.x = fc.x;
    m.y = fc.y;
    out.push_back(m);
  }
}

void apply_action(State& s, const Move& m, EventSink*) { toy_state(s).beacon = {m.x, m.y}; }

std::string action_text(const State&, const Move& m) { return fmt::format("beacon to {},{}", m.x, m.y); }

// "beacon to X,Y"
Move action_parse(const State& s, std::string_view text) {
  Move m;
  m.kind = MoveKind::Act;
  m.player = s.current;
  m.pk = 1;
  int x = 0, y = 0;
  char tail = 0;
  const std::string t(text);
  if (std::sscanf(t.c_str(), "beacon to %d,%d%c", &x, &y, &tail) != 2 || x < -128 || x > 127 || y < -128 || y > 127)
    throw InputError(fmt::format("\"{}\": expected \"beacon to X,Y\"", printable(t)));
  m.x = static_cast<i8>(x);
  m.y = static_cast<i8>(y);
  return m;
}

OptionInfo option_info(const State&, const Move& m) {
  OptionInfo o;
  if (m.kind != MoveKind::Act) return o;
  o.target = OptionInfo::Target::Cell;
  o.x = m.x;
  o.y = m.y;
  o.overlay = "beacon:0";
  o.text = fmt::format("move the beacon to {},{}", m.x, m.y);
  return o;
}

std::vector<Overlay> overlays(const State& s) {
  if (toy_state(s).beacon[0] == kOffBoard) return {};
  Overlay o;
  o.id = "beacon:0";
  o.glyph = "beacon";
  o.x = toy_state(s).beacon[0];
  o.y = toy_state(s).beacon[1];
  o.label = fmt::format("the beacon on {},{}: a tile placed here puts it out", o.x, o.y);
  return {o};
}

// Moving the beacon changes nothing the bots' evaluations read: one move to them.
u32 eval_twin(const State&, const Move& m) { return m.kind == MoveKind::Act ? 1 : 0; }

// The observation's own plane: where the beacon stands.
void observe(const State& s, ObservationSink& o) {
  const ToyState& t = toy_state(s);
  if (t.beacon[0] != kOffBoard) o.plane(0, -1, t.beacon[0], t.beacon[1], 1);
}

}  // namespace

const GameDef& toy() {
  static const GameDef def = [] {
    GameDef g;
    g.id = "toy";
    g.title = "Toy game";
    g.ftypes = {
        {"road", FClass::Path, 1, true, 1, 0, 1, 0},
        {"city", FClass::Area, 2, true, 2, 2, 1, 1, {"shield"}},
        {"field", FClass::Field, 3, true, 0, 0, 0, 0},
        {"monastery", FClass::Point, 0, true, 1, 0, 1, 0},
    };
    g.pieces_per_player = 5;
    g.min_players = 2;
    g.max_players = 4;
    g.farm_points_per_city = 3;
    g.pass_text = "no follower, the beacon stays";
    g.action_blocks = {{"beacon", "move the beacon to the cell", MoveKind::Act, 1, true, 0, false, 0, false}};
    g.hooks.on_init = on_init;
    g.hooks.before_place = before_place;
    g.hooks.gen_actions = gen_actions;
    g.hooks.apply_action = apply_action;
    g.hooks.action_text = action_text;
    g.hooks.action_parse = action_parse;
    g.hooks.eval_twin = eval_twin;
    g.hooks.observe = observe;
    g.observation.planes = {{"beacon"}};
    g.present.look = kLook;
    g.present.messages = kMessages;
    g.present.overlays = overlays;
    g.present.option_info = option_info;
    return g;
  }();
  return def;
}

}  // namespace carc::games
