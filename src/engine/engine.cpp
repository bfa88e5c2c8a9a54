#include "engine/engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace carc {

Game::Game(std::shared_ptr<const Ruleset> rs, std::vector<PlayerInfo> players) : rs_(std::move(rs)) {
  if (players.size() < static_cast<std::size_t>(rs_->game->min_players) ||
      players.size() > static_cast<std::size_t>(rs_->game->max_players))
    throw InputError(fmt::format("{} takes {} to {} players, not {}", rs_->game->title, rs_->game->min_players,
                                 rs_->game->max_players, players.size()));
  init_state(state_, *rs_, static_cast<int>(players.size()));
  rec_.game = rs_->game->id;
  rec_.options = rs_->options;
  rec_.tiles = rs_->tiles_file;
  rec_.players = std::move(players);
}

Game::Game(std::shared_ptr<const Ruleset> rs, std::vector<PlayerInfo> players, u64 seed) : Game(std::move(rs), std::move(players)) {
  rec_.seed = seed;
  rng_.emplace(seed);
  advance();
}

// A recorded draw that cannot happen here: an error while a record is replayed; past the record's
// moves (a planned deal that the game no longer follows) it ends the plan instead: it and every
// later planned outcome are dropped, and the game goes on from the generator, or stalls.
// A recorded outcome that cannot happen here: an error while a record is replayed; past the record's
// moves (a planned deal that the game no longer follows) it ends the plan instead: it and every
// later planned outcome are dropped, and the game goes on from the generator, or stalls.
void Game::refuse_scripted(std::vector<std::string>& list, std::size_t index, const std::string& why) {
  const std::size_t from = &list == &rec_.chance ? chance_planned_from_ : planned_from_;
  if (index < from) throw DrawError(why);
  list.resize(index);
  if (&list == &rec_.draws) rec_.draw_marks.resize(index);
  ++plans_dropped_;
}

// Why the recorded draw `type` cannot be drawn now (empty: it can).
std::string Game::scripted_draw_problem(int type, const std::string& id, u8 claim) const {
  const std::size_t i = scripted_;
  if (type < 0) return fmt::format("draws[{}]: unknown tile \"{}\"", i, id);
  if (state_.remaining[static_cast<std::size_t>(type)] == 0) return fmt::format("draws[{}]: no tile \"{}\" is left in the pile", i, id);
  const bool bonus_due = state_.extra != 0;
  const bool bonus = rs_->tiles.types[static_cast<std::size_t>(type)].pile == kPileBonus;
  if (bonus != bonus_due)
    return fmt::format("draws[{}]: tile \"{}\" is {} but this draw is {}", i, id, bonus ? "a bonus tile" : "a regular tile",
                       bonus_due ? "for a bonus turn (from the bonus pile)" : "from the regular pile");
  if (claim == kDrawUnmarked) return {};
  if (((claim & kDrawBonus) != 0) != bonus_due)
    return fmt::format("draws[{}]: marked as a draw from the {} pile but this draw is from the {} pile", i,
                       (claim & kDrawBonus) ? "bonus" : "regular", bonus_due ? "bonus" : "regular");
  State trial = state_;  // a discard mark must hold before anything changes
  const bool placed = apply_draw(trial, type, nullptr);
  if (((claim & kDrawDiscarded) != 0) == placed)
    return fmt::format("draws[{}]: tile \"{}\" is marked as {} but it {}", i, id, placed ? "discarded" : "placed",
                       placed ? "fits the board" : "fits nowhere and is discarded");
  return {};
}

