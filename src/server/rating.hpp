// server/rating: the rating model (docs/ratings.md). Weng–Lin Bayesian rating with the
// Plackett–Luce model, one player per team, 2–5 players: the update OpenSkill computes by default
// (openskill.py `PlackettLuce`: gamma = sigma_team / c, kappa floor 0.0001). Pure functions, no
// I/O: ratings are derived from the games' logs, and replaying the same games in the same order
// gives the same numbers.
#pragma once
#include <string>
#include <vector>

namespace carc::server::rating {

// A player's belief: skill mean `mu` and its uncertainty `sigma` (a standard deviation).
struct Rating {
  double mu = 25.0;
  double sigma = 25.0 / 3;
};

// The model's constants (OpenSkill's defaults): a new player's mu and sigma, beta (the spread of
// one game's performance around skill), tau (skill drift added to sigma before each game, and per
// idle day: idle()), kappa (the floor of sigma's shrink factor in one game).
struct ModelParams {
  double mu = 25.0;
  double sigma = 25.0 / 3;
  double beta = 25.0 / 6;
  double tau = 25.0 / 300;
  double kappa = 1e-4;
};

// The most players one game rates (and the fewest: 2).
inline constexpr int kMinPlayers = 2;
inline constexpr int kMaxPlayers = 5;

// Ratings after one game. priors[i] and places[i] are seat i's rating before the game and its
// place (1 = best; equal places are a tie). When apply_tau, each prior's sigma is first widened
// to sqrt(sigma^2 + tau^2) (OpenSkill's tau), then the game's update applies. The result is in
// seat order. Throws std::invalid_argument when the sizes differ, there are not 2..5 players, a
// number is not finite, a sigma is not > 0, a place is outside 1..players, or a parameter is out
// of range (beta and sigma > 0, tau >= 0, kappa in (0, 1]).
std::vector<Rating> rate(const std::vector<Rating>& priors, const std::vector<int>& places, const ModelParams& p = {},
                         bool apply_tau = true);

// Places from final scores (competition ranking: higher is better, equal scores tie and the next
// place skips, e.g. scores 10,10,7 give 1,1,3). Seats with forfeited[i] (resigned or timed out)
// are last whatever their score, tied among themselves. Throws std::invalid_argument when the
// sizes differ.
std::vector<int> places_from_scores(const std::vector<int>& scores, const std::vector<bool>& forfeited);

// The number players see: 1500 + 24 * (mu - 3 * sigma) (a new player shows 1500).
double display(const Rating& r);

// A rating is provisional while sigma > kProvisionalSigma (docs/ratings.md): 60% of the start
// 25/3. sigma shrinks slowly in this model (its gamma damps each game's information), so a new
// rating leaves it after about 21 games of 2 players, 25 of 3, 30 of 4 and 37 of 5.
inline constexpr double kProvisionalSigma = 5.0;
bool provisional(const Rating& r);

// A rating after idle_days days without a rated game: sigma grows to
// sqrt(sigma^2 + idle_days * tau^2) (one game's drift per day), never beyond p.sigma (a sigma
// already above it stays as it is); mu is unchanged. Throws std::invalid_argument for a negative
// or non-finite idle_days or a non-finite rating.
Rating idle(const Rating& r, double idle_days, const ModelParams& p = {});

// The rating bucket of a game with `players` players: "GAME/2" or "GAME/3-5". Throws
// std::invalid_argument for an empty game name or players outside 2..5.
std::string bucket(const std::string& game, int players);

}  // namespace carc::server::rating
