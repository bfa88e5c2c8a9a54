// Players and sessions over HTTP (docs/server-protocol.md, "Players and sessions"; docs/security.md):
// a guest on the first visit, claiming an account, log in and out, the list of one's sessions,
// password change, recovery codes, the operator's reset link, account deletion. Hashing runs on
// the hash pool, never on the io thread; the account tables are written on the io thread.
#include "server/net/server.hpp"

namespace carc::server::net_side {
namespace {

constexpr const char* kCookie = "carc_session";
constexpr const char* kSecureCookie = "__Host-carc_session";

// The request's JSON object, with only the fields named (an unknown one is an error naming it).
json body_of(const std::string& text, std::initializer_list<std::string_view> fields) {
  json body = text.empty() ? json::object() : jin::parse(text, "request");
  if (!body.is_object()) throw InputError("request: expected a JSON object");
  for (const auto& [k, v] : body.items()) {
    bool known = false;
    for (const std::string_view f : fields) known = known || k == f;
    if (!known) throw InputError(fmt::format("request: {}: not a field of this request", printable(k.substr(0, 40))));
  }
  return body;
}

std::string field(const json& body, const char* key, std::size_t max_bytes) {
  return jin::string(jin::need(body, key, "request"), "request", key, max_bytes);
}

// What the player is, as every answer here gives it.
json me_json(const accounts::Player& p) {
  json me{{"player", p.id}, {"guest", p.guest()}, {"name", p.guest() ? json(nullptr) : json(p.name)}};
  // a guest's number, for "Guest 4821" in the player's language
  me["number"] = std::stoul(accounts::token_hash(p.id).substr(0, 8), nullptr, 16) % 10000;
  return me;
}

// An answer given later (after the hash pool): the request's reply, kept.
struct Later {
  std::function<void(http::response<http::string_body>&&)> reply;
  unsigned version;
  std::map<int, std::uint64_t>* by_status;
  void send(http::status st, const json& body, const std::vector<std::string>& cookies = {}, int retry_after = 0) {
    http::response<http::string_body> r{st, version};
    r.set(http::field::server, "carcassonne");
    r.set(http::field::content_type, "application/json");
    r.set(http::field::cache_control, "no-store");
    if (retry_after > 0) r.set(http::field::retry_after, std::to_string(retry_after));
    for (const std::string& cookie : cookies) r.insert(http::field::set_cookie, cookie);
    r.body() = dump(body);
    r.prepare_payload();
    ++(*by_status)[static_cast<int>(st)];
    reply(std::move(r));
  }
  void problem(http::status st, const std::string& code, const std::string& message, int retry_after = 0) {
    send(st, json{{"code", code}, {"message", message}}, {}, retry_after);
  }
};

// The same answer for an unknown name and a wrong password.
constexpr const char* kBadLogin = "unknown name or wrong password";

}  // namespace

std::string Server::session_secret(const http::request<http::string_body>& req) const {
  std::string found;
  const auto range = req.equal_range(http::field::cookie);
  for (auto f = range.first; f != range.second; ++f) {
    const std::string_view v = f->value();
    for (std::size_t at = 0; at < v.size();) {
      std::size_t end = v.find(';', at);
      if (end == std::string_view::npos) end = v.size();
      std::string_view kv = v.substr(at, end - at);
      while (!kv.empty() && kv.front() == ' ') kv.remove_prefix(1);
      const auto eq = kv.find('=');
      if (eq != std::string_view::npos) {
        const std::string_view k = kv.substr(0, eq);
        if (k == (o_.secure_cookies ? kSecureCookie : kCookie)) found = std::string(kv.substr(eq + 1, 64));
      }
      at = end + 1;
    }
  }
  return found;
}

bool Server::origin_allowed(std::string_view origin, std::string_view host) const {
  if (!host.empty() && (origin == fmt::format("http://{}", host) || origin == fmt::format("https://{}", host)))
    return true;
  for (const std::string& o : o_.origins)
    if (origin == o) return true;
  return false;
}

std::string Server::session_cookie(const std::string& secret, bool clear) const {
  return fmt::format("{}={}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{}", o_.secure_cookies ? kSecureCookie : kCookie,
                     clear ? "" : secret, clear ? 0 : 400 * 24 * 3600, o_.secure_cookies ? "; Secure" : "");
}

bool Server::login_limited(HttpCall& c, const std::string& key, const std::optional<accounts::Player>& p,
                           std::int64_t now) {
  const bool known = p && accounts_->known_address(p->id, c.client);
  const auto d = login_limits_.check(key, c.client, known, now);
  if (d.allowed) return false;
  c.retry_after = d.retry_after_s;
  c.problem(http::status::too_many_requests, "login_limited",
            fmt::format("too many failed logins ({}): try again in {} s", d.limit, d.retry_after_s));
  return true;
}

bool Server::off_thread(std::function<void()> work, std::function<void()> done) {
  return hashes_->submit([this, work = std::move(work), done = std::move(done)]() mutable {
    std::exception_ptr failed;
    try {
      work();
    } catch (...) {
      failed = std::current_exception();
    }
    net::post(ioc_, [this, done = std::move(done), failed] {
      guarded([&] {
        if (failed) std::rethrow_exception(failed);
        done();
      });
    });
  });
}

// POST /api/session {}: the player of the request's session; a new guest (and its cookie) when it
// has none.
void Server::http_session(HttpCall& c) {
  (void)body_of(c.req.body(), {});
  const std::int64_t now = now_ms();
  if (const auto p = accounts_->by_session(session_secret(c.req), now)) {
    c.respond(http::status::ok, dump(me_json(*p)));
    return;
  }
  auto [p, secret] = accounts_->new_guest(now, c.client, std::string(c.req[http::field::user_agent]));
  c.cookies.push_back(session_cookie(secret));
  c.respond(http::status::created, dump(me_json(p)));
}

// GET /api/me: the player of the request's session (401 without one).
void Server::http_me(HttpCall& c) {
  if (const auto p = accounts_->by_session(session_secret(c.req), now_ms())) {
    json me = me_json(*p);
    if (!p->guest()) me["recovery_codes_left"] = accounts_->recovery_codes_left(p->id);
    c.respond(http::status::ok, dump(me));
    return;
  }
  c.problem(http::status::unauthorized, "no_session", "no session: POST /api/session first");
}

// POST /api/account/claim {"name", "password"}: the session's guest becomes an account, keeping its
// games; the answer shows its recovery codes, once.
void Server::http_claim(HttpCall& c) {
  const json body = body_of(c.req.body(), {"name", "password"});
  const std::string name = field(body, "name", 64), password = field(body, "password", accounts::kMaxPasswordBytes + 4);
  const auto p = signed_in(c, now_ms());
  if (!p) return;
  if (!p->guest()) return c.problem(http::status::conflict, "already_claimed", "this player has an account already");
  if (const auto why = accounts::username_problem(name))
    return c.problem(http::status::bad_request, *why, accounts::problem_text(*why));
  if (const auto why = accounts::password_problem(password, name))
    return c.problem(http::status::bad_request, *why, accounts::problem_text(*why));
  const std::string key = accounts::username_key(name);
  if (accounts_->by_name(key)) return c.problem(http::status::conflict, "name_taken", "this name is taken");
  auto later = std::make_shared<Later>(Later{std::move(c.reply), c.req.version(), &stats_.http_by_status});
  auto hash = std::make_shared<std::string>();
  auto codes = std::make_shared<std::vector<std::string>>(accounts::recovery_codes());
  const std::string player = p->id;
  if (!off_thread([hash, password] { *hash = accounts::hash_password(password); },
                  [this, later, hash, codes, player, name, key, client = c.client,
                   agent = std::string(c.req[http::field::user_agent])] {
                    std::vector<std::string> hashes;
                    for (const std::string& code : *codes)
                      hashes.push_back(accounts::token_hash(accounts::normalize_code(code)));
                    bool done = false;
                    try {
                      done = accounts_->claim(player, name, key, *hash, hashes, now_ms());
                    } catch (const accounts::SqlUnique&) {
                      return later->problem(http::status::conflict, "name_taken", "this name is taken");
                    }
                    if (!done)
                      return later->problem(http::status::conflict, "already_claimed",
                                            "this player has an account already");
                    accounts_->remember_address(player, client, now_ms());  // the owner's address
                    // a new session id now that a password guards the player (the guest's ends)
                    accounts_->end_sessions(player);
                    const std::string secret = accounts_->new_session(player, now_ms(), client, agent);
                    json me = me_json(*accounts_->by_id(player));
                    me["recovery_codes"] = *codes;
                    later->send(http::status::ok, me, {session_cookie(secret)});
                  }))
    later->problem(http::status::service_unavailable, "busy", "the server is busy: try again in a few seconds", 5);
}

// POST /api/login {"name", "password"}: a new session for the account (the request's old one ends).
void Server::http_login(HttpCall& c) {
  const json body = body_of(c.req.body(), {"name", "password"});
  const std::string name = field(body, "name", 64), password = field(body, "password", accounts::kMaxPasswordBytes + 4);
  const std::string key = accounts::username_key(name);
  const std::int64_t now = now_ms();
  const auto p = accounts_->by_name(key);
  if (login_limited(c, key, p, now)) return;
  auto later = std::make_shared<Later>(Later{std::move(c.reply), c.req.version(), &stats_.http_by_status});
  auto ok = std::make_shared<bool>(false);
  const std::string stored = p && !p->deleted ? p->password : std::string();
  const std::string old_secret = session_secret(c.req), client = c.client, agent(c.req[http::field::user_agent]);
  if (!off_thread(
          [ok, stored, password] {
            // an unknown name costs a verification too: the same time as a wrong password
            if (stored.empty())
              accounts::burn_verify();
            else
              *ok = accounts::verify_password(stored, password);
          },
          [this, later, ok, p, key, client, agent, old_secret, password] {
            const std::int64_t t = now_ms();
            ++stats_.password_checks;
            if (!*ok) {
              login_limits_.failed(key, client, t);
              return later->problem(http::status::unauthorized, "bad_login", kBadLogin);
            }
            if (p->banned)
              return later->problem(http::status::forbidden, "banned", "this account is closed by the operator");
            login_limits_.succeeded(key, client, t);
            accounts_->remember_address(p->id, client, t);
            accounts_->end_session(old_secret);
            const std::string secret = accounts_->new_session(p->id, t, client, agent);
            later->send(http::status::ok, me_json(*p), {session_cookie(secret)});
            // parameters raised since the password was hashed: hashed again with today's
            if (accounts::needs_rehash(p->password)) {
              auto fresh = std::make_shared<std::string>();
              (void)off_thread([fresh, password] { *fresh = accounts::hash_password(password); },
                               [this, fresh, id = p->id] { accounts_->set_password(id, *fresh); });
            }
          }))
    later->problem(http::status::service_unavailable, "busy", "the server is busy: try again in a few seconds", 5);
}

// POST /api/logout {}: the session ends (on the server, not only its cookie).
void Server::http_logout(HttpCall& c) {
  (void)body_of(c.req.body(), {});
  accounts_->end_session(session_secret(c.req));
  c.cookies.push_back(session_cookie("", true));
  c.respond(http::status::ok, dump(json{{"ended", true}}));
}

// GET /api/account/sessions: the player's sessions, the current one marked.
void Server::http_sessions(HttpCall& c) {
  const std::string secret = session_secret(c.req);
  const auto p = accounts_->by_session(secret, now_ms());
  if (!p) return c.problem(http::status::unauthorized, "no_session", "no session: POST /api/session first");
  json list = json::array();
  for (const auto& s : accounts_->sessions(p->id, secret))
    list.push_back({{"id", s.public_id},
                    {"created", s.created},
                    {"seen", s.seen},
                    {"address", s.address},
                    {"agent", s.agent},
                    {"current", s.current}});
  c.respond(http::status::ok, dump(json{{"sessions", list}}));
}

// DELETE /api/account/sessions/ID: that session of the player ends.
void Server::http_end_session(HttpCall& c) {
  const auto p = signed_in(c, now_ms());
  if (!p) return;
  if (!accounts_->end_session_named(p->id, c.arg))
    return c.problem(http::status::not_found, "unknown_session", "no session of yours has this id");
  c.respond(http::status::ok, dump(json{{"ended", true}}));
}

// POST /api/account/password {"current", "password"}: a new password; every session ends, this one
// gets a new id.
void Server::http_password(HttpCall& c) {
  const json body = body_of(c.req.body(), {"current", "password"});
  const std::string current = field(body, "current", accounts::kMaxPasswordBytes + 4),
                    password = field(body, "password", accounts::kMaxPasswordBytes + 4);
  const auto p = signed_in(c, now_ms());
  if (!p) return;
  if (p->guest())
    return c.problem(http::status::conflict, "not_claimed", "a guest has no password: claim an account first");
  if (const auto why = accounts::password_problem(password, p->name))
    return c.problem(http::status::bad_request, *why, accounts::problem_text(*why));
  auto later = std::make_shared<Later>(Later{std::move(c.reply), c.req.version(), &stats_.http_by_status});
  auto ok = std::make_shared<bool>(false);
  auto hash = std::make_shared<std::string>();
  const std::string client = c.client, agent(c.req[http::field::user_agent]), key = accounts::username_key(p->name);
  if (!off_thread(
          [ok, hash, stored = p->password, current, password] {
            *ok = accounts::verify_password(stored, current);
            if (*ok) *hash = accounts::hash_password(password);
          },
          [this, later, ok, hash, id = p->id, client, agent, key] {
            const std::int64_t t = now_ms();
            if (!*ok) {
              login_limits_.failed(key, client, t);
              return later->problem(http::status::forbidden, "bad_password", "the current password is not right");
            }
            accounts_->set_password(id, *hash);
            accounts_->end_sessions(id);
            const std::string secret = accounts_->new_session(id, t, client, agent);
            later->send(http::status::ok, me_json(*accounts_->by_id(id)), {session_cookie(secret)});
          }))
    later->problem(http::status::service_unavailable, "busy", "the server is busy: try again in a few seconds", 5);
}

// POST /api/account/recover {"name", "code", "password"}: one recovery code (used up) sets a new
// password; every session ends, the request gets a new one.
void Server::http_recover(HttpCall& c) {
  const json body = body_of(c.req.body(), {"name", "code", "password"});
  const std::string name = field(body, "name", 64), code = field(body, "code", 64),
                    password = field(body, "password", accounts::kMaxPasswordBytes + 4);
  const std::string key = accounts::username_key(name);
  const std::int64_t now = now_ms();
  const auto p = accounts_->by_name(key);
  if (login_limited(c, key, p, now)) return;
  if (const auto why = accounts::password_problem(password, name))
    return c.problem(http::status::bad_request, *why, accounts::problem_text(*why));
  if (!p || p->deleted || p->banned ||
      !accounts_->use_recovery_code(p->id, accounts::token_hash(accounts::normalize_code(code)), now)) {
    login_limits_.failed(key, c.client, now);
    return c.problem(http::status::unauthorized, "bad_recovery", "unknown name or wrong recovery code");
  }
  auto later = std::make_shared<Later>(Later{std::move(c.reply), c.req.version(), &stats_.http_by_status});
  auto hash = std::make_shared<std::string>();
  if (!off_thread(
          [hash, password] { *hash = accounts::hash_password(password); },
          [this, later, hash, id = p->id, client = c.client, agent = std::string(c.req[http::field::user_agent]), key] {
            const std::int64_t t = now_ms();
            login_limits_.succeeded(key, client, t);
            accounts_->set_password(id, *hash);
            accounts_->end_sessions(id);
            const std::string secret = accounts_->new_session(id, t, client, agent);
            json me = me_json(*accounts_->by_id(id));
            me["recovery_codes_left"] = accounts_->recovery_codes_left(id);
            later->send(http::status::ok, me, {session_cookie(secret)});
          }))
    later->problem(http::status::service_unavailable, "busy", "the server is busy: try again in a few seconds", 5);
}

// POST /api/account/reset {"token", "password"}: the operator's one-time link (`carcassonne admin
// reset-link`) sets a new password; every session ends, the request gets a new one.
void Server::http_reset(HttpCall& c) {
  const json body = body_of(c.req.body(), {"token", "password"});
  const std::string token = field(body, "token", 64),
                    password = field(body, "password", accounts::kMaxPasswordBytes + 4);
  const std::int64_t now = now_ms();
  // the new password is checked before the link is used up: a refused one can be tried again
  const auto holder = accounts_->reset_link_player(token, now);
  if (!holder) return c.problem(http::status::forbidden, "bad_reset", "this reset link is unknown, used or expired");
  const auto p = accounts_->by_id(*holder);
  if (const auto why = accounts::password_problem(password, p ? p->name : ""))
    return c.problem(http::status::bad_request, *why, accounts::problem_text(*why));
  const auto id = accounts_->use_reset_link(token, now);
  if (!id) return c.problem(http::status::forbidden, "bad_reset", "this reset link is unknown, used or expired");
  auto later = std::make_shared<Later>(Later{std::move(c.reply), c.req.version(), &stats_.http_by_status});
  auto hash = std::make_shared<std::string>();
  if (!off_thread(
          [hash, password] { *hash = accounts::hash_password(password); },
          [this, later, hash, id = *id, client = c.client, agent = std::string(c.req[http::field::user_agent])] {
            accounts_->set_password(id, *hash);
            accounts_->end_sessions(id);
            const std::string secret = accounts_->new_session(id, now_ms(), client, agent);
            later->send(http::status::ok, me_json(*accounts_->by_id(id)), {session_cookie(secret)});
          }))
    later->problem(http::status::service_unavailable, "busy", "the server is busy: try again in a few seconds", 5);
}

// POST /api/account/delete {"password"}: the account is deleted; its games stay, under a
// replaced name.
void Server::http_delete_account(HttpCall& c) {
  const json body = body_of(c.req.body(), {"password"});
  const std::string password = field(body, "password", accounts::kMaxPasswordBytes + 4);
  const auto p = signed_in(c, now_ms());
  if (!p) return;
  if (p->guest()) return c.problem(http::status::conflict, "not_claimed", "a guest has no account to delete");
  auto later = std::make_shared<Later>(Later{std::move(c.reply), c.req.version(), &stats_.http_by_status});
  auto ok = std::make_shared<bool>(false);
  if (!off_thread([ok, stored = p->password, password] { *ok = accounts::verify_password(stored, password); },
                  [this, later, ok, id = p->id] {
                    if (!*ok)
                      return later->problem(http::status::forbidden, "bad_password", "the password is not right");
                    accounts_->delete_account(id, now_ms());
                    later->send(http::status::ok, json{{"deleted", true}}, {session_cookie("", true)});
                  }))
    later->problem(http::status::service_unavailable, "busy", "the server is busy: try again in a few seconds", 5);
}

void Server::rate_if_rated(const std::string& id) {
  try {
    const auto meta = store_->game(id);
    if (!meta) return;
    if (const auto g = rating::rated_game(*meta, store_->events(id, 0))) (void)accounts_->rate(*g);
  } catch (const std::exception& e) {  // `carcassonne ratings rebuild` makes it good
    log_event("rating_failed", {{"game", printable(id)}, {"error", printable(e.what())}});
  }
}

std::optional<accounts::Player> Server::signed_in(HttpCall& c, std::int64_t now) {
  auto p = accounts_->by_session(session_secret(c.req), now);
  if (!p) c.problem(http::status::unauthorized, "no_session", "no session: POST /api/session first");
  return p;
}

void Server::bind_seat(std::uint64_t conn, const std::string& game, int seat) {
  const auto it = ws_sessions_.find(conn);
  if (it == ws_sessions_.end()) return;
  try {
    if (const auto p = accounts_->by_session(it->second, now_ms()))
      (void)accounts_->bind_seat(game, seat, p->id, now_ms());
  } catch (const std::exception& e) {  // the seat is played all the same; only the list misses it
    log_event("bind_failed", {{"game", printable(game)}, {"seat", seat}, {"error", printable(e.what())}});
  }
}

bool Server::seat_is_mine(std::uint64_t conn, const std::string& game, int seat) {
  const auto it = ws_sessions_.find(conn);
  if (it == ws_sessions_.end()) return false;
  const auto p = accounts_->by_session(it->second, now_ms());
  return p && accounts_->seat_player(game, seat) == p->id;
}

// GET /api/me/games: the games of the session's player (the seats it opened), the latest first:
// as GET /api/games lists them, with `seat` (the player's).
void Server::http_my_games(HttpCall& c) {
  const auto p = signed_in(c, now_ms());
  if (!p) return;
  json out = json::array();
  const std::int64_t now = now_ms();
  for (const auto& s : accounts_->games_of(p->id, 200)) {
    const auto m = store_->game(s.game);
    if (!m) continue;
    json g{{"id", m->id}, {"game", m->game}, {"status", m->status}, {"created", m->created}, {"seat", s.seat}};
    if (const auto it = hosts_.find(m->id); it != hosts_.end()) {
      const json sum = it->second->room->summary(now);
      g["status"] = sum["status"];
      for (const char* k : {"seats", "scores", "to_move", "seq"}) g[k] = sum[k];
    }
    out.push_back(std::move(g));
  }
  c.respond(http::status::ok, dump(json{{"games", out}}));
}

}  // namespace carc::server::net_side
