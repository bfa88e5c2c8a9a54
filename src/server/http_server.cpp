// The network side of `carcassonne serve`: HTTP and WebSocket with Boost.Beast on one io_context
// thread, which also runs every room (so rooms need no locks); a committer thread doing group
// commits; bot worker threads. The only translation unit that includes Beast for the server.
#include <fmt/format.h>

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <iostream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string_view>
#include <thread>
#include <unordered_map>

#include <sys/resource.h>

#include "ai/review.hpp"
#include "core/core.hpp"
#include "core/i18n.hpp"
#include "core/io.hpp"
#include "core/json_input.hpp"
#include "rules/words.hpp"
#include "server/bot_turn.hpp"
#include "server/crypto.hpp"
#include "server/room.hpp"
#include "server/server.hpp"
#include "server/store.hpp"
#include "server/web_api.hpp"

namespace carc::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using nlohmann::json;

namespace {

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

constexpr std::size_t kMaxBody = 256 * 1024;
constexpr std::size_t kMaxFrame = 64 * 1024;
constexpr std::size_t kMaxHeader = 16 * 1024;

// JSON text for a reply or a log line: a string that is not UTF-8 (nothing the server writes
// should hold one) is written with U+FFFD rather than failing the reply.
std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// Counters for GET /metrics (Prometheus' text format). Touched on the io thread only, except the
// atomics (the worker threads').
struct Histogram {
  std::vector<double> bounds;
  std::vector<std::uint64_t> counts;  // one per bound, and +Inf
  double sum = 0;
  std::uint64_t n = 0;
  explicit Histogram(std::vector<double> b) : bounds(std::move(b)), counts(bounds.size() + 1, 0) {}
  void add(double x) {
    std::size_t i = 0;
    while (i < bounds.size() && x > bounds[i]) ++i;
    ++counts[i];
    sum += x;
    ++n;
  }
  void write(std::string& out, const std::string& name, const std::string& help) const {
    out += fmt::format("# HELP {} {}\n# TYPE {} histogram\n", name, help, name);
    std::uint64_t cum = 0;
    for (std::size_t i = 0; i < bounds.size(); ++i) {
      cum += counts[i];
      out += fmt::format("{}_bucket{{le=\"{}\"}} {}\n", name, bounds[i], cum);
    }
    out += fmt::format("{}_bucket{{le=\"+Inf\"}} {}\n{}_sum {}\n{}_count {}\n", name, n, name, sum, name, n);
  }
};

const char* kPlaceholder = R"html(<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Carcassonne server</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px system-ui,sans-serif;max-width:60em;margin:1em auto;padding:0 1em}
button{margin:2px}pre{background:#f4f4f4;padding:.5em;white-space:pre-wrap}#opts button{display:block}</style></head>
<body><h1>Carcassonne server</h1>
<p>The browser client is not built into this server yet; this test page plays through the same protocol.</p>
<div id="lobby"><button id="vsbot">New base game: you against a bot</button>
<button id="vsfriend">New base game: you, a friend and a bot</button></div>
<div id="links"></div><h2 id="head"></h2><div id="status"></div><div id="opts"></div>
<p><input id="move" placeholder="a move in the engine's notation, e.g. U 1,0 r90" size="50"> <button id="send">Send</button></p>
<pre id="log"></pre>
<script>
const $ = (id) => document.getElementById(id);
const q = new URLSearchParams(location.search);
let ws, seq = 0, seat = -1, view = null, turn = [], game = location.pathname.split('/')[2];
function log(t) { $('log').textContent = t + '\n' + $('log').textContent; }
async function create(seats) {
  const r = await fetch('/api/games', {method: 'POST', body: JSON.stringify({game: 'base', seats})});
  const j = await r.json();
  if (!r.ok) { log(j.message); return; }
  const links = j.seats.filter((s) => s.invite).map((s) => `<a href="${s.invite}">${s.name}</a>`);
  $('links').innerHTML = 'Invite links: ' + links.join(' · ');
  location.href = j.seats[0].invite;
}
$('vsbot').onclick = () => create([{name: 'You'}, {bot: 'greedy'}]);
$('vsfriend').onclick = () => create([{name: 'You'}, {name: 'Friend'}, {bot: 'greedy'}]);
function send(moves) {
  ws.send(JSON.stringify({type: 'play', cid: Math.random().toString(36).slice(2), at: seq, moves}));
}
function show() {
  if (!view) return;
  $('head').textContent = `${view.title}, turn ${view.turn}` + (seat >= 0 ? `, you are seat ${seat}` : ', watching');
  $('status').innerHTML = view.players.map((p) => `${p.name}: ${p.score}`).join(' · ') + `<br>${view.pile.left} tiles left` +
      (view.over ? '<br><b>Game over</b>' : `<br>Decides: ${view.players[view.decision.player].name} (${view.decision.phase}${view.decision.tile ? ' ' + view.decision.tile : ''})`);
  const box = $('opts');
  box.innerHTML = '';
  if (view.over || view.decision.player !== seat) return;
  for (const o of view.decision.options) {
    for (const n of (o.notations && o.notations.length ? o.notations : [o.notation])) {
      const b = document.createElement('button');
      b.textContent = n + (o.kind === 'place' ? '' : ' — ' + o.text);
      b.onclick = () => pick(n);
      box.appendChild(b);
    }
  }
}
function pick(n) { turn.push(n); ws.send(JSON.stringify({type: 'legal', moves: turn})); }
function connect() {
  if (!game) return;
  ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/${game}`);
  ws.onopen = () => ws.send(JSON.stringify({type: 'hello', token: q.get('token') || '', since: seq, views: true}));
  ws.onmessage = (ev) => {
    heard = Date.now();
    const m = JSON.parse(ev.data);
    if (m.type === 'welcome') seat = m.seat;
    else if (m.type === 'events') for (const e of m.events) { seq = e.seq; log(`#${e.seq} ${e.type} ${JSON.stringify(e.data)}`); }
    else if (m.type === 'state') { view = m.view; turn = []; show(); }
    else if (m.type === 'options') {
      // the turn is complete: send it whole; else show what follows the tentative moves
      if (m.complete) send(turn); else { view.decision.options = m.options; show(); }
    } else if (m.type === 'reject') { log('rejected: ' + m.message); turn = []; ws.send('{"type":"view"}'); }
    else if (m.type === 'error') log('error: ' + m.message);
  };
  ws.onclose = () => setTimeout(connect, 1000);
}
// ping every 15 s; nothing heard for 30 s: the connection is dead, open another (hello with the last seq)
let heard = Date.now();
setInterval(() => {
  if (!ws || ws.readyState !== 1) return;
  if (Date.now() - heard > 30000) { ws.close(); return; }
  ws.send('{"type":"ping"}');
}, 15000);
$('send').onclick = () => pick($('move').value);
connect();
</script></body></html>
)html";

std::string content_type(const std::filesystem::path& p) {
  const std::string e = p.extension().string();
  if (e == ".html") return "text/html; charset=utf-8";
  if (e == ".js") return "text/javascript; charset=utf-8";
  if (e == ".css") return "text/css; charset=utf-8";
  if (e == ".svg") return "image/svg+xml";
  if (e == ".json") return "application/json";
  if (e == ".png") return "image/png";
  return "application/octet-stream";
}

class Server;

// A connection's way to receive text: a WebSocket's frames, or an HTTP request's one answer.
using Sink = std::function<void(const std::string&)>;

// ---- WebSocket session ---------------------------------------------------------------------

// A connection's place in the server's counts (total and per client address): given back when
// the last session holding the connection ends.
using Slot = std::shared_ptr<void>;

class WsSession : public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(tcp::socket&& s, Server& srv, std::uint64_t id, std::string game, Slot slot)
      : ws_(std::move(s)), srv_(srv), id_(id), game_(std::move(game)), slot_(std::move(slot)) {}
  void start(http::request<http::string_body> req, std::int64_t idle_ms);
  void send(const std::string& text) {
    if (closed_) return;
    outq_.push_back(text);
    if (outq_.size() > 4096) {  // a client that does not read: drop it, it resyncs by seq
      close();
      return;
    }
    if (outq_.size() == 1) write_next();
  }
  void close() {
    if (closed_) return;
    closed_ = true;
    beast::get_lowest_layer(ws_).cancel();
  }

 private:
  void read_next();
  void write_next() {
    ws_.text(true);
    ws_.async_write(net::buffer(outq_.front()), [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) {
        self->closed_ = true;
        return;
      }
      self->outq_.pop_front();
      if (!self->outq_.empty()) self->write_next();
    });
  }
  void gone();

  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buf_;
  std::deque<std::string> outq_;
  Server& srv_;
  std::uint64_t id_;
  std::string game_;
  Slot slot_;
  bool closed_ = false, left_ = false;
};

// ---- the server ----------------------------------------------------------------------------

struct Host {
  std::unique_ptr<Room> room;
  std::deque<std::function<void()>> waiting;  // what came while a commit was in flight, in order
  std::set<std::uint64_t> greeted;  // said hello (its answer may still wait for a commit)
  std::set<std::uint64_t> conns;    // get the room's broadcasts
  std::unique_ptr<net::steady_timer> timer;
  std::int64_t armed = 0;
  std::int64_t used = 0;  // when last asked for (the sweep unloads games idle for --unload-after)
  std::int64_t retry_at = 0;  // the store refused its last commit: its clock's next try not before
};

struct Stats {
  std::uint64_t commits = 0, appends = 0, events = 0, max_batch = 0, failed = 0;
  std::vector<double> commit_ms;  // the last commits' durations (a ring)
  Histogram commit_seconds{{0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5}};
  Histogram batch_size{{1, 2, 4, 8, 16, 32, 64, 128, 256}};
  Histogram job_wait_seconds{{0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60}};
  std::map<int, std::uint64_t> http_by_status;          // answers by HTTP status
  std::map<std::string, std::uint64_t> refused;         // refused or failed, by code
  std::uint64_t handler_failures = 0, accept_errors = 0, ws_messages = 0, http_requests = 0, unloaded = 0;
};

// A client address's bucket of game creations (a token bucket: `create_burst` tokens, refilled at
// `create_rate` per minute).
struct Bucket {
  double tokens = 0;
  std::int64_t at = 0;
};

class Server {
 public:
  explicit Server(const ServeOptions& o) : o_(o), acceptor_(ioc_) {}

  int run(std::atomic<bool>* stop);
  net::io_context& ioc() { return ioc_; }

  // the WebSocket side
  void ws_message(std::uint64_t conn, const std::string& game, const std::string& text);
  void ws_binary(std::uint64_t conn);
  void ws_message_in(std::uint64_t conn, const std::string& game, const std::string& text,
                     const std::function<void(const std::string&, const std::string&)>& error);
  void ws_gone(std::uint64_t conn, const std::string& game);
  void add_sink(std::uint64_t conn, Sink s) { sinks_[conn] = std::move(s); }
  // A WebSocket's client address (for the log lines of what it is refused).
  void note_client(std::uint64_t conn, const std::string& client) { ws_clients_[conn] = client; }
  std::uint64_t next_conn() { return ++conn_ids_; }
  // One request from `client` (its address); `reply` gets the answer, now or after a commit.
  void handle_http(http::request<http::string_body>&& req, const std::string& client,
                   std::function<void(http::response<http::string_body>&&)> reply);
  using Respond = std::function<void(http::status, const std::string&, const std::string&)>;
  using Problem = std::function<void(http::status, const std::string&, const std::string&)>;
  // The request's route (kRoutes) and its handler, after the checks every request gets.
  void handle_http_in(http::request<http::string_body>& req, const std::string& client,
                      std::function<void(http::response<http::string_body>&&)>& reply, const Respond& respond, const Problem& problem,
                      int& retry_after);
  // A request refused before it reached a handler (a timeout, a bad request line, too large):
  // counted and logged.
  void refused(const std::string& code, const std::string& client, const std::string& message, int status = 0);
  [[nodiscard]] const ServeOptions& options() const { return o_; }
  [[nodiscard]] bool draining() const { return draining_; }

  // The store, the committer and the workers, without a listening socket (HttpHarness).
  void start();
  void stop_threads();
  [[nodiscard]] std::uint64_t handler_failures() const { return stats_.handler_failures; }

