// Backend profiles: a policy, an availability and ordered capsule modules that move together; the
// maintained profiles and modules of the lineage as data (docs/spec.md §10.5).
#pragma once

#include "ref/interner.hpp"
#include "ref/registry.hpp"
#include "ref/selection.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace lo::selection {

/// `BackendProfile {name, policy, availability, capsuleModules}`.
struct BackendProfile {
  std::string name;
  KernelPolicy policy;
  Availability availability;
  std::vector<CapsuleModule> capsuleModules;
};

/// `withCapsuleModules p modules`: `modules`, then `p`'s modules whose name none of `modules` has.
BackendProfile withCapsuleModules(BackendProfile p, const std::vector<CapsuleModule> &modules);

/// `planGraphNodes p g`: `validateModules`, then `checkedPlanGraph` over the flattened registry.
/// `registry` receives the flattened registry the plan's positions index.
SelectionResult planGraphNodes(const BackendProfile &p, const Graph &g,
                               std::vector<KernelCapsule> &registry);

/// `planGraphNodes p g` as the GraphExecutionPlan that `plan` writes (docs/spec.md §10), its
/// capsules interned in `interner`; or upstream's error.
std::variant<GraphExecutionPlan, std::string> planExecution(const BackendProfile &p, const Graph &g,
                                                            Interner &interner);

/// `BackendProfile.planOps p ops`.
SelectionResult planOps(const BackendProfile &p, const std::vector<BackendOp> &ops,
                        std::vector<KernelCapsule> &registry);

// --- The maintained modules and profiles (srirampc/TorchLean a351909; docs/spec.md §10.5) ------

/// The edition whose upstream the maintained profiles and modules are transcribed from
/// (srirampc/TorchLean a351909), the default edition of `plan` and `check-plan`.
inline constexpr Edition kMaintainedEdition = Edition::e2026_09;
inline constexpr std::string_view kMaintainedEditionWhy =
    "2026-09, the edition of the maintained profiles (docs/spec.md §10.5)";

/// Whether edition `e` has the maintained profiles and modules below: the edition whose upstream
/// they are transcribed from (docs/spec.md §10.5). Selection in another edition takes the
/// caller's profile and registry documents.
bool hasMaintainedData(Edition e);
/// Why a maintained profile or module is refused in edition `e` (one sentence, for messages).
std::string noMaintainedData(Edition e);

/// `Registry.maintainedModules`: attention, native-cuda, reference.
std::vector<CapsuleModule> maintainedModules();
/// `Registry.libTorchModule`.
CapsuleModule libTorchModule();
/// The maintained modules and `libtorch`, by name (nullopt for another name).
std::optional<CapsuleModule> maintainedModule(std::string_view name);
/// The maintained modules' names, in the order `maintainedModule` knows them.
std::span<const std::string_view> maintainedModuleNames();

/// `checked_cpu`, `checked_cuda`, `libtorch_forward_cuda`, by name (nullopt for another name).
std::optional<BackendProfile> maintainedProfile(std::string_view name);
/// The maintained profiles' names.
std::span<const std::string_view> maintainedProfileNames();
/// The maintained profiles' names, comma separated, for messages.
std::string maintainedProfileList();
/// `maintainedForDevice?`: cpu ↦ checked_cpu, cuda ↦ checked_cuda, others nullopt.
std::optional<BackendProfile> maintainedForDevice(Device d);

} // namespace lo::selection
