// The conformance checks (docs/spec.md §3) on generated plans: the reference output passes every
// check, and every mutant of the mutation catalogue is flagged with the expected check. The
// mutation score is printed.
#include "checks/checks.hpp"
#include "ref/io/reader.hpp"
#include "ref/io/writer.hpp"
#include "tests/property/generators.hpp"
#include "tests/property/mutations.hpp"
#include "tests/property/support.hpp"
#include "tests/seed.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace lo::prop {
namespace {

io::Source source(const std::string &text) { return io::sourceFromString("<candidate>", text); }

bool flags(const checks::Report &report, Check check) {
  for (const auto &v : report.violations)
    if (v.check == check)
      return true;
  for (const auto &[c, n] : report.omitted)
    if (c == check && n > 0)
      return true;
  return false;
}

/// The candidate as a file holds it: written and read back, so the readers are exercised too.
io::LoweringDocument throughJson(Interner &interner, const io::LoweringDocument &doc, Mode mode,
                                 Equality equality, Edition edition) {
  const std::string text =
      io::loweringPlanJson(interner, doc.plan, mode, equality, doc.audit ? &*doc.audit : nullptr);
  return io::readLoweringPlan(source(text), interner, edition);
}

/// The reference output of `plan`, with its audit when asked for.
io::LoweringDocument referenceDocument(Interner &interner, const GraphExecutionPlan &plan,
                                       Mode mode, Equality equality, bool withAudit) {
  io::LoweringDocument doc;
  doc.plan = lower(interner, plan, mode, equality);
  if (withAudit)
    doc.audit = toDocument(interner, audit(interner, doc.plan));
  return doc;
}

// The reference output passes every check: the plan read from its generated JSON text, the
// reference lowering written (with or without its audit) and read back, then checked.
RC_GTEST_PROP(Checks, TheReferenceOutputPassesEveryCheck, ()) {
  const PlanSpec spec = *genPlan();
  const Mode mode = *genMode();
  const Equality equality = *genEquality();
  const bool withAudit = *rc::gen::arbitrary<bool>();
  Interner interner;
  const GraphExecutionPlan plan = readPlan(spec, interner);
  const io::LoweringDocument reference =
      referenceDocument(interner, plan, mode, equality, withAudit);
  const io::LoweringDocument candidate =
      throughJson(interner, reference, mode, equality, spec.edition);
  const checks::Report report =
      checks::check(interner, plan, candidate, test::seed::options(mode, equality));
  RC_LOG() << describe(report);
  RC_ASSERT(report.conforms());
}

// Under equality identity the reference output hides trusted-external boundaries that contract
// equality forbids: checked as a contract lowering, it conforms exactly when it is the contract
// lowering, and a hidden boundary is named. The checks name it by the capsule check when that
// check already judged the group, by trust-boundary otherwise (docs/checks.md: "audit and
// trust-boundary skip groups already named by op or capsule").
RC_GTEST_PROP(Checks, TheIdentityLoweringFailsTrustBoundaryUnderContract, ()) {
  const PlanSpec spec = *genPlan();
  Interner interner;
  const GraphExecutionPlan plan = buildPlan(spec, interner);
  io::LoweringDocument candidate;
  candidate.plan = toCoalescedLoweringPlan(interner, plan, Equality::identity);
  const auto contract = toCoalescedLoweringPlan(interner, plan, Equality::contract);
  const bool hidden =
      hasTrustedExternal(interner, audit(interner, toSingletonLoweringPlan(plan))) &&
      !hasTrustedExternal(interner, audit(interner, candidate.plan));
  const checks::Report report = checks::check(
      interner, plan, candidate, test::seed::options(Mode::coalesced, Equality::contract));
  RC_LOG() << describe(report);
  RC_ASSERT(report.conforms() == (candidate.plan == contract));
  if (hidden)
    RC_ASSERT(flags(report, Check::trustBoundary) || flags(report, Check::capsule));
  RC_CLASSIFY(hidden, "identity hides a boundary");
}

struct Score {
  std::array<std::size_t, vocabularySize<Mutation>()> applied{}, killed{}, flagged{};
};

// The mutation catalogue: each operator corrupts the reference output in one way; `check` must
// flag every mutant with the operator's expected check. One case applies every operator that
// fits the case's plan, mode and equality (a quarter of the mutants go through JSON first).
TEST(Checks, EveryMutantIsFlaggedWithTheExpectedCheck) {
  Score score;
  // rc::check prints the seed, and on failure the shrunk case and how to reproduce it.
  const bool passed = rc::check("Checks/EveryMutantIsFlaggedWithTheExpectedCheck", [&score] {
    const PlanSpec spec = *genPlan();
    const Mode mode = *genMode();
    const Equality equality = *genEquality();
    const bool withAudit = *rc::gen::weightedElement<bool>({{3, true}, {1, false}});
    const auto salt = *rc::gen::arbitrary<std::uint64_t>();
    Interner interner;
    const GraphExecutionPlan plan = buildPlan(spec, interner);
    const io::LoweringDocument reference =
        referenceDocument(interner, plan, mode, equality, withAudit);
    for (std::size_t i = 0; i < vocabularySize<Mutation>(); ++i) {
      const auto mutation = static_cast<Mutation>(i);
      auto mutant =
          mutate(mutation, interner, plan, reference, mode, equality, salt + i, spec.edition);
      if (!mutant)
        continue;
      const io::LoweringDocument candidate =
          (salt + i) % 4 == 0
              ? throughJson(interner, mutant->document, mode, equality, spec.edition)
              : std::move(mutant->document);
      const checks::Report report =
          checks::check(interner, plan, candidate, test::seed::options(mode, equality));
      const bool killed = flags(report, mutant->expected);
      ++score.applied[i];
      score.killed[i] += killed;
      score.flagged[i] += !report.conforms();
      if (!killed) {
        RC_LOG() << "mutant \"" << spelling(mutation) << "\" not flagged by "
                 << spelling(mutant->expected) << "; the report says:\n"
                 << describe(report);
        std::string text;
        {
          io::Sink sink(text);
          io::writeLoweringPlan(sink, interner, candidate.plan, mode, equality,
                                candidate.audit ? &*candidate.audit : nullptr);
          sink.flush();
        }
        RC_LOG() << "the mutant (lowering-oracle check PLAN MUTANT --mode " << spelling(mode)
                 << " --equality " << spelling(equality) << "):\n"
                 << text;
      }
      RC_ASSERT(killed);
    }
  });

  std::size_t applied = 0, killed = 0;
  std::printf("\nMutation catalogue (mutants flagged with the expected check / applied):\n");
  for (std::size_t i = 0; i < vocabularySize<Mutation>(); ++i) {
    const auto m = static_cast<Mutation>(i);
    std::printf("  %-50s %6zu / %6zu  (flagged at all: %zu)\n", std::string(spelling(m)).c_str(),
                score.killed[i], score.applied[i], score.flagged[i]);
    applied += score.applied[i];
    killed += score.killed[i];
    EXPECT_GT(score.applied[i], 0U) << "mutation operator never applied: " << spelling(m);
  }
  std::printf("Mutation score: %zu / %zu = %.2f%%\n", killed, applied,
              applied ? 100.0 * static_cast<double>(killed) / static_cast<double>(applied) : 0.0);
  std::fflush(stdout);
  EXPECT_TRUE(passed) << "a mutant was not flagged with its expected check: RapidCheck's report "
                         "above names it and its seed";
}

} // namespace
} // namespace lo::prop
