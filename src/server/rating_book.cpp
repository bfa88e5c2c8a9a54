// server/rating_book: rated games from logs, rated in order.
#include "server/rating_book.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>

namespace carc::server::rating {

using nlohmann::json;

std::optional<EndResult> end_result(const std::vector<Event>& events) {
  const auto end = std::find_if(events.rbegin(), events.rend(), [](const Event& e) { return e.type == "end"; });
  if (end == events.rend()) return std::nullopt;
  const json d = json::parse(end->body, nullptr, false);
  if (!d.is_object() || !d.contains("scores") || !d["scores"].is_array()) return std::nullopt;
  EndResult r;
  r.time = end->time;
  r.reason = d.value("reason", std::string("finished"));
  for (const json& s : d["scores"]) r.scores.push_back(s.get<int>());
  r.forfeited.assign(r.scores.size(), false);
  for (const json& s : d.value("resigned", json::array()))
    if (s.is_number_integer() && s.get<int>() >= 0 && s.get<std::size_t>() < r.scores.size())
      r.forfeited[s.get<std::size_t>()] = true;
  return r;
}

std::optional<RatedGame> rated_game(const GameMeta& meta, const std::vector<Event>& events) {
  if (meta.status != "finished") return std::nullopt;
  const json settings = json::parse(meta.settings, nullptr, false);
  if (!settings.is_object() || settings.value("rated", false) != true) return std::nullopt;
  const json* seats = settings.contains("seats") ? &settings["seats"] : nullptr;
  if (!seats || !seats->is_array()) return std::nullopt;
  RatedGame g;
  g.id = meta.id;
  g.game = meta.game;
  for (const json& s : *seats) {
    if (!s.is_object() || !s.contains("player") || !s["player"].is_string()) return std::nullopt;
    g.players.push_back(s["player"].get<std::string>());
  }
  auto end = end_result(events);
  if (!end || end->reason == "aborted") return std::nullopt;
  g.time = end->time;
  g.scores = std::move(end->scores);
  g.forfeited = std::move(end->forfeited);
  if (g.scores.size() != g.players.size() || g.players.size() < kMinPlayers || g.players.size() > kMaxPlayers)
    return std::nullopt;
  return g;
}

std::vector<HistoryRow> rate_game(const RatedGame& g, std::map<std::string, Standing>& current, const ModelParams& p) {
  const std::string b = bucket(g.game, static_cast<int>(g.players.size()));
  std::vector<Rating> priors;
  for (const std::string& pl : g.players) {
    const auto it = current.find(pl);
    Standing s = it == current.end() ? Standing{Rating{p.mu, p.sigma}, 0, 0} : it->second;
    if (s.last > 0 && g.time > s.last) s.r = idle(s.r, static_cast<double>(g.time - s.last) / (24.0 * 3600 * 1000), p);
    priors.push_back(s.r);
  }
  const std::vector<Rating> after = rate(priors, places_from_scores(g.scores, g.forfeited), p, true);
  std::vector<HistoryRow> rows;
  for (std::size_t i = 0; i < g.players.size(); ++i) {
    const auto it = current.find(g.players[i]);
    const Rating before = it == current.end() ? Rating{p.mu, p.sigma} : it->second.r;
    rows.push_back({g.id, g.players[i], b, before, after[i], g.time});
    Standing& s = current[g.players[i]];
    s.r = after[i];
    s.last = g.time;
    ++s.games;
  }
  return rows;
}

void RatingBook::add(const RatedGame& g, const ModelParams& p) {
  const std::string b = bucket(g.game, static_cast<int>(g.players.size()));
  std::map<std::string, Standing> current;
  for (const std::string& pl : g.players)
    if (const auto it = table.find({b, pl}); it != table.end()) current[pl] = it->second;
  for (HistoryRow& r : rate_game(g, current, p)) history.push_back(std::move(r));
  for (const auto& [pl, s] : current) table[{b, pl}] = s;
}

void RatingBook::rate_all(std::vector<RatedGame> games, const ModelParams& p) {
  std::sort(games.begin(), games.end(),
            [](const RatedGame& a, const RatedGame& b) { return std::tie(a.time, a.id) < std::tie(b.time, b.id); });
  for (const RatedGame& g : games) add(g, p);
  // the history in the stores' order: time, game, player
  std::stable_sort(history.begin(), history.end(), [](const HistoryRow& a, const HistoryRow& b) {
    return std::tie(a.time, a.game, a.player) < std::tie(b.time, b.game, b.player);
  });
}

RatingBook rebuild(Store& store, const ModelParams& p) {
  std::vector<RatedGame> games;
  for (const GameMeta& m : store.list("finished", 1 << 30))
    if (auto g = rated_game(m, store.events(m.id, 0))) games.push_back(std::move(*g));
  RatingBook book;
  book.rate_all(std::move(games), p);
  return book;
}

std::string exact(double v) { return fmt::format("{:.17g}", v); }

double read_exact(const std::string& text) { return std::strtod(text.c_str(), nullptr); }

}  // namespace carc::server::rating