 private:
  // One JSON object per line on stderr: {"time", "event", ...fields}.
  void log_event(const std::string& event, json fields) const {
    if (o_.quiet) return;
    fields["time"] = now_ms();
    fields["event"] = event;
    const std::string line = dump(fields) + "\n";
    // one line at a time: the io thread, the committer, the workers and the store all log
    const std::lock_guard lock(log_mu_);
    std::cerr << line << std::flush;
  }
  mutable std::mutex log_mu_;
  void log(const std::string& line) const { log_event("note", {{"message", line}}); }
  // The accept loop: a failed accept (out of descriptors) waits and tries again.
  void accept_later();
  Slot take_slot(const std::string& addr, std::string& why);
  // Game creation quotas for `client`; "" when it may create, else the refusal's code and message
  // (and `retry_s` for a rate limit).
  std::string create_quota(const std::string& client, std::string& message, int& retry_s);
  void game_ended(const std::string& id);
  std::string metrics_text();
  // SIGTERM: stop accepting, let what is queued commit, tell clients to reconnect, stop.
  void drain();
  void drain_poll();
  void finish_drain();
  // Loaded games without connections leave memory (finished ones at once, active ones after
  // --unload-after); their clock deadlines stay in `dormant_` and load them when due.
  void sweep();
  Host* host(const std::string& id);  // loads the room if needed; nullptr if no such game
  // A game just committed to the store: counted, its creator's, its first job woken, hosted.
  void hold_new_game(const std::string& id, const std::string& client, bool job) {
    ++active_games_;
    creator_[id] = client;
    games_by_ip_[client].insert(id);
    if (job) wake_workers();
    (void)host(id);
  }
  void send(Host& h, const std::vector<Out>& out);
  // Runs `f` on the room now, or after the commit in flight.
  void when_free(Host& h, std::function<void()> f);
  // f(), with an exception counted and logged rather than thrown into the io loop.
  void guarded(const std::function<void()>& f);
  void run_step(Host& h, Step&& st);
  void arm(Host& h);
  void commit_loop();
  void worker_loop(int index, bool fast);
  [[nodiscard]] std::string worker_lease(int index, bool fast) const {
    return fmt::format("{}-{}{}", lease_prefix_, fast ? "fast" : "", index);
  }
  // A searching worker's job is in hand from its search's start until the room has its moves.
  void out_of_hand(const std::string& lease);
  // A job this process holds goes back to the store free (the next worker takes it at once).
  void give_back(const Job& j);
  // The drain's deadline or a second signal: the searches under way stop (their moves are not
  // played), none starts any more, and the jobs in hand are given back. Returns them.
  std::vector<Job> abandon_searches();
  // A searching worker's moves for job `j` to its room (on the io thread). A commit the store
  // refused (it is down: PostgreSQL restarting) is sent again a second later, `tries` times at most
  // while the game waits at the job's seq, rather than waiting for the job's lease to end.
  void bot_result(const Job& j, const std::vector<std::string>& moves, int tries);
  // Drops a room whose log another process has extended: its clients are told to reconnect
  // ("moved") and the next access loads it again from the store.
  void reload(const std::string& id);
  // host(id), reloaded first if the store holds events it has not (another process extended the
  // game: several processes share one PostgreSQL).
  Host* fresh(const std::string& id);
  void accept();
  // Several processes on one store: rooms with clients whose log another process extended are
  // reloaded (their clients told to say hello again), so that nobody waits on a stale room.
  void watch_heads();
  bool heads_failing_ = false;

  // The HTTP API: a table of routes, {method, path pattern, handler}, matched in one place
  // (handle_http_in), and a handler per route.
  struct HttpCall;
  struct Route {
    http::verb method;
    std::string_view pattern;
    void (Server::*handler)(HttpCall&);
  };
  static const Route kRoutes[];
  bool worker_allowed(HttpCall& c);
  void http_create_game(HttpCall& c);
  void http_rematch(HttpCall& c);
  void http_list_games(HttpCall& c);
  void http_take_job(HttpCall& c);
  void http_job_result(HttpCall& c);
  void http_health(HttpCall& c);
  void http_metrics(HttpCall& c);
  void http_catalog(HttpCall& c);
  void http_tiles(HttpCall& c);
  void http_rules(HttpCall& c);
  void http_replay(HttpCall& c);
  void http_stats(HttpCall& c);
  void http_game(HttpCall& c);
  void http_web_file(HttpCall& c);
  void http_analysis(HttpCall& c);
  // GET/POST /api/games/ID/analysis: the stored analysis, or the job's progress (202); POST starts one.
  void analysis_answer(HttpCall& c, Host& h, bool start);

  // Analyses of finished games: jobs in memory, searched a slice at a time by the searching
  // workers when no bot's turn is due (docs/server-protocol.md, "Analysis").
  struct AnalysisJob {
    std::string game, client;
    Record record;
    ReviewOptions options;
    std::unique_ptr<ReviewRun> run;  // made by the first slice (a replay)
    std::atomic<int> done{0}, total{0};
    std::atomic<bool> running{false}, saving{false};
    std::atomic<std::int64_t> saved_at{0};  // when `saving` was set (ms since the epoch)
    std::string error;                      // the record could not be reviewed (set before `saving`)
  };
  // A slice of the oldest queued analysis (about 250 ms of search); false if none is queued.
  bool analysis_slice();
  std::mutex amu_;
  std::map<std::string, std::shared_ptr<AnalysisJob>> analyses_;  // by game, queued to stored (under amu_)
  std::deque<std::shared_ptr<AnalysisJob>> aqueue_;               // those waiting for a slice (under amu_)

  ServeOptions o_;
  net::io_context ioc_{1};
  tcp::acceptor acceptor_;
  // (io objects after ioc_: destroyed before it, while its services live)
  std::unique_ptr<net::steady_timer> accept_timer_, sweep_timer_, drain_timer_, heads_timer_;
  int accept_backoff_ms_ = 0;
  int max_conns_ = 0;
  // open connections, in all and per address; shared with the slots that give them back, which
  // may outlive the server (sessions still queued in the io_context when it is destroyed)
  struct Counts {
    int total = 0;
    std::unordered_map<std::string, int> by_ip;
  };
  std::shared_ptr<Counts> counts_ = std::make_shared<Counts>();
  std::unordered_map<std::string, Bucket> buckets_;
  std::unordered_map<std::string, std::set<std::string>> games_by_ip_;  // active games each address created
  std::unordered_map<std::string, std::string> creator_;               // game -> the address that created it
  std::int64_t active_games_ = 0;
  std::map<std::string, std::int64_t> dormant_;  // unloaded active games with a clock deadline
  bool draining_ = false;
  std::int64_t drain_until_ = 0, farewell_ms_ = 300;
  std::atomic<int> busy_workers_{0};
  int fast_lanes_ = 0;  // workers for the cheap bots (set before the workers start)
  std::thread committer_;
  std::vector<std::thread> workers_;
  std::unique_ptr<Store> store_;
  std::map<std::string, std::unique_ptr<Host>> hosts_;
  std::map<std::uint64_t, Sink> sinks_;
  std::unordered_map<std::uint64_t, std::string> ws_clients_;
  std::uint64_t conn_ids_ = 0;
  Stats stats_;
  // group commit
  std::mutex cmu_;
  std::condition_variable ccv_;
  std::vector<Append> cq_;  // rooms' appends (each with events) and settled jobs (none)
  bool cstop_ = false;
  bool committing_ = false;  // a batch is in the store's hands
  // workers
  std::condition_variable wcv_;
  std::mutex wmu_;
  bool wstop_ = false;
  std::uint64_t wake_ = 0;  // bumped (under wmu_) when jobs may be due: idle workers look again
  bool abandon_ = false;    // (under wmu_) the drain is past its deadline: no search starts
  std::atomic<bool> cancel_searches_{false};  // stops the searches under way (set with abandon_)
  std::map<std::string, Job> in_hand_;        // (under wmu_) by worker lease: searched, or moves on the way
  void wake_workers() {
    {
      const std::lock_guard lock(wmu_);
      ++wake_;
    }
    wcv_.notify_all();
  }
  std::string lease_prefix_ = "srv-" + random_hex(6);
};

void WsSession::start(http::request<http::string_body> req, std::int64_t idle_ms) {
  websocket::stream_base::timeout t{};
  t.handshake_timeout = std::chrono::seconds(10);
  t.idle_timeout = std::chrono::milliseconds(idle_ms);
  t.keep_alive_pings = false;
  ws_.set_option(t);
  ws_.read_message_max(kMaxFrame);
  ws_.async_accept(req, [self = shared_from_this()](beast::error_code ec) {
    if (ec) return self->gone();  // (forgets the connection's address)
    self->srv_.add_sink(self->id_, [w = std::weak_ptr<WsSession>(self)](const std::string& text) {
      if (auto s = w.lock()) s->send(text);
    });
    self->read_next();
  });
}

void WsSession::read_next() {
  ws_.async_read(buf_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
    if (ec) {
      self->gone();
      return;
    }
    const std::string text = beast::buffers_to_string(self->buf_.data());
    self->buf_.consume(self->buf_.size());
    // text frames are UTF-8 (Beast checks them); a binary frame is answered, not read as text
    if (!self->ws_.got_text()) self->srv_.ws_binary(self->id_);
    else self->srv_.ws_message(self->id_, self->game_, text);
    if (!self->closed_) self->read_next();
    else self->gone();
  });
}

void WsSession::gone() {
  closed_ = true;
  if (left_) return;
  left_ = true;
  srv_.ws_gone(id_, game_);
}

// ---- HTTP session --------------------------------------------------------------------------

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& s, Server& srv, std::string client, Slot slot)
      : stream_(std::move(s)), timer_(stream_.get_executor()), srv_(srv), client_(std::move(client)), slot_(std::move(slot)) {}
  void start() { read_next(true); }

 private:
  // Reads one request: its line and headers within --header-timeout-ms (a keep-alive connection
  // waits --keepalive-ms for the next one), then its body within --body-timeout-ms. A request too
  // slow, too large or malformed is answered (408, 413, 431, 400) and the connection closed.
  void read_next(bool first) {
    parser_.emplace();
    parser_->header_limit(kMaxHeader);
    parser_->body_limit(kMaxBody);
    const auto& o = srv_.options();
    arm(first ? o.header_timeout_ms : o.keepalive_ms, first ? "header_timeout" : "idle");
    http::async_read_header(stream_, buf_, *parser_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->read_failed(ec);
      if (self->parser_->is_done()) return self->dispatch();
      self->arm(self->srv_.options().body_timeout_ms, "body_timeout");
      http::async_read(self->stream_, self->buf_, *self->parser_, [self](beast::error_code ec2, std::size_t) {
        if (ec2) return self->read_failed(ec2);
        self->dispatch();
      });
    });
  }
  // A timer of ours rather than the stream's: on expiry the read is cancelled and the client told.
  void arm(std::int64_t ms, const char* why) {
    why_ = why;
    expired_ = false;
    timer_.expires_after(std::chrono::milliseconds(ms));
    timer_.async_wait([w = weak_from_this()](beast::error_code ec) {
      auto self = w.lock();
      if (ec || !self) return;
      self->expired_ = true;
      beast::error_code ignored;
      self->stream_.socket().cancel(ignored);
    });
  }
  void read_failed(beast::error_code ec) {
    timer_.cancel();
    if (expired_) {
      // idle between requests: a plain close; a request that stalled: 408
      if (why_ == std::string("idle") && !parser_->got_some()) return close();
      srv_.refused(why_, client_, fmt::format("the request did not arrive in time ({})", why_), 408);
      return answer(http::status::request_timeout, why_, "the request did not arrive in time: the connection is closed");
    }
    if (ec == http::error::end_of_stream || ec == net::error::eof || ec == net::error::connection_reset || ec == net::error::operation_aborted)
      return close();
    if (ec == http::error::body_limit) {
      srv_.refused("too_large", client_, "request body too large", 413);
      return answer(http::status::payload_too_large, "too_large", fmt::format("a request body is at most {} bytes", kMaxBody));
    }
    if (ec == http::error::header_limit) {
      srv_.refused("header_too_large", client_, "request headers too large", 431);
      return answer(http::status::request_header_fields_too_large, "header_too_large", fmt::format("request headers are at most {} bytes", kMaxHeader));
    }
    srv_.refused("bad_http", client_, ec.message(), 400);
    answer(http::status::bad_request, "bad_http", "not an HTTP request this server reads: " + ec.message());
  }
  void answer(http::status st, const std::string& code, const std::string& msg) {
    http::response<http::string_body> r{st, 11};
    r.set(http::field::server, "carcassonne");
    r.set(http::field::content_type, "application/json");
    r.body() = dump(json{{"code", code}, {"message", msg}});
    r.prepare_payload();
    r.keep_alive(false);
    write(std::move(r), true);
  }
  void dispatch() {
    timer_.cancel();
    auto req = parser_->release();
    if (websocket::is_upgrade(req)) {
      if (srv_.draining()) return answer(http::status::service_unavailable, "restarting", "the server is restarting: connect again");
      const std::string target(req.target());
      const std::string prefix = "/ws/";
      std::string game = target.rfind(prefix, 0) == 0 ? target.substr(prefix.size()) : "";
      if (const auto q = game.find('?'); q != std::string::npos) game.resize(q);
      stream_.expires_never();
      const std::uint64_t id = srv_.next_conn();
      srv_.note_client(id, client_);
      std::make_shared<WsSession>(stream_.release_socket(), srv_, id, game, slot_)->start(std::move(req), srv_.options().idle_ms);
      return;
    }
    const bool keep = req.keep_alive() && !srv_.draining();
    srv_.handle_http(std::move(req), client_, [self = shared_from_this(), keep](http::response<http::string_body>&& r) {
      r.keep_alive(keep);
      self->write(std::move(r), !keep);
    });
  }
  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
  }
  void write(http::response<http::string_body>&& r, bool close_after) {
    auto res = std::make_shared<http::response<http::string_body>>(std::move(r));
    stream_.expires_after(std::chrono::seconds(30));  // a client that does not read its answer
    http::async_write(stream_, *res, [self = shared_from_this(), res, close_after](beast::error_code ec, std::size_t) {
      self->stream_.expires_never();
      if (ec || close_after) {
        beast::error_code ignored;
        self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        return;
      }
      self->read_next(false);
    });
  }

  beast::tcp_stream stream_;
  net::steady_timer timer_;
  beast::flat_buffer buf_;
  std::optional<http::request_parser<http::string_body>> parser_;
  Server& srv_;
  std::string client_;
  Slot slot_;
  const char* why_ = "";
  bool expired_ = false;
};

