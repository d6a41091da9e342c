// Judging another implementation's selection (docs/spec.md §10.8): the planners the rule must
// catch (one that skips the preference, ignores availability, lets a preference override trust,
// plans `input` nodes, passes over an earlier capsule, drops a node), each caught with its check
// and pointer; and the reference's own plan has no departure.
#include "checks/selection.hpp"
#include "checks/selection_catalogue.hpp"

#include <gtest/gtest.h>

namespace lo::test {
namespace {

using namespace lo::selection;
using O = BackendOp;

struct Case {
  BackendProfile profile;
  Graph graph;
  Interner interner;
  std::vector<KernelCapsule> registry;
  GraphExecutionPlan plan; // the reference's, to be mutated

  Case(const char *name, std::vector<std::optional<BackendOp>> ops) {
    profile = *maintainedProfile(name);
    for (std::size_t i = 0; i < ops.size(); ++i)
      graph.nodes.push_back({i, i ? NodeIdList{i - 1} : NodeIdList{}, ops[i], KindId{}});
    SelectionResult r = planGraphNodes(profile, graph, registry);
    EXPECT_TRUE(r.ok());
    for (const PlannedNode &k : r.kernels)
      plan.kernels.push_back({k.nodeId, k.kind, k.op, interner.intern(registry[k.capsule])});
  }
  CapsuleId capsule(const std::string &name) {
    for (const KernelCapsule &c : registry)
      if (c.name == name)
        return interner.intern(c);
    auto lib = libTorchModule();
    for (const KernelCapsule &c : lib.capsules)
      if (c.name == name)
        return interner.intern(c);
    ADD_FAILURE() << name;
    return {};
  }
  std::vector<checks::Finding> judge() {
    return checks::judgeSelection(profile, graph, interner, plan);
  }
};

std::string summary(const std::vector<checks::Finding> &f) {
  std::string out;
  for (const checks::Finding &x : f)
    out += std::string(spelling(x.check)) + " " + x.pointer + ": " + x.sentence + "\n";
  return out;
}

TEST(Judge, ReferencePlanHasNoDeparture) {
  Case c("checked_cuda", {std::nullopt, O::matmul, O::softmax, O::scaled_dot_product_attention});
  EXPECT_EQ(summary(c.judge()), "");
}

TEST(Judge, SkippedPreferenceIsCaught) {
  // checked_cuda prefers torchlean: attention is torchlean.composed_attention, not the earlier
  // native_cuda.direct_attention.
  Case c("checked_cuda", {std::nullopt, O::scaled_dot_product_attention});
  c.plan.kernels[0].capsule = c.capsule("native_cuda.direct_attention");
  EXPECT_EQ(summary(c.judge()),
            "selection.preference-ignored /kernels/0/capsule: capsule "
            "\"torchlean.composed_attention\" of the preferred provider torchlean is eligible for "
            "op scaled_dot_product_attention, but \"native_cuda.direct_attention\" was chosen\n");
}

TEST(Judge, IgnoredAvailabilityIsCaught) {
  // checked_cuda without LibTorch: libtorch.sdpa_forward is neither registered nor available.
  Case c("checked_cuda", {std::nullopt, O::scaled_dot_product_attention});
  c.plan.kernels[0].capsule = c.capsule("libtorch.sdpa_forward");
  EXPECT_EQ(summary(c.judge()),
            "selection.not-in-registry /kernels/0/capsule: capsule \"libtorch.sdpa_forward\" is "
            "not in the profile's registry\n"
            "selection.not-admissible /kernels/0/capsule: capsule \"libtorch.sdpa_forward\" is not "
            "eligible for op scaled_dot_product_attention: unavailable, trustRejected\n");
}

TEST(Judge, PreferenceOverridingTrustIsCaught) {
  // libtorch_forward_cuda under checked assurance: the preferred libtorch capsule is refused by
  // trust; a planner that lets the preference win is caught.
  Case c("libtorch_forward_cuda", {std::nullopt, O::scaled_dot_product_attention});
  c.profile.policy.assurance = acceptance::AssurancePolicy::checked();
  std::vector<KernelCapsule> registry;
  SelectionResult r = planGraphNodes(c.profile, c.graph, registry);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(registry[r.kernels[0].capsule].name, "native_cuda.direct_attention");
  c.plan.kernels[0].capsule = c.capsule("libtorch.sdpa_forward");
  EXPECT_EQ(summary(c.judge()),
            "selection.not-admissible /kernels/0/capsule: capsule \"libtorch.sdpa_forward\" is not "
            "eligible for op scaled_dot_product_attention: trustRejected\n");
}

TEST(Judge, PlannedInputIsCaught) {
  Case c("checked_cpu", {std::nullopt, O::relu});
  c.plan.kernels.insert(c.plan.kernels.begin(),
                        {0, KindId{}, O::relu, c.capsule("reference.relu")});
  EXPECT_EQ(summary(c.judge()), "selection.planned-without-work /kernels/0/nodeId: node 0 is "
                                "planned, but its kind maps to no op (no runtime work)\n");
}

TEST(Judge, EarlierPassedOverAndMissingNode) {
  // A registry of two relu capsules under auto: the second chosen; and node 2 dropped.
  Case c("checked_cpu", {std::nullopt, O::relu, O::relu});
  KernelCapsule second = c.registry[0];
  for (const KernelCapsule &k : c.registry)
    if (k.name == "reference.relu")
      second = k;
  second.name = "second.relu";
  c.profile.capsuleModules.push_back({"second", {second}});
  c.registry.push_back(second);
  c.plan.kernels[0].capsule = c.interner.intern(second);
  c.plan.kernels.pop_back();
  EXPECT_EQ(summary(c.judge()),
            "selection.earlier-passed-over /kernels/0/capsule: capsule \"reference.relu\" is "
            "eligible for op relu and comes before \"second.relu\"\n"
            "selection.missing-node /nodes/2: node 2 (op relu) is not planned\n");
}

TEST(Judge, ErrorAgainstPlan) {
  Case c("checked_cpu", {std::nullopt, O::relu});
  EXPECT_EQ(checks::judgeSelection(c.profile, c.graph, c.interner, {}, std::string("no capsule"))[0]
                .check,
            Departure::errorWherePlan);
  c.profile.capsuleModules = {};
  EXPECT_EQ(summary(c.judge()),
            "selection.plan-where-error : the implementation wrote a plan where selection fails: "
            "no admissible kernel capsule for op relu on device cpu\n");
}

} // namespace
} // namespace lo::test

