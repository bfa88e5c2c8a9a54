// replay: validate and replay a record; print the final scores and every score event. With
// --moves, every decision with the move it answered. With --json, the result (or the first error,
// with its move number and a stable reason code) as JSON on stdout.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "core/io.hpp"
#include "engine/engine.hpp"

namespace carc::cli {

namespace {

const char* kind_name(MoveKind k) {
  switch (k) {
    case MoveKind::Place: return "place";
    case MoveKind::Piece: return "piece";
    case MoveKind::Pass: return "pass";
    case MoveKind::Choose: return "choose";
    case MoveKind::Act: return "action";
  }
  return "?";
}

struct Decision {
  int move = 0, player = 0, options = 0;
  std::string kind, text;
};

}  // namespace

void register_replay(CLI::App& app) {
  auto file = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto moves = std::make_shared<bool>(false);
  auto tiles = std::make_shared<std::string>();
  auto* c = app.add_subcommand("replay", "Validate and replay a game record");
  c->add_option("file", *file, "Record (JSON)")->required();
  c->add_flag("--json", *json, "Print the result, or the first error, as JSON on stdout");
  c->add_flag("--moves", *moves, "Print every decision with the move it answered");
  c->add_option("--tiles", *tiles, "Tile file to use instead of the record's (or the game's default)");
  c->callback([file, json, moves, tiles] {
    const std::string name = printable(*file);
    std::vector<Decision> decisions;
    Game::DecisionHook hook;
    if (*moves) {
      hook = [&decisions](const State& s, const Move& m, int move_index) {
        MoveList ml;
        legal_moves(s, ml);
        decisions.push_back(Decision{move_index + 1, m.player, static_cast<int>(ml.size()), kind_name(m.kind), notation(s, m)});
      };
    }
    std::optional<Game> game;
    Record r;
    try {
      r = load_record(*file);
      game.emplace(Game::replay(r, std::nullopt, *tiles, hook));
    } catch (const InputError& e) {
      // the file named once: at the start of the message on stderr, in "file" in the JSON
      std::string msg = e.what();
      if (msg.rfind(name + ": ", 0) == 0) msg.erase(0, name.size() + 2);
      if (*json) {
        const auto* re = dynamic_cast<const ReplayError*>(&e);
        nlohmann::json res;
        res["file"] = name;
        res["ok"] = false;
        // move 0: not at a move (the record's structure, its setup, before the first move)
        res["error"] = {
            {"move", re ? re->move : 0}, {"code", re ? re->code : std::string("bad_record")}, {"message", msg}};
        std::cout << res.dump(2) << std::endl;
      }
      throw InputError(fmt::format("{}: {}", name, msg));  // exit 2 (with --json the message on stderr too)
    }
    const Game& g = *game;
    const State& s = g.state();
    const Record& out = g.record();
    if (*json) {
      nlohmann::json j = nlohmann::json::parse(record_to_json(out, g.ruleset()));
      nlohmann::json res;
      res["file"] = name;
      res["ok"] = true;
      res["status"] = j["status"];
      res["turns"] = s.turn;
      res["discards"] = s.discards;
      res["scores"] = std::vector<int>(s.score.begin(), s.score.begin() + s.nplayers);
      res["final_scores"] = j["final_scores"];
      res["planned_draws"] = g.unused_draws();
      res["events"] = j["events"];
      if (*moves) {
        res["decisions"] = nlohmann::json::array();
        for (const Decision& d : decisions)
          res["decisions"].push_back({{"move", d.move}, {"player", d.player}, {"kind", d.kind}, {"text", d.text}, {"options", d.options}});
      }
      std::cout << res.dump(2) << "\n";
      return;
    }
    if (*moves)
      for (const Decision& d : decisions)
        fmt::print("move {:3}: {} {} (one of {}): {}\n", d.move, printable(r.players[static_cast<std::size_t>(d.player)].name), d.kind,
                   d.options, d.text);
    for (const ScoreEvent& e : out.events) fmt::print("turn {:3}: {}\n", e.turn, describe_event(s, e));
    fmt::print("{} after {} turns ({} discarded)\n", g.over() ? "finished" : "in progress", s.turn, s.discards);
    if (g.unused_draws() > 0)
      fmt::print("the record lists {} more draws past its last move (the planned deal; play --resume follows it while it fits)\n",
                 g.unused_draws());
    for (int p = 0; p < s.nplayers; ++p)
      fmt::print("  {}: {}\n", printable(r.players[static_cast<std::size_t>(p)].name), s.score[static_cast<std::size_t>(p)]);
  });
}

}  // namespace carc::cli