// ---- rooms ---------------------------------------------------------------------------------

Host* Server::host(const std::string& id) {
  if (const auto it = hosts_.find(id); it != hosts_.end()) {
    it->second->used = now_ms();
    return it->second.get();
  }
  if (id.empty() || id.size() > 40 || has_control_chars(id)) return nullptr;
  const auto meta = store_->game(id);
  if (!meta) return nullptr;
  auto h = std::make_unique<Host>();
  h->room = std::make_unique<Room>(*meta, store_->events(id, 0));
  h->timer = std::make_unique<net::steady_timer>(ioc_);
  h->used = now_ms();
  dormant_.erase(id);
  Host* p = h.get();
  hosts_[id] = std::move(h);
  arm(*p);
  return p;
}

void Server::send(Host& h, const std::vector<Out>& out) {
  for (const Out& o : out) {
    if (o.conn != 0) {
      if (const auto it = sinks_.find(o.conn); it != sinks_.end()) it->second(o.text);
      continue;
    }
    for (const std::uint64_t c : h.conns)
      if (const auto it = sinks_.find(c); it != sinks_.end()) it->second(o.text);
  }
}

void Server::when_free(Host& h, std::function<void()> f) {
  if (h.room->busy() || !h.waiting.empty()) {
    h.waiting.push_back(std::move(f));
    return;
  }
  guarded(f);
}

void Server::guarded(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    ++stats_.handler_failures;
    log_event("handler_failed", {{"error", printable(e.what())}});
  }
}

void Server::run_step(Host& h, Step&& st) {
  send(h, st.now);
  if (st.commit) {
    const std::lock_guard lock(cmu_);
    cq_.push_back(std::move(*st.commit));
    ccv_.notify_one();
  }
  arm(h);
}

void Server::arm(Host& h) {
  std::int64_t d = h.room->deadline();
  if (d != 0 && d < h.retry_at) d = h.retry_at;  // (a timeout the store refused: again in a second)
  if (d == h.armed) return;
  h.armed = d;
  h.timer->cancel();
  if (d == 0) return;
  h.timer->expires_after(std::chrono::milliseconds(std::max<std::int64_t>(d - now_ms(), 0) + 5));
  const std::string id = h.room->id();
  h.timer->async_wait([this, id](beast::error_code ec) {
    if (ec) return;
    Host* hp = host(id);
    if (!hp) return;
    hp->armed = 0;
    when_free(*hp, [this, hp] { run_step(*hp, hp->room->tick(now_ms())); });
    arm(*hp);
  });
}

void Server::ws_binary(std::uint64_t conn) {
  ++stats_.refused["binary_frame"];
  if (const auto it = sinks_.find(conn); it != sinks_.end())
    it->second(dump(json{{"type", "error"}, {"code", "bad_json"}, {"message", "message: a binary frame; messages are JSON text frames"}}));
}

void Server::ws_message(std::uint64_t conn, const std::string& game, const std::string& text) {
  ++stats_.ws_messages;
  auto error = [&](const std::string& code, const std::string& msg) {
    ++stats_.refused[code];
    const auto cl = ws_clients_.find(conn);
    log_event("refused", {{"client", cl == ws_clients_.end() ? std::string("?") : cl->second}, {"conn", conn}, {"game", printable(game.substr(0, 64))},
                          {"code", code}, {"message", printable(msg.substr(0, 300))}});
    if (const auto it = sinks_.find(conn); it != sinks_.end()) it->second(dump(json{{"type", "error"}, {"code", code}, {"message", msg}}));
  };
  try {
    ws_message_in(conn, game, text, error);
  } catch (const std::exception& e) {
    ++stats_.handler_failures;
    log_event("handler_failed", {{"conn", conn}, {"game", printable(game)}, {"error", printable(e.what())}});
    error("internal", "the server failed on this message; it is not applied");
  }
}

void Server::ws_message_in(std::uint64_t conn, const std::string& game, const std::string& text,
                           const std::function<void(const std::string&, const std::string&)>& error) {
  Host* h = nullptr;
  try {
    h = text.find("\"hello\"") != std::string::npos ? fresh(game) : host(game);  // a hello sees the latest log
  } catch (const StoreError&) {
    // the store does not answer (PostgreSQL restarting): not "no such game"; the client tries again
    error("store", "the store does not answer now: say hello again in a few seconds");
    return;
  } catch (const std::exception& e) {
    log_event("load_failed", {{"game", printable(game)}, {"error", printable(e.what())}});
  }
  if (!h) {
    error("unknown_game", fmt::format("no game \"{}\"", printable(game)));
    return;
  }
  json msg;
  try {
    msg = jin::parse(text, "message");
    if (!msg.is_object()) throw InputError("message: expected a JSON object");
  } catch (const std::exception& e) {
    error("bad_json", e.what());
    return;
  }
  const json* type = jin::opt(msg, "type");
  if (type && *type == "ping") {
    if (const auto it = sinks_.find(conn); it != sinks_.end()) it->second(json{{"type", "pong"}, {"time", now_ms()}}.dump());
    return;
  }
  if (type && *type == "hello") {
    std::string token;
    std::int64_t since = 0;
    bool views = false;
    i18n::Lang lang = i18n::Lang::En;
    try {
      if (const json* l = jin::opt(msg, "lang")) {
        const std::string name = jin::string(*l, "message", "lang", 40);
        const auto parsed = i18n::parse_lang(name);
        if (!parsed)
          throw InputError(fmt::format("message: lang: \"{}\" is not a language (en, ru, ro)", printable(name)));
        lang = *parsed;
      }
      if (const json* t = jin::opt(msg, "token")) token = jin::string(*t, "message", "token", 64);
      if (const json* s = jin::opt(msg, "since")) since = jin::integer(*s, 0, std::int64_t{1} << 50, "message", "since");
      if (const json* v = jin::opt(msg, "views")) views = jin::boolean(*v, "message", "views");
    } catch (const InputError& e) {
      error("bad_message", e.what());
      return;
    }
    const int seat = h->room->seat_of_token(token);
    if (!token.empty() && seat < 0) {
      error("bad_token", "this invite token opens no seat of the game");
      return;
    }
    if (seat < 0 && o_.max_spectators > 0 && !h->greeted.count(conn) && h->room->spectators() >= o_.max_spectators) {
      error("full", fmt::format("this game has its {} spectators already", o_.max_spectators));
      return;
    }
    // broadcasts reach the connection only from its hello's answer on, so that it never sees an
    // event before the ones it asked for
    h->greeted.insert(conn);
    when_free(*h, [this, h, conn, seat, since, views, lang] {
      if (!h->greeted.count(conn)) return;  // gone meanwhile
      h->conns.insert(conn);
      run_step(*h, h->room->hello(conn, seat, since, views, now_ms(), lang));
    });
    return;
  }
  if (!h->greeted.count(conn)) {
    error("no_hello", "say hello first (with your seat's token, or none to watch)");
    return;
  }
  when_free(*h, [this, h, conn, msg] { run_step(*h, h->room->command(conn, msg, now_ms())); });
}

void Server::ws_gone(std::uint64_t conn, const std::string& game) {
  sinks_.erase(conn);
  ws_clients_.erase(conn);
  const auto it = hosts_.find(game);
  if (it == hosts_.end()) return;
  Host& h = *it->second;
  h.greeted.erase(conn);
  if (!h.conns.erase(conn)) return;
  std::vector<Out> out;
  h.room->leave(conn, out, now_ms());
  send(h, out);
  // a finished game nobody watches leaves memory (it loads again from the store when asked for)
  if (h.room->over() && h.conns.empty() && h.greeted.empty() && !h.room->busy() && h.waiting.empty()) {
    h.timer->cancel();
    hosts_.erase(it);
    return;
  }
  arm(h);
}

Host* Server::fresh(const std::string& id) {
  Host* h = host(id);
  bool extended = false;
  try {
    extended = h && !h->room->busy() && h->waiting.empty() && !store_->events(id, h->room->seq()).empty();
  } catch (const StoreError&) {
    // the store does not answer (PostgreSQL restarting): the room in memory is the game as this
    // process committed it; its clients see it, and their commands are refused until it is back
  }
  if (extended) {
    reload(id);
    h = host(id);
  }
  return h;
}

void Server::reload(const std::string& id) {
  const auto it = hosts_.find(id);
  if (it == hosts_.end()) return;
  for (const std::uint64_t c : it->second->greeted)
    if (const auto sk = sinks_.find(c); sk != sinks_.end())
      sk->second(json{{"type", "error"}, {"code", "moved"}, {"message", "the game went on elsewhere: say hello again"}}.dump());
  for (auto& f : it->second->waiting) (void)f;  // dropped: their clients resend after the hello
  hosts_.erase(it);
}

void Server::watch_heads() {
  heads_timer_->expires_after(std::chrono::milliseconds(300));
  heads_timer_->async_wait([this](beast::error_code ec) {
    if (ec) return;
    std::vector<std::string> ids;
    for (const auto& [id, h] : hosts_)
      if (!h->conns.empty() && !h->room->busy() && h->waiting.empty() && !h->room->over()) ids.push_back(id);
    try {
      if (!ids.empty())
        for (const auto& [id, seq] : store_->heads(ids)) {
          const auto it = hosts_.find(id);
          if (it != hosts_.end() && !it->second->room->busy() && seq > it->second->room->seq()) reload(id);
        }
      heads_failing_ = false;
    } catch (const std::exception& e) {
      if (!heads_failing_) log(fmt::format("heads: {}", e.what()));  // once per outage, not every 300 ms
      heads_failing_ = true;
    }
    watch_heads();
  });
}

// ---- group commit --------------------------------------------------------------------------

