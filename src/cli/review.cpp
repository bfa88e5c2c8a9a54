// review: a game reviewed move by move (ai/review, docs/mcts.md "Review"): per decision with a
// choice, the best option and the played one with their expected final margins, the loss in
// points and its mark (?! inaccuracy, ? mistake, ?? blunder), and a summary per seat. --json for
// programs.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "ai/review.hpp"
#include "cli/commands.hpp"
#include "core/io.hpp"

namespace carc::cli {

namespace {

const char* sign(const std::string& mark) {
  if (mark == "blunder") return "?\?";
  if (mark == "mistake") return "?";
  if (mark == "inaccuracy") return "?!";
  return "";
}

}  // namespace

void register_review(CLI::App& app) {
  auto file = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto o = std::make_shared<ReviewOptions>();
  auto* c = app.add_subcommand(
      "review", "Review a game move by move: the best option, the loss in points, inaccuracies, mistakes and blunders");
  c->add_option("file", *file, "Record (JSON)")->required();
  c->add_option("--playouts", o->playouts, "Search playouts per decision (one thread: deterministic)")
      ->check(CLI::Range(1, 1000000));
  c->add_option("--seed", o->seed, "Seed of the searches");
  c->add_option("--share", o->force_share, "Share of the playouts given to the played move")
      ->check(CLI::Range(0.0, 0.9));
  c->add_flag("--json", *json, "Print the review as JSON");
  c->callback([file, json, o] {
    const std::string name = printable(*file);
    Record r;
    Review rv;
    try {
      r = load_record(*file);
      rv = review_record(r, *o);
    } catch (const InputError& e) {
      const std::string msg = e.what();
      throw InputError(msg.rfind(name, 0) == 0 ? msg : fmt::format("{}: {}", name, msg));
    }
    const auto who = [&](int p) { return printable(r.players[static_cast<std::size_t>(p)].name); };
    const nlohmann::json j = review_to_json(rv, r);
    if (*json) {
      nlohmann::json out = j;
      out["file"] = name;
      std::cout << out.dump(2) << "\n";
      return;
    }
    fmt::print(
        "{}: {} decisions with a choice, {} playouts each; marks at a loss of {:.1f} (?!), {:.1f} (?), {:.1f} (?\?) "
        "points\n",
        name, rv.decisions.size(), rv.options.playouts, rv.inaccuracy, rv.mistake, rv.blunder);
    fmt::print("{:>4} {:>4}  {:<14} {:<28} {:>7}  {:<28} {:>7} {:>6}\n", "#", "turn", "player", "played", "margin",
               "best", "margin", "loss");
    for (const ReviewedDecision& d : rv.decisions) {
      const bool same = d.best == d.played;
      fmt::print("{:>4} {:>4}  {:<14} {:<28} {:>+7.1f}  {:<28} {:>7} {:>6} {}\n", d.index, d.turn,
                 who(d.player).substr(0, 14), d.played.substr(0, 28), d.played_stats.margin,
                 same ? "=" : d.best.substr(0, 28), same ? std::string() : fmt::format("{:+.1f}", d.best_stats.margin),
                 d.loss > 0 ? fmt::format("{:.1f}", d.loss) : std::string(), sign(d.mark));
    }
    for (const auto& sm : j["summary"]) {
      const int p = sm["player"].get<int>();
      fmt::print("{}: {} points; {} decisions, mean loss {:.2f}; {} inaccuracies, {} mistakes, {} blunders\n", who(p),
                 rv.final_scores[static_cast<std::size_t>(p)], sm["decisions"].get<int>(),
                 sm["mean_loss"].get<double>(), sm["inaccuracies"].get<int>(), sm["mistakes"].get<int>(),
                 sm["blunders"].get<int>());
    }
  });
}

}  // namespace carc::cli
