// A record's setup refused or accepted (docs/record.md, "setup"): the error's text, or "accepted".
// For the tests of prepared positions (tests/test_positions.cpp, the games' own tests).
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "core/io.hpp"
#include "engine/engine.hpp"

namespace carc::test {

inline std::string setup_refusal(const std::string& game, const std::string& setup, int players = 2) {
  std::string names;
  for (int p = 0; p < players; ++p) names += fmt::format("{}\"p{}\"", p ? ", " : "", p + 1);
  const std::string text =
      fmt::format(R"({{"game": "{}", "players": [{}], "seed": 1, "moves": [], "setup": {}}})", game, names, setup);
  try {
    (void)Game::replay(record_from_json(text, "r.json"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace carc::test

// The refusal's text holds every part.
#define EXPECT_REFUSED(msg, ...)                                                          \
  do {                                                                                    \
    const std::string refused_ = (msg);                                                   \
    for (const char* part : {__VA_ARGS__})                                                \
      EXPECT_NE(refused_.find(part), std::string::npos) << refused_ << " lacks " << part; \
  } while (0)
