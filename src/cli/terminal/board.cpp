// The board and the tile in hand: placements by cell, the window of the board shown, its cells.
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

std::vector<Candidate> placement_candidates(const State& s) {
  std::vector<Candidate> out;
  if (s.phase != Phase::Place) return out;
  MoveList ml;
  gen_placements(s, ml);
  std::map<std::pair<int, int>, std::vector<int>> by_cell;  // (y, x) -> rotations
  for (const Move& m : ml) by_cell[{m.y, m.x}].push_back(m.rot * 90);
  const BoardMarks marks = board_marks(s);
  static constexpr std::string_view kLabels = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (auto& [yx, rots] : by_cell) {
    Candidate c;
    c.x = yx.second;
    c.y = yx.first;
    std::sort(rots.begin(), rots.end());
    rots.erase(std::unique(rots.begin(), rots.end()), rots.end());
    c.rots = rots;
    if (const auto it = marks.names.find({c.x, c.y}); it != marks.names.end()) {
      c.marker = true;
      c.mark = it->second;
    }
    if (out.size() < kLabels.size()) c.label = std::string(1, kLabels[out.size()]);
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<std::string> tile_picture(const State& s, int type, int rot_quarters, bool color) {
  const Cell c = tile_cell(*s.rs, s.rs->tiles.types[static_cast<std::size_t>(type)], rot_quarters);
  std::vector<std::string> out;
  for (const auto& row : c) out.push_back(emit(std::vector<Glyph>(row.begin(), row.end()), color));
  return out;
}

namespace {
struct Window {
  int x0, x1, y0, y1;      // shown
  int bx0, bx1, by0, by1;  // the whole board
};
Window window_of(const State& s, const ViewOptions& o, const std::vector<Candidate>& cands) {
  int bx0 = 1 << 20, bx1 = -(1 << 20), by0 = 1 << 20, by1 = -(1 << 20);
  auto grow = [&](int x, int y) {
    bx0 = std::min(bx0, x);
    bx1 = std::max(bx1, x);
    by0 = std::min(by0, y);
    by1 = std::max(by1, y);
  };
  for (const PlacedTile& t : s.tiles) grow(t.x, t.y);
  for (const Candidate& c : cands) grow(c.x, c.y);
  for (const auto& [xy, word] : board_marks(s).cells) grow(xy.first, xy.second);  // overlays on empty cells
  int ncols = std::max(1, (o.width - kLeft) / kCellW);
  if (o.max_cols > 0) ncols = std::min(ncols, o.max_cols);
  const int nrows = std::max(1, o.max_rows);
  const auto focus = o.centre.value_or(std::pair<int, int>{s.last_placed().x, s.last_placed().y});
  // a window of n cells on [lo, hi] round f; when following the play, the one that shows the most
  // places for the tile in hand (their letters are what the player types), nearest f on a tie
  auto window = [&](int lo, int hi, int n, int f, bool vertical) {
    if (hi - lo + 1 <= n) return std::pair{lo, hi};
    int best = std::clamp(f - (n - 1) / 2, lo, hi - n + 1);
    if (!o.centre && !cands.empty()) {
      auto shown = [&](int a) {
        int k = 0;
        for (const Candidate& c : cands) k += (vertical ? c.y : c.x) >= a && (vertical ? c.y : c.x) < a + n;
        return k;
      };
      const int centred = best;
      for (int a = lo; a <= hi - n + 1; ++a)
        if (shown(a) > shown(best) || (shown(a) == shown(best) && std::abs(a - centred) < std::abs(best - centred)))
          best = a;
    }
    return std::pair{best, best + n - 1};
  };
  const auto [x0, x1] = window(bx0, bx1, ncols, focus.first, false);
  const auto [y0, y1] = window(by0, by1, nrows, focus.second, true);
  return {x0, x1, y0, y1, bx0, bx1, by0, by1};
}
}  // namespace

std::array<int, 4> board_window(const State& s, const ViewOptions& o, const std::vector<Candidate>& cands) {
  if (s.tiles.empty()) return {0, 0, 0, 0};
  const Window w = window_of(s, o, cands);
  return {w.x0, w.x1, w.y0, w.y1};
}

std::string render_board(const State& s, const ViewOptions& o, const std::vector<Candidate>& cands) {
  if (s.tiles.empty()) return cli_say("board.empty");
  const Window win = window_of(s, o, cands);
  const int x0 = win.x0, x1 = win.x1, y0 = win.y0, y1 = win.y1, bx0 = win.bx0, bx1 = win.bx1, by0 = win.by0,
            by1 = win.by1;

  std::map<std::pair<int, int>, const Candidate*> slot;
  for (const Candidate& c : cands) slot[{c.x, c.y}] = &c;
  // the tiles of the last turn (one tile; a "!" tile and its double tile) are highlighted
  auto this_turn = [&](int ti) {
    return ti >= static_cast<int>(s.turn_first) && s.tiles[static_cast<std::size_t>(ti)].player != 0xFF;
  };

  // piece positions: placed tile index -> (port position, player, kind)
  struct Shown {
    int port, player, kind;
  };
  std::map<int, std::vector<Shown>> pieces;
  for (const PieceOnBoard& pc : s.pieces) {
    const Segment& sg = s.graph[pc.seg];
    const std::string port = feature_port(s, s.tiles[sg.tile], sg.local);
    const auto p = port_from_name(port);
    pieces[sg.tile].push_back({p ? *p : kCentre, pc.player, pc.kind});
  }

  const BoardMarks marks = board_marks(s);
  std::string out;
  auto label_line = [&, x0 = x0, x1 = x1] {  // explicit: clang 14 cannot capture structured bindings
    std::vector<Glyph> line;
    put_text(line, "  y\\x");
    for (int x = x0; x <= x1; ++x) put_text(line, fmt::format("{:^5}", x));
    out += emit(line, false) + "\n";
  };
  label_line();
  for (int y = y0; y <= y1; ++y) {
    std::array<std::vector<Glyph>, kCellH> lines;
    put_text(lines[0], "     ");
    put_text(lines[1], fmt::format("{:>4} ", y));
    put_text(lines[2], "     ");
    for (int x = x0; x <= x1; ++x) {
      Cell c;
      const int ti = s.placed_at(x, y);
      if (ti >= 0) {
        const PlacedTile& t = s.tiles[static_cast<std::size_t>(ti)];
        u16 covered = 0;
        for (int f = 0; f < s.type_of(t).nfeat; ++f)
          if (s.graph[t.seg0 + f].covered) covered = static_cast<u16>(covered | (1u << f));
        c = tile_cell(*s.rs, s.type_of(t), t.rot, covered);
        const u8 shade = this_turn(ti) ? 2 : static_cast<u8>((x + y) & 1);
        for (auto& row : c)
          for (auto& g : row) g.shade = shade;
        if (const auto it = pieces.find(ti); it != pieces.end())
          for (const auto& [port, player, kind] : it->second) {
            auto [col, row] = kPortPos[static_cast<std::size_t>(port)];
            if (port == kCentre) col = 3;  // beside what stands at C (a point feature's letter, a centre's count)
            c[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)] =
                Glyph{piece_mark(player, kind), St::Piece, shade, static_cast<u8>(player)};
          }
        // the overlays at this tile's corners (a grid point's parts)
        if (const auto it = marks.corners.find({x, y}); it != marks.corners.end())
          for (std::size_t k = 0; k < 4; ++k) {
            const CornerMarks& cm = it->second[k];
            if (cm.mark) {
              c[static_cast<std::size_t>(kCornerGlyph[k][0])][static_cast<std::size_t>(kCornerGlyph[k][1])] = *cm.mark;
              c[static_cast<std::size_t>(kCornerGlyph[k][0])][static_cast<std::size_t>(kCornerGlyph[k][1])].shade =
                  shade;
            }
            if (cm.beside) {
              c[static_cast<std::size_t>(kCornerBeside[k][0])][static_cast<std::size_t>(kCornerBeside[k][1])] =
                  *cm.beside;
              c[static_cast<std::size_t>(kCornerBeside[k][0])][static_cast<std::size_t>(kCornerBeside[k][1])].shade =
                  shade;
            }
          }
      } else if (const auto it = slot.find({x, y}); it != slot.end()) {
        c = slot_cell(it->second->label);
        if (const auto m = marks.cells.find({x, y});
            m != marks.cells.end())  // the tile in hand may go on an overlay's cell
          for (std::size_t i = 1; i < kCellW; ++i) c[2][i] = m->second[i - 1];
      } else if (const auto m = marks.cells.find({x, y}); m != marks.cells.end()) {
        for (std::size_t i = 1; i < kCellW; ++i) c[1][i] = m->second[i - 1];
      }
      for (std::size_t r = 0; r < kCellH; ++r) lines[r].insert(lines[r].end(), c[r].begin(), c[r].end());
    }
    for (auto& l : lines) out += emit(l, o.color) + "\n";
  }
  if (o.bottom_axis) label_line();
  if (x0 != bx0 || x1 != bx1 || y0 != by0 || y1 != by1)
    out += wrap(
        cli_say(
            "board.window",
            {{"x0", x0}, {"x1", x1}, {"bx0", bx0}, {"bx1", bx1}, {"y0", y0}, {"y1", y1}, {"by0", by0}, {"by1", by1}}),
        o.width);
  return out;
}

namespace {

// What a tile holds, in the session's language: the tile file's description in English; else each
// feature's word, its ports and its symbols ("луг N+ENE+WNW (мамонт: 1); река E+W").
std::string tile_words(const Ruleset& rs, const TileType& tt) {
  if (i18n::current() == i18n::Lang::En) return printable(tt.description);
  const GameDef& g = *rs.game;
  std::vector<std::string> parts;
  for (int f = 0; f < tt.nfeat; ++f) {
    const TileFeature& tf = tt.feats[static_cast<std::size_t>(f)];
    const FeatureTypeDef& fd = rs.ftype(tf.type);
    std::vector<std::string_view> ports;
    for (std::size_t p = 0; p < kPortNames.size(); ++p)
      if ((tf.ports >> p) & 1u) ports.push_back(kPortNames[p]);
    std::string part = feature_word(g, fd.name);
    if (!ports.empty()) part += fmt::format(" {}", fmt::join(ports, "+"));
    std::vector<std::string> symbols;
    for (std::size_t k = 0; k < fd.attrs.size() && k < kAttrs; ++k)
      if (tf.attr[k] > 0) symbols.push_back(noun_count(g, fd.attrs[k], tf.attr[k]));
    if (tf.special > 0 && tf.special <= g.specials.size()) symbols.push_back(term_noun(g, g.specials[tf.special - 1u]));
    if (!symbols.empty()) part += fmt::format(" ({})", fmt::join(symbols, ", "));
    parts.push_back(std::move(part));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

}  // namespace

std::string render_hand(const State& s, const std::vector<Candidate>& cands, const ViewOptions& o, bool compact) {
  if (s.in_hand == 0xFF) return "";
  const TileType& tt = s.rs->tiles.types[s.in_hand];
  const std::string what = tile_words(*s.rs, tt);
  std::string out = wrap(cli_say("hand.title", {{"id", printable(tt.id)}, {"what", what}}), 80);
  if (compact) {  // one line: the pictures say the rest
    std::string title = cli_say("hand.title", {{"id", printable(tt.id)}, {"what", what}});
    if (display_width(title) > std::min(o.width, 80)) {
      std::string cut;
      for (std::size_t i = 0; i < title.size();) {
        const auto n = static_cast<std::size_t>(title[i] & 0x80 ? ((title[i] & 0xE0) == 0xC0   ? 2
                                                                   : (title[i] & 0xF0) == 0xE0 ? 3
                                                                                               : 4)
                                                                : 1);
        if (display_width(cut) + 3 > std::min(o.width, 80)) break;
        cut += title.substr(i, n);
        i += n;
      }
      title = cut + "…)";
    }
    out = title + "\n";
  }
  std::array<bool, 4> fits{};
  for (const Candidate& c : cands)
    for (int r : c.rots) fits[static_cast<std::size_t>(r / 90) & 3] = true;
  std::vector<Glyph> labels;
  std::array<std::vector<Glyph>, kCellH> rows;
  bool some_unfit = false;
  for (int k = 0; k < tt.nrots; ++k) {
    const int r = tt.distinct_rots[static_cast<std::size_t>(k)];
    const bool f = fits[static_cast<std::size_t>(r)];
    some_unfit |= !f;
    put_text(labels, fmt::format("{:^7} ", f ? fmt::format("r{}", r * 90) : fmt::format("(r{})", r * 90)));
    const Cell c = tile_cell(*s.rs, tt, r);
    for (std::size_t i = 0; i < kCellH; ++i) {
      put_text(rows[i], " ");
      rows[i].insert(rows[i].end(), c[i].begin(), c[i].end());
      put_text(rows[i], "  ");
    }
  }
  out += "  " + emit(labels, false) + "\n";
  for (auto& r : rows) out += "  " + emit(r, o.color) + "\n";
  if (some_unfit && !compact) out += cli_say("hand.unfit");
  return out;
}

std::string render_placements(const State& s, const std::vector<Candidate>& cands, int width, bool compact) {
  if (cands.empty()) return cli_say("fits.none");
  std::string mname;  // the mark of what stands on a cell (the first such cell's)
  for (const Candidate& c : cands)
    if (c.marker && mname.empty()) mname = c.mark;
  std::size_t total = 0;
  std::vector<std::string> items;
  for (const Candidate& c : cands) {
    std::string rots;
    for (int r : c.rots) rots += compact ? fmt::format("{}{}", rots.empty() ? " r" : "/", r) : fmt::format(" r{}", r);
    if (compact && !c.label.empty())
      items.push_back(fmt::format("{}{}{}", c.label, rots, c.marker ? " " + c.mark : ""));
    else
      items.push_back(
          fmt::format("{:<2}{},{}:{}{}", c.label.empty() ? "" : c.label, c.x, c.y, rots, c.marker ? " " + c.mark : ""));
    total += c.rots.size();
  }
  std::size_t w = 0;
  for (const auto& it : items) w = std::max(w, it.size());
  const std::size_t per_line =
      std::max<std::size_t>(1, (static_cast<std::size_t>(std::max(width, 20)) - 2 + 3) / (w + 3));
  std::string out =
      compact
          ? cli_say("fits.compact", {{"cells", static_cast<int>(cands.size())}})
          : cli_say("fits.full", {{"cells", static_cast<int>(cands.size())}, {"placements", static_cast<int>(total)}});
  for (std::size_t i = 0; i < items.size(); ++i) {
    const bool end = (i + 1) % per_line == 0 || i + 1 == items.size();
    out += (i % per_line == 0 ? "  " : "") + (end ? items[i] : fmt::format("{:<{}}   ", items[i], w));
    if (end) out += "\n";
  }
  if (std::any_of(cands.begin(), cands.end(), [](const Candidate& c) { return c.marker; }) &&
      !s.rs->game->present.marker_text.empty())
    out += wrap_hang("  ",
                     fmt::format("({}: {})", mname,
                                 has_message(*s.rs->game, "marker.text") ? carc::say(*s.rs->game, "marker.text")
                                                                         : s.rs->game->present.marker_text),
                     3, std::max(width, 40));
  return out;
}

}  // namespace carc::cli
