// The pre-scan every whole document passes before the parser indexes it (docs/errors.md,
// "Limits"): the parser's first pass keeps 4 bytes for every JSON token of the document, so a
// document of one token a byte would cost 4 times its size before any value could be judged.
#pragma once

#include "ref/io/limits.hpp"

#include <cstddef>
#include <string_view>

namespace lo::io {

/// The JSON tokens of `text` as the parser's first pass indexes them, or more (never fewer): each
/// of `{}[]:,` outside a string, each string, and each run of other bytes outside a string that
/// are not JSON whitespace (a number, `true`, `false`, `null`, or invalid text). Linear in the
/// text, without allocating.
std::size_t jsonTokens(std::string_view text);

/// Whether a document of `bytes` bytes that holds `tokens` JSON tokens is denser than the limit of
/// docs/errors.md ("Limits"): longer than kDenseFloorBytes, with more than kMaxTokensPerEightBytes
/// tokens in every 8 bytes.
constexpr bool denserThanLimit(std::size_t tokens, std::size_t bytes) {
  return bytes > kDenseFloorBytes && tokens * 8 > bytes * kMaxTokensPerEightBytes;
}

} // namespace lo::io
