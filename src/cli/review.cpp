// review: a game reviewed move by move (ai/review, docs/mcts.md "Review"): per decision with a
// choice, the best option and the played one with their expected final margins, the loss in
// points and its mark (?! inaccuracy, ? mistake, ?? blunder), and a summary per seat. --json for
// programs.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "ai/review.hpp"
#include "cli/commands.hpp"
#include "cli/review.hpp"
#include "cli/terminal/words.hpp"
#include "cli/text.hpp"
#include "core/io.hpp"

namespace carc::cli {

namespace {

const char* sign(const std::string& mark) {
  if (mark == "blunder") return "?\?";
  if (mark == "mistake") return "?";
  if (mark == "inaccuracy") return "?!";
  return "";
}

// At most n characters of s (UTF-8: never cut inside one), padded with spaces to n.
std::string cell(const std::string& s, std::size_t n) {
  std::size_t chars = 0, i = 0;
  for (; i < s.size() && chars < n; ++chars) {
    ++i;
    while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
  }
  return s.substr(0, i) + std::string(n - chars, ' ');
}

std::string right(const std::string& s, std::size_t n) {
  std::size_t chars = 0;
  for (const char ch : s) chars += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  return chars >= n ? s : std::string(n - chars, ' ') + s;
}

}  // namespace

std::string render_review(const Review& rv, const Record& r) {
  const auto who = [&](int p) { return printable(r.players[static_cast<std::size_t>(p)].name); };
  if (rv.decisions.empty()) return cli_say("review.none");
  std::string out = cli_say("review.head", {{"decisions", rv.decisions.size()},
                                            {"playouts", rv.options.playouts},
                                            {"inaccuracy", fmt::format("{:.1f}", rv.inaccuracy)},
                                            {"mistake", fmt::format("{:.1f}", rv.mistake)},
                                            {"blunder", fmt::format("{:.1f}", rv.blunder)}});
  const std::vector<std::string> col = split(cli_say("review.columns"), '|');
  const auto c = [&](std::size_t i) { return i < col.size() ? col[i] : std::string(); };
  out += fmt::format("{} {}  {} {} {}  {} {} {}\n", right(c(0), 4), right(c(1), 4), cell(c(2), 14), cell(c(3), 28),
                     right(c(4), 7), cell(c(5), 28), right(c(6), 7), right(c(7), 6));
  for (const ReviewedDecision& d : rv.decisions) {
    const bool same = d.best == d.played;
    std::string row =
        fmt::format("{:>4} {:>4}  {} {} {:>+7.1f}  {} {:>7} {:>6} {}", d.index, d.turn, cell(who(d.player), 14),
                    cell(d.played, 28), d.played_stats.margin, cell(same ? "=" : d.best, 28),
                    same ? std::string() : fmt::format("{:+.1f}", d.best_stats.margin),
                    d.loss > 0 ? fmt::format("{:.1f}", d.loss) : std::string(), sign(d.mark));
    while (!row.empty() && row.back() == ' ') row.pop_back();
    out += row + "\n";
  }
  const nlohmann::json j = review_to_json(rv, r);
  for (const auto& sm : j["summary"]) {
    const int p = sm["player"].get<int>();
    out += cli_say("review.summary", {{"player", who(p)},
                                      {"points", rv.final_scores[static_cast<std::size_t>(p)]},
                                      {"decisions", sm["decisions"].get<int>()},
                                      {"mean", fmt::format("{:.2f}", sm["mean_loss"].get<double>())},
                                      {"inaccuracies", sm["inaccuracies"].get<int>()},
                                      {"mistakes", sm["mistakes"].get<int>()},
                                      {"blunders", sm["blunders"].get<int>()}});
  }
  return out;
}

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
  c->add_option("--value", o->value,
                "The searches' evaluation: 0 the greedy evaluation (default; the calibrations were fitted on it), "
                "1 or 2 the game's fitted value, -1 the game's default search")
      ->check(CLI::Range(-1, 2));
  c->add_flag("--json", *json, "Print the review as JSON");
  c->add_flag("--ownership", o->ownership,
              "With --json: each decision's open features (the 12 largest) with each seat's share of the playouts "
              "scoring them and mean points");
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
    if (*json) {
      nlohmann::json out = review_to_json(rv, r);
      out["file"] = name;
      std::cout << out.dump(2) << "\n";
      return;
    }
    fmt::print("{}: {}", name, render_review(rv, r));
  });
}

}  // namespace carc::cli
