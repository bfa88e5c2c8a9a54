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
#include <array>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <chrono>
#include <deque>
#include <filesystem>
#include <fstream>
#include <sstream>
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
  double kill_every = 1.5;  // seconds between SIGKILLs
  unsigned seed = 1;
  double drop = 0.02, dup = 0.02, reload = 0.01;
  bool fresh = false;
  int servers = 1;
};

std::set<pid_t> g_procs;  // the servers and nginx, stopped if the soak fails
// the same for a signal handler (ctest's timeout, Ctrl-C): plain slots, no allocation
std::array<std::atomic<pid_t>, 64> g_sig_procs{};
extern "C" void on_fatal_signal(int sig) {
  for (auto& p : g_sig_procs)
    if (const pid_t q = p.load(); q > 0) kill(-q, SIGKILL);
  signal(sig, SIG_DFL);
  raise(sig);
}

[[noreturn]] void die(const std::string& what) {
  std::cerr << "soak: FAIL: " << what << std::endl;
  // each child leads a process group of its own: nginx's workers go with their master (they hold
  // our output open, and a caller reading it through a pipe would wait for them for ever)
  for (const pid_t p : g_procs) kill(-p, SIGKILL);
  std::exit(1);
}

pid_t spawn(const std::vector<std::string>& args, int out_fd) {
  std::vector<std::string> a = args;
  std::vector<char*> argv;
  for (auto& x : a) argv.push_back(x.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (out_fd >= 0) posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
  posix_spawnattr_t at;
  posix_spawnattr_init(&at);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&at, 0);
  pid_t pid = 0;
  if (posix_spawn(&pid, a[0].c_str(), &fa, &at, argv.data(), environ) != 0) die("cannot start " + a[0]);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  g_procs.insert(pid);
  for (auto& slot : g_sig_procs) {
    pid_t none = 0;
    if (slot.compare_exchange_strong(none, pid)) break;
  }
  return pid;
}

// A free loopback port (bound and released).
int free_port() {
  net::io_context io;
  tcp::acceptor a(io, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0));
  return a.local_endpoint().port();
}

