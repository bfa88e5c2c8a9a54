// carcassonne admin: the operator's tools on a server's store (docs/deploy.md, "Accounts"):
// a one-time password reset link for an account, ban and unban, the queue of reports, removing a
// chat message. The operator never sets or sees a
// password. Runs beside a live server: both write the same database.
#include <fmt/chrono.h>
#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <iostream>

#include "cli/commands.hpp"
#include "core/core.hpp"
#include "core/io.hpp"
#include "server/accounts/account_store.hpp"
#include "server/accounts/credentials.hpp"
#include "server/store.hpp"

namespace carc::cli {
namespace {

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// A time in ms since the epoch as "2026-12-07 04:51 UTC".
std::string utc(std::int64_t ms) {
  return fmt::format("{:%Y-%m-%d %H:%M} UTC", fmt::gmtime(static_cast<std::time_t>(ms / 1000)));
}

struct AdminOptions {
  std::string db, data = "data", name, base = "http://localhost:8080", id;
  int ttl_min = 60;
  bool all = false;
};

server::accounts::AccountStore open(const AdminOptions& o) {
  const std::string url = o.db.empty() ? "sqlite:" + (std::filesystem::path(o.data) / "games.db").string() : o.db;
  try {
    return server::accounts::AccountStore(server::accounts::open_sql(url));
  } catch (const server::StoreError& e) {
    throw InputError(fmt::format("--db: {}", e.what()));
  }
}

server::accounts::Player account(server::accounts::AccountStore& store, const std::string& name) {
  const auto p = store.by_name(server::accounts::username_key(name));
  if (!p || p->deleted) throw InputError(fmt::format("no account named \"{}\"", name));
  return *p;
}

}  // namespace

void register_admin(CLI::App& app) {
  auto* cmd = app.add_subcommand("admin", "the operator's tools on a server's store: reset links, bans, reports, chat");
  cmd->require_subcommand(1);
  auto o = std::make_shared<AdminOptions>();
  auto where = [o](CLI::App* sub) {
    sub->add_option("--db", o->db,
                    "the server's store: sqlite:FILE or postgresql://... (default: sqlite:DATA/games.db)");
    sub->add_option("--data", o->data, "the folder of the default SQLite store")->capture_default_str();
  };
  auto common = [o, where](CLI::App* sub) {
    sub->add_option("name", o->name, "the account's name")->required();
    where(sub);
  };
  auto* reset =
      cmd->add_subcommand("reset-link", "print a one-time link that lets the account's owner set a new password");
  common(reset);
  reset->add_option("--base", o->base, "the server's address as players reach it")->capture_default_str();
  reset->add_option("--ttl-min", o->ttl_min, "minutes the link stays valid")
      ->capture_default_str()
      ->check(CLI::Range(5, 24 * 60));
  reset->callback([o] {
    auto store = open(*o);
    const auto p = account(store, o->name);
    const std::string secret = store.new_reset_link(p.id, now_ms(), std::int64_t{o->ttl_min} * 60000);
    std::string base = o->base;
    while (!base.empty() && base.back() == '/') base.pop_back();
    std::cout << fmt::format("{}/account/reset#{}\n", base, secret);
    std::cerr << fmt::format("one use, valid for {} minutes; give it to {} privately\n", o->ttl_min, p.name);
  });
  auto* ban = cmd->add_subcommand("ban", "close an account: its sessions end and it cannot log in");
  common(ban);
  ban->callback([o] {
    auto store = open(*o);
    store.set_banned(account(store, o->name).id, true, now_ms());
    std::cout << fmt::format("{} is banned; their sessions are ended\n", o->name);
  });
  auto* unban = cmd->add_subcommand("unban", "open a banned account again");
  common(unban);
  unban->callback([o] {
    auto store = open(*o);
    store.set_banned(account(store, o->name).id, false, now_ms());
    std::cout << fmt::format("{} may log in again\n", o->name);
  });
  auto* reports =
      cmd->add_subcommand("reports", "the players' reports, oldest first: the open ones (--all: every one)");
  where(reports);
  reports->add_flag("--all", o->all, "closed ones too");
  reports->callback([o] {
    auto store = open(*o);
    auto name = [&](const std::string& id) {
      const auto p = store.by_id(id);
      return p && !p->guest() ? p->name : fmt::format("(guest {})", id);
    };
    // the chat messages reported, by id (read from their games' chats)
    const auto list = store.reports(o->all);
    for (const auto& r : list) {
      std::string line =
          fmt::format("{}  {}  {} reports {}: {}", r.id, utc(r.made), name(r.reporter), name(r.reported), r.reason);
      if (!r.game.empty()) line += fmt::format("  game {}", r.game);
      if (!r.message.empty()) {
        std::string said = "(no such message in that game)";
        for (const auto& m : store.chat_of(r.game, true))
          if (m.id == r.message) said = m.phrase.empty() ? printable(m.text) : "[" + m.phrase + "]";
        line += fmt::format("  message {}: {}", r.message, said);
      }
      if (!r.note.empty()) line += fmt::format("  note: {}", printable(r.note));
      if (r.closed) line += fmt::format("  (closed {})", utc(r.closed));
      std::cout << line << "\n";
    }
    std::cerr << fmt::format("{} report(s)\n", list.size());
  });
  auto* close = cmd->add_subcommand("report-close", "close a report (it leaves the open queue)");
  where(close);
  close->add_option("id", o->id, "the report's id")->required();
  close->callback([o] {
    auto store = open(*o);
    if (!store.close_report(o->id, now_ms())) throw InputError(fmt::format("no open report \"{}\"", o->id));
    std::cout << fmt::format("report {} closed\n", o->id);
  });
  auto* remove = cmd->add_subcommand("chat-remove", "remove a chat message: it is no longer sent or shown");
  where(remove);
  remove->add_option("id", o->id, "the message's id")->required();
  remove->callback([o] {
    auto store = open(*o);
    if (!store.remove_chat(o->id, now_ms())) throw InputError(fmt::format("no chat message \"{}\" to remove", o->id));
    std::cout << fmt::format("message {} removed\n", o->id);
  });
}

}  // namespace carc::cli
