// core/json_input: reading JSON that a user or another program wrote (tile files, records).
// Parsing is bounded in nesting depth, errors say where (line, column) without quoting the input,
// and every value is checked as what it is (type, range, length, no control characters) before it
// is narrowed. All failures are InputError "<where>: <key>: <what is wrong>".
#pragma once
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/io.hpp"

namespace carc::jin {

using nlohmann::json;

inline constexpr int kMaxDepth = 32;

[[noreturn]] inline void fail(std::string_view where, std::string_view key, std::string_view what) {
  if (key.empty()) throw InputError(fmt::format("{}: {}", where, what));
  throw InputError(fmt::format("{}: {}: {}", where, key, what));
}

// Checks text before any parser sees it, in one pass that keeps no stack: nesting deeper than
// kMaxDepth (arrays and objects, outside strings), a NUL byte (the JSON parser would take it for
// the end of the input and ignore what follows) and bytes that are not UTF-8 are refused with the
// line and column. Every JSON input of the program goes through here (parse below).
inline void check_text(std::string_view text, std::string_view where) {
  int depth = 0;
  bool in_string = false, escaped = false;
  std::size_t line = 1, line_start = 0;
  auto at = [&](std::size_t i) { return fmt::format("line {}, column {}", line, i - line_start + 1); };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\0') fail(where, "", fmt::format("a NUL byte at {} (byte {})", at(i), i + 1));
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxDepth) fail(where, "", fmt::format("JSON nested deeper than {} levels (at {})", kMaxDepth, at(i)));
    } else if (c == ']' || c == '}') {
      --depth;
    } else if (c == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  if (!valid_utf8(text)) fail(where, "", fmt::format("not valid UTF-8 (byte {})", utf8_error_at(text) + 1));
}

// Parses text as one JSON value (after check_text). `where` names the file or the request.
inline json parse(std::string_view text, std::string_view where) {
  check_text(text, where);
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    // e.byte is 1-based; report line and column, and the library's reason without the input it
    // quotes ("last read: '...'")
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
      if (text[i] == '\n') ++line, col = 1;
      else ++col;
    }
    std::string why = e.what();
    if (const auto c = why.find(": syntax error"); c != std::string::npos) why = why.substr(c + 2);
    else if (const auto c2 = why.find("] "); c2 != std::string::npos) why = why.substr(c2 + 2);
    if (const auto lr = why.find("; last read"); lr != std::string::npos) why.resize(lr);
    if (const auto at = why.find(" at line "); at != std::string::npos) why.resize(at);
    fail(where, "", fmt::format("not valid JSON at line {}, column {}: {}", line, col, printable(why)));
  } catch (const json::exception& e) {
    // out_of_range 406: a number too large for a double (1e99999)
    if (e.id == 406) fail(where, "", "not valid JSON: a number is out of range");
    fail(where, "", fmt::format("not valid JSON (error {})", e.id));
  }
}

inline const char* type_name(const json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "a boolean";
  if (v.is_number_integer()) return "an integer";
  if (v.is_number()) return "a number with a fraction or exponent";
  if (v.is_string()) return "a string";
  if (v.is_array()) return "an array";
  return "an object";
}

// An integer in [lo, hi], refusing fractions, exponents and anything out of range (as written:
// 4294967298 is out of range, never 2).
inline long long integer(const json& v, long long lo, long long hi, std::string_view where, std::string_view key) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (hi >= 0 && u <= static_cast<std::uint64_t>(hi) && static_cast<long long>(u) >= lo) return static_cast<long long>(u);
    fail(where, key, fmt::format("{} is out of range ({} to {})", u, lo, hi));
  }
  if (v.is_number_integer()) {
    const auto i = v.get<std::int64_t>();
    if (i >= lo && i <= hi) return i;
    fail(where, key, fmt::format("{} is out of range ({} to {})", i, lo, hi));
  }
  fail(where, key, fmt::format("expected an integer from {} to {}, not {}", lo, hi, type_name(v)));
}

inline std::uint64_t unsigned64(const json& v, std::string_view where, std::string_view key) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer()) fail(where, key, "expected a non-negative integer");
  fail(where, key, fmt::format("expected an integer from 0 to 2^64-1, not {}", type_name(v)));
}

// A string of at most max_len bytes, valid UTF-8, without control characters.
inline std::string string(const json& v, std::string_view where, std::string_view key, std::size_t max_len = kMaxStringBytes) {
  if (!v.is_string()) fail(where, key, fmt::format("expected a string, not {}", type_name(v)));
  const auto& s = v.get_ref<const std::string&>();
  if (s.size() > max_len) fail(where, key, fmt::format("a string of {} bytes; at most {}", s.size(), max_len));
  if (has_control_chars(s)) fail(where, key, fmt::format("\"{}\" holds a control character or invalid UTF-8", printable(s)));
  return s;
}

inline bool boolean(const json& v, std::string_view where, std::string_view key) {
  if (!v.is_boolean()) fail(where, key, fmt::format("expected true or false, not {}", type_name(v)));
  return v.get<bool>();
}

inline const json& array(const json& v, std::string_view where, std::string_view key, std::size_t max_items) {
  if (!v.is_array()) fail(where, key, fmt::format("expected an array, not {}", type_name(v)));
  if (v.size() > max_items) fail(where, key, fmt::format("{} items; at most {}", v.size(), max_items));
  return v;
}

inline const json& object(const json& v, std::string_view where, std::string_view key) {
  if (!v.is_object()) fail(where, key, fmt::format("expected an object, not {}", type_name(v)));
  return v;
}

// A required member of an object.
inline const json& need(const json& o, const char* key, std::string_view where) {
  if (!o.is_object()) fail(where, "", fmt::format("expected an object, not {}", type_name(o)));
  const auto it = o.find(key);
  if (it == o.end()) fail(where, key, "missing");
  return *it;
}
// An optional member (nullptr when absent or null).
inline const json* opt(const json& o, const char* key) {
  if (!o.is_object()) return nullptr;
  const auto it = o.find(key);
  if (it == o.end() || it->is_null()) return nullptr;
  return &*it;
}

}  // namespace carc::jin
