// Carcassonne: Safari (RULES.md section 4) as data plus hooks.
//
// Turn: draw -> place (on a jeep's cell: take that jeep) -> one action: a photographer on a trail,
// bush or baobab of the new tile (a baobab deals 2 tokens at once), or move a jeep, or found or
// explore a watering hole, or nothing -> completion scoring, where each scoring player of each
// completed trail/bush first decides on a token hand-in (a Choose move by that player, even off
// turn), and a surrounded baobab returns its photographer and deals its owner 2 more tokens ->
// a taken jeep scores 3 and must be put back on an empty cell (a Choose move by the current
// player). Token draws are chance events (phase Chance): uniform over the face-down pile, which
// is refilled from the discard pile when it runs out.
#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "core/io.hpp"
#include "core/json_input.hpp"
#include "games/games.hpp"
#include "games/safari/safari_state.hpp"
#include "rules/words.hpp"

namespace carc::games {

void present_safari(GameDef& g);  // present.cpp
const GameDef& safari();          // below

// "2,1 NE": a cell and one of its corners, as the notation writes them (also present.cpp).
std::string cell_corner(int x, int y, int c) { return fmt::format("{},{} {}", x, y, kCornerNames[static_cast<std::size_t>(c) & 3]); }

// say() for Safari's words: its catalog and the engine's, looked up once (a legal list's option
// texts are written hundreds at a time). Also present.cpp.
std::string sf_say(std::string_view id, const MsgArgs& args = {}) {
  static const i18n::Catalog* const own = game_messages(safari());
  static const i18n::Catalog* const generic = &generic_messages();
  return i18n::say({own, generic}, id, args);
}

// A species' name for players, in the current language ("lion", "лев"); the notation and the
// records keep the identifiers (also present.cpp).
const std::string& species_word(const State&, int k) {
  static const auto words = [] {
    std::array<std::array<std::string, kTokenKinds>, i18n::kLangs> w;
    for (const i18n::Lang l : i18n::kEveryLang) {
      const i18n::Scope scope(l);
      for (std::size_t sp = 0; sp < w[0].size(); ++sp)
        w[static_cast<std::size_t>(l)][sp] = sf_say("species." + safari_species()[sp], {});
    }
    return w;
  }();
  return words[static_cast<std::size_t>(i18n::current())][static_cast<std::size_t>(k) % kTokenKinds];
}

namespace {

using jin::json;

constexpr int kTrail = 0, kBush = 1, kBaobab = 3;
constexpr int kBird = 5;
constexpr std::array<int, 6> kSpeciesPoints = {0, 1, 3, 6, 10, 15};
const std::array<std::string, kTokenKinds> kSpecies = {"monkey", "elephant", "giraffe", "lion", "zebra"};

int hand_total(const State& s, int p) {
  int n = 0;
  for (const u8 k : safari_state(s).tokens.hand[static_cast<std::size_t>(p)]) n += k;
  return n;
}
int pile_total(const State& s) {
  int n = 0;
  for (const u8 k : safari_state(s).tokens.pile) n += k;
  return n;
}
u8 hand_mask(const State& s, int p) {
  u8 m = 0;
  for (int k = 0; k < kTokenKinds; ++k)
    if (safari_state(s).tokens.hand[static_cast<std::size_t>(p)][static_cast<std::size_t>(k)])
      m = static_cast<u8>(m | (1u << k));
  return m;
}
// species present on a trail/bush (bit per species)
u8 species_mask(const Segment& r) {
  u8 m = 0;
  for (int k = 0; k < kTokenKinds; ++k)
    if (r.attr[static_cast<std::size_t>(k)]) m = static_cast<u8>(m | (1u << k));
  return m;
}

void push_event(const State& s, EventSink* ev, int player, int ftype, ScoreReason why, int pts, u8 cause, u8 tiles = 0,
                u8 attr = 0, u8 moved = 0, u16 feature = 0) {
  if (!ev) return;
  ScoreEvent e;
  e.turn = s.turn;
  e.player = static_cast<u8>(player);
  e.ftype = static_cast<u8>(ftype);
  e.reason = why;
  e.points = static_cast<i16>(pts);
  e.cause = cause;
  e.tiles = tiles;
  e.attr = attr;
  e.amount = moved;
  e.feature = feature;
  ev->push_back(e);
}
void add_score(State& s, int p, int pts) {
  s.score[static_cast<std::size_t>(p)] = static_cast<i16>(s.score[static_cast<std::size_t>(p)] + pts);
}

// ---- tokens (chance events) ----

// Queue n token draws for `player` (0xFF: two each round the table). Returns true if a draw is
// due (phase Chance); false if the pile and the discard pile are both empty.
bool queue_deal(State& s, u8 player, int n) {
  Tokens& t = safari_state(s).tokens;
  t.deal_to = player;
  t.deal_left = static_cast<u8>(n);
  if (pile_total(s) == 0) {  // reshuffle the discard pile into a new face-down pile
    t.pile = t.discard;
    t.discard.fill(0);
  }
  if (pile_total(s) == 0) t.deal_left = 0;
  if (t.deal_left == 0) return false;
  s.phase = Phase::Chance;
  return true;
}

int sample_chance(const State& s, Rng& rng) {
  u32 k = rng.below(static_cast<u32>(pile_total(s)));
  for (int sp = 0;; ++sp) {
    if (k < safari_state(s).tokens.pile[static_cast<std::size_t>(sp)]) return sp;
    k -= safari_state(s).tokens.pile[static_cast<std::size_t>(sp)];
  }
}

void chance_odds(const State& s, std::vector<std::pair<int, double>>& out) {
  const int n = pile_total(s);
  for (int sp = 0; sp < kTokenKinds; ++sp)
    if (safari_state(s).tokens.pile[static_cast<std::size_t>(sp)])
      out.emplace_back(sp, static_cast<double>(safari_state(s).tokens.pile[static_cast<std::size_t>(sp)]) / n);
}

void apply_chance(State& s, int sp, EventSink* ev) {
  Tokens& t = safari_state(s).tokens;
  const int to = t.deal_to == 0xFF ? (2 * s.nplayers - t.deal_left) / 2 : t.deal_to;
  --t.pile[static_cast<std::size_t>(sp)];
  ++t.hand[static_cast<std::size_t>(to)][static_cast<std::size_t>(sp)];
  --t.deal_left;
  if (t.deal_left && queue_deal(s, t.deal_to, t.deal_left)) return;
  t.deal_left = 0;
  if (s.stage == 0) s.phase = Phase::Draw;  // the opening deal
  else continue_turn(s, ev);                // a baobab's tokens: the turn goes on
}

std::string chance_text(const State&, int sp) { return kSpecies[static_cast<std::size_t>(sp)]; }
int chance_parse(const State& s, std::string_view text) {
  for (int k = 0; k < kTokenKinds; ++k)
    if (kSpecies[static_cast<std::size_t>(k)] == text)
      return safari_state(s).tokens.pile[static_cast<std::size_t>(k)] ? k : -1;
  return -1;
}

// ---- watering holes ----

void mark_spot_corners(State& s, int px, int py) {
  for (int c = 0; c < 4; ++c) {
    const int ti = s.placed_at(px - kCornerDx[static_cast<std::size_t>(c)], py - kCornerDy[static_cast<std::size_t>(c)]);
    if (ti >= 0) safari_state(s).spot_corner[static_cast<std::size_t>(ti * 4 + c) >> 6] |= 1ull << ((ti * 4 + c) & 63);
  }
}
// The watering hole at grid point (px, py), opened there if there is none yet.
Spot& spot_at(State& s, int px, int py) {
  int si = find_spot(s, px, py);
  if (si < 0) {
    Spot sp;
    sp.x = static_cast<i8>(px);
    sp.y = static_cast<i8>(py);
    safari_state(s).spots.push_back(sp);
    si = static_cast<int>(safari_state(s).spots.size()) - 1;
    mark_spot_corners(s, px, py);
  }
  return safari_state(s).spots[static_cast<std::size_t>(si)];
}
bool spot_at_corner(const State& s, int ti, int c) {
  return (safari_state(s).spot_corner[static_cast<std::size_t>(ti * 4 + c) >> 6] >> ((ti * 4 + c) & 63)) & 1u;
}
// The watering hole at the grid point of corner c of cell (x, y): its index in safari_state(s).spots, -1 if none.
int corner_spot(const State& s, int x, int y, int c) {
  return find_spot(s, x + kCornerDx[static_cast<std::size_t>(c)], y + kCornerDy[static_cast<std::size_t>(c)]);
}

// ---- hooks ----

void on_init(State& s) {
  reset_game_state<SafariState>(s);
  safari_state(s).tokens.pile.fill(10);
  int lo = 127, hi = -128, y = 0;
  for (const StartCell& c : s.rs->tiles.side_for(s.nplayers).cells) {
    lo = std::min(lo, c.x);
    hi = std::max(hi, c.x);
    y = c.y;
  }
  safari_state(s).markers[0] = {static_cast<i8>(lo - 1), static_cast<i8>(y)};
  safari_state(s).markers[1] = {static_cast<i8>(hi + 1), static_cast<i8>(y)};
  queue_deal(s, 0xFF, 2 * s.nplayers);
}

void before_place(State& s, const Move& m) {
  safari_state(s).marker_taken = 0;
  for (std::size_t j = 0; j < 2; ++j)
    if (safari_state(s).markers[j][0] == m.x && safari_state(s).markers[j][1] == m.y) {
      safari_state(s).marker_taken = static_cast<u8>(j + 1);
      safari_state(s).markers[j] = {kOffBoard, kOffBoard};
    }
}

void on_tile_placed(State& s, int idx, EventSink*) {
  if (safari_state(s).spots.empty()) return;
  const PlacedTile& pt = s.tiles[static_cast<std::size_t>(idx)];
  for (int c = 0; c < 4; ++c)
    if (corner_spot(s, pt.x, pt.y, c) >= 0)
      safari_state(s).spot_corner[static_cast<std::size_t>(idx * 4 + c) >> 6] |= 1ull << ((idx * 4 + c) & 63);
}

bool jeep_cell_free(const State& s, int x, int y) {
  for (const auto& mk : safari_state(s).markers)
    if (mk[0] == x && mk[1] == y) return false;
  return true;
}

void gen_actions(const State& s, MoveList& out) {
  Move m;
  m.kind = MoveKind::Act;
  m.player = s.current;
  if (!safari_state(s).marker_taken) {  // move a jeep (not when one was taken this turn)
    m.pk = 1;
    for (u8 j = 0; j < 2; ++j) {
      if (safari_state(s).markers[j][0] == kOffBoard) continue;
      m.rot = j;
      for (const FrontierCell& fc : s.frontier) {
        if (!jeep_cell_free(s, fc.x, fc.y)) continue;
        m.x = fc.x;
        m.y = fc.y;
        out.push_back(m);
      }
    }
  }
  const u8 hand = hand_mask(s, s.current);
  if (!hand) return;
  if (s.supply[s.current]) {  // found: a token and a photographer on a usable quarter
    m.pk = 2;
    for (std::size_t ti = 0; ti < s.tiles.size(); ++ti) {
      const PlacedTile& pt = s.tiles[ti];
      const u8 corners = s.type_of(pt).rot[pt.rot].corners;
      if (!corners) continue;
      m.x = pt.x;
      m.y = pt.y;
      for (int c = 0; c < 4; ++c) {
        if (!((corners >> c) & 1u)) continue;
        if (spot_at_corner(s, static_cast<int>(ti), c)) {
          // the exception: the point's only token sits in the diagonally opposite quarter
          const Spot& sp = safari_state(s).spots[static_cast<std::size_t>(corner_spot(s, pt.x, pt.y, c))];
          if (sp.ntokens != 1 || sp.token[static_cast<std::size_t>((c + 2) % 4)] == 0xFF) continue;
        }
        m.rot = static_cast<u8>(c);
        for (int k = 0; k < kTokenKinds; ++k) {
          if (!((hand >> k) & 1u)) continue;
          m.feat = static_cast<u8>(k);
          out.push_back(m);
        }
      }
    }
  }
  m.pk = 3;  // explore: a species new to the point, on a usable empty quarter
  for (const Spot& sp : safari_state(s).spots) {
    if (sp.closed) continue;
    u8 present = 0;
    for (const u8 t : sp.token)
      if (t != 0xFF) present = static_cast<u8>(present | (1u << t));
    const u8 kinds = static_cast<u8>(hand & ~present);
    if (!kinds) continue;
    for (int c = 0; c < 4; ++c) {
      if (sp.token[static_cast<std::size_t>(c)] != 0xFF || !quarter_usable(s, sp.x, sp.y, c)) continue;
      m.x = static_cast<i8>(sp.x - kCornerDx[static_cast<std::size_t>(c)]);
      m.y = static_cast<i8>(sp.y - kCornerDy[static_cast<std::size_t>(c)]);
      m.rot = static_cast<u8>(c);
      for (int k = 0; k < kTokenKinds; ++k) {
        if (!((kinds >> k) & 1u)) continue;
        m.feat = static_cast<u8>(k);
        out.push_back(m);
      }
    }
  }
}

enum : u8 { kFoundCause = 1, kExploreCause = 2, kHoleCause = 3, kJeepCause = 4, kTokensCause = 5 };

void apply_action(State& s, const Move& m, EventSink* ev) {
  const int p = m.player;
  if (m.pk == 1) {
    safari_state(s).markers[m.rot] = {m.x, m.y};
    return;
  }
  const int c = m.rot;
  const int px = m.x + kCornerDx[static_cast<std::size_t>(c)], py = m.y + kCornerDy[static_cast<std::size_t>(c)];
  --safari_state(s).tokens.hand[static_cast<std::size_t>(p)][m.feat];
  Spot& sp = spot_at(s, px, py);
  sp.token[static_cast<std::size_t>(c)] = m.feat;
  ++sp.ntokens;
  if (m.pk == 2) {  // found: +3, with a photographer
    sp.owner[static_cast<std::size_t>(c)] = static_cast<u8>(p);
    --s.supply[static_cast<std::size_t>(p)];
    add_score(s, p, 3);
    push_event(s, ev, p, kBaobab, ScoreReason::Special, 3, kFoundCause, sp.ntokens, m.feat);
    return;
  }
  const int pts = sp.ntokens + 2;  // 2nd token 4, 3rd 5, 4th 6
  add_score(s, p, pts);
  push_event(s, ev, p, kBaobab, ScoreReason::Special, pts, kExploreCause, sp.ntokens, m.feat);
  if (sp.ntokens < 4) return;
  sp.closed = 1;  // complete: 3 once to each player with a photographer there; they return
  u8 paid = 0;
  for (int q = 0; q < 4; ++q) {
    const u8 o = sp.owner[static_cast<std::size_t>(q)];
    if (o == 0xFF) continue;
    ++s.supply[o];
    sp.owner[static_cast<std::size_t>(q)] = 0xFF;
    if ((paid >> o) & 1u) continue;
    paid = static_cast<u8>(paid | (1u << o));
    add_score(s, o, 3);
    push_event(s, ev, o, kBaobab, ScoreReason::Special, 3, kHoleCause, 4);
  }
}

// What an option of the piece decision gains its player at once (Hooks::option_gain, for the
// search's playouts): an action on a watering hole its points less the token spent (worth 1 in
// hand at the end); completing one also pays 3 to each player with a photographer there (counted
// for the mover, against the others). A photographer, a pass or a jeep moved: nothing.
double option_gain(const State& s, const Move& m) {
  if (m.kind != MoveKind::Act || m.pk == 1) return 0.0;
  if (m.pk == 2) return 3.0 - 1.0;
  const int si = corner_spot(s, m.x, m.y, m.rot);
  if (si < 0) return 0.0;
  const Spot& sp = safari_state(s).spots[static_cast<std::size_t>(si)];
  double gain = sp.ntokens + 3 - 1.0;  // the 2nd token 4, the 3rd 5, the 4th 6
  if (sp.ntokens == 3) {
    u8 paid = 0;
    for (const u8 o : sp.owner)
      if (o != 0xFF && !((paid >> o) & 1u)) {
        paid = static_cast<u8>(paid | (1u << o));
        gain += o == m.player ? 3.0 : -3.0;
      }
  }
  return gain;
}

// Moves the bots' evaluations cannot tell apart (Hooks::eval_twin): they read neither the
// watering holes nor the jeeps, only the points and the tokens. So every move that only moves a
// jeep (or puts a taken jeep back) is one move to them (key 1), a hole founded with the same
// species anywhere is one action, and so is the 2nd or the 3rd token of a species at any hole
// (the 4th completes a hole and pays its photographers: an action of its own).
u32 eval_twin(const State& s, const Move& m) {
  if (m.kind == MoveKind::Choose) return safari_state(s).marker_taken && safari_state(s).pend_root == 0xFFFF ? 1 : 0;
  if (m.kind != MoveKind::Act) return 0;
  if (m.pk == 1) return 1;
  if (m.pk == 2) return 2 + m.feat;
  if (m.pk != 3) return 0;
  const int si = corner_spot(s, m.x, m.y, m.rot);
  if (si < 0) return 0;
  const int n = safari_state(s).spots[static_cast<std::size_t>(si)].ntokens;
  return n == 1 || n == 2 ? static_cast<u32>(8 * n + m.feat) : 0;
}

// Tokens in a player's hand, and those still to be dealt to them (Hooks::held): they score 1 each
// at the end and more when handed in or put on a watering hole.
int held(const State& s, int p) {
  const Tokens& t = safari_state(s).tokens;
  int n = 0;
  for (const u8 k : t.hand[static_cast<std::size_t>(p)]) n += k;
  if (t.deal_left && (t.deal_to == p || t.deal_to == 0xFF)) n += t.deal_left;
  return n;
}
double greedy_term(const State& s, int p) { return 1.6 * held(s, p); }

// The observation (GameDef::observation, set below): the jeeps, the watering holes' tokens by
// species and their photographers by seat, the hands, the token piles.
void observe(const State& s, ObservationSink& o) {
  const SafariState& g = safari_state(s);
  for (const auto& mk : g.markers)
    if (mk[0] != kOffBoard) o.plane(0, -1, mk[0], mk[1], 1);
  for (const Spot& sp : g.spots)
    for (std::size_t c = 0; c < 4; ++c) {
      if (sp.token[c] != 0xFF) o.plane(1 + sp.token[c], -1, sp.x, sp.y, 1);
      if (sp.owner[c] != 0xFF) o.plane(1 + kTokenKinds, sp.owner[c], sp.x, sp.y, 1);
    }
  for (int q = 0; q < s.nplayers; ++q)
    for (int k = 0; k < kTokenKinds; ++k)
      o.seat_value(q, k, g.tokens.hand[static_cast<std::size_t>(q)][static_cast<std::size_t>(k)]);
  for (int k = 0; k < kTokenKinds; ++k) {
    o.value(k, g.tokens.pile[static_cast<std::size_t>(k)]);
    o.value(kTokenKinds + k, g.tokens.discard[static_cast<std::size_t>(k)]);
  }
}

// A photographer on a baobab takes 2 tokens at once.
void on_piece(State& s, const Move& m, EventSink*) {
  if (m.kind != MoveKind::Piece) return;
  const PlacedTile& pt = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
  if (s.type_of(pt).feats[m.feat].type == kBaobab) queue_deal(s, m.player, 2);
}

bool score_completed(State& s, int root, EventSink* ev) {
  if (s.graph[root].ftype == kBaobab) {  // surrounded: the photographer returns with 2 more tokens
    s.graph[root].scored = 1;
    int owner = -1;
    for (int p = 0; p < s.nplayers; ++p)
      if (s.graph[root].pieces[static_cast<std::size_t>(p)]) owner = p;
    return_pieces(s, root);
    return owner < 0 || !queue_deal(s, static_cast<u8>(owner), 2);
  }
  const Segment& r = s.graph[root];
  int best = 0;
  for (int p = 0; p < s.nplayers; ++p) best = std::max<int>(best, r.pieces[static_cast<std::size_t>(p)]);
  if (best == 0) return true;
  const u8 present = species_mask(r);
  if (safari_state(s).pend_root != root) {  // first visit: who may hand in a token
    safari_state(s).pend_root = static_cast<u16>(root);
    safari_state(s).pend_pick.fill(0xFF);
    safari_state(s).pend_mask = 0;
    for (int p = 0; p < s.nplayers; ++p)
      if (r.pieces[static_cast<std::size_t>(p)] == best && (hand_mask(s, p) & ~present))
        safari_state(s).pend_mask = static_cast<u8>(safari_state(s).pend_mask | (1u << p));
  }
  if (safari_state(s).pend_mask) {  // the next scorer in turn order from the current player decides
    for (int i = 0; i < s.nplayers; ++i) {
      const int p = (s.current + i) % s.nplayers;
      if ((safari_state(s).pend_mask >> p) & 1u) {
        s.decider = static_cast<u8>(p);
        break;
      }
    }
    s.phase = Phase::Choose;
    return false;
  }
  const int species = std::popcount(static_cast<unsigned>(present));
  const int birds = r.ftype == kBush ? r.attr[kBird] : 0;
  const int tiles = feature_info(s, root).tiles;
  for (int p = 0; p < s.nplayers; ++p) {
    if (r.pieces[static_cast<std::size_t>(p)] != best) continue;
    const u8 pick = safari_state(s).pend_pick[static_cast<std::size_t>(p)];
    const int k = species + (pick != 0xFF ? 1 : 0);
    const int pts = kSpeciesPoints[static_cast<std::size_t>(k)] + birds;
    add_score(s, p, pts);
    push_event(s, ev, p, r.ftype, ScoreReason::Completed, pts, static_cast<u8>(pick == 0xFF ? 0 : pick + 1),
               static_cast<u8>(tiles), static_cast<u8>(k), static_cast<u8>(birds), static_cast<u16>(root));
    if (pick != 0xFF) ++safari_state(s).tokens.discard[pick];
  }
  safari_state(s).pend_root = 0xFFFF;
  safari_state(s).pend_pick.fill(0xFF);
  s.graph[root].scored = 1;
  return_pieces(s, root);
  return true;
}

void gen_choices(const State& s, MoveList& out) {
  Move m;
  m.kind = MoveKind::Choose;
  if (safari_state(s).pend_root != 0xFFFF) {  // a scorer's token hand-in: none, or a species not on the feature
    m.player = s.decider;
    out.push_back(m);
    const u8 kinds = static_cast<u8>(hand_mask(s, s.decider) & ~species_mask(s.graph[safari_state(s).pend_root]));
    for (int k = 0; k < kTokenKinds; ++k)
      if ((kinds >> k) & 1u) {
        m.feat = static_cast<u8>(k);
        out.push_back(m);
      }
    return;
  }
  m.player = s.current;  // put the taken jeep on an empty cell next to the tiles
  m.feat = static_cast<u8>(safari_state(s).marker_taken - 1);
  m.pk = 1;  // a jeep (as in the jeep action): tells it from a hand-in
  for (const FrontierCell& fc : s.frontier) {
    if (!jeep_cell_free(s, fc.x, fc.y)) continue;
    m.x = fc.x;
    m.y = fc.y;
    out.push_back(m);
  }
}

void apply_choice(State& s, const Move& m, EventSink* ev) {
  if (safari_state(s).pend_root != 0xFFFF) {
    const int p = s.decider;
    safari_state(s).pend_mask = static_cast<u8>(safari_state(s).pend_mask & ~(1u << p));
    if (m.feat != 0xFF) {
      --safari_state(s).tokens.hand[static_cast<std::size_t>(p)][m.feat];
      safari_state(s).pend_pick[static_cast<std::size_t>(p)] = m.feat;
    }
    s.decider = 0xFF;
  } else {
    safari_state(s).markers[m.feat] = {m.x, m.y};
    safari_state(s).marker_taken = 0;
  }
  continue_turn(s, ev);
}

// A taken jeep: +3 after scoring, then it must go back on the board.
void on_scoring(State& s, EventSink* ev) {
  if (!safari_state(s).marker_taken) return;
  add_score(s, s.current, 3);
  push_event(s, ev, s.current, kBaobab, ScoreReason::Special, 3, kJeepCause);
  for (const FrontierCell& fc : s.frontier)
    if (jeep_cell_free(s, fc.x, fc.y)) {
      s.phase = Phase::Choose;
      return;
    }
  safari_state(s).marker_taken = 0;  // no empty cell left: the jeep leaves the game
}

// End: every player with a photographer on an unfinished trail or bush scores its animals and birds.
void score_unfinished(State& s, int root, EventSink* ev) {
  const Segment& r = s.graph[root];
  if (r.ftype != kTrail && r.ftype != kBush) return;
  int n = 0;
  for (int k = 0; k < kTokenKinds; ++k) n += r.attr[static_cast<std::size_t>(k)];
  const int birds = r.ftype == kBush ? r.attr[kBird] : 0;
  const int tiles = feature_info(s, root).tiles;
  for (int p = 0; p < s.nplayers; ++p) {
    if (!r.pieces[static_cast<std::size_t>(p)]) continue;
    add_score(s, p, n + birds);
    push_event(s, ev, p, r.ftype, ScoreReason::Final, n + birds, 0, static_cast<u8>(tiles), static_cast<u8>(n),
               static_cast<u8>(birds), static_cast<u16>(root));
  }
}

void on_final_scoring(State& s, EventSink* ev) {
  for (int p = 0; p < s.nplayers; ++p) {
    const int n = hand_total(s, p);
    if (!n) continue;
    add_score(s, p, n);
    push_event(s, ev, p, kBaobab, ScoreReason::Special, n, kTokensCause, static_cast<u8>(n));
  }
}


std::string action_text(const State& s, const Move& m) {
  // compiled formats: a legal list writes hundreds of these
  if (m.pk == 1)
    return fmt::format(FMT_COMPILE("jeep from {},{} to {},{}"), safari_state(s).markers[m.rot][0],
                       safari_state(s).markers[m.rot][1], m.x, m.y);
  return fmt::format(FMT_COMPILE("{} {} at {},{} {}"), m.pk == 2 ? "found" : "explore", kSpecies[m.feat], m.x, m.y,
                     kCornerNames[static_cast<std::size_t>(m.rot) & 3]);
}

// A board coordinate: a whole number on the map (-128 to 127), never wrapped onto another cell.
int parse_coord(std::string_view t, std::string_view what) {
  long long v = 0;
  if (!carc::parse_int(t, -128, 127, v)) throw InputError(sf_say("err.coordinate", {{"what", what}, {"text", t}}));
  return static_cast<int>(v);
}
std::pair<int, int> parse_cell(std::string_view t, std::string_view what) {
  const auto comma = t.find(',');
  if (comma == std::string_view::npos) throw InputError(sf_say("err.cell", {{"what", what}, {"text", t}}));
  return {parse_coord(t.substr(0, comma), what), parse_coord(t.substr(comma + 1), what)};
}
std::vector<std::string_view> split(std::string_view t) {
  std::vector<std::string_view> w;
  std::size_t i = 0;
  while (i < t.size()) {
    while (i < t.size() && t[i] == ' ') ++i;
    const std::size_t j = t.find(' ', i);
    const std::size_t e = j == std::string_view::npos ? t.size() : j;
    if (e > i) w.push_back(t.substr(i, e - i));
    i = e;
  }
  return w;
}
int parse_species(std::string_view t) {
  for (int k = 0; k < kTokenKinds; ++k)
    if (kSpecies[static_cast<std::size_t>(k)] == t) return k;
  throw InputError(sf_say("err.species", {{"text", t}}));
}

// "jeep from X,Y to X,Y" (or "jeep X,Y to X,Y"), "found SPECIES at X,Y CORNER", "explore ...".
Move action_parse(const State& s, std::string_view text) {
  const auto w = split(text);
  Move m;
  m.kind = MoveKind::Act;
  m.player = s.current;
  if (!w.empty() && w[0] == "jeep") {
    std::size_t i = 1;
    if (i < w.size() && w[i] == "from") ++i;
    if (w.size() != i + 3 || w[i + 1] != "to")
      throw InputError(sf_say("err.expected", {{"text", text}, {"form", "jeep from X,Y to X,Y"}}));
    const auto from = parse_cell(w[i], "jeep");
    const auto to = parse_cell(w[i + 2], "jeep");
    m.pk = 1;
    m.rot = 0xFF;
    for (u8 j = 0; j < 2; ++j)
      if (safari_state(s).markers[j][0] == from.first && safari_state(s).markers[j][1] == from.second) m.rot = j;
    if (m.rot == 0xFF) throw InputError(sf_say("err.no_jeep_at_cell", {{"x", from.first}, {"y", from.second}}));
    m.x = static_cast<i8>(to.first);
    m.y = static_cast<i8>(to.second);
    return m;
  }
  if (w.size() == 5 && (w[0] == "found" || w[0] == "explore") && w[2] == "at") {
    m.pk = w[0] == "found" ? 2 : 3;
    m.feat = static_cast<u8>(parse_species(w[1]));
    const auto cell = parse_cell(w[3], w[0]);
    if (!CellMap::in_range(cell.first, cell.second))
      throw InputError(sf_say("err.cell_off_map", {{"x", cell.first}, {"y", cell.second}}));
    const auto it = std::find(kCornerNames.begin(), kCornerNames.end(), w[4]);
    if (it == kCornerNames.end()) throw InputError(sf_say("err.corner", {{"text", w[4]}}));
    m.x = static_cast<i8>(cell.first);
    m.y = static_cast<i8>(cell.second);
    m.rot = static_cast<u8>(it - kCornerNames.begin());
    return m;
  }
  throw InputError(sf_say("err.action", {{"text", text}}));
}

// Choose: a hand-in ("lion" / "none") or the taken jeep's new cell ("jeep to X,Y").
std::string choice_text(const State& s, const Move& m) {
  if (safari_state(s).pend_root != 0xFFFF) return m.feat == 0xFF ? "none" : "hand in " + kSpecies[m.feat];
  return fmt::format("jeep to {},{}", m.x, m.y);
}

Move choice_parse(const State& s, std::string_view text) {
  Move m;
  m.kind = MoveKind::Choose;
  if (safari_state(s).pend_root != 0xFFFF) {
    m.player = s.decider;
    if (text == "none" || text == "keep" || text.empty()) return m;
    if (text.substr(0, 8) == "hand in ") text.remove_prefix(8);
    m.feat = static_cast<u8>(parse_species(text));
    return m;
  }
  m.player = s.current;
  const auto w = split(text);
  if (w.size() != 3 || w[0] != "jeep" || w[1] != "to")
    throw InputError(sf_say("err.expected", {{"text", text}, {"form", "jeep to X,Y"}}));
  const auto to = parse_cell(w[2], "jeep");
  if (!CellMap::in_range(to.first, to.second))
    throw InputError(sf_say("err.cell_off_map", {{"x", to.first}, {"y", to.second}}));
  m.x = static_cast<i8>(to.first);
  m.y = static_cast<i8>(to.second);
  m.feat = static_cast<u8>(safari_state(s).marker_taken ? safari_state(s).marker_taken - 1 : 0);
  m.pk = 1;
  return m;
}

// A prepared position's own keys:
//   "jeeps": [[x, y] or null, [x, y] or null]: the two jeeps on empty cells next to the tiles, or
//            out of the game (default: beside the start board, as at the start of a game);
//   "watering_holes": [{"x", "y", "corner", "token", "player"}]: a token on quarter `corner` of a
//            watering hole, seen from the tile at x,y (as in "found lion at 1,0 NE"); `player`
//            (optional): the photographer there. Entries at one grid point make one watering hole;
//            one with 4 tokens is completed and holds no photographer;
//   "tokens": {"hands": [[monkey, elephant, giraffe, lion, zebra] per player], "discard": [...]}:
//            the tokens dealt so far (the opening deal is then over). The face-down pile holds the
//            rest of the 10 of each species. Without it the game opens with the usual deal.
void prepare(State& s, const std::string& keys, bool own_board) {
  const json j = keys.empty() ? json::object() : jin::parse(keys, "setup");
  if (const json* jj = jin::opt(j, "jeeps")) {
    const json& arr = jin::array(*jj, "setup", "jeeps", 2);
    if (arr.size() != 2) throw InputError("setup: jeeps: two entries, each [x, y] or null");
    safari_state(s).markers = {std::array<i8, 2>{kOffBoard, kOffBoard}, std::array<i8, 2>{kOffBoard, kOffBoard}};
    for (std::size_t k = 0; k < 2; ++k) {
      if (arr[k].is_null()) continue;
      const std::string key = fmt::format("jeeps[{}]", k);
      const json& xy = jin::array(arr[k], "setup", key, 2);
      if (xy.size() != 2) throw InputError(fmt::format("setup: {}: expected [x, y] or null", key));
      const int x = static_cast<int>(jin::integer(xy[0], -128, 127, "setup", key + "[0]"));
      const int y = static_cast<int>(jin::integer(xy[1], -128, 127, "setup", key + "[1]"));
      safari_state(s).markers[k] = {static_cast<i8>(x), static_cast<i8>(y)};
    }
  }
  for (std::size_t k = 0; k < 2; ++k) {  // on an empty cell next to the tiles (the start places too, on a board of its own)
    const auto [x, y] = safari_state(s).markers[k];
    if (x == kOffBoard) continue;
    const bool free_cell = CellMap::in_range(x, y) && (s.cells.get(x, y) & 0x8000) != 0;
    const bool other = k == 1 && safari_state(s).markers[0] == safari_state(s).markers[1];
    if (!free_cell || other)
      throw InputError(fmt::format("setup: jeeps[{}]: {},{} is not an empty cell next to the tiles{}{}", k, x, y, other ? " without a jeep" : "",
                                   own_board && !jin::opt(j, "jeeps") ? " (the start places: give \"jeeps\")" : ""));
  }
  std::array<int, kTokenKinds> used{};  // tokens out of the face-down pile
  if (const json* wh = jin::opt(j, "watering_holes")) {
    const json& arr = jin::array(*wh, "setup", "watering_holes", static_cast<std::size_t>(kMaxSpots) * 4);
    for (std::size_t i = 0; i < arr.size(); ++i) {
      const std::string w = fmt::format("setup: watering_holes[{}]", i);
      const json& e = jin::object(arr[i], "setup", fmt::format("watering_holes[{}]", i));
      for (const auto& [k, v] : e.items())
        if (k != "x" && k != "y" && k != "corner" && k != "token" && k != "player") throw InputError(fmt::format("{}: unknown key \"{}\"", w, printable(k)));
      const int x = static_cast<int>(jin::integer(jin::need(e, "x", w), -128, 127, w, "x"));
      const int y = static_cast<int>(jin::integer(jin::need(e, "y", w), -128, 127, w, "y"));
      const std::string corner = jin::string(jin::need(e, "corner", w), w, "corner", 2);
      const auto ci = std::find(kCornerNames.begin(), kCornerNames.end(), corner);
      if (ci == kCornerNames.end()) throw InputError(fmt::format("{}: corner: \"{}\" is not NE, SE, SW or NW", w, corner));
      const int c = static_cast<int>(ci - kCornerNames.begin());
      int sp = -1;
      try {
        sp = parse_species(jin::string(jin::need(e, "token", w), w, "token", 10));
      } catch (const InputError& err) {
        throw InputError(fmt::format("{}: token: {}", w, err.what()));
      }
      const int px = x + kCornerDx[static_cast<std::size_t>(c)], py = y + kCornerDy[static_cast<std::size_t>(c)];
      if (!quarter_usable(s, px, py, c)) throw InputError(fmt::format("{}: {} shows no savanna for a watering hole", w, cell_corner(x, y, c)));
      if (find_spot(s, px, py) < 0 && safari_state(s).spots.size() >= static_cast<std::size_t>(kMaxSpots))
        throw InputError(fmt::format("{}: more than {} watering holes", w, kMaxSpots));
      Spot& hole = spot_at(s, px, py);
      if (hole.token[static_cast<std::size_t>(c)] != 0xFF) throw InputError(fmt::format("{}: {} already holds a token", w, cell_corner(x, y, c)));
      for (int q = 0; q < 4; ++q)  // a species once, but for the founding exception (diagonally opposite quarters)
        if (hole.token[static_cast<std::size_t>(q)] == sp && q != (c + 2) % 4)
          throw InputError(fmt::format("{}: the watering hole already has a {} token", w, kSpecies[static_cast<std::size_t>(sp)]));
      hole.token[static_cast<std::size_t>(c)] = static_cast<u8>(sp);
      ++hole.ntokens;
      ++used[static_cast<std::size_t>(sp)];
      if (const json* pl = jin::opt(e, "player")) {
        const int p = static_cast<int>(jin::integer(*pl, 0, s.nplayers - 1, w, "player"));
        if (s.supply[static_cast<std::size_t>(p)] == 0) throw InputError(fmt::format("{}: player {} has no photographer left", w, p + 1));
        --s.supply[static_cast<std::size_t>(p)];
        hole.owner[static_cast<std::size_t>(c)] = static_cast<u8>(p);
      }
    }
    for (Spot& hole : safari_state(s).spots) {
      if (hole.ntokens < 4) continue;
      hole.closed = 1;
      for (const u8 o : hole.owner)
        if (o != 0xFF) throw InputError(fmt::format("setup: watering_holes: the completed watering hole at point {},{} holds a photographer (they go home)", hole.x, hole.y));
    }
  }
  Tokens& t = safari_state(s).tokens;
  if (const json* tk = jin::opt(j, "tokens")) {
    const std::string w = "setup: tokens";
    const json& o = jin::object(*tk, "setup", "tokens");
    for (const auto& [k, v] : o.items())
      if (k != "hands" && k != "discard") throw InputError(fmt::format("{}: unknown key \"{}\"", w, printable(k)));
    auto species_counts = [&](const json& v, const std::string& key) {
      const json& arr = jin::array(v, w, key, kTokenKinds);
      if (arr.size() != kTokenKinds) throw InputError(fmt::format("{}: {}: one count per species (monkey, elephant, giraffe, lion, zebra)", w, key));
      std::array<u8, kTokenKinds> n{};
      for (std::size_t k = 0; k < n.size(); ++k) n[k] = static_cast<u8>(jin::integer(arr[k], 0, 10, w, fmt::format("{}[{}]", key, k)));
      return n;
    };
    const json& hands = jin::array(jin::need(o, "hands", w), w, "hands", static_cast<std::size_t>(s.nplayers));
    if (hands.size() != s.nplayers) throw InputError(fmt::format("{}: hands: one per player ({}), not {}", w, s.nplayers, hands.size()));
    for (std::size_t p = 0; p < hands.size(); ++p) t.hand[p] = species_counts(hands[p], fmt::format("hands[{}]", p));
    t.discard = {};
    if (const json* d = jin::opt(o, "discard")) t.discard = species_counts(*d, "discard");
    for (std::size_t k = 0; k < static_cast<std::size_t>(kTokenKinds); ++k) {
      used[k] += t.discard[k];
      for (std::size_t p = 0; p < hands.size(); ++p) used[k] += t.hand[p][k];
    }
    t.deal_left = 0;
    s.phase = Phase::Draw;  // the opening deal is over
  }
  for (std::size_t k = 0; k < static_cast<std::size_t>(kTokenKinds); ++k) {
    if (used[k] > 10) throw InputError(fmt::format("setup: {} {} tokens in hands, discard and watering holes; the game has 10", used[k], kSpecies[k]));
    t.pile[k] = static_cast<u8>(10 - used[k]);
  }
  if (s.phase == Phase::Chance) queue_deal(s, 0xFF, 2 * s.nplayers);  // the opening deal, from what is left
}

std::string export_keys(const State& s) {
  json jeeps = json::array();
  for (const auto& mk : safari_state(s).markers)
    jeeps.push_back(mk[0] == kOffBoard ? json(nullptr) : json::array({mk[0], mk[1]}));
  json holes = json::array();
  for (const Spot& sp : safari_state(s).spots)
    for (int c = 0; c < 4; ++c) {
      const auto ci = static_cast<std::size_t>(c);
      if (sp.token[ci] == 0xFF) continue;
      json e{{"x", sp.x - kCornerDx[ci]}, {"y", sp.y - kCornerDy[ci]}, {"corner", kCornerNames[ci]}, {"token", kSpecies[sp.token[ci]]}};
      if (sp.owner[ci] != 0xFF) e["player"] = sp.owner[ci];
      holes.push_back(e);
    }
  json hands = json::array();
  for (int p = 0; p < s.nplayers; ++p) hands.push_back(safari_state(s).tokens.hand[static_cast<std::size_t>(p)]);
  json j{{"jeeps", jeeps}, {"tokens", {{"hands", hands}, {"discard", safari_state(s).tokens.discard}}}};
  if (!holes.empty()) j["watering_holes"] = holes;
  return j.dump();
}

std::string describe(const State& s, const ScoreEvent& e) {
  const std::string& fname = s.rs->ftype(e.ftype).name;
  const std::string name = feature_word(*s.rs->game, fname);
  const std::string who = seat_ref(e.player);
  auto species = [&](int k) { return species_word(s, k); };
  auto article_of = [](int k) { return article(kSpecies[static_cast<std::size_t>(k) % kSpecies.size()]); };
  switch (e.reason) {
    case ScoreReason::Completed: {
      std::string what = sf_say("event.sf_completed", {{"player", who},
                                                       {"points", e.points},
                                                       {"feature", name},
                                                       {"feature_done", feature_form(*s.rs->game, fname, "done")},
                                                       {"tiles", e.tiles},
                                                       {"species", e.attr},
                                                       {"value", kSpeciesPoints[std::min<std::size_t>(e.attr, 5)]}});
      if (e.amount) what += sf_say("event.sf_birds", {{"birds", e.amount}});
      if (e.cause)
        what += sf_say("event.sf_handed_in", {{"article", article_of(e.cause - 1)}, {"species", species(e.cause - 1)}});
      return what;
    }
    case ScoreReason::Final: {
      std::string what = sf_say("event.sf_final", {{"player", who},
                                                   {"points", e.points},
                                                   {"feature", name},
                                                   {"feature_open", feature_form(*s.rs->game, fname, "open")},
                                                   {"animals", e.attr}});
      if (e.amount) what += sf_say("event.sf_final_birds", {{"birds", e.amount}});
      return what;
    }
    case ScoreReason::Special:
      switch (e.cause) {
        case kFoundCause:
          return sf_say("event.found",
                        {{"player", who}, {"article", article_of(e.attr)}, {"species", species(e.attr)}});
        case kExploreCause:
          return sf_say("event.explore", {{"player", who},
                                          {"points", e.points},
                                          {"article", article_of(e.attr)},
                                          {"species", species(e.attr)},
                                          {"n", e.tiles}});
        case kHoleCause:
          return sf_say("event.hole_complete", {{"player", who}});
        case kJeepCause:
          return sf_say("event.jeep", {{"player", who}});
        case kTokensCause:
          return sf_say("event.tokens_in_hand", {{"player", who}, {"points", e.points}, {"tokens", e.tiles}});
        default:
          return {};
      }
    default:
      return {};
  }
}

// ---- presentation (as data: GameDef::present) ----

// What a free photographer spot is worth: a trail's or bush's animals and what it would score,
// or a baobab's tokens.
std::string spot_text(const State& s, const PlacedTile& pt, int local) {
  const FeatureTypeDef& fd = s.rs->ftype(s.type_of(pt).feats[static_cast<std::size_t>(local)].type);
  const FeatureInfo fi = feature_info(s, pt.seg0 + local);
  if (fd.cls == FClass::Point || fd.cls == FClass::Centre)
    return fi.closed ? sf_say("spot.baobab_surrounded") : sf_say("spot.baobab", {{"tiles", fi.tiles}});
  const u8 present = species_mask(s.graph[fi.root]);
  std::vector<std::string> names;
  for (int k = 0; k < kTokenKinds; ++k)
    if ((present >> k) & 1u) names.push_back(species_word(s, k));
  const int n = static_cast<int>(names.size());
  const int birds = fd.cls == FClass::Area ? s.graph[fi.root].attr[kBird] : 0;
  const int value = safari_completed_value(s, fi.root);
  std::string info =
      fi.closed ? sf_say("spot.completed_now", {{"points", value}}) : sf_say("spot.so_far", {{"tiles", fi.tiles}});
  info += n ? sf_say("spot.animals", {{"list", fmt::format("{}", fmt::join(names, ", "))}, {"n", n}})
            : sf_say("spot.no_animals");
  if (birds) info += ", " + sf_say("birds.n", {{"n", birds}});
  if (!fi.closed) info += sf_say("spot.worth", {{"points", value}});
  return info;
}

std::vector<std::pair<std::string, int>> hand(const State& s, int p) {
  std::vector<std::pair<std::string, int>> out;
  for (std::size_t k = 0; k < static_cast<std::size_t>(kTokenKinds); ++k)
    out.emplace_back(kSpecies[k], safari_state(s).tokens.hand[static_cast<std::size_t>(p)][k]);
  return out;
}

std::vector<Panel> panels(const State& s) {
  Panel tokens;
  tokens.id = "tokens";
  tokens.title = sf_say("panel.tokens.title");
  tokens.columns = {"seat"};  // "seat": the front ends' key for a column of seats
  for (int k = 0; k < kTokenKinds; ++k) tokens.columns.push_back(species_word(s, k));
  tokens.columns.push_back(sf_say("panel.tokens.photographers"));
  for (int p = 0; p < s.nplayers; ++p) {
    std::vector<std::string> row{std::to_string(p)};
    for (const u8 k : safari_state(s).tokens.hand[static_cast<std::size_t>(p)]) row.push_back(std::to_string(k));
    int at_holes = 0;
    for (const Spot& sp : safari_state(s).spots)
      for (const u8 o : sp.owner) at_holes += o == p;
    row.push_back(sf_say("panel.tokens.supply", {{"n", static_cast<int>(s.supply[static_cast<std::size_t>(p)])}}) +
                  (at_holes ? sf_say("panel.tokens.at_holes", {{"n", at_holes}}) : std::string()));
    tokens.rows.push_back(std::move(row));
  }
  int discard = 0;
  std::vector<std::string> disc;
  for (std::size_t k = 0; k < static_cast<std::size_t>(kTokenKinds); ++k) {
    discard += safari_state(s).tokens.discard[k];
    if (safari_state(s).tokens.discard[k])
      disc.push_back(sf_say("panel.tokens.discard_item", {{"n", static_cast<int>(safari_state(s).tokens.discard[k])},
                                                          {"species", species_word(s, static_cast<int>(k))}}));
  }
  const int pile = pile_total(s);
  tokens.lines.push_back(sf_say(
      "panel.tokens.piles", {{"pile", pile},
                             {"discard", discard},
                             {"list", disc.empty() ? std::string() : fmt::format(" ({})", fmt::join(disc, ", "))}}));
  Panel jeeps;
  jeeps.id = "jeeps";
  jeeps.title = sf_say("panel.jeeps.title");
  std::vector<std::string> at;
  for (const auto& mk : safari_state(s).markers)
    if (mk[0] != kOffBoard) at.push_back(fmt::format("{},{}", mk[0], mk[1]));
  std::string jt = at.empty()
                       ? sf_say("panel.jeeps.none")
                       : sf_say("panel.jeeps.at", {{"cells", fmt::format("{}", fmt::join(at, sf_say("list.and")))}});
  if (safari_state(s).marker_taken)
    jt += sf_say("panel.jeeps.taken");
  else if (at.size() < 2)
    jt += sf_say("panel.jeeps.left");
  jeeps.counters.emplace_back(jeeps.title, jt + sf_say("panel.jeeps.rule"));
  Panel holes;
  holes.id = "watering_holes";
  holes.title = sf_say("panel.holes.title");
  if (safari_state(s).spots.empty()) holes.counters.emplace_back(holes.title, sf_say("panel.holes.none"));
  // a hole named by its place (the web page frames it on hover), then what a player weighs: the
  // species there, whose photographers, and what exploring it is worth now (the quarters' own
  // coordinates are in the options' texts, where a move is chosen)
  for (const Spot& sp : safari_state(s).spots) {
    std::vector<std::string> species, who;
    int unplaced = 0, free = 0;  // quarters whose tile is not placed yet; quarters a token may take
    for (int c = 0; c < 4; ++c) {
      const auto cc = static_cast<std::size_t>(c);
      const int qx = sp.x - kCornerDx[cc], qy = sp.y - kCornerDy[cc];
      unplaced += s.placed_at(qx, qy) < 0;
      if (sp.token[cc] != 0xFF) {
        species.push_back(species_word(s, sp.token[cc]));
        if (sp.owner[cc] == 0xFF) continue;
        std::string ref = seat_ref(sp.owner[cc]);
        if (std::find(who.begin(), who.end(), ref) == who.end()) who.push_back(std::move(ref));
      } else if (corner_usable(s, qx, qy, c)) {
        ++free;
      }
    }
    std::string line =
        sf_say("panel.holes.line", {{"x", sp.x}, {"y", sp.y}, {"list", fmt::format("{}", fmt::join(species, ", "))}});
    if (!who.empty()) line += sf_say("panel.holes.photographers", {{"list", fmt::format("{}", fmt::join(who, ", "))}});
    if (sp.closed) {
      line += sf_say("panel.holes.complete");
    } else {
      line += sf_say("panel.holes.explore", {{"points", sp.ntokens + 3}});
      line += free > 0   ? sf_say("panel.holes.free", {{"n", free}})
              : unplaced ? sf_say("panel.holes.no_quarter_yet")
                         : sf_say("panel.holes.no_quarter");
    }
    holes.lines.push_back(line);
  }
  return {tokens, jeeps, holes};
}

}  // namespace

// The species value of a feature for bots and views: what its majority would score if it were
// completed now without a hand-in.
int safari_completed_value(const State& s, int root) {
  const Segment& r = s.graph[root];
  if (r.ftype != kTrail && r.ftype != kBush) return 0;
  return kSpeciesPoints[static_cast<std::size_t>(std::popcount(static_cast<unsigned>(species_mask(r))))] +
         (r.ftype == kBush ? r.attr[kBird] : 0);
}

const std::array<std::string, kTokenKinds>& safari_species() { return kSpecies; }
int safari_species_points(int species) { return kSpeciesPoints[static_cast<std::size_t>(std::clamp(species, 0, 5))]; }

const GameDef& safari() {
  static const GameDef def = [] {
    GameDef g;
    g.id = "safari";
    g.title = "Carcassonne: Safari";
    g.review_margin = 18.0;  // greedy against greedy: mean |margin| 18.0 points (median 15)
    g.win_scale[2] = 8.08;   // tools/calibrate_win.py, 60 games, 100 playouts: docs/mcts.md
    // the fitted value judges cut playouts and seeds the tree, worth 300 virtual playouts
    // (docs/mcts.md "Fitted value", "Three and four players", "Safari's watering holes in the playouts")
    g.search_value = 2;
    g.search_value_many = 2;
    g.search_value_prior = 300;
    // each level wins about 75% against the one below (docs/mcts.md "Levels"); normal and hard
    // keep the 2-player search their spacing was measured with (value=1)
    g.levels = {"mcts:playouts=10,threads=1,value=0,slip=0.03", "mcts:playouts=100,threads=1,value=1",
                "mcts:playouts=3000,threads=1,value=1"};
    g.search_value_horizon = 16;
    // the search's fitted value: `carcassonne fit-value --game safari --players N --games 50000`
    // (the playout policy's games; docs/mcts.md)
    g.value_weights[2] = {6.803,  -0.778, -1.44, 5.908, 2.493,  0,       0,        -2.938, 0, 0, -0.5225,
                          -0.565, 0.8968, 0,     0,     -0.288, -0.2086, -0.07592, 0,      0, 0, 0,
                          0,      0,      0,     0,     0,      0,       0,        0,      0, 0, 0,
                          0.1951, 3.851,  0,     2.073, 0,      0,       0,        0,      0, 0, 0};
    g.value_weights[3] = {4.316,   -0.2561, -0.6888, 4.382, 1.056,   0,       0,       -1.154, 0, 0, -0.1514,
                          -0.5796, 0.7184,  0,       0,     0.07499, -0.1748, -0.1936, 0,      0, 0, 0,
                          0,       0,       0,       0,     0,       0,       0,       0,      0, 0, 0,
                          0.5488,  3.618,   0,       1.369, 0,       0,       0,       0,      0, 0, 0};
    g.value_weights[4] = {1.447,   0.4486, -0.9506, 3.876, 0.9276,  0,       0,       -1.134, 0, 0, -0.2693,
                          -0.6481, 0.7896, 0,       0,     -0.0467, -0.1176, -0.3108, 0,      0, 0, 0,
                          0,       0,      0,       0,     0,       0,       0,       0,      0, 0, 0,
                          0.3025,  3.551,  0,       1.604, 0,       0,       0,       0,      0, 0, 0};
    const std::vector<std::string> species(kSpecies.begin(), kSpecies.end());
    std::vector<std::string> bush = species;
    bush.push_back("bird");
    // the search (docs/mcts.md): playouts are noisy (tokens); 16 decisions and then the greedy
    // evaluation do better than whole playouts
    g.search_horizon = 16;
    //             name       class          terrain claim done/tile done/attr final/tile final/attr symbols
    g.ftypes = {
        {"trail", FClass::Path, 1, true, 0, 0, 0, 0, species},
        {"bush", FClass::Area, 2, true, 0, 0, 0, 0, bush},
        {"savanna", FClass::Field, 3, false, 0, 0, 0, 0, {}},
        {"baobab", FClass::Point, 0, true, 0, 0, 0, 0, {}},
    };
    g.pieces_per_player = 6;
    g.piece_names = {"photographer", "piece"};
    g.pass_text = "no action (no photographer, jeep or watering hole)";
    g.choice_key = "choices";
    g.choices_listed = true;
    g.action_blocks = {
        {"hand_in", "a scorer's token hand-in (any player, off turn too): a species, or none", MoveKind::Choose, 0xFF, false, 0, false, kTokenKinds, true},
        {"jeep_to", "the taken jeep (feat: which of the two) goes to the cell", MoveKind::Choose, 1, true, 0, false, 2, false},
        {"jeep", "move jeep `rot` (0 or 1) to the cell", MoveKind::Act, 1, true, 2, false, 0, false},
        {"found", "found a watering hole at a corner (rot) of the cell with a token of a species (feat)", MoveKind::Act, 2, true, 4, true, kTokenKinds, false},
        {"explore", "explore the watering hole at a corner (rot) of the cell with a species (feat)", MoveKind::Act, 3, true, 4, true, kTokenKinds, false}};
    g.min_players = 2;
    g.max_players = 5;
    // the placement, the action, the taken jeep's new cell, and token draws: 2 for a photographer
    // on a baobab and 2 for each baobab the tile surrounds (9 at most); per player, a hand-in on
    // each trail or bush the tile completes (5 features at most)
    g.turn_actions = 1 + 1 + 1 + 2 + 2 * 9;
    g.turn_actions_per_player = 5;
    g.farm_points_per_city = 0;
    g.describe = describe;
    g.special_effects = {{},
                         {"found", "tokens_at_hole", "", "watering_hole"},
                         {"explore", "tokens_at_hole", "", "watering_hole"},
                         {"watering_hole", "", "", "watering_hole"},
                         {"jeep", "", "", "jeep"},
                         {"tokens_in_hand", "tokens", "", "tokens", true}};
    g.event_keys = {"tiles", "species", "birds", "token"};
    g.chance_outcomes = kTokenKinds;
    g.final_event_keys = {"tiles", "animals", "birds", ""};
    Hooks& h = g.hooks;
    g.setup_keys = {"jeeps", "watering_holes", "tokens"};
    g.present.panels = panels;
    g.present.hand = hand;
    g.present.spot_text = spot_text;
    g.present.state_names = {species};
    present_safari(g);
    h.on_init = on_init;
    h.prepare = prepare;
    h.export_keys = export_keys;
    h.before_place = before_place;
    h.on_tile_placed = on_tile_placed;
    h.gen_actions = gen_actions;
    h.apply_action = apply_action;
    h.action_text = action_text;
    h.action_parse = action_parse;
    h.option_gain = option_gain;
    h.eval_twin = eval_twin;
    h.held = held;
    h.greedy_term = greedy_term;
    h.observe = observe;
    {
      ObservationPlan& ob = g.observation;
      ob.planes.push_back({"jeep"});
      for (const std::string& sp : species) ob.planes.push_back({"watering_hole_" + sp, false, true});
      ob.planes.push_back({"watering_hole_piece", true, true});
      for (const std::string& sp : species) ob.seat_values.push_back("hand_" + sp);
      for (const std::string& sp : species) ob.values.push_back("token_pile_" + sp);
      for (const std::string& sp : species) ob.values.push_back("token_discard_" + sp);
    }
    h.on_piece = on_piece;
    h.score_completed = score_completed;
    h.score_unfinished = score_unfinished;
    h.gen_choices = gen_choices;
    h.apply_choice = apply_choice;
    h.choice_text = choice_text;
    h.choice_parse = choice_parse;
    h.on_scoring = on_scoring;
    h.on_final_scoring = on_final_scoring;
    h.completion_bonus = safari_completed_value;
    h.sample_chance = sample_chance;
    h.apply_chance = apply_chance;
    h.chance_text = chance_text;
    h.chance_parse = chance_parse;
    h.chance_odds = chance_odds;
    return g;
  }();
  return def;
}

}  // namespace carc::games
