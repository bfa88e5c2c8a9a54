// The base game's property tests: its own checks in the conformance suite (tests/conformance.hpp)
// over 2000 seeded random games, 2-5 players, farmers on and off, each checked at every step
// against an independent computation (edge matching recomputed from the tile definitions, not the
// engine's tables); and the bare State against the Game façade, sample_placement's uniformity,
// reproducible seeds.
//
// Size: CARC_PROPERTY_SCALE (percent, default 100) scales the number of games; sanitizer builds
// run half of them, unoptimised builds a tenth.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include "ai/driver.hpp"
#include "conformance.hpp"
#include "property_support.hpp"
#include "scenario.hpp"

namespace carc::test {
namespace {

// Same picture: the port-by-port feature correspondence of the two rotations is a bijection that
// keeps types, attributes and borders.
bool same_picture(const TileType& tt, int r1, int r2) {
  std::array<int, kMaxTileFeatures> fwd{}, back{};
  fwd.fill(-1);
  back.fill(-1);
  for (int p = 0; p <= kCentre; ++p) {
    const int a = feat_at(tt, r1, p), b = feat_at(tt, r2, p);
    if ((a < 0) != (b < 0)) return false;
    if (a < 0) continue;
    if (fwd[static_cast<std::size_t>(a)] == -1 && back[static_cast<std::size_t>(b)] == -1) {
      fwd[static_cast<std::size_t>(a)] = b;
      back[static_cast<std::size_t>(b)] = a;
    } else if (fwd[static_cast<std::size_t>(a)] != b) {
      return false;
    }
  }
  for (int a = 0; a < tt.nfeat; ++a) {
    const int b = fwd[static_cast<std::size_t>(a)];
    if (b < 0) return false;
    const TileFeature& fa = tt.feats[static_cast<std::size_t>(a)];
    const TileFeature& fb = tt.feats[static_cast<std::size_t>(b)];
    if (fa.type != fb.type || fa.attr != fb.attr) return false;
    for (int g = 0; g < tt.nfeat; ++g)
      if (((fa.borders >> g) & 1u) != ((fb.borders >> fwd[static_cast<std::size_t>(g)]) & 1u)) return false;
  }
  return true;
}

struct Tally {
  long games = 0, placements = 0, pieces = 0, discards = 0;
  long bad_legal = 0, bad_edges = 0, missing = 0, dup_pictures = 0, bad_sample = 0, bad_apply = 0;
  long bad_conservation = 0, score_fell = 0, bad_end = 0, bad_event_sum = 0;
};

int pieces_on_board(const State& s, int p) {
  int n = 0;
  for (const auto& pc : s.pieces) n += pc.player == p;
  return n;
}

void check_conservation(const State& s, Tally& t) {
  for (int p = 0; p < s.nplayers; ++p)
    if (s.supply[static_cast<std::size_t>(p)] + pieces_on_board(s, p) != 7) ++t.bad_conservation;
  for (int p = s.nplayers; p < kMaxPlayers; ++p)
    if (s.supply[static_cast<std::size_t>(p)] != 0 || s.score[static_cast<std::size_t>(p)] != 0) ++t.bad_conservation;
}

void check_scores_rise(const State& s, std::array<i16, kMaxPlayers>& prev, Tally& t) {
  for (int p = 0; p < kMaxPlayers; ++p)
    if (s.score[static_cast<std::size_t>(p)] < prev[static_cast<std::size_t>(p)]) ++t.score_fell;
  prev = s.score;
}

// Every candidate cell (next to a placed tile) x every rotation, by brute force.
void check_placements(const State& s, const MoveList& ml, Tally& t) {
  const int type = s.in_hand;
  const TileType& tt = s.rs->tiles.types[static_cast<std::size_t>(type)];
  for (const Move& m : ml)  // (is_legal of each: the suite's generic checks)
    if (!brute_fits(s, type, m.x, m.y, m.rot)) ++t.bad_edges;
  for (std::size_t i = 0; i < ml.size(); ++i)
    for (std::size_t j = i + 1; j < ml.size(); ++j)
      if (ml[i].x == ml[j].x && ml[i].y == ml[j].y && same_picture(tt, ml[i].rot, ml[j].rot)) ++t.dup_pictures;
  std::set<std::pair<int, int>> cells;
  for (const PlacedTile& pt : s.tiles)
    for (int side = 0; side < 4; ++side) {
      const int x = pt.x + kSx[static_cast<std::size_t>(side)], y = pt.y + kSy[static_cast<std::size_t>(side)];
      if (s.placed_at(x, y) < 0) cells.emplace(x, y);
    }
  for (const auto& [x, y] : cells)
    for (int r = 0; r < 4; ++r) {
      if (!brute_fits(s, type, x, y, r)) continue;
      bool listed = false;
      for (const Move& m : ml) listed |= m.x == x && m.y == y && same_picture(tt, m.rot, r);
      if (!listed) ++t.missing;
    }
}

// Applying each listed move to a copy works: the tile lands / the piece is placed.
void check_apply_all(const State& s, const MoveList& ml, Tally& t) {
  for (const Move& m : ml) {
    State c = s;
    apply_move(c, m);
    if (m.kind == MoveKind::Place) {
      if (c.phase != Phase::Piece || c.placed_at(m.x, m.y) != static_cast<int>(s.tiles.size()) ||
          c.tiles.size() != s.tiles.size() + 1 || c.last_placed().rot != m.rot)
        ++t.bad_apply;
    } else {
      if (c.phase != Phase::Draw && c.phase != Phase::Over) ++t.bad_apply;
      if (c.current == s.current && s.nplayers > 1) ++t.bad_apply;
      std::array<i16, kMaxPlayers> prev = s.score;
      Tally local;
      check_conservation(c, local);
      check_scores_rise(c, prev, local);
      if (local.bad_conservation || local.score_fell) ++t.bad_apply;
    }
  }
}

void expect_clean(const Tally& t) {
  EXPECT_EQ(t.bad_legal, 0) << "generated moves that is_legal rejects";
  EXPECT_EQ(t.bad_edges, 0) << "generated placements whose edges do not match";
  EXPECT_EQ(t.missing, 0) << "fitting placements missing from gen_placements";
  EXPECT_EQ(t.dup_pictures, 0) << "placements listing the same picture twice at one cell";
  EXPECT_EQ(t.bad_sample, 0) << "sample_placement results not among the legal placements";
  EXPECT_EQ(t.bad_apply, 0) << "listed moves whose application misbehaves";
  EXPECT_EQ(t.bad_conservation, 0) << "steps where supply + pieces on board != 7";
  EXPECT_EQ(t.score_fell, 0) << "steps where a score fell";
  EXPECT_EQ(t.bad_end, 0) << "draw/end-of-game violations";
  EXPECT_EQ(t.bad_event_sum, 0) << "games where the events do not add up to the scores";
}

// The base game's own checks in the conformance suite's random games (tests/conformance.hpp):
// placements by brute force (edges from the tile definitions), no picture listed twice at a cell,
// every listed move applied on a copy in every 50th game, draws and discards, the end (71 tiles,
// followers left only on fields, and only with farmers).
class BaseChecks : public conformance::GameChecks {
 public:
  void begin(const Ruleset& rs, int players, int k) override {
    (void)players;
    rs_ = &rs;
    thorough_ = k % 50 == 0;
    draws_ = 0;
  }
  void decision(const State& s, const MoveList& ml, Rng& rng) override {
    (void)rng;
    if (s.phase == Phase::Place) {
      ++t_.placements;
      check_placements(s, ml, t_);
    } else {
      ++t_.pieces;
      if (ml.empty() || ml[0].kind != MoveKind::Pass) ++t_.bad_legal;
    }
    if (thorough_) check_apply_all(s, ml, t_);
  }
  void step(const State& before, const State& s, const Move* m, bool placed,
            std::span<const ScoreEvent> events) override {
    (void)events;
    check_conservation(s, t_);
    if (m) return;
    ++draws_;
    if (s.pile != before.pile - 1) ++t_.bad_end;
    if (!placed) {
      ++t_.discards;
      if (s.current != before.current || (s.phase != Phase::Draw && s.phase != Phase::Over)) ++t_.bad_end;
    } else if (s.phase != Phase::Place || s.current != before.current) {
      ++t_.bad_end;
    }
  }
  void end(const State& s, const EventSink& ev) override {
    ++t_.games;
    if (s.pile != 0 || s.turn + s.discards != 71 || static_cast<int>(s.tiles.size()) != 1 + s.turn || draws_ != 71)
      ++t_.bad_end;
    for (const auto& pc : s.pieces)
      if (rs_->ftype(s.graph[s.graph.find(pc.seg)].ftype).cls != FClass::Field) ++t_.bad_end;
    if (!rs_->farmers && !s.pieces.empty()) ++t_.bad_end;
    for (const auto& e : ev)
      if (!rs_->farmers && e.reason == ScoreReason::Farm) ++t_.bad_end;
  }
  void expect(long games) override {
    EXPECT_EQ(t_.games, games);
    EXPECT_GT(t_.placements, 60L * games);
    expect_clean(t_);
    ::testing::Test::RecordProperty("discards", static_cast<int>(t_.discards));
  }

