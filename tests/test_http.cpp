// The server's HTTP surface without sockets (server::HttpHarness: the same parser limits, router
// and handlers as `serve`), its input checks, its quotas and the room's cost per spectator.
// The socket-level limits (timeouts, connection caps, descriptors, SIGTERM) are tested over real
// sockets by tests/server_abuse.py.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "core/io.hpp"
#include "core/json_input.hpp"
#include "engine/engine.hpp"
#include "server/room.hpp"
#include "server/server.hpp"
#include "server/store.hpp"
#include "server/web_api.hpp"

using namespace carc;
using namespace carc::server;
using nlohmann::json;

namespace {

struct Answer {
  int status = 0;
  std::string head, body;
  [[nodiscard]] json j() const { return json::parse(body); }
  [[nodiscard]] std::string header(const std::string& name) const {
    const auto at = head.find("\r\n" + name + ": ");
    if (at == std::string::npos) return "";
    const auto from = at + name.size() + 4;
    return head.substr(from, head.find("\r\n", from) - from);
  }
};

Answer parse_answer(const std::string& res) {
  Answer a;
  if (res.size() < 12) return a;
  a.status = std::stoi(res.substr(9, 3));
  const auto blank = res.find("\r\n\r\n");
  a.head = res.substr(0, blank);
  a.body = blank == std::string::npos ? "" : res.substr(blank + 4);
  return a;
}

std::string post(const std::string& target, const std::string& body) {
  return "POST " + target + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}
std::string get(const std::string& target) { return "GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n"; }

struct Site {
  std::filesystem::path dir;
  Site() {
    char tmpl[] = "/tmp/carc-test-http.XXXXXX";
    EXPECT_NE(mkdtemp(tmpl), nullptr);
    dir = tmpl;
    std::filesystem::create_directories(dir / "web" / "assets");
    std::ofstream(dir / "web" / "index.html") << "<!doctype html>CLIENT";
    std::ofstream(dir / "web" / "assets" / "app.js") << "APP";
    std::ofstream(dir / "web" / ".env") << "HIDDEN";
    std::ofstream(dir / "outside.txt") << "OUTSIDE";
  }
  ~Site() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  ServeOptions options() const {
    ServeOptions o;
    o.db = "memory";
    o.web_root = (dir / "web").string();
    o.workers = 0;
    o.quiet = true;
    return o;
  }
};

}  // namespace

