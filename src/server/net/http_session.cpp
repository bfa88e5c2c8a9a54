// An HTTP connection: requests read within the limits, answered in order; an upgrade becomes a
// WebSocket session.
#include "server/net/server.hpp"

namespace carc::server::net_side {

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& s, Server& srv, std::string client, Slot slot)
      : stream_(std::move(s)),
        timer_(stream_.get_executor()),
        srv_(srv),
        client_(std::move(client)),
        slot_(std::move(slot)) {}
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
      return answer(http::status::request_timeout, why_,
                    "the request did not arrive in time: the connection is closed");
    }
    if (ec == http::error::end_of_stream || ec == net::error::eof || ec == net::error::connection_reset ||
        ec == net::error::operation_aborted)
      return close();
    if (ec == http::error::body_limit) {
      srv_.refused("too_large", client_, "request body too large", 413);
      return answer(http::status::payload_too_large, "too_large",
                    fmt::format("a request body is at most {} bytes", kMaxBody));
    }
    if (ec == http::error::header_limit) {
      srv_.refused("header_too_large", client_, "request headers too large", 431);
      return answer(http::status::request_header_fields_too_large, "header_too_large",
                    fmt::format("request headers are at most {} bytes", kMaxHeader));
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
      if (srv_.draining())
        return answer(http::status::service_unavailable, "restarting", "the server is restarting: connect again");
      // a page of another site may not open a WebSocket here (docs/security.md)
      if (const std::string_view origin = req[http::field::origin];
          !origin.empty() && !srv_.origin_allowed(origin, req[http::field::host])) {
        srv_.refused("bad_origin", client_, "a WebSocket from a foreign origin", 403);
        return answer(http::status::forbidden, "bad_origin",
                      "WebSockets from other sites' pages are not accepted here");
      }
      const std::string target(req.target());
      const std::string prefix = "/ws/";
      std::string game = target.rfind(prefix, 0) == 0 ? target.substr(prefix.size()) : "";
      if (const auto q = game.find('?'); q != std::string::npos) game.resize(q);
      stream_.expires_never();
      const std::uint64_t id = srv_.next_conn();
      srv_.note_client(id, client_, srv_.session_secret(req));
      start_ws_session(stream_.release_socket(), srv_, id, game, slot_, std::move(req), srv_.options().idle_ms);
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

void start_http_session(tcp::socket&& s, Server& srv, std::string client, Slot slot) {
  std::make_shared<HttpSession>(std::move(s), srv, std::move(client), std::move(slot))->start();
}

}  // namespace carc::server::net_side
