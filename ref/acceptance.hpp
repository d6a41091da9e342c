// The acceptance gate of the lean-dojo lineage (docs/lineage.md §6): a KernelPolicy, the failures
// of one planned kernel in upstream's order, and the gate of a GraphExecutionPlan over its
// coalesced groups under contract equality (docs/spec.md §1.2, §1.3).
//
// The `gate` of the editions whose `EditionRules::gate` is the acceptance gate (docs/spec.md
// §6.10; the maintained profiles are ref/acceptance_profile.hpp). It works on the union data model
// of docs/spec.md §2.2; what it decides for values outside the lineage's vocabulary is
// docs/lineage.md §6.5.
#pragma once

#include "ref/interner.hpp"
#include "ref/ir.hpp"
#include "ref/lowering.hpp"
#include "ref/recheck.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lo::acceptance {

/// `AssurancePolicy {allowTrustedExternal}` of the lineage (docs/lineage.md §6).
struct AssurancePolicy {
  bool allowTrustedExternal = false;
  bool operator==(const AssurancePolicy &) const = default;
  static constexpr AssurancePolicy checked() { return {}; }
  static constexpr AssurancePolicy external() { return {true}; }
};

/// An assurance policy as the profile document and the reports spell it: `checked` or `external`
/// (docs/spec.md §10.6).
std::string_view assuranceSpelling(const AssurancePolicy &p);
/// The assurance policy `text` spells, or nothing.
std::optional<AssurancePolicy> parseAssurance(std::string_view text);

/// `ProviderPreference = auto | prefer P | only P`; `provider` is unused under `auto`.
struct ProviderPreference {
  enum class Kind : std::uint8_t { automatic, prefer, only };
  Kind kind = Kind::automatic;
  Provider provider = Provider::reference;
  bool operator==(const ProviderPreference &) const = default;
  static constexpr ProviderPreference autoPreference() { return {}; }
  static constexpr ProviderPreference prefer(Provider p) { return {Kind::prefer, p}; }
  static constexpr ProviderPreference only(Provider p) { return {Kind::only, p}; }
};

/// A provider preference as the command line and the gate result spell it: `auto`, `prefer:P`,
/// `only:P` (P a provider's spelling).
std::string preferenceSpelling(const ProviderPreference &p);
/// The preference `text` spells, or nothing.
std::optional<ProviderPreference> parsePreference(std::string_view text);

/// `KernelPolicy`, with upstream's defaults (docs/lineage.md §6).
struct KernelPolicy {
  Device device = Device::cpu;
  ProviderPreference provider;
  AssurancePolicy assurance = AssurancePolicy::checked();
  VJPMode vjpMode = VJPMode::torchlean_tape;
  bool operator==(const KernelPolicy &) const = default;
};

/// The policy of the maintained profile `checked_cpu` (docs/lineage.md §8).
KernelPolicy checkedCpuPolicy();

// --- The predicates of docs/lineage.md §4 ----------------------------------------------------

/// `ContractClaim.matchesObligation op vjpMode field claim`.
bool matchesObligation(BackendOp op, VJPMode vjpMode, ContractObligation field,
                       const ContractClaim &claim);
/// The claim `matchesObligation op vjpMode field` accepts (a VJP field without a VJP mode claims
/// `vjpUnavailable`): a capsule whose fields all carry it has its contracts aligned.
ContractClaim alignedClaim(BackendOp op, VJPMode vjpMode, ContractObligation field);
/// `KernelCapsule.contractsAligned`.
bool contractsAligned(const KernelCapsule &c);
/// `AssurancePolicy.acceptsTrust`.
bool acceptsTrust(const AssurancePolicy &policy, TrustLevel trust);
/// `AssurancePolicy.acceptsEvidence`.
bool acceptsEvidence(const AssurancePolicy &policy, const ContractEvidence &evidence);
/// `BackendOp.requiresVJP`.
bool requiresVJP(BackendOp op);
bool allowedBy(const KernelPolicy &policy, const KernelCapsule &c);
bool matchesPreference(const KernelPolicy &policy, const KernelCapsule &c);
bool matchesDevice(const KernelPolicy &policy, const KernelCapsule &c);
bool matchesVJP(const KernelPolicy &policy, const KernelCapsule &c);
/// `KernelCapsule.admissible`.
bool admissible(const KernelPolicy &policy, const KernelCapsule &c);

