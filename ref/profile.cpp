// docs/spec.md §10.5.
#include "ref/profile.hpp"

#include "ref/acceptance_profile.hpp"

#include <algorithm>

namespace lo::selection {

BackendProfile withCapsuleModules(BackendProfile p, const std::vector<CapsuleModule> &modules) {
  std::vector<CapsuleModule> out = modules;
  for (CapsuleModule &old : p.capsuleModules)
    if (std::none_of(modules.begin(), modules.end(),
                     [&](const CapsuleModule &m) { return m.name == old.name; }))
      out.push_back(std::move(old));
  p.capsuleModules = std::move(out);
  return p;
}

namespace {

/// `validateModules`, then `plan` over the flattened registry (kept in `registry`, whose positions
/// the result indexes): the first half of `planGraphNodes` and of `planOps`.
template <class Plan>
SelectionResult overRegistry(const BackendProfile &p, std::vector<KernelCapsule> &registry,
                             Plan &&plan) {
  registry.clear();
  if (auto error = validateModules(p.capsuleModules)) {
    SelectionResult out;
    out.error = std::move(error);
    return out;
  }
  registry = flatten(p.capsuleModules);
  return plan(registry);
}

} // namespace

SelectionResult planGraphNodes(const BackendProfile &p, const Graph &g,
                               std::vector<KernelCapsule> &registry) {
  return overRegistry(p, registry, [&](const std::vector<KernelCapsule> &r) {
    return checkedPlanGraph(p.policy, p.availability, r, g);
  });
}

std::variant<GraphExecutionPlan, std::string> planExecution(const BackendProfile &p, const Graph &g,
                                                            Interner &interner) {
  std::vector<KernelCapsule> registry;
  SelectionResult r = planGraphNodes(p, g, registry);
  if (!r.ok())
    return std::move(*r.error);
  // Each registry capsule is interned once, when a node first chooses it.
  std::vector<std::optional<CapsuleId>> ids(registry.size());
  GraphExecutionPlan plan;
  plan.kernels.reserve(r.kernels.size());
  for (const PlannedNode &k : r.kernels) {
    if (!ids[k.capsule])
      ids[k.capsule] = interner.intern(registry[k.capsule]);
    plan.kernels.push_back({k.nodeId, k.kind, k.op, *ids[k.capsule]});
  }
  return plan;
}

SelectionResult planOps(const BackendProfile &p, const std::vector<BackendOp> &ops,
                        std::vector<KernelCapsule> &registry) {
  return overRegistry(p, registry, [&](const std::vector<KernelCapsule> &r) {
    return planOps(p.policy, p.availability, r, ops);
  });
}

namespace {
/// The maintained profiles' names and policies are ref/acceptance_profile.hpp's, in the edition
/// whose Profile.lean (a351909) selection transcribes.
constexpr Edition kSelectionEdition = kMaintainedEdition;
constexpr std::string_view kModuleNames[] = {"attention", "native-cuda", "reference", "libtorch"};
} // namespace

std::span<const std::string_view> maintainedProfileNames() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> out;
    for (const acceptance::MaintainedProfile &p : acceptance::kMaintainedProfiles)
      if (acceptance::hasProfile(kSelectionEdition, p))
        out.push_back(p.name);
    return out;
  }();
  return names;
}
bool hasMaintainedData(Edition e) { return e == kSelectionEdition; }

std::string noMaintainedData(Edition e) {
  return "the maintained profiles and modules are upstream's at a351909 (edition " +
         std::string(spelling(kSelectionEdition)) + "), and edition " + std::string(spelling(e)) +
         "'s are not transcribed: use --edition " + std::string(spelling(kSelectionEdition)) +
         ", or a profile document with its modules (--profile-file, --registry)";
}

std::string maintainedProfileList() {
  std::string out;
  for (std::string_view n : maintainedProfileNames())
    out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

std::span<const std::string_view> maintainedModuleNames() { return kModuleNames; }

std::vector<CapsuleModule> maintainedModules() {
  return {*maintainedModule("attention"), *maintainedModule("native-cuda"),
          *maintainedModule("reference")};
}

CapsuleModule libTorchModule() { return *maintainedModule("libtorch"); }

std::optional<BackendProfile> maintainedProfile(std::string_view name) {
  const acceptance::MaintainedProfile *m = acceptance::findProfile(kSelectionEdition, name);
  if (!m || m->name != name) // by its `name`, not its Lean definition's
    return std::nullopt;
  BackendProfile p;
  p.name = std::string(name);
  p.policy = m->policy;
  p.capsuleModules = maintainedModules();
  // What each profile makes available, and the module only libtorch_forward_cuda adds.
  if (name == "checked_cpu") {
    p.availability = Availability::cpu();
  } else if (name == "checked_cuda") {
    p.availability = Availability::cuda();
  } else if (name == "libtorch_forward_cuda") {
    p.availability = Availability::cuda(true);
    p.capsuleModules.push_back(libTorchModule());
  } else {
    return std::nullopt; // a profile of the table whose availability is not transcribed
  }
  return p;
}

std::optional<BackendProfile> maintainedForDevice(Device d) {
  switch (d) {
  case Device::cpu: return maintainedProfile("checked_cpu");
  case Device::cuda: return maintainedProfile("checked_cuda");
  default: return std::nullopt;
  }
}

} // namespace lo::selection
