#include "ref/io/density.hpp"

#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define LO_DENSITY_X86 1
#endif

namespace lo::io {

namespace {

/// Masks of one 64-byte block, bit i for byte i.
struct Block {
  std::uint64_t quote = 0, backslash = 0, op = 0, space = 0;
};

[[maybe_unused]] Block classifyBytes(const unsigned char *p) {
  Block b;
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
  return b;
}

#if LO_DENSITY_X86
Block classifySse2(const unsigned char *p) {
  Block b;
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
  return b;
}

/// The 32 byte flags of `m` as bits `shift` to `shift + 31`.
[[gnu::target("avx2")]] inline std::uint64_t bits(__m256i m, unsigned shift) {
  return std::uint64_t{static_cast<std::uint32_t>(_mm256_movemask_epi8(m))} << shift;
}

[[gnu::target("avx2")]] Block classifyAvx2(const unsigned char *p) {
  // By low nibble, the one byte of each class with that nibble (0 where none has it; a byte of
  // 0x80 and above looks up 0). `{}[]:,` with bit 5 set are `{}{}:,`, whose nibbles differ; so
  // are 0x0C and 0x1A, which count as tokens too (more, never fewer).
  const __m256i spaces =
      _mm256_setr_epi8(' ', 0, 0, 0, 0, 0, 0, 0, 0, '\t', '\n', 0, 0, '\r', 0, 0, ' ', 0, 0, 0, 0,
                       0, 0, 0, 0, '\t', '\n', 0, 0, '\r', 0, 0);
  const __m256i ops = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ':', '{', ',', '}', 0, 0, 0, 0,
                                       0, 0, 0, 0, 0, 0, 0, 0, ':', '{', ',', '}', 0, 0);
  Block b;
  for (int k = 0; k < 2; ++k) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p + 32 * k));
    const unsigned shift = 32 * static_cast<unsigned>(k);
    b.quote |= bits(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('"')), shift);
    b.backslash |= bits(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\')), shift);
    b.op |= bits(
        _mm256_cmpeq_epi8(_mm256_or_si256(v, _mm256_set1_epi8(0x20)), _mm256_shuffle_epi8(ops, v)),
        shift);
    b.space |= bits(_mm256_cmpeq_epi8(v, _mm256_shuffle_epi8(spaces, v)), shift);
  }
  return b;
}
#endif

inline std::uint64_t prefixXor(std::uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

/// The count of jsonTokens over 64-byte blocks classified by `classify`.
template <class Classify>
[[gnu::always_inline]] inline std::size_t countTokens(std::string_view text, Classify classify) {
  const auto *p = reinterpret_cast<const unsigned char *>(text.data());
  const std::size_t n = text.size();
  std::size_t tokens = 0;
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

#if LO_DENSITY_X86
[[gnu::target("avx2,popcnt")]] std::size_t tokensAvx2(std::string_view text) {
  return countTokens(text, classifyAvx2);
}
#endif

} // namespace

std::size_t jsonTokens(std::string_view text) {
#if LO_DENSITY_X86
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt"))
    return tokensAvx2(text);
  return countTokens(text, classifySse2);
#else
  return countTokens(text, classifyBytes);
#endif
}

} // namespace lo::io
