// Game records: JSON, schema in docs/record.schema.json.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/i18n.hpp"
#include "core/io.hpp"
#include "core/json_input.hpp"
#include "engine/engine.hpp"

namespace carc {

using nlohmann::json;

std::string record_to_json(const Record& r, const Ruleset& rs, int indent) {
  json j;
  j["format"] = "carcassonne-record/2";
  j["game"] = r.game;
  j["options"] = r.options;
  j["players"] = json::array();
  for (const auto& p : r.players) {
    json jp{{"name", p.name}};
    if (!p.bot.empty()) jp["bot"] = p.bot;
    j["players"].push_back(jp);
  }
  if (!r.tiles.empty()) j["tiles"] = r.tiles;
  if (r.setup) {
    json su = json::object();
    if (!r.setup->tiles.empty()) {
      su["tiles"] = json::array();
      for (const auto& t : r.setup->tiles) su["tiles"].push_back({{"tile", t.id}, {"x", t.x}, {"y", t.y}, {"rot", t.rot}});
    }
    if (!r.setup->pieces.empty()) {
      su["pieces"] = json::array();
      for (const auto& p : r.setup->pieces) {
        json jp{{"player", p.player}, {"x", p.x}, {"y", p.y}, {"port", p.port}};
        if (!p.piece.empty()) jp["piece"] = p.piece;
        su["pieces"].push_back(jp);
      }
    }
    if (!r.setup->scores.empty()) su["scores"] = r.setup->scores;
    if (!r.setup->supplies.empty()) {
      su["supplies"] = json::array();
      for (const auto& sp : r.setup->supplies) su["supplies"].push_back({sp[0], sp[1]});
    }
    if (r.setup->pile) su["pile"] = *r.setup->pile;
    if (r.setup->to_move != 0) su["to_move"] = r.setup->to_move;
    if (!r.setup->game_keys.empty()) {
      const json keys = json::parse(r.setup->game_keys);
      for (const auto& [k, v] : keys.items()) su[k] = v;
    }
    j["setup"] = su;
  }
  j["seed"] = r.seed ? json(*r.seed) : json(nullptr);
  j["draws"] = json::array();
  for (std::size_t i = 0; i < r.draws.size(); ++i) {
    const u8 mark = i < r.draw_marks.size() ? r.draw_marks[i] : kDrawUnmarked;
    if (mark == kDrawUnmarked || mark == 0) {
      j["draws"].push_back(r.draws[i]);
      continue;
    }
    json d{{"tile", r.draws[i]}};
    if (mark & kDrawBonus) d["pile"] = "bonus";
    if (mark & kDrawDiscarded) d["discarded"] = true;
    j["draws"].push_back(d);
  }
  if (rs.game->hooks.sample_chance) j["chance"] = r.chance;
  j["moves"] = json::array();
  for (const auto& m : r.moves) {
    json jm{{"player", m.player}, {"tile", m.tile}, {"x", m.x}, {"y", m.y}, {"rot", m.rot}};
    if (m.choice) {
      if (rs.game->hooks.choice_text) jm[rs.game->choice_key] = *m.choice;
      else jm[rs.game->choice_key] = {{"tile", *m.choice}, {"rot", m.choice_rot}};
    }
    if (m.piece) jm["piece"] = *m.piece;
    jm["follower"] = m.follower ? json(*m.follower) : json(nullptr);
    if (m.action) jm["action"] = *m.action;
    if (!m.choices.empty()) {
      jm["choices"] = json::array();
      for (const auto& [who, text] : m.choices) jm["choices"].push_back({{"player", who}, {"choice", text}});
    }
    if (m.follower_at) jm["follower_at"] = {m.follower_at->first, m.follower_at->second};
    if (m.partial) {
      jm["partial"] = true;
      if (!m.decided) jm.erase("follower");  // not decided yet (null is a pass)
    }
    j["moves"].push_back(jm);
  }
  j["events"] = json::array();
  const auto words = std::make_unique<State>();  // describe_event reads only the ruleset
  words->rs = &rs;
  for (const auto& e : r.events) {
    json je{{"turn", e.turn},
            {"player", e.player},
            {"points", e.points},
            {"feature", rs.ftype(e.ftype).name},
            {"reason", reason_name(*rs.game, e)},
            {"feature_id", e.feature}};
    if (e.reason == ScoreReason::Own) {
      if (e.kind < rs.game->own_events.size()) {
        const GameDef::OwnEvent& d = rs.game->own_events[e.kind];
        const std::array<int, 4> v = {e.tiles, e.attr, e.amount, e.cause};
        for (std::size_t i = 0; i < 4; ++i)
          if (!d.keys[i].empty()) je[d.keys[i]] = v[i];
        if (!d.flag_key.empty()) je[d.flag_key] = e.cause == 1;
      }
    } else if (e.reason == ScoreReason::Special) {
      const auto& fx = rs.game->special_effects;
      if (e.cause < fx.size()) {
        const GameDef::Effect& d = fx[e.cause];
        je["effect"] = d.name;
        if (!d.subject.empty()) {
          je["feature"] = d.subject;
          je.erase("feature_id");
        }
        if (!d.tiles_key.empty()) je[d.tiles_key] = e.tiles;
        if (!d.attr_key.empty()) je[d.attr_key] = e.attr;
      } else {
        je["effect"] = std::to_string(e.cause);
      }
    } else if (e.reason == ScoreReason::Farm) {
      if (rs.game->farm_points_per_city) je["cities"] = e.cities;
      if (!rs.ftype(e.ftype).attrs.empty()) je[plural_noun(rs.ftype(e.ftype).attrs[0])] = e.attr;
    } else if (!rs.game->event_keys[0].empty()) {
      const auto& k = e.reason == ScoreReason::Final ? rs.game->final_event_keys : rs.game->event_keys;
      const std::array<int, 4> v = {e.tiles, e.attr, e.amount, e.cause};
      for (std::size_t i = 0; i < 3; ++i)
        if (!k[i].empty()) je[k[i]] = v[i];
      const auto& attrs = rs.ftype(e.ftype).attrs;
      if (!k[3].empty() && e.cause > 0 && e.cause <= attrs.size()) je[k[3]] = attrs[e.cause - 1u];
    } else {
      je["tiles"] = e.tiles;
      if (!rs.ftype(e.ftype).attrs.empty()) je[plural_noun(rs.ftype(e.ftype).attrs[0])] = e.attr;
    }
    {
      const i18n::Scope english(i18n::Lang::En);  // records are written in English, whoever writes them
      je["text"] = describe_event(*words, e);
    }
    j["events"].push_back(je);
  }
  j["final_scores"] = r.finished ? json(r.final_scores) : json(nullptr);
  j["status"] = r.finished ? "finished" : r.ended.empty() ? "in_progress" : r.ended;
  if (r.hints_allowed || !r.hints.empty()) {
    json used = json::array();
    for (const Record::Hint& h : r.hints) used.push_back({{"player", h.player}, {"move", h.move}});
    j["hints"] = {{"allowed", r.hints_allowed}, {"used", used}};
  }
  // one move per line keeps records readable and diffable
  std::string out = j.dump(indent);
  return out + "\n";
}

Record record_from_json(const std::string& text, const std::string& where_raw) {
  const std::string where = printable(where_raw);
  if (text.size() > kMaxRecordBytes)
    throw InputError(fmt::format("{}: the record is {} bytes; the limit is {} bytes", where, text.size(), kMaxRecordBytes));
  const json j = jin::parse(text, where);
  Record r;
  if (!j.is_object()) throw InputError(fmt::format("{}: a record is a JSON object, not {}", where, jin::type_name(j)));
  // the format's version: 1 (or none) and 2 read; what a newer version wrote is refused by name
  if (const json* f = jin::opt(j, "format")) {
    const std::string v = f->is_string() ? f->get<std::string>() : f->dump();
    if (v == "carcassonne-record/1") r.format = 1;
    else if (v == "carcassonne-record/2") r.format = 2;
    else
      throw InputError(fmt::format("{}: format: \"{}\" is not a record format this program reads (carcassonne-record/1 and /2){}", where,
                                   printable(v.substr(0, 60)), v.rfind("carcassonne-record/", 0) == 0 ? ": a newer version wrote it" : ""));
  } else {
    r.format = 1;
  }
  if (const json* g = jin::opt(j, "game")) r.game = jin::string(*g, where, "game", 32);  // default: base
  const GameDef* gd = find_game(r.game);
  if (!gd) throw InputError(fmt::format("{}: game: unknown game \"{}\" (games: {})", where, r.game, fmt::join(game_ids(), ", ")));
  if (const json* o = jin::opt(j, "options")) {
    const json& opts = jin::object(*o, where, "options");
    if (opts.size() > 16) throw InputError(fmt::format("{}: options: at most 16", where));
    for (const auto& [k, v] : opts.items()) {
      const std::string key = jin::string(json(k), where, "options", 40);
      r.options[key] = jin::string(v, where, "options." + key, 40);
    }
  }
  const json& players = jin::array(jin::need(j, "players", where), where, "players", kMaxPlayers);
  for (std::size_t i = 0; i < players.size(); ++i) {
    PlayerInfo p;
    const std::string ctx = fmt::format("players[{}]", i);
    if (players[i].is_string()) {
      p.name = jin::string(players[i], where, ctx, 64);
    } else {
      if (!players[i].is_object()) throw InputError(fmt::format("{}: {}: expected a name or an object with a name, not {}", where, ctx, jin::type_name(players[i])));
      p.name = jin::string(jin::need(players[i], "name", fmt::format("{}: {}", where, ctx)), where, ctx + ".name", 64);
      if (const json* b = jin::opt(players[i], "bot")) p.bot = jin::string(*b, where, ctx + ".bot", 100);
    }
    r.players.push_back(p);
  }
  if (const json* t = jin::opt(j, "tiles")) r.tiles = jin::string(*t, where, "tiles", 4096);
  if (const json* sd = jin::opt(j, "seed")) r.seed = jin::unsigned64(*sd, where, "seed");
  if (const json* d = jin::opt(j, "draws")) {
    const json& draws = jin::array(*d, where, "draws", kMaxRecordArray);
    for (std::size_t i = 0; i < draws.size(); ++i) {
      // a tile id (no claim), or {"tile", "pile": "draw"|"bonus", "discarded": bool}: a claim replay checks
      const std::string dctx = fmt::format("draws[{}]", i);
      if (draws[i].is_string()) {
        r.draws.push_back(jin::string(draws[i], where, dctx, 6));
        r.draw_marks.push_back(kDrawUnmarked);
        continue;
      }
      const std::string dw = fmt::format("{}: {}", where, dctx);
      if (!draws[i].is_object()) throw InputError(fmt::format("{}: expected a tile id or an object, not {}", dw, jin::type_name(draws[i])));
      for (const auto& [k, v] : draws[i].items())
        if (k != "tile" && k != "pile" && k != "discarded") throw InputError(fmt::format("{}: unknown key \"{}\"", dw, printable(k)));
      r.draws.push_back(jin::string(jin::need(draws[i], "tile", dw), dw, "tile", 6));
      u8 mark = 0;
      if (const json* pl = jin::opt(draws[i], "pile")) {
        const std::string pile = jin::string(*pl, dw, "pile", 10);
        if (pile != "draw" && pile != "bonus") throw InputError(fmt::format("{}: pile: \"{}\" is not draw or bonus", dw, pile));
        if (pile == "bonus") mark |= kDrawBonus;
      }
      if (const json* dc = jin::opt(draws[i], "discarded"); dc && jin::boolean(*dc, dw, "discarded")) mark |= kDrawDiscarded;
      r.draw_marks.push_back(mark);
    }
  }
  if (const json* c = jin::opt(j, "chance")) {
    const json& chance = jin::array(*c, where, "chance", kMaxRecordArray);
    for (std::size_t i = 0; i < chance.size(); ++i) r.chance.push_back(jin::string(chance[i], where, fmt::format("chance[{}]", i), 40));
  }
  if (const json* su = jin::opt(j, "setup")) {
    const std::string sw = fmt::format("{}: setup", where);
    jin::object(*su, where, "setup");
    RecordSetup setup;
    json game_keys = json::object();  // the game's own keys, checked by its prepare hook
    for (const auto& [k, v] : su->items()) {
      if (k == "tiles" || k == "pieces" || k == "scores" || k == "supplies" || k == "pile" || k == "to_move") continue;
      if (std::find(gd->setup_keys.begin(), gd->setup_keys.end(), k) == gd->setup_keys.end())
        throw InputError(fmt::format("{}: unknown key \"{}\" (the keys: tiles, pieces, scores, supplies, pile, to_move{}{})", sw, printable(k),
                                     gd->setup_keys.empty() ? "" : ", ", fmt::join(gd->setup_keys, ", ")));
      game_keys[k] = v;
    }
    if (!game_keys.empty()) setup.game_keys = game_keys.dump();
    if (const json* ts = jin::opt(*su, "tiles")) {
      const json& arr = jin::array(*ts, sw, "tiles", kMaxPlaced);
      for (std::size_t i = 0; i < arr.size(); ++i) {
        const std::string tw = fmt::format("{}: tiles[{}]", sw, i);
        RecordSetup::Tile t;
        t.id = jin::string(jin::need(arr[i], "tile", tw), tw, "tile", 6);
        t.x = static_cast<int>(jin::integer(jin::need(arr[i], "x", tw), -128, 127, tw, "x"));
        t.y = static_cast<int>(jin::integer(jin::need(arr[i], "y", tw), -128, 127, tw, "y"));
        t.rot = static_cast<int>(jin::integer(jin::need(arr[i], "rot", tw), 0, 270, tw, "rot"));
        if (t.rot % 90 != 0) throw InputError(fmt::format("{}: rot: must be 0, 90, 180 or 270", tw));
        setup.tiles.push_back(t);
      }
    }
    if (const json* ps = jin::opt(*su, "pieces")) {
      const json& arr = jin::array(*ps, sw, "pieces", static_cast<std::size_t>(kMaxPlayers * kMaxPieces));
      for (std::size_t i = 0; i < arr.size(); ++i) {
        const std::string pw = fmt::format("{}: pieces[{}]", sw, i);
        RecordSetup::Piece p;
        p.player = static_cast<int>(jin::integer(jin::need(arr[i], "player", pw), 0, static_cast<long long>(r.players.size()) - 1, pw, "player"));
        p.x = static_cast<int>(jin::integer(jin::need(arr[i], "x", pw), -128, 127, pw, "x"));
        p.y = static_cast<int>(jin::integer(jin::need(arr[i], "y", pw), -128, 127, pw, "y"));
        p.port = jin::string(jin::need(arr[i], "port", pw), pw, "port", 8);
        if (!port_from_name(p.port)) throw InputError(fmt::format("{}: port: \"{}\" is not a port name", pw, p.port));
        if (const json* k = jin::opt(arr[i], "piece")) p.piece = jin::string(*k, pw, "piece", 20);
        setup.pieces.push_back(p);
      }
    }
    if (const json* sc = jin::opt(*su, "scores")) {
      const json& arr = jin::array(*sc, sw, "scores", r.players.size());
      for (std::size_t i = 0; i < arr.size(); ++i) setup.scores.push_back(static_cast<int>(jin::integer(arr[i], 0, 10000, sw, fmt::format("scores[{}]", i))));
    }
    if (const json* sp = jin::opt(*su, "supplies")) {
      const json& arr = jin::array(*sp, sw, "supplies", r.players.size());
      for (std::size_t i = 0; i < arr.size(); ++i) {
        const std::string key = fmt::format("supplies[{}]", i);
        const json& pair = jin::array(arr[i], sw, key, 2);
        std::array<int, 2> v{0, 0};
        for (std::size_t k = 0; k < pair.size(); ++k) v[k] = static_cast<int>(jin::integer(pair[k], 0, kMaxPieces, sw, fmt::format("{}[{}]", key, k)));
        setup.supplies.push_back(v);
      }
    }
    if (const json* tm = jin::opt(*su, "to_move"))
      setup.to_move = static_cast<int>(jin::integer(*tm, 0, static_cast<long long>(r.players.size()) - 1, sw, "to_move"));
    if (const json* pl = jin::opt(*su, "pile")) {
      const json& arr = jin::array(*pl, sw, "pile", kMaxRecordArray);
      setup.pile.emplace();
      for (std::size_t i = 0; i < arr.size(); ++i) setup.pile->push_back(jin::string(arr[i], sw, fmt::format("pile[{}]", i), 6));
    }
    r.setup = std::move(setup);
  }
  if (!r.seed && r.draws.empty() && !(r.setup && r.setup->pile))
    throw InputError(fmt::format("{}: a record needs a seed, the draw order or a short pile (setup.pile)", where));
  // the key of a turn's game-specific choice ("double" in Amazonas, "shaman" in Hunters)
  const std::string& ckey = gd->choice_key;
  const long long last_player = static_cast<long long>(r.players.size()) - 1;
  const json& moves = jin::array(jin::need(j, "moves", where), where, "moves", kMaxRecordArray);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const std::string ctx = fmt::format("{}: move {}", where, i + 1);
    const json& jm = moves[i];
    if (!jm.is_object()) throw InputError(fmt::format("{}: expected an object, not {}", ctx, jin::type_name(jm)));
    RecordMove m;
    const long long who = jin::integer(jin::need(jm, "player", ctx), 0, 4, ctx, "player");
    if (who > last_player) throw InputError(fmt::format("{}: player: player {} does not exist", ctx, who));
    m.player = static_cast<int>(who);
    m.tile = jin::string(jin::need(jm, "tile", ctx), ctx, "tile", 6);
    m.x = static_cast<int>(jin::integer(jin::need(jm, "x", ctx), -128, 127, ctx, "x"));
    m.y = static_cast<int>(jin::integer(jin::need(jm, "y", ctx), -128, 127, ctx, "y"));
    m.rot = static_cast<int>(jin::integer(jin::need(jm, "rot", ctx), 0, 270, ctx, "rot"));
    if (m.rot % 90 != 0) throw InputError(fmt::format("{}: rot: must be 0, 90, 180 or 270", ctx));
    if (const json* jf = jin::opt(jm, "follower")) {
      const std::string f = jin::string(*jf, ctx, "follower", 8);
      if (f != "none" && !port_from_name(f))
        throw InputError(fmt::format("{}: follower: \"{}\" is not a port name (NNW N NNE ENE E ESE SSE S SSW WSW W WNW C) or null", ctx, f));
      if (f != "none") m.follower = f;
    }
    const json* jc = jin::opt(jm, ckey.c_str());
    if (gd->choices_listed) {
      // every decision is in "choices" (read below)
    } else if (gd->hooks.choice_text && jc) {
      m.choice = jin::string(*jc, ctx, ckey, 40);
    } else if (jc) {
      const std::string dctx = ctx + ": " + ckey;
      m.choice = jin::string(jin::need(*jc, "tile", dctx), dctx, "tile", 6);
      m.choice_rot = static_cast<int>(jin::integer(jin::need(*jc, "rot", dctx), 0, 270, dctx, "rot"));
      if (m.choice_rot % 90 != 0) throw InputError(fmt::format("{}: rot: must be 0, 90, 180 or 270", dctx));
    }
    if (const json* jp = jin::opt(jm, "piece")) m.piece = jin::string(*jp, ctx, "piece", 20);
    if (const json* ja = jin::opt(jm, "action")) m.action = jin::string(*ja, ctx, "action", 80);
    if (const json* jcs = jin::opt(jm, "choices")) {
      const json& cs = jin::array(*jcs, ctx, "choices", 100);
      for (std::size_t k = 0; k < cs.size(); ++k) {
        const std::string cctx = fmt::format("{}: choices[{}]", ctx, k);
        const long long cw = jin::integer(jin::need(cs[k], "player", cctx), 0, 4, cctx, "player");
        if (cw > last_player) throw InputError(fmt::format("{}: player: player {} does not exist", cctx, cw));
        m.choices.emplace_back(static_cast<int>(cw), jin::string(jin::need(cs[k], "choice", cctx), cctx, "choice", 40));
      }
    }
    if (const json* fa = jin::opt(jm, "follower_at")) {
      if (!fa->is_array() || fa->size() != 2) throw InputError(fmt::format("{}: follower_at: must be [x, y]", ctx));
      const long long fx = jin::integer((*fa)[0], -128, 127, ctx, "follower_at[0]");
      const long long fy = jin::integer((*fa)[1], -128, 127, ctx, "follower_at[1]");
      m.follower_at = std::pair<int, int>(static_cast<int>(fx), static_cast<int>(fy));
    }
    if (const json* pa = jin::opt(jm, "partial")) m.partial = jin::boolean(*pa, ctx, "partial");
    // a partial turn states its piece decision by a "follower" key (null: a pass) or an action
    m.decided = !m.partial || jm.contains("follower") || m.action.has_value();
    r.moves.push_back(m);
  }
  // What the record states about its results; Game::replay checks it against the replay.
  if (const json* fs = jin::opt(j, "final_scores")) {
    const json& arr = jin::array(*fs, where, "final_scores", kMaxPlayers);
    for (std::size_t i = 0; i < arr.size(); ++i)
      r.final_scores.push_back(static_cast<int>(jin::integer(arr[i], -32768, 32767, where, fmt::format("final_scores[{}]", i))));
    r.finished = true;
  }
  if (const json* ev = jin::opt(j, "events")) {
    jin::array(*ev, where, "events", kMaxRecordArray);
    r.stated_events = ev->dump();
  }
  if (const json* st = jin::opt(j, "status")) {
    const std::string v = jin::string(*st, where, "status", 20);
    if (v != "finished" && v != "in_progress" && v != "resigned" && v != "timeout" && v != "aborted")
      throw InputError(fmt::format("{}: status: \"{}\" is not finished, in_progress, resigned, timeout or aborted", where, printable(v)));
    r.stated_status = v;
    if (v == "resigned" || v == "timeout" || v == "aborted") r.ended = v;
  }
  if (const json* hj = jin::opt(j, "hints")) {  // {"allowed": bool, "used": [{"player", "move"}]}
    const std::string hw = where + ": hints";
    if (!hj->is_object())
      throw InputError(fmt::format("{}: an object {{allowed, used}}, not {}", hw, jin::type_name(*hj)));
    for (const auto& [k, v] : hj->items())
      if (k != "allowed" && k != "used")
        throw InputError(fmt::format("{}: unknown key \"{}\" (the keys: allowed, used)", hw, printable(k)));
    if (const json* a = jin::opt(*hj, "allowed")) r.hints_allowed = jin::boolean(*a, hw, "allowed");
    if (const json* u = jin::opt(*hj, "used")) {
      const json& arr = jin::array(*u, hw, "used", kMaxRecordArray);
      for (std::size_t i = 0; i < arr.size(); ++i) {
        const std::string hi = fmt::format("{}: used[{}]", hw, i);
        if (!arr[i].is_object())
          throw InputError(fmt::format("{}: an object {{player, move}}, not {}", hi, jin::type_name(arr[i])));
        for (const auto& [k, v] : arr[i].items())
          if (k != "player" && k != "move")
            throw InputError(fmt::format("{}: unknown key \"{}\" (the keys: player, move)", hi, printable(k)));
        Record::Hint h;
        h.player = static_cast<int>(jin::integer(jin::need(arr[i], "player", hi), 0,
                                                 static_cast<long long>(r.players.size()) - 1, hi, "player"));
        h.move = static_cast<int>(
            jin::integer(jin::need(arr[i], "move", hi), 1, static_cast<long long>(kMaxRecordArray), hi, "move"));
        r.hints.push_back(h);
      }
      if (!r.hints_allowed && !r.hints.empty())
        throw InputError(
            fmt::format("{}: used: the record says hints are not allowed, yet lists {} used", hw, r.hints.size()));
    }
  }
  return r;
}

