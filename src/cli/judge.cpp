// judge: how much a move of a recorded game really loses to another (ai/judge, docs/mcts.md "How
// right the marks are"): both played on in pairs by a stronger continuation than a review's own
// playouts. For tools/review_accuracy.py and for anyone who doubts a mark.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "ai/bots.hpp"
#include "ai/judge.hpp"
#include "cli/commands.hpp"
#include "cli/text.hpp"
#include "core/io.hpp"
#include "engine/engine.hpp"

namespace carc::cli {

namespace {
struct Opts {
  std::string file;
  int decision = 0;
  std::string better;
  std::string played;
  double threshold = 0;
  JudgeOptions judge;
};
}  // namespace

void register_judge(CLI::App& app) {
  auto o = std::make_shared<Opts>();
  auto* c = app.add_subcommand("judge",
                               "How much a recorded move really loses to another: both played on in pairs by a search "
                               "at every decision, then a deeper analysis (JSON)");
  c->add_option("file", o->file, "Record (JSON)")->required();
  c->add_option("--decision", o->decision,
                "The decision, from 1, counted as a review counts them (its decisions' index)")
      ->required()
      ->check(CLI::Range(1, 100000));
  c->add_option("--better", o->better, "The other move, in the engine's notation (a review's best)")->required();
  c->add_option("--played", o->played, "The move it is compared with (default: the one the record played)");
  c->add_option("--threshold", o->threshold,
                "Points the question is about: pairs are added while the loss is within 2.5 standard errors of it");
  c->add_option("--bot", o->judge.bot, "The continuation's bot, both sides");
  c->add_option("--depth", o->judge.depth, "Decisions the bot plays before the analysis judges")
      ->check(CLI::Range(0, 10000));
  c->add_option("--eval-playouts", o->judge.eval_playouts, "The analysis' playouts (0: play to the end)")
      ->check(CLI::Range(0, 10000000));
  c->add_option("--pairs", o->judge.pairs, "Paired continuations at least")->check(CLI::Range(2, 100000));
  c->add_option("--max-pairs", o->judge.max_pairs, "Paired continuations at most")->check(CLI::Range(2, 100000));
  c->add_option("--seed", o->judge.seed, "Seed of the continuations' streams");
  c->callback([o] {
    const std::string name = printable(o->file);
    try {
      (void)make_bot(o->judge.bot);  // a bad spec is refused before any work
      const Record r = load_record(o->file);
      // decisions counted as a review counts them: every one, from 1 (a record's move is a whole turn)
      std::optional<State> at;
      Move played;
      int decisions = 0;
      (void)Game::replay(r, std::nullopt, "", [&](const State& s, const Move& m, int) {
        if (++decisions == o->decision) {
          at = s;
          played = m;
        }
      });
      if (!at) throw InputError(fmt::format("--decision {}: the game has {} decisions", o->decision, decisions));
      const Move better = parse_notation(*at, o->better);
      if (!o->played.empty()) played = parse_notation(*at, o->played);
      const Judgement j = judge_moves(*at, better, played, o->threshold, o->judge);
      nlohmann::json out = {{"file", name},
                            {"decision", o->decision},
                            {"player", to_move(*at)},
                            {"better", notation(*at, better)},
                            {"played", notation(*at, played)},
                            {"loss", j.loss},
                            {"se", j.se},
                            {"pairs", j.pairs},
                            {"diffs", j.diffs},
                            {"bot", o->judge.bot},
                            {"depth", o->judge.depth},
                            {"eval_playouts", o->judge.eval_playouts}};
      std::cout << out.dump() << "\n";
    } catch (const InputError& e) {
      const std::string msg = e.what();
      throw InputError(msg.rfind(name, 0) == 0 ? msg : fmt::format("{}: {}", name, msg));
    }
  });
}

}  // namespace carc::cli
