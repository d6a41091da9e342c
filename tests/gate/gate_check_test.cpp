// The `gate` check (docs/spec.md §6.8): mutants whose mistake another check names,
// but whose severity (what it does to a deployment decision) only the gate tells; the wording of
// its finding; identity; the stream form; and that it never fires on a conforming lowering.
#include "tests/checks/fixtures.hpp"
#include "tests/seed.hpp"

#include "ref/gate.hpp"

#include <gtest/gtest.h>

namespace lo::checks::testing {
namespace {

using E = ContractEvidence::Tag;

/// Capsules of one identity (native_cuda.relu) that differ only in evidence, and another op.
struct Evidence {
  Interner in;
  CapsuleId guarded, vendor, fuzzed, proved, missing, tanh;
  KindId relu = Interner::bareKind(KindTag::relu), tanhKind = Interner::bareKind(KindTag::tanh);

  static KernelCapsule withEvidence(KernelCapsule c, E tag, const char *text) {
    for (auto *d : {&c.shapeContract, &c.layoutContract, &c.valueContract, &c.vjpContract})
      d->evidence = {tag, text};
    return c;
  }

  Evidence() {
    const KernelCapsule base =
        withEvidence(sampleCapsule("native_cuda.relu", BackendOp::relu, TrustLevel::checked,
                                   Provider::native_cuda, Device::cuda),
                     E::runtimeGuard, "CUDA FFI checks");
    guarded = in.intern(base);
    KernelCapsule v = base;
    v.valueContract.evidence = {E::trustedBoundary, "vendor kernel"};
    vendor = in.intern(v);
    KernelCapsule f = base;
    f.valueContract.evidence = {E::fuzzOracle, "fuzz oracle"};
    fuzzed = in.intern(f);
    proved = in.intern(withEvidence(base, E::theorem, "True.intro"));
    KernelCapsule m = base;
    m.vjpContract.evidence = {E::notProvided, ""};
    missing = in.intern(m);
    tanh = in.intern(
        withEvidence(sampleCapsule("reference.tanh", BackendOp::tanh), E::theorem, "Spec.tanh"));
  }