bool Game::draw_one() {
  const bool bonus_due = state_.extra != 0;
  int type = -1;
  if (scripted_ < rec_.draws.size()) {
    const std::string& id = rec_.draws[scripted_];
    const u8 claim = scripted_ < rec_.draw_marks.size() ? rec_.draw_marks[scripted_] : kDrawUnmarked;
    type = rs_->tiles.find(id);
    if (const std::string why = scripted_draw_problem(type, id, claim); !why.empty()) {
      refuse_scripted(rec_.draws, scripted_, why);
      type = -1;
    } else {
      if (rng_) sample_draw(state_, *rng_);  // keep the generator in step for a later continuation
      ++scripted_;
    }
  }
  if (type < 0) {
    if (!rng_) return false;
    type = sample_draw(state_, *rng_);
    rec_.draws.push_back(rs_->tiles.types[static_cast<std::size_t>(type)].id);
    scripted_ = rec_.draws.size();
  }
  const bool placed = apply_draw(state_, type, &rec_.events);
  rec_.draw_marks.resize(rec_.draws.size(), kDrawUnmarked);
  rec_.draw_marks[scripted_ - 1] = static_cast<u8>((placed ? 0 : kDrawDiscarded) | (bonus_due ? kDrawBonus : 0));
  return true;
}

bool Game::chance_one() {
  const Hooks& hk = rs_->game->hooks;
  int o = -1;
  if (chance_scripted_ < rec_.chance.size()) {
    const std::string& text = rec_.chance[chance_scripted_];
    o = hk.chance_parse(state_, text);
    if (o < 0) {
      refuse_scripted(rec_.chance, chance_scripted_, fmt::format("chance[{}]: \"{}\" is not possible here", chance_scripted_, text));
    } else {
      if (rng_) hk.sample_chance(state_, *rng_);  // keep the generator in step
      ++chance_scripted_;
    }
  }
  if (o < 0) {
    if (!rng_) return false;
    o = hk.sample_chance(state_, *rng_);
    rec_.chance.push_back(hk.chance_text(state_, o));
    chance_scripted_ = rec_.chance.size();
  }
  hk.apply_chance(state_, o, &rec_.events);
  return true;
}

void Game::advance() {
  while (state_.phase == Phase::Draw || state_.phase == Phase::Chance) {
    if (state_.phase == Phase::Chance) {
      if (explicit_ || !chance_one()) return;  // stalled: no outcome recorded and no generator
      continue;
    }
    if (state_.pile == 0 && !state_.extra) {
      end_if_pile_empty(state_, &rec_.events);
      break;
    }
    if (explicit_ || !draw_one()) return;  // stalled: the record ends here
  }
  if (state_.phase == Phase::Over && !rec_.finished) {
    rec_.finished = true;
    rec_.final_scores.assign(state_.score.begin(), state_.score.begin() + state_.nplayers);
  }
}

Game Game::with_explicit_chance(std::shared_ptr<const Ruleset> rs, std::vector<PlayerInfo> players, std::optional<u64> seed) {
  Game g(std::move(rs), std::move(players));
  g.explicit_ = true;
  g.rec_.seed = seed;
  if (seed) g.rng_.emplace(*seed);
  g.advance();
  return g;
}

void Game::set_explicit_chance(std::optional<u64> generator_seed) {
  explicit_ = true;
  rng_.reset();
  if (generator_seed) rng_.emplace(*generator_seed);
  advance();
}

int Game::sample_chance_outcome() const {
  if (!is_chance(state_) || over()) throw InputError("this is not a chance node");
  if (!rng_) throw InputError("this game has no generator (give a seed, or choose the outcome)");
  Rng r = *rng_;
  if (state_.phase == Phase::Chance) return rs_->game->hooks.sample_chance(state_, r);
  return sample_draw(state_, r);
}

