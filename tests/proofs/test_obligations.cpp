// The reference algorithm discharges every obligation (contract equality) in the editions that have
// it, and under identity equality exactly the audit, refinement and gate obligations fail.
#include "proofs/obligations.hpp"
#include "tests/proofs/obligation_names.hpp"

#include <gtest/gtest.h>

#include <set>

namespace lo::proofs {
namespace {

// ctest also runs `prove` at the default bound; here a small bound keeps the suite fast.
constexpr std::size_t kObligationBound = 3;

TEST(Obligations, EveryExpectedNameIsFoundAndEachNameIsUnique) {
  const char *expected[] = {"singleton.provenance",    "singleton.order",
                            "singleton.one-node",      "singleton.audit",
                            "singleton.unique",        "coalesced.provenance",
                            "coalesced.order",         "coalesced.contract-equality",
                            "coalesced.grouping-kind", "coalesced.maximal",
                            "coalesced.audit",         "coalesced.refines-singleton",
                            "coalesced.unique",        "coalesced.non-empty",
                            "step.non-empty",          "coalesced.acceptance",
                            "step.acceptance"};
  for (const char *name : expected)
    EXPECT_NE(findObligation(name), nullptr) << name;
  // Every obligation is some edition's, and the lowering's core is every edition's.
  for (const auto &o : obligations()) {
    bool some = false;
    for (std::size_t i = 0; i < vocabularySize<Edition>(); ++i)
      some = some || appliesIn(o, static_cast<Edition>(i));
    EXPECT_TRUE(some) << o.name;
  }
  for (const char *name : {"coalesced.order", "coalesced.unique", "step.maximal"})
    EXPECT_EQ(findObligation(name)->needs, Needs::nothing) << name;
  for (const auto &o : obligations())
    EXPECT_EQ(findObligation(o.name), &o) << o.name;
  EXPECT_EQ(findObligation("coalesced.nonsense"), nullptr);
}

// The obligations' editions (docs/spec.md §5.5) as prove lists them.
TEST(Obligations, AnObligationOfAnotherEditionIsNotDischarged) {
  EXPECT_THROW(discharge(*findObligation("coalesced.gate"), Options{.edition = kNewestEdition}),
               std::logic_error);
  EXPECT_THROW(
      discharge(*findObligation("coalesced.acceptance"), Options{.edition = kNewestSeedEdition}),
      std::logic_error);
}

TEST(Obligations, EachEditionHasItsObligations) {
  auto names = [](Edition e) {
    std::set<std::string_view> out;
    for (const Obligation *o : obligationsOf(e))
      out.insert(o->name);
    return out;
  };
  const auto seed = names(kNewestSeedEdition), lineage = names(kNewestEdition);
  EXPECT_TRUE(seed.contains("singleton.unique") && seed.contains("coalesced.gate"));
  EXPECT_FALSE(seed.contains("coalesced.acceptance") || seed.contains("coalesced.non-empty"));
  EXPECT_TRUE(lineage.contains("coalesced.acceptance") && lineage.contains("step.acceptance"));
  EXPECT_TRUE(lineage.contains("coalesced.non-empty") && lineage.contains("step.non-empty"));
  for (std::string_view name : lineage) // no singleton lowering, no grouping kind, no evidence gate
    EXPECT_FALSE(name.starts_with("singleton.") || name.ends_with(".grouping-kind") ||
                 name.ends_with(".gate"))
        << name;
  // The lineage's 16 of the lowering and its gate, and its planner's 5 (docs/spec.md §5.6), which
  // the seed's editions, without a planner, do not have.
  std::size_t selection = 0;
  for (std::string_view name : lineage)
    selection += name.starts_with("selection.") ? 1 : 0;
  for (std::string_view name : seed)
    EXPECT_FALSE(name.starts_with("selection.")) << name;
  EXPECT_EQ(selection, 5u);
  EXPECT_EQ(lineage.size(), 16u + 5u);
  EXPECT_EQ(seed.size(), 22u);
}

class EveryObligation : public ::testing::TestWithParam<std::string_view> {};

/// The edition the tests prove an obligation in at kObligationBound (prove-default and
/// prove-edition-2026-08b run every obligation of both at larger bounds).
std::vector<Edition> mainEditions(const Obligation &o) { return {test_names::homeEdition(o)}; }

TEST_P(EveryObligation, ProvedUnderContractEquality) {
  const Obligation &o = *findObligation(GetParam());
  ASSERT_FALSE(mainEditions(o).empty()) << o.name;
  for (Edition edition : mainEditions(o)) {
    const Result r = discharge(o, Options{.edition = edition,
                                          .bound = kObligationBound,
                                          .equality = Equality::contract,
                                          .timeoutMs = 60000,
                                          .sabotage = Sabotage::none});
    EXPECT_EQ(r.status, Status::proved) << o.name << " in " << spelling(edition) << " " << r.reason;
    if (!o.everyLength) {
      EXPECT_EQ(r.length, kObligationBound);
    }
  }
}

// Every gate's editions: the obligations are run per edition (docs/spec.md §1.6). The main edition
// is the one above at kObligationBound (and `prove` at the default bound); the oldest edition that
// has the obligation (2026-07, or 2026-09 for the lineage's own) and the newest, where they are not
// the main one, at a bound of two nodes, the length of every counterexample the sabotage matrix
// finds, so that the suite's time does not double. (2026-08 has 2026-08b's capsules and rules,
// 2026-09 and 2026-09b 2026-10's; the kinds and ops differ: `prove --edition` runs them in
// proofs.lineage-obligations and gen.cli.lineage.)
constexpr std::size_t kOtherEditionBound = 2;

TEST_P(EveryObligation, ProvedUnderContractEqualityInTheOldestAndNewestEditions) {
  const Obligation &o = *findObligation(GetParam());
  // The oldest edition that has the obligation (2026-07, or 2026-09 for the lineage's own).
  Edition oldest = kNewestEdition;
  for (std::size_t i = vocabularySize<Edition>(); i-- > 0;)
    if (appliesIn(o, static_cast<Edition>(i)))
      oldest = static_cast<Edition>(i);
  std::size_t proved = 0;
  for (const Edition edition : {oldest, kNewestEdition}) {
    if (edition == mainEditions(o).front() || !appliesIn(o, edition))
      continue;
    ++proved;
    const Result r = discharge(o, Options{.edition = edition,
                                          .bound = kOtherEditionBound,
                                          .equality = Equality::contract,
                                          .timeoutMs = 60000,
                                          .sabotage = Sabotage::none});
    EXPECT_EQ(r.status, Status::proved) << o.name << " in " << spelling(edition) << " " << r.reason;
  }
  EXPECT_GT(proved, 0u) << o.name << " is proved in no edition besides its home";
}

TEST_P(EveryObligation, UnderIdentityOnlyAuditRefinementAndGateFail) {
  const Obligation &o = *findObligation(GetParam());
  for (Edition edition : mainEditions(o)) {
    const Result r = discharge(o, Options{.edition = edition,
                                          .bound = kObligationBound,
                                          .equality = Equality::identity,
                                          .timeoutMs = 60000,
                                          .sabotage = Sabotage::none});
    const std::string name(o.name);
    // Identity equality merges capsules whose contract parts differ: the group keeps the first
    // node's capsule, so its audit row (and its expansion) differ from a later node's. The gates
    // read the capsule (docs/spec.md §6.7, §6.10): coalescing by identity changes them.
    const bool mustFail = (name.ends_with(".audit") && name != "singleton.audit") ||
                          name == "coalesced.gate" || name == "step.gate" ||
                          name.ends_with(".acceptance");
    const bool refinement = name.ends_with(".refines-singleton");
    if (mustFail || refinement) {
      EXPECT_EQ(r.status, Status::refuted) << name << " in " << spelling(edition);
      if (!o.everyLength) {
        EXPECT_EQ(r.length, 2u) << name << ": the smallest counterexample has two nodes";
      }
    } else {
      EXPECT_EQ(r.status, Status::proved) << name << " in " << spelling(edition) << " " << r.reason;
    }
  }
}

// The bounded statements of completeness (every candidate of n slots, the checks exactly as
// spec_checks.hpp states them) hold too, under both equalities: a test of the induction's
// instantiation of the checks on small plans.
TEST(Obligations, BoundedUniquenessAgreesWithTheInduction) {
  ASSERT_EQ(crossChecks().size(), 2u);
  for (const Obligation &o : crossChecks()) {
    // its main edition at kObligationBound, and the lineage (groups without kinds) at two nodes
    std::vector<std::pair<Edition, std::size_t>> runs{{mainEditions(o).front(), kObligationBound}};
    if (appliesIn(o, kNewestEdition) && kNewestEdition != runs.front().first)
      runs.emplace_back(kNewestEdition, kOtherEditionBound);
    for (const auto &[edition, bound] : runs)
      for (Equality equality : {Equality::contract, Equality::identity}) {
        const Result r = discharge(
            o,
            Options{.edition = edition, .bound = bound, .equality = equality, .timeoutMs = 60000});
        EXPECT_EQ(r.status, Status::proved)
            << o.name << " " << spelling(edition) << " " << spelling(equality) << r.reason;
        EXPECT_EQ(r.length, bound);
      }
  }
  EXPECT_TRUE(findObligation("coalesced.unique")->everyLength);
  EXPECT_TRUE(findObligation("singleton.unique")->everyLength);
}

INSTANTIATE_TEST_SUITE_P(Proofs, EveryObligation,
                         ::testing::ValuesIn(test_names::obligationNames()), test_names::testName);

} // namespace
} // namespace lo::proofs
