// The counterexample of `coalesced.audit` under identity equality is a real plan: it reads back,
// it is valid, and the C++ reference lowering of it (ref/lowering.cpp, not the encoding) shows the
// audit hiding a trusted-external boundary. This ties the encoding to the code it encodes.
#include "proofs/obligations.hpp"
#include "ref/io/reader.hpp"
#include "ref/io/writer.hpp"
#include "ref/lowering.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace lo::proofs {
namespace {

GraphExecutionPlan identityCounterexample(Interner &interner) {
  const Result r = discharge(*findObligation("coalesced.audit"),
                             Options{.bound = 3,
                                     .equality = Equality::identity,
                                     .timeoutMs = 60000,
                                     .sabotage = Sabotage::none},
                             &interner);
  EXPECT_EQ(r.status, Status::refuted);
  EXPECT_TRUE(r.counterexample.has_value());
  return r.counterexample.value_or(GraphExecutionPlan{});
}

TEST(Counterexample, IdentityAuditCounterexampleIsAValidPlanOfAtMostThreeNodes) {
  Interner interner;
  const GraphExecutionPlan plan = identityCounterexample(interner);
  ASSERT_GE(plan.kernels.size(), 1u);
  EXPECT_LE(plan.kernels.size(), 3u);
  std::set<NodeId> ids;
  for (const auto &k : plan.kernels) {
    EXPECT_TRUE(ids.insert(k.nodeId).second) << "duplicate node id " << k.nodeId;
    EXPECT_LT(k.nodeId, kNodeIdLimit);
    EXPECT_EQ(opOf(interner.kind(k.kind)), k.op);
    EXPECT_EQ(interner.capsule(k.capsule).op, k.op);
  }
  // written and read back, it is the same plan
  const std::string json = io::executionPlanJson(interner, plan);
  Interner again;
  const GraphExecutionPlan read = io::readExecutionPlan(io::sourceFromString("cex", json), again);
  EXPECT_EQ(io::executionPlanJson(again, read), json);
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
