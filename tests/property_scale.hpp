// How many games a property test plays: CARC_PROPERTY_SCALE (percent, default 100) scales the
// count; sanitizer builds run half of them (about 8x slower), unoptimised builds a tenth.
#pragma once
#include <algorithm>
#include <cstdlib>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
#define CARC_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define CARC_SANITIZED 1
#endif
#endif

namespace carc::test {

inline int scaled(int n) {
  int pct = 100;
#if defined(CARC_SANITIZED)
  pct = 50;
#endif
#if !defined(__OPTIMIZE__)
  pct = 10;
#endif
  if (const char* e = std::getenv("CARC_PROPERTY_SCALE"); e && *e) pct = std::max(1, std::atoi(e));
  return std::max(1, n * pct / 100);
}

}  // namespace carc::test
