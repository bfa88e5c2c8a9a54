// carcassonne ratings: ratings are derived from the rated games' logs (docs/ratings.md). `rebuild`
// replays every finished rated game of a server's store in order and writes the rating table and
// history again; with --check it only compares them with the tables the server kept (exit 1 if
// they differ, naming the first difference).
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "cli/commands.hpp"
#include "core/core.hpp"
#include "server/accounts/account_store.hpp"
#include "server/rating_book.hpp"
#include "server/store.hpp"

namespace carc::cli {

void register_ratings(CLI::App& app) {
  auto* cmd = app.add_subcommand("ratings", "ratings derived from the games' logs");
  cmd->require_subcommand(1);
  struct Opts {
    std::string db, data = "data";
    bool check = false;
  };
  auto o = std::make_shared<Opts>();
  auto* rebuild =
      cmd->add_subcommand("rebuild", "rate every finished rated game again, in order, and write the tables");
  rebuild->add_option("--db", o->db,
                      "the server's store: sqlite:FILE or postgresql://... (default: sqlite:DATA/games.db)");
  rebuild->add_option("--data", o->data, "the folder of the default SQLite store")->capture_default_str();
  rebuild->add_flag("--check", o->check, "write nothing: compare with the server's tables (exit 1 if they differ)");
  rebuild->callback([o] {
    const std::string url = o->db.empty() ? "sqlite:" + (std::filesystem::path(o->data) / "games.db").string() : o->db;
    std::unique_ptr<server::Store> store;
    std::unique_ptr<server::accounts::AccountStore> accounts;
    try {
      store = server::open_store(url);
      accounts = std::make_unique<server::accounts::AccountStore>(server::accounts::open_sql(url));
    } catch (const server::StoreError& e) {
      throw InputError(fmt::format("--db: {}", e.what()));
    }
    const server::rating::RatingBook book = server::rating::rebuild(*store);
    if (!o->check) {
      accounts->replace_ratings(book);
      std::cout << fmt::format("ratings: {} rows of history, {} standings written\n", book.history.size(),
                               book.table.size());
      return;
    }
    const auto history = accounts->rating_history();
    const auto table = accounts->rating_table();
    std::string diff;
    if (history.size() != book.history.size())
      diff = fmt::format("the history has {} rows, the rebuild {}", history.size(), book.history.size());
    for (std::size_t i = 0; diff.empty() && i < history.size(); ++i)
      if (!(history[i] == book.history[i]))
        diff =
            fmt::format("history row {} (game {}, player {}) differs", i, book.history[i].game, book.history[i].player);
    if (diff.empty() && table.size() != book.table.size())
      diff = fmt::format("the table has {} standings, the rebuild {}", table.size(), book.table.size());
    if (diff.empty()) {
      auto it = book.table.begin();
      for (std::size_t i = 0; diff.empty() && i < table.size(); ++i, ++it)
        if (table[i].first != it->first || !(table[i].second == it->second))
          diff = fmt::format("the standing of {} in {} differs", it->first.second, it->first.first);
    }
    if (!diff.empty()) {
      std::cout << "ratings: the tables differ from the rebuild: " << diff << "\n";
      std::exit(1);
    }
    std::cout << fmt::format("ratings: the tables equal the rebuild ({} rows of history, {} standings)\n",
                             history.size(), table.size());
  });
}

}  // namespace carc::cli
