// What the HTTP API serves that is not a game: health, the catalog, tiles, rules, replays, the
// browser client's files.
#include "server/net/server.hpp"

namespace carc::server::net_side {

namespace {

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

}  // namespace

// GET /healthz: the process answers (this is its io thread) and so does the store.
void Server::http_health(HttpCall& c) {
  try {
    store_->check();  // (a broken connection is opened again here: PostgreSQL restarted)
  } catch (const std::exception& e) {
    c.problem(http::status::service_unavailable, "store", fmt::format("the store does not answer: {}", e.what()));
    return;
  }
  c.respond(
      draining_ ? http::status::service_unavailable : http::status::ok,
      dump(
          json{{"status", draining_ ? "draining" : "ok"}, {"store", store_->kind()}, {"games_loaded", hosts_.size()}}));
}

// GET /api/catalog: the games, their options, the bot levels, the seat colours.
void Server::http_catalog(HttpCall& c) { c.respond(http::status::ok, catalog_json()); }

// GET /api/tiles/GAME: the game's tile catalog.
void Server::http_tiles(HttpCall& c) {
  try {
    c.respond(http::status::ok, tiles_json(c.arg));
  } catch (const InputError& e) {
    c.problem(http::status::not_found, "unknown_game", e.what());
  }
}

// GET /api/rules/GAME: the game's rules page.
void Server::http_rules(HttpCall& c) {
  try {
    c.respond(http::status::ok, rules_json(c.arg));
  } catch (const NotFound& e) {
    c.problem(http::status::not_found, "unknown_game", e.what());
  }
}

// POST /api/replay: a record's view at every turn.
void Server::http_replay(HttpCall& c) { c.respond(http::status::ok, replay_json(c.req.body())); }

// GET anything else: the browser client's files, or the placeholder page.
void Server::http_web_file(HttpCall& c) {
  namespace fs = std::filesystem;
  if (!o_.web_root.empty()) {
    // the client's own paths (/, /play/ID, /replay...) are its page; files have an extension.
    // The path is normalised first (web_file): nothing outside the root is ever opened.
    std::string rel;
    try {
      rel = web_file(c.target);
    } catch (const NotFound&) {
      c.problem(http::status::not_found, "not_found", fmt::format("nothing at {}", printable(c.target)));
      return;
    } catch (const InputError& e) {
      c.problem(http::status::bad_request, "bad_path", e.what());
      return;
    }
    const fs::path p = fs::path(o_.web_root) / rel;
    std::error_code ec;
    const auto size = fs::is_regular_file(p, ec) ? fs::file_size(p, ec) : 0;
    if (!ec && size > 0 && size <= (64u << 20)) {
      std::ifstream in(p, std::ios::binary);
      std::string data(static_cast<std::size_t>(size), '\0');
      if (in.read(data.data(), static_cast<std::streamsize>(size))) {
        c.respond(http::status::ok, data, content_type(p));
        return;
      }
    }
  } else if (c.target == "/" || c.target.rfind("/play/", 0) == 0) {
    c.respond(http::status::ok, kPlaceholder, "text/html; charset=utf-8");
    return;
  }
  c.problem(http::status::not_found, "not_found", fmt::format("nothing at {}", printable(c.target)));
}

}  // namespace carc::server::net_side
