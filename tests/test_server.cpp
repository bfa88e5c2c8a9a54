// The game server's session state machine (server/room) with a fake clock and a real store (in
// memory and an SQLite file), and the store's conformance: fencing, group commit, jobs.
#include <gtest/gtest.h>

#include <libpq-fe.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "ai/bots.hpp"
#include "engine/engine.hpp"
#include "pg_support.hpp"
#include "server/bot_turn.hpp"
#include "server/crypto.hpp"
#include "server/room.hpp"
#include "server/store.hpp"
#include "server/web_api.hpp"

using namespace carc;
using namespace carc::server;
using nlohmann::json;

namespace {

// A room with its store and captured messages; time is whatever the test says.
struct Table {
  std::unique_ptr<Store> store;
  std::unique_ptr<Room> room;
  std::vector<std::string> tokens;
  std::vector<Out> sent;  // every message, in order
  std::int64_t now = 1'000'000;
  int commits = 0;

  explicit Table(const json& req, std::unique_ptr<Store> s = make_memory_store()) : store(std::move(s)) {
    Created c = create_game(req, "g1", now);
    tokens = c.tokens;
    store->create(c.meta, c.first);
    room = std::make_unique<Room>(*store->game("g1"), store->events("g1", 0));
  }
  // Runs a step: its messages, then its commit (if any) and what the commit sends.
  void run(Step st) {
    for (auto& o : st.now) sent.push_back(std::move(o));
    if (!st.commit) return;
    EXPECT_TRUE(room->busy());
    const auto ok = store->commit({*st.commit});
    ++commits;
    std::vector<Out> out;
    if (ok[0]) room->committed(out);
    else room->failed("fenced", out);
    for (auto& o : out) sent.push_back(std::move(o));
  }
  void hello(std::uint64_t conn, int seat, std::int64_t since = 0, bool views = false) { run(room->hello(conn, seat, since, views, now)); }
  void cmd(std::uint64_t conn, const json& msg) { run(room->command(conn, msg, now)); }
  // The last message sent to `conn` of a type, as JSON.
  json last(std::uint64_t conn, const std::string& type) const {
    for (auto it = sent.rbegin(); it != sent.rend(); ++it) {
      if (it->conn != conn && it->conn != 0) continue;
      json j = json::parse(it->text);
      if (j["type"] == type) return j;
    }
    return json();
  }
  // The first decision of the player to move that completes a turn: a placement, then a pass
  // or whatever follows, chosen by the greedy bot.
  std::vector<std::string> a_turn(int seat) const { return bot_decisions(room->record_json(), seat, "greedy", 7); }
  int to_move() const { return carc::to_move(room->game().state()); }
  // A room rebuilt from the store's log.
  std::unique_ptr<Room> reloaded() const { return std::make_unique<Room>(*store->game("g1"), store->events("g1", 0)); }
};

json two_humans() { return {{"game", "base"}, {"seats", {{{"name", "Ann"}}, {{"name", "Bob"}}}}, {"seed", 5}}; }

json play(const std::string& cid, std::int64_t at, const std::vector<std::string>& moves) {
  return {{"type", "play"}, {"cid", cid}, {"at", at}, {"moves", moves}};
}

}  // namespace

TEST(ServerRoom, CreatedGamePublishesTheSeedHashAndGivesTokensOnlyAsHashes) {
  Table t(two_humans());
  const auto meta = *t.store->game("g1");
  const auto log = t.store->events("g1", 0);
  ASSERT_GE(log.size(), 2u);
  EXPECT_EQ(log[0].type, "created");
  // the commitment is salted (an unsalted hash of a 64-bit seed can be searched)
  const std::string salt = json::parse(meta.settings)["salt"];
  EXPECT_EQ(salt.size(), 32u);
  EXPECT_EQ(json::parse(log[0].body)["seed_hash"], sha256_hex(salt + ":" + meta.seed));
  EXPECT_EQ(json::parse(log[0].body)["seed_hash"], seed_hash(meta));
  EXPECT_NE(seed_hash(meta), sha256_hex(meta.seed));
  EXPECT_EQ(log[1].type, "draw");  // the first tile
  ASSERT_EQ(t.tokens.size(), 2u);
  EXPECT_EQ(t.tokens[0].size(), 32u);  // 128 bits
  EXPECT_EQ(meta.settings.find(t.tokens[0]), std::string::npos);
  EXPECT_NE(meta.settings.find(sha256_hex(t.tokens[0])), std::string::npos);
  EXPECT_EQ(t.room->seat_of_token(t.tokens[1]), 1);
  std::string other = t.tokens[1];  // one hex digit changed (a random token may start with "00")
  other[0] = other[0] == '0' ? '1' : '0';
  EXPECT_EQ(t.room->seat_of_token(other), -1);
  // the record hides the seed until the end
  EXPECT_TRUE(json::parse(t.room->record_json())["seed"].is_null());
}

TEST(ServerRoom, AMoveIsAcknowledgedAndBroadcastOnlyAfterItsCommit) {
  Table t(two_humans());
  t.hello(1, 0);
  t.hello(2, -1);  // a spectator
  const std::int64_t at = t.room->seq();
  const Step st = t.room->command(1, play("c1", at, t.a_turn(0)), t.now);
  ASSERT_TRUE(st.commit);
  for (const Out& o : st.now) EXPECT_EQ(json::parse(o.text)["type"], "reject") << "nothing but a reject is sent before the commit";
  EXPECT_TRUE(st.now.empty());
  EXPECT_EQ(t.store->events("g1", at).size(), 0u);
  EXPECT_EQ(t.room->seq(), at) << "the room shows no uncommitted event";
  // the commit, then the ack and the events
  ASSERT_TRUE(t.store->commit({*st.commit})[0]);
  std::vector<Out> out;
  t.room->committed(out);
  // the events to each connection (in its language: a turn carries its moves in words), then the ack
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].conn, 1u);
  EXPECT_EQ(out[1].conn, 2u);
  const json evs = json::parse(out[0].text);
  EXPECT_EQ(evs["type"], "events");
  EXPECT_EQ(evs["events"][0]["type"], "turn");
  EXPECT_EQ(evs["events"][0]["seq"], at + 1);
  EXPECT_EQ(evs["events"][0]["words"].size(), evs["events"][0]["data"]["moves"].size());
  EXPECT_EQ(evs["events"][1]["type"], "draw");
  EXPECT_EQ(out[1].text, out[0].text) << "the same language, the same message";
  const json ack = json::parse(out[2].text);
  EXPECT_EQ(out[2].conn, 1u);
  EXPECT_EQ(ack["type"], "ack");
  EXPECT_EQ(ack["cid"], "c1");
  EXPECT_EQ(ack["seq"], at + 1) << "the seq of the command's own event";
}

