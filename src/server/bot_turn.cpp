#include "server/bot_turn.hpp"

#include <fmt/format.h>

#include "ai/bots.hpp"
#include "ai/mcts.hpp"
#include "engine/engine.hpp"

namespace carc::server {

std::vector<std::string> bot_decisions(const std::string& record_json, int seat, const std::string& spec, std::uint64_t seed,
                                       const BotBudget& budget) {
  return bot_decisions(Game::replay(record_from_json(record_json, "job")), seat, spec, seed, budget);
}

std::vector<std::string> bot_decisions(Game g, int seat, const std::string& spec, std::uint64_t seed, const BotBudget& budget) {
  std::unique_ptr<Bot> bot;
  const std::string mcts = bot_level_spec(spec).empty() ? spec : bot_level_spec(spec);
  if ((budget.max_ms > 0 || budget.max_threads > 0) && mcts.rfind("mcts", 0) == 0) {
    MctsOptions o = parse_mcts_spec(mcts);
    if (budget.max_ms > 0 && o.playouts == 0) o.ms = std::min(o.ms, budget.max_ms);
    if (budget.max_threads > 0) o.threads = std::min(o.threads, budget.max_threads);
    bot = make_mcts_bot(o);
  } else {
    bot = make_bot(spec);
  }
  Rng rng(seed);
  std::vector<std::string> out;
  const std::size_t d0 = g.record().draws.size(), c0 = g.record().chance.size();
  while (!g.over() && !is_chance(g.state()) && to_move(g.state()) == seat && g.record().draws.size() == d0 &&
         g.record().chance.size() == c0) {
    MoveList ml;
    legal_moves(g.state(), ml);
    if (ml.empty()) throw InputError("the bot has no legal move");
    const Move m = bot->choose(g.state(), ml, rng);
    out.push_back(notation(g.state(), m));
    g.play(m);
  }
  if (out.empty()) throw InputError(fmt::format("seat {} does not decide now", seat));
  return out;
}

}  // namespace carc::server