namespace lo::test {
namespace {

TEST(Judge, AKernelOfAnotherKindOrOpIsCaught) {
  Case c("checked_cpu", {O::relu});
  const KindId relu = c.interner.intern(OpKind{KindTag::relu, {}});
  c.graph.nodes[0].kind = relu;
  c.plan.kernels[0].kind = relu;
  EXPECT_EQ(summary(c.judge()), "");
  c.plan.kernels[0].op = BackendOp::tanh;
  EXPECT_EQ(summary(c.judge()), "selection.kind-mismatch /kernels/0/op: node 0 is of kind relu "
                                "(op relu), but its kernel says kind relu (op tanh)\n");
  c.plan.kernels[0].kind = c.interner.intern(OpKind{KindTag::tanh, {}});
  EXPECT_EQ(summary(c.judge()), "selection.kind-mismatch /kernels/0/kind: node 0 is of kind relu "
                                "(op relu), but its kernel says kind tanh (op tanh)\n");
}

} // namespace
} // namespace lo::test

namespace lo::test {
namespace {

// Each selection check's example in `explain` fails that check and no other.
TEST(Judge, EachExampleFailsItsCheckAlone) {
  for (std::size_t i = 0; i < vocabularySize<Departure>(); ++i) {
    const auto d = static_cast<Departure>(i);
    SCOPED_TRACE(std::string(spelling(d)));
    Interner interner;
    const checks::SelectionExample ex = checks::selectionExample(interner, d);
    const auto findings =
        checks::judgeSelection(ex.profile, ex.graph, interner, ex.candidate, ex.failed);
    ASSERT_EQ(findings.size(), 1u) << summary(findings);
    EXPECT_EQ(findings[0].check, d) << summary(findings);
    EXPECT_FALSE(ex.story.empty());
    EXPECT_FALSE(checks::findingOf(d).empty());
  }
}

} // namespace
} // namespace lo::test
