// fuzz_http: the game server's HTTP surface as a stranger on the network reaches it. The input is
// the raw bytes of one request; they go through the same parser limits, router and handlers as
// `carcassonne serve` (server::HttpHarness: no sockets), against the in-memory store, with the
// browser client's files served from a folder the harness makes (--web).
//
// Three substitutions let the fuzzer reach real games and sessions: "@G" becomes the id of a game
// the harness created at start (two people, base), "@S" the secret of a session it made (a guest
// that claimed the account "fuzz_user", password "fuzz password 1"), and "@LEN" the length of the
// body (what follows the first blank line), so that a mutated body keeps a matching
// Content-Length. Password hashes are made at libsodium's smallest cost here, to keep the runs fast.
//
// An input whose first line is "WS GAME [SESSION]" is a WebSocket's instead (GAME "@G" or "lobby",
// SESSION "@S" or none): each further line is one text frame (the game's messages, the chat, the
// lobby's); every message the server sends it must be a JSON object of a known type.
//
// Invariants: every whole request gets exactly one whole HTTP/1.x response (in the request's version); no handler fails
// (no 500, no handler failure counted); an error answer in JSON has a code and a message; every
// JSON body parses; nothing outside the web root and no hidden file is ever served (the harness
// puts marked files beside and inside the root).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_common.hpp"
#include "server/accounts/credentials.hpp"
#include "server/server.hpp"

using carc::fuzz::bug;
using nlohmann::json;

namespace {

constexpr const char* kOutside = "SECRET-OUTSIDE-THE-ROOT";
constexpr const char* kHidden = "SECRET-HIDDEN-FILE";

struct World {
  std::filesystem::path dir;
  std::unique_ptr<carc::server::HttpHarness> harness;
  std::string game, session;
  int uses = 0;

