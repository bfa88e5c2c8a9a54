// carc_soak: the game server's soak test (docs/server-protocol.md, "Soak test"). Loopback only,
// bounded in moves and minutes.
//
// It starts `carcassonne serve` (or uses --server), creates many games at once (the four games,
// 2-5 seats, scripted people and bots), and plays them through the WebSocket protocol while it
// drops sockets, sends commands twice, reloads whole logs, and SIGKILLs and restarts the server.
// At the end it asserts: no acknowledged move lost, none applied twice, every game's record
// replays to the scores the server states, every client's events equal the server's log. It
// reports moves per second, the move round trip (people's moves, from play to ack), commit batch
// sizes and memory per game.
//
//   carc_soak --bin build/carcassonne --db sqlite:/tmp/soak.db --games 300 --minutes 2 --kills 3
#include <fmt/format.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <chrono>
#include <deque>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <set>
#include <thread>

#include "engine/engine.hpp"
#include "games/games.hpp"
#include "server/http_client.hpp"

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

extern char** environ;

namespace {

struct Options {
  std::string bin, db, server, extra;
  int games = 200, minutes = 2, kills = 3, max_turns = 0;
  unsigned seed = 1;
  double drop = 0.02, dup = 0.02, reload = 0.01;
  bool fresh = false;
};

pid_t g_server = 0;  // the server to stop if the soak fails

[[noreturn]] void die(const std::string& what) {
  std::cerr << "soak: FAIL: " << what << std::endl;
  if (g_server > 0) kill(g_server, SIGKILL);
  std::exit(1);
}

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// ---- the server process --------------------------------------------------------------------

struct ServerProc {
  pid_t pid = 0;
  int port = 0;
  long rss_kb() const {
    std::ifstream in(fmt::format("/proc/{}/status", pid));
    std::string line;
    while (std::getline(in, line))
      if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    return 0;
  }
};

ServerProc start_server(const Options& o, int port) {
  int fds[2];
  if (pipe(fds) != 0) die("pipe");
  std::vector<std::string> args = {o.bin, "serve", "--listen", fmt::format("127.0.0.1:{}", port), "--db", o.db, "--allow-seed", "--quiet"};
  std::istringstream extra(o.extra);
  for (std::string a; extra >> a;) args.push_back(a);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  ServerProc p;
  if (posix_spawn(&p.pid, o.bin.c_str(), &fa, nullptr, argv.data(), environ) != 0) die("cannot start " + o.bin);
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  std::string line;
  char c = 0;
  while (read(fds[0], &c, 1) == 1 && c != '\n') line += c;
  close(fds[0]);
  g_server = p.pid;
  const auto at = line.find("http://127.0.0.1:");
  if (at == std::string::npos) die("the server did not start: " + line);
  p.port = std::stoi(line.substr(at + 17));
  return p;
}

void kill_server(ServerProc& p) {
  kill(p.pid, SIGKILL);
  waitpid(p.pid, nullptr, 0);
}

// ---- scripted clients ----------------------------------------------------------------------

struct Stats {
  long moves_acked = 0, repeats = 0, stale = 0, drops = 0, reloads = 0, dups = 0, reconnects = 0;
  std::vector<double> rtt;  // ms, people's moves (play -> ack), not across a reconnect
};

struct Soak;

// One person's seat: a WebSocket, the events it holds, its command in flight.
struct Seat : std::enable_shared_from_this<Seat> {
  Soak& soak;
  std::string game, token;
  int seat = 0;
  std::mt19937_64 rng;
  std::unique_ptr<websocket::stream<beast::tcp_stream>> ws;
  beast::flat_buffer buf;
  std::deque<std::string> outq;
  bool open = false, connecting = false, over = false, building = false;
  std::map<std::int64_t, json> events;
  std::int64_t seq = 0;
  int to_move = -1;
  struct Pending {
    std::string cid;
    std::int64_t at = 0;
    json moves;
    Clock::time_point sent;
    bool clean = true;  // sent once, no reconnect since
  };
  std::optional<Pending> pending;
  json tentative = json::array();
  std::map<std::string, std::int64_t> acked;
  int n = 0;

  Seat(Soak& s, std::string g, std::string t, int st, std::uint64_t seed) : soak(s), game(std::move(g)), token(std::move(t)), seat(st), rng(seed) {}
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }
  void connect(std::int64_t since);
  void on_open(std::int64_t since);
  void read();
  void send(const json& m);
  void write_next();
  void closed();
  void drop();
  void on_message(const std::string& text);
  void act();
};