void Game::apply_chance_outcome(int outcome) {
  if (!is_chance(state_) || over()) throw InputError("this is not a chance node");
  std::vector<std::pair<int, double>> odds;
  chance_odds(state_, odds);
  if (std::none_of(odds.begin(), odds.end(), [&](const auto& o) { return o.first == outcome; }))
    throw InputError(fmt::format("chance outcome {} is not possible here ({} possible)", outcome, odds.size()));
  if (state_.phase == Phase::Chance) {
    const Hooks& hk = rs_->game->hooks;
    if (rng_) hk.sample_chance(state_, *rng_);  // keep the generator in step
    rec_.chance.resize(chance_scripted_);  // a planned deal past this point no longer holds
    rec_.chance.push_back(hk.chance_text(state_, outcome));
    chance_scripted_ = rec_.chance.size();
    hk.apply_chance(state_, outcome, &rec_.events);
  } else {
    const bool bonus_due = state_.extra != 0;
    if (rng_) sample_draw(state_, *rng_);
    rec_.draws.resize(scripted_);
    rec_.draws.push_back(rs_->tiles.types[static_cast<std::size_t>(outcome)].id);
    scripted_ = rec_.draws.size();
    const bool placed = apply_draw(state_, outcome, &rec_.events);
    rec_.draw_marks.resize(rec_.draws.size(), kDrawUnmarked);
    rec_.draw_marks[scripted_ - 1] = static_cast<u8>((placed ? 0 : kDrawDiscarded) | (bonus_due ? kDrawBonus : 0));
  }
  advance();
  // a chance event inside a turn (Safari's token draws after scoring) may lead to a decision of
  // the same turn (the taken jeep's new cell): the turn is in progress again
  if (!rec_.moves.empty() && state_.phase != Phase::Place)
    rec_.moves.back().partial = state_.phase == Phase::Piece || state_.phase == Phase::Choose;
}

void Game::play(const Move& m) {
  // All or nothing: on any error (an illegal move, a recorded draw that does not fit, a capacity)
  // the state, the record, the chance source and the undo list are exactly as before.
  struct Saved {
    State state;
    std::size_t moves, events, draws, chance, scripted, chance_scripted, undo;
    std::optional<RecordMove> last;
    std::optional<Rng> rng;
    bool finished;
    std::vector<int> final_scores;
    std::vector<u8> draw_marks;
    std::size_t plans_dropped;
    // a planned deal may be cut short by the move: keep it whole
    std::optional<std::vector<std::string>> draws_all, chance_all;
  };
  // a long game keeps the starts of its last kMaxUndo turns (snapshots are whole states)
  if (keep_undo_ && m.kind == MoveKind::Place && undo_.size() >= kMaxUndo) undo_.pop_front();
  const Saved sv{state_, rec_.moves.size(), rec_.events.size(), rec_.draws.size(), rec_.chance.size(), scripted_, chance_scripted_,
                 undo_.size(), rec_.moves.empty() ? std::nullopt : std::optional<RecordMove>(rec_.moves.back()), rng_,
                 rec_.finished, rec_.final_scores, rec_.draw_marks, plans_dropped_,
                 scripted_ < rec_.draws.size() ? std::optional(rec_.draws) : std::nullopt,
                 chance_scripted_ < rec_.chance.size() ? std::optional(rec_.chance) : std::nullopt};
  try {
    play_unchecked(m);
  } catch (...) {
    state_ = sv.state;
    rec_.moves.resize(sv.moves);
    if (sv.last) rec_.moves.back() = *sv.last;
    rec_.events.resize(sv.events);
    if (sv.draws_all) rec_.draws = *sv.draws_all;
    rec_.draws.resize(sv.draws);
    rec_.draw_marks = sv.draw_marks;
    if (sv.chance_all) rec_.chance = *sv.chance_all;
    plans_dropped_ = sv.plans_dropped;
    rec_.chance.resize(sv.chance);
    scripted_ = sv.scripted;
    chance_scripted_ = sv.chance_scripted;
    undo_.resize(sv.undo);
    rng_ = sv.rng;
    rec_.finished = sv.finished;
    rec_.final_scores = sv.final_scores;
    throw;
  }
}

