// What a WebSocket says: a ping, a hello (seat or spectator), a command for its game's room.
#include "server/net/server.hpp"

namespace carc::server::net_side {

void Server::ws_binary(std::uint64_t conn) {
  ++stats_.refused["binary_frame"];
  if (const auto it = sinks_.find(conn); it != sinks_.end())
    it->second(dump(json{{"type", "error"},
                         {"code", "bad_json"},
                         {"message", "message: a binary frame; messages are JSON text frames"}}));
}

void Server::ws_message(std::uint64_t conn, const std::string& game, const std::string& text) {
  ++stats_.ws_messages;
  auto error = [&](const std::string& code, const std::string& msg) {
    ++stats_.refused[code];
    const auto cl = ws_clients_.find(conn);
    log_event("refused", {{"client", cl == ws_clients_.end() ? std::string("?") : cl->second},
                          {"conn", conn},
                          {"game", printable(game.substr(0, 64))},
                          {"code", code},
                          {"message", printable(msg.substr(0, 300))}});
    if (const auto it = sinks_.find(conn); it != sinks_.end())
      it->second(dump(json{{"type", "error"}, {"code", code}, {"message", msg}}));
  };
  try {
    if (game == kLobby) return lobby_message(conn, text);
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
    if (const auto it = sinks_.find(conn); it != sinks_.end())
      it->second(json{{"type", "pong"}, {"time", now_ms()}}.dump());
    return;
  }
  if (type && *type == "hello") {
    std::string token;
    int asked_seat = -1;
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
      if (const json* s = jin::opt(msg, "seat"))
        asked_seat = static_cast<int>(jin::integer(*s, 0, kMaxPlayers - 1, "message", "seat"));
      if (const json* s = jin::opt(msg, "since"))
        since = jin::integer(*s, 0, std::int64_t{1} << 50, "message", "since");
      if (const json* v = jin::opt(msg, "views")) views = jin::boolean(*v, "message", "views");
    } catch (const InputError& e) {
      error("bad_message", e.what());
      return;
    }
    int seat = h->room->seat_of_token(token);
    if (!token.empty() && seat < 0) {
      error("bad_token", "this invite token opens no seat of the game");
      return;
    }
    // a seat without its token: the player's own (bound to the connection's session) on any device
    if (token.empty() && asked_seat >= 0) {
      if (!seat_is_mine(conn, game, asked_seat)) {
        error("not_your_seat", "this seat is not yours: open it with its invite link once, logged in");
        return;
      }
      seat = asked_seat;
    }
    if (seat < 0 && o_.max_spectators > 0 && !h->greeted.count(conn) && h->room->spectators() >= o_.max_spectators) {
      error("full", fmt::format("this game has its {} spectators already", o_.max_spectators));
      return;
    }
    // broadcasts reach the connection only from its hello's answer on, so that it never sees an
    // event before the ones it asked for
    h->greeted.insert(conn);
    if (seat >= 0) bind_seat(conn, game, seat);
    when_free(*h, [this, h, conn, seat, since, views, lang, game] {
      if (!h->greeted.count(conn)) return;  // gone meanwhile
      h->conns.insert(conn);
      run_step(*h, h->room->hello(conn, seat, since, views, now_ms(), lang));
      chat_hello(conn, game, *h, seat);
    });
    return;
  }
  if (!h->greeted.count(conn)) {
    error("no_hello", "say hello first (with your seat's token, or none to watch)");
    return;
  }
  if (type && *type == "chat") return chat_message(conn, *h, msg);  // (outside the game's log: chat.cpp)
  when_free(*h, [this, h, conn, msg] { run_step(*h, h->room->command(conn, msg, now_ms())); });
}

void Server::ws_gone(std::uint64_t conn, const std::string& game) {
  sinks_.erase(conn);
  ws_clients_.erase(conn);
  ws_sessions_.erase(conn);
  chat_conns_.erase(conn);
  if (game == kLobby) return lobby_gone(conn);
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

}  // namespace carc::server::net_side
