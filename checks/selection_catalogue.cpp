// docs/spec.md §10.8.
#include "checks/selection_catalogue.hpp"

#include <array>

namespace lo::checks {

namespace {

constexpr std::array<std::string_view, vocabularySize<Departure>()> kFindings = {
    "a kernel for a node whose kind maps to no op (`input`, `const`, `detach`)",
    "a kernel for a node id the graph lacks",
    "a kernel whose kind is not its node's (parameters included) or whose op is not the one that "
    "kind maps to",
    "a runtime-relevant node without a kernel",
    "a kernel after a kernel of a later node, or a node planned twice",
    "a capsule equal (contract equality, §1.3) to no capsule of the profile's registry",
    "a capsule not eligible for the node's op, with every refusal of §10.3 (`unavailable`, "
    "`trustRejected`, ...)",
    "under `prefer P`, a capsule of another provider although one of P is eligible",
    "an eligible capsule after an eligible one the rule picks first",
    "a plan where selection fails (the rule's message is given)",
    "a failure where selection plans",
};

/// reference.relu of the maintained reference module, under another name and provider.
KernelCapsule relu(std::string name, Provider provider) {
  KernelCapsule c;
  const std::optional<selection::CapsuleModule> module = selection::maintainedModule("reference");
  for (const KernelCapsule &k : module->capsules)
    if (k.op == BackendOp::relu)
      c = k;
  c.name = std::move(name);
  c.provider = provider;
  return c;
}

} // namespace

std::string_view findingOf(Departure d) { return kFindings[static_cast<std::size_t>(d)]; }

SelectionExample selectionExample(Interner &interner, Departure d) {
  SelectionExample ex;
  const KindId input = interner.intern(OpKind{KindTag::input, {}});
  const KindId reluKind = interner.intern(OpKind{KindTag::relu, {}});
  const KernelCapsule reference = relu("reference.relu", Provider::reference);
  const KernelCapsule torchlean = relu("torchlean.relu", Provider::torchlean);
  ex.profile.name = "example";
  ex.profile.policy = acceptance::checkedCpuPolicy();
  ex.profile.capsuleModules = {{"example", {reference, torchlean}}};
  ex.graph.nodes = {{0, {}, std::nullopt, input}, {1, {0}, BackendOp::relu, reluKind}};
  // The plan the rule gives: node 1 on reference.relu, the first eligible capsule.
  const auto kernel = [&](NodeId id, const KernelCapsule &c) {
    return PlannedNodeKernel{id, reluKind, BackendOp::relu, interner.intern(c)};
  };
  ex.candidate.kernels = {kernel(1, reference)};
  switch (d) {
  case Departure::plannedWithoutWork:
    ex.candidate.kernels.insert(ex.candidate.kernels.begin(), kernel(0, reference));
    ex.story = "the input node 0 is planned as a relu";
    break;
  case Departure::unknownNode:
    ex.candidate.kernels.push_back(kernel(7, reference));
    ex.story = "a kernel for node 7, which the graph does not have";
    break;
  case Departure::kindMismatch:
    ex.candidate.kernels[0].kind = interner.intern(OpKind{KindTag::tanh, {}});
    ex.candidate.kernels[0].op = BackendOp::tanh;
    ex.story = "node 1's kernel says tanh";
    break;
  case Departure::missingNode:
    ex.candidate.kernels.clear();
    ex.story = "node 1 is not planned";
    break;
  case Departure::outOfOrder:
    ex.graph.nodes.push_back({2, {1}, BackendOp::relu, reluKind});
    ex.candidate.kernels.insert(ex.candidate.kernels.begin(), kernel(2, reference));
    ex.story = "node 2 is planned before node 1";
    break;
  case Departure::notInRegistry: {
    KernelCapsule other = reference;
    other.valueContract.summary = "another summary";
    ex.candidate.kernels = {kernel(1, other)};
    ex.story = "node 1's capsule differs from reference.relu in one summary";
    break;
  }
  case Departure::notAdmissible: {
    KernelCapsule external = relu("reference.relu.external", Provider::reference);
    external.trustLevel = TrustLevel::trusted_external;
    ex.profile.capsuleModules[0].capsules.push_back(external);
    ex.candidate.kernels = {kernel(1, external)};
    ex.story = "node 1's capsule is trusted-external under a checked policy";
    break;
  }
  case Departure::preferenceIgnored:
    ex.profile.policy.provider = acceptance::ProviderPreference::prefer(Provider::torchlean);
    ex.story = "the policy prefers torchlean, and torchlean.relu is eligible";
    break;
  case Departure::earlierPassedOver:
    ex.candidate.kernels = {kernel(1, torchlean)};
    ex.story = "torchlean.relu is chosen, but reference.relu comes first and is eligible";
    break;
  case Departure::planWhereError:
    ex.profile.policy.device = Device::cuda;
    ex.story = "no capsule runs on cuda, so selection fails, but the candidate plans node 1";
    break;
  case Departure::errorWherePlan:
    ex.candidate.kernels.clear();
    ex.failed = "no admissible kernel capsule for op relu on device cpu";
    ex.story = "the implementation failed, but reference.relu is eligible for node 1";
    break;
  }
  return ex;
}

} // namespace lo::checks
