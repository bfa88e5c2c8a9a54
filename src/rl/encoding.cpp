#include "rl/encoding.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace carc::rl {

namespace {

constexpr std::array<std::string_view, 7> kPhaseNames = {"draw", "place", "choose", "piece", "over", "chance", "score"};

int dim(int n) { return n > 0 ? n : 1; }

}  // namespace

std::array<float, kMaxPlayers> final_returns(const State& s) {
  std::array<float, kMaxPlayers> r{};
  const int n = s.nplayers;
  int best = -100000, k = 0;
  for (int p = 0; p < n; ++p) best = std::max<int>(best, s.score[static_cast<std::size_t>(p)]);
  for (int p = 0; p < n; ++p) k += s.score[static_cast<std::size_t>(p)] == best;
  for (int p = 0; p < n; ++p) {
    const double w = s.score[static_cast<std::size_t>(p)] == best ? 1.0 / k : 0.0;
    r[static_cast<std::size_t>(p)] = static_cast<float>((n * w - 1) / (n - 1));
  }
  return r;
}

Encoding::Encoding(std::shared_ptr<const Ruleset> rs, int nplayers, int radius)
    : rs_(std::move(rs)), nplayers_(nplayers) {
  const GameDef& g = *rs_->game;
  if (radius < 0) radius = g.window_radius;
  if (radius < 2 || radius > 60) throw InputError(fmt::format("radius {}: must be from 2 to 60", radius));
  radius_ = radius;
  width_ = 2 * radius + 1;
  cx_ = g.window_centre[0];
  cy_ = g.window_centre[1];
  if (nplayers < g.min_players || nplayers > g.max_players)
    throw InputError(fmt::format("{} is for {} to {} players, not {}", g.id, g.min_players, g.max_players, nplayers));
  ntypes_ = static_cast<int>(rs_->tiles.types.size());
  nftypes_ = static_cast<int>(g.ftypes.size());
  int slots = 1;
  for (const TileType& t : rs_->tiles.types) {
    max_feats_ = std::max(max_feats_, static_cast<int>(t.nfeat));
    if (t.east != 0xFF) slots = 2;
  }
  bool network = false;
  for (const FeatureTypeDef& f : g.ftypes) network = network || f.network_kind != 0xFF;

  ActionBlock place;
  place.name = "place";
  place.help = "lay the tile in hand on the cell, turned rot quarter turns clockwise";
  place.kind = MoveKind::Place;
  place.cell = true;
  place.rots = 4;
  place.rot_turns = true;
  blocks_.push_back(place);
  ActionBlock piece;
  piece.name = "piece";
  piece.help = network ? "a piece on local feature `feat` of a tile laid this turn (slot), of the feature's own kind (pk 0) or of kind k claiming its network (pk 1 + k)"
                       : "a piece on local feature `feat` of a tile laid this turn (slot)";
  piece.kind = MoveKind::Piece;
  piece.slots = slots;
  piece.feats = max_feats_;
  piece.pks = network ? 3 : 1;
  blocks_.push_back(piece);
  ActionBlock pass;
  pass.name = "pass";
  pass.help = g.pass_text;
  pass.kind = MoveKind::Pass;
  blocks_.push_back(pass);
  ActionBlock outside;
  outside.name = "place_outside";
  outside.help = "lay the tile in hand where it fits off the window (only when it fits nowhere on it: the first such placement)";
  outside.kind = MoveKind::Place;
  blocks_.push_back(outside);
  for (const GameDef::ActionBlock& gb : g.action_blocks) {
    ActionBlock b;
    b.name = gb.name;
    b.help = gb.help;
    b.kind = gb.kind;
    b.pk = gb.pk;
    b.cell = gb.cell;
    b.rots = gb.rots;
    b.rot_turns = gb.rot_is_corner;
    b.feats = gb.feats == -1 ? ntypes_ : gb.feats == -2 ? max_feats_ : gb.feats;
    b.none = gb.none;
    blocks_.push_back(b);
  }
  int off = 0;
  for (ActionBlock& b : blocks_) {
    b.offset = off;
    b.size = (b.cell ? width_ * width_ : 1) * dim(b.slots) * dim(b.rots) * (b.feats + (b.none ? 1 : 0) > 0 ? b.feats + (b.none ? 1 : 0) : 1) * dim(b.pks);
    off += b.size;
  }
  num_actions_ = off;
  build_planes();
}

