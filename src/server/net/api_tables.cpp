// Open tables over HTTP (docs/server-protocol.md, "Open tables"): a host opens a table (game, 2–5
// seats, bots filling the last ones, clock class, rated or casual, an optional rating range);
// anyone may sit until it is full, then its game starts with each seat bound to its player. A
// real-time table closes when its host is not seen (their lobby asks for the tables) for 30 s; a
// correspondence table stays.
#include "server/net/server.hpp"

namespace carc::server::net_side {
namespace {

constexpr int kTablesPerHost = 3;  // open tables one player may host at once

}  // namespace

// POST /api/tables {"game", "seats", "bots", "clock", "rated", "range"}
void Server::http_table_open(HttpCall& c) {
  json body = jin::parse(c.req.body().empty() ? "{}" : c.req.body(), "request");
  if (!body.is_object()) throw InputError("request: expected a JSON object");
  for (const auto& [k, v] : body.items())
    if (k != "game" && k != "seats" && k != "bots" && k != "clock" && k != "rated" && k != "range" && k != "guest_chat")
      throw InputError(
          fmt::format("request: {}: not a field of a table (game, seats, bots, clock, rated, range, guest_chat)",
                      printable(k.substr(0, 40))));
  accounts::AccountStore::Table t;
  t.game = jin::string(jin::need(body, "game", "request"), "request", "game", 40);
  if (!find_game(t.game))
    throw InputError(fmt::format("request: game: \"{}\" is not a game of this server", printable(t.game)));
  t.seats = static_cast<int>(jin::integer(jin::need(body, "seats", "request"), 2, kMaxPlayers, "request", "seats"));
  if (const json* b = jin::opt(body, "bots")) {
    const json& list = jin::array(*b, "request", "bots", static_cast<std::size_t>(t.seats - 1));
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string level = jin::string(list[i], "request", fmt::format("bots[{}]", i), 20);
      if (level != "easy" && level != "normal" && level != "hard")
        throw InputError(
            fmt::format("request: bots[{}]: \"{}\" is not a level (easy, normal, hard)", i, printable(level)));
      t.bots.push_back(level);
    }
  }
  t.clock = body.contains("clock") ? jin::string(body["clock"], "request", "clock", 20) : "realtime";
  if (t.clock != "realtime" && t.clock != "days")
    throw InputError(fmt::format("request: clock: \"{}\" is not a clock class (realtime, days)", printable(t.clock)));
  t.rated = body.contains("rated") && jin::boolean(body["rated"], "request", "rated");
  if (t.rated && !t.bots.empty()) throw InputError("request: bots: a rated table has no bots (bots are not rated)");
  if (const json* r = jin::opt(body, "range")) {
    const json& range = jin::array(*r, "request", "range", 2);
    if (range.size() != 2) throw InputError("request: range: [lowest, highest] shown rating");
    t.min_rating = static_cast<int>(jin::integer(range[0], 0, 4000, "request", "range[0]"));
    t.max_rating = static_cast<int>(jin::integer(range[1], 0, 4000, "request", "range[1]"));
    if (*t.min_rating > *t.max_rating) throw InputError("request: range: the lowest is above the highest");
  }
  t.guest_chat = body.contains("guest_chat") && jin::boolean(body["guest_chat"], "request", "guest_chat");
  const std::int64_t now = now_ms();
  const auto p = signed_in(c, now);
  if (!p) return;
  if (t.rated && p->guest())
    return c.problem(http::status::forbidden, "rated_needs_account", "rated games are for accounts: claim one first");
  if (!player_rate("table", p->id, kTablesPerMinute, c.retry_after))
    return c.problem(http::status::too_many_requests, "rate_limited",
                     fmt::format("at most {} new tables a minute: try again in {} s", kTablesPerMinute, c.retry_after));
  if (t.clock == "days" && correspondence_games(p->id) >= o_.correspondence_cap)
    return c.problem(http::status::conflict, "too_many_games",
                     fmt::format("you have {} correspondence games going: finish one first", o_.correspondence_cap));
  if (accounts_->tables_hosted(p->id) >= kTablesPerHost)
    return c.problem(http::status::conflict, "too_many_tables",
                     fmt::format("you host {} open tables already: close one first", kTablesPerHost));
  t.id = random_hex(6);
  t.host = p->id;
  t.created = now;
  accounts_->open_table(t);
  c.respond(http::status::created, dump(json{{"table", t.id}}));
}

