// Text from the input shown in a one-line message: its control characters escaped.
#pragma once

#include <string>
#include <string_view>

namespace lo::io {

namespace detail {
inline void appendHexEscape(std::string &out, unsigned char u) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\u00";
  out += kHex[u >> 4];
  out += kHex[u & 0xf];
}
} // namespace detail

/// `text` with each control character (U+0000 to U+001F, U+007F) written as `\u00XX`, so that a
/// message that quotes input stays one line.
inline std::string escapeControls(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7f)
      out += c;
    else
      detail::appendHexEscape(out, u);
  }
  return out;
}

/// Text from an input file made safe for a one-line report (the gate's report lines, the text
/// audit): control characters written as JSON escapes, `\n`, `\t` and `\r` in their short form,
/// the others as `\u00XX`.
inline std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u == '\n')
      out += "\\n";
    else if (u == '\t')
      out += "\\t";
    else if (u == '\r')
      out += "\\r";
    else if (u >= 0x20 && u != 0x7f)
      out += c;
    else
      detail::appendHexEscape(out, u);
  }
  return out;
}

/// `text` as HTML character data or a quoted attribute value (the HTML report, docs/spec.md
/// §3.5): `&`, `<`, `>`, `"` and `'` as character references, so that no input can open a tag,
/// an entity or leave an attribute; the control characters HTML forbids (below U+0020 but tab,
/// newline and carriage return, and U+007F) as U+FFFD.
inline std::string htmlText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&#39;"; break;
    default:
      if ((u < 0x20 && c != '\t' && c != '\n' && c != '\r') || u == 0x7f)
        out += "\xef\xbf\xbd"; // U+FFFD
      else
        out += c;
    }
  }
  return out;
}

} // namespace lo::io
