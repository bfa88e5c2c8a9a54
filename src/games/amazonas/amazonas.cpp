// Carcassonne: Amazonas (RULES.md section 2). Data: tributaries (road-like), villages (city-like),
// jungle (field-like, camps score 1 per animal at the end), the Amazon (not claimable). Code, as
// hooks: the river front, Amazon tiles only at the river's end, "!" tiles followed by a chosen
// double tile, the boats (icons, no-piece moves, Amazon scoring, the river mouth) and the even
// spread of Amazon tiles through the pile.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/json_input.hpp"
#include "games/amazonas/amazonas_state.hpp"
#include "games/games.hpp"
#include "rules/words.hpp"

namespace carc::games {

std::array<int, kMaxPlayers> amazonas_boat_ranks(const State& s);
StaticVec<u8, 64> amazonas_aside_tiles(const State& s);
void present_amazonas(GameDef& g);  // present.cpp
const GameDef& amazonas();          // below

// say() for Amazonas's words: its catalog and the engine's, looked up once (an event, a panel or
// an option names several). Also present.cpp.
std::string az_say(std::string_view id, const MsgArgs& args = {}) {
  static const i18n::Catalog* const own = game_messages(amazonas());
  static const i18n::Catalog* const generic = &generic_messages();
  return i18n::say({own, generic}, id, args);
}

// A boat's place in the current language: "1st", "1-е", "întâi" (also present.cpp).
std::string az_ordinal(int r) {
  static constexpr std::array<const char*, 4> kIds = {"ordinal.n", "ordinal.1", "ordinal.2", "ordinal.3"};
  return az_say(r >= 1 && r <= 3 ? kIds[static_cast<std::size_t>(r)] : kIds[0], {{"n", r}});
}

namespace {

using jin::json;

enum TileKind : u8 { kLand = 0, kAmazon = 1, kBang = 2, kDouble = 3 };
enum FType : u8 { kTributary = 0, kVillage = 1, kJungle = 2, kRiver = 3 };
// The game's own events (GameDef::own_events, ScoreEvent::kind).
enum OwnKind : u8 { kTrackEvent = 0, kAmazonEvent = 1, kMouthEvent = 2 };
enum Slot : u8 { kFruit = 0, kBoat = 1, kCaiman = 0, kPiranha = 1 };
constexpr int kRow = 0;  // the Amazon runs along row y = 0

bool river_tile(const TileType& t) { return t.kind != kLand; }

int river_feature(const TileType& t) {
  for (int f = 0; f < t.nfeat; ++f)
    if (t.feats[static_cast<std::size_t>(f)].type == kRiver) return f;
  return -1;
}

void move_boat(State& s, int p, int n, u8 cause, EventSink* ev) {
  if (n <= 0) return;
  const auto pi = static_cast<std::size_t>(p);
  const int before = s.track[pi];
  s.track[pi] = static_cast<u8>(std::min<int>(s.track_len, before + n));
  if (ev) {
    ScoreEvent e;
    e.turn = s.turn;
    e.player = static_cast<u8>(p);
    e.ftype = kRiver;
    e.reason = ScoreReason::Own;
    e.kind = kTrackEvent;
    e.amount = static_cast<u8>(s.track[pi] - before);
    e.cause = cause;
    e.tiles = s.track[pi];  // the space reached
    ev->push_back(e);
  }
}

void on_init(State& s) {
  reset_game_state<AmazonasState>(s);
  const StartSide& side = s.rs->tiles.side_for(s.nplayers);
  s.track_len = static_cast<u8>(side.track > 0 ? side.track : 16);
  for (int p = 0; p < s.nplayers; ++p) s.track[static_cast<std::size_t>(p)] = 1;
  bool any = false;
  for (const PlacedTile& t : s.tiles) {
    if (river_feature(s.type_of(t)) < 0) continue;
    if (t.y != kRow) throw InputError(fmt::format("{}: Amazonas start board: the Amazon must run along row y=0", s.rs->tiles.path));
    if (!any || t.x > amazonas_state(s).front) amazonas_state(s).front = t.x;
    any = true;
  }
  if (!any) throw InputError(fmt::format("{}: Amazonas start board has no Amazon cell", s.rs->tiles.path));
  amazonas_state(s).aside = 0;
  int k = 0;
  for (const TileType& t : s.rs->tiles.types)
    if (t.pile == kPileAside) amazonas_state(s).aside |= 1ull << k++;
}

// A prepared position: the river front, the boat track and the double tiles still set aside follow
// from the board; a board of its own must be one play could reach: the Amazon a gapless run along
// row 0, land only up to the river front, each double tile whole, each "!" tile followed by a
// double tile while one is left. Key "boats": each player's boat space (default 1).
void prepare(State& s, const std::string& keys, bool own_board) {
  const auto& types = s.rs->tiles.types;
  if (own_board) {
    auto where = [&](const PlacedTile& t) { return fmt::format("setup: tiles: {} at {},{}", s.type_of(t).id, t.x, t.y); };
    int lo = 127, hi = -128, cells = 0, added = 0, doubles_left = 0;
    for (const TileType& t : types) doubles_left += t.pile == kPileAside ? t.count : 0;
    for (const PlacedTile& t : s.tiles) {
      const TileType& tt = s.type_of(t);
      if (river_feature(tt) < 0) continue;
      if (t.y != kRow) throw InputError(where(t) + ": the Amazon runs along row y=0");
      if (tt.pile != kPileStart && t.rot != 0 && t.rot != 2) throw InputError(where(t) + ": an Amazon tile lies along the flow (rot 0 or 180)");
      lo = std::min<int>(lo, t.x);
      hi = std::max<int>(hi, t.x);
      ++cells;
      added += tt.pile != kPileStart;
      doubles_left -= tt.pile == kPileAside;
    }
    if (cells == 0) throw InputError("setup: tiles: the board has no Amazon cell");
    if (cells != hi - lo + 1) throw InputError(fmt::format("setup: tiles: the Amazon from x={} to x={} has a gap", lo, hi));
    auto river_at = [&](int x) -> const PlacedTile* {
      const int i = s.placed_at(x, kRow);
      return i < 0 ? nullptr : &s.tiles[static_cast<std::size_t>(i)];
    };
    for (const PlacedTile& t : s.tiles) {
      const TileType& tt = s.type_of(t);
      if (river_feature(tt) < 0) {
        if (t.x > hi) throw InputError(where(t) + fmt::format(": land lies only up to the river front (x <= {})", hi));
        continue;
      }
      if (tt.pile == kPileAside && tt.east != 0xFF) {  // its downstream cell: east at rot 0, west at rot 180
        const PlacedTile* o = river_at(t.rot == 0 ? t.x + 1 : t.x - 1);
        if (!o || o->type != tt.east || o->rot != t.rot) throw InputError(where(t) + ": the double tile's other cell is missing");
      }
      if (tt.pile == kPilePart) {
        const PlacedTile* o = river_at(t.rot == 0 ? t.x - 1 : t.x + 1);
        if (!o || types[o->type].east != t.type || o->rot != t.rot) throw InputError(where(t) + ": half a double tile");
      }
      if (tt.kind == kBang && doubles_left > 0) {
        const PlacedTile* o = river_at(t.x + 1);
        const int pile = o ? static_cast<int>(types[o->type].pile) : static_cast<int>(kPileDraw);
        if (!o || !((pile == kPileAside && o->rot == 0) || (pile == kPilePart && o->rot == 2)))
          throw InputError(where(t) + ": a \"!\" tile is followed at once by a double tile");
      }
    }
    const StartSide& side = s.rs->tiles.side_for(s.nplayers);
    s.track_len = static_cast<u8>((side.track > 0 ? side.track : 16) + added);
    amazonas_state(s).front = static_cast<i8>(hi);
    amazonas_state(s).aside = 0;
    int k = 0;
    for (std::size_t t = 0; t < types.size(); ++t) {
      if (types[t].pile != kPileAside) continue;
      bool placed = false;
      for (const PlacedTile& pt : s.tiles) placed = placed || pt.type == t;
      if (!placed) amazonas_state(s).aside |= 1ull << k;
      ++k;
    }
  }
  if (keys.empty()) return;
  const json j = jin::parse(keys, "setup");
  if (const json* b = jin::opt(j, "boats")) {
    const json& arr = jin::array(*b, "setup", "boats", static_cast<std::size_t>(s.nplayers));
    if (arr.size() != s.nplayers) throw InputError(fmt::format("setup: boats: one space per player ({}), not {}", s.nplayers, arr.size()));
    for (std::size_t p = 0; p < arr.size(); ++p)
      s.track[p] = static_cast<u8>(jin::integer(arr[p], 1, s.track_len, "setup", fmt::format("boats[{}]", p)));
  }
}

std::string export_keys(const State& s) {
  json boats = json::array();
  for (int p = 0; p < s.nplayers; ++p) boats.push_back(s.track[static_cast<std::size_t>(p)]);
  return json{{"boats", boats}}.dump();
}

int pick_weighted(const State& s, Rng& rng, bool river, int total) {
  u32 k = rng.below(static_cast<u32>(total));
  for (std::size_t t = 0; t < s.rs->tiles.types.size(); ++t) {
    if (river_tile(s.rs->tiles.types[t]) != river) continue;
    if (k < s.remaining[t]) return static_cast<int>(t);
    k -= s.remaining[t];
  }
  return -1;
}

// Option spread=even: the pile is cut into as many equal blocks as there are Amazon tiles, each
// holding one Amazon tile at a uniformly random place (sampled draw by draw, conditioned on what
// has been drawn). spread=uniform: a plain shuffle.
// The chance that the next draw is an Amazon tile: num / den, or certain (den 0, num 1) or
// impossible (den 0, num 0) without a draw of the generator.
struct RiverOdds {
  int num = 0, den = 0;
};
RiverOdds river_odds(const State& s) {
  const int land_left = s.kind_left[kLand];
  const int river_left = s.pile - land_left;
  const int river_total = s.rs->tiles.draw_total - s.rs->tiles.kind_total[kLand];
  if (river_left == 0) return {0, 0};
  if (land_left == 0) return {1, 0};
  if (s.rs->option_index[0] == 1) return {river_left, river_left + land_left};  // spread=uniform
  const int n = s.rs->tiles.draw_total;
  const int drawn = n - s.pile;
  // block b holds the positions [b n / A, (b+1) n / A) (integer division)
  int b = 0;
  while (b + 1 < river_total && (b + 1) * n / river_total <= drawn) ++b;
  const int block_end = (b + 1) * n / river_total;
  const int river_drawn = river_total - river_left;
  if (river_drawn > b) return {0, 0};  // this block's Amazon tile is out
  if (river_drawn < b) return {1, 0};  // behind (a record drawn otherwise): catch up
  return {1, block_end - drawn};
}

int sample_draw(const State& s, Rng& rng) {
  const RiverOdds o = river_odds(s);
  const bool river = o.den == 0 ? o.num != 0 : rng.below(static_cast<u32>(o.den)) < static_cast<u32>(o.num);
  const int land_left = s.kind_left[kLand];
  return pick_weighted(s, rng, river, river ? s.pile - land_left : land_left);
}

// The odds of sample_draw: the chance of an Amazon tile, then each copy of the chosen kind alike.
void draw_odds(const State& s, std::vector<std::pair<int, double>>& out) {
  const RiverOdds o = river_odds(s);
  const double p_river = o.den == 0 ? o.num : static_cast<double>(o.num) / o.den;
  const int land_left = s.kind_left[kLand];
  const int river_left = s.pile - land_left;
  for (std::size_t t = 0; t < s.rs->tiles.types.size(); ++t) {
    if (!s.remaining[t]) continue;
    const bool river = river_tile(s.rs->tiles.types[t]);
    const double p = river ? p_river * s.remaining[t] / river_left : (1 - p_river) * s.remaining[t] / land_left;
    if (p > 0) out.emplace_back(static_cast<int>(t), p);
  }
}

bool placement_allowed(const State& s, int tile, int x, int y, int rot) {
  const TileType& tt = s.rs->tiles.types[static_cast<std::size_t>(tile)];
  if (!river_tile(tt)) return x <= amazonas_state(s).front;
  return y == kRow && x == amazonas_state(s).front + 1 && (rot == 0 || rot == 2);
}

// Distinct tributary roots next to the tile about to be placed, through its tributary ports.
void adjacent_tributaries(const State& s, int type, int x, int y, int rot, StaticVec<u16, 4>& roots) {
  const RotatedTile& rt = s.rs->tiles.types[static_cast<std::size_t>(type)].rot[static_cast<std::size_t>(rot)];
  const TileType& tt = s.rs->tiles.types[static_cast<std::size_t>(type)];
  for (int side = 0; side < 4; ++side) {
    const int p = 3 * side + 1;
    const u8 f = rt.port_feat[static_cast<std::size_t>(p)];
    if (f == 0xFF || tt.feats[f].type != kTributary) continue;
    const int ni = s.placed_at(x + kDx[side], y + kDy[side]);
    if (ni < 0) continue;
    const PlacedTile& nb = s.tiles[static_cast<std::size_t>(ni)];
    const u8 nf = s.type_of(nb).rot[nb.rot].port_feat[static_cast<std::size_t>(facing_port(p))];
    const u16 r = static_cast<u16>(s.graph.find(nb.seg0 + nf));
    if (std::find(roots.begin(), roots.end(), r) == roots.end()) roots.push_back(r);
  }
}

// Before a land tile joins tributaries: the boat icons already connected to each player's explorers.
void before_place(State& s, const Move& m) {
  amazonas_state(s).scratch.fill(0);
  if (river_tile(s.rs->tiles.types[s.in_hand])) return;
  StaticVec<u16, 4> roots;
  adjacent_tributaries(s, s.in_hand, m.x, m.y, m.rot, roots);
  for (const u16 r : roots) {
    const Segment& sg = s.graph[r];
    for (int p = 0; p < s.nplayers; ++p)
      if (sg.pieces[static_cast<std::size_t>(p)] > 0)
        amazonas_state(s).scratch[static_cast<std::size_t>(p)] =
            static_cast<u8>(amazonas_state(s).scratch[static_cast<std::size_t>(p)] + sg.attr[kBoat]);
  }
}

void on_tile_placed(State& s, int idx, EventSink* ev) {
  const PlacedTile pt = s.tiles[static_cast<std::size_t>(idx)];
  const TileType& tt = s.type_of(pt);
  if (river_tile(tt)) {
    s.track_len = static_cast<u8>(s.track_len + 1);
    amazonas_state(s).front = pt.x;
    if (tt.kind == kBang && amazonas_state(s).aside != 0) s.phase = Phase::Choose;
    return;
  }
  // boat icons newly connected to explorers: icons on the merged tributaries minus those each
  // player's explorers were already connected to
  std::array<int, kMaxPlayers> gain{};
  StaticVec<u16, 4> roots;
  for (int f = 0; f < tt.nfeat; ++f) {
    if (tt.feats[static_cast<std::size_t>(f)].type != kTributary) continue;
    const u16 r = static_cast<u16>(s.graph.find(pt.seg0 + f));
    if (std::find(roots.begin(), roots.end(), r) != roots.end()) continue;
    roots.push_back(r);
    const Segment& sg = s.graph[r];
    for (int p = 0; p < s.nplayers; ++p)
      if (sg.pieces[static_cast<std::size_t>(p)] > 0) gain[static_cast<std::size_t>(p)] += sg.attr[kBoat];
  }
  for (int k = 0; k < s.nplayers; ++k) {
    const int p = (s.current + k) % s.nplayers;
    move_boat(s, p, gain[static_cast<std::size_t>(p)] - amazonas_state(s).scratch[static_cast<std::size_t>(p)], 3, ev);
  }
}

void gen_choices(const State& s, MoveList& out) {
  Move m;
  m.kind = MoveKind::Choose;
  m.player = s.current;
  for (const u8 t : amazonas_aside_tiles(s)) {
    m.feat = t;
    m.rot = 0;
    out.push_back(m);
    m.rot = 2;
    out.push_back(m);
  }
}

void apply_choice(State& s, const Move& m, EventSink*) {
  const int t = m.feat;
  int k = 0;  // bit k of State::aside is the k-th set-aside tile type of the file
  for (std::size_t u = 0; u < static_cast<std::size_t>(t); ++u) k += s.rs->tiles.types[u].pile == kPileAside;
  amazonas_state(s).aside &= ~(1ull << k);
  const TileType& tt = s.rs->tiles.types[static_cast<std::size_t>(t)];
  const int e = tt.east == 0xFF ? -1 : tt.east;
  s.piece_from = static_cast<u16>(s.tiles.size());
  const int x = amazonas_state(s).front + 1;
  if (e < 0) {
    place_tile(s, t, x, kRow, m.rot, s.current);
  } else if (m.rot == 0) {
    place_tile(s, t, x, kRow, 0, s.current);
    place_tile(s, e, x + 1, kRow, 0, s.current);
  } else {
    place_tile(s, e, x, kRow, 2, s.current);
    place_tile(s, t, x + 1, kRow, 2, s.current);
  }
  const int cells = e < 0 ? 1 : 2;
  s.track_len = static_cast<u8>(s.track_len + cells);
  amazonas_state(s).front = static_cast<i8>(amazonas_state(s).front + cells);
  s.phase = Phase::Piece;
}

void on_piece(State& s, const Move& m, EventSink* ev) {
  if (m.kind == MoveKind::Pass) {
    move_boat(s, s.current, 1, 1, ev);
    return;
  }
  const PlacedTile& pt = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
  if (s.type_of(pt).feats[m.feat].type != kTributary) return;
  move_boat(s, s.current, s.graph[s.graph.find(pt.seg0 + m.feat)].attr[kBoat], 2, ev);
}

void amazon_scoring(State& s, int caimans, int piranhas, EventSink* ev) {
  const auto rank = amazonas_boat_ranks(s);
  std::array<int, kMaxPlayers> pts{};
  for (int p = 0; p < s.nplayers; ++p) {
    const auto pi = static_cast<std::size_t>(p);
    pts[pi] = rank[pi] == 1 ? caimans + piranhas : rank[pi] == 2 ? piranhas : 0;
    if (pts[pi] == 0) continue;
    s.score[pi] = static_cast<i16>(s.score[pi] + pts[pi]);
    if (ev) {
      ScoreEvent e;
      e.turn = s.turn;
      e.player = static_cast<u8>(p);
      e.ftype = kRiver;
      e.reason = ScoreReason::Own;
      e.kind = kAmazonEvent;
      e.points = static_cast<i16>(pts[pi]);
      e.cause = static_cast<u8>(rank[pi]);
      e.tiles = static_cast<u8>(caimans);
      e.attr = static_cast<u8>(piranhas);
      ev->push_back(e);
    }
  }
  for (int k = 0; k < s.nplayers; ++k) {
    const int p = (s.current + k) % s.nplayers;
    if (pts[static_cast<std::size_t>(p)] == 0) move_boat(s, p, 1, 4, ev);
  }
}

void on_scoring(State& s, EventSink* ev) {
  for (std::size_t i = s.turn_first; i < s.tiles.size(); ++i) {
    const TileType& tt = s.type_of(s.tiles[i]);
    if (!river_tile(tt)) continue;
    int c = 0, p = 0;
    auto add = [&](const TileType& t) {
      const int f = river_feature(t);
      if (f < 0) return;
      c += t.feats[static_cast<std::size_t>(f)].attr[kCaiman];
      p += t.feats[static_cast<std::size_t>(f)].attr[kPiranha];
    };
    add(tt);
    if (tt.kind == kDouble && i + 1 < s.tiles.size() && s.type_of(s.tiles[i + 1]).kind == kDouble) {
      add(s.type_of(s.tiles[i + 1]));  // a double tile scores once, with the creatures of both cells
      ++i;
    }
    amazon_scoring(s, c, p, ev);
  }
}

void on_final_scoring(State& s, EventSink* ev) {
  static constexpr std::array<int, 3> kSmall = {6, 3, 0}, kLarge = {7, 4, 1};
  const auto& pts = s.nplayers <= 3 ? kSmall : kLarge;
  const auto rank = amazonas_boat_ranks(s);
  for (int p = 0; p < s.nplayers; ++p) {
    const int r = rank[static_cast<std::size_t>(p)];
    if (r < 1 || r > 3 || pts[static_cast<std::size_t>(r - 1)] == 0) continue;
    const int v = pts[static_cast<std::size_t>(r - 1)];
    s.score[static_cast<std::size_t>(p)] = static_cast<i16>(s.score[static_cast<std::size_t>(p)] + v);
    if (ev) {
      ScoreEvent e;
      e.turn = s.turn;
      e.player = static_cast<u8>(p);
      e.ftype = kRiver;
      e.reason = ScoreReason::Own;
      e.kind = kMouthEvent;
      e.points = static_cast<i16>(v);
      e.cause = static_cast<u8>(r);
      ev->push_back(e);
    }
  }
}

// ---- the race's worth (Hooks::track_worth) ----
// With two players, from one boat's view: d = its space less the other's, k Amazon scorings still
// to come. Before each scoring the lead moves by a step drawn from what greedy players' boats do
// between two scorings (selfplay of greedy against greedy, 300 games: variance 2.1), and after the
// last one by a smaller step (to the river mouth: 0.7). At a scoring a boat ahead or level scores
// as first; one directly behind as second (without moving); one further behind moves 1. The table
// holds, from before an interval, the expected number of first places, of second places, and the
// chances of 1st and of 2nd at the river mouth.
constexpr int kRaceD = 16;  // leads beyond are clamped
constexpr int kRaceK = 24;
constexpr int kRaceStep = 8;  // steps beyond are left out
struct RaceCell {
  double first = 0, second = 0, mouth1 = 0, mouth2 = 0;
};
using RaceTable = std::array<std::array<RaceCell, 2 * kRaceD + 1>, kRaceK + 1>;
using RaceStep = std::array<double, 2 * kRaceStep + 1>;

// The lead's variance between two scorings, and after the last one (greedy against greedy).
constexpr double kRaceVar = 2.08, kRaceVarLast = 0.71;
// Tiles between two Amazon tiles (the even spread: 80 tiles, 15 blocks).
constexpr double kRaceBlock = 5.33;

// A step of variance v (a normal's, on the whole numbers).
RaceStep race_step(double v) {
  RaceStep st{};
  double z = 0;
  for (int i = -kRaceStep; i <= kRaceStep; ++i)
    z += st[static_cast<std::size_t>(i + kRaceStep)] = std::exp(-0.5 * i * i / std::max(v, 0.05));
  for (double& x : st) x /= z;
  return st;
}

int race_clamp(int d) { return std::clamp(d, -kRaceD, kRaceD); }

// One scoring at lead e, then the table's row below: the expected counts.
RaceCell race_scoring(const RaceTable& t, int k, int e) {
  int after = e;
  if (e < -1) ++after;  // behind, not directly: scores nothing and moves 1
  if (e > 1) --after;   // the other boat moves 1
  RaceCell c = t[static_cast<std::size_t>(k - 1)][static_cast<std::size_t>(race_clamp(after) + kRaceD)];
  c.first += e >= 0 ? 1 : 0;
  c.second += e == -1 ? 1 : 0;
  return c;
}

// An interval's step (step) from lead d, then a scoring with k left and the rest from the table.
RaceCell race_interval(const RaceTable& t, int k, int d, const RaceStep& step) {
  RaceCell c;
  for (int dd = -kRaceStep; dd <= kRaceStep; ++dd) {
    const double pr = step[static_cast<std::size_t>(dd + kRaceStep)];
    const RaceCell n = race_scoring(t, k, race_clamp(d + dd));
    c.first += pr * n.first;
    c.second += pr * n.second;
    c.mouth1 += pr * n.mouth1;
    c.mouth2 += pr * n.mouth2;
  }
  return c;
}

const RaceTable& race_table() {
  static const RaceTable table = [] {
    const RaceStep step = race_step(kRaceVar), last = race_step(kRaceVarLast);
    RaceTable t{};
    for (int d = -kRaceD; d <= kRaceD; ++d) {
      RaceCell& c = t[0][static_cast<std::size_t>(d + kRaceD)];
      for (int dd = -kRaceStep; dd <= kRaceStep; ++dd) {
        const double pr = last[static_cast<std::size_t>(dd + kRaceStep)];
        const int e = d + dd;
        if (e >= 0)
          c.mouth1 += pr;
        else if (e == -1)
          c.mouth2 += pr;
      }
    }
    for (int k = 1; k <= kRaceK; ++k)
      for (int d = -kRaceD; d <= kRaceD; ++d) {
        t[static_cast<std::size_t>(k)][static_cast<std::size_t>(d + kRaceD)] = race_interval(t, k, d, step);
      }
    return t;
  }();
  return table;
}

// With three or four players, from one boat's view: the other boats' spaces less its own, each
// clamped to -6..6 (the boats' order does not matter). Before each scoring every boat moves by its
// own step (a normal's of variance 2.08 / players on -2..2: the two-player lead's variance shared
// among the boats, each of which has fewer turns between two scorings). At each scoring the dense
// places: 1st caimans + piranhas, 2nd piranhas, and a boat that scored nothing (3rd or further)
// moves 1; at the river mouth 6 and 3 (with four players 7, 4 and 1). The table holds the
// expected number of first and second places and the mouth's points per unit of each.
constexpr int kManyD = 6, kManyW = 2 * kManyD + 1, kManyStep = 2, kManyK = 20;
struct ManyCell {
  double first = 0, second = 0, mouth = 0;
};
using ManyTable = std::vector<std::vector<ManyCell>>;  // [k][state], state: the others' offsets in base kManyW

// The dense place of a boat at 0 among others at offsets off[0..m) (positive: ahead of it).
int many_place(int m, const std::array<int, kMaxPlayers>& off) {
  int distinct_ahead = 0;
  for (int i = 0; i < m; ++i) {
    const int v = off[static_cast<std::size_t>(i)];
    bool dup = v <= 0;
    for (int j = 0; j < i && !dup; ++j) dup = off[static_cast<std::size_t>(j)] == v;
    distinct_ahead += dup ? 0 : 1;
  }
  return 1 + distinct_ahead;
}

// The table's state for the other boats' offsets off[0..m) (each clamped to -kManyD..kManyD).
int many_encode(int m, const std::array<int, kMaxPlayers>& off) {
  int st = 0;
  for (int i = m - 1; i >= 0; --i)
    st = st * kManyW + std::clamp(off[static_cast<std::size_t>(i)], -kManyD, kManyD) + kManyD;
  return st;
}

ManyTable make_many_table(int n) {
  ManyTable t;
  const int m = n - 1;
  int states = 1;
  for (int i = 0; i < m; ++i) states *= kManyW;
  std::array<double, 2 * kManyStep + 1> step{};
  double z = 0;
  for (int i = -kManyStep; i <= kManyStep; ++i)
    z += step[static_cast<std::size_t>(i + kManyStep)] = std::exp(-0.5 * i * i * n / kRaceVar);
  for (double& x : step) x /= z;
  const std::array<int, 3> mouth = n <= 3 ? std::array<int, 3>{6, 3, 0} : std::array<int, 3>{7, 4, 1};
  t.assign(kManyK + 1, std::vector<ManyCell>(static_cast<std::size_t>(states)));
  const auto decode = [&](int st, std::array<int, kMaxPlayers>& off) {
    for (int i = 0; i < m; ++i) {
      off[static_cast<std::size_t>(i)] = st % kManyW - kManyD;
      st /= kManyW;
    }
  };
  for (int st = 0; st < states; ++st) {  // the mouth, as the boats stand
    std::array<int, kMaxPlayers> off{};
    decode(st, off);
    const int r = many_place(m, off);
    t[0][static_cast<std::size_t>(st)].mouth = r <= 3 ? mouth[static_cast<std::size_t>(r - 1)] : 0;
  }
  const int combos = [&] {
    int c = 1;
    for (int i = 0; i < n; ++i) c *= 2 * kManyStep + 1;
    return c;
  }();
  for (int k = 1; k <= kManyK; ++k)
    for (int st = 0; st < states; ++st) {
      std::array<int, kMaxPlayers> off{};
      decode(st, off);
      ManyCell c;
      for (int cb = 0; cb < combos; ++cb) {  // every boat's step: cb's digits, base 2 * kManyStep + 1
        int x = cb;
        const int mine = x % (2 * kManyStep + 1) - kManyStep;
        x /= 2 * kManyStep + 1;
        double pr = step[static_cast<std::size_t>(mine + kManyStep)];
        std::array<int, kMaxPlayers> o{};
        for (int i = 0; i < m; ++i) {
          const int sd = x % (2 * kManyStep + 1) - kManyStep;
          x /= 2 * kManyStep + 1;
          pr *= step[static_cast<std::size_t>(sd + kManyStep)];
          o[static_cast<std::size_t>(i)] = off[static_cast<std::size_t>(i)] + sd - mine;
        }
        // the scoring: places of every boat (me at 0), then those that scored nothing move 1
        int top = 0;
        for (int i = 0; i < m; ++i) top = std::max(top, o[static_cast<std::size_t>(i)]);
        int second = -100;
        if (top > 0) second = 0;
        for (int i = 0; i < m; ++i)
          if (o[static_cast<std::size_t>(i)] < top) second = std::max(second, o[static_cast<std::size_t>(i)]);
        const bool me1 = top == 0, me2 = !me1 && second == 0;
        std::array<int, kMaxPlayers> after = o;
        for (int i = 0; i < m; ++i) {
          const int v = o[static_cast<std::size_t>(i)];
          if (v != top && v != second) ++after[static_cast<std::size_t>(i)];
        }
        if (!me1 && !me2)
          for (int i = 0; i < m; ++i) --after[static_cast<std::size_t>(i)];
        const ManyCell& nx = t[static_cast<std::size_t>(k - 1)][static_cast<std::size_t>(many_encode(m, after))];
        c.first += pr * ((me1 ? 1 : 0) + nx.first);
        c.second += pr * ((me2 ? 1 : 0) + nx.second);
        c.mouth += pr * nx.mouth;
      }
      t[static_cast<std::size_t>(k)][static_cast<std::size_t>(st)] = c;
    }
  return t;
}

// Each player count's table, made when first needed.
const ManyTable& many_table(int players) {
  static const ManyTable three = make_many_table(3);
  if (players == 3) return three;
  static const ManyTable four = make_many_table(4);
  return four;
}

void race_worth_many(const State& s, int k, double all, double pir, std::array<double, kMaxPlayers>& out) {
  const int n = s.nplayers;
  const ManyTable& t = many_table(n);
  for (int p = 0; p < n; ++p) {
    std::array<int, kMaxPlayers> off{};  // the other boats, in seat order
    int m = 0;
    for (int q = 0; q < n; ++q)
      if (q != p)
        off[static_cast<std::size_t>(m++)] =
            s.track[static_cast<std::size_t>(q)] - s.track[static_cast<std::size_t>(p)];
    const ManyCell& c = t[static_cast<std::size_t>(std::min(k, kManyK))][static_cast<std::size_t>(many_encode(m, off))];
    out[static_cast<std::size_t>(p)] = all * c.first + pir * c.second + c.mouth;
  }
}

// Each boat's worth: the model's expected Amazon scorings and river mouth. The scorings left are
// counted from the pile, so an Amazon tile placed this turn whose scoring is still to run (the piece
// decision after it) is left out: an approximation the search's cut playouts meet at about one
// piece decision in five.
// Five players: no model (a table of 13^4 states is left out), and the greedy evaluation's 0.6 a
// space stands.
bool track_worth(const State& s, std::array<double, kMaxPlayers>& out) {
  if (s.nplayers > 4) return false;
  out.fill(0.0);
  // the scorings still to come and what each pays on average: 1st caimans + piranhas, 2nd piranhas
  const auto& types = s.rs->tiles.types;
  int k = 0, bangs = 0;
  double sum_all = 0, sum_pir = 0;
  for (const u8 kind : {kAmazon, kBang})
    for (const u8 t : s.rs->tiles.kind_types[kind]) {  // the draw pile's Amazon and "!" tiles
      const TileType& tt = types[t];
      const int f = river_feature(tt);
      if (!s.remaining[t] || f < 0) continue;
      const auto& a = tt.feats[static_cast<std::size_t>(f)].attr;
      k += s.remaining[t];
      bangs += kind == kBang ? s.remaining[t] : 0;
      sum_all += s.remaining[t] * (a[kCaiman] + a[kPiranha]);
      sum_pir += s.remaining[t] * a[kPiranha];
    }
  const auto aside = amazonas_aside_tiles(s);
  const int doubles = std::min<int>(bangs, static_cast<int>(aside.size()));
  if (doubles > 0) {
    double da = 0, dp = 0;
    auto add = [&](const TileType& tt) {
      const int f = river_feature(tt);
      if (f < 0) return;
      da += tt.feats[static_cast<std::size_t>(f)].attr[kCaiman] + tt.feats[static_cast<std::size_t>(f)].attr[kPiranha];
      dp += tt.feats[static_cast<std::size_t>(f)].attr[kPiranha];
    };
    for (const u8 t : aside) {
      add(types[t]);
      if (types[t].east != 0xFF) add(types[types[t].east]);
    }
    sum_all += doubles * da / static_cast<double>(aside.size());
    sum_pir += doubles * dp / static_cast<double>(aside.size());
    k += doubles;
  }
  const double all = k ? sum_all / k : 0, pir = k ? sum_pir / k : 0;
  k = std::min(k, kRaceK);
  if (s.nplayers != 2) {
    race_worth_many(s, k, all, pir, out);
    return true;
  }
  const RaceTable& t = race_table();
  // the interval before the next scoring: its step's variance from the tiles still to come before
  // the next Amazon tile (the even spread: one in each block)
  const RaceStep* first = nullptr;
  if (k > 0) {
    const RiverOdds o = river_odds(s);
    const int blocks = std::max(1, s.rs->tiles.draw_total - s.rs->tiles.kind_total[kLand]);
    const int river_left = s.pile - s.kind_left[kLand];
    const double tiles = s.rs->option_index[0] == 1 ? (s.pile + 1.0) / (river_left + 1.0)  // spread=uniform
                         : o.den == 0 ? (o.num ? 1.0 : 1.0 + static_cast<double>(s.rs->tiles.draw_total) / blocks)
                                      : (o.den + 1) / 2.0;
    // the steps for tiles in halves, made once (a step is 17 exponentials)
    static const std::array<RaceStep, 128> steps = [] {
      std::array<RaceStep, 128> a{};
      for (std::size_t h = 1; h < a.size(); ++h) a[h] = race_step(kRaceVar / kRaceBlock * 0.5 * static_cast<double>(h));
      return a;
    }();
    const double h = 2 * tiles;
    if (h == std::floor(h) && h >= 1 && h < 128) {
      first = &steps[static_cast<std::size_t>(h)];
    } else {  // another count (a block's end after its Amazon tile, spread=uniform): the last one kept
      thread_local double last_tiles = -1;
      thread_local RaceStep last_step{};
      if (tiles != last_tiles) {
        last_tiles = tiles;
        last_step = race_step(kRaceVar / kRaceBlock * tiles);
      }
      first = &last_step;
    }
  }
  for (int p = 0; p < 2; ++p) {
    const int d = race_clamp(s.track[static_cast<std::size_t>(p)] - s.track[static_cast<std::size_t>(1 - p)]);
    const RaceCell c = first ? race_interval(t, k, d, *first) : t[0][static_cast<std::size_t>(d + kRaceD)];
    out[static_cast<std::size_t>(p)] = all * c.first + pir * c.second + 6 * c.mouth1 + 3 * c.mouth2;
  }
  return true;
}

// The game's own events: a boat's move on the track (and why), an Amazon scoring, the river mouth.
// The seat is "{pN}" (seat_ref), named by whoever shows the text.
std::string describe(const State&, const ScoreEvent& e) {
  if (e.reason != ScoreReason::Own) return {};
  const std::string who = seat_ref(e.player);
  switch (e.kind) {
    case kTrackEvent: {
      static constexpr std::array<const char*, 5> kWhy = {"", "why.pass", "why.explorer", "why.connected",
                                                          "why.nothing"};
      const std::string why = e.cause >= 1 && e.cause < kWhy.size() ? az_say(kWhy[e.cause]) : std::string();
      if (e.amount == 0) return az_say("event.boat_stays", {{"player", who}, {"space", e.tiles}, {"why", why}});
      return az_say("event.boat_moves", {{"player", who}, {"moved", e.amount}, {"space", e.tiles}, {"why", why}});
    }
    case kAmazonEvent:
      return az_say("event.amazon",
                    {{"player", who},
                     {"points", e.points},
                     {"place", az_say("place", {{"ordinal", az_ordinal(e.cause)}})},
                     {"what", e.cause == 1 ? az_say("amazon.first", {{"caimans", e.tiles}, {"piranhas", e.attr}})
                                           : az_say("amazon.second", {{"piranhas", e.attr}})}});
    case kMouthEvent:
      return az_say(
          "event.mouth",
          {{"player", who}, {"points", e.points}, {"place", az_say("place", {{"ordinal", az_ordinal(e.cause)}})}});
    default:
      return {};
  }
}

// ---- presentation (as data: GameDef::present) ----

std::vector<Panel> panels(const State& s) {
  Panel river;
  river.id = "river";
  const int len = std::max<int>(1, s.track_len);
  river.title = az_say("panel.river.title", {{"len", len}});
  river.track = len;
  const auto ranks = amazonas_boat_ranks(s);
  river.columns = {"seat", az_say("panel.river.space"), az_say("panel.river.place")};  // "seat": the front ends' key
  for (int p = 0; p < s.nplayers; ++p) {
    const int r = ranks[static_cast<std::size_t>(p)];
    river.rows.push_back(
        {std::to_string(p), std::to_string(s.track[static_cast<std::size_t>(p)]),
         r == 0 ? az_say("panel.river.no_place") : az_say("panel.river.rank", {{"ordinal", az_ordinal(r)}})});
  }
  river.lines.push_back(
      az_say("panel.river.front", {{"x", amazonas_state(s).front}, {"nx", amazonas_state(s).front + 1}, {"y", kRow}}));
  int amazon_left = 0, bang_left = 0;
  for (std::size_t t = 0; t < s.rs->tiles.types.size(); ++t) {
    const TileType& tt = s.rs->tiles.types[t];
    if (!river_tile(tt) || tt.pile != kPileDraw) continue;
    amazon_left += s.remaining[t];
    if (tt.kind == kBang) bang_left += s.remaining[t];
  }
  river.lines.push_back(
      az_say("panel.river.pile",
             {{"n", amazon_left},
              {"bang", bang_left > 0 ? az_say("panel.river.pile_bang", {{"n", bang_left}}) : std::string()}}));
  std::vector<std::string> aside;
  for (const u8 t : amazonas_aside_tiles(s)) {
    std::array<int, kAttrs> n{};  // caimans and piranhas of both cells
    for (int u = t, guard = 0; u >= 0 && u < static_cast<int>(s.rs->tiles.types.size()) && guard < 4; ++guard) {
      const TileType& tt = s.rs->tiles.types[static_cast<std::size_t>(u)];
      const int f = river_feature(tt);
      if (f >= 0)
        for (std::size_t k = 0; k < kAttrs; ++k) n[k] += tt.feats[static_cast<std::size_t>(f)].attr[k];
      u = tt.east == 0xFF ? -1 : tt.east;
    }
    std::string c;
    if (n[kCaiman]) c += az_say("aside.caimans", {{"n", n[kCaiman]}});
    if (n[kPiranha]) c += az_say("aside.piranhas", {{"n", n[kPiranha]}});
    aside.push_back(fmt::format("{} ({})", s.rs->tiles.types[t].id, c.empty() ? "-" : c));
  }
  river.lines.push_back(aside.empty()
                            ? az_say("panel.river.aside_none")
                            : az_say("panel.river.aside", {{"list", fmt::format("{}", fmt::join(aside, ", "))}}));
  return {river};
}

}  // namespace

// Dense ranks of the boats: rank[p] = 1 for the furthest space, 2 for the next occupied one, ...
// In a 2-player game a boat that is 2nd but not directly behind the 1st gets rank 0 (no place).
std::array<int, kMaxPlayers> amazonas_boat_ranks(const State& s) {
  std::array<int, kMaxPlayers> rank{};
  int top = 0;
  for (int p = 0; p < s.nplayers; ++p) top = std::max<int>(top, s.track[static_cast<std::size_t>(p)]);
  for (int p = 0; p < s.nplayers; ++p) {
    const int sp = s.track[static_cast<std::size_t>(p)];
    int r = 1;  // 1 + the number of distinct spaces ahead of this boat
    for (int q = 0; q < s.nplayers; ++q) {
      const int sq = s.track[static_cast<std::size_t>(q)];
      if (sq <= sp) continue;
      bool first = true;
      for (int o = 0; o < q; ++o)
        if (s.track[static_cast<std::size_t>(o)] == sq) first = false;
      r += first ? 1 : 0;
    }
    rank[static_cast<std::size_t>(p)] = r;
    if (s.nplayers == 2 && r == 2 && sp != top - 1) rank[static_cast<std::size_t>(p)] = 0;
  }
  return rank;
}

StaticVec<u8, 64> amazonas_aside_tiles(const State& s) {
  StaticVec<u8, 64> out;
  const auto& aside = s.rs->tiles.aside_types;  // bit k of State::aside is the k-th (at most 64)
  for (std::size_t k = 0; k < aside.size() && !out.full(); ++k)
    if (amazonas_state(s).aside >> k & 1u) out.push_back(aside[k]);
  return out;
}

const GameDef& amazonas() {
  static const GameDef def = [] {
    GameDef g;
    g.id = "amazonas";
    g.title = "Carcassonne: Amazonas";
    //            name         class          terrain claim done/tile done/attr final/tile final/attr  symbols          piece
    g.ftypes = {
        {"tributary", FClass::Path, 1, true, 1, 1, 1, 1, {"fruit", "boat"}, 0},
        {"village", FClass::Area, 2, true, 2, 1, 1, 1, {"fruit"}, 0},
        {"jungle", FClass::Field, 3, true, 0, 0, 0, 1, {"animal"}, 1},  // camps: 1 per animal at the end
        {"amazon", FClass::Path, 4, false, 0, 0, 0, 0, {"caiman", "piranha"}, 0},
    };
    g.tile_kinds = {"land", "amazon", "amazon!", "double"};
    g.options = {{"spread", {"even", "uniform"},
                  "how the Amazon tiles lie in the pile: one in each of 15 equal blocks (as the rulebook asks), or a plain shuffle"}};
    g.pieces_per_player = 4;
    g.pieces2_per_player = 2;
    g.piece_names = {"explorer", "camp"};
    g.pass_text = "no explorer or camp (boat moves 1)";
    g.track_name = "boat";
    // the search (docs/mcts.md): its playouts (Amazon scorings) are noisy enough that 16 decisions
    // and then the greedy evaluation do better; and it gains from trusting the greedy evaluation
    // more (100 virtual playouts: 90% against greedy instead of 65% on the same 20 deals at one
    // second a move)
    g.search_horizon = 16;
    g.search_prior = 100;
    // the boat race's model in the search's evaluation (track_worth), whose greedy prior is then
    // trusted with 1000 virtual playouts (docs/mcts.md, "Amazonas: a model of the boat race")
    g.search_race = 1;
    g.search_race_prior = 1000;
    // with four players the prior also judges the next player's tile placement as the root's
    // options (the rest of that turn played greedily): docs/mcts.md "Amazonas with three players:
    // the next player's reply in the prior" (with three and with five no better at equal CPU)
    g.search_prior_depth_many = 2;
    g.search_prior_full_many = true;
    g.search_prior_many_from = 4;
    g.search_prior_many_upto = 4;
    // each level wins about 75% against the one below (docs/mcts.md "Levels")
    // (race=0: the search their spacing was measured with)
    g.levels = {"mcts:playouts=10,threads=1,slip=0.2,race=0", "mcts:playouts=100,threads=1,slip=0.06,race=0",
                "mcts:playouts=3000,threads=1,race=0"};
    g.review_margin = 19.7;  // greedy against greedy: mean |margin| 19.7 points (median 16)
    g.win_scale[2] = 5.34;   // tools/calibrate_win.py, 60 games, 100 playouts: docs/mcts.md
    // the search's fitted value: `carcassonne fit-value --game amazonas --players N --games 50000` (docs/mcts.md)
    g.value_weights[2] = {6.865,  9.547,    -0.1948, 13.22,   -0.2252, 6.415,    -0.3077, 0,      0.1731,
                          0.5217, 0.1731,   0.5217,  -0.9957, 0.01962, -0.07684, 0.04605, 0.2876, -0.114,
                          0.4806, -0.06634, 1.987,   -5.445,  0.3351,  0,        0,       0,      0,
                          0,      0,        0,       0,       0,       0,        0.03005, 8.782,  0,
                          0.5772, 0,        0,       0,       0,       0,        0,       0};
    g.value_weights[3] = {7.685,   11.01,  -1.277, 14.22,   0.3633,   1.587,  0.1911,  0,      0.2972, 0.8438,  0.2972,
                          0.8438,  -1.406, 0.5668, -0.1485, -0.03778, 0.5237, -0.2074, 0.7844, 0.2494, -0.3957, -7.468,
                          0.01453, 0,      0,      0,       0,        0,      0,       0,      0,      0,       0,
                          -0.2723, 8.914,  0,      0.2317,  0,        0,      0,       0,      0,      0,       0};
    g.value_weights[4] = {7.535,   10.51,  -1.501, 13.4,    0.5889,   1.221,  0.1955,  0,      0.2539, 0.9378, 0.2539,
                          0.9378,  -2.071, 0.4022, -0.3352, -0.02936, 0.6359, -0.2857, 0.6451, 0.4418, 0.5602, -7.98,
                          -0.2533, 0,      0,      0,       0,        0,      0,       0,      0,      0,      0,
                          -0.3381, 8.578,  0,      0.3339,  0,        0,      0,       0,      0,      0,      0};
    // record keys: {tiles, attr, amount, cause}. Track (a boat moves): amount = spaces moved,
    // tiles = the space reached, cause = 1 no piece placed, 2 explorer placed on a tributary with
    // boat icons, 3 icons newly connected to the player's explorers, 4 scored nothing in an Amazon
    // scoring. Amazon: cause = rank (1st/2nd), tiles = caimans, attr = piranhas of the tile
    // scored. Mouth: cause = rank.
    g.own_events = {{"track", {"space", "", "moved", "cause"}, "", false, false},
                    {"amazon", {"caimans", "piranhas", "", "rank"}, "", false, false},
                    {"mouth", {"", "", "", "rank"}, "", true, false}};
    g.min_players = 2;
    g.max_players = 5;
    g.turn_actions = 3;  // the placement, the double tile (an Amazon tile) and the piece decision
    g.farm_points_per_city = 0;
    g.setup_keys = {"boats"};
    // a double tile set aside, and its rotation (0 or 180): "D2 180"
    g.action_blocks = {{"double", "the double tile (a tile type) laid downstream, and its rotation (0 or 2 quarter turns)", MoveKind::Choose, 0xFF, false, 4, false, -1, false}};
    g.turn_symmetric = false;  // the river runs east: a turned board is another game
    g.window_centre = {8, 0};  // x from -10 to 26: the river's mouth and the land beside it
    g.window_radius = 18;
    g.present.panels = panels;
    present_amazonas(g);
    g.hooks.on_init = on_init;
    g.hooks.prepare = prepare;
    g.hooks.export_keys = export_keys;
    g.hooks.sample_draw = sample_draw;
    g.hooks.draw_odds = draw_odds;
    g.hooks.placement_allowed = placement_allowed;
    g.hooks.before_place = before_place;
    g.hooks.on_tile_placed = on_tile_placed;
    g.hooks.gen_choices = gen_choices;
    g.hooks.apply_choice = apply_choice;
    g.hooks.on_piece = on_piece;
    g.hooks.on_scoring = on_scoring;
    g.hooks.on_final_scoring = on_final_scoring;
    g.hooks.track_worth = track_worth;
    g.describe = describe;
    return g;
  }();
  return def;
}

}  // namespace carc::games
