// The counterexample of `coalesced.audit` under identity equality is a real plan of the edition
// proved (docs/spec.md §1.6): it reads back in that edition (and is refused in the other, whose
// claims do or do not carry a spec name), it is valid, and the C++ reference lowering of it
// (ref/lowering.cpp, not the encoding) shows the audit hiding a trusted-external boundary. This
// ties the encoding to the code it encodes. A gate counterexample carries evidence, which must be
// of the edition too.
#include "proofs/obligations.hpp"
#include "ref/acceptance.hpp"
#include "ref/io/reader.hpp"
#include "ref/io/writer.hpp"
#include "ref/lowering.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace lo::proofs {
namespace {

GraphExecutionPlan identityCounterexample(Interner &interner,
                                          Edition edition = kNewestSeedEdition) {
  const Result r = discharge(*findObligation("coalesced.audit"),
                             Options{.edition = edition,
                                     .bound = 3,
                                     .equality = Equality::identity,
                                     .timeoutMs = 60000,
                                     .sabotage = Sabotage::none},
                             &interner);
  EXPECT_EQ(r.status, Status::refuted);
  EXPECT_TRUE(r.counterexample.has_value());
  return r.counterexample.value_or(GraphExecutionPlan{});
}

/// `plan` written and read back in `edition` is the same plan; read in any other edition, it is
/// refused.
void readsBackInItsEditionOnly(const Interner &interner, const GraphExecutionPlan &plan,
                               Edition edition) {
  const std::string json = io::executionPlanJson(interner, plan);
  Interner again;
  const GraphExecutionPlan read =
      io::readExecutionPlan(io::sourceFromString("cex", json), again, edition);
  EXPECT_EQ(io::executionPlanJson(again, read), json) << spelling(edition);
  for (std::size_t i = 0; i < vocabularySize<Edition>(); ++i) {
    const auto other = static_cast<Edition>(i);
    if (!(kOldKindEditions & editionBit(other))) // 2026-08b: 2026-08's capsules (docs/spec.md §4)
      continue;
    if (other == edition)
      continue;
    Interner elsewhere;
    EXPECT_ANY_THROW(io::readExecutionPlan(io::sourceFromString("cex", json), elsewhere, other))
        << "a counterexample of " << spelling(edition) << " read in " << spelling(other);
  }
}

// `discharge` asks the short lengths in one Z3 context and a refuted one again in a context of its
// own (proofs/obligations.cpp): the counterexample does not depend on the lengths asked before it,
// and without an interner the answer and its length are the same.
TEST(Counterexample, DoesNotDependOnTheLengthsAskedBefore) {
  const Obligation &o = *findObligation("coalesced.audit");
  const Options from0{.edition = kNewestSeedEdition,
                      .bound = 3,
                      .equality = Equality::identity,
                      .timeoutMs = 60000,
                      .sabotage = Sabotage::none};
  Interner a;
  const Result first = discharge(o, from0, &a);
  ASSERT_EQ(first.status, Status::refuted);
  ASSERT_TRUE(first.counterexample.has_value());
  Options fromThere = from0;
  fromThere.minLength = first.length;
  Interner b;
  const Result again = discharge(o, fromThere, &b);
  ASSERT_TRUE(again.counterexample.has_value());
  EXPECT_EQ(io::executionPlanJson(a, *first.counterexample),
            io::executionPlanJson(b, *again.counterexample));
  const Result bare = discharge(o, from0);
  EXPECT_EQ(bare.status, Status::refuted);
  EXPECT_EQ(bare.length, first.length);
  EXPECT_FALSE(bare.counterexample.has_value());
}

TEST(Counterexample, IdentityAuditCounterexampleIsAValidPlanOfAtMostThreeNodesOfEachEdition) {
  for (std::size_t i = 0; i < vocabularySize<Edition>(); ++i) {
    const auto edition = static_cast<Edition>(i);
    if (!(kOldKindEditions & editionBit(edition))) // 2026-08b proves as 2026-08: docs/spec.md §4
      continue;
    Interner interner;
    const GraphExecutionPlan plan = identityCounterexample(interner, edition);
    ASSERT_GE(plan.kernels.size(), 1u) << spelling(edition);
    EXPECT_LE(plan.kernels.size(), 3u);
    std::set<NodeId> ids;
    for (const auto &k : plan.kernels) {
      EXPECT_TRUE(ids.insert(k.nodeId).second) << "duplicate node id " << k.nodeId;
      EXPECT_LT(k.nodeId, kNodeIdLimit);
      EXPECT_EQ(opOf(interner.kind(k.kind)), k.op);
      EXPECT_EQ(interner.capsule(k.capsule).op, k.op);
    }
    readsBackInItsEditionOnly(interner, plan, edition);
  }
}

// A sabotaged canAppend (capsules not compared) breaks `coalesced.gate`: a group hides its second
// node's reports. The counterexample's evidence follows the model, in the edition's dispositions.
TEST(Counterexample, GateCounterexampleHasEvidenceOfTheEditionProved) {
  for (std::size_t i = 0; i < vocabularySize<Edition>(); ++i) {
    const auto edition = static_cast<Edition>(i);
    if (!(kOldKindEditions & editionBit(edition))) // 2026-08b proves as 2026-08: docs/spec.md §4
      continue;
    Interner interner;
    const Result r = discharge(*findObligation("coalesced.gate"),
                               Options{.edition = edition,
                                       .bound = 2,
                                       .equality = Equality::contract,
                                       .timeoutMs = 60000,
                                       .sabotage = Sabotage::canAppendIgnoresCapsule},
                               &interner);
    ASSERT_EQ(r.status, Status::refuted) << spelling(edition);
    ASSERT_TRUE(r.counterexample.has_value());
    for (const auto &k : r.counterexample->kernels) {
      const KernelCapsule &c = interner.capsule(k.capsule);
      for (const ContractDescriptor *d :
           {&c.shapeContract, &c.layoutContract, &c.valueContract, &c.vjpContract})
        EXPECT_TRUE(inEdition(d->evidence.tag, edition))
            << spelling(d->evidence.tag) << " in a counterexample of " << spelling(edition);
    }
    readsBackInItsEditionOnly(interner, *r.counterexample, edition);
  }
}

TEST(Counterexample, TheReferenceLoweringHidesATrustedExternalBoundaryOnIt) {
  Interner interner;
  const GraphExecutionPlan plan = identityCounterexample(interner);
  const GraphLoweringPlan identity = toCoalescedLoweringPlan(interner, plan, Equality::identity);
  const GraphLoweringPlan singleton = toSingletonLoweringPlan(plan);
  // identity merges nodes that contract equality keeps apart
  EXPECT_LT(identity.groups.size(), singleton.groups.size());
  EXPECT_EQ(toCoalescedLoweringPlan(interner, plan, Equality::contract), singleton);
  // and the audit shows fewer trusted-external boundaries than the singleton lowering
  const ExecutionAudit a = audit(interner, identity), s = audit(interner, singleton);
  auto teOps = [&](const ExecutionAudit &x) {
    const auto v = trustedExternalOps(interner, x);
    return std::set<BackendOp>(v.begin(), v.end());
  };
  EXPECT_TRUE(hasTrustedExternal(interner, s));
  EXPECT_TRUE(hasTrustedExternal(interner, a) != hasTrustedExternal(interner, s) ||
              teOps(a) != teOps(s));
}

// In the lineage (docs/spec.md §6.10) the counterexample of `coalesced.acceptance` under identity
// is a tidy plan of the edition (each capsule for its kernel's op, its claims aligned), it reads
// back in the edition, and on it ref/acceptance.cpp's gate of the identity lowering's groups
// differs from acceptGraphKernelPlan's (the groups under contract equality) under some policy.
TEST(Counterexample, AcceptanceCounterexampleChangesUpstreamsVerdictOrFailures) {
  Interner interner;
  const Result r = discharge(*findObligation("coalesced.acceptance"),
                             Options{.edition = kNewestEdition,
                                     .bound = 3,
                                     .equality = Equality::identity,
                                     .timeoutMs = 60000,
                                     .sabotage = Sabotage::none},
                             &interner);
  ASSERT_EQ(r.status, Status::refuted);
  ASSERT_TRUE(r.counterexample.has_value());
  const GraphExecutionPlan &plan = *r.counterexample;
  EXPECT_EQ(plan.kernels.size(), 2u);
  for (const auto &k : plan.kernels) {
    const KernelCapsule &c = interner.capsule(k.capsule);
    EXPECT_EQ(c.op, k.op);
    EXPECT_TRUE(acceptance::contractsAligned(c));
    EXPECT_TRUE(c.notes.empty());
  }
  const std::string json = io::executionPlanJson(interner, plan, kNewestEdition);
  Interner again;
  const GraphExecutionPlan read =
      io::readExecutionPlan(io::sourceFromString("cex", json), again, kNewestEdition);
  EXPECT_EQ(io::executionPlanJson(again, read, kNewestEdition), json);
  const GraphLoweringPlan identity = toCoalescedLoweringPlan(interner, plan, Equality::identity);
  bool differs = false;
  for (Device device : valuesOf<Device>(kNewestEdition))
    for (bool external : {false, true})
      for (VJPMode vjp : valuesOf<VJPMode>(kNewestEdition)) {
        acceptance::KernelPolicy policy = acceptance::checkedCpuPolicy();
        policy.device = device;
        policy.assurance.allowTrustedExternal = external;
        policy.vjpMode = vjp;
        const auto merged = acceptance::acceptGroups(interner, identity, policy);
        const auto upstream = acceptance::acceptGraphKernelPlan(interner, plan, policy);
        differs = differs || merged.failures != upstream.failures;
      }
  EXPECT_TRUE(differs) << json;
}

TEST(Counterexample, NoCounterexampleWhenProved) {
  Interner interner;
  const Result r = discharge(*findObligation("coalesced.audit"),
                             Options{.bound = 2,
                                     .equality = Equality::contract,
                                     .timeoutMs = 60000,
                                     .sabotage = Sabotage::none},
                             &interner);
  EXPECT_EQ(r.status, Status::proved);
  EXPECT_FALSE(r.counterexample.has_value());
}

} // namespace
} // namespace lo::proofs
