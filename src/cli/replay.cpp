// replay: validate and replay a record; print the final scores and every score event.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "engine/engine.hpp"

namespace carc::cli {

void register_replay(CLI::App& app) {
  auto file = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto tiles = std::make_shared<std::string>();
  auto* c = app.add_subcommand("replay", "Validate and replay a game record");
  c->add_option("file", *file, "Record (JSON)")->required();
  c->add_flag("--json", *json, "Print the result as JSON");
  c->add_option("--tiles", *tiles, "Tile file to use instead of the record's (or the game's default)");
  c->callback([file, json, tiles] {
    const Record r = load_record(*file);
    Game g = [&] {
      try {
        return Game::replay(r, std::nullopt, *tiles);
      } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}", *file, e.what()));
      }
    }();
    const State& s = g.state();
    const Record& out = g.record();
    if (*json) {
      nlohmann::json j = nlohmann::json::parse(record_to_json(out, g.ruleset()));
      nlohmann::json res;
      res["file"] = *file;
      res["status"] = j["status"];
      res["turns"] = s.turn;
      res["discards"] = s.discards;
      res["scores"] = std::vector<int>(s.score.begin(), s.score.begin() + s.nplayers);
      res["final_scores"] = j["final_scores"];
      res["events"] = j["events"];
      std::cout << res.dump(2) << "\n";
    } else {
      for (const ScoreEvent& e : out.events) fmt::print("turn {:3}: {}\n", e.turn, describe_event(s, e));
      fmt::print("{} after {} turns ({} discarded)\n", g.over() ? "finished" : "in progress", s.turn, s.discards);
      for (int p = 0; p < s.nplayers; ++p)
        fmt::print("  {}: {}\n", r.players[static_cast<std::size_t>(p)].name, s.score[static_cast<std::size_t>(p)]);
    }
    // a record that claims results must agree with the replay
    if (!r.final_scores.empty() && r.final_scores != out.final_scores)
      throw InputError(fmt::format("{}: the record's final scores differ from the replay's", *file));
  });
}

}  // namespace carc::cli
