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
#include <thread>

#include "core/core.hpp"
#include "server/bot_turn.hpp"
#include "server/crypto.hpp"
#include "server/room.hpp"
#include "server/server.hpp"
#include "server/store.hpp"
#include "server/web_api.hpp"
#include "tiles/json_input.hpp"

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

class WsSession : public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(tcp::socket&& s, Server& srv, std::uint64_t id, std::string game) : ws_(std::move(s)), srv_(srv), id_(id), game_(std::move(game)) {}
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
};

struct Stats {
  std::uint64_t commits = 0, appends = 0, events = 0, max_batch = 0, failed = 0;
  std::vector<double> commit_ms;  // the last commits' durations (a ring)
};

class Server {
 public:
  explicit Server(const ServeOptions& o) : o_(o), acceptor_(ioc_) {}

  int run(std::atomic<bool>* stop);
  net::io_context& ioc() { return ioc_; }

  // the WebSocket side
  void ws_message(std::uint64_t conn, const std::string& game, const std::string& text);
  void ws_gone(std::uint64_t conn, const std::string& game);
  void add_sink(std::uint64_t conn, Sink s) { sinks_[conn] = std::move(s); }
  std::uint64_t next_conn() { return ++conn_ids_; }
  void handle_http(http::request<http::string_body>&& req, std::function<void(http::response<http::string_body>&&)> reply);

 private:
  void log(const std::string& line) const {
    if (!o_.quiet) std::cerr << line << std::endl;
  }
  Host* host(const std::string& id);  // loads the room if needed; nullptr if no such game
  void send(Host& h, const std::vector<Out>& out);
  // Runs `f` on the room now, or after the commit in flight.
  void when_free(Host& h, std::function<void()> f);
  void run_step(Host& h, Step&& st);
  void arm(Host& h);
  void commit_loop();
  void worker_loop(int index);
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
  std::unique_ptr<net::steady_timer> heads_timer_;

  ServeOptions o_;
  net::io_context ioc_{1};
  tcp::acceptor acceptor_;
  std::unique_ptr<Store> store_;
  std::map<std::string, std::unique_ptr<Host>> hosts_;
  std::map<std::uint64_t, Sink> sinks_;
  std::uint64_t conn_ids_ = 0;
  Stats stats_;
  // group commit
  std::mutex cmu_;
  std::condition_variable ccv_;
  std::vector<Append> cq_;  // rooms' appends (each with events) and settled jobs (none)
  bool cstop_ = false;
  // workers
  std::condition_variable wcv_;
  std::mutex wmu_;
  bool wstop_ = false;
  std::uint64_t wake_ = 0;  // bumped (under wmu_) when jobs may be due: idle workers look again
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
    if (ec) return;
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
    self->srv_.ws_message(self->id_, self->game_, text);
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
  HttpSession(tcp::socket&& s, Server& srv, std::int64_t idle_ms) : stream_(std::move(s)), srv_(srv), idle_ms_(idle_ms) {}
  void start() { read_next(); }

