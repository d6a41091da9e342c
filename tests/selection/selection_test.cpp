// Selection (docs/spec.md §10) against upstream's recorded choices: srirampc/TorchLean,
// NN/Tests/Backend/Profile.lean, `run`, at a351909. Each test names the expectation it
// transcribes (upstream's tag, in quotes) and the lines of the file: the index gives text, not
// lines, so the line numbers are placed from the order of the text, not checked against a
// checkout.
#include "ref/profile.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace lo::test {
namespace {

using namespace lo::selection;
using acceptance::AssurancePolicy;
using acceptance::ProviderPreference;
using O = BackendOp;

BackendProfile profile(const char *name) {
  auto p = maintainedProfile(name);
  EXPECT_TRUE(p.has_value()) << name;
  return p.value_or(BackendProfile{});
}

/// `planOrThrow`: the capsule names of a successful plan, or the error as the only element.
std::vector<std::string> names(const BackendProfile &p, const std::vector<BackendOp> &ops) {
  std::vector<KernelCapsule> registry;
  SelectionResult r = planOps(p, ops, registry);
  if (!r.ok())
    return {"error: " + *r.error};
  std::vector<std::string> out;
  for (const PlannedNode &k : r.kernels)
    out.push_back(registry[k.capsule].name);
  return out;
}

std::vector<std::string> names(const KernelPolicy &policy, const Availability &availability,
                               const std::vector<KernelCapsule> &registry,
                               const std::vector<BackendOp> &ops) {
  SelectionResult r = planOps(policy, availability, registry, ops);
  if (!r.ok())
    return {"error: " + *r.error};
  std::vector<std::string> out;
  for (const PlannedNode &k : r.kernels)
    out.push_back(registry[k.capsule].name);
  return out;
}

KernelCapsule referenceRelu() {
  const CapsuleModule reference = *maintainedModule("reference");
  for (const KernelCapsule &c : reference.capsules)
    if (c.name == "reference.relu")
      return c;
  ADD_FAILURE() << "no reference.relu";
  return {};
}

/// The test capsules of Profile.lean (lines 55-105).
KernelCapsule externalRelu() {
  KernelCapsule c = referenceRelu();
  c.name = "external.relu";
  c.provider = Provider::external;
  c.device = Device::external;
  c.trustLevel = TrustLevel::checked;
  return c;
}
Availability externalAvailability() {
  return {{Device::cpu, Device::external},
          {Provider::reference, Provider::torchlean, Provider::external}};
}
KernelCapsule renamed(KernelCapsule c, const char *name) {
  c.name = name;
  return c;
}

KernelPolicy cpuPolicy(VJPMode vjp = VJPMode::torchlean_tape) {
  KernelPolicy p;
  p.device = Device::cpu;
  p.vjpMode = vjp;
  return p;
}

const std::vector<BackendOp> kExactOps{O::matmul,
                                       O::linear,
                                       O::mse_loss,
                                       O::add,
                                       O::sub,
                                       O::mul,
                                       O::scale,
                                       O::abs,
                                       O::sqrt,
                                       O::clamp,
                                       O::max,
                                       O::min,
                                       O::relu,
                                       O::gelu,
                                       O::sigmoid,
                                       O::tanh,
                                       O::softmax,
                                       O::hard_masked_softmax,
                                       O::softplus,
                                       O::exp,
                                       O::log,
                                       O::inv,
                                       O::safe_log,
                                       O::log_softmax,
                                       O::sin,
                                       O::cos,
                                       O::reduce_sum,
                                       O::reduce_mean,
                                       O::rand_uniform,
                                       O::bernoulli_mask,
                                       O::reshape,
                                       O::permute,
                                       O::broadcast,
                                       O::concat,
                                       O::slice,
                                       O::gather,
                                       O::scatter_add,
                                       O::layer_norm,
                                       O::batch_norm,
                                       O::conv,
                                       O::conv_transpose,
                                       O::max_pool,
                                       O::smooth_max_pool,
                                       O::avg_pool};

const std::vector<BackendOp> kProfileOps{O::matmul,
                                         O::relu,
                                         O::softmax,
                                         O::hard_masked_softmax,
                                         O::layer_norm,
                                         O::batch_norm,
                                         O::conv,
                                         O::conv_transpose,
                                         O::max_pool,
                                         O::smooth_max_pool,
                                         O::avg_pool,
                                         O::mse_loss,
                                         O::scaled_dot_product_attention};

std::vector<std::string> prefixed(const char *prefix, const std::vector<BackendOp> &ops) {
  std::vector<std::string> out;
  for (BackendOp op : ops)
    out.push_back(prefix + std::string(spelling(op)));
  return out;
}

// Lines 282-285: "default registry contract fields are aligned", "LibTorch registry contract
// fields are aligned".
TEST(Registry, MaintainedCapsulesAreAligned) {
  auto modules = maintainedModules();
  modules.insert(modules.begin(), libTorchModule());
  for (const KernelCapsule &c : flatten(modules))
    EXPECT_TRUE(acceptance::contractsAligned(c)) << c.name;
  EXPECT_EQ(validateModules(modules), std::nullopt);
}

// Lines 286-290: "duplicate capsule module names are rejected".
TEST(Registry, DuplicateModuleNamesAreRejected) {
  BackendProfile p = profile("checked_cpu");
  p.capsuleModules = {libTorchModule(), libTorchModule()};
  EXPECT_EQ(names(p, {O::relu}),
            std::vector<std::string>{"error: duplicate backend capsule module `libtorch`"});
}

// Registry.lean `validateModules`: a repeated identity across two modules.
TEST(Registry, DuplicateIdentityIsRejected) {
  BackendProfile p = profile("checked_cpu");
  p.capsuleModules = {{"a", {referenceRelu()}}, {"b", {referenceRelu()}}};
  EXPECT_EQ(names(p, {O::relu}),
            std::vector<std::string>{"error: duplicate backend capsule identity `reference.relu`"});
  // Same name, another provider: a different identity, admitted.
  KernelCapsule other = referenceRelu();
  other.provider = Provider::torchlean;
  p.capsuleModules = {{"a", {referenceRelu()}}, {"b", {other}}};
  EXPECT_EQ(names(p, {O::relu}), std::vector<std::string>{"reference.relu"});
}

// Lines 291-299: "same-name capsule modules are replaced instead of duplicated", "replacement
// capsule module is selected".
TEST(Registry, SameNameModuleIsReplaced) {
  BackendProfile p = withCapsuleModules(
      profile("checked_cpu"), {{"reference", {renamed(referenceRelu(), "replacement.relu")}}});
  std::size_t references = 0;
  for (const CapsuleModule &m : p.capsuleModules)
    references += m.name == "reference";
  EXPECT_EQ(references, 1u);
  EXPECT_EQ(names(p, {O::relu}), std::vector<std::string>{"replacement.relu"});
}

// Lines 434-438: "extended modules preserve model-independent preference".
TEST(Registry, ExtendedModulesComeFirst) {
  BackendProfile p = withCapsuleModules(
      profile("checked_cpu"),
      {{"profile-test-replacement", {renamed(referenceRelu(), "replacement.relu")}}});
  EXPECT_EQ(names(p, {O::relu, O::matmul}),
            (std::vector<std::string>{"replacement.relu", "reference.matmul"}));
}

// Lines 337-341: "cpu availability rejects external device capsule", "external availability
// admits external capsule when provider is available".
TEST(Availability, AdmitsByDeviceAndProvider) {
  EXPECT_FALSE(admitsCapsule(Availability::cpu(), externalRelu()));
  EXPECT_TRUE(admitsCapsule(externalAvailability(), externalRelu()));
}

// Lines 342-351: "external target can plan explicit external capsule".
TEST(Availability, ExternalTargetPlansExternalCapsule) {
  KernelPolicy policy;
  policy.device = Device::external;
  policy.provider = ProviderPreference::only(Provider::external);
  EXPECT_EQ(names(policy, externalAvailability(), {externalRelu()}, {O::relu}),
            std::vector<std::string>{"external.relu"});
  // The same under cpu availability: nothing left (Planner.lean's message).
  EXPECT_EQ(names(policy, Availability::cpu(), {externalRelu()}, {O::relu}),
            std::vector<std::string>{"error: no admissible kernel capsule for op relu on device "
                                     "external"});
}

// Lines 352-356: the disabled-forward capsule is not planned.
TEST(Admissible, DisabledForwardIsNotPlanned) {
  KernelCapsule c = renamed(referenceRelu(), "reference.relu_disabled");
  c.supportsForward = false;
  EXPECT_EQ(names(cpuPolicy(), Availability::cpu(), {c}, {O::relu}),
            std::vector<std::string>{"error: no admissible kernel capsule for op relu on device "
                                     "cpu"});
}

// Lines 357-364: "inference accepts a forward capsule that also supports VJP".
TEST(Admissible, InferenceAcceptsCapsuleWithVJP) {
  EXPECT_EQ(names(cpuPolicy(VJPMode::none), Availability::cpu(), {referenceRelu()}, {O::relu}),
            std::vector<std::string>{"reference.relu"});
}

// Lines 365-370: the forward-only capsule is not planned under the TorchLean tape.
TEST(Admissible, ForwardOnlyIsNotPlannedUnderTape) {
  KernelCapsule c = renamed(referenceRelu(), "reference.relu_forward_only");
  c.vjpMode = VJPMode::none;
  c.vjpContract = {{ClaimTag::vjpUnavailable, O::relu, TensorLayout::canonical_tensor, std::nullopt,
                    VJPMode::none},
                   "This test capsule intentionally has no VJP.",
                   {EvidenceTag::notApplicable, ""},
                   {}};
  EXPECT_EQ(names(cpuPolicy(), Availability::cpu(), {c}, {O::relu}).front().substr(0, 6), "error:");
  // Derived: the same capsule is admissible in inference (matchesVJP).
  EXPECT_EQ(names(cpuPolicy(VJPMode::none), Availability::cpu(), {c}, {O::relu}),
            std::vector<std::string>{"reference.relu_forward_only"});
}

// Lines 371-375: the malformed capsule is not planned.
TEST(Admissible, MisalignedIsNotPlanned) {
  KernelCapsule c = renamed(referenceRelu(), "reference.relu_malformed");
  c.shapeContract = {{ClaimTag::valueRefinement, O::relu, TensorLayout::canonical_tensor,
                      std::nullopt, VJPMode::none},
                     "Deliberately mismatched descriptor for contract-alignment testing.",
                     {EvidenceTag::testSuite, "NN.Tests.Backend.Profile"},
                     {}};
  EXPECT_EQ(names(cpuPolicy(), Availability::cpu(), {c}, {O::relu}).front().substr(0, 6), "error:");
  EXPECT_NE(refusals(cpuPolicy(), Availability::cpu(), O::relu, c) &
                refusalBit(Refusal::contractsMisaligned),
            0);
}

// Lines 376-377: the planner admits the trusted-value capsule by its label.
TEST(Admissible, TrustedValueUnderCheckedLabelIsPlanned) {
  KernelCapsule c = renamed(referenceRelu(), "reference.relu_trusted_value");
  c.valueContract.evidence = {EvidenceTag::trustedBoundary, "profile-test external implementation"};
  EXPECT_EQ(names(cpuPolicy(), Availability::cpu(), {c}, {O::relu}),
            std::vector<std::string>{"reference.relu_trusted_value"});
}

// Lines 461-465: "hybrid profile falls back to native softmax".
TEST(Maintained, HybridFallsBackToNativeSoftmax) {
  EXPECT_EQ(names(profile("libtorch_forward_cuda"), {O::softmax}),
            std::vector<std::string>{"native_cuda.softmax"});
}

// Lines 485-504: "checked cpu capsule order".
TEST(Maintained, CheckedCpuProfileOps) {
  auto expected = prefixed("reference.", kProfileOps);
  expected.back() = "reference.attention";
  EXPECT_EQ(names(profile("checked_cpu"), kProfileOps), expected);
}

// Lines 505-508: "checked cpu exact capsules".
TEST(Maintained, CheckedCpuExactOps) {
  EXPECT_EQ(names(profile("checked_cpu"), kExactOps), prefixed("reference.", kExactOps));
}

// Lines 527-545: "checked cuda capsule order" (attention: the TorchLean composition, preferred
// over the earlier native direct attention).
TEST(Maintained, CheckedCudaProfileOps) {
  auto expected = prefixed("native_cuda.", kProfileOps);
  expected.back() = "torchlean.composed_attention";
  EXPECT_EQ(names(profile("checked_cuda"), kProfileOps), expected);
}

// Lines 547-549: "checked cuda exact capsules".
TEST(Maintained, CheckedCudaExactOps) {
  EXPECT_EQ(names(profile("checked_cuda"), kExactOps), prefixed("native_cuda.", kExactOps));
}

// Lines 563-567 and 574-578: "preferred LibTorch provider wins without registry-order
// dependence", "hybrid profile uses native fallback around LibTorch attention".
TEST(Maintained, LibTorchForward) {
  BackendProfile p = profile("libtorch_forward_cuda");
  EXPECT_EQ(names(p, {O::scaled_dot_product_attention}),
            std::vector<std::string>{"libtorch.sdpa_forward"});
  EXPECT_EQ(
      names(p, {O::add, O::scaled_dot_product_attention, O::relu}),
      (std::vector<std::string>{"native_cuda.add", "libtorch.sdpa_forward", "native_cuda.relu"}));
  // Derived: under checked assurance the trusted-external capsule is refused whatever the
  // preference (docs/spec.md §10.3), and the native direct attention is chosen.
  p.policy.assurance = AssurancePolicy::checked();
  EXPECT_EQ(names(p, {O::scaled_dot_product_attention}),
            std::vector<std::string>{"native_cuda.direct_attention"});
}

// Profile.lean `maintainedForDevice?`.
TEST(Maintained, ForDevice) {
  EXPECT_EQ(maintainedForDevice(Device::cpu)->name, "checked_cpu");
  EXPECT_EQ(maintainedForDevice(Device::cuda)->name, "checked_cuda");
  for (Device d : {Device::rocm, Device::metal, Device::wasm, Device::tpu, Device::trainium,
                   Device::custom, Device::external})
    EXPECT_FALSE(maintainedForDevice(d).has_value()) << spelling(d);
  EXPECT_FALSE(maintainedProfile("checked_metal").has_value());
}

// Lines 412-419: `tinyReluGraph` (input 0, relu 1, relu 2) under checked_cpu: nodes 1 and 2,
// both reference.relu; the input is not planned.
TEST(Graph, TinyReluGraph) {
  Graph g;
  g.nodes = {
      {0, {}, std::nullopt, KindId{}}, {1, {0}, O::relu, KindId{}}, {2, {1}, O::relu, KindId{}}};
  std::vector<KernelCapsule> registry;
  SelectionResult r = planGraphNodes(profile("checked_cpu"), g, registry);
  ASSERT_TRUE(r.ok()) << *r.error;
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[0].nodeId, 1u);
  EXPECT_EQ(r.kernels[1].nodeId, 2u);
  EXPECT_EQ(registry[r.kernels[0].capsule].name, "reference.relu");
  EXPECT_EQ(r.kernels[0].capsule, r.kernels[1].capsule);
}

