// Carcassonne: Amazonas, its presentation as data (GameDef::present): the double tile's choice
// explained as a panel, each option's tile and what it scores, the shorthands a player may type
// for it ("D2 180"), the help sections and the words of a turn's double tile. Front ends draw
// these; nothing here draws.
#include <fmt/format.h>

#include <algorithm>

#include "core/io.hpp"
#include "games/amazonas/amazonas_state.hpp"
#include "games/games.hpp"
#include "rules/words.hpp"

namespace carc::games {

// the game's look (src/games/amazonas/look.json, compiled in: docs/look.md)
constexpr std::string_view kLook =
#include "look_amazonas.inc"
    ;
constexpr std::string_view kMessages =
#include "messages_amazonas.inc"
    ;

std::string az_say(std::string_view id, const MsgArgs& args = {});  // amazonas.cpp: say() for the game's words

namespace {

// The Amazon: the feature type nobody claims that carries the creatures.
const FeatureTypeDef* water_type(const GameDef& g) {
  for (const auto& fd : g.ftypes)
    if (fd.cls == FClass::Path && !fd.claimable) return &fd;
  return nullptr;
}

// Creatures (by the Amazon's slots) of a tile type and, for a double tile, its second cell.
std::array<int, kAttrs> creatures(const Ruleset& rs, int type) {
  std::array<int, kAttrs> n{};
  for (int t = type, guard = 0; t >= 0 && t < static_cast<int>(rs.tiles.types.size()) && guard < 4; ++guard) {
    const TileType& tt = rs.tiles.types[static_cast<std::size_t>(t)];
    for (int f = 0; f < tt.nfeat; ++f) {
      const FeatureTypeDef& fd = rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
      if (fd.cls == FClass::Path && !fd.claimable)
        for (std::size_t k = 0; k < kAttrs; ++k) n[k] += tt.feats[static_cast<std::size_t>(f)].attr[k];
    }
    t = tt.east == 0xFF ? -1 : tt.east;
  }
  return n;
}

std::vector<Panel> decision_panels(const State& s, bool) {
  if (s.phase != Phase::Choose) return {};
  const int n = static_cast<int>(amazonas_aside_tiles(s).size());
  const int x = amazonas_state(s).front + 1;
  Panel p;
  p.id = "double_tile";
  p.counters.emplace_back(az_say("double.title"), az_say("double.text", {{"n", n}, {"x", x}, {"x2", x + 1}}));
  return {p};
}

OptionInfo option_info(const State& s, const Move& m) {
  OptionInfo o;
  if (m.kind != MoveKind::Choose) return o;
  o.target = OptionInfo::Target::Tile;
  o.tile = m.feat;
  o.rot = m.rot;
  o.located = true;  // it goes on the Amazon at front + 1 and front + 2 (decision_panels says so)
  o.x = amazonas_state(s).front + 1;
  o.y = 0;
  const FeatureTypeDef* wd = water_type(*s.rs->game);
  if (!wd) return o;
  const auto n = creatures(*s.rs, m.feat);  // caimans, piranhas
  const int second = wd->attrs.size() > 1 ? n[1] : 0;
  o.text =
      az_say("option.double", {{"caimans", n[0]}, {"piranhas", second}, {"first", n[0] + second}, {"second", second}});
  return o;
}

std::optional<int> to_rotation(std::string_view t) {
  if (!t.empty() && t[0] == 'r') t.remove_prefix(1);
  long long v = 0;
  if (!parse_int(t, 0, 270, v) || v % 90 != 0) return std::nullopt;
  return static_cast<int>(v);
}

// "D2 180", "d2 r180", "D2,0" (any case); "D2" alone asks for the rotation.
std::optional<Move> parse_alias(const State& s, std::string_view text) {
  if (s.phase != Phase::Choose) return std::nullopt;
  const std::vector<std::string> w = typed_words(text);
  int type = -1;  // the tile id in any case ("d1b": D1b)
  for (std::size_t t = 0; t < s.rs->tiles.types.size() && !w.empty(); ++t)
    if (upper(s.rs->tiles.types[t].id) == upper(w[0])) type = static_cast<int>(t);
  if (type < 0) return std::nullopt;  // not a tile id
  std::vector<std::string> ids;
  for (const u8 t : amazonas_aside_tiles(s)) ids.push_back(s.rs->tiles.types[t].id);
  const std::string& id = s.rs->tiles.types[static_cast<std::size_t>(type)].id;
  if (std::find(ids.begin(), ids.end(), id) == ids.end())
    throw InputError(
        az_say("err.not_aside", {{"id", printable(id)}, {"ids", printable(fmt::format("{}", fmt::join(ids, ", ")))}}));
  if (w.size() > 2) throw InputError(az_say("err.too_much", {{"id", printable(id)}}));
  if (w.size() == 1) throw InputError(az_say("err.add_rotation", {{"id", printable(id)}}));
  const auto rot = to_rotation(w[1]);
  if (!rot || (*rot != 0 && *rot != 180)) throw InputError(az_say("err.bad_rotation", {{"text", printable(w[1])}}));
  Move m;
  m.kind = MoveKind::Choose;
  m.player = s.current;
  m.feat = static_cast<u8>(type);
  m.rot = static_cast<u8>(*rot / 90);
  return m;
}

std::string told(const State&, MoveKind kind, std::string_view text, int, int) {
  return kind == MoveKind::Choose ? az_say("told.double", {{"text", printable(std::string(text))}})
                                  : printable(std::string(text));
}

// The game's help sections in the current language (what to type stays the notation's).
std::vector<Panel> help(const GameDef& g) {
  Panel place;
  place.lines = {say(g, "help.place")};
  Panel choose;
  choose.title = say(g, "help.choose.title");
  choose.rows = {{"D2 180", say(g, "help.choose.tile")}};
  return {place, choose};
}

}  // namespace

namespace {
// Each player's boat on its space of the track.
std::vector<Overlay> overlays(const State& s) {
  std::vector<Overlay> out;
  for (int p = 0; p < s.nplayers; ++p) {
    Overlay o;
    o.id = fmt::format("boat:{}", p);
    o.glyph = "track-piece";
    o.at = Overlay::At::Track;
    o.x = s.track[static_cast<std::size_t>(p)];
    o.seat = p;
    o.label = az_say("overlay.boat", {{"player", seat_ref(p)}, {"space", o.x}});
    out.push_back(std::move(o));
  }
  return out;
}
}  // namespace

void present_amazonas(GameDef& g) {
  Presentation& p = g.present;
  p.nouns = {{"boat", "boat icon"}};
  p.look = kLook;
  p.messages = kMessages;
  p.overlays = overlays;
  p.track_end = "the river mouth";
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
