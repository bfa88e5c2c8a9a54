// Carcassonne: Safari, its presentation as data (GameDef::present): the actions beside a
// photographer and the choices by any scorer explained as panels, each option's sentence and
// target, the shorthands a player may type for them, the help section and the words of a turn's
// actions. Front ends draw these; nothing here draws.
#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>

#include "core/io.hpp"
#include "games/games.hpp"
#include "games/safari/safari_state.hpp"
#include "rules/words.hpp"

namespace carc::games {

// the game's look (src/games/safari/look.json, compiled in: docs/look.md)
constexpr std::string_view kLook =
#include "look_safari.inc"
    ;
constexpr std::string_view kMessages =
#include "messages_safari.inc"
    ;

std::string cell_corner(int x, int y, int c);  // safari.cpp
const std::string& species_word(const State& s, int k);             // safari.cpp
std::string sf_say(std::string_view id, const MsgArgs& args = {});  // safari.cpp: say() for the game's words

namespace {

constexpr int kBush = 1;
constexpr int kBirdSlot = 5;

const std::string& species_name(int k) { return safari_species()[static_cast<std::size_t>(k)]; }


// A species by name, plural or first letter (lower case); -1 if none.
int species_from(std::string_view w) {
  for (int k = 0; k < kTokenKinds; ++k) {
    const std::string& n = species_name(k);
    if (w == n || w == n + "s" || (w.size() == 1 && w[0] == n[0])) return k;
  }
  return -1;
}

// "lion, zebra" from a bit per species; last_sep " or ": "monkey, lion or zebra".
std::string species_list(unsigned mask, std::string_view last_sep = ", ") {
  std::vector<std::string> names;
  for (int k = 0; k < kTokenKinds; ++k)
    if ((mask >> k) & 1u) names.push_back(species_name(k));
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? std::string(last_sep) : std::string(", ")) + names[i];
  return out;
}

// The same in the players' words ("лев, зебра"); or_last: "обезьяна, лев или зебра". The
// notation's words (what to type) stay species_list's.
std::string species_words(const State& s, unsigned mask, bool or_last = false) {
  std::vector<std::string> names;
  for (int k = 0; k < kTokenKinds; ++k)
    if ((mask >> k) & 1u) names.push_back(species_word(s, k));
  const std::string last = or_last ? sf_say("list.or") : std::string(", ");
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? std::string() : i + 1 == names.size() ? last : std::string(", ")) + names[i];
  return out;
}

unsigned hand_species(const State& s, int p) {
  unsigned m = 0;
  for (int k = 0; k < kTokenKinds; ++k)
    if (safari_state(s).tokens.hand[static_cast<std::size_t>(p)][static_cast<std::size_t>(k)]) m |= 1u << k;
  return m;
}
unsigned feature_species(const State& s, int root) {
  unsigned m = 0;
  for (int k = 0; k < kTokenKinds; ++k)
    if (s.graph[root].attr[static_cast<std::size_t>(k)]) m |= 1u << k;
  return m;
}
int feature_birds(const State& s, int root) { return s.graph[root].ftype == kBush ? s.graph[root].attr[kBirdSlot] : 0; }
unsigned spot_species(const Spot& sp) {
  unsigned m = 0;
  for (const u8 t : sp.token)
    if (t != 0xFF) m |= 1u << t;
  return m;
}
int first_species(unsigned mask) { return mask ? std::countr_zero(mask) : 0; }
int jeep_at(const State& s, int x, int y) {
  for (std::size_t j = 0; j < safari_state(s).markers.size(); ++j)
    if (safari_state(s).markers[j][0] != kOffBoard && safari_state(s).markers[j][0] == x &&
        safari_state(s).markers[j][1] == y)
      return static_cast<int>(j);
  return -1;
}
std::string quote(std::string_view t) {
  std::string out = printable(std::string(t.substr(0, 24)));
  if (t.size() > 24) out += "...";
  return "\"" + out + "\"";
}

// ---- the actions of a Piece decision, grouped ----

struct Quarter {
  int x = 0, y = 0, c = 0;  // the cell and its corner
  bool operator==(const Quarter&) const = default;
};
struct Actions {
  std::map<std::pair<int, int>, std::vector<Quarter>> found;  // point (y, x) -> free savanna corners
  unsigned found_species = 0;
  struct Hole {
    int spot = 0;
    std::vector<Quarter> quarters;
    unsigned species = 0;
  };
  std::vector<Hole> explore;
  struct Jeep {
    int x = 0, y = 0;
    std::vector<std::pair<int, int>> to;
  };
  std::vector<Jeep> jeeps;
  std::vector<Move> moves;
};

