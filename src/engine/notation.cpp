// engine/notation: the move notation shared by every front end (docs/engine-protocol.md).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "core/io.hpp"
#include "engine/engine.hpp"

namespace carc {

namespace {

std::string normal(std::string_view t, bool lower_case = true) {  // lower case, single spaces, no spaces at the ends
  std::string out;
  bool space = false;
  for (const char c : t) {
    if (c == ' ' || c == '\t') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += lower_case ? static_cast<char>(std::tolower(static_cast<unsigned char>(c))) : c;
  }
  return out;
}

std::vector<std::string_view> split_words(std::string_view t) {
  std::vector<std::string_view> w;
  std::size_t i = 0;
  while (i < t.size()) {
    while (i < t.size() && t[i] == ' ') ++i;
    const std::size_t j = std::min(t.find(' ', i), t.size());
    if (j > i) w.push_back(t.substr(i, j - i));
    i = j;
  }
  return w;
}

const char* decision_name(const State& s) {
  switch (s.phase) {
    case Phase::Place: return "a tile placement";
    case Phase::Piece: return "a piece, an action or a pass";
    case Phase::Choose: return "a choice";
    case Phase::Over: return "nothing (the game is over)";
    default: return "a chance event";
  }
}

}  // namespace

std::string notation(const State& s, const Move& m) {
  const GameDef& g = *s.rs->game;
  switch (m.kind) {
    case MoveKind::Place:
      return fmt::format("{} {},{} r{}", s.in_hand != 0xFF ? s.rs->tiles.types[s.in_hand].id : std::string("?"), m.x, m.y, m.rot * 90);
    case MoveKind::Piece: {
      const int ti = s.placed_at(m.x, m.y);
      if (ti < 0) return "?";
      const PlacedTile& pt = s.tiles[static_cast<std::size_t>(ti)];
      const FeatureTypeDef& fd = s.rs->ftype(s.type_of(pt).feats[m.feat].type);
      const u8 kind = m.pk != 0xFF ? m.pk : fd.piece_kind;
      const bool several = s.tiles.size() - std::min<std::size_t>(s.piece_from, s.tiles.size()) > 1;
      return fmt::format("{} {}{}", g.piece_names[std::min<std::size_t>(kind, 1)], feature_port(s, pt, m.feat),
                         several ? fmt::format(" at {},{}", pt.x, pt.y) : std::string());
    }
    case MoveKind::Pass:
      return "pass";
    case MoveKind::Act:
      return g.hooks.action_text ? g.hooks.action_text(s, m) : "?";
    case MoveKind::Choose:
      if (g.choices_listed) return g.hooks.choice_text(s, m);
      if (g.hooks.choice_text) return fmt::format("{} {}", g.choice_key, g.hooks.choice_text(s, m));
      return fmt::format("{} {} r{}", g.choice_key, s.rs->tiles.types[m.feat].id, m.rot * 90);
  }
  return {};
}

Move parse_notation(const State& s, std::string_view text_raw) {
  if (text_raw.size() > 200) throw InputError("a move is at most 200 characters");
  if (has_control_chars(text_raw)) throw InputError("a move has no control characters");
  const std::string text = normal(text_raw);
  if (text.empty()) throw InputError("an empty move");
  MoveList ml;
  if (s.phase == Phase::Place) {
    // "U 1,0 r90", "1,0 r90", "1,0 90", "u 1 0 90"
    auto w = split_words(text);
    const std::string id = normal(s.rs->tiles.types[s.in_hand].id);
    // the tile id first: "U 1,0 r90" or "U 1 0 90" (ids may be numbers: Hunters' "37 1,0 r90")
    if (w.size() == 4 || (w.size() == 3 && w[1].find(',') != std::string_view::npos)) {
      // an id an earlier tile file gave this type (an alias) names it too
      auto alias = [&] {
        return std::any_of(s.rs->tiles.aliases.begin(), s.rs->tiles.aliases.end(),
                           [&](const auto& a) { return a.second == s.in_hand && normal(a.first) == w[0]; });
      };
      if (w[0] != id && !alias()) {
        const std::string typed = normal(text_raw, false);  // what was typed, as it was typed
        throw InputError(fmt::format("the tile in hand is {}, not {}", s.rs->tiles.types[s.in_hand].id,
                                     printable(std::string(split_words(typed).front()))));
      }
      w.erase(w.begin());
    }
    std::string_view xs, ys, rs;
    if (w.size() == 2 && w[0].find(',') != std::string_view::npos) {
      const auto c = w[0].find(',');
      xs = w[0].substr(0, c), ys = w[0].substr(c + 1), rs = w[1];
    } else if (w.size() == 3) {
      xs = w[0], ys = w[1], rs = w[2];
    } else {
      throw InputError(fmt::format("\"{}\" is not a placement (e.g. \"{} 1,0 r90\")", printable(std::string(text_raw)), s.rs->tiles.types[s.in_hand].id));
    }
    if (!rs.empty() && rs[0] == 'r') rs.remove_prefix(1);
    long long x = 0, y = 0, r = 0;
    if (!parse_int(xs, -128, 127, x) || !parse_int(ys, -128, 127, y))
      throw InputError(fmt::format("\"{}\": the cell is two whole numbers from -128 to 127", printable(std::string(text_raw))));
    if (!parse_int(rs, 0, 270, r) || r % 90 != 0) throw InputError(fmt::format("\"{}\": the rotation is 0, 90, 180 or 270", printable(std::string(text_raw))));
    const Move m = placement_move(s, static_cast<int>(x), static_cast<int>(y), static_cast<int>(r));
    if (!is_legal(s, m)) throw InputError(fmt::format("{} does not fit at {},{} r{}", s.rs->tiles.types[s.in_hand].id, x, y, r));
    return m;
  }
  if (s.phase != Phase::Piece && s.phase != Phase::Choose) throw InputError(fmt::format("no move can be made now: the game waits for {}", decision_name(s)));
  // the game's own parser first (Safari's actions: hundreds of options), checked for legality and
  // for being written exactly so; else the notation of every legal move
  const auto& hooks = s.rs->game->hooks;
  if (s.phase == Phase::Piece && hooks.action_parse) {
    try {
      const Move m = hooks.action_parse(s, text);
      if (is_legal(s, m) && normal(notation(s, m)) == text) return m;
    } catch (const InputError&) {
      // not an action: a piece or a pass, listed below
    }
  }
  legal_moves(s, ml);
  for (const Move& m : ml)
    if (normal(notation(s, m)) == text) return m;
  // a piece may leave out its kind's name where the port says it all ("N", "N at 9,0")
  for (const Move& m : ml) {
    if (m.kind != MoveKind::Piece || m.pk != 0xFF) continue;
    const std::string full = normal(notation(s, m));
    const auto sp = full.find(' ');
    if (sp != std::string::npos && full.substr(sp + 1) == text) return m;
  }
  if (text == "none" || text == "pass")
    for (const Move& m : ml)
      if (m.kind == MoveKind::Pass) return m;
  if (const auto m = parse_alias(s, text)) return *m;  // the game's shorthand
  std::vector<std::string> some;
  for (std::size_t i = 0; i < ml.size() && some.size() < 4; ++i) some.push_back("\"" + notation(s, ml[i]) + "\"");
  throw InputError(fmt::format("\"{}\" is not a legal move now (the decision: {}; e.g. {})", printable(std::string(text_raw)), decision_name(s),
                               fmt::join(some, ", ")));
}

std::optional<Move> parse_alias(const State& s, std::string_view text_raw) {
  const auto alias = s.rs->game->present.parse_alias;
  if (!alias || (s.phase != Phase::Piece && s.phase != Phase::Choose)) return std::nullopt;
  if (text_raw.size() > 200 || has_control_chars(text_raw)) return std::nullopt;
  const std::string text = normal(text_raw);
  if (text.empty()) return std::nullopt;
  const auto m = alias(s, text);
  if (m && !is_legal(s, *m)) throw InputError(fmt::format("\"{}\" is not possible now", printable(std::string(text_raw))));
  return m;
}

}  // namespace carc
