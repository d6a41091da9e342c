// Keyed hashing of input data: every hash table indexed by something an input file chooses
// (capsules, kinds, capsule keys and names, node ids) hashes it with SipHash-1-3 under a key drawn
// once per process from the operating system's random source. An input cannot be built to make
// such a table quadratic: which values collide depends on a key the input never sees
// (docs/errors.md, "Hash tables").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace lo {

/// A 128-bit SipHash key.
struct HashKey {
  std::uint64_t k0 = 0, k1 = 0;
};

/// The key of this process: 16 bytes from getrandom(2), drawn at first use.
const HashKey &processHashKey();

/// A source of random bytes with getrandom(2)'s contract: fills up to `size` bytes at `into`,
/// returns how many, or 0 or less when it has none.
using RandomSource = long (*)(void *into, std::size_t size);

/// The key processHashKey() draws, from `random`: its bytes, read until 16 came; when it fails
/// before, a key from the clock, the process id and an address instead.
HashKey drawKey(RandomSource random);

/// SipHash-1-3 over a sequence of 64-bit words (one compression round per word, three
/// finalization rounds). A string is fed as its length, then its bytes in little-endian words, so
/// that a sequence of fields hashes without ambiguity.
class SipHasher {
public:
  explicit SipHasher(const HashKey &key = processHashKey())
      : v0_(key.k0 ^ 0x736f6d6570736575ULL), v1_(key.k1 ^ 0x646f72616e646f6dULL),
        v2_(key.k0 ^ 0x6c7967656e657261ULL), v3_(key.k1 ^ 0x7465646279746573ULL) {}

  void word(std::uint64_t m) {
    v3_ ^= m;
    round();
    v0_ ^= m;
  }
  void bytes(std::string_view s);
  std::uint64_t finish() const;

private:
  static std::uint64_t rotl(std::uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }
  void round() {
    v0_ += v1_;
    v1_ = rotl(v1_, 13);
    v1_ ^= v0_;
    v0_ = rotl(v0_, 32);
    v2_ += v3_;
    v3_ = rotl(v3_, 16);
    v3_ ^= v2_;
    v0_ += v3_;
    v3_ = rotl(v3_, 21);
    v3_ ^= v0_;
    v2_ += v1_;
    v1_ = rotl(v1_, 17);
    v1_ ^= v2_;
    v2_ = rotl(v2_, 32);
  }
  std::uint64_t v0_, v1_, v2_, v3_;
};

/// The keyed hash of one word and of one string.
inline std::uint64_t keyedHash(std::uint64_t x, const HashKey &key = processHashKey()) {
  SipHasher h(key);
  h.word(x);
  return h.finish();
}
inline std::uint64_t keyedHash(std::string_view s, const HashKey &key = processHashKey()) {
  SipHasher h(key);
  h.bytes(s);
  return h.finish();
}

/// The hash function object of every table keyed by input data: node ids (and other integers),
/// and strings (transparent: a std::string table is searched with a std::string_view).
struct KeyedHash {
  using is_transparent = void;
  std::size_t operator()(std::uint64_t x) const { return keyedHash(x); }
  std::size_t operator()(std::string_view s) const { return keyedHash(s); }
};

/// The slot, among 2^`bits`, of a memo kept in front of a keyed table or of a parse (a text read
/// before, a row asked for lately): the words mixed by multiplication, unkeyed. A memo compares
/// what its slot holds with what is asked before it answers, so a collision, which an input can
/// force here, costs only a miss: the work the memo would have saved, done as without it.
template <class... Words> constexpr std::size_t memoSlot(unsigned bits, Words... words) {
  std::uint64_t h = 0;
  ((h = (h ^ static_cast<std::uint64_t>(words)) * 0x9E3779B97F4A7C15ull), ...);
  return static_cast<std::size_t>(h >> (64 - bits));
}

} // namespace lo
