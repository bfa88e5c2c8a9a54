// Command-line options shared by the subcommands: numbers parsed strictly (the whole text a decimal
// number in range, else a usage error naming the flag: nothing is wrapped, truncated or rounded),
// and folders the CLI writes into, checked before any work is done.
#pragma once
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>

#include "core/core.hpp"
#include "core/io.hpp"

namespace carc::cli {

// An integer flag in [lo, hi]. "--games 0" -> "--games: 0 is not a whole number from 1 to ...".
inline CLI::Option* add_int_option(CLI::App* c, const std::string& flag, int& target, int lo, int hi,
                                   const std::string& desc, bool show_default = true) {
  const std::string name = flag.substr(flag.rfind(',') + 1);
  auto* opt = c->add_option_function<std::string>(
      flag,
      [&target, name, lo, hi](const std::string& text) {
        long long v = 0;
        if (!parse_int(text, lo, hi, v))
          throw CLI::ValidationError(name, fmt::format("\"{}\" is not a whole number from {} to {}", printable(text), lo, hi));
        target = static_cast<int>(v);
      },
      desc);
  opt->type_name("INT");
  if (show_default) opt->default_str(std::to_string(target));
  return opt;
}

// A seed: a whole number from 0 to 2^64-1 (no sign, no hex, nothing that would wrap).
inline bool parse_seed(const std::string& text, u64& out) { return parse_u64(text, out); }
inline std::string seed_error(const std::string& text) {
  return fmt::format("\"{}\" is not a seed: a seed is a whole number from 0 to {}", printable(text),
                     std::numeric_limits<u64>::max());
}

inline CLI::Option* add_seed_option(CLI::App* c, const std::string& flag, u64& target, const std::string& desc) {
  auto* opt = c->add_option_function<std::string>(
      flag,
      [&target, flag](const std::string& text) {
        if (!parse_seed(text, target)) throw CLI::ValidationError(flag, seed_error(text));
      },
      desc);
  opt->type_name("SEED")->default_str(std::to_string(target));
  return opt;
}

inline CLI::Option* add_seed_option(CLI::App* c, const std::string& flag, std::optional<u64>& target,
                                    const std::string& desc) {
  auto* opt = c->add_option_function<std::string>(
      flag,
      [&target, flag](const std::string& text) {
        u64 v = 0;
        if (!parse_seed(text, v)) throw CLI::ValidationError(flag, seed_error(text));
        target = v;
      },
      desc);
  opt->type_name("SEED");
  return opt;
}

// A real number flag in [lo, hi] (finite: no nan, inf or hex).
inline CLI::Option* add_double_option(CLI::App* c, const std::string& flag, double& target, double lo, double hi,
                                      const std::string& desc) {
  auto* opt = c->add_option_function<std::string>(
      flag,
      [&target, flag, lo, hi](const std::string& text) {
        double v = 0;
        const char* end = text.data() + text.size();
        const auto [p, ec] = std::from_chars(text.data(), end, v, std::chars_format::fixed);
        if (text.empty() || ec != std::errc() || p != end || !std::isfinite(v) || v < lo || v > hi)
          throw CLI::ValidationError(flag, fmt::format("\"{}\" is not a number from {} to {}", printable(text), lo, hi));
        target = v;
      },
      desc);
  opt->type_name("NUMBER")->default_str(fmt::format("{}", target));
  return opt;
}

// Seeds seed, seed+1, ..., seed+count-1 must not wrap past 2^64-1 (they would repeat seed 0, 1...).
inline void check_seed_range(u64 seed, u64 count, std::string_view what) {
  constexpr u64 kMax = std::numeric_limits<u64>::max();
  if (count > 0 && seed > kMax - (count - 1))
    throw InputError(fmt::format("--seed {}: {} need seeds up to seed + {}, past the largest seed {}; use --seed {} or less",
                                 seed, what, count - 1, kMax, kMax - (count - 1)));
}

// A folder the command writes records into (--records): created if missing; it must then be a
// folder we can create files in. Checked before any game is played; InputError names the flag and
// the folder.
inline void prepare_output_folder(const std::string& dir, std::string_view flag) {
  const std::string who = printable(dir);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec && !std::filesystem::is_directory(dir))
    throw InputError(fmt::format("{} {}: cannot create the folder: {}", flag, who, ec.message()));
  if (!std::filesystem::is_directory(dir, ec))
    throw InputError(fmt::format("{} {}: is not a folder", flag, who));
  std::string probe = dir + "/.carcassonne-write-test-XXXXXX";
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) throw InputError(fmt::format("{} {}: cannot write in the folder: {}", flag, who, std::strerror(errno)));
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace carc::cli
