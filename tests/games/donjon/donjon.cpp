// The keep, a test game (tests/games/GAMES: seen only with CARCASSONNE_TEST_GAMES=1), the shape of
// "Carcassonne: The Castle" made small: tiles of the base game on a 7x7 board around the start
// tile, and the wall, six stones lying on spaces 5 to 30 of the score track. A player whose score
// reaches or passes a stone's space after a turn's scoring (and after the final scoring of the
// features) takes the stone; at the end each stone scores its points and the player with the most
// stones scores the keep. It exists to show a game whose state is its own block (donjon_state.hpp),
// with its setup keys, its facts for the bots and the learning interface, and its panels.
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "core/json_input.hpp"
#include "donjon_state.hpp"
#include "games/games.hpp"
#include "rules/words.hpp"

namespace carc::games {

const GameDef& donjon();  // below

namespace {

using jin::json;

constexpr std::string_view kLook =
#include "look_donjon.inc"
    ;
constexpr std::string_view kMessages =
#include "messages_donjon.inc"
    ;

// say() for the keep's words: its catalog, then the engine's.
std::string kp_say(std::string_view id, const MsgArgs& args = {}) {
  static const i18n::Catalog* const own = game_messages(donjon());
  static const i18n::Catalog* const generic = &generic_messages();
  return i18n::say({own, generic}, id, args);
}

// The game's own events (GameDef::own_events, ScoreEvent::kind): a stone taken during the game, a
// stone taken in the final scoring, the stones' points and the keep at the end.
enum OwnKind : u8 { kStone = 0, kStoneAtEnd = 1, kWall = 2, kKeep = 3 };

bool inside(int x, int y) { return std::abs(x) <= kKeepReach && std::abs(y) <= kKeepReach; }

void on_init(State& s) { reset_game_state<KeepState>(s).holder.fill(kOnWall); }

bool placement_allowed(const State&, int, int x, int y, int) { return inside(x, y); }

void push_event(const State& s, EventSink* ev, int p, OwnKind kind, int points, int tiles, int attr) {
  if (!ev) return;
  ScoreEvent e;
  e.turn = s.turn;
  e.player = static_cast<u8>(p);
  e.reason = ScoreReason::Own;
  e.kind = kind;
  e.points = static_cast<i16>(points);
  e.tiles = static_cast<u8>(tiles);
  e.attr = static_cast<u8>(attr);
  ev->push_back(e);
}

// Each player in turn from the one whose turn it is takes every stone still on the wall whose
// space their score has reached.
void take_stones(State& s, EventSink* ev, OwnKind kind) {
  KeepState& k = keep_state(s);
  for (int n = 0; n < s.nplayers; ++n) {
    const int p = (s.current + n) % s.nplayers;
    for (std::size_t i = 0; i < kKeepStones; ++i) {
      if (k.holder[i] != kOnWall || s.score[static_cast<std::size_t>(p)] < kKeepStoneSpace[i]) continue;
      k.holder[i] = static_cast<u8>(p);
      push_event(s, ev, p, kind, 0, kKeepStoneSpace[i], kKeepStoneValue[i]);
    }
  }
}

void on_scoring(State& s, EventSink* ev) { take_stones(s, ev, kStone); }

// After the features' final scoring: the stones reached then, each stone's points, the keep.
void on_final_scoring(State& s, EventSink* ev) {
  take_stones(s, ev, kStoneAtEnd);
  int most = 0;
  for (int p = 0; p < s.nplayers; ++p) {
    const int n = keep_stones(s, p);
    most = std::max(most, n);
    if (n == 0) continue;
    const int v = keep_stone_points(s, p);
    s.score[static_cast<std::size_t>(p)] = static_cast<i16>(s.score[static_cast<std::size_t>(p)] + v);
    push_event(s, ev, p, kWall, v, n, 0);
  }
  if (most == 0) return;
  for (int p = 0; p < s.nplayers; ++p) {
    if (keep_stones(s, p) != most) continue;
    s.score[static_cast<std::size_t>(p)] = static_cast<i16>(s.score[static_cast<std::size_t>(p)] + kKeepBonus);
    push_event(s, ev, p, kKeep, kKeepBonus, most, 0);
  }
}

// ---- prepared positions ----

// The stone on space `space`, or -1.
int stone_at(int space) {
  const auto it = std::find(kKeepStoneSpace.begin(), kKeepStoneSpace.end(), space);
  return it == kKeepStoneSpace.end() ? -1 : static_cast<int>(it - kKeepStoneSpace.begin());
}

// A prepared position: every tile within the square; key "stones": [[space, ...] per player], the
// spaces of the stones each player holds (the rest lie on the wall; default: all of them).
void prepare(State& s, const std::string& keys, bool own_board) {
  if (own_board)
    for (const PlacedTile& t : s.tiles)
      if (!inside(t.x, t.y))
        throw InputError(fmt::format("setup: tiles: {} at {},{} lies outside the board (x and y from {} to {})",
                                     s.type_of(t).id, t.x, t.y, -kKeepReach, kKeepReach));
  const json j = keys.empty() ? json::object() : jin::parse(keys, "setup");
  const json* st = jin::opt(j, "stones");
  if (!st) return;
  const json& hands = jin::array(*st, "setup", "stones", kMaxPlayers);
  if (hands.size() != s.nplayers)
    throw InputError(fmt::format("setup: stones: one list per player ({}), not {}", s.nplayers, hands.size()));
  KeepState& k = keep_state(s);
  for (std::size_t p = 0; p < hands.size(); ++p) {
    const std::string key = fmt::format("stones[{}]", p);
    const json& spaces = jin::array(hands[p], "setup", key, kKeepStones);
    for (std::size_t i = 0; i < spaces.size(); ++i) {
      const std::string at = fmt::format("{}[{}]", key, i);
      const int space = static_cast<int>(jin::integer(spaces[i], 0, 1000, "setup", at));
      const int stone = stone_at(space);
      if (stone < 0)
        throw InputError(fmt::format("setup: {}: no stone of the wall lies on space {} (the spaces: {})", at, space,
                                     fmt::join(kKeepStoneSpace, ", ")));
      u8& h = k.holder[static_cast<std::size_t>(stone)];
      if (h != kOnWall) throw InputError(fmt::format("setup: {}: the stone on space {} is held twice", at, space));
      h = static_cast<u8>(p);
    }
  }
}

std::string export_keys(const State& s) {
  json hands = json::array();
  for (int p = 0; p < s.nplayers; ++p) {
    json spaces = json::array();
    for (std::size_t i = 0; i < kKeepStones; ++i)
      if (keep_state(s).holder[i] == p) spaces.push_back(kKeepStoneSpace[i]);
    hands.push_back(spaces);
  }
  return json{{"stones", hands}}.dump();
}

// ---- facts for the bots and the learning interface ----

// The stones a player holds (Hooks::held): they score at the end.
int held(const State& s, int p) { return keep_stones(s, p); }

// The greedy evaluation's own term: the stones' points, and the keep as it stands (shared by the
// players tied for it).
double greedy_term(const State& s, int p) {
  int most = 0, tied = 0;
  for (int q = 0; q < s.nplayers; ++q) most = std::max(most, keep_stones(s, q));
  for (int q = 0; q < s.nplayers; ++q) tied += most > 0 && keep_stones(s, q) == most;
  const bool keeps = most > 0 && keep_stones(s, p) == most;
  return keep_stone_points(s, p) + (keeps ? static_cast<double>(kKeepBonus) / tied : 0.0);
}

// The observation (GameDef::observation): per seat the stones held and their points; which stones
// still lie on the wall.
void observe(const State& s, ObservationSink& o) {
  for (int p = 0; p < s.nplayers; ++p) {
    o.seat_value(p, 0, static_cast<float>(keep_stones(s, p)));
    o.seat_value(p, 1, static_cast<float>(keep_stone_points(s, p)));
  }
  for (std::size_t i = 0; i < kKeepStones; ++i)
    o.value(static_cast<int>(i), keep_state(s).holder[i] == kOnWall ? 1.0F : 0.0F);
}

// ---- words and panels ----

std::string describe(const State&, const ScoreEvent& e) {
  if (e.reason != ScoreReason::Own) return {};
  const std::string who = seat_ref(e.player);
  switch (e.kind) {
    case kStone:
      return kp_say("event.kp_stone", {{"player", who}, {"space", e.tiles}, {"value", e.attr}});
    case kStoneAtEnd:
      return kp_say("event.kp_stone_end", {{"player", who}, {"space", e.tiles}, {"value", e.attr}});
    case kWall:
      return kp_say("event.kp_wall", {{"player", who}, {"points", e.points}, {"stones", e.tiles}});
    case kKeep:
      return kp_say("event.kp_keep", {{"player", who}, {"points", e.points}, {"stones", e.tiles}});
    default:
      return {};
  }
}

// The stones still on the wall, "space 20 (3 points), space 25 (4 points)".
std::string on_wall(const State& s) {
  std::vector<std::string> items;
  for (std::size_t i = 0; i < kKeepStones; ++i)
    if (keep_state(s).holder[i] == kOnWall)
      items.push_back(kp_say("wall.item", {{"space", kKeepStoneSpace[i]}, {"value", kKeepStoneValue[i]}}));
  return fmt::format("{}", fmt::join(items, ", "));
}

int left_on_wall(const State& s) {
  return static_cast<int>(std::count(keep_state(s).holder.begin(), keep_state(s).holder.end(), kOnWall));
}

// The wall: who holds which stones and what they score at the end, and what is left on the track.
std::vector<Panel> panels(const State& s) {
  Panel w;
  w.id = "wall";
  w.title = kp_say("panel.wall.title");
  w.columns = {"seat", kp_say("panel.wall.stones"), kp_say("panel.wall.spaces"), kp_say("panel.wall.points")};
  for (int p = 0; p < s.nplayers; ++p) {
    std::vector<std::string> spaces;
    for (std::size_t i = 0; i < kKeepStones; ++i)
      if (keep_state(s).holder[i] == p) spaces.push_back(std::to_string(kKeepStoneSpace[i]));
    w.rows.push_back({std::to_string(p), std::to_string(keep_stones(s, p)),
                      spaces.empty() ? kp_say("panel.wall.none") : fmt::format("{}", fmt::join(spaces, ", ")),
                      std::to_string(keep_stone_points(s, p))});
  }
  w.lines.push_back(left_on_wall(s) > 0 ? kp_say("panel.wall.left", {{"stones", on_wall(s)}})
                                        : kp_say("panel.wall.empty"));
  w.lines.push_back(kp_say("panel.wall.rule", {{"points", kKeepBonus}}));
  return {w};
}

// The wall in two short lines, for a picture's side panel.
std::vector<std::string> summary(const State& s) {
  const int left = left_on_wall(s);
  std::vector<std::string> held_by;
  for (int p = 0; p < s.nplayers; ++p)
    if (const int n = keep_stones(s, p))
      held_by.push_back(kp_say("summary.held_item", {{"player", seat_ref(p)}, {"n", n}}));
  return {left > 0 ? kp_say("summary.wall", {{"n", left}, {"stones", on_wall(s)}}) : kp_say("summary.wall_empty"),
          held_by.empty() ? kp_say("summary.held_none")
                          : kp_say("summary.held", {{"list", fmt::format("{}", fmt::join(held_by, ", "))}})};
}

}  // namespace

const GameDef& donjon() {
  static const GameDef def = [] {
    GameDef g;
    g.id = "donjon";
    g.title = "The keep";
    //             name       class          terrain claim done/tile done/attr final/tile final/attr symbols
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
    g.pass_text = "no follower";
    // record keys: {tiles, attr, moved, cause}
    g.own_events = {{"stone", {"space", "value", "", ""}, "", false, false},
                    {"stone_at_end", {"space", "value", "", ""}, "", true, false},
                    {"wall", {"stones", "", "", ""}, "", true, false},
                    {"keep", {"stones", "", "", ""}, "", true, false}};
    g.describe = describe;
    g.setup_keys = {"stones"};
    g.window_radius = kKeepReach + 1;  // the board and the frontier around it
    Hooks& h = g.hooks;
    h.on_init = on_init;
    h.prepare = prepare;
    h.export_keys = export_keys;
    h.placement_allowed = placement_allowed;
    h.on_scoring = on_scoring;
    h.on_final_scoring = on_final_scoring;
    h.held = held;
    h.greedy_term = greedy_term;
    h.observe = observe;
    g.observation.seat_values = {"wall_stones", "wall_points"};
    for (const int space : kKeepStoneSpace) g.observation.values.push_back(fmt::format("stone_on_space_{}", space));
    g.present.look = kLook;
    g.present.messages = kMessages;
    g.present.panels = panels;
    g.present.summary = summary;
    return g;
  }();
  return def;
}

}  // namespace carc::games