// The record's stated results (events, final_scores, status) against the replay's: the first
// difference is an error. Keys a record leaves out are not checked; an event's "text" is wording
// and is never checked.
void check_stated_results(const Record& stated, const Record& replayed, const Ruleset& rs) {
  if (!stated.stated_events && !stated.finished && !stated.stated_status) return;
  const json out = json::parse(record_to_json(replayed, rs, -1));
  if (stated.stated_status && *stated.stated_status != out["status"])
    throw InputError(fmt::format("status: the record says {} but the replay is {}", *stated.stated_status, out["status"].get<std::string>()));
  if (stated.finished && stated.final_scores != replayed.final_scores)
    throw InputError(fmt::format("final_scores: the record says [{}] but the replay gives {}", fmt::join(stated.final_scores, ", "),
                                 replayed.finished ? fmt::format("[{}]", fmt::join(replayed.final_scores, ", ")) : std::string("none (the game is not over)")));
  if (!stated.stated_events) return;
  const json ev = json::parse(*stated.stated_events);
  const json& mine = out["events"];
  for (std::size_t i = 0; i < ev.size(); ++i) {
    if (i >= mine.size())
      throw InputError(fmt::format("events[{}]: the record lists {} events but the replay gives {}", i, ev.size(), mine.size()));
    if (!ev[i].is_object()) throw InputError(fmt::format("events[{}]: expected an object", i));
    for (const auto& [k, v] : ev[i].items()) {
      if (k == "text") continue;
      // format 1 (records of earlier versions): what a score is for (its feature and effect
      // labels) was named differently by some of them; who scored, when, why and how much are
      // still checked
      if (stated.format < 2 && k != "turn" && k != "player" && k != "points" && k != "reason") continue;
      if (!mine[i].contains(k))
        throw InputError(fmt::format("events[{}]: the replay's event has no \"{}\" (it is: {})", i, printable(k), mine[i].value("text", std::string())));
      if (mine[i][k] != v)
        throw InputError(fmt::format("events[{}]: {} is {} but the replay gives {} ({})", i, printable(k), printable(v.dump()), mine[i][k].dump(),
                                     mine[i].value("text", std::string())));
    }
  }
  if (ev.size() < mine.size())
    throw InputError(fmt::format("events: the record lists {} events but the replay gives {} (the next: {})", ev.size(), mine.size(),
                                 mine[ev.size()].value("text", std::string())));
}

