// ai/value: an evaluation of a position fitted on played-out games (docs/mcts.md, "Fitted value").
//
// Each player's expected points still to come are a linear function of features of what the player
// holds now: per feature class (road-like, city-like, monastery-like, field-like, centre) the value
// of the open features where the player has the majority, now and if completed, weighted by the
// share of the pile left and by how near completion they are; followers in supply and on lost
// features; the per-player track and what the game says a player holds (GameDef::hooks.held); the
// greedy evaluation's own sum.
// `carcassonne fit-value` fits the
// weights by least squares on positions of games played with the search's playout policy, and the
// games keep them (GameDef::value_weights). The search uses the fitted value where a playout is
// cut at its horizon, in place of the greedy evaluation.
#pragma once
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "rules/rules.hpp"

namespace carc {

constexpr int kValueFeatures = 44;
using ValueFeatures = std::array<double, kValueFeatures>;

// The features of every player in s (docs/mcts.md lists them).
void value_features(const State& s, std::array<ValueFeatures, kMaxPlayers>& out);
// The names of the features, in order (for the fit's report).
const std::array<const char*, kValueFeatures>& value_feature_names();

// The game's fitted weights for s's player count (the nearest fitted count), or nullptr.
const std::vector<double>* value_weights(const State& s);

// Weights from a file (`fit-value --save`): kValueFeatures numbers, separated by white space;
// '#' starts a comment to the end of its line. Throws InputError naming the file and what is wrong.
std::vector<double> load_value_weights(const std::string& path);
// The same from the file's text (path only names it in errors).
std::vector<double> parse_value_weights(std::string_view text, const std::string& path);
inline constexpr std::size_t kMaxWeightsFileBytes = 64u << 10;
void save_value_weights(const std::string& path, const std::vector<double>& w, const std::string& comment);

// Each player's expected final margin (own score plus expected points to come, minus the best
// other's same sum) under weights w.
void value_evals(const State& s, const std::vector<double>& w, std::array<double, kMaxPlayers>& out);

// Least squares with a small ridge: accumulates rows, then solves.
class ValueFit {
 public:
  void add(const ValueFeatures& x, double y);
  // weights; ridge: added to the diagonal, relative to its mean
  [[nodiscard]] std::vector<double> solve(double ridge = 1e-6) const;
  [[nodiscard]] long rows() const { return n_; }

 private:
  std::array<std::array<double, kValueFeatures>, kValueFeatures> xtx_{};
  std::array<double, kValueFeatures> xty_{};
  long n_ = 0;
};

}  // namespace carc
