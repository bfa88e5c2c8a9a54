// Amazonas' own checks in the conformance suite (tests/conformance.hpp), over its seeded random
// games, 2-5 players, both spreads of the Amazon tiles: moves legal and complete (edge matching and
// the river front recomputed by brute force), 4 explorers + 2 camps conserved, boats never move
// upstream or past the last space, the track grows with every Amazon cell, double tiles used once
// each, spread=even's blocks. (Legal moves, scores, pieces, replay: the suite's generic checks.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "ai/driver.hpp"
#include "conformance.hpp"
#include "games/amazonas/amazonas_state.hpp"
#include "property_support.hpp"
#include "scenario.hpp"

namespace carc::test {
namespace {

bool is_river(const TileType& tt) { return tt.kind != 0; }

// Edges match, the cell touches a tile, and the river front allows it (computed here from the
// placed tiles, not from the engine's `front`).
int river_front(const State& s) {
  int front = -100;
  for (const PlacedTile& pt : s.tiles)
    for (int f = 0; f < s.type_of(pt).nfeat; ++f)
      if (s.rs->ftype(s.type_of(pt).feats[static_cast<std::size_t>(f)].type).name == "amazon")
        front = std::max<int>(front, pt.x);
  return front;
}

bool brute_legal(const State& s, int front, int type, int x, int y, int rot) {
  const TileType& tt = s.rs->tiles.types[static_cast<std::size_t>(type)];
  if (is_river(tt)) {
    if (!(y == 0 && x == front + 1 && (rot == 0 || rot == 2))) return false;
  } else if (x > front) {
    return false;
  }
  return brute_fits(s, type, x, y, rot);
}

struct Tally {
  long games = 0, placements = 0, choices = 0, bang_turns = 0, boat_moves = 0, amazon_events = 0, mouth_events = 0;
  long bad_legal = 0, missing = 0, bad_conservation = 0, upstream = 0, past_end = 0;
  long bad_track = 0, bad_end = 0, bad_event_sum = 0, bad_spread = 0, bad_pieces_where = 0;
};

void check_state(const State& s, const State& before, Tally& t) {
  for (int p = 0; p < s.nplayers; ++p) {
    const auto pi = static_cast<std::size_t>(p);
    int explorers = 0, camps = 0;
    for (const auto& pc : s.pieces)
      if (pc.player == p) (pc.kind == 0 ? explorers : camps) += 1;
    if (s.supply[pi] + explorers != 4 || s.supply2[pi] + camps != 2) ++t.bad_conservation;
    if (s.track[pi] < before.track[pi]) ++t.upstream;
    if (s.track[pi] < 1 || s.track[pi] > s.track_len) ++t.past_end;
  }
  // the track: the start side's spaces + 1 per Amazon cell placed after the start
  int cells = 0;
  for (std::size_t i = s.rs->tiles.side_for(s.nplayers).cells.size(); i < s.tiles.size(); ++i)
    cells += is_river(s.type_of(s.tiles[i]));
  if (s.track_len != s.rs->tiles.side_for(s.nplayers).track + cells) ++t.bad_track;
  for (const auto& pc : s.pieces) {
    const auto& ft = s.rs->ftype(s.graph[s.graph.find(pc.seg)].ftype);
    if (ft.name == "amazon" || (pc.kind == 1) != (ft.name == "jungle")) ++t.bad_pieces_where;
  }
}

// Amazonas' own checks in the conformance suite's random games (tests/conformance.hpp).
class AmazonasChecks : public conformance::GameChecks {
 public:
  void begin(const Ruleset& rs, int players, int k) override {
    (void)players, (void)k;
    rs_ = &rs;
    drawn_river_.clear();
  }
  void decision(const State& s, const MoveList& ml, Rng& rng) override {
    (void)rng;
    const Ruleset& rs = *rs_;
    if (s.phase == Phase::Place) {
      ++t_.placements;
      const int front = river_front(s);
      for (const Move& m : ml)
        if (!brute_legal(s, front, s.in_hand, m.x, m.y, m.rot)) ++t_.bad_legal;
      // nothing legal is missing: every cell next to a tile x every rotation
      std::set<std::pair<int, int>> cells;
      for (const PlacedTile& pt : s.tiles)
        for (int side = 0; side < 4; ++side)
          cells.emplace(pt.x + kSx[static_cast<std::size_t>(side)], pt.y + kSy[static_cast<std::size_t>(side)]);
      const TileType& tt = rs.tiles.types[s.in_hand];
      for (const auto& [x, y] : cells)
        for (int r = 0; r < 4; ++r) {
          if (!brute_legal(s, front, s.in_hand, x, y, r)) continue;
          bool listed = false;
          for (const Move& m : ml) listed |= m.x == x && m.y == y && (m.rot == r || tt.nrots < 4);
          if (!listed) ++t_.missing;
        }
      if (tt.kind == 2) ++t_.bang_turns;
    } else if (s.phase == Phase::Choose) {
      ++t_.choices;
      int aside = 0;
      for (int k = 0; k < 64; ++k) aside += static_cast<int>((amazonas_state(s).aside >> k) & 1);
      if (static_cast<int>(ml.size()) != 2 * aside) ++t_.bad_legal;
    } else if (s.phase == Phase::Piece) {
      if (ml.empty() || ml[0].kind != MoveKind::Pass) ++t_.bad_legal;
      for (const Move& m : ml)
        if (m.kind == MoveKind::Piece && s.placed_at(m.x, m.y) < s.piece_from) ++t_.bad_legal;
    }
  }
  void step(const State& before, const State& s, const Move* m, bool placed,
            std::span<const ScoreEvent> events) override {
    (void)placed, (void)events;
    if (!m)  // the tile drawn: the type whose count left fell
      for (std::size_t ty = 0; ty < s.rs->tiles.types.size(); ++ty)
        if (s.remaining[ty] != before.remaining[ty]) drawn_river_.push_back(is_river(s.rs->tiles.types[ty]));
    check_state(s, before, t_);
  }
  void end(const State& s, const EventSink& ev) override {
    const Ruleset& rs = *rs_;
    ++t_.games;
    if (s.pile != 0 || s.turn + s.discards != rs.tiles.draw_total) ++t_.bad_end;
    // one double tile per "!" tile; the rest stay aside
    int aside_total = 0, aside_left = 0;
    for (const auto& tt : rs.tiles.types) aside_total += tt.pile == kPileAside;
    for (int k = 0; k < 64; ++k) aside_left += static_cast<int>((amazonas_state(s).aside >> k) & 1);
    int bangs = 0;
    for (const auto& tt : rs.tiles.types) bangs += tt.kind == 2 ? tt.count : 0;
    if (aside_left != aside_total - bangs) ++t_.bad_end;
    // spread=even: exactly one Amazon tile in each of the equal blocks of the pile
    if (rs.options.at("spread") == "even") {
      const int n = rs.tiles.draw_total;
      int a = 0;
      for (const auto& tt : rs.tiles.types) a += is_river(tt) ? tt.draw_count : 0;
      if (static_cast<int>(drawn_river_.size()) != n) ++t_.bad_spread;
      for (int b = 0; b < a && static_cast<int>(drawn_river_.size()) == n; ++b) {
        int in_block = 0;
        for (int i = b * n / a; i < (b + 1) * n / a; ++i) in_block += drawn_river_[static_cast<std::size_t>(i)];
        if (in_block != 1) ++t_.bad_spread;
      }
    }
    for (const auto& e : ev) {
      const std::string_view own = e.reason == ScoreReason::Own ? reason_name(*rs.game, e) : "";
      t_.boat_moves += own == "track";
      t_.amazon_events += own == "amazon";
      t_.mouth_events += own == "mouth";
    }
  }
  void expect(long n) override {
    EXPECT_EQ(t_.games, n);
    EXPECT_GT(t_.placements, 70L * n);
    EXPECT_EQ(t_.choices, 3L * n) << "every game has three \"!\" tiles";
    EXPECT_EQ(t_.bang_turns, 3L * n);
    EXPECT_GT(t_.boat_moves, 20L * n);
    EXPECT_GT(t_.amazon_events, 15L * n);
    EXPECT_GE(t_.mouth_events, 2L * n);
    EXPECT_EQ(t_.bad_legal, 0) << "generated moves that are illegal (edges, river front, piece cells)";
    EXPECT_EQ(t_.missing, 0) << "legal placements missing from the list";
    EXPECT_EQ(t_.bad_conservation, 0) << "explorers or camps not conserved";
    EXPECT_EQ(t_.upstream, 0) << "a boat moved upstream";
    EXPECT_EQ(t_.past_end, 0) << "a boat off the track";
    EXPECT_EQ(t_.bad_track, 0) << "track length != start spaces + Amazon cells";
    EXPECT_EQ(t_.bad_end, 0);
    EXPECT_EQ(t_.bad_spread, 0) << "spread=even: a block of the pile without exactly one Amazon tile";
    EXPECT_EQ(t_.bad_pieces_where, 0) << "camp off the jungle, explorer in the jungle, or a piece on the Amazon";
  }

 private:
  const Ruleset* rs_ = nullptr;
  std::vector<bool> drawn_river_;
  Tally t_;
};

CARC_CONFORMANCE_CHECKS(amazonas, (conformance::Plan{.random_games = 240, .bot_games = 20}), AmazonasChecks);

}  // namespace
}  // namespace carc::test