 private:
  const Ruleset* rs_ = nullptr;
  bool thorough_ = false;
  int draws_ = 0;
  Tally t_;
};

CARC_CONFORMANCE_CHECKS(base, (conformance::Plan{.random_games = 2000, .bot_games = 100}), BaseChecks);

// The bare-State game and the Game façade agree move for move.
TEST(Properties, GameFacadeMatchesBareState) {
  const int n = scaled(100);
  for (int k = 0; k < n; ++k) {
    const u64 seed = 9000 + static_cast<u64>(k);
    auto rs = base_rules();
    Game g(rs, {{"a", "random"}, {"b", "random"}, {"c", "random"}}, seed);
    Rng pick(seed);
    MoveList ml;
    while (!g.over()) {
      legal_moves(g.state(), ml);
      g.play(ml[pick.below(static_cast<u32>(ml.size()))]);
    }
    // rebuild on a bare State from the record's draws
    State s;
    init_state(s, *rs, 3);
    EventSink ev;
    std::size_t d = 0, mv = 0;
    const Record& r = g.record();
    while (s.phase != Phase::Over) {
      if (s.phase == Phase::Draw) {
        ASSERT_LT(d, r.draws.size());
        apply_draw(s, rs->tiles.find(r.draws[d++]), &ev);
        continue;
      }
      ASSERT_LT(mv, r.moves.size());
      const RecordMove& m = r.moves[mv++];
      Move pm;
      pm.kind = MoveKind::Place;
      pm.player = s.current;
      pm.x = static_cast<i8>(m.x);
      pm.y = static_cast<i8>(m.y);
      pm.rot = static_cast<u8>(m.rot / 90);
      ASSERT_TRUE(is_legal(s, pm));
      apply_move(s, pm, &ev);
      Move fm;
      fm.player = s.current;
      if (m.follower) {
        fm.kind = MoveKind::Piece;
        fm.feat = static_cast<u8>(feature_at_port(s, s.last_placed(), *m.follower));
        fm.x = s.last_placed().x;
        fm.y = s.last_placed().y;
        fm.rot = s.last_placed().rot;
      }
      ASSERT_TRUE(is_legal(s, fm));
      apply_move(s, fm, &ev);
    }
    EXPECT_EQ(d, r.draws.size());
    EXPECT_EQ(mv, r.moves.size());
    EXPECT_EQ(s.score, g.state().score);
    EXPECT_EQ(ev.size(), r.events.size());
  }
}

// sample_placement: only legal placements, and every legal placement about equally often.
TEST(Properties, SamplePlacementCoversAllLegalPlacementsUniformly) {
  auto rs = base_rules();
  int positions = 0;
  for (u64 seed = 1; seed <= 6; ++seed) {
    State s;
    init_state(s, *rs, 2);
    Rng rng(seed);
    MoveList ml;
    const int stop_at = 10 + static_cast<int>(seed) * 8;
    while (s.phase != Phase::Over && !(s.phase == Phase::Place && s.turn >= stop_at)) {
      if (s.phase == Phase::Draw) {
        apply_draw(s, sample_draw(s, rng));
        continue;
      }
      legal_moves(s, ml);
      apply_move(s, ml[rng.below(static_cast<u32>(ml.size()))]);
    }
    ASSERT_EQ(s.phase, Phase::Place);
    legal_moves(s, ml);
    ASSERT_GT(ml.size(), 1u);
    ++positions;
    const int per = scaled(400) < 100 ? 100 : 400;
    const long draws = per * static_cast<long>(ml.size());
    std::map<std::tuple<int, int, int>, long> hits;
    Rng srng(seed * 31);
    long illegal = 0;
    for (long i = 0; i < draws; ++i) {
      const Move m = sample_placement(s, srng);
      if (std::find(ml.begin(), ml.end(), m) == ml.end()) ++illegal;
      ++hits[{m.x, m.y, m.rot}];
    }
    EXPECT_EQ(illegal, 0) << "seed " << seed;
    EXPECT_EQ(hits.size(), ml.size()) << "seed " << seed << ": some legal placements never sampled";
    // each count is binomial(draws, 1/n): mean `per`, sd < sqrt(per); allow 6 sd
    const double tol = 6.0 * std::sqrt(static_cast<double>(per));
    for (const auto& [k, c] : hits) EXPECT_NEAR(static_cast<double>(c), per, tol) << "seed " << seed;
  }
  EXPECT_EQ(positions, 6);
}

// Determinism: the same seed gives the same game, a different seed a different one.
TEST(Properties, SeededGamesAreReproducible) {
  auto rs = base_rules();
  auto run = [&](u64 seed) {
    std::vector<std::unique_ptr<Bot>> bots;
    bots.push_back(make_bot("random"));
    bots.push_back(make_bot("random"));
    Game g(rs, {{"a", "random"}, {"b", "random"}}, seed);
    Rng rng(seed);
    play_out(g, bots, rng);
    return record_to_json(g.record(), g.ruleset());
  };
  EXPECT_EQ(run(17), run(17));
  EXPECT_NE(run(17), run(18));
}

}  // namespace
}  // namespace carc::test
