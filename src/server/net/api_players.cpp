// Players over HTTP (docs/server-protocol.md, "Your turn" and "Profiles and leaderboards"): the
// games where it is the session's player's turn, an account's page (ratings, their graph's history,
// finished games and results) and the leaderboards. Results are derived from the logs: a finished
// game's row per seat bound to a player is written when it ends (record_results).
#include "server/net/server.hpp"

namespace carc::server::net_side {
namespace {

json standing_json(const std::string& bucket, const rating::Standing& s) {
  return json{{"bucket", bucket},
              {"rating", static_cast<int>(std::lround(rating::display(s.r)))},
              {"provisional", rating::provisional(s.r)},
              {"games", s.games},
              {"mu", s.r.mu},
              {"sigma", s.r.sigma},
              {"last", s.last}};
}

bool days_clock(const GameMeta& m) {
  const json settings = json::parse(m.settings, nullptr, false);
  return settings.is_object() && settings.contains("clock") && settings["clock"].is_object() &&
         settings["clock"].value("type", "") == "days";
}

// A query value's %XX escapes decoded ("base%2F2" is "base/2"); a malformed one is kept as written.
std::string query_value(const std::string& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] == '%' && i + 2 < v.size() && std::isxdigit(static_cast<unsigned char>(v[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(v[i + 2]))) {
      out += static_cast<char>(std::stoi(v.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += v[i] == '+' ? ' ' : v[i];
    }
  }
  return out;
}

}  // namespace

int Server::correspondence_games(const std::string& player) {
  std::set<std::string> games;
  for (const auto& s : accounts_->games_of(player, 500))
    if (const auto m = store_->game(s.game); m && m->status == "active" && days_clock(*m)) games.insert(s.game);
  return static_cast<int>(games.size());
}

// GET /api/me/turns: the player's games where one of their seats is to move, the least time left first.
void Server::http_turns(HttpCall& c) {
  const std::int64_t now = now_ms();
  const auto p = signed_in(c, now);
  if (!p) return;
  json turns = json::array();
  int waiting = 0, correspondence = 0;
  std::set<std::string> seen;
  for (const auto& s : accounts_->games_of(p->id, 200)) {
    const auto m = store_->game(s.game);
    if (!m || m->status != "active") continue;
    Host* h = host(s.game);  // (loaded from its log if need be: the clocks are the log's)
    if (!h || h->room->over()) continue;
    const json sum = h->room->summary(now);
    const bool first = seen.insert(s.game).second;
    if (first && sum["clock"] == "days") ++correspondence;
    if (sum["to_move"] != s.seat) {
      if (first) ++waiting;
      continue;
    }
    const std::int64_t left = sum["clocks"][static_cast<std::size_t>(s.seat)].get<std::int64_t>();
    turns.push_back({{"id", s.game},
                     {"game", m->game},
                     {"seat", s.seat},
                     {"clock", sum["clock"]},
                     {"left", left < 0 ? json(nullptr) : json(left)},
                     {"seq", sum["seq"]},
                     {"since", h->room->turn_started()},
                     {"play", fmt::format("/play/{}?seat={}", s.game, s.seat)}});
  }
  std::stable_sort(turns.begin(), turns.end(), [](const json& a, const json& b) {
    if (a["left"].is_null() != b["left"].is_null()) return b["left"].is_null();
    if (!a["left"].is_null() && a["left"] != b["left"])
      return a["left"].get<std::int64_t>() < b["left"].get<std::int64_t>();
    return a["since"].get<std::int64_t>() < b["since"].get<std::int64_t>();
  });
  c.respond(
      http::status::ok,
      dump(json{
          {"turns", turns}, {"waiting", waiting}, {"correspondence", correspondence}, {"cap", o_.correspondence_cap}}));
}

// GET /api/players/NAME: an account's page.
void Server::http_player(HttpCall& c) {
  const auto p = accounts_->by_name(accounts::username_key(c.arg));
  if (!p || p->deleted) return c.problem(http::status::not_found, "unknown_player", "no account has this name");
  json ratings = json::array();
  for (const auto& [bucket, s] : accounts_->standings_of(p->id)) ratings.push_back(standing_json(bucket, s));
  json history = json::array();
  for (const auto& r : accounts_->history_of(p->id))
    history.push_back({{"game", r.game},
                       {"bucket", r.bucket},
                       {"time", r.time},
                       {"before", static_cast<int>(std::lround(rating::display(r.before)))},
                       {"after", static_cast<int>(std::lround(rating::display(r.after)))}});
  json results = json::array();
  for (const auto& r : accounts_->result_counts(p->id))
    results.push_back({{"game", r.kind}, {"players", r.players}, {"played", r.played}, {"won", r.won}});
  json games = json::array();
  for (const auto& g : accounts_->results_of(p->id, 50))
    games.push_back({{"id", g.game_id},
                     {"game", g.kind},
                     {"players", g.players},
                     {"seat", g.seat},
                     {"place", g.place},
                     {"score", g.score},
                     {"rated", g.rated},
                     {"reason", g.reason},
                     {"ended", g.ended}});
  c.respond(http::status::ok, dump(json{{"name", p->name},
                                        {"since", p->claimed},
                                        {"ratings", ratings},
                                        {"history", history},
                                        {"results", results},
                                        {"games", games}}));
}

// GET /api/leaderboard?bucket=B&days=N: the best shown ratings of a bucket among players whose
// rating is not provisional and who played a rated game in the last N days.
void Server::http_leaderboard(HttpCall& c) {
  const std::string bucket = query_value(c.param("bucket"));
  const auto slash = bucket.find('/');
  if (bucket.empty() || slash == std::string::npos || !find_game(bucket.substr(0, slash)) ||
      (bucket.substr(slash) != "/2" && bucket.substr(slash) != "/3-5"))
    throw InputError(
        fmt::format("request: bucket: \"{}\" is not a bucket (GAME/2 or GAME/3-5 for a game of this server)",
                    printable(bucket.substr(0, 60))));
  int days = 30;
  if (const std::string d = c.param("days"); !d.empty()) {
    if (d.size() > 3 || d.find_first_not_of("0123456789") != std::string::npos || std::stoi(d) < 1 ||
        std::stoi(d) > 365)
      throw InputError(fmt::format("request: days: \"{}\" is not a number of days from 1 to 365", printable(d)));
    days = std::stoi(d);
  }
  const std::int64_t since = now_ms() - std::int64_t{days} * 24 * 3600 * 1000;
  auto rows = accounts_->leaderboard(bucket, since);
  std::erase_if(rows, [](const auto& r) { return rating::provisional(r.s.r); });
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    const double da = rating::display(a.s.r), db = rating::display(b.s.r);
    return da != db ? da > db : a.name < b.name;
  });
  json players = json::array();
  for (std::size_t i = 0; i < rows.size() && i < 100; ++i)
    players.push_back({{"rank", i + 1},
                       {"name", rows[i].name},
                       {"rating", static_cast<int>(std::lround(rating::display(rows[i].s.r)))},
                       {"games", rows[i].s.games},
                       {"last", rows[i].s.last}});
  c.respond(http::status::ok, dump(json{{"bucket", bucket}, {"days", days}, {"players", players}}));
}

void Server::record_results(const std::string& id) {
  try {
    const auto meta = store_->game(id);
    if (!meta || meta->status != "finished") return;  // (an aborted game has no result)
    const auto end = rating::end_result(store_->events(id, 0));
    if (!end) return;
    const std::vector<int>& scores = end->scores;
    const std::vector<int> places = rating::places_from_scores(scores, end->forfeited);
    const json settings = json::parse(meta->settings, nullptr, false);
    const bool rated = settings.is_object() && settings.value("rated", false);
    std::vector<accounts::AccountStore::GameResult> rows;
    for (std::size_t i = 0; i < scores.size(); ++i) {
      const std::string player = accounts_->seat_player(id, static_cast<int>(i));
      if (player.empty()) continue;
      rows.push_back({id, player, meta->game, end->reason, static_cast<int>(i), static_cast<int>(scores.size()),
                      places[i], scores[i], rated, end->time});
    }
    if (!rows.empty()) accounts_->add_results(rows);
  } catch (const std::exception& e) {
    log_event("results_failed", {{"game", printable(id)}, {"error", printable(e.what())}});
  }
}

}  // namespace carc::server::net_side
