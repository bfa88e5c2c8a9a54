// Game records: JSON, schema in docs/record.schema.json.
#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/engine.hpp"

namespace carc {

using nlohmann::json;

namespace {
const char* reason_name(ScoreReason r) {
  switch (r) {
    case ScoreReason::Completed: return "completed";
    case ScoreReason::Final: return "final";
    case ScoreReason::Farm: return "farm";
    case ScoreReason::Track: return "track";
    case ScoreReason::Amazon: return "amazon";
    case ScoreReason::Mouth: return "mouth";
    case ScoreReason::Special: return "special";
    case ScoreReason::Network: return "network";
  }
  return "?";
}
}  // namespace

std::string record_to_json(const Record& r, const Ruleset& rs, int indent) {
  json j;
  j["format"] = "carcassonne-record/1";
  j["game"] = r.game;
  j["options"] = r.options;
  j["players"] = json::array();
  for (const auto& p : r.players) {
    json jp{{"name", p.name}};
    if (!p.bot.empty()) jp["bot"] = p.bot;
    j["players"].push_back(jp);
  }
  if (!r.tiles.empty()) j["tiles"] = r.tiles;
  j["seed"] = r.seed ? json(*r.seed) : json(nullptr);
  j["draws"] = r.draws;
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
    j["moves"].push_back(jm);
  }
  j["events"] = json::array();
  const auto words = std::make_unique<State>();  // describe_event reads only the ruleset
  words->rs = &rs;
  for (const auto& e : r.events) {
    json je{{"turn", e.turn}, {"player", e.player}, {"points", e.points}, {"feature", rs.ftype(e.ftype).name},
            {"reason", reason_name(e.reason)}, {"feature_id", e.feature}};
    if (e.reason == ScoreReason::Track) {
      je["moved"] = e.moved;
      je["space"] = e.tiles;
      je["cause"] = e.cause;
    } else if (e.reason == ScoreReason::Amazon || e.reason == ScoreReason::Mouth) {
      je["rank"] = e.cause;
      if (e.reason == ScoreReason::Amazon) {
        je["caimans"] = e.tiles;
        je["piranhas"] = e.attr;
      }
    } else if (e.reason == ScoreReason::Special) {
      const auto& fx = rs.game->special_effects;
      if (e.cause < fx.size()) {
        const GameDef::Effect& d = fx[e.cause];
        je["effect"] = d.name;
        if (!d.tiles_key.empty()) je[d.tiles_key] = e.tiles;
        if (!d.attr_key.empty()) je[d.attr_key] = e.attr;
      } else {
        je["effect"] = std::to_string(e.cause);
      }
    } else if (e.reason == ScoreReason::Network) {
      je["fish"] = e.tiles;
      je["lakes"] = e.attr;
      je["raft"] = e.cause == 1;
    } else if (e.reason == ScoreReason::Farm) {
      if (rs.game->farm_points_per_city) je["cities"] = e.cities;
      if (!rs.ftype(e.ftype).attrs.empty()) je[plural_noun(rs.ftype(e.ftype).attrs[0])] = e.attr;
    } else if (!rs.game->event_keys[0].empty()) {
      const auto& k = e.reason == ScoreReason::Final ? rs.game->final_event_keys : rs.game->event_keys;
      const std::array<int, 4> v = {e.tiles, e.attr, e.moved, e.cause};
      for (std::size_t i = 0; i < 3; ++i)
        if (!k[i].empty()) je[k[i]] = v[i];
      const auto& attrs = rs.ftype(e.ftype).attrs;
      if (!k[3].empty() && e.cause > 0 && e.cause <= attrs.size()) je[k[3]] = attrs[e.cause - 1u];
    } else {
      je["tiles"] = e.tiles;
      if (!rs.ftype(e.ftype).attrs.empty()) je[plural_noun(rs.ftype(e.ftype).attrs[0])] = e.attr;
    }
    je["text"] = describe_event(*words, e);
    j["events"].push_back(je);
  }
  j["final_scores"] = r.finished ? json(r.final_scores) : json(nullptr);
  j["status"] = r.finished ? "finished" : "in_progress";
  // one move per line keeps records readable and diffable
  std::string out = j.dump(indent);
  return out + "\n";
}