Actions actions_of(const State& s) {
  Actions a;
  if (s.phase != Phase::Piece) return a;
  MoveList ml;
  legal_moves(s, ml);
  for (const Move& m : ml) {
    if (m.kind != MoveKind::Act) continue;
    a.moves.push_back(m);
    if (m.pk == 1) {
      const auto& mk = safari_state(s).markers[m.rot & 1];
      auto it = std::find_if(a.jeeps.begin(), a.jeeps.end(),
                             [&](const Actions::Jeep& j) { return j.x == mk[0] && j.y == mk[1]; });
      if (it == a.jeeps.end()) {
        a.jeeps.push_back({mk[0], mk[1], {}});
        it = a.jeeps.end() - 1;
      }
      it->to.emplace_back(m.x, m.y);
      continue;
    }
    const Quarter q{m.x, m.y, m.rot};
    const int px = m.x + kCornerDx[m.rot & 3u], py = m.y + kCornerDy[m.rot & 3u];
    if (m.pk == 2) {
      auto& v = a.found[{py, px}];
      if (std::find(v.begin(), v.end(), q) == v.end()) v.push_back(q);
      a.found_species |= 1u << m.feat;
      continue;
    }
    const int si = find_spot(s, px, py);
    auto it = std::find_if(a.explore.begin(), a.explore.end(), [&](const Actions::Hole& h) { return h.spot == si; });
    if (it == a.explore.end()) {
      a.explore.push_back({si, {}, 0});
      it = a.explore.end() - 1;
    }
    if (std::find(it->quarters.begin(), it->quarters.end(), q) == it->quarters.end()) it->quarters.push_back(q);
    it->species |= 1u << m.feat;
  }
  for (auto& j : a.jeeps)
    std::sort(j.to.begin(), j.to.end(), [](auto p, auto q) {
      return std::pair{p.second, p.first} < std::pair{q.second, q.first};
    });
  return a;
}

std::string quarters_text(const std::vector<Quarter>& qs) {
  std::vector<std::string> parts;
  for (const Quarter& q : qs) parts.push_back(cell_corner(q.x, q.y, q.c));
  return fmt::format("{}", fmt::join(parts, " · "));
}

// The actions besides a photographer: found (by point), explore (by watering hole), jeep moves.
// Not full: only the points around this turn's tile, counts for the rest, and examples to type.
Panel actions_panel(const State& s, bool full) {
  const Actions a = actions_of(s);
  const int p = s.current;
  const unsigned hand = hand_species(s, p);
  Panel out;
  out.id = "actions";
  out.title = sf_say(full ? "actions.title_full" : "actions.title");
  out.columns = {"", ""};
  auto row = [&](std::string a1, std::string a2) { out.rows.push_back({std::move(a1), std::move(a2)}); };
  std::size_t corners = 0;
  for (const auto& [pt, qs] : a.found) corners += qs.size();
  if (!hand) {
    row("found", sf_say("actions.found_no_tokens"));
  } else if (s.supply[static_cast<std::size_t>(p)] == 0) {
    row("found", sf_say("actions.found_no_photographer"));
  } else if (a.found.empty()) {
    row("found", sf_say("actions.found_no_corner"));
  } else {
    row("found", sf_say("actions.found", {{"species", species_words(s, a.found_species, true)},
                                          {"corners", static_cast<int>(corners)},
                                          {"points", static_cast<int>(a.found.size())},
                                          {"end", full ? ":" : ""}}));
    const PlacedTile& t = s.tiles[std::min<std::size_t>(s.piece_from, s.tiles.size() - 1)];
    std::size_t shown = 0;
    for (const auto& [pt, qs] : a.found) {
      const int px = pt.second, py = pt.first;
      const bool near = px >= t.x && px <= t.x + 1 && py >= t.y && py <= t.y + 1;
      if (!full && !near) continue;
      if (!full && shown == 0) row("", sf_say("actions.around"));
      row("", sf_say("point.line", {{"x", px}, {"y", py}, {"list", quarters_text(qs)}}));
      ++shown;
    }
    if (!full && shown < a.found.size())
      row("", sf_say("actions.more", {{"n", static_cast<int>(a.found.size() - shown)}}));
  }
  if (!a.explore.empty()) {
    for (const auto& h : a.explore) {
      const Spot& sp = safari_state(s).spots[static_cast<std::size_t>(h.spot)];
      row("explore", sf_say("actions.explore", {{"x", sp.x},
                                                {"y", sp.y},
                                                {"there", species_words(s, spot_species(sp))},
                                                {"points", sp.ntokens + 3},
                                                {"species", species_words(s, h.species, true)},
                                                {"quarters", quarters_text(h.quarters)}}));
    }
  } else if (std::any_of(safari_state(s).spots.begin(), safari_state(s).spots.end(),
                         [](const Spot& sp) { return !sp.closed; })) {
    row("explore", sf_say(hand ? "actions.explore_none" : "actions.no_tokens"));
  }
  if (safari_state(s).marker_taken) {
    row("jeep", sf_say("actions.jeep_taken"));
  } else if (!a.jeeps.empty()) {
    std::vector<std::string> from;
    std::size_t cells = 0;
    for (const auto& j : a.jeeps) {
      from.push_back(fmt::format("{},{}", j.x, j.y));
      cells = std::max(cells, j.to.size());
    }
    row("jeep", sf_say("actions.jeep", {{"from", fmt::format("{}", fmt::join(from, sf_say("list.or")))},
                                        {"cells", static_cast<int>(cells)},
                                        {"end", full ? ":" : ""}}));
    if (full) {
      std::vector<std::string> to;
      for (const auto& [x, y] : a.jeeps[0].to) to.push_back(fmt::format("{},{}", x, y));
      for (std::size_t j = 1; j < a.jeeps.size(); ++j)  // the other jeep's cell is a target of the first jeep only
        for (const auto& [x, y] : a.jeeps[j].to)
          if (std::find(a.jeeps[0].to.begin(), a.jeeps[0].to.end(), std::pair{x, y}) == a.jeeps[0].to.end())
            to.push_back(sf_say("actions.jeep_only", {{"x", x}, {"y", y}, {"jx", a.jeeps[j].x}, {"jy", a.jeeps[j].y}}));
      row("", fmt::format("{}", fmt::join(to, "  ")));
    }
  }
  std::vector<std::string> ex;  // examples from the real options
  for (const int kind : {2, 3, 1}) {
    const auto it = std::find_if(a.moves.begin(), a.moves.end(), [&](const Move& m) { return m.pk == kind; });
    if (it == a.moves.end()) continue;
    if (kind == 1)
      ex.push_back(fmt::format("\"jeep {},{} to {},{}\"", safari_state(s).markers[it->rot & 1][0],
                               safari_state(s).markers[it->rot & 1][1], it->x, it->y));
    else
      ex.push_back(fmt::format("\"{} {} {}\"", kind == 2 ? "found" : "explore", species_name(it->feat),
                               cell_corner(it->x, it->y, it->rot)));
  }
  if (!ex.empty() && !full)
    out.lines.push_back(sf_say("actions.type", {{"examples", fmt::format("{}", fmt::join(ex, ", "))}}));
  return out;
}