TEST(ServerRoom, AStaleCommandIsRejectedWithTheCurrentSeq) {
  Table t(two_humans());
  t.hello(1, 0);
  t.hello(2, 1);
  const std::int64_t at = t.room->seq();
  t.cmd(1, play("a", at, t.a_turn(0)));
  ASSERT_EQ(t.last(1, "ack")["cid"], "a");
  // Bob's command made against the old seq
  t.cmd(2, play("b", at, {"pass"}));
  const json r = t.last(2, "reject");
  EXPECT_EQ(r["cid"], "b");
  EXPECT_EQ(r["code"], "stale");
  EXPECT_EQ(r["seq"], t.room->seq());
  // not Ann's turn any more: a command at the right seq is refused as such
  t.cmd(1, play("a2", t.room->seq(), {"pass"}));
  EXPECT_EQ(t.last(1, "reject")["code"], "not_your_turn");
}

TEST(ServerRoom, ARepeatedClientIdGetsTheOriginalAnswerAndIsNeverAppliedTwice) {
  Table t(two_humans());
  t.hello(1, 0);
  const std::int64_t at = t.room->seq();
  const auto moves = t.a_turn(0);
  t.cmd(1, play("same", at, moves));
  const json first = t.last(1, "ack");
  const std::int64_t after = t.room->seq();
  const auto log_size = t.store->events("g1", 0).size();
  for (int i = 0; i < 3; ++i) {
    t.cmd(1, play("same", at, moves));  // a resend after a lost ack
    const json again = t.last(1, "ack");
    EXPECT_EQ(again["seq"], first["seq"]);
    EXPECT_EQ(again["repeat"], true);
  }
  EXPECT_EQ(t.room->seq(), after);
  EXPECT_EQ(t.store->events("g1", 0).size(), log_size);
  // from a new connection after a reload of the room too
  t.room = t.reloaded();
  t.hello(3, 0);
  t.cmd(3, play("same", at, moves));
  EXPECT_EQ(t.last(3, "ack")["seq"], first["seq"]);
  EXPECT_EQ(t.store->events("g1", 0).size(), log_size);
}

TEST(ServerRoom, ATurnIsAppliedWholeOrNotAtAll) {
  Table t(two_humans());
  t.hello(1, 0);
  const std::int64_t at = t.room->seq();
  auto moves = t.a_turn(0);
  ASSERT_GE(moves.size(), 2u);
  const std::string before = t.room->record_json();
  // a good placement then an illegal piece: nothing applied
  t.cmd(1, play("x1", at, {moves[0], "follower QQ"}));
  EXPECT_EQ(t.last(1, "reject")["code"], "illegal_move");
  EXPECT_EQ(t.room->seq(), at);
  EXPECT_EQ(t.room->record_json(), before);
  // the placement alone: the turn is not complete
  t.cmd(1, play("x2", at, {moves[0]}));
  EXPECT_EQ(t.last(1, "reject")["code"], "incomplete_turn");
  EXPECT_EQ(t.room->record_json(), before);
  // more than the turn: refused too
  auto more = moves;
  more.push_back("pass");
  t.cmd(1, play("x3", at, more));
  EXPECT_EQ(t.last(1, "reject")["code"], "bad_turn");
  EXPECT_EQ(t.room->record_json(), before);
  // a rejected cid is not remembered as applied: the whole turn with it goes through
  t.cmd(1, play("x1", at, moves));
  EXPECT_EQ(t.last(1, "ack")["cid"], "x1");
  EXPECT_GT(t.room->seq(), at);
}

