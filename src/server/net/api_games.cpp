// The games' HTTP API: create, rematch, list, read.
#include "server/net/server.hpp"

namespace carc::server::net_side {

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
  int asked_seat = -1;
  try {
    const json body = jin::parse(c.req.body(), "request");
    if (!body.is_object()) throw InputError("request: expected a JSON object {\"token\"} or {\"seat\"}");
    for (const auto& [k, v] : body.items())
      if (k != "token" && k != "seat")
        throw InputError(fmt::format("request: {}: not a field of a rematch request (token, seat)", printable(k)));
    if (body.contains("token") == body.contains("seat"))
      throw InputError("request: a rematch request names the seat's token, or the session's own seat");
    if (body.contains("token"))
      token = jin::string(body["token"], "request", "token", 64);
    else
      asked_seat = static_cast<int>(jin::integer(body["seat"], 0, kMaxPlayers - 1, "request", "seat"));
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
  int seat = -1;
  if (asked_seat >= 0) {
    const auto p = accounts_->by_session(session_secret(c.req), now_ms());
    if (!p || accounts_->seat_player(old, asked_seat) != p->id) {
      c.problem(http::status::forbidden, "not_your_seat", "request: seat: not a seat this session's player opened");
      return;
    }
    seat = asked_seat;
  } else {
    seat = h->room->seat_of_token(token);
  }
  if (seat < 0) {
    c.problem(http::status::forbidden, "bad_token", "request: token: not the token of a seat of this game");
    return;
  }
  const std::string id = rematch_id(old);
  // a rematch made already is answered even while the room commits (its `rematch` event, say)
  const bool made = h->room->over() && store_->game(id).has_value();
  if (!made && (!h->room->over() || h->room->busy())) {
    // busy: the end is being committed; the client asks again once it has seen it
    c.problem(http::status::conflict, "not_over", "the game is not over: a rematch is asked for at the end");
    return;
  }
  auto answer = [&](const GameMeta& meta, bool repeat) {
    json seats = json::array();
    const json settings = json::parse(meta.settings);
    for (std::size_t i = 0; i < settings["seats"].size(); ++i) {
      const json& sc = settings["seats"][i];
      json s{{"seat", i}, {"name", sc["name"]}, {"bot", sc["bot"]}};
      if (static_cast<int>(i) == seat && !token.empty()) {
        s["token"] = token;
        s["invite"] = fmt::format("/play/{}?seat={}&token={}", meta.id, i, token);
      } else if (static_cast<int>(i) == seat) {
        s["play"] = fmt::format("/play/{}?seat={}", meta.id, i);  // the session's seat (hello with `seat`)
      }
      seats.push_back(std::move(s));
    }
    json out{{"id", meta.id}, {"seats", seats}, {"seed_hash", seed_hash(meta)}, {"rematch_of", old}};
    if (repeat) out["repeat"] = true;
    c.respond(repeat ? http::status::ok : http::status::created, dump(out));
  };
  auto tell = [this, h, seat, id, old] {
    // the seats the old game's players opened are theirs in the rematch too (opened on any device)
    for (int i = 0; i < kMaxPlayers; ++i)
      if (const std::string p = accounts_->seat_player(old, i); !p.empty())
        (void)accounts_->bind_seat(id, i, p, now_ms());
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
    json sum = h->room->summary(now_ms());
    // each seat bound to an account names it (a link to the player's page); null otherwise
    for (json& seat : sum["seats"]) {
      const std::string p = accounts_->seat_player(rest, seat["seat"].get<int>());
      const auto acc = p.empty() ? std::nullopt : accounts_->by_id(p);
      seat["account"] = acc && !acc->guest() && !acc->deleted ? json(acc->name) : json(nullptr);
    }
    c.respond(http::status::ok, dump(sum));
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

}  // namespace carc::server::net_side
