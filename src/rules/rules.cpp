#include "rules/rules.hpp"
#include "rules/words.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <bit>

namespace carc {

std::map<std::string, std::string> resolve_options(const GameDef& g, const std::vector<std::string>& settings) {
  std::map<std::string, std::string> out;
  for (const auto& o : g.options) out[o.name] = o.values.front();
  for (const auto& s : settings) {
    const auto eq = s.find('=');
    if (eq == std::string::npos) throw InputError(fmt::format("option \"{}\": expected name=value", s));
    const std::string name = s.substr(0, eq), val = s.substr(eq + 1);
    const auto it = std::find_if(g.options.begin(), g.options.end(), [&](const OptionDef& o) { return o.name == name; });
    if (it == g.options.end()) {
      std::string known;
      for (const auto& o : g.options) known += (known.empty() ? "" : ", ") + o.name;
      throw InputError(fmt::format("option \"{}\": game {} has no such option (options: {})", name, g.id, known));
    }
    if (std::find(it->values.begin(), it->values.end(), val) == it->values.end())
      throw InputError(fmt::format("option {}: value \"{}\" is not one of {}", name, val, fmt::join(it->values, "|")));
    out[name] = val;
  }
  return out;
}

std::shared_ptr<Ruleset> make_ruleset(const GameDef& g, TileSet tiles, const std::map<std::string, std::string>& options) {
  if (g.pieces_per_player + g.pieces2_per_player > kMaxPieces || g.tile_kinds.size() > 8 || g.options.size() > 16)
    throw std::logic_error(fmt::format("game {} exceeds the engine's capacities (pieces, tile kinds or options)", g.id));
  auto rs = std::make_shared<Ruleset>();
  rs->game = &g;
  rs->tiles = std::move(tiles);
  std::vector<std::string> settings;
  for (const auto& [k, v] : options) settings.push_back(k + "=" + v);
  rs->options = resolve_options(g, settings);
  for (const auto& o : g.options)
    rs->option_index.push_back(static_cast<u8>(std::find(o.values.begin(), o.values.end(), rs->options.at(o.name)) - o.values.begin()));
  const auto f = rs->options.find("farmers");
  rs->farmers = f == rs->options.end() || f->second == "on";
  return rs;
}

namespace {

constexpr std::array<int, 8> kNx = {-1, 0, 1, 1, 1, 0, -1, -1};
constexpr std::array<int, 8> kNy = {-1, -1, -1, 0, 1, 1, 1, 0};

u64 reversed_side(u64 code, int s) {
  const u64 c = (code >> (16 * s)) & 0xFFF;
  return ((c & 0xF) << 8) | (c & 0xF0) | ((c >> 8) & 0xF);
}

}  // namespace

void place_tile(State& s, int type, int x, int y, int rot, u8 player) {
  const Ruleset& rs = *s.rs;
  const TileType& tt = rs.tiles.types[static_cast<std::size_t>(type)];
  const RotatedTile& rt = tt.rot[static_cast<std::size_t>(rot)];
  // leave the frontier
  const u16 cv = s.cells.get(x, y);
  if (cv & 0x8000) {
    const std::size_t fi = cv & 0x7FFF;
    s.frontier.erase_swap(fi);
    if (fi < s.frontier.size()) s.cells.set(s.frontier[fi].x, s.frontier[fi].y, static_cast<u16>(0x8000 | fi));
  }
  const u16 idx = static_cast<u16>(s.tiles.size());
  PlacedTile pt;
  pt.type = static_cast<u8>(type);
  pt.rot = static_cast<u8>(rot);
  pt.x = static_cast<i8>(x);
  pt.y = static_cast<i8>(y);
  pt.seg0 = static_cast<u16>(s.graph.size());
  pt.player = player;
  pt.turn = static_cast<u8>(s.turn);
  s.tiles.push_back(pt);
  s.cells.set(x, y, static_cast<u16>(idx + 1));
  for (int f = 0; f < tt.nfeat; ++f) {
    const TileFeature& tf = tt.feats[static_cast<std::size_t>(f)];
    const FClass cls = rs.ftype(tf.type).cls;
    i16 open = 0;
    if (cls == FClass::Path || cls == FClass::Area) {
      constexpr std::array<i16, 16> kBits = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
      open = kBits[rt.feat_sides[static_cast<std::size_t>(f)] & 15];
    } else if (cls == FClass::Point) {
      open = 8;
      for (int k = 0; k < 8; ++k)
        if (s.placed_at(x + kNx[k], y + kNy[k]) >= 0) --open;
    } else if (cls == FClass::Centre) {
      open = 1;  // never closes
    }
    const int sg = s.graph.add(idx, static_cast<u8>(f), tf.type, open, tf.attr);
    if (rs.ftype(tf.type).network_kind != 0xFF) {
      Segment& seg = s.graph[sg];
      seg.net_attr = tf.attr[0];
      seg.net_centres = static_cast<u8>(cls == FClass::Centre ? 1 : 0);
      seg.net_flags = static_cast<u8>(tf.special ? 1u << ((tf.special - 1) & 7) : 0u);
    }
  }
  for (int f = 0; tt.network_feats >> f; ++f) {  // networks on the tile (a river into its lake)
    const u16 links = tt.feats[static_cast<std::size_t>(f)].links;
    for (int g = f + 1; links >> g; ++g)
      if (links & (1u << g)) s.graph.net_unite(pt.seg0 + f, pt.seg0 + g);
  }
  // connect to the four neighbours, or extend the frontier
  for (int side = 0; side < 4; ++side) {
    const int nx = x + kDx[side], ny = y + kDy[side];
    const u16 nv = s.cells.get(nx, ny);
    if (nv != 0 && !(nv & 0x8000)) {
      const PlacedTile& nb = s.tiles[nv - 1u];
      const RotatedTile& nrt = s.type_of(nb).rot[nb.rot];
      u16 seen_a = 0, seen_b = 0;
      for (int i = 0; i < 3; ++i) {
        const int p = 3 * side + i;
        const int q = facing_port(p);
        const int a = pt.seg0 + rt.port_feat[static_cast<std::size_t>(p)];
        const int b = nb.seg0 + nrt.port_feat[static_cast<std::size_t>(q)];
        s.graph.unite(a, b);
        if (tt.network_feats >> rt.port_feat[static_cast<std::size_t>(p)] & 1u) s.graph.net_unite(a, b);
        seen_a = static_cast<u16>(seen_a | (1u << rt.port_feat[static_cast<std::size_t>(p)]));
        seen_b = static_cast<u16>(seen_b | (1u << nrt.port_feat[static_cast<std::size_t>(q)]));
      }
      // each feature meeting this side loses one open side/end, on both tiles
      for (int f = 0; f < tt.nfeat; ++f)
        if (seen_a & (1u << f)) --s.graph[s.graph.find_compress(pt.seg0 + f)].open;
      const TileType& ntt = s.type_of(nb);
      for (int f = 0; f < ntt.nfeat; ++f)
        if (seen_b & (1u << f)) --s.graph[s.graph.find_compress(nb.seg0 + f)].open;
    } else {
      if (!CellMap::in_range(nx, ny)) continue;
      std::size_t fi;
      if (nv == 0) {
        fi = s.frontier.size();
        FrontierCell fc;
        fc.x = static_cast<i8>(nx);
        fc.y = static_cast<i8>(ny);
        s.frontier.push_back(fc);
        s.cells.set(nx, ny, static_cast<u16>(0x8000 | fi));
      } else {
        fi = nv & 0x7FFF;
      }
      const int os = (side + 2) % 4;
      s.frontier[fi].req |= reversed_side(rt.side_code, side) << (16 * os);
      s.frontier[fi].mask |= 0xFFFull << (16 * os);
    }
  }
  // open point features (monasteries) next to this cell gain a neighbour
  for (const u16 seg : s.open_points) {
    const PlacedTile& nb = s.tiles[s.graph[seg].tile];
    if (std::abs(nb.x - x) <= 1 && std::abs(nb.y - y) <= 1) --s.graph[seg].open;
  }
  if (tt.centre != 0xFF && rs.ftype(tt.feats[tt.centre].type).cls == FClass::Point) s.open_points.push_back(static_cast<u16>(pt.seg0 + tt.centre));
}

// Remove the pieces standing on the feature `root`, back to supply.
void return_pieces(State& s, int root) {
  const u8 kind = s.rs->ftype(s.graph[root].ftype).piece_kind;
  for (std::size_t i = 0; i < s.pieces.size();) {
    if (s.pieces[i].kind == kind && s.graph.find(s.pieces[i].seg) == root) {
      ++s.supply_of(s.pieces[i].kind, s.pieces[i].player);
      s.pieces.erase_swap(i);
    } else {
      ++i;
    }
  }
  Segment& r = s.graph[root];
  r.pieces.fill(0);
  r.npieces = 0;
}

void score_feature(State& s, int root, bool completed, EventSink* ev) {
  const FeatureTypeDef& fd = s.rs->ftype(s.graph[root].ftype);
  if (!completed && fd.final_per_tile == 0 && fd.final_per_attr == 0) return;  // unfinished ones score nothing
  const FeatureInfo fi = feature_info(s, root);
  const int pts = feature_value(s, fi, completed);
  int best = 0;
  for (int p = 0; p < s.nplayers; ++p) best = std::max(best, fi.pieces[static_cast<std::size_t>(p)]);
  if (best == 0) return;
  for (int p = 0; p < s.nplayers; ++p) {
    if (fi.pieces[static_cast<std::size_t>(p)] != best) continue;
    s.score[static_cast<std::size_t>(p)] = static_cast<i16>(s.score[static_cast<std::size_t>(p)] + pts);
    if (ev) {
      ScoreEvent e;
      e.turn = s.turn;
      e.player = static_cast<u8>(p);
      e.ftype = static_cast<u8>(fi.ftype);
      e.reason = completed ? ScoreReason::Completed : ScoreReason::Final;
      e.points = static_cast<i16>(pts);
      e.tiles = static_cast<u8>(fi.tiles);
      e.attr = static_cast<u8>(fi.attr);
      e.feature = static_cast<u16>(root);
      ev->push_back(e);
    }
  }
}

namespace {

void final_scoring(State& s, EventSink* ev) {
  const Ruleset& rs = *s.rs;
  // unfinished features with pieces, in the order their pieces were placed
  for (std::size_t i = 0; i < s.pieces.size(); ++i) {
    const int root = s.graph.find(s.pieces[i].seg);
    Segment& r = s.graph[root];
    if (r.scored || rs.ftype(r.ftype).cls == FClass::Field || s.pieces[i].kind != rs.ftype(r.ftype).piece_kind) continue;
    r.scored = 1;
    if (rs.game->hooks.score_unfinished) rs.game->hooks.score_unfinished(s, root, ev);
    else score_feature(s, root, false, ev);
  }
  // remove them (farmers stay for the field scoring)
  for (std::size_t i = 0; i < s.pieces.size();) {
    const int root = s.graph.find(s.pieces[i].seg);
    const FeatureTypeDef& fd = rs.ftype(s.graph[root].ftype);
    if (fd.cls != FClass::Field && s.pieces[i].kind != fd.network_kind) {
      ++s.supply_of(s.pieces[i].kind, s.pieces[i].player);
      s.pieces.erase_swap(i);
    } else {
      ++i;
    }
  }
  if (rs.farmers) {
    for (std::size_t i = 0; i < s.pieces.size(); ++i) {
      const int root = s.graph.find(s.pieces[i].seg);
      Segment& r = s.graph[root];
      if (r.scored || rs.ftype(r.ftype).cls != FClass::Field) continue;
      r.scored = 1;
      int best = 0;
      for (int p = 0; p < s.nplayers; ++p) best = std::max<int>(best, r.pieces[static_cast<std::size_t>(p)]);
      const int cities = rs.game->farm_points_per_city ? field_cities(s, root) : 0;
      const int pts = rs.game->hooks.field_value ? rs.game->hooks.field_value(s, root)
                                                 : cities * rs.game->farm_points_per_city + rs.ftype(r.ftype).final_per_attr * r.attr[0];
      for (int p = 0; p < s.nplayers; ++p) {
        if (r.pieces[static_cast<std::size_t>(p)] != best) continue;
        s.score[static_cast<std::size_t>(p)] = static_cast<i16>(s.score[static_cast<std::size_t>(p)] + pts);
        if (ev) {
          ScoreEvent e;
          e.turn = s.turn;
          e.player = static_cast<u8>(p);
          e.ftype = r.ftype;
          e.reason = ScoreReason::Farm;
          e.points = static_cast<i16>(pts);
          e.cities = static_cast<u8>(cities);
          e.attr = r.attr[0];
          e.feature = static_cast<u16>(root);
          ev->push_back(e);
        }
      }
    }
  }
  if (rs.game->hooks.on_final_scoring) rs.game->hooks.on_final_scoring(s, ev);
  s.phase = Phase::Over;
  s.in_hand = 0xFF;
}

bool fits(const State& s, const FrontierCell& fc, int type, int rot) {
  const RotatedTile& rt = s.rs->tiles.types[static_cast<std::size_t>(type)].rot[static_cast<std::size_t>(rot)];
  if (((rt.side_code ^ fc.req) & fc.mask) != 0) return false;
  const auto hook = s.rs->game->hooks.placement_allowed;
  return !hook || hook(s, type, fc.x, fc.y, rot);
}

bool placeable(const State& s, int type) {
  const TileType& tt = s.rs->tiles.types[static_cast<std::size_t>(type)];
  for (const FrontierCell& fc : s.frontier)
    for (int k = 0; k < tt.nrots; ++k)
      if (fits(s, fc, type, tt.distinct_rots[static_cast<std::size_t>(k)])) return true;
  return false;
}

}  // namespace

bool corner_usable(const State& s, int x, int y, int c) {
  const int ti = s.placed_at(x, y);
  if (ti < 0) return false;
  const PlacedTile& pt = s.tiles[static_cast<std::size_t>(ti)];
  return (s.type_of(pt).rot[pt.rot].corners >> c) & 1u;
}

void init_state(State& s, const Ruleset& rs, int nplayers) {
  if (nplayers < rs.game->min_players || nplayers > rs.game->max_players)
    throw InputError(fmt::format("{} takes {} to {} players, not {}", rs.game->title, rs.game->min_players,
                                 rs.game->max_players, nplayers));
  s.rs = &rs;
  s.phase = Phase::Draw;
  s.nplayers = static_cast<u8>(nplayers);
  s.current = 0;
  s.in_hand = 0xFF;
  s.turn = 0;
  s.discards = 0;
  s.score.fill(0);
  s.supply.fill(0);
  s.supply2.fill(0);
  for (int p = 0; p < nplayers; ++p) {
    s.supply[static_cast<std::size_t>(p)] = static_cast<u8>(rs.game->pieces_per_player);
    s.supply2[static_cast<std::size_t>(p)] = static_cast<u8>(rs.game->pieces2_per_player);
  }
  s.track.fill(0);
  s.track_len = 0;
  s.decider = 0xFF;
  s.stage = 0;
  s.game_block.fill(std::byte{0});
  s.turn_first = s.piece_from = 0;
  s.remaining.fill(0);
  s.pile = 0;
  s.kind_left.fill(0);
  s.bonus_pile = static_cast<u16>(rs.tiles.bonus_total);
  s.extra = s.in_extra = 0;
  for (std::size_t t = 0; t < rs.tiles.types.size(); ++t) {
    s.remaining[t] = static_cast<u8>(rs.tiles.types[t].draw_count);
    if (rs.tiles.types[t].pile == kPileBonus) continue;
    s.pile = static_cast<u16>(s.pile + s.remaining[t]);
    s.kind_left[rs.tiles.types[t].kind & 7] = static_cast<u8>(s.kind_left[rs.tiles.types[t].kind & 7] + s.remaining[t]);
  }
  s.tiles.clear();
  s.pieces.clear();
  s.frontier.clear();
  s.open_points.clear();
  s.graph.clear();
  s.cells.clear();
  for (const StartCell& c : rs.tiles.side_for(nplayers).cells) place_tile(s, c.tile, c.x, c.y, c.rot, 0xFF);
  if (rs.game->hooks.on_init) rs.game->hooks.on_init(s);
}

// A piece of `kind` from `player`'s supply on segment `seg`: on its feature, or claiming the
// feature's network (a hut). The one way a piece reaches the board (moves and prepared positions).
inline void put_piece(State& s, int seg, u8 player, u8 kind, bool on_network) {
  if (on_network) {
    Segment& n = s.graph[s.graph.net_find(seg)];
    ++n.net_pieces[player];
    ++n.net_npieces;
  } else {
    Segment& r = s.graph[s.graph.find_compress(seg)];
    ++r.pieces[player];
    ++r.npieces;
  }
  --s.supply_of(kind, player);
  s.pieces.push_back(PieceOnBoard{static_cast<u16>(seg), player, kind});
}

void init_prepared(State& s, const Ruleset& rs, int nplayers, const Prepared& p) {
  const Hooks& hooks = rs.game->hooks;
  if (hooks.on_init && !hooks.prepare && !p.board.empty())
    throw InputError(fmt::format("setup: tiles: {} accepts only its start board", rs.game->title));
  if (!hooks.prepare && !p.game_keys.empty()) throw InputError(fmt::format("setup: {} has no setup keys of its own", rs.game->title));
  init_state(s, rs, nplayers);
  const auto& types = rs.tiles.types;
  std::vector<int> box(types.size());  // copies in the box: every pile's, the start board's included
  for (std::size_t t = 0; t < types.size(); ++t) box[t] = types[t].count;
  if (!p.board.empty()) {
    s.tiles.clear();
    s.pieces.clear();
    s.frontier.clear();
    s.open_points.clear();
    s.graph.clear();
    s.cells.clear();
    for (std::size_t i = 0; i < p.board.size(); ++i) {
      const StartCell& c = p.board[i];
      const std::string where = fmt::format("setup: tiles[{}] ({} {},{} r{})", i, types[static_cast<std::size_t>(c.tile)].id, c.x, c.y, c.rot * 90);
      if (!CellMap::in_range(c.x, c.y)) throw InputError(where + ": off the map");
      if (--box[static_cast<std::size_t>(c.tile)] < 0) throw InputError(where + ": more copies than the box holds");
      if (s.tiles.size() >= static_cast<std::size_t>(kMaxPlaced)) throw InputError(where + ": too many tiles");
      const u16 v = s.cells.get(c.x, c.y);
      if (i > 0) {
        if (v != 0 && !(v & 0x8000)) throw InputError(where + ": the cell already holds a tile");
        if (v == 0) throw InputError(where + ": it touches none of the tiles listed before it");
        // edges only: the game's own placement rules see the whole board in Hooks::prepare
        const FrontierCell& fc = s.frontier[v & 0x7FFF];
        if (((types[static_cast<std::size_t>(c.tile)].rot[static_cast<std::size_t>(c.rot)].side_code ^ fc.req) & fc.mask) != 0)
          throw InputError(where + ": its edges do not match its neighbours");
      }
      place_tile(s, c.tile, c.x, c.y, c.rot, 0xFF);
      if (hooks.on_board_tile) hooks.on_board_tile(s, static_cast<int>(s.tiles.size()) - 1);
    }
  } else {
    for (const StartCell& c : rs.tiles.side_for(nplayers).cells) --box[static_cast<std::size_t>(c.tile)];
  }
  // the piles: the listed tiles (a short pile), or what is left in the box
  s.remaining.fill(0);
  s.kind_left.fill(0);
  s.pile = 0;
  s.bonus_pile = 0;
  for (std::size_t t = 0; t < types.size(); ++t) {
    if (types[t].pile == kPileBonus) {
      s.remaining[t] = static_cast<u8>(box[t]);
      s.bonus_pile = static_cast<u16>(s.bonus_pile + box[t]);
    } else if (!p.short_pile && types[t].pile == kPileDraw) {
      s.remaining[t] = static_cast<u8>(box[t]);
    }
  }
  if (p.short_pile) {
    for (std::size_t i = 0; i < p.pile.size(); ++i) {
      const auto t = static_cast<std::size_t>(p.pile[i]);
      if (types[t].pile != kPileDraw) throw InputError(fmt::format("setup: pile[{}]: tile {} is not a tile of the draw pile", i, types[t].id));
      if (s.remaining[t] >= box[t]) throw InputError(fmt::format("setup: pile[{}]: more copies of tile {} than the box holds", i, types[t].id));
      ++s.remaining[t];
    }
  }
  for (std::size_t t = 0; t < types.size(); ++t) {
    if (types[t].pile == kPileBonus) continue;
    s.pile = static_cast<u16>(s.pile + s.remaining[t]);
    s.kind_left[types[t].kind & 7] = static_cast<u8>(s.kind_left[types[t].kind & 7] + s.remaining[t]);
  }
  // pieces, on features not yet completed
  for (std::size_t i = 0; i < p.pieces.size(); ++i) {
    const PreparedPiece& pc = p.pieces[i];
    const std::string where = fmt::format("setup: pieces[{}]", i);
    if (pc.player < 0 || pc.player >= nplayers) throw InputError(fmt::format("{}: player {} does not exist", where, pc.player));
    const int ti = s.placed_at(pc.x, pc.y);
    if (ti < 0) throw InputError(fmt::format("{}: no tile at {},{}", where, pc.x, pc.y));
    const int f = feature_at_port(s, s.tiles[static_cast<std::size_t>(ti)], pc.port);
    if (f < 0) throw InputError(fmt::format("{}: no feature at {} of the tile at {},{}", where, pc.port, pc.x, pc.y));
    const int seg = s.tiles[static_cast<std::size_t>(ti)].seg0 + f;
    const FeatureTypeDef& fd = rs.ftype(s.graph[seg].ftype);
    const u8 pk = pc.kind != 0xFF && pc.kind != fd.network_kind && pc.kind == fd.piece_kind ? u8{0xFF} : pc.kind;
    const u8 kind = pk != 0xFF ? pk : fd.piece_kind;
    if (pk != 0xFF ? pk != fd.network_kind : !fd.claimable)
      throw InputError(fmt::format("{}: that piece cannot stand on a {}", where, fd.name));
    const Segment& root = s.graph[s.graph.find(seg)];
    if (pk == 0xFF && fd.cls != FClass::Field && root.open == 0) throw InputError(fmt::format("{}: the {} is completed (its pieces have gone home)", where, fd.name));
    if (s.supply_of(kind, pc.player) == 0) throw InputError(fmt::format("{}: player {} has no such piece left", where, pc.player + 1));
    put_piece(s, seg, static_cast<u8>(pc.player), kind, pk != 0xFF);
  }
  // the game's own state: derived from the board, then its setup keys (pieces it places itself)
  if (hooks.prepare) hooks.prepare(s, p.game_keys, !p.board.empty());
  if (p.to_move < 0 || p.to_move >= nplayers) throw InputError(fmt::format("setup: to_move: player {} does not exist", p.to_move));
  s.current = static_cast<u8>(p.to_move);
  for (std::size_t i = 0; i < p.scores.size() && i < static_cast<std::size_t>(nplayers); ++i) s.score[i] = static_cast<i16>(p.scores[i]);
  for (std::size_t i = 0; i < p.supplies.size(); ++i) {
    if (i >= static_cast<std::size_t>(nplayers)) throw InputError(fmt::format("setup: supplies[{}]: player {} does not exist", i, i + 1));
    for (int k = 0; k < 2; ++k) {
      const int have = s.supply_of(k, static_cast<int>(i));  // what the pieces on the board leave
      const int want = p.supplies[i][static_cast<std::size_t>(k)];
      if (want < 0 || want > have)
        throw InputError(fmt::format("setup: supplies[{}][{}]: {} {}s in supply, but the pieces on the board leave at most {}", i, k, want,
                                     rs.game->piece_names[static_cast<std::size_t>(k)], have));
      s.supply_of(k, static_cast<int>(i)) = static_cast<u8>(want);
    }
  }
}

int sample_draw(const State& s, Rng& rng) {
  if (s.rs->game->hooks.sample_draw) return s.rs->game->hooks.sample_draw(s, rng);
  const auto& types = s.rs->tiles.types;
  if (s.rs->tiles.bonus_total == 0) {
    u32 k = rng.below(s.pile);
    for (std::size_t t = 0;; ++t) {
      if (k < s.remaining[t]) return static_cast<int>(t);
      k -= s.remaining[t];
    }
  }
  // two piles: draw from the bonus pile for an extra turn, else from the draw pile
  const bool bonus = s.extra != 0;
  u32 k = rng.below(bonus ? s.bonus_pile : s.pile);
  for (std::size_t t = 0;; ++t) {
    if ((types[t].pile == kPileBonus) != bonus) continue;
    if (k < s.remaining[t]) return static_cast<int>(t);
    k -= s.remaining[t];
  }
}

void chance_odds(const State& s, std::vector<std::pair<int, double>>& out) {
  out.clear();
  const Hooks& hk = s.rs->game->hooks;
  if (s.phase == Phase::Chance) {
    if (hk.chance_odds) hk.chance_odds(s, out);
    return;
  }
  if (s.phase != Phase::Draw) return;
  if (hk.draw_odds) {
    hk.draw_odds(s, out);
    return;
  }
  const auto& types = s.rs->tiles.types;
  const bool two = s.rs->tiles.bonus_total != 0;
  const bool bonus = two && s.extra != 0;
  const int total = bonus ? s.bonus_pile : s.pile;
  if (total <= 0) return;
  for (std::size_t t = 0; t < types.size(); ++t) {
    if (two && (types[t].pile == kPileBonus) != bonus) continue;
    if (s.remaining[t]) out.emplace_back(static_cast<int>(t), static_cast<double>(s.remaining[t]) / total);
  }
}

void end_if_pile_empty(State& s, EventSink* ev) {
  if (s.phase == Phase::Draw && s.pile == 0 && !s.extra) final_scoring(s, ev);
}

namespace {
// The turn is over: the same player goes on with an extra turn if one is due and the bonus pile
// has tiles, else the next player draws (or the game ends).
void end_turn(State& s, EventSink* ev) {
  s.phase = Phase::Draw;
  if (s.extra && !s.in_extra && s.bonus_pile > 0) return;
  s.extra = s.in_extra = 0;
  s.current = static_cast<u8>((s.current + 1) % s.nplayers);
  end_if_pile_empty(s, ev);
}
}  // namespace

bool apply_draw(State& s, int type, EventSink* ev) {
  assert(s.phase == Phase::Draw && s.remaining[static_cast<std::size_t>(type)] > 0);
  const TileType& tt = s.rs->tiles.types[static_cast<std::size_t>(type)];
  --s.remaining[static_cast<std::size_t>(type)];
  if (tt.pile == kPileBonus) {
    --s.bonus_pile;
    s.in_extra = 1;
  } else {
    --s.kind_left[tt.kind & 7];
    --s.pile;
  }
  if (!placeable(s, type)) {
    ++s.discards;
    if (s.in_extra) {  // an unplaceable bonus tile: draw the next one, if any
      s.in_extra = 0;
      if (s.bonus_pile == 0) end_turn(s, ev);
      return false;
    }
    end_if_pile_empty(s, ev);
    return false;
  }
  ++s.turn;
  s.in_hand = static_cast<u8>(type);
  s.phase = Phase::Place;
  return true;
}

void gen_placements(const State& s, MoveList& out) {
  const int type = s.in_hand;
  const TileType& tt = s.rs->tiles.types[static_cast<std::size_t>(type)];
  const auto hook = s.rs->game->hooks.placement_allowed;
  const int nr = tt.nrots;
  std::array<u64, 4> codes{};
  std::array<u8, 4> rots{};
  for (int k = 0; k < nr; ++k) {
    rots[static_cast<std::size_t>(k)] = tt.distinct_rots[static_cast<std::size_t>(k)];
    codes[static_cast<std::size_t>(k)] = tt.rot[rots[static_cast<std::size_t>(k)]].side_code;
  }
  Move m;
  m.kind = MoveKind::Place;
  m.player = s.current;
  if (hook) {
    for (const FrontierCell& fc : s.frontier) {
      for (int k = 0; k < nr; ++k) {
        if (((codes[static_cast<std::size_t>(k)] ^ fc.req) & fc.mask) != 0) continue;
        if (!hook(s, type, fc.x, fc.y, rots[static_cast<std::size_t>(k)])) continue;
        m.x = fc.x;
        m.y = fc.y;
        m.rot = rots[static_cast<std::size_t>(k)];
        out.push_back(m);
      }
    }
    return;
  }
  // Branch-free: write every candidate, advance only past the ones that fit.
  std::size_t n = out.size();
  if (n + s.frontier.size() * static_cast<std::size_t>(nr) > MoveList::capacity()) [[unlikely]]
    capacity_exceeded(MoveList::capacity());
  Move* dst = out.data();
  for (const FrontierCell& fc : s.frontier) {
    m.x = fc.x;
    m.y = fc.y;
    for (int k = 0; k < nr; ++k) {
      m.rot = rots[static_cast<std::size_t>(k)];
      dst[n] = m;
      n += ((codes[static_cast<std::size_t>(k)] ^ fc.req) & fc.mask) == 0;
    }
  }
  out.set_size(n);
}

Move sample_placement(const State& s, Rng& rng) {
  const int type = s.in_hand;
  const TileType& tt = s.rs->tiles.types[static_cast<std::size_t>(type)];
  const u32 nr = tt.nrots;
  const u32 cands = static_cast<u32>(s.frontier.size()) * nr;
  Move m;
  m.kind = MoveKind::Place;
  m.player = s.current;
  for (u32 tries = 0; tries < 64 * cands + 64; ++tries) {
    const u32 i = rng.below(cands);
    const FrontierCell& fc = s.frontier[i / nr];
    const int r = tt.distinct_rots[i % nr];
    if (!fits(s, fc, type, r)) continue;
    m.x = fc.x;
    m.y = fc.y;
    m.rot = static_cast<u8>(r);
    return m;
  }
  // practically unreachable: fall back to listing
  MoveList ml;
  gen_placements(s, ml);
  return ml[rng.below(static_cast<u32>(ml.size()))];
}

void gen_pieces(const State& s, MoveList& out) {
  Move m;
  m.player = s.current;
  m.kind = MoveKind::Pass;
  out.push_back(m);
  if (s.supply[s.current] == 0 && s.supply2[s.current] == 0) return;
  m.kind = MoveKind::Piece;
  const std::size_t first = out.size();
  for (std::size_t ti = s.piece_from; ti < s.tiles.size(); ++ti) {
    const PlacedTile& pt = s.tiles[ti];
    const TileType& tt = s.type_of(pt);
    m.x = pt.x;
    m.y = pt.y;
    m.rot = pt.rot;
    for (int f = 0; f < tt.nfeat; ++f) {
      const FeatureTypeDef& fd = s.rs->ftype(tt.feats[static_cast<std::size_t>(f)].type);
      // the feature itself (a follower, explorer, camp, fisher, ...)
      if (fd.claimable && s.supply_of(fd.piece_kind, s.current) != 0 && (fd.cls != FClass::Field || s.rs->farmers)) {
        const int root = s.graph.find(pt.seg0 + f);
        bool dup = s.graph[root].npieces != 0;
        // a feature spanning several tiles of this turn (or met twice) is listed once
        for (std::size_t k = first; k < out.size() && !dup; ++k) {
          const Move& o = out[k];
          if (o.pk != 0xFF) continue;
          const PlacedTile& ot = s.tiles[static_cast<std::size_t>(s.placed_at(o.x, o.y))];
          dup = s.graph.find(ot.seg0 + o.feat) == root;
        }
        if (!dup) {
          m.feat = static_cast<u8>(f);
          m.pk = 0xFF;
          out.push_back(m);
        }
      }
      // the network through it (a hut on a river system), once per network
      if (fd.network_kind != 0xFF && s.supply_of(fd.network_kind, s.current) != 0 && (tt.feats[static_cast<std::size_t>(f)].ports != 0)) {
        const int net = s.graph.net_find(pt.seg0 + f);
        bool dup = s.graph[net].net_npieces != 0;
        for (std::size_t k = first; k < out.size() && !dup; ++k) {
          const Move& o = out[k];
          if (o.pk == 0xFF) continue;
          const PlacedTile& ot = s.tiles[static_cast<std::size_t>(s.placed_at(o.x, o.y))];
          dup = s.graph.net_find(ot.seg0 + o.feat) == net;
        }
        if (!dup) {
          m.feat = static_cast<u8>(f);
          m.pk = fd.network_kind;
          out.push_back(m);
        }
      }
    }
  }
}

void legal_moves(const State& s, MoveList& out) {
  out.clear();
  if (s.phase == Phase::Place) gen_placements(s, out);
  else if (s.phase == Phase::Piece) {
    gen_pieces(s, out);
    if (s.rs->game->hooks.gen_actions) s.rs->game->hooks.gen_actions(s, out);
  } else if (s.phase == Phase::Choose) s.rs->game->hooks.gen_choices(s, out);
}

bool chance_step(State& s, Rng& rng, EventSink* ev) {
  if (s.phase == Phase::Chance) {
    const Hooks& hk = s.rs->game->hooks;
    hk.apply_chance(s, hk.sample_chance(s, rng), ev);
    return true;
  }
  return apply_draw(s, sample_draw(s, rng), ev);
}

bool is_legal(const State& s, const Move& m) {
  if (m.player != to_move(s)) return false;
  if (s.phase == Phase::Place) {
    if (m.kind != MoveKind::Place || m.rot > 3) return false;
    const u16 v = s.cells.get(m.x, m.y);
    if (!(v & 0x8000)) return false;
    return fits(s, s.frontier[v & 0x7FFF], s.in_hand, m.rot);
  }
  if (s.phase == Phase::Piece) {
    if (m.kind == MoveKind::Pass) return true;
    if (m.kind == MoveKind::Act) {
      if (!s.rs->game->hooks.gen_actions) return false;
      MoveList ml;
      s.rs->game->hooks.gen_actions(s, ml);
      for (const Move& o : ml)
        if (o == m) return true;
      return false;
    }
    if (m.kind != MoveKind::Piece) return false;
    const int ti = s.placed_at(m.x, m.y);
    if (ti < s.piece_from) return false;
    const PlacedTile& pt = s.tiles[static_cast<std::size_t>(ti)];
    if (m.feat >= s.type_of(pt).nfeat) return false;
    // a feature spanning several tiles of this turn is listed once but may be named on any of them
    const bool net = m.pk != 0xFF;
    const int root = net ? s.graph.net_find(pt.seg0 + m.feat) : s.graph.find(pt.seg0 + m.feat);
    MoveList ml;
    gen_pieces(s, ml);
    for (const Move& o : ml) {
      if (o.kind != MoveKind::Piece || o.pk != m.pk) continue;
      const PlacedTile& ot = s.tiles[static_cast<std::size_t>(s.placed_at(o.x, o.y))];
      if ((net ? s.graph.net_find(ot.seg0 + o.feat) : s.graph.find(ot.seg0 + o.feat)) == root) return true;
    }
  }
  if (s.phase == Phase::Choose) {
    if (m.kind != MoveKind::Choose) return false;
    MoveList ml;
    s.rs->game->hooks.gen_choices(s, ml);
    for (const Move& o : ml)
      if (o == m) return true;
  }
  return false;
}

void apply_move(State& s, const Move& m, EventSink* ev) {
  const Ruleset& rs = *s.rs;
  const Hooks& hk = rs.game->hooks;
  if (m.kind == MoveKind::Place) {
    if (hk.before_place) hk.before_place(s, m);
    s.turn_first = s.piece_from = static_cast<u16>(s.tiles.size());
    place_tile(s, s.in_hand, m.x, m.y, m.rot, s.current);
    s.in_hand = 0xFF;
    s.phase = Phase::Piece;
    if (hk.on_tile_placed) hk.on_tile_placed(s, static_cast<int>(s.tiles.size()) - 1, ev);
    return;
  }
  if (m.kind == MoveKind::Choose) {
    hk.apply_choice(s, m, ev);  // sets the next phase
    return;
  }
  if (m.kind == MoveKind::Piece) {
    const PlacedTile& pt = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
    const int seg = pt.seg0 + m.feat;
    const FeatureTypeDef& fd = rs.ftype(s.graph[seg].ftype);
    put_piece(s, seg, m.player, m.pk != 0xFF ? m.pk : fd.piece_kind, m.pk != 0xFF);
  }
  if (m.kind == MoveKind::Act) hk.apply_action(s, m, ev);
  s.stage = 1;
  if (hk.on_piece) hk.on_piece(s, m, ev);
  if (s.phase == Phase::Chance || s.phase == Phase::Choose) return;  // paused: the game resumes the turn
  continue_turn(s, ev);
}

void continue_turn(State& s, EventSink* ev) {
  const Ruleset& rs = *s.rs;
  const Hooks& hk = rs.game->hooks;
  s.phase = Phase::Score;
  if (s.stage == 1) {
    // completion scoring: features of this turn's tiles, then point features around them
    for (std::size_t ti = s.turn_first; ti < s.tiles.size(); ++ti) {
      const PlacedTile& pt = s.tiles[ti];
      const TileType& tt = s.type_of(pt);
      for (int f = 0; f < tt.nfeat; ++f) {
        const int root = s.graph.find_compress(pt.seg0 + f);
        Segment& r = s.graph[root];
        const FClass cls = rs.ftype(r.ftype).cls;
        if (r.scored || r.open != 0 || cls == FClass::Field || cls == FClass::Point) continue;
        if (hk.score_completed) {
          if (!hk.score_completed(s, root, ev)) return;
          s.graph[root].scored = 1;
          continue;
        }
        r.scored = 1;
        score_feature(s, root, true, ev);
        return_pieces(s, root);
      }
    }
    // Point features the turn surrounded are scored in seat order of their owners, starting with the
    // player who placed the tile (unowned ones last; then by feature id). It matters when scoring
    // draws from a pile that can run out (Safari: a baobab's photographer takes 2 tokens).
    for (;;) {
      std::size_t i = s.open_points.size();
      int best_key = 0;
      for (std::size_t k = 0; k < s.open_points.size(); ++k) {
        const Segment& pr = s.graph[s.open_points[k]];
        if (pr.open != 0) continue;
        int seat = s.nplayers;
        for (int d = 0; d < s.nplayers; ++d)
          if (pr.pieces[static_cast<std::size_t>((s.current + d) % s.nplayers)]) {
            seat = d;
            break;
          }
        const int key = pr.scored ? -1 : seat * kMaxSegments + s.open_points[k];  // done ones (a resumed turn) leave first
        if (i == s.open_points.size() || key < best_key) i = k, best_key = key;
      }
      if (i == s.open_points.size()) break;
      const int root = s.open_points[i];
      if (!s.graph[root].scored) {
        if (hk.score_completed) {
          if (!hk.score_completed(s, root, ev)) return;
        } else {
          s.graph[root].scored = 1;
          score_feature(s, root, true, ev);
          return_pieces(s, root);
        }
      }
      s.graph[root].scored = 1;
      s.open_points.erase_swap(i);
    }
    s.stage = 2;
    if (hk.on_scoring) {
      hk.on_scoring(s, ev);
      if (s.phase != Phase::Score) return;  // paused for a decision; the game resumes
    }
  }
  s.stage = 0;
  end_turn(s, ev);
}

FeatureInfo feature_info(const State& s, int seg) {
  FeatureInfo fi;
  fi.root = s.graph.find(seg);
  const Segment& r = s.graph[fi.root];
  fi.ftype = r.ftype;
  const FClass cls = s.rs->ftype(r.ftype).cls;
  fi.closed = cls != FClass::Field && r.open == 0;
  fi.attr = r.attr[0];
  for (int p = 0; p < kMaxPlayers; ++p) fi.pieces[static_cast<std::size_t>(p)] = r.pieces[static_cast<std::size_t>(p)];
  if (cls == FClass::Point) {
    fi.tiles = 9 - r.open;
  } else {
    std::array<u64, kMaxPlaced / 64> seen{};
    int m = fi.root;
    do {
      const u16 t = s.graph[m].tile;
      if (!(seen[t >> 6] & (1ull << (t & 63)))) {
        seen[t >> 6] |= 1ull << (t & 63);
        ++fi.tiles;
      }
      m = s.graph[m].next;
    } while (m != fi.root);
  }
  return fi;
}

int feature_value(const State& s, const FeatureInfo& f, bool completed) {
  const FeatureTypeDef& d = s.rs->ftype(f.ftype);
  if (!completed) return d.final_per_tile * f.tiles + d.final_per_attr * f.attr;
  const auto bonus = s.rs->game->hooks.completion_bonus;
  return d.completed_per_tile * f.tiles + d.completed_per_attr * f.attr + (bonus ? bonus(s, f.root) : 0);
}

int field_cities(const State& s, int root) {
  // distinct completed Area roots bordering any member segment
  StaticVec<u16, 128> found;
  int m = root;
  do {
    const Segment& sg = s.graph[m];
    const PlacedTile& pt = s.tiles[sg.tile];
    const u16 borders = s.type_of(pt).feats[sg.local].borders;
    for (int f = 0; borders >> f; ++f) {
      if (!(borders & (1u << f))) continue;
      const int c = s.graph.find(pt.seg0 + f);
      if (s.graph[c].open != 0) continue;
      if (std::find(found.begin(), found.end(), c) == found.end() && !found.full()) found.push_back(static_cast<u16>(c));
    }
    m = sg.next;
  } while (m != root);
  return static_cast<int>(found.size());
}

std::string feature_port(const State& s, const PlacedTile& t, int local) {
  const RotatedTile& rt = s.type_of(t).rot[t.rot];
  // prefer the middle port of a side, then any port, then C
  for (int p = 1; p < 12; p += 3)
    if (rt.port_feat[static_cast<std::size_t>(p)] == local) return std::string(kPortNames[static_cast<std::size_t>(p)]);
  for (int p = 0; p < 13; ++p)
    if (rt.port_feat[static_cast<std::size_t>(p)] == local) return std::string(kPortNames[static_cast<std::size_t>(p)]);
  return "?";
}

int feature_at_port(const State& s, const PlacedTile& t, std::string_view port) {
  const auto p = port_from_name(port);
  if (!p) return -1;
  const u8 f = s.type_of(t).rot[t.rot].port_feat[static_cast<std::size_t>(*p)];
  return f == 0xFF ? -1 : f;
}

std::string plural_noun(const std::string& w) {
  if (w == "fish" || w == "deer" || w == "aurochs") return w;
  if (!w.empty() && w.back() == 'y') return w.substr(0, w.size() - 1) + "ies";
  return w + "s";
}

std::string describe_event_text(const State& s, const ScoreEvent& e) {
  const GameDef& g = *s.rs->game;
  const FeatureTypeDef& ft = s.rs->ftype(e.ftype);
  const std::string name = feature_word(g, ft.name);
  const std::string attr0 = ft.attrs.empty() ? std::string("symbol") : ft.attrs[0];
  if (g.describe) {  // the game's own wording first, where it has one
    std::string own = g.describe(s, e);
    if (!own.empty()) return own;
  }
  const std::string who = seat_ref(e.player);
  switch (e.reason) {
    case ScoreReason::Farm:
      if (g.hooks.field_value)
        return say(g, "event.farm",
                   {{"player", who},
                    {"points", e.points},
                    {"feature", name},
                    {"feature_acc", feature_form(g, ft.name, "acc")}});
      if (g.farm_points_per_city == 0)
        return say(g, "event.farm_symbols",
                   {{"player", who},
                    {"points", e.points},
                    {"feature", name},
                    {"feature_acc", feature_form(g, ft.name, "acc")},
                    {"symbols", symbols_word(g, attr0, e.attr)}});
      return say(g, "event.farm_cities",
                 {{"player", who},
                  {"points", e.points},
                  {"feature", name},
                  {"feature_acc", feature_form(g, ft.name, "acc")},
                  {"cities", e.cities}});
    case ScoreReason::Completed:
    case ScoreReason::Final: {
      const bool done = e.reason == ScoreReason::Completed;
      // "for a completed road": the word and its form in the sentence (feature_done, feature_open)
      MsgArgs args = {{"player", who},
                      {"points", e.points},
                      {"feature", name},
                      {done ? "feature_done" : "feature_open", feature_form(g, ft.name, done ? "done" : "open")},
                      {"tiles", e.tiles}};
      if (e.attr) {
        args.emplace_back("symbols", symbols_word(g, attr0, e.attr));
        return say(g, done ? "event.completed_symbols" : "event.final_symbols", args);
      }
      return say(g, done ? "event.completed" : "event.final", args);
    }
    case ScoreReason::Special:
    case ScoreReason::Own:  // the game's own events, when it has no words for them
      return say(g, "event.points", {{"player", who}, {"points", e.points}});
  }
  return {};
}

std::string_view reason_name(const GameDef& g, const ScoreEvent& e) {
  switch (e.reason) {
    case ScoreReason::Completed:
      return "completed";
    case ScoreReason::Final:
      return "final";
    case ScoreReason::Farm:
      return "farm";
    case ScoreReason::Special:
      return "special";
    case ScoreReason::Own:
      return e.kind < g.own_events.size() ? std::string_view(g.own_events[e.kind].reason) : std::string_view("own");
  }
  return "?";
}

bool is_final_scoring(const GameDef& g, const ScoreEvent& e) {
  if (e.reason == ScoreReason::Final || e.reason == ScoreReason::Farm) return true;
  if (e.reason == ScoreReason::Own) return e.kind < g.own_events.size() && g.own_events[e.kind].at_end;
  return e.reason == ScoreReason::Special && e.cause < g.special_effects.size() && g.special_effects[e.cause].at_end;
}

std::string describe_event(const State& s, const ScoreEvent& e) {
  return with_seat_names(describe_event_text(s, e), {});
}

}  // namespace carc