TEST(JsonInput, DepthNulAndBytesAreCheckedBeforeParsing) {
  EXPECT_NO_THROW(jin::parse(std::string(32, '[') + std::string(32, ']'), "t"));
  EXPECT_THROW(jin::parse(std::string(33, '[') + std::string(33, ']'), "t"), InputError);
  // 100,000 deep never reaches the parser (nor a recursive destructor or dump)
  try {
    jin::parse(std::string(100000, '[') + std::string(100000, ']'), "t");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("nested deeper than 32"), std::string::npos);
  }
  // brackets inside strings do not count, escaped quotes do not end them
  EXPECT_NO_THROW(jin::parse(R"({"a":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"[[[[[[[[["})", "t"));
  // a NUL is not the end of the input
  try {
    jin::parse(std::string("{}\0garbage", 10), "t");
    FAIL() << "{}\\0garbage was taken as valid";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("NUL"), std::string::npos);
  }
  EXPECT_THROW(jin::parse("\"\xff\"", "t"), InputError);
  EXPECT_THROW(jin::parse("{\"a\":\"\xed\xa0\x80\"}", "t"), InputError);  // a lone surrogate in UTF-8
}

TEST(TextChecks, InvisibleCharactersAreFoundAndEscaped) {
  EXPECT_FALSE(has_invisible_chars("Ann"));
  EXPECT_FALSE(has_invisible_chars("Анна Ștefănescu"));
  for (const char* s : {"a\u202eb", "\u200b", "x\u2066", "\ufeffx", "a\u00adb", "\uffff", "\ufffe", "\U000E0041"}) EXPECT_TRUE(has_invisible_chars(s)) << s;
  EXPECT_EQ(printable("a\u202eb"), "a\\u202eb");
  EXPECT_EQ(utf8_error_at("ab\xffz"), 2u);
  EXPECT_TRUE(valid_utf8("Ș"));
  EXPECT_FALSE(valid_utf8("\xc0\xaf"));  // overlong
}

TEST(WebFile, PathsAreNormalisedAndNeverLeaveTheRoot) {
  EXPECT_EQ(web_file("/"), "index.html");
  EXPECT_EQ(web_file("/."), "index.html");
  EXPECT_EQ(web_file("/a/.."), "index.html");
  EXPECT_EQ(web_file("/a/./.."), "index.html");
  EXPECT_EQ(web_file("/play/abc123"), "index.html");
  EXPECT_EQ(web_file("/assets/app.js"), "assets/app.js");
  EXPECT_EQ(web_file("//assets///app.js"), "assets/app.js");
  EXPECT_EQ(web_file("/x/../assets/./app.js"), "assets/app.js");
  EXPECT_EQ(web_file("/%61ssets/app%2Ejs"), "assets/app.js");
  for (const char* bad : {"/..", "/../x.js", "/a/../../x.js", "/%2e%2e/x.js", "/a%2f..%2f..%2fx.js", "/a%5cb.js", "/a%00.js", "/a%zz.js", "/a%2.js",
                          "/%ff.js", "/\x1b.js", "x.js", ""})
    EXPECT_THROW(web_file(bad), InputError) << bad;
  EXPECT_THROW(web_file("/.git/config"), NotFound);
  EXPECT_THROW(web_file("/assets/.env"), NotFound);
}

TEST(BotPolicy, StrangersGetLevelsAndSpecsWithinTheBudget) {
  const BotPolicy p{false, {2000, 5000, 1}};
  for (const char* ok : {"easy", "normal", "hard", "random", "greedy", "mcts:ms=2000,threads=1", "mcts:playouts=5000,threads=1"})
    EXPECT_NO_THROW(check_bot(ok, p, "seats[1].bot")) << ok;
  for (const char* over : {"mcts:ms=600000,threads=64", "mcts:ms=2001,threads=1", "mcts:ms=100,threads=2", "mcts:playouts=5001,threads=1", "mcts"}) {
    try {
      check_bot(over, p, "seats[1].bot");
      ADD_FAILURE() << over << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("seats[1].bot"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(check_bot("mcts:bogus=1", p, "absence.bot"), InputError);
  EXPECT_THROW(check_bot("nobody", p, "absence.bot"), InputError);
  EXPECT_NO_THROW(check_bot("mcts:ms=600000,threads=64", BotPolicy{true, {2000, 5000, 1}}, "seats[1].bot"));
}

TEST(HttpSurface, EveryMaliciousRequestIsAnsweredAndNoneIsFatal) {
  const Site site;
  HttpHarness h(site.options());
  struct Case {
    std::string raw;
    int status;
    std::string code;
  };
  const std::string deep = "{\"record\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  const std::vector<Case> cases = {
      {post("/api/games", "\xff"), 400, "bad_utf8"},
      {post("/api/replay", "\xff"), 400, "bad_utf8"},
      {post("/api/games", "{\"\xc3("), 400, "bad_utf8"},
      {post("/api/replay", deep), 400, "bad_request"},
      {post("/api/games", "{\"seats\":" + std::string(5000, '[') + std::string(5000, ']') + "}"), 400, "bad_json"},
      {post("/api/replay", std::string("{}\0garbage", 10)), 400, "bad_request"},
      {"GET /api/catalog HTTP/1.1\r\nHost: x\r\nX-A: \xfe\r\n\r\n", 400, "bad_utf8"},
      {get("/\xff.js"), 400, "bad_utf8"},
      {get("/.."), 400, "bad_path"},
      {get("/%2e%2e/outside.txt"), 400, "bad_path"},
      {get("/assets/..%2f..%2foutside.txt"), 400, "bad_path"},
      {get("/.env"), 404, "not_found"},
      {get("/nothing.js"), 404, "not_found"},
      {get("/api/games/%00"), 404, "unknown_game"},
      {post("/api/games", R"({"seats":[{"name":"A"},{"bot":"mcts:ms=600000,threads=64"}]})"), 400, "bad_request"},
      {post("/api/games", R"({"seats":[{"name":"a\u202eb"},{"name":"B"}]})"), 400, "bad_request"},
      {"DELETE /api/catalog HTTP/1.1\r\nHost: x\r\n\r\n", 405, "bad_method"},
  };
  for (const Case& c : cases) {
    const Answer a = parse_answer(h.request(c.raw));
    EXPECT_EQ(a.status, c.status) << c.raw.substr(0, 80) << " -> " << a.body;
    EXPECT_EQ(a.j()["code"], c.code) << a.body;
    EXPECT_FALSE(a.j()["message"].get<std::string>().empty());
    EXPECT_EQ(a.body.find("OUTSIDE"), std::string::npos);
  }
  for (const char* ok : {"/", "/.", "/a/..", "/a/./..", "/play/x1"}) {
    const Answer a = parse_answer(h.request(get(ok)));
    EXPECT_EQ(a.status, 200) << ok;
    EXPECT_NE(a.body.find("CLIENT"), std::string::npos) << ok;
  }
  EXPECT_EQ(parse_answer(h.request(get("/assets/./app.js"))).body, "APP");
  EXPECT_EQ(h.failures(), 0u);
}

// The route table (src/server/net/routes.cpp, Server::kRoutes): each route by its method and path, the
// bounds of its wildcard, and 405 for any other method (GET takes every path: the web files).
TEST(HttpSurface, RoutesAnswerByMethodAndPath) {
  const Site site;
  ServeOptions o = site.options();
  o.worker_key = "k";
  HttpHarness h(o);
  const auto with = [](const std::string& method, const std::string& target) {
    return method + " " + target + " HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n";
  };
  struct Case {
    std::string raw;
    int status;
    std::string code;  // "" for an answer that is not an error
  };
  const std::vector<Case> cases = {
      {get("/api/catalog"), 200, ""},
      {get("/api/games?status=active"), 200, ""},
      {get("/api/stats"), 200, ""},
      {get("/healthz"), 200, ""},
      {get("/api/tiles/base"), 200, ""},
      {get("/api/tiles/"), 404, "unknown_game"},
      {get("/api/tiles/nogame"), 404, "unknown_game"},
      {get("/api/rules/base"), 200, ""},
      {get("/api/rules/base?lang=ro"), 200, ""},
      {get("/api/rules/"), 404, "unknown_game"},
      {get("/api/rules/nogame"), 404, "unknown_game"},
      {get("/api/rules/base?lang=de"), 400, "bad_request"},
      {post("/api/rules/base", "{}"), 405, "bad_method"},
      {get("/api/games/nogame"), 404, "unknown_game"},
      {get("/api/games/nogame/record"), 404, "unknown_game"},
      {get("/api/games/"), 404, "unknown_game"},
      {get("/api/games/nogame/job"), 404, "unknown_game"},
      {post("/api/jobs/take", "{}"), 403, "bad_key"},
      {post("/api/games/abc/job", "{}"), 403, "bad_key"},
      {post("/api/games/a/b/job", "{}"), 403, "bad_key"},
      {post("/api/games//job", "{}"), 405, "bad_method"},
      {post("/api/games/abc", "{}"), 405, "bad_method"},
      {post("/api/catalog", "{}"), 405, "bad_method"},
      {post("/nothing", "{}"), 405, "bad_method"},
      {with("PUT", "/api/games"), 405, "bad_method"},
      {with("DELETE", "/api/games/abc"), 405, "bad_method"},
      {with("PATCH", "/"), 405, "bad_method"},
      {get("/api/replay"), 200, ""},  // the web client's page: GET is every path's
      {get("/api/nothing.json"), 404, "not_found"},
  };
  for (const Case& c : cases) {
    const Answer a = parse_answer(h.request(c.raw));
    EXPECT_EQ(a.status, c.status) << c.raw.substr(0, 60) << " -> " << a.body;
    if (!c.code.empty()) {
      EXPECT_EQ(a.j()["code"], c.code) << c.raw.substr(0, 60) << " -> " << a.body;
    }
  }
  EXPECT_EQ(h.failures(), 0u);
}

// GET /api/rules/GAME: the game's rules page in the language asked for; the client's page for it.
TEST(HttpSurface, RulesPagesComeInTheLanguageAskedFor) {
  const Site site;
  HttpHarness h(site.options());
  const Answer en = parse_answer(h.request(get("/api/rules/amazonas")));
  const Answer ru = parse_answer(h.request(get("/api/rules/amazonas?lang=ru")));
  ASSERT_EQ(en.status, 200) << en.body;
  ASSERT_EQ(ru.status, 200) << ru.body;
  const json e = en.j(), r = ru.j();
  EXPECT_EQ(e["lang"], "en");
  EXPECT_EQ(r["lang"], "ru");
  EXPECT_EQ(e["game"], "amazonas");
  EXPECT_EQ(r["title"], "Каркассон: Амазонка");
  ASSERT_EQ(e["sections"].size(), r["sections"].size());
  ASSERT_FALSE(e["sections"].empty());
  for (std::size_t i = 0; i < e["sections"].size(); ++i) {
    const json& es = e["sections"][i];
    const json& rs = r["sections"][i];
    EXPECT_EQ(es["id"], rs["id"]);
    EXPECT_NE(es["title"], rs["title"]);
    EXPECT_EQ(es["tiles"], rs["tiles"]);
    EXPECT_EQ(es["text"].size(), rs["text"].size());
  }
  const Answer page = parse_answer(h.request(get("/rules/amazonas")));
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("CLIENT"), std::string::npos);
  EXPECT_EQ(h.failures(), 0u);
}

TEST(HttpSurface, CreationIsRateLimitedPerAddressWith429AndRetryAfter) {
  const Site site;
  ServeOptions o = site.options();
  o.create_rate = 1;  // a minute per token: the bucket does not refill during the test
  o.create_burst = 3;
  HttpHarness h(o);
  const std::string create = post("/api/games", R"({"seats":[{"name":"A"},{"name":"B"}]})");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(parse_answer(h.request(create, "10.0.0.1")).status, 201);
  const Answer a = parse_answer(h.request(create, "10.0.0.1"));
  EXPECT_EQ(a.status, 429);
  EXPECT_EQ(a.j()["code"], "rate_limited");
  EXPECT_GE(std::stoi(a.header("Retry-After")), 1);
  EXPECT_EQ(parse_answer(h.request(create, "10.0.0.2")).status, 201) << "another address is not held back";
  const Answer m = parse_answer(h.request(get("/metrics")));
  EXPECT_NE(m.body.find("carc_refused_total{code=\"rate_limited\"} 1"), std::string::npos) << m.body;
  EXPECT_NE(m.body.find("carc_http_responses_total{status=\"429\"} 1"), std::string::npos);
}

TEST(HttpSurface, ActiveGamesAreCappedPerAddressAndInAll) {
  const Site site;
  ServeOptions o = site.options();
  o.create_rate = 0;
  o.max_games_per_ip = 2;
  o.max_games = 3;
  HttpHarness h(o);
  const std::string create = post("/api/games", R"({"seats":[{"name":"A"},{"name":"B"}]})");
  EXPECT_EQ(parse_answer(h.request(create, "10.0.0.1")).status, 201);
  EXPECT_EQ(parse_answer(h.request(create, "10.0.0.1")).status, 201);
  Answer a = parse_answer(h.request(create, "10.0.0.1"));
  EXPECT_EQ(a.status, 503);
  EXPECT_EQ(a.j()["code"], "too_many_games");
  EXPECT_EQ(parse_answer(h.request(create, "10.0.0.2")).status, 201);
  a = parse_answer(h.request(create, "10.0.0.3"));
  EXPECT_EQ(a.status, 503);
  EXPECT_EQ(a.j()["code"], "server_full");
}

TEST(HttpSurface, AProxysForwardedAddressIsTheClientOnlyWhenTheProxyIsTrusted) {
  const Site site;
  ServeOptions o = site.options();
  o.create_rate = 1;
  o.create_burst = 1;
  o.trust_proxy = "127.0.0.1";
  HttpHarness h(o);
  auto create = [&](const std::string& fwd, const std::string& peer = "127.0.0.1") {
    const std::string body = R"({"seats":[{"name":"A"},{"name":"B"}]})";
    return parse_answer(h.request("POST /api/games HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: " + fwd + "\r\nContent-Length: " +
                                      std::to_string(body.size()) + "\r\n\r\n" + body,
                                  peer))
        .status;
  };
  EXPECT_EQ(create("203.0.113.5"), 201);
  EXPECT_EQ(create("203.0.113.5"), 429);
  EXPECT_EQ(create("198.51.100.7, 203.0.113.9"), 201) << "the last address is the one the proxy saw";
  // a peer that is not the proxy cannot choose its address: both count as 10.9.9.9
  EXPECT_EQ(create("192.0.2.1", "10.9.9.9"), 201);
  EXPECT_EQ(create("192.0.2.2", "10.9.9.9"), 429);
}

TEST(HttpSurface, HealthAndMetrics) {
  const Site site;
  HttpHarness h(site.options());
  const Answer hz = parse_answer(h.request(get("/healthz")));
  EXPECT_EQ(hz.status, 200);
  EXPECT_EQ(hz.j()["status"], "ok");
  const Answer m = parse_answer(h.request(get("/metrics")));
  EXPECT_EQ(m.status, 200);
  EXPECT_NE(m.header("Content-Type").find("text/plain"), std::string::npos);
  for (const char* name : {"carc_connections ", "carc_games_loaded ", "carc_commit_seconds_bucket{le=\"0.001\"}", "carc_commit_batch_size_count ",
                           "carc_job_wait_seconds_sum ", "carc_jobs_due ", "carc_handler_failures_total 0", "carc_accept_errors_total "})
    EXPECT_NE(m.body.find(name), std::string::npos) << name;
}

TEST(ServerRoom, SpectatorsJoinAtO1AndOnlySeatChangesAreBroadcast) {
  auto store = make_memory_store();
  Created c = create_game(json{{"game", "base"}, {"seats", {{{"name", "Ann"}}, {{"name", "Bob"}}}}, {"seed", 5}}, "g1", 1000);
  store->create(c.meta, c.first);
  Room room(*store->game("g1"), store->events("g1", 0));
  (void)room.hello(1, 0, 0, false, 1000);
  for (std::uint64_t conn = 10; conn < 510; ++conn) {
    const Step st = room.hello(conn, -1, 0, false, 1000);
    for (const Out& o : st.now) EXPECT_EQ(o.conn, conn) << "a spectator's join is told to nobody else";
  }
  EXPECT_EQ(room.spectators(), 500);
  std::vector<Out> out;
  room.leave(10, out, 2000);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(room.spectators(), 499);
  const Step bob = room.hello(2, 1, 0, false, 2000);
  int broadcasts = 0;
  for (const Out& o : bob.now)
    if (o.conn == 0) {
      ++broadcasts;
      EXPECT_EQ(json::parse(o.text)["spectators"], 499);
    }
  EXPECT_EQ(broadcasts, 1);
}

TEST(Versions, OldTileIdsAndOlderRecordFormatsStillLoad) {
  const auto rs = load_ruleset("safari", {});
  EXPECT_EQ(rs->tiles.canonical("CS2"), "CS2a");
  EXPECT_EQ(rs->tiles.canonical("CS2a"), "CS2a");
  EXPECT_EQ(rs->tiles.canonical("nope"), "nope");
  // a record of the version before every Safari copy carried its letter (from the history corpus)
  const std::string old = read_input_file(std::string(CARC_SOURCE_DATA_DIR) + "/../tests/records-history/16f553f-safari-bare.json", kMaxRecordBytes, "record");
  ASSERT_NE(old.find("\"CS2\""), std::string::npos);
  const Game g = Game::replay(record_from_json(old, "old"));
  const std::string again = record_to_json(g.record(), g.ruleset());
  EXPECT_EQ(again.find("\"CS2\""), std::string::npos) << "written back with today's ids";
  EXPECT_NE(again.find("\"CS2a\""), std::string::npos);
  EXPECT_NE(again.find("carcassonne-record/2"), std::string::npos);
  // a format this version does not know is refused by name
  try {
    (void)record_from_json(R"({"format": "carcassonne-record/3", "players": ["A", "B"]})", "new.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("a newer version wrote it"), std::string::npos) << e.what();
  }
}