// The completed trail or bush waiting for hand-ins: where it lies (its tiles' cells).
std::string feature_cells(const State& s, int root, std::size_t most = 6) {
  std::vector<std::pair<int, int>> cells;
  int m = root;
  do {
    const PlacedTile& t = s.tiles[s.graph[m].tile];
    if (std::find(cells.begin(), cells.end(), std::pair<int, int>{t.x, t.y}) == cells.end())
      cells.emplace_back(t.x, t.y);
    m = s.graph[m].next;
  } while (m != root);
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < cells.size() && i < most; ++i)
    parts.push_back(fmt::format("{},{}", cells[i].first, cells[i].second));
  if (cells.size() > most) parts.emplace_back("...");
  return fmt::format("{}", fmt::join(parts, " "));
}

int decider(const State& s) { return s.decider == 0xFF ? s.current : s.decider; }

// A token hand-in: the feature, who scores it, the rule, and what the other scorers did.
Panel handin_panel(const State& s) {
  const int root = safari_state(s).pend_root;
  const int d = decider(s);
  const FeatureTypeDef& fd = s.rs->ftype(s.graph[root].ftype);
  const unsigned sp = feature_species(s, root);
  const int n = std::popcount(sp), birds = feature_birds(s, root);
  const FeatureInfo fi = feature_info(s, root);
  std::string animals =
      n ? sf_say("species.listed", {{"list", species_words(s, sp)}, {"n", n}}) : sf_say("species.none");
  if (birds) animals += ", " + sf_say("birds.n", {{"n", birds}});
  Panel out;
  out.id = "hand_in";
  out.title = sf_say("handin.title", {{"feature", feature_word(*s.rs->game, fd.name)},
                                      {"tiles", fi.tiles},
                                      {"cells", feature_cells(s, root)},
                                      {"animals", animals}});
  out.lines.push_back(
      sf_say("handin.rule",
             {{"player", seat_ref(d)}, {"birds", fd.cls == FClass::Area ? sf_say("handin.per_bird") : std::string()}}));
  int best = 0;
  for (int p = 0; p < s.nplayers; ++p) best = std::max<int>(best, fi.pieces[static_cast<std::size_t>(p)]);
  std::vector<std::string> others;
  for (int p = 0; p < s.nplayers; ++p) {
    if (p == d || fi.pieces[static_cast<std::size_t>(p)] != best) continue;
    const u8 pick = safari_state(s).pend_pick[static_cast<std::size_t>(p)];
    const std::string what =
        pick != 0xFF
            ? sf_say("handin.handed", {{"article", article(species_name(pick))}, {"species", species_word(s, pick)}})
        : ((safari_state(s).pend_mask >> p) & 1u) ? sf_say("handin.decides")
                                                  : sf_say("handin.none");
    others.push_back(fmt::format("{{p{}}} ({})", p, what));
  }
  if (!others.empty())
    out.lines.push_back(sf_say("handin.also", {{"list", fmt::format("{}", fmt::join(others, ", "))}}));
  return out;
}

// The jeep taken this turn goes back on an empty cell.
Panel jeep_panel(const State& s) {
  MoveList ml;
  legal_moves(s, ml);
  const PlacedTile& t = s.tiles[std::min<std::size_t>(s.turn_first, s.tiles.size() - 1)];
  Panel out;
  out.id = "jeep";
  out.title = sf_say("jeep.title");
  out.lines.push_back(sf_say(
      "jeep.line", {{"player", seat_ref(s.current)}, {"x", t.x}, {"y", t.y}, {"cells", static_cast<int>(ml.size())}}));
  return out;
}

std::vector<Panel> decision_panels(const State& s, bool full) {
  if (s.phase == Phase::Piece) return {actions_panel(s, full)};
  if (s.phase != Phase::Choose) return {};
  return {safari_state(s).pend_root != 0xFFFF ? handin_panel(s) : jeep_panel(s)};
}

