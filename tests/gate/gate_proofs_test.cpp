// The gate's obligations (docs/spec.md §5.4): proved under contract for every policy at
// once, refuted under identity with a counterexample of at most 3 nodes whose `checked` verdict
// flips, and blind to the trust level (the gate reads evidence only).
#include "proofs/obligations.hpp"
#include "ref/gate.hpp"

#include <gtest/gtest.h>

namespace lo::proofs {
namespace {

constexpr unsigned kTimeoutMs = 60000;
// The evidence gate's editions: the newest of the seed's capsule (docs/spec.md §5.5).
constexpr Edition kEdition = kNewestSeedEdition;

const Obligation &named(std::string_view name) {
  const Obligation *o = findObligation(name);
  EXPECT_NE(o, nullptr) << name;
  return *o;
}

TEST(GateProofs, ProvedUnderContract) {
  for (std::string_view name : {"singleton.gate", "coalesced.gate", "step.gate"}) {
    const Result r =
        discharge(named(name), Options{.edition = kEdition, .bound = 4, .timeoutMs = kTimeoutMs});
    EXPECT_EQ(r.status, Status::proved) << name << ": " << r.reason;
  }
}

TEST(GateProofs, CoalescedGateIsRefutedUnderIdentityByACheckedFlip) {
  Interner in;
  const Result r = discharge(
      named("coalesced.gate"),
      Options{
          .edition = kEdition, .bound = 4, .equality = Equality::identity, .timeoutMs = kTimeoutMs},
      &in);
  ASSERT_EQ(r.status, Status::refuted);
  ASSERT_TRUE(r.counterexample);
  const GraphExecutionPlan &plan = *r.counterexample;
  EXPECT_LE(plan.kernels.size(), 3u);
  // The counterexample is a plan the reference gates differently: policy checked rejects its
  // singleton lowering and accepts its identity lowering.
  const AssurancePolicy checked = AssurancePolicy::checked();
  EXPECT_FALSE(gate(in, checked, toSingletonLoweringPlan(plan)).accepted());
  EXPECT_TRUE(gate(in, checked, toCoalescedLoweringPlan(in, plan, Equality::identity)).accepted());
  EXPECT_TRUE(sameGate(gate(in, checked, toCoalescedLoweringPlan(in, plan, Equality::contract)),
                       gate(in, checked, toSingletonLoweringPlan(plan))));
}

TEST(GateProofs, StepGateIsRefutedUnderIdentity) {
  const Result r = discharge(
      named("step.gate"),
      Options{.edition = kEdition, .equality = Equality::identity, .timeoutMs = kTimeoutMs});
  EXPECT_EQ(r.status, Status::refuted);
}

TEST(GateProofs, TheTrustLevelDoesNotEnterTheGate) {
  // `audit-drops-trust` breaks the audit row's trust level: the audit obligations catch it, the
  // gate's must not (a capsule's trust level is the planner's concern).
  for (std::string_view name : {"singleton.gate", "coalesced.gate", "step.gate"}) {
    const Result r = discharge(named(name), Options{.edition = kEdition,
                                                    .bound = 2,
                                                    .timeoutMs = kTimeoutMs,
                                                    .sabotage = Sabotage::auditDropsTrust});
    EXPECT_EQ(r.status, Status::proved) << name;
  }
  EXPECT_EQ(discharge(named("coalesced.audit"), Options{.edition = kEdition,
                                                        .bound = 2,
                                                        .timeoutMs = kTimeoutMs,
                                                        .sabotage = Sabotage::auditDropsTrust})
                .status,
            Status::refuted);
}

} // namespace
} // namespace lo::proofs
