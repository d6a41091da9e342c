// The shrinker: delta debugging over kernels, then capsule variety, against synthetic failures.
#include "ref/lowering.hpp"
#include "tools/diff/shrink.hpp"
#include "tools/suite/generate.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace lo::diff {
namespace {

bool hasNode(const GraphExecutionPlan &p, NodeId id) {
  return std::any_of(p.kernels.begin(), p.kernels.end(),
                     [&](const PlannedNodeKernel &k) { return k.nodeId == id; });
}

TEST(Shrink, DeltaDebuggingKeepsExactlyTheNodesTheFailureNeeds) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Interner in;
    suite::Case c;
    std::size_t index = suite::edgeCaseCount();
    do // a random case of at least 10 nodes
      c = suite::caseAt(in, {seed, 40}, index++);
    while (c.plan.kernels.size() < 10);
    const NodeId a = c.plan.kernels[2].nodeId, b = c.plan.kernels[c.plan.kernels.size() - 3].nodeId;
    diff::Stats stats;
    const auto fails = [&](const GraphExecutionPlan &p) { return hasNode(p, a) && hasNode(p, b); };
    const GraphExecutionPlan out = shrink(in, c.plan, fails, {}, &stats);
    ASSERT_EQ(out.kernels.size(), 2u);
    EXPECT_EQ(out.kernels[0].nodeId, a);
    EXPECT_EQ(out.kernels[1].nodeId, b);
    EXPECT_LE(stats.tests, 200u);
  }
}

// The identity trap: a failure that needs two adjacent nodes of one identity with different trust
// levels shrinks to two nodes whose capsules differ in the trust level only.
TEST(Shrink, CapsuleVarietyShrinksToATrustLevelDifference) {
  Interner in;
  const suite::Case c = suite::caseAt(in, {}, 3); // trusted-external-in-checked-run
  ASSERT_EQ(c.name, "trusted-external-in-checked-run");
  const auto hidesTrust = [&](const GraphExecutionPlan &p) {
    for (std::size_t i = 1; i < p.kernels.size(); ++i) {
      const KernelCapsule &x = in.capsule(p.kernels[i - 1].capsule);
      const KernelCapsule &y = in.capsule(p.kernels[i].capsule);
      if (sameIdentity(x, y) && isTrustedExternal(x) != isTrustedExternal(y))
        return true;
    }
    return false;
  };
  const GraphExecutionPlan out = shrink(in, c.plan, hidesTrust);
  ASSERT_EQ(out.kernels.size(), 2u);
  KernelCapsule x = in.capsule(out.kernels[0].capsule), y = in.capsule(out.kernels[1].capsule);
  EXPECT_NE(x.trustLevel, y.trustLevel);
  x.trustLevel = y.trustLevel;
  EXPECT_EQ(x, y) << "the capsules differ in their trust level only (the evidence was unified)";
  EXPECT_EQ(out.kernels[0].nodeId, 1u);
  EXPECT_EQ(out.kernels[1].nodeId, 2u);
}

TEST(Shrink, MergesCapsulesTheFailureDoesNotNeed) {
  Interner in;
  const suite::Case c = suite::caseAt(in, {}, 4); // alternating-capsules
  ASSERT_EQ(c.name, "alternating-capsules");
  const auto longEnough = [](const GraphExecutionPlan &p) { return p.kernels.size() >= 3; };
  const GraphExecutionPlan out = shrink(in, c.plan, longEnough);
  ASSERT_EQ(out.kernels.size(), 3u);
  EXPECT_EQ(toCoalescedLoweringPlan(in, out).groups.size(), 1u) << "one capsule is left";
}

TEST(Shrink, RespectsTheTestBudget) {
  Interner in;
  const suite::Case c = suite::caseAt(in, {}, 2); // long-run, 64 nodes
  diff::Stats stats;
  const GraphExecutionPlan out = shrink(
      in, c.plan, [](const GraphExecutionPlan &p) { return p.kernels.size() >= 5; }, {3}, &stats);
  EXPECT_EQ(stats.tests, 3u);
  EXPECT_GE(out.kernels.size(), 5u);
}

} // namespace
} // namespace lo::diff
