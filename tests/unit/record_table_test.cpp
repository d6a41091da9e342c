// Records as field tables (ref/record.hpp): a field added to a table in this test build, for one
// edition, is written, compared and hashed with nothing else written for it. (This binary does
// not instantiate the strict JSON reader's templates: it is built without simdjson's flags.)
#include "ref/io/writer.hpp"

#include <gtest/gtest.h>

namespace lo {

/// A record of this test: `added` is the field a later edition might add, here only in 2026-07.
struct Probe {
  std::string name;
  Rounding rounding = Rounding::unspecified;
  bool flag = true;
  std::string added;
  bool operator==(const Probe &o) const;
};

template <> struct RecordTable<Probe> {
  using Value = Probe;
  static constexpr std::string_view what = "a probe";
  static constexpr auto fields = std::tuple{
      field("name", &Probe::name).with(kFieldIdentity),
      field("rounding", &Probe::rounding).defaulted(), field("flag", &Probe::flag).defaulted(),
      field("added", &Probe::added).only(editionBit(Edition::e2026_07)).defaulted()};
};
LO_RECORD_EQUALITY(Probe)

namespace {

std::uint64_t hashOf(const Probe &p) {
  SipHasher h(HashKey{1, 2});
  hashRecord<Probe>(h, p);
  return h.finish();
}

TEST(RecordTable, AnAddedFieldIsWrittenComparedAndHashed) {
  Probe p{"a", Rounding::directed, false, "x"};
  EXPECT_EQ(io::writtenText([&](io::Sink &s) { io::writeRecord<Probe>(s, p); }),
            R"({"name":"a","rounding":"directed","flag":false,"added":"x"})");
  Probe q = p;
  EXPECT_EQ(p, q);
  EXPECT_EQ(hashOf(p), hashOf(q));
  q.added = "y";
  EXPECT_NE(p, q);
  EXPECT_NE(hashOf(p), hashOf(q));
  EXPECT_TRUE(identitiesEqual<Probe>(p, q)); // `added` is not an identity field
}

TEST(RecordTable, TheCapsuleTablesCoverTheirRecords) {
  // Every member of each record is a field of its table (static_asserts in ref/capsule.hpp); the
  // capsule's identity is its four identity fields.
  KernelCapsule a = sampleCapsule("c", BackendOp::relu), b = a;
  b.notes = "other";
  EXPECT_TRUE(sameIdentity(a, b));
  EXPECT_FALSE(a == b);
  EXPECT_EQ(hashIdentity(a), hashIdentity(b));
  EXPECT_NE(hashCapsule(a), hashCapsule(b));
  b = a;
  b.device = Device::cuda;
  EXPECT_FALSE(sameIdentity(a, b));
}

} // namespace
} // namespace lo