  World() {
    char tmpl[] = "/tmp/carc-fuzz-http.XXXXXX";
    if (!mkdtemp(tmpl)) bug("mkdtemp failed");
    dir = tmpl;
    std::filesystem::create_directories(dir / "web" / "assets");
    auto put = [](const std::filesystem::path& p, const std::string& text) { std::ofstream(p) << text; };
    put(dir / "secret.txt", kOutside);
    put(dir / "web" / ".hidden", kHidden);
    put(dir / "web" / "index.html", "<!doctype html><title>client</title>");
    put(dir / "web" / "app.js", "console.log(1)");
    put(dir / "web" / "assets" / "style.css", "body{}");
    reset();
  }
  ~World() {
    harness.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  // A fresh server every few hundred inputs: the memory store keeps every game created.
  void reset() {
    harness.reset();
    carc::server::ServeOptions o;
    o.db = "memory";
    o.web_root = (dir / "web").string();
    o.workers = 0;
    o.fast_workers = 0;
    o.quiet = true;
    o.allow_seed = true;
    o.create_rate = 0;
    o.max_games = 300;
    o.max_games_per_ip = 0;
    carc::server::accounts::set_hash_params({1, 8192});
    harness = std::make_unique<carc::server::HttpHarness>(o);
    const std::string body = R"({"game":"base","seed":7,"seats":[{"name":"A"},{"name":"B"}]})";
    const std::string res = harness->request("POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
    const auto at = res.find("\"id\":\"");
    if (at == std::string::npos) bug("the harness could not create its game: " + res.substr(0, 300));
    game = res.substr(at + 6, res.find('"', at + 6) - at - 6);
    const std::string me = harness->request("POST /api/session HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}");
    const auto c = me.find("carc_session=");
    if (c == std::string::npos) bug("the harness could not make a session: " + me.substr(0, 300));
    session = me.substr(c + 13, me.find(';', c) - c - 13);
    const std::string claim = R"({"name":"fuzz_user","password":"fuzz password 1"})";
    const std::string claimed = harness->request(
        "POST /api/account/claim HTTP/1.1\r\nHost: x\r\nOrigin: http://x\r\nCookie: carc_session=" + session +
        "\r\nContent-Length: " + std::to_string(claim.size()) + "\r\n\r\n" + claim);
    if (claimed.find(" 200 ") == std::string::npos)
      bug("the harness could not claim its account: " + claimed.substr(0, 300));
    uses = 0;
  }
};

std::string substitute(std::string s, const std::string& game, const std::string& session) {
  for (std::size_t at = s.find("@G"); at != std::string::npos; at = s.find("@G", at + game.size())) s.replace(at, 2, game);
  for (std::size_t at = s.find("@S"); at != std::string::npos; at = s.find("@S", at + session.size()))
    s.replace(at, 2, session);
  const auto blank = s.find("\r\n\r\n");
  const std::string len = std::to_string(blank == std::string::npos ? 0 : s.size() - blank - 4);
  for (std::size_t at = s.find("@LEN"); at != std::string::npos && at < blank; at = s.find("@LEN", at + len.size())) s.replace(at, 4, len);
  return s;
}

std::size_t count(const std::string& s, std::string_view what) {
  std::size_t n = 0;
  for (auto at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

const std::set<std::string> kWsTypes = {"welcome",  "events", "ack",   "reject", "options", "state",
                                        "presence", "pong",   "error", "chat",   "lobby"};

void fuzz_websocket(World& world, const std::string& raw) {
  std::vector<std::string> lines;
  for (std::size_t at = 0; at <= raw.size();) {
    const auto nl = raw.find('\n', at);
    lines.push_back(raw.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  std::string game = "lobby", session;
  {
    const std::string& head = lines[0];
    const auto sp = head.find(' ', 3);
    game = head.substr(3, sp == std::string::npos ? std::string::npos : sp - 3);
    if (sp != std::string::npos) session = head.substr(sp + 1);
  }
  lines.erase(lines.begin());
  if (lines.size() > 12) lines.resize(12);
  const std::uint64_t failures = world.harness->failures();
  std::vector<std::string> out;
  try {
    out = world.harness->websocket(game, session, lines);
  } catch (const std::exception& e) {
    bug(std::string("a WebSocket's frames threw: ") + e.what());
  }
  if (world.harness->failures() != failures) bug("a WebSocket message failed a handler");
  for (const std::string& text : out) {
    json j;
    try {
      j = json::parse(text);
    } catch (const std::exception& e) {
      bug(std::string("a WebSocket message does not parse: ") + e.what() + ": " + text.substr(0, 200));
    }
    if (!j.is_object() || !j.contains("type") || !j["type"].is_string() ||
        !kWsTypes.count(j["type"].get<std::string>()))
      bug("a WebSocket message of no known type: " + text.substr(0, 200));
    if (j["type"] == "error" && j.value("code", "") == "internal") bug("internal: " + text.substr(0, 300));
  }
}

}  // namespace

int carc::fuzz::fuzz_one(const std::uint8_t* data, std::size_t size) {
  static World world;
  if (++world.uses > 400) world.reset();
  const std::string raw = substitute(std::string(reinterpret_cast<const char*>(data), size), world.game, world.session);
  if (raw.rfind("WS ", 0) == 0) {
    fuzz_websocket(world, raw);
    return 0;
  }
  const std::uint64_t failures = world.harness->failures();
  std::string res;
  try {
    res = world.harness->request(raw, "127.0.0.1");
  } catch (const std::exception& e) {
    bug(std::string("the request was not answered: ") + e.what());
  }
  if (world.harness->failures() != failures) bug("a handler failed (counted as a handler failure)");
  if (res.empty()) return 0;  // not a whole request: a connection would wait for the rest
  if ((res.rfind("HTTP/1.1 ", 0) != 0 && res.rfind("HTTP/1.0 ", 0) != 0) || res.size() < 12) bug("not an HTTP/1.x response: " + res.substr(0, 200));
  const int status = std::atoi(res.substr(9, 3).c_str());
  if (status < 100 || status > 599) bug("no status: " + res.substr(0, 200));
  if (status == 500) bug("500: " + res.substr(0, 400));
  // (an error message may quote the request: only more copies than the request holds are a file)
  if (count(res, kOutside) > count(raw, kOutside)) bug("a file outside the web root was served");
  if (count(res, kHidden) > count(raw, kHidden)) bug("a hidden file was served");
  const auto blank = res.find("\r\n\r\n");
  if (blank == std::string::npos) bug("a response without the end of its headers");
  const std::string head = res.substr(0, blank), body = res.substr(blank + 4);
  if (head.find("Content-Type: application/json") != std::string::npos) {
    json j;
    try {
      j = json::parse(body);
    } catch (const std::exception& e) {
      bug(std::string("a JSON answer does not parse: ") + e.what() + ": " + body.substr(0, 200));
    }
    if (status >= 400 && (!j.is_object() || !j.contains("code") || !j["code"].is_string() || !j.contains("message") || !j["message"].is_string() ||
                          j["message"].get<std::string>().empty()))
      bug("an error answer without a code and a message: " + body.substr(0, 300));
  }
  return 0;
}