TEST(ServerRoom, AFailedCommitRejectsTheCommandAndLeavesTheStateAsCommitted) {
  Table t(two_humans());
  t.hello(1, 0);
  const std::int64_t at = t.room->seq();
  const std::string before = t.room->record_json();
  Step st = t.room->command(1, play("c", at, t.a_turn(0)), t.now);
  ASSERT_TRUE(st.commit);
  // another writer extended the game meanwhile: the append is fenced
  Append other;
  other.game = "g1";
  other.events.push_back({at + 1, "resign", 1, "z", t.now, R"({"seat":1})"});
  ASSERT_TRUE(t.store->commit({other})[0]);
  EXPECT_FALSE(t.store->commit({*st.commit})[0]);
  std::vector<Out> out;
  t.room->failed("fenced", out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(json::parse(out[0].text)["code"], "store");
  EXPECT_FALSE(t.room->busy());
  EXPECT_EQ(t.room->record_json(), before);
}

TEST(ServerRoom, HelloResyncsFromAnySeqWithEverythingAfterIt) {
  Table t(two_humans());
  t.hello(1, 0);
  t.hello(2, 1);
  for (int turn = 0; turn < 12; ++turn) {
    const int p = t.to_move();
    t.cmd(p == 0 ? 1 : 2, play("t" + std::to_string(turn), t.room->seq(), t.a_turn(p)));
  }
  const auto log = t.store->events("g1", 0);
  ASSERT_EQ(static_cast<std::int64_t>(log.size()), t.room->seq());
  for (const Event& e : log) EXPECT_EQ(json::parse(event_text(e)), event_json(e)) << "the fast writer says the same";
  for (std::int64_t since = 0; since <= t.room->seq(); ++since) {
    t.sent.clear();
    t.hello(9, -1, since);
    const json evs = t.last(9, "events")["events"];
    ASSERT_EQ(static_cast<std::int64_t>(evs.size()), t.room->seq() - since) << since;
    for (std::size_t i = 0; i < evs.size(); ++i) {
      EXPECT_EQ(evs[i]["seq"], since + 1 + static_cast<std::int64_t>(i));
      EXPECT_EQ(evs[i]["type"], log[static_cast<std::size_t>(since) + i].type);
    }
    EXPECT_EQ(t.last(9, "welcome")["seq"], t.room->seq());
  }
  // a since ahead of the game (a client of an older server's state) gets everything
  t.hello(9, -1, t.room->seq() + 50);
  EXPECT_EQ(static_cast<std::int64_t>(t.last(9, "events")["events"].size()), t.room->seq());
}

TEST(ServerRoom, TheLogReplaysToTheLiveStateAndAWholeGameEndsWithTheSeed) {
  Table t(json{{"game", "base"}, {"seats", {{{"name", "Ann"}}, {{"bot", "greedy"}}, {{"name", "Cy"}}}}, {"seed", 11}});
  t.hello(1, 0);
  t.hello(3, 2);
  int guard = 0;
  while (!t.room->over() && ++guard < 400) {
    const int p = t.to_move();
    if (p == 1) {  // the bot's job, as a worker would do it
      const auto jobs = t.store->jobs();
      ASSERT_EQ(jobs.size(), 1u);
      EXPECT_EQ(jobs[0].seat, 1);
      EXPECT_EQ(jobs[0].seq, t.room->seq());
      t.run(t.room->bot_play(kNobody, 1, "job:" + std::to_string(jobs[0].seq), jobs[0].seq, t.a_turn(1), t.now));
      continue;
    }
    EXPECT_TRUE(t.store->jobs().empty());
    t.now += 1000;
    t.cmd(p == 0 ? 1 : 3, play(std::to_string(guard), t.room->seq(), t.a_turn(p)));
  }
  ASSERT_TRUE(t.room->over());
  EXPECT_TRUE(t.store->jobs().empty());
  EXPECT_EQ(t.store->game("g1")->status, "finished");
  const auto log = t.store->events("g1", 0);
  const json end = json::parse(log.back().body);
  EXPECT_EQ(log.back().type, "end");
  EXPECT_EQ(end["seed"], std::stoull(t.store->game("g1")->seed));  // a number, as the record's
  EXPECT_EQ(end["salt"], json::parse(t.store->game("g1")->settings)["salt"]);
  EXPECT_EQ(end["scores"], json(t.room->game().record().final_scores));
  // the record (seed now in it) replays to the same result, and so does the log
  const Record r = record_from_json(t.room->record_json(), "test");
  EXPECT_EQ(r.seed, std::optional<u64>(11));
  const Game g = Game::replay(r);
  EXPECT_EQ(g.record().final_scores, t.room->game().record().final_scores);
  EXPECT_EQ(t.reloaded()->record_json(), t.room->record_json());
}

TEST(ServerRoom, ARealtimeClockRunsOutAndTheSeatIsOut) {
  json req = two_humans();
  req["seats"].push_back({{"name", "Cy"}});
  req["clock"] = {{"type", "realtime"}, {"bank", 60}, {"increment", 5}};
  Table t(req);
  t.hello(1, 0);
  // Ann moves after 20 s: 60 - 20 + 5 = 45 s left
  t.now += 20000;
  t.cmd(1, play("a", t.room->seq(), t.a_turn(0)));
  EXPECT_EQ(t.room->clocks(t.now)[0], 45000);
  // Bob (seat 1) lets his 60 s run out: nothing before the deadline, a timeout at it
  const std::int64_t due = t.room->deadline();
  EXPECT_EQ(due, t.now + 60000);
  t.run(t.room->tick(due - 1));
  EXPECT_EQ(t.commits, 1);
  t.run(t.room->tick(due));
  const auto log = t.store->events("g1", 0);
  EXPECT_EQ(log.back().type, "timeout");
  EXPECT_EQ(json::parse(log.back().body)["seat"], 1);
  EXPECT_FALSE(t.room->over()) << "two seats play on";
  // the seat's tiles are played by the stand-in bot from now on: a job for it
  const auto jobs = t.store->jobs();
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].seat, 1);
  EXPECT_EQ(jobs[0].spec, "greedy");
  // the clock survives a restart: a reloaded room has the same banks
  EXPECT_EQ(t.reloaded()->clocks(t.now), t.room->clocks(t.now));
  // a late move by a player whose time is out is refused, and the bot's goes through
  t.hello(2, 1);
  t.cmd(2, play("late", t.room->seq(), {"pass"}));
  EXPECT_EQ(t.last(2, "reject")["code"], "not_your_turn");
  t.run(t.room->bot_play(kNobody, 1, "job", jobs[0].seq, t.a_turn(1), t.now));
  EXPECT_EQ(t.to_move(), 2);
}

TEST(ServerRoom, InATwoSeatGameATimeoutOrResignationEndsTheGame) {
  json req = two_humans();
  req["clock"] = {{"type", "days"}, {"days", 2}};
  Table t(req);
  t.hello(1, 0);
  EXPECT_EQ(t.room->deadline(), t.now + 2 * 86400000LL);
  t.run(t.room->tick(t.now + 2 * 86400000LL));
  ASSERT_TRUE(t.room->over());
  const auto end = json::parse(t.store->events("g1", 0).back().body);
  EXPECT_EQ(end["reason"], "timeout");
  EXPECT_EQ(end["winners"], json::array({1}));
  Table u(two_humans());
  u.hello(2, 1);
  u.cmd(2, json{{"type", "resign"}, {"cid", "r"}, {"at", u.room->seq()}});
  ASSERT_TRUE(u.room->over());
  EXPECT_EQ(json::parse(u.store->events("g1", 0).back().body)["winners"], json::array({0}));
  // the records say how the games ended; each replays, and keeps its status when written again
  for (const auto* table : {&t, &u}) {
    const std::string text = table->room->record_json();
    const std::string want = table == &t ? "timeout" : "resigned";
    EXPECT_EQ(json::parse(text)["status"], want);
    const Game g = Game::replay(record_from_json(text, "server"));
    EXPECT_EQ(json::parse(record_to_json(g.record(), g.ruleset()))["status"], want);
  }
  // an early end on a game its moves play to the end is refused
  // (played on from the record without its status: a game that ended early takes no move)
  json open = json::parse(t.room->record_json());
  open.erase("status");
  open.erase("events");
  Game played = Game::replay(record_from_json(open.dump(), "server"));
  Rng rng(3);
  while (!played.over()) {
    MoveList ml;
    legal_moves(played.state(), ml);
    played.play(ml[rng.below(static_cast<u32>(ml.size()))]);
  }
  json finished = json::parse(record_to_json(played.record(), played.ruleset()));
  finished["status"] = "resigned";
  finished.erase("final_scores");
  finished.erase("events");
  EXPECT_THROW(Game::replay(record_from_json(finished.dump(), "x")), ReplayError);
}

