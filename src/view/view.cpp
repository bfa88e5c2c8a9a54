#include "view/view.hpp"

#include "rules/words.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/io.hpp"
#include "view/look.hpp"

namespace carc::view {

using nlohmann::json;

namespace {


std::string seat_name(const std::vector<PlayerInfo>& players, int p) {
  return p >= 0 && static_cast<std::size_t>(p) < players.size() ? printable(players[static_cast<std::size_t>(p)].name) : fmt::format("player {}", p + 1);
}

const char* phase_name(Phase ph) {
  switch (ph) {
    case Phase::Place: return "place";
    case Phase::Piece: return "piece";
    case Phase::Choose: return "choose";
    case Phase::Over: return "over";
    default: return "waiting";
  }
}

// The piece kind a move puts down, by name.
std::string piece_of(const State& s, const Move& m, const FeatureTypeDef& fd) {
  const u8 kind = m.pk != 0xFF ? m.pk : fd.piece_kind;
  return s.rs->game->piece_names[std::min<std::size_t>(kind, 1)];
}

}  // namespace

Worth worth_of(const State& s, int seg) {
  Worth w;
  const FeatureInfo fi = feature_info(s, seg);
  const FeatureTypeDef& fd = s.rs->ftype(fi.ftype);
  w.completed = fi.closed;
  w.tiles = fi.tiles;
  if (fd.cls == FClass::Field) {
    if (s.rs->game->hooks.field_value) w.points = s.rs->game->hooks.field_value(s, fi.root);
    else if (s.rs->game->farm_points_per_city > 0 && fd.final_per_attr == 0) w.points = s.rs->game->farm_points_per_city * field_cities(s, fi.root);
    else w.points = feature_value(s, fi, false);
  } else {
    w.points = feature_value(s, fi, fi.closed);
  }
  int best = 0;
  for (int p = 0; p < s.nplayers; ++p) {
    w.pieces.push_back(fi.pieces[static_cast<std::size_t>(p)]);
    best = std::max(best, fi.pieces[static_cast<std::size_t>(p)]);
  }
  for (int p = 0; best > 0 && p < s.nplayers; ++p)
    if (fi.pieces[static_cast<std::size_t>(p)] == best) w.owners.push_back(p);
  return w;
}

std::string spot_sentence(const State& s, const PlacedTile& t, int local, const std::vector<PlayerInfo>& players) {
  const FeatureTypeDef& fd = s.rs->ftype(s.type_of(t).feats[static_cast<std::size_t>(local)].type);
  const Worth w = worth_of(s, t.seg0 + local);
  std::string out;
  const GameDef& g = *s.rs->game;
  const std::string name = feature_word(g, fd.name);
  if (g.present.spot_text)
    out = g.present.spot_text(s, t, local);  // the game's own words
  else if (w.completed)
    out = say(g, "spot.completed", {{"feature", name}, {"points", w.points}});
  else if (fd.cls == FClass::Field)
    out = say(g, "spot.field", {{"feature", name}, {"points", w.points}});
  else if (fd.cls == FClass::Point || fd.cls == FClass::Centre)
    out = say(g, "spot.around", {{"feature", name}, {"tiles", w.tiles}});
  else
    out = say(g, "spot.open", {{"feature", name}, {"tiles", w.tiles}, {"points", w.points}});
  std::vector<std::string> with;
  for (std::size_t p = 0; p < w.pieces.size(); ++p)
    if (w.pieces[p] > 0)
      with.push_back(
          say(g, "spot.joins_item", {{"n", w.pieces[p]}, {"player", seat_name(players, static_cast<int>(p))}}));
  if (!with.empty()) out += say(g, "spot.joins", {{"list", fmt::format("{}", fmt::join(with, ", "))}});
  return out;
}

EventView event_view(const State& s, const ScoreEvent& e, const std::vector<PlayerInfo>& players) {
  std::vector<std::string> names;
  for (const PlayerInfo& pi : players) names.push_back(printable(pi.name));
  std::string text = with_seat_names(describe_event_text(s, e), names);
  std::string feature;
  const GameDef& g = *s.rs->game;
  const bool about_feature =
      e.reason == ScoreReason::Completed || e.reason == ScoreReason::Final || e.reason == ScoreReason::Farm ||
      (e.reason == ScoreReason::Own && e.kind < g.own_events.size() && g.own_events[e.kind].feature);
  if (about_feature && e.ftype < g.ftypes.size()) feature = s.rs->ftype(e.ftype).name;
  return {e.turn, e.player, e.points, std::string(reason_name(g, e)), text, feature};
}

json to_json(const EventView& e) {
  json j{{"turn", e.turn}, {"player", e.player}, {"points", e.points}, {"reason", e.reason}, {"text", e.text}};
  if (!e.feature.empty()) j["feature"] = e.feature;
  return j;
}

namespace {

// A game's sentence and target for an action or a choice (Presentation::option_info).
void target_of(const State& s, const OptionInfo& info, OptionView& o) {
  if (!info.text.empty()) o.text = info.text;
  o.overlay = info.overlay;
  switch (info.target) {
    case OptionInfo::Target::None:
      break;
    case OptionInfo::Target::Point:
      o.target = "point";
      o.x = info.px;
      o.y = info.py;
      o.cx = info.x;
      o.cy = info.y;
      break;
    case OptionInfo::Target::Cell:
      o.target = "cell";
      o.x = info.x;
      o.y = info.y;
      break;
    case OptionInfo::Target::Piece: {
      const int ti = s.placed_at(info.x, info.y);
      if (ti < 0 || info.local < 0 || info.local >= s.type_of(s.tiles[static_cast<std::size_t>(ti)]).nfeat) break;
      const PlacedTile& t = s.tiles[static_cast<std::size_t>(ti)];
      const FeatureTypeDef& fd = s.rs->ftype(s.type_of(t).feats[static_cast<std::size_t>(info.local)].type);
      o.target = "piece";
      o.x = info.x;
      o.y = info.y;
      o.port = feature_port(s, t, info.local);
      o.feature = fd.name;
      o.piece = s.rs->game->piece_names[std::min<std::size_t>(fd.piece_kind, 1)];
      break;
    }
    case OptionInfo::Target::Tile:
      if (info.tile < 0 || info.tile >= static_cast<int>(s.rs->tiles.types.size())) break;
      o.target = "tile";
      o.tile = s.rs->tiles.types[static_cast<std::size_t>(info.tile)].id;
      o.rot = (info.rot & 3) * 90;
      break;
    case OptionInfo::Target::Token: {
      const auto& names = s.rs->game->present.state_names.tokens;
      o.target = "token";
      o.token = info.token >= 0 && static_cast<std::size_t>(info.token) < names.size() ? names[static_cast<std::size_t>(info.token)] : std::to_string(info.token);
      break;
    }
  }
  if (info.located && (o.target.empty() || o.target == "tile" || o.target == "token")) {
    o.located = true;
    o.x = info.x;
    o.y = info.y;
  }
}

OptionView option_of(const State& s, const Move& m, const std::vector<PlayerInfo>& players) {
  OptionView o;
  o.notation = notation(s, m);
  const GameDef& g = *s.rs->game;
  switch (m.kind) {
    case MoveKind::Piece: {
      o.kind = "piece";
      const PlacedTile& t = s.tiles[static_cast<std::size_t>(s.placed_at(m.x, m.y))];
      const FeatureTypeDef& fd = s.rs->ftype(s.type_of(t).feats[m.feat].type);
      o.x = t.x;
      o.y = t.y;
      o.port = feature_port(s, t, m.feat);
      o.piece = piece_of(s, m, fd);
      o.feature = fd.name;
      o.worth = worth_of(s, t.seg0 + m.feat);
      o.anchor = piece_spot(*s.rs, s.type_of(t), s.type_of(t).rot[t.rot], m.feat);
      if (m.pk != 0xFF)
        o.text = say(g, "option.network",
                     {{"piece", piece_word(g, o.piece)},
                      {"feature", feature_word(g, fd.name)},
                      {"feature_acc", feature_form(g, fd.name, "acc")},
                      {"port", o.port}});
      else
        o.text = say(g, "option.piece",
                     {{"piece", piece_word(g, o.piece)},
                      {"feature", feature_word(g, fd.name)},
                      {"feature_on", feature_form(g, fd.name, "on")},
                      {"port", o.port},
                      {"worth", spot_sentence(s, t, m.feat, players)}});
      break;
    }
    case MoveKind::Pass:
      o.kind = "pass";
      o.text = has_message(g, "option.pass") ? say(g, "option.pass")
               : g.pass_text == "pass"       ? say(g, "option.no_piece")
                                             : g.pass_text;
      break;
    case MoveKind::Act:
    case MoveKind::Choose:
      o.kind = m.kind == MoveKind::Act ? "action" : "choice";
      o.text = o.notation;
      if (g.present.option_info) target_of(s, g.present.option_info(s, m), o);
      break;
    case MoveKind::Place:
      o.kind = "place";
      o.x = m.x;
      o.y = m.y;
      o.rots = {m.rot * 90};
      o.text = say(g, "option.place",
                   {{"tile", s.rs->tiles.types[s.in_hand].id}, {"x", m.x}, {"y", m.y}, {"rot", m.rot * 90}});
      break;
  }
  return o;
}

std::vector<OptionView> options_of(const State& s, const std::vector<PlayerInfo>& players) {
  std::vector<OptionView> out;
  if (s.phase != Phase::Place && s.phase != Phase::Piece && s.phase != Phase::Choose) return out;
  MoveList ml;
  legal_moves(s, ml);
  if (s.phase != Phase::Place) {
    for (const Move& m : ml) out.push_back(option_of(s, m, players));
    return out;
  }
  // placements by cell, in reading order
  std::vector<Move> moves(ml.begin(), ml.end());
  std::stable_sort(moves.begin(), moves.end(), [](const Move& a, const Move& b) { return a.y != b.y ? a.y < b.y : a.x != b.x ? a.x < b.x : a.rot < b.rot; });
  for (const Move& m : moves) {
    if (!out.empty() && out.back().x == m.x && out.back().y == m.y) {
      out.back().rots.push_back(m.rot * 90);
      out.back().notations.push_back(notation(s, m));
      continue;
    }
    OptionView o = option_of(s, m, players);
    o.notations = {o.notation};
    o.notation.clear();
    o.text = say(*s.rs->game, "option.place_cell", {{"tile", s.rs->tiles.types[s.in_hand].id}, {"x", m.x}, {"y", m.y}});
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace

std::vector<OptionView> decision_options(const State& s) { return options_of(s, {}); }

std::string move_words(const State& s, const Move& m, std::optional<std::pair<int, int>> placed) {
  const GameDef& g = *s.rs->game;
  switch (m.kind) {
    case MoveKind::Place: {
      const int rot = m.rot * 90;
      const MsgArgs args{{"tile", s.rs->tiles.types[s.in_hand].id}, {"x", m.x}, {"y", m.y}, {"rot", rot}};
      return say(g, rot ? "turn.place_rot" : "turn.place", args);
    }
    case MoveKind::Piece: {
      const int ti = s.placed_at(m.x, m.y);
      if (ti < 0) break;
      const PlacedTile& t = s.tiles[static_cast<std::size_t>(ti)];
      const FeatureTypeDef& fd = s.rs->ftype(s.type_of(t).feats[m.feat].type);
      const std::string port = feature_port(s, t, m.feat), piece = piece_of(s, m, fd);
      if (m.pk != 0xFF)
        return say(g, "option.network",
                   {{"piece", piece_word(g, piece)},
                    {"feature", feature_word(g, fd.name)},
                    {"feature_acc", feature_form(g, fd.name, "acc")},
                    {"port", port}});
      // a piece named by its role where it stands
      const std::string who = piece_word(g, !fd.role.empty() && fd.piece_kind == 0 ? fd.role : piece);
      return say(g, "turn.piece", {{"piece", who}, {"feature", feature_word(g, fd.name)}, {"port", port}});
    }
    case MoveKind::Pass:
    case MoveKind::Act:
    case MoveKind::Choose:
      break;
  }
  // the game's past-tense words for an action or choice (Presentation::told) where it has them,
  // else the option's own sentence (the pass's, the game's option_info)
  std::string text = notation(s, m);
  // a choice as its record writes it: without the notation's key ("double D1 r180": "D1 r180")
  if (m.kind == MoveKind::Choose && text.rfind(g.choice_key + " ", 0) == 0) text = text.substr(g.choice_key.size() + 1);
  if (m.kind != MoveKind::Pass && g.present.told) {
    const auto [x, y] = placed.value_or(std::pair<int, int>{m.x, m.y});
    std::string told = g.present.told(s, m.kind, text, x, y);
    if (told != printable(text)) return told;
  }
  return option_of(s, m, {}).text;
}

std::vector<std::string> turn_words(State s, const std::vector<Move>& moves) {
  std::vector<std::string> out;
  std::optional<std::pair<int, int>> placed;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Move& m = moves[i];
    if (m.kind == MoveKind::Place) placed = std::pair<int, int>{m.x, m.y};
    out.push_back(move_words(s, m, placed));
    if (i + 1 < moves.size()) apply_move(s, m);
  }
  return out;
}

std::vector<OptionView> options_after(const Game& g, const Move& place) {
  const State& s = g.state();
  if (s.phase != Phase::Place || place.kind != MoveKind::Place || !is_legal(s, place)) throw InputError("not a legal placement now");
  State t = s;
  apply_move(t, place);
  return options_of(t, g.record().players);
}

View build_view(const Game& g, const ViewOptions& o) { return build_view(g, o, {}); }

View build_view(const Game& g, const ViewOptions& o, const std::vector<std::string>& names) {
  const i18n::Scope language(o.lang.value_or(i18n::current()));
  const State& s = g.state();
  std::vector<PlayerInfo> players = g.record().players;
  for (std::size_t i = 0; i < players.size() && i < names.size(); ++i) players[i].name = names[i];
  View v = build_view(s, players, o);
  // A completed feature's pieces went home when it scored: its owners are then the seats that
  // scored it (its majority at that moment), from the record's events.
  std::vector<int> at(s.graph.size(), -1);  // root -> features[] index
  for (std::size_t k = 0; k < v.features.size(); ++k)
    if (v.features[k].worth.completed && v.features[k].worth.owners.empty())
      at[static_cast<std::size_t>(v.features[k].id)] = static_cast<int>(k);
  for (const ScoreEvent& e : g.record().events) {
    if (e.reason != ScoreReason::Completed || e.feature >= s.graph.size()) continue;
    const int k = at[static_cast<std::size_t>(s.graph.find(e.feature))];
    if (k < 0) continue;
    std::vector<int>& owners = v.features[static_cast<std::size_t>(k)].worth.owners;
    if (std::ranges::find(owners, e.player) == owners.end()) owners.push_back(e.player);
  }
  // the last finished turn's events (at the end: the last turn's and the final scoring)
  const auto& events = g.record().events;
  const int last = s.phase == Phase::Over ? s.turn : s.phase == Phase::Place ? s.turn - 1 : s.turn;
  std::size_t first = events.size();
  while (first > 0 && events[first - 1].turn >= last) --first;
  for (std::size_t i = first; i < events.size(); ++i) v.last_turn.push_back(event_view(s, events[i], players));
  if (!g.ended().empty() && !v.over) {
    // ended before its last tile (resigned, timeout, aborted): over, no decision; the record does
    // not say who resigned, so no winners are named
    v.decision.phase = phase_name(Phase::Over);
    v.decision.player = -1;
    v.decision.tile.clear();
    v.decision.options.clear();
    v.decision.panels.clear();
    for (OverlayView& ov : v.overlays) ov.targets.clear();
    v.over = true;
    for (int p = 0; p < s.nplayers; ++p) v.final_scores.push_back(s.score[static_cast<std::size_t>(p)]);
  }
  return v;
}

View build_view(const State& s, const std::vector<PlayerInfo>& players, const ViewOptions& o) {
  const i18n::Scope language(o.lang.value_or(i18n::current()));
  const Ruleset& rs = *s.rs;
  const GameDef& gd = *rs.game;
  View v;
  v.game = gd.id;
  v.lang = std::string(i18n::code(i18n::current()));
  v.title = has_message(gd, "game.title") ? say(gd, "game.title") : gd.title;
  v.turn = s.turn;
  const int last_turn = !s.tiles.empty() && s.tiles.back().player != 0xFF ? s.tiles.back().turn : -1;
  for (const PlacedTile& t : s.tiles) {
    TileView tv;
    tv.id = rs.tiles.types[t.type].id;
    tv.x = t.x;
    tv.y = t.y;
    tv.rot = t.rot * 90;
    tv.player = t.player == 0xFF ? -1 : t.player;
    tv.last = t.player != 0xFF && t.turn == last_turn;
    for (int f = 0; f < s.type_of(t).nfeat; ++f)
      if (s.graph[t.seg0 + f].covered) tv.covered.push_back(f);
    v.tiles.push_back(std::move(tv));
  }
  for (const PieceOnBoard& pc : s.pieces) {
    const Segment& sg = s.graph[pc.seg];
    const PlacedTile& t = s.tiles[sg.tile];
    const TileType& tt = s.type_of(t);
    const FeatureTypeDef& fd = rs.ftype(tt.feats[sg.local].type);
    PieceView p;
    p.player = pc.player;
    p.piece = gd.piece_names[std::min<std::size_t>(pc.kind, 1)];
    p.x = t.x;
    p.y = t.y;
    p.port = feature_port(s, t, sg.local);
    p.feature = fd.name;
    const bool network = pc.kind != fd.piece_kind && fd.network_kind == pc.kind;
    p.feature_id = network ? s.graph.net_find(pc.seg) : s.graph.find(pc.seg);
    p.anchor = piece_spot(rs, tt, tt.rot[t.rot], sg.local);
    v.pieces.push_back(p);
  }
  if (o.features) {
    std::vector<int> index(s.graph.size(), -1);  // root -> features[] index
    for (std::size_t ti = 0; ti < s.tiles.size(); ++ti) {
      const PlacedTile& t = s.tiles[ti];
      for (int f = 0; f < s.type_of(t).nfeat; ++f) {
        const int root = s.graph.find(t.seg0 + f);
        int& k = index[static_cast<std::size_t>(root)];
        if (k < 0) {
          k = static_cast<int>(v.features.size());
          FeatureView fv;
          fv.id = root;
          fv.type = rs.ftype(s.graph[root].ftype).name;
          fv.worth = worth_of(s, root);
          v.features.push_back(std::move(fv));
        }
        auto& cells = v.features[static_cast<std::size_t>(k)].cells;
        if (cells.empty() || cells.back() != std::pair<int, int>{t.x, t.y}) cells.emplace_back(t.x, t.y);
      }
    }
  }
  if (gd.present.overlays)
    for (Overlay& ov : gd.present.overlays(s)) v.overlays.push_back({std::move(ov), {}});
  if (!gd.track_name.empty() && s.track_len > 0) {
    v.track_len = s.track_len;
    v.track_name = gd.track_name;
    v.track_word = track_word(gd);
    std::string name = v.track_word;  // the track piece's word in the language, for its title
    if (!name.empty() && name[0] >= 'a' && name[0] <= 'z') name[0] = static_cast<char>(name[0] - 'a' + 'A');
    const std::string end = has_message(gd, "track.end") ? say(gd, "track.end") : gd.present.track_end;
    v.track_title = end.empty() ? say(gd, "track.title", {{"name", name}, {"len", s.track_len}})
                                : say(gd, "track.title_end", {{"name", name}, {"len", s.track_len}, {"end", end}});
  }
  for (int p = 0; p < s.nplayers; ++p) {
    PlayerView pv;
    pv.seat = p;
    if (static_cast<std::size_t>(p) < players.size()) {
      pv.name = players[static_cast<std::size_t>(p)].name;
      pv.bot = players[static_cast<std::size_t>(p)].bot;
    }
    pv.score = s.score[static_cast<std::size_t>(p)];
    pv.supply.emplace_back(gd.piece_names[0], s.supply[static_cast<std::size_t>(p)]);
    if (gd.pieces2_per_player > 0) pv.supply.emplace_back(gd.piece_names[1], s.supply2[static_cast<std::size_t>(p)]);
    if (gd.present.hand) pv.hand = gd.present.hand(s, p);
    for (const auto& [name, n] : pv.supply) pv.supply_words.push_back(piece_word(gd, name));
    for (const auto& [name, n] : pv.hand) pv.hand_words.push_back(noun_word(gd, name));
    if (!gd.track_name.empty()) pv.track = s.track[static_cast<std::size_t>(p)];
    v.players.push_back(std::move(pv));
  }
  v.pile_left = s.pile;
  v.bonus_left = s.bonus_pile;
  for (std::size_t t = 0; t < rs.tiles.types.size(); ++t)
    if (s.remaining[t] > 0) v.pile.emplace_back(rs.tiles.types[t].id, s.remaining[t]);
  DecisionView& d = v.decision;
  d.phase = phase_name(s.phase);
  if (s.phase != Phase::Over) d.player = to_move(s);
  if (s.phase == Phase::Place) d.tile = rs.tiles.types[s.in_hand].id;
  if (o.options) d.options = options_of(s, players);
  for (OverlayView& ov : v.overlays)
    for (const OptionView& op : d.options)
      if (!op.overlay.empty() && op.overlay == ov.overlay.id) ov.targets.push_back(op.notation);
  if (gd.present.decision_panels && (s.phase == Phase::Piece || s.phase == Phase::Choose)) d.panels = gd.present.decision_panels(s, false);
  if (gd.present.panels) v.panels = gd.present.panels(s);
  if (gd.present.summary) v.summary = gd.present.summary(s);
  v.over = s.phase == Phase::Over;
  if (v.over) {
    int best = -1;
    for (int p = 0; p < s.nplayers; ++p) {
      v.final_scores.push_back(s.score[static_cast<std::size_t>(p)]);
      best = std::max<int>(best, s.score[static_cast<std::size_t>(p)]);
    }
    for (int p = 0; p < s.nplayers; ++p)
      if (s.score[static_cast<std::size_t>(p)] == best) v.winners.push_back(p);
  }
  return v;
}

std::string tile_file_stem(const std::string& id, int index) {
  const bool safe = !id.empty() && id.size() <= 40 &&
                    std::all_of(id.begin(), id.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; });
  return safe ? id : fmt::format("tile-{}", index);
}

json tile_catalog(const Ruleset& rs, const std::vector<std::string>& files) {
  static const char* const kPiles[] = {"draw", "aside", "part", "start", "bonus"};
  static const char* const kClasses[] = {"path", "area", "field", "point", "centre"};
  const GameDef& g = *rs.game;
  json types = json::array();
  for (const FeatureTypeDef& f : rs.game->ftypes)
    types.push_back(
        {{"name", f.name},
         {"word", feature_word(g, f.name)},
         {"class", kClasses[static_cast<int>(f.cls)]},
         {"claimable", f.claimable},
         {"symbols", f.attrs},
         {"piece", g.piece_names[std::min<std::size_t>(f.piece_kind, 1)]},
         {"network_piece",
          f.network_kind == 0xFF ? json(nullptr) : json(g.piece_names[std::min<std::size_t>(f.network_kind, 1)])}});
  json tiles = json::array();
  for (std::size_t i = 0; i < rs.tiles.types.size(); ++i) {
    const TileType& tt = rs.tiles.types[i];
    json feats = json::array();
    for (int f = 0; f < tt.nfeat; ++f) {
      const TileFeature& tf = tt.feats[static_cast<std::size_t>(f)];
      const FeatureTypeDef& fd = rs.ftype(tf.type);
      json ports = json::array();
      for (int p = 0; p < 13; ++p)
        if ((tf.ports >> p) & 1u) ports.push_back(kPortNames[static_cast<std::size_t>(p)]);
      json anchors = json::array();
      for (int r = 0; r < 4; ++r) {
        const Point a = piece_spot(rs, tt, tt.rot[static_cast<std::size_t>(r)], f);
        anchors.push_back({std::round(a.x * 1000) / 1000, std::round(a.y * 1000) / 1000});
      }
      json symbols = json::object();
      for (std::size_t k = 0; k < fd.attrs.size() && k < tf.attr.size(); ++k)
        if (tf.attr[k]) symbols[fd.attrs[k]] = tf.attr[k];
      json fj{{"feature", f}, {"type", fd.name}, {"ports", ports}, {"anchors", anchors}, {"symbols", symbols}};
      if (tf.special > 0 && tf.special <= g.specials.size()) fj["special"] = g.specials[tf.special - 1];
      feats.push_back(fj);
    }
    json tj{{"id", tt.id}, {"file", i < files.size() ? json(files[i]) : json(nullptr)}, {"count", tt.count}, {"pile", kPiles[std::min<int>(tt.pile, 4)]},
            {"kind", tt.kind < g.tile_kinds.size() ? g.tile_kinds[tt.kind] : std::string("land")}, {"features", feats}};
    if (tt.east != 0xFF) tj["east"] = rs.tiles.types[tt.east].id;
    tiles.push_back(tj);
  }
  json piece_words = json::object();
  for (const std::string& n : g.piece_names) piece_words[n] = piece_word(g, n);
  // the scoring sources that are not feature types, as records name them: a special effect's
  // name, an own event's reason (source.<name> in the game's catalog, else the name)
  json source_words = json::object();
  auto source = [&](const std::string& n) {
    if (n.empty()) return;
    const std::string id = "source." + n;
    source_words[n] = has_message(g, id) ? say(g, id) : n;
  };
  for (const GameDef::Effect& fx : g.special_effects) source(fx.name);
  for (const GameDef::OwnEvent& ev : g.own_events)
    if (!ev.feature) source(ev.reason);
  return json{{"format", "carcassonne-tiles/1"},
              {"game", g.id},
              {"title", has_message(g, "game.title") ? say(g, "game.title") : g.title},
              {"lang", i18n::code(i18n::current())},
              {"feature_types", types},
              {"piece_names", g.piece_names},
              {"piece_words", piece_words},
              {"source_words", source_words},
              {"tiles", tiles},
              {"look", look_json(look_of(g))},
              {"note",
               "anchors: where a piece on the feature stands, in the unit tile ((0,0) north-west, (1,1) south-east), "
               "for rotations 0, 90, 180, 270 (the picture turned clockwise about its centre)"}};
}

// ---- JSON ----

namespace {
void put_string(std::string& out, std::string_view v) {
  out += '"';
  std::size_t from = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const auto c = static_cast<unsigned char>(v[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(v.substr(from, i - from));
    from = i + 1;
    if (c == '"') out += "\\\"";
    else if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else out += fmt::format("\\u{:04x}", c);
  }
  out.append(v.substr(from));
  out += '"';
}
}  // namespace

void append_options_json(std::string& out, const std::vector<OptionView>& options) {
  out += '[';
  for (std::size_t i = 0; i < options.size(); ++i) {
    const OptionView& o = options[i];
    if (i) out += ',';
    out += R"({"kind":)";
    put_string(out, o.kind);
    if (o.kind == "place") {
      out += R"(,"notations":[)";
      for (std::size_t k = 0; k < o.notations.size(); ++k) {
        if (k) out += ',';
        put_string(out, o.notations[k]);
      }
      out += R"(],"rots":[)";
      for (std::size_t k = 0; k < o.rots.size(); ++k) fmt::format_to(std::back_inserter(out), "{}{}", k ? "," : "", o.rots[k]);
      out += ']';
    } else {
      out += R"(,"notation":)";
      put_string(out, o.notation);
    }
    out += R"(,"text":)";
    put_string(out, o.text);
    if (o.kind == "place" || o.kind == "piece" || o.target == "cell" || o.target == "piece" || o.target == "point" ||
        o.located)
      fmt::format_to(std::back_inserter(out), R"(,"x":{},"y":{})", o.x, o.y);
    if (o.target == "point") fmt::format_to(std::back_inserter(out), R"(,"cell":[{},{}])", o.cx, o.cy);
    if (!o.target.empty()) {
      out += R"(,"target":)";
      put_string(out, o.target);
    }
    if (o.target == "tile") {
      out += R"(,"tile":)";
      put_string(out, o.tile);
      fmt::format_to(std::back_inserter(out), R"(,"rot":{})", o.rot);
    }
    if (o.target == "token") {
      out += R"(,"token":)";
      put_string(out, o.token);
    }
    if (!o.overlay.empty()) {
      out += R"(,"overlay":)";
      put_string(out, o.overlay);
    }
    if (o.kind == "piece" || o.target == "piece") {
      out += R"(,"port":)";
      put_string(out, o.port);
      out += R"(,"piece":)";
      put_string(out, o.piece);
      out += R"(,"feature":)";
      put_string(out, o.feature);
      if (o.worth) {
        const Worth& w = *o.worth;
        fmt::format_to(std::back_inserter(out), R"(,"worth":{{"completed":{},"tiles":{},"points":{},"pieces":[{}],"owners":[{}]}})", w.completed, w.tiles,
                       w.points, fmt::join(w.pieces, ","), fmt::join(w.owners, ","));
      }
      if (o.kind == "piece") fmt::format_to(std::back_inserter(out), R"(,"anchor":[{},{}])", std::round(o.anchor.x * 1000) / 1000, std::round(o.anchor.y * 1000) / 1000);
    }
    out += '}';
  }
  out += ']';
}

json to_json(const Worth& w) {
  return json{{"completed", w.completed}, {"tiles", w.tiles}, {"points", w.points}, {"pieces", w.pieces}, {"owners", w.owners}};
}

json to_json(const OptionView& o) {
  json j{{"notation", o.notation}, {"text", o.text}, {"kind", o.kind}};
  if (o.kind == "place") {
    j["x"] = o.x;
    j["y"] = o.y;
    j["rots"] = o.rots;
    j["notations"] = o.notations;
    j.erase("notation");
  }
  if (!o.target.empty()) j["target"] = o.target;
  if (o.target == "cell" || o.target == "point" || o.located) {
    j["x"] = o.x;
    j["y"] = o.y;
  }
  if (o.target == "point") j["cell"] = {o.cx, o.cy};
  if (o.target == "tile") {
    j["tile"] = o.tile;
    j["rot"] = o.rot;
  }
  if (o.target == "token") j["token"] = o.token;
  if (!o.overlay.empty()) j["overlay"] = o.overlay;
  if (o.kind == "piece" || o.target == "piece") {
    j["x"] = o.x;
    j["y"] = o.y;
    j["port"] = o.port;
    j["piece"] = o.piece;
    j["feature"] = o.feature;
    if (o.worth) j["worth"] = to_json(*o.worth);
    if (o.kind == "piece") j["anchor"] = {std::round(o.anchor.x * 1000) / 1000, std::round(o.anchor.y * 1000) / 1000};
  }
  return j;
}

json to_json(const Panel& p) {
  json j{{"id", p.id}, {"title", p.title}};
  json counters = json::array();
  for (const auto& [k, val] : p.counters) counters.push_back({{"name", k}, {"value", val}});
  j["counters"] = counters;
  j["columns"] = p.columns;
  j["rows"] = p.rows;
  j["lines"] = p.lines;
  j["track"] = p.track;
  return j;
}

namespace {
json named_counts(const std::vector<std::pair<std::string, int>>& v, const std::vector<std::string>& words = {}) {
  json a = json::array();
  for (std::size_t i = 0; i < v.size(); ++i) {
    json e{{"name", v[i].first}, {"count", v[i].second}};
    if (i < words.size()) e["word"] = words[i];
    a.push_back(std::move(e));
  }
  return a;
}
}  // namespace

json to_json(const OverlayView& ov) {
  const Overlay& o = ov.overlay;
  static constexpr std::array<std::string_view, 3> kAt = {"cell", "point", "track"};
  json j{{"id", o.id}, {"at", kAt[static_cast<std::size_t>(o.at)]}, {"x", o.x}, {"y", o.y}, {"label", o.label}};
  if (!o.glyph.empty()) j["glyph"] = o.glyph;
  if (o.seat >= 0) j["seat"] = o.seat;
  if (o.done) j["done"] = true;
  json parts = json::array();
  for (const OverlayPart& p : o.parts) {
    json pj{{"glyph", p.glyph}, {"dx", std::round(p.dx * 1000) / 1000}, {"dy", std::round(p.dy * 1000) / 1000}};
    if (p.rot != 0) pj["rot"] = p.rot;
    if (p.seat >= 0) pj["seat"] = p.seat;
    if (!p.label.empty()) pj["label"] = p.label;
    parts.push_back(std::move(pj));
  }
  j["parts"] = std::move(parts);
  j["targets"] = ov.targets;
  return j;
}

json to_json(const View& v) {
  json j;
  j["game"] = v.game;
  j["title"] = v.title;
  j["lang"] = v.lang;
  j["turn"] = v.turn;
  json tiles = json::array();
  for (const TileView& t : v.tiles) {
    json tj{{"id", t.id}, {"x", t.x}, {"y", t.y}, {"rot", t.rot}, {"player", t.player}};
    if (t.last) tj["last"] = true;
    if (!t.covered.empty()) tj["covered"] = t.covered;
    tiles.push_back(std::move(tj));
  }
  json pieces = json::array();
  for (const PieceView& p : v.pieces)
    pieces.push_back({{"player", p.player}, {"piece", p.piece}, {"x", p.x}, {"y", p.y}, {"port", p.port}, {"feature", p.feature},
                      {"feature_id", p.feature_id}, {"anchor", {std::round(p.anchor.x * 1000) / 1000, std::round(p.anchor.y * 1000) / 1000}}});
  json features = json::array();
  for (const FeatureView& f : v.features) {
    json cells = json::array();
    for (const auto& [x, y] : f.cells) cells.push_back({x, y});
    json fj = to_json(f.worth);
    fj["id"] = f.id;
    fj["type"] = f.type;
    fj["cells"] = cells;
    features.push_back(fj);
  }
  json overlays = json::array();
  for (const OverlayView& ov : v.overlays) overlays.push_back(to_json(ov));
  j["board"] = {{"tiles", tiles}, {"pieces", pieces}, {"features", features}, {"overlays", overlays}};
  if (v.track_len > 0)
    j["board"]["track"] = {
        {"length", v.track_len}, {"title", v.track_title}, {"name", v.track_name}, {"word", v.track_word}};
  json players = json::array();
  for (const PlayerView& p : v.players) {
    json pj{{"seat", p.seat},
            {"name", p.name},
            {"bot", p.bot.empty() ? json(nullptr) : json(p.bot)},
            {"score", p.score},
            {"supply", named_counts(p.supply, p.supply_words)},
            {"hand", named_counts(p.hand, p.hand_words)}};
    if (p.track > 0) pj["track"] = p.track;
    players.push_back(pj);
  }
  j["players"] = players;
  j["pile"] = {{"left", v.pile_left}, {"bonus_left", v.bonus_left}, {"tiles", named_counts(v.pile)}};
  json options = json::array();
  for (const OptionView& o : v.decision.options) options.push_back(to_json(o));
  j["decision"] = {{"phase", v.decision.phase},
                   {"player", v.decision.player < 0 ? json(nullptr) : json(v.decision.player)},
                   {"tile", v.decision.tile.empty() ? json(nullptr) : json(v.decision.tile)},
                   {"options", options}};
  json dpanels = json::array();
  for (const Panel& p : v.decision.panels) dpanels.push_back(to_json(p));
  j["decision"]["panels"] = dpanels;
  json last = json::array();
  for (const EventView& e : v.last_turn) last.push_back(to_json(e));
  j["last_turn"] = last;
  j["summary"] = v.summary;
  json panels = json::array();
  for (const Panel& p : v.panels) panels.push_back(to_json(p));
  j["panels"] = panels;
  j["over"] = v.over;
  if (v.over) {
    j["final_scores"] = v.final_scores;
    j["winners"] = v.winners;
  }
  return j;
}

}  // namespace carc::view
