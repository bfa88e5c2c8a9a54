// Start, run, drain and stop: the server's life; `serve` and the HttpHarness (the HTTP side
// without sockets).
#include "server/net/server.hpp"

namespace carc::server::net_side {

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
  const std::string bye = dump(json{
      {"type", "error"}, {"code", "restart"}, {"message", "the server is restarting: connect again in a few seconds"}});
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
      if (stats_.accept_errors % 100 == 1)
        log_event("accept_failed", {{"error", ec.message()}, {"retry_ms", accept_backoff_ms_}});
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
          "HTTP/1.1 503 Service Unavailable\r\nServer: carcassonne\r\nContent-Type: application/json\r\nRetry-After: "
          "5\r\nConnection: close\r\n"
          "Content-Length: {}\r\n\r\n{}",
          body.size(), body);
      s.non_blocking(true, ignored);
      (void)s.write_some(net::buffer(text), ignored);
      s.shutdown(tcp::socket::shutdown_both, ignored);
      s.close(ignored);
    } else {
      start_http_session(std::move(s), *this, std::move(addr), std::move(slot));
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
  accounts_ = std::make_unique<accounts::AccountStore>(accounts::open_sql(o_.db));
  hashes_ = std::make_unique<accounts::HashPool>(std::max(1, o_.hash_threads));
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
  hashes_.reset();  // (its threads post to the io context: they end before it)
}

int Server::run(std::atomic<bool>* stop) {
  // as many descriptors as the system lets this process have
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rlimit want = rl;
    want.rlim_cur = rl.rlim_max == RLIM_INFINITY ? std::max<rlim_t>(rl.rlim_cur, 1 << 20) : rl.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &want) == 0) rl = want;
  }
  max_conns_ = o_.max_conns > 0
                   ? o_.max_conns
                   : static_cast<int>(std::clamp<rlim_t>(rl.rlim_cur > 128 ? rl.rlim_cur - 64 : 64, 64, 1 << 20));
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
  if (colon == std::string::npos)
    throw InputError(fmt::format("--listen: \"{}\" is not HOST:PORT", printable(o_.listen)));
  long long port = 0;
  if (!parse_int(o_.listen.substr(colon + 1), 0, 65535, port))
    throw InputError(fmt::format("--listen: \"{}\": the port is 0 to 65535", printable(o_.listen)));
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
  std::cout << fmt::format("listening on http://{}:{} (store: {}, {} active games, loaded when asked for)",
                           addr.to_string(), acceptor_.local_endpoint().port(), store_->kind(), loaded)
            << std::endl;
  if (!o_.web_root.empty())
    std::cout << fmt::format(
                     "open http://{}:{}/ in a browser: one click starts a game against a bot (Ctrl-C stops the server)",
                     addr.is_unspecified() ? std::string("127.0.0.1") : addr.to_string(),
                     acceptor_.local_endpoint().port())
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
      if (stop && *stop)
        drain();
      else
        watch();
    });
  };
  watch();
  every(*sweep_timer_, 1000, true, [this] { sweep(); });
  // quick pairing: a wave every --pairing-wave-ms (docs/pairing.md); the lobby's batches (lobby.cpp)
  pairing_timer_ = std::make_unique<net::steady_timer>(ioc_);
  if (o_.pairing_wave_ms > 0) every(*pairing_timer_, o_.pairing_wave_ms, false, [this] { pairing_wave(); });
  lobby_timer_ = std::make_unique<net::steady_timer>(ioc_);
  every(*lobby_timer_, o_.lobby_ms, false, [this] { lobby_tick(); });
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

}  // namespace carc::server::net_side

namespace carc::server {

using net_side::kMaxBody;
using net_side::kMaxHeader;
using net_side::Server;
namespace http = net_side::http;
namespace beast = net_side::beast;
namespace websocket = net_side::websocket;
namespace net = net_side::net;

// ---- the HTTP side without sockets (fuzzing, tests) ------------------------------------------

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

void Server::every(net::steady_timer& t, std::int64_t ms, bool in_drain, std::function<void()> f) {
  t.expires_after(std::chrono::milliseconds(ms));
  t.async_wait([this, &t, ms, in_drain, f = std::move(f)](beast::error_code e) mutable {
    if (e || (draining_ && !in_drain)) return;
    guarded(f);
    every(t, ms, in_drain, std::move(f));
  });
}

std::vector<std::string> HttpHarness::websocket(const std::string& game, const std::string& session,
                                                const std::vector<std::string>& frames) {
  Server& srv = impl_->server;
  const std::uint64_t id = srv.next_conn();
  std::vector<std::string> out;
  srv.add_sink(id, [&out](const std::string& text) { out.push_back(text); });
  srv.note_client(id, "127.0.0.1", session);
  auto guard = net::make_work_guard(srv.ioc());
  auto pump = [&] {  // what waits for a commit gets it (the committer is a thread)
    for (int i = 0; i < 4; ++i) {
      srv.ioc().restart();
      srv.ioc().run_for(std::chrono::milliseconds(2));
    }
  };
  for (const std::string& f : frames) {
    srv.ws_message(id, game, f);
    pump();
  }
  srv.ws_gone(id, game);  // (its sink goes: nothing is sent to `out` after)
  pump();
  return out;
}

int serve(const ServeOptions& o, std::atomic<bool>* stop) {
  Server s(o);
  return s.run(stop);
}

}  // namespace carc::server
