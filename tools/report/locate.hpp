// Where a JSON pointer's value starts in a document's text, for the SARIF region of a finding
// (docs/spec.md §3.5). The checks work on the read data model,
// which keeps no positions; a report looks the pointers up in the candidate's text after the fact,
// on the cold path (only for the findings it writes), all of them in one pass (locateAll).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace lo::report {

/// The byte offset of the first character of the value that `pointer` (RFC 6901) names in the
/// JSON text `json`, or nullopt when the text does not hold it (or is not JSON where it walks).
/// The text is scanned, not parsed: only the containers on the pointer's path are entered.
std::optional<std::size_t> pointerOffset(std::string_view json, std::string_view pointer);

/// 1-based line and column of `offset`, the column counted in Unicode code points (SARIF's
/// `columnKind` "unicodeCodePoints").
struct TextPosition {
  std::size_t line = 1, column = 1;
};
TextPosition positionOf(std::string_view text, std::size_t offset);

/// The 1-based line and column of the value that `pointer` names in `text` (pointerOffset, then
/// positionOf); nothing when the pointer names no value.
std::optional<std::pair<std::size_t, std::size_t>> locate(std::string_view text,
                                                          std::string_view pointer);

/// locate() of every pointer of `pointers` in `text`, in one pass over the text whatever their
/// number (a report with many findings does not rescan the text per finding): the walk enters only
/// the containers on some pointer's path and skips every other value, then the lines and columns
/// are counted once, in offset order. The same answers as locate(), pointer by pointer.
std::vector<std::optional<std::pair<std::size_t, std::size_t>>>
locateAll(std::string_view text, const std::vector<std::string_view> &pointers);

} // namespace lo::report
