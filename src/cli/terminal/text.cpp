// Laying out text for the terminal: wrapping, padding, widths without ANSI escapes, words.
#include "cli/terminal/common.hpp"
#include "cli/terminal/panels.hpp"
#include "core/io.hpp"
#include "view/look.hpp"
#include "view/view.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <map>

namespace carc::cli {

using namespace term;

namespace term {

std::string pad(const std::string& s, int w) {
  const int dw = display_width(s);
  return dw >= w ? s : s + std::string(static_cast<std::size_t>(w - dw), ' ');
}

std::string plural_of(const std::string& noun) { return plural_noun(noun); }  // English, by rules

std::string badge(int p, bool color) {
  const std::string d = std::to_string(p + 1);
  if (!color) return d;
  Glyph g{d, St::Piece, 0, static_cast<u8>(p)};
  return sgr(g) + d + "\x1b[0m";
}

std::vector<std::string> words(std::string_view s) { return split_words(s, " \t\n\r\f\v"); }

// "90", "r90", "R90", "90°", "90deg" -> 90; anything else -> nullopt.
std::optional<int> to_rotation(std::string_view t) {
  if (!t.empty() && (t[0] == 'r' || t[0] == 'R')) t.remove_prefix(1);
  for (std::string_view suffix : {std::string_view("\xC2\xB0"), std::string_view("deg")})
    if (t.size() > suffix.size() && t.substr(t.size() - suffix.size()) == suffix) t.remove_suffix(suffix.size());
  const auto v = typed_int(t);
  if (!v || (*v != 0 && *v != 90 && *v != 180 && *v != 270)) return std::nullopt;
  return v;
}

// Breaks plain text into lines of at most `width` columns at spaces; each line ends with "\n".
std::string wrap(const std::string& text, int width) {
  std::string out, line;
  for (const auto& w : words(text)) {
    if (!line.empty() && display_width(line) + 1 + display_width(w) > width) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + w;
  }
  return out + line + "\n";
}

// wrap() with a first-line prefix (e.g. "  found    ") and continuation lines indented by `hang`.
std::string wrap_hang(const std::string& prefix, const std::string& text, int hang, int width) {
  std::string out, line = prefix;
  bool fresh = true;  // nothing after the prefix yet
  for (const auto& w : words(text)) {
    if (!fresh && display_width(line) + 1 + display_width(w) > width) {
      out += line + "\n";
      line = std::string(static_cast<std::size_t>(hang), ' ');
      fresh = true;
    }
    line += (fresh ? "" : " ") + w;
    fresh = false;
  }
  return out + line + "\n";
}

// User text quoted back in a message: at most 24 characters (never cut inside one).
std::string quote(std::string_view t) {
  std::string out = utf8_prefix(t, 24);
  if (out.size() < t.size()) out += "...";
  return "\"" + out + "\"";
}

bool is_word(std::string_view t) {
  return !t.empty() &&
         std::all_of(t.begin(), t.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; });
}

}  // namespace term

std::string strip_ansi(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      i += 2;
      while (i < text.size() && !(text[i] >= 0x40 && text[i] <= 0x7E)) ++i;
      continue;
    }
    out += text[i];
  }
  return out;
}

int display_width(std::string_view text) { return display_columns(strip_ansi(text)); }

}  // namespace carc::cli