// The texts of the action options in every language, looked up once: a legal list holds hundreds of
// them (the protocol's legal reply), each then only formatted.
enum : std::size_t { kOptJeep, kOptFound, kOptExplore };
std::string option_say(std::size_t which, const MsgArgs& args) {
  static const auto texts = [] {
    std::array<std::array<std::string, 3>, i18n::kLangs> t;
    for (const i18n::Lang l : i18n::kEveryLang) {
      const i18n::Scope scope(l);
      const std::array<const char*, 3> ids = {"option.jeep", "option.found", "option.explore"};
      for (std::size_t k = 0; k < ids.size(); ++k) t[static_cast<std::size_t>(l)][k] = sf_say(ids[k], {});
    }
    return t;
  }();
  const i18n::Lang l = i18n::current();
  return i18n::format(texts[static_cast<std::size_t>(l)][which], args, l);
}

OptionInfo option_info(const State& s, const Move& m) {
  OptionInfo o;
  if (m.kind == MoveKind::Act) {
    o.target = OptionInfo::Target::Cell;
    o.x = m.x;
    o.y = m.y;
    const std::string_view corner = kCornerNames[static_cast<std::size_t>(m.rot) & 3];
    if (m.pk == 1) {
      o.text = option_say(kOptJeep, {{"fx", safari_state(s).markers[m.rot & 1][0]},
                                     {"fy", safari_state(s).markers[m.rot & 1][1]},
                                     {"x", m.x},
                                     {"y", m.y}});
      o.overlay = fmt::format(FMT_COMPILE("jeep:{}"), m.rot & 1);
    } else {
      // found and explore fill one quarter (the corner rot of cell x, y) of a grid point
      o.target = OptionInfo::Target::Point;
      o.px = m.x + kCornerDx[m.rot & 3u];
      o.py = m.y + kCornerDy[m.rot & 3u];
      const char* a = article(species_name(m.feat)) == "an" ? "an" : "a";
      if (m.pk == 2) {
        o.text = option_say(
            kOptFound,
            {{"article", a}, {"species", species_word(s, m.feat)}, {"x", m.x}, {"y", m.y}, {"corner", corner}});
      } else {
        const int si = find_spot(s, m.x + kCornerDx[m.rot & 3u], m.y + kCornerDy[m.rot & 3u]);
        o.overlay = fmt::format(FMT_COMPILE("watering-hole:{},{}"), m.x + kCornerDx[m.rot & 3u], m.y + kCornerDy[m.rot & 3u]);
        const int pts = si < 0 ? 4 : safari_state(s).spots[static_cast<std::size_t>(si)].ntokens + 3;
        o.text = option_say(kOptExplore, {{"article", a},
                                          {"species", species_word(s, m.feat)},
                                          {"x", m.x},
                                          {"y", m.y},
                                          {"corner", corner},
                                          {"points", pts}});
      }
    }
    return o;
  }
  if (m.kind != MoveKind::Choose) return o;
  if (safari_state(s).pend_root == 0xFFFF) {  // the taken jeep's new cell
    o.target = OptionInfo::Target::Cell;
    o.x = m.x;
    o.y = m.y;
    o.text = sf_say("option.jeep_to", {{"x", m.x}, {"y", m.y}});
    return o;
  }
  const int root = safari_state(s).pend_root, d = decider(s);
  const int n = std::popcount(feature_species(s, root)), birds = feature_birds(s, root);
  // offered at the feature handed in to: its tile placed last
  for (std::size_t ti = s.tiles.size(); ti-- > 0 && !o.located;) {
    const PlacedTile& pt = s.tiles[ti];
    for (int f = 0; f < s.type_of(pt).nfeat; ++f)
      if (s.graph.find(pt.seg0 + f) == s.graph.find(root)) {
        o.located = true;
        o.x = pt.x;
        o.y = pt.y;
        break;
      }
  }
  if (m.feat == 0xFF) {
    o.text = sf_say("option.keep", {{"points", safari_species_points(n) + birds}});
    return o;
  }
  o.target = OptionInfo::Target::Token;
  o.token = m.feat;
  o.text = sf_say("option.hand_in",
                  {{"points", safari_species_points(n + 1) + birds},
                   {"n", n + 1},
                   {"have", static_cast<int>(safari_state(s).tokens.hand[static_cast<std::size_t>(d)][m.feat])}});
  return o;
}

// ---- what a player types ----

