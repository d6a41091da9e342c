// A long run of one capsule lowers to one group (the linear-time claim is measured by the
// benchmark, not asserted here).
#include "support.hpp"

#include <gtest/gtest.h>

namespace lo::test {
namespace {

TEST(Scale, HundredThousandNodesOfOneCapsuleAreOneGroup) {
  constexpr std::size_t n = 100'000;
  Interner interner;
  const CapsuleId relu = interner.intern(makeCapsule("reference.relu", BackendOp::relu));
  GraphExecutionPlan plan;
  plan.kernels.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    // Every 1000th node's capsule is interned again from an equal record, as a reader does: an
    // equal record gets the same id.
    const CapsuleId id =
        i % 1000 == 0 ? interner.intern(makeCapsule("reference.relu", BackendOp::relu)) : relu;
    plan.kernels.push_back(node(i, KindTag::relu, BackendOp::relu, id));
  }
  ASSERT_EQ(plan.kernels.size(), n);
  EXPECT_EQ(interner.capsuleCount(), 1u);
  for (Equality eq : {Equality::contract, Equality::identity}) {
    const GraphLoweringPlan c = toCoalescedLoweringPlan(interner, plan, eq);
    ASSERT_EQ(c.groups.size(), 1u);
    EXPECT_EQ(c.groups[0].nodeIds.size(), n);
    EXPECT_EQ(c.groups[0].kinds.size(), n);
    EXPECT_EQ(c.groups[0].nodeIds.back(), n - 1);
    EXPECT_EQ(c.groups[0].groupingKind, GroupingKind::sameCapsuleRun);
    EXPECT_EQ(capsuleNames(interner, c), (std::vector<std::string>{"reference.relu"}));
  }
  EXPECT_EQ(toSingletonLoweringPlan(plan).groups.size(), n);
  // A second capsule at the end starts a second group.
  const CapsuleId other = interner.intern(makeCapsule("native_cuda.relu", BackendOp::relu));
  GraphExecutionPlan more = plan;
  more.kernels.push_back(node(n, KindTag::relu, BackendOp::relu, other));
  EXPECT_EQ(toCoalescedLoweringPlan(interner, more).groups.size(), 2u);
}

} // namespace
} // namespace lo::test
