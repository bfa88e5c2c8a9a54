// Amazonas property tests over seeded random games, 2-5 players, both spreads of the Amazon tiles:
// moves legal and complete (edge matching and the river front recomputed by brute force), pieces
// conserved (4 explorers + 2 camps), scores never fall, boats never move upstream or past the last
// space, the track grows with every Amazon cell, double tiles used once each, and records replay.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "ai/driver.hpp"
#include "property_support.hpp"
#include "scenario.hpp"


namespace carc::test {
namespace {


std::shared_ptr<const Ruleset> amazonas_rules(const std::string& spread) {
  return load_ruleset("amazonas", {"spread=" + spread});
}



bool is_river(const TileType& tt) { return tt.kind != 0; }

// Edges match, the cell touches a tile, and the river front allows it (computed here from the
// placed tiles, not from the engine's `front`).
int river_front(const State& s) {
  int front = -100;
  for (const PlacedTile& pt : s.tiles)
    for (int f = 0; f < s.type_of(pt).nfeat; ++f)
      if (s.rs->ftype(s.type_of(pt).feats[static_cast<std::size_t>(f)].type).name == "amazon") front = std::max<int>(front, pt.x);
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
  long bad_legal = 0, missing = 0, bad_conservation = 0, score_fell = 0, upstream = 0, past_end = 0;
  long bad_track = 0, bad_end = 0, bad_event_sum = 0, bad_spread = 0, bad_pieces_where = 0;
};

void check_state(const State& s, const State& before, Tally& t) {
  for (int p = 0; p < s.nplayers; ++p) {
    const auto pi = static_cast<std::size_t>(p);
    int explorers = 0, camps = 0;
    for (const auto& pc : s.pieces)
      if (pc.player == p) (pc.kind == 0 ? explorers : camps) += 1;
    if (s.supply[pi] + explorers != 4 || s.supply2[pi] + camps != 2) ++t.bad_conservation;
    if (s.score[pi] < before.score[pi]) ++t.score_fell;
    if (s.track[pi] < before.track[pi]) ++t.upstream;
    if (s.track[pi] < 1 || s.track[pi] > s.track_len) ++t.past_end;
  }
  // the track: the start side's spaces + 1 per Amazon cell placed after the start
  int cells = 0;
  for (std::size_t i = s.rs->tiles.side_for(s.nplayers).cells.size(); i < s.tiles.size(); ++i) cells += is_river(s.type_of(s.tiles[i]));
  if (s.track_len != s.rs->tiles.side_for(s.nplayers).track + cells) ++t.bad_track;
  for (const auto& pc : s.pieces) {
    const auto& ft = s.rs->ftype(s.graph[s.graph.find(pc.seg)].ftype);
    if (ft.name == "amazon" || (pc.kind == 1) != (ft.name == "jungle")) ++t.bad_pieces_where;
  }
}

void random_game(const Ruleset& rs, int players, u64 seed, Tally& t) {
  State s;
  init_state(s, rs, players);
  Rng rng(seed);
  EventSink ev;
  MoveList ml;
  std::vector<bool> drawn_river;
  while (s.phase != Phase::Over) {
    const State before = s;
    if (s.phase == Phase::Draw) {
      const int type = sample_draw(s, rng);
      drawn_river.push_back(is_river(rs.tiles.types[static_cast<std::size_t>(type)]));
      apply_draw(s, type, &ev);
      check_state(s, before, t);
      continue;
    }
    legal_moves(s, ml);
    for (const Move& m : ml)
      if (!is_legal(s, m) || m.player != s.current) ++t.bad_legal;
    if (s.phase == Phase::Place) {
      ++t.placements;
      const int front = river_front(s);
      for (const Move& m : ml)
        if (!brute_legal(s, front, s.in_hand, m.x, m.y, m.rot)) ++t.bad_legal;
      // nothing legal is missing: every cell next to a tile x every rotation
      std::set<std::pair<int, int>> cells;
      for (const PlacedTile& pt : s.tiles)
        for (int side = 0; side < 4; ++side) cells.emplace(pt.x + kSx[static_cast<std::size_t>(side)], pt.y + kSy[static_cast<std::size_t>(side)]);
      const TileType& tt = rs.tiles.types[s.in_hand];
      for (const auto& [x, y] : cells)
        for (int r = 0; r < 4; ++r) {
          if (!brute_legal(s, front, s.in_hand, x, y, r)) continue;
          bool listed = false;
          for (const Move& m : ml)
            listed |= m.x == x && m.y == y && (m.rot == r || tt.nrots < 4);
          if (!listed) ++t.missing;
        }
      if (tt.kind == 2) ++t.bang_turns;
    } else if (s.phase == Phase::Choose) {
      ++t.choices;
      int aside = 0;
      for (int k = 0; k < 64; ++k) aside += static_cast<int>((s.aside >> k) & 1);
      if (static_cast<int>(ml.size()) != 2 * aside) ++t.bad_legal;
    } else if (s.phase == Phase::Piece) {
      if (ml.empty() || ml[0].kind != MoveKind::Pass) ++t.bad_legal;
      for (const Move& m : ml)
        if (m.kind == MoveKind::Piece && s.placed_at(m.x, m.y) < s.piece_from) ++t.bad_legal;
    }
    const Move m = s.phase == Phase::Place && rng.below(2) == 0 ? sample_placement(s, rng) : ml[rng.below(static_cast<u32>(ml.size()))];
    if (std::find(ml.begin(), ml.end(), m) == ml.end()) ++t.bad_legal;
    apply_move(s, m, &ev);
    check_state(s, before, t);
  }
  ++t.games;
  if (s.pile != 0 || s.turn + s.discards != rs.tiles.draw_total) ++t.bad_end;
  // one double tile per "!" tile; the rest stay aside
  int aside_total = 0, aside_left = 0;
  for (const auto& tt : rs.tiles.types) aside_total += tt.pile == kPileAside;
  for (int k = 0; k < 64; ++k) aside_left += static_cast<int>((s.aside >> k) & 1);
  int bangs = 0;
  for (const auto& tt : rs.tiles.types) bangs += tt.kind == 2 ? tt.count : 0;
  if (aside_left != aside_total - bangs) ++t.bad_end;
  // spread=even: exactly one Amazon tile in each of the equal blocks of the pile
  if (rs.options.at("spread") == "even") {
    const int n = rs.tiles.draw_total;
    int a = 0;
    for (const auto& tt : rs.tiles.types) a += is_river(tt) ? tt.draw_count : 0;
    for (int b = 0; b < a; ++b) {
      int in_block = 0;
      for (int i = b * n / a; i < (b + 1) * n / a; ++i) in_block += drawn_river[static_cast<std::size_t>(i)];
      if (in_block != 1) ++t.bad_spread;
    }
  }
  std::array<int, kMaxPlayers> sum{};
  for (const auto& e : ev) {
    sum[e.player] += e.points;
    if (e.points < 0) ++t.score_fell;
    const std::string_view own = e.reason == ScoreReason::Own ? reason_name(*rs.game, e) : "";
    t.boat_moves += own == "track";
    t.amazon_events += own == "amazon";
    t.mouth_events += own == "mouth";
  }
  for (int p = 0; p < kMaxPlayers; ++p)
    if (sum[static_cast<std::size_t>(p)] != s.score[static_cast<std::size_t>(p)]) ++t.bad_event_sum;
}

TEST(AmazonasProperties, RandomGames) {
  const int n = scaled(240);
  auto even = amazonas_rules("even"), uniform = amazonas_rules("uniform");
  Tally t;
  for (int k = 0; k < n; ++k) random_game(k % 2 == 0 ? *even : *uniform, 2 + k % 4, 300 + static_cast<u64>(k), t);
  EXPECT_EQ(t.games, n);
  EXPECT_GT(t.placements, 70L * n);
  EXPECT_EQ(t.choices, 3L * n) << "every game has three \"!\" tiles";
  EXPECT_EQ(t.bang_turns, 3L * n);
  EXPECT_GT(t.boat_moves, 20L * n);
  EXPECT_GT(t.amazon_events, 15L * n);
  EXPECT_GE(t.mouth_events, 2L * n);
  EXPECT_EQ(t.bad_legal, 0) << "generated moves that are illegal (edges, river front, player, piece cells)";
  EXPECT_EQ(t.missing, 0) << "legal placements missing from the list";
  EXPECT_EQ(t.bad_conservation, 0) << "explorers or camps not conserved";
  EXPECT_EQ(t.score_fell, 0);
  EXPECT_EQ(t.upstream, 0) << "a boat moved upstream";
  EXPECT_EQ(t.past_end, 0) << "a boat off the track";
  EXPECT_EQ(t.bad_track, 0) << "track length != start spaces + Amazon cells";
  EXPECT_EQ(t.bad_end, 0);
  EXPECT_EQ(t.bad_event_sum, 0);
  EXPECT_EQ(t.bad_spread, 0) << "spread=even: a block of the pile without exactly one Amazon tile";
  EXPECT_EQ(t.bad_pieces_where, 0) << "camp off the jungle, explorer in the jungle, or a piece on the Amazon";
}

// Bots through the Game façade; every record replays (through JSON) to the same game.
TEST(AmazonasProperties, BotGamesReplay) {
  const int n = scaled(40);
  for (int k = 0; k < n; ++k) {
    const u64 seed = 700 + static_cast<u64>(k);
    const int players = 2 + k % 4;
    auto rs = amazonas_rules(k % 2 ? "uniform" : "even");
    std::vector<PlayerInfo> infos;
    std::vector<std::unique_ptr<Bot>> bots;
    for (int p = 0; p < players; ++p) {
      const char* spec = (p + k) % 2 == 0 ? "random" : "greedy";
      infos.push_back({"p", spec});
      bots.push_back(make_bot(spec));
    }
    Game g(rs, infos, seed);
    Rng rng(seed);
    play_out(g, bots, rng);
    ASSERT_TRUE(g.over());
    const Game h = Game::replay(record_from_json(record_to_json(g.record(), g.ruleset()), "mem"));
    EXPECT_EQ(record_to_json(h.record(), h.ruleset()), record_to_json(g.record(), g.ruleset())) << "seed " << seed;
    EXPECT_EQ(h.state().score, g.state().score);
    EXPECT_EQ(h.state().track, g.state().track);
    EXPECT_TRUE(h.over());
  }
}

}  // namespace
}  // namespace carc::test