// Why a found or explore at cell (x, y), corner c, with species `sp` is not possible (the first reason).
std::string hole_reason(const State& s, bool found, int x, int y, int c, int sp) {
  const int p = s.current;
  const int px = x + kCornerDx[static_cast<std::size_t>(c)], py = y + kCornerDy[static_cast<std::size_t>(c)];
  const std::string where = cell_corner(x, y, c);
  if (found && s.supply[static_cast<std::size_t>(p)] == 0) return sf_say("err.no_photographer");
  if (!safari_state(s).tokens.hand[static_cast<std::size_t>(p)][static_cast<std::size_t>(sp)]) {
    const unsigned h = hand_species(s, p);
    return h ? sf_say("err.no_such_token", {{"species", species_word(s, sp)}, {"list", species_words(s, h)}})
             : sf_say("err.no_tokens");
  }
  if (s.placed_at(x, y) < 0) return sf_say("err.no_tile", {{"x", x}, {"y", y}});
  const std::string_view corner = kCornerNames[static_cast<std::size_t>(c)];
  if (!corner_usable(s, x, y, c)) return sf_say("err.not_savanna", {{"corner", corner}, {"x", x}, {"y", y}});
  const int si = find_spot(s, px, py);
  auto taken = [&](const Spot& h) {
    const u8 t = h.token[static_cast<std::size_t>(c)];
    return sf_say("err.quarter_taken",
                  {{"where", where}, {"article", article(species_name(t))}, {"species", species_word(s, t)}});
  };
  if (found) {
    if (si < 0) return sf_say("err.not_possible");
    const Spot& h = safari_state(s).spots[static_cast<std::size_t>(si)];
    if (h.closed) return sf_say("err.hole_complete", {{"x", px}, {"y", py}});
    if (h.token[static_cast<std::size_t>(c)] != 0xFF) return taken(h);
    return sf_say("err.hole_exists", {{"x", px}, {"y", py}});
  }
  if (si < 0) return sf_say("err.no_hole", {{"px", px}, {"py", py}, {"corner", corner}, {"x", x}, {"y", y}});
  const Spot& h = safari_state(s).spots[static_cast<std::size_t>(si)];
  if (h.closed) return sf_say("err.hole_complete", {{"x", px}, {"y", py}});
  if (h.token[static_cast<std::size_t>(c)] != 0xFF) return taken(h);
  if ((spot_species(h) >> sp) & 1u) return sf_say("err.species_there", {{"species", species_word(s, sp)}});
  return sf_say("err.not_possible");
}

bool is_filler(const std::string& w) {
  static const std::array<std::string_view, 12> kFill = {"at", "on", "to",   "from", "the",    "token",
                                                         "an", "of", "with", "cell", "corner", "in"};
  return std::find(kFill.begin(), kFill.end(), w) != kFill.end();
}
std::optional<int> corner_from(const std::string& w) {
  for (int c = 0; c < 4; ++c)
    if (upper(w) == kCornerNames[static_cast<std::size_t>(c)]) return c;
  return std::nullopt;
}
std::string action_cmd(const std::string& l) {
  if (l == "jeep" || l == "j" || l == "move") return "jeep";
  if (l == "found" || l == "f" || l == "fo" || l == "founds") return "found";
  if (l == "explore" || l == "x" || l == "ex" || l == "exp" || l == "explores") return "explore";
  return "";
}

// The engine's text of an action, parsed and checked (InputError: why not).
Move action(const State& s, const std::string& canon) {
  const Move m = s.rs->game->hooks.action_parse(s, canon);
  if (!is_legal(s, m)) throw InputError(sf_say("err.not_possible"));
  return m;
}

