// A Choose decision as a list: tiles as pictures, cells as boxed letters, anything else numbered.
#include "cli/terminal/board.hpp"
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

namespace term {

std::vector<Listed> listed_choices(const State& s) {
  std::vector<Listed> out;
  if (s.phase != Phase::Choose) return out;
  MoveList ml;
  legal_moves(s, ml);
  const auto opts = view::decision_options(s);  // one per legal move, in the same order
  for (std::size_t i = 0; i < opts.size() && i < ml.size(); ++i) out.push_back({opts[i], ml[i]});
  std::stable_partition(out.begin(), out.end(), [](const Listed& l) { return !l.view.target.empty(); });
  return out;
}

// What an option names, as a player may type it: "TOKEN", "N at 3,-1", "3,1", "D2 r180"; else its
// notation without the game's record key ("KEY none" -> "none").
std::string choice_label(const State& s, const view::OptionView& o) {
  if (o.target == "token") return o.token;
  if (o.target == "piece") return fmt::format("{} at {},{}", o.port, o.x, o.y);
  if (o.target == "cell") return fmt::format("{},{}", o.x, o.y);
  if (o.target == "point") return fmt::format("{},{} at {},{}", o.cx, o.cy, o.x, o.y);
  if (o.target == "tile") return fmt::format("{} r{}", o.tile, o.rot);
  const std::string& key = s.rs->game->choice_key;
  if (o.notation.rfind(key + " ", 0) == 0) return o.notation.substr(key.size() + 1);
  return o.notation;
}

bool all_target(const std::vector<Listed>& v, std::string_view t) {
  return !v.empty() && std::all_of(v.begin(), v.end(), [&](const Listed& l) { return l.view.target == t; });
}

// Tiles offered in rotations: each tile drawn once per rotation offered (a multi-cell tile with
// its other cells, in the order they lie from west to east), with the option's sentence.
std::string render_tile_choices(const State& s, const std::vector<Listed>& opts, bool color) {
  std::vector<std::string> ids;
  for (const Listed& l : opts)
    if (std::find(ids.begin(), ids.end(), l.view.tile) == ids.end()) ids.push_back(l.view.tile);
  std::vector<int> rots;  // the rotations offered for the first tile (the columns)
  for (const Listed& l : opts)
    if (l.view.tile == ids[0]) rots.push_back(l.view.rot);
  std::string head = "        ";
  for (const int r : rots) head += fmt::format("{:<14}", fmt::format("r{}", r));
  while (!head.empty() && head.back() == ' ') head.pop_back();
  std::string out = head + "\n";
  for (const std::string& id : ids) {
    const int t = s.rs->tiles.find(id);
    if (t < 0) continue;
    const TileType& tt = s.rs->tiles.types[static_cast<std::size_t>(t)];
    const int e = tt.east == 0xFF ? -1 : tt.east;
    std::array<std::vector<Glyph>, kCellH> rows;
    std::string text, forms;
    for (const Listed& l : opts) {
      if (l.view.tile != id) continue;
      const int q = (l.view.rot / 90) & 3;
      // a multi-cell tile lies west to east: turned 180, its east part comes first
      std::vector<std::pair<int, int>> cells = {{t, q}};
      if (e >= 0 && q == 0) cells.push_back({e, 0});
      if (e >= 0 && q == 2) cells = {{e, 2}, {t, 2}};
      for (std::size_t i = 0; i < kCellH; ++i) put_text(rows[i], "  ");
      for (const auto& [type, rot] : cells) {
        const Cell c = tile_cell(*s.rs, s.rs->tiles.types[static_cast<std::size_t>(type)], rot);
        for (std::size_t i = 0; i < kCellH; ++i) rows[i].insert(rows[i].end(), c[i].begin(), c[i].end());
      }
      for (std::size_t i = 0; i < kCellH; ++i) {
        for (std::size_t k = cells.size(); k < 2; ++k) put_text(rows[i], "     ");
        put_text(rows[i], "  ");
      }
      if (text.empty() && l.view.text != l.view.notation) text = l.view.text;
      forms += fmt::format("{}\"{} {}\"", forms.empty() ? "" : cli_say("list.or_forms"), printable(id), l.view.rot);
    }
    const int used = 6 + display_width(emit(rows[0], false)) + 2;
    std::vector<std::string> side;  // the sentence's parts ("; ") on lines of their own, wrapped
    for (std::size_t at = 0; at < text.size() && side.size() < 2;) {
      const std::size_t semi = std::min(text.find("; ", at), text.size());
      const std::string wrapped = wrap(text.substr(at, semi - at), std::max(20, 80 - used));
      for (std::size_t i = 0; i < wrapped.size() && side.size() < 2;) {
        const std::size_t j = wrapped.find('\n', i);
        side.push_back(wrapped.substr(i, j - i));
        i = j + 1;
      }
      at = semi + 2;
    }
    side.resize(2);
    side.push_back(cli_say("choice.type_forms", {{"forms", forms}}));
    for (std::size_t i = 0; i < kCellH; ++i) {
      std::string line = fmt::format("  {:<4}", i == 0 ? printable(id) : "") + emit(rows[i], color) + "  " + side[i];
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
  }
  return out;
}

}  // namespace term
std::vector<Candidate> choice_cells(const State& s) {
  std::vector<Candidate> out;
  const auto opts = listed_choices(s);
  if (!all_target(opts, "cell")) return out;
  std::vector<std::pair<int, int>> cells;  // (y, x)
  for (const Listed& l : opts) cells.emplace_back(l.view.y, l.view.x);
  std::sort(cells.begin(), cells.end());
  cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
  static constexpr std::string_view kLabels = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (const auto& [y, x] : cells) {
    Candidate c;
    c.x = x;
    c.y = y;
    if (out.size() < kLabels.size()) c.label = std::string(1, kLabels[out.size()]);
    out.push_back(std::move(c));
  }
  return out;
}

std::string render_choices(const State& s, const std::vector<PlayerInfo>& players, bool color) {
  if (s.phase != Phase::Choose) return "";
  std::string out = render_decision(s, players, color, false);
  const auto opts = listed_choices(s);
  if (all_target(opts, "tile")) return out + render_tile_choices(s, opts, color);
  if (all_target(opts, "cell")) {
    std::vector<std::string> items;
    for (const Candidate& c : choice_cells(s)) items.push_back(fmt::format("{:<2}{},{}", c.label, c.x, c.y));
    out += cli_say("choices.cells", {{"n", items.size()}});
    return out + pack(items, 2, 80);
  }
  Panel list;  // numbered: what each option names, then what it does
  list.columns = {"", "", ""};
  const bool pieces = std::any_of(opts.begin(), opts.end(), [](const Listed& l) { return l.view.target == "piece"; });
  if (pieces) list.columns.emplace_back();
  for (std::size_t i = 0; i < opts.size(); ++i) {
    const auto& o = opts[i].view;
    std::vector<std::string> row{std::to_string(i + 1), choice_label(s, o)};
    if (pieces) row.push_back(feature_word(*s.rs->game, o.feature));
    row.push_back(o.text != o.notation ? o.text : std::string());
    list.rows.push_back(std::move(row));
  }
  return out + render_panel(s, list, players, color, 80);
}

std::string render_choices(const State& s, bool color) { return render_choices(s, {}, color); }

}  // namespace carc::cli
