// server/rating: Weng–Lin with Plackett–Luce, one player per team (docs/ratings.md). The update
// follows Weng & Lin, "A Bayesian Approximation Method for Online Ranking" (JMLR 12, 2011),
// Algorithm 4, in the form OpenSkill computes it by default, in the same order of operations
// (teams visited in order of place, as openskill.py sorts them), so its published numbers come out
// to the last bits.
#include "server/rating.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace carc::server::rating {

namespace {

// Ratings beyond these are not ratings (a rating moves by a few points a game from 25): the bound
// keeps exp(mu / c) finite for every c the default beta allows.
constexpr double kMaxAbsMu = 1000.0;
constexpr double kMaxSigma = 1000.0;

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument("rating: " + what); }

std::string num(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return std::to_string(x);
}

void check_params(const ModelParams& p) {
  if (!std::isfinite(p.mu) || std::abs(p.mu) > kMaxAbsMu) bad("parameter mu " + num(p.mu) + " is not a finite rating");
  if (!std::isfinite(p.sigma) || p.sigma <= 0 || p.sigma > kMaxSigma)
    bad("parameter sigma " + num(p.sigma) + " must be finite and in (0, 1000]");
  if (!std::isfinite(p.beta) || p.beta <= 0) bad("parameter beta " + num(p.beta) + " must be finite and > 0");
  if (!std::isfinite(p.tau) || p.tau < 0) bad("parameter tau " + num(p.tau) + " must be finite and >= 0");
  if (!std::isfinite(p.kappa) || p.kappa <= 0 || p.kappa > 1)
    bad("parameter kappa " + num(p.kappa) + " must be in (0, 1]");
}

void check_rating(const Rating& r, const std::string& who) {
  if (!std::isfinite(r.mu) || std::abs(r.mu) > kMaxAbsMu)
    bad(who + " has mu " + num(r.mu) + " (must be finite, at most 1000 in size)");
  if (!std::isfinite(r.sigma) || r.sigma <= 0 || r.sigma > kMaxSigma)
    bad(who + " has sigma " + num(r.sigma) + " (must be finite and in (0, 1000])");
}

}  // namespace

std::vector<Rating> rate(const std::vector<Rating>& priors, const std::vector<int>& places, const ModelParams& p,
                         bool apply_tau) {
  if (priors.size() != places.size())
    bad(std::to_string(priors.size()) + " ratings but " + std::to_string(places.size()) + " places");
  const int n = static_cast<int>(priors.size());
  if (n < kMinPlayers || n > kMaxPlayers) bad(std::to_string(n) + " players (a rated game has 2 to 5)");
  check_params(p);
  for (int i = 0; i < n; ++i) {
    check_rating(priors[i], "seat " + std::to_string(i));
    if (places[i] < 1 || places[i] > n)
      bad("seat " + std::to_string(i) + " has place " + std::to_string(places[i]) + " (places are 1.." +
          std::to_string(n) + ")");
  }

  // Seats in order of place (stable: equal places keep seat order), as openskill.py orders teams.
  std::array<int, kMaxPlayers> order{};
  for (int i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.begin() + n, [&](int a, int b) { return places[a] < places[b]; });

  // The sorted teams: mu, sigma^2 (tau first, when applied), rank.
  std::array<double, kMaxPlayers> mu{}, sig{}, var{}, e{};
  std::array<int, kMaxPlayers> rank{};
  const double tau2 = apply_tau ? p.tau * p.tau : 0.0;
  for (int k = 0; k < n; ++k) {
    const Rating& r = priors[order[k]];
    mu[k] = r.mu;
    sig[k] = apply_tau ? std::sqrt(r.sigma * r.sigma + tau2) : r.sigma;
    var[k] = sig[k] * sig[k];
    rank[k] = places[order[k]];
  }

  // c = sqrt(sum over teams of (sigma^2 + beta^2)).
  const double beta2 = p.beta * p.beta;
  double c2 = 0;
  for (int k = 0; k < n; ++k) c2 += var[k] + beta2;
  const double c = std::sqrt(c2);
  for (int k = 0; k < n; ++k) e[k] = std::exp(mu[k] / c);

  // sum_q[q] = sum of exp(mu_i / c) over teams i placed no better than q; a[q] = teams tied with q.
  std::array<double, kMaxPlayers> sum_q{};
  std::array<int, kMaxPlayers> a{};
  for (int i = 0; i < n; ++i)
    for (int q = 0; q < n; ++q)
      if (rank[i] >= rank[q]) sum_q[q] += e[i];
  for (int q = 0; q < n; ++q)
    for (int s = 0; s < n; ++s)
      if (rank[s] == rank[q]) ++a[q];

  std::vector<Rating> out(priors.size());
  for (int i = 0; i < n; ++i) {
    double omega = 0, delta = 0;
    for (int q = 0; q < n; ++q) {
      if (rank[q] > rank[i]) continue;
      const double pr = e[i] / sum_q[q];
      delta += pr * (1 - pr) / a[q];
      if (q == i)
        omega += (1 - pr) / a[q];
      else
        omega -= pr / a[q];
    }
    omega *= var[i] / c;
    delta *= var[i] / (c * c);
    const double gamma = std::sqrt(var[i]) / c;  // OpenSkill's default gamma
    delta *= gamma;
    // One player per team: the player's share of the team's variance (sigma^2 / sigma_team^2) is 1.
    Rating r;
    r.mu = mu[i] + omega;
    r.sigma = sig[i] * std::sqrt(std::max(1 - delta, p.kappa));
    if (!std::isfinite(r.mu) || !std::isfinite(r.sigma)) bad("the update is not finite for these parameters");
    out[order[i]] = r;
  }
  return out;
}

std::vector<int> places_from_scores(const std::vector<int>& scores, const std::vector<bool>& forfeited) {
  if (scores.size() != forfeited.size())
    bad(std::to_string(scores.size()) + " scores but " + std::to_string(forfeited.size()) + " forfeit flags");
  const std::size_t n = scores.size();
  int playing = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (!forfeited[i]) ++playing;
  std::vector<int> places(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (forfeited[i]) {
      places[i] = playing + 1;  // after every seat that played on, tied among themselves
      continue;
    }
    int better = 0;
    for (std::size_t j = 0; j < n; ++j)
      if (!forfeited[j] && scores[j] > scores[i]) ++better;
    places[i] = better + 1;
  }
  return places;
}

double display(const Rating& r) { return 1500.0 + 24.0 * (r.mu - 3.0 * r.sigma); }

bool provisional(const Rating& r) { return !(r.sigma <= kProvisionalSigma); }

Rating idle(const Rating& r, double idle_days, const ModelParams& p) {
  if (!std::isfinite(idle_days) || idle_days < 0) bad("idle days " + num(idle_days) + " must be finite and >= 0");
  check_rating(r, "the idle rating");
  check_params(p);
  if (r.sigma >= p.sigma) return r;
  Rating out = r;
  out.sigma = std::min(std::sqrt(r.sigma * r.sigma + idle_days * p.tau * p.tau), p.sigma);
  return out;
}

std::string bucket(const std::string& game, int players) {
  if (game.empty()) bad("bucket of an unnamed game");
  if (players == 2) return game + "/2";
  if (players >= 3 && players <= kMaxPlayers) return game + "/3-5";
  bad("bucket for " + std::to_string(players) + " players (rated games have 2 to 5)");
}

}  // namespace carc::server::rating
