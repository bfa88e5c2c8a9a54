// Ratings derived from logs (server/rating_book, docs/ratings.md): a rated game read from its store
// entry, and the rebuild (every finished rated game in order) equal, row for row, to the tables the
// account store kept game by game, after 1,000 simulated rated games of 2-5 players.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>

#include "server/accounts/account_store.hpp"
#include "server/rating_book.hpp"
#include "server/store.hpp"

using namespace carc::server;
using nlohmann::json;

namespace {

// A finished game of the store: its settings name each seat's player; its log ends with `end`.
void add_game(Store& store, const std::string& id, const std::string& game, const std::vector<std::string>& players,
              const std::vector<int>& scores, const std::vector<int>& resigned, std::int64_t time, bool rated,
              const std::string& reason = "finished") {
  json seats = json::array();
  for (const auto& p : players) seats.push_back({{"name", p}, {"bot", ""}, {"player", p}});
  json settings{{"seats", seats}};
  if (rated) settings["rated"] = true;
  GameMeta meta{id, game, settings.dump(), "1", time - 1000, "active"};
  Append first;
  first.game = id;
  first.events.push_back({1, "created", -1, "", time - 1000, "{}"});
  store.create(meta, first);
  Append end;
  end.game = id;
  end.status = reason == "aborted" ? "aborted" : "finished";
  end.events.push_back(
      {2, "end", -1, "", time, json{{"reason", reason}, {"scores", scores}, {"resigned", resigned}}.dump()});
  ASSERT_TRUE(store.commit({end}).at(0));
}

}  // namespace

TEST(RatingBook, ReadsARatedGameFromItsLog) {
  auto store = make_memory_store();
  add_game(*store, "g1", "base", {"a", "b", "c"}, {30, 50, 50}, {2}, 5000, true);
  const auto meta = store->game("g1");
  const auto g = rating::rated_game(*meta, store->events("g1", 0));
  ASSERT_TRUE(g);
  EXPECT_EQ(g->players, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(g->scores, (std::vector<int>{30, 50, 50}));
  EXPECT_EQ(g->forfeited, (std::vector<bool>{false, false, true}));
  EXPECT_EQ(g->time, 5000);
  std::map<std::string, rating::Standing> cur;
  const auto rows = rating::rate_game(*g, cur);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].bucket, "base/3-5");
  EXPECT_GT(rows[1].after.mu, rows[0].after.mu) << "b (50) above a (30)";
  EXPECT_GT(rows[0].after.mu, rows[2].after.mu) << "c resigned: last, whatever its score";
  add_game(*store, "casual", "base", {"a", "b"}, {1, 2}, {}, 6000, false);
  EXPECT_FALSE(rating::rated_game(*store->game("casual"), store->events("casual", 0))) << "a casual game";
  add_game(*store, "aborted", "base", {"a", "b"}, {0, 0}, {}, 7000, true, "aborted");
  EXPECT_FALSE(rating::rated_game(*store->game("aborted"), store->events("aborted", 0))) << "an aborted game";
}

TEST(RatingBook, IdleDaysGrowTheNextPrior) {
  constexpr std::int64_t kT = 1'700'000'000'000;
  rating::RatedGame g{"g", "base", kT, {"a", "b"}, {10, 5}, {false, false}};
  std::map<std::string, rating::Standing> cur;
  cur["a"] = {{30, 2}, kT - 100LL * 24 * 3600 * 1000, 40};
  const auto rows = rating::rate_game(g, cur);
  EXPECT_EQ(rows[0].before.sigma, 2) << "the row's before is the standing as kept";
  std::map<std::string, rating::Standing> fresh;
  fresh["a"] = {{30, 2}, kT, 40};
  const auto same_day = rating::rate_game(g, fresh);
  EXPECT_GT(rows[0].after.sigma, same_day[0].after.sigma) << "100 idle days: a wider prior";
  EXPECT_EQ(cur["a"].games, 41);
  EXPECT_EQ(cur["a"].last, kT);
}

TEST(RatingBook, RebuildEqualsTheIncrementalTablesAfterAThousandGames) {
  auto store = make_memory_store();
  accounts::AccountStore acc(accounts::open_sql("memory"));
  std::vector<std::string> players;
  for (int i = 0; i < 40; ++i) players.push_back(acc.new_guest(1, "1", "x").first.id);
  std::mt19937_64 rng(20261207);
  const std::vector<std::string> games = {"base", "amazonas", "hunters", "safari"};
  std::int64_t t = 1'700'000'000'000;
  int rated = 0;
  for (int i = 0; i < 1000; ++i) {
    const int n = 2 + static_cast<int>(rng() % 4);
    std::vector<std::string> seats;
    while (static_cast<int>(seats.size()) < n) {
      const std::string& p = players[rng() % players.size()];
      if (std::find(seats.begin(), seats.end(), p) == seats.end()) seats.push_back(p);
    }
    std::vector<int> scores;
    for (int s = 0; s < n; ++s) scores.push_back(static_cast<int>(rng() % 40));  // ties happen
    std::vector<int> resigned;
    if (rng() % 10 == 0) resigned.push_back(static_cast<int>(rng() % n));
    t += static_cast<std::int64_t>(rng() % (3LL * 24 * 3600 * 1000));  // up to 3 idle days apart
    const bool is_rated = rng() % 8 != 0;
    const std::string reason = rng() % 25 == 0 ? "aborted" : "finished";
    const std::string id = "g" + std::to_string(i);
    add_game(*store, id, games[rng() % games.size()], seats, scores, resigned, t, is_rated, reason);
    // the server's path: rated as it ends, from the store
    const auto meta = store->game(id);
    if (const auto g = rating::rated_game(*meta, store->events(id, 0))) {
      ASSERT_TRUE(acc.rate(*g));
      EXPECT_FALSE(acc.rate(*g)) << "a game is rated once";
      ++rated;
    }
  }
  EXPECT_GT(rated, 800);
  const rating::RatingBook book = rating::rebuild(*store);
  const auto history = acc.rating_history();
  ASSERT_EQ(history.size(), book.history.size());
  for (std::size_t i = 0; i < history.size(); ++i) ASSERT_EQ(history[i], book.history[i]) << "row " << i;
  const auto table = acc.rating_table();
  ASSERT_EQ(table.size(), book.table.size());
  auto it = book.table.begin();
  for (std::size_t i = 0; i < table.size(); ++i, ++it) {
    ASSERT_EQ(table[i].first, it->first);
    ASSERT_EQ(table[i].second, it->second) << it->first.first << " " << it->first.second;
  }
  // and the rebuild written back reads the same
  acc.replace_ratings(book);
  EXPECT_EQ(acc.rating_history(), history);
}