void Server::commit_loop() {
  for (;;) {
    std::vector<Append> batch;
    {
      std::unique_lock lock(cmu_);
      ccv_.wait(lock, [&] { return cstop_ || !cq_.empty(); });
      if (cq_.empty() && cstop_) return;
      batch.swap(cq_);
      committing_ = true;
    }
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<bool> ok;
    std::string why;
    try {
      ok = store_->commit(batch);
    } catch (const std::exception& e) {
      why = e.what();
      ok.assign(batch.size(), false);
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    net::post(ioc_, [this, batch = std::move(batch), ok = std::move(ok), why, ms]() mutable {
      {
        const std::lock_guard lock(cmu_);
        committing_ = false;
      }
      ++stats_.commits;
      stats_.appends += batch.size();
      stats_.max_batch = std::max<std::uint64_t>(stats_.max_batch, batch.size());
      if (stats_.commit_ms.size() >= 4096) stats_.commit_ms.erase(stats_.commit_ms.begin(), stats_.commit_ms.begin() + 2048);
      stats_.commit_ms.push_back(ms);
      stats_.commit_seconds.add(ms / 1000.0);
      stats_.batch_size.add(static_cast<double>(batch.size()));
      if (!why.empty()) log_event("commit_failed", {{"appends", batch.size()}, {"error", printable(why)}});
      bool jobs = false;
      for (std::size_t i = 0; i < batch.size(); ++i) {
        stats_.events += batch[i].events.size();
        jobs |= ok[i] && batch[i].job.has_value();
        if (ok[i] && !batch[i].status.empty() && batch[i].status != "active") game_ended(batch[i].game);
        if (batch[i].events.empty()) continue;  // a job settled aside (a room's commit always has events)
        const auto it = hosts_.find(batch[i].game);
        if (it == hosts_.end()) continue;
        Host& h = *it->second;
        std::vector<Out> out;
        if (ok[i]) {
          h.retry_at = 0;
          h.room->committed(out);
          send(h, out);
        } else {
          ++stats_.failed;
          h.room->failed(why.empty() ? "another server extended this game" : why, out);
          send(h, out);
          if (!why.empty()) h.retry_at = now_ms() + 1000;
          if (why.empty()) {  // fenced: another process extended the game; reload its log
            log(fmt::format("game {}: fenced by another writer; reloading", batch[i].game));
            reload(batch[i].game);
            continue;
          }
        }
        // what waited for this commit, in order, until the room is busy again
        while (!h.room->busy() && !h.waiting.empty()) {
          auto f = std::move(h.waiting.front());
          h.waiting.pop_front();
          guarded(f);
        }
        arm(h);
      }
      if (jobs) wake_workers();
    });
  }
}

// ---- bot workers inside the server ---------------------------------------------------------

void Server::worker_loop(int index, bool fast) {
  const std::string lease = worker_lease(index, fast);
  bool failing = false;  // the store failed the last take (it is down): logged once
  for (;;) {
    std::uint64_t seen = 0;  // wake_ before looking for a job: a commit after it wakes us
    {
      std::unique_lock lock(wmu_);
      if (wstop_) return;
      seen = wake_;
    }
    std::optional<Job> job;
    try {
      // with a fast lane, the searching workers leave the cheap bots to it: an all-cheap load is
      // played by one thread, as without the lane
      job = store_->take_job(lease, now_ms(), o_.lease_ms, fast ? JobLane::cheap : fast_lanes_ > 0 ? JobLane::costly : JobLane::any);
      failing = false;
    } catch (const std::exception& e) {
      if (!failing) log_event("worker_failed", {{"error", printable(e.what())}});  // once, not every 200 ms
      failing = true;
    }
    if (!job && !fast && analysis_slice()) continue;  // no bot's turn is due: a slice of an analysis
    if (!job) {
      // wait for a commit that makes a job due (or 200 ms: jobs of other processes, leases ending)
      std::unique_lock lock(wmu_);
      wcv_.wait_for(lock, std::chrono::milliseconds(200), [&] { return wstop_ || wake_ != seen; });
      continue;
    }
    // the position: a copy of the room's game (on the io thread). A room another process has
    // extended is reloaded from the store first; a job the game has moved past is settled.
    // (shared: a drain may end this thread's wait before the io thread answers)
    auto game = std::make_shared<std::optional<Game>>();
    for (int tries = 0; tries < 50 && !*game; ++tries) {
      auto got = std::make_shared<std::promise<int>>();  // 0 got it, 1 busy: again, 2 stale
      auto fut = got->get_future();
      net::post(ioc_, [this, j = *job, got, game] {
        try {
          Host* h = fresh(j.game);
          if (!h || (!h->room->busy() && h->room->seq() > j.seq)) {
            Append settle;  // the game went on without this job
            settle.game = j.game;
            settle.done_jobs = {j.seq};
            const std::lock_guard lock(cmu_);
            cq_.push_back(std::move(settle));
            ccv_.notify_one();
            got->set_value(2);
          } else if (h->room->busy() || h->room->seq() != j.seq) {
            got->set_value(1);
          } else {
            game->emplace(h->room->game());
            if (!h->room->log().empty())
              stats_.job_wait_seconds.add(static_cast<double>(now_ms() - h->room->log().back().time) / 1000.0);
            got->set_value(0);
          }
        } catch (const std::exception&) {
          got->set_value(2);
        }
      });
      bool stop = false;
      while (!stop && fut.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready) {
        const std::lock_guard lock(wmu_);
        stop = wstop_;
      }
      if (stop) {  // stopping before the search began: the job back to the store, free
        give_back(*job);
        return;
      }
      const int r = fut.get();
      if (r == 2) break;
      if (r == 1) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!*game) continue;
    bool taken = false;
    {
      // in hand until its moves are with the room (a drain waits for it); past the drain's
      // deadline no search starts: the job is given back for the next start
      const std::lock_guard lock(wmu_);
      if (!abandon_) {
        in_hand_[lease] = *job;
        ++busy_workers_;
        taken = true;
      }
    }
    if (!taken) {
      give_back(*job);
      return;
    }
    std::vector<std::string> moves;
    try {
      const std::uint64_t seed = std::hash<std::string>{}(job->game) ^ static_cast<std::uint64_t>(job->seq) * 0x9E3779B97F4A7C15ULL;
      moves = bot_decisions(
          std::move(**game), job->seat, job->spec, seed,
          BotLimits{.max_ms = o_.trusted_bots ? 0 : o_.bot_max_ms, .max_threads = o_.trusted_bots ? 0 : 1},
          &cancel_searches_);
    } catch (const SearchCancelled&) {
      return;  // the drain's deadline, or a second signal: the job was given back (abandon_searches)
    } catch (const std::exception& e) {
      // stale (the game went on): its job is settled by the room
      log_event("job_failed", {{"game", job->game}, {"seq", job->seq}, {"error", printable(e.what())}});
      out_of_hand(lease);
      continue;
    }
    // out of hand once the room has the moves (busy with their commit, or queued behind one)
    net::post(ioc_, [this, j = *job, moves = std::move(moves), lease] {
      bot_result(j, moves, 0);
      out_of_hand(lease);
    });
  }
}

void Server::out_of_hand(const std::string& lease) {
  const std::lock_guard lock(wmu_);
  if (in_hand_.erase(lease)) --busy_workers_;
}

void Server::give_back(const Job& j) {
  try {
    store_->release_job(j.game, j.seq, j.lease);
  } catch (const std::exception& e) {
    log_event("job_failed", {{"game", j.game}, {"seq", j.seq}, {"error", printable(e.what())}});
  }
}

std::vector<Job> Server::abandon_searches() {
  std::vector<Job> cancelled;
  cancel_searches_ = true;  // the searches stop within a few playouts (SearchStop)
  {
    const std::lock_guard lock(wmu_);
    abandon_ = true;
    wstop_ = true;
    for (const auto& [lease, j] : in_hand_) cancelled.push_back(j);
  }
  wcv_.notify_all();
  for (const Job& j : cancelled) give_back(j);
  return cancelled;
}

void Server::bot_result(const Job& j, const std::vector<std::string>& moves, int tries) {
  guarded([&] {
    Host* h = host(j.game);
    if (!h) return;
    const std::uint64_t conn = next_conn();
    sinks_[conn] = [this, conn, j, moves, tries](const std::string& text) {
      net::post(ioc_, [this, conn] { sinks_.erase(conn); });
      if (text.find(R"("code":"store")") == std::string::npos || draining_ || tries >= 30) return;
      auto again = std::make_shared<net::steady_timer>(ioc_, std::chrono::seconds(1));
      again->async_wait([this, again, j, moves, tries](beast::error_code ec) {
        if (!ec && !draining_) bot_result(j, moves, tries + 1);
      });
    };
    when_free(*h, [this, h, j, moves, conn] {
      run_step(*h, h->room->bot_play(conn, j.seat, fmt::format("job:{}", j.seq), j.seq, moves, now_ms()));
    });
  });
}

// ---- HTTP API ------------------------------------------------------------------------------

void Server::handle_http(http::request<http::string_body>&& req, const std::string& peer,
                         std::function<void(http::response<http::string_body>&&)> reply) {
  ++stats_.http_requests;
  bool replied = false;
  int retry_after = 0;
  auto respond = [&](http::status st, const std::string& body, const std::string& type = "application/json") {
    http::response<http::string_body> r{st, req.version()};
    r.set(http::field::server, "carcassonne");
    r.set(http::field::content_type, type);
    r.set(http::field::cache_control, "no-store");
    if (retry_after > 0) r.set(http::field::retry_after, std::to_string(retry_after));
    r.body() = body;
    r.prepare_payload();
    ++stats_.http_by_status[static_cast<int>(st)];
    replied = true;
    reply(std::move(r));
  };
  // the client: the peer, or the last address a trusted proxy put in X-Forwarded-For
  std::string client = peer;
  if (!o_.trust_proxy.empty() && peer == o_.trust_proxy) {
    const std::string fwd(req["X-Forwarded-For"]);
    std::string last = fwd.substr(fwd.rfind(',') == std::string::npos ? 0 : fwd.rfind(',') + 1);
    while (!last.empty() && last.front() == ' ') last.erase(0, 1);
    while (!last.empty() && last.back() == ' ') last.pop_back();
    if (!last.empty() && last.size() <= 64 && !has_control_chars(last)) client = last;
  }
  auto problem = [&](http::status st, const std::string& code, const std::string& msg) {
    if (static_cast<int>(st) >= 400 && static_cast<int>(st) != 404) {
      ++stats_.refused[code];
      log_event("refused", {{"status", static_cast<int>(st)}, {"code", code}, {"client", client}, {"method", printable(std::string(req.method_string()))},
                            {"target", printable(std::string(req.target()).substr(0, 200))}, {"message", printable(msg)}});
    }
    respond(st, dump(json{{"code", code}, {"message", msg}}));
  };
  try {
    handle_http_in(req, client, reply, respond, problem, retry_after);
  } catch (const std::exception& e) {
    ++stats_.handler_failures;
    log_event("handler_failed", {{"client", client}, {"method", printable(std::string(req.method_string()))},
                                 {"target", printable(std::string(req.target()).substr(0, 200))}, {"error", printable(e.what())}});
    if (!replied) problem(http::status::internal_server_error, "internal", "the server failed on this request; nothing of it was kept");
  }
}

// One HTTP request as its route's handler sees it: the request, the client, how to answer, the
// path without its query, and the text the route's wildcard matched.
struct Server::HttpCall {
  http::request<http::string_body>& req;
  const std::string& client;
  std::function<void(http::response<http::string_body>&&)>& reply;
  const Respond& respond_;
  const Problem& problem;
  int& retry_after;
  std::string target;  // the path, without the query
  std::string query;
  std::string arg;  // what the route's '*' or '+' matched

  void respond(http::status st, const std::string& body, const std::string& type = "application/json") const {
    respond_(st, body, type);
  }
  // A query parameter's value ("" if absent).
  [[nodiscard]] std::string param(const std::string& key) const {
    for (std::size_t at = 0; at <= query.size();) {
      const auto amp = query.find('&', at);
      const std::string kv = query.substr(at, amp == std::string::npos ? std::string::npos : amp - at);
      if (kv.rfind(key + "=", 0) == 0) return kv.substr(key.size() + 1);
      if (amp == std::string::npos) break;
      at = amp + 1;
    }
    return "";
  }
};

namespace {

// Whether `path` matches a route's pattern: the pattern's text exactly, where one '*' stands for
// any text (none too) and one '+' for at least one character (slashes included). `arg` gets what
// the wildcard matched.
bool route_matches(std::string_view pattern, std::string_view path, std::string& arg) {
  const std::size_t w = pattern.find_first_of("*+");
  if (w == std::string_view::npos) {
    arg.clear();
    return path == pattern;
  }
  const std::string_view prefix = pattern.substr(0, w), suffix = pattern.substr(w + 1);
  const std::size_t least = prefix.size() + suffix.size() + (pattern[w] == '+' ? 1 : 0);
  if (path.size() < least || path.substr(0, prefix.size()) != prefix ||
      path.substr(path.size() - suffix.size()) != suffix)
    return false;
  arg = std::string(path.substr(prefix.size(), path.size() - prefix.size() - suffix.size()));
  return true;
}

}  // namespace

// The HTTP API (docs/server-protocol.md), matched in order, first match wins. A request that no
// route takes is refused with 405 when a route takes its path with another method (the web files'
// GET * takes every path, so: any method but GET), else 404.
const Server::Route Server::kRoutes[] = {
    {http::verb::post, "/api/games", &Server::http_create_game},
    {http::verb::get, "/api/games", &Server::http_list_games},
    // bot workers outside the server; a job's result goes to /api/games/ID/job, so that a proxy
    // routes it to the game's process
    {http::verb::post, "/api/jobs/take", &Server::http_take_job},
    {http::verb::post, "/api/games/+/job", &Server::http_job_result},
    {http::verb::post, "/api/games/+/rematch", &Server::http_rematch},
    {http::verb::post, "/api/games/+/analysis", &Server::http_analysis},
    {http::verb::get, "/healthz", &Server::http_health},
    {http::verb::get, "/metrics", &Server::http_metrics},
    {http::verb::get, "/api/catalog", &Server::http_catalog},
    {http::verb::get, "/api/tiles/*", &Server::http_tiles},
    {http::verb::get, "/api/rules/*", &Server::http_rules},
    {http::verb::post, "/api/replay", &Server::http_replay},
    {http::verb::get, "/api/stats", &Server::http_stats},
    {http::verb::get, "/api/games/*", &Server::http_game},  // a game: its summary, /record, /events
    {http::verb::get, "*", &Server::http_web_file},         // the browser client's files
};

void Server::handle_http_in(http::request<http::string_body>& req, const std::string& client,
                            std::function<void(http::response<http::string_body>&&)>& reply, const Respond& respond,
                            const Problem& problem, int& retry_after) {
  // bytes that are not UTF-8 anywhere in the request: refused before anything reads them
  if (!valid_utf8(req.target())) {
    problem(http::status::bad_request, "bad_utf8",
            fmt::format("the request target is not UTF-8 (byte {})", utf8_error_at(req.target()) + 1));
    return;
  }
  for (const auto& f : req) {
    if (!valid_utf8(f.name_string()) || !valid_utf8(f.value())) {
      problem(http::status::bad_request, "bad_utf8", fmt::format("the header {} is not UTF-8", printable(f.name_string())));
      return;
    }
  }
  if (!valid_utf8(req.body())) {
    problem(http::status::bad_request, "bad_utf8",
            fmt::format("the request body is not UTF-8 (byte {})", utf8_error_at(req.body()) + 1));
    return;
  }
  HttpCall c{req, client, reply, respond, problem, retry_after, std::string(req.target()), "", ""};
  if (const auto q = c.target.find('?'); q != std::string::npos) {
    c.query = c.target.substr(q + 1);
    c.target.resize(q);
  }
  try {
    // every answer's words in the language the query names (?lang=ru; docs/i18n.md), else English
    const std::string lang_text = c.param("lang");
    const auto lang = lang_text.empty() ? std::optional<i18n::Lang>(i18n::Lang::En) : i18n::parse_lang(lang_text);
    if (!lang)
      throw InputError(fmt::format("lang: \"{}\" is not a language (en, ru, ro)", printable(lang_text.substr(0, 40))));
    const i18n::Scope language(*lang);
    bool other_method = false;
    for (const Route& r : kRoutes) {
      if (!route_matches(r.pattern, c.target, c.arg)) continue;
      if (r.method != req.method()) {
        other_method = true;
        continue;
      }
      (this->*r.handler)(c);
      return;
    }
    if (other_method)
      problem(http::status::method_not_allowed, "bad_method", "method not allowed here");
    else
      problem(http::status::not_found, "not_found", fmt::format("nothing at {}", printable(c.target)));
  } catch (const NotFound& e) {
    problem(http::status::not_found, "not_found", e.what());
  } catch (const InputError& e) {
    problem(http::status::bad_request, "bad_request", e.what());
  } catch (const StoreError& e) {
    problem(http::status::service_unavailable, "store", e.what());
  }
}

// POST /api/games: a new game (or, for a request_id already used, the game it made).
void Server::http_create_game(HttpCall& c) {
  if (draining_) {
    c.retry_after = 5;
    c.problem(http::status::service_unavailable, "restarting", "the server is restarting: try again in a few seconds");
    return;
  }
  json body;
  try {
    body = jin::parse(c.req.body(), "request");
  } catch (const InputError& e) {
    c.problem(http::status::bad_request, "bad_json", e.what());
    return;
  }
  if (body.is_object() && body.contains("seed") && !o_.allow_seed) {
    c.problem(http::status::bad_request, "bad_request",
              "request: seed: the server draws with a seed of its own (start it with --allow-seed for tests)");
    return;
  }
  // request_id: the client's own id for this request; a retry (after a lost answer, a
  // restart) gets the same game and tokens back instead of a second game
  std::string request_id;
  if (body.is_object() && body.contains("request_id")) {
    request_id = jin::string(body["request_id"], "request", "request_id", 64);
    body.erase("request_id");
  }
  const std::string id = request_id.empty() ? random_hex(6) : game_id_for_request(request_id);
  // the answer: each seat, and for people the token and invite link
  auto answer = [&](const GameMeta& meta, const std::vector<std::string>& tokens, bool repeat) {
    json seats = json::array();
    const json settings = json::parse(meta.settings);
    for (std::size_t i = 0; i < settings["seats"].size(); ++i) {
      const json& sc = settings["seats"][i];
      json s{{"seat", i}, {"name", sc["name"]}, {"bot", sc["bot"]}};
      if (i < tokens.size() && !tokens[i].empty()) {
        s["token"] = tokens[i];
        s["invite"] = fmt::format("/play/{}?seat={}&token={}", meta.id, i, tokens[i]);
      }
      seats.push_back(std::move(s));
    }
    json out{{"id", meta.id}, {"seats", seats}, {"seed_hash", seed_hash(meta)}};
    if (repeat) out["repeat"] = true;
    c.respond(repeat ? http::status::ok : http::status::created, dump(out));
  };
  auto repeat = [&](const GameMeta& meta) {
    if (json::parse(meta.settings).value("request_hash", "") != sha256_hex(body.dump())) {
      c.problem(http::status::conflict, "request_id_used",
                "request: request_id: already used for another request (a retry must send the same request)");
      return;
    }
    std::vector<std::string> tokens;  // derived again from the request_id, as at creation
    const json settings = json::parse(meta.settings);
    for (std::size_t i = 0; i < settings["seats"].size(); ++i)
      tokens.push_back(settings["seats"][i]["bot"].get<std::string>().empty() ? request_token(request_id, i)
                                                                              : std::string());
    answer(meta, tokens, true);
  };
  if (!request_id.empty())
    if (const auto meta = store_->game(id)) {
      repeat(*meta);
      return;
    }
  std::string why;
  if (const std::string code = create_quota(c.client, why, c.retry_after); !code.empty()) {
    c.problem(code == "rate_limited" ? http::status::too_many_requests : http::status::service_unavailable, code, why);
    return;
  }
  const BotPolicy bots{o_.trusted_bots, {o_.bot_max_ms, o_.bot_max_playouts, kServerBotLimits.max_threads}};
  Created created = create_game(body, id, now_ms(), bots, request_id);
  try {
    store_->create(created.meta, created.first);
  } catch (const StoreError&) {
    // another process created it from the same request_id meanwhile: that game is the answer
    const auto meta = request_id.empty() ? std::nullopt : store_->game(id);
    if (!meta) throw;
    repeat(*meta);
    return;
  }
  hold_new_game(id, c.client, created.first.job.has_value());
  answer(created.meta, created.tokens, false);
}

// POST /api/games/ID/rematch {"token"}: a seat of a game that is over asks for a rematch. The new
// game (the same game, options, seats, clock and absence; a new seed; each person's old token opens
// their seat) is created once: asking again, from any seat, gives it back (200, "repeat"). The old
// game gets a `rematch` event naming it, which tells the other seats.
void Server::http_rematch(HttpCall& c) {
  if (draining_) {
    c.retry_after = 5;
    c.problem(http::status::service_unavailable, "restarting", "the server is restarting: try again in a few seconds");
    return;
  }
  std::string token;
  try {
    const json body = jin::parse(c.req.body(), "request");
    if (!body.is_object()) throw InputError("request: expected a JSON object {\"token\"}");
    for (const auto& [k, v] : body.items())
      if (k != "token")
        throw InputError(fmt::format("request: {}: not a field of a rematch request (token)", printable(k)));
    token = jin::string(jin::need(body, "token", "request"), "request", "token", 64);
  } catch (const InputError& e) {
    c.problem(http::status::bad_request, "bad_request", e.what());
    return;
  }
  const std::string old = c.arg;
  Host* h = host(old);
  if (!h) {
    c.problem(http::status::not_found, "unknown_game", fmt::format("no game \"{}\"", printable(old)));
    return;
  }
  const int seat = h->room->seat_of_token(token);
  if (seat < 0) {
    c.problem(http::status::forbidden, "bad_token", "request: token: not the token of a seat of this game");
    return;
  }
  if (!h->room->over() || h->room->busy()) {
    // busy: the end is being committed; the client asks again once it has seen it
    c.problem(http::status::conflict, "not_over", "the game is not over: a rematch is asked for at the end");
    return;
  }
  const std::string id = rematch_id(old);
  auto answer = [&](const GameMeta& meta, bool repeat) {
    json seats = json::array();
    const json settings = json::parse(meta.settings);
    for (std::size_t i = 0; i < settings["seats"].size(); ++i) {
      const json& sc = settings["seats"][i];
      json s{{"seat", i}, {"name", sc["name"]}, {"bot", sc["bot"]}};
      if (static_cast<int>(i) == seat) {
        s["token"] = token;
        s["invite"] = fmt::format("/play/{}?seat={}&token={}", meta.id, i, token);
      }
      seats.push_back(std::move(s));
    }
    json out{{"id", meta.id}, {"seats", seats}, {"seed_hash", seed_hash(meta)}, {"rematch_of", old}};
    if (repeat) out["repeat"] = true;
    c.respond(repeat ? http::status::ok : http::status::created, dump(out));
  };
  auto tell = [this, h, seat, id] {
    when_free(*h, [this, h, seat, id] { run_step(*h, h->room->ask_rematch(seat, id, now_ms())); });
  };
  if (const auto meta = store_->game(id)) {
    tell();  // (a crash between the creation and the event: the event now)
    answer(*meta, true);
    return;
  }
  std::string why;
  if (const std::string code = create_quota(c.client, why, c.retry_after); !code.empty()) {
    c.problem(code == "rate_limited" ? http::status::too_many_requests : http::status::service_unavailable, code, why);
    return;
  }
  const auto old_meta = store_->game(old);
  if (!old_meta) throw NotFound(fmt::format("no game \"{}\"", printable(old)));
  Created created = rematch_game(*old_meta, now_ms(), h->room->names());
  try {
    store_->create(created.meta, created.first);
  } catch (const StoreError&) {
    const auto meta = store_->game(id);  // another request made it meanwhile
    if (!meta) throw;
    tell();
    answer(*meta, true);
    return;
  }
  hold_new_game(id, c.client, created.first.job.has_value());
  tell();
  answer(created.meta, false);
}

// GET /api/games?status=...: the latest games; those in memory (every active one) with their
// seats' names, scores and who is to move, the others with the names they were created with.
void Server::http_list_games(HttpCall& c) {
  const std::string status = c.param("status");
  json out = json::array();
  const std::int64_t now = now_ms();
  for (const GameMeta& m : store_->list(status, 200)) {
    json g{{"id", m.id}, {"game", m.game}, {"status", m.status}, {"created", m.created}};
    if (const auto it = hosts_.find(m.id); it != hosts_.end()) {
      const json s = it->second->room->summary(now);
      g["status"] = s["status"];
      for (const char* k : {"seats", "scores", "to_move", "seq"}) g[k] = s[k];
    } else {
      json seats = json::array();
      const json st = json::parse(m.settings, nullptr, false);
      if (st.is_object() && st.contains("seats") && st["seats"].is_array())
        for (const json& x : st["seats"])
          seats.push_back({{"seat", seats.size()}, {"name", x.value("name", "")}, {"bot", x.value("bot", "")}});
      g["seats"] = seats;
    }
    out.push_back(std::move(g));
  }
  c.respond(http::status::ok, out.dump());
}

// Bot workers outside the server come only with the server's --worker-key.
bool Server::worker_allowed(HttpCall& c) {
  if (o_.worker_key.empty() || c.req["X-Worker-Key"] != o_.worker_key) {
    c.problem(http::status::forbidden, "bad_key", "workers need the server's --worker-key (X-Worker-Key)");
    return false;
  }
  return true;
}

// POST /api/jobs/take: a bot's turn to play, with its game's record (204: none is due).
void Server::http_take_job(HttpCall& c) {
  if (!worker_allowed(c)) return;
  for (int tries = 0; tries < 8 && !draining_; ++tries) {
    const auto job = store_->take_job(fmt::format("{}-http-{}", lease_prefix_, ++conn_ids_), now_ms(), o_.lease_ms);
    if (!job) break;
    Host* h = fresh(job->game);
    if (!h || h->room->seq() != job->seq || h->room->busy()) continue;  // settled or about to be: the room clears it
    c.respond(http::status::ok, json{{"game", job->game},
                                     {"seq", job->seq},
                                     {"seat", job->seat},
                                     {"spec", job->spec},
                                     {"lease", job->lease},
                                     {"lease_until", job->lease_until},
                                     {"record", json::parse(h->room->record_json())}}
                                    .dump());
    return;
  }
  http::response<http::string_body> r{http::status::no_content, c.req.version()};
  r.set(http::field::server, "carcassonne");
  c.reply(std::move(r));
}

// POST /api/games/ID/job: a worker's moves for a job, answered after they are committed.
void Server::http_job_result(HttpCall& c) {
  if (!worker_allowed(c)) return;
  json body;
  const std::string& game = c.arg;
  std::int64_t seq = 0;
  int seat = 0;
  std::vector<std::string> moves;
  try {
    body = jin::parse(c.req.body(), "request");
    seq = jin::integer(jin::need(body, "seq", "request"), 0, std::int64_t{1} << 50, "request", "seq");
    seat = static_cast<int>(jin::integer(jin::need(body, "seat", "request"), 0, kMaxPlayers - 1, "request", "seat"));
    const json& mv = jin::array(jin::need(body, "moves", "request"), "request", "moves", 16);
    for (std::size_t i = 0; i < mv.size(); ++i)
      moves.push_back(jin::string(mv[i], "request", fmt::format("moves[{}]", i), 200));
  } catch (const std::exception& e) {
    c.problem(http::status::bad_request, "bad_request", e.what());
    return;
  }
  Host* h = host(game);
  if (!h) {
    c.problem(http::status::not_found, "unknown_game", fmt::format("no game \"{}\"", printable(game)));
    return;
  }
  // the answer (a reject now, or the ack after the commit) goes to this request
  const std::uint64_t conn = next_conn();
  auto answer = std::make_shared<std::function<void(http::response<http::string_body> &&)>>(std::move(c.reply));
  const unsigned version = c.req.version();
  sinks_[conn] = [this, conn, answer, version, sent = std::make_shared<bool>(false)](const std::string& text) {
    if (*sent) return;
    *sent = true;
    http::response<http::string_body> r{http::status::ok, version};
    r.set(http::field::content_type, "application/json");
    r.body() = text;
    r.prepare_payload();
    (*answer)(std::move(r));
    net::post(ioc_, [this, conn] { sinks_.erase(conn); });
  };
  when_free(*h, [this, h, conn, seat, seq, moves] {
    run_step(*h, h->room->bot_play(conn, seat, fmt::format("job:{}", seq), seq, moves, now_ms()));
  });
}

// GET /healthz: the process answers (this is its io thread) and so does the store.
void Server::http_health(HttpCall& c) {
  try {
    store_->check();  // (a broken connection is opened again here: PostgreSQL restarted)
  } catch (const std::exception& e) {
    c.problem(http::status::service_unavailable, "store", fmt::format("the store does not answer: {}", e.what()));
    return;
  }
  c.respond(
      draining_ ? http::status::service_unavailable : http::status::ok,
      dump(
          json{{"status", draining_ ? "draining" : "ok"}, {"store", store_->kind()}, {"games_loaded", hosts_.size()}}));
}

// GET /metrics: Prometheus' text format.
void Server::http_metrics(HttpCall& c) {
  c.respond(http::status::ok, metrics_text(), "text/plain; version=0.0.4; charset=utf-8");
}

// GET /api/catalog: the games, their options, the bot levels, the seat colours.
void Server::http_catalog(HttpCall& c) { c.respond(http::status::ok, catalog_json()); }

// GET /api/tiles/GAME: the game's tile catalog.
void Server::http_tiles(HttpCall& c) {
  try {
    c.respond(http::status::ok, tiles_json(c.arg));
  } catch (const InputError& e) {
    c.problem(http::status::not_found, "unknown_game", e.what());
  }
}

// GET /api/rules/GAME: the game's rules page.
void Server::http_rules(HttpCall& c) {
  try {
    c.respond(http::status::ok, rules_json(c.arg));
  } catch (const NotFound& e) {
    c.problem(http::status::not_found, "unknown_game", e.what());
  }
}

// POST /api/replay: a record's view at every turn.
void Server::http_replay(HttpCall& c) { c.respond(http::status::ok, replay_json(c.req.body())); }

// GET /api/stats: the group commit's numbers.
void Server::http_stats(HttpCall& c) {
  std::vector<double> ms = stats_.commit_ms;
  std::sort(ms.begin(), ms.end());
  auto pct = [&](double p) {
    return ms.empty() ? 0.0 : ms[std::min(ms.size() - 1, static_cast<std::size_t>(p * static_cast<double>(ms.size())))];
  };
  c.respond(http::status::ok,
            json{{"games_loaded", hosts_.size()},
                 {"connections", sinks_.size()},
                 {"commits", stats_.commits},
                 {"appends", stats_.appends},
                 {"events", stats_.events},
                 {"max_batch", stats_.max_batch},
                 {"mean_batch",
                  stats_.commits ? static_cast<double>(stats_.appends) / static_cast<double>(stats_.commits) : 0.0},
                 {"failed", stats_.failed},
                 {"commit_ms_p50", pct(0.5)},
                 {"commit_ms_p99", pct(0.99)},
                 {"store", store_->kind()}}
                .dump());
}

// GET /api/games/ID, /api/games/ID/record, /api/games/ID/events?since=SEQ.
void Server::http_game(HttpCall& c) {
  std::string rest = c.arg;
  std::string what;
  if (const auto sl = rest.find('/'); sl != std::string::npos) {
    what = rest.substr(sl + 1);
    rest.resize(sl);
  }
  Host* h = host(rest);
  if (!h) {
    c.problem(http::status::not_found, "unknown_game", fmt::format("no game \"{}\"", printable(rest)));
    return;
  }
  if (what.empty()) {
    c.respond(http::status::ok, h->room->summary(now_ms()).dump());
  } else if (what == "record") {
    c.respond(http::status::ok, h->room->record_json());
  } else if (what == "analysis") {
    analysis_answer(c, *h, false);
  } else if (what.rfind("analysis/", 0) == 0) {
    long long k = 0;
    const std::string* stored = h->room->analysis();
    if (!parse_int(what.substr(9), 1, 1 << 20, k)) {
      c.problem(http::status::not_found, "not_found", "no such resource: /analysis/K names a decision by its number");
    } else if (!stored) {
      c.problem(http::status::not_found, "no_analysis",
                "the game has no analysis yet: POST /api/games/ID/analysis makes one");
    } else {
      const json body = json::parse(*stored);
      c.respond(http::status::ok, whatif_json(h->room->record_json(), body.at("review").dump(), static_cast<int>(k)));
    }
  } else if (what == "events") {
    long long since = 0;
    (void)parse_int(c.param("since"), 0, 1LL << 50, since);
    json evs = json::array();
    for (const Event& e : h->room->log())
      if (e.seq > since) evs.push_back(event_json(e));
    c.respond(http::status::ok, evs.dump());
  } else {
    c.problem(http::status::not_found, "not_found", "no such resource");
  }
}

// POST /api/games/ID/analysis ({} or no body): a finished game's analysis, made once and stored
// with the game (an `analysis` event); 202 with the progress while it is queued or running.
void Server::http_analysis(HttpCall& c) {
  if (!c.req.body().empty()) {
    try {
      const json body = jin::parse(c.req.body(), "request");
      if (!body.is_object() || !body.empty())
        throw InputError("request: an analysis request has no fields ({} or no body)");
    } catch (const InputError& e) {
      c.problem(http::status::bad_request, "bad_request", e.what());
      return;
    }
  }
  std::string id = c.arg;
  Host* h = host(id);
  if (!h) {
    c.problem(http::status::not_found, "unknown_game", fmt::format("no game \"{}\"", printable(id)));
    return;
  }
  analysis_answer(c, *h, true);
}

void Server::analysis_answer(HttpCall& c, Host& h, bool start) {
  const std::string id = h.room->id();
  const std::string* stored = h.room->analysis();
  std::shared_ptr<AnalysisJob> job;
  std::string error;
  {
    const std::lock_guard lock(amu_);
    if (const auto it = analyses_.find(id); it != analyses_.end()) {
      // stored: the job is done; saved but not stored and nothing in flight: its event was lost
      // (a fenced commit), so it is made again below
      if (stored || (it->second->saving && !h.room->busy() && it->second->error.empty() && start &&
                     now_ms() - it->second->saved_at > 10000)) {
        analyses_.erase(it);
      } else {
        job = it->second;
        error = job->error;
      }
    }
  }
  if (stored) {
    json body = json::parse(*stored);
    body["status"] = "done";
    // the seats as the request's language names them ("Bot easy" -> «Лёгкий бот»); stored in English
    if (json* players = body.contains("review") ? &body["review"]["players"] : nullptr; players && players->is_array())
      for (json& name : *players)
        if (name.is_string()) name = seat_name_words(h.room->game_def(), name.get<std::string>());
    if (body.contains("review")) add_move_words(body["review"], h.room->record_json());  // its moves in words
    c.respond(http::status::ok, dump(body));
    return;
  }
  if (job && !error.empty()) {
    c.problem(http::status::unprocessable_entity, "bad_record", error);
    return;
  }
  if (!job && !start) {
    c.problem(http::status::not_found, "no_analysis",
              "the game has no analysis: POST /api/games/ID/analysis makes one");
    return;
  }
  if (!job) {
    if (!h.room->over() || h.room->busy()) {
      c.problem(http::status::conflict, "not_over", "the game is not over: its analysis is made after the end");
      return;
    }
    if (draining_) {
      c.retry_after = 5;
      c.problem(http::status::service_unavailable, "restarting",
                "the server is restarting: try again in a few seconds");
      return;
    }
    if (o_.workers < 1 || o_.max_analyses < 1) {
      c.problem(http::status::service_unavailable, "no_analysis_workers",
                "this server makes no analyses (--workers 0 or --max-analyses 0)");
      return;
    }
    job = std::make_shared<AnalysisJob>();
    job->game = id;
    job->client = c.client;
    job->record = h.room->game().record();
    job->options.playouts = o_.analysis_playouts;
    job->options.seed = std::hash<std::string>{}(id) | 1;
    job->options.ownership = true;  // who is likely to score each open feature, per decision
    const std::lock_guard lock(amu_);
    // a job being saved (or saved: its entry goes when the game is next asked about, or a minute
    // after) is not under way and holds no slot
    int mine = 0, under_way = 0;
    for (auto it = analyses_.begin(); it != analyses_.end();) {
      const AnalysisJob& j = *it->second;
      if (j.saving && now_ms() - j.saved_at > 60000) {
        it = analyses_.erase(it);
        continue;
      }
      under_way += !j.saving;
      mine += !j.saving && j.client == c.client;
      ++it;
    }
    if (under_way >= o_.max_analyses || mine >= o_.analyses_per_ip) {
      c.retry_after = 30;
      c.problem(http::status::service_unavailable, "busy",
                mine >= o_.analyses_per_ip
                    ? fmt::format("you have {} analyses under way: try again when one is done", mine)
                    : "the server is making as many analyses as it may: try again in a minute");
      return;
    }
    analyses_[id] = job;
    aqueue_.push_back(job);
  }
  if (start) wake_workers();
  std::size_t ahead = 0;
  {
    const std::lock_guard lock(amu_);
    for (const auto& q : aqueue_) {
      if (q == job) break;
      ++ahead;
    }
  }
  const std::string status = job->saving ? "saving" : job->running || job->done > 0 ? "running" : "queued";
  c.respond(http::status::accepted, dump(json{{"status", status},
                                              {"done", job->done.load()},
                                              {"total", job->total.load()},
                                              {"ahead", ahead},
                                              {"playouts", job->options.playouts}}));
}

bool Server::analysis_slice() {
  std::shared_ptr<AnalysisJob> job;
  {
    const std::lock_guard lock(amu_);
    if (aqueue_.empty()) return false;
    job = aqueue_.front();
    aqueue_.pop_front();
  }
  job->running = true;
  ++busy_workers_;
  std::string error;
  try {
    if (!job->run) {
      job->run = std::make_unique<ReviewRun>(job->record, job->options);
      job->total = job->run->total();
    }
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(250);
    do {
      job->run->step();
      job->done = job->run->done();
    } while (!job->run->finished() && std::chrono::steady_clock::now() < until);
  } catch (const std::exception& e) {
    error = printable(e.what());
  }
  --busy_workers_;
  job->running = false;
  if (error.empty() && !job->run->finished()) {
    const std::lock_guard lock(amu_);  // to the back: the other analyses and every bot's turn go first
    aqueue_.push_back(job);
    return true;
  }
  if (!error.empty()) {
    {
      const std::lock_guard lock(amu_);
      job->error = error;
    }
    job->saving = true;
    log_event("analysis_failed", {{"game", job->game}, {"error", error}});
    return true;
  }
  job->saved_at = now_ms();
  job->saving = true;
  json body{{"playouts", job->options.playouts},
            {"seed", job->options.seed},
            {"review", review_to_json(job->run->review(), job->record)}};
  job->run.reset();
  net::post(ioc_, [this, id = job->game, body = std::move(body)] {
    guarded([&] {
      Host* h = host(id);
      if (!h) return;
      when_free(*h, [this, h, body] { run_step(*h, h->room->add_analysis(body, now_ms())); });
    });
  });
  return true;
}

// GET anything else: the browser client's files, or the placeholder page.
void Server::http_web_file(HttpCall& c) {
  namespace fs = std::filesystem;
  if (!o_.web_root.empty()) {
    // the client's own paths (/, /play/ID, /replay...) are its page; files have an extension.
    // The path is normalised first (web_file): nothing outside the root is ever opened.
    std::string rel;
    try {
      rel = web_file(c.target);
    } catch (const NotFound&) {
      c.problem(http::status::not_found, "not_found", fmt::format("nothing at {}", printable(c.target)));
      return;
    } catch (const InputError& e) {
      c.problem(http::status::bad_request, "bad_path", e.what());
      return;
    }
    const fs::path p = fs::path(o_.web_root) / rel;
    std::error_code ec;
    const auto size = fs::is_regular_file(p, ec) ? fs::file_size(p, ec) : 0;
    if (!ec && size > 0 && size <= (64u << 20)) {
      std::ifstream in(p, std::ios::binary);
      std::string data(static_cast<std::size_t>(size), '\0');
      if (in.read(data.data(), static_cast<std::streamsize>(size))) {
        c.respond(http::status::ok, data, content_type(p));
        return;
      }
    }
  } else if (c.target == "/" || c.target.rfind("/play/", 0) == 0) {
    c.respond(http::status::ok, kPlaceholder, "text/html; charset=utf-8");
    return;
  }
  c.problem(http::status::not_found, "not_found", fmt::format("nothing at {}", printable(c.target)));
}

// ---- limits --------------------------------------------------------------------------------

void Server::refused(const std::string& code, const std::string& client, const std::string& message, int status) {
  ++stats_.refused[code];
  if (status) ++stats_.http_by_status[status];
  log_event("refused", {{"code", code}, {"client", client}, {"status", status}, {"message", printable(message)}});
}

Slot Server::take_slot(const std::string& addr, std::string& why) {
  Counts& c = *counts_;
  if (max_conns_ > 0 && c.total >= max_conns_) {
    why = fmt::format("the server holds its {} connections", max_conns_);
    return nullptr;
  }
  const bool proxied = !o_.trust_proxy.empty() && addr == o_.trust_proxy;
  int& mine = c.by_ip[addr];
  if (!proxied && o_.max_conns_per_ip > 0 && mine >= o_.max_conns_per_ip) {
    why = fmt::format("your address holds {} connections, the most one address may", o_.max_conns_per_ip);
    if (mine == 0) c.by_ip.erase(addr);
    return nullptr;
  }
  ++mine;
  ++c.total;
  // given back on the io thread when the last session holding the connection ends
  return Slot(static_cast<void*>(counts_.get()), [counts = counts_, addr](void*) {
    --counts->total;
    const auto it = counts->by_ip.find(addr);
    if (it != counts->by_ip.end() && --it->second <= 0) counts->by_ip.erase(it);
  });
}

std::string Server::create_quota(const std::string& client, std::string& message, int& retry_s) {
  if (o_.max_games > 0 && active_games_ >= o_.max_games) {
    retry_s = 60;
    message = fmt::format("the server has its {} active games: try again later", o_.max_games);
    return "server_full";
  }
  if (o_.max_games_per_ip > 0) {
    const auto it = games_by_ip_.find(client);
    if (it != games_by_ip_.end() && static_cast<int>(it->second.size()) >= o_.max_games_per_ip) {
      retry_s = 60;
      message = fmt::format("your address has {} active games, the most one address may: finish or abort one first", o_.max_games_per_ip);
      return "too_many_games";
    }
  }
  if (o_.create_rate > 0) {
    const std::int64_t now = now_ms();
    const double per_ms = o_.create_rate / 60000.0, cap = std::max(1, o_.create_burst);
    if (buckets_.size() > 100000)  // forget the addresses whose buckets are full again
      for (auto it = buckets_.begin(); it != buckets_.end();)
        it = std::min(cap, it->second.tokens + static_cast<double>(now - it->second.at) * per_ms) >= cap ? buckets_.erase(it) : std::next(it);
    const auto [it, fresh_bucket] = buckets_.try_emplace(client, Bucket{cap, now});
    Bucket& b = it->second;
    b.tokens = std::min(cap, b.tokens + static_cast<double>(now - b.at) * per_ms);
    b.at = now;
    if (b.tokens < 1) {
      retry_s = std::max(1, static_cast<int>(std::ceil((1 - b.tokens) / per_ms / 1000.0)));
      message = fmt::format("too many new games from your address (at most {} a minute): try again in {} s", o_.create_rate, retry_s);
      return "rate_limited";
    }
    b.tokens -= 1;
  }
  return "";
}

void Server::game_ended(const std::string& id) {
  if (const auto it = creator_.find(id); it != creator_.end()) {
    if (const auto g = games_by_ip_.find(it->second); g != games_by_ip_.end()) {
      g->second.erase(id);
      if (g->second.empty()) games_by_ip_.erase(g);
    }
    creator_.erase(it);
  }
  active_games_ = std::max<std::int64_t>(0, active_games_ - 1);
  dormant_.erase(id);
}

std::string Server::metrics_text() {
  std::string out;
  auto gauge = [&](const std::string& name, const std::string& help, double v, const char* type = "gauge") {
    out += fmt::format("# HELP {} {}\n# TYPE {} {}\n{} {}\n", name, help, name, type, name, v);
  };
  std::size_t ws = 0, spectators = 0;
  for (const auto& [id, h] : hosts_) {
    ws += h->conns.size();
    spectators += static_cast<std::size_t>(h->room->spectators());
  }
  std::size_t queued = 0;
  {
    const std::lock_guard lock(cmu_);
    queued = cq_.size();
  }
  std::size_t jobs_due = 0;
  try {
    jobs_due = store_->jobs().size();
  } catch (const std::exception&) {
  }
  gauge("carc_connections", "open TCP connections (HTTP and WebSocket)", counts_->total);
  gauge("carc_websockets", "WebSocket connections that said hello to a game", static_cast<double>(ws));
  gauge("carc_spectators", "spectators of loaded games", static_cast<double>(spectators));
  gauge("carc_games_loaded", "games held in memory", static_cast<double>(hosts_.size()));
  gauge("carc_games_dormant", "active games unloaded with a clock deadline to come", static_cast<double>(dormant_.size()));
  gauge("carc_games_active", "active games (this process's count)", static_cast<double>(active_games_));
  gauge("carc_games_unloaded_total", "games that left memory", static_cast<double>(stats_.unloaded), "counter");
  gauge("carc_commits_total", "group commits", static_cast<double>(stats_.commits), "counter");
  gauge("carc_commit_appends_total", "games' appends committed", static_cast<double>(stats_.appends), "counter");
  gauge("carc_commit_events_total", "events committed", static_cast<double>(stats_.events), "counter");
  gauge("carc_commit_failed_total", "appends that failed (fenced or a store error)", static_cast<double>(stats_.failed), "counter");
  gauge("carc_commit_queue", "appends waiting for the committer", static_cast<double>(queued));
  stats_.commit_seconds.write(out, "carc_commit_seconds", "duration of a group commit");
  stats_.batch_size.write(out, "carc_commit_batch_size", "appends in a group commit");
  gauge("carc_jobs_due", "bot jobs in the store (due or leased)", static_cast<double>(jobs_due));
  const StoreHealth sh = store_->health();
  gauge("carc_store_up", "1 while the store's connections are open (as of their last use), 0 while one is broken",
        sh.up ? 1 : 0);
  gauge("carc_store_lost_total", "store connections found broken (PostgreSQL restarted or dropped them)",
        static_cast<double>(sh.lost), "counter");
  gauge("carc_store_reconnects_total", "store connections opened again", static_cast<double>(sh.reconnects), "counter");
  gauge("carc_store_reconnect_failures_total", "tries to open a store connection again that failed (with back-off)",
        static_cast<double>(sh.failed_reconnects), "counter");
  gauge("carc_workers_busy", "bot workers inside the server playing a turn now", busy_workers_.load());
  stats_.job_wait_seconds.write(out, "carc_job_wait_seconds", "from a bot's turn becoming due to a worker taking it");
  gauge("carc_http_requests_total", "HTTP requests read", static_cast<double>(stats_.http_requests), "counter");
  out += "# HELP carc_http_responses_total HTTP answers by status\n# TYPE carc_http_responses_total counter\n";
  for (const auto& [code, n] : stats_.http_by_status) out += fmt::format("carc_http_responses_total{{status=\"{}\"}} {}\n", code, n);
  out += "# HELP carc_refused_total requests and messages refused or failed, by code (429s are rate_limited)\n# TYPE carc_refused_total counter\n";
  for (const auto& [code, n] : stats_.refused) out += fmt::format("carc_refused_total{{code=\"{}\"}} {}\n", code, n);
  gauge("carc_handler_failures_total", "requests and messages whose handler failed (answered 500 or an internal error)",
        static_cast<double>(stats_.handler_failures), "counter");
  gauge("carc_accept_errors_total", "failed accepts (out of descriptors): the accept loop waits and tries again",
        static_cast<double>(stats_.accept_errors), "counter");
  gauge("carc_ws_messages_total", "WebSocket messages read", static_cast<double>(stats_.ws_messages), "counter");
  return out;
}

void Server::sweep() {
  const std::int64_t now = now_ms();
  std::vector<std::string> gone;
  for (const auto& [id, h] : hosts_) {
    if (!h->conns.empty() || !h->greeted.empty() || h->room->busy() || !h->waiting.empty()) continue;
    if (h->room->over() || (o_.unload_after_ms > 0 && now - h->used >= o_.unload_after_ms)) gone.push_back(id);
  }
  for (const std::string& id : gone) {
    const auto it = hosts_.find(id);
    Host& h = *it->second;
    const std::int64_t d = h.room->over() ? 0 : h.room->deadline();
    h.timer->cancel();
    if (d) dormant_[id] = d;
    hosts_.erase(it);
    ++stats_.unloaded;
  }
  // deadlines of unloaded games: load them, their timers take it from there
  std::vector<std::string> due;
  for (const auto& [id, d] : dormant_)
    if (d <= now + 1000) due.push_back(id);
  for (const std::string& id : due) {
    try {
      if (!host(id)) dormant_.erase(id);  // (loaded: host() takes it out of dormant_)
    } catch (const StoreError&) {
      // the store does not answer (PostgreSQL restarting): the game stays dormant and the next
      // sweep tries again, so that its clock still runs out once the store is back
    } catch (const std::exception& e) {
      dormant_.erase(id);
      ++stats_.handler_failures;
      log_event("handler_failed", {{"game", id}, {"error", printable(e.what())}});
    }
  }
}

void Server::drain() {
  if (draining_) {  // a second signal: stop now (what is committed stays committed)
    const auto cancelled = abandon_searches();
    log_event("stopping", {{"bot_turns_given_back", cancelled.size()}});
    ioc_.stop();
    return;
  }
  draining_ = true;
  // the drain ends within --drain-ms: its last moment (a fourth of it, at most 300 ms) is for the
  // clients' last messages to be written, and a tenth (at most 200 ms) for the threads to stop
  farewell_ms_ = std::min<std::int64_t>(300, o_.drain_ms / 4);
  drain_until_ = now_ms() + o_.drain_ms - farewell_ms_ - std::min<std::int64_t>(200, o_.drain_ms / 10);
  log_event("draining", {{"games_loaded", hosts_.size()}, {"connections", counts_->total}});
  // connections are still accepted until the end: /healthz answers 503 "draining" (the load
  // balancer's check), new games and WebSockets 503 "restarting"
  {
    const std::lock_guard lock(wmu_);
    wstop_ = true;  // no new bot jobs; a turn in hand is finished and committed, within the drain
  }
  wcv_.notify_all();
  drain_timer_ = std::make_unique<net::steady_timer>(ioc_);
  drain_poll();
}

void Server::drain_poll() {
  bool busy = busy_workers_.load() > 0;
  {
    const std::lock_guard lock(cmu_);
    busy |= !cq_.empty() || committing_;
  }
  for (const auto& [id, h] : hosts_) busy |= h->room->busy() || !h->waiting.empty();
  if (!busy || now_ms() >= drain_until_) {
    if (busy) {
      // a bot's search still under way is cancelled: its job goes back to the store, free, for the
      // next start (or another process) to play
      json given = json::array();
      for (const Job& j : abandon_searches()) given.push_back({{"game", j.game}, {"seq", j.seq}, {"bot", j.spec}});
      log_event("drain_timeout", {{"drain_ms", o_.drain_ms}, {"bot_turns_given_back", given}});
    }
    finish_drain();
    return;
  }
  drain_timer_->expires_after(std::chrono::milliseconds(20));
  drain_timer_->async_wait([this](beast::error_code ec) {
    if (!ec) drain_poll();
  });
}

void Server::finish_drain() {
  // every connected client is told to come back (to this server restarted, or another)
  const std::string bye = dump(json{{"type", "error"}, {"code", "restart"}, {"message", "the server is restarting: connect again in a few seconds"}});
  for (const auto& [id, h] : hosts_)
    for (const std::uint64_t c : h->greeted)
      if (const auto sk = sinks_.find(c); sk != sinks_.end()) sk->second(bye);
  log_event("drained", {{"games_loaded", hosts_.size()}});
  beast::error_code ignored;
  acceptor_.close(ignored);
  // a moment for those messages to be written, then stop
  drain_timer_->expires_after(std::chrono::milliseconds(farewell_ms_));
  drain_timer_->async_wait([this](beast::error_code) { ioc_.stop(); });
}

void Server::accept() {
  if (!acceptor_.is_open()) return;
  acceptor_.async_accept(net::make_strand(ioc_), [this](beast::error_code ec, tcp::socket s) {
    if (ec) {
      if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
      // out of descriptors (EMFILE, ENFILE) or another failure: wait and try again, so that the
      // server serves as soon as descriptors free up
      ++stats_.accept_errors;
      accept_backoff_ms_ = std::clamp(accept_backoff_ms_ * 2, 10, 1000);
      if (stats_.accept_errors % 100 == 1) log_event("accept_failed", {{"error", ec.message()}, {"retry_ms", accept_backoff_ms_}});
      accept_later();
      return;
    }
    accept_backoff_ms_ = 0;
    beast::error_code ignored;
    s.set_option(tcp::no_delay(true), ignored);  // small frames go at once (no Nagle delay)
    const auto ep = s.remote_endpoint(ignored);
    std::string addr = ignored ? std::string("?") : ep.address().to_string();
    std::string why;
    Slot slot = take_slot(addr, why);
    if (!slot) {
      // a clear answer, written at once (a new socket's buffer holds it), and the connection closed
      refused("too_many_connections", addr, why, 503);
      const std::string body = dump(json{{"code", "too_many_connections"}, {"message", why + ": try again later"}});
      const std::string text = fmt::format(
          "HTTP/1.1 503 Service Unavailable\r\nServer: carcassonne\r\nContent-Type: application/json\r\nRetry-After: 5\r\nConnection: close\r\n"
          "Content-Length: {}\r\n\r\n{}",
          body.size(), body);
      s.non_blocking(true, ignored);
      (void)s.write_some(net::buffer(text), ignored);
      s.shutdown(tcp::socket::shutdown_both, ignored);
      s.close(ignored);
    } else {
      std::make_shared<HttpSession>(std::move(s), *this, std::move(addr), std::move(slot))->start();
    }
    accept();
  });
}

void Server::accept_later() {
  accept_timer_->expires_after(std::chrono::milliseconds(accept_backoff_ms_));
  accept_timer_->async_wait([this](beast::error_code e) {
    if (!e) accept();
  });
}

void Server::start() {
  store_ = open_store(o_.db);
  store_->set_log([this](const std::string& event, const std::string& message) {
    log_event(event, {{"message", printable(message)}});
  });
  accept_timer_ = std::make_unique<net::steady_timer>(ioc_);
  sweep_timer_ = std::make_unique<net::steady_timer>(ioc_);
  committer_ = std::thread([this] { commit_loop(); });
  for (int i = 0; i < o_.workers; ++i) workers_.emplace_back([this, i] { worker_loop(i, false); });
  fast_lanes_ = o_.fast_workers >= 0 ? o_.fast_workers : (o_.workers > 0 ? 1 : 0);
  for (int i = 0; i < fast_lanes_; ++i) workers_.emplace_back([this, i] { worker_loop(i, true); });
}

void Server::stop_threads() {
  {
    const std::lock_guard lock(wmu_);
    wstop_ = true;
  }
  wcv_.notify_all();
  for (auto& w : workers_) w.join();  // (a search the drain cancelled stops within a few playouts)
  workers_.clear();
  {
    const std::lock_guard lock(cmu_);
    cstop_ = true;
  }
  ccv_.notify_all();
  if (committer_.joinable()) committer_.join();
}

int Server::run(std::atomic<bool>* stop) {
  // as many descriptors as the system lets this process have
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rlimit want = rl;
    want.rlim_cur = rl.rlim_max == RLIM_INFINITY ? std::max<rlim_t>(rl.rlim_cur, 1 << 20) : rl.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &want) == 0) rl = want;
  }
  max_conns_ = o_.max_conns > 0 ? o_.max_conns : static_cast<int>(std::clamp<rlim_t>(rl.rlim_cur > 128 ? rl.rlim_cur - 64 : 64, 64, 1 << 20));
  start();
  // every active game is counted; its clock deadline is kept (dormant) and the game loaded when
  // it is due, when a client or a bot job asks for it: a restart holds no game it does not need
  int loaded = 0;
  for (const std::string& id : store_->active()) {
    ++active_games_;
    try {
      Host* h = host(id);
      if (const std::int64_t d = h ? h->room->deadline() : 0; d) dormant_[id] = d;
      if (h) {
        h->timer->cancel();
        hosts_.erase(id);
      }
      ++loaded;
    } catch (const std::exception& e) {
      log(fmt::format("game {}: does not replay: {}", id, e.what()));
    }
  }
  const auto colon = o_.listen.rfind(':');
  if (colon == std::string::npos) throw InputError(fmt::format("--listen: \"{}\" is not HOST:PORT", printable(o_.listen)));
  long long port = 0;
  if (!parse_int(o_.listen.substr(colon + 1), 0, 65535, port)) throw InputError(fmt::format("--listen: \"{}\": the port is 0 to 65535", printable(o_.listen)));
  beast::error_code ec;
  const auto addr = net::ip::make_address(o_.listen.substr(0, colon), ec);
  if (ec) throw InputError(fmt::format("--listen: \"{}\" is not an IP address", printable(o_.listen.substr(0, colon))));
  tcp::endpoint ep(addr, static_cast<unsigned short>(port));
  acceptor_.open(ep.protocol());
  acceptor_.set_option(net::socket_base::reuse_address(true));
  acceptor_.bind(ep, ec);
  if (ec) throw InputError(fmt::format("--listen: cannot listen on {}: {}", o_.listen, ec.message()));
  acceptor_.listen();
  accept();
  std::cout << fmt::format("listening on http://{}:{} (store: {}, {} active games, loaded when asked for)", addr.to_string(),
                           acceptor_.local_endpoint().port(), store_->kind(), loaded)
            << std::endl;
  if (!o_.web_root.empty())
    std::cout << fmt::format("open http://{}:{}/ in a browser: one click starts a game against a bot (Ctrl-C stops the server)",
                             addr.is_unspecified() ? std::string("127.0.0.1") : addr.to_string(), acceptor_.local_endpoint().port())
              << std::endl;
  if (store_->kind() == "postgresql") {  // other processes may share it
    heads_timer_ = std::make_unique<net::steady_timer>(ioc_);
    watch_heads();
  }
  // SIGTERM or SIGINT: drain (a second one stops at once)
  net::signal_set signals(ioc_, SIGINT, SIGTERM);
  std::function<void()> on_signal = [&] {
    signals.async_wait([&](beast::error_code e, int) {
      if (e) return;
      drain();
      on_signal();
    });
  };
  on_signal();
  net::steady_timer poll(ioc_);
  std::function<void()> watch = [&] {
    poll.expires_after(std::chrono::milliseconds(100));
    poll.async_wait([&](beast::error_code e) {
      if (e) return;
      if (stop && *stop) drain();
      else watch();
    });
  };
  watch();
  std::function<void()> sweep_soon = [&] {
    sweep_timer_->expires_after(std::chrono::seconds(1));
    sweep_timer_->async_wait([&](beast::error_code e) {
      if (e) return;
      guarded([&] { sweep(); });
      sweep_soon();
    });
  };
  sweep_soon();
  // a handler's exception must not end the process and every game on it: counted, logged, and
  // the loop goes on (guarded() and the handlers' own catches take almost all of them first)
  for (;;) {
    try {
      ioc_.run();
      break;
    } catch (const std::exception& e) {
      ++stats_.handler_failures;
      log_event("handler_failed", {{"error", printable(e.what())}});
    }
  }
  stop_threads();
  return 0;
}

