// The engine protocol (docs/engine-protocol.md): whole games of every game played through the
// protocol alone replay from their records to the same scores; malformed requests get error
// replies with stable codes and the session goes on. The notation and the view have their own
// tests (test_notation.cpp, test_view.cpp).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "engine/engine.hpp"
#include "games/games.hpp"
#include "protocol/protocol.hpp"

namespace carc::test {
namespace {

using nlohmann::json;

const std::vector<std::string> kGames = game_ids();

// One request through a session; the reply parsed.
json ask(protocol::EngineSession& s, const json& req) {
  const std::string line = s.handle(req.dump());
  EXPECT_EQ(line.find('\n'), std::string::npos) << "one reply, one line";
  return json::parse(line);
}

TEST(Protocol, WholeGamesOfEveryGameThroughTheProtocolReplayFromTheirRecords) {
  for (std::size_t gi = 0; gi < kGames.size(); ++gi)
    for (u64 seed = 1; seed <= 3; ++seed) {
      const std::string& game = kGames[gi];
      const std::string ctx = fmt::format("{} seed {}", game, seed);
      protocol::EngineSession s;
      const json created = ask(s, {{"id", 1}, {"cmd", "new"}, {"game", game}, {"players", {"ann", {{"name", "bob"}, {"bot", "greedy"}}, "cy"}}, {"seed", seed}});
      ASSERT_TRUE(created["ok"]) << ctx << created.dump();
      const std::string id = created["game"];
      Rng rng(seed * 101 + gi);
      int n = 0, undos = 0;
      json status = created;
      while (!status["over"].get<bool>()) {
        ASSERT_LT(++n, 2000) << ctx;
        json req = {{"id", n}, {"game", id}};
        if (n % 7 == 0) {  // a bot move, by the seat's own bot or greedy
          req["cmd"] = "bot";
          req["play"] = true;
        } else {
          const json legal = ask(s, {{"id", n}, {"cmd", "legal"}, {"game", id}});
          ASSERT_TRUE(legal["ok"]) << ctx << legal.dump();
          const json& options = legal["options"];
          ASSERT_FALSE(options.empty()) << ctx;
          const json& o = options[rng.below(static_cast<u32>(options.size()))];
          std::string mv;
          if (o["kind"] == "place") {
            const json& ns = o["notations"];
            mv = ns[rng.below(static_cast<u32>(ns.size()))];
            if (n % 5 == 0) {  // what the piece spots would be: a tentative placement
              const json after = ask(s, {{"id", n}, {"cmd", "legal"}, {"game", id}, {"after", mv}});
              ASSERT_TRUE(after["ok"]) << ctx << after.dump();
              EXPECT_FALSE(after["options"].empty()) << ctx << ": a pass at least";
            }
          } else {
            mv = o["notation"];
          }
          req["cmd"] = "play";
          req["move"] = mv;
        }
        const json r = ask(s, req);
        ASSERT_TRUE(r["ok"]) << ctx << " " << req.dump() << " -> " << r.dump();
        status = r;
        if (n % 40 == 0 && !status["over"].get<bool>() && undos < 2) {  // take a turn back now and then
          const json u = ask(s, {{"id", n}, {"cmd", "undo"}, {"game", id}});
          if (u["ok"]) {
            ++undos;
            status = u;
          } else {
            EXPECT_EQ(u["error"]["code"], "no_undo") << u.dump();
          }
        }
        if (n % 25 == 0) {
          const json v = ask(s, {{"id", n}, {"cmd", "view"}, {"game", id}});
          ASSERT_TRUE(v["ok"]) << ctx;
          EXPECT_EQ(v["view"]["players"].size(), 3u);
          for (std::size_t p = 0; p < 3; ++p) EXPECT_EQ(v["view"]["players"][p]["score"], status["scores"][p]) << ctx;
        }
      }
      const json v = ask(s, {{"id", 0}, {"cmd", "view"}, {"game", id}});
      EXPECT_TRUE(v["view"]["over"]);
      EXPECT_EQ(v["view"]["final_scores"], status["scores"]);
      // the record replays to the same end
      const json rec = ask(s, {{"id", 0}, {"cmd", "record"}, {"game", id}});
      ASSERT_TRUE(rec["ok"]);
      const Game again = Game::replay(record_from_json(rec["record"].dump(), "protocol"));
      ASSERT_TRUE(again.over()) << ctx;
      for (std::size_t p = 0; p < 3; ++p) EXPECT_EQ(again.state().score[p], status["scores"][p].get<int>()) << ctx;
      // and loads into the protocol again
      const json loaded = ask(s, {{"id", 0}, {"cmd", "load"}, {"record", rec["record"]}});
      ASSERT_TRUE(loaded["ok"]) << loaded.dump();
      EXPECT_TRUE(loaded["over"]);
      EXPECT_EQ(ask(s, {{"id", 0}, {"cmd", "games"}})["games"].size(), 2u);
    }
}

TEST(Protocol, MalformedRequestsGetCodesAndTheSessionGoesOn) {
  protocol::EngineSession s;
  const json created = ask(s, {{"id", "a"}, {"cmd", "new"}, {"players", {"x", "y"}}, {"seed", 5}});
  ASSERT_TRUE(created["ok"]) << created.dump();
  EXPECT_EQ(created["id"], "a");
  const std::string id = created["game"];
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "bad_json"},
      {"{", "bad_json"},
      {"[1,2]", "bad_json"},
      {"nan", "bad_json"},
      {"{\"id\":1}", "bad_request"},
      {"{\"id\":1,\"cmd\":7}", "bad_request"},
      {"{\"id\":[1],\"cmd\":\"games\"}", "bad_request"},
      {"{\"id\":1,\"cmd\":\"fly\"}", "unknown_command"},
      {"{\"id\":1,\"cmd\":\"view\",\"game\":\"g99\"}", "unknown_game"},
      {"{\"id\":1,\"cmd\":\"view\"}", "bad_request"},
      {"{\"id\":1,\"cmd\":\"view\",\"game\":\"" + id + "\",\"colour\":true}", "bad_request"},
      {"{\"id\":1,\"cmd\":\"new\",\"game\":\"chess\",\"players\":[\"a\",\"b\"]}", "bad_input"},
      {"{\"id\":1,\"cmd\":\"new\",\"players\":[\"a\"]}", "bad_input"},
      {"{\"id\":1,\"cmd\":\"new\",\"players\":[\"a\",\"b\"],\"seed\":-1}", "bad_request"},
      {"{\"id\":1,\"cmd\":\"new\",\"players\":[\"a\",\"b\"],\"seed\":1e99999}", "bad_json"},
      {"{\"id\":1,\"cmd\":\"new\",\"players\":[{\"name\":\"a\",\"bot\":\"genius\"},\"b\"]}", "bad_request"},
      {"{\"id\":1,\"cmd\":\"new\",\"players\":[\"a\",\"b\"],\"options\":{\"farmers\":\"maybe\"}}", "bad_input"},
      {"{\"id\":1,\"cmd\":\"new\",\"players\":[\"a\",\"b\"],\"setup\":{\"tiles\":[{\"tile\":\"Q9\",\"x\":0,\"y\":0,\"rot\":0}]}}", "bad_input"},
      {"{\"id\":1,\"cmd\":\"load\",\"record\":{\"players\":[\"a\",\"b\"]}}", "bad_record"},
      {"{\"id\":1,\"cmd\":\"load\",\"record\":\"{\"}", "bad_record"},
      {"{\"id\":1,\"cmd\":\"play\",\"game\":\"" + id + "\",\"move\":\"follower N\"}", "illegal_move"},
      {"{\"id\":1,\"cmd\":\"play\",\"game\":\"" + id + "\",\"move\":\"A 99,99 r0\"}", "illegal_move"},
      {"{\"id\":1,\"cmd\":\"play\",\"game\":\"" + id + "\",\"move\":{\"kind\":\"place\",\"x\":300,\"y\":0,\"rot\":0}}", "illegal_move"},
      {"{\"id\":1,\"cmd\":\"play\",\"game\":\"" + id + "\",\"move\":{\"kind\":\"jump\"}}", "bad_request"},
      {"{\"id\":1,\"cmd\":\"play\",\"game\":\"" + id + "\",\"move\":17}", "bad_request"},
      {"{\"id\":1,\"cmd\":\"play\",\"game\":\"" + id + "\"}", "bad_request"},
      {"{\"id\":1,\"cmd\":\"legal\",\"game\":\"" + id + "\",\"after\":\"pass\"}", "illegal_move"},
      {"{\"id\":1,\"cmd\":\"bot\",\"game\":\"" + id + "\",\"bot\":\"mcts:ms=999999999\"}", "bad_request"},
      {"{\"id\":1,\"cmd\":\"bot\",\"game\":\"" + id + "\",\"bot\":\"mcts:fast=1\"}", "bad_request"},
      {"{\"id\":1,\"cmd\":\"undo\",\"game\":\"" + id + "\"}", "no_undo"},
      {"{\"id\":1,\"cmd\":\"undo\",\"game\":\"" + id + "\",\"player\":9}", "bad_request"},
      {"{\"id\":1,\"cmd\":\"close\",\"game\":\"g99\"}", "unknown_game"},
      {std::string(200, '[') + std::string(200, ']'), "bad_json"},
  };
  for (const auto& [line, code] : cases) {
    const json r = json::parse(s.handle(line));
    EXPECT_FALSE(r["ok"]) << line;
    EXPECT_EQ(r["error"]["code"], code) << line << " -> " << r.dump();
    EXPECT_FALSE(r["error"]["message"].get<std::string>().empty());
  }
  EXPECT_EQ(json::parse(s.handle("{\"id\":\"\\u001b]0;owned\\u0007\",\"cmd\":\"fly\"}"))["error"]["message"].get<std::string>().find('\x1b'), std::string::npos)
      << "messages carry no control characters";
  protocol::ProtocolLimits small;
  small.max_line = 100;
  small.max_games = 2;
  protocol::EngineSession t(small);
  EXPECT_EQ(json::parse(t.handle(std::string(101, ' ')))["error"]["code"], "too_long");
  EXPECT_TRUE(ask(t, {{"cmd", "new"}, {"players", {"a", "b"}}})["ok"]);
  EXPECT_TRUE(ask(t, {{"cmd", "new"}, {"players", {"a", "b"}}})["ok"]);
  EXPECT_EQ(ask(t, {{"cmd", "new"}, {"players", {"a", "b"}}})["error"]["code"], "too_many_games");
  EXPECT_TRUE(ask(t, {{"cmd", "close"}, {"game", "g1"}})["ok"]);
  EXPECT_TRUE(ask(t, {{"cmd", "new"}, {"players", {"a", "b"}}})["ok"]);
  // after all that the first session still plays
  const json legal = ask(s, {{"id", 2}, {"cmd", "legal"}, {"game", id}});
  ASSERT_TRUE(legal["ok"]);
  EXPECT_TRUE(ask(s, {{"id", 3}, {"cmd", "play"}, {"game", id}, {"move", legal["options"][0]["notations"][0]}})["ok"]);
  EXPECT_TRUE(ask(s, {{"id", 4}, {"cmd", "undo"}, {"game", id}})["ok"]) << "the placement taken back";
  EXPECT_TRUE(ask(s, {{"id", 5}, {"cmd", "quit"}})["ok"]);
  EXPECT_TRUE(s.done());
}