int Encoding::action(const State& s, const Move& m) const {
  switch (m.kind) {
    case MoveKind::Place:
      if (!in_window(m.x, m.y)) return -1;
      return blocks_[static_cast<std::size_t>(place_)].offset + cell_index(m.x, m.y) * 4 + m.rot;
    case MoveKind::Pass:
      return blocks_[static_cast<std::size_t>(pass_)].offset;
    case MoveKind::Piece: {
      const ActionBlock& b = blocks_[static_cast<std::size_t>(piece_)];
      const int slot = s.placed_at(m.x, m.y) - static_cast<int>(s.piece_from);
      if (slot < 0 || slot >= b.slots || m.feat >= b.feats) throw std::logic_error("a piece move the action space cannot name");
      const int pk = m.pk == 0xFF ? 0 : 1 + m.pk;
      if (pk >= b.pks) throw std::logic_error("a piece kind the action space cannot name");
      return b.offset + (slot * b.feats + m.feat) * b.pks + pk;
    }
    default: break;
  }
  for (std::size_t i = 4; i < blocks_.size(); ++i) {
    const ActionBlock& b = blocks_[i];
    if (b.kind != m.kind || b.pk != m.pk) continue;
    int f = 0;
    if (b.feats == 0 && !b.none) {
      if (m.feat != 0xFF) continue;
    } else if (m.feat == 0xFF) {
      if (!b.none) continue;
      f = b.feats;
    } else {
      if (m.feat >= b.feats) continue;
      f = m.feat;
    }
    const int rots = dim(b.rots);
    if (m.rot >= rots) continue;
    int cell = 0;
    if (b.cell) {
      if (!in_window(m.x, m.y)) return -1;
      cell = cell_index(m.x, m.y);
    }
    const int nf = b.feats + (b.none ? 1 : 0) > 0 ? b.feats + (b.none ? 1 : 0) : 1;
    return b.offset + (cell * rots + m.rot) * nf + f;
  }
  throw std::logic_error(fmt::format("a move of kind {} (pk {}, feat {}) in no action block of {}", static_cast<int>(m.kind), m.pk, m.feat,
                                     rs_->game->id));
}

void Encoding::legal(const State& s, Legal& out) const {
  out.moves.clear();
  out.actions.clear();
  out.off_window = 0;
  if (is_chance(s) || s.phase == Phase::Over) return;
  legal_moves(s, out.moves);
  std::size_t w = 0;
  Move first_off{};
  for (std::size_t i = 0; i < out.moves.size(); ++i) {
    const Move m = out.moves[i];
    const int a = action(s, m);
    if (a < 0) {
      if (!out.off_window++) first_off = m;
      continue;
    }
    out.moves[w++] = m;
    out.actions.push_back(a);
  }
  out.moves.truncate(w);
  if (w == 0 && out.off_window && s.phase == Phase::Place) {
    out.moves.push_back(first_off);
    out.actions.push_back(blocks_[static_cast<std::size_t>(outside_)].offset);
  }
}

