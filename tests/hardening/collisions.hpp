// The red-team inputs of hash flooding, rebuilt as generators: values that all collide under the
// hashes the tables used before they were keyed (ref/hash.hpp). Each generator solves collisions
// for that old, fixed hash, so a test can show that they no longer collide, and a benchmark
// (tools/bench-collisions) that they no longer cost quadratic time.
//
// * capsules: `notes` of 16 bytes that collide under libstdc++'s std::hash<std::string> (which the
//   old capsule hash mixed invertibly), so capsules differing only in their notes collide;
// * kinds: `flatten` shapes [a, b] that collide under the old kind hash (an invertible mix of the
//   parameters: b is solved for a random a);
// * node ids: multiples of the bucket count of a table of n ids under std::hash<uint64_t> (the
//   identity).
#pragma once

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace lo::collide {

// --- libstdc++'s std::hash<std::string> on a 64-bit target (_Hash_bytes, seed 0xc70f6907) ----

inline constexpr std::uint64_t kMul = 0xc6a4a7935bd1e995ULL;
inline constexpr std::uint64_t kSeed = 0xc70f6907ULL;

inline std::uint64_t shiftMix(std::uint64_t v) { return v ^ (v >> 47); } // its own inverse

/// The inverse of an odd number modulo 2^64 (Newton's iteration).
inline constexpr std::uint64_t inverse(std::uint64_t a) {
  std::uint64_t x = a;
  for (int i = 0; i < 6; ++i)
    x *= 2 - a * x;
  return x;
}

inline std::uint64_t load(const char *p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

/// Strings of 16 bytes, each below 0x80 (valid UTF-8, written as JSON with escapes), whose
/// std::hash<std::string> is the same. The state after the first 8 bytes (chosen at random) is
/// carried to one fixed state by solving the second 8 bytes; a solution is kept when its bytes are
/// all below 0x80 (one in 256).
inline std::vector<std::string> stdHashCollidingStrings(std::size_t n, std::uint64_t seed) {
  constexpr std::uint64_t inv = inverse(kMul);
  constexpr std::uint64_t target = 0x0123456789abcdefULL; // the state after 16 bytes
  std::mt19937_64 rng(seed);
  std::vector<std::string> out;
  out.reserve(n);
  while (out.size() < n) {
    std::uint64_t k1 = rng() & 0x7f7f7f7f7f7f7f7fULL;
    std::uint64_t h = kSeed ^ (16 * kMul);
    h = (h ^ (shiftMix(k1 * kMul) * kMul)) * kMul;
    // (h ^ D(k2)) * kMul == target, D(k) = shiftMix(k * kMul) * kMul
    const std::uint64_t d = (target * inv) ^ h;
    const std::uint64_t k2 = shiftMix(d * inv) * inv;
    if (k2 & 0x8080808080808080ULL)
      continue;
    std::string s(16, '\0');
    std::memcpy(s.data(), &k1, 8);
    std::memcpy(s.data() + 8, &k2, 8);
    out.push_back(std::move(s));
  }
  return out;
}

/// Random strings of the same shape (16 bytes below 0x80), for comparison.
inline std::vector<std::string> randomStrings(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> out(n, std::string(16, '\0'));
  for (auto &s : out) {
    const std::uint64_t a = rng() & 0x7f7f7f7f7f7f7f7fULL, b = rng() & 0x7f7f7f7f7f7f7f7fULL;
    std::memcpy(s.data(), &a, 8);
    std::memcpy(s.data() + 8, &b, 8);
  }
  return out;
}

// --- The old kind hash -----------------------------------------------------------------------

/// The kind hash before it was keyed: tag, then per parameter its length and its values, each
/// mixed in by h ^= v + C + (h << 6) + (h >> 2).
inline std::uint64_t oldKindHash(std::uint64_t tag,
                                 const std::vector<std::vector<std::uint64_t>> &params) {
  std::uint64_t h = tag * 0x9e3779b97f4a7c15ULL;
  for (const auto &p : params) {
    h ^= p.size() + 0x517cc1b727220a95ULL + (h << 6) + (h >> 2);
    for (auto v : p)
      h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  }
  return h;
}

/// Shapes [a, b] of a one-parameter kind of tag `tag` (flatten) that all have the same old hash:
/// a at random, b solved from it.
inline std::vector<std::vector<std::uint64_t>>
oldKindHashCollidingShapes(std::size_t n, std::uint64_t tag, std::uint64_t seed) {
  constexpr std::uint64_t target = 0xfedcba9876543210ULL;
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::uint64_t>> out;
  out.reserve(n);
  while (out.size() < n) {
    const std::uint64_t a = rng() >> 1;
    std::uint64_t h = tag * 0x9e3779b97f4a7c15ULL;
    h ^= 2 + 0x517cc1b727220a95ULL + (h << 6) + (h >> 2);
    h ^= a + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    const std::uint64_t b = (target ^ h) - 0x9e3779b97f4a7c15ULL - (h << 6) - (h >> 2);
    out.push_back({a, b});
  }
  return out;
}

inline std::vector<std::vector<std::uint64_t>> randomShapes(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::uint64_t>> out(n);
  for (auto &s : out)
    s = {rng() >> 1, rng()};
  return out;
}

// --- Node ids --------------------------------------------------------------------------------

/// The bucket count of an unordered_map of n node ids reserved for n (as the check's index is).
inline std::uint64_t bucketCountFor(std::size_t n) {
  std::unordered_map<std::uint64_t, std::size_t> m;
  m.reserve(n);
  return m.bucket_count();
}

/// n increasing node ids that are multiples of that bucket count: under the identity hash they
/// all fall in bucket 0.
inline std::vector<std::uint64_t> identityHashCollidingIds(std::size_t n) {
  const std::uint64_t b = bucketCountFor(n);
  std::vector<std::uint64_t> out(n);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = (i + 1) * b;
  return out;
}

/// n increasing node ids as sparse, at a random place in each stretch of that length.
inline std::vector<std::uint64_t> randomSparseIds(std::size_t n, std::uint64_t seed) {
  const std::uint64_t b = bucketCountFor(n);
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> out(n);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = (i + 1) * b + 1 + rng() % (b - 1);
  return out;
}

} // namespace lo::collide