struct Soak {
  Options o;
  net::io_context ioc{1};
  int port = 0;
  Stats st;
  std::vector<std::shared_ptr<Seat>> seats;
  bool disrupt = true, stopping = false;
  std::map<std::string, int> human_seats;  // game -> people's seats

  bool all_over() const {
    for (const auto& s : seats)
      if (!s->over) return false;
    return true;
  }
};

void Seat::connect(std::int64_t since) {
  if (connecting || soak.stopping) return;
  connecting = true;
  open = false;
  building = false;
  ws = std::make_unique<websocket::stream<beast::tcp_stream>>(soak.ioc);
  ws->read_message_max(64u << 20);
  auto self = shared_from_this();
  beast::get_lowest_layer(*ws).expires_after(std::chrono::seconds(5));
  const tcp::endpoint ep(net::ip::make_address("127.0.0.1"), static_cast<unsigned short>(soak.port));
  beast::get_lowest_layer(*ws).async_connect(ep, [self, since](beast::error_code ec) {
    if (ec) {
      self->connecting = false;
      auto t = std::make_shared<net::steady_timer>(self->soak.ioc, std::chrono::milliseconds(100));
      t->async_wait([self, t, since](beast::error_code) { self->connect(since); });
      return;
    }
    beast::get_lowest_layer(*self->ws).expires_never();
    beast::error_code ignored;
    beast::get_lowest_layer(*self->ws).socket().set_option(tcp::no_delay(true), ignored);
    self->ws->async_handshake("127.0.0.1", "/ws/" + self->game, [self, since](beast::error_code ec2) {
      self->connecting = false;
      if (ec2) {
        auto t = std::make_shared<net::steady_timer>(self->soak.ioc, std::chrono::milliseconds(100));
        t->async_wait([self, t, since](beast::error_code) { self->connect(since); });
        return;
      }
      self->on_open(since);
    });
  });
}

void Seat::on_open(std::int64_t since) {
  open = true;
  outq.clear();
  read();
  send({{"type", "hello"}, {"token", token}, {"since", since}});
  // a command whose ack was lost: sent again with its cid (applied once, whatever happened)
  if (pending) {
    pending->clean = false;
    send({{"type", "play"}, {"cid", pending->cid}, {"at", pending->at}, {"moves", pending->moves}});
  }
}

void Seat::read() {
  auto self = shared_from_this();
  ws->async_read(buf, [self](beast::error_code ec, std::size_t) {
    if (ec) {
      self->closed();
      return;
    }
    const std::string text = beast::buffers_to_string(self->buf.data());
    self->buf.consume(self->buf.size());
    self->on_message(text);
    if (self->open) self->read();
  });
}

void Seat::send(const json& m) {
  if (!open) return;
  outq.push_back(m.dump());
  if (outq.size() == 1) write_next();
}

void Seat::write_next() {
  auto self = shared_from_this();
  ws->text(true);
  ws->async_write(net::buffer(outq.front()), [self](beast::error_code ec, std::size_t) {
    if (ec) return;  // the read side sees the close
    if (!self->outq.empty()) self->outq.pop_front();
    if (!self->outq.empty() && self->open) self->write_next();
  });
}

void Seat::closed() {
  if (!open) return;
  open = false;
  building = false;
  tentative = json::array();
  ++soak.st.reconnects;
  auto self = shared_from_this();
  auto t = std::make_shared<net::steady_timer>(soak.ioc, std::chrono::milliseconds(50 + static_cast<int>(rng() % 150)));
  t->async_wait([self, t](beast::error_code) { self->connect(self->seq); });
}

void Seat::drop() {
  if (!open) return;
  ++soak.st.drops;
  beast::error_code ec;
  beast::get_lowest_layer(*ws).socket().close(ec);
}