 private:
  void read_next() {
    parser_.emplace();
    parser_->body_limit(kMaxBody);
    stream_.expires_after(std::chrono::seconds(30));
    http::async_read(stream_, buf_, *parser_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) {
        if (ec == http::error::body_limit) {
          http::response<http::string_body> r{http::status::payload_too_large, 11};
          r.set(http::field::content_type, "application/json");
          r.body() = json{{"code", "too_large"}, {"message", fmt::format("a request body is at most {} bytes", kMaxBody)}}.dump();
          r.prepare_payload();
          self->write(std::move(r), true);
        }
        return;
      }
      auto req = self->parser_->release();
      if (websocket::is_upgrade(req)) {
        const std::string target(req.target());
        const std::string prefix = "/ws/";
        std::string game = target.rfind(prefix, 0) == 0 ? target.substr(prefix.size()) : "";
        if (const auto q = game.find('?'); q != std::string::npos) game.resize(q);
        stream_expire_never(self->stream_);
        const std::uint64_t id = self->srv_.next_conn();
        std::make_shared<WsSession>(self->stream_.release_socket(), self->srv_, id, game)->start(std::move(req), self->idle_ms_);
        return;
      }
      const bool keep = req.keep_alive();
      self->srv_.handle_http(std::move(req), [self, keep](http::response<http::string_body>&& r) {
        r.keep_alive(keep);
        self->write(std::move(r), !keep);
      });
    });
  }
  static void stream_expire_never(beast::tcp_stream& s) { s.expires_never(); }
  void write(http::response<http::string_body>&& r, bool close) {
    auto res = std::make_shared<http::response<http::string_body>>(std::move(r));
    http::async_write(stream_, *res, [self = shared_from_this(), res, close](beast::error_code ec, std::size_t) {
      if (ec || close) {
        beast::error_code ignored;
        self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        return;
      }
      self->read_next();
    });
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buf_;
  std::optional<http::request_parser<http::string_body>> parser_;
  Server& srv_;
  std::int64_t idle_ms_;
};

// ---- rooms ---------------------------------------------------------------------------------

