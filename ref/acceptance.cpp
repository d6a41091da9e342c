// The acceptance gate of the lean-dojo lineage (docs/lineage.md §6).
#include "ref/acceptance.hpp"

#include <array>
#include <iterator>
#include <utility>

namespace lo::acceptance {

KernelPolicy checkedCpuPolicy() {
  return {Device::cpu, ProviderPreference::autoPreference(), AssurancePolicy::checked(),
          VJPMode::torchlean_tape};
}

bool matchesObligation(BackendOp op, VJPMode vjpMode, ContractObligation field,
                       const ContractClaim &claim) {
  using Tag = ContractClaim::Tag;
  switch (field) {
  case ContractObligation::shape: return claim.tag == Tag::shapeSafety && claim.op == op;
  case ContractObligation::layout: return claim.tag == Tag::layoutCompatibility && claim.op == op;
  case ContractObligation::value: return claim.tag == Tag::valueRefinement && claim.op == op;
  case ContractObligation::vjp:
    if (claim.tag == Tag::vjpRefinement)
      return claim.op == op && claim.mode == vjpMode && claim.mode != VJPMode::none;
    if (claim.tag == Tag::vjpUnavailable)
      return claim.op == op && vjpMode == VJPMode::none;
    return false;
  }
  return false;
}

ContractClaim alignedClaim(BackendOp op, VJPMode vjpMode, ContractObligation field) {
  using Tag = ContractClaim::Tag;
  ContractClaim c;
  c.op = op;
  switch (field) {
  case ContractObligation::shape: c.tag = Tag::shapeSafety; break;
  case ContractObligation::layout: c.tag = Tag::layoutCompatibility; break;
  case ContractObligation::value: c.tag = Tag::valueRefinement; break;
  case ContractObligation::vjp:
    c.tag = vjpMode == VJPMode::none ? Tag::vjpUnavailable : Tag::vjpRefinement;
    c.mode = vjpMode;
    break;
  }
  return c;
}

namespace {
constexpr std::array kObligations{ContractObligation::shape, ContractObligation::layout,
                                  ContractObligation::value, ContractObligation::vjp};
} // namespace

bool contractsAligned(const KernelCapsule &c) {
  for (ContractObligation o : kObligations)
    if (!matchesObligation(c.op, c.vjpMode, o, contractOf(c, o).claim))
      return false;
  return true;
}

bool acceptsTrust(const AssurancePolicy &policy, TrustLevel trust) {
  // docs/lineage.md §6.5: only trusted-external depends on the policy.
  return trust != TrustLevel::trusted_external || policy.allowTrustedExternal;
}

bool acceptsEvidence(const AssurancePolicy &policy, const ContractEvidence &evidence) {
  switch (evidence.tag) {
  case EvidenceTag::trustedBoundary: return policy.allowTrustedExternal;
  case EvidenceTag::notProvided: return false; // docs/lineage.md §6.5
  default: return true;
  }
}

bool requiresVJP(BackendOp op) {
  return op != BackendOp::rand_uniform && op != BackendOp::bernoulli_mask;
}

bool allowedBy(const KernelPolicy &policy, const KernelCapsule &c) {
  return acceptsTrust(policy.assurance, c.trustLevel);
}

bool matchesPreference(const KernelPolicy &policy, const KernelCapsule &c) {
  return policy.provider.kind != ProviderPreference::Kind::only ||
         policy.provider.provider == c.provider;
}

bool matchesDevice(const KernelPolicy &policy, const KernelCapsule &c) {
  return policy.device == c.device;
}

bool matchesVJP(const KernelPolicy &policy, const KernelCapsule &c) {
  if (policy.vjpMode == VJPMode::none || !requiresVJP(c.op))
    return true;
  if (policy.vjpMode == VJPMode::torchlean_tape)
    return c.vjpMode == VJPMode::torchlean_tape || c.vjpMode == VJPMode::backend_vjp;
  return c.vjpMode == VJPMode::backend_vjp;
}

bool admissible(const KernelPolicy &policy, const KernelCapsule &c) {
  return c.supportsForward && contractsAligned(c) && allowedBy(policy, c) &&
         matchesPreference(policy, c) && matchesDevice(policy, c) && matchesVJP(policy, c);
}

std::string evidenceLabel(const ContractEvidence &e) {
  switch (e.tag) {
  case EvidenceTag::runtimeGuard: return "guarded at runtime by " + e.text;
  case EvidenceTag::testSuite: return "covered by test suite " + e.text;
  case EvidenceTag::trustedBoundary: return "trusted boundary: " + e.text;
  case EvidenceTag::notApplicable: return "not applicable";
  // Outside the lineage (docs/lineage.md §6.5).
  case EvidenceTag::theorem: return "proved by theorem " + e.text;
  case EvidenceTag::checker: return "checked by " + e.text;
  case EvidenceTag::fuzzOracle: return "fuzzed by " + e.text;
  case EvidenceTag::notProvided: return "not provided";
  }
  return {};
}

std::string message(const AcceptanceFailure &f) {
  const std::string op(spelling(f.op));
  const std::string &name = f.capsuleName;
  switch (f.kind) {
  case AcceptanceFailureKind::operationMismatch:
    return "planned operation " + op + " does not match capsule operation " +
           std::string(spelling(f.capsuleOp));
  case AcceptanceFailureKind::forwardUnsupported:
    return name + " has no forward implementation for " + op;
  case AcceptanceFailureKind::contractsMisaligned:
    return name + " has misaligned contract claims for " + op;
  case AcceptanceFailureKind::trustRejected:
    return name + " uses rejected trust level " + std::string(spelling(f.trust)) + " for " + op;
  case AcceptanceFailureKind::providerRejected:
    return name + " uses rejected provider " + std::string(spelling(f.provider)) + " for " + op;
  case AcceptanceFailureKind::deviceMismatch:
    return name + " targets " + std::string(spelling(f.actualDevice)) + ", not requested " +
           std::string(spelling(f.requestedDevice)) + ", for " + op;
  case AcceptanceFailureKind::vjpMismatch:
    return name + " offers " + std::string(spelling(f.actualVJP)) + ", not requested " +
           std::string(spelling(f.requestedVJP)) + ", for " + op;
  case AcceptanceFailureKind::evidenceRejected:
    return name + " has rejected " + std::string(spelling(f.obligation)) + " evidence for " + op +
           ": " + evidenceLabel(f.evidence);
  }
  return {};
}

std::vector<AcceptanceFailure> acceptanceFailures(const KernelPolicy &policy, BackendOp op,
                                                  const KernelCapsule &capsule) {
  std::vector<AcceptanceFailure> out;
  const auto failure = [&](AcceptanceFailureKind kind) -> AcceptanceFailure & {
    AcceptanceFailure f;
    f.kind = kind;
    f.op = op;
    f.capsuleName = capsule.name;
    return out.emplace_back(std::move(f));
  };
  if (op != capsule.op) {
    AcceptanceFailure &f = failure(AcceptanceFailureKind::operationMismatch);
    f.capsuleOp = capsule.op;
    f.capsuleName.clear(); // operationMismatch carries the two ops only
  }
  if (!capsule.supportsForward)
    failure(AcceptanceFailureKind::forwardUnsupported);
  if (!contractsAligned(capsule))
    failure(AcceptanceFailureKind::contractsMisaligned);
  if (!allowedBy(policy, capsule))
    failure(AcceptanceFailureKind::trustRejected).trust = capsule.trustLevel;
  if (!matchesPreference(policy, capsule))
    failure(AcceptanceFailureKind::providerRejected).provider = capsule.provider;
  if (!matchesDevice(policy, capsule)) {
    AcceptanceFailure &f = failure(AcceptanceFailureKind::deviceMismatch);
    f.requestedDevice = policy.device;
    f.actualDevice = capsule.device;
  }
  if (!matchesVJP(policy, capsule)) {
    AcceptanceFailure &f = failure(AcceptanceFailureKind::vjpMismatch);
    f.requestedVJP = policy.vjpMode;
    f.actualVJP = capsule.vjpMode;
  }
  // The one-row audit's rejected reports: its op is the planned op (docs/lineage.md §6.1).
  for (ContractObligation o : kObligations) {
    const ContractDescriptor &d = contractOf(capsule, o);
    if (acceptsEvidence(policy.assurance, d.evidence))
      continue;
    AcceptanceFailure &f = failure(AcceptanceFailureKind::evidenceRejected);
    f.obligation = o;
    f.claim = d.claim;
    f.evidence = d.evidence;
  }
  return out;
}

bool acceptable(const KernelPolicy &policy, BackendOp op, const KernelCapsule &capsule) {
  return acceptanceFailures(policy, op, capsule).empty();
}

GraphAcceptance acceptGroups(const Interner &interner, GraphLoweringPlan groups,
                             const KernelPolicy &policy) {
  GraphAcceptance result;
  result.groups = std::move(groups);
  for (std::size_t i = 0; i < result.groups.groups.size(); ++i) {
    const LoweredKernelGroup &g = result.groups.groups[i];
    std::vector<AcceptanceFailure> f =
        acceptanceFailures(policy, g.op, interner.capsule(g.capsule));
    result.failureGroups.insert(result.failureGroups.end(), f.size(), i);
    result.failures.insert(result.failures.end(), std::make_move_iterator(f.begin()),
                           std::make_move_iterator(f.end()));
  }
  return result;
}

GraphAcceptance acceptGraphKernelPlan(const Interner &interner, const GraphExecutionPlan &graphPlan,
                                      const KernelPolicy &policy) {
  return acceptGroups(interner, toCoalescedLoweringPlan(interner, graphPlan, Equality::contract),
                      policy);
}

std::string_view assuranceSpelling(const AssurancePolicy &p) {
  return p.allowTrustedExternal ? "external" : "checked";
}

std::optional<AssurancePolicy> parseAssurance(std::string_view text) {
  for (const AssurancePolicy p : {AssurancePolicy::checked(), AssurancePolicy::external()})
    if (assuranceSpelling(p) == text)
      return p;
  return std::nullopt;
}

std::string preferenceSpelling(const ProviderPreference &p) {
  switch (p.kind) {
  case ProviderPreference::Kind::automatic: return "auto";
  case ProviderPreference::Kind::prefer: return "prefer:" + std::string(spelling(p.provider));
  case ProviderPreference::Kind::only: return "only:" + std::string(spelling(p.provider));
  }
  return {};
}

std::optional<ProviderPreference> parsePreference(std::string_view text) {
  if (text == "auto")
    return ProviderPreference::autoPreference();
  const auto colon = text.find(':');
  if (colon == std::string_view::npos)
    return std::nullopt;
  const std::string_view how = text.substr(0, colon);
  const auto provider = parseSpelling<Provider>(text.substr(colon + 1));
  if (!provider)
    return std::nullopt;
  if (how == "prefer")
    return ProviderPreference::prefer(*provider);
  if (how == "only")
    return ProviderPreference::only(*provider);
  return std::nullopt;
}

} // namespace lo::acceptance