json table_json(const accounts::AccountStore::Table& t) {
  json players = json::array();
  for (const std::string& name : t.names) players.push_back(name.empty() ? json(nullptr) : json(name));
  json out{{"id", t.id},       {"game", t.game},     {"seats", t.seats},     {"bots", t.bots},    {"clock", t.clock},
           {"rated", t.rated}, {"players", players}, {"created", t.created}, {"status", t.status}};
  if (t.min_rating) out["range"] = {*t.min_rating, *t.max_rating};
  if (t.guest_chat) out["guest_chat"] = true;
  if (!t.game_id.empty()) out["game_id"] = t.game_id;
  return out;
}

// GET /api/tables: the open tables, newest first (the host's asking keeps their real-time tables).
void Server::http_tables(HttpCall& c) {
  const std::int64_t now = now_ms();
  if (const auto p = accounts_->by_session(session_secret(c.req), now)) accounts_->host_seen(p->id, now);
  for (const std::string& id : accounts_->close_absent_hosts(now - kHostAbsentMs))
    log_event("table_closed", {{"table", id}, {"why", "host_absent"}});
  json list = json::array();
  for (const auto& t : accounts_->open_tables(200)) list.push_back(table_json(t));
  c.respond(http::status::ok, dump(json{{"tables", list}}));
}

// GET /api/tables/ID: one table, open or not; a started one's players learn their game and seat.
void Server::http_table(HttpCall& c) {
  const auto t = accounts_->table(c.arg);
  if (!t) return c.problem(http::status::not_found, "unknown_table", "no such table");
  json out = table_json(*t);
  if (const auto p = accounts_->by_session(session_secret(c.req), now_ms())) {
    const auto at = std::find(t->players.begin(), t->players.end(), p->id);
    if (at != t->players.end()) {
      const auto seat = at - t->players.begin();
      out["seat"] = seat;
      if (!t->game_id.empty()) out["play"] = fmt::format("/play/{}?seat={}", t->game_id, seat);
    }
  }
  c.respond(http::status::ok, dump(out));
}

// POST /api/tables/ID/join {}: the session's player sits; the last free seat starts the game.
void Server::http_table_join(HttpCall& c) {
  const std::int64_t now = now_ms();
  const auto p = signed_in(c, now);
  if (!p) return;
  const auto t = accounts_->table(c.arg);
  if (!t) return c.problem(http::status::not_found, "unknown_table", "no such table");
  if (t->status != "open") return c.problem(http::status::conflict, "table_closed", "this table is not open any more");
  if (t->rated && p->guest())
    return c.problem(http::status::forbidden, "rated_needs_account", "rated games are for accounts: claim one first");
  for (const std::string& other : t->players)
    if (other != p->id && accounts_->blocked_either(other, p->id))
      return c.problem(http::status::forbidden, "blocked", "you cannot sit at this table");
  if (t->clock == "days" && correspondence_games(p->id) >= o_.correspondence_cap)
    return c.problem(http::status::conflict, "too_many_games",
                     fmt::format("you have {} correspondence games going: finish one first", o_.correspondence_cap));
  if (t->min_rating) {
    double r = 1500;
    if (const auto s = accounts_->standing(p->id, rating::bucket(t->game, t->seats))) r = rating::display(s->r);
    if (r < *t->min_rating || r > *t->max_rating)
      return c.problem(http::status::forbidden, "out_of_range",
                       fmt::format("this table is for ratings {} to {}", *t->min_rating, *t->max_rating));
  }
  bool full = false;
  const auto sat = accounts_->sit(c.arg, p->id, now, full);
  if (!sat) return c.problem(http::status::conflict, "table_full", "this table has no free seat");
  const auto seat = std::find(sat->players.begin(), sat->players.end(), p->id) - sat->players.begin();
  json out{{"table", sat->id}, {"seat", seat}};
  if (full) {
    const std::string gid = random_hex(6);
    try {
      create_seated_game(gid, sat->game, sat->clock, sat->players, sat->bots, sat->rated, "table", sat->guest_chat);
    } catch (...) {
      accounts_->set_table_status(sat->id, "open");  // (the store refused: the next to sit tries again)
      throw;
    }
    accounts_->set_table_status(sat->id, "started", gid);
    out["game"] = gid;
    out["play"] = fmt::format("/play/{}?seat={}", gid, seat);
  }
  c.respond(http::status::ok, dump(out));
}

// POST /api/tables/ID/leave {}: the player gets up; the host closes the table.
void Server::http_table_leave(HttpCall& c) {
  const auto p = signed_in(c, now_ms());
  if (!p) return;
  if (!accounts_->stand(c.arg, p->id))
    return c.problem(http::status::conflict, "not_seated", "you are not at this open table");
  c.respond(http::status::ok, dump(json{{"left", true}}));
}

}  // namespace carc::server::net_side
