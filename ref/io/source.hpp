// A document's bytes as the readers take them (docs/spec.md §2), and the hardening limits of every
// reader built on the strict JSON layer (ref/io/strict_json.hpp; documented in docs/errors.md).
#pragma once

#include "ref/io/limits.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace lo::io {

/// A document's bytes and the name used in messages. `text.capacity()` leaves room for the
/// padding simdjson reads past the end, so the reader does not copy it.
struct Source {
  std::string name;
  std::string text;
};

/// Reads a file, or standard input for "-" (named "<stdin>" in messages).
Source loadSource(const std::string &path);
/// The same into `into`, whose buffer is kept when it is large enough (a document read after
/// another, into the first one's buffer).
void loadSource(const std::string &path, Source &into);
Source sourceFromString(std::string name, std::string_view text);

} // namespace lo::io