TEST(ServerRoom, AnAnalysisIsStoredOnceAfterTheEndAndReplaysFromTheLog) {
  Table t(two_humans());
  t.hello(1, 0);
  t.hello(2, 1);
  const json body{{"playouts", 10}, {"seed", 1}, {"review", {{"decisions", json::array()}}}};
  t.run(t.room->add_analysis(body, t.now));  // before the end: nothing
  EXPECT_EQ(t.room->analysis(), nullptr);
  EXPECT_EQ(t.commits, 0);
  t.cmd(2, json{{"type", "resign"}, {"cid", "r"}, {"at", t.room->seq()}});
  ASSERT_TRUE(t.room->over());
  const std::int64_t seq = t.room->seq();
  t.run(t.room->add_analysis(body, t.now));
  ASSERT_NE(t.room->analysis(), nullptr);
  EXPECT_EQ(json::parse(*t.room->analysis()), body);
  EXPECT_EQ(t.room->seq(), seq + 1);
  EXPECT_EQ(t.last(1, "events")["events"].back()["type"], "analysis");  // told to everyone connected
  t.run(t.room->add_analysis(json{{"playouts", 20}}, t.now));           // once
  EXPECT_EQ(t.room->seq(), seq + 1);
  const auto back = t.reloaded();  // the log replays to it
  ASSERT_NE(back->analysis(), nullptr);
  EXPECT_EQ(json::parse(*back->analysis()), body);
  // a log with an analysis before the end, or two, does not replay
  auto log = t.store->events("g1", 0);
  auto twice = log;
  twice.push_back(log.back());
  twice.back().seq = log.back().seq + 1;
  EXPECT_THROW(Room(*t.store->game("g1"), twice), InputError);
  Table u(two_humans());
  auto early = u.store->events("g1", 0);
  early.push_back(log.back());
  early.back().seq = early[early.size() - 2].seq + 1;
  EXPECT_THROW(Room(*u.store->game("g1"), early), InputError);
}

TEST(ServerRoom, AnAbsentPlayerGetsAGracePeriodThenABotTakesTheSeatUntilTheyAreBack) {
  json req = two_humans();
  req["absence"] = {{"grace", 30}, {"policy", "bot"}, {"bot", "random"}};
  Table t(req);
  t.hello(1, 0);
  EXPECT_EQ(t.room->deadline(), 0) << "connected: no deadline";
  std::vector<Out> out;
  t.room->leave(1, out, t.now);
  const json pres = json::parse(out.back().text);
  EXPECT_EQ(pres["type"], "presence");
  EXPECT_EQ(pres["seats"][0]["connected"], false);
  EXPECT_EQ(pres["seats"][0]["grace_until"], t.now + 30000) << "the grace period is visible";
  EXPECT_EQ(t.room->deadline(), t.now + 30000);
  t.run(t.room->tick(t.now + 30000));
  EXPECT_EQ(t.store->events("g1", 0).back().type, "seat_bot");
  auto jobs = t.store->jobs();
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].spec, "random");
  // the player comes back: the seat is theirs again and the job is settled
  t.hello(4, 0);
  EXPECT_EQ(t.store->events("g1", 0).back().type, "seat_back");
  EXPECT_TRUE(t.store->jobs().empty());
  // the stale job's move is refused
  t.run(t.room->bot_play(kNobody, 0, "job", jobs[0].seq, {"pass"}, t.now));
  EXPECT_EQ(t.last(kNobody, "reject")["code"], "stale");
}

TEST(ServerRoom, AbortOnlyBeforeTheFirstMoveAndSpectatorsCannotAct) {
  Table t(two_humans());
  t.hello(1, 0);
  t.hello(2, -1);
  t.cmd(2, play("s", t.room->seq(), {"pass"}));
  EXPECT_EQ(t.last(2, "reject")["code"], "spectator");
  t.cmd(1, play("a", t.room->seq(), t.a_turn(0)));
  t.cmd(1, json{{"type", "abort"}, {"cid", "ab"}, {"at", t.room->seq()}});
  EXPECT_EQ(t.last(1, "reject")["code"], "started");
  Table u(two_humans());
  u.hello(1, 0);
  u.cmd(1, json{{"type", "abort"}, {"cid", "ab"}, {"at", u.room->seq()}});
  EXPECT_TRUE(u.room->over());
  EXPECT_EQ(u.store->game("g1")->status, "aborted");
}

TEST(ServerRoom, ASeatNamesItselfAndTheNameIsInTheLogTheRecordAndEveryView) {
  json req = two_humans();
  req["seats"] = {{{"name", "Ann"}}, json::object(), {{"bot", "greedy"}}};
  Table t(req);
  t.hello(1, 1);
  t.hello(2, -1);
  t.hello(3, 0);
  const auto name = [](const std::string& cid, const json& n) {
    return json{{"type", "name"}, {"cid", cid}, {"name", n}};
  };
  EXPECT_EQ(t.room->summary(t.now)["seats"][1]["name"], "Player 2");
  const std::int64_t before = t.room->seq();
  t.cmd(1, name("n1", "Дана"));
  EXPECT_EQ(t.room->seq(), before + 1);
  EXPECT_EQ(t.last(1, "ack")["cid"], "n1");
  EXPECT_EQ(t.room->summary(t.now)["seats"][1]["name"], "Дана");
  EXPECT_EQ(json::parse(t.room->record_json())["players"][1]["name"], "Дана");
  // everyone gets the event; a spectator's welcome and the rebuilt room have the new name
  const json ev = t.last(2, "events")["events"].back();
  EXPECT_EQ(ev["type"], "name");
  EXPECT_EQ(ev["data"], (json{{"seat", 1}, {"name", "Дана"}}));
  t.hello(4, -1);
  EXPECT_EQ(t.last(4, "welcome")["seats"][1]["name"], "Дана");
  EXPECT_EQ(t.reloaded()->summary(t.now)["seats"][1]["name"], "Дана");
  EXPECT_EQ(t.reloaded()->record_json(), t.room->record_json());
  // a name is not a turn: it needs no "at", the turn's own "at" moves on, and a repeat is an ack
  t.cmd(1, name("n1", "Дана"));
  EXPECT_TRUE(t.last(1, "ack")["repeat"].get<bool>());
  EXPECT_EQ(t.room->seq(), before + 1);
  const auto code = [&](std::uint64_t conn, const json& m) {
    t.sent.clear();
    t.cmd(conn, m);
    const json j = json::parse(t.sent.back().text);
    return j["code"].get<std::string>() + ": " + j.value("message", "");
  };
  EXPECT_EQ(code(1, name("n2", "Дана")).substr(0, 9), "same_name");
  EXPECT_EQ(code(2, name("n3", "Eve")).substr(0, 9), "spectator");
  EXPECT_NE(code(1, name("n4", "")).find("name: empty"), std::string::npos);
  EXPECT_NE(code(1, name("n5", "   ")).find("name: blank"), std::string::npos);
  EXPECT_NE(code(1, name("n6", std::string(41, 'x'))).find("name"), std::string::npos);
  EXPECT_NE(code(1, name("n7", "A\u200Bnn")).find("invisible"), std::string::npos);
  EXPECT_NE(code(1, name("n8", 7)).find("name"), std::string::npos);
  EXPECT_NE(code(1, json{{"type", "name"}, {"cid", "n9"}, {"name", "Eve"}, {"at", 3}}).find("unknown field \"at\""),
            std::string::npos);
  EXPECT_EQ(t.room->seq(), before + 1);
  // turns still go on from the seq the name moved to
  const int who = t.to_move();
  t.cmd(who == 0 ? 3 : 1, play("p", t.room->seq(), t.a_turn(who)));
  EXPECT_EQ(t.last(who == 0 ? 3 : 1, "ack")["cid"], "p");
  // a rematch keeps the names as they are
  const Created r = rematch_game(*t.store->game("g1"), t.now, t.room->names());
  EXPECT_EQ(json::parse(r.meta.settings)["seats"][1]["name"], "Дана");
}

