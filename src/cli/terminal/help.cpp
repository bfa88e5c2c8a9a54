// The help of the terminal game and the board's legend.
#include "cli/terminal/common.hpp"
#include "cli/terminal/input.hpp"
#include "cli/terminal/panels.hpp"
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

const char* kHelpPlace =
    "Placing the tile:\n"
    "  X Y ROT      column X, row Y, ROT degrees clockwise (0 90 180 270),\n"
    "               e.g. \"3 -1 90\" or \"3,-1 r90\"\n"
    "  X Y          the same, when only one rotation fits there\n"
    "  a [ROT]      at the cell marked a on the board\n"
    "  x grows to the east (right), y grows to the SOUTH (down).\n";

const char* kHelpAnyTime =
    "Every move may also be typed as records and the engine protocol write it:\n"
    "  \"U 1,0 r90\", \"follower N\", \"follower S at 10,0\", \"pass\", \"double D2 r180\".\n"
    "Any time:\n"
    "  board        show the board again       moves   list where the tile fits\n"
    "  view X Y     centre the board on X,Y    view    follow the play again\n"
    "  scores       show the scores            help    this text\n";

}  // namespace

std::string help_text() {
  return std::string(kHelpPlace) +
         "Placing a follower (after the tile):\n"
         "  PORT         the feature touching that port: N E S W C NNE ENE ... (see below)\n"
         "  road, city…  the free spot of that type, if there is just one\n"
         "  none         no follower this turn\n" +
         kHelpAnyTime +
         "  undo         take back your turn (until the next player acts; at the follower\n"
         "               prompt it takes back the tile)\n"
         "  quit         save and exit (continue later with --resume FILE)\n"
         "Ports of a tile:\n" +
         port_diagram() +
         "Board: · field  ▒ city  ◆ shield  ─│┌┼ roads  M monastery  digits: followers of\n"
         "that player; boxed letters: where the tile in hand fits.\n";
}

std::string board_legend(const GameDef& g) {
  std::vector<std::string> items;
  for (const FeatureTypeDef& fd : g.ftypes) {
    switch (fd.cls) {
      case FClass::Field:
        items.push_back("· " + fd.name);
        break;
      case FClass::Area:
        items.push_back(area_glyph(g, fd).ch + " " + fd.name);
        break;
      case FClass::Path:
        if (is_river(fd)) {
          items.push_back("─│┌┼ " + plural_of(fd.name) + " (▪ a spring where one ends)");
        } else if (is_water(fd)) {
          std::string example, words_;
          for (std::size_t k = 0; k < fd.attrs.size() && k < 2; ++k) {
            const int n = 2 - static_cast<int>(k);
            example += fmt::format("{}{}", n, fd.attrs[k].empty() ? '?' : fd.attrs[k][0]);
            words_ += (k ? ", " : "") + count_of(n, fd.attrs[k]);
          }
          items.push_back(fmt::format("≈ the {}{}", capitalized(fd.name),
                                      example.empty() ? "" : " (" + example + ": " + words_ + ")"));
        } else {
          items.push_back("─│┌┼ " + plural_of(fd.name) + " (▪ a dead end)");
        }
        break;
      case FClass::Centre:
      case FClass::Point:
        if (is_lake(fd) && !fd.attrs.empty())
          items.push_back(fmt::format("(2) a {} with 2 {} (≋ a second {})", fd.name, plural_of(fd.attrs[0]), fd.name));
        else
          items.push_back(point_letter(fd) + " " + fd.name);
        break;
    }
  }
  bool animals = false;
  for (const FeatureTypeDef& fd : g.ftypes) {
    if (is_water(fd) || is_lake(fd)) continue;
    animals |= fd.cls == FClass::Field && !g.specials.empty() && !fd.attrs.empty();
    for (const std::string& a : fd.attrs) {
      const std::string item = symbol_glyph(g, a, 0).ch + " " + symbol_noun(g, a);
      if (std::find(items.begin(), items.end(), item) == items.end()) items.push_back(item);
    }
  }
  // symbols covered by a special, and the bonus tiles' specials
  if (animals) items.push_back("× covered (no longer counted)");
  for (const std::string& sp : g.specials) items.push_back(symbol_glyph(g, sp, -1).ch + " " + symbol_noun(g, sp));
  std::string pieces = fmt::format("digits: {} of that player", plural_of(g.piece_names[0]));
  if (g.pieces2_per_player > 0) {
    std::string circled;
    for (int p = 0; p < g.max_players; ++p) circled += piece_mark(p, 1);
    pieces = fmt::format("1..{}: {} of that player, {}: {}", g.max_players, plural_of(g.piece_names[0]), circled,
                         plural_of(g.piece_names[1]));
  }
  items.push_back(pieces);
  for (const std::string& l : view::look_of(g).terminal.legend) items.push_back(l);  // what stands on the board
  items.push_back("boxed letters: where the tile in hand fits");
  // items kept whole, two spaces apart, lines of at most 80 columns
  std::string out, line = "Board:";
  for (const std::string& it : items) {
    const std::string sep = line == "Board:" ? " " : "  ";
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
  std::string out = kHelpPlace;
  bool piece = false;
  for (const Panel& p : pr.help) {
    piece |= p.id == "piece";
    out += help_section(p);
  }
  if (!piece) {  // the generic section on pieces: by port, by type or piece, or none
    std::vector<std::string> types;
    for (const FeatureTypeDef& fd : g.ftypes)
      if (fd.claimable) types.push_back(fd.name);
    const bool two = g.pieces2_per_player > 0;
    Panel p;
    p.title = two ? fmt::format("Placing {} {} or {} {} (after the tile):", article(n0), n0, article(n1), n1)
                  : fmt::format("Placing {} {} (after the tile):", article(n0), n0);
    p.rows.push_back({"PORT", "the feature touching that port: N E S W NNE ENE ... (see below)"});
    if (g.hooks.gen_choices)  // a turn may lay several tiles
      p.rows.push_back(
          {"PORT at X,Y", "e.g. \"N at 9,0\" (or \"N 9,0\"): that port of the cell X,Y, on a turn with several tiles"});
    p.rows.push_back(
        {fmt::format("{}{}", fmt::join(types, ", "), two ? fmt::format(", {}, {}", n0, n1) : std::string()),
         fmt::format("the free spot of that type{}, if just one", two ? " (or for that piece)" : "")});
    p.rows.push_back({"none", g.pass_text == "pass" ? fmt::format("no {} this turn", n0) : g.pass_text});
    out += help_section(p);
  }
  out += kHelpAnyTime;
  std::vector<std::string> names;  // the game's panels, each by its id
  if (pr.panels)
    for (const Panel& p : pr.panels(s)) names.push_back(p.id);
  if (!names.empty())
    out += help_row("panels", fmt::format("the game's panels (each also by its name: {})", fmt::join(names, ", ")));
  out += help_row(
      "undo",
      "take back your turn (until the next player acts; at a later prompt of your turn it takes back the tile)");
  out += help_row("quit", "save and exit (continue later with --resume FILE)");
  out += "Ports of a tile:\n" + port_diagram() + board_legend(g);
  return out;
}

}  // namespace carc::cli