void Seat::on_message(const std::string& text) {
  json m;
  try {
    m = json::parse(text);
  } catch (const std::exception& e) {
    die("a message is not JSON: " + text.substr(0, 200));
  }
  const std::string type = m.value("type", "");
  if (type == "events") {
    for (const json& e : m["events"]) {
      const std::int64_t s = e["seq"];
      if (auto it = events.find(s); it != events.end() && it->second != e) die(fmt::format("game {} seat {}: event {} changed", game, seat, s));
      if (s > seq + 1 && !events.count(s)) die(fmt::format("game {} seat {}: a gap after {} ({})", game, seat, seq, s));
      events[s] = e;
      seq = std::max(seq, s);
      if (e["type"] == "end") over = true;
    }
    to_move = m["to_move"];
    act();
  } else if (type == "options") {
    if (!building) return;
    if (m["complete"].get<bool>()) {
      building = false;
      if (m["moves"].empty()) return;  // not this seat's decision any more
      pending = Pending{fmt::format("{}-{}-{}", game, seat, ++n), seq, m["moves"], Clock::now(), true};
      send({{"type", "play"}, {"cid", pending->cid}, {"at", pending->at}, {"moves", pending->moves}});
      return;
    }
    const json& opts = m["options"];
    if (opts.empty()) die(fmt::format("game {} seat {}: no options and not complete", game, seat));
    const json& o = opts[rng() % opts.size()];
    const json& notes = o.contains("notations") && !o["notations"].empty() ? o["notations"] : json::array({o["notation"]});
    tentative.push_back(notes[rng() % notes.size()]);
    send({{"type", "legal"}, {"moves", tentative}});
  } else if (type == "ack") {
    const std::string cid = m["cid"];
    if (m.value("repeat", false)) ++soak.st.repeats;
    if (auto it = acked.find(cid); it != acked.end() && it->second != m["seq"]) die(fmt::format("cid {}: acked at {} then {}", cid, it->second, m["seq"].dump()));
    acked[cid] = m["seq"];
    if (pending && pending->cid == cid) {
      if (pending->clean) soak.st.rtt.push_back(ms_since(pending->sent));
      ++soak.st.moves_acked;
      // sometimes the same command again: must get the same answer, never be applied twice
      if (soak.disrupt && chance(soak.o.dup)) {
        ++soak.st.dups;
        send({{"type", "play"}, {"cid", pending->cid}, {"at", pending->at}, {"moves", pending->moves}});
      }
      pending.reset();
    }
    act();
  } else if (type == "reject") {
    const std::string code = m["code"];
    if (code != "stale" && code != "not_your_turn" && code != "store" && code != "over")
      die(fmt::format("game {} seat {}: rejected: {}", game, seat, text));
    if (pending && m["cid"] == pending->cid) {
      if (code == "store") {  // not saved: the same command again
        send({{"type", "play"}, {"cid", pending->cid}, {"at", pending->at}, {"moves", pending->moves}});
        return;
      }
      ++soak.st.stale;
      pending.reset();
    }
    act();
  } else if (type == "error") {
    if (m["code"] != "moved") die(fmt::format("game {} seat {}: error: {}", game, seat, text));
  }
}

void Seat::act() {
  if (!open || over || pending || building || to_move != seat || soak.stopping) return;
  if (soak.disrupt && chance(soak.o.drop)) {
    drop();
    return;
  }
  if (soak.disrupt && chance(soak.o.reload)) {  // a reload: the whole log again, which must match
    ++soak.st.reloads;
    send({{"type", "hello"}, {"token", token}, {"since", 0}});
    return;
  }
  building = true;
  tentative = json::array();
  send({{"type", "legal"}, {"moves", tentative}});
}

// ---- the run -------------------------------------------------------------------------------

