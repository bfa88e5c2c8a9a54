// Carcassonne: Hunters & Gatherers, its presentation as data (GameDef::present): the shaman's
// choice and the menhir's bonus turn explained as panels, each shaman option's sentence and the
// tribe member it names, the shorthands a player may type for it, the help sections and the words
// of a turn's shaman. Front ends draw these; nothing here draws.
#include <fmt/format.h>

#include <algorithm>

#include "core/io.hpp"
#include "games/games.hpp"

namespace carc::games {

// the game's look (src/games/hunters/look.json, compiled in: docs/look.md)
constexpr std::string_view kLook =
#include "look_hunters.inc"
    ;
constexpr std::string_view kMessages =
#include "messages_hunters.inc"
    ;

bool hunters_completes_menhir(const State& s);  // hunters.cpp

namespace {

// The feature type of a shaman option's tribe member (nullptr for none).
const FeatureTypeDef* member_type(const State& s, const Move& m) {
  const int ti = s.placed_at(m.x, m.y);
  if (m.feat == 0xFF || ti < 0) return nullptr;
  const PlacedTile& pt = s.tiles[static_cast<std::size_t>(ti)];
  return &s.rs->ftype(s.type_of(pt).feats[m.feat].type);
}
std::string member_place(const State& s, const Move& m) {
  const PlacedTile& pt = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
  return fmt::format("{} at {},{}", feature_port(s, pt, m.feat), m.x, m.y);
}

std::vector<Panel> decision_panels(const State& s, bool) {
  Panel p;
  if (s.phase == Phase::Choose) {
    p.id = "shaman";
    p.counters.emplace_back("Shaman",
                            "before placing a piece, {p" + std::to_string(s.current) +
                                "} may send one of their tribe members home, from anywhere on the board (not a hut). "
                                "It goes back to the supply and scores nothing.");
    return {p};
  }
  if (s.phase != Phase::Piece || s.in_extra || !hunters_completes_menhir(s)) return {};
  p.id = "menhir";
  p.counters.emplace_back(
      "Menhir", s.bonus_pile > 0
                    ? "this tile completes a forest with a menhir: after this turn, a bonus tile and an "
                      "extra turn for {p" +
                          std::to_string(s.current) + "}."
                    : std::string("this tile completes a forest with a menhir, but the bonus pile is empty."));
  return {p};
}

OptionInfo option_info(const State& s, const Move& m) {
  OptionInfo o;
  if (m.kind != MoveKind::Choose) return o;
  const FeatureTypeDef* fd = member_type(s, m);
  if (!fd) {
    o.text = "keep them all where they are";
    return o;
  }
  const PlacedTile& pt = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
  o.target = OptionInfo::Target::Piece;
  o.x = m.x;
  o.y = m.y;
  o.local = m.feat;
  o.text = fmt::format("{}: {}", fd->role.empty() ? s.rs->game->piece_names[0] : fd->role,
                       s.rs->game->present.spot_text(s, pt, m.feat));
  return o;
}

// The shaman: "N at 3,-1", "N 3 -1", "3,-1 N", "3,-1" (one member there), a role or type
// ("fisher", "river": the only one there), or none.
std::optional<Move> parse_alias(const State& s, std::string_view text) {
  if (s.phase != Phase::Choose) return std::nullopt;
  MoveList ml;
  legal_moves(s, ml);
  std::vector<Move> opts;
  Move none;
  for (const Move& m : ml) {
    if (m.feat == 0xFF)
      none = m;
    else
      opts.push_back(m);
  }
  auto w = typed_words(text);
  if (w.size() == 1 &&
      (w[0] == "none" || w[0] == "no" || w[0] == "pass" || w[0] == "-" || w[0] == "skip" || w[0] == "keep"))
    return none;
  std::optional<std::pair<int, int>> cell;
  std::vector<std::string> rest, nums;
  for (const auto& x : w) {
    if (x == "at" || x == "on") continue;
    if (typed_int(x))
      nums.push_back(x);
    else
      rest.push_back(x);
  }
  if (nums.size() == 2) cell = std::pair{*typed_int(nums[0]), *typed_int(nums[1])};
  const std::string word = rest.size() == 1 ? rest[0] : std::string();
  const bool is_port = !word.empty() && port_from_name(upper(word)).has_value();
  bool known = is_port;
  for (const auto& fd : s.rs->game->ftypes)
    known |= !word.empty() && (word == fd.name || word == plural_noun(fd.name) ||
                               (!fd.role.empty() && (word == fd.role || word == fd.role + "s")));
  // not the shaman's forms: a number (the terminal's list), several words, an unknown word
  if ((!nums.empty() && !cell) || rest.size() > 1 || (!word.empty() && !known) || (!cell && word.empty()))
    return std::nullopt;
  const std::string place = opts.empty() ? std::string("\"N at 3,-1\"") : "\"" + member_place(s, opts[0]) + "\"";
  std::vector<const Move*> hits;
  for (const auto& o : opts) {
    const PlacedTile& pt = s.tiles[static_cast<std::size_t>(s.placed_at(o.x, o.y))];
    if (cell && (o.x != cell->first || o.y != cell->second)) continue;
    if (is_port) {
      if (feature_at_port(s, pt, upper(word)) != o.feat) continue;
    } else if (!word.empty()) {
      const FeatureTypeDef& fd = *member_type(s, o);
      if (word != fd.name && word != plural_noun(fd.name) && word != fd.role && word != fd.role + "s") continue;
    }
    hits.push_back(&o);
  }
  if (hits.size() == 1) return *hits[0];
  std::vector<std::string> places;
  for (const auto* o : hits) places.push_back("\"" + member_place(s, *o) + "\"");
  const std::string what =
      cell ? fmt::format("{}{},{}", is_port ? upper(word) + " at " : std::string(), cell->first, cell->second)
           : (is_port ? upper(word) : word);
  if (hits.empty())
    throw InputError(fmt::format("none of your tribe members stands at {} (see the list; e.g. {})", what, place));
  throw InputError(
      fmt::format("{} of your tribe members match {}: type {}", hits.size(), what, fmt::join(places, " or ")));
}

// The shaman's choice as a turn's summary tells it.
std::string told(const State& s, MoveKind kind, std::string_view text, int, int) {
  if (kind != MoveKind::Choose) return printable(std::string(text));
  if (text == "none") return "the shaman sends nobody home";
  std::string role = s.rs->game->piece_names[0];
  const auto at = text.find(" at ");
  const std::string_view cell = at == std::string_view::npos ? std::string_view() : text.substr(at + 4);
  const auto comma = cell.find(',');
  long long cx = 0, cy = 0;
  if (comma != std::string_view::npos && parse_int(cell.substr(0, comma), -128, 127, cx) &&
      parse_int(cell.substr(comma + 1), -128, 127, cy)) {
    const int ti = s.placed_at(static_cast<int>(cx), static_cast<int>(cy));
    const int f = ti < 0 ? -1 : feature_at_port(s, s.tiles[static_cast<std::size_t>(ti)], text.substr(0, at));
    if (f >= 0) {
      const auto& fd =
          s.rs->ftype(s.type_of(s.tiles[static_cast<std::size_t>(ti)]).feats[static_cast<std::size_t>(f)].type);
      if (!fd.role.empty()) role = fd.role;
    }
  }
  return fmt::format("the shaman sends a {} home ({})", role, printable(std::string(text)));
}

std::vector<Panel> help(const GameDef& g) {
  Panel place;
  place.lines = {
      "The game ends when the regular pile is empty. A regular tile that completes a forest with a menhir earns a "
      "bonus turn: "
      "draw a bonus tile and play again."};
  Panel shaman;
  shaman.title = "The shaman (a bonus tile): first you may send one of your tribe members home:";
  shaman.rows = {{"2", "the tribe member numbered 2 in the list shown"},
                 {"N at 3,-1", "the one at port N of the tile at 3,-1"},
                 {"none", "keep them all"}};
  Panel piece;
  piece.id = "piece";
  piece.title = fmt::format("Placing a {} or a {} (after the tile):", g.piece_names[0], g.piece_names[1]);
  piece.rows = {
      {"PORT",
       "a tribe member on the feature at that port: N E S W NNE ENE ... (see below): a fisher on a river, a gatherer "
       "in a "
       "forest, a hunter in a meadow; never on a lake"},
      {"hut PORT",
       "a hut on the river system through the river or lake at that port (also \"PORT hut\"); huts stay to the end: "
       "1 point per fish in the whole system for the most huts there"},
      {"river, forest, meadow, fisher, gatherer, hunter, hut",
       "the free spot of that type (or for that piece), if just one"},
      {"none", g.pass_text}};
  return {place, shaman, piece};
}

}  // namespace

void present_hunters(GameDef& g) {
  Presentation& p = g.present;
  p.look = kLook;
  p.messages = kMessages;
  p.nouns = {{"mushroom", "mushroom glade"}};
  p.network_name = "river system";
  p.extra_turn = "Menhir! A bonus tile and an extra turn for {p}.";
  p.decision_panels = decision_panels;
  p.option_info = option_info;
  p.parse_alias = parse_alias;
  p.told = told;
  p.help = help(g);
}

}  // namespace carc::games