void Encoding::build_planes() {
  const GameDef& g = *rs_->game;
  auto& n = plane_names_;
  auto add = [&](const std::string& name) {
    n.push_back(name);
    return static_cast<int>(n.size()) - 1;
  };
  p_tile_ = add("tile");
  p_frontier_ = add("frontier");
  p_fits_ = static_cast<int>(n.size());
  for (int r = 0; r < 4; ++r) add(fmt::format("fits_r{}", r));
  p_this_turn_ = add("placed_this_turn");
  p_last_ = add("last_placed");
  p_port_type_ = static_cast<int>(n.size());
  for (int p = 0; p < 13; ++p)
    for (int t = 0; t < nftypes_; ++t) add(fmt::format("port_{}_{}", kPortNames[static_cast<std::size_t>(p)], g.ftypes[static_cast<std::size_t>(t)].name));
  p_port_closed_ = static_cast<int>(n.size());
  for (int p = 0; p < 13; ++p) add(fmt::format("port_{}_completed", kPortNames[static_cast<std::size_t>(p)]));
  p_port_pieces_ = static_cast<int>(n.size());
  for (int q = 0; q < nplayers_; ++q)
    for (int p = 0; p < 13; ++p) add(fmt::format("port_{}_pieces_seat+{}", kPortNames[static_cast<std::size_t>(p)], q));
  p_piece_here_ = static_cast<int>(n.size());
  for (int q = 0; q < nplayers_; ++q)
    for (int k = 0; k < 2; ++k) add(fmt::format("{}_here_seat+{}", g.piece_names[static_cast<std::size_t>(k)], q));
  p_symbols_ = static_cast<int>(n.size());
  for (int k = 0; k < kAttrs; ++k) add(fmt::format("symbols_slot{}", k));
  // the game's own planes (GameDef::observation)
  p_own_ = static_cast<int>(n.size());
  own_plane_.clear();
  for (const ObservationPlan::Plane& pl : g.observation.planes) {
    own_plane_.push_back(static_cast<int>(n.size()));
    if (!pl.per_seat) {
      add(pl.name);
      continue;
    }
    for (int q = 0; q < nplayers_; ++q) add(fmt::format("{}_seat+{}", pl.name, q));
  }
  num_planes_ = static_cast<int>(n.size());
  // one quarter turn clockwise: port p shows at rotate_port(p, 1); rotation r becomes r + 1
  plane_turn_.resize(static_cast<std::size_t>(num_planes_));
  plane_is_site_.assign(static_cast<std::size_t>(num_planes_), false);
  for (int i = 0; i < num_planes_; ++i) plane_turn_[static_cast<std::size_t>(i)] = i;
  for (int r = 0; r < 4; ++r) plane_turn_[static_cast<std::size_t>(p_fits_ + r)] = p_fits_ + (r + 1) % 4;
  for (int p = 0; p < 13; ++p) {
    const int p2 = rotate_port(p, 1);
    for (int t = 0; t < nftypes_; ++t) plane_turn_[static_cast<std::size_t>(p_port_type_ + p * nftypes_ + t)] = p_port_type_ + p2 * nftypes_ + t;
    plane_turn_[static_cast<std::size_t>(p_port_closed_ + p)] = p_port_closed_ + p2;
    for (int q = 0; q < nplayers_; ++q) plane_turn_[static_cast<std::size_t>(p_port_pieces_ + q * 13 + p)] = p_port_pieces_ + q * 13 + p2;
  }
  for (std::size_t k = 0; k < g.observation.planes.size(); ++k)
    if (g.observation.planes[k].at_point)
      for (int i = 0; i < (g.observation.planes[k].per_seat ? nplayers_ : 1); ++i)
        plane_is_site_[static_cast<std::size_t>(own_plane_[k] + i)] = true;

  auto& sc = scalar_names_;
  for (int q = 0; q < nplayers_; ++q) sc.push_back(fmt::format("score_seat+{}", q));
  for (int q = 0; q < nplayers_; ++q) sc.push_back(fmt::format("{}s_in_supply_seat+{}", g.piece_names[0], q));
  for (int q = 0; q < nplayers_; ++q) sc.push_back(fmt::format("{}s_in_supply_seat+{}", g.piece_names[1], q));
  for (int q = 0; q < nplayers_; ++q) sc.push_back(fmt::format("track_seat+{}", q));
  for (int q = 0; q < nplayers_; ++q) sc.push_back(fmt::format("to_move_seat+{}", q));
  for (int q = 0; q < nplayers_; ++q)
    for (const std::string& v : g.observation.seat_values) sc.push_back(fmt::format("{}_seat+{}", v, q));
  for (const auto ph : kPhaseNames) sc.push_back(fmt::format("phase_{}", ph));
  for (const TileType& t : rs_->tiles.types) sc.push_back(fmt::format("in_hand_{}", t.id));
  for (const TileType& t : rs_->tiles.types) sc.push_back(fmt::format("left_{}", t.id));
  for (const char* x : {"pile", "bonus_pile", "turn", "extra_turn_earned", "in_extra_turn", "track_length"}) sc.push_back(x);
  for (const std::string& v : g.observation.values) sc.push_back(v);
  num_scalars_ = static_cast<int>(sc.size());
}

