// docs/spec.md §10.5.
#include "ref/profile.hpp"

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

SelectionResult planGraphNodes(const BackendProfile &p, const Graph &g,
                               std::vector<KernelCapsule> &registry) {
  registry.clear();
  if (auto error = validateModules(p.capsuleModules)) {
    SelectionResult out;
    out.error = std::move(error);
    return out;
  }
  registry = flatten(p.capsuleModules);
  return checkedPlanGraph(p.policy, p.availability, registry, g);
}

SelectionResult planOps(const BackendProfile &p, const std::vector<BackendOp> &ops,
                        std::vector<KernelCapsule> &registry) {
  registry.clear();
  if (auto error = validateModules(p.capsuleModules)) {
    SelectionResult out;
    out.error = std::move(error);
    return out;
  }
  registry = flatten(p.capsuleModules);
  return planOps(p.policy, p.availability, registry, ops);
}

namespace {
constexpr std::string_view kProfileNames[] = {"checked_cpu", "checked_cuda",
                                              "libtorch_forward_cuda"};
constexpr std::string_view kModuleNames[] = {"attention", "native-cuda", "reference", "libtorch"};
} // namespace

std::span<const std::string_view> maintainedProfileNames() { return kProfileNames; }
std::span<const std::string_view> maintainedModuleNames() { return kModuleNames; }

std::vector<CapsuleModule> maintainedModules() {
  return {*maintainedModule("attention"), *maintainedModule("native-cuda"),
          *maintainedModule("reference")};
}

CapsuleModule libTorchModule() { return *maintainedModule("libtorch"); }

std::optional<BackendProfile> maintainedProfile(std::string_view name) {
  using acceptance::AssurancePolicy;
  using acceptance::ProviderPreference;
  BackendProfile p;
  p.name = std::string(name);
  p.capsuleModules = maintainedModules();
  if (name == "checked_cpu") {
    p.policy = {Device::cpu, ProviderPreference::autoPreference(), AssurancePolicy::checked(),
                VJPMode::torchlean_tape};
    p.availability = Availability::cpu();
  } else if (name == "checked_cuda") {
    p.policy = {Device::cuda, ProviderPreference::prefer(Provider::torchlean),
                AssurancePolicy::checked(), VJPMode::torchlean_tape};
    p.availability = Availability::cuda();
  } else if (name == "libtorch_forward_cuda") {
    p.policy = {Device::cuda, ProviderPreference::prefer(Provider::libtorch),
                AssurancePolicy::external(), VJPMode::torchlean_tape};
    p.availability = Availability::cuda(true);
    p.capsuleModules.push_back(libTorchModule());
  } else {
    return std::nullopt;
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
