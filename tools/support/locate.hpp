// Where a JSON pointer's value starts in a JSON text, so that a report can give a line and column
// (a SARIF `region`) for a violation the checks name by pointer.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace lo::cli {

/// The 1-based line and column (in bytes) of the value that `pointer` (RFC 6901) names in `text`, a
/// JSON document the reader accepted; nothing when the pointer names no value. Bounded by the
/// text's length: each character is looked at a bounded number of times.
std::optional<std::pair<std::size_t, std::size_t>> locate(std::string_view text,
                                                          std::string_view pointer);

} // namespace lo::cli
