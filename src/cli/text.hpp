// Small text helpers shared by the subcommands.
#pragma once
#include <string>
#include <vector>

namespace carc::cli {

// "a,b,,c" -> {"a", "b", "", "c"}
inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

}  // namespace carc::cli
