// Safari's own checks in the conformance suite (tests/conformance.hpp), over its seeded random
// games, 2-5 players, moves picked by an explorer or a hoarder profile (RULES.md section 4): every listed
// move legal (and a sample of them applied), the 50 animal tokens conserved (hands, face-down
// pile, discard pile, watering holes, pending hand-ins), 6 photographers per player conserved
// (supply, features, watering holes), scores never fall, jeeps never share a cell and always stand
// on an empty cell next to the tiles (off the board only between being taken and put back), no jeep
// move in a turn that took a jeep, hand-in options exactly the decider's species missing from the
// feature, watering holes consistent (usable quarters, distinct species but for the diagonal
// exception), completed and final scores re-derived from the tile data. (Events adding up to the
// scores, bot games replaying through JSON: the suite's generic checks.)
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <set>

#include "ai/driver.hpp"
#include "conformance.hpp"
#include "games/safari/safari_state.hpp"
#include "property_support.hpp"
#include "scenario.hpp"

namespace carc::test {
namespace {

constexpr std::array<int, 6> kSpeciesPoints = {0, 1, 3, 6, 10, 15};
constexpr int kBirdSlot = 5;

// Feature type indices looked up by name, not borrowed from the engine.
struct Names {
  int trail = -1, bush = -1, savanna = -1, baobab = -1;
  explicit Names(const Ruleset& rs) {
    for (std::size_t t = 0; t < rs.game->ftypes.size(); ++t) {
      const std::string& n = rs.game->ftypes[t].name;
      (n == "trail" ? trail : n == "bush" ? bush : n == "savanna" ? savanna : baobab) = static_cast<int>(t);
    }
  }
};

struct Tally {
  long games = 0, decisions = 0, applied_samples = 0, hand_ins = 0, hand_in_tokens = 0, jeeps_taken = 0, jeep_moves = 0;
  long founds = 0, explores = 0, holes_closed = 0, diagonal_founds = 0, baobab_deals = 0, reshuffles = 0;
  long completed = 0, finals = 0, off_turn_decisions = 0, pile_ran_out = 0;
  long bad_legal = 0, bad_tokens = 0, bad_photographers = 0, score_fell = 0, bad_jeep = 0, bad_jeep_list = 0;
  long bad_hand_in = 0, bad_spot = 0, bad_completed = 0, bad_final = 0, bad_special = 0, bad_event_sum = 0, bad_end = 0;
};

// The tokens of each species over hands, face-down pile, discard pile, watering holes and
// hand-ins waiting for their feature's scoring: 10 of each.
bool tokens_conserved(const State& s) {
  std::array<int, kTokenKinds> n{};
  for (int k = 0; k < kTokenKinds; ++k) {
    const auto ki = static_cast<std::size_t>(k);
    n[ki] += safari_state(s).tokens.pile[ki] + safari_state(s).tokens.discard[ki];
    for (int p = 0; p < s.nplayers; ++p) n[ki] += safari_state(s).tokens.hand[static_cast<std::size_t>(p)][ki];
  }
  for (const Spot& sp : safari_state(s).spots)
    for (const u8 t : sp.token)
      if (t != 0xFF) ++n[t];
  for (int p = 0; p < s.nplayers; ++p)
    if (safari_state(s).pend_pick[static_cast<std::size_t>(p)] != 0xFF)
      ++n[safari_state(s).pend_pick[static_cast<std::size_t>(p)]];
  return std::all_of(n.begin(), n.end(), [](int c) { return c == 10; });
}

bool photographers_conserved(const State& s) {
  for (int p = 0; p < s.nplayers; ++p) {
    int n = s.supply[static_cast<std::size_t>(p)];
    for (const auto& pc : s.pieces) n += pc.player == p;
    for (const Spot& sp : safari_state(s).spots)
      for (const u8 o : sp.owner) n += o == p;
    if (n != 6) return false;
  }
  return true;
}

bool next_to_tiles(const State& s, int x, int y) {
  if (s.placed_at(x, y) >= 0) return false;
  for (int d = 0; d < 4; ++d)
    if (s.placed_at(x + kSx[static_cast<std::size_t>(d)], y + kSy[static_cast<std::size_t>(d)]) >= 0) return true;
  return false;
}

// Empty cells next to a placed tile (edge-on) holding no jeep, from the placed tiles (not the
// engine's frontier).
std::set<std::pair<int, int>> free_cells(const State& s) {
  std::set<std::pair<int, int>> out;
  for (const PlacedTile& pt : s.tiles)
    for (int d = 0; d < 4; ++d) {
      const int x = pt.x + kSx[static_cast<std::size_t>(d)], y = pt.y + kSy[static_cast<std::size_t>(d)];
      bool jeep = false;
      for (const auto& mk : safari_state(s).markers) jeep |= mk[0] == x && mk[1] == y;
      if (!jeep && s.placed_at(x, y) < 0) out.emplace(x, y);
    }
  return out;
}

// Quarter c of point (px, py) is usable: its tile is placed and both edge thirds meeting at that
// corner are savanna (from the tile definition, not the engine's corner table).
bool quarter_usable(const State& s, const Names& nm, int px, int py, int c) {
  static constexpr std::array<int, 4> kCx = {1, 1, 0, 0}, kCy = {0, 1, 1, 0};
  static constexpr std::array<std::array<int, 2>, 4> kThirds = {{{2, 3}, {5, 6}, {8, 9}, {11, 0}}};
  const int ti = s.placed_at(px - kCx[static_cast<std::size_t>(c)], py - kCy[static_cast<std::size_t>(c)]);
  if (ti < 0) return false;
  const PlacedTile& pt = s.tiles[static_cast<std::size_t>(ti)];
  for (const int port : kThirds[static_cast<std::size_t>(c)])
    if (type_at(s.type_of(pt), pt.rot, port) != nm.savanna) return false;
  return true;
}

void check_spots(const State& s, const Names& nm, Tally& t) {
  std::set<std::pair<int, int>> points;
  for (const Spot& sp : safari_state(s).spots) {
    if (!points.emplace(sp.x, sp.y).second) ++t.bad_spot;  // two spots at one point
    int n = 0;
    for (int c = 0; c < 4; ++c) {
      const auto ci = static_cast<std::size_t>(c);
      if (sp.token[ci] == 0xFF) {
        if (sp.owner[ci] != 0xFF) ++t.bad_spot;
        continue;
      }
      ++n;
      if (sp.token[ci] >= kTokenKinds || !quarter_usable(s, nm, sp.x, sp.y, c)) ++t.bad_spot;
      if (sp.owner[ci] != 0xFF && sp.owner[ci] >= s.nplayers) ++t.bad_spot;
      for (int d = c + 1; d < 4; ++d) {
        if (sp.token[static_cast<std::size_t>(d)] != sp.token[ci]) continue;
        // equal species only on diagonally opposite quarters, both founded (owners until closed)
        if (d != c + 2 || (!sp.closed && (sp.owner[ci] == 0xFF || sp.owner[static_cast<std::size_t>(d)] == 0xFF)))
          ++t.bad_spot;
      }
    }
    if (n != sp.ntokens || n == 0 || (sp.closed != 0) != (n == 4)) ++t.bad_spot;
    if (sp.closed)
      for (const u8 o : sp.owner) t.bad_spot += o != 0xFF;
    if (!sp.closed && std::none_of(sp.owner.begin(), sp.owner.end(), [](u8 o) { return o != 0xFF; })) ++t.bad_spot;
  }
}

void check_jeeps(const State& s, Tally& t) {
  for (std::size_t j = 0; j < 2; ++j) {
    const auto& mk = safari_state(s).markers[j];
    if (mk[0] == kOffBoard) {
      // off the board only while taken this turn (before it is put back), or if no cell was free
      const bool taken =
          safari_state(s).marker_taken == static_cast<int>(j) + 1 && s.phase != Phase::Draw && s.phase != Phase::Place;
      if (!taken && !free_cells(s).empty()) ++t.bad_jeep;
      continue;
    }
    if (!next_to_tiles(s, mk[0], mk[1])) ++t.bad_jeep;
  }
  if (safari_state(s).markers[0][0] != kOffBoard && safari_state(s).markers[0] == safari_state(s).markers[1])
    ++t.bad_jeep;
}

void check_state(const State& s, const State& before, const Names& nm, Tally& t) {
  if (!tokens_conserved(s)) ++t.bad_tokens;
  if (!photographers_conserved(s)) ++t.bad_photographers;
  for (int p = 0; p < s.nplayers; ++p)
    if (s.score[static_cast<std::size_t>(p)] < before.score[static_cast<std::size_t>(p)]) ++t.score_fell;
  check_jeeps(s, t);
  check_spots(s, nm, t);
}

// The segments of feature `root`, and what they show from the tile data: species (bit per
// species), animals, birds and tiles.
struct Contents {
  u8 species = 0;
  int animals = 0, birds = 0, tiles = 0;
};
Contents contents(const State& s, int root) {
  Contents c;
  std::set<int> tiles;
  for (int g = 0; g < s.graph.size(); ++g) {
    if (s.graph.find(g) != root) continue;
    const Segment& sg = s.graph[g];
    const TileFeature& tf = s.type_of(s.tiles[sg.tile]).feats[sg.local];
    tiles.insert(sg.tile);
    for (int k = 0; k < kTokenKinds; ++k) {
      c.animals += tf.attr[static_cast<std::size_t>(k)];
      if (tf.attr[static_cast<std::size_t>(k)]) c.species = static_cast<u8>(c.species | (1u << k));
    }
    c.birds += tf.attr[kBirdSlot];
  }
  c.tiles = static_cast<int>(tiles.size());
  return c;
}

void check_event(const State& s, const State& before, const Names& nm, const ScoreEvent& e, Tally& t) {
  if (e.points < 0 || e.player >= s.nplayers) ++t.bad_special;
  if (e.reason == ScoreReason::Completed) {
    ++t.completed;
    const Contents c = contents(s, e.feature);
    const int birds = e.ftype == nm.bush ? c.birds : 0;
    const int species = std::popcount(static_cast<unsigned>(c.species)) + (e.cause ? 1 : 0);
    const bool cause_ok = e.cause == 0 || (e.cause <= kTokenKinds && !((c.species >> (e.cause - 1)) & 1u));
    if ((e.ftype != nm.trail && e.ftype != nm.bush) || !cause_ok || e.attr != species || e.amount != birds ||
        e.tiles != c.tiles || e.points != kSpeciesPoints[static_cast<std::size_t>(std::min(species, 5))] + birds)
      ++t.bad_completed;
    if (s.graph[e.feature].open != 0) ++t.bad_completed;
    t.hand_in_tokens += e.cause != 0;
  } else if (e.reason == ScoreReason::Final) {
    ++t.finals;
    const Contents c = contents(s, e.feature);
    const int birds = e.ftype == nm.bush ? c.birds : 0;
    if ((e.ftype != nm.trail && e.ftype != nm.bush) || e.attr != c.animals || e.amount != birds ||
        e.points != c.animals + birds || s.graph[e.feature].open == 0)
      ++t.bad_final;
  } else if (e.reason == ScoreReason::Special) {
    switch (e.cause) {
      case 1:
        ++t.founds;
        t.bad_special += e.points != 3;
        break;
      case 2:
        ++t.explores;
        t.bad_special += e.points != e.tiles + 2 || e.tiles < 2 || e.tiles > 4;
        break;
      case 3:
        ++t.holes_closed;
        t.bad_special += e.points != 3;
        break;
      case 4:
        ++t.jeeps_taken;
        t.bad_special += e.points != 3 || e.player != before.current;
        break;
      case 5: {
        int n = 0;
        for (const u8 k : safari_state(s).tokens.hand[e.player]) n += k;
        t.bad_special += e.points != n || e.tiles != n || s.phase != Phase::Over;
        break;
      }
      default:
        ++t.bad_special;
    }
  } else {
    ++t.bad_special;
  }
}

// The decision's listed moves against the rules: every one legal, by the player to move; jeep
// moves only when no jeep was taken, to free cells; hand-ins exactly none + the decider's species
// missing from the feature; a taken jeep's cells exactly the free cells.
void check_list(const State& s, const std::vector<Move>& ml, bool all, Rng& rng, Tally& t) {
  if (ml.empty()) ++t.bad_legal;
  std::vector<std::size_t> sample;
  if (all || ml.size() <= 48) {
    for (std::size_t i = 0; i < ml.size(); ++i) sample.push_back(i);
  } else {
    // is_legal of an action relists every action (quadratic over a long list): all non-actions
    // and a sample of the actions, except in the games that check everything
    for (std::size_t i = 0; i < ml.size(); ++i)
      if (ml[i].kind != MoveKind::Act) sample.push_back(i);
    for (int k = 0; k < 24; ++k) sample.push_back(rng.below(static_cast<u32>(ml.size())));
  }
  for (const std::size_t i : sample)
    if (!is_legal(s, ml[i]) || ml[i].player != to_move(s)) ++t.bad_legal;
  if (s.phase == Phase::Piece) {
    const auto cells = free_cells(s);
    long jeeps = 0;
    for (const Move& m : ml) {
      if (m.kind != MoveKind::Act || m.pk != 1) continue;
      ++jeeps;
      if (safari_state(s).marker_taken || m.rot > 1 || safari_state(s).markers[m.rot][0] == kOffBoard ||
          cells.count({m.x, m.y}) == 0)
        ++t.bad_jeep_list;
    }
    long want = 0;
    if (!safari_state(s).marker_taken)
      for (const auto& mk : safari_state(s).markers) want += mk[0] != kOffBoard ? static_cast<long>(cells.size()) : 0;
    if (jeeps != want) ++t.bad_jeep_list;
  } else if (s.phase == Phase::Choose && safari_state(s).pend_root != 0xFFFF) {
    const int d = to_move(s);
    const Segment& r = s.graph[safari_state(s).pend_root];
    int best = 0;
    for (int p = 0; p < s.nplayers; ++p) best = std::max<int>(best, r.pieces[static_cast<std::size_t>(p)]);
    if (r.pieces[static_cast<std::size_t>(d)] != best || best == 0) ++t.bad_hand_in;
    t.off_turn_decisions += d != s.current;
    const u8 present = contents(s, safari_state(s).pend_root).species;
    std::vector<u8> want = {0xFF};
    for (int k = 0; k < kTokenKinds; ++k)
      if (safari_state(s).tokens.hand[static_cast<std::size_t>(d)][static_cast<std::size_t>(k)] &&
          !((present >> k) & 1u))
        want.push_back(static_cast<u8>(k));
    std::vector<u8> got;
    for (const Move& m : ml) got.push_back(m.feat);
    if (got != want || want.size() == 1) ++t.bad_hand_in;  // no decision is asked when there is no option
  } else if (s.phase == Phase::Choose) {
    if (!safari_state(s).marker_taken || to_move(s) != s.current) ++t.bad_jeep_list;
    std::set<std::pair<int, int>> got;
    for (const Move& m : ml) {
      got.emplace(m.x, m.y);
      if (m.feat != safari_state(s).marker_taken - 1) ++t.bad_jeep_list;
    }
    const auto cells = free_cells(s);
    if (got != cells) ++t.bad_jeep_list;
  }
}

// A random listed move. In the Piece decision the kind of move is drawn first (pass, a
// photographer on a trail or bush, on a baobab, a jeep move, found, explore), then a move of that
// kind uniformly; a found goes to a point that has a token (the diagonal exception) whenever one
// is listed. Two profiles: the "explorer" completes watering holes often; the "hoarder" puts its
// photographers on baobabs, never uses watering holes and hands in a token whenever it can, so
// that the face-down pile runs out and the discard pile is reshuffled.
using Weights = std::array<u32, 6>;
constexpr Weights kExplorer = {1, 3, 3, 1, 2, 8}, kHoarder = {1, 1, 30, 0, 0, 0};

bool founds_at_spot(const State& s, const Move& m) {
  const int px = m.x + (m.rot <= 1 ? 1 : 0), py = m.y + (m.rot == 1 || m.rot == 2 ? 1 : 0);
  return std::any_of(safari_state(s).spots.begin(), safari_state(s).spots.end(),
                     [&](const Spot& sp) { return sp.x == px && sp.y == py; });
}

Move pick(const State& s, const Names& nm, const std::vector<Move>& ml, bool hoarder, Rng& rng) {
  const Weights& weight = hoarder ? kHoarder : kExplorer;
  if (s.phase == Phase::Choose && safari_state(s).pend_root != 0xFFFF && hoarder && ml.size() > 1)
    return ml[1 + rng.below(static_cast<u32>(ml.size() - 1))];  // the hoarder hands a token in
  if (s.phase != Phase::Piece) return ml[rng.below(static_cast<u32>(ml.size()))];
  std::array<std::vector<const Move*>, 6> by_kind;
  for (const Move& m : ml) {
    int k = 0;
    if (m.kind == MoveKind::Act) {
      k = 2 + m.pk;
    } else if (m.kind == MoveKind::Piece) {
      const PlacedTile& pt = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
      k = s.type_of(pt).feats[m.feat].type == nm.baobab ? 2 : 1;
    }
    by_kind[static_cast<std::size_t>(k)].push_back(&m);
  }
  std::vector<const Move*> diagonal;
  for (const Move* m : by_kind[4])
    if (founds_at_spot(s, *m)) diagonal.push_back(m);
  if (!diagonal.empty()) by_kind[4] = diagonal;
  u32 sum = 0;
  for (std::size_t k = 0; k < 6; ++k) sum += by_kind[k].empty() ? 0 : weight[k];
  if (sum == 0) return ml.front();
  u32 r = rng.below(sum);
  for (std::size_t k = 0; k < 6; ++k) {
    if (by_kind[k].empty()) continue;
    if (r < weight[k]) return *by_kind[k][rng.below(static_cast<u32>(by_kind[k].size()))];
    r -= weight[k];
  }
  return ml.front();
}

// Safari's own checks in the conformance suite's random games (tests/conformance.hpp): the moves
// picked by the explorer or hoarder profile, every listed move checked in the first 60 games.
class SafariChecks : public conformance::GameChecks {
 public:
  void begin(const Ruleset& rs, int players, int k) override {
    rs_ = &rs;
    if (!nm_) nm_.emplace(rs);
    check_all_ = k < 60;
    hoarder_ = players == 5 || k % 3 == 2;
    samples_left_ = 3;
    min_pile_ = 50;
  }
  void decision(const State& s, const MoveList& list, Rng& rng) override {
    const std::vector<Move> ml(list.begin(), list.end());
    ++t_.decisions;
    check_list(s, ml, check_all_, rng, t_);
    // a few other listed moves applied on copies: they apply and keep the invariants
    if (samples_left_ > 0 && rng.below(16) == 0) {
      --samples_left_;
      State c = s;
      EventSink cev;
      apply_move(c, ml[rng.below(static_cast<u32>(ml.size()))], &cev);
      check_state(c, s, *nm_, t_);
      ++t_.applied_samples;
    }
  }
  std::optional<Move> pick(const State& s, const MoveList& list, Rng& rng) override {
    const std::vector<Move> ml(list.begin(), list.end());
    const Move m = carc::test::pick(s, *nm_, ml, hoarder_, rng);
    t_.diagonal_founds += m.kind == MoveKind::Act && m.pk == 2 && founds_at_spot(s, m);
    t_.jeep_moves += m.kind == MoveKind::Act && m.pk == 1;
    t_.hand_ins += m.kind == MoveKind::Choose && safari_state(s).pend_root != 0xFFFF;
    return m;
  }
  void step(const State& before, const State& s, const Move* m, bool placed,
            std::span<const ScoreEvent> events) override {
    (void)placed;
    if (!m && before.phase == Phase::Chance && before.stage != 0) ++t_.baobab_deals;
    check_state(s, before, *nm_, t_);
    // the discard pile shrinks only when it becomes the new face-down pile
    int discard_before = 0, discard_after = 0, pile_before = 0;
    for (int k = 0; k < kTokenKinds; ++k) {
      discard_before += safari_state(before).tokens.discard[static_cast<std::size_t>(k)];
      discard_after += safari_state(s).tokens.discard[static_cast<std::size_t>(k)];
      pile_before += safari_state(before).tokens.pile[static_cast<std::size_t>(k)];
    }
    if (discard_after < discard_before) {
      ++t_.reshuffles;
      if (discard_after != 0 || pile_before > 1) ++t_.bad_tokens;  // only an empty pile is refilled
    }
    for (const ScoreEvent& e : events) check_event(s, before, *nm_, e, t_);
    int pile_now = 0;
    for (const u8 k : safari_state(s).tokens.pile) pile_now += k;
    min_pile_ = std::min(min_pile_, pile_now);
  }
  // photographers at watering holes
  int held_elsewhere(const State& s, int player, int kind) const override {
    int n = 0;
    if (kind == 0)
      for (const Spot& sp : safari_state(s).spots)
        for (const u8 o : sp.owner) n += o == player;
    return n;
  }
  void end(const State& s, const EventSink& ev) override {
    (void)ev;
    t_.pile_ran_out += min_pile_ == 0;
    ++t_.games;
    if (s.pile != 0 || s.turn + s.discards != rs_->tiles.draw_total || !s.pieces.empty()) ++t_.bad_end;
  }
  void expect(long n) override {
    const Tally& t = t_;
    EXPECT_EQ(t.games, n);
    EXPECT_GT(t.decisions, 140L * n);
    EXPECT_GT(t.applied_samples, 0);
    // the rules were exercised
    EXPECT_GT(t.completed, 0);
    EXPECT_GT(t.finals, 0);
    EXPECT_GT(t.hand_ins, 0);
    EXPECT_GT(t.hand_in_tokens, 0);
    EXPECT_GT(t.off_turn_decisions, 0) << "hand-ins by a player other than the current one";
    EXPECT_GT(t.jeeps_taken, 0);
    EXPECT_GT(t.jeep_moves, 0);
    EXPECT_GT(t.founds, 0);
    EXPECT_GT(t.explores, 0);
    EXPECT_GT(t.holes_closed, 0);
    EXPECT_GT(t.diagonal_founds, 0);
    EXPECT_GT(t.baobab_deals, 0);
    EXPECT_GT(t.pile_ran_out, 0) << "the face-down pile never ran out";
    EXPECT_GT(t.reshuffles, 0) << "the discard pile was never reshuffled";
    // and kept
    EXPECT_EQ(t.bad_legal, 0) << "a listed move is illegal or belongs to another player";
    EXPECT_EQ(t.bad_tokens, 0) << "the 50 tokens are not conserved";
    EXPECT_EQ(t.bad_photographers, 0) << "6 photographers per player not conserved";
    EXPECT_EQ(t.score_fell, 0);
    EXPECT_EQ(t.bad_jeep, 0) << "jeeps sharing a cell, on a tile, away from the tiles, or off the board";
    EXPECT_EQ(t.bad_jeep_list, 0) << "jeep moves or relocations listed wrongly";
    EXPECT_EQ(t.bad_hand_in, 0) << "hand-in options wrong, or asked of a non-scorer";
    EXPECT_EQ(t.bad_spot, 0) << "a watering hole inconsistent";
    EXPECT_EQ(t.bad_completed, 0) << "a completed feature scored differently from the tile data";
    EXPECT_EQ(t.bad_final, 0) << "an unfinished feature scored differently from the tile data";
    EXPECT_EQ(t.bad_special, 0);
    EXPECT_EQ(t.bad_end, 0);
  }

 private:
  const Ruleset* rs_ = nullptr;
  std::optional<Names> nm_;
  bool check_all_ = false, hoarder_ = false;
  int samples_left_ = 3, min_pile_ = 50;
  Tally t_;
};

CARC_CONFORMANCE_CHECKS(safari, (conformance::Plan{.random_games = 240, .bot_games = 20}), SafariChecks);

}  // namespace
}  // namespace carc::test
