// fuzz_value_weights: the input is a value-weights file (`fit-value --save`, `mcts:weights=FILE`,
// docs/mcts.md): parse_value_weights, as load_value_weights reads it (docs/fuzzing.md). InputError
// is the expected answer to a bad file; an accepted file holds exactly kValueFeatures finite
// numbers, and writing them back and reading them again gives the same numbers.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "ai/value.hpp"
#include "fuzz_common.hpp"

using namespace carc;
using carc::fuzz::bug;

int carc::fuzz::fuzz_one(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxWeightsFileBytes) return -1;  // load_value_weights refuses larger files unread
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<double> w;
  if (!fuzz::expect_input_ok("parse_value_weights", [&] { w = parse_value_weights(text, "fuzz.txt"); })) return 0;
  if (w.size() != static_cast<std::size_t>(kValueFeatures)) bug(fmt::format("accepted {} numbers", w.size()));
  std::string again;
  for (const double v : w) {
    if (!std::isfinite(v)) bug("accepted a number that is not finite");
    again += fmt::format("{:.17g}  # a weight\n", v);
  }
  std::vector<double> back;
  fuzz::must_succeed("parse_value_weights (written back)", [&] { back = parse_value_weights(again, "again.txt"); });
  if (back != w) bug("the weights written back read as other numbers");
  return 0;
}
