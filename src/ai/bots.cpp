#include "ai/bots.hpp"

#include "ai/bot_limits.hpp"
#include "ai/mcts.hpp"
#include "ai/value.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

namespace carc {

namespace {

class RandomBot final : public Bot {
 public:
  Move choose(const State&, const MoveList& legal, Rng& rng) override {
    return legal[rng.below(static_cast<u32>(legal.size()))];
  }
  [[nodiscard]] std::string spec() const override { return "random"; }
};

// Potential of every player's pieces on the board (majority holders only), in points.
void potentials(const State& s, std::array<double, kMaxPlayers>& pot) {
  pot.fill(0.0);
  for_each_claim(
      s,
      [&](const Segment& n) {  // a hut: its river system's fish, for the hut majority
        int best = 0;
        for (int p = 0; p < s.nplayers; ++p) best = std::max<int>(best, n.net_pieces[static_cast<std::size_t>(p)]);
        for (int p = 0; p < s.nplayers; ++p)
          if (n.net_pieces[static_cast<std::size_t>(p)] == best) pot[static_cast<std::size_t>(p)] += n.net_attr + 0.5;
      },
      [&](int root, const FeatureInfo& fi) {
        const FeatureTypeDef& fd = s.rs->ftype(fi.ftype);
        const bool end_only = fd.cls != FClass::Field && fd.final_per_tile == 0 && fd.final_per_attr == 0;
        const double v = claim_worth(fd,
                                     fd.cls == FClass::Field ? field_worth(s, root, fi)
                                     : end_only              ? 0.0
                                                             : feature_value(s, fi, false),
                                     end_only ? feature_value(s, fi, true) : 0.0);
        int best = 0;
        for (int p = 0; p < s.nplayers; ++p) best = std::max(best, fi.pieces[static_cast<std::size_t>(p)]);
        for (int p = 0; p < s.nplayers; ++p)
          if (fi.pieces[static_cast<std::size_t>(p)] == best) pot[static_cast<std::size_t>(p)] += v;
      });
}

}  // namespace

double claim_worth(const FeatureTypeDef& fd, double now, double done) {
  if (fd.cls == FClass::Field) return now;
  // worth nothing unless completed (Hunters): count half its completed value
  if (fd.final_per_tile == 0 && fd.final_per_attr == 0) return 0.5 * done;
  // an unfinished feature is worth a little more than its end value: it may still complete
  return fd.cls == FClass::Area ? 1.5 * now : now;
}

double field_worth(const State& s, int root, const FeatureInfo& fi) {
  const int fpc = s.rs->game->farm_points_per_city;
  if (!s.rs->farmers) return 0.0;
  if (s.rs->game->hooks.field_value) return s.rs->game->hooks.field_value(s, root);
  return (fpc ? field_cities(s, root) * fpc : 0) + s.rs->ftype(fi.ftype).final_per_attr * fi.attr;
}

namespace {

class GreedyBot final : public Bot {
 public:
  Move choose(const State& s, const MoveList& legal, Rng& rng) override {
    const int me = to_move(s);
    double best = -1e18;
    StaticVec<u16, MoveList::capacity()> ties;
    TwinMemo memo;
    for (std::size_t i = 0; i < legal.size(); ++i) {
      // twins (eval_twin) take the first one's value and stay among the ties; neutral marker
      // moves (a jeep's) have always been tried once: the first stands for all
      const u32 key = eval_twin(s, legal[i]);
      double v = 0;
      if (memo.get(key, v)) {
        if (key == 1) continue;
      } else {
        State t = s;
        apply_move(t, legal[i]);
        v = greedy_continuation(t, me);
        memo.put(key, v);
      }
      if (v > best + 1e-9) {
        best = v;
        ties.clear();
      }
      if (v > best - 1e-9) ties.push_back(static_cast<u16>(i));
    }
    last_ = {fmt::format("best of {} moves by the greedy evaluation ({:.2f}: own score and potential minus the best opponent's)", legal.size(), best),
             best, 0, 0};
    return legal[ties[rng.below(static_cast<u32>(ties.size()))]];
  }
  [[nodiscard]] std::string spec() const override { return "greedy"; }
  [[nodiscard]] BotReport report() const override { return last_; }

