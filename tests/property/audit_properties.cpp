// The audit of a lowering (docs/spec.md §1.4): one row per group, consistency with the singleton
// audit and preservation of trusted-external boundaries under equality `contract`, and the
// expected finding under equality `identity`: its audit can hide a trusted-external boundary.
#include "ref/io/reader.hpp"
#include "tests/property/generators.hpp"
#include "tests/property/support.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <iostream>
#include <optional>

namespace lo::prop {
namespace {

// The audit (docs/spec.md §1.4): one KernelAudit row per group, its op the group's and the rest
// its capsule's, and the views
// `capsuleNames`, `trustLevels`, `trustedExternalOps`, `hasTrustedExternal`.
RC_GTEST_PROP(Audit, OneRowPerGroupFromItsOpAndCapsule, ()) {
  const PlanSpec spec = *genPlan();
  const Mode mode = *genMode();
  const Equality equality = *genEquality();
  Interner interner;
  const GraphLoweringPlan l = lower(interner, buildPlan(spec, interner), mode, equality);
  const AuditDocument doc = toDocument(interner, audit(interner, l));
  RC_ASSERT(doc.audit.kernels.size() == l.groups.size());
  std::vector<BackendOp> trustedOps;
  for (std::size_t i = 0; i < l.groups.size(); ++i) {
    const KernelCapsule &row = interner.capsule(doc.audit.kernels[i].view);
    const KernelCapsule &c = interner.capsule(l.groups[i].capsule);
    RC_ASSERT(row.op == l.groups[i].op);
    RC_ASSERT(row.name == c.name);
    RC_ASSERT(row.provider == c.provider);
    RC_ASSERT(row.device == c.device);
    RC_ASSERT(row.trustLevel == c.trustLevel);
    RC_ASSERT(row.vjpMode == c.vjpMode);
    RC_ASSERT(row.shapeContract == c.shapeContract);
    RC_ASSERT(row.layoutContract == c.layoutContract);
    RC_ASSERT(row.valueContract == c.valueContract);
    RC_ASSERT(row.vjpContract == c.vjpContract);
    RC_ASSERT(row.numericalPolicy == c.numericalPolicy);
    RC_ASSERT(doc.trustLevels[i] == c.trustLevel);
    if (c.trustLevel == TrustLevel::trusted_external)
      trustedOps.push_back(l.groups[i].op);
  }
  RC_ASSERT(doc.capsuleNames == capsuleNames(interner, l));
  RC_ASSERT(doc.trustedExternalOps == trustedOps);
  RC_ASSERT(doc.hasTrustedExternal == !trustedOps.empty());
  RC_ASSERT(doc.hasTrustedExternal == hasTrustedExternal(interner, l));
}

/// Whether some node whose singleton audit row is trusted-external lies in a group whose row is
/// not: the lowering's audit hides that boundary.
bool hidesABoundary(Interner &interner, const GraphExecutionPlan &plan,
                    const GraphLoweringPlan &l) {
  const ExecutionAudit rows = audit(interner, l);
  const ExecutionAudit singleton = audit(interner, toSingletonLoweringPlan(plan));
  std::size_t at = 0;
  for (std::size_t i = 0; i < l.groups.size(); ++i)
    for (std::size_t j = 0; j < l.groups[i].nodeIds.size(); ++j, ++at)
      if (isTrustedExternal(interner, singleton.kernels[at]) &&
          !isTrustedExternal(interner, rows.kernels[i]))
        return true;
  return false;
}

// Audit consistency under `contract`: each group's row is the singleton row of every one of its
// nodes, so no trusted-external boundary is hidden and `hasTrustedExternal` is preserved.
RC_GTEST_PROP(Audit, ContractRowsAreTheSingletonRowsOfEveryMember, ()) {
  const PlanSpec spec = *genPlan();
  Interner interner;
  const GraphExecutionPlan plan = buildPlan(spec, interner);
  const GraphLoweringPlan l = toCoalescedLoweringPlan(interner, plan, Equality::contract);
  const ExecutionAudit rows = audit(interner, l);
  const ExecutionAudit singleton = audit(interner, toSingletonLoweringPlan(plan));
  std::size_t at = 0;
  for (std::size_t i = 0; i < l.groups.size(); ++i)
    for (std::size_t j = 0; j < l.groups[i].nodeIds.size(); ++j, ++at)
      RC_ASSERT(rows.kernels[i] == singleton.kernels[at]);
  RC_ASSERT(!hidesABoundary(interner, plan, l));
}

RC_GTEST_PROP(Audit, ContractPreservesHasTrustedExternal, ()) {
  const PlanSpec spec = *genPlan();
  const Mode mode = *genMode();
  Interner interner;
  const GraphExecutionPlan plan = buildPlan(spec, interner);
  const GraphLoweringPlan l = lower(interner, plan, mode, Equality::contract);
  const bool expected =
      hasTrustedExternal(interner, audit(interner, toSingletonLoweringPlan(plan)));
  RC_ASSERT(hasTrustedExternal(interner, audit(interner, l)) == expected);
  RC_ASSERT(hasTrustedExternal(interner, l) == expected);
  RC_CLASSIFY(expected, "crosses a trusted-external boundary");
}

// The expected finding (docs/spec.md §1.3): identity can merge capsules of different trust level or
// evidence, and its audit then hides a boundary. The property "the identity audit still says the
// plan crosses a trusted-external boundary" must be falsified; the test fails if RapidCheck cannot
// find such a plan. The shrunk plan is printed and checked once more, read from its JSON text.
// About one plan in 70 has one (found after 49 to 173 plans over 8 seeds), so it searches up to
// 1,000 plans (or `max_success`, if larger: the README's test command runs 200 cases a property,
// tests/property/main.cpp) and stops at the first, as Gate.IdentityLoweringFlipsSomeVerdict does.
TEST(Audit, IdentityAuditHidesATrustedExternalBoundary) {
  static std::optional<PlanSpec> lastFailure;
  static std::size_t passedBeforeFailure;
  lastFailure.reset();
  passedBeforeFailure = 0;
  std::cerr << "Expected: RapidCheck falsifies the property below (the finding of this test).\n";
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess = std::max(params.maxSuccess, 1000);
  const auto result = rc::detail::checkTestable(
      [] {
        const PlanSpec spec = *genPlan();
        Interner interner;
        const GraphExecutionPlan plan = buildPlan(spec, interner);
        const GraphLoweringPlan l = toCoalescedLoweringPlan(interner, plan, Equality::identity);
        const bool shown = hasTrustedExternal(interner, audit(interner, l));
        const bool singleton =
            hasTrustedExternal(interner, audit(interner, toSingletonLoweringPlan(plan)));
        if (singleton && !shown)
          lastFailure = spec; // shrinking ends on the last failing case
        else if (!lastFailure)
          ++passedBeforeFailure;
        RC_ASSERT(shown == singleton);
      },
      rc::detail::TestMetadata{}, params);
  ASSERT_TRUE(result.is<rc::detail::FailureResult>())
      << "expected a plan whose identity audit hides a trusted-external boundary; none found";
  ASSERT_TRUE(lastFailure.has_value());
  std::cout << "Expected finding after " << passedBeforeFailure
            << " plans: under --equality identity the audit hides a trusted-external boundary.\n"
            << "Shrunk plan (lowering-oracle lower PLAN --equality identity --audit):\n"
            << planJson(*lastFailure) << std::flush;

  Interner interner;
  const GraphExecutionPlan plan = readPlan(*lastFailure, interner);
  const auto identity = toCoalescedLoweringPlan(interner, plan, Equality::identity);
  const auto contract = toCoalescedLoweringPlan(interner, plan, Equality::contract);
  EXPECT_TRUE(hasTrustedExternal(interner, audit(interner, toSingletonLoweringPlan(plan))));
  EXPECT_FALSE(hasTrustedExternal(interner, audit(interner, identity)));
  EXPECT_TRUE(hidesABoundary(interner, plan, identity));
  EXPECT_TRUE(hasTrustedExternal(interner, audit(interner, contract)));
  EXPECT_FALSE(hidesABoundary(interner, plan, contract));
}

} // namespace
} // namespace lo::prop