void Game::play_unchecked(const Move& m) {
  if (!rec_.ended.empty()) throw InputError(fmt::format("the game is over (it ended early: {})", rec_.ended));
  if (state_.phase == Phase::Over) throw InputError("the game is over");
  if (state_.phase == Phase::Draw || state_.phase == Phase::Chance) throw InputError("a chance event is due (no decision now)");
  if (!is_legal(state_, m)) {
    if (m.player != to_move(state_)) throw InputError(fmt::format("it is player {}'s decision, not player {}'s", to_move(state_) + 1, m.player + 1));
    if (state_.phase == Phase::Place) {
      if (m.kind != MoveKind::Place) throw InputError("a tile must be placed first");
      const u16 v = state_.cells.get(m.x, m.y);
      if (v != 0 && !(v & 0x8000)) throw InputError(fmt::format("cell {},{} already holds a tile", m.x, m.y));
      if (v == 0) throw InputError(fmt::format("cell {},{} touches no placed tile", m.x, m.y));
      throw InputError(fmt::format("tile {} rotated {} does not fit at {},{}",
                                   rs_->tiles.types[state_.in_hand].id, m.rot * 90, m.x, m.y));
    }
    if (state_.phase == Phase::Choose) {
      if (m.kind != MoveKind::Choose) throw InputError("a choice must be made first (see the listed options)");
      throw InputError("that option is not available");
    }
    if (m.kind == MoveKind::Place) throw InputError("the tile is already placed; place a piece or pass");
    if (m.kind == MoveKind::Choose) throw InputError("there is no choice to make now");
    if (m.kind == MoveKind::Act) throw InputError("that action is not possible now (see the listed moves)");
    if (state_.supply[state_.current] == 0 && state_.supply2[state_.current] == 0) throw InputError("no piece left in supply");
    throw InputError("that feature cannot take a piece (occupied, not claimable, or none of that kind left)");
  }
  if (m.kind == MoveKind::Place) {
    if (keep_undo_)
      undo_.push_back(Snapshot{state_, rec_.moves.size(), rec_.events.size(), scripted_, chance_scripted_, plans_dropped_, rec_.draws,
                               rec_.chance, rec_.draw_marks, rng_});
    RecordMove rm;
    rm.player = m.player;
    rm.tile = rs_->tiles.types[state_.in_hand].id;
    rm.x = m.x;
    rm.y = m.y;
    rm.rot = m.rot * 90;
    rec_.moves.push_back(rm);
  } else if (m.kind == MoveKind::Piece) {
    RecordMove& rm = rec_.moves.back();
    const PlacedTile& pt = state_.tiles[static_cast<std::size_t>(state_.placed_at(m.x, m.y))];
    rm.follower = feature_port(state_, pt, m.feat);
    if (m.pk != 0xFF) rm.piece = rs_->game->piece_names[m.pk];
    if (m.x != rm.x || m.y != rm.y) rm.follower_at = std::pair<int, int>(m.x, m.y);
  } else if (m.kind == MoveKind::Act) {
    rec_.moves.back().action = rs_->game->hooks.action_text(state_, m);
  } else if (m.kind == MoveKind::Choose && rs_->game->choices_listed) {
    rec_.moves.back().choices.emplace_back(m.player, rs_->game->hooks.choice_text(state_, m));
  } else if (m.kind == MoveKind::Choose) {
    rec_.moves.back().choice = rs_->game->hooks.choice_text ? rs_->game->hooks.choice_text(state_, m) : rs_->tiles.types[m.feat].id;
    rec_.moves.back().choice_rot = m.rot * 90;
  }
  if (m.kind == MoveKind::Piece || m.kind == MoveKind::Act || m.kind == MoveKind::Pass) rec_.moves.back().decided = true;
  apply_move(state_, m, &rec_.events);
  advance();
  rec_.moves.back().partial = state_.phase == Phase::Piece || state_.phase == Phase::Choose;
}

void Game::rename_player(int player, std::string name) {
  if (player < 0 || static_cast<std::size_t>(player) >= rec_.players.size())
    throw InputError(fmt::format("rename: no player {} (the game has {})", player, rec_.players.size()));
  rec_.players[static_cast<std::size_t>(player)].name = std::move(name);
}

void Game::note_hint(int player) {
  if (player < 0 || static_cast<std::size_t>(player) >= rec_.players.size())
    throw InputError(fmt::format("hint: no player {} (the game has {})", player, rec_.players.size()));
  if (!rec_.hints_allowed) throw InputError("hint: this game does not allow hints");
  // the move being decided: the turn in progress (its tile placed, a later decision pending) or
  // the next one
  const bool mid_turn = !rec_.moves.empty() && rec_.moves.back().partial &&
                        (state_.phase == Phase::Piece || state_.phase == Phase::Choose);
  rec_.hints.push_back({player, static_cast<int>(rec_.moves.size()) + (mid_turn ? 0 : 1)});
}

