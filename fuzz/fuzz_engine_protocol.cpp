// fuzz_engine_protocol: request lines of the engine protocol (docs/engine-protocol.md) through one
// session (src/protocol). Every line must get exactly one reply: a one-line JSON object with the
// request's id and "ok"; an error reply carries a code and a message. Afterwards every open game's
// record must replay to the scores the session reports. Bots are held to small budgets here.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "engine/engine.hpp"
#include "fuzz_common.hpp"
#include "protocol/protocol.hpp"

using namespace carc;
using carc::fuzz::bug;
using nlohmann::json;

int carc::fuzz::fuzz_one(const std::uint8_t* data, std::size_t size) {
  protocol::ProtocolLimits limits;
  limits.max_line = 65536;
  limits.max_games = 4;
  limits.bots.max_ms = 5;
  limits.bots.max_playouts = 200;
  protocol::EngineSession session(limits, 1);
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  int lines = 0;
  try {
    std::size_t i = 0;
    while (i < in.size() && !session.done() && lines < 200) {
      const std::size_t j = std::min(in.find('\n', i), in.size());
      const std::string_view line = in.substr(i, j - i);
      i = j + 1;
      ++lines;
      const std::string reply = session.handle(line);
      if (reply.find('\n') != std::string::npos) bug("a reply spans several lines");
      json r;
      try {
        r = json::parse(reply);
      } catch (const std::exception& e) {
        bug(std::string("a reply is not JSON: ") + e.what());
      }
      if (!r.is_object() || !r.contains("ok") || !r["ok"].is_boolean() || !r.contains("id")) bug("a reply lacks id or ok: " + reply);
      if (!r["ok"].get<bool>()) {
        const json& e = r["error"];
        if (!e.is_object() || !e["code"].is_string() || !e["message"].is_string() || e["message"].get<std::string>().empty())
          bug("an error reply lacks its code or message: " + reply);
        if (e["code"] == "internal") bug("internal error: " + reply);
        // the schema's error shape (docs/engine-protocol.schema.json): id, ok, error{code, message} and nothing else
        if (r.size() != 3 || e.size() != 2) bug("an error reply carries fields the schema's error shape forbids: " + reply);
      }
    }
    // every open game's record replays to the session's scores
    const json games = json::parse(session.handle(R"({"cmd":"games"})"));
    for (const json& g : games["games"]) {
      const json rec = json::parse(session.handle(json{{"cmd", "record"}, {"game", g["game"]}}.dump()));
      if (!rec["ok"].get<bool>()) bug("record refused: " + rec.dump());
      const Game again = Game::replay(record_from_json(rec["record"].dump(), "fuzz"));
      for (std::size_t p = 0; p < g["scores"].size(); ++p)
        if (again.state().score[p] != g["scores"][p].get<int>()) bug("a game's record replays to other scores");
    }
  } catch (const fuzz::KnownBug&) {
    throw;
  } catch (const InputError& e) {
    bug(std::string("the session let an InputError out: ") + e.what());
  } catch (const std::exception& e) {
    bug(std::string("exception: ") + e.what());
  }
  return 0;
}