// Renames are limited per seat (each is an event every client gets and the log keeps): at most
// kMaxRenames a game, kRenameGapMs apart, never another seat's name (case and spaces aside), and
// not by a seat that resigned. The limits hold across a reload (they are counted from the log).
TEST(ServerRoom, RenamesAreLimitedPerSeatAndNeverTakeAnotherSeatsName) {
  json req = two_humans();
  req["seats"] = {{{"name", "Ann"}}, {{"name", "Bob"}}, {{"name", "Ğül Ñandú"}}};
  Table t(req);
  t.hello(1, 0);
  t.hello(2, 1);
  t.hello(3, 2);
  const auto code = [&](std::uint64_t conn, const std::string& cid, const std::string& n) {
    t.sent.clear();
    t.cmd(conn, json{{"type", "name"}, {"cid", cid}, {"name", n}});
    const json j = json::parse(t.sent.back().text);
    return j["type"] == "ack" ? std::string("ack") : j["code"].get<std::string>();
  };
  // another seat's name, whatever its case and spaces: refused, and it counts for nothing
  EXPECT_EQ(code(2, "t1", "ann"), "name_taken");
  EXPECT_EQ(code(2, "t2", "  ANN "), "name_taken");
  EXPECT_EQ(code(2, "t3", "ğÜL  ñANDÚ"), "name_taken");
  EXPECT_EQ(code(2, "t4", "Аnn"), "ack") << "a Cyrillic А is another letter";
  t.now += kRenameGapMs;
  EXPECT_EQ(code(1, "t5", "bob"), "ack") << "(seat 1 is called Аnn now; Bob is free)";
  // one rename every kRenameGapMs, kMaxRenames a game
  EXPECT_EQ(code(1, "r0", "Ann 2"), "rename_too_soon");
  t.now += kRenameGapMs - 1;
  EXPECT_EQ(code(1, "r1", "Ann 2"), "rename_too_soon");
  for (int i = 2; i <= kMaxRenames; ++i) {
    t.now += kRenameGapMs;
    EXPECT_EQ(code(1, "r" + std::to_string(i), "Ann " + std::to_string(i)), "ack") << i;
  }
  t.now += kRenameGapMs;
  EXPECT_EQ(code(1, "r99", "Ann 99"), "too_many_renames");
  {
    auto r = t.reloaded();
    (void)r->hello(1, 0, 0, false, t.now);
    const Step st = r->command(1, json{{"type", "name"}, {"cid", "r97"}, {"name", "Ann 97"}}, t.now);
    EXPECT_EQ(json::parse(st.now.back().text)["code"], "too_many_renames") << "counted from the log";
    const Step again = r->command(1, json{{"type", "name"}, {"cid", "r2"}, {"name", "Ann 2"}}, t.now);
    EXPECT_TRUE(json::parse(again.now.back().text)["repeat"].get<bool>()) << "a repeated cid is still its ack";
  }
  // a seat that resigned keeps its name
  t.cmd(3, json{{"type", "resign"}, {"cid", "x"}, {"at", t.room->seq()}});
  t.now += kRenameGapMs;
  EXPECT_EQ(code(3, "z", "Zed"), "resigned");
  // the log: seats 0 and 1 renamed 1 + kMaxRenames times, nothing else
  int names = 0;
  for (const Event& e : t.store->events("g1", 0)) names += e.type == "name";
  EXPECT_EQ(names, 1 + kMaxRenames);
}

