// What stands on the board besides tiles and pieces: the view's overlays as terminal marks.
#include "cli/terminal/common.hpp"
#include "core/io.hpp"
#include "rules/words.hpp"
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

// ---- What stands on the board besides tiles and pieces --------------------------------------
// The view's overlays (View::overlays, from the game's Presentation::overlays), drawn with the
// terminal marks of the game's look (docs/look.md, "terminal"): an overlay on a cell as its mark
// (a word of up to 4 characters) across the empty cell; the parts of an overlay at a grid point in
// the corners of the tiles that meet there, each part in the quarter its offset (or its turn)
// points to: a part with a mark in the corner, a seat's piece beside it. Overlays on a track are
// the game's panels' business (a panel with a track).

// A piece on the board: kind 0 (the first piece kind) is its player's number, kind 1 the number
// in a circle.
std::string piece_mark(int player, int kind) {
  static constexpr std::array<const char*, kMaxPlayers> kCircled = {"①", "②", "③", "④", "⑤"};
  if (kind == 1 && player >= 0 && player < kMaxPlayers) return kCircled[static_cast<std::size_t>(player)];
  return std::to_string(player + 1);
}

// The characters (code points) of a mark, each a glyph in the mark's colours.
std::vector<Glyph> mark_glyphs(const view::TermMark& m) {
  std::vector<Glyph> out;
  for (std::size_t i = 0; i < m.mark.size();) {
    const auto c = static_cast<unsigned char>(m.mark[i]);
    const std::size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : 4;
    out.push_back(
        Glyph{m.mark.substr(i, n), St::Mark, 0, 0, static_cast<u8>(m.fg >= 0 ? m.fg : 231), static_cast<i16>(m.bg)});
    i += n;
  }
  return out;
}

// The quarter of a grid point a part of an overlay there stands in: where its offset points
// (quarter c is corner c of the cell touching the point), else by its turn (drawn for quarter 0,
// turned 90 degrees a quarter).
int quarter_of(const OverlayPart& p) {
  if (p.dx != 0 || p.dy != 0)
    for (int c = 0; c < 4; ++c) {
      const auto ci = static_cast<std::size_t>(c);
      if ((p.dx < 0) == (kCornerDx[ci] == 1) && (p.dy < 0) == (kCornerDy[ci] == 1)) return c;
    }
  return ((p.rot / 90) % 4 + 4) % 4;
}

BoardMarks board_marks(const State& s) {
  BoardMarks out;
  const GameDef& g = *s.rs->game;
  if (!g.present.overlays) return out;
  const view::Look& look = view::look_of(g);
  for (const view::OverlayView& ov : view::build_view(s, {}, {false, false, std::nullopt}).overlays) {
    const Overlay& o = ov.overlay;
    if (o.at == Overlay::At::Cell) {
      std::string glyph = o.glyph;
      if (glyph.empty())
        for (const OverlayPart& p : o.parts)
          if (glyph.empty() && view::term_glyph(look, p.glyph)) glyph = p.glyph;
      const view::TermMark* tm = view::term_glyph(look, glyph);
      view::TermMark m = tm ? *tm : view::TermMark{glyph.substr(0, 4)};  // no mark: the glyph's name
      if (has_message(g, "look.mark." + glyph)) m.mark = carc::say(g, "look.mark." + glyph);  // a word, in the language
      std::vector<Glyph> word = mark_glyphs(m);
      word.resize(std::min<std::size_t>(word.size(), kCellW - 1));
      while (word.size() < kCellW - 1)
        word.push_back(Glyph{" ", St::Mark, 0, 0, static_cast<u8>(m.fg >= 0 ? m.fg : 231), static_cast<i16>(m.bg)});
      const view::Glyph* gl = view::glyph_of(look, glyph);
      out.names.emplace(std::pair{o.x, o.y}, has_message(g, "look.title." + glyph) ? carc::say(g, "look.title." + glyph)
                                             : gl && !gl->title.empty()            ? gl->title
                                                                                   : m.mark);
      out.cells.emplace(std::pair{o.x, o.y}, std::move(word));
    } else if (o.at == Overlay::At::Point) {
      for (const OverlayPart& p : o.parts) {
        const view::TermMark* tm = view::term_glyph(look, p.glyph);
        if (!tm) continue;
        const int q = quarter_of(p);
        const auto qi = static_cast<std::size_t>(q);
        CornerMarks& cm = out.corners[{o.x - kCornerDx[qi], o.y - kCornerDy[qi]}][qi];
        const int seat = p.seat >= 0 ? p.seat : o.seat;
        if (tm->seat && seat >= 0 && seat < kMaxPlayers)
          cm.beside = Glyph{piece_mark(seat, 0), St::Piece, 0, static_cast<u8>(seat)};
        else if (!tm->seat)
          if (const auto gl = mark_glyphs(*tm); !gl.empty()) cm.mark = gl[0];
      }
    }
  }
  return out;
}

}  // namespace term

}  // namespace carc::cli
