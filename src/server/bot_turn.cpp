#include "server/bot_turn.hpp"

#include <fmt/format.h>

#include "ai/bots.hpp"
#include "ai/driver.hpp"
#include "engine/engine.hpp"

namespace carc::server {

std::vector<std::string> bot_decisions(const std::string& record_json, int seat, const std::string& spec,
                                       std::uint64_t seed, const BotLimits& budget) {
  return bot_decisions(Game::replay(record_from_json(record_json, "job")), seat, spec, seed, budget);
}

std::vector<std::string> bot_decisions(Game g, int seat, const std::string& spec, std::uint64_t seed,
                                       const BotLimits& budget, const std::atomic<bool>* cancel) {
  const std::unique_ptr<Bot> bot = make_bot_within(spec, budget);
  if (cancel) bot->set_stop(SearchStop{cancel, 0});
  Rng rng(seed);
  std::vector<std::string> out;
  // the seat's decisions while they are its own and nothing is drawn: a turn's worth for the room
  const std::size_t d0 = g.record().draws.size(), c0 = g.record().chance.size();
  const auto turn_done = [&](const Game& now, long) {
    return (cancel && cancel->load()) || to_move(now.state()) != seat || now.record().draws.size() != d0 ||
           now.record().chance.size() != c0;
  };
  const auto write_down = [&out](const State& s, const MoveList&, const Move& m) { out.push_back(notation(s, m)); };
  const auto its_bot = [&bot](int) { return bot.get(); };
  play_bots(g, its_bot, rng, turn_done, write_down);
  if (cancel && cancel->load()) throw SearchCancelled();
  if (out.empty()) throw InputError(fmt::format("seat {} does not decide now", seat));
  return out;
}

}  // namespace carc::server