Record record_from_json(const std::string& text, const std::string& where) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw InputError(fmt::format("{}: not valid JSON: {}", where, e.what()));
  }
  Record r;
  auto need = [&](const json& o, const char* key, const std::string& ctx) -> const json& {
    if (!o.is_object() || !o.contains(key)) throw InputError(fmt::format("{}: {}: missing \"{}\"", where, ctx, key));
    return o.at(key);
  };
  auto integer = [&](const json& v, const std::string& ctx) -> long long {
    if (!v.is_number_integer()) throw InputError(fmt::format("{}: {}: expected an integer", where, ctx));
    return v.get<long long>();
  };
  auto str = [&](const json& v, const std::string& ctx) -> std::string {
    if (!v.is_string()) throw InputError(fmt::format("{}: {}: expected a string", where, ctx));
    return v.get<std::string>();
  };
  if (!j.is_object()) throw InputError(fmt::format("{}: a record is a JSON object", where));
  if (j.contains("format") && j["format"] != "carcassonne-record/1")
    throw InputError(fmt::format("{}: format: expected \"carcassonne-record/1\"", where));
  r.game = str(need(j, "game", "record"), "game");
  if (j.contains("options")) {
    if (!j["options"].is_object()) throw InputError(fmt::format("{}: options: expected an object", where));
    for (const auto& [k, v] : j["options"].items()) r.options[k] = str(v, "options." + k);
  }
  const json& players = need(j, "players", "record");
  if (!players.is_array()) throw InputError(fmt::format("{}: players: expected an array", where));
  for (std::size_t i = 0; i < players.size(); ++i) {
    PlayerInfo p;
    const std::string ctx = fmt::format("players[{}]", i);
    if (players[i].is_string()) {
      p.name = players[i].get<std::string>();
    } else {
      p.name = str(need(players[i], "name", ctx), ctx + ".name");
      if (players[i].contains("bot") && !players[i]["bot"].is_null()) p.bot = str(players[i]["bot"], ctx + ".bot");
    }
    r.players.push_back(p);
  }
  if (j.contains("tiles") && !j["tiles"].is_null()) r.tiles = str(j["tiles"], "tiles");
  if (j.contains("seed") && !j["seed"].is_null()) {
    if (!j["seed"].is_number_unsigned())
      throw InputError(fmt::format("{}: seed: expected a non-negative integer", where));
    r.seed = j["seed"].get<u64>();
  }
  if (j.contains("draws")) {
    if (!j["draws"].is_array()) throw InputError(fmt::format("{}: draws: expected an array of tile ids", where));
    for (std::size_t i = 0; i < j["draws"].size(); ++i) r.draws.push_back(str(j["draws"][i], fmt::format("draws[{}]", i)));
  }
  if (j.contains("chance") && !j["chance"].is_null()) {
    if (!j["chance"].is_array()) throw InputError(fmt::format("{}: chance: expected an array of outcomes", where));
    for (std::size_t i = 0; i < j["chance"].size(); ++i) r.chance.push_back(str(j["chance"][i], fmt::format("chance[{}]", i)));
  }
  if (!r.seed && r.draws.empty()) throw InputError(fmt::format("{}: a record needs a seed or the draw order", where));
  // the key of a turn's game-specific choice ("double" in Amazonas, "shaman" in Hunters)
  const GameDef* gd = find_game(r.game);
  const std::string ckey = gd ? gd->choice_key : std::string("double");
  const json& moves = need(j, "moves", "record");
  if (!moves.is_array()) throw InputError(fmt::format("{}: moves: expected an array", where));
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const std::string ctx = fmt::format("move {}", i + 1);
    const json& jm = moves[i];
    RecordMove m;
    m.player = static_cast<int>(integer(need(jm, "player", ctx), ctx + ": player"));
    m.tile = str(need(jm, "tile", ctx), ctx + ": tile");
    const long long x = integer(need(jm, "x", ctx), ctx + ": x"), y = integer(need(jm, "y", ctx), ctx + ": y");
    const long long rot = integer(need(jm, "rot", ctx), ctx + ": rot");
    if (x < -128 || x > 127 || y < -128 || y > 127) throw InputError(fmt::format("{}: {}: cell {},{} is off the map", where, ctx, x, y));
    if (rot != 0 && rot != 90 && rot != 180 && rot != 270) throw InputError(fmt::format("{}: {}: rot must be 0, 90, 180 or 270", where, ctx));
    if (m.player < 0 || m.player >= static_cast<int>(r.players.size()))
      throw InputError(fmt::format("{}: {}: player {} does not exist", where, ctx, m.player));
    m.x = static_cast<int>(x);
    m.y = static_cast<int>(y);
    m.rot = static_cast<int>(rot);
    if (jm.contains("follower") && !jm["follower"].is_null()) {
      const std::string f = str(jm["follower"], ctx + ": follower");
      if (f != "none" && !port_from_name(f))
        throw InputError(fmt::format("{}: {}: follower \"{}\" is not a port name (NNW N NNE ENE E ESE SSE S SSW WSW W WNW C) or null", where, ctx, f));
      if (f != "none") m.follower = f;
    }
    if (gd && gd->choices_listed) {
      // every decision is in "choices" (read below)
    } else if (gd && gd->hooks.choice_text && jm.contains(ckey) && !jm[ckey].is_null()) {
      m.choice = str(jm[ckey], ctx + ": " + ckey);
    } else if (jm.contains(ckey) && !jm[ckey].is_null()) {
      const json& d = jm[ckey];
      m.choice = str(need(d, "tile", ctx + ": double"), ctx + ": double.tile");
      const long long dr = integer(need(d, "rot", ctx + ": double"), ctx + ": double.rot");
      if (dr != 0 && dr != 90 && dr != 180 && dr != 270) throw InputError(fmt::format("{}: {}: double.rot must be 0, 90, 180 or 270", where, ctx));
      m.choice_rot = static_cast<int>(dr);
    }
    if (jm.contains("piece") && !jm["piece"].is_null()) m.piece = str(jm["piece"], ctx + ": piece");
    if (jm.contains("action") && !jm["action"].is_null()) m.action = str(jm["action"], ctx + ": action");
    if (jm.contains("choices") && !jm["choices"].is_null()) {
      const json& cs = jm["choices"];
      if (!cs.is_array()) throw InputError(fmt::format("{}: {}: choices: expected an array", where, ctx));
      for (std::size_t k = 0; k < cs.size(); ++k) {
        const std::string cctx = fmt::format("{}: choices[{}]", ctx, k);
        const long long who = integer(need(cs[k], "player", cctx), cctx + ".player");
        if (who < 0 || who >= static_cast<long long>(r.players.size()))
          throw InputError(fmt::format("{}: {}: player {} does not exist", where, cctx, who));
        m.choices.emplace_back(static_cast<int>(who), str(need(cs[k], "choice", cctx), cctx + ".choice"));
      }
    }
    if (jm.contains("follower_at") && !jm["follower_at"].is_null()) {
      const json& fa = jm["follower_at"];
      if (!fa.is_array() || fa.size() != 2) throw InputError(fmt::format("{}: {}: follower_at must be [x, y]", where, ctx));
      const long long fx = integer(fa[0], ctx + ": follower_at"), fy = integer(fa[1], ctx + ": follower_at");
      if (fx < -128 || fx > 127 || fy < -128 || fy > 127) throw InputError(fmt::format("{}: {}: follower_at is off the map", where, ctx));
      m.follower_at = std::pair<int, int>(static_cast<int>(fx), static_cast<int>(fy));
    }
    r.moves.push_back(m);
  }
  if (j.contains("final_scores") && !j["final_scores"].is_null()) {
    if (!j["final_scores"].is_array()) throw InputError(fmt::format("{}: final_scores: expected an array", where));
    for (std::size_t i = 0; i < j["final_scores"].size(); ++i)
      r.final_scores.push_back(static_cast<int>(integer(j["final_scores"][i], fmt::format("final_scores[{}]", i))));
    r.finished = true;
  }
  return r;
}

Record load_record(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("{}: cannot open record", path));
  std::stringstream ss;
  ss << in.rdbuf();
  return record_from_json(ss.str(), path);
}

void save_record(const Record& r, const Ruleset& rs, const std::string& path) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) throw InputError(fmt::format("{}: cannot write record", path));
    out << record_to_json(r, rs);
    if (!out) throw InputError(fmt::format("{}: write failed", path));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw InputError(fmt::format("{}: cannot replace record", path));
}

}  // namespace carc
