// Test helper: build positions tile by tile, in any player order, through the real rules.
// Each step draws the named tile (it must be left in the pile), checks the placement and the
// follower are legal, applies them and collects the score events.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "engine/engine.hpp"

namespace carc::test {

inline std::shared_ptr<const Ruleset> base_rules(const std::vector<std::string>& opts = {}) {
  return load_ruleset("base", opts);
}

struct Scenario {
  std::shared_ptr<const Ruleset> rs;
  State s;
  EventSink events;

  explicit Scenario(int players = 2, const std::vector<std::string>& opts = {}) : rs(base_rules(opts)) {
    init_state(s, *rs, players);
  }
  // A scenario over any ruleset (another game, e.g. load_ruleset("amazonas", {}), or a custom tile set).
  Scenario(std::shared_ptr<const Ruleset> ruleset, int players) : rs(std::move(ruleset)) { init_state(s, *rs, players); }

  // The placement move of `player` at (x, y) rotated `rot` degrees. Not checked.
  static Move place_move(int player, int x, int y, int rot) {
    Move m;
    m.kind = MoveKind::Place;
    m.player = static_cast<u8>(player);
    m.x = static_cast<i8>(x);
    m.y = static_cast<i8>(y);
    m.rot = static_cast<u8>(rot / 90);
    return m;
  }

  // A piece move of `player` on the feature at `port` of the tile at (x, y) in state `t`; pk as for
  // place(). Not checked: pass it to is_legal or play().
  static Move piece_on(const State& t, int player, int x, int y, const std::string& port, u8 pk = 0xFF) {
    Move p;
    p.kind = MoveKind::Piece;
    p.player = static_cast<u8>(player);
    const int ti = t.placed_at(x, y);
    EXPECT_GE(ti, 0) << "no tile at " << x << "," << y;
    const int f = ti < 0 ? -1 : feature_at_port(t, t.tiles[static_cast<std::size_t>(ti)], port);
    EXPECT_GE(f, 0) << "no feature at " << port;
    p.feat = static_cast<u8>(f);
    p.x = static_cast<i8>(x);
    p.y = static_cast<i8>(y);
    p.pk = pk;
    return p;
  }
  Move piece_move(int player, int x, int y, const std::string& port, u8 pk = 0xFF) const {
    return piece_on(s, player, x, y, port, pk);
  }

  // The first half of a turn: draws tile `id` and places it at (x, y) rotated `rot` degrees by
  // `player`, stopping at the decisions that follow (phase Choose or Piece). Returns the events of
  // the placement (e.g. a bonus tile's immediate effect). Fails the test if anything is illegal.
  EventSink draw_and_place(const std::string& id, int x, int y, int rot, int player) {
    const int type = rs->tiles.find(id);
    EXPECT_GE(type, 0) << "unknown tile " << id;
    EXPECT_EQ(s.phase, Phase::Draw);
    EXPECT_GT(s.remaining[static_cast<std::size_t>(type)], 0) << "no " << id << " left";
    s.current = static_cast<u8>(player);
    const std::size_t before = events.size();
    EXPECT_TRUE(apply_draw(s, type, &events)) << id << " fits nowhere";
    const Move m = place_move(player, x, y, rot);
    EXPECT_TRUE(is_legal(s, m)) << id << " at " << x << "," << y << " r" << rot << " is illegal";
    apply_move(s, m, &events);
    return since(before);
  }

  // Places tile `id` at (x, y) rotated `rot` degrees by `player`, with a follower at `port`
  // ("" for none). Returns the events of this turn. Fails the test if anything is illegal.
  // `pk`: 0xFF (default) the feature's own piece; else that piece kind claiming the feature's network
  // (Hunters: 1, a hut on the river system).
  EventSink place(const std::string& id, int x, int y, int rot, int player, const std::string& port = "", u8 pk = 0xFF) {
    const std::size_t before = events.size();
    draw_and_place(id, x, y, rot, player);
    end_turn_with_piece(player, x, y, port, pk, id);
    return since(before);
  }