  PlannedNodeKernel node(NodeId id, CapsuleId c) const { return {id, relu, BackendOp::relu, c}; }
};

Report checkDoc(Interner &in, const GraphExecutionPlan &plan, const io::LoweringDocument &d,
                Options o = lo::test::seed::options()) {
  const Report whole = check(in, plan, d, o);
  // check --stream gives the same report on a candidate that lists the plan's ids in order.
  if (nodeIds(d.plan) == nodeIds(toSingletonLoweringPlan(plan))) {
    const Report stream = checkStream(in, plan, d, o);
    EXPECT_EQ(stream.violations, whole.violations) << describe(whole) << "---\n"
                                                   << describe(stream);
    EXPECT_EQ(stream.notes, whole.notes);
  }
  return whole;
}

const Violation *gateFinding(const Report &r) {
  for (const auto &v : r.violations)
    if (v.check == Check::gate)
      return &v;
  return nullptr;
}

/// `check` of the singleton lowering of `plan` (contract equality) in which group `group` claims
/// `capsule` instead of its node's.
Report singletonClaiming(Evidence &e, const GraphExecutionPlan &plan, std::size_t group,
                         CapsuleId capsule) {
  io::LoweringDocument d =
      referenceDocument(e.in, plan, Mode::singleton, Equality::contract, false);
  d.plan.groups[group].capsule = capsule;
  return checkDoc(e.in, plan, d, lo::test::seed::options(Mode::singleton, Equality::contract, 20));
}

TEST(GateCheck, MergedEvidenceTwinsFlipCheckedToAccepted) {
  Evidence e;
  GraphExecutionPlan plan{{e.node(1, e.guarded), e.node(2, e.guarded), e.node(3, e.vendor)}};
  io::LoweringDocument d =
      referenceDocument(e.in, plan, Mode::coalesced, Equality::contract, false);
  ASSERT_EQ(d.plan.groups.size(), 2u);
  // An implementation that coalesces by identity: [1, 2, 3] under native_cuda.relu (guarded).
  d.plan = toCoalescedLoweringPlan(e.in, plan, Equality::identity);
  const Report r = checkDoc(e.in, plan, d);
  EXPECT_EQ(checksOf(r), (std::set<Check>{Check::capsule, Check::gate})) << describe(r);
  const Violation *v = gateFinding(r);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->message, "under policy checked the candidate is accepted, but the plan is "
                        "rejected: trustedBoundary evidence of node 3's value contract "
                        "(native_cuda.relu) is lost in group 0 (failure trustedBoundary); the "
                        "gate also differs under policy verified");
  EXPECT_EQ(v->group, std::optional<std::size_t>{0});
  EXPECT_EQ(v->nodeId, std::optional<NodeId>{3});
  EXPECT_EQ(v->pointer, "/groups/0");
}

TEST(GateCheck, AProvedTwinHidesFuzzEvidenceFromTheStrictGate) {
  Evidence e;
  GraphExecutionPlan plan{{e.node(1, e.proved), e.node(2, e.fuzzed)}};
  // The fuzzed node's group claims the proved capsule.
  const Report r = singletonClaiming(e, plan, 1, e.proved);
  EXPECT_EQ(checksOf(r), (std::set<Check>{Check::capsule, Check::gate})) << describe(r);
  const Violation *v = gateFinding(r);
  ASSERT_NE(v, nullptr);
  // verified: the plan is rejected (guards and fuzzing), the candidate accepted: the worst.
  EXPECT_EQ(v->message.rfind("under policy verified the candidate is accepted, but the plan is "
                             "rejected: runtimeGuard evidence of node 2's shape contract",
                             0),
            0u)
      << v->message;
  EXPECT_EQ(v->nodeId, std::optional<NodeId>{2});
  EXPECT_EQ(v->group, std::optional<std::size_t>{1});
}

TEST(GateCheck, AddedMissingEvidenceRejectsWhatThePlanAccepts) {
  Evidence e;
  GraphExecutionPlan plan{{e.node(1, e.guarded), {2, e.tanhKind, BackendOp::tanh, e.tanh}}};
  io::LoweringDocument d =
      referenceDocument(e.in, plan, Mode::coalesced, Equality::contract, false);
  d.plan.groups[0].capsule = e.missing;
  const Report r = checkDoc(e.in, plan, d);
  const Violation *v = gateFinding(r);
  ASSERT_NE(v, nullptr) << describe(r);
  EXPECT_EQ(v->message, "under policy checked the candidate is rejected, but the plan is "
                        "accepted: group 0 adds notProvided evidence to its vjp contract "
                        "(native_cuda.relu) that no node of the plan has (failure "
                        "missingEvidence); the gate also differs under policy verified, "
                        "external");
  EXPECT_EQ(v->group, std::optional<std::size_t>{0});
}

TEST(GateCheck, ADroppedNodeTakesItsBoundaryWithIt) {
  Evidence e;
  GraphExecutionPlan plan{{e.node(1, e.guarded), e.node(2, e.vendor)}};
  io::LoweringDocument d =
      referenceDocument(e.in, plan, Mode::coalesced, Equality::contract, false);
  d.plan.groups.pop_back();
  const Report r = checkDoc(e.in, plan, d);
  EXPECT_EQ(checksOf(r), (std::set<Check>{Check::provenance, Check::gate})) << describe(r);
  const Violation *v = gateFinding(r);
  ASSERT_NE(v, nullptr);
  EXPECT_NE(v->message.find("node 2's value contract (native_cuda.relu) is lost: node 2 is in no "
                            "group"),
            std::string::npos)
      << v->message;
  EXPECT_EQ(v->pointer, "/groups");
}

TEST(GateCheck, SameVerdictOtherReasons) {
  Evidence e;
  // verified rejects both: the plan for guards and the fuzzed value, the candidate for guards.
  GraphExecutionPlan plan{{e.node(1, e.guarded), e.node(2, e.fuzzed)}};
  const Report r = singletonClaiming(e, plan, 1, e.guarded);
  const Violation *v = gateFinding(r);
  ASSERT_NE(v, nullptr) << describe(r);
  EXPECT_EQ(v->message, "under policy verified the candidate and the plan are both rejected, but "
                        "for different reasons: fuzzOracle evidence of node 2's value contract "
                        "(native_cuda.relu) is lost in group 1 (failure fuzzEvidence)");
}

TEST(GateCheck, RenamedEvidenceIsSaidRenamedWithBothTexts) {
  Evidence e;
  KernelCapsule other = e.in.capsule(e.fuzzed);
  other.valueContract.evidence = {E::fuzzOracle, "another oracle"};
  const CapsuleId renamed = e.in.intern(other);
  GraphExecutionPlan plan{{e.node(1, e.guarded), e.node(2, e.fuzzed)}};
  // The fuzz oracle renamed in the group of node 2.
  const Report r = singletonClaiming(e, plan, 1, renamed);
  const Violation *v = gateFinding(r);
  ASSERT_NE(v, nullptr) << describe(r);
  EXPECT_EQ(v->message, "under policy verified the candidate and the plan are both rejected, but "
                        "for different reasons: fuzzOracle evidence of node 2's value contract "
                        "(native_cuda.relu) is lost in group 1, renamed: the candidate's "
                        "native_cuda.relu value contract has fuzzOracle evidence \"another "
                        "oracle\", node 2's \"fuzz oracle\" (failure fuzzEvidence)");
  EXPECT_EQ(v->nodeId, std::optional<NodeId>{2});
  EXPECT_EQ(v->group, std::optional<std::size_t>{1});
}

TEST(GateCheck, IdentityLoweringIsANoteUnderIdentityAndAFindingUnderContract) {
  Evidence e;
  GraphExecutionPlan plan{{e.node(1, e.guarded), e.node(2, e.vendor)}};
  const io::LoweringDocument d =
      referenceDocument(e.in, plan, Mode::coalesced, Equality::identity, true);
  const Report underIdentity =
      checkDoc(e.in, plan, d, lo::test::seed::options(Mode::coalesced, Equality::identity, 20));
  EXPECT_TRUE(underIdentity.conforms()) << describe(underIdentity);
  bool noted = false;
  for (const auto &n : underIdentity.notes)
    noted = noted || n.find("under equality identity the candidate's gate differs from the plan's "
                            "singleton gate, as the identity lowering's does: under policy checked "
                            "the candidate is accepted, but the plan is rejected") == 0;
  EXPECT_TRUE(noted) << describe(underIdentity);
  const Report underContract =
      checkDoc(e.in, plan, d, lo::test::seed::options(Mode::coalesced, Equality::contract, 20));
  EXPECT_NE(gateFinding(underContract), nullptr) << describe(underContract);
}

TEST(GateCheck, AnIdentityCandidateWithAWrongCapsuleIsStillAFinding) {
  Evidence e;
  GraphExecutionPlan plan{{e.node(1, e.guarded), e.node(2, e.vendor), e.node(3, e.fuzzed)}};
  io::LoweringDocument d =
      referenceDocument(e.in, plan, Mode::coalesced, Equality::identity, false);
  ASSERT_EQ(d.plan.groups.size(), 1u);
  d.plan.groups[0].capsule = e.proved; // not the first member's capsule
  const Report r =
      checkDoc(e.in, plan, d, lo::test::seed::options(Mode::coalesced, Equality::identity, 20));
  EXPECT_TRUE(checksOf(r).count(Check::capsule)) << describe(r);
  EXPECT_NE(gateFinding(r), nullptr) << describe(r);
}

TEST(GateCheck, CappedAtZeroItIsCounted) {
  Evidence e;
  GraphExecutionPlan plan{{e.node(1, e.guarded), e.node(2, e.vendor)}};
  io::LoweringDocument d =
      referenceDocument(e.in, plan, Mode::coalesced, Equality::contract, false);
  d.plan = toCoalescedLoweringPlan(e.in, plan, Equality::identity);
  const Report r =
      check(e.in, plan, d, lo::test::seed::options(Mode::coalesced, Equality::contract, 0));
  EXPECT_TRUE(r.violations.empty());
  EXPECT_TRUE(checksOf(r).count(Check::gate));
}

TEST(GateCheck, NeverOnTheReferenceOutput) {
  Evidence e;
  const CapsuleId pool[] = {e.guarded, e.vendor, e.fuzzed, e.proved, e.missing};
  std::mt19937_64 rng(7);
  for (int round = 0; round < 300; ++round) {
    GraphExecutionPlan plan;
    const std::size_t n = 1 + rng() % 7;
    for (std::size_t i = 0; i < n; ++i)
      plan.kernels.push_back(rng() % 5 == 0
                                 ? PlannedNodeKernel{NodeId{i}, e.tanhKind, BackendOp::tanh, e.tanh}
                                 : e.node(NodeId{i}, pool[rng() % std::size(pool)]));
    for (Mode mode : {Mode::singleton, Mode::coalesced})
      for (Equality eq : {Equality::contract, Equality::identity}) {
        const auto d = referenceDocument(e.in, plan, mode, eq, rng() % 2);
        const Report r = checkDoc(e.in, plan, d, lo::test::seed::options(mode, eq, 20));
        ASSERT_TRUE(r.conforms()) << describe(r);
      }
  }
}

TEST(GateCheck, ExplainExample) {
  Interner in;
  const Example ex = example(in, Check::gate);
  EXPECT_EQ(ex.alongside, std::optional<Check>{Check::capsule});
  const Report r = check(in, ex.plan, ex.candidate, ex.options);
  const Violation *v = gateFinding(r);
  ASSERT_NE(v, nullptr) << describe(r);
  EXPECT_EQ(v->message.rfind("under policy checked the candidate is accepted, but the plan is "
                             "rejected: trustedBoundary evidence of node 2's value contract",
                             0),
            0u)
      << v->message;
}

} // namespace
} // namespace lo::checks::testing
