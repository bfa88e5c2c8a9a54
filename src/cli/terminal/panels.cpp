// The text beside the board: piece spots, scores, the game's panels and decision, hands, the end.
#include "cli/terminal/panels.hpp"
#include "cli/terminal/common.hpp"
#include "cli/terminal/words.hpp"
#include "core/io.hpp"
#include "view/look.hpp"
#include "view/view.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <map>

namespace carc::cli {

using namespace term;

std::string fit_columns(const std::string& s, int columns) {
  if (display_columns(s) <= columns) return s;
  std::string out;
  for (std::size_t n = 1;; ++n) {  // the longest prefix that leaves a column for the ellipsis
    std::string next = utf8_prefix(s, n);
    if (next.size() == out.size() || display_columns(next) > columns - 1) break;
    out = std::move(next);
  }
  // marks that belong to the last character kept stay with it
  return out + "\u2026";
}

std::string player_name(const std::vector<PlayerInfo>& players, int p, bool color, bool full) {
  // a name comes from a record: control characters are shown as escapes, never sent to the terminal
  // at most kNameColumns columns: a long name never pushes a line past the terminal's width
  const std::string name =
      p >= 0 && static_cast<std::size_t>(p) < players.size()
          ? fit_columns(printable(players[static_cast<std::size_t>(p)].name), full ? 1 << 20 : kNameColumns)
          : fmt::format("player {}", p + 1);
  if (!color || p < 0 || p >= kMaxPlayers) return name;
  return fmt::format("\x1b[1;38;5;{}m{}\x1b[0m", kPlayerText[static_cast<std::size_t>(p)], name);
}

namespace term {

std::string capitalized(std::string w) {
  if (!w.empty()) w[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(w[0])));
  return w;
}

// How a symbol is named in text: the game's noun for it (Presentation::nouns), else its name
// ("big_stone": "big stone").
std::string symbol_noun(const GameDef& g, const std::string& name) {
  for (const auto& [n, noun] : g.present.nouns)
    if (n == name) return noun;
  std::string out = name;
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

std::string count_of(int n, const std::string& noun) { return plural(n, noun, plural_of(noun)); }

namespace {
std::string key_of(std::string_view kind, const std::string& name) {
  std::string k = fmt::format("{}.{}", kind, name);
  std::replace(k.begin(), k.end(), ' ', '_');
  return k;
}
}  // namespace

std::string term_noun(const GameDef& g, const std::string& name) {
  return has_message(g, key_of("noun", name)) ? carc::noun_word(g, name) : symbol_noun(g, name);
}

std::string noun_count(const GameDef& g, const std::string& name, int n) {
  const std::string id = key_of("symbol", name);
  return has_message(g, id) ? carc::say(g, id, {{"n", n}}) : count_of(n, symbol_noun(g, name));
}

std::string noun_plural(const GameDef& g, const std::string& name) {
  const std::string id = key_of("symbol", name);
  if (!has_message(g, id)) return plural_of(symbol_noun(g, name));
  std::string five = carc::say(g, id, {{"n", 5}});  // the form for many, without its number
  if (five.rfind("5 ", 0) == 0) five.erase(0, 2);
  return five;
}

std::string network_word(const GameDef& g) {
  return has_message(g, "network.name") ? carc::say(g, "network.name") : g.present.network_name;
}

std::string role_word(const GameDef& g, const std::string& role) {
  const std::string id = key_of("role", role);
  if (has_message(g, id)) return carc::say(g, id);
  return has_message(g, key_of("piece", role)) ? carc::say(g, key_of("piece", role)) : role;
}

std::string plural_word(const GameDef& g, const std::string& name) {
  const std::string id = key_of("plural", name);
  return has_message(g, id) ? carc::say(g, id) : plural_of(symbol_noun(g, name));
}

std::string pass_word(const GameDef& g) {
  return has_message(g, "option.pass") ? carc::say(g, "option.pass") : g.pass_text;
}

std::string piece_count(const std::string& piece, int n) {
  return i18n::current() == i18n::Lang::En ? count_of(n, piece) : std::to_string(n);
}

// ---- Networks: features joined through others, claimed by a second kind of piece -------------

// A game whose features join networks claimed by a second kind of piece.
bool has_networks(const GameDef& g) {
  return std::any_of(g.ftypes.begin(), g.ftypes.end(),
                     [](const FeatureTypeDef& fd) { return fd.network_kind != 0xFF; });
}

// A network: its first symbol and its unclaimable centre features ("5 SYMBOLS, 2 CENTRES"), and
// the specials it carries ("with the SPECIAL").
std::string network_text(const State& s, int net) {
  const GameDef& g = *s.rs->game;
  const Segment& n = s.graph[net];
  std::string symbol = "symbol", centre = "centre";
  for (const FeatureTypeDef& fd : g.ftypes) {
    if (fd.network_kind == 0xFF) continue;
    if (!fd.attrs.empty() && symbol == "symbol") symbol = fd.attrs[0];
    if (fd.cls == FClass::Centre) centre = fd.name;
  }
  std::string t = fmt::format("{}, {}", noun_count(g, symbol, n.net_attr), noun_count(g, centre, n.net_centres));
  for (std::size_t k = 0; k < g.specials.size() && k < 8; ++k)
    if ((n.net_flags >> k) & 1u) t += cli_say("net.with", {{"special", term_noun(g, g.specials[k])}});
  return t;
}

// The feature types a piece of kind k claims networks through: "TYPE or TYPE", as the object of
// "on" ("на реку или озеро": feature.<name>.acc).
std::string network_types(const GameDef& g, int k) {
  std::vector<std::string> on;
  for (const FeatureTypeDef& fd : g.ftypes)
    if (fd.network_kind == k) on.push_back(feature_form(g, fd.name, "acc"));
  return fmt::format("{}", fmt::join(on, cli_say("list.or_word")));
}

// The players with pieces on a network: "Ann, greedy" ("" when none).
std::string network_owners(const State& s, int net, const std::vector<PlayerInfo>& players, bool color) {
  std::vector<std::string> who;
  for (int p = 0; p < s.nplayers; ++p) {
    const int n = s.graph[net].net_pieces[static_cast<std::size_t>(p)];
    if (n > 0) who.push_back(player_name(players, p, color) + (n > 1 ? fmt::format(" ({})", n) : ""));
  }
  return fmt::format("{}", fmt::join(who, ", "));
}

// ---- Layout helpers ----------------------------------------------------------------------------

std::string level_word(const std::string& level) {
  const std::string lv = lower(level);
  return lv == "easy" || lv == "normal" || lv == "hard" ? carc::say("bot.level." + lv) : level;
}

bool is_you(const std::vector<PlayerInfo>& players, int p) {
  return p >= 0 && static_cast<std::size_t>(p) < players.size() &&
         players[static_cast<std::size_t>(p)].name == cli_say("name.you");
}

// "Ann scores" / "You score": a player's name and the verb agreeing with it.
std::string who_verb(const std::vector<PlayerInfo>& players, int p, bool color, std::string_view you_verb,
                     std::string_view verb) {
  const bool you = is_you(players, p);
  const std::string_view v = you ? you_verb : verb;  // English's: the pseudo-locale shows it altered
  return fmt::format("{} {}", player_name(players, p, color),
                     i18n::current() == i18n::Lang::Xx ? i18n::pseudo(v) : std::string(v));
}

// Lines of items (each kept whole) separated by `sep`, each line starting with `indent` spaces.
std::string pack(const std::vector<std::string>& items, int indent, int width, std::string_view sep) {
  std::string out, line;
  for (const auto& it : items) {
    if (!line.empty() && indent + display_width(line) + static_cast<int>(sep.size()) + display_width(it) > width) {
      out += std::string(static_cast<std::size_t>(indent), ' ') + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : std::string(sep)) + it;
  }
  if (!line.empty()) out += std::string(static_cast<std::size_t>(indent), ' ') + line + "\n";
  return out;
}

// What a free spot is worth now and what taking it does.
std::string spot_info(const State& s, const PlacedTile& pt, int local) {
  const GameDef& g = *s.rs->game;
  if (g.present.spot_text) return g.present.spot_text(s, pt, local);  // the game's own words
  const FeatureTypeDef& fd = s.rs->ftype(s.type_of(pt).feats[static_cast<std::size_t>(local)].type);
  const FeatureInfo fi = feature_info(s, pt.seg0 + local);
  const Segment& root = s.graph[fi.root];
  const std::string attr_name = fd.attrs.empty() ? std::string("attribute") : fd.attrs[0];
  std::string area_name = "city";
  for (const auto& d : g.ftypes)
    if (d.cls == FClass::Area) {
      area_name = d.name;
      break;
    }
  std::string info;
  switch (fd.cls) {
    case FClass::Path:
    case FClass::Area:
      if (fi.closed)
        info = cli_say("spot.completed", {{"points", feature_value(s, fi, true)}});
      else
        info = cli_say("spot.open", {{"tiles", fi.tiles}});
      if (fi.attr) info += ", " + noun_count(g, attr_name, fi.attr);
      for (std::size_t k = 1; k < fd.attrs.size() && k < kAttrs; ++k) {
        const int n = root.attr[k];
        const bool track = !g.track_name.empty() && fd.attrs[k] == g.track_name && fd.piece_kind == 0;
        if (n > 0) info += ", " + noun_count(g, fd.attrs[k], n);
        if (track)
          info +=
              n > 0 ? cli_say("spot.track_moves", {{"track", track_word(g)}, {"n", n}})
                    : cli_say("spot.track_stays", {{"symbols", noun_plural(g, fd.attrs[k])}, {"track", track_word(g)}});
      }
      break;
    case FClass::Centre:
    case FClass::Point:
      info = fi.closed ? cli_say("spot.surrounded", {{"points", feature_value(s, fi, true)}})
                       : cli_say("spot.around", {{"tiles", fi.tiles}});
      break;
    case FClass::Field:
      if (g.farm_points_per_city > 0 || fd.final_per_attr == 0) {
        const int n = field_cities(s, fi.root);
        info = cli_say("spot.borders", {{"n", n},
                                        {"area", feature_word(g, area_name)},
                                        {"areas", n == 1 ? feature_word(g, area_name) : plural_word(g, area_name)}});
      } else {
        info = cli_say("spot.field_symbols", {{"symbols", noun_count(g, attr_name, fi.attr)},
                                              {"per", fd.final_per_attr},
                                              {"symbol", term_noun(g, attr_name)}});
      }
      break;
  }
  return info;
}

}  // namespace term
std::string render_piece_options(const State& s, const std::vector<PlayerInfo>& players, bool color) {
  if (s.phase != Phase::Piece || s.tiles.empty()) return "";
  const GameDef& g = *s.rs->game;
  const bool two = g.pieces2_per_player > 0;
  const std::size_t from = std::min<std::size_t>(s.piece_from, s.tiles.size() - 1);
  const bool multi = s.tiles.size() - from > 1;
  const PlacedTile& pt = s.tiles[from];
  const int supply = s.supply[s.current];
  const int supply2 = s.supply2[s.current];
  const std::string& n0 = g.piece_names[0];
  const std::string& n1 = g.piece_names[1];
  auto cell = [](const PlacedTile& t) { return fmt::format("{},{}", t.x, t.y); };
  // which tile: the one just placed, or (a double tile) the set-aside cell's id and every cell
  std::string id = printable(s.type_of(pt).id), where = cell(pt), kind;
  if (s.type_of(pt).pile == kPileBonus) kind = cli_say("spots.bonus");
  if (multi) {
    std::vector<std::string> cells;
    for (std::size_t i = from; i < s.tiles.size(); ++i) {
      const TileType& t = s.type_of(s.tiles[i]);
      if (t.pile == kPileAside) id = printable(t.id);
      cells.push_back(cell(s.tiles[i]));
      if (t.kind != 0 && t.kind < g.tile_kinds.size()) kind = g.tile_kinds[t.kind] + " ";
    }
    where = fmt::format("{}", fmt::join(cells, cli_say("list.and_word")));
  }
  std::string out;
  if (!two)
    out = cli_say(
        "spots.title",
        {{"piece", capitalized(piece_word(g, n0))}, {"tile", id}, {"at", where}, {"count", piece_count(n0, supply)}});
  else
    out = cli_say("spots.title_two", {{"piece", capitalized(piece_word(g, n0))},
                                      {"piece2", piece_word(g, n1)},
                                      {"kind", kind},
                                      {"tile", id},
                                      {"at", where}});
  MoveList ml;
  gen_pieces(s, ml);
  struct Row {
    std::string label, type, info;
    int kind = 0;
  };
  std::vector<Row> rows;
  std::size_t w = 5, tw = 10;
  for (const Move& m : ml) {
    if (m.kind != MoveKind::Piece) continue;
    const PlacedTile& t = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
    const FeatureTypeDef& fd = s.rs->ftype(s.type_of(t).feats[m.feat].type);
    Row r;
    r.label = feature_port(s, t, m.feat) + (multi ? " at " + cell(t) : "");
    r.type = fd.name;
    r.info = spot_info(s, t, m.feat);
    r.kind = std::min<int>(fd.piece_kind, 1);
    if (m.pk != 0xFF) {  // a piece on the network through this feature: typed "PIECE N"
      const int net = s.graph.net_find(t.seg0 + m.feat);
      r.kind = std::min<int>(m.pk, 1);
      r.label = g.piece_names[r.kind] + " " + r.label;
      r.info = cli_say("spots.network_free", {{"network", network_word(g)},
                                              {"what", network_text(s, net)},
                                              {"pieces", plural_word(g, g.piece_names[r.kind])}});
    }
    w = std::max(w, r.label.size());
    tw = std::max(tw, static_cast<std::size_t>(display_width(feature_word(g, r.type))));
    rows.push_back(std::move(r));
  }
  // the features of this turn's tiles already taken
  std::vector<Row> taken;
  std::vector<int> seen;
  for (std::size_t i = from; i < s.tiles.size(); ++i) {
    const PlacedTile& t = s.tiles[i];
    for (int f = 0; f < s.type_of(t).nfeat; ++f) {
      const FeatureInfo fi = feature_info(s, t.seg0 + f);
      if (multi && std::find(seen.begin(), seen.end(), fi.root) != seen.end()) continue;  // listed on the other cell
      seen.push_back(fi.root);
      std::vector<std::string> who;
      for (int p = 0; p < s.nplayers; ++p)
        if (fi.pieces[static_cast<std::size_t>(p)] > 0) who.push_back(player_name(players, p, color));
      if (who.empty()) continue;
      Row r;
      r.label = feature_port(s, t, f) + (multi ? " at " + cell(t) : "");
      r.type = s.rs->ftype(fi.ftype).name;
      r.info = cli_say("spots.taken_by", {{"who", fmt::format("{}", fmt::join(who, ", "))}});
      w = std::max(w, r.label.size());
      taken.push_back(std::move(r));
    }
  }
  // networks through this turn's tiles that already have pieces
  std::vector<int> nets;
  for (std::size_t i = from; i < s.tiles.size(); ++i) {
    const PlacedTile& t = s.tiles[i];
    for (int f = 0; f < s.type_of(t).nfeat; ++f) {
      const FeatureTypeDef& fd = s.rs->ftype(s.type_of(t).feats[static_cast<std::size_t>(f)].type);
      if (fd.network_kind == 0xFF || s.type_of(t).feats[static_cast<std::size_t>(f)].ports == 0) continue;
      const int net = s.graph.net_find(t.seg0 + f);
      if (std::find(nets.begin(), nets.end(), net) != nets.end()) continue;
      nets.push_back(net);
      if (s.graph[net].net_npieces == 0) continue;
      Row r;
      r.label = feature_port(s, t, f) + (multi ? " at " + cell(t) : "");
      r.type = fd.name;
      r.info = cli_say("spots.network_taken",
                       {{"network", network_word(g)},
                        {"pieces", plural_word(g, g.piece_names[std::min<std::size_t>(fd.network_kind, 1)])},
                        {"piece", piece_word(g, g.piece_names[std::min<std::size_t>(fd.network_kind, 1)])},
                        {"who", network_owners(s, net, players, color)},
                        {"what", network_text(s, net)}});
      w = std::max(w, r.label.size());
      tw = std::max(tw, static_cast<std::size_t>(display_width(feature_word(g, r.type))));
      taken.push_back(std::move(r));
    }
  }
  auto row_text = [&](const Row& r) {
    std::string line =
        fmt::format("  {:<{}} {} {}", r.label, w, pad(feature_word(g, r.type), static_cast<int>(tw)), r.info);
    if (display_width(line) > 80) {  // long rows go on under the info column
      const std::size_t indent = 2 + w + 1 + tw + 1;
      std::string text,
          cur = fmt::format("  {:<{}} {}", r.label, w, pad(feature_word(g, r.type), static_cast<int>(tw)));
      for (const auto& word : words(r.info)) {
        if (display_width(cur) + 1 + display_width(word) > 80 && display_width(cur) > static_cast<int>(indent)) {
          text += cur + "\n";
          cur = std::string(indent - 1, ' ');
        }
        cur += " " + word;
      }
      return text + cur + "\n";
    }
    return line + "\n";
  };
  if (!two) {
    for (const Row& r : rows) out += row_text(r);
    if (supply == 0)
      out += cli_say("spots.none_left", {{"piece", piece_word(g, n0)}});
    else if (rows.empty())
      out += cli_say("spots.all_taken", {{"tiles", multi ? 2 : 1}});
  } else {
    // one group per piece kind: the first kind's spots, then the second's
    for (int k = 0; k < 2; ++k) {
      const std::string& pn = g.piece_names[static_cast<std::size_t>(k)];
      const int left = k == 0 ? supply : supply2;
      int n = 0;
      for (const Row& r : rows) n += r.kind == k;
      if (left == 0) {
        out += cli_say("spots.kind_none_left",
                       {{"pieces", capitalized(plural_word(g, pn))}, {"piece", piece_word(g, pn)}});
        continue;
      }
      std::string roles;      // what a piece is called where it stands (FeatureTypeDef::role)
      if (k == 0 && n > 0) {  // "TYPE: ROLE" for the types listed
        std::vector<std::string> seen_types, parts;
        for (const Row& r : rows)
          for (const FeatureTypeDef& fd : g.ftypes)
            if (r.kind == 0 && fd.name == r.type && !fd.role.empty() &&
                std::find(seen_types.begin(), seen_types.end(), r.type) == seen_types.end()) {
              seen_types.push_back(r.type);
              parts.push_back(feature_word(g, r.type) + ": " + role_word(g, fd.role));
            }
        if (!parts.empty()) roles = fmt::format(" {}", fmt::join(parts, ", "));
      }
      if (k == 1 && n > 0 && has_networks(g)) {  // "on a TYPE or TYPE: the whole NETWORK, to the end"
        roles = cli_say("spots.network_role", {{"types", network_types(g, k)}, {"network", network_word(g)}});
      }
      out += cli_say("spots.kind",
                     {{"pieces", capitalized(plural_word(g, pn))},
                      {"piece", capitalized(piece_word(g, pn))},
                      {"left", left},
                      {"rest", n == 0 ? cli_say("spots.no_free", {{"tiles", multi ? 2 : 1}}) : std::string(":")},
                      {"roles", roles}});
      for (const Row& r : rows)
        if (r.kind == k) out += row_text(r);
    }
  }
  if (g.present.decision_panels) out += render_decision(s, players, color, false, 80);  // the game's: actions, notes
  const std::string none =
      g.pass_text == "pass" ? cli_say("spots.keep", {{"pieces", plural_word(g, n0)}}) : pass_word(g);
  out += fmt::format("  {:<{}} {}\n", "none", w, none);
  for (const Row& r : taken) out += row_text(r);
  return out;
}

std::string render_scores(const State& s, const std::vector<PlayerInfo>& players, bool color) {
  const GameDef& g = *s.rs->game;
  const bool extra = g.pieces2_per_player > 0 || !g.track_name.empty();
  std::size_t w = 4;
  for (int p = 0; p < s.nplayers; ++p) w = std::max<std::size_t>(w, strip_ansi(player_name(players, p, false)).size());
  std::string out;
  for (int p = 0; p < s.nplayers; ++p) {
    const auto pi = static_cast<std::size_t>(p);
    const bool to_move = p == s.current && s.phase != Phase::Over;
    // the seat's kind in a word or two: "human", "bot greedy", "bot mcts"; nothing more when the
    // name says it ("Bot 2 (easy)"); a player line stays within 80 columns
    std::string kind = cli_say("seat.human");
    if (pi < players.size() && !players[pi].bot.empty()) {
      const std::string& b = players[pi].bot;
      const std::string shown = b.rfind("mcts:", 0) == 0 ? "mcts" : b;
      const std::string& nm = players[pi].name;
      bool said = nm.find(shown) != std::string::npos;  // the name says the level ("Bot (easy)", «Бот (лёгкий)»)
      for (const char* lv : {"easy", "normal", "hard"})
        said |= nm.find(fmt::format("({})", lv)) != std::string::npos ||
                nm.find(fmt::format("({})", level_word(lv))) != std::string::npos;
      kind = said ? cli_say("seat.a_bot") : cli_say("seat.bot", {{"bot", shown}});
    }
    if (!extra) {
      out += i18n::current() == i18n::Lang::En
                 ? fmt::format(" {} {} {} {:>4} points   {} in supply: {}/{}   ({})\n", to_move ? "▶" : " ",
                               badge(p, color), pad(player_name(players, p, color), static_cast<int>(w)), s.score[pi],
                               plural_of(g.piece_names[0]), s.supply[pi], g.pieces_per_player, kind)
                 : cli_say("scores.row", {{"arrow", to_move ? "▶" : " "},
                                          {"badge", badge(p, color)},
                                          {"name", pad(player_name(players, p, color), static_cast<int>(w))},
                                          {"score", fmt::format("{:>4}", s.score[pi])},
                                          {"pieces", piece_word(g, g.piece_names[0])},
                                          {"left", s.supply[pi]},
                                          {"all", g.pieces_per_player},
                                          {"kind", kind}});
      continue;
    }
    const bool en = i18n::current() == i18n::Lang::En;
    auto piece_name = [&](int k) {
      return en ? plural_of(g.piece_names[static_cast<std::size_t>(k)])
                : piece_word(g, g.piece_names[static_cast<std::size_t>(k)]);
    };
    std::string pieces =
        cli_say("scores.pieces", {{"pieces", piece_name(0)}, {"left", s.supply[pi]}, {"all", g.pieces_per_player}});
    if (g.pieces2_per_player > 0)
      pieces += "  " + cli_say("scores.pieces",
                               {{"pieces", piece_name(1)}, {"left", s.supply2[pi]}, {"all", g.pieces2_per_player}});
    if (!g.track_name.empty()) {
      pieces += cli_say("scores.track", {{"name", track_word(g)}, {"space", fmt::format("{:<2}", s.track[pi])}});
    }
    out += cli_say("scores.row_extra", {{"arrow", to_move ? "▶" : " "},
                                        {"badge", badge(p, color)},
                                        {"name", pad(player_name(players, p, color), static_cast<int>(w))},
                                        {"score", fmt::format("{:>4}", s.score[pi])},
                                        {"pieces", pieces},
                                        {"kind", kind}});
  }
  return out;
}

namespace {
// "{p0}" ... "{p4}" in a panel's text: the players' names
std::string with_names(std::string t, const std::vector<PlayerInfo>& players, bool color) {
  for (int p = 0; p < kMaxPlayers; ++p) {
    const std::string key = fmt::format("{{p{}}}", p);
    for (auto at = t.find(key); at != std::string::npos; at = t.find(key))
      t.replace(at, key.size(), player_name(players, p, color));
  }
  return t;
}
}  // namespace

std::string render_panel(const State& s, const Panel& panel, const std::vector<PlayerInfo>& players, bool color,
                         int width) {
  const int wrap_at = std::min(width, 80);
  const std::string title = with_names(panel.title, players, color);
  std::string out;
  if (panel.rows.empty()) {  // a note: its counters on a line each, or its title and lines
    if (panel.lines.empty()) {
      for (const auto& [k, v] : panel.counters)
        out += wrap_hang("  " + k + ": ", with_names(v, players, color), 4, wrap_at);
      return out;
    }
    const bool said = !title.empty() && std::string_view(".:!?").find(title.back()) != std::string_view::npos;
    out += wrap_hang("  ", title + (said ? "" : ":"), 4, wrap_at);
    for (const auto& [k, v] : panel.counters)
      out += wrap_hang("    " + k + ": ", with_names(v, players, color), 6, wrap_at);
    for (const auto& l : panel.lines) out += wrap_hang("    ", with_names(l, players, color), 6, wrap_at);
    return out;
  }
  if (!title.empty()) out += wrap(title, wrap_at);
  for (const auto& [k, v] : panel.counters)
    out += wrap_hang("  " + k + ": ", with_names(v, players, color), 4, wrap_at);
  const bool seats = !panel.columns.empty() && panel.columns[0] == "seat";
  const std::size_t first = seats ? 1 : 0;
  const std::size_t ncols = panel.columns.size();
  std::vector<int> cw(ncols, 0);  // column widths (the header's too, unless a track shows the table)
  for (std::size_t c = first; c < ncols; ++c) {
    if (panel.track == 0) cw[c] = display_width(panel.columns[c]);
    for (const auto& r : panel.rows)
      if (c < r.size()) cw[c] = std::max(cw[c], display_width(with_names(r[c], players, false)));
  }
  auto numeric = [&](std::size_t c) {
    for (const auto& r : panel.rows)
      if (c < r.size() && (r[c].empty() || r[c].find_first_not_of("0123456789") != std::string::npos)) return false;
    return true;
  };
  int w = 4;  // the names' column
  if (seats)
    for (int p = 0; p < s.nplayers; ++p) w = std::max(w, display_width(strip_ansi(player_name(players, p, false))));
  w = std::min(w, 16);
  std::size_t space_col = ncols;
  for (std::size_t c = first; c < ncols; ++c)
    if (panel.columns[c] == "space") space_col = c;
  const bool header = std::any_of(panel.columns.begin() + static_cast<long>(first), panel.columns.end(),
                                  [](const std::string& c) { return !c.empty(); });
  if (panel.track == 0 && header) {  // the header
    std::string head = seats ? std::string(static_cast<std::size_t>(5 + w), ' ') : std::string("  ");
    for (std::size_t c = first; c < ncols; ++c) {
      const bool last = c + 1 == ncols;
      head += (c > first || seats ? (numeric(c) ? " " : "  ") : "") +
              (numeric(c) ? fmt::format("{:>{}}", panel.columns[c], cw[c])
               : last     ? panel.columns[c]
                          : pad(panel.columns[c], cw[c]));
    }
    while (!head.empty() && head.back() == ' ') head.pop_back();
    out += head + "\n";
  }
  for (const auto& r : panel.rows) {
    std::string line;
    if (seats) {
      long long seat = -1;
      if (!r.empty()) (void)parse_int(r[0], 0, kMaxPlayers - 1, seat);
      const int p = static_cast<int>(seat);
      const bool decides = p == to_move(s) && s.phase != Phase::Over;
      line = fmt::format(" {} {} {}", decides ? "▶" : " ", p >= 0 ? badge(p, color) : "?",
                         pad(p >= 0 ? player_name(players, p, color) : "?", w));
      if (panel.track > 0 && space_col < r.size()) {
        long long at = 0;
        (void)parse_int(r[space_col], 0, 255, at);
        std::vector<Glyph> track;
        for (int k = 1; k <= panel.track; ++k)
          track.push_back(k == at ? Glyph{std::to_string(p + 1), St::Piece, 0, static_cast<u8>(std::max(p, 0))}
                                  : Glyph{"≈", St::Water});
        line += "  " + emit(track, color) + fmt::format("  at {:<2}", at);
      }
    } else {
      line = " ";
    }
    bool after_track = panel.track > 0;  // "at 2  1st": the track's space is padded already
    std::string last_text;               // a long text in the last column goes on under itself
    for (std::size_t c = first; c < ncols && c < r.size(); ++c) {
      if (c == space_col && panel.track > 0) continue;
      const std::string v = with_names(r[c], players, color);
      const bool last = c + 1 == ncols;
      // numbers in narrow columns one space apart (counts under names), text two
      line += after_track || numeric(c) ? " " : "  ";
      if (last && !numeric(c))
        last_text = v;
      else
        line += numeric(c) ? fmt::format("{:>{}}", v, cw[c]) : pad(v, cw[c]);
      after_track = false;
    }
    if (display_width(line) + display_width(last_text) > wrap_at && display_width(line) < wrap_at - 20) {
      out += wrap_hang(line, last_text, display_width(line), wrap_at);
      continue;
    }
    line += last_text;
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  for (const auto& l : panel.lines) out += wrap_hang("  ", with_names(l, players, color), 4, wrap_at);
  return out;
}

std::string extra_turn_text(const State& s, const std::vector<PlayerInfo>& players, bool color) {
  std::string t = has_message(*s.rs->game, "extra_turn")   ? carc::say(*s.rs->game, "extra_turn")
                  : s.rs->game->present.extra_turn.empty() ? cli_say("extra_turn")
                                                           : s.rs->game->present.extra_turn;
  for (auto at = t.find("{p}"); at != std::string::npos; at = t.find("{p}"))
    t.replace(at, 3, player_name(players, s.current, color));
  return with_names(t, players, color);
}

std::string render_panels(const State& s, const std::vector<PlayerInfo>& players, bool color, int width) {
  const auto make = s.rs->game->present.panels;
  if (!make) return "";
  std::string out;
  for (const Panel& p : make(s)) out += render_panel(s, p, players, color, width);
  return out;
}

std::string render_decision(const State& s, const std::vector<PlayerInfo>& players, bool color, bool full, int width) {
  const auto make = s.rs->game->present.decision_panels;
  if (!make || (s.phase != Phase::Piece && s.phase != Phase::Choose)) return "";
  std::string out;
  for (const Panel& p : make(s, full)) out += render_panel(s, p, players, color, width);
  return out;
}

Hands hands_of(const State& s) {
  Hands out;
  const auto hand = s.rs->game->present.hand;
  if (!hand) return out;
  for (int p = 0; p < s.nplayers; ++p) out.push_back(hand(s, p));
  return out;
}

std::string hand_news(const Hands& before, const State& after, const std::vector<PlayerInfo>& players, bool color) {
  const Hands now = hands_of(after);
  const std::string& noun =
      after.rs->game->present.hand_noun.empty() ? std::string("item") : after.rs->game->present.hand_noun;
  std::string out;
  for (std::size_t p = 0; p < now.size(); ++p) {
    std::vector<std::string> got;
    for (std::size_t k = 0; k < now[p].size(); ++k) {
      const int was = p < before.size() && k < before[p].size() ? before[p][k].second : 0;
      for (int i = was; i < now[p][k].second; ++i) got.push_back(now[p][k].first);
    }
    for (std::string& w : got) w = noun_word(*after.rs->game, w);
    if (!got.empty())
      out += cli_say("hand.draws", {{"who", who_verb(players, static_cast<int>(p), color, "draw", "draws")},
                                    {"name", player_name(players, static_cast<int>(p), color)},
                                    {"count", noun_count(*after.rs->game, noun, static_cast<int>(got.size()))},
                                    {"items", fmt::format("{}", fmt::join(got, ", "))}});
  }
  return out;
}

std::string render_final(const State& s, const std::vector<PlayerInfo>& players, bool color) {
  std::vector<int> order;
  for (int p = 0; p < s.nplayers; ++p) order.push_back(p);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return s.score[static_cast<std::size_t>(a)] > s.score[static_cast<std::size_t>(b)];
  });
  std::size_t w = 4;
  for (int p = 0; p < s.nplayers; ++p) w = std::max<std::size_t>(w, strip_ansi(player_name(players, p, false)).size());
  std::string out = cli_say("final.scores");
  int rank = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const int p = order[i];
    if (i == 0 || s.score[static_cast<std::size_t>(p)] != s.score[static_cast<std::size_t>(order[i - 1])])
      rank = static_cast<int>(i) + 1;
    out += cli_say("final.row", {{"rank", rank},
                                 {"badge", badge(p, color)},
                                 {"name", pad(player_name(players, p, color), static_cast<int>(w))},
                                 {"score", fmt::format("{:>4}", s.score[static_cast<std::size_t>(p)])}});
  }
  const int best = s.score[static_cast<std::size_t>(order[0])];
  std::vector<std::string> winners;
  for (int p : order)
    if (s.score[static_cast<std::size_t>(p)] == best) winners.push_back(player_name(players, p, color));
  if (winners.size() == 1)
    out += cli_say("final.winner", {{"name", winners[0]}, {"points", best}});
  else
    out += cli_say("final.tie", {{"names", fmt::format("{}", fmt::join(winners, cli_say("and")))}, {"points", best}});
  return out;
}

}  // namespace carc::cli