Record load_record(const std::string& path) {
  Record r = record_from_json(read_input_file(path, kMaxRecordBytes, "record"), path);
  const auto slash = path.find_last_of('/');
  r.folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  return r;
}

void save_record(const Record& r, const Ruleset& rs, const std::string& path) {
  // checked writes, fsync, rename, fsync of the folder; on failure the old file is kept
  write_file_atomic(path, record_to_json(r, rs));
}

RecordSetup position_setup(const State& s) {
  const Ruleset& rs = *s.rs;
  if (s.phase != Phase::Draw && s.phase != Phase::Place)
    throw InputError("a position is written as a setup only between turns or at the start of one");
  if (s.in_extra || s.extra) throw InputError("a position in a bonus turn cannot be written as a setup");
  RecordSetup su;
  for (const PlacedTile& t : s.tiles) su.tiles.push_back({rs.tiles.types[t.type].id, t.x, t.y, t.rot * 90});
  for (const PieceOnBoard& pc : s.pieces) {
    std::size_t ti = 0;
    while (ti + 1 < s.tiles.size() && s.tiles[ti + 1].seg0 <= pc.seg) ++ti;
    const PlacedTile& t = s.tiles[ti];
    const int f = pc.seg - t.seg0;
    const TileType& tt = s.type_of(t);
    int port = -1;
    for (int q = 0; q < 13 && port < 0; ++q)
      if (tt.rot[t.rot].port_feat[static_cast<std::size_t>(q)] == f) port = q;
    if (port < 0) throw InputError(fmt::format("the piece on {} at {},{} stands on a feature without a port", tt.id, t.x, t.y));
    const FeatureTypeDef& fd = rs.ftype(tt.feats[static_cast<std::size_t>(f)].type);
    RecordSetup::Piece p{pc.player, t.x, t.y, std::string(kPortNames[static_cast<std::size_t>(port)]), ""};
    if (pc.kind != fd.piece_kind) p.piece = rs.game->piece_names[pc.kind];
    su.pieces.push_back(p);
  }
  for (int p = 0; p < s.nplayers; ++p) {
    su.scores.push_back(s.score[static_cast<std::size_t>(p)]);
    su.supplies.push_back({s.supply[static_cast<std::size_t>(p)], s.supply2[static_cast<std::size_t>(p)]});
  }
  su.pile.emplace();
  for (std::size_t t = 0; t < rs.tiles.types.size(); ++t) {
    if (rs.tiles.types[t].pile != kPileDraw) continue;
    const int n = s.remaining[t] + (s.phase == Phase::Place && s.in_hand == t ? 1 : 0);
    for (int i = 0; i < n; ++i) su.pile->push_back(rs.tiles.types[t].id);
  }
  if (rs.game->hooks.export_keys) su.game_keys = rs.game->hooks.export_keys(s);
  su.to_move = s.current;
  return su;
}

}  // namespace carc