// At the Piece decision: "found lion at 2,1 NE", "f l 2,1 ne", "x z 1,1 se", "j -2,0 3,1",
// "jeep 3,1" (one jeep on the board); the species or the corner may be left out when only one fits.
std::optional<Move> parse_action(const State& s, std::string_view text) {
  const auto w = typed_words(text);
  const std::string cmd = w.empty() ? std::string() : action_cmd(w[0]);
  if (cmd.empty()) return std::nullopt;
  std::vector<int> nums;
  std::vector<std::string> rest;
  for (std::size_t i = 1; i < w.size(); ++i) {
    if (is_filler(w[i]) || (cmd == "jeep" && w[i] == "jeep")) continue;
    if (const auto v = typed_int(w[i]))
      nums.push_back(*v);
    else
      rest.push_back(w[i]);
  }
  for (const int v : nums)
    if (v < -128 || v > 127) throw InputError(sf_say("err.off_map", {{"v", v}}));
  if (cmd == "jeep") {
    std::vector<std::pair<int, int>> on;
    for (const auto& mk : safari_state(s).markers)
      if (mk[0] != kOffBoard) on.emplace_back(mk[0], mk[1]);
    const std::string example =
        on.empty() ? std::string("jeep -2,0 to 3,1") : fmt::format("jeep {},{} to X,Y", on[0].first, on[0].second);
    if (!rest.empty() || (nums.size() != 2 && nums.size() != 4))
      throw InputError(sf_say("err.jeep_form", {{"example", example}}));
    if (safari_state(s).marker_taken) throw InputError(sf_say("err.jeep_taken"));
    std::pair<int, int> from;
    const std::pair<int, int> to{nums[nums.size() - 2], nums[nums.size() - 1]};
    if (nums.size() == 4) {
      from = {nums[0], nums[1]};
      if (jeep_at(s, from.first, from.second) < 0) {
        std::vector<std::string> cells;
        for (const auto& [x, y] : on) cells.push_back(fmt::format("{},{}", x, y));
        throw InputError(cells.empty() ? sf_say("err.no_jeep")
                                       : sf_say("err.no_jeep_at",
                                                {{"x", from.first},
                                                 {"y", from.second},
                                                 {"cells", fmt::format("{}", fmt::join(cells, sf_say("list.and")))}}));
      }
    } else if (on.size() == 1) {
      from = on[0];
    } else if (on.empty()) {
      throw InputError(sf_say("err.no_jeep"));
    } else {
      throw InputError(
          sf_say("err.which_jeep",
                 {{"a", fmt::format("jeep {},{} to {},{}", on[0].first, on[0].second, to.first, to.second)},
                  {"b", fmt::format("jeep {},{} to {},{}", on[1].first, on[1].second, to.first, to.second)}}));
    }
    if (s.placed_at(to.first, to.second) >= 0)
      throw InputError(sf_say("err.jeep_on_tile", {{"x", to.first}, {"y", to.second}}));
    if (jeep_at(s, to.first, to.second) >= 0)
      throw InputError(sf_say("err.jeep_there", {{"x", to.first}, {"y", to.second}}));
    if (!CellMap::in_range(to.first, to.second) || !(s.cells.get(to.first, to.second) & 0x8000))
      throw InputError(sf_say("err.not_next", {{"x", to.first}, {"y", to.second}}));
    return action(s, fmt::format("jeep from {},{} to {},{}", from.first, from.second, to.first, to.second));
  }
  const bool found = cmd == "found";
  int sp = -1;
  std::optional<int> corner;
  for (const auto& x : rest) {
    if (const auto c = corner_from(x))
      corner = c;
    else if (species_from(x) >= 0 && sp < 0)
      sp = species_from(x);
    else
      throw InputError(sf_say("err.what_word", {{"word", quote(x)}}));
  }
  if (nums.size() != 2)
    throw InputError(sf_say("err.cell_corner", {{"example", found ? "found lion 2,1 NE" : "explore zebra 1,1 SE"}}));
  const int x = nums[0], y = nums[1];
  const u8 pk = found ? 2 : 3;
  unsigned corners = 0, kinds = 0;  // what fits at that cell (corner, species) among the legal actions
  for (const Move& m : actions_of(s).moves) {
    if (m.pk != pk || m.x != x || m.y != y || (corner && m.rot != *corner) || (sp >= 0 && m.feat != sp)) continue;
    corners |= 1u << m.rot;
    kinds |= 1u << m.feat;
  }
  if (!corner) {
    if (std::popcount(corners) == 1) {
      corner = std::countr_zero(corners);
    } else if (corners) {
      std::vector<std::string> cs;
      for (int c = 0; c < 4; ++c)
        if ((corners >> c) & 1u) cs.push_back(cell_corner(x, y, c));
      throw InputError(sf_say("err.which_corner",
                              {{"x", x}, {"y", y}, {"list", fmt::format("{}", fmt::join(cs, sf_say("list.or")))}}));
    } else {
      throw InputError(
          sf_say("err.nowhere", {{"cmd", found ? "found" : "explore"},
                                 {"x", x},
                                 {"y", y},
                                 {"why", sf_say(s.placed_at(x, y) < 0 ? "err.nowhere_no_tile" : "err.nowhere_list")}}));
    }
  }
  if (sp < 0) {
    if (std::popcount(kinds) == 1) {
      sp = std::countr_zero(kinds);
    } else if (kinds) {
      throw InputError(sf_say("err.which_token", {{"list", species_list(kinds, sf_say("list.or"))},
                                                  {"example", fmt::format("{} {} {}", found ? "found" : "explore",
                                                                          species_name(first_species(kinds)),
                                                                          cell_corner(x, y, *corner))}}));
    } else {
      const unsigned h = hand_species(s, s.current);
      throw InputError(hole_reason(s, found, x, y, *corner, h ? first_species(h) : 0));
    }
  }
  try {
    return action(
        s, fmt::format("{} {} at {}", found ? "found" : "explore", species_name(sp), cell_corner(x, y, *corner)));
  } catch (const InputError& e) {
    throw InputError(std::string_view(e.what()) == sf_say("err.not_possible") ? hole_reason(s, found, x, y, *corner, sp)
                                                                              : std::string(e.what()));
  }
}

Move choice(const State& s, const std::string& canon) {
  const Move m = s.rs->game->hooks.choice_parse(s, canon);
  if (!is_legal(s, m)) throw InputError(sf_say("err.unavailable"));
  return m;
}

// At a hand-in: "lion", "l", "lions", "hand in lion", "none"; at the jeep's relocation: "3,1",
// "3 1", "jeep to 3,1".
std::optional<Move> parse_choice(const State& s, std::string_view text) {
  if (safari_state(s).pend_root != 0xFFFF) {
    const int d = decider(s);
    const unsigned on = feature_species(s, safari_state(s).pend_root), hand = hand_species(s, d);
    std::vector<std::string> w;
    for (const auto& x : typed_words(text))
      if (x != "hand" && x != "in" && x != "give" && x != "a" && x != "an" && x != "token") w.push_back(x);
    if (w.size() != 1) return std::nullopt;
    const std::string can = species_list(hand & ~on, ", ");  // what to type: the notation's words
    const std::string hint = can.empty() ? std::string("none") : sf_say("err.hint_none", {{"list", can}});
    static const std::array<std::string_view, 8> kNone = {"none", "no", "keep", "pass", "-", "skip", "nothing", "n"};
    if (std::find(kNone.begin(), kNone.end(), w[0]) != kNone.end()) return choice(s, "none");
    const int k = species_from(w[0]);
    if (k < 0) throw InputError(sf_say("err.not_species", {{"word", quote(w[0])}, {"hint", hint}}));
    const std::string name = feature_word(*s.rs->game, s.rs->ftype(s.graph[safari_state(s).pend_root].ftype).name);
    if ((on >> k) & 1u)
      throw InputError(sf_say(
          "err.already_on",
          {{"feature", name}, {"article", article(species_name(k))}, {"species", species_word(s, k)}, {"hint", hint}}));
    if (!((hand >> k) & 1u))
      throw InputError(sf_say("err.no_token_in_hand", {{"species", species_word(s, k)}, {"hint", hint}}));
    return choice(s, "hand in " + species_name(k));
  }
  std::vector<std::string> w;
  for (const auto& x : typed_words(text))
    if (x != "jeep" && x != "to" && x != "at" && x != "on" && x != "put" && x != "cell") w.push_back(x);
  if (w.size() != 2 || !typed_int(w[0]) || !typed_int(w[1])) return std::nullopt;
  const int x = *typed_int(w[0]), y = *typed_int(w[1]);
  MoveList ml;
  legal_moves(s, ml);
  if (std::none_of(ml.begin(), ml.end(), [&](const Move& m) { return m.x == x && m.y == y; })) {
    const std::string example = ml.empty() ? std::string("3,1") : fmt::format("{},{}", ml[0].x, ml[0].y);
    if (s.placed_at(x, y) >= 0) throw InputError(sf_say("err.jeep_to_tile", {{"x", x}, {"y", y}}));
    if (jeep_at(s, x, y) >= 0) throw InputError(sf_say("err.other_jeep", {{"x", x}, {"y", y}}));
    throw InputError(sf_say("err.not_next_eg", {{"x", x}, {"y", y}, {"example", example}}));
  }
  return choice(s, fmt::format("jeep to {},{}", x, y));
}