 private:
  BotReport last_;
};

}  // namespace

double position_eval(const State& s, int player, const std::vector<double>* value, double race) {
  if (!value) return greedy_eval(s, player, race);
  std::array<double, kMaxPlayers> e{};
  value_evals(s, *value, e);
  return e[static_cast<std::size_t>(player)];
}

double greedy_continuation(const State& t, int me, const std::vector<double>* value, double race) {
  if ((t.phase != Phase::Choose && t.phase != Phase::Piece) || to_move(t) != me)
    return position_eval(t, me, value, race);
  MoveList ml;
  legal_moves(t, ml);
  double best = -1e18;
  TwinMemo memo;
  for (const Move& m : ml) {
    const u32 key = eval_twin(t, m);
    double v = 0;
    if (memo.get(key, v)) continue;  // a twin's value is in best already
    State u = t;
    apply_move(u, m);
    v = greedy_continuation(u, me, value, race);
    memo.put(key, v);
    best = std::max(best, v);
  }
  return best;
}

u32 eval_twin(const State& t, const Move& m) {
  const auto twin = t.rs->game->hooks.eval_twin;
  return twin ? twin(t, m) : 0;
}

void greedy_values(const State& s, std::array<double, kMaxPlayers>& value, double race) {
  std::array<double, kMaxPlayers> pot{};
  potentials(s, pot);
  greedy_values_from(s, pot, value, race);
}

void greedy_values_from(const State& s, const std::array<double, kMaxPlayers>& pot,
                        std::array<double, kMaxPlayers>& value, double race) {
  std::array<double, kMaxPlayers> track{};
  const auto worth = s.rs->game->hooks.track_worth;
  if (race > 0 && worth && worth(s, track)) {
    for (int p = 0; p < s.nplayers; ++p) track[static_cast<std::size_t>(p)] *= race;
  } else
    for (int p = 0; p < s.nplayers; ++p)
      track[static_cast<std::size_t>(p)] = 0.6 * s.track[static_cast<std::size_t>(p)];
  const auto term = s.rs->game->hooks.greedy_term;
  for (int p = 0; p < s.nplayers; ++p) {
    const auto pi = static_cast<std::size_t>(p);
    // a track space ahead is worth a little (Amazonas: Amazon scorings and the river mouth reward
    // the leaders); the game's own term (Safari: tokens held)
    value[pi] = s.score[pi] + pot[pi] + 0.75 * std::min<int>(s.supply[pi], 4) + 0.5 * std::min<int>(s.supply2[pi], 1) +
                track[pi] + (s.extra && s.current == p && !s.in_extra ? 4.0 : 0.0) + (term ? term(s, p) : 0.0);
  }
}

void margins_of(int nplayers, const std::array<double, kMaxPlayers>& values, std::array<double, kMaxPlayers>& out) {
  for (int p = 0; p < nplayers; ++p) {
    double other = -1e18;
    for (int q = 0; q < nplayers; ++q)
      if (q != p) other = std::max(other, values[static_cast<std::size_t>(q)]);
    out[static_cast<std::size_t>(p)] = values[static_cast<std::size_t>(p)] - other;
  }
}

void score_margins(const State& s, std::array<double, kMaxPlayers>& out) {
  std::array<double, kMaxPlayers> scores{};
  for (int p = 0; p < s.nplayers; ++p) scores[static_cast<std::size_t>(p)] = s.score[static_cast<std::size_t>(p)];
  margins_of(s.nplayers, scores, out);
}

void greedy_evals(const State& s, std::array<double, kMaxPlayers>& out, double race) {
  std::array<double, kMaxPlayers> value{};
  greedy_values(s, value, race);
  margins_of(s.nplayers, value, out);
}

double greedy_eval(const State& s, int player, double race) {
  std::array<double, kMaxPlayers> e{};
  greedy_evals(s, e, race);
  return e[static_cast<std::size_t>(player)];
}

bool is_bot_spec(std::string_view spec) {
  return spec == "random" || spec == "greedy" || spec == "mcts" || spec.substr(0, 5) == "mcts:" || !bot_level_spec(spec).empty();
}

std::vector<std::string> split_bot_list(std::string_view list) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    std::string_view part = list.substr(start, comma - start);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
    const bool option = part.find('=') != std::string_view::npos && part.find(':') == std::string_view::npos;
    if (option && !out.empty() && out.back().find(':') != std::string::npos) out.back() += fmt::format(",{}", part);
    else out.emplace_back(part);
    start = comma + 1;
  }
  return out;
}