TEST(Protocol, PreparedPositionsAndStructuredMoves) {
  protocol::EngineSession s;
  const json created = ask(s, {{"cmd", "new"}, {"game", "amazonas"}, {"players", {"a", "b"}}, {"seed", 4}, {"setup", {{"boats", {5, 2}}, {"scores", {7, 1}}}}});
  ASSERT_TRUE(created["ok"]) << created.dump();
  EXPECT_EQ(created["scores"], json({7, 1}));
  const json v = ask(s, {{"cmd", "view"}, {"game", created["game"]}, {"features", false}});
  EXPECT_EQ(v["view"]["players"][0]["track"], 5);
  ASSERT_EQ(v["view"]["panels"].size(), 1u);
  EXPECT_EQ(v["view"]["panels"][0]["id"], "river");
  const json& o = v["view"]["decision"]["options"][0];
  const json played = ask(s, {{"cmd", "play"}, {"game", created["game"]}, {"move", {{"kind", "place"}, {"x", o["x"]}, {"y", o["y"]}, {"rot", o["rots"][0]}}}});
  ASSERT_TRUE(played["ok"]) << played.dump();
  EXPECT_EQ(played["phase"], "piece");
  const json pass = ask(s, {{"cmd", "play"}, {"game", created["game"]}, {"move", {{"kind", "pass"}}}});
  ASSERT_TRUE(pass["ok"]) << pass.dump();
}

