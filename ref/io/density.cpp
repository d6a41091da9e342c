#include "ref/io/density.hpp"

#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lo::io {

namespace {

/// Masks of one 64-byte block, bit i for byte i.
struct Block {
  std::uint64_t quote = 0, backslash = 0, op = 0, space = 0;
};

Block classify(const unsigned char *p) {
  Block b;
#if defined(__SSE2__)
  for (int k = 0; k < 4; ++k) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + 16 * k));
    // `{}[]` fold onto `{}` by setting bit 5; `:` and `,` keep theirs.
    const __m128i f = _mm_or_si128(v, _mm_set1_epi8(0x20));
    const __m128i op = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(f, _mm_set1_epi8('{')), _mm_cmpeq_epi8(f, _mm_set1_epi8('}'))),
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(':')), _mm_cmpeq_epi8(v, _mm_set1_epi8(','))));
    const __m128i space = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))),
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
                     _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
    const auto at = [k](__m128i m) {
      return std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(m))} << (16 * k);
    };
    b.quote |= at(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
    b.backslash |= at(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    b.op |= at(op);
    b.space |= at(space);
  }
#else
  for (int i = 0; i < 64; ++i) {
    const unsigned c = p[i];
    const std::uint64_t bit = std::uint64_t{1} << i;
    if (c == '"')
      b.quote |= bit;
    else if (c == '\\')
      b.backslash |= bit;
    else if (c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ',')
      b.op |= bit;
    else if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
      b.space |= bit;
  }
#endif
  return b;
}

std::uint64_t prefixXor(std::uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

} // namespace

std::size_t jsonTokens(std::string_view text) {
  const auto *p = reinterpret_cast<const unsigned char *>(text.data());
  std::size_t n = text.size(), tokens = 0;
  bool escapeNext = false;        // the block ended in a backslash that escapes the next byte
  std::uint64_t inString = 0;     // all ones when the block ended inside a string
  std::uint64_t scalarBefore = 0; // 1 when the block ended in a byte of a scalar run
  unsigned char tail[64];
  for (std::size_t at = 0; at < n; at += 64) {
    const unsigned char *q = p + at;
    if (n - at < 64) {
      std::memset(tail, ' ', sizeof tail);
      std::memcpy(tail, q, n - at);
      q = tail;
    }
    const Block b = classify(q);
    std::uint64_t escaped = 0;
    if (b.backslash || escapeNext)
      for (int i = 0; i < 64; ++i) {
        const std::uint64_t bit = std::uint64_t{1} << i;
        if (escapeNext) {
          escaped |= bit;
          escapeNext = false;
        } else if (b.backslash & bit) {
          escapeNext = true;
        }
      }
    const std::uint64_t quotes = b.quote & ~escaped;
    // Set from an opening quote up to the byte before its closing quote.
    const std::uint64_t string = prefixXor(quotes) ^ inString;
    inString = static_cast<std::uint64_t>(static_cast<std::int64_t>(string) >> 63);
    const std::uint64_t scalar = ~(string | quotes | b.op | b.space);
    const std::uint64_t starts = scalar & ~((scalar << 1) | scalarBefore);
    scalarBefore = scalar >> 63;
    tokens += static_cast<std::size_t>(std::popcount(b.op & ~string) + std::popcount(starts) +
                                       std::popcount(quotes & string));
  }
  return tokens;
}

} // namespace lo::io
