// Hunters & Gatherers' own checks in the conformance suite (tests/conformance.hpp), over its seeded
// random games, 2-5 players (RULES.md section 3): every generated move legal and no legal placement
// missing (edges recomputed by brute force), tribe members (5) and huts (3) conserved, draws from
// the right pile (the bonus pile exactly when a bonus turn is due, at most one per turn), completed
// rivers and forests, the canoe, meadows and river systems re-scored independently from the tile
// data (covered animals never count twice), both piles handled at the end. (Scores never falling,
// events adding up, bot games replaying through JSON: the suite's generic checks.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

#include "ai/driver.hpp"
#include "conformance.hpp"
#include "property_support.hpp"
#include "scenario.hpp"

namespace carc::test {
namespace {

// Indices looked up by name, so the checks below do not borrow the engine's enums.
struct Names {
  int river = -1, lake = -1, forest = -1, meadow = -1;
  int canoe = 0, pit_trap = 0, shaman = 0, big_trap = 0, fire = 0, raft = 0;  // TileFeature::special values
  explicit Names(const Ruleset& rs) {
    for (std::size_t t = 0; t < rs.game->ftypes.size(); ++t) {
      const std::string& n = rs.game->ftypes[t].name;
      (n == "river" ? river : n == "lake" ? lake : n == "forest" ? forest : meadow) = static_cast<int>(t);
    }
    const auto& sp = rs.game->specials;
    auto idx = [&](const char* n) { return 1 + static_cast<int>(std::find(sp.begin(), sp.end(), n) - sp.begin()); };
    canoe = idx("canoe");
    pit_trap = idx("pit_trap");
    shaman = idx("shaman");
    big_trap = idx("big_trap");
    fire = idx("fire");
    raft = idx("raft");
  }
};

const TileFeature& tfeat(const State& s, int seg) {
  const Segment& sg = s.graph[seg];
  return s.type_of(s.tiles[sg.tile]).feats[sg.local];
}

struct Tally {
  long games = 0, placements = 0, bonus_turns = 0, bonus_at_end = 0, huts = 0, choices = 0, returns = 0;
  long canoes = 0, pit_traps = 0, farm_events = 0, network_events = 0, raft_events = 0, big_trap_farms = 0;
  long fire_farms = 0, completed_rivers = 0, completed_forests = 0, unplaceable_bonus = 0;
  long bad_legal = 0, missing = 0, bad_conservation = 0, score_fell = 0, bad_pile = 0, bad_turn_order = 0;
  long bad_end = 0, bad_event_sum = 0, bad_completed = 0, bad_canoe = 0, bad_farm = 0, bad_network = 0;
  long bad_covered = 0, bad_pieces_where = 0, bad_choice = 0;
};

void check_state(const State& s, const State& before, const Names& nm, Tally& t, bool turn_scored) {
  for (int p = 0; p < s.nplayers; ++p) {
    const auto pi = static_cast<std::size_t>(p);
    int members = 0, huts = 0;
    for (const auto& pc : s.pieces)
      if (pc.player == p) (pc.kind == 0 ? members : huts) += 1;
    if (s.supply[pi] + members != 5 || s.supply2[pi] + huts != 3) ++t.bad_conservation;
    if (s.score[pi] < before.score[pi]) ++t.score_fell;
  }
  for (const auto& pc : s.pieces) {
    const int ft = s.graph[pc.seg].ftype;
    if (pc.kind == 0 && ft == nm.lake) ++t.bad_pieces_where;                    // a tribe member on a lake
    if (pc.kind == 1 && ft != nm.lake && ft != nm.river) ++t.bad_pieces_where;  // a hut off the water
    // once a turn is scored, no tribe member stays on a completed river or forest
    if (turn_scored && pc.kind == 0 && (ft == nm.river || ft == nm.forest) && s.graph[s.graph.find(pc.seg)].open == 0)
      ++t.bad_pieces_where;
  }
}

// Segments of the feature (or network) with root `root`.
std::vector<int> members(const State& s, int root, bool network) {
  std::vector<int> out;
  for (int g = 0; g < s.graph.size(); ++g)
    if ((network ? s.graph.net_find(g) : s.graph.find(g)) == root) out.push_back(g);
  return out;
}

int distinct_tiles(const State& s, const std::vector<int>& segs) {
  std::set<int> tiles;
  for (const int g : segs) tiles.insert(s.graph[g].tile);
  return static_cast<int>(tiles.size());
}

// A completed river or forest's value from the tile data: river 1 per tile + each fish in it and
// in the lakes its segments run into; forest 2 per tile + 3 per mushroom glade.
int completed_value(const State& s, const Names& nm, int root) {
  const auto segs = members(s, root, false);
  const int tiles = distinct_tiles(s, segs);
  if (s.graph[root].ftype == nm.forest) {
    int mush = 0;
    for (const int g : segs) mush += tfeat(s, g).attr[0];
    return 2 * tiles + 3 * mush;
  }
  int fish = 0;
  std::set<int> lakes;
  for (const int g : segs) {
    fish += tfeat(s, g).attr[0];
    const PlacedTile& pt = s.tiles[s.graph[g].tile];
    for (int f = 0; f < 16; ++f)
      if (tfeat(s, g).links & (1u << f)) lakes.insert(pt.seg0 + f);
  }
  for (const int l : lakes) fish += tfeat(s, l).attr[0];
  return tiles + fish;
}

// A meadow's final value from the tile data and the covered flags.
int meadow_value(const State& s, const Names& nm, int root, Tally& t) {
  const auto segs = members(s, root, false);
  std::array<int, 4> n{};
  bool fire = false;
  int trap = -1;
  for (const int g : segs) {
    const TileFeature& tf = tfeat(s, g);
    if (tf.special == nm.fire) fire = true;
    if (tf.special == nm.big_trap) trap = g;
    if (s.graph[g].covered) continue;
    for (int a = 0; a < 4; ++a) n[static_cast<std::size_t>(a)] += tf.attr[static_cast<std::size_t>(a)];
  }
  // the engine's running sums at the root agree with the tile data minus the covered animals
  for (int a = 0; a < 4; ++a)
    if (s.graph[root].attr[static_cast<std::size_t>(a)] != n[static_cast<std::size_t>(a)]) ++t.bad_covered;
  const int deer = n[0], aurochs = n[1], mammoth = n[2], tigers = fire ? 0 : n[3];
  const int eaten = std::min(deer, tigers);
  int v = (deer - eaten) + 2 * aurochs + 3 * mammoth;
  t.fire_farms += fire;
  if (trap >= 0) {
    ++t.big_trap_farms;
    const PlacedTile& tp = s.tiles[s.graph[trap].tile];
    std::array<int, 4> in{};
    for (const int g : segs) {
      const PlacedTile& pt = s.tiles[s.graph[g].tile];
      if (s.graph[g].covered || std::abs(pt.x - tp.x) > 1 || std::abs(pt.y - tp.y) > 1) continue;
      for (int a = 0; a < 4; ++a) in[static_cast<std::size_t>(a)] += tfeat(s, g).attr[static_cast<std::size_t>(a)];
    }
    const int eaten_outside = std::min(eaten, deer - in[0]);  // [D] the deer outside the area first
    v += (in[0] - (eaten - eaten_outside)) + 2 * in[1] + 3 * in[2];
  }
  return v;
}

using EvKey = std::tuple<int, int, int, int, int, int>;  // feature, player, points, tiles, attr, cause

// Final scoring re-derived: meadows (hunters) and river systems (huts).
void check_final(const State& s, const Names& nm, const EventSink& ev, Tally& t) {
  std::multiset<EvKey> farm, net;
  for (const auto& e : ev) {
    if (e.reason == ScoreReason::Farm) farm.insert({e.feature, e.player, e.points, 0, 0, 0});
    if (e.reason == ScoreReason::Own) net.insert({0, e.player, e.points, e.tiles, e.attr, e.cause});
    if (e.reason == ScoreReason::Final) ++t.bad_farm;  // unfinished rivers and forests score nothing
  }
  t.farm_events += static_cast<long>(farm.size());
  t.network_events += static_cast<long>(net.size());
  std::multiset<EvKey> want_farm, want_net;
  std::map<int, std::array<int, kMaxPlayers>> hunters, huts;
  for (const auto& pc : s.pieces) {
    const int ft = s.graph[pc.seg].ftype;
    if (pc.kind == 0 && ft != nm.meadow) ++t.bad_pieces_where;  // only hunters stay to the end
    if (pc.kind == 0)
      ++hunters[s.graph.find(pc.seg)][pc.player];
    else
      ++huts[s.graph.net_find(pc.seg)][pc.player];
  }
  for (const auto& [root, cnt] : hunters) {
    const int best = *std::max_element(cnt.begin(), cnt.end());
    const int v = meadow_value(s, nm, root, t);
    for (int p = 0; p < s.nplayers; ++p)
      if (cnt[static_cast<std::size_t>(p)] == best) want_farm.insert({root, p, v, 0, 0, 0});
  }
  for (const auto& [root, cnt] : huts) {
    const int best = *std::max_element(cnt.begin(), cnt.end());
    int fish = 0, lakes = 0;
    bool raft = false;
    for (const int g : members(s, root, true)) {
      fish += tfeat(s, g).attr[0];
      lakes += s.graph[g].ftype == nm.lake;
      raft |= tfeat(s, g).special == nm.raft;
    }
    t.raft_events += raft;
    if (fish + (raft ? lakes : 0) == 0) continue;  // a system worth nothing gives no event
    for (int p = 0; p < s.nplayers; ++p)
      if (cnt[static_cast<std::size_t>(p)] == best)
        want_net.insert({0, p, fish + (raft ? lakes : 0), fish, lakes, raft ? 1 : 0});
  }
  if (farm != want_farm) ++t.bad_farm;
  if (net != want_net) ++t.bad_network;
  // covered animals: exactly those the pit trap counted, all around the pit trap tile
  int covered_animals = 0, trap_animals = 0;
  for (int g = 0; g < s.graph.size(); ++g)
    if (s.graph[g].covered)
      for (int a = 0; a < 4; ++a) covered_animals += tfeat(s, g).attr[static_cast<std::size_t>(a)];
  for (const auto& e : ev)
    if (e.reason == ScoreReason::Special && e.cause == 2) trap_animals += e.tiles;
  if (covered_animals != trap_animals) ++t.bad_covered;
}

// Whether the tiles placed this turn closed a forest with a menhir (from the graph, by name).
bool menhir_forest_closed(const State& s, const Names& nm) {
  for (std::size_t i = s.turn_first; i < s.tiles.size(); ++i) {
    const PlacedTile& pt = s.tiles[i];
    for (int f = 0; f < s.type_of(pt).nfeat; ++f) {
      if (s.type_of(pt).feats[static_cast<std::size_t>(f)].type != nm.forest) continue;
      const auto segs = members(s, s.graph.find(pt.seg0 + f), false);
      bool menhir = false;
      for (const int g : segs) menhir |= tfeat(s, g).attr[1] > 0;
      if (menhir && s.graph[s.graph.find(pt.seg0 + f)].open == 0) return true;
    }
  }
  return false;
}

// Hunters & Gatherers' own checks in the conformance suite's random games (tests/conformance.hpp).
class HuntersChecks : public conformance::GameChecks {
 public:
  void begin(const Ruleset& rs, int players, int k) override {
    (void)players, (void)k;
    rs_ = &rs;
    if (!nm_) nm_.emplace(rs);
    bonus_drawn_ = 0;
  }
  void decision(const State& s, const MoveList& ml, Rng& rng) override {
    (void)rng;
    const Ruleset& rs = *rs_;
    const Names& nm = *nm_;
    Tally& t = t_;
    if (s.phase == Phase::Place) {
      ++t.placements;
      for (const Move& m : ml)
        if (!brute_fits(s, s.in_hand, m.x, m.y, m.rot)) ++t.bad_legal;
      std::set<std::pair<int, int>> cells;
      for (const PlacedTile& pt : s.tiles)
        for (int side = 0; side < 4; ++side)
          cells.emplace(pt.x + kSx[static_cast<std::size_t>(side)], pt.y + kSy[static_cast<std::size_t>(side)]);
      const TileType& tt = rs.tiles.types[s.in_hand];
      for (const auto& [x, y] : cells)
        for (int r = 0; r < 4; ++r) {
          if (!brute_fits(s, s.in_hand, x, y, r)) continue;
          bool listed = false;
          for (const Move& m : ml) listed |= m.x == x && m.y == y && (m.rot == r || tt.nrots < 4);
          if (!listed) ++t.missing;
        }
    } else if (s.phase == Phase::Choose) {
      // the shaman: "none" plus each of the placer's tribe members (never a hut)
      ++t.choices;
      bool shaman = false;
      for (int f = 0; f < s.type_of(s.last_placed()).nfeat; ++f)
        shaman |= s.type_of(s.last_placed()).feats[static_cast<std::size_t>(f)].special == nm.shaman;
      int mine = 0;
      for (const auto& pc : s.pieces) mine += pc.player == s.current && pc.kind == 0;
      if (!shaman || mine == 0 || static_cast<int>(ml.size()) != 1 + mine || ml[0].feat != 0xFF) ++t.bad_choice;
    } else if (s.phase == Phase::Piece) {
      if (ml.empty() || ml[0].kind != MoveKind::Pass) ++t.bad_legal;
      std::set<int> nets;
      for (const Move& m : ml) {
        if (m.kind != MoveKind::Piece) continue;
        const int ti = s.placed_at(m.x, m.y);
        if (ti < s.piece_from) ++t.bad_legal;
        const int seg = s.tiles[static_cast<std::size_t>(ti)].seg0 + m.feat;
        if (m.pk == 0xFF && (s.graph[seg].ftype == nm.lake || s.graph[s.graph.find(seg)].npieces != 0)) ++t.bad_legal;
        if (m.pk == 1) {
          const int net = s.graph.net_find(seg);
          for (const auto& pc : s.pieces)
            if (pc.kind == 1 && s.graph.net_find(pc.seg) == net) ++t.bad_legal;  // a second hut on a system
          if (!nets.insert(net).second) ++t.bad_legal;                           // listed twice
        }
      }
    }
  }
  void step(const State& before, const State& s, const Move* mp, bool placed,
            std::span<const ScoreEvent> events) override {
    const Names& nm = *nm_;
    Tally& t = t_;
    if (!mp) {
      // a draw: from the bonus pile exactly when a bonus turn is due
      const bool bonus_due = before.extra != 0;
      const bool bonus = s.bonus_pile != before.bonus_pile;
      if (bonus != bonus_due) ++t.bad_pile;
      if (bonus) {
        ++bonus_drawn_;
        t.bonus_at_end += before.pile == 0;
      }
      if (bonus && !placed) ++t.unplaceable_bonus;
      if (bonus && placed) ++t.bonus_turns;
      check_state(s, before, nm, t, false);
      return;
    }
    const Move& m = *mp;
    const bool ends_turn = m.kind == MoveKind::Piece || m.kind == MoveKind::Pass;
    const bool expect_extra =
        ends_turn && !before.in_extra && menhir_forest_closed(before, nm) && before.bonus_pile > 0;
    t.huts += m.kind == MoveKind::Piece && m.pk == 1;
    t.returns += m.kind == MoveKind::Choose && m.feat != 0xFF;
    check_state(s, before, nm, t, ends_turn);
    for (const ScoreEvent& e : events) {
      if (e.reason == ScoreReason::Completed) {
        (e.ftype == nm.river ? t.completed_rivers : t.completed_forests) += 1;
        if (e.points != completed_value(s, nm, e.feature)) ++t.bad_completed;
      } else if (e.reason == ScoreReason::Special && e.cause == 1) {
        ++t.canoes;
        int lake_seg = -1;
        const PlacedTile& pt = s.last_placed();
        for (int f = 0; f < s.type_of(pt).nfeat; ++f)
          if (s.type_of(pt).feats[static_cast<std::size_t>(f)].special == nm.canoe) lake_seg = pt.seg0 + f;
        int lakes = 0;
        if (lake_seg >= 0)
          for (const int g : members(s, s.graph.net_find(lake_seg), true)) lakes += s.graph[g].ftype == nm.lake;
        if (lake_seg < 0 || e.tiles != lakes || e.points != 2 * lakes || e.player != before.current) ++t.bad_canoe;
      } else if (e.reason == ScoreReason::Special && e.cause == 2) {
        ++t.pit_traps;
      }
    }
    if (ends_turn && s.phase != Phase::Over) {
      // a regular turn that closed a forest with a menhir: the same player draws from the bonus
      // pile (if it has tiles); after a bonus turn, or a turn that earned none: the next player
      const bool same = s.current == before.current && s.extra == 1 && s.phase == Phase::Draw;
      const bool next = s.current == (before.current + 1) % s.nplayers && s.extra == 0;
      if (expect_extra ? !same : !next) ++t.bad_turn_order;
    }
  }
  void end(const State& s, const EventSink& ev) override {
    const Ruleset& rs = *rs_;
    Tally& t = t_;
    ++t.games;
    const int bonus_total = rs.tiles.bonus_total;
    if (s.pile != 0 || bonus_drawn_ > bonus_total || s.bonus_pile != bonus_total - bonus_drawn_ ||
        s.turn + s.discards != rs.tiles.draw_total + bonus_drawn_ || s.extra != 0)
      ++t.bad_end;
    check_final(s, *nm_, ev, t);
  }
  void expect(long n) override {
    const Tally& t = t_;
    EXPECT_EQ(t.games, n);
    EXPECT_GT(t.placements, 78L * n);
    EXPECT_GT(t.bonus_turns, 1L * n) << "bonus turns are common";
    EXPECT_GT(t.huts, 1L * n);
    EXPECT_GT(t.choices, 0);
    EXPECT_GT(t.returns, 0);
    EXPECT_GT(t.canoes, 0);
    EXPECT_GT(t.pit_traps, 0);
    EXPECT_GT(t.completed_rivers, 0);
    EXPECT_GT(t.completed_forests, 0);
    EXPECT_GT(t.farm_events, 0);
    EXPECT_GT(t.network_events, 0);
    EXPECT_EQ(t.bad_legal, 0) << "generated moves that are illegal (edges, piece cells, lakes, huts)";
    EXPECT_EQ(t.missing, 0) << "legal placements missing from the list";
    EXPECT_EQ(t.bad_conservation, 0) << "tribe members (5) or huts (3) not conserved";
    EXPECT_EQ(t.score_fell, 0);
    EXPECT_EQ(t.bad_pile, 0) << "a draw from the wrong pile";
    EXPECT_EQ(t.bad_turn_order, 0) << "bonus turn missing, repeated, or given to the wrong player";
    EXPECT_EQ(t.bad_end, 0) << "piles not handled at the end";
    EXPECT_EQ(t.bad_completed, 0) << "a completed river or forest scored differently from the tile data";
    EXPECT_EQ(t.bad_canoe, 0);
    EXPECT_EQ(t.bad_farm, 0) << "meadow scoring differs from the independent count";
    EXPECT_EQ(t.bad_network, 0) << "river system scoring differs from the independent count";
    EXPECT_EQ(t.bad_covered, 0) << "covered animals counted again, or the pit trap's count differs";
    EXPECT_EQ(t.bad_pieces_where, 0);
    EXPECT_EQ(t.bad_choice, 0) << "shaman choices wrong";
    EXPECT_GT(t.bonus_at_end, 0) << "the last regular tile earning a bonus turn: pick other seeds";
    EXPECT_GT(t.raft_events + t.big_trap_farms + t.fire_farms, 0);
  }

 private:
  const Ruleset* rs_ = nullptr;
  std::optional<Names> nm_;
  int bonus_drawn_ = 0;
  Tally t_;
};

CARC_CONFORMANCE_CHECKS(hunters, (conformance::Plan{.random_games = 300, .bot_games = 24}), HuntersChecks);

}  // namespace
}  // namespace carc::test
