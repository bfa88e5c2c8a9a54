// Carcassonne: Hunters & Gatherers, 2020 edition (RULES.md section 3). Data: rivers (road-like,
// fishers), lakes (centre features), forests (city-like, gatherers; mushroom glades +3), meadows
// (field-like, hunters), river systems as networks of rivers and lakes claimed by huts. Code, as
// hooks: the fish in a completed river's lakes, the menhir bonus turn, the bonus-tile effects
// (canoe, pit trap, shaman, big trap, fire, raft), meadow and river-system final scoring.
#include <fmt/format.h>

#include <algorithm>
#include <bitset>

#include "core/io.hpp"
#include "games/games.hpp"
#include "rules/words.hpp"

namespace carc::games {

void present_hunters(GameDef& g);  // present.cpp
const GameDef& hunters();          // below

// say() for the game's words: its catalog and the engine's, looked up once (a spot's worth is said
// for every piece option of a legal list). Also present.cpp.
std::string hg_say(std::string_view id, const MsgArgs& args = {}) {
  static const i18n::Catalog* const own = game_messages(hunters());
  static const i18n::Catalog* const generic = &generic_messages();
  return i18n::say({own, generic}, id, args);
}

namespace {

// The messages a spot's worth, a panel's counts and an event are made of, in every language,
// looked up once: a legal list says a spot's worth for every piece option, each then only
// formatted. The counts first, in the order of kCountNouns.
enum Text : std::size_t {
  kTilesText,
  kFishText,
  kLakeText,
  kMushroomText,
  kMenhirText,
  kDeerText,
  kAurochsText,
  kMammothText,
  kTigerText,
  kMemberText,
  kHutText,
  kFisherText,
  kGathererText,
  kHunterText,
  kInLakesText,
  kNoAnimalsText,
  kFireText,
  kTigersEatText,
  kBigTrapText,
  kCompletedNowText,
  kSoFarOpenText,
  kSoFarText,
  kMeadowValueText,
  kTexts
};
constexpr std::array<std::string_view, kInLakesText> kCountNouns = {
    "tiles",   "fish",  "lake",   "mushroom", "menhir", "deer",     "aurochs",
    "mammoth", "tiger", "member", "hut",      "fisher", "gatherer", "hunter"};
constexpr std::array<std::string_view, kTexts - kInLakesText> kTextIds = {
    "fish.in_lakes",      "animals.none",     "tigers.fire", "tigers.eat",       "tigers.big_trap",
    "spot.completed_now", "spot.so_far_open", "spot.so_far", "spot.meadow_value"};

std::string hg_text(Text k, const MsgArgs& args = {}) {
  static const auto texts = [] {
    std::array<std::array<std::string, kTexts>, i18n::kLangs> t;
    for (const i18n::Lang l : i18n::kEveryLang) {
      const i18n::Scope scope(l);
      for (std::size_t i = 0; i < kTexts; ++i) {
        const std::string id =
            i < kInLakesText ? "count." + std::string(kCountNouns[i]) : std::string(kTextIds[i - kInLakesText]);
        // the raw text (its parameters left in): say() with no arguments keeps "{n|...}" as it is
        t[static_cast<std::size_t>(l)][i] = hg_say(id);
      }
    }
    return t;
  }();
  const i18n::Lang l = i18n::current();
  return i18n::format(texts[static_cast<std::size_t>(l)][k], args, l);
}

}  // namespace

// "3 fish", "1 mushroom glade", "2 fishers": n of a symbol, a piece or a role (message
// count.<noun>) in the current language.
std::string hg_count(std::string_view noun, int n) {
  for (std::size_t i = 0; i < kCountNouns.size(); ++i)
    if (kCountNouns[i] == noun) return hg_text(static_cast<Text>(i), {{"n", n}});
  return hg_say("count." + std::string(noun), {{"n", n}});
}

namespace {

enum FType : u8 { kRiver = 0, kLake = 1, kForest = 2, kMeadow = 3 };
enum Special : u8 { kCanoe = 0, kPitTrap = 1, kShaman = 2, kBigTrap = 3, kFire = 4, kRaft = 5 };
enum Animal : u8 { kDeer = 0, kAurochs = 1, kMammoth = 2, kTiger = 3 };
enum Forest : u8 { kMushroom = 0, kMenhir = 1 };
enum Cause : u8 { kCanoeCause = 1, kPitTrapCause = 2 };

constexpr int kNx[8] = {-1, 0, 1, 1, 1, 0, -1, -1};
constexpr int kNy[8] = {-1, -1, -1, 0, 1, 1, 1, 0};

bool has_special(const TileFeature& f, Special sp) { return f.special == sp + 1; }

const TileFeature& tfeat(const State& s, int seg) {
  const Segment& sg = s.graph[seg];
  return s.type_of(s.tiles[sg.tile]).feats[sg.local];
}

void push_event(State& s, EventSink* ev, int player, u8 ftype, ScoreReason why, int points, u8 cause, u8 a = 0, u8 b = 0) {
  if (!ev) return;
  ScoreEvent e;
  e.turn = s.turn;
  e.player = static_cast<u8>(player);
  e.ftype = ftype;
  e.reason = why;
  e.points = static_cast<i16>(points);
  e.cause = cause;
  e.tiles = a;
  e.attr = b;
  ev->push_back(e);
}

// Fish in the distinct lakes linked to a river's segments (the lakes at its ends).
int completion_bonus(const State& s, int root) {
  if (s.graph[root].ftype != kRiver) return 0;
  std::bitset<kMaxSegments> lakes;  // distinct lakes, however many
  int fish = 0;
  int m = root;
  do {
    const Segment& sg = s.graph[m];
    const PlacedTile& pt = s.tiles[sg.tile];
    const u16 links = s.type_of(pt).feats[sg.local].links;
    for (int g = 0; links >> g; ++g) {
      if (!(links & (1u << g))) continue;
      const u16 lake = static_cast<u16>(pt.seg0 + g);
      if (lakes.test(lake)) continue;
      lakes.set(lake);
      fish += s.graph[lake].attr[0];
    }
    m = sg.next;
  } while (m != root);
  return fish;
}

// Animals of the meadow `root` on the tiles of the 3x3 area around (x, y), not covered; the
// segments counted go to `segs` if given.
std::array<int, 4> area_animals(const State& s, int root, int x, int y, StaticVec<u16, 9 * kMaxTileFeatures>* segs = nullptr) {
  std::array<int, 4> n{};
  for (int k = -1; k < 8; ++k) {
    const int ti = k < 0 ? s.placed_at(x, y) : s.placed_at(x + kNx[k], y + kNy[k]);
    if (ti < 0) continue;
    const PlacedTile& pt = s.tiles[static_cast<std::size_t>(ti)];
    const TileType& tt = s.type_of(pt);
    for (int f = 0; f < tt.nfeat; ++f) {
      const int seg = pt.seg0 + f;
      if (tt.feats[static_cast<std::size_t>(f)].type != kMeadow || s.graph[seg].covered || s.graph.find(seg) != root) continue;
      for (int a = 0; a < 4; ++a) n[static_cast<std::size_t>(a)] += tt.feats[static_cast<std::size_t>(f)].attr[static_cast<std::size_t>(a)];
      if (segs) segs->push_back(static_cast<u16>(seg));
    }
  }
  return n;
}

int animal_points(int deer, int aurochs, int mammoth) { return deer + 2 * aurochs + 3 * mammoth; }

// The member segment of a meadow carrying a special, or -1.
int find_special(const State& s, int root, Special sp) {
  int m = root;
  do {
    if (has_special(tfeat(s, m), sp)) return m;
    m = s.graph[m].next;
  } while (m != root);
  return -1;
}

// A pit trap's 3x3 area of its meadow is covered: its animals leave the meadow's tallies for good.
void cover(State& s, int root, const StaticVec<u16, 9 * kMaxTileFeatures>& area) {
  for (const u16 a : area) {
    s.graph[a].covered = 1;
    for (std::size_t k = 0; k < 4; ++k) s.graph[root].attr[k] = static_cast<u8>(s.graph[root].attr[k] - tfeat(s, a).attr[k]);
  }
}

// A prepared board's pit traps cover their areas as they did when placed (the board is in
// placement order); their points are in the setup's scores.
void on_board_tile(State& s, int idx) {
  const PlacedTile pt = s.tiles[static_cast<std::size_t>(idx)];
  const TileType& tt = s.type_of(pt);
  for (int f = 0; f < tt.nfeat; ++f) {
    if (!has_special(tt.feats[static_cast<std::size_t>(f)], kPitTrap)) continue;
    const int root = s.graph.find(pt.seg0 + f);
    StaticVec<u16, 9 * kMaxTileFeatures> area;
    (void)area_animals(s, root, pt.x, pt.y, &area);
    cover(s, root, area);
  }
}

int field_value(const State& s, int root) {
  const Segment& r = s.graph[root];
  const int deer = r.attr[kDeer], aurochs = r.attr[kAurochs], mammoth = r.attr[kMammoth];
  const int tigers = find_special(s, root, kFire) >= 0 ? 0 : r.attr[kTiger];
  const int eaten = std::min(tigers, deer);
  int v = animal_points(deer - eaten, aurochs, mammoth);
  const int trap = find_special(s, root, kBigTrap);
  if (trap >= 0) {  // the big trap's 3x3 area counts twice; tigers eat the deer outside it first
    const PlacedTile& pt = s.tiles[s.graph[trap].tile];
    const auto in = area_animals(s, root, pt.x, pt.y);
    const int eaten_in = std::max(0, eaten - (deer - in[kDeer]));
    v += animal_points(in[kDeer] - eaten_in, in[kAurochs], in[kMammoth]);
  }
  return v;
}

void on_tile_placed(State& s, int idx, EventSink* ev) {
  const PlacedTile pt = s.tiles[static_cast<std::size_t>(idx)];
  const TileType& tt = s.type_of(pt);
  for (int f = 0; f < tt.nfeat; ++f) {
    const TileFeature& tf = tt.feats[static_cast<std::size_t>(f)];
    if (tf.special == 0) continue;
    const int seg = pt.seg0 + f;
    if (has_special(tf, kCanoe)) {  // 2 per lake of this river system, for the placer
      const int lakes = s.graph[s.graph.net_find(seg)].net_centres;
      const int pts = 2 * lakes;
      s.score[s.current] = static_cast<i16>(s.score[s.current] + pts);
      push_event(s, ev, s.current, kLake, ScoreReason::Special, pts, kCanoeCause, static_cast<u8>(lakes));
    } else if (has_special(tf, kPitTrap)) {  // score the 3x3 area of this meadow now, then cover it
      const int root = s.graph.find(seg);
      StaticVec<u16, 9 * kMaxTileFeatures> area;
      const auto n = area_animals(s, root, pt.x, pt.y, &area);
      const int eaten = std::min(n[kDeer], n[kTiger]);
      const int pts = animal_points(n[kDeer] - eaten, n[kAurochs], n[kMammoth]);
      s.score[s.current] = static_cast<i16>(s.score[s.current] + pts);
      push_event(s, ev, s.current, kMeadow, ScoreReason::Special, pts, kPitTrapCause,
                 static_cast<u8>(n[kDeer] + n[kAurochs] + n[kMammoth] + n[kTiger]), static_cast<u8>(eaten));
      cover(s, root, area);
    } else if (has_special(tf, kShaman)) {
      for (const PieceOnBoard& pc : s.pieces)
        if (pc.player == s.current && pc.kind == 0) {
          s.phase = Phase::Choose;
          break;
        }
    }
  }
}

// Shaman: return one of your tribe members (not a hut) from anywhere, or none.
void gen_choices(const State& s, MoveList& out) {
  Move m;
  m.kind = MoveKind::Choose;
  m.player = s.current;
  out.push_back(m);  // feat 0xFF: none
  for (const PieceOnBoard& pc : s.pieces) {
    if (pc.player != s.current || pc.kind != 0) continue;
    const Segment& sg = s.graph[pc.seg];
    const PlacedTile& pt = s.tiles[sg.tile];
    m.x = pt.x;
    m.y = pt.y;
    m.feat = sg.local;
    out.push_back(m);
  }
}

void apply_choice(State& s, const Move& m, EventSink*) {
  s.phase = Phase::Piece;
  if (m.feat == 0xFF) return;
  const PlacedTile& pt = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
  const u16 seg = static_cast<u16>(pt.seg0 + m.feat);
  for (std::size_t i = 0; i < s.pieces.size(); ++i) {
    const PieceOnBoard pc = s.pieces[i];
    if (pc.seg != seg || pc.player != m.player || pc.kind != 0) continue;
    Segment& r = s.graph[s.graph.find_compress(seg)];
    --r.pieces[pc.player];
    --r.npieces;
    ++s.supply[pc.player];
    s.pieces.erase_swap(i);
    return;
  }
}

std::string choice_text(const State& s, const Move& m) {
  if (m.feat == 0xFF) return "none";
  const PlacedTile& pt = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
  return fmt::format("{} at {},{}", feature_port(s, pt, m.feat), m.x, m.y);
}

Move choice_parse(const State& s, std::string_view text) {
  Move m;
  m.kind = MoveKind::Choose;
  m.player = s.current;
  if (text == "none" || text.empty()) return m;
  const auto at = text.find(" at ");
  const auto comma = text.find(',');
  if (at == std::string_view::npos || comma == std::string_view::npos || comma < at)
    throw InputError(hg_say("err.shaman_form", {{"text", text}}));
  const std::string port(text.substr(0, at));
  long long lx = 0, ly = 0;  // on the map only: never wrapped onto another cell
  if (!carc::parse_int(text.substr(at + 4, comma - at - 4), -128, 127, lx) || !carc::parse_int(text.substr(comma + 1), -128, 127, ly))
    throw InputError(hg_say("err.shaman_coords", {{"text", text}}));
  const int x = static_cast<int>(lx), y = static_cast<int>(ly);
  const int ti = s.placed_at(x, y);
  if (ti < 0) throw InputError(hg_say("err.shaman_no_tile", {{"x", x}, {"y", y}}));
  const int f = feature_at_port(s, s.tiles[static_cast<std::size_t>(ti)], port);
  if (f < 0) throw InputError(hg_say("err.shaman_no_feature", {{"port", port}, {"x", x}, {"y", y}}));
  // name the segment the piece stands on (the port may name another segment of the same feature)
  const PlacedTile& pt = s.tiles[static_cast<std::size_t>(ti)];
  m.x = static_cast<i8>(x);
  m.y = static_cast<i8>(y);
  m.feat = static_cast<u8>(f);
  for (const PieceOnBoard& pc : s.pieces)
    if (pc.player == s.current && pc.kind == 0 && s.graph[pc.seg].tile == ti && pc.seg == pt.seg0 + f) return m;
  throw InputError(hg_say("err.shaman_not_yours", {{"port", port}, {"x", x}, {"y", y}}));
}

// This turn's tiles complete a forest with a menhir (scored already, when scored_only): a bonus
// turn follows, if this is a regular turn and the bonus pile has tiles.
bool completes_menhir_forest(const State& s, bool scored_only) {
  for (std::size_t i = s.turn_first; i < s.tiles.size(); ++i) {
    const PlacedTile& pt = s.tiles[i];
    const TileType& tt = s.type_of(pt);
    for (int f = 0; f < tt.nfeat; ++f) {
      if (tt.feats[static_cast<std::size_t>(f)].type != kForest) continue;
      const Segment& r = s.graph[s.graph.find(pt.seg0 + f)];
      if (r.open == 0 && (r.scored || !scored_only) && r.attr[kMenhir] > 0) return true;
    }
  }
  return false;
}

// Menhir: a regular tile that completed a forest with a menhir earns an extra turn.
void on_scoring(State& s, EventSink*) {
  if (s.in_extra) return;
  if (completes_menhir_forest(s, true)) s.extra = 1;
}

// River systems: each system's hut majority scores 1 per fish in it (+1 per lake with the raft).
void on_final_scoring(State& s, EventSink* ev) {
  for (int seg = 0; seg < s.graph.size(); ++seg) {
    const Segment& n = s.graph[seg];
    if (n.net != seg || n.net_npieces == 0) continue;
    int best = 0;
    for (int p = 0; p < s.nplayers; ++p) best = std::max<int>(best, n.net_pieces[static_cast<std::size_t>(p)]);
    const bool raft = n.net_flags & (1u << kRaft);
    const int pts = n.net_attr + (raft ? n.net_centres : 0);
    if (pts == 0) continue;
    for (int p = 0; p < s.nplayers; ++p) {
      if (n.net_pieces[static_cast<std::size_t>(p)] != best) continue;
      s.score[static_cast<std::size_t>(p)] = static_cast<i16>(s.score[static_cast<std::size_t>(p)] + pts);
      push_event(s, ev, p, kLake, ScoreReason::Own, pts, raft ? 1 : 0, n.net_attr, n.net_centres);
    }
  }
}

// A meadow's animals ("3 deer, 1 mammoth, 2 tigers") and what its tigers do ("tigers eat 2 deer",
// "fire: tigers eat nothing", the big trap), in the current language.
std::pair<std::string, std::string> meadow_animals(const State& s, int root) {
  const Segment& r = s.graph[root];
  const FeatureTypeDef& fd = s.rs->ftype(r.ftype);
  std::vector<std::string> parts;
  for (std::size_t k = 0; k < fd.attrs.size() && k < kAttrs; ++k)
    if (r.attr[k] > 0) parts.push_back(hg_count(fd.attrs[k], r.attr[k]));
  std::string tigers;
  if (r.attr[kTiger] > 0 && find_special(s, root, kFire) >= 0)
    tigers = hg_text(kFireText);
  else if (r.attr[kTiger] > 0 && r.attr[kDeer] > 0)
    tigers = hg_text(kTigersEatText, {{"n", std::min(r.attr[kTiger], r.attr[kDeer])}});
  if (find_special(s, root, kBigTrap) >= 0) tigers += std::string(tigers.empty() ? "" : "; ") + hg_text(kBigTrapText);
  return {fmt::format("{}", fmt::join(parts, ", ")), tigers};
}

// The engine's sentences with what the generic ones leave out: the fish in a completed river's
// lakes, a meadow's animals and tigers, who scores a river system, the canoe, the pit trap. The
// seat is "{pN}" (seat_ref), named by whoever shows the text.
std::string describe(const State& s, const ScoreEvent& e) {
  const GameDef& g = *s.rs->game;
  const FeatureTypeDef* fd = e.ftype < g.ftypes.size() ? &s.rs->ftype(e.ftype) : nullptr;
  const std::string who = seat_ref(e.player);
  switch (e.reason) {
    case ScoreReason::Completed: {
      if (!fd) return {};
      std::vector<std::string> parts = {hg_count("tiles", e.tiles)};
      if (fd->cls == FClass::Path) {
        const int lake_fish = e.points - fd->completed_per_tile * e.tiles - fd->completed_per_attr * e.attr;
        if (e.attr > 0) parts.push_back(hg_count("fish", e.attr));
        if (lake_fish > 0) parts.push_back(hg_text(kInLakesText, {{"fish", hg_count("fish", lake_fish)}}));
      } else if (e.attr > 0 && !fd->attrs.empty()) {
        parts.push_back(hg_count(fd->attrs[0], e.attr));
      }
      std::string what = parts[0];
      for (std::size_t i = 1; i < parts.size(); ++i)
        what += (i + 1 == parts.size() ? hg_say("list.and") : ", ") + parts[i];
      return hg_say("event.hg_completed", {{"player", who},
                                           {"points", e.points},
                                           {"feature", feature_word(g, fd->name)},
                                           {"feature_done", feature_form(g, fd->name, "done")},
                                           {"what", what}});
    }
    case ScoreReason::Farm: {
      if (!fd || e.feature >= s.graph.size() || s.graph[e.feature].ftype != e.ftype) return {};
      const auto [animals, tigers] = meadow_animals(s, e.feature);
      return hg_say(tigers.empty() ? "event.hg_farm" : "event.hg_farm_tigers",
                    {{"player", who},
                     {"points", e.points},
                     {"feature", feature_word(g, fd->name)},
                     {"feature_acc", feature_form(g, fd->name, "acc")},
                     {"animals", animals.empty() ? hg_text(kNoAnimalsText) : animals},
                     {"tigers", tigers}});
    }
    case ScoreReason::Special:
      if (e.cause == kCanoeCause)
        return hg_say("event.canoe", {{"player", who}, {"points", e.points}, {"lakes", e.tiles}});
      return hg_say("event.pit_trap", {{"player", who}, {"points", e.points}, {"animals", e.tiles}, {"eaten", e.attr}});
    case ScoreReason::Own:  // the only one: a river system's huts (own_events[0])
      return hg_say(e.cause ? "event.huts_raft" : "event.huts",
                    {{"player", who}, {"points", e.points}, {"fish", e.tiles}, {"lakes", e.attr}});
    default:
      return {};
  }
}

// ---- presentation (as data: GameDef::present) ----

// What a free spot for a tribe member is worth: a river's tiles and fish (and its lakes'), a
// forest's tiles and symbols, a meadow's animals and their value after the tigers.
std::string spot_text(const State& s, const PlacedTile& pt, int local) {
  const FeatureTypeDef& fd = s.rs->ftype(s.type_of(pt).feats[static_cast<std::size_t>(local)].type);
  const FeatureInfo fi = feature_info(s, pt.seg0 + local);
  const Segment& root = s.graph[fi.root];
  const std::string tiles = hg_count("tiles", fi.tiles);
  switch (fd.cls) {
    case FClass::Path: {
      const int lake_fish = completion_bonus(s, fi.root);
      std::string fish = fi.attr > 0 ? ", " + hg_count("fish", fi.attr) : "";
      if (lake_fish > 0)
        fish += (fi.attr > 0 ? " + " : ", ") + hg_text(kInLakesText, {{"fish", hg_count("fish", lake_fish)}});
      return fi.closed
                 ? hg_text(kCompletedNowText, {{"points", feature_value(s, fi, true)}}) + " (" + tiles + fish + ")"
                 : hg_text(kSoFarOpenText, {{"tiles", tiles}}) + fish;
    }
    case FClass::Area: {
      std::string info = fi.closed ? hg_text(kCompletedNowText, {{"points", feature_value(s, fi, true)}})
                                   : hg_text(kSoFarOpenText, {{"tiles", tiles}});
      for (std::size_t k = 0; k < fd.attrs.size() && k < kAttrs; ++k)
        if (root.attr[k] > 0) info += ", " + hg_count(fd.attrs[k], root.attr[k]);
      return info;
    }
    case FClass::Field: {
      const auto [animals, tigers] = meadow_animals(s, fi.root);
      std::string info = animals.empty() ? hg_text(kNoAnimalsText) : animals;
      if (!tigers.empty()) info += " (" + tigers + ")";
      return info + hg_text(kMeadowValueText, {{"points", field_value(s, fi.root)}});
    }
    default:
      return hg_text(kSoFarText, {{"tiles", tiles}});
  }
}

std::vector<Panel> panels(const State& s) {
  Panel piles;
  piles.id = "piles";
  piles.title = hg_say("panel.piles.title", {{"pile", s.pile}, {"bonus", s.bonus_pile}});
  const std::string who = seat_ref(s.current);
  if (s.phase == Phase::Over) {
    // nothing is due any more
  } else if (s.in_extra) {
    piles.counters.emplace_back(hg_say("panel.piles.bonus_now"),
                                hg_say("panel.piles.bonus_now_text", {{"player", who}}));
  } else if (s.phase == Phase::Piece && completes_menhir_forest(s, false) && s.bonus_pile > 0) {
    piles.counters.emplace_back(hg_say("panel.piles.bonus_due"),
                                hg_say("panel.piles.bonus_due_text", {{"player", who}}));
  } else {
    piles.counters.emplace_back(hg_say("panel.piles.bonus"),
                                hg_say(s.bonus_pile > 0 ? "panel.piles.bonus_none" : "panel.piles.bonus_empty"));
  }
  piles.columns = {"seat", hg_say("panel.piles.supply"), hg_say("panel.piles.board")};  // "seat": the front ends' key
  for (int q = 0; q < s.nplayers; ++q) {
    std::array<int, 4> on{};  // tribe members by role: fishers (rivers), gatherers (forests), hunters (meadows); huts
    int huts = 0;
    for (const PieceOnBoard& pc : s.pieces) {
      if (pc.player != q) continue;
      if (pc.kind != 0) ++huts;
      else ++on[std::min<std::size_t>(s.graph[pc.seg].ftype, 3)];
    }
    std::vector<std::string> where;
    if (on[kRiver]) where.push_back(hg_count("fisher", on[kRiver]));
    if (on[kForest]) where.push_back(hg_count("gatherer", on[kForest]));
    if (on[kMeadow]) where.push_back(hg_count("hunter", on[kMeadow]));
    if (huts) where.push_back(hg_count("hut", huts));
    piles.rows.push_back({std::to_string(q),
                          fmt::format("{}, {}", hg_count("member", s.supply[static_cast<std::size_t>(q)]),
                                      hg_count("hut", s.supply2[static_cast<std::size_t>(q)])),
                          where.empty() ? std::string("-") : fmt::format("{}", fmt::join(where, ", "))});
  }
  return {piles};
}

}  // namespace

// This turn's tiles complete a forest with a menhir (a bonus turn follows a regular turn).
bool hunters_completes_menhir(const State& s) { return completes_menhir_forest(s, false); }

const GameDef& hunters() {
  static const GameDef def = [] {
    GameDef g;
    g.id = "hunters";
    g.title = "Carcassonne: Hunters & Gatherers";
    g.review_margin = 37.6;  // greedy against greedy: mean |margin| 37.6 points (median 31)
    // the widening at chance nodes lost in the arena here (docs/mcts.md, "Chance nodes"): 71.5% against
    // 79.5% without it over the same 100 deals at 2000 playouts
    g.search_widen = 0;
    g.win_scale[2] = 23.7;  // tools/calibrate_win.py, 60 games, 100 playouts: docs/mcts.md
    g.search_value = 2;     // measured in arena: docs/mcts.md "Fitted value"
    // each level wins about 75% against the one below (docs/mcts.md "Levels")
    g.levels = {"mcts:playouts=100,threads=1,slip=0.14", "mcts:playouts=100,threads=1,slip=0.06",
                "mcts:playouts=3000,threads=1"};
    g.search_value_horizon = 24;
    g.search_value_prior = 300;
    // the search's fitted value: `carcassonne fit-value --game hunters --players N --games 50000` (docs/mcts.md);
    // then fitted again on games of the one-ply bot that judges by the last fit (`--games 10000
    // --test-games 1000 --bots mcts:playouts=1,threads=1,value=2 --seed K00001`), K = 1..4 for 2
    // players, 1..2 for 3 and 4
    g.value_weights[2] = {11.95,   4.504, -2.39,  31.39, 6.56,   0.8511,  0,     0,      0,        0,      -1.374,
                          0.4225,  2.298, 0,      0,     -1.245, -0.2541, 4.689, -1.631, -0.09198, -1.241, 0.9466,
                          0.3699,  0,     0,      0,     0,      0,       0,     0,      0,        0,      0,
                          -0.7888, 28.38, -1.426, 2.557, 0,      0,       0,     0,      0,        0,      0};
    g.value_weights[3] = {7.638,  2.788, -0.4794, 20.08, 5.108,   -0.4492, 0,     0,       0,       0,      -0.8535,
                          0.1089, 2.553, 0,       0,     -0.8802, -0.2315, 4.782, -0.7327, -0.2246, -1.117, 2.82,
                          0.1269, 0,     0,       0,     0,       0,       0,     0,       0,       0,      0,
                          0.292,  18.11, -0.6864, 1.712, 0,       0,       0,     0,       0,       0,      0};
    g.value_weights[4] = {6.503,   0.4622, -0.4863, 16.52, 3.361,   -0.7573, 0,    0,       0,      0,       -0.8944,
                          -0.3782, 2.83,   0,       0,     -0.8854, -0.8154, 5.53, -0.7589, -0.344, -0.7896, 1.658,
                          0.1989,  0,      0,       0,     0,       0,       0,    0,       0,      0,       0,
                          0.02129, 16,     -0.7279, 1.752, 0,       0,       0,    0,       0,      0,       0};
    //                name     class          terrain claim done/tile done/attr final/tile final/attr symbols piece
    //                network
    g.ftypes = {
        {"river", FClass::Path, 1, true, 1, 1, 0, 0, {"fish"}, 0, 1, "fisher"},
        {"lake", FClass::Centre, 0, false, 0, 0, 0, 0, {"fish"}, 0, 1},
        {"forest", FClass::Area, 2, true, 2, 3, 0, 0, {"mushroom", "menhir"}, 0, 0xFF, "gatherer"},
        {"meadow", FClass::Field, 3, true, 0, 0, 0, 0, {"deer", "aurochs", "mammoth", "tiger"}, 0, 0xFF, "hunter"},
    };
    g.specials = {"canoe", "pit_trap", "shaman", "big_trap", "fire", "raft"};
    g.pieces_per_player = 5;
    g.pieces2_per_player = 3;
    g.piece_names = {"tribe member", "hut"};
    // a river system's huts, in the final scoring: record keys {tiles, attr, amount, cause}:
    // tiles = fish, attr = lakes, cause 1 if the raft counts them. Special events (bonus tiles,
    // special_effects): cause 1 canoe (tiles = lakes), 2 pit trap (tiles = animals, attr = deer
    // eaten).
    g.own_events = {{"network", {"fish", "lakes", "", ""}, "raft", true, true}};
    g.pass_text = "no tribe member or hut";
    g.choice_key = "shaman";
    // the shaman's return: none, or one of the player's tribe members (the cell of its tile and
    // the tile's local feature it stands on)
    g.action_blocks = {{"shaman_none", "the shaman returns no tribe member", MoveKind::Choose, 0xFF, false, 0, false, 0, false},
                       {"shaman_return", "the shaman returns the tribe member on local feature `feat` of the tile at the cell", MoveKind::Choose, 0xFF, true, 0, false, -2, false}};
    g.min_players = 2;
    g.max_players = 5;
    g.turn_actions = 3;  // the placement, the piece decision and the shaman's return (a bonus turn draws again)
    g.farm_points_per_city = 0;
    g.hooks.on_tile_placed = on_tile_placed;
    g.hooks.gen_choices = gen_choices;
    g.hooks.apply_choice = apply_choice;
    g.hooks.choice_text = choice_text;
    g.hooks.choice_parse = choice_parse;
    g.hooks.on_scoring = on_scoring;
    g.hooks.on_final_scoring = on_final_scoring;
    g.hooks.completion_bonus = completion_bonus;
    g.hooks.field_value = field_value;
    g.hooks.on_board_tile = on_board_tile;
    g.present.panels = panels;
    g.present.spot_text = spot_text;
    present_hunters(g);
    g.describe = describe;
    g.special_effects = {{}, {"canoe", "lakes", "", ""}, {"pit_trap", "animals", "deer_eaten", ""}};
    return g;
  }();
  return def;
}

}  // namespace carc::games
