// The reference output of generated plans (and of the project's examples/, if any) passes, also
// after a round trip through the JSON writer and reader, with and without its audit.
#include "fixtures.hpp"
#include "tests/random_seed.hpp"
#include "tests/seed.hpp"

#include "ref/io/reader.hpp"
#include "ref/io/writer.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

namespace lo::checks::testing {
namespace {

const Mode kModes[] = {Mode::coalesced, Mode::singleton};
const Equality kEqualities[] = {Equality::contract, Equality::identity};

TEST(Reference, GeneratedPlansPass) {
  const std::uint64_t s = lo::test::randomSeed();
  std::mt19937_64 rng(s);
  Interner in;
  const Alphabet a = alphabet(in);
  for (int round = 0; round < 200; ++round) {
    const std::size_t n = rng() % (round < 190 ? 40 : 3000);
    const GraphExecutionPlan plan = randomPlan(a, rng, n);
    for (Mode mode : kModes)
      for (Equality equality : kEqualities)
        for (bool withAudit : {false, true}) {
          const auto d = referenceDocument(in, plan, mode, equality, withAudit);
          const Report r = check(in, plan, d, lo::test::seed::options(mode, equality, 20));
          ASSERT_TRUE(r.conforms()) << "seed " << s << " round " << round << "\n" << describe(r);
        }
  }
}

// docs/spec.md §3.1, the audit check when the audit is asked for. Asked,
// the reference output with its audit conforms and without it is one `audit` violation at /audit;
// not asked, both conform.
TEST(Reference, AnAuditAskedForMustBeCarried) {
  std::mt19937_64 rng(7);
  Interner in;
  const Alphabet a = alphabet(in);
  for (int round = 0; round < 20; ++round) {
    const GraphExecutionPlan plan = randomPlan(a, rng, rng() % 12);
    for (Mode mode : kModes)
      for (Equality equality : kEqualities)
        for (bool asked : {false, true}) {
          Options options = lo::test::seed::options(mode, equality, 20);
          options.auditAsked = asked;
          const Report with =
              check(in, plan, referenceDocument(in, plan, mode, equality, true), options);
          EXPECT_TRUE(with.conforms()) << describe(with);
          const Report without =
              check(in, plan, referenceDocument(in, plan, mode, equality, false), options);
          if (!asked) {
            EXPECT_TRUE(without.conforms()) << describe(without);
            continue;
          }
          ASSERT_EQ(without.total(), 1u) << describe(without);
          EXPECT_EQ(without.violations[0].check, Check::audit);
          EXPECT_EQ(without.violations[0].pointer, "/audit");
          EXPECT_NE(without.violations[0].message.find("the audit was asked for"),
                    std::string::npos);
        }
  }
}

TEST(Reference, JsonRoundTripPasses) {
  const std::uint64_t s = lo::test::randomSeed();
  std::mt19937_64 rng(s);
  for (int round = 0; round < 20; ++round) {
    Interner writer;
    const Alphabet a = alphabet(writer);
    const GraphExecutionPlan plan = randomPlan(a, rng, 1 + rng() % 50);
    const std::string planJson = io::executionPlanJson(writer, plan);
    for (Mode mode : kModes)
      for (Equality equality : kEqualities) {
        const auto ref = referenceDocument(writer, plan, mode, equality, true);
        const std::string loweringJson =
            io::loweringPlanJson(writer, ref.plan, mode, equality, &*ref.audit);
        Interner reader; // a fresh interner, as `check` has
        const auto p =
            lo::test::seed::readExecutionPlan(io::sourceFromString("plan.json", planJson), reader);
        const auto d = lo::test::seed::readLoweringPlan(
            io::sourceFromString("candidate.json", loweringJson), reader);
        const Report r = check(reader, p, d, lo::test::seed::options(mode, equality, 20));
        ASSERT_TRUE(r.conforms()) << "seed " << s << "\n" << describe(r);
        ASSERT_TRUE(r.notes.empty() || equality == Equality::identity) << describe(r);
      }
  }
}

TEST(Reference, ExamplesPass) {
  namespace fs = std::filesystem;
  const fs::path dir = LO_EXAMPLES_DIR;
  std::size_t checked = 0;
  if (fs::is_directory(dir))
    for (const auto &entry : fs::recursive_directory_iterator(dir)) {
      if (!entry.is_regular_file() || entry.path().extension() != ".json")
        continue;
      const io::Source source = io::loadSource(entry.path().string());
      Interner in;
      try {
        if (io::detectDocumentKind(source) != io::DocumentKind::executionPlan)
          continue;
      } catch (const io::InputError &) {
        continue; // not a plan (an invalid example kept on purpose, say)
      }
      GraphExecutionPlan plan;
      try {
        plan = lo::test::seed::readExecutionPlan(source, in);
      } catch (const io::InputError &) {
        continue;
      }
      for (Mode mode : kModes)
        for (Equality equality : kEqualities) {
          const auto d = referenceDocument(in, plan, mode, equality, true);
          const Report r = check(in, plan, d, lo::test::seed::options(mode, equality, 20));
          EXPECT_TRUE(r.conforms()) << entry.path() << "\n" << describe(r);
        }
      ++checked;
    }
  if (!checked)
    GTEST_SKIP() << "no example plans in " << dir;
  std::printf("%zu example plans\n", checked);
}

} // namespace
} // namespace lo::checks::testing