TEST(Protocol, PlayTakesTheGamesShorthands) {
  protocol::EngineSession s;
  const json created = ask(s, {{"cmd", "new"}, {"game", "safari"}, {"players", {"a", "b"}}, {"seed", 2}});
  ASSERT_TRUE(created["ok"]) << created.dump();
  const json id = created["game"];
  const json legal = ask(s, {{"cmd", "legal"}, {"game", id}});
  ASSERT_TRUE(ask(s, {{"cmd", "play"}, {"game", id}, {"move", legal["options"][0]["notations"][0]}})["ok"]);
  // a typed jeep move that names no jeep while two are on the board: the game says which is wrong
  const json vague = ask(s, {{"cmd", "play"}, {"game", id}, {"move", "j 1,1"}});
  ASSERT_FALSE(vague["ok"]);
  EXPECT_NE(vague["error"]["message"].get<std::string>().find("two jeeps are on the board"), std::string::npos) << vague.dump();
  // the view's actions carry a sentence and their cell; one played in its short form
  const json v = ask(s, {{"cmd", "view"}, {"game", id}, {"features", false}});
  std::string jeep;
  for (const auto& o : v["view"]["decision"]["options"])
    if (o["kind"] == "action" && o["notation"].get<std::string>().rfind("jeep from ", 0) == 0) {
      EXPECT_EQ(o["target"], "cell");
      EXPECT_NE(o["text"], o["notation"]);
      jeep = o["notation"].get<std::string>();
      break;
    }
  ASSERT_FALSE(jeep.empty());
  EXPECT_EQ(v["view"]["decision"]["panels"][0]["id"], "actions");
  const json played = ask(s, {{"cmd", "play"}, {"game", id}, {"move", "J " + jeep.substr(10)}});
  ASSERT_TRUE(played["ok"]) << played.dump();
  const json rec = ask(s, {{"cmd", "record"}, {"game", id}});
  EXPECT_EQ(rec["record"]["moves"][0]["action"], jeep) << rec.dump();
}

}  // namespace
}  // namespace carc::test

