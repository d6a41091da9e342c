// Records as field tables (ref/record.hpp): a field added to a table in this test build, for one
// edition, is read, written, compared and hashed, and is in the record's JSON Schema, its HTML rows
// and the shrinker's steps, with nothing else written for it.
#include "ref/io/contract_reader.hpp"
#include "ref/io/error.hpp"
#include "ref/io/writer.hpp"
#include "tests/schema/record_schema.hpp"
#include "tools/diff/shrink.hpp"
#include "tools/report/record_text.hpp"

#include <algorithm>

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

/// `{"probe": TEXT}` read in edition `e`.
Probe readProbe(std::string_view text, Edition e) {
  static constexpr std::string_view kNames[] = {"probe"};
  const io::Source source =
      io::sourceFromString("probe.json", "{\"probe\": " + std::string(text) + "}");
  io::JsonReader r(source);
  r.setEdition(e);
  Probe out;
  r.rootFields(
      "a document", io::FieldSet{kNames, 1u},
      [&](std::size_t, simdjson::ondemand::value v) { out = io::readRecord<Probe>(r, v); });
  return out;
}

TEST(RecordTable, AnAddedFieldIsReadInItsEditionsOnly) {
  const Probe p = readProbe(R"({"name": "a", "added": "x"})", Edition::e2026_07);
  EXPECT_EQ(p.added, "x");
  EXPECT_EQ(readProbe(R"({"name": "a"})", Edition::e2026_07).added, ""); // defaulted
  try {
    readProbe(R"({"name": "a", "added": "x"})", Edition::e2026_08);
    FAIL() << "a field of 2026-07 read in 2026-08";
  } catch (const io::InputError &e) {
    EXPECT_NE(std::string(e.what()).find("use --edition 2026-07"), std::string::npos) << e.what();
  }
}

TEST(RecordTable, AnAddedFieldIsInTheSchemaTheHtmlRowsAndTheShrinkSteps) {
  // The JSON Schema lo_schema_gen writes for the record (tests/schema/record_schema.hpp): the field
  // in 2026-07 only, optional since it is defaulted.
  const std::string july = schema::recordSchemaText<Probe>(Edition::e2026_07);
  const std::string august = schema::recordSchemaText<Probe>(Edition::e2026_08);
  EXPECT_NE(july.find(R"("added": {)"), std::string::npos) << july;
  EXPECT_EQ(august.find("added"), std::string::npos) << august;
  EXPECT_NE(july.find(R"("required": ["name"])"), std::string::npos) << july;
  // diff's shrinker makes the field agree as one of its steps (tools/diff/shrink.hpp), before the
  // identity field.
  constexpr auto order = diff::unifyOrder<Probe>();
  // The HTML report's rows of the record (tools/report/record_text.hpp).
  const auto rows = report::fieldTexts<Probe>(Probe{"a", Rounding::directed, false, "x"});
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[3].first, "added");
  EXPECT_EQ(rows[3].second, "x");
  EXPECT_EQ((std::vector<std::size_t>(order.begin(), order.end())),
            (std::vector<std::size_t>{1, 2, 3, 0}));
}

TEST(RecordTable, TheShrinkerMakesACapsuleAgreeOnEveryFieldTrustLast) {
  constexpr auto order = diff::unifyOrder<KernelCapsule>();
  EXPECT_EQ(order.size(), fieldCount<KernelCapsule>());
  std::vector<std::string_view> names;
  for (std::size_t i : order)
    withField<KernelCapsule>(i, [&](const auto &f) { names.push_back(f.name); });
  EXPECT_EQ(names.back(), "trustLevel");
  EXPECT_EQ(std::count(names.begin(), names.end(), "notes"), 1);
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