bool Game::undo_turn(int player) {
  if (!rec_.ended.empty()) return false;  // a game ended early stays ended
  for (std::size_t i = undo_.size(); i-- > 0;) {
    if (undo_[i].state.current != player) continue;
    Snapshot& sn = undo_[i];
    state_ = sn.state;
    rec_.moves.resize(sn.moves);
    rec_.events.resize(sn.events);
    rec_.draws = sn.draws;
    rec_.draw_marks = sn.draw_marks;
    scripted_ = sn.scripted;
    rec_.chance = sn.chance;
    chance_scripted_ = sn.chance_scripted;
    plans_dropped_ = sn.plans_dropped;
    rng_ = sn.rng;
    rec_.finished = false;
    rec_.final_scores.clear();
    undo_.resize(i);
    return true;
  }
  return false;
}

Move placement_move(const State& s, int x, int y, int rot_degrees) {
  if (rot_degrees % 90 != 0 || rot_degrees < 0 || rot_degrees > 270)
    throw InputError(fmt::format("rotation {} is not 0, 90, 180 or 270", rot_degrees));
  if (!CellMap::in_range(x, y)) throw InputError(fmt::format("cell {},{} is off the map", x, y));
  Move m;
  m.kind = MoveKind::Place;
  m.player = s.current;
  m.x = static_cast<i8>(x);
  m.y = static_cast<i8>(y);
  m.rot = static_cast<u8>(rot_degrees / 90);
  return m;
}

Move Game::placement(int x, int y, int rot_degrees) const { return placement_move(state_, x, y, rot_degrees); }

Move Game::piece_at_port(std::string_view port) const {
  Move m;
  m.player = state_.current;
  if (port == "none" || port == "pass" || port.empty()) return m;
  if (state_.phase != Phase::Piece) throw InputError("no tile has just been placed");
  if (!port_from_name(port))
    throw InputError(fmt::format("\"{}\" is not a port (NNW N NNE ENE E ESE SSE S SSW WSW W WNW C) or none", port));
  const int f = feature_at_port(state_, state_.last_placed(), port);
  if (f < 0) throw InputError(fmt::format("no feature at port {} of the tile just placed", port));
  m.kind = MoveKind::Piece;
  m.feat = static_cast<u8>(f);
  m.x = state_.last_placed().x;
  m.y = state_.last_placed().y;
  m.rot = state_.last_placed().rot;
  return m;
}

Move Game::piece_at(int x, int y, std::string_view port, std::string_view kind) const {
  Move m;
  m.player = state_.current;
  if (port == "none" || port == "pass" || port.empty()) return m;
  if (state_.phase != Phase::Piece) throw InputError("no tile has just been placed");
  const int ti = state_.placed_at(x, y);
  if (ti < 0 || ti < state_.piece_from)
    throw InputError(fmt::format("no tile placed this turn at {},{} can take a piece", x, y));
  if (!port_from_name(port))
    throw InputError(fmt::format("\"{}\" is not a port (NNW N NNE ENE E ESE SSE S SSW WSW W WNW C) or none", port));
  const PlacedTile& pt = state_.tiles[static_cast<std::size_t>(ti)];
  const int f = feature_at_port(state_, pt, port);
  if (f < 0) throw InputError(fmt::format("no feature at port {} of the tile at {},{}", port, x, y));
  if (!kind.empty()) {
    const auto& names = rs_->game->piece_names;
    const FeatureTypeDef& fd = rs_->ftype(state_.type_of(pt).feats[static_cast<std::size_t>(f)].type);
    const auto it = std::find(names.begin(), names.end(), kind);
    if (it == names.end()) throw InputError(fmt::format("\"{}\" is not a piece of this game", kind));
    const int k = static_cast<int>(it - names.begin());
    if (k == fd.network_kind) m.pk = static_cast<u8>(k);
    else if (!(fd.claimable && k == fd.piece_kind)) throw InputError(fmt::format("a {} cannot go on a {}", kind, fd.name));
  }
  m.kind = MoveKind::Piece;
  m.feat = static_cast<u8>(f);
  m.x = pt.x;
  m.y = pt.y;
  m.rot = pt.rot;
  return m;
}

