#include "ref/io/escape.hpp"

#include <algorithm>

namespace lo::io {

namespace {

constexpr char kHex[] = "0123456789abcdef";

void appendCodePointEscape(std::string &out, char32_t cp) {
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4)
    out += kHex[(cp >> shift) & 15];
}

void appendByteEscape(std::string &out, unsigned char byte) {
  out += "\\x";
  out += kHex[byte >> 4];
  out += kHex[byte & 15];
}

} // namespace

std::size_t utf8Length(std::string_view text, std::size_t i) {
  const auto *p = reinterpret_cast<const unsigned char *>(text.data());
  const std::size_t n = text.size();
  const unsigned c = p[i];
  const std::size_t length = c < 0x80                ? 1
                             : c >= 0xC2 && c < 0xE0 ? 2
                             : c >= 0xE0 && c < 0xF0 ? 3
                             : c >= 0xF0 && c < 0xF5 ? 4
                                                     : 0;
  if (length == 0 || length > n - i)
    return 0;
  for (std::size_t k = 1; k < length; ++k)
    if ((p[i + k] & 0xC0) != 0x80)
      return 0;
  // RFC 3629 §4: the second byte's range after E0 (no overlong form), ED (no surrogate), F0 (no
  // overlong form) and F4 (nothing above U+10FFFF).
  if (length == 3 && ((c == 0xE0 && p[i + 1] < 0xA0) || (c == 0xED && p[i + 1] >= 0xA0)))
    return 0;
  if (length == 4 && ((c == 0xF0 && p[i + 1] < 0x90) || (c == 0xF4 && p[i + 1] >= 0x90)))
    return 0;
  return length;
}

std::size_t firstInvalidUtf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = utf8Length(text, i);
    if (length == 0)
      return i;
    i += length;
  }
  return text.size();
}

bool isShownEscaped(char32_t cp) {
  return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || cp == 0x061C ||
         cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069) || (cp >= 0xFDD0 && cp <= 0xFDEF) || cp == 0xFFFE ||
         cp == 0xFFFF;
}

std::string shownText(std::string_view text, std::size_t cap) {
  std::string out, piece;
  out.reserve(std::min(text.size(), cap) + 8);
  for (std::size_t i = 0; i < text.size();) {
    piece.clear();
    std::size_t length = utf8Length(text, i);
    const auto lead = static_cast<unsigned char>(text[i]);
    if (length == 0) {
      length = 1;
      appendByteEscape(piece, lead);
    } else {
      char32_t cp = length == 1   ? lead
                    : length == 2 ? lead & 0x1F
                    : length == 3 ? lead & 0x0F
                                  : lead & 0x07;
      for (std::size_t k = 1; k < length; ++k)
        cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
      if (isShownEscaped(cp))
        appendCodePointEscape(piece, cp);
      else
        piece.append(text.substr(i, length));
    }
    if (piece.size() > cap - out.size()) {
      out += "\xe2\x80\xa6"; // …
      return out;
    }
    out += piece;
    i += length;
  }
  return out;
}

std::string quote(std::string_view s) {
  const bool cut = s.size() > kMaxEchoBytes;
  s = utf8Prefix(s, kMaxEchoBytes);
  return "\"" + std::string(s) + (cut ? "\"..." : "\"");
}

std::string counted(std::size_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

std::string_view utf8Prefix(std::string_view text, std::size_t cap) {
  if (text.size() <= cap)
    return text;
  std::size_t n = cap;
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80)
    --n; // text[n] continues a character: cut before the character it continues
  return text.substr(0, n);
}

std::string shownLines(std::string_view text, std::size_t cap, std::string_view indent) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    out.append(indent).append(shownText(text.substr(0, end), cap)).append("\n");
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return out;
}

std::string markupText(std::string_view text, std::string_view apos) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += apos; break;
    default:
      if ((u < 0x20 && c != '\t' && c != '\n' && c != '\r') || u == 0x7f)
        out += "\xef\xbf\xbd"; // U+FFFD
      else
        out += c;
    }
  }
  return out;
}

std::string xmlText(std::string_view text) { return markupText(shownText(text, kUncut), "&apos;"); }

void cutText(std::string &text, std::size_t cap) {
  if (text.size() <= cap)
    return;
  text.resize(utf8Prefix(text, cap).size());
  text += "...";
}

} // namespace lo::io
