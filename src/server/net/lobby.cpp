// The lobby's WebSocket, /ws/lobby (docs/server-protocol.md, "The lobby"): a hello is answered with
// every open table and pool count; then every --lobby-ms one batch of what changed goes to every
// lobby socket (one text, made once). Each process reads the tables and pools from the store and
// compares them with its last batch, so a lobby sees every process's tables. A host's lobby socket
// keeps their real-time tables open; when their last one here closes, the tables close 5 s later
// unless a socket of theirs comes back.
#include "server/net/server.hpp"

namespace carc::server::net_side {
namespace {

constexpr std::int64_t kHostGoneGraceMs = 5000;

json pools_json(const std::vector<accounts::AccountStore::PoolCount>& pools) {
  json out = json::array();
  for (const auto& p : pools)
    out.push_back({{"game", p.game},
                   {"seats", p.seats},
                   {"clock", p.clock},
                   {"rated", p.rated},
                   {"guest", p.guest},
                   {"waiting", p.waiting}});
  return out;
}

}  // namespace

void Server::lobby_message(std::uint64_t conn, const std::string& text) {
  const auto sink = sinks_.find(conn);
  if (sink == sinks_.end()) return;
  auto error = [&](const std::string& code, const std::string& msg) {
    ++stats_.refused[code];
    sink->second(dump(json{{"type", "error"}, {"code", code}, {"message", msg}}));
  };
  json msg;
  try {
    msg = jin::parse(text, "message");
    if (!msg.is_object()) throw InputError("message: expected a JSON object");
  } catch (const std::exception& e) {
    return error("bad_json", e.what());
  }
  const json* type = jin::opt(msg, "type");
  if (type && *type == "ping") return sink->second(dump(json{{"type", "pong"}, {"time", now_ms()}}));
  if (!type || *type != "hello") return error("bad_message", "message: type: the lobby takes \"hello\" and \"ping\"");
  std::string player;
  if (const auto s = ws_sessions_.find(conn); s != ws_sessions_.end())
    if (const auto p = accounts_->by_session(s->second, now_ms())) player = p->id;
  lobby_.conns[conn] = player;
  if (!player.empty()) accounts_->host_seen(player, now_ms());
  json tables = json::array();
  for (const auto& t : accounts_->open_tables(200)) tables.push_back(table_json(t));
  sink->second(dump(json{{"type", "lobby"},
                         {"full", true},
                         {"seq", lobby_.seq},
                         {"tables", tables},
                         {"pools", pools_json(accounts_->pool_counts())}}));
}

void Server::lobby_gone(std::uint64_t conn) {
  const auto it = lobby_.conns.find(conn);
  if (it == lobby_.conns.end()) return;
  const std::string player = it->second;
  lobby_.conns.erase(it);
  if (player.empty()) return;
  for (const auto& [c, p] : lobby_.conns)
    if (p == player) return;  // another of their sockets is here
  try {
    // seen as if 5 s from absent: closed by the next ticks unless a socket of theirs comes back
    accounts_->host_seen(player, now_ms() - kHostAbsentMs + kHostGoneGraceMs);
  } catch (const std::exception& e) {
    log_event("lobby_failed", {{"error", printable(e.what())}});
  }
}

void Server::lobby_tick() {
  const std::int64_t now = now_ms();
  if (lobby_.conns.empty()) {  // nobody to tell: the next hello gets the whole lobby
    for (const std::string& id : accounts_->close_absent_hosts(now - kHostAbsentMs))
      log_event("table_closed", {{"table", id}, {"why", "host_absent"}});
    lobby_.tables.clear();
    lobby_.pools.clear();
    return;
  }
  std::set<std::string> here;  // players with a lobby socket on this process
  for (const auto& [c, p] : lobby_.conns)
    if (!p.empty()) here.insert(p);
  auto tables = accounts_->open_tables(200);
  for (const auto& t : tables)
    if (t.clock == "realtime" && here.count(t.host) && t.host_seen < now - kHostAbsentMs / 6)
      accounts_->host_seen(t.host, now);  // (at most every 5 s per host)
  const auto closed = accounts_->close_absent_hosts(now - kHostAbsentMs);
  for (const std::string& id : closed) log_event("table_closed", {{"table", id}, {"why", "host_absent"}});
  if (!closed.empty()) tables = accounts_->open_tables(200);
  std::map<std::string, std::string> now_tables;
  for (const auto& t : tables) now_tables[t.id] = dump(table_json(t));
  json added = json::array(), removed = json::array();
  for (const auto& [id, text] : now_tables)
    if (const auto it = lobby_.tables.find(id); it == lobby_.tables.end() || it->second != text)
      added.push_back(json::parse(text));
  for (const auto& [id, text] : lobby_.tables)
    if (!now_tables.count(id)) removed.push_back(id);
  auto pools = accounts_->pool_counts();
  const bool pools_changed = pools != lobby_.pools;
  if (added.empty() && removed.empty() && !pools_changed) return;
  lobby_.tables = std::move(now_tables);
  lobby_.pools = std::move(pools);
  json batch{{"type", "lobby"}, {"seq", ++lobby_.seq}, {"added", added}, {"removed", removed}};
  if (pools_changed) batch["pools"] = pools_json(lobby_.pools);
  const std::string text = dump(batch);
  for (const auto& [c, p] : lobby_.conns)
    if (const auto s = sinks_.find(c); s != sinks_.end()) s->second(text);
  stats_.lobby_messages += lobby_.conns.size();
}

}  // namespace carc::server::net_side
