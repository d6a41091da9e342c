// The seed functions of Lowering.lean on in-memory plans (docs/spec.md §1.2).
#include "support.hpp"

#include "ref/lowering.hpp"

#include <gtest/gtest.h>

namespace lo::test {
namespace {

using B = BackendOp;
using K = KindTag;

struct Fixture : ::testing::Test {
  Interner interner;
  CapsuleId relu = interner.intern(makeCapsule("reference.relu", B::relu));
  CapsuleId add = interner.intern(makeCapsule("reference.add", B::add));
  CapsuleId external = interner.intern(makeCapsule(
      "libtorch.relu", B::relu, TrustLevel::trusted_external, Provider::libtorch, Device::cuda));
};

using LoweringTest = Fixture;

TEST_F(LoweringTest, ToPlannedKernelErasesLoweringMetadata) {
  LoweredKernelGroup g{{4, 5},
                       {Interner::bareKind(K::add), Interner::bareKind(K::add)},
                       B::add,
                       add,
                       GroupingKind::sameCapsuleRun};
  const PlannedKernel k = toPlannedKernel(g);
  EXPECT_EQ(k.op, B::add);
  EXPECT_EQ(k.capsule, add);
}

TEST_F(LoweringTest, GroupHasTrustedExternalFollowsItsCapsule) {
  EXPECT_FALSE(
      hasTrustedExternal(interner, toSingletonLoweredGroup(node(1, K::relu, B::relu, relu))));
  EXPECT_TRUE(
      hasTrustedExternal(interner, toSingletonLoweredGroup(node(1, K::relu, B::relu, external))));
}

TEST_F(LoweringTest, PlanHasTrustedExternalWhenSomeGroupHasIt) {
  GraphExecutionPlan p{{node(1, K::relu, B::relu, relu), node(2, K::add, B::add, add)}};
  EXPECT_FALSE(hasTrustedExternal(interner, toSingletonLoweringPlan(p)));
  p.kernels.push_back(node(3, K::relu, B::relu, external));
  EXPECT_TRUE(hasTrustedExternal(interner, toSingletonLoweringPlan(p)));
  EXPECT_TRUE(hasTrustedExternal(interner, toCoalescedLoweringPlan(interner, p)));
  EXPECT_FALSE(hasTrustedExternal(interner, GraphLoweringPlan{}));
}

TEST_F(LoweringTest, CanAppendNeedsTheSameOpAndTheSameCapsule) {
  const LoweredKernelGroup g = toSingletonLoweredGroup(node(1, K::relu, B::relu, relu));
  for (Equality eq : {Equality::contract, Equality::identity}) {
    EXPECT_TRUE(canAppend(interner, eq, g, node(2, K::relu, B::relu, relu)));
    EXPECT_FALSE(canAppend(interner, eq, g, node(2, K::add, B::add, add)));
    EXPECT_FALSE(canAppend(interner, eq, g, node(2, K::relu, B::relu, external)));
    // Same capsule but a different op (an invalid plan, still decided by the op alone).
    EXPECT_FALSE(canAppend(interner, eq, g, node(2, K::add, B::add, relu)));
  }
}

TEST_F(LoweringTest, AppendNodeKeepsOpAndCapsuleAndExtendsProvenance) {
  LoweredKernelGroup g = toSingletonLoweredGroup(node(7, K::relu, B::relu, relu));
  EXPECT_EQ(g.groupingKind, GroupingKind::singleton);
  appendNode(g, node(9, K::relu, B::relu, relu));
  EXPECT_EQ(g.nodeIds, (std::vector<NodeId>{7, 9}));
  EXPECT_EQ(g.kinds.size(), 2u);
  EXPECT_EQ(g.kinds[1], Interner::bareKind(K::relu));
  EXPECT_EQ(g.op, B::relu);
  EXPECT_EQ(g.capsule, relu);
  EXPECT_EQ(g.groupingKind, GroupingKind::sameCapsuleRun);
  // appendNode does not look at the node's op or capsule: the group keeps its own.
  appendNode(g, node(11, K::add, B::add, add));
  EXPECT_EQ(g.nodeIds, (std::vector<NodeId>{7, 9, 11}));
  EXPECT_EQ(g.kinds[2], Interner::bareKind(K::add));
  EXPECT_EQ(g.op, B::relu);
  EXPECT_EQ(g.capsule, relu);
}

TEST_F(LoweringTest, NodeIdsConcatenatesTheGroups) {
  GraphLoweringPlan p{{LoweredKernelGroup{{3, 1}, {}, B::relu, relu, GroupingKind::sameCapsuleRun},
                       LoweredKernelGroup{{}, {}, B::add, add, GroupingKind::singleton},
                       LoweredKernelGroup{{8}, {}, B::add, add, GroupingKind::singleton}}};
  EXPECT_EQ(nodeIds(p), (std::vector<NodeId>{3, 1, 8}));
  EXPECT_TRUE(nodeIds(GraphLoweringPlan{}).empty());
}

TEST_F(LoweringTest, CapsuleNamesIsOnePerGroup) {
  GraphExecutionPlan p{{node(1, K::relu, B::relu, relu), node(2, K::relu, B::relu, relu),
                        node(3, K::add, B::add, add), node(4, K::relu, B::relu, external)}};
  EXPECT_EQ(capsuleNames(interner, toCoalescedLoweringPlan(interner, p)),
            (std::vector<std::string>{"reference.relu", "reference.add", "libtorch.relu"}));
  EXPECT_EQ(capsuleNames(interner, toSingletonLoweringPlan(p)),
            (std::vector<std::string>{"reference.relu", "reference.relu", "reference.add",
                                      "libtorch.relu"}));
}

TEST_F(LoweringTest, ToExecutionPlanIsOneRowPerGroup) {
  GraphExecutionPlan p{{node(1, K::relu, B::relu, relu), node(2, K::relu, B::relu, relu),
                        node(3, K::add, B::add, add)}};
  const ExecutionPlan e = toExecutionPlan(toCoalescedLoweringPlan(interner, p));
  ASSERT_EQ(e.kernels.size(), 2u);
  EXPECT_EQ(e.kernels[0], (PlannedKernel{B::relu, relu}));
  EXPECT_EQ(e.kernels[1], (PlannedKernel{B::add, add}));
}

TEST_F(LoweringTest, ToSingletonLoweredGroupHoldsOneNode) {
  const PlannedNodeKernel k = node(42, K::add, B::add, add);
  const LoweredKernelGroup g = toSingletonLoweredGroup(k);
  EXPECT_EQ(g.nodeIds, (std::vector<NodeId>{42}));
  EXPECT_EQ(g.kinds, (std::vector<KindId>{Interner::bareKind(K::add)}));
  EXPECT_EQ(g.op, B::add);
  EXPECT_EQ(g.capsule, add);
  EXPECT_EQ(g.groupingKind, GroupingKind::singleton);
}

TEST_F(LoweringTest, ToSingletonLoweringPlanIsOneGroupPerNode) {
  GraphExecutionPlan p{{node(1, K::relu, B::relu, relu), node(2, K::relu, B::relu, relu),
                        node(5, K::add, B::add, add)}};
  const GraphLoweringPlan s = toSingletonLoweringPlan(p);
  ASSERT_EQ(s.groups.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_EQ(s.groups[i], toSingletonLoweredGroup(p.kernels[i]));
  EXPECT_EQ(s, lower(interner, p, Mode::singleton, Equality::identity));
  EXPECT_TRUE(toSingletonLoweringPlan(GraphExecutionPlan{}).groups.empty());
}

TEST_F(LoweringTest, PushKernelAppendsOrStartsAGroup) {
  LoweringState s{interner, Equality::contract, {}};
  s.pushKernel(node(1, K::relu, B::relu, relu));
  ASSERT_EQ(s.groups.size(), 1u);
  EXPECT_EQ(s.groups[0].groupingKind, GroupingKind::singleton);
  s.pushKernel(node(2, K::relu, B::relu, relu));
  ASSERT_EQ(s.groups.size(), 1u);
  EXPECT_EQ(s.groups[0].nodeIds, (std::vector<NodeId>{1, 2}));
  EXPECT_EQ(s.groups[0].groupingKind, GroupingKind::sameCapsuleRun);
  s.pushKernel(node(3, K::add, B::add, add));
  s.pushKernel(node(4, K::relu, B::relu, relu)); // not adjacent to the first run
  ASSERT_EQ(s.groups.size(), 3u);
  EXPECT_EQ(s.groups[1].nodeIds, (std::vector<NodeId>{3}));
  EXPECT_EQ(s.groups[2].nodeIds, (std::vector<NodeId>{4}));
  EXPECT_EQ(s.groups[2].groupingKind, GroupingKind::singleton);
}

TEST_F(LoweringTest, CoalescedMergesOnlyAdjacentRuns) {
  GraphExecutionPlan p{{node(1, K::relu, B::relu, relu), node(2, K::relu, B::relu, relu),
                        node(3, K::add, B::add, add), node(4, K::add, B::add, add),
                        node(5, K::add, B::add, add), node(6, K::relu, B::relu, relu),
                        node(7, K::relu, B::relu, external)}};
  const GraphLoweringPlan c = toCoalescedLoweringPlan(interner, p);
  EXPECT_EQ(idsByGroup(c), (std::vector<std::vector<NodeId>>{{1, 2}, {3, 4, 5}, {6}, {7}}));
  EXPECT_EQ(c.groups[0].groupingKind, GroupingKind::sameCapsuleRun);
  EXPECT_EQ(c.groups[1].groupingKind, GroupingKind::sameCapsuleRun);
  EXPECT_EQ(c.groups[2].groupingKind, GroupingKind::singleton);
  EXPECT_EQ(c.groups[1].kinds.size(), 3u);
  EXPECT_EQ(c, lower(interner, p, Mode::coalesced));
  // Refinement: expanding every coalesced group gives the singleton lowering.
  GraphLoweringPlan expanded;
  for (const auto &g : c.groups)
    for (std::size_t i = 0; i < g.nodeIds.size(); ++i)
      expanded.groups.push_back(
          toSingletonLoweredGroup({g.nodeIds[i], g.kinds[i], g.op, g.capsule}));
  EXPECT_EQ(expanded, toSingletonLoweringPlan(p));
  EXPECT_EQ(nodeIds(c), nodeIds(toSingletonLoweringPlan(p)));
}

TEST_F(LoweringTest, CoalescedKeepsKindsWithTheirParameters) {
  const KindId softmax0 = interner.intern(OpKind{K::softmax, {{0}}});
  const KindId softmax1 = interner.intern(OpKind{K::softmax, {{1}}});
  ASSERT_NE(softmax0, softmax1);
  const CapsuleId sm = interner.intern(makeCapsule("reference.softmax", B::softmax));
  GraphExecutionPlan p{{{1, softmax0, B::softmax, sm}, {2, softmax1, B::softmax, sm}}};
  const GraphLoweringPlan c = toCoalescedLoweringPlan(interner, p);
  ASSERT_EQ(c.groups.size(), 1u) << "kinds do not take part in canAppend";
  EXPECT_EQ(c.groups[0].kinds, (std::vector<KindId>{softmax0, softmax1}));
}

TEST_F(LoweringTest, EmptyPlanLowersToNoGroups) {
  EXPECT_TRUE(toCoalescedLoweringPlan(interner, GraphExecutionPlan{}).groups.empty());
}

} // namespace
} // namespace lo::test
