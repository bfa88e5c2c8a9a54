// Quick pairing and blocks over HTTP (docs/server-protocol.md, "Quick pairing";
// docs/pairing.md): a player joins a pool (game, seats, clock class, rated or casual; guests pair
// only with guests), a wave every --pairing-wave-ms pairs each pool (server/pairing) and creates
// its tables' games, each seat bound to its player; the player asks where it was seated.
#include "server/net/server.hpp"

namespace carc::server::net_side {
json clock_of(const std::string& cls) {
  if (cls == "days") return json{{"type", "days"}, {"days", 2}};
  return json{{"type", "realtime"}, {"bank", 600}, {"increment", 10}};
}

// POST /api/pairing {"game", "seats", "clock", "rated"}: the session's player waits in that pool.
void Server::http_pairing_join(HttpCall& c) {
  json body = jin::parse(c.req.body().empty() ? "{}" : c.req.body(), "request");
  if (!body.is_object()) throw InputError("request: expected a JSON object");
  for (const auto& [k, v] : body.items())
    if (k != "game" && k != "seats" && k != "clock" && k != "rated")
      throw InputError(fmt::format("request: {}: not a field of a pairing request (game, seats, clock, rated)",
                                   printable(k.substr(0, 40))));
  const std::string game = jin::string(jin::need(body, "game", "request"), "request", "game", 40);
  if (!find_game(game))
    throw InputError(fmt::format("request: game: \"{}\" is not a game of this server", printable(game)));
  const int seats =
      static_cast<int>(jin::integer(jin::need(body, "seats", "request"), 2, kMaxPlayers, "request", "seats"));
  const std::string clock = body.contains("clock") ? jin::string(body["clock"], "request", "clock", 20) : "realtime";
  if (clock != "realtime" && clock != "days")
    throw InputError(fmt::format("request: clock: \"{}\" is not a clock class (realtime, days)", printable(clock)));
  const bool rated = body.contains("rated") && jin::boolean(body["rated"], "request", "rated");
  const std::int64_t now = now_ms();
  const auto p = signed_in(c, now);
  if (!p) return;
  if (rated && p->guest())
    return c.problem(http::status::forbidden, "rated_needs_account", "rated games are for accounts: claim one first");
  if (!player_rate("pool", p->id, kPoolJoinsPerMinute, c.retry_after))
    return c.problem(
        http::status::too_many_requests, "rate_limited",
        fmt::format("at most {} pool joins a minute: try again in {} s", kPoolJoinsPerMinute, c.retry_after));
  if (clock == "days" && correspondence_games(p->id) >= o_.correspondence_cap)
    return c.problem(http::status::conflict, "too_many_games",
                     fmt::format("you have {} correspondence games going: finish one first", o_.correspondence_cap));
  double r = 1500;
  if (const auto s = accounts_->standing(p->id, rating::bucket(game, seats))) r = rating::display(s->r);
  accounts_->join_pool({p->id, game, clock, seats, rated, p->guest(), r, now, 0});
  // a pool with a table's worth of players pairs at once, not at the next wave
  if (o_.pairing_wave_ms > 0 && accounts_->pool_size(game, seats, clock, rated, p->guest()) >= seats) pairing_wave();
  if (const auto res = accounts_->pairing_result(p->id)) {
    c.respond(http::status::ok, dump(json{{"status", "paired"},
                                          {"game", res->game_id},
                                          {"seat", res->seat},
                                          {"play", fmt::format("/play/{}?seat={}", res->game_id, res->seat)}}));
    return;
  }
  c.respond(http::status::ok,
            dump(json{{"status", "waiting"},
                      {"pool", {{"game", game}, {"seats", seats}, {"clock", clock}, {"rated", rated}}},
                      {"waiting", accounts_->pool_size(game, seats, clock, rated, p->guest())}}));
}

// GET /api/pairing: where the player is: waiting (with the pool's size and the waves missed), or
// seated (the game and seat: hello with that seat), or none.
void Server::http_pairing_status(HttpCall& c) {
  const auto p = signed_in(c, now_ms());
  if (!p) return;
  if (const auto e = accounts_->pool_entry(p->id)) {
    c.respond(http::status::ok,
              dump(json{{"status", "waiting"},
                        {"pool", {{"game", e->game}, {"seats", e->seats}, {"clock", e->clock}, {"rated", e->rated}}},
                        {"since", e->since},
                        {"waves", e->waves},
                        {"waiting", accounts_->pool_size(e->game, e->seats, e->clock, e->rated, e->guest)}}));
    return;
  }
  if (const auto r = accounts_->pairing_result(p->id)) {
    const auto m = store_->game(r->game_id);
    if (m && m->status == "active") {
      c.respond(http::status::ok, dump(json{{"status", "paired"},
                                            {"game", r->game_id},
                                            {"seat", r->seat},
                                            {"play", fmt::format("/play/{}?seat={}", r->game_id, r->seat)}}));
      return;
    }
    accounts_->forget_result(p->id);  // its game is over, or was never made (the process stopped)
  }
  c.respond(http::status::ok, dump(json{{"status", "none"}}));
}

// DELETE /api/pairing: the player stops waiting.
void Server::http_pairing_leave(HttpCall& c) {
  const auto p = signed_in(c, now_ms());
  if (!p) return;
  c.respond(http::status::ok, dump(json{{"left", accounts_->leave_pool(p->id)}}));
}

void Server::create_seated_game(const std::string& game_id, const std::string& game, const std::string& clock,
                                const std::vector<std::string>& players, const std::vector<std::string>& bots,
                                bool rated, const std::string& origin, bool guest_chat) {
  const std::int64_t now = now_ms();
  const BotPolicy policy{o_.trusted_bots, {o_.bot_max_ms, o_.bot_max_playouts, kServerBotLimits.max_threads}};
  json seats = json::array();
  for (const std::string& id : players) {
    const auto p = accounts_->by_id(id);
    seats.push_back(p && !p->guest() ? json{{"name", p->name}} : json::object());  // a guest: "Player N" in words
  }
  for (const std::string& b : bots) seats.push_back(json{{"bot", b}});
  Created created =
      create_game(json{{"game", game}, {"seats", seats}, {"clock", clock_of(clock)}}, game_id, now, policy);
  json settings = json::parse(created.meta.settings);
  for (std::size_t i = 0; i < players.size(); ++i) settings["seats"][i]["player"] = players[i];
  if (rated) settings["rated"] = true;
  settings["origin"] = origin;
  if (guest_chat) settings["guest_chat"] = true;
  created.meta.settings = settings.dump();
  store_->create(created.meta, created.first);
  for (std::size_t i = 0; i < players.size(); ++i)
    (void)accounts_->bind_seat(game_id, static_cast<int>(i), players[i], now);
  hold_new_game(game_id, origin, created.first.job.has_value());
}

void Server::pairing_wave() {
  for (const auto& t : accounts_->pairing_wave(now_ms())) {
    create_seated_game(t.game_id, t.game, t.clock, t.players, {}, t.rated, "pairing");
    ++stats_.paired_tables;
    log_event("paired", {{"game", t.game_id}, {"players", t.players.size()}, {"rated", t.rated}});
  }
}

// POST /api/blocks {"name"}: the session's player blocks an account (never paired together).
void Server::http_block(HttpCall& c) {
  json body = jin::parse(c.req.body().empty() ? "{}" : c.req.body(), "request");
  if (!body.is_object() || body.size() != 1 || !body.contains("name"))
    throw InputError("request: expected {\"name\"}: the account to block");
  const std::string name = jin::string(body["name"], "request", "name", 64);
  const auto p = signed_in(c, now_ms());
  if (!p) return;
  const auto other = accounts_->by_name(accounts::username_key(name));
  if (!other || other->deleted) return c.problem(http::status::not_found, "unknown_player", "no account has this name");
  if (other->id == p->id) return c.problem(http::status::bad_request, "bad_request", "request: name: that is you");
  accounts_->block(p->id, other->id, now_ms());
  c.respond(http::status::ok, dump(json{{"blocked", other->name}}));
}

// DELETE /api/blocks/NAME
void Server::http_unblock(HttpCall& c) {
  const auto p = signed_in(c, now_ms());
  if (!p) return;
  const auto other = accounts_->by_name(accounts::username_key(c.arg));
  if (!other) return c.problem(http::status::not_found, "unknown_player", "no account has this name");
  accounts_->unblock(p->id, other->id);
  c.respond(http::status::ok, dump(json{{"unblocked", other->name}}));
}

// GET /api/blocks: the names the player blocks.
void Server::http_blocks(HttpCall& c) {
  const auto p = signed_in(c, now_ms());
  if (!p) return;
  json names = json::array();
  for (const std::string& id : accounts_->blocked_by(p->id))
    if (const auto o = accounts_->by_id(id); o && !o->deleted) names.push_back(o->name);
  c.respond(http::status::ok, dump(json{{"blocked", names}}));
}

}  // namespace carc::server::net_side