json stats_of(int port) {
  const auto r = carc::server::http_call(fmt::format("http://127.0.0.1:{}", port), "GET", "/api/stats");
  return json::parse(r.body);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"Soak test of carcassonne serve (loopback only)"};
  app.add_option("--bin", o.bin, "the carcassonne binary (starts and SIGKILLs the server)");
  app.add_option("--db", o.db, "the server's store")->capture_default_str();
  app.add_option("--server-args", o.extra, "more arguments for serve");
  app.add_option("--games", o.games, "games at once")->capture_default_str();
  app.add_option("--minutes", o.minutes, "at most this long")->capture_default_str();
  app.add_option("--max-turns", o.max_turns, "stop after this many turns in all (0: none)");
  app.add_option("--kills", o.kills, "SIGKILL and restart the server this many times")->capture_default_str();
  app.add_option("--seed", o.seed)->capture_default_str();
  app.add_option("--drop", o.drop, "chance a client drops its socket before a turn")->capture_default_str();
  app.add_option("--dup", o.dup, "chance a client sends an acknowledged command again")->capture_default_str();
  app.add_option("--reload", o.reload, "chance a client reloads the whole log before a turn")->capture_default_str();
  app.add_flag("--fresh", o.fresh, "start from an empty SQLite file");
  CLI11_PARSE(app, argc, argv);
  if (o.bin.empty() || o.db.empty()) die("--bin and --db are needed");
  if (o.fresh && o.db.rfind("sqlite:", 0) == 0)
    for (const char* ext : {"", "-wal", "-shm"}) std::remove((o.db.substr(7) + ext).c_str());

  Soak s;
  s.o = o;
  ServerProc server = start_server(o, 0);
  s.port = server.port;
  const std::string base = fmt::format("http://127.0.0.1:{}", s.port);
  const long rss0 = server.rss_kb();
  std::mt19937_64 rng(o.seed);
  const char* kGames[] = {"base", "amazonas", "hunters", "safari"};
  std::vector<std::string> ids;
  const auto t_create = Clock::now();
  for (int g = 0; g < o.games; ++g) {
    const std::string kind = kGames[g % 4];
    const carc::GameDef* gd = carc::find_game(kind);
    const int n = gd->min_players + static_cast<int>(rng() % static_cast<unsigned>(gd->max_players - gd->min_players + 1));
    json seats = json::array();
    int people = 0;
    for (int p = 0; p < n; ++p) {
      const bool bot = p > 0 && rng() % 3 == 0;  // seat 0 always a person
      people += !bot;
      seats.push_back(bot ? json{{"bot", rng() % 2 ? "random" : "greedy"}} : json{{"name", fmt::format("P{}", p + 1)}});
    }
    const json req{{"game", kind}, {"seed", o.seed * 1000003ULL + static_cast<unsigned>(g)}, {"seats", seats}};
    const auto r = carc::server::http_call(base, "POST", "/api/games", req.dump());
    if (r.status != 201) die("create: " + r.body);
    const json c = json::parse(r.body);
    ids.push_back(c["id"]);
    s.human_seats[c["id"]] = people;
    for (const json& seat : c["seats"])
      if (seat.contains("token"))
        s.seats.push_back(std::make_shared<Seat>(s, c["id"].get<std::string>(), seat["token"].get<std::string>(), seat["seat"].get<int>(), rng()));
  }
  const double create_ms = ms_since(t_create);
  for (auto& seat : s.seats) seat->connect(0);

  // the disruptions: SIGKILL and restart at even intervals; the run's bounds
  const auto t0 = Clock::now();
  const auto limit = std::chrono::minutes(o.minutes);
  long rss_loaded = 0;
  std::vector<json> stats_before_kill;
  int kills_done = 0;
  net::steady_timer tick(s.ioc);
  std::function<void()> on_tick = [&] {
    tick.expires_after(std::chrono::milliseconds(100));
    tick.async_wait([&](beast::error_code) {
      const auto el = Clock::now() - t0;
      if (rss_loaded == 0 && el > std::chrono::seconds(2)) rss_loaded = server.rss_kb();
      long turns = s.st.moves_acked;
      const bool bounded = (o.max_turns > 0 && turns >= o.max_turns) || el > limit;
      if (s.all_over() || bounded) {
        s.ioc.stop();
        return;
      }
      const auto every = limit / (o.kills + 1);
      if (kills_done < o.kills && el > every * (kills_done + 1) && el < every * (kills_done + 1) + std::chrono::seconds(1)) {
        stats_before_kill.push_back(stats_of(s.port));
        kill_server(server);
        server = start_server(o, s.port);
        ++kills_done;
      }
      on_tick();
    });
  };
  on_tick();
  s.ioc.run();
  const double run_s = std::chrono::duration<double>(Clock::now() - t0).count();

  // let every connection settle: no disruptions, everyone catches up with the log
  s.disrupt = false;
  s.ioc.restart();
  for (auto& seat : s.seats)
    if (!seat->open) seat->connect(seat->seq);
  net::steady_timer settle(s.ioc, std::chrono::seconds(3));
  settle.async_wait([&](beast::error_code) {
    s.stopping = true;
    s.ioc.stop();
  });
  s.ioc.run();
  stats_before_kill.push_back(stats_of(s.port));

  // ---- the checks ----
  long turns = 0, bot_turns = 0, finished = 0;
  std::map<std::string, std::vector<Seat*>> by_game;
  for (auto& seat : s.seats) by_game[seat->game].push_back(seat.get());
  for (const std::string& id : ids) {
    const auto r = carc::server::http_call(base, "GET", fmt::format("/api/games/{}/events?since=0", id));
    const json log = json::parse(r.body);
    std::map<std::int64_t, json> at;
    for (std::size_t i = 0; i < log.size(); ++i) {
      if (log[i]["seq"] != static_cast<std::int64_t>(i) + 1) die(fmt::format("game {}: the log has a gap at {}", id, i + 1));
      at[log[i]["seq"]] = log[i];
    }
    std::map<int, std::set<std::string>> cids;
    for (const json& e : log) {
      if (e["type"] != "turn") continue;
      ++turns;
      if (e.contains("cid") && std::string(e["cid"]).rfind("job:", 0) == 0) ++bot_turns;
      if (e.contains("cid") && !cids[e["seat"].get<int>()].insert(e["cid"]).second) die(fmt::format("game {}: cid {} applied twice", id, e["cid"].dump()));
    }
    for (Seat* seat : by_game[id]) {
      for (const auto& [cid, seq] : seat->acked) {
        if (!at.count(seq) || at[seq].value("cid", "") != cid || at[seq]["seat"] != seat->seat)
          die(fmt::format("game {} seat {}: acknowledged move {} (seq {}) is not in the log", id, seat->seat, cid, seq));
      }
      if (seat->seq != static_cast<std::int64_t>(log.size())) die(fmt::format("game {} seat {}: the client holds {} events, the server {}", id, seat->seat, seat->seq, log.size()));
      for (const auto& [seq, e] : seat->events)
        if (at[seq] != e) die(fmt::format("game {} seat {}: event {} differs from the server's", id, seat->seat, seq));
    }
    // the record replays; a finished game to the scores its end states
    const auto rec = carc::server::http_call(base, "GET", fmt::format("/api/games/{}/record", id));
    carc::Game g = carc::Game::replay(carc::record_from_json(rec.body, "soak"));
    if (!log.empty() && log.back()["type"] == "end") {
      ++finished;
      if (json(g.record().final_scores) != log.back()["data"]["scores"]) die(fmt::format("game {}: the record replays to other scores", id));
    }
  }
  std::vector<double> rtt = s.st.rtt;
  std::sort(rtt.begin(), rtt.end());
  auto pct = [&](double p) { return rtt.empty() ? 0.0 : rtt[std::min(rtt.size() - 1, static_cast<std::size_t>(p * static_cast<double>(rtt.size())))]; };
  double commits = 0, appends = 0, max_batch = 0;
  for (const json& j : stats_before_kill) {
    commits += j["commits"].get<double>();
    appends += j["appends"].get<double>();
    max_batch = std::max(max_batch, j["max_batch"].get<double>());
  }
  const json out{{"games", o.games},
                 {"finished", finished},
                 {"people", s.seats.size()},
                 {"turns", turns},
                 {"bot_turns", bot_turns},
                 {"seconds", run_s},
                 {"turns_per_second", static_cast<double>(turns) / run_s},
                 {"rtt_ms_p50", pct(0.5)},
                 {"rtt_ms_p99", pct(0.99)},
                 {"rtt_samples", rtt.size()},
                 {"commits", commits},
                 {"mean_batch", commits > 0 ? appends / commits : 0},
                 {"max_batch", max_batch},
                 {"kills", kills_done},
                 {"drops", s.st.drops},
                 {"reconnects", s.st.reconnects},
                 {"dup_sends", s.st.dups},
                 {"repeat_acks", s.st.repeats},
                 {"reloads", s.st.reloads},
                 {"stale", s.st.stale},
                 {"create_ms", create_ms},
                 {"rss_kb_empty", rss0},
                 {"rss_kb_loaded", rss_loaded},
                 {"kb_per_game", rss_loaded > rss0 ? static_cast<double>(rss_loaded - rss0) / o.games : 0.0},
                 {"store", o.db.substr(0, o.db.find(':'))}};
  kill(server.pid, SIGTERM);
  waitpid(server.pid, nullptr, 0);
  std::cout << out.dump(1) << std::endl;
  std::cout << "soak: ok: 0 acknowledged moves lost, 0 applied twice, every record replays, every client's log is the server's" << std::endl;
  return 0;
}