void Encoding::observe(const State& s, int player, float* out, const Legal* legal_in, std::vector<u32>* touched) const {
  const int W = width_, WW = W * W;
  const std::size_t nplane = static_cast<std::size_t>(num_planes_) * static_cast<std::size_t>(WW);
  if (touched) {
    for (const u32 i : *touched) out[i] = 0;
    touched->clear();
    std::memset(out + nplane, 0, sizeof(float) * static_cast<std::size_t>(num_scalars_));
  } else {
    std::memset(out, 0, sizeof(float) * static_cast<std::size_t>(observation_size()));
  }
  auto at = [&](int plane, int x, int y) -> float& {
    const std::size_t i = static_cast<std::size_t>(plane * WW + cell_index(x, y));
    if (touched && out[i] == 0) touched->push_back(static_cast<u32>(i));
    return out[i];
  };
  const int np = s.nplayers;
  auto rel = [&](int seat) { return (seat - player + np) % np; };
  const std::size_t ntiles = s.tiles.size();
  for (std::size_t ti = 0; ti < ntiles; ++ti) {
    const PlacedTile& pt = s.tiles[ti];
    if (!in_window(pt.x, pt.y)) continue;
    const TileType& tt = s.type_of(pt);
    const RotatedTile& rt = tt.rot[pt.rot];
    at(p_tile_, pt.x, pt.y) = 1;
    if (ti >= s.turn_first && s.phase != Phase::Draw) at(p_this_turn_, pt.x, pt.y) = 1;
    if (ti + 1 == ntiles) at(p_last_, pt.x, pt.y) = 1;
    for (int p = 0; p < 13; ++p) {
      const u8 local = rt.port_feat[static_cast<std::size_t>(p)];
      if (local == 0xFF) continue;
      const TileFeature& tf = tt.feats[local];
      at(p_port_type_ + p * nftypes_ + tf.type, pt.x, pt.y) = 1;
      const Segment& r = s.graph[s.graph.find(pt.seg0 + local)];
      const FClass cls = rs_->ftype(tf.type).cls;
      if ((cls == FClass::Path || cls == FClass::Area || cls == FClass::Point) && r.open == 0) at(p_port_closed_ + p, pt.x, pt.y) = 1;
      if (r.npieces)
        for (int q = 0; q < np; ++q)
          if (r.pieces[static_cast<std::size_t>(q)]) at(p_port_pieces_ + rel(q) * 13 + p, pt.x, pt.y) = r.pieces[static_cast<std::size_t>(q)];
    }
    for (int f = 0; f < tt.nfeat; ++f)
      for (int k = 0; k < kAttrs; ++k) at(p_symbols_ + k, pt.x, pt.y) += tt.feats[static_cast<std::size_t>(f)].attr[static_cast<std::size_t>(k)];
  }
  for (const PieceOnBoard& pc : s.pieces) {
    const PlacedTile& pt = s.tiles[s.graph[pc.seg].tile];
    if (in_window(pt.x, pt.y)) at(p_piece_here_ + rel(pc.player) * 2 + std::min<int>(pc.kind, 1), pt.x, pt.y) += 1;
  }
  for (const FrontierCell& fc : s.frontier)
    if (in_window(fc.x, fc.y)) at(p_frontier_, fc.x, fc.y) = 1;
  if (s.phase == Phase::Place) {
    Legal tmp;
    const Legal* l = legal_in;
    if (!l) {
      legal(s, tmp);
      l = &tmp;
    }
    for (const Move& m : l->moves)
      if (m.kind == MoveKind::Place && in_window(m.x, m.y)) at(p_fits_ + m.rot, m.x, m.y) = 1;
  }
  // the game's own planes and values (Hooks::observe), placed by this sink
  const auto own = s.rs->game->hooks.observe;
  const GameDef& g = *s.rs->game;
  const int nseat = static_cast<int>(g.observation.seat_values.size());
  struct Sink final : ObservationSink {
    const std::vector<int>& first;
    const decltype(at)& put;
    const decltype(rel)& seat;
    const Encoding& e;
    float* seat_out = nullptr;
    float* value_out = nullptr;
    int nseat = 0;
    Sink(const std::vector<int>& f, const decltype(at)& a, const decltype(rel)& r, const Encoding& en)
        : first(f), put(a), seat(r), e(en) {}
    void plane(int k, int player, int x, int y, float v) override {
      if (!e.in_window(x, y)) return;
      put(first[static_cast<std::size_t>(k)] + (player >= 0 ? seat(player) : 0), x, y) += v;
    }
    void seat_value(int player, int k, float v) override { seat_out[seat(player) * nseat + k] = v; }
    void value(int k, float v) override { value_out[k] = v; }
  } sink(own_plane_, at, rel, *this);
  sink.nseat = nseat;
  // scalars
  float* o = out + static_cast<std::size_t>(num_planes_) * static_cast<std::size_t>(WW);
  for (int q = 0; q < np; ++q) o[rel(q)] = s.score[static_cast<std::size_t>(q)];
  o += np;
  for (int q = 0; q < np; ++q) o[rel(q)] = s.supply[static_cast<std::size_t>(q)];
  o += np;
  for (int q = 0; q < np; ++q) o[rel(q)] = s.supply2[static_cast<std::size_t>(q)];
  o += np;
  for (int q = 0; q < np; ++q) o[rel(q)] = s.track[static_cast<std::size_t>(q)];
  o += np;
  if (!is_chance(s) && s.phase != Phase::Over) o[rel(to_move(s))] = 1;
  o += np;
  sink.seat_out = o;
  o += np * nseat;
  o[static_cast<int>(s.phase)] = 1;
  o += 7;
  if (s.in_hand != 0xFF) o[s.in_hand] = 1;
  o += ntypes_;
  for (int t = 0; t < ntypes_; ++t) o[t] = s.remaining[static_cast<std::size_t>(t)];
  o += ntypes_;
  *o++ = s.pile;
  *o++ = s.bonus_pile;
  *o++ = s.turn;
  *o++ = s.extra;
  *o++ = s.in_extra;
  *o++ = s.track_len;
  sink.value_out = o;
  if (own) own(s, sink);
}

