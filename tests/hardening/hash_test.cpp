// Hash flooding: the hashes over input data are keyed per process (ref/hash.hpp), so values solved
// to collide under the old fixed hashes (tests/hardening/collisions.hpp) do not collide, and two
// processes hash alike values differently. The timing side is tools/bench-collisions.
#include "ref/capsule.hpp"
#include "ref/hash.hpp"
#include "ref/interner.hpp"
#include "ref/opkind.hpp"
#include "tests/hardening/collisions.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <unordered_map>

namespace lo::test {
namespace {

constexpr std::size_t kN = 4096;

std::string probe() {
  std::FILE *p = ::popen(LO_HASH_PROBE, "r");
  if (!p)
    return {};
  char buf[128] = {};
  const std::size_t n = std::fread(buf, 1, sizeof buf - 1, p);
  ::pclose(p);
  return std::string(buf, n);
}

TEST(KeyedHash, TwoProcessesDrawTwoKeys) {
  const std::string a = probe(), b = probe();
  ASSERT_EQ(a.size(), 51u) << a;
  EXPECT_NE(a, b) << "two runs hashed the same values alike: the key is not drawn per process";
  // Each of the three hashes differs, not only one.
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_NE(a.substr(17 * i, 16), b.substr(17 * i, 16)) << a << b;
}

TEST(KeyedHash, TwoKeysGiveTwoHashes) {
  const HashKey k1{1, 2}, k2{1, 3};
  EXPECT_NE(keyedHash(std::uint64_t{7}, k1), keyedHash(std::uint64_t{7}, k2));
  EXPECT_NE(keyedHash(std::string_view("abc"), k1), keyedHash(std::string_view("abc"), k2));
  EXPECT_EQ(keyedHash(std::string_view("abc"), k1), keyedHash(std::string_view("abc"), k1));
  // A string is hashed with its length: "ab" then "c" is not "a" then "bc".
  SipHasher x(k1), y(k1);
  x.bytes("ab");
  x.bytes("c");
  y.bytes("a");
  y.bytes("bc");
  EXPECT_NE(x.finish(), y.finish());
}

// The key is drawn from the random source in as many reads as it takes; a source that fails
// gives a key from the clock, the process id and an address, never a fixed one.
TEST(KeyedHash, TheKeyIsTheSourcesBytesReadInPieces) {
  const HashKey key = drawKey([](void *into, std::size_t size) -> long {
    static unsigned char next = 1;
    const std::size_t n = std::min<std::size_t>(size, 5); // a source that gives 5 bytes a read
    for (std::size_t i = 0; i < n; ++i)
      static_cast<unsigned char *>(into)[i] = next++;
    return static_cast<long>(n);
  });
  EXPECT_EQ(key.k0, 0x0807060504030201ULL);
  EXPECT_EQ(key.k1, 0x100f0e0d0c0b0a09ULL);
}

TEST(KeyedHash, WithoutARandomSourceTheKeyIsStillDrawn) {
  const RandomSource fails = [](void *, std::size_t) -> long { return -1; };
  // Half a key, then nothing: not half a key and zeros.
  const RandomSource half = [](void *into, std::size_t size) -> long {
    if (size < 16)
      return 0;
    std::memset(into, 0, 8);
    return 8;
  };
  for (const RandomSource source : {fails, half}) {
    const HashKey a = drawKey(source), b = drawKey(source);
    EXPECT_FALSE(a.k0 == 0 && a.k1 == 0);
    EXPECT_NE(a.k0, a.k1);
    EXPECT_FALSE(a.k0 == b.k0 && a.k1 == b.k1) << "two draws gave the same key";
  }
}

template <class T, class F> std::size_t distinct(const std::vector<T> &values, F &&hash) {
  std::set<std::uint64_t> hashes;
  for (const auto &v : values)
    hashes.insert(hash(v));
  return hashes.size();
}

TEST(KeyedHash, NotesSolvedToCollideUnderStdHashDoNotCollideInCapsules) {
  const auto notes = collide::stdHashCollidingStrings(kN, 1);
  // The generator works: every note has the same std::hash ...
  ASSERT_EQ(distinct(notes, std::hash<std::string>{}), 1u);
  ASSERT_EQ(std::set<std::string>(notes.begin(), notes.end()).size(), kN);
  // ... and capsules differing only in those notes hash apart, and intern apart.
  KernelCapsule base;
  base.name = "x.relu";
  Interner interner;
  std::set<CapsuleId> ids;
  const std::size_t hashes = distinct(notes, [&](const std::string &n) {
    KernelCapsule c = base;
    c.notes = n;
    ids.insert(interner.intern(c));
    return hashCapsule(c);
  });
  EXPECT_GE(hashes, kN - 1); // a 64-bit collision among 4096 values: about 2^-41
  EXPECT_EQ(ids.size(), kN);
}

TEST(KeyedHash, KindsSolvedToCollideUnderTheOldHashDoNotCollide) {
  const auto tag = static_cast<std::uint64_t>(KindTag::flatten);
  const auto shapes = collide::oldKindHashCollidingShapes(kN, tag, 2);
  ASSERT_EQ(distinct(shapes, [&](const auto &s) { return collide::oldKindHash(tag, {s}); }), 1u);
  EXPECT_GE(distinct(shapes,
                     [](const auto &s) {
                       return hashKind(OpKind{KindTag::flatten, {s}});
                     }),
            kN - 1);
}

TEST(KeyedHash, NodeIdsSolvedToCollideUnderTheIdentityHashSpreadOut) {
  const auto ids = collide::identityHashCollidingIds(kN);
  std::unordered_map<std::uint64_t, std::size_t> identity;
  identity.reserve(kN);
  std::unordered_map<std::uint64_t, std::size_t, KeyedHash> keyed;
  keyed.reserve(kN);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    identity.emplace(ids[i], i);
    keyed.emplace(ids[i], i);
  }
  std::size_t identityWorst = 0, keyedWorst = 0;
  for (std::size_t b = 0; b < identity.bucket_count(); ++b)
    identityWorst = std::max(identityWorst, identity.bucket_size(b));
  for (std::size_t b = 0; b < keyed.bucket_count(); ++b)
    keyedWorst = std::max(keyedWorst, keyed.bucket_size(b));
  ASSERT_GT(identityWorst, kN / 2) << "the generator no longer collides under std::hash";
  EXPECT_LE(keyedWorst, 16u) << "a bucket of the keyed table holds " << keyedWorst << " ids";
}

} // namespace
} // namespace lo::test
