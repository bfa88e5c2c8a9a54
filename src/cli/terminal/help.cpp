// The help of the terminal game and the board's legend.
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

std::string port_diagram() {
  return "       NNW  N  NNE\n"
         "   WNW ┌─────────┐ ENE\n"
         "     W │    C    │ E\n"
         "   WSW └─────────┘ ESE\n"
         "       SSW  S  SSE\n";
}

namespace {

std::string help_place() { return cli_say("help.place"); }
std::string help_any_time() { return cli_say("help.any_time"); }

}  // namespace

std::string help_text() {
  return help_place() + cli_say("help.base_piece") + help_any_time() + cli_say("help.base_undo") +
         cli_say("help.ports") + port_diagram() + cli_say("help.base_board");
}

std::string board_legend(const GameDef& g) {
  std::vector<std::string> items;
  for (const FeatureTypeDef& fd : g.ftypes) {
    switch (fd.cls) {
      case FClass::Field:
        items.push_back("· " + feature_word(g, fd.name));
        break;
      case FClass::Area:
        items.push_back(area_glyph(g, fd).ch + " " + feature_word(g, fd.name));
        break;
      case FClass::Path:
        if (is_river(fd)) {
          items.push_back(
              cli_say("legend.river", {{"rivers", plural_word(g, fd.name)}, {"river", feature_word(g, fd.name)}}));
        } else if (is_water(fd)) {
          std::string example, words_;
          for (std::size_t k = 0; k < fd.attrs.size() && k < 2; ++k) {
            const int n = 2 - static_cast<int>(k);
            example += fmt::format("{}{}", n, fd.attrs[k].empty() ? '?' : fd.attrs[k][0]);
            words_ += (k ? ", " : "") + noun_count(g, fd.attrs[k], n);
          }
          items.push_back(
              cli_say("legend.water", {{"name", capitalized(feature_word(g, fd.name))},
                                       {"example", example.empty() ? "" : " (" + example + ": " + words_ + ")"}}));
        } else {
          items.push_back(
              cli_say("legend.path", {{"paths", plural_word(g, fd.name)}, {"path", feature_word(g, fd.name)}}));
        }
        break;
      case FClass::Centre:
      case FClass::Point:
        if (is_lake(fd) && !fd.attrs.empty())
          items.push_back(
              cli_say("legend.lake", {{"lake", feature_word(g, fd.name)}, {"symbols", noun_count(g, fd.attrs[0], 2)}}));
        else
          items.push_back(point_letter(fd) + " " + feature_word(g, fd.name));
        break;
    }
  }
  bool animals = false;
  for (const FeatureTypeDef& fd : g.ftypes) {
    if (is_water(fd) || is_lake(fd)) continue;
    animals |= fd.cls == FClass::Field && !g.specials.empty() && !fd.attrs.empty();
    for (const std::string& a : fd.attrs) {
      const std::string item = symbol_glyph(g, a, 0).ch + " " + term_noun(g, a);
      if (std::find(items.begin(), items.end(), item) == items.end()) items.push_back(item);
    }
  }
  // symbols covered by a special, and the bonus tiles' specials
  if (animals) items.push_back(cli_say("legend.covered"));
  for (const std::string& sp : g.specials) items.push_back(symbol_glyph(g, sp, -1).ch + " " + term_noun(g, sp));
  std::string pieces = cli_say(
      "legend.pieces", {{"pieces", plural_word(g, g.piece_names[0])}, {"piece", piece_word(g, g.piece_names[0])}});
  if (g.pieces2_per_player > 0) {
    std::string circled;
    for (int p = 0; p < g.max_players; ++p) circled += piece_mark(p, 1);
    pieces = cli_say("legend.pieces_two", {{"n", g.max_players},
                                           {"pieces", plural_word(g, g.piece_names[0])},
                                           {"piece", piece_word(g, g.piece_names[0])},
                                           {"circled", circled},
                                           {"pieces2", plural_word(g, g.piece_names[1])},
                                           {"piece2", piece_word(g, g.piece_names[1])}});
  }
  items.push_back(pieces);
  const auto& legend = view::look_of(g).terminal.legend;  // what stands on the board
  for (std::size_t i = 0; i < legend.size(); ++i) {
    const std::string id = fmt::format("look.legend.{}", i);  // the game's words for it, in the language
    items.push_back(has_message(g, id) ? carc::say(g, id) : legend[i]);
  }
  items.push_back(cli_say("legend.fits"));
  // items kept whole, two spaces apart, lines of at most 80 columns
  const std::string title = cli_say("legend.title");
  std::string out, line = title;
  for (const std::string& it : items) {
    const std::string sep = line == title ? " " : "  ";
    if (display_width(line) + 2 + display_width(it) > 80) {
      out += line + "\n";
      line = "     ";
    }
    line += sep + it;
  }
  return out + line + "\n";
}

