// fuzz_server_session: the game server's message parser and session state machine (src/server/room)
// driven by lines of input, with the in-memory store and a fake clock. Each line is an actor and
// what it does:
//   0{json} 1{json}   a message from seat 0's or seat 1's connection (seat 2 is a bot)
//   s{json}           a message from a spectator
//   h0 h1 hs          that connection says hello again (a reconnect); l0 l1 ls: it leaves
//   tN                the clock moves N ms and the room's timers run
//   b                 a worker does the bot job that is due, if any
//   r                 the server restarts: the room is rebuilt from the store's log
// In a message, "at": -1 stands for the current seq and "moves": ["*"] for a whole legal turn of
// that seat, so that the fuzzer reaches real play. Invariants: the session never throws; every
// message it sends is a JSON object of a known type; nothing is acknowledged or broadcast before
// its commit; the store's log has no gap and ends at the room's seq; a room rebuilt from the log
// is the live room (same record); a repeated cid is never applied twice.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>

#include "core/io.hpp"
#include "engine/engine.hpp"
#include "fuzz_common.hpp"
#include "server/bot_turn.hpp"
#include "server/room.hpp"
#include "server/store.hpp"

using namespace carc;
using namespace carc::server;
using carc::fuzz::bug;
using nlohmann::json;

namespace {

const std::set<std::string> kTypes = {"welcome", "events", "ack", "reject", "options", "state", "presence", "pong", "error"};

struct Harness {
  std::unique_ptr<Store> store = make_memory_store();
  std::unique_ptr<Room> room;
  std::int64_t now = 1'000'000;
  std::set<std::pair<int, std::string>> acked;  // (seat, cid) acknowledged, never twice as new

  void check_out(const std::vector<Out>& out, bool before_commit) {
    for (const Out& o : out) {
      json j;
      try {
        j = json::parse(o.text);
      } catch (const std::exception& e) {
        bug(std::string("a message is not JSON: ") + e.what());
      }
      if (!j.is_object() || !j.contains("type") || !j["type"].is_string() || !kTypes.count(j["type"].get<std::string>()))
        bug("a message of no known type: " + o.text.substr(0, 200));
      const std::string type = j["type"];
      if (before_commit && type == "ack" && !j.value("repeat", false)) bug("an ack before its commit: " + o.text);
      if (before_commit && type == "events" && !j["events"].empty() && o.conn == 0) bug("events broadcast before their commit");
      if ((type == "reject" || type == "error") && (!j["message"].is_string() || j["message"].get<std::string>().empty()))
        bug("a reject without a message: " + o.text);
    }
  }

  void run(Step st, int seat) {
    check_out(st.now, true);
    if (!st.commit) {
      if (room->busy()) bug("busy without a commit");
      return;
    }
    if (!room->busy()) bug("a commit while not busy");
    const auto ok = store->commit({*st.commit});
    std::vector<Out> out;
    if (ok[0]) room->committed(out);
    else room->failed("fenced", out);
    if (!ok[0]) bug("the room's own append was fenced");
    check_out(out, false);
    for (const Out& o : out) {
      const json j = json::parse(o.text);
      if (j["type"] == "ack" && !j.value("repeat", false)) {
        if (!acked.insert({seat, j["cid"].get<std::string>()}).second) bug("a cid applied twice: " + o.text);
      }
    }
    const auto log = store->events(room->id(), 0);
    if (static_cast<std::int64_t>(log.size()) != room->seq()) bug("the store's log does not end at the room's seq");
    for (std::size_t i = 0; i < log.size(); ++i)
      if (log[i].seq != static_cast<std::int64_t>(i) + 1) bug("a gap in the log");
  }

  // "at": -1 -> the seq; "moves": ["*"] -> a legal turn of the seat
  json fill(json m, int seat) const {
    if (!m.is_object()) return m;
    if (m.contains("at") && m["at"] == -1) m["at"] = room->seq();
    if (m.contains("moves") && m["moves"] == json::array({"*"}) && seat >= 0) {
      try {
        m["moves"] = bot_decisions(room->record_json(), seat, "random", 3);
      } catch (const InputError&) {
        m["moves"] = json::array({"pass"});
      }
    }
    return m;
  }
};

}  // namespace

int carc::fuzz::fuzz_one(const std::uint8_t* data, std::size_t size) {
  Harness h;
  const json req = {{"game", "base"},
                    {"seats", {{{"name", "A"}}, {{"name", "B"}}, {{"bot", "random"}}}},
                    {"seed", 1},
                    {"clock", {{"type", "realtime"}, {"bank", 100}, {"increment", 5}}},
                    {"absence", {{"grace", 10}, {"policy", "bot"}, {"bot", "random"}}}};
  must_succeed("create", [&] {
    Created c = create_game(req, "g", h.now);
    h.store->create(c.meta, c.first);
    h.room = std::make_unique<Room>(*h.store->game("g"), h.store->events("g", 0));
  });
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  std::size_t i = 0;
  int lines = 0;
  auto conn_of = [](char c) -> std::pair<std::uint64_t, int> {
    if (c == '0') return {1, 0};
    if (c == '1') return {2, 1};
    return {3, -1};
  };
  must_succeed("session", [&] {
    while (i < in.size() && lines < 300) {
      const std::size_t j = std::min(in.find('\n', i), in.size());
      const std::string_view line = in.substr(i, j - i);
      i = j + 1;
      ++lines;
      if (line.empty()) continue;
      const char a = line[0];
      const std::string_view rest = line.substr(1);
      if (a == '0' || a == '1' || a == 's') {
        const auto [conn, seat] = conn_of(a);
        json m;
        try {
          m = h.fill(json::parse(rest), seat);
        } catch (const json::exception&) {
          continue;  // the server answers bad JSON before the room (src/server/net/ws_messages.cpp)
        }
        h.run(h.room->command(conn, m, h.now), seat);
      } else if (a == 'h' && !rest.empty()) {
        const auto [conn, seat] = conn_of(rest[0]);
        h.run(h.room->hello(conn, seat, static_cast<std::int64_t>(rest.size()) * 3, rest.size() > 1, h.now), seat);
      } else if (a == 'l' && !rest.empty()) {
        std::vector<Out> out;
        h.room->leave(conn_of(rest[0]).first, out, h.now);
        h.check_out(out, false);
      } else if (a == 't') {
        long long ms = 0;
        (void)parse_int(rest, 0, 1'000'000'000, ms);
        h.now += ms;
        h.run(h.room->tick(h.now), -1);
      } else if (a == 'b') {
        for (const Job& job : h.store->jobs()) {
          std::vector<std::string> moves;
          try {
            moves = bot_decisions(h.room->record_json(), job.seat, "random", 5);
          } catch (const InputError&) {
            continue;
          }
          h.run(h.room->bot_play(kNobody, job.seat, "job:" + std::to_string(job.seq), job.seq, moves, h.now), job.seat);
        }
      } else if (a == 'r') {
        auto again = std::make_unique<Room>(*h.store->game("g"), h.store->events("g", 0));
        if (again->record_json() != h.room->record_json()) bug("the room rebuilt from its log differs from the live room");
        if (again->clocks(h.now) != h.room->clocks(h.now)) bug("the clocks rebuilt from the log differ");
        h.room = std::move(again);
      }
    }
    const Room again(*h.store->game("g"), h.store->events("g", 0));
    if (again.record_json() != h.room->record_json()) bug("the room rebuilt from its log differs from the live room");
  });
  return 0;
}