  // A turn with a choice after the placement (Amazonas "!" tile: `choice` names the double tile,
  // `choice_rot` its rotation in degrees), then a piece at `port` on the tile of this turn lying at
  // (px, py) ("" for none). Returns the events of this turn. Fails the test if anything is illegal.
  EventSink place_choose(const std::string& id, int x, int y, int rot, int player, const std::string& choice,
                         int choice_rot, int px = 0, int py = 0, const std::string& port = "") {
    const std::size_t before = events.size();
    draw_and_place(id, x, y, rot, player);
    EXPECT_EQ(s.phase, Phase::Choose) << id << " asks for no choice";
    Move c;
    c.kind = MoveKind::Choose;
    c.player = static_cast<u8>(player);
    c.feat = static_cast<u8>(rs->tiles.find(choice));
    c.rot = static_cast<u8>(choice_rot / 90);
    EXPECT_TRUE(is_legal(s, c)) << "choice " << choice << " r" << choice_rot << " is illegal";
    apply_move(s, c, &events);
    end_turn_with_piece(player, px, py, port, 0xFF, id);
    return since(before);
  }

  // Whether a follower could go at `port` if tile `id` were placed at (x, y, rot) now.
  // `pk` as for place(): 0xFF the feature's own piece, else that kind claiming its network (a hut).
  bool can_claim(const std::string& id, int x, int y, int rot, int player, const std::string& port, u8 pk = 0xFF) {
    State t = s;
    t.current = static_cast<u8>(player);
    if (!apply_draw(t, rs->tiles.find(id))) return false;
    const Move m = place_move(player, x, y, rot);
    if (!is_legal(t, m)) return false;
    apply_move(t, m);
    if (feature_at_port(t, t.last_placed(), port) < 0) return false;
    return is_legal(t, piece_on(t, player, x, y, port, pk));
  }

  // Applies one decision (it must be legal) and returns its events.
  EventSink play(const Move& m) {
    EXPECT_TRUE(is_legal(s, m)) << "illegal move";
    const std::size_t before = events.size();
    apply_move(s, m, &events);
    return since(before);
  }

  // Runs final scoring now (empties the pile) and returns its events.
  EventSink finish() {
    const std::size_t before = events.size();
    s.pile = 0;
    s.remaining.fill(0);
    end_if_pile_empty(s, &events);
    EXPECT_EQ(s.phase, Phase::Over);
    return since(before);
  }

  int score(int p) const { return s.score[static_cast<std::size_t>(p)]; }

 private:
  EventSink since(std::size_t before) const { return EventSink(events.begin() + static_cast<long>(before), events.end()); }
  // The piece decision ending a turn: a piece at `port` of the tile at (x, y), or a pass if "".
  void end_turn_with_piece(int player, int x, int y, const std::string& port, u8 pk, const std::string& id) {
    Move p;
    p.player = static_cast<u8>(player);
    if (!port.empty()) {
      p = piece_move(player, x, y, port, pk);
      EXPECT_TRUE(is_legal(s, p)) << "piece at " << port << " on " << id << " at " << x << "," << y << " is illegal";
    }
    apply_move(s, p, &events);
  }
};

// The rulebook's monastery at the game's last tile: red's monk below the start tile with 7 of 8
// neighbours placed (blue's tiles), and red has drawn E, the last tile of the pile. E completes
// the monastery at 0,2 (9 points instead of 8 at the end) or closes the start city at 0,-1 for a
// knight (4 points). Seat 0 is red, seat 1 blue.
inline Scenario monastery_last_tile() {
  constexpr int kRed = 0, kBlue = 1;
  Scenario sc(2);
  sc.place("B", 0, 1, 0, kRed, "C");
  sc.place("U", -1, 0, 90, kBlue);
  sc.place("U", 1, 0, 90, kBlue);
  sc.place("B", -1, 1, 0, kBlue);
  sc.place("B", 1, 1, 0, kBlue);
  sc.place("E", -1, 2, 180, kBlue);
  sc.place("E", 1, 2, 180, kBlue);
  sc.s.current = kRed;
  const int e = sc.rs->tiles.find("E");
  sc.s.remaining.fill(0);
  sc.s.remaining[static_cast<std::size_t>(e)] = 1;
  sc.s.pile = 1;
  sc.s.kind_left.fill(0);
  sc.s.kind_left[0] = 1;
  EXPECT_TRUE(apply_draw(sc.s, e));
  return sc;
}

// Sum of points a player got in a list of events.
inline int points(const EventSink& ev, int player) {
  int t = 0;
  for (const auto& e : ev)
    if (e.player == player) t += e.points;
  return t;
}

}  // namespace carc::test
