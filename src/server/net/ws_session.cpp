// A WebSocket connection: its frames to Server::ws_message, what the server sends to it in order.
#include "server/net/server.hpp"

namespace carc::server::net_side {

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
    if (!self->ws_.got_text())
      self->srv_.ws_binary(self->id_);
    else
      self->srv_.ws_message(self->id_, self->game_, text);
    if (!self->closed_)
      self->read_next();
    else
      self->gone();
  });
}

void WsSession::gone() {
  closed_ = true;
  if (left_) return;
  left_ = true;
  srv_.ws_gone(id_, game_);
}

void start_ws_session(tcp::socket&& s, Server& srv, std::uint64_t id, std::string game, Slot slot,
                      http::request<http::string_body>&& req, std::int64_t idle_ms) {
  std::make_shared<WsSession>(std::move(s), srv, id, std::move(game), std::move(slot))->start(std::move(req), idle_ms);
}

}  // namespace carc::server::net_side