// NN/IR/Graph.lean `checkWellFormed`: the id discipline and parents below, in upstream's words.
TEST(Graph, WellFormed) {
  Graph g;
  g.nodes = {{0, {}, std::nullopt, KindId{}}, {2, {0}, O::relu, KindId{}}};
  EXPECT_EQ(checkWellFormed(g), "IR graph: id discipline violated at index 1: nodes[1].id = 2");
  g.nodes[1] = {1, {1}, O::relu, KindId{}};
  EXPECT_EQ(checkWellFormed(g), "IR graph: node 1: parent id 1 is not < 1");
  std::vector<KernelCapsule> registry;
  EXPECT_EQ(planGraphNodes(profile("checked_cpu"), g, registry).error,
            "IR graph: node 1: parent id 1 is not < 1");
  g.nodes[1].parents = {0};
  EXPECT_EQ(checkWellFormed(g), std::nullopt);
}

// Capsule.lean `chooseCapsuleFor?`: `prefer P` searches P first, then falls back in order; `only P`
// filters; `auto` keeps registry order.
TEST(Choose, Preferences) {
  KernelCapsule a = renamed(referenceRelu(), "a");
  KernelCapsule b = renamed(referenceRelu(), "b");
  b.provider = Provider::torchlean;
  Availability both = Availability::cpu();
  KernelPolicy policy = cpuPolicy();
  EXPECT_EQ(names(policy, both, {a, b}, {O::relu}), std::vector<std::string>{"a"});
  policy.provider = ProviderPreference::prefer(Provider::torchlean);
  EXPECT_EQ(names(policy, both, {a, b}, {O::relu}), std::vector<std::string>{"b"});
  policy.provider = ProviderPreference::prefer(Provider::libtorch);
  EXPECT_EQ(names(policy, both, {a, b}, {O::relu}), std::vector<std::string>{"a"});
  policy.provider = ProviderPreference::only(Provider::libtorch);
  EXPECT_EQ(names(policy, both, {a, b}, {O::relu}).front().substr(0, 6), "error:");
  // Availability narrows before the preference: b's provider withdrawn.
  policy.provider = ProviderPreference::prefer(Provider::torchlean);
  EXPECT_EQ(names(policy, {{Device::cpu}, {Provider::reference}}, {a, b}, {O::relu}),
            std::vector<std::string>{"a"});
}

} // namespace
} // namespace lo::test