Move Game::choice(std::string_view option, int rot_degrees) const {
  if (state_.phase != Phase::Choose) throw InputError("there is no choice to make now");
  if (rs_->game->hooks.choice_parse) return rs_->game->hooks.choice_parse(state_, option);
  if (rot_degrees % 90 != 0 || rot_degrees < 0 || rot_degrees > 270)
    throw InputError(fmt::format("rotation {} is not 0, 90, 180 or 270", rot_degrees));
  const int t = rs_->tiles.find(option);
  if (t < 0) throw InputError(fmt::format("\"{}\" is not a tile of this game", option));
  Move m;
  m.kind = MoveKind::Choose;
  m.player = state_.current;
  m.feat = static_cast<u8>(t);
  m.rot = static_cast<u8>(rot_degrees / 90);
  return m;
}

Move Game::action(std::string_view text) const {
  if (state_.phase != Phase::Piece) throw InputError("no tile has just been placed");
  if (!rs_->game->hooks.action_parse) throw InputError(fmt::format("{} has no actions besides pieces", rs_->game->title));
  return rs_->game->hooks.action_parse(state_, text);
}

namespace {
// The record with every tile id of an earlier version of the tile file (an alias) as today's.
Record with_canonical_tiles(Record r, const TileSet& ts) {
  for (std::string& d : r.draws) d = ts.canonical(d);
  for (RecordMove& m : r.moves) {
    m.tile = ts.canonical(m.tile);
    if (m.choice) m.choice = ts.canonical(*m.choice);
  }
  if (r.setup) {
    for (auto& t : r.setup->tiles) t.id = ts.canonical(t.id);
    if (r.setup->pile)
      for (std::string& p : *r.setup->pile) p = ts.canonical(p);
  }
  return r;
}
}  // namespace