// --- Failures ----------------------------------------------------------------------------------

/// The failure kinds, in the order `acceptanceFailures` tests them (docs/lineage.md §6.2).
#define LO_ACCEPTANCE_FAILURE_KINDS(X)                                                             \
  X(operationMismatch, "operationMismatch")                                                        \
  X(forwardUnsupported, "forwardUnsupported")                                                      \
  X(contractsMisaligned, "contractsMisaligned")                                                    \
  X(trustRejected, "trustRejected")                                                                \
  X(providerRejected, "providerRejected")                                                          \
  X(deviceMismatch, "deviceMismatch")                                                              \
  X(vjpMismatch, "vjpMismatch")                                                                    \
  X(evidenceRejected, "evidenceRejected")

} // namespace lo::acceptance

namespace lo {
LO_DECLARE_VOCABULARY(AcceptanceFailureKind, LO_ACCEPTANCE_FAILURE_KINDS, "acceptance failure kind")
} // namespace lo

namespace lo::acceptance {

/// One `AcceptanceFailure`: `op` is the planned kernel's op (for operationMismatch, the planned
/// op, and `capsuleOp` the capsule's); the fields a kind does not carry keep their defaults.
struct AcceptanceFailure {
  AcceptanceFailureKind kind = AcceptanceFailureKind::operationMismatch;
  BackendOp op = BackendOp::relu;
  BackendOp capsuleOp = BackendOp::relu;   // operationMismatch
  std::string capsuleName;                 // every kind but operationMismatch
  TrustLevel trust = TrustLevel::checked;  // trustRejected
  Provider provider = Provider::reference; // providerRejected
  Device requestedDevice = Device::cpu;    // deviceMismatch
  Device actualDevice = Device::cpu;
  VJPMode requestedVJP = VJPMode::none; // vjpMismatch
  VJPMode actualVJP = VJPMode::none;
  ContractObligation obligation = ContractObligation::shape; // evidenceRejected
  ContractClaim claim;
  ContractEvidence evidence;
  bool operator==(const AcceptanceFailure &) const = default;
};

/// `AcceptanceFailure.message` (docs/lineage.md §6.4).
std::string message(const AcceptanceFailure &f);

/// `ContractEvidence.label` (docs/lineage.md §6.4; other tags §6.5).
std::string evidenceLabel(const ContractEvidence &e);

/// `PlannedKernel.acceptanceFailures policy {op, capsule}`: every failing test, in order.
std::vector<AcceptanceFailure> acceptanceFailures(const KernelPolicy &policy, BackendOp op,
                                                  const KernelCapsule &capsule);

/// `PlannedKernel.acceptable`: no failure.
bool acceptable(const KernelPolicy &policy, BackendOp op, const KernelCapsule &capsule);

/// `GraphKernelPlanResult`: the derived groups and, when rejected, every group's failures in group
/// order.
struct GraphAcceptance {
  GraphLoweringPlan groups; // coalesced under contract equality, always derived
  std::vector<AcceptanceFailure> failures;
  std::vector<std::size_t> failureGroups; // the index of each failure's group
  bool accepted() const { return failures.empty(); }
};

/// `acceptGraphKernelPlan graphPlan policy` (docs/lineage.md §6.3).
GraphAcceptance acceptGraphKernelPlan(const Interner &interner, const GraphExecutionPlan &graphPlan,
                                      const KernelPolicy &policy);

/// `GroupedKernelPlan.acceptanceFailures policy plan`: the groups as given.
GraphAcceptance acceptGroups(const Interner &interner, GraphLoweringPlan groups,
                             const KernelPolicy &policy);

} // namespace lo::acceptance