namespace {

// One row of a help section: what to type, then what it does (wrapped, hanging at column 15); a
// form wider than the column gets a line of its own.
std::string help_row(const std::string& form, const std::string& what) {
  if (display_width(form) <= 12) return wrap_hang(fmt::format("  {:<12} ", form), what, 15, 80);
  return "  " + form + "\n" + wrap_hang(std::string(15, ' '), what, 15, 80);
}

std::string help_section(const Panel& p) {
  std::string out = p.title.empty() ? std::string() : p.title + "\n";
  for (const auto& r : p.rows) out += help_row(r.empty() ? std::string() : r[0], r.size() > 1 ? r[1] : std::string());
  for (const auto& l : p.lines) out += wrap_hang("  ", l, 2, 80);
  return out;
}

}  // namespace

std::string help_text(const State& s) {
  const GameDef& g = *s.rs->game;
  const Presentation& pr = g.present;
  if (g.pieces2_per_player == 0 && g.track_name.empty() && g.tile_kinds.size() <= 1 && pr.help.empty() && !pr.panels &&
      view::look_of(g).terminal.legend.empty())
    return help_text();
  const std::string& n0 = g.piece_names[0];
  const std::string& n1 = g.piece_names[1];
  std::string out = help_place();
  bool piece = false;
  for (const Panel& p : pr.help_in ? pr.help_in(g) : pr.help) {
    piece |= p.id == "piece";
    out += help_section(p);
  }
  if (!piece) {                      // the generic section on pieces: by port, by type or piece, or none
    std::vector<std::string> types;  // in the player's words (the notation's English ones are taken too)
    for (const FeatureTypeDef& fd : g.ftypes)
      if (fd.claimable) types.push_back(feature_word(g, fd.name));
    const bool two = g.pieces2_per_player > 0;
    Panel p;
    p.title = two ? cli_say("help.piece_title_two", {{"a", article(n0)},
                                                     {"piece", piece_word(g, n0)},
                                                     {"a2", article(n1)},
                                                     {"piece2", piece_word(g, n1)}})
                  : cli_say("help.piece_title", {{"a", article(n0)}, {"piece", piece_word(g, n0)}});
    p.rows.push_back({"PORT", cli_say("help.port")});
    if (g.hooks.gen_choices)  // a turn may lay several tiles
      p.rows.push_back({"PORT at X,Y", cli_say("help.port_at")});
    p.rows.push_back({fmt::format("{}{}", fmt::join(types, ", "),
                                  two ? fmt::format(", {}, {}", piece_word(g, n0), piece_word(g, n1)) : std::string()),
                      cli_say(two ? "help.type_two" : "help.type")});
    p.rows.push_back(
        {"none", g.pass_text == "pass" ? cli_say("help.none", {{"piece", piece_word(g, n0)}}) : pass_word(g)});
    out += help_section(p);
  }
  out += help_any_time();
  std::vector<std::string> names;  // the game's panels, each by its id
  if (pr.panels)
    for (const Panel& p : pr.panels(s)) names.push_back("\"" + p.id + "\"");  // typed as it is
  if (!names.empty())
    out += help_row("panels", cli_say("help.panels", {{"names", fmt::format("{}", fmt::join(names, ", "))}}));
  out += help_row("undo", cli_say("help.undo"));
  out += help_row("quit", cli_say("help.quit"));
  out += cli_say("help.ports") + port_diagram() + board_legend(g);
  return out;
}

}  // namespace carc::cli