std::optional<Move> parse_alias(const State& s, std::string_view text) {
  if (s.phase == Phase::Piece) return parse_action(s, text);
  if (s.phase == Phase::Choose) return parse_choice(s, text);
  return std::nullopt;
}

// A recorded action or choice, as a turn's summary tells it.
std::string told(const State& s, MoveKind kind, std::string_view text, int x, int y) {
  const std::string a = printable(std::string(text));
  if (kind == MoveKind::Choose) {
    if (a.rfind("jeep to ", 0) == 0) return sf_say("told.jeep_back", {{"x", x}, {"y", y}, {"to", a.substr(8)}});
    return "";  // a hand-in: its score event says it
  }
  if (a.rfind("jeep from ", 0) == 0) {  // "jeep from -2,0 to 3,1"
    const auto to = a.find(" to ", 10);
    if (to != std::string::npos)
      return sf_say("told.jeep", {{"from", a.substr(10, to - 10)}, {"to", a.substr(to + 4)}});
  }
  if (a.rfind("jeep ", 0) == 0) return "moved a " + a;  // not the engine's text: as it is
  const bool found = a.rfind("found ", 0) == 0;
  if (!found && a.rfind("explore ", 0) != 0) return a;
  const std::string r = a.substr(found ? 6 : 8);  // "lion at 2,1 NE"
  const auto sp = r.find(' ');
  const std::string name = r.substr(0, sp);
  const int k = species_from(name);
  if (sp != std::string::npos && r.compare(sp, 4, " at ") == 0 && k >= 0 && name == species_name(k))
    return sf_say(found ? "told.found" : "told.explore",
                  {{"article", article(name)}, {"species", species_word(s, k)}, {"where", r.substr(sp + 4)}});
  return fmt::format("{} a watering hole with {} {} token{}", found ? "founded" : "explored", article(name), name,
                     sp == std::string::npos ? std::string() : r.substr(sp));  // not the engine's text: as it is
}

// The game's help sections in the current language (what to type stays the notation's).
std::vector<Panel> help(const GameDef& g) {
  Panel place;
  place.lines = {say(g, "help.jeep_cell")};
  Panel piece;
  piece.id = "piece";
  piece.title = say(g, "help.piece.title");
  piece.rows = {
      {"PORT", say(g, "help.piece.port")},
      {fmt::format("{}, {}, {}", feature_word(g, "trail"), feature_word(g, "bush"), feature_word(g, "baobab")),
       say(g, "help.piece.type")},
      {"found SPECIES X,Y CORNER", say(g, "help.piece.found")},
      {"explore SPECIES X,Y CORNER", say(g, "help.piece.explore")},
      {"jeep X,Y to X,Y", say(g, "help.piece.jeep")},
      {"actions", say(g, "help.piece.actions")},
      {"none", say(g, "option.pass")},
  };
  piece.lines = {say(g, "help.piece.short"), say(g, "help.piece.point")};
  Panel handin;
  handin.title = say(g, "help.handin.title");
  handin.rows = {{"SPECIES", say(g, "help.handin.species")}, {"none", say(g, "help.handin.none")}};
  Panel jeep;
  jeep.title = say(g, "help.jeep.title");
  jeep.rows = {{"X,Y", say(g, "help.jeep.cell")}};
  return {place, piece, handin, jeep};
}

// ---- what stands on the board: the jeeps and the watering holes ----

// A watering hole's quarter c is corner c of the cell touching its point: that cell lies toward
// (quarter_dx, quarter_dy) from the point. The look's quarter glyphs are drawn for quarter 0 (its
// cell south-west of the point) and turned 90 degrees per quarter.
int quarter_dx(int c) { return 1 - 2 * kCornerDx[static_cast<std::size_t>(c)]; }
int quarter_dy(int c) { return 1 - 2 * kCornerDy[static_cast<std::size_t>(c)]; }
constexpr double kTokenOff = 0.16, kPieceOff = 0.31;

