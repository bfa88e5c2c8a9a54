// What happened: a turn's move and its score events in words, with the players' names.
#include "cli/terminal/common.hpp"
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

std::string describe_event_named(const State& s, const ScoreEvent& e, const std::vector<PlayerInfo>& players,
                                 bool color) {
  // the game's own words first (GameDef::describe), "{pN}" for the players
  std::string text = describe_event_text(s, e);
  const std::string ref = seat_ref(e.player);
  const bool you = is_you(players, e.player);
  if (you && i18n::current() == i18n::Lang::En && text.rfind(ref + " scores ", 0) == 0)
    text = cli_say("you_score") + text.substr(ref.size() + 8);
  else if (you && i18n::current() == i18n::Lang::En && text.rfind(ref + "'s ", 0) == 0)
    text = "Your " + text.substr(ref.size() + 3);  // "{p0}'s track piece moves": "Your track piece moves"
  std::vector<std::string> names;
  for (int p = 0; p < static_cast<int>(players.size()); ++p) names.push_back(player_name(players, p, color));
  text = with_seat_names(text, names);
  return text;
}

std::string describe_record_move(const State& s, const RecordMove& m, const std::vector<PlayerInfo>& players,
                                 bool color) {
  const GameDef& g = *s.rs->game;
  const int type_id = s.rs->tiles.find(m.tile);
  const bool bonus = type_id >= 0 && s.rs->tiles.types[static_cast<std::size_t>(type_id)].pile == kPileBonus;
  std::string out = cli_say(is_you(players, m.player) ? (bonus ? "move.placed_bonus_you" : "move.placed_you")
                                                      : (bonus ? "move.placed_bonus" : "move.placed"),
                            {{"player", player_name(players, m.player, color)},
                             {"tile", printable(m.tile)},
                             {"x", m.x},
                             {"y", m.y},
                             {"rot", m.rot}});
  // a game's action or choice in its own words (Presentation::told), else its record text
  auto told = [&](MoveKind kind, const std::string& text) {
    if (g.present.told) return g.present.told(s, kind, text, m.x, m.y);
    return kind == MoveKind::Choose ? fmt::format("then {} {}", g.choice_key, printable(text)) : printable(text);
  };
  if (m.choice) {  // a turn's one choice, recorded with its rotation when it is a tile's
    const std::string text =
        s.rs->tiles.find(*m.choice) >= 0 ? fmt::format("{} r{}", *m.choice, m.choice_rot) : *m.choice;
    if (const std::string t = told(MoveKind::Choose, text); !t.empty()) out += ", " + t;
  }
  if (m.follower && *m.follower != "none") {
    std::string type = "?", on = "?", piece = g.piece_names[0];
    const auto [cx, cy] = m.follower_at.value_or(std::pair<int, int>{m.x, m.y});
    const int ti = s.placed_at(cx, cy);
    if (ti >= 0) {
      const PlacedTile& t = s.tiles[static_cast<std::size_t>(ti)];
      const int f = feature_at_port(s, t, *m.follower);
      if (f >= 0) {
        const FeatureTypeDef& fd = s.rs->ftype(s.type_of(t).feats[static_cast<std::size_t>(f)].type);
        type = feature_word(g, fd.name);
        on = feature_form(g, fd.name, "on");  // "pe drum", "în pădure": the preposition the feature takes
        piece = g.piece_names[std::min<std::size_t>(fd.piece_kind, 1)];
        if (!fd.role.empty() && fd.piece_kind == 0) piece = fd.role;  // the piece named by its role on the feature
        if (m.piece && *m.piece != piece) {                           // a piece claiming the feature's network
          piece = *m.piece;
          const std::string net =
              has_message(g, "network.name") ? carc::say(g, "network.name") : g.present.network_name;
          type = cli_say("move.network", {{"name", net}});
          on = cli_say("move.network_on", {{"name", net}});
        }
      }
    }
    const std::string at = m.follower_at ? fmt::format(" at {},{}", cx, cy) : "";
    out += cli_say("move.piece", {{"piece", piece_word(g, piece)},
                                  {"feature", type},
                                  {"feature_on", on},
                                  {"port", printable(*m.follower)},
                                  {"at", at}});
  } else if (m.action) {
    out += ", " + told(MoveKind::Act, *m.action);
  } else if (g.pieces2_per_player > 0) {
    out += cli_say("move.no_two",
                   {{"piece", piece_word(g, g.piece_names[0])}, {"piece2", piece_word(g, g.piece_names[1])}});
  } else if (g.hooks.gen_actions) {
    out += cli_say("move.no_action", {{"piece", piece_word(g, g.piece_names[0])}});
  } else {
    out += cli_say("move.no_piece", {{"piece", piece_word(g, g.piece_names[0])}});
  }
  for (const auto& [who, text] : m.choices)  // the turn's choices by any player, in order
    if (const std::string t = told(MoveKind::Choose, text); !t.empty()) out += ", " + t;
  return out;
}

bool is_final_event(const State& s, const ScoreEvent& e) { return is_final_scoring(*s.rs->game, e); }

std::string turn_summary(const State& s, const Record& rec, std::size_t events_before,
                         const std::vector<PlayerInfo>& players, bool color) {
  if (rec.moves.empty()) return "";
  std::string text = describe_record_move(s, rec.moves.back(), players, color);
  bool any = false;
  for (std::size_t i = events_before; i < rec.events.size(); ++i) {
    const ScoreEvent& e = rec.events[i];
    if (is_final_event(s, e)) continue;  // final scoring is shown at the end
    if (!any) text += "\n";
    any = true;
    text += "    " + describe_event_named(s, e, players, color) + "\n";
  }
  if (!any) text += "\n";
  // a regular tile that earned an extra turn: the same player plays a bonus tile
  const RecordMove& m = rec.moves.back();
  const int t = s.rs->tiles.find(m.tile);
  if (s.rs->tiles.bonus_total > 0 && s.in_extra && s.current == m.player && s.phase != Phase::Over && t >= 0 &&
      s.rs->tiles.types[static_cast<std::size_t>(t)].pile != kPileBonus)
    text += "    " + extra_turn_text(s, players, color) + "\n";
  return text;
}

}  // namespace carc::cli