void Encoding::turn_observation(const float* in, float* out, int k, int in_hand) const {
  k = ((k % 4) + 4) % 4;
  const int W = width_, WW = W * W, R = radius_;
  const std::size_t planes = static_cast<std::size_t>(num_planes_) * static_cast<std::size_t>(WW);
  if (k == 0) {
    std::memcpy(out, in, sizeof(float) * static_cast<std::size_t>(observation_size()));
    return;
  }
  std::memset(out, 0, sizeof(float) * planes);
  for (int pl = 0; pl < num_planes_; ++pl) {
    int dst = pl;
    for (int i = 0; i < k; ++i) dst = plane_turn_[static_cast<std::size_t>(dst)];
    if (dst >= p_fits_ && dst < p_fits_ + 4 && in_hand >= 0 && in_hand < ntypes_)
      dst = p_fits_ + rs_->tiles.types[static_cast<std::size_t>(in_hand)].same_rot[static_cast<std::size_t>(dst - p_fits_)];
    const bool site = plane_is_site_[static_cast<std::size_t>(pl)];
    const float* src = in + static_cast<std::size_t>(pl) * static_cast<std::size_t>(WW);
    float* d = out + static_cast<std::size_t>(dst) * static_cast<std::size_t>(WW);
    for (int y = -R; y <= R; ++y)
      for (int x = -R; x <= R; ++x) {
        // window coordinates (from the centre cell)
        const float v = src[(y + R) * W + (x + R)];
        if (v == 0) continue;
        // cells turn about the centre cell's middle: (x, y) -> (-y, x); grid points (a cell's
        // north-west corner) -> (1 - y, x)
        int nx = x, ny = y;
        for (int i = 0; i < k; ++i) {
          const int tx = site ? 1 - ny : -ny;
          ny = nx;
          nx = tx;
        }
        if (nx >= -R && nx <= R && ny >= -R && ny <= R) d[(ny + R) * W + (nx + R)] = v;
      }
  }
  std::memcpy(out + planes, in + planes, sizeof(float) * static_cast<std::size_t>(num_scalars_));
}

int Encoding::turn_action(const State& s, int a, int k) const {
  k = ((k % 4) + 4) % 4;
  if (a < 0 || a >= num_actions_) throw InputError(fmt::format("action {} is not in 0..{}", a, num_actions_ - 1));
  if (k == 0) return a;
  std::size_t bi = 0;
  while (bi + 1 < blocks_.size() && a >= blocks_[bi + 1].offset) ++bi;
  const ActionBlock& b = blocks_[bi];
  if (!b.cell) return a;  // pieces, passes, choices without a cell: the same whichever way the board lies
  const int nf = b.feats + (b.none ? 1 : 0) > 0 ? b.feats + (b.none ? 1 : 0) : 1;
  const int rots = dim(b.rots);
  int r = a - b.offset;
  const int f = r % nf;
  r /= nf;
  int rot = r % rots;
  const int cell = r / rots;
  int x = cell % width_ - radius_, y = cell / width_ - radius_;
  for (int i = 0; i < k; ++i) {
    const int tx = -y;
    y = x;
    x = tx;
  }
  if (x < -radius_ || x > radius_ || y < -radius_ || y > radius_) return -1;
  if (b.rot_turns) {
    rot = (rot + k) % rots;
    if (b.kind == MoveKind::Place && s.in_hand != 0xFF) {
      // the engine lists a tile's distinct rotations only: the first with the same picture
      rot = rs_->tiles.types[s.in_hand].same_rot[static_cast<std::size_t>(rot)];
    }
  }
  return b.offset + (((y + radius_) * width_ + (x + radius_)) * rots + rot) * nf + f;
}

}  // namespace carc::rl
