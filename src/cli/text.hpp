// Small text helpers shared by the subcommands.
#pragma once
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "core/io.hpp"

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

inline std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

// A typed line as a lower-case command word and its arguments (play, and its fuzzer).
struct Words {
  std::string cmd;
  std::vector<std::string> args;
};
inline Words words(const std::string& line) {
  const auto w = split(lower(line), ' ');
  Words out{w.empty() ? std::string() : w[0], {}};
  for (std::size_t i = 1; i < w.size(); ++i)
    if (!w[i].empty()) out.args.push_back(w[i]);
  return out;
}

// A message that may quote strings from files (error texts): printable() line by line, so the
// line breaks of the message stay and every other control character becomes a visible escape.
inline std::string printable_lines(std::string_view s) {
  std::string out;
  for (std::size_t start = 0;;) {
    const std::size_t nl = s.find('\n', start);
    out += printable(s.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start));
    if (nl == std::string_view::npos) break;
    out += '\n';
    start = nl + 1;
  }
  return out;
}

}  // namespace carc::cli