// nginx in front of the servers, each game routed to one of them by its id (docs/deploy.md).
pid_t start_nginx(const std::string& dir, int port, const std::vector<int>& backends) {
  std::string ups;
  for (const int b : backends) ups += fmt::format("    server 127.0.0.1:{} max_fails=0;\n", b);
  std::ofstream(dir + "/nginx.conf") << fmt::format(R"(worker_processes 1;
pid {0}/nginx.pid;
error_log {0}/error.log;
events {{ worker_connections 16384; }}
http {{
  access_log off;
  client_body_temp_path {0}/body;
  proxy_temp_path {0}/proxy;
  map $uri $carc_game {{
    ~^/ws/(?<ws_game>[0-9a-f]+)$ $ws_game;
    ~^/api/games/(?<api_game>[0-9a-f]+) $api_game;
    default $request_id;
  }}
  map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
  upstream carc {{
    hash $carc_game consistent;
{1}  }}
  server {{
    listen 127.0.0.1:{2};
    location / {{
      proxy_pass http://carc;
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_set_header Host $host:$server_port;
      proxy_read_timeout 3600s;
      proxy_connect_timeout 2s;
      proxy_next_upstream error timeout non_idempotent;
    }}
  }}
}}
)",
                                                    dir, ups, port);
  const pid_t pid = spawn({"/usr/sbin/nginx", "-p", dir, "-c", dir + "/nginx.conf", "-g", "daemon off;"}, -1);
  for (int i = 0; i < 100; ++i) {  // until it listens
    try {
      net::io_context io;
      tcp::socket sock(io);
      sock.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
      return pid;
    } catch (const std::exception&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  die("nginx did not start: see " + dir + "/error.log");
}

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// ---- the server process --------------------------------------------------------------------

struct ServerProc {
  pid_t pid = 0;
  int port = 0;
  // CPU seconds (user + system) the process has used so far
  double cpu_s() const {
    std::ifstream in(fmt::format("/proc/{}/stat", pid));
    std::string all((std::istreambuf_iterator<char>(in)), {});
    const auto close = all.rfind(')');
    if (close == std::string::npos) return 0;
    std::istringstream rest(all.substr(close + 2));
    std::string f;
    double ticks = 0;
    for (int i = 3; i <= 15 && rest >> f; ++i)
      if (i == 14 || i == 15) ticks += std::stod(f);  // utime, stime
    return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
  }
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
  std::vector<std::string> args = {o.bin, "serve", "--listen", fmt::format("127.0.0.1:{}", port), "--db", o.db, "--allow-seed", "--quiet",
                                   // thousands of clients from one address: the per-address limits are off
                                   "--create-rate", "0", "--max-games-per-ip", "0", "--max-conns-per-ip", "0"};
  std::istringstream extra(o.extra);
  for (std::string a; extra >> a;) args.push_back(a);
  ServerProc p;
  p.pid = spawn(args, fds[1]);
  close(fds[1]);
  std::string line;
  char c = 0;
  while (read(fds[0], &c, 1) == 1 && c != '\n') line += c;
  close(fds[0]);
  const auto at = line.find("http://127.0.0.1:");
  if (at == std::string::npos) die("the server did not start: " + line);
  p.port = std::stoi(line.substr(at + 17));
  return p;
}

double g_server_cpu_s = 0;  // CPU of the server processes already killed

void kill_server(ServerProc& p) {
  g_server_cpu_s += p.cpu_s();
  kill(p.pid, SIGKILL);
  waitpid(p.pid, nullptr, 0);
  g_procs.erase(p.pid);
  for (auto& slot : g_sig_procs) {
    pid_t was = p.pid;
    slot.compare_exchange_strong(was, 0);
  }
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
  // one connection's stream, buffer and send queue: a reconnect makes a new one, and callbacks
  // of an old one find it is no longer the seat's and stop
  struct Link {
    explicit Link(net::io_context& io) : ws(io) {}
    websocket::stream<beast::tcp_stream> ws;
    beast::flat_buffer buf;
    std::deque<std::string> outq;
  };
  std::shared_ptr<Link> link;
  bool open = false, connecting = false, over = false, building = false;
  bool synced = false;  // has had the events answer of its hello on this connection
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
  void read(std::shared_ptr<Link> l);
  void send(const json& m);
  void write_next(std::shared_ptr<Link> l);
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
  bool draining = false;  // no new commands: what is in flight lands and reaches every client
  std::map<std::string, int> human_seats;  // game -> people's seats

  // Nothing can change any more: every seat connected and caught up, nothing in flight, and every
  // game over or waiting for a person (who no longer plays), so no bot job and no commit is due.
  // Only then may the clients' logs be compared with the server's.
  bool quiet() const {
    std::map<std::string, std::vector<const Seat*>> by_game;
    for (const auto& s : seats) by_game[s->game].push_back(s.get());
    for (const auto& [game, ss] : by_game) {
      bool person = false, done = false;
      for (const Seat* s : ss) {
        if (!s->open || !s->synced || s->pending || s->building) return false;
        if (s->seq != ss.front()->seq || s->to_move != ss.front()->to_move) return false;
        person |= s->seat == s->to_move;
        done |= s->over || s->to_move < 0;
      }
      if (!done && !person) return false;  // a bot's turn is still to come
    }
    return true;
  }

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
  synced = false;
  building = false;
  auto l = std::make_shared<Link>(soak.ioc);
  link = l;
  l->ws.read_message_max(64u << 20);
  auto self = shared_from_this();
  auto retry = [self, since] {
    self->connecting = false;
    auto t = std::make_shared<net::steady_timer>(self->soak.ioc, std::chrono::milliseconds(100));
    t->async_wait([self, t, since](beast::error_code) { self->connect(since); });
  };
  beast::get_lowest_layer(l->ws).expires_after(std::chrono::seconds(5));
  const tcp::endpoint ep(net::ip::make_address("127.0.0.1"), static_cast<unsigned short>(soak.port));
  beast::get_lowest_layer(l->ws).async_connect(ep, [self, l, since, retry](beast::error_code ec) {
    if (ec) return retry();
    beast::get_lowest_layer(l->ws).expires_never();
    beast::error_code ignored;
    beast::get_lowest_layer(l->ws).socket().set_option(tcp::no_delay(true), ignored);
    l->ws.async_handshake("127.0.0.1", "/ws/" + self->game, [self, l, since, retry](beast::error_code ec2) {
      if (ec2) return retry();
      self->connecting = false;
      self->on_open(since);
    });
  });
}

void Seat::on_open(std::int64_t since) {
  open = true;
  read(link);
  send({{"type", "hello"}, {"token", token}, {"since", since}});
  // a command whose ack was lost: sent again with its cid (applied once, whatever happened)
  if (pending) {
    pending->clean = false;
    send({{"type", "play"}, {"cid", pending->cid}, {"at", pending->at}, {"moves", pending->moves}});
  }
}

void Seat::read(std::shared_ptr<Link> l) {
  auto self = shared_from_this();
  l->ws.async_read(l->buf, [self, l](beast::error_code ec, std::size_t) {
    if (l != self->link) return;  // an old connection
    if (ec) {
      self->closed();
      return;
    }
    const std::string text = beast::buffers_to_string(l->buf.data());
    l->buf.consume(l->buf.size());
    self->on_message(text);
    if (self->open && l == self->link) self->read(l);
  });
}

void Seat::send(const json& m) {
  if (!open) return;
  link->outq.push_back(m.dump());
  if (link->outq.size() == 1) write_next(link);
}

void Seat::write_next(std::shared_ptr<Link> l) {
  l->ws.text(true);
  l->ws.async_write(net::buffer(l->outq.front()), [self = shared_from_this(), l](beast::error_code ec, std::size_t) {
    if (ec) return;  // the read side sees the close
    l->outq.pop_front();
    if (!l->outq.empty()) self->write_next(l);
  });
}

void Seat::closed() {
  if (!open) return;
  open = false;
  synced = false;
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
  beast::get_lowest_layer(link->ws).socket().close(ec);
}

void Seat::on_message(const std::string& text) {
  json m;
  try {
    m = json::parse(text);
  } catch (const std::exception& e) {
    die(std::string("a message is not JSON (") + e.what() + "): " + text.substr(0, 200) + " ... " + text.substr(text.size() > 300 ? text.size() - 300 : 0));
  }
  const std::string type = m.value("type", "");
  if (type == "events") {
    for (json e : m["events"]) {
      e.erase("words");  // the moves in the connection's words: sent, never logged (docs/server-protocol.md)
      const std::int64_t s = e["seq"];
      if (auto it = events.find(s); it != events.end() && it->second != e) die(fmt::format("game {} seat {}: event {} changed", game, seat, s));
      if (s > seq + 1 && !events.count(s)) die(fmt::format("game {} seat {}: a gap after {} ({})", game, seat, seq, s));
      events[s] = e;
      seq = std::max(seq, s);
      if (e["type"] == "end") over = true;
    }
    to_move = m["to_move"];
    synced = true;
    act();
  } else if (type == "options") {
    if (!building || soak.draining) {
      building = false;
      return;
    }
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
    // another process took the game over, or this one reloaded it: say hello again
    if (m["code"] == "moved" || m["code"] == "no_hello") {
      drop();
      return;
    }
    die(fmt::format("game {} seat {}: error: {}", game, seat, text));
  }
}

void Seat::act() {
  if (!open || over || pending || building || to_move != seat || soak.stopping || soak.draining) return;
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
  for (const int sig : {SIGTERM, SIGINT, SIGHUP}) signal(sig, on_fatal_signal);
  Options o;
  CLI::App app{"Soak test of carcassonne serve (loopback only)"};
  app.add_option("--bin", o.bin, "the carcassonne binary (starts and SIGKILLs the server)");
  app.add_option("--db", o.db, "the server's store")->capture_default_str();
  app.add_option("--server-args", o.extra, "more arguments for serve");
  app.add_option("--games", o.games, "games at once")->capture_default_str();
  app.add_option("--minutes", o.minutes, "at most this long")->capture_default_str();
  app.add_option("--max-turns", o.max_turns, "stop after this many turns in all (0: none)");
  app.add_option("--kills", o.kills, "SIGKILL and restart a server this many times")->capture_default_str();
  app.add_option("--kill-every", o.kill_every, "seconds between SIGKILLs")->capture_default_str();
  app.add_option("--seed", o.seed)->capture_default_str();
  app.add_option("--drop", o.drop, "chance a client drops its socket before a turn")->capture_default_str();
  app.add_option("--dup", o.dup, "chance a client sends an acknowledged command again")->capture_default_str();
  app.add_option("--reload", o.reload, "chance a client reloads the whole log before a turn")->capture_default_str();
  app.add_flag("--fresh", o.fresh, "start from an empty SQLite file");
  app.add_option("--servers", o.servers, "serve processes on the one store; more than one: behind nginx, games routed by id")
      ->capture_default_str()
      ->check(CLI::Range(1, 8));
  CLI11_PARSE(app, argc, argv);
  if (o.bin.empty() || o.db.empty()) die("--bin and --db are needed");
  if (o.fresh && o.db.rfind("sqlite:", 0) == 0)
    for (const char* ext : {"", "-wal", "-shm"}) std::remove((o.db.substr(7) + ext).c_str());

  Soak s;
  s.o = o;
  // several processes: bots' turns by a `carcassonne worker` through nginx, so that each job's
  // result reaches the process that holds its game (docs/deploy.md)
  if (o.servers > 1) o.extra += " --workers 0 --worker-key soak";
  s.o = o;
  std::vector<ServerProc> servers;
  for (int i = 0; i < o.servers; ++i) servers.push_back(start_server(o, 0));
  std::string nginx_dir;
  pid_t nginx = 0, worker = 0;
  if (o.servers > 1) {
    char tmpl[] = "/tmp/carc-nginx.XXXXXX";
    nginx_dir = mkdtemp(tmpl);
    std::vector<int> ports;
    for (const auto& sv : servers) ports.push_back(sv.port);
    s.port = free_port();
    nginx = start_nginx(nginx_dir, s.port, ports);
    worker = spawn({o.bin, "worker", "--server", fmt::format("http://127.0.0.1:{}", s.port), "--key", "soak", "--quiet"}, -1);
  } else {
    s.port = servers[0].port;
  }
  const std::string base = fmt::format("http://127.0.0.1:{}", s.port);
  auto rss = [&] {
    long kb = 0;
    for (const auto& sv : servers) kb += sv.rss_kb();
    return kb;
  };
  const long rss0 = rss();
  std::mt19937_64 rng(o.seed);
  const std::vector<std::string> kGames = carc::game_ids();
  std::vector<std::string> ids;
  const auto t_create = Clock::now();
  for (int g = 0; g < o.games; ++g) {
    const std::string& kind = kGames[static_cast<std::size_t>(g) % kGames.size()];
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
      if (rss_loaded == 0 && el > std::chrono::seconds(2)) rss_loaded = rss();
      long turns = s.st.moves_acked;
      const bool bounded = (o.max_turns > 0 && turns >= o.max_turns) || el > limit;
      if (s.all_over() || bounded) {
        s.ioc.stop();
        return;
      }
      const auto every = std::chrono::duration<double>(o.kill_every);
      if (kills_done < o.kills && el > every * (kills_done + 1)) {
        ServerProc& victim = servers[static_cast<std::size_t>(kills_done) % servers.size()];
        stats_before_kill.push_back(stats_of(victim.port));
        const int port = victim.port;
        kill_server(victim);
        victim = start_server(o, port);
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
  // then no new commands until nothing can change (a check that raced a turn in flight would see
  // a client one commit behind the server)
  s.draining = true;
  const auto t_settle = Clock::now();
  net::steady_timer settle(s.ioc);
  std::function<void()> wait_quiet = [&] {
    settle.expires_after(std::chrono::milliseconds(100));
    settle.async_wait([&](beast::error_code) {
      if (!s.quiet()) {
        if (Clock::now() - t_settle > std::chrono::seconds(120)) die("the games did not settle in 120 s");
        return wait_quiet();
      }
      s.stopping = true;
      s.ioc.stop();
    });
  };
  wait_quiet();
  s.ioc.run();
  for (const auto& sv : servers) stats_before_kill.push_back(stats_of(sv.port));

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
  double server_cpu = g_server_cpu_s;
  for (const auto& sv : servers) server_cpu += sv.cpu_s();
  const json out{{"games", o.games},
                 {"server_cpu_s", server_cpu},
                 {"server_cpu_s_per_1000_turns", turns > 0 ? server_cpu * 1000.0 / static_cast<double>(turns) : 0.0},
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
                 {"store", o.db.substr(0, o.db.find(':'))},
                 {"servers", o.servers}};
  for (auto& sv : servers) {
    kill(sv.pid, SIGTERM);
    waitpid(sv.pid, nullptr, 0);
  }
  if (worker) {
    kill(worker, SIGTERM);
    waitpid(worker, nullptr, 0);
  }
  if (nginx) {
    kill(nginx, SIGQUIT);
    waitpid(nginx, nullptr, 0);
    std::filesystem::remove_all(nginx_dir);
  }
  std::cout << out.dump(1) << std::endl;
  std::cout << "soak: ok: 0 acknowledged moves lost, 0 applied twice, every record replays, every client's log is the server's" << std::endl;
  return 0;
}
