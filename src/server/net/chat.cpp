// Talking at the table (docs/server-protocol.md, "Chat and reports"): each game's players' chat and
// its spectators' chat, kept in the store beside the game and outside its log; while the game goes
// on each side reads only its own, once it is over both are public. Limits: 200 characters, 5
// messages in 10 s per player, 300 per side of a game; guests write only in games made by invite
// links, or at an open table whose host allowed it; blocked players do not get each other's
// messages. Reports go to the operator's queue (`carcassonne admin reports`).
#include "server/net/server.hpp"

namespace carc::server::net_side {
namespace {

constexpr std::size_t kChatChars = 200, kNoteChars = 500;
constexpr int kBurst = 5, kPerGame = 300, kReportsPerHour = 10;
constexpr std::int64_t kBurstMs = 10000;
constexpr std::string_view kPhrases[] = {"hello", "good_luck", "thinking", "well_played", "good_game", "thanks"};
constexpr std::string_view kReasons[] = {"abuse", "cheating", "spam", "name", "other"};

json message_json(const accounts::AccountStore::ChatMessage& m) {
  json j{{"id", m.id},
         {"channel", m.channel},
         {"seat", m.seat},
         {"player", m.player},
         {"name", m.name.empty() ? json(nullptr) : json(m.name)},
         {"time", m.time}};
  if (!m.phrase.empty())
    j["phrase"] = m.phrase;
  else
    j["text"] = m.text;
  return j;
}

const char* channel_of(int seat) { return seat >= 0 ? "players" : "spectators"; }

}  // namespace

void Server::chat_hello(std::uint64_t conn, const std::string& game, Host& h, int seat) {
  ChatConn cc;
  cc.game = game;
  cc.seat = seat;
  try {
    if (const auto s = ws_sessions_.find(conn); s != ws_sessions_.end())
      if (const auto p = accounts_->by_session(s->second, now_ms())) {
        cc.player = p->id;
        if (!p->guest()) cc.name = p->name;
        for (std::string& b : accounts_->blocks_with(p->id)) cc.blocks.insert(std::move(b));
        if (p->guest()) {
          const auto meta = store_->game(game);
          const json settings = meta ? json::parse(meta->settings, nullptr, false) : json();
          const std::string origin = settings.is_object() ? settings.value("origin", "") : "";
          if ((origin == "pairing" || origin == "table") && !settings.value("guest_chat", false))
            cc.refusal = "chat_guest";
        }
      }
    if (cc.player.empty()) cc.refusal = "chat_account";
    const bool over = h.room->over();
    json msgs = json::array();
    for (const auto& m : accounts_->chat_of(game))
      if ((over || m.channel == channel_of(seat)) && !cc.blocks.count(m.player)) msgs.push_back(message_json(m));
    chat_conns_[conn] = std::move(cc);
    if (!msgs.empty())
      if (const auto it = sinks_.find(conn); it != sinks_.end())
        it->second(dump(json{{"type", "chat"}, {"messages", msgs}}));
  } catch (const std::exception& e) {  // the game is played all the same; its chat waits for the next hello
    log_event("chat_failed", {{"game", printable(game)}, {"error", printable(e.what())}});
  }
}

void Server::chat_message(std::uint64_t conn, Host& h, const json& msg) {
  const auto sink = sinks_.find(conn);
  if (sink == sinks_.end()) return;
  const std::int64_t seq = h.room->seq();
  std::string cid;
  auto reject = [&](const std::string& code, const std::string& message) {
    ++stats_.refused[code];
    sink->second(dump(json{{"type", "reject"}, {"cid", cid}, {"code", code}, {"message", message}, {"seq", seq}}));
  };
  std::string text, phrase;
  try {
    for (const auto& [k, v] : msg.items())
      if (k != "type" && k != "cid" && k != "text" && k != "phrase")
        throw InputError(
            fmt::format("message: {}: not a field of a chat message (cid, text, phrase)", printable(k.substr(0, 40))));
    cid = jin::string(jin::need(msg, "cid", "message"), "message", "cid", 64);
    if (cid.empty()) throw InputError("message: cid: empty");
    if (msg.contains("text") == msg.contains("phrase"))
      throw InputError("message: text or phrase: a chat message has one of them");
    if (msg.contains("text")) {
      text = jin::string(msg["text"], "message", "text", 4 * kChatChars);
      if (const std::string why = name_problem(text, kChatChars); !why.empty())
        throw InputError(fmt::format("message: text: {}", why));
    } else {
      phrase = jin::string(msg["phrase"], "message", "phrase", 40);
      if (std::find(std::begin(kPhrases), std::end(kPhrases), phrase) == std::end(kPhrases))
        throw InputError(fmt::format(
            "message: phrase: \"{}\" is not a phrase (hello, good_luck, thinking, well_played, good_game, thanks)",
            printable(phrase)));
    }
  } catch (const InputError& e) {
    return reject("bad_message", e.what());
  }
  const auto it = chat_conns_.find(conn);
  if (it == chat_conns_.end()) return reject("chat_account", "the chat opens after hello: say hello first");
  const ChatConn& cc = it->second;
  if (cc.refusal == "chat_account")
    return reject("chat_account", "the chat is for players with a session: open the game from its page");
  if (cc.refusal == "chat_guest") return reject("chat_guest", "guests read this table's chat; an account writes in it");
  const std::int64_t now = now_ms();
  auto& times = chat_times_[cc.player];
  while (!times.empty() && times.front() <= now - kBurstMs) times.pop_front();
  const std::string channel = channel_of(cc.seat);
  if (static_cast<int>(times.size()) >= kBurst)
    return reject("chat_too_fast", fmt::format("at most {} messages in {} s: wait a little", kBurst, kBurstMs / 1000));
  if (accounts_->chat_count(cc.game, channel) >= kPerGame)
    return reject("chat_too_fast", fmt::format("this chat has its {} messages", kPerGame));
  times.push_back(now);
  if (chat_times_.size() > 10000)  // forget those with nothing in the last 10 s
    for (auto t = chat_times_.begin(); t != chat_times_.end();)
      t = t->second.empty() || t->second.back() <= now - kBurstMs ? chat_times_.erase(t) : std::next(t);
  accounts::AccountStore::ChatMessage m{random_hex(8), cc.game, channel, cc.player, cc.name,
                                        text,          phrase,  cc.seat, now};
  accounts_->add_chat(m);
  sink->second(dump(json{{"type", "ack"}, {"cid", cid}, {"seq", std::max<std::int64_t>(seq, 1)}}));
  const std::string out = dump(json{{"type", "chat"}, {"messages", json::array({message_json(m)})}});
  const bool over = h.room->over();
  for (const std::uint64_t other : h.conns) {
    const auto o = chat_conns_.find(other);
    if (o == chat_conns_.end() || o->second.blocks.count(m.player)) continue;
    if (!over && channel_of(o->second.seat) != channel) continue;
    if (const auto s = sinks_.find(other); s != sinks_.end()) s->second(out);
  }
}

// GET /api/games/ID/chat: the spectators' chat, and the players' once the game is over.
void Server::http_chat(HttpCall& c) {
  const auto meta = store_->game(c.arg);
  if (!meta) return c.problem(http::status::not_found, "unknown_game", "no such game");
  bool over = meta->status != "active";
  if (!over)
    if (Host* h = host(c.arg)) over = h->room->over();
  json msgs = json::array();
  for (const auto& m : accounts_->chat_of(c.arg))
    if (over || m.channel == "spectators") msgs.push_back(message_json(m));
  c.respond(http::status::ok, dump(json{{"messages", msgs}}));
}

// POST /api/reports {"name", "reason", "game", "message", "note"}
void Server::http_report(HttpCall& c) {
  json body = jin::parse(c.req.body().empty() ? "{}" : c.req.body(), "request");
  if (!body.is_object()) throw InputError("request: expected a JSON object");
  for (const auto& [k, v] : body.items())
    if (k != "name" && k != "reason" && k != "game" && k != "message" && k != "note")
      throw InputError(fmt::format("request: {}: not a field of a report (name, reason, game, message, note)",
                                   printable(k.substr(0, 40))));
  accounts::AccountStore::Report r;
  const std::string name = jin::string(jin::need(body, "name", "request"), "request", "name", 64);
  r.reason = jin::string(jin::need(body, "reason", "request"), "request", "reason", 20);
  if (std::find(std::begin(kReasons), std::end(kReasons), r.reason) == std::end(kReasons))
    throw InputError(fmt::format("request: reason: \"{}\" is not a reason (abuse, cheating, spam, name, other)",
                                 printable(r.reason)));
  if (body.contains("game")) r.game = jin::string(body["game"], "request", "game", 64);
  if (body.contains("message")) r.message = jin::string(body["message"], "request", "message", 64);
  if (body.contains("note")) {
    r.note = jin::string(body["note"], "request", "note", 4 * kNoteChars);
    if (utf8_chars(r.note) > kNoteChars || has_control_chars(r.note))
      throw InputError(fmt::format("request: note: at most {} characters, no control characters", kNoteChars));
  }
  const std::int64_t now = now_ms();
  const auto p = signed_in(c, now);
  if (!p) return;
  const auto other = accounts_->by_name(accounts::username_key(name));
  if (!other || other->deleted) return c.problem(http::status::not_found, "unknown_player", "no account has this name");
  if (other->id == p->id) return c.problem(http::status::bad_request, "bad_request", "request: name: that is you");
  if (accounts_->reports_since(p->id, now - 3600 * 1000) >= kReportsPerHour) {
    c.retry_after = 600;
    return c.problem(http::status::too_many_requests, "rate_limited",
                     fmt::format("at most {} reports an hour: the operator has yours", kReportsPerHour));
  }
  r.id = random_hex(8);
  r.reporter = p->id;
  r.reported = other->id;
  r.made = now;
  accounts_->add_report(r);
  log_event("report", {{"report", r.id}, {"reason", r.reason}});
  c.respond(http::status::created, dump(json{{"report", r.id}}));
}

}  // namespace carc::server::net_side
