// Shared by the libFuzzer harnesses (docs/fuzzing.md): what counts as a bug.
// An InputError is the expected answer to bad input. Anything else -- another exception, a failed
// check of the harness's own invariants, a sanitizer report, a crash or a hang -- is a bug: the
// harness prints what happened and aborts, and libFuzzer saves the input.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include "core/core.hpp"

namespace carc::fuzz {

// A harness's game byte (byte 0): a digit counts as its value (the corpus writes the game's index
// in game_ids() as a digit, fuzz/make_corpus.py), another byte as itself.
inline std::size_t game_byte(std::uint8_t b) { return b >= '0' && b <= '9' ? static_cast<std::size_t>(b - '0') : b; }

// CARC_FUZZ_KNOWN="text1|text2": bugs whose message contains one of these are known (reported,
// not yet fixed); the input is dropped instead of stopping the run, so a long run can look past
// them. Sanitizer reports and crashes cannot be skipped this way.
struct KnownBug {};
inline bool known(std::string_view what) {
  const char* e = std::getenv("CARC_FUZZ_KNOWN");
  if (!e || !*e) return false;
  std::string_view list(e);
  while (!list.empty()) {
    const auto bar = list.find('|');
    const std::string_view item = list.substr(0, bar);
    if (!item.empty() && what.find(item) != std::string_view::npos) return true;
    if (bar == std::string_view::npos) break;
    list.remove_prefix(bar + 1);
  }
  return false;
}

[[noreturn]] inline void bug(const std::string& what) {
  if (known(what)) throw KnownBug{};
  std::fprintf(stderr, "\n==FUZZ BUG== %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

// CARC_FUZZ_VERBOSE=1: print every expected InputError (to check what a corpus file exercises).
inline bool verbose() {
  static const bool v = [] {
    const char* e = std::getenv("CARC_FUZZ_VERBOSE");
    return e && *e && *e != '0';
  }();
  return v;
}

// Runs f(); an InputError returns false (expected), any other exception is a bug.
template <class F>
bool expect_input_ok(const char* stage, F&& f) {
  try {
    f();
    return true;
  } catch (const InputError& e) {
    if (verbose()) std::fprintf(stderr, "%s: InputError: %s\n", stage, e.what());
    return false;
  } catch (const KnownBug&) {
    throw;
  } catch (const std::exception& e) {
    bug(std::string(stage) + ": unexpected exception: " + e.what());
  } catch (...) {
    bug(std::string(stage) + ": unexpected non-standard exception");
  }
}

// Runs f(); every exception, InputError included, is a bug (a step that must not fail).
template <class F>
void must_succeed(const char* stage, F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    bug(std::string(stage) + ": InputError where none is allowed: " + e.what());
  } catch (const KnownBug&) {
    throw;
  } catch (const std::exception& e) {
    bug(std::string(stage) + ": unexpected exception: " + e.what());
  } catch (...) {
    bug(std::string(stage) + ": unexpected non-standard exception");
  }
}

// Each harness defines this; libFuzzer calls it through LLVMFuzzerTestOneInput below.
int fuzz_one(const std::uint8_t* data, std::size_t size);

}  // namespace carc::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    return carc::fuzz::fuzz_one(data, size);
  } catch (const carc::fuzz::KnownBug&) {
    return -1;
  }
}