// ---- the HTTP side without sockets (fuzzing, tests) ------------------------------------------

}  // namespace

struct HttpHarness::Impl {
  explicit Impl(const ServeOptions& o) : server(o) { server.start(); }
  ~Impl() { server.stop_threads(); }
  Server server;
};

HttpHarness::HttpHarness(const ServeOptions& o) : impl_(std::make_unique<Impl>(o)) {}
HttpHarness::~HttpHarness() = default;
std::uint64_t HttpHarness::failures() const { return impl_->server.handler_failures(); }

std::string HttpHarness::request(std::string_view raw, const std::string& client) {
  Server& srv = impl_->server;
  http::request_parser<http::string_body> parser;
  parser.header_limit(kMaxHeader);
  parser.body_limit(kMaxBody);
  parser.eager(true);
  beast::error_code ec;
  std::size_t used = 0;
  while (used < raw.size() && !parser.is_done()) {
    const std::size_t n = parser.put(net::buffer(raw.data() + used, raw.size() - used), ec);
    if (ec == http::error::need_more) {
      ec = {};
      if (n == 0) break;
    }
    if (ec) break;
    used += n;
    if (n == 0) break;
  }
  if (!parser.is_done() && !ec) return "";  // a connection would wait for the rest
  if (ec) return fmt::format("HTTP/1.1 400 Bad Request\r\n\r\n{}", ec.message());
  auto req = parser.release();
  if (websocket::is_upgrade(req)) return "";
  std::optional<http::response<http::string_body>> got;
  srv.handle_http(std::move(req), client, [&](http::response<http::string_body>&& r) { got.emplace(std::move(r)); });
  // an answer that waits for a commit: run the io loop until it comes (the committer is a thread)
  auto guard = net::make_work_guard(srv.ioc());
  for (int i = 0; i < 2000 && !got; ++i) {
    srv.ioc().restart();
    srv.ioc().run_for(std::chrono::milliseconds(5));
  }
  if (!got) throw std::runtime_error("the server never answered the request");
  std::ostringstream out;
  out << *got;
  return out.str();
}

namespace {

}  // namespace

int serve(const ServeOptions& o, std::atomic<bool>* stop) {
  Server s(o);
  return s.run(stop);
}

}  // namespace carc::server
