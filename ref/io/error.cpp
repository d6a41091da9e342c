#include "ref/io/error.hpp"

#include "ref/io/escape.hpp"

#include <string_view>

namespace lo::io {

namespace {
/// The pointer as shown in a message: each reference token cut, and shown (shownText: a key may
/// hold an escaped newline), so that the message stays one line.
std::string shown(const std::string &pointer) {
  if (pointer.empty())
    return "/";
  std::string cut;
  std::size_t tokenLength = 0; // in characters
  for (char c : pointer) {
    // A reference token longer than kMaxEchoBytes characters is cut with "..." (a key of the
    // input may be megabytes long; the message stays short).
    if (c == '/')
      tokenLength = 0;
    else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80 && ++tokenLength == kMaxEchoBytes + 1)
      cut += "...";
    if (tokenLength <= kMaxEchoBytes)
      cut += c;
  }
  return shownText(cut, kUncut);
}

std::string compose(const std::string &file, std::size_t line, std::size_t column,
                    const std::string &pointer, const std::string &message) {
  std::string out = shownText(file, kUncut);
  if (line != 0)
    out += ":" + std::to_string(line) + ":" + std::to_string(column);
  out += ": ";
  if (!pointer.empty() || line != 0)
    out += shown(pointer) + ": ";
  return out + shownText(message, kUncut);
}
} // namespace

InputError::InputError(std::string file, std::size_t line, std::size_t column, std::string pointer,
                       std::string message)
    : std::runtime_error(compose(file, line, column, pointer, message)), file_(std::move(file)),
      line_(line), column_(column), pointer_(std::move(pointer)), message_(std::move(message)) {}

InputError::InputError(std::string file, std::string message)
    : std::runtime_error(shownText(file, kUncut) + ": " + shownText(message, kUncut)),
      file_(std::move(file)), message_(std::move(message)) {}

std::string formatError(const InputError &e) { return e.what(); }

std::pair<std::size_t, std::size_t> lineColumn(std::string_view text, std::size_t offset) {
  if (offset > text.size())
    offset = text.size();
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++line;
      column = 1;
    } else if ((c & 0xc0) != 0x80) { // not a UTF-8 continuation byte
      ++column;
    }
  }
  return {line, column};
}

std::string pointerToken(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (char c : token) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

} // namespace lo::io
