// The two capsule equalities of docs/spec.md §1.3: `contract` (every field) and `identity` (name,
// op, provider, device).
#include "support.hpp"

#include <gtest/gtest.h>

namespace lo::test {
namespace {

using B = BackendOp;
using K = KindTag;

TEST(EqualityTest, SameIdentityLooksAtNameOpProviderDeviceOnly) {
  const KernelCapsule a = makeCapsule("native_cuda.relu", B::relu, TrustLevel::checked,
                                      Provider::native_cuda, Device::cuda);
  KernelCapsule b = a;
  b.trustLevel = TrustLevel::trusted_external;
  b.vjpMode = VJPMode::none;
  b.supportsForward = false;
  b.valueContract.evidence = {ContractEvidence::Tag::trustedBoundary, "vendor kernel"};
  b.numericalPolicy.rounding = Rounding::nearest_even;
  b.notes = "different";
  EXPECT_TRUE(sameIdentity(a, b));
  EXPECT_NE(a, b);
  for (auto change : std::vector<std::function<void(KernelCapsule &)>>{
           [](KernelCapsule &c) { c.name = "native_cuda.relu2"; },
           [](KernelCapsule &c) { c.op = B::gelu; },
           [](KernelCapsule &c) { c.provider = Provider::libtorch; },
           [](KernelCapsule &c) { c.device = Device::cpu; }}) {
    KernelCapsule c = a;
    change(c);
    EXPECT_FALSE(sameIdentity(a, c));
  }
}

/// `c` with its value contract's first provenance item given `buildTarget`.
void setFirstBuildTarget(KernelCapsule &c, const char *buildTarget) {
  ContractProvenance p = c.valueContract.provenance.front();
  p.buildTarget = buildTarget;
  c.valueContract.provenance.set(0, p);
}

TEST(EqualityTest, ContractEqualityIsEveryField) {
  const KernelCapsule a = makeCapsule("reference.relu", B::relu);
  std::vector<std::function<void(KernelCapsule &)>> changes = {
      [](KernelCapsule &c) { c.trustLevel = TrustLevel::verified; },
      [](KernelCapsule &c) { c.supportsForward = false; },
      [](KernelCapsule &c) { c.vjpMode = VJPMode::backend_vjp; },
      [](KernelCapsule &c) { c.shapeContract.summary += "."; },
      [](KernelCapsule &c) { c.layoutContract.claim.layout = TensorLayout::flat_row_major; },
      [](KernelCapsule &c) { c.valueContract.claim.spec = "Spec.other"; },
      [](KernelCapsule &c) { c.vjpContract.claim.mode = VJPMode::none; },
      [](KernelCapsule &c) { c.valueContract.evidence.text = "other suite"; },
      [](KernelCapsule &c) { c.valueContract.provenance.clear(); },
      [](KernelCapsule &c) { setFirstBuildTarget(c, "t"); },
      // An absent buildTarget is not "": the field is optional and has no default
      // (docs/conformance.md, "Pitfalls of common JSON readers").
      [](KernelCapsule &c) { setFirstBuildTarget(c, ""); },
      [](KernelCapsule &c) { c.numericalPolicy.subnormals = Subnormals::flush_to_zero; },
      [](KernelCapsule &c) { c.numericalPolicy.contraction = Contraction::fused; },
      [](KernelCapsule &c) { c.numericalPolicy.reduction = Reduction::fixed_tree; },
      [](KernelCapsule &c) { c.notes.clear(); }};
  Interner interner;
  const CapsuleId ida = interner.intern(a);
  EXPECT_EQ(interner.intern(a), ida) << "interning is idempotent";
  for (std::size_t i = 0; i < changes.size(); ++i) {
    KernelCapsule c = a;
    changes[i](c);
    EXPECT_NE(a, c) << "change " << i;
    EXPECT_TRUE(sameIdentity(a, c)) << "change " << i;
    const CapsuleId idc = interner.intern(c);
    EXPECT_NE(idc, ida) << "change " << i;
    EXPECT_FALSE(interner.same(Equality::contract, ida, idc)) << "change " << i;
    EXPECT_TRUE(interner.same(Equality::identity, ida, idc)) << "change " << i;
    EXPECT_EQ(interner.identity(idc), interner.identity(ida)) << "change " << i;
  }
}

struct TrustTrap : ::testing::Test {
  Interner interner;
  // Same identity (name, op, provider, device), different trust level.
  CapsuleId checked = interner.intern(makeCapsule("native_cuda.relu", B::relu, TrustLevel::checked,
                                                  Provider::native_cuda, Device::cuda));
  CapsuleId trusted =
      interner.intern(makeCapsule("native_cuda.relu", B::relu, TrustLevel::trusted_external,
                                  Provider::native_cuda, Device::cuda));
  GraphExecutionPlan plan{{node(1, K::relu, B::relu, checked), node(2, K::relu, B::relu, trusted)}};
};

TEST_F(TrustTrap, KeptApartUnderContract) {
  const GraphLoweringPlan c = toCoalescedLoweringPlan(interner, plan, Equality::contract);
  EXPECT_EQ(idsByGroup(c), (std::vector<std::vector<NodeId>>{{1}, {2}}));
  EXPECT_EQ(c, toSingletonLoweringPlan(plan));
  EXPECT_TRUE(hasTrustedExternal(interner, c));
  Interner &in = interner;
  EXPECT_EQ(trustLevels(in, audit(in, c)),
            (std::vector<TrustLevel>{TrustLevel::checked, TrustLevel::trusted_external}));
}

TEST_F(TrustTrap, MergedUnderIdentityKeepingTheFirstNodesCapsule) {
  const GraphLoweringPlan c = toCoalescedLoweringPlan(interner, plan, Equality::identity);
  ASSERT_EQ(c.groups.size(), 1u);
  EXPECT_EQ(c.groups[0].nodeIds, (std::vector<NodeId>{1, 2}));
  EXPECT_EQ(c.groups[0].capsule, checked);
  EXPECT_EQ(c.groups[0].groupingKind, GroupingKind::sameCapsuleRun);
  // The identity lowering hides the trusted-external boundary the singleton lowering shows.
  EXPECT_FALSE(hasTrustedExternal(interner, c));
  EXPECT_TRUE(hasTrustedExternal(interner, toSingletonLoweringPlan(plan)));
  EXPECT_TRUE(trustedExternalOps(interner, audit(interner, c)).empty());
}

TEST_F(TrustTrap, FirstCapsuleWinsInTheOtherOrderToo) {
  std::swap(plan.kernels[0].capsule, plan.kernels[1].capsule);
  const GraphLoweringPlan c = toCoalescedLoweringPlan(interner, plan, Equality::identity);
  ASSERT_EQ(c.groups.size(), 1u);
  EXPECT_EQ(c.groups[0].capsule, trusted);
  EXPECT_TRUE(hasTrustedExternal(interner, c));
}

TEST_F(TrustTrap, IdentityAloneIsNotEnoughWithoutTheSameOp) {
  // Two capsules of one identity can only share an op, so a different op never merges; check
  // with an add node placed between two relu nodes: three groups under both equalities.
  const CapsuleId add = interner.intern(makeCapsule("reference.add", B::add));
  plan.kernels.insert(plan.kernels.begin() + 1, node(3, K::add, B::add, add));
  for (Equality eq : {Equality::contract, Equality::identity})
    EXPECT_EQ(toCoalescedLoweringPlan(interner, plan, eq).groups.size(), 3u);
}

} // namespace
} // namespace lo::test