TEST(ServerRoom, BadMessagesGetErrorsNamingTheField) {
  Table t(two_humans());
  t.hello(1, 0);
  auto code = [&](const json& m) {
    t.sent.clear();
    t.cmd(1, m);
    const json j = json::parse(t.sent.back().text);
    return j["code"].get<std::string>() + ": " + j["message"].get<std::string>();
  };
  EXPECT_NE(code(json{{"type", "fly"}}).find("type \"fly\""), std::string::npos);
  EXPECT_NE(code(json{{"type", "play"}, {"at", 1}, {"moves", {"pass"}}}).find("cid: missing"), std::string::npos);
  EXPECT_NE(code(json{{"type", "play"}, {"cid", "x"}, {"moves", {"pass"}}}).find("at: missing"), std::string::npos);
  EXPECT_NE(code(json{{"type", "play"}, {"cid", "x"}, {"at", "3"}, {"moves", {"pass"}}}).find("at"), std::string::npos);
  EXPECT_NE(code(json{{"type", "play"}, {"cid", "x"}, {"at", 2}, {"moves", json::array()}}).find("moves: empty"), std::string::npos);
  EXPECT_NE(code(json{{"type", "play"}, {"cid", "x"}, {"at", 2}, {"moves", {"pass"}}, {"extra", 1}}).find("unknown field \"extra\""), std::string::npos);
  EXPECT_NE(code(json{{"type", "legal"}, {"moves", {"Z 9,9 r0"}}}).find("moves[0]"), std::string::npos);
  EXPECT_FALSE(t.room->busy());
  // creation requests too
  auto create_error = [](const json& req) {
    try {
      create_game(req, "x", 0);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(create_error(json{{"game", "chess"}, {"seats", json::array({json::object()})}}).find("unknown game \"chess\""), std::string::npos);
  EXPECT_NE(create_error(json{{"seats", {{{"bot", "nobody"}}}}}).find("seats[0].bot"), std::string::npos);
  EXPECT_NE(create_error(json{{"seats", {{{"name", "A"}}, {{"name", "B"}}}}, {"clock", {{"type", "realtime"}}}}).find("clock.bank: missing"),
            std::string::npos);
  EXPECT_NE(create_error(json{{"seats", {{{"name", "A"}}, {{"name", "B"}}}}, {"absence", {{"policy", "kick"}}}}).find("absence.policy"),
            std::string::npos);
}

// An mcts spec without threads searches on one thread on the server (rather than being refused as
// over the budget of one thread); one that asks for more is still refused.
TEST(ServerRoom, AnMctsSpecWithoutThreadsGetsOneThread) {
  EXPECT_EQ(server_bot_spec("mcts"), "mcts:threads=1");
  EXPECT_EQ(server_bot_spec("mcts:"), "mcts:threads=1");
  EXPECT_EQ(server_bot_spec("mcts:ms=500"), "mcts:ms=500,threads=1");
  EXPECT_EQ(server_bot_spec("mcts:threads=2,ms=5"), "mcts:threads=2,ms=5");
  EXPECT_EQ(server_bot_spec("mcts:ms=5,threads=1"), "mcts:ms=5,threads=1");
  EXPECT_EQ(server_bot_spec("hard"), "hard");
  json req = two_humans();
  req["seats"] = {{{"name", "Ann"}}, {{"bot", "mcts:ms=500"}}, {{"bot", "mcts"}}};
  req["absence"] = {{"policy", "bot"}, {"bot", "mcts:playouts=100"}};
  const Created c = create_game(req, "g1", 1);
  const json st = json::parse(c.meta.settings);
  EXPECT_EQ(st["seats"][1]["bot"], "mcts:ms=500,threads=1");
  EXPECT_EQ(st["seats"][2]["bot"], "mcts:threads=1");
  EXPECT_EQ(st["absence"]["bot"], "mcts:playouts=100,threads=1");
  req["seats"][1]["bot"] = "mcts:ms=500,threads=2";
  EXPECT_THROW(create_game(req, "g2", 1), InputError);
}

// A request's bot may not name a file on the server (mcts' weights=FILE): it was read, and its
// first line quoted back in the error, for anyone who could create a game.
TEST(ServerRoom, ARequestedBotNamesNoFileOfTheServer) {
  for (const char* spec :
       {"mcts:weights=/etc/passwd,threads=1", "mcts:threads=1,weights=/etc/hostname", "mcts:weights="}) {
    json req = two_humans();
    req["seats"][1] = {{"bot", spec}};
    try {
      (void)create_game(req, "g1", 1);
      ADD_FAILURE() << spec << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("seats[1].bot: weights: not an option a request may give"),
                std::string::npos)
          << e.what();
      EXPECT_EQ(std::string(e.what()).find("root:"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(server_bot_spec("mcts:ms=5,xthreads=1"), "mcts:ms=5,xthreads=1,threads=1");
}

TEST(ServerRoom, LegalShowsWhatFollowsTentativeMovesWithoutDrawing) {
  Table t(two_humans());
  t.hello(1, 0);
  const auto moves = t.a_turn(0);
  t.cmd(1, json{{"type", "legal"}, {"moves", {moves[0]}}});
  const json o = t.last(1, "options");
  EXPECT_EQ(o["complete"], false);
  EXPECT_FALSE(o["options"].empty());
  t.cmd(1, json{{"type", "legal"}, {"moves", moves}});
  EXPECT_EQ(t.last(1, "options")["complete"], true);
  EXPECT_EQ(t.room->game().record().draws.size(), 1u) << "nothing drawn by asking";
}

// ---- the store's contract, on every store ----------------------------------------------------

// PostgreSQL: a database of its own per test in the cluster CARC_TEST_PG names (tests/pg_store.sh
// starts one and runs these cases against it).
using carc::test::pg_exec;
using carc::test::pg_url;

class StoreContract : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "postgresql") {
      db_ = "carc_" + random_hex(6);
      pg_exec(pg_url(), "CREATE DATABASE " + db_);
    } else if (GetParam() == "sqlite") {
      path_ = std::filesystem::temp_directory_path() / ("carc-store-" + random_hex(6) + ".db");
    }
  }
  // A store on this test's database (a second call: a second connection to the same one).
  std::unique_ptr<Store> open() {
    if (GetParam() == "memory") {
      if (!mem_) mem_ = make_memory_store();
      return std::unique_ptr<Store>(new Shared(*mem_));
    }
    if (GetParam() == "postgresql") {
      const std::string base = pg_url();
      return make_pg_store(base.substr(0, base.rfind('/') + 1) + db_);
    }
    return make_sqlite_store(path_.string());
  }
  void TearDown() override {
    if (!db_.empty()) pg_exec(pg_url(), "DROP DATABASE IF EXISTS " + db_ + " WITH (FORCE)");
    if (path_.empty()) return;
    for (const char* ext : {"", "-wal", "-shm"}) std::filesystem::remove(path_.string() + ext);
  }
  // The memory store seen through a second handle (as a second connection would).
  struct Shared final : Store {
    explicit Shared(Store& s) : s_(s) {}
    [[nodiscard]] std::string kind() const override { return s_.kind(); }
    void create(const GameMeta& m, const Append& a) override { s_.create(m, a); }
    std::vector<bool> commit(const std::vector<Append>& b) override { return s_.commit(b); }
    std::optional<GameMeta> game(const std::string& id) override { return s_.game(id); }
    std::vector<Event> events(const std::string& id, std::int64_t since) override { return s_.events(id, since); }
    std::vector<std::string> active() override { return s_.active(); }
    std::vector<GameMeta> list(const std::string& st, int n) override { return s_.list(st, n); }
    std::optional<Job> take_job(const std::string& l, std::int64_t now, std::int64_t ms, JobLane lane) override { return s_.take_job(l, now, ms, lane); }
    std::vector<Job> jobs() override { return s_.jobs(); }
    void release_job(const std::string& g, std::int64_t seq, const std::string& l) override {
      s_.release_job(g, seq, l);
    }
    Store& s_;
  };
  std::filesystem::path path_;
  std::string db_;
  std::unique_ptr<Store> mem_;
};

namespace {
GameMeta meta(const std::string& id, std::int64_t created) { return {id, "base", "{}", "42", created, "active"}; }
Append events(const std::string& id, std::int64_t from, int n) {
  Append a;
  a.game = id;
  for (int i = 0; i < n; ++i) a.events.push_back({from + i, "turn", 0, "c" + std::to_string(from + i), 7, R"({"moves":["pass"]})"});
  return a;
}
}  // namespace

TEST_P(StoreContract, AppendsAreFencedByGameAndSeqAndBatchesCommitEachGameAllOrNothing) {
  auto s = open();
  s->create(meta("a", 1), events("a", 1, 2));
  s->create(meta("b", 2), events("b", 1, 1));
  EXPECT_THROW(s->create(meta("a", 3), events("a", 1, 1)), StoreError);
  // a batch: a good append, a fenced one (seq 2 is taken), one with a gap, one for no game
  const auto ok = s->commit({events("a", 3, 2), events("b", 1, 1), events("b", 3, 1), events("zz", 1, 1)});
  EXPECT_EQ(ok, (std::vector<bool>{true, false, false, false}));
  EXPECT_EQ(s->events("a", 0).size(), 4u);
  EXPECT_EQ(s->events("b", 0).size(), 1u);
  EXPECT_EQ(s->events("a", 2).front().seq, 3);
  EXPECT_EQ(s->events("a", 0)[3], events("a", 4, 1).events[0]);
  // two writers extending the same game from the same seq: exactly one wins
  const auto w1 = s->commit({events("b", 2, 1)});
  const auto w2 = s->commit({events("b", 2, 1)});
  EXPECT_NE(w1[0], w2[0]);
}

TEST_P(StoreContract, StatusJobsAndLeases) {
  auto s = open();
  s->create(meta("a", 1), events("a", 1, 1));
  s->create(meta("b", 2), events("b", 1, 1));
  EXPECT_EQ(s->active(), (std::vector<std::string>{"a", "b"}));
  Append fin = events("a", 2, 1);
  fin.status = "finished";
  Append job = events("b", 2, 1);
  job.job = Job{"b", 2, 1, "greedy", "", 0};
  EXPECT_EQ(s->commit({fin, job}), (std::vector<bool>{true, true}));
  EXPECT_EQ(s->active(), (std::vector<std::string>{"b"}));
  EXPECT_EQ(s->game("a")->status, "finished");
  EXPECT_EQ(s->list("finished", 10).size(), 1u);
  EXPECT_EQ(s->list("", 10).front().id, "b");
  // a lease; taken again only after it ends
  auto j = s->take_job("w1", 100, 50);
  ASSERT_TRUE(j);
  EXPECT_EQ(j->game, "b");
  EXPECT_EQ(j->lease_until, 150);
  EXPECT_FALSE(s->take_job("w2", 140, 50));
  auto again = s->take_job("w2", 151, 50);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->lease, "w2");
  // settled by the commit of the bot's turn
  Append done = events("b", 3, 1);
  done.done_jobs = {2};
  EXPECT_TRUE(s->commit({done})[0]);
  EXPECT_TRUE(s->jobs().empty());
  EXPECT_FALSE(s->take_job("w3", 1000, 50));
  // the fast lane takes only the bots that answer at once, older searching jobs left for the others
  Append hard = events("b", 4, 1);
  hard.job = Job{"b", 4, 0, "hard", "", 0};
  ASSERT_TRUE(s->commit({hard})[0]);
  Append easy = events("a", 3, 1);
  easy.job = Job{"a", 3, 1, "easy", "", 0};
  ASSERT_TRUE(s->commit({easy})[0]);
  auto fast = s->take_job("fast", 2000, 50, JobLane::cheap);
  ASSERT_TRUE(fast);
  EXPECT_EQ(fast->spec, "easy");
  EXPECT_FALSE(s->take_job("fast", 2000, 50, JobLane::cheap));
  auto slow = s->take_job("w4", 2000, 50, JobLane::costly);
  ASSERT_TRUE(slow);
  EXPECT_EQ(slow->spec, "hard");
  EXPECT_FALSE(s->take_job("w4", 2000, 50, JobLane::costly));
}

TEST_P(StoreContract, TwoWritersRacingToExtendAGameNeverBothWin) {
  auto a = open();
  auto b = open();
  a->create(meta("g", 1), events("g", 1, 1));
  for (std::int64_t seq = 2; seq < 42; ++seq) {
    std::vector<bool> ra, rb;
    std::thread ta([&] { ra = a->commit({events("g", seq, 1)}); });
    std::thread tb([&] { rb = b->commit({events("g", seq, 1)}); });
    ta.join();
    tb.join();
    ASSERT_NE(ra[0], rb[0]) << "seq " << seq << ": exactly one writer wins";
  }
  EXPECT_EQ(b->events("g", 0).size(), 41u);
  // and two workers never hold the same job
  Append j;
  j.game = "g";
  j.job = Job{"g", 41, 0, "greedy", "", 0};
  ASSERT_TRUE(a->commit({j})[0]);
  std::optional<Job> ja, jb;
  std::thread ta([&] { ja = a->take_job("A", 10, 1000); });
  std::thread tb([&] { jb = b->take_job("B", 10, 1000); });
  ta.join();
  tb.join();
  EXPECT_NE(ja.has_value(), jb.has_value());
}

TEST_P(StoreContract, AJobGivenBackIsTakenAgainAtOnce) {
  auto s = open();
  s->create(meta("g", 1), events("g", 1, 1));
  Append j;
  j.game = "g";
  j.job = Job{"g", 1, 0, "hard", "", 0};
  ASSERT_TRUE(s->commit({j})[0]);
  ASSERT_TRUE(s->take_job("A", 100, 1000));
  EXPECT_FALSE(s->take_job("B", 200, 1000));
  s->release_job("g", 1, "B");  // not B's lease: nothing
  EXPECT_FALSE(s->take_job("B", 200, 1000));
  s->release_job("g", 1, "A");  // (a drain gives back the job its search was cancelled on)
  const auto again = s->take_job("B", 200, 1000);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->lease, "B");
}