Host* Server::host(const std::string& id) {
  if (const auto it = hosts_.find(id); it != hosts_.end()) return it->second.get();
  if (id.empty() || id.size() > 40) return nullptr;
  const auto meta = store_->game(id);
  if (!meta) return nullptr;
  auto h = std::make_unique<Host>();
  h->room = std::make_unique<Room>(*meta, store_->events(id, 0));
  h->timer = std::make_unique<net::steady_timer>(ioc_);
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
  f();
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
  const std::int64_t d = h.room->deadline();
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

void Server::ws_message(std::uint64_t conn, const std::string& game, const std::string& text) {
  Host* h = nullptr;
  try {
    h = text.find("\"hello\"") != std::string::npos ? fresh(game) : host(game);  // a hello sees the latest log
  } catch (const std::exception& e) {
    log(fmt::format("game {}: does not load: {}", game, e.what()));
  }
  auto error = [&](const std::string& code, const std::string& msg) {
    if (const auto it = sinks_.find(conn); it != sinks_.end()) it->second(json{{"type", "error"}, {"code", code}, {"message", msg}}.dump());
  };
  if (!h) {
    error("unknown_game", fmt::format("no game \"{}\"", printable(game)));
    return;
  }
  json msg;
  try {
    msg = json::parse(text);
    if (!msg.is_object()) throw InputError("message: expected a JSON object");
  } catch (const std::exception& e) {
    error("bad_json", std::string("message: not JSON: ") + e.what());
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
    try {
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
    // broadcasts reach the connection only from its hello's answer on, so that it never sees an
    // event before the ones it asked for
    h->greeted.insert(conn);
    when_free(*h, [this, h, conn, seat, since, views] {
      if (!h->greeted.count(conn)) return;  // gone meanwhile
      h->conns.insert(conn);
      run_step(*h, h->room->hello(conn, seat, since, views, now_ms()));
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
  if (h && !h->room->busy() && h->waiting.empty() && !store_->events(id, h->room->seq()).empty()) {
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
    } catch (const std::exception& e) {
      log(fmt::format("heads: {}", e.what()));
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
      ++stats_.commits;
      stats_.appends += batch.size();
      stats_.max_batch = std::max<std::uint64_t>(stats_.max_batch, batch.size());
      if (stats_.commit_ms.size() >= 4096) stats_.commit_ms.erase(stats_.commit_ms.begin(), stats_.commit_ms.begin() + 2048);
      stats_.commit_ms.push_back(ms);
      bool jobs = false;
      for (std::size_t i = 0; i < batch.size(); ++i) {
        stats_.events += batch[i].events.size();
        jobs |= ok[i] && batch[i].job.has_value();
        if (batch[i].events.empty()) continue;  // a job settled aside (a room's commit always has events)
        const auto it = hosts_.find(batch[i].game);
        if (it == hosts_.end()) continue;
        Host& h = *it->second;
        std::vector<Out> out;
        if (ok[i]) {
          h.room->committed(out);
          send(h, out);
        } else {
          ++stats_.failed;
          h.room->failed(why.empty() ? "another server extended this game" : why, out);
          send(h, out);
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
          f();
        }
        arm(h);
      }
      if (jobs) wake_workers();
    });
  }
}

// ---- bot workers inside the server ---------------------------------------------------------

void Server::worker_loop(int index) {
  const std::string lease = fmt::format("{}-{}", lease_prefix_, index);
  for (;;) {
    std::uint64_t seen = 0;  // wake_ before looking for a job: a commit after it wakes us
    {
      std::unique_lock lock(wmu_);
      if (wstop_) return;
      seen = wake_;
    }
    std::optional<Job> job;
    try {
      job = store_->take_job(lease, now_ms(), o_.lease_ms);
    } catch (const std::exception& e) {
      log(fmt::format("worker: {}", e.what()));
    }
    if (!job) {
      // wait for a commit that makes a job due (or 200 ms: jobs of other processes, leases ending)
      std::unique_lock lock(wmu_);
      wcv_.wait_for(lock, std::chrono::milliseconds(200), [&] { return wstop_ || wake_ != seen; });
      continue;
    }
    // the position: a copy of the room's game (on the io thread). A room another process has
    // extended is reloaded from the store first; a job the game has moved past is settled.
    std::optional<Game> game;
    for (int tries = 0; tries < 50 && !game; ++tries) {
      auto got = std::make_shared<std::promise<int>>();  // 0 got it, 1 busy: again, 2 stale
      auto fut = got->get_future();
      net::post(ioc_, [this, j = *job, got, &game] {
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
            game.emplace(h->room->game());
            got->set_value(0);
          }
        } catch (const std::exception&) {
          got->set_value(2);
        }
      });
      while (fut.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready) {
        const std::lock_guard lock(wmu_);
        if (wstop_) return;
      }
      const int r = fut.get();
      if (r == 2) break;
      if (r == 1) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!game) continue;
    std::vector<std::string> moves;
    try {
      const std::uint64_t seed = std::hash<std::string>{}(job->game) ^ static_cast<std::uint64_t>(job->seq) * 0x9E3779B97F4A7C15ULL;
      moves = bot_decisions(std::move(*game), job->seat, job->spec, seed);
    } catch (const std::exception& e) {
      log(fmt::format("worker: game {} seq {}: {}", job->game, job->seq, e.what()));  // stale (the game went on): its job is settled by the room
      continue;
    }
    net::post(ioc_, [this, j = *job, moves = std::move(moves)] {
      Host* h = host(j.game);
      if (!h) return;
      when_free(*h, [this, h, j, moves] { run_step(*h, h->room->bot_play(kNobody, j.seat, fmt::format("job:{}", j.seq), j.seq, moves, now_ms())); });
    });
  }
}

// ---- HTTP API ------------------------------------------------------------------------------

void Server::handle_http(http::request<http::string_body>&& req, std::function<void(http::response<http::string_body>&&)> reply) {
  auto respond = [&](http::status st, const std::string& body, const std::string& type = "application/json") {
    http::response<http::string_body> r{st, req.version()};
    r.set(http::field::server, "carcassonne");
    r.set(http::field::content_type, type);
    r.set(http::field::cache_control, "no-store");
    r.body() = body;
    r.prepare_payload();
    reply(std::move(r));
  };
  auto problem = [&](http::status st, const std::string& code, const std::string& msg) {
    respond(st, json{{"code", code}, {"message", msg}}.dump());
  };
  std::string target(req.target());
  std::string query;
  if (const auto q = target.find('?'); q != std::string::npos) {
    query = target.substr(q + 1);
    target.resize(q);
  }
  auto param = [&](const std::string& key) -> std::string {
    for (std::size_t at = 0; at <= query.size();) {
      const auto amp = query.find('&', at);
      const std::string kv = query.substr(at, amp == std::string::npos ? std::string::npos : amp - at);
      if (kv.rfind(key + "=", 0) == 0) return kv.substr(key.size() + 1);
      if (amp == std::string::npos) break;
      at = amp + 1;
    }
    return "";
  };
  const auto method = req.method();
  try {
    if (target == "/api/games" && method == http::verb::post) {
      json body;
      try {
        body = json::parse(req.body());
      } catch (const json::exception& e) {
        problem(http::status::bad_request, "bad_json", std::string("request: not JSON: ") + e.what());
        return;
      }
      if (body.is_object() && body.contains("seed") && !o_.allow_seed) {
        problem(http::status::bad_request, "bad_request", "request: seed: the server draws with a seed of its own (start it with --allow-seed for tests)");
        return;
      }
      const std::string id = random_hex(6);
      Created c = create_game(body, id, now_ms());
      store_->create(c.meta, c.first);
      if (c.first.job) wake_workers();
      Host* h = host(id);
      json seats = json::array();
      const auto& st = h->room->settings();
      for (std::size_t i = 0; i < st.seats.size(); ++i) {
        json s{{"seat", i}, {"name", st.seats[i].name}, {"bot", st.seats[i].bot}};
        if (!c.tokens[i].empty()) {
          s["token"] = c.tokens[i];
          s["invite"] = fmt::format("/play/{}?seat={}&token={}", id, i, c.tokens[i]);
        }
        seats.push_back(std::move(s));
      }
      respond(http::status::created, json{{"id", id}, {"seats", seats}, {"seed_hash", sha256_hex(c.meta.seed)}}.dump());
      return;
    }
    if (target == "/api/games" && method == http::verb::get) {
      const std::string status = param("status");
      json out = json::array();
      for (const GameMeta& m : store_->list(status, 200)) out.push_back({{"id", m.id}, {"game", m.game}, {"status", m.status}, {"created", m.created}});
      respond(http::status::ok, out.dump());
      return;
    }
    // a job's result goes to /api/games/ID/job, so that a proxy routes it to the game's process
    std::string job_game;
    if (target.rfind("/api/games/", 0) == 0 && target.size() > 15 && target.substr(target.size() - 4) == "/job")
      job_game = target.substr(11, target.size() - 15);
    if ((target == "/api/jobs/take" || !job_game.empty()) && method == http::verb::post) {
      // bot workers outside the server: only with the server's --worker-key
      if (o_.worker_key.empty() || req["X-Worker-Key"] != o_.worker_key) {
        problem(http::status::forbidden, "bad_key", "workers need the server's --worker-key (X-Worker-Key)");
        return;
      }
      if (target == "/api/jobs/take") {
        for (int tries = 0; tries < 8; ++tries) {
          const auto job = store_->take_job(fmt::format("{}-http-{}", lease_prefix_, ++conn_ids_), now_ms(), o_.lease_ms);
          if (!job) break;
          Host* h = fresh(job->game);
          if (!h || h->room->seq() != job->seq || h->room->busy()) continue;  // settled or about to be: the room clears it
          respond(http::status::ok, json{{"game", job->game}, {"seq", job->seq}, {"seat", job->seat}, {"spec", job->spec}, {"lease", job->lease},
                                         {"lease_until", job->lease_until}, {"record", json::parse(h->room->record_json())}}
                                        .dump());
          return;
        }
        http::response<http::string_body> r{http::status::no_content, req.version()};
        r.set(http::field::server, "carcassonne");
        reply(std::move(r));
        return;
      }
      json body;
      std::string game, moves_err;
      std::int64_t seq = 0;
      int seat = 0;
      std::vector<std::string> moves;
      try {
        body = json::parse(req.body());
        game = job_game;
        seq = jin::integer(jin::need(body, "seq", "request"), 0, std::int64_t{1} << 50, "request", "seq");
        seat = static_cast<int>(jin::integer(jin::need(body, "seat", "request"), 0, kMaxPlayers - 1, "request", "seat"));
        const json& mv = jin::array(jin::need(body, "moves", "request"), "request", "moves", 16);
        for (std::size_t i = 0; i < mv.size(); ++i) moves.push_back(jin::string(mv[i], "request", fmt::format("moves[{}]", i), 200));
      } catch (const std::exception& e) {
        problem(http::status::bad_request, "bad_request", e.what());
        return;
      }
      Host* h = host(game);
      if (!h) {
        problem(http::status::not_found, "unknown_game", fmt::format("no game \"{}\"", printable(game)));
        return;
      }
      // the answer (a reject now, or the ack after the commit) goes to this request
      const std::uint64_t conn = next_conn();
      auto answer = std::make_shared<std::function<void(http::response<http::string_body>&&)>>(std::move(reply));
      const unsigned version = req.version();
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
      when_free(*h, [this, h, conn, seat, seq, moves] { run_step(*h, h->room->bot_play(conn, seat, fmt::format("job:{}", seq), seq, moves, now_ms())); });
      return;
    }
    if (target == "/api/catalog" && method == http::verb::get) {
      respond(http::status::ok, catalog_json());
      return;
    }
    if (target.rfind("/api/tiles/", 0) == 0 && method == http::verb::get) {
      try {
        respond(http::status::ok, tiles_json(target.substr(11)));
      } catch (const InputError& e) {
        problem(http::status::not_found, "unknown_game", e.what());
      }
      return;
    }
    if (target == "/api/replay" && method == http::verb::post) {
      respond(http::status::ok, replay_json(req.body()));
      return;
    }
    if (target == "/api/stats" && method == http::verb::get) {
      std::vector<double> ms = stats_.commit_ms;
      std::sort(ms.begin(), ms.end());
      auto pct = [&](double p) { return ms.empty() ? 0.0 : ms[std::min(ms.size() - 1, static_cast<std::size_t>(p * static_cast<double>(ms.size())))]; };
      respond(http::status::ok, json{{"games_loaded", hosts_.size()}, {"connections", sinks_.size()}, {"commits", stats_.commits},
                                     {"appends", stats_.appends}, {"events", stats_.events}, {"max_batch", stats_.max_batch},
                                     {"mean_batch", stats_.commits ? static_cast<double>(stats_.appends) / static_cast<double>(stats_.commits) : 0.0},
                                     {"failed", stats_.failed}, {"commit_ms_p50", pct(0.5)}, {"commit_ms_p99", pct(0.99)}, {"store", store_->kind()}}
                                    .dump());
      return;
    }
    const std::string games = "/api/games/";
    if (target.rfind(games, 0) == 0 && method == http::verb::get) {
      std::string rest = target.substr(games.size());
      std::string what;
      if (const auto sl = rest.find('/'); sl != std::string::npos) {
        what = rest.substr(sl + 1);
        rest.resize(sl);
      }
      Host* h = host(rest);
      if (!h) {
        problem(http::status::not_found, "unknown_game", fmt::format("no game \"{}\"", printable(rest)));
        return;
      }
      if (what.empty()) {
        respond(http::status::ok, h->room->summary(now_ms()).dump());
      } else if (what == "record") {
        respond(http::status::ok, h->room->record_json());
      } else if (what == "events") {
        long long since = 0;
        (void)parse_int(param("since"), 0, 1LL << 50, since);
        json evs = json::array();
        for (const Event& e : h->room->log())
          if (e.seq > since) evs.push_back(event_json(e));
        respond(http::status::ok, evs.dump());
      } else {
        problem(http::status::not_found, "not_found", "no such resource");
      }
      return;
    }
    if (method == http::verb::get) {
      // the browser client's files, or the placeholder page
      namespace fs = std::filesystem;
      if (!o_.web_root.empty()) {
        // the client's own paths (/, /play/ID, /replay...) are its page; files have an extension
        const std::string last = target.substr(target.rfind('/') + 1);
        fs::path p = fs::path(o_.web_root) / (last.find('.') == std::string::npos ? std::string("index.html") : target.substr(1));
        const auto canon = fs::weakly_canonical(p);
        const auto root = fs::weakly_canonical(fs::path(o_.web_root));
        const bool inside = canon.string().rfind(root.string(), 0) == 0;
        std::ifstream in(canon, std::ios::binary);
        if (inside && in) {
          respond(http::status::ok, std::string(std::istreambuf_iterator<char>(in), {}), content_type(canon));
          return;
        }
      } else if (target == "/" || target.rfind("/play/", 0) == 0) {
        respond(http::status::ok, kPlaceholder, "text/html; charset=utf-8");
        return;
      }
      problem(http::status::not_found, "not_found", fmt::format("nothing at {}", printable(target)));
      return;
    }
    problem(http::status::method_not_allowed, "bad_method", "method not allowed here");
  } catch (const InputError& e) {
    problem(http::status::bad_request, "bad_request", e.what());
  } catch (const StoreError& e) {
    problem(http::status::service_unavailable, "store", e.what());
  }
}

// ---- start and stop ------------------------------------------------------------------------

void Server::accept() {
  acceptor_.async_accept(net::make_strand(ioc_), [this](beast::error_code ec, tcp::socket s) {
    if (ec) return;
    beast::error_code ignored;
    s.set_option(tcp::no_delay(true), ignored);  // small frames go at once (no Nagle delay)
    std::make_shared<HttpSession>(std::move(s), *this, o_.idle_ms)->start();
    accept();
  });
}

int Server::run(std::atomic<bool>* stop) {
  store_ = open_store(o_.db);
  // every active game back from its log; due jobs stay in the store
  int loaded = 0;
  for (const std::string& id : store_->active()) {
    try {
      host(id);
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
  std::cout << fmt::format("listening on http://{}:{} (store: {}, {} active games loaded)", addr.to_string(), acceptor_.local_endpoint().port(),
                           store_->kind(), loaded)
            << std::endl;
  if (!o_.web_root.empty())
    std::cout << fmt::format("open http://{}:{}/ in a browser: one click starts a game against a bot (Ctrl-C stops the server)",
                             addr.is_unspecified() ? std::string("127.0.0.1") : addr.to_string(), acceptor_.local_endpoint().port())
              << std::endl;
  if (store_->kind() == "postgresql") {  // other processes may share it
    heads_timer_ = std::make_unique<net::steady_timer>(ioc_);
    watch_heads();
  }
  std::thread committer([this] { commit_loop(); });
  std::vector<std::thread> workers;
  for (int i = 0; i < o_.workers; ++i) workers.emplace_back([this, i] { worker_loop(i); });
  net::signal_set signals(ioc_, SIGINT, SIGTERM);
  signals.async_wait([this](beast::error_code, int) { ioc_.stop(); });
  net::steady_timer poll(ioc_);
  std::function<void()> watch = [&] {
    poll.expires_after(std::chrono::milliseconds(100));
    poll.async_wait([&](beast::error_code e) {
      if (e) return;
      if (stop && *stop) ioc_.stop();
      else watch();
    });
  };
  watch();
  ioc_.run();
  {
    const std::lock_guard lock(wmu_);
    wstop_ = true;
  }
  wcv_.notify_all();
  for (auto& w : workers) w.join();
  {
    const std::lock_guard lock(cmu_);
    cstop_ = true;
  }
  ccv_.notify_all();
  committer.join();
  return 0;
}

}  // namespace

int serve(const ServeOptions& o, std::atomic<bool>* stop) {
  Server s(o);
  return s.run(stop);
}

}  // namespace carc::server
