#include "ai/value.hpp"

#include "ai/bots.hpp"
#include "core/io.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace carc {

namespace {
constexpr int kClasses = 5;  // FClass values: Path, Area, Field, Point, Centre
constexpr int kClassBase = 8;
}  // namespace

const std::array<const char*, kValueFeatures>& value_feature_names() {
  static const std::array<const char*, kValueFeatures> names = {
      "pile", "pile^2", "supply", "supply*pile", "any supply", "supply2", "track", "held",
      // per class: held now, now * pile, completed, completed * pile, completed * pile / (1 + open)
      // (fields: now, now * pile, farmers, farmers * pile, now * pile^2)
      "path now", "path now*pile", "path done", "path done*pile", "path near*pile",              //
      "area now", "area now*pile", "area done", "area done*pile", "area near*pile",              //
      "field now", "field now*pile", "field farmers", "field farmers*pile", "field now*pile^2",  //
      "point now", "point now*pile", "point done", "point done*pile", "point near*pile",         //
      "centre now", "centre now*pile", "centre done", "centre done*pile", "centre near*pile",    //
      "lost pieces", "pieces out*pile", "network claims", "greedy",
      // a per-player track (Amazonas' boats): the lead over the best other (within 4 spaces), first
      // place, second place, directly behind the first, each now and times pile
      "track lead*pile", "track first", "track first*pile", "track second", "track second*pile", "track behind",
      "track behind*pile"};
  return names;
}

void value_features(const State& s, std::array<ValueFeatures, kMaxPlayers>& out) {
  const double f = static_cast<double>(s.pile) / std::max(1, s.pile + s.turn);
  const auto held = s.rs->game->hooks.held;  // the game's own holdings (Safari: tokens)
  for (int p = 0; p < s.nplayers; ++p) {
    ValueFeatures& x = out[static_cast<std::size_t>(p)];
    x.fill(0.0);
    const auto pi = static_cast<std::size_t>(p);
    x[0] = f;
    x[1] = f * f;
    x[2] = s.supply[pi];
    x[3] = s.supply[pi] * f;
    x[4] = std::min<int>(s.supply[pi], 1);
    x[5] = s.supply2[pi];
    x[6] = s.track[pi];
    x[7] = held ? held(s, p) : 0;
  }
  std::array<double, kMaxPlayers> pot{};  // the greedy evaluation's potentials, on the same walk
  for_each_claim(
      s,
      [&](const Segment& n) {  // huts: their river system's fish, for the hut majority
        int best = 0;
        for (int p = 0; p < s.nplayers; ++p) best = std::max<int>(best, n.net_pieces[static_cast<std::size_t>(p)]);
        for (int p = 0; p < s.nplayers; ++p)
          if (n.net_pieces[static_cast<std::size_t>(p)] == best) {
            out[static_cast<std::size_t>(p)][35] += n.net_attr + 0.5;
            pot[static_cast<std::size_t>(p)] += n.net_attr + 0.5;
          }
      },
      [&](int root, const FeatureInfo& fi) {
        const FeatureTypeDef& fd = s.rs->ftype(fi.ftype);
        const int cls = static_cast<int>(fd.cls);
        if (cls >= kClasses) return;
        double now, done = 0, near = 0;
        if (fd.cls == FClass::Field) {
          now = field_worth(s, root, fi);
        } else {
          now = fd.final_per_tile == 0 && fd.final_per_attr == 0 ? 0.0 : feature_value(s, fi, false);
          done = feature_value(s, fi, true);
          near = done / (1.0 + std::max<int>(0, s.graph[root].open));
        }
        const double worth = claim_worth(fd, now, done);
        int best = 0;
        for (int p = 0; p < s.nplayers; ++p) best = std::max(best, fi.pieces[static_cast<std::size_t>(p)]);
        for (int p = 0; p < s.nplayers; ++p) {
          ValueFeatures& x = out[static_cast<std::size_t>(p)];
          const int mine = fi.pieces[static_cast<std::size_t>(p)];
          if (mine == best) pot[static_cast<std::size_t>(p)] += worth;
          x[34] += mine * f;
          if (mine == 0) continue;
          if (mine < best) {
            x[33] += mine;
            continue;
          }
          const auto b = static_cast<std::size_t>(kClassBase + 5 * cls);
          x[b] += now;
          x[b + 1] += now * f;
          if (fd.cls == FClass::Field) {
            x[b + 2] += mine;
            x[b + 3] += mine * f;
            x[b + 4] += now * f * f;
          } else {
            x[b + 2] += done;
            x[b + 3] += done * f;
            x[b + 4] += near * f;
          }
        }
      });
  std::array<double, kMaxPlayers> greedy{};
  greedy_values_from(s, pot, greedy);
  for (int p = 0; p < s.nplayers; ++p)
    out[static_cast<std::size_t>(p)][36] = greedy[static_cast<std::size_t>(p)] - s.score[static_cast<std::size_t>(p)];
  if (s.track_len == 0) return;
  // the track: places by dense ranking (all on the furthest space are first)
  int top = 0, next = 0;
  for (int p = 0; p < s.nplayers; ++p) top = std::max<int>(top, s.track[static_cast<std::size_t>(p)]);
  for (int p = 0; p < s.nplayers; ++p)
    if (s.track[static_cast<std::size_t>(p)] < top) next = std::max<int>(next, s.track[static_cast<std::size_t>(p)]);
  int at_top = 0;
  for (int p = 0; p < s.nplayers; ++p) at_top += s.track[static_cast<std::size_t>(p)] == top;
  for (int p = 0; p < s.nplayers; ++p) {
    const auto pi = static_cast<std::size_t>(p);
    const int t = s.track[pi];
    const int other = t < top || at_top > 1 ? top : next;  // the best other boat's space
    const double first = t == top ? 1.0 : 0.0, second = t < top && t == next ? 1.0 : 0.0;
    const double behind = t == top - 1 ? 1.0 : 0.0;
    ValueFeatures& x = out[pi];
    x[37] = std::clamp(t - other, -4, 4) * f;
    x[38] = first;
    x[39] = first * f;
    x[40] = second;
    x[41] = second * f;
    x[42] = behind;
    x[43] = behind * f;
  }
}

