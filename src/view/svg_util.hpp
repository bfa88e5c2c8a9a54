// svg_util: what the SVG writers of src/view share (tile_art.cpp, svg_board.cpp): numbers and text
// as SVG writes them, and a look's glyph placed on a picture. Not for other folders.
#pragma once
#include <fmt/format.h>

#include <cmath>
#include <string>
#include <string_view>

#include "core/io.hpp"
#include "view/look.hpp"

namespace carc::view::svg {

// A number with at most two decimals, no trailing zeros.
inline std::string num(double v) {
  v = std::round(v * 100.0) / 100.0;
  if (std::abs(v) < 0.005) v = 0.0;
  return fmt::format("{:g}", v);
}

// Text for XML 1.0 content and attributes: control characters (which XML 1.0 forbids) and invalid
// UTF-8 become visible escapes first (printable), then the markup characters are escaped.
inline std::string esc(std::string_view raw) {
  const std::string s = printable(raw);
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

// Characters (UTF-8 code points) in s.
inline double text_len(std::string_view s) {
  double n = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) n += 1;
  return n;
}

// A glyph's SVG scaled by k (its units are a 64-unit tile's), with "$fill"/"$edge" replaced.
inline std::string glyph_svg(const Glyph& g, double k, std::string_view fill = "#cccccc", std::string_view edge = "#666666") {
  std::string body = g.svg;
  for (std::size_t i = 0; (i = body.find('$', i)) != std::string::npos;) {
    if (body.compare(i, 5, "$fill") == 0) {
      body.replace(i, 5, fill);
      i += fill.size();
    } else if (body.compare(i, 5, "$edge") == 0) {
      body.replace(i, 5, edge);
      i += edge.size();
    } else {
      ++i;
    }
  }
  if (std::abs(k - 1.0) < 1e-9) return body;
  return fmt::format(R"~(<g transform="scale({})">{}</g>)~", num(k), body);
}

}  // namespace carc::view::svg
