// Carcassonne: Hunters & Gatherers, its presentation as data (GameDef::present): the shaman's
// choice and the menhir's bonus turn explained as panels, each shaman option's sentence and the
// tribe member it names, the shorthands a player may type for it, the help sections and the words
// of a turn's shaman. Front ends draw these; nothing here draws.
#include <fmt/format.h>

#include <algorithm>

#include "core/io.hpp"
#include "games/games.hpp"
#include "rules/words.hpp"

namespace carc::games {

// the game's look (src/games/hunters/look.json, compiled in: docs/look.md)
constexpr std::string_view kLook =
#include "look_hunters.inc"
    ;
constexpr std::string_view kMessages =
#include "messages_hunters.inc"
    ;

bool hunters_completes_menhir(const State& s);                      // hunters.cpp
std::string hg_say(std::string_view id, const MsgArgs& args = {});  // hunters.cpp: say() for the game's words

namespace {

// The feature type of a shaman option's tribe member (nullptr for none).
const FeatureTypeDef* member_type(const State& s, const Move& m) {
  const int ti = s.placed_at(m.x, m.y);
  if (m.feat == 0xFF || ti < 0) return nullptr;
  const PlacedTile& pt = s.tiles[static_cast<std::size_t>(ti)];
  return &s.rs->ftype(s.type_of(pt).feats[m.feat].type);
}
// A tribe member's role on its feature ("fisher"), else the piece's name, in the current language.
std::string role_word(const State& s, const FeatureTypeDef* fd) {
  const GameDef& g = *s.rs->game;
  return piece_word(g, fd && !fd->role.empty() ? fd->role : g.piece_names[0]);
}
std::string member_place(const State& s, const Move& m) {
  const PlacedTile& pt = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
  return fmt::format("{} at {},{}", feature_port(s, pt, m.feat), m.x, m.y);
}

std::vector<Panel> decision_panels(const State& s, bool) {
  Panel p;
  if (s.phase == Phase::Choose) {
    p.id = "shaman";
    p.counters.emplace_back(hg_say("shaman.title"), hg_say("shaman.text", {{"player", seat_ref(s.current)}}));
    return {p};
  }
  if (s.phase != Phase::Piece || s.in_extra || !hunters_completes_menhir(s)) return {};
  p.id = "menhir";
  p.counters.emplace_back(hg_say("menhir.title"), s.bonus_pile > 0
                                                      ? hg_say("menhir.bonus", {{"player", seat_ref(s.current)}})
                                                      : hg_say("menhir.empty"));
  return {p};
}

OptionInfo option_info(const State& s, const Move& m) {
  OptionInfo o;
  if (m.kind != MoveKind::Choose) return o;
  const FeatureTypeDef* fd = member_type(s, m);
  if (!fd) {
    o.text = hg_say("option.keep");
    return o;
  }
  const PlacedTile& pt = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
  o.target = OptionInfo::Target::Piece;
  o.x = m.x;
  o.y = m.y;
  o.local = m.feat;
  o.text =
      hg_say("option.member", {{"role", role_word(s, fd)}, {"spot", s.rs->game->present.spot_text(s, pt, m.feat)}});
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
      cell ? (is_port ? hg_say("where.port_cell", {{"port", upper(word)}, {"x", cell->first}, {"y", cell->second}})
                      : fmt::format("{},{}", cell->first, cell->second))
           : (is_port ? upper(word) : word);
  if (hits.empty()) throw InputError(hg_say("err.none_at", {{"what", what}, {"place", place}}));
  throw InputError(hg_say("err.several", {{"n", static_cast<int>(hits.size())},
                                          {"what", what},
                                          {"list", fmt::format("{}", fmt::join(places, hg_say("list.or")))}}));
}

// The shaman's choice as a turn's summary tells it.
std::string told(const State& s, MoveKind kind, std::string_view text, int, int) {
  if (kind != MoveKind::Choose) return printable(std::string(text));
  if (text == "none") return hg_say("told.shaman_none");
  const FeatureTypeDef* type = nullptr;  // the feature the tribe member stood on
  const auto at = text.find(" at ");
  const std::string_view cell = at == std::string_view::npos ? std::string_view() : text.substr(at + 4);
  const auto comma = cell.find(',');
  long long cx = 0, cy = 0;
  if (comma != std::string_view::npos && parse_int(cell.substr(0, comma), -128, 127, cx) &&
      parse_int(cell.substr(comma + 1), -128, 127, cy)) {
    const int ti = s.placed_at(static_cast<int>(cx), static_cast<int>(cy));
    const int f = ti < 0 ? -1 : feature_at_port(s, s.tiles[static_cast<std::size_t>(ti)], text.substr(0, at));
    if (f >= 0)
      type = &s.rs->ftype(s.type_of(s.tiles[static_cast<std::size_t>(ti)]).feats[static_cast<std::size_t>(f)].type);
  }
  return hg_say("told.shaman", {{"role", role_word(s, type)}, {"text", printable(std::string(text))}});
}

// The game's help sections in the current language (what to type stays the notation's).
// The words typed for a feature type, a role or a piece, in the player's language (the
// terminal takes these and the notation's English ones).
std::string typed_words(const GameDef& g) {
  std::vector<std::string> w;
  for (const FeatureTypeDef& fd : g.ftypes)
    if (fd.claimable) w.push_back(feature_word(g, fd.name));
  for (const FeatureTypeDef& fd : g.ftypes)
    if (!fd.role.empty()) w.push_back(say(g, "piece." + fd.role));
  w.push_back(piece_word(g, g.piece_names[1]));
  return fmt::format("{}", fmt::join(w, ", "));
}

std::vector<Panel> help(const GameDef& g) {
  Panel place;
  place.lines = {say(g, "help.end")};
  Panel shaman;
  shaman.title = say(g, "help.shaman.title");
  shaman.rows = {{"2", say(g, "help.shaman.number")},
                 {"N at 3,-1", say(g, "help.shaman.port")},
                 {"none", say(g, "help.shaman.none")}};
  Panel piece;
  piece.id = "piece";
  piece.title = say(g, "help.piece.title",
                    {{"piece", piece_word(g, g.piece_names[0])}, {"piece2", piece_word(g, g.piece_names[1])}});
  piece.rows = {{"PORT", say(g, "help.piece.port")},
                {"hut PORT", say(g, "help.piece.hut")},
                {typed_words(g), say(g, "help.piece.type")},
                {"none", say(g, "option.pass")}};
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
  {  // Presentation::help is one list, read by the terminal: English, whatever the language of the
     // thread that first asks for the game (help(g) says it in another)
    const i18n::Scope english(i18n::Lang::En);
    p.help = help(g);
  }
  p.help_in = help;
}

}  // namespace carc::games
