// Text from the input shown in a one-line message: its control characters escaped.
#pragma once

#include <string>
#include <string_view>

namespace lo::io {

/// `text` with each control character (U+0000 to U+001F, U+007F) written as `\u00XX`, so that a
/// message that quotes input stays one line.
inline std::string escapeControls(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7f) {
      out += c;
      continue;
    }
    out += "\\u00";
    out += kHex[u >> 4];
    out += kHex[u & 0xf];
  }
  return out;
}

} // namespace lo::io
