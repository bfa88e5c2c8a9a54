// view/svg_board: a whole board as one SVG document (see svg.hpp: render_svg), drawn from a View
// with the game's look: the heading (title, status, scores, a key to the look's glyphs), the
// tiles (tile_art.cpp), the pieces, the game's overlays, its track and a side panel for what the
// players hold. It names no game: everything a game adds comes from the view and the look.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "rules/words.hpp"
#include "view/look.hpp"
#include "view/svg.hpp"
#include "view/svg_util.hpp"
#include "view/view.hpp"

namespace carc::view {

namespace {

using svg::esc;
using svg::glyph_svg;
using svg::num;
using svg::text_len;

std::string_view outline(int seat) { return seat == 4 ? "#e8e8e8" : "#111111"; }
std::string_view seat_colour(int seat) { return kSeatColours[static_cast<std::size_t>(seat) % kMaxPlayers]; }

// A piece name as one class name ("tribe member" -> "tribe-member").
std::string class_name(std::string name) {
  std::replace(name.begin(), name.end(), ' ', '-');
  return name;
}

// "{pN}" in a game's text replaced by seat N's name.
std::string with_names(std::string text, const std::vector<std::string>& names) {
  for (std::size_t p = 0; p < names.size(); ++p) {
    const std::string key = fmt::format("{{p{}}}", p);
    for (std::size_t i = 0; (i = text.find(key, i)) != std::string::npos; i += names[p].size()) text.replace(i, key.size(), names[p]);
  }
  return text;
}

const FeatureTypeDef* ftype_named(const GameDef& game, std::string_view name) {
  for (const FeatureTypeDef& ft : game.ftypes)
    if (ft.name == name) return &ft;
  return nullptr;
}

// A glyph drawn in a seat's colour (the elements without a fill of their own take it).
std::string in_seat(const Glyph& g, int seat, double k) {
  if (seat < 0) return glyph_svg(g, k);
  return fmt::format(R"~(<g fill="{0}" color="{0}" stroke="{1}" stroke-width="1" stroke-linejoin="round">{2}</g>)~", seat_colour(seat),
                     outline(seat), glyph_svg(g, k));
}

// One entry of the key under the scores: a glyph (drawn round the origin) and its label.
struct KeyEntry {
  std::string label, glyph;
  double width = 0;
  std::string item;  // data-item: the look's label (English), whatever the language
};

// A key entry's label in the current language: the game's word for the glyph or the label
// ("look.key.GLYPH", "noun.LABEL", "piece.LABEL", "svg.GLYPH"), else the look's English label.
std::string key_word(const GameDef& game, const std::string& glyph, const std::string& label) {
  std::string l = label;
  std::replace(l.begin(), l.end(), ' ', '_');
  for (const std::string& id : {"look.key." + glyph, "noun." + l, "piece." + l, "feature." + l, "svg." + glyph})
    if (has_message(game, id)) return say(game, id);
  return label;
}

std::vector<KeyEntry> key_entries(const GameDef& game, const Look& look) {
  std::vector<KeyEntry> out;
  for (const KeyItem& k : look.key) {
    const Glyph& g = *glyph_of(look, k.glyph);
    std::string item = !k.label.empty() ? k.label : !g.title.empty() ? g.title : k.glyph;
    std::string label = key_word(game, k.glyph, item);
    const double scale = k.scale > 0 ? k.scale : std::min(1.0, 14.0 / g.size);
    std::string body = glyph_svg(g, scale);
    if (g.seat) body = fmt::format(R"~(<g fill="#a0a0a0" color="#a0a0a0" stroke="#111111" stroke-width="1" stroke-linejoin="round">{}</g>)~", body);
    const double w = 16 + 7.4 * text_len(label) + 14;
    out.push_back({std::move(label), std::move(body), w, std::move(item)});
  }
  return out;
}

// The overlays on the board (not those on the track): each a <g class="overlay GLYPH"
// data-overlay="ID"> at its cell's centre or its grid point, its glyph then its parts.
void draw_overlays(std::string& out, const View& v, const Look& look, const std::vector<std::string>& names, double t, double ox,
                   double oy) {
  for (const OverlayView& ov : v.overlays) {
    const Overlay& o = ov.overlay;
    if (o.at == Overlay::At::Track) continue;
    const bool cell = o.at == Overlay::At::Cell;
    const double x = ox + (o.x + (cell ? 0.5 : 0.0)) * t, y = oy + (o.y + (cell ? 0.5 : 0.0)) * t;
    const std::string kind = o.glyph.empty() ? o.id.substr(0, o.id.find(':')) : o.glyph;
    out += fmt::format(R"~(<g class="overlay {}{}" data-overlay="{}" data-at="{}" data-x="{}" data-y="{}" transform="translate({},{})"><title>{}</title>)~",
                       esc(class_name(kind)), o.done ? " done" : "", esc(o.id), cell ? "cell" : "point", o.x, o.y, num(x), num(y),
                       esc(with_names(o.label, names)));
    if (const Glyph* g = o.glyph.empty() ? nullptr : glyph_of(look, o.glyph)) out += in_seat(*g, o.seat, t / 64.0);
    for (const OverlayPart& p : o.parts) {
      const Glyph* g = glyph_of(look, p.glyph);
      if (!g) continue;
      std::string transform = fmt::format("translate({},{})", num(p.dx * t), num(p.dy * t));
      if (p.rot != 0) transform += fmt::format(" rotate({})", p.rot);
      out += fmt::format(R"~(<g class="part {}"{} transform="{}">)~", esc(class_name(p.glyph)),
                         p.seat >= 0 ? fmt::format(R"~( data-player="{}")~", p.seat) : std::string(), transform);
      if (!p.label.empty()) out += fmt::format("<title>{}</title>", esc(with_names(p.label, names)));
      out += in_seat(*g, p.seat, t / 64.0) + "</g>";
    }
    out += "</g>\n";
  }
}

}  // namespace

std::string render_svg(const View& v, const Ruleset& rs, const SvgOptions& o) {
  const GameDef& game = *rs.game;
  const Look& look = look_of(game);
  const double t = std::clamp(o.tile_px, 16, 512);
  int minx = 0, maxx = 0, miny = 0, maxy = 0;
  std::map<std::pair<int, int>, const TileView*> at;
  for (std::size_t i = 0; i < v.tiles.size(); ++i) {
    const TileView& tv = v.tiles[i];
    if (i == 0) {
      minx = maxx = tv.x;
      miny = maxy = tv.y;
    }
    minx = std::min(minx, tv.x);
    maxx = std::max(maxx, tv.x);
    miny = std::min(miny, tv.y);
    maxy = std::max(maxy, tv.y);
    at[{tv.x, tv.y}] = &tv;
  }
  // the board takes in the cells of the overlays, and room round those at grid points on its edge
  double pad_l = 0, pad_r = 0, pad_t = 0, pad_b = 0;
  if (!v.tiles.empty()) {
    for (const OverlayView& ov : v.overlays)
      if (ov.overlay.at == Overlay::At::Cell) {
        minx = std::min(minx, ov.overlay.x);
        maxx = std::max(maxx, ov.overlay.x);
        miny = std::min(miny, ov.overlay.y);
        maxy = std::max(maxy, ov.overlay.y);
      }
    const double pad = 0.38 * t;
    for (const OverlayView& ov : v.overlays) {
      if (ov.overlay.at != Overlay::At::Point) continue;
      if (ov.overlay.x <= minx) pad_l = pad;
      if (ov.overlay.x > maxx) pad_r = pad;
      if (ov.overlay.y <= miny) pad_t = pad;
      if (ov.overlay.y > maxy) pad_b = pad;
    }
  }
  const int cols = maxx - minx + 1, rows = maxy - miny + 1;
  const std::vector<KeyEntry> key = o.key ? key_entries(game, look) : std::vector<KeyEntry>{};
  double key_w = 12;
  for (const KeyEntry& k : key) key_w += k.width;
  const double left = (o.coords ? 36 : 14) + pad_l, top = (o.coords ? 96 : 80) + (key.empty() ? 0 : 24) + pad_t,
               right = 14 + pad_r, bottom = 14 + pad_b;
  const double ox = left - minx * t, oy = top - miny * t;
  double height = top + rows * t + bottom;
  const int nplayers = static_cast<int>(v.players.size());
  // the game's track (spaces 1..track_len on a band under the board, its pieces above their spaces)
  const bool track = v.track_len > 0;
  const double sc = std::clamp(t / 64.0, 1.0, 2.5);  // the track grows with large tiles
  const double space_w = 28 * sc, piece_row = 13 * sc;
  const double track_top = top + rows * t + 10;
  const double track_row = track_top + 24 + piece_row * nplayers + 8 * sc;  // y of the spaces' centres
  if (track) height = track_row + 13 * sc + 12;
  // a side panel right of the board when players hold things besides pieces
  const bool hands = std::any_of(v.players.begin(), v.players.end(), [](const PlayerView& p) { return !p.hand.empty(); });
  constexpr double kPanelW = 226, kPanelRow = 66;
  const double panel_x = left + cols * t + right + 10, panel_y = top - pad_t;
  const double panel_h = 30 + kPanelRow * nplayers + 12 + 17.0 * static_cast<double>(v.summary.size());
  if (hands) height = std::max(height, panel_y + panel_h + 14);

  // heading: one column per player with the score and the pieces left (each kind by name if the
  // game has two: then the columns are as wide as the longest entry)
  std::vector<std::string> names, left_over, full_names;
  double col = 150.0;
  for (int p = 0; p < nplayers; ++p) {
    const auto sp = static_cast<std::size_t>(p);
    const PlayerView& pv = v.players[sp];
    std::string name = sp < o.player_names.size() && !o.player_names[sp].empty() ? o.player_names[sp]
                                                                                 : say("svg.player", {{"n", p + 1}});
    full_names.push_back(name);
    if (name.size() > 18) name = name.substr(0, 17) + "~";
    names.push_back(name);
    if (pv.supply.size() > 1) {
      std::vector<std::string> parts;
      for (const auto& [what, n] : pv.supply) {
        const std::string one = piece_word(game, what);
        std::string id = fmt::format("plural.{}", what);
        std::replace(id.begin(), id.end(), ' ', '_');
        const std::string many = has_message(game, id) ? say(game, id) : one;
        parts.push_back(say("svg.supply_part", {{"n", n}, {"piece", n == 1 ? one : many}, {"one", one}}));
      }
      left_over.push_back(say("svg.left_kinds", {{"list", fmt::format("{}", fmt::join(parts, ", "))}}));
      col = std::max(col, 36.0 + 7.2 * text_len(fmt::format("{}: {} ({})", name, pv.score, left_over.back())));
    } else {
      left_over.push_back(say("svg.left", {{"n", pv.supply.empty() ? 0 : pv.supply[0].second}}));
    }
  }
  const std::string title = o.title.empty() ? game.title : o.title;
  std::string status = o.subtitle;
  auto add = [&status](const std::string& part) { status += status.empty() ? part : " \u2014 " + part; };
  add(say("svg.tiles_placed", {{"n", v.tiles.size()}}));
  if (v.over) {
    add(say("svg.game_over"));
  } else {
    if (!v.decision.tile.empty()) {
      const int type = rs.tiles.find(v.decision.tile);
      const bool bonus = type >= 0 && rs.tiles.types[static_cast<std::size_t>(type)].pile == kPileBonus;
      const auto dp = static_cast<std::size_t>(v.decision.player);
      const std::string who = dp < names.size() ? full_names[dp] : say("svg.player", {{"n", v.decision.player + 1}});
      add(say(bonus ? "svg.next_bonus" : "svg.next", {{"tile", v.decision.tile}, {"player", who}}));
    }
    add(say("svg.pile", {{"n", v.pile_left}}));
  }
  if (rs.tiles.bonus_total > 0) add(say("svg.bonus_left", {{"n", v.bonus_left}}));
  // wide enough for the heading (rough text widths: the picture is not clipped by the viewer)
  const double width =
      std::max({left + cols * t + right, 40.0 + col * nplayers, 24.0 + 10.0 * text_len(title),
                24.0 + 7.0 * text_len(status), track ? left + 16 * sc + v.track_len * space_w + 32 * sc + right : 0.0,
                key.empty() ? 0.0 : key_w, hands ? panel_x + kPanelW + 14 : 0.0});

  std::string out = fmt::format(
      R"~(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" font-family="DejaVu Sans, Arial, sans-serif">)~",
      num(width), num(height));
  out += "\n";
  out += fmt::format(R"~(<rect width="{}" height="{}" fill="#f4f1ea"/>)~", num(width), num(height));
  out += "\n";
  out += fmt::format(R"~(<text class="title" x="12" y="22" font-size="16" font-weight="bold" fill="#222">{}</text>)~", esc(title));
  out += "\n";
  out += fmt::format(R"~(<text class="status" x="12" y="42" font-size="12" fill="#333">{}</text>)~", esc(status));
  out += "\n";
  for (int p = 0; p < nplayers; ++p) {
    const auto sp = static_cast<std::size_t>(p);
    const double x = 12 + col * p;
    out += fmt::format(
        R"~(<g class="score" data-player="{}"><rect x="{}" y="52" width="12" height="12" fill="{}" stroke="#111" stroke-width="1"/><text x="{}" y="62" font-size="12" fill="#222">{}: <tspan font-weight="bold">{}</tspan> ({})</text></g>)~",
        p, num(x), seat_colour(p), num(x + 16), esc(names[sp]), v.players[sp].score, esc(left_over[sp]));
    out += "\n";
  }
  if (!key.empty()) {
    out += R"~(<g class="key">)~";
    double x = 12;
    for (const KeyEntry& k : key) {
      out += fmt::format(
          R"~(<g class="key-item" data-item="{}"><g transform="translate({},76)">{}</g><text x="{}" y="80" font-size="11" fill="#333">{}</text></g>)~",
          esc(k.item), num(x + 7), k.glyph, num(x + 16), esc(k.label));
      x += k.width;
    }
    out += "</g>\n";
  }
  // axes
  if (o.coords) {
    out += fmt::format(R"~(<text class="axis" x="4" y="{}" font-size="10" fill="#555">x&#8594;</text>)~", num(top - pad_t - 6));
    out += fmt::format(R"~(<text class="axis" x="4" y="{}" font-size="10" fill="#555">y&#8595;</text>)~", num(top - pad_t + 12));
    out += "\n";
    for (int x = minx; x <= maxx; ++x)
      out += fmt::format(R"~(<text class="axis" x="{}" y="{}" font-size="11" fill="#333" text-anchor="middle">{}</text>)~",
                         num(ox + (x + 0.5) * t), num(top - pad_t - 6), x);
    out += "\n";
    for (int y = miny; y <= maxy; ++y)
      out += fmt::format(R"~(<text class="axis" x="{}" y="{}" font-size="11" fill="#333" text-anchor="end">{}</text>)~",
                         num(left - pad_l - 6), num(oy + (y + 0.5) * t + 4), y);
    out += "\n";
  }
  // empty cells of the board's bounding box
  out += R"~(<g class="grid" fill="none" stroke="#d6d0c4" stroke-width="1">)~";
  for (int y = miny; y <= maxy; ++y)
    for (int x = minx; x <= maxx; ++x)
      if (!at.count({x, y}))
        out += fmt::format(R"~(<rect x="{}" y="{}" width="{}" height="{}"/>)~", num(ox + x * t + 0.5), num(oy + y * t + 0.5), num(t - 1),
                           num(t - 1));
  out += "</g>\n";

  // the tiles (what their pictures refer to by id in one <defs> before them)
  ArtDefs defs;
  const std::size_t defs_at = out.size();
  for (std::size_t i = 0; i < v.tiles.size(); ++i) {
    const TileView& tv = v.tiles[i];
    const int type = rs.tiles.find(tv.id);
    if (type < 0) throw InputError(fmt::format("render: the view names a tile \"{}\" the game's tile set has not", printable(tv.id)));
    const TileType& tt = rs.tiles.types[static_cast<std::size_t>(type)];
    const std::string kind =
        tt.kind != 0 && tt.kind < game.tile_kinds.size() ? fmt::format(R"~( data-kind="{}")~", esc(game.tile_kinds[tt.kind])) : "";
    out += fmt::format(R"~(<g class="tile" id="tile-{}" data-tile="{}" data-x="{}" data-y="{}" data-rot="{}"{} transform="translate({},{})">)~",
                       i, esc(tt.id), tv.x, tv.y, tv.rot, kind, num(ox + tv.x * t), num(oy + tv.y * t));
    out += "\n";
    u32 covered = 0;
    for (const int f : tv.covered) covered |= 1u << f;
    draw_tile_art(out, rs, type, (tv.rot / 90) & 3, t, covered, &defs);
    if (o.coords)
      out += fmt::format(
          R"~(<text class="coord" x="2" y="{}" font-size="{}" fill="#1b1b1b" fill-opacity="0.75" stroke="#ffffff" stroke-opacity="0.6" stroke-width="2" paint-order="stroke">{},{}</text>)~",
          num(t - 3), num(std::max(7.0, 0.14 * t)), tv.x, tv.y);
    out += "\n</g>\n";
  }
  if (!defs.text.empty()) out.insert(defs_at, "<defs>" + defs.text + "</defs>\n");
  // tiles of two cells: a dashed frame round both
  for (const TileView& a : v.tiles) {
    const TileType& tt = rs.tiles.types[static_cast<std::size_t>(rs.tiles.find(a.id))];
    if (tt.east == 0xFF) continue;
    const int side = (1 + a.rot / 90) % 4;  // where the east cell lies after the rotation
    const int bx = a.x + kDx[static_cast<std::size_t>(side)], by = a.y + kDy[static_cast<std::size_t>(side)];
    const auto b = at.find({bx, by});
    if (b == at.end() || rs.tiles.find(b->second->id) != tt.east) continue;
    const int x0 = std::min(a.x, bx), y0 = std::min(a.y, by);
    out += fmt::format(
        R"~(<rect class="double" data-x="{}" data-y="{}" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#fff3a0" stroke-width="2" stroke-dasharray="6 3"/>)~",
        a.x, a.y, num(ox + x0 * t + 2), num(oy + y0 * t + 2), num((std::abs(bx - a.x) + 1) * t - 4), num((std::abs(by - a.y) + 1) * t - 4));
    out += "\n";
  }
  // the tiles placed in the last turn
  if (o.highlight_last)
    for (const TileView& tv : v.tiles) {
      if (!tv.last) continue;
      out += fmt::format(R"~(<rect class="last" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#ff00d4" stroke-width="3"/>)~",
                         num(ox + tv.x * t + 1.5), num(oy + tv.y * t + 1.5), num(t - 3), num(t - 3));
      out += "\n";
    }
  draw_overlays(out, v, look, full_names, t, ox, oy);

  // the pieces, each the look's glyph for it in its owner's colour at its anchor (lying on a field)
  for (const PieceView& pc : v.pieces) {
    const FeatureTypeDef* ft = ftype_named(game, pc.feature);
    const int kind = pc.piece == game.piece_names[0] ? 0 : 1;
    const bool network = ft && kind != ft->piece_kind && ft->network_kind == kind;
    const Glyph* g = glyph_of(look, piece_glyph(look, pc.piece, kind, network));
    if (!g) continue;
    const bool farmer = ft && ft->cls == FClass::Field && kind == 0;  // a follower on a field lies down
    const std::string named = pc.piece == "follower" ? "" : " " + esc(class_name(pc.piece));
    out += fmt::format(
        R"~(<g class="follower{}{}" data-player="{}" data-feature="{}" fill="{}" color="{}" stroke="{}" stroke-width="1.2" stroke-linejoin="round" transform="translate({},{}){}">{}</g>)~",
        farmer ? " farmer" : "", named, pc.player, esc(pc.feature), seat_colour(pc.player), seat_colour(pc.player), outline(pc.player),
        num(ox + (pc.x + pc.anchor.x) * t), num(oy + (pc.y + pc.anchor.y) * t), farmer ? " rotate(90)" : "", glyph_svg(*g, t / 64.0));
    out += "\n";
  }

  // the track: a river flowing east (its water, banks and ripples) with spaces 1..track_len on
  // it, the last where it meets the sea; the pieces on the water above their spaces (stacked
  // in order)
  if (track) {
    const TrackStyle& ts = look.track;
    auto S = [sc](double x) { return num(x * sc); };
    const double x0 = left;
    out += fmt::format(R"~(<g class="track" data-length="{}">)~", v.track_len);
    out += "\n";
    out += fmt::format(R"~(<text x="{}" y="{}" font-size="12" font-weight="bold" fill="#222">{}</text>)~", num(x0), num(track_top + 12),
                       esc(v.track_title));
    const double top_y = track_top + 20, bot_y = track_row + 13 * sc, x1 = x0 + 16 * sc + v.track_len * space_w;
    const double sea = 24 * sc, wave = space_w;  // the sea past the last space; one bend of a bank per space
    // a bank: a gentle wave along y from x0 to x1 (a bend per space), then opening out
    // to the sea; `back`: the same line drawn from the sea back to x0 (to close the water)
    const int bends = static_cast<int>(std::ceil((x1 - x0) / wave - 1e-9));
    auto bend = [&](int k) { return std::min(wave, x1 - x0 - k * wave); };
    auto bank = [&](double y, double dir, bool back) {
      const double ey = y - dir * 4.5 * sc;
      std::string d = back ? fmt::format(" L{},{} Q{},{} {},{}", num(x1 + sea), num(ey), num(x1 + sea * 0.5), num(y),
                                         num(x1), num(y))
                           : fmt::format("M{},{}", num(x0), num(y));
      for (int i = 0; i < bends; ++i) {
        const int k = back ? bends - 1 - i : i;
        const double dx = bend(k), a = dir * 2.5 * sc * (k % 2 == 0 ? 1 : -1);
        d += fmt::format(" q{},{} {},0", num((back ? -dx : dx) / 2), num(a), num(back ? -dx : dx));
      }
      if (!back) d += fmt::format(" Q{},{} {},{}", num(x1 + sea * 0.5), num(y), num(x1 + sea), num(ey));
      return d;
    };
    const std::string upper = bank(top_y, 1, false), lower = bank(bot_y, -1, false);
    const double land_y = top_y - 5 * sc, land_h = bot_y - top_y + 10 * sc, sea_x = x1 + sea * 0.55,
                 end_x = x1 + sea + 8 * sc;
    out += fmt::format(R"~(<rect class="bank" x="{}" y="{}" width="{}" height="{}" rx="{}" fill="{}"/>)~",
                       num(x0 - 4 * sc), num(land_y), num(end_x - x0 + 4 * sc), num(land_h), S(6),
                       ts.bank.empty() ? ts.fill : ts.bank);
    out += fmt::format(R"~(<path class="water" d="{}{} Z" fill="{}"/>)~", upper, bank(bot_y, -1, true), ts.fill);
    out += fmt::format(
        R"~(<path d="{}" fill="none" stroke="{}" stroke-width="{}"/><path d="{}" fill="none" stroke="{}" stroke-width="{}"/>)~",
        upper, ts.edge, S(2), lower, ts.edge, S(2));
    // the sea, a deeper blue, past the last space
    out += fmt::format(
        R"~(<path class="sea" d="M{0},{1} H{2} Q{3},{1} {3},{4} V{5} Q{3},{6} {2},{6} H{0} Q{7},{8} {0},{1} Z" fill="{9}"/>)~",
        num(sea_x), num(land_y), num(end_x - 6 * sc), num(end_x), num(land_y + 6 * sc), num(land_y + land_h - 6 * sc),
        num(land_y + land_h), num(sea_x - 7 * sc), num(track_row), ts.edge);
    // ripples between the spaces, and waves in the sea
    std::string ripples, waves;
    for (int k = 1; k < v.track_len; ++k)
      ripples += fmt::format("M{},{} q{},{} {},0 ", num(x0 + 8 * sc + k * space_w - 2.5 * sc),
                             num(track_row + (k % 2 == 0 ? -3 : 4) * sc), S(1.25), S(-1.6), S(2.5));
    for (int k = 0; k < 3; ++k)
      waves += fmt::format("M{},{} q{},{} {},0 t{},0 ", num(sea_x + 1 * sc), num(track_row + (k - 1) * 9 * sc), S(2),
                           S(-2.2), S(4), S(4));
    out += fmt::format(
        R"~(<path class="ripples" d="{}" fill="none" stroke="{}" stroke-opacity="0.6" stroke-width="{}" stroke-linecap="round"/><path d="{}" fill="none" stroke="#ffffff" stroke-opacity="0.8" stroke-width="{}" stroke-linecap="round"/>)~",
        ripples, ts.edge, S(1.1), waves, S(1.2));
    out += "\n";
    for (int k = 1; k <= v.track_len; ++k) {
      const double cx = x0 + 8 * sc + (k - 0.5) * space_w;
      out += fmt::format(
          R"~(<g class="space" data-space="{0}"><circle cx="{1}" cy="{2}" r="{5}" fill="{3}" stroke="{7}" stroke-width="1"/><text x="{1}" y="{4}" font-size="{6}" text-anchor="middle" fill="{8}">{0}</text></g>)~",
          k, num(cx), num(track_row), k == v.track_len ? ts.last : ts.space, num(track_row + 3.5 * sc), S(10), S(10), ts.edge, ts.text);
    }
    out += "\n";
    std::map<int, int> stacked;
    for (const OverlayView& ov : v.overlays) {
      const Overlay& ob = ov.overlay;
      if (ob.at != Overlay::At::Track) continue;
      const Glyph* g = glyph_of(look, ob.glyph);
      if (!g) continue;
      const double cx = x0 + 8 * sc + (ob.x - 0.5) * space_w;
      const double cy = track_row - 17 * sc - piece_row * stacked[ob.x]++;
      out += fmt::format(
          R"~(<g class="overlay {}" data-overlay="{}" data-at="track" data-player="{}" data-space="{}" transform="translate({},{})"><title>{}</title>{}</g>)~",
          esc(class_name(ob.glyph)), esc(ob.id), ob.seat, ob.x, num(cx), num(cy), esc(with_names(ob.label, full_names)), in_seat(*g, ob.seat, sc));
      out += "\n";
    }
    out += "</g>\n";
  }

  // the side panel: each player's score, pieces in supply and what they hold (every kind, those
  // not held faded), then the game's summary lines
  if (hands) {
    const double x0 = panel_x, y0 = panel_y;
    out += fmt::format(R"~(<g class="panel"><rect x="{}" y="{}" width="{}" height="{}" rx="6" fill="#ebe4d3" stroke="#b9ab8a" stroke-width="1"/>)~",
                       num(x0), num(y0), num(kPanelW), num(panel_h));
    out += fmt::format(R"~(<text x="{}" y="{}" font-size="13" font-weight="bold" fill="#222">{}</text>)~", num(x0 + 10),
                       num(y0 + 19), esc(say("svg.panel")));
    out += "\n";
    const std::string piece0 = game.piece_names[0];
    const Glyph* pg = glyph_of(look, piece_glyph(look, piece0, 0, false));
    for (int p = 0; p < nplayers; ++p) {
      const auto sp = static_cast<std::size_t>(p);
      const PlayerView& pv = v.players[sp];
      const double by = y0 + 30 + kPanelRow * p;
      std::string name = full_names[sp];
      if (text_len(name) > 17) name = name.substr(0, 16) + "~";
      out += fmt::format(R"~(<g class="hand" data-player="{}">)~", p);
      if (!v.over && p == v.decision.player)
        out += fmt::format(R"~(<rect class="current" x="{}" y="{}" width="{}" height="{}" rx="4" fill="#fff8e0" stroke="{}" stroke-width="1.5"/>)~",
                           num(x0 + 4), num(by - 4), num(kPanelW - 8), num(kPanelRow - 4), seat_colour(p));
      out += fmt::format(
          R"~(<rect x="{}" y="{}" width="12" height="12" fill="{}" stroke="#111" stroke-width="1"/><text x="{}" y="{}" font-size="12" fill="#222">{}</text><text class="panel-score" x="{}" y="{}" font-size="13" font-weight="bold" text-anchor="end" fill="#222">{}</text>)~",
          num(x0 + 10), num(by), seat_colour(p), num(x0 + 27), num(by + 10.5), esc(name), num(x0 + kPanelW - 10), num(by + 11), pv.score);
      const int supply = pv.supply.empty() ? 0 : pv.supply[0].second;
      out += fmt::format(R"~(<g class="supply" data-count="{}">)~", supply);
      if (pg)
        for (int i = 0; i < supply; ++i)
          out += fmt::format(R"~(<g transform="translate({},{})">{}</g>)~", num(x0 + 16 + 10 * i), num(by + 24), in_seat(*pg, p, 11.0 / pg->size));
      std::string many_id = fmt::format("plural.{}", piece0);  // the piece's word for that number
      std::replace(many_id.begin(), many_id.end(), ' ', '_');
      const std::string one = piece_word(game, piece0), many = has_message(game, many_id) ? say(game, many_id) : one;
      out += fmt::format(R"~(</g><text x="{}" y="{}" font-size="10" fill="#555">{}</text>)~",
                         num(x0 + 16 + 10 * std::max(1, supply)), num(by + 27),
                         esc(say("svg.in_supply", {{"n", supply}, {"piece", supply == 1 ? one : many}, {"one", one}})));
      for (std::size_t k = 0; k < pv.hand.size(); ++k) {
        const auto& [what, n] = pv.hand[k];
        const double cx = x0 + 20 + 42 * static_cast<double>(k), cy = by + 46;
        std::string gname = look.hand;
        if (const auto i = gname.find("{}"); i != std::string::npos) gname.replace(i, 2, what);
        const Glyph* hg = glyph_of(look, gname);
        const std::string body = hg ? glyph_svg(*hg, 18.0 / hg->size)
                                    : fmt::format(R"~(<circle r="9" fill="#f6ecd2" stroke="#5a4630"/><text y="3.5" font-size="10" text-anchor="middle" fill="#333">{}</text>)~",
                                                  esc(what.substr(0, 1)));
        out += fmt::format(
            R"~(<g class="hand-token {0}" data-kind="{0}" data-count="{1}"{2}><title>{8}</title><g transform="translate({3},{4})">{5}</g><text x="{6}" y="{7}" font-size="11" font-weight="bold" fill="#222">&#215;{1}</text></g>)~",
            esc(what), n, n == 0 ? R"~( opacity="0.3")~" : "", num(cx), num(cy), body, num(cx + 10.5), num(cy + 4),
            esc(say("svg.in_hand", {{"name", noun_word(game, what)}, {"n", n}})));
      }
      out += "</g>\n";
    }
    const double ty = y0 + 30 + kPanelRow * nplayers + 8;
    for (std::size_t i = 0; i < v.summary.size(); ++i)
      out += fmt::format(R"~(<text class="summary" x="{}" y="{}" font-size="11" fill="#333">{}</text>)~", num(x0 + 10),
                         num(ty + 4 + 17 * static_cast<double>(i)), esc(with_names(v.summary[i], full_names)));
    out += "</g>\n";
  }
  out += "</svg>\n";
  return out;
}

std::string render_svg(const State& s, const SvgOptions& o) {
  std::vector<PlayerInfo> players;
  for (int p = 0; p < s.nplayers; ++p) {
    PlayerInfo pi;
    if (static_cast<std::size_t>(p) < o.player_names.size()) pi.name = o.player_names[static_cast<std::size_t>(p)];
    players.push_back(pi);
  }
  ViewOptions vo;
  vo.features = false;
  vo.options = false;
  return render_svg(build_view(s, players, vo), *s.rs, o);
}

}  // namespace carc::view