const std::vector<double>* value_weights(const State& s) {
  const auto& w = s.rs->game->value_weights;
  const std::vector<double>* best = nullptr;
  int dist = 1 << 20;
  for (int n = 2; n <= kMaxPlayers; ++n) {
    const auto& v = w[static_cast<std::size_t>(n)];
    if (v.size() != static_cast<std::size_t>(kValueFeatures)) continue;
    if (std::abs(n - s.nplayers) < dist) {
      dist = std::abs(n - s.nplayers);
      best = &v;
    }
  }
  return best;
}

std::vector<double> parse_value_weights(std::string_view text, const std::string& path) {
  std::vector<double> w;
  int lineno = 0;
  while (!text.empty()) {
    ++lineno;
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    for (const std::string& word : split_words(line, " \t\r\v\f")) {
      double v = 0;
      if (!parse_double(word, v))
        throw InputError(
            fmt::format("value weights {}, line {}: \"{}\" is not a number", path, lineno, printable(word)));
      if (w.size() == static_cast<std::size_t>(kValueFeatures))
        throw InputError(fmt::format("value weights {}, line {}: more than {} numbers", path, lineno, kValueFeatures));
      w.push_back(v);
    }
  }
  if (w.size() != static_cast<std::size_t>(kValueFeatures))
    throw InputError(
        fmt::format("value weights {}: {} numbers, where the value has {} features", path, w.size(), kValueFeatures));
  return w;
}

std::vector<double> load_value_weights(const std::string& path) {
  return parse_value_weights(read_input_file(path, kMaxWeightsFileBytes, "value weights"), path);
}

void save_value_weights(const std::string& path, const std::vector<double>& w, const std::string& comment) {
  std::string text = "# " + comment + "\n";
  const auto& names = value_feature_names();
  for (std::size_t k = 0; k < w.size(); ++k) text += fmt::format("{:.17g}  # {}\n", w[k], names[k]);
  write_file_atomic(path, text);  // a failed write leaves the old file, never half a fit
}

void value_evals(const State& s, const std::vector<double>& w, std::array<double, kMaxPlayers>& out) {
  std::array<ValueFeatures, kMaxPlayers> x;
  value_features(s, x);
  std::array<double, kMaxPlayers> v{};
  for (int p = 0; p < s.nplayers; ++p) {
    const auto pi = static_cast<std::size_t>(p);
    double sum = s.score[pi];
    for (std::size_t k = 0; k < static_cast<std::size_t>(kValueFeatures); ++k) sum += w[k] * x[pi][k];
    v[pi] = sum;
  }
  margins_of(s.nplayers, v, out);
}

void ValueFit::add(const ValueFeatures& x, double y) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i] == 0) continue;
    for (std::size_t j = 0; j < x.size(); ++j) xtx_[i][j] += x[i] * x[j];
    xty_[i] += x[i] * y;
  }
  ++n_;
}

std::vector<double> ValueFit::solve(double ridge) const {
  constexpr auto K = static_cast<std::size_t>(kValueFeatures);
  double mean = 0;
  for (std::size_t i = 0; i < K; ++i) mean += xtx_[i][i];
  mean = std::max(mean / K, 1e-12);
  std::array<std::array<double, K + 1>, K> a{};
  for (std::size_t i = 0; i < K; ++i) {
    for (std::size_t j = 0; j < K; ++j) a[i][j] = xtx_[i][j];
    a[i][i] += ridge * mean;
    a[i][K] = xty_[i];
  }
  for (std::size_t c = 0; c < K; ++c) {  // Gaussian elimination, partial pivoting
    std::size_t piv = c;
    for (std::size_t r = c + 1; r < K; ++r)
      if (std::abs(a[r][c]) > std::abs(a[piv][c])) piv = r;
    std::swap(a[c], a[piv]);
    for (std::size_t r = 0; r < K; ++r) {
      if (r == c || a[r][c] == 0) continue;
      const double m = a[r][c] / a[c][c];
      for (std::size_t j = c; j <= K; ++j) a[r][j] -= m * a[c][j];
    }
  }
  std::vector<double> w(K);
  for (std::size_t i = 0; i < K; ++i) w[i] = a[i][K] / a[i][i];
  return w;
}

}  // namespace carc
