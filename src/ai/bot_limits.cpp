#include "ai/bot_limits.hpp"

#include <algorithm>

#include "ai/bots.hpp"
#include "ai/mcts.hpp"

namespace carc {

std::vector<std::string> bot_level_names() {
  std::vector<std::string> out;
  for (const BotLevel& lv : kBotLevels) out.emplace_back(lv.name);
  return out;
}

bool cheap_bot(std::string_view spec) {
  return std::find(kCheapBots.begin(), kCheapBots.end(), spec) != kCheapBots.end();
}

OverLimit over_limits(const MctsOptions& o, const BotLimits& limits) {
  if (limits.max_threads > 0 && o.threads > limits.max_threads) return OverLimit::threads;
  if (o.playouts > 0)
    return limits.max_playouts > 0 && o.playouts > limits.max_playouts ? OverLimit::playouts : OverLimit::none;
  return limits.max_ms > 0 && o.ms > limits.max_ms ? OverLimit::ms : OverLimit::none;
}

std::unique_ptr<Bot> make_bot_within(std::string_view spec, const BotLimits& cap) {
  if (!bot_level_spec(spec).empty()) return make_level_bot(spec, cap);
  if ((cap.max_ms > 0 || cap.max_threads > 0) && spec.rfind("mcts", 0) == 0) {
    MctsOptions o = parse_mcts_spec(spec);
    if (cap.max_ms > 0 && o.playouts == 0) o.ms = std::min(o.ms, cap.max_ms);
    if (cap.max_threads > 0) o.threads = std::min(o.threads, cap.max_threads);
    return make_mcts_bot(o);
  }
  return make_bot(spec);
}

}  // namespace carc