Game Game::replay(const Record& r_in, std::optional<u64> continue_seed, const std::string& tiles_override, const DecisionHook& on_decision) {
  std::vector<std::string> settings;
  for (const auto& [k, v] : r_in.options) settings.push_back(k + "=" + v);
  // a record's relative tile path is relative to the record's own folder
  std::string tiles = tiles_override.empty() ? r_in.tiles : tiles_override;
  if (tiles_override.empty() && !tiles.empty() && tiles.front() != '/' && !r_in.folder.empty()) tiles = r_in.folder + "/" + tiles;
  Game g(load_ruleset(r_in.game, settings, tiles), r_in.players);
  // tile ids of earlier versions read as today's (only sets with aliases pay for the copy)
  std::optional<Record> mapped;
  if (!g.rs_->tiles.aliases.empty()) mapped.emplace(with_canonical_tiles(r_in, g.rs_->tiles));
  const Record& r = mapped ? *mapped : r_in;
  g.rec_.tiles = tiles_override.empty() ? r.tiles : tiles_override;
  g.rec_.seed = r.seed;
  g.rec_.draws = r.draws;
  if (r.setup) {
    const TileSet& ts = g.rs_->tiles;
    auto type_of = [&](const std::string& id, const std::string& where) {
      const int t = ts.find(id);
      if (t < 0) throw ReplayError(fmt::format("{}: unknown tile \"{}\"", where, id), 0, "bad_setup");
      return t;
    };
    Prepared p;
    for (std::size_t i = 0; i < r.setup->tiles.size(); ++i) {
      const auto& t = r.setup->tiles[i];
      p.board.push_back(StartCell{type_of(t.id, fmt::format("setup: tiles[{}]", i)), t.x, t.y, t.rot / 90});
    }
    for (std::size_t i = 0; i < r.setup->pieces.size(); ++i) {
      const auto& pc = r.setup->pieces[i];
      PreparedPiece pp{pc.player, pc.x, pc.y, pc.port, 0xFF};
      if (!pc.piece.empty()) {
        const auto& names = g.rs_->game->piece_names;
        const auto it = std::find(names.begin(), names.end(), pc.piece);
        if (it == names.end()) throw ReplayError(fmt::format("setup: pieces[{}]: \"{}\" is not a piece of this game", i, pc.piece), 0, "bad_setup");
        const int k = static_cast<int>(it - names.begin());
        pp.kind = static_cast<u8>(k);  // init_prepared: the feature's own kind, or its network's (a hut)
      }
      p.pieces.push_back(pp);
    }
    p.scores = r.setup->scores;
    p.supplies = r.setup->supplies;
    p.game_keys = r.setup->game_keys;
    p.to_move = r.setup->to_move;
    if (r.setup->pile) {
      p.short_pile = true;
      for (std::size_t i = 0; i < r.setup->pile->size(); ++i) p.pile.push_back(type_of((*r.setup->pile)[i], fmt::format("setup: pile[{}]", i)));
    }
    try {
      init_prepared(g.state_, *g.rs_, static_cast<int>(r.players.size()), p);
    } catch (const InputError& e) {
      throw ReplayError(e.what(), 0, "bad_setup");
    }
    g.rec_.setup = r.setup;
    if (r.setup->pile && r.draws.empty() && !r.seed) g.rec_.draws = *r.setup->pile;  // the pile's order
  }
  g.rec_.draw_marks = r.draw_marks;
  g.rec_.chance = r.chance;
  g.planned_from_ = g.chance_planned_from_ = std::numeric_limits<std::size_t>::max();  // strict while replaying
  if (r.seed) g.rng_.emplace(*r.seed);
  try {
    g.advance();
  } catch (const DrawError& e) {
    throw ReplayError(fmt::format("{} (before the first move)", e.what()), 0, "bad_draw");
  }
  const char* step = "move";  // what the record asked for when it failed (ReplayError::code)
  for (std::size_t i = 0; i < r.moves.size(); ++i) {
    const RecordMove& rm = r.moves[i];
    const std::string where = fmt::format("move {}", i + 1);
    auto play = [&](const Move& m) {
      if (on_decision) on_decision(g.state_, m, static_cast<int>(i));
      g.play(m);
    };
    try {
      step = "move";
      step = "game_over";
      if (g.state_.phase == Phase::Over) throw InputError("the game is already over");
      step = "chance_ran_out";
      if (g.state_.phase == Phase::Chance) throw InputError("the record's chance outcomes (\"chance\") ran out before this move");
      step = "draws_ran_out";
      if (g.state_.phase != Phase::Place) throw InputError("the record's draws ran out before this move");
      step = "wrong_tile";
      const std::string& in_hand = g.rs_->tiles.types[g.state_.in_hand].id;
      if (rm.tile != in_hand) throw InputError(fmt::format("tile {} is named but the drawn tile is {}", rm.tile, in_hand));
      step = "wrong_player";
      if (rm.player != g.state_.current)
        throw InputError(fmt::format("made by player {} but it is player {}'s turn", rm.player + 1, g.state_.current + 1));
      step = "illegal_placement";
      play(g.placement(rm.x, rm.y, rm.rot));
      std::size_t ci = 0;  // listed choices taken so far
      auto listed_choices = [&] {
        while (g.state_.phase == Phase::Choose) {
          step = "illegal_choice";
          if (rm.partial && ci >= rm.choices.size()) return;  // a turn saved mid-turn: this decision is pending
          if (ci >= rm.choices.size())
            throw InputError(fmt::format("player {} has a decision to make and the record's choices end here", to_move(g.state_) + 1));
          const auto& [who, text] = rm.choices[ci];
          if (who != to_move(g.state_))
            throw InputError(fmt::format("choice {} (\"{}\") is player {}'s but player {} decides now", ci + 1, text, who + 1, to_move(g.state_) + 1));
          play(g.choice(text, 0));
          ++ci;
        }
      };
      // The piece goes on the tile at the move's cell unless follower_at names another tile placed
      // this turn (never silently on another tile).
      auto piece = [&] {
        const std::string kind = rm.piece.value_or("");
        const auto [px, py] = rm.follower_at.value_or(std::pair<int, int>(rm.x, rm.y));
        return g.piece_at(px, py, rm.follower.value_or("none"), kind);
      };
      if (rm.partial && i + 1 != r.moves.size()) throw InputError("only the last move can be partial (a turn in progress)");
      if (g.rs_->game->choices_listed) {
        if (rm.partial && ci >= rm.choices.size() && g.state_.phase == Phase::Choose) continue;
        listed_choices();
        if (rm.partial && !rm.decided) {
          if (ci != rm.choices.size()) throw InputError(fmt::format("the record gives {} choices but the turn took {}", rm.choices.size(), ci));
          continue;
        }
        if (g.state_.phase != Phase::Piece) throw InputError("the turn has no action to take");
        step = rm.action ? "illegal_action" : "illegal_piece";
        if (rm.action) play(g.action(*rm.action));
        else play(piece());
        if (rm.partial && ci >= rm.choices.size()) continue;
        listed_choices();
        step = "illegal_choice";
        if (ci != rm.choices.size()) throw InputError(fmt::format("the record gives {} choices but the turn took {}", rm.choices.size(), ci));
        continue;
      }
      step = "bad_key";
      if (!rm.choices.empty()) throw InputError(fmt::format("\"choices\" is not used in {}", g.rs_->game->title));
      if (rm.action && !g.rs_->game->hooks.gen_actions) throw InputError(fmt::format("\"action\" is not used in {}", g.rs_->game->title));
      step = "illegal_choice";
      if (rm.partial && g.state_.phase == Phase::Choose && !rm.choice) continue;
      if (g.state_.phase == Phase::Choose) {
        if (!rm.choice) throw InputError(fmt::format("this turn needs a choice (\"{}\") and the record gives none", g.rs_->game->choice_key));
        play(g.choice(*rm.choice, rm.choice_rot));
      } else if (rm.choice) {
        throw InputError("a choice is given but this turn has none");
      }
      step = "illegal_piece";
      if (rm.partial && !rm.decided) continue;
      if (rm.action) {  // an action instead of the piece (a game with actions and no listed choices)
        if (g.state_.phase != Phase::Piece) throw InputError("an action is given but the turn is over");
        step = "illegal_action";
        play(g.action(*rm.action));
      } else if (g.state_.phase == Phase::Piece || rm.follower) {
        if (g.state_.phase != Phase::Piece) throw InputError("a follower is given but the turn is over");
        play(piece());
      } else if (rm.follower_at || rm.piece) {
        throw InputError("a piece is described but the turn is over");
      }
    } catch (const DrawError& e) {
      throw ReplayError(fmt::format("{} (the draw after move {})", e.what(), i + 1), static_cast<int>(i + 1), "bad_draw");
    } catch (const InputError& e) {
      throw ReplayError(fmt::format("{} ({} {},{} r{}): {}", where, rm.tile, rm.x, rm.y, rm.rot, e.what()), static_cast<int>(i + 1), step);
    }
  }
  if (!g.rng_ && continue_seed) {
    // continue a seedless record with a fresh generator
    g.rng_.emplace(*continue_seed);
    g.rec_.seed = std::nullopt;
  }
  try {
    g.advance();
  } catch (const DrawError& e) {
    throw ReplayError(fmt::format("{} (the draw after the last move)", e.what()), static_cast<int>(r.moves.size()), "bad_draw");
  }
  // The draws up to the next decision (the tile in hand after the last move) are history, drawn by
  // advance() above, and must fit (docs/record.md, "Draws past the last move"). Recorded draws and
  // chance outcomes past them are the game's planned deal: used while they fit, dropped from the
  // first that does not (see refuse_scripted).
  g.unused_draws_ = g.rec_.draws.size() - g.scripted_;
  g.unused_chance_ = g.rec_.chance.size() - g.chance_scripted_;
  g.planned_from_ = g.scripted_;
  g.chance_planned_from_ = g.chance_scripted_;
  if (!r.ended.empty()) {
    if (g.over())
      throw ReplayError(fmt::format("status: the record says {}, but its moves play the game to its end", r.ended), static_cast<int>(r.moves.size()),
                        "results_differ");
    g.rec_.ended = r.ended;
  }
  g.rec_.hints_allowed = r.hints_allowed;
  g.rec_.hints = r.hints;
  try {
    check_stated_results(r, g.rec_, *g.rs_);
  } catch (const InputError& e) {
    throw ReplayError(e.what(), 0, "results_differ");
  }
  g.undo_.clear();
  return g;
}


}  // namespace carc