std::string bot_level_spec(std::string_view level, const GameDef* game) {
  for (std::size_t i = 0; i < kBotLevels.size(); ++i)
    if (kBotLevels[i].name == level)
      return game && !game->levels[i].empty() ? game->levels[i] : std::string(kBotLevels[i].spec);
  return "";
}

namespace {
// A level's bot: the game's own spec for the level (bot_level_spec), made when the level first
// plays in that game, within the cap (make_bot_within).
class LevelBot final : public Bot {
 public:
  LevelBot(std::string level, const BotLimits& cap) : level_(std::move(level)), cap_(cap) {}
  Move choose(const State& s, const MoveList& legal, Rng& rng) override {
    if (!bot_ || game_ != s.rs->game) {
      game_ = s.rs->game;
      bot_ = make_bot_within(bot_level_spec(level_, game_), cap_);
      bot_->set_stop(stop_);
    }
    bot_->foresee(future_);
    future_ = nullptr;  // told for this decision only (the game it points into may be gone by the next)
    return bot_->choose(s, legal, rng);
  }
  void set_stop(const SearchStop& stop) override {
    stop_ = stop;
    if (bot_) bot_->set_stop(stop);
  }
  void foresee(const Rng* generator) override { future_ = generator; }
  [[nodiscard]] BotReport report() const override { return bot_ ? bot_->report() : BotReport{}; }
  [[nodiscard]] std::string spec() const override { return level_; }

 private:
  std::string level_;
  BotLimits cap_;
  const GameDef* game_ = nullptr;
  std::unique_ptr<Bot> bot_;
  SearchStop stop_;
  const Rng* future_ = nullptr;
};
}  // namespace

std::unique_ptr<Bot> make_level_bot(std::string_view level, const BotLimits& cap) {
  if (bot_level_spec(level).empty()) throw InputError(fmt::format("\"{}\" is not a level", level));
  return std::make_unique<LevelBot>(std::string(level), cap);
}

std::vector<std::string> bot_labels(const std::vector<std::string>& specs) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    int same = 0, nth = 0;
    for (std::size_t j = 0; j < specs.size(); ++j) {
      same += specs[j] == specs[i];
      nth += j <= i && specs[j] == specs[i];
    }
    out.push_back(same > 1 ? fmt::format("{} #{}", specs[i], nth) : specs[i]);
  }
  return out;
}

bool SearchStop::due() const {
  if (flag && flag->load(std::memory_order_relaxed)) return true;
  return deadline_ns != 0 &&
         std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
                 .count() >= deadline_ns;
}

SearchStop SearchStop::after_ms(const std::atomic<bool>* flag, long long ms) {
  SearchStop st;
  st.flag = flag;
  if (ms > 0)
    st.deadline_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                         (std::chrono::steady_clock::now() + std::chrono::milliseconds(ms)).time_since_epoch())
                         .count();
  return st;
}

std::unique_ptr<Bot> make_bot(std::string_view spec) {
  if (!bot_level_spec(spec).empty()) return make_level_bot(spec, {});
  if (spec == "random") return std::make_unique<RandomBot>();
  if (spec == "greedy") return std::make_unique<GreedyBot>();
  if (spec == "mcts" || spec.substr(0, 5) == "mcts:") return make_mcts_bot(parse_mcts_spec(spec));
  throw InputError(fmt::format("unknown bot \"{}\" (bots: random, greedy, {}, mcts[:playouts=N|ms=N,threads=N])", spec,
                               fmt::join(bot_level_names(), ", ")));
}

}  // namespace carc
