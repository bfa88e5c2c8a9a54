// worker: takes bots' turns from a game server (`carcassonne serve`) and sends their moves back,
// through the same exactly-once path as a person's (docs/server-protocol.md, "Bot workers").
#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/commands.hpp"
#include "core/core.hpp"
#include "core/io.hpp"
#include "core/json_input.hpp"
#include "server/bot_turn.hpp"
#include "server/http_client.hpp"

namespace carc::cli {

void register_worker(CLI::App& app) {
  auto* cmd = app.add_subcommand("worker", "Play bots' turns for a game server (carcassonne serve)");
  auto server = std::make_shared<std::string>();
  auto key = std::make_shared<std::string>();
  auto jobs = std::make_shared<int>(0);
  auto quiet = std::make_shared<bool>(false);
  auto budget = std::make_shared<BotLimits>();  // max_ms and max_threads (ai/bot_limits.hpp)
  cmd->add_option("--server", *server, "the server, e.g. http://127.0.0.1:8080")->required();
  cmd->add_option("--key", *key, "the server's --worker-key");
  cmd->add_option("--jobs", *jobs, "stop after this many jobs (0: run until stopped)")->check(CLI::NonNegativeNumber);
  cmd->add_flag("--quiet", *quiet, "no log lines");
  cmd->add_option("--max-ms", budget->max_ms,
                  "CPU budget: at most this many ms per decision for searching bots (levels, mcts)")
      ->check(CLI::Range(1, kWorkerMaxMs));
  cmd->add_option("--threads", budget->max_threads, "CPU budget: at most this many threads per search")
      ->check(CLI::Range(1, kMctsMaxThreads));
  cmd->callback([server, key, jobs, quiet, budget] {
    using nlohmann::json;
    const std::vector<std::pair<std::string, std::string>> headers = {{"X-Worker-Key", *key}};
    int done = 0, failures = 0;
    while (*jobs == 0 || done < *jobs) {
      server::HttpReply take;
      try {
        take = server::http_call(*server, "POST", "/api/jobs/take", "{}", headers);
        failures = 0;
      } catch (const std::exception& e) {
        if (++failures == 1 && !*quiet) std::cerr << fmt::format("worker: {} (retrying)\n", e.what());
        std::this_thread::sleep_for(std::chrono::milliseconds(std::min(5000, 200 * failures)));
        continue;
      }
      if (take.status == 204) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        continue;
      }
      if (take.status >= 500) {  // the server (or the proxy before it) is down for now: again later
        if (++failures == 1 && !*quiet) std::cerr << fmt::format("worker: the server answered {} (retrying)\n", take.status);
        std::this_thread::sleep_for(std::chrono::milliseconds(std::min(5000, 200 * failures)));
        continue;
      }
      if (take.status != 200) throw InputError(fmt::format("--server: the server refused: {} {}", take.status, printable(take.body.substr(0, 300))));
      // the server's answer is input like any other: checked before it is used
      json j;
      std::string game;
      std::int64_t seq = 0;
      int seat = 0;
      try {
        j = jin::parse(take.body, "the server's job");
        game = jin::string(jin::need(j, "game", "job"), "job", "game", 40);
        if (game.empty() || game.find_first_not_of("0123456789abcdef") != std::string::npos) throw InputError("job: game: not a game id");
        seq = jin::integer(jin::need(j, "seq", "job"), 0, std::int64_t{1} << 50, "job", "seq");
        seat = static_cast<int>(jin::integer(jin::need(j, "seat", "job"), 0, kMaxPlayers - 1, "job", "seat"));
        (void)jin::string(jin::need(j, "spec", "job"), "job", "spec", 100);
        (void)jin::need(j, "record", "job");
        (void)jin::string(jin::need(j, "lease", "job"), "job", "lease", 100);
      } catch (const InputError& e) {
        if (!*quiet) std::cerr << fmt::format("worker: {} (skipped)\n", e.what());
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        continue;
      }
      std::vector<std::string> moves;
      try {
        const std::uint64_t seed = std::hash<std::string>{}(game) ^ static_cast<std::uint64_t>(seq) * 0x9E3779B97F4A7C15ULL;
        moves = server::bot_decisions(j.at("record").dump(), seat, j.at("spec").get<std::string>(), seed, *budget);
      } catch (const InputError& e) {
        if (!*quiet) std::cerr << fmt::format("worker: game {} seq {}: {}\n", game, seq, e.what());
        continue;
      }
      const json result{{"seq", seq}, {"seat", seat}, {"lease", j.at("lease")}, {"moves", moves}};
      try {
        const auto r = server::http_call(*server, "POST", fmt::format("/api/games/{}/job", game), result.dump(), headers);
        if (!*quiet) std::cout << fmt::format("game {} seq {} seat {}: {} -> {}", game, seq, seat, fmt::join(moves, ", "), r.body) << std::endl;
      } catch (const std::exception& e) {
        // the lease runs out and the job is taken again; the move's cid keeps it from counting twice
        if (!*quiet) std::cerr << fmt::format("worker: {}\n", e.what());
      }
      ++done;
    }
  });
}

}  // namespace carc::cli