// The database drops the store's connections (as a restart of PostgreSQL does): the next use opens
// them again, counted and logged. (The memory and SQLite stores have no connection to lose.)
TEST_P(StoreContract, ABrokenConnectionIsOpenedAgainOnItsNextUse) {
  auto s = open();
  std::mutex mu;
  std::vector<std::string> said;
  s->set_log([&](const std::string& event, const std::string&) {
    const std::lock_guard lock(mu);
    said.push_back(event);
  });
  s->create(meta("g", 1), events("g", 1, 1));
  s->check();
  EXPECT_TRUE(s->health().up);
  if (GetParam() != "postgresql") return;
  PGconn* admin = PQconnectdb(pg_url().c_str());
  ASSERT_EQ(PQstatus(admin), CONNECTION_OK) << PQerrorMessage(admin);
  auto count = [&](const std::string& sql) {
    PGresult* r = PQexec(admin, sql.c_str());
    const int n = PQresultStatus(r) == PGRES_TUPLES_OK ? std::atoi(PQgetvalue(r, 0, 0)) : -1;
    PQclear(r);
    return n;
  };
  const std::string mine = "FROM pg_stat_activity WHERE datname = '" + db_ + "'";
  EXPECT_EQ(count("SELECT COUNT(pg_terminate_backend(pid)) " + mine), 2);
  for (int i = 0; i < 200 && count("SELECT COUNT(*) " + mine) != 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  PQfinish(admin);
  // the writer breaks under the commit and is opened again for it; the reader likewise
  EXPECT_EQ(s->commit({events("g", 2, 1)}), std::vector<bool>{true});
  EXPECT_EQ(s->events("g", 0).size(), 2u);
  const StoreHealth h = s->health();
  EXPECT_TRUE(h.up);
  EXPECT_EQ(h.lost, 2u);
  EXPECT_EQ(h.reconnects, 2u);
  const std::lock_guard lock(mu);
  EXPECT_EQ(std::count(said.begin(), said.end(), "store_lost"), 2);
  EXPECT_EQ(std::count(said.begin(), said.end(), "store_reconnected"), 2);
}

// PostgreSQL only where a cluster is given (tests/pg_store.sh), so that no case is listed skipped.
std::vector<std::string> store_kinds() {
  std::vector<std::string> k = {"memory", "sqlite"};
  if (!pg_url().empty()) k.push_back("postgresql");
  return k;
}

INSTANTIATE_TEST_SUITE_P(Stores, StoreContract, ::testing::ValuesIn(store_kinds()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

TEST(ServerRoom, AGameInAnSqliteFileSurvivesReopening) {
  const auto path = std::filesystem::temp_directory_path() / ("carc-room-" + random_hex(6) + ".db");
  std::string record;
  {
    Table t(two_humans(), make_sqlite_store(path.string()));
    t.hello(1, 0);
    t.hello(2, 1);
    for (int i = 0; i < 6; ++i) {
      const int p = t.to_move();
      t.cmd(p == 0 ? 1 : 2, play("m" + std::to_string(i), t.room->seq(), t.a_turn(p)));
    }
    record = t.room->record_json();
  }
  auto s = make_sqlite_store(path.string());
  const Room r(*s->game("g1"), s->events("g1", 0));
  EXPECT_EQ(r.record_json(), record);
  for (const char* ext : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + ext);
}

TEST(ServerBots, ABudgetCapsSearchTimeButNotAFixedNumberOfPlayouts) {
  Table t(two_humans());
  const std::string rec = t.room->record_json();
  // a bot of fixed playouts plays the same moves whatever the budget (its strength does not
  // depend on the machine)
  EXPECT_EQ(bot_decisions(rec, 0, "mcts:playouts=60,threads=1", 9, BotLimits{.max_ms = 1, .max_threads = 1}),
            bot_decisions(rec, 0, "mcts:playouts=60,threads=1", 9));
  EXPECT_EQ(bot_decisions(rec, 0, "easy", 9, BotLimits{.max_ms = 1, .max_threads = 1}),
            bot_decisions(rec, 0, "easy", 9));
  // a timed one under a budget still gives a whole legal turn
  const auto moves = bot_decisions(rec, 0, "mcts:ms=60000,threads=2", 9, BotLimits{.max_ms = 5, .max_threads = 1});
  ASSERT_FALSE(moves.empty());
  Game g = Game::replay(record_from_json(rec, "test"));
  for (const auto& m : moves) g.play(parse_notation(g.state(), m));
  EXPECT_THROW(bot_decisions(rec, 1, "greedy", 9), InputError) << "seat 1 does not decide now";
}

// ---- what browsers read besides games (server/web_api) ----------------------------------------

namespace {
// A whole random game of `game` and its record as JSON.
std::string random_record(const std::string& game, std::uint64_t seed) {
  carc::Game g(carc::load_ruleset(game, {}), {{"a", "random"}, {"b", "random"}}, seed);
  carc::Rng rng(seed);
  auto bot = carc::make_bot("random");
  while (!g.over()) {
    carc::MoveList ml;
    carc::legal_moves(g.state(), ml);
    g.play(bot->choose(g.state(), ml, rng));
  }
  return carc::record_to_json(g.record(), g.ruleset());
}
}  // namespace

TEST(WebApi, CatalogListsEveryGameWithItsOptionsAndColours) {
  const auto j = nlohmann::json::parse(carc::server::catalog_json());
  std::vector<std::string> ids;
  for (const auto& g : j.at("games")) ids.push_back(g.at("id"));
  EXPECT_EQ(ids, carc::game_ids());
  EXPECT_EQ(j.at("games")[0].at("options")[0].at("name"), "farmers");
  EXPECT_EQ(j.at("bots").size(), 3u);
  EXPECT_EQ(j.at("seat_colours").size(), static_cast<std::size_t>(carc::kMaxPlayers));
}

TEST(WebApi, TilesCarryTheirPictures) {
  for (const std::string& game : carc::game_ids()) {
    const auto j = nlohmann::json::parse(carc::server::tiles_json(game));
    EXPECT_EQ(j.at("game"), game);
    ASSERT_FALSE(j.at("tiles").empty());
    for (const auto& t : j.at("tiles")) EXPECT_EQ(t.at("svg").get<std::string>().rfind("<svg", 0), 0u) << game << " " << t.at("id");
  }
  EXPECT_THROW(carc::server::tiles_json("chess"), carc::InputError);
}

TEST(WebApi, ReplayGivesTheViewAtEveryTurn) {
  for (const std::string& game : carc::game_ids()) {
    const std::string rec = random_record(game, 7);
    const auto whole = nlohmann::json::parse(carc::server::replay_json(R"({"record":)" + rec + "}"));
    const int steps = whole.at("steps");
    EXPECT_EQ(whole.at("step"), steps);
    EXPECT_TRUE(whole.at("view").at("over").get<bool>()) << game;
    EXPECT_EQ(whole.at("view").at("final_scores"), nlohmann::json::parse(rec).at("final_scores")) << game;
    const auto start = nlohmann::json::parse(carc::server::replay_json(R"({"step":0,"record":)" + rec + "}"));
    const auto one = nlohmann::json::parse(carc::server::replay_json(R"({"step":1,"record":)" + rec + "}"));
    EXPECT_FALSE(start.at("view").at("over").get<bool>());
    EXPECT_EQ(start.at("view").at("decision").at("phase"), "place") << game;
    EXPECT_EQ(one.at("view").at("board").at("tiles").size(), start.at("view").at("board").at("tiles").size() + 1) << game;
  }
}

TEST(WebApi, ReplayRefusesWhatItCannotShow) {
  const std::string rec = random_record("base", 3);
  auto refused = [](const std::string& body, const std::string& says) {
    try {
      carc::server::replay_json(body);
      ADD_FAILURE() << "accepted: " << body.substr(0, 80);
    } catch (const carc::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  refused("not json", "not valid JSON");
  refused("[]", "\"record\"");
  refused(R"({"record":)" + rec + R"(,"step":-1})", "step");
  refused(R"({"record":)" + rec + R"(,"step":100000})", "step");
  refused(R"({"record":)" + rec + R"(,"turn":1})", "unknown key");
  auto j = nlohmann::json::parse(rec);
  j["tiles"] = "/etc/passwd";
  refused(nlohmann::json{{"record", j}}.dump(), "tiles");
  j = nlohmann::json::parse(rec);
  j["moves"][3]["x"] = 90;
  refused(nlohmann::json{{"record", j}, {"step", 5}}.dump(), "move");
}
