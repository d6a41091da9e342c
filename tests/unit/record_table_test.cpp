// Records as field tables (ref/record.hpp): a field added to a table in this test build, for one
// edition, is read, written, compared and hashed with nothing else written for it.
#include "ref/io/contract_reader.hpp"
#include "ref/io/error.hpp"
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

Probe read(std::string_view json, Edition edition) {
  const io::Source source = io::sourceFromString("probe.json", json);
  io::JsonReader r(source);
  r.setEdition(edition);
  io::od::value v;
  EXPECT_FALSE(r.doc().get_value().get(v));
  return io::readRecord<Probe>(r, v);
}

std::string readError(std::string_view json, Edition edition) {
  try {
    read(json, edition);
  } catch (const io::InputError &e) {
    return e.what();
  }
  return "(no error)";
}

std::uint64_t hashOf(const Probe &p) {
  SipHasher h(HashKey{1, 2});
  hashRecord<Probe>(h, p);
  return h.finish();
}

TEST(RecordTable, AnAddedFieldIsReadInItsEditionAndNamedWithItsEditionElsewhere) {
  const Probe p = read(R"({"name":"a","added":"x"})", Edition::e2026_07);
  EXPECT_EQ(p.name, "a");
  EXPECT_EQ(p.added, "x");
  EXPECT_TRUE(p.flag); // defaulted
  EXPECT_NE(readError(R"({"name":"a","added":"x"})", Edition::e2026_08)
                .find("field \"added\" of a probe is not in edition 2026-08; valid in edition "
                      "2026-07: use --edition 2026-07"),
            std::string::npos)
      << readError(R"({"name":"a","added":"x"})", Edition::e2026_08);
  EXPECT_NE(readError(R"({"added":"x"})", Edition::e2026_07).find("missing field \"name\""),
            std::string::npos);
  EXPECT_NE(readError(R"({"name":"a","other":1})", Edition::e2026_07)
                .find("unknown field \"other\" in a probe; expected one of: name, rounding, flag, "
                      "added"),
            std::string::npos);
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
  // What is written is read back.
  EXPECT_EQ(
      read(io::writtenText([&](io::Sink &s) { io::writeRecord<Probe>(s, q); }), Edition::e2026_07),
      q);
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
