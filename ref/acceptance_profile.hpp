// The maintained backend profiles of the editions whose gate is upstream's acceptance gate
// (docs/spec.md §6.8): each names a KernelPolicy, declared once, as data of the editions that
// have it.
#pragma once

#include "ref/acceptance.hpp"
#include "ref/edition.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lo::acceptance {

/// `BackendProfile {name, policy, ...}` of NN/Backend/Profile.lean: `name` is the profile's
/// `name` field (what reports print), `definition` the Lean definition that holds it.
struct MaintainedProfile {
  std::string_view name;
  std::string_view definition;
  KernelPolicy policy;
  /// The editions that have it.
  EditionSet editions;
};

/// a351909 and 801eb0e (2026-09); 3447b74 (2026-09b), the same at lean-dojo 25576b9 (2026-10):
/// `checkedCuda` prefers libtorch there, and `libTorchForwardCuda` is gone.
inline constexpr MaintainedProfile kMaintainedProfiles[] = {
    {"checked_cpu",
     "checkedCpu",
     {Device::cpu, ProviderPreference::autoPreference(), AssurancePolicy::checked(),
      VJPMode::torchlean_tape},
     kLineageEditions},
    {"checked_cuda",
     "checkedCuda",
     {Device::cuda, ProviderPreference::prefer(Provider::torchlean), AssurancePolicy::checked(),
      VJPMode::torchlean_tape},
     editionBit(Edition::e2026_09)},
    {"checked_cuda",
     "checkedCuda",
     {Device::cuda, ProviderPreference::prefer(Provider::libtorch), AssurancePolicy::checked(),
      VJPMode::torchlean_tape},
     static_cast<EditionSet>(editionBit(Edition::e2026_09b) | editionBit(Edition::e2026_10))},
    {"libtorch_forward_cuda",
     "libTorchForwardCuda",
     {Device::cuda, ProviderPreference::prefer(Provider::libtorch), AssurancePolicy::external(),
      VJPMode::torchlean_tape},
     editionBit(Edition::e2026_09)}};

/// Whether profile `p` is one of edition `e`'s.
constexpr bool hasProfile(Edition e, const MaintainedProfile &p) {
  return (p.editions & editionBit(e)) != 0;
}

/// Whether edition `e`'s gate is upstream's acceptance gate (`EditionRules::gate`).
constexpr bool hasAcceptanceGate(Edition e) { return rulesOf(e).gate == GateKind::acceptance; }

/// The editions whose gate is upstream's acceptance gate.
constexpr EditionSet acceptanceGateEditions() {
  EditionSet set = 0;
  for (const EditionRules &r : kEditionRules)
    if (r.gate == GateKind::acceptance)
      set |= editionBit(r.edition);
  return set;
}

/// The default profile: `maintainedForDevice? .cpu`.
inline constexpr std::string_view kDefaultProfile = "checked_cpu";

/// The profile of edition `e` named `name` (its `name` or its definition), or none.
constexpr const MaintainedProfile *findProfile(Edition e, std::string_view name) {
  for (const MaintainedProfile &p : kMaintainedProfiles)
    if (hasProfile(e, p) && (p.name == name || p.definition == name))
      return &p;
  return nullptr;
}

/// The name of the first profile of edition `e` whose policy is `policy`, else "custom".
constexpr std::string_view profileName(Edition e, const KernelPolicy &policy) {
  for (const MaintainedProfile &p : kMaintainedProfiles)
    if (hasProfile(e, p) && p.policy == policy)
      return p.name;
  return "custom";
}

/// Edition `e`'s profiles, in declared order.
inline std::vector<const MaintainedProfile *> profilesOf(Edition e) {
  std::vector<const MaintainedProfile *> out;
  for (const MaintainedProfile &p : kMaintainedProfiles)
    if (hasProfile(e, p))
      out.push_back(&p);
  return out;
}

/// The names of edition `e`'s profiles, joined by ", ".
inline std::string profileNames(Edition e) {
  std::string out;
  for (const MaintainedProfile *p : profilesOf(e))
    out += (out.empty() ? "" : ", ") + std::string(p->name);
  return out;
}

} // namespace lo::acceptance