namespace carc::test {
namespace {

// The engine-protocol fuzzer's saved inputs, as unit tests: every line answered, and every open
// game's record replays to the scores the session reports (fuzz/regressions/fuzz_engine_protocol).
TEST(Protocol, FuzzRegressionSessionsReplay) {
  const std::filesystem::path dir = std::filesystem::path(CARC_SOURCE_DATA_DIR) / ".." / "fuzz" / "regressions" / "fuzz_engine_protocol";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    ++files;
    std::ifstream in(entry.path(), std::ios::binary);
    protocol::ProtocolLimits limits;
    limits.max_games = 4;
    limits.bots.max_ms = 5;
    limits.bots.max_playouts = 200;
    protocol::EngineSession s(limits, 1);
    for (std::string line; std::getline(in, line) && !s.done();) {
      const json r = json::parse(s.handle(line));
      ASSERT_TRUE(r.contains("ok")) << entry.path();
    }
    const json games = json::parse(s.handle(R"({"cmd":"games"})"));
    for (const json& g : games["games"]) {
      const json rec = json::parse(s.handle(json{{"cmd", "record"}, {"game", g["game"]}}.dump()));
      const Game again = Game::replay(record_from_json(rec["record"].dump(), entry.path().string()));
      for (std::size_t p = 0; p < g["scores"].size(); ++p) EXPECT_EQ(again.state().score[p], g["scores"][p].get<int>()) << entry.path();
    }
  }
  EXPECT_GE(files, 2);
}

// Issue 49, items 3, 7, 9 and 16: a game that ended early loads as over; an id is counted in
// characters; analyze and review are bounded in time and stop when the session is cancelled (the
// input closed); the tile-in-hand error quotes what was typed.
TEST(Protocol, AGameThatEndedEarlyLoadsAsOver) {
  protocol::EngineSession s;
  const json created = ask(s, {{"id", 1}, {"cmd", "new"}, {"players", {"x", "y"}}, {"seed", 5}});
  const std::string id = created["game"];
  for (int k = 0; k < 6; ++k) ask(s, {{"id", 2}, {"cmd", "bot"}, {"game", id}, {"bot", "random"}, {"play", true}});
  json rec = ask(s, {{"id", 3}, {"cmd", "record"}, {"game", id}})["record"];
  rec["status"] = "resigned";
  const json loaded = ask(s, {{"id", 4}, {"cmd", "load"}, {"record", rec}});
  ASSERT_TRUE(loaded["ok"]) << loaded.dump();
  EXPECT_TRUE(loaded["over"]);
  EXPECT_EQ(loaded["phase"], "over");
  EXPECT_EQ(loaded["to_move"], nullptr);
  const std::string g = loaded["game"];
  for (const json& req : {json{{"cmd", "play"}, {"move", "pass"}}, json{{"cmd", "bot"}},
                          json{{"cmd", "analyze"}, {"playouts", 5}}, json{{"cmd", "legal"}, {"after", "pass"}}}) {
    json r = req;
    r["id"] = 5;
    r["game"] = g;
    const json a = ask(s, r);
    EXPECT_FALSE(a["ok"]) << a.dump();
    EXPECT_EQ(a["error"]["code"], "game_over") << a.dump();
    EXPECT_NE(a["error"]["message"].get<std::string>().find("resigned"), std::string::npos) << a.dump();
  }
  const json legal = ask(s, {{"id", 6}, {"cmd", "legal"}, {"game", g}});
  EXPECT_TRUE(legal["options"].empty()) << legal.dump();
  EXPECT_EQ(ask(s, {{"id", 7}, {"cmd", "undo"}, {"game", g}})["error"]["code"], "no_undo");
  const json view = ask(s, {{"id", 8}, {"cmd", "view"}, {"game", g}})["view"];
  EXPECT_TRUE(view["over"]);
  EXPECT_EQ(view["decision"]["phase"], "over");
  EXPECT_TRUE(view["decision"]["options"].empty());
  EXPECT_EQ(ask(s, {{"id", 9}, {"cmd", "record"}, {"game", g}})["record"]["status"], "resigned");
}

TEST(Protocol, IdsAreCountedInCharacters) {
  protocol::EngineSession s;
  std::string hundred;
  for (int i = 0; i < 100; ++i) hundred += "Ж";  // 200 bytes
  EXPECT_TRUE(ask(s, {{"id", hundred}, {"cmd", "games"}})["ok"]);
  const json over = ask(s, {{"id", hundred + "Ж"}, {"cmd", "games"}});
  EXPECT_EQ(over["error"]["code"], "bad_request");
}

TEST(Protocol, TheTileInHandErrorQuotesWhatWasTyped) {
  protocol::EngineSession s;
  const json created = ask(s, {{"id", 1}, {"cmd", "new"}, {"players", {"x", "y"}}, {"seed", 5}});
  const std::string tile = created["tile"];
  const std::string other = tile == "V" ? "W" : "V";
  const json r = ask(s, {{"id", 2}, {"cmd", "play"}, {"game", created["game"]}, {"move", other + " 1,0 r90"}});
  const std::string msg = r["error"]["message"];
  EXPECT_NE(msg.find(fmt::format("the tile in hand is {}, not {}", tile, other)), std::string::npos) << msg;
}

TEST(Protocol, SearchesStopWhenTheSessionIsCancelledOrPastTheirTime) {
  std::atomic<bool> cancel{true};  // the input closed before the requests were answered
  protocol::ProtocolLimits lim;
  protocol::EngineSession s(lim, 1);
  s.set_cancel(&cancel);
  const json created = ask(s, {{"id", 1}, {"cmd", "new"}, {"players", {"x", "y"}}, {"seed", 5}});
  const std::string id = created["game"];
  // a million playouts would take most of a minute: cancelled, it answers at once with what it has
  const json a = ask(s, {{"id", 2}, {"cmd", "analyze"}, {"game", id}, {"playouts", 1000000}});
  ASSERT_TRUE(a["ok"]) << a.dump();
  EXPECT_LT(a["playouts"].get<long>(), 1000);
  const json b = ask(s, {{"id", 3}, {"cmd", "bot"}, {"game", id}, {"bot", "mcts:playouts=1000000,threads=1"}});
  ASSERT_TRUE(b["ok"]) << b.dump();
  EXPECT_LT(b["report"]["total_visits"].get<long>(), 1000) << b.dump();
  for (int k = 0; k < 8; ++k) ask(s, {{"id", 4}, {"cmd", "bot"}, {"game", id}, {"bot", "random"}, {"play", true}});
  const json rec = ask(s, {{"id", 5}, {"cmd", "record"}, {"game", id}})["record"];
  const json r = ask(s, {{"id", 6}, {"cmd", "review"}, {"record", rec}, {"playouts", 50}});
  EXPECT_FALSE(r["ok"]);
  EXPECT_EQ(r["error"]["code"], "time_cap") << r.dump();
  EXPECT_NE(r["error"]["message"].get<std::string>().find("the input closed"), std::string::npos) << r.dump();
  // not cancelled: the same review answers
  cancel = false;
  EXPECT_TRUE(ask(s, {{"id", 7}, {"cmd", "review"}, {"record", rec}, {"playouts", 50}})["ok"]);
  // a review past the session's time for one is cut (a cap of 1 ms is past after the first search)
  lim.review_ms = 1;
  protocol::EngineSession t(lim, 1);
  const json cut = ask(t, {{"id", 8}, {"cmd", "review"}, {"record", rec}, {"playouts", 2000}});
  EXPECT_EQ(cut["error"]["code"], "time_cap") << cut.dump();
  EXPECT_NE(cut["error"]["message"].get<std::string>().find("at most 0.001 s"), std::string::npos) << cut.dump();
}

}  // namespace
}  // namespace carc::test