std::vector<Overlay> overlays(const State& s) {
  std::vector<Overlay> out;
  for (std::size_t j = 0; j < safari_state(s).markers.size(); ++j) {
    const int x = safari_state(s).markers[j][0], y = safari_state(s).markers[j][1];
    if (x == kOffBoard) continue;
    Overlay o;
    o.id = fmt::format("jeep:{}", j);
    o.glyph = "jeep";
    o.x = x;
    o.y = y;
    o.label = sf_say("overlay.jeep", {{"x", x}, {"y", y}});
    out.push_back(std::move(o));
  }
  for (const Spot& sp : safari_state(s).spots) {
    Overlay o;
    o.id = fmt::format("watering-hole:{},{}", sp.x, sp.y);
    o.at = Overlay::At::Point;
    o.x = sp.x;
    o.y = sp.y;
    o.done = sp.closed != 0;
    std::string what;
    for (int c = 0; c < 4; ++c) {
      const auto ci = static_cast<std::size_t>(c);
      if (sp.token[ci] == 0xFF) continue;
      if (!what.empty()) what += ", ";
      what += sf_say("hole.token", {{"species", species_word(s, sp.token[ci])},
                                    {"where", cell_corner(sp.x - kCornerDx[ci], sp.y - kCornerDy[ci], c)}});
      if (sp.owner[ci] != 0xFF) what += sf_say("hole.photographer", {{"player", seat_ref(sp.owner[ci])}});
    }
    o.label = sf_say(o.done ? "overlay.hole_complete" : "overlay.hole", {{"x", sp.x}, {"y", sp.y}, {"what", what}});
    if (o.done) o.parts.push_back({"pond-complete", 0, 0, 0, -1, sf_say("overlay.complete")});
    for (int c = 0; c < 4; ++c)
      o.parts.push_back({quarter_usable(s, sp.x, sp.y, c) ? "pond-quarter" : "pond-quarter-unusable", 0, 0, 90 * c, -1, ""});
    for (int c = 0; c < 4; ++c) {
      const auto ci = static_cast<std::size_t>(c);
      if (sp.token[ci] == 0xFF || sp.token[ci] >= kTokenKinds) continue;
      o.parts.push_back(
          {"token-" + species_name(sp.token[ci]), quarter_dx(c) * kTokenOff, quarter_dy(c) * kTokenOff, 0, -1,
           sf_say("overlay.token", {{"species", species_word(s, sp.token[ci])},
                                    {"where", cell_corner(sp.x - kCornerDx[ci], sp.y - kCornerDy[ci], c)}})});
    }
    for (int c = 0; c < 4; ++c) {
      const u8 owner = sp.owner[static_cast<std::size_t>(c)];
      if (owner == 0xFF) continue;
      o.parts.push_back({"pond-claim", 0, 0, 90 * c, owner, ""});
      o.parts.push_back({"photographer", quarter_dx(c) * kPieceOff, quarter_dy(c) * kPieceOff, 0, owner,
                         sf_say("overlay.photographer", {{"player", seat_ref(owner)}})});
    }
    out.push_back(std::move(o));
  }
  return out;
}

// The token piles, the jeeps and the watering holes in three short lines.
std::vector<std::string> summary(const State& s) {
  int pile = 0, discard = 0;
  for (int k = 0; k < kTokenKinds; ++k) {
    pile += safari_state(s).tokens.pile[static_cast<std::size_t>(k)];
    discard += safari_state(s).tokens.discard[static_cast<std::size_t>(k)];
  }
  std::vector<std::string> jeeps;
  int taken = 0;
  for (const auto& m : safari_state(s).markers) {
    if (m[0] == kOffBoard) ++taken;
    else jeeps.push_back(fmt::format("{},{}", m[0], m[1]));
  }
  std::string jeep_line =
      jeeps.empty() ? sf_say("summary.jeeps_none")
                    : sf_say("summary.jeeps", {{"n", static_cast<int>(jeeps.size())},
                                               {"cells", fmt::format("{}", fmt::join(jeeps, sf_say("list.and")))}});
  if (taken > 0 && !jeeps.empty()) jeep_line += sf_say("summary.jeeps_off", {{"n", taken}});
  int closed = 0;
  for (const Spot& sp : safari_state(s).spots) closed += sp.closed ? 1 : 0;
  return {sf_say("summary.tokens", {{"pile", pile}, {"discard", discard}}), jeep_line,
          sf_say("summary.holes", {{"n", static_cast<int>(safari_state(s).spots.size())}, {"closed", closed}})};
}

}  // namespace

void present_safari(GameDef& g) {
  Presentation& p = g.present;
  p.look = kLook;
  p.messages = kMessages;
  p.overlays = overlays;
  p.summary = summary;
  p.hand_noun = "token";
  p.marker_text = "a tile placed there takes the jeep: +3, then you put it on another empty cell";
  p.decision_panels = decision_panels;
  p.option_info = option_info;
  p.parse_alias = parse_alias;
  p.told = told;
  {  // Presentation::help is one list, read by the terminal: English, whatever the language of the
     // thread that first asks for the game (help(g) says it in another)
    const i18n::Scope english(i18n::Lang::En);
    p.help = help(g);
  }
  p.help_in = help;
}

}  // namespace carc::games
