// Input errors: the file, the position where it is known, the JSON pointer and what is wrong
// (docs/spec.md §4.5).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace lo::io {

/// `message()`, `file()` and `pointer()` are the raw text (a renderer shows them,
/// ref/io/escape.hpp); `what()` is the one-line message with every part already shown.
class InputError : public std::runtime_error {
public:
  InputError(std::string file, std::size_t line, std::size_t column, std::string pointer,
             std::string message);
  /// An error with no position (a file that cannot be opened, say).
  InputError(std::string file, std::string message);

  const std::string &file() const { return file_; }
  std::size_t line() const { return line_; } // 1-based; 0 when unknown
  std::size_t column() const { return column_; }
  const std::string &pointer() const { return pointer_; }
  const std::string &message() const { return message_; }

private:
  std::string file_;
  std::size_t line_ = 0, column_ = 0;
  std::string pointer_;
  std::string message_;
};

/// `FILE:LINE:COL: /pointer: message` (the parts that are known, each shown: docs/spec.md §3.5).
std::string formatError(const InputError &e);

/// 1-based line and column of `offset` in `text`, the column counted in Unicode code points (every
/// byte that does not continue a UTF-8 sequence starts one), as SARIF's `columnKind`
/// "unicodeCodePoints" says (docs/spec.md §4.5): an error's text and its SARIF region agree.
std::pair<std::size_t, std::size_t> lineColumn(std::string_view text, std::size_t offset);

/// `token` escaped as a JSON Pointer reference token (RFC 6901: `~` -> `~0`, `/` -> `~1`).
std::string pointerToken(std::string_view token);

} // namespace lo::io
