// What a player types at the placement, piece and choice prompts.
#include "cli/terminal/common.hpp"
#include "cli/terminal/input.hpp"
#include "cli/terminal/panels.hpp"
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

// Letters folded for comparing typed words: ASCII, Cyrillic and Romanian capitals to small ones,
// "ё" to "е", the cedilla forms "ş ţ" to the comma forms "ș ț".
std::string fold_typed(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const auto c = static_cast<unsigned char>(in[i]);
    const auto d = i + 1 < in.size() ? static_cast<unsigned char>(in[i + 1]) : 0u;
    auto two = [&](unsigned a, unsigned b) {
      out.push_back(static_cast<char>(a));
      out.push_back(static_cast<char>(b));
      ++i;
    };
    if (c >= 'A' && c <= 'Z') {
      out.push_back(static_cast<char>(c - 'A' + 'a'));
    } else if (c == 0xD0 && d >= 0x90 && d <= 0x9F) {  // А..П
      two(0xD0, d + 0x20);
    } else if (c == 0xD0 && d >= 0xA0 && d <= 0xAF) {  // Р..Я
      two(0xD1, d - 0x20);
    } else if ((c == 0xD0 && d == 0x81) || (c == 0xD1 && d == 0x91)) {  // Ё ё
      two(0xD0, 0xB5);
    } else if (c == 0xC4 && d == 0x82) {  // Ă
      two(0xC4, 0x83);
    } else if (c == 0xC3 && (d == 0x82 || d == 0x8E)) {  // Â Î
      two(0xC3, d + 0x20);
    } else if ((c == 0xC8 && d == 0x98) || (c == 0xC5 && (d == 0x9E || d == 0x9F))) {  // Ș Ş ş
      two(0xC8, 0x99);
    } else if ((c == 0xC8 && d == 0x9A) || (c == 0xC5 && (d == 0xA2 || d == 0xA3))) {  // Ț Ţ ţ
      two(0xC8, 0x9B);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

std::string typed_in_notation(const GameDef& g, std::string_view text) {
  // the words of the player's language for the game's feature types, the roles of pieces on them
  // and the pieces (singular and plural), and "none", each with the notation's word
  std::vector<std::pair<std::string, std::string>> words_;
  auto add = [&](const std::string& word, const std::string& id) {
    const std::string f = fold_typed(word);
    if (!f.empty() && f != id) words_.emplace_back(f, id);
  };
  for (const FeatureTypeDef& fd : g.ftypes) {
    add(feature_word(g, fd.name), fd.name);
    add(plural_word(g, fd.name), fd.name);
    if (!fd.role.empty()) {
      add(role_word(g, fd.role), fd.role);
      add(plural_word(g, fd.role), fd.role);
    }
  }
  for (std::size_t k = 0; k < (g.pieces2_per_player > 0 ? 2u : 1u); ++k) {
    add(piece_word(g, g.piece_names[k]), g.piece_names[k]);
    add(plural_word(g, g.piece_names[k]), g.piece_names[k]);
  }
  for (const std::string& w : split_words(cli_say("typed.none"), "|")) add(w, "none");
  std::sort(words_.begin(), words_.end(), [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  std::string t = " " + fold_typed(text) + " ";
  for (const auto& [word, id] : words_) {  // whole words only, the longest first
    for (std::size_t at = t.find(word); at != std::string::npos; at = t.find(word, at + 1)) {
      const char before = t[at - 1], after = at + word.size() < t.size() ? t[at + word.size()] : ' ';
      auto edge = [](char c) { return c == ' ' || c == ',' || c == '(' || c == ')' || c == ';' || c == '\t'; };
      if (!edge(before) || !edge(after)) continue;
      t.replace(at, word.size(), id);
    }
  }
  return t.substr(1, t.size() - 2);
}

ParsedChoice parse_choice(std::string_view text, const State& s) {
  ParsedChoice r;
  const auto opts = listed_choices(s);
  if (opts.empty()) {
    r.error = cli_say("parse.no_choice");
    return r;
  }
  auto pick = [&](const Listed& l) {
    r.move = l.move;
    r.option = choice_label(s, l.view);
    return r;
  };
  const std::string example = choice_label(s, opts[0].view);
  std::string t(text);
  for (char& c : t)
    if (c == ',' || c == '(' || c == ')' || c == ';') c = ' ';
  const auto w = words(t);
  if (w.empty()) {
    r.error = cli_say("parse.choice_empty", {{"example", example}});
    return r;
  }
  const bool cells = all_target(opts, "cell"), tiles = all_target(opts, "tile");
  if (w.size() == 1 && typed_int(w[0]) && !cells && !tiles) {  // the list's number
    const int k = *typed_int(w[0]);
    if (k >= 1 && k <= static_cast<int>(opts.size())) return pick(opts[static_cast<std::size_t>(k - 1)]);
    r.error = cli_say("parse.not_on_list", {{"k", k}, {"n", opts.size()}});
    return r;
  }
  if (w.size() == 1 && cells && is_word(w[0])) {  // a boxed letter on the board ("a" and "A" differ)
    const auto labels = choice_cells(s);
    std::optional<std::pair<int, int>> cell;
    for (const Candidate& c : labels)
      if (c.label == w[0]) cell = std::pair{c.x, c.y};
    if (!cell && labels.size() <= 26)
      for (const Candidate& c : labels)
        if (c.label == lower(w[0])) cell = std::pair{c.x, c.y};
    if (cell)
      for (const Listed& l : opts)
        if (l.view.x == cell->first && l.view.y == cell->second) return pick(l);
  }
  const std::string typed = lower(fmt::format("{}", fmt::join(w, " ")));
  for (const Listed& l : opts) {  // an option as listed
    std::string label = choice_label(s, l.view);
    for (char& c : label)
      if (c == ',') c = ' ';
    if (lower(fmt::format("{}", fmt::join(words(label), " "))) == typed) return pick(l);
  }
  auto found = [&](const Move& m) {
    for (const Listed& l : opts)
      if (l.move == m) return pick(l);
    r.error = cli_say("parse.not_available");
    return r;
  };
  try {  // the game's shorthand: its own message when the text is of its forms but wrong
    if (const auto m = parse_alias(s, text)) return found(*m);
  } catch (const InputError& e) {
    r.error = e.what();
    return r;
  }
  try {  // the engine's notation
    return found(parse_notation(s, text));
  } catch (const InputError&) {
    r.error = cli_say(cells   ? "parse.not_cell_choice"
                      : tiles ? "parse.not_tile_choice"
                              : "parse.not_choice",
                      {{"text", quote(text)}, {"example", example}});
  }
  return r;
}

ParsedPlacement parse_placement(std::string_view text, const std::vector<Candidate>& cands) {
  ParsedPlacement r;
  std::string t(text);
  for (char& c : t)
    if (c == ',' || c == '(' || c == ')' || c == ';') c = ' ';
  const auto w = words(t);
  if (w.empty()) {
    r.error = cli_say("parse.place_empty");
    return r;
  }
  std::size_t next = 0;
  const Candidate* cand = nullptr;
  if (is_word(w[0]) && !to_rotation(w[0])) {
    for (const Candidate& c : cands)
      if (!c.label.empty() && c.label == w[0]) cand = &c;
    if (!cand) {
      r.error = cli_say("parse.not_command", {{"word", quote(w[0])}});
      return r;
    }
    r.x = cand->x;
    r.y = cand->y;
    next = 1;
  } else {
    if (w.size() < 2) {
      r.error = cli_say("parse.give_cell");
      return r;
    }
    const auto x = typed_int(w[0]), y = typed_int(w[1]);
    if (!x || !y) {
      r.error = cli_say("parse.not_cell", {{"text", quote(w[0] + " " + w[1])}});
      return r;
    }
    r.x = *x;
    r.y = *y;
    next = 2;
    for (const Candidate& c : cands)
      if (c.x == r.x && c.y == r.y) cand = &c;
  }
  if (w.size() > next + 1) {
    r.error =
        cli_say("parse.too_much",
                {{"text", quote(fmt::format("{}", fmt::join(w.begin() + static_cast<long>(next), w.end(), " ")))}});
    return r;
  }
  if (w.size() == next + 1) {
    const auto rot = to_rotation(w[next]);
    if (!rot) {
      r.error = cli_say("parse.not_rotation", {{"text", quote(w[next])}});
      return r;
    }
    r.rot = *rot;
    return r;
  }
  if (!cand) {
    r.error = cli_say("parse.fits_nowhere", {{"x", r.x}, {"y", r.y}});
    return r;
  }
  if (cand->rots.size() != 1) {
    std::vector<std::string> rs;
    for (int x : cand->rots) rs.push_back(fmt::format("r{}", x));
    r.error = cli_say("parse.add_rotation", {{"x", r.x},
                                             {"y", r.y},
                                             {"rots", fmt::format("{}", fmt::join(rs, cli_say("list.or_word")))},
                                             {"rot", cand->rots.back()}});
    return r;
  }
  r.rot = cand->rots[0];
  return r;
}

ParsedPort parse_port(std::string_view text, const State& s) {
  ParsedPort r;
  std::string t = typed_in_notation(*s.rs->game, text);  // "дорога N" -> "road n"
  for (char& c : t)
    if (c == ',' || c == '(' || c == ')' || c == ';') c = ' ';
  auto w = words(t);
  const GameDef& g = *s.rs->game;
  // a piece that claims the feature's network, named with the port: "PIECE N", "N PIECE"; the
  // tribe member by its name's last word too ("member")
  auto piece_kind_named = [&](const std::string& word) -> std::optional<int> {
    if (g.pieces2_per_player == 0) return std::nullopt;
    const std::string lw = lower(word);
    for (int k = 0; k < 2; ++k) {
      const std::string& n = g.piece_names[static_cast<std::size_t>(k)];
      const std::string last = n.substr(n.rfind(' ') + 1);
      if (lw == n || lw == plural_of(n) || lw == last || lw == plural_of(last)) return k;
    }
    return std::nullopt;
  };
  std::optional<int> net_kind;  // the player asked for a piece claiming the network
  if (has_networks(g) && w.size() >= 2) {
    const std::string joined = lower(fmt::format("{}", fmt::join(w, " ")));
    if (joined == g.piece_names[0] || joined == plural_of(g.piece_names[0])) w = {g.piece_names[0]};  // "tribe member"
    for (auto it = w.begin(); it != w.end() && w.size() >= 2; ++it) {
      const auto k = piece_kind_named(*it);
      bool network = false;
      for (const auto& fd : g.ftypes) network |= k && fd.network_kind == *k;
      if (network) {
        net_kind = *k;
        w.erase(it);
        break;
      }
    }
  }
  // a cell may follow (or lead): "N at 9,0", "N 9 0", "9,0 N"
  std::optional<std::pair<int, int>> cell;
  // (only in games where a turn can lay several tiles: those with a Choose decision)
  const bool cells_game = s.rs->game->hooks.gen_choices != nullptr;
  if (cells_game && w.size() >= 3) {
    std::vector<std::string> rest;
    std::vector<std::string> nums;
    for (const auto& x : w) {
      if (lower(x) == "at" || lower(x) == "on") continue;
      if (typed_int(x))
        nums.push_back(x);
      else
        rest.push_back(x);
    }
    if (nums.size() == 2 && rest.size() == 1) {
      cell = std::pair{*typed_int(nums[0]), *typed_int(nums[1])};
      w = rest;
    }
  }
  if (w.size() != 1) {
    r.error = cli_say(w.empty() ? "parse.port_empty" : "parse.port_one");
    return r;
  }
  const std::string lo = lower(w[0]);
  if (lo == "none" || lo == "pass" || lo == "-" || lo == "no" || lo == "skip") {
    r.port = "none";
    return r;
  }
  // the tiles this turn's piece may go on (one, or the cells of a double tile)
  const std::size_t from = s.tiles.empty() ? 0 : std::min<std::size_t>(s.piece_from, s.tiles.size() - 1);
  const bool multi = s.phase == Phase::Piece && s.tiles.size() - from > 1;
  auto on_turn = [&](int x, int y) {
    if (!CellMap::in_range(x, y)) return false;  // the map's cells only (no aliasing of 265,0 to 9,0)
    const int ti = s.placed_at(x, y);
    return ti >= static_cast<int>(from);
  };
  if (cell && s.phase == Phase::Piece && !on_turn(cell->first, cell->second)) {
    std::vector<std::string> cells;
    for (std::size_t i = from; i < s.tiles.size(); ++i)
      cells.push_back(fmt::format("{},{}", s.tiles[i].x, s.tiles[i].y));
    r.error =
        cli_say("parse.not_this_turn", {{"x", cell->first},
                                        {"y", cell->second},
                                        {"cells", fmt::format("{}", fmt::join(cells, cli_say("list.and_word")))}});
    return r;
  }
  MoveList ml;
  if (s.phase == Phase::Piece) gen_pieces(s, ml);
  auto spot_text = [&](const Move& m) {
    const PlacedTile& pt = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
    std::string port = feature_port(s, pt, m.feat);
    if (m.pk != 0xFF) port = g.piece_names[std::min<std::size_t>(m.pk, 1)] + " " + port;  // "PIECE N"
    return multi ? fmt::format("{} at {},{}", port, m.x, m.y) : port;                     // notation: typed as shown
  };
  const std::string up = upper(w[0]);
  if (port_from_name(up) && has_networks(g) && s.phase == Phase::Piece && !multi) {
    // a piece on the feature at that port, or ("PIECE N") a piece on its network
    r.port = up;
    const PlacedTile& pt = s.tiles[from];
    const int f = feature_at_port(s, pt, up);
    if (f < 0) {
      r.error = cli_say("parse.no_feature", {{"port", up}});
      return r;
    }
    const FeatureTypeDef& fd = s.rs->ftype(s.type_of(pt).feats[static_cast<std::size_t>(f)].type);
    bool own = false, net = false;
    for (const Move& m : ml) {
      if (m.kind != MoveKind::Piece) continue;
      const PlacedTile& mt = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
      if (m.pk == 0xFF && s.graph.find(mt.seg0 + m.feat) == s.graph.find(pt.seg0 + f)) own = true;
      if (m.pk != 0xFF && fd.network_kind != 0xFF &&
          s.graph.net_find(mt.seg0 + m.feat) == s.graph.net_find(pt.seg0 + f))
        net = true;
    }
    if (net_kind) {
      const std::string& net_piece = g.piece_names[static_cast<std::size_t>(*net_kind)];
      r.piece = net_piece;
      if (fd.network_kind != *net_kind)
        r.error = cli_say("parse.net_wrong_feature", {{"a", article(net_piece)},
                                                      {"piece", piece_word(g, net_piece)},
                                                      {"feature", feature_word(g, fd.name)},
                                                      {"types", network_types(g, *net_kind)},
                                                      {"network", network_word(g)}});
      else if (s.supply_of(*net_kind, s.current) == 0)
        r.error = cli_say("parse.none_in_supply", {{"piece", piece_word(g, net_piece)}});
      else if (!net)
        r.error = cli_say("parse.net_taken", {{"network", network_word(g)},
                                              {"port", up},
                                              {"a", article(net_piece)},
                                              {"piece", piece_word(g, net_piece)}});
      return r;
    }
    if (!own && net) {  // an unclaimable feature, or one already taken: only a piece claiming its network can go there
      const std::string& net_piece = g.piece_names[std::min<std::size_t>(fd.network_kind, 1)];
      r.error = fd.claimable ? cli_say("parse.taken_use_net", {{"piece0", piece_word(g, g.piece_names[0])},
                                                               {"feature", feature_word(g, fd.name)},
                                                               {"port", up},
                                                               {"a", article(net_piece)},
                                                               {"piece", piece_word(g, net_piece)},
                                                               {"network", network_word(g)},
                                                               {"typed", net_piece}})
                             : cli_say("parse.unclaimable_use_net", {{"piece0", piece_word(g, g.piece_names[0])},
                                                                     {"feature", feature_word(g, fd.name)},
                                                                     {"port", up},
                                                                     {"a", article(net_piece)},
                                                                     {"piece", piece_word(g, net_piece)},
                                                                     {"network", network_word(g)},
                                                                     {"typed", net_piece}});
    }
    return r;
  }
  if (port_from_name(up)) {
    r.port = up;
    if (cell) {
      r.at = cell;
    } else if (multi) {
      // the cell whose free spot touches that port
      std::vector<std::pair<int, int>> at;
      for (const Move& m : ml) {
        if (m.kind != MoveKind::Piece) continue;
        const PlacedTile& pt = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
        if (feature_at_port(s, pt, up) == m.feat) at.push_back({m.x, m.y});
      }
      if (at.size() == 1) {
        r.at = at[0];
      } else if (at.empty()) {
        r.error = cli_say("parse.no_spot_at", {{"port", up}});
      } else {
        r.error =
            cli_say("parse.both_tiles",
                    {{"port", up}, {"x", at[0].first}, {"y", at[0].second}, {"x2", at[1].first}, {"y2", at[1].second}});
      }
    }
    return r;
  }
  if (s.phase == Phase::Piece) {
    // a feature type name, or (games with two piece kinds) a piece name
    std::optional<std::size_t> ftype;
    std::optional<int> kind;
    std::string name;
    for (std::size_t t2 = 0; t2 < g.ftypes.size(); ++t2) {
      const std::string& role = g.ftypes[t2].role;  // what a piece there is called (its role)
      if (lo == g.ftypes[t2].name || lo == plural_of(g.ftypes[t2].name) ||
          (!role.empty() && (lo == role || lo == plural_of(role)))) {
        ftype = t2;
        name = g.ftypes[t2].name;
      }
    }
    if (!ftype && g.pieces2_per_player > 0)
      for (int k = 0; k < 2; ++k)
        if (lo == g.piece_names[static_cast<std::size_t>(k)] ||
            lo == plural_of(g.piece_names[static_cast<std::size_t>(k)]) ||
            (has_networks(g) && piece_kind_named(lo) == k)) {
          kind = k;
          name = g.piece_names[static_cast<std::size_t>(k)];
        }
    if (ftype && net_kind) {  // "PIECE TYPE": a piece on the network of that type
      kind = net_kind;
      name = g.piece_names[static_cast<std::size_t>(*net_kind)];
    }
    if (ftype || kind) {
      std::vector<const Move*> spots;
      for (const Move& m : ml) {
        if (m.kind != MoveKind::Piece) continue;
        if (cell && (m.x != cell->first || m.y != cell->second)) continue;
        const PlacedTile& pt = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
        const FeatureTypeDef& fd = s.rs->ftype(s.type_of(pt).feats[m.feat].type);
        const int mk = m.pk != 0xFF ? m.pk : fd.piece_kind;  // a network's piece claims the network through the feature
        const bool type_ok = !ftype || s.type_of(pt).feats[m.feat].type == *ftype;
        const bool kind_ok = kind ? mk == *kind : m.pk == 0xFF;
        if (type_ok && kind_ok) spots.push_back(&m);
      }
      if (spots.size() == 1) {
        const Move& m = *spots[0];
        const PlacedTile& pt = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
        r.port = feature_port(s, pt, m.feat);
        if (m.pk != 0xFF) r.piece = g.piece_names[std::min<std::size_t>(m.pk, 1)];
        if (multi || cell) r.at = std::pair<int, int>{m.x, m.y};
      } else if (spots.empty()) {
        r.error = cli_say(kind ? "parse.no_spot_for_piece" : "parse.no_free_feature",
                          {{"a", article(name)},
                           {"name", kind ? piece_word(g, name) : feature_word(g, name)},
                           {"tiles", multi ? 2 : 1}});
      } else {
        std::vector<std::string> names;
        for (const Move* m : spots) names.push_back(spot_text(*m));
        r.error = cli_say(kind ? "parse.spots_for_piece" : "parse.free_features",
                          {{"tiles", multi ? 2 : 1},
                           {"n", spots.size()},
                           {"a", article(name)},
                           {"name", kind ? piece_word(g, name) : feature_word(g, name)},
                           {"names", plural_of(name)},
                           {"ports", fmt::format("{}", fmt::join(names, cli_say("list.or_word")))}});
      }
      return r;
    }
  }
  r.error = cli_say("parse.not_port", {{"word", quote(w[0])}});
  return r;
}

}  // namespace carc::cli
