#include "ref/gate.hpp"

#include <algorithm>
#include <unordered_set>

namespace lo {

std::optional<AssurancePolicy> policyPreset(std::string_view name) {
  for (const auto &p : kPolicyPresets)
    if (p.name == name)
      return p.policy;
  return std::nullopt;
}

std::string_view policyName(const AssurancePolicy &p) {
  for (const auto &preset : kPolicyPresets)
    if (preset.policy == p)
      return preset.name;
  return kCustomPolicy;
}

std::string policyNames(bool withCustom, std::string_view last) {
  std::vector<std::string_view> names;
  for (const auto &preset : kPolicyPresets)
    names.push_back(preset.name);
  if (withCustom)
    names.push_back(kCustomPolicy);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out.append(i == 0 ? "" : i + 1 == names.size() ? last : ", ").append(names[i]);
  return out;
}

bool acceptsTrust(const AssurancePolicy &policy, TrustLevel t) {
  switch (t) {
  case TrustLevel::verified: return true;
  case TrustLevel::checked: return policy.allowChecked;
  case TrustLevel::fuzzed: return policy.allowFuzzed;
  case TrustLevel::trusted_external: return policy.allowTrustedExternal;
  }
  return false;
}

bool acceptsDisposition(const AssurancePolicy &policy, EvidenceDisposition d) {
  using D = EvidenceDisposition;
  switch (d) {
  case D::missing: return !policy.requireEvidence;
  case D::trusted: return policy.allowTrustedExternal;
  case D::fuzzed: return policy.allowFuzzed;
  case D::guarded: return policy.allowRuntimeGuards;
  case D::tested: return policy.allowTestEvidence;
  case D::proved: return true;
  case D::checked: return true;
  case D::notApplicable: return true; // edition 2026-08: "every policy accepts it"
  }
  return false;
}

EvidenceDisposition failureDisposition(GateFailureKind kind) {
  using D = EvidenceDisposition;
  switch (kind) {
  case GateFailureKind::missingEvidence: return D::missing;
  case GateFailureKind::runtimeGuardEvidence: return D::guarded;
  case GateFailureKind::testEvidence: return D::tested;
  case GateFailureKind::trustedBoundary: return D::trusted;
  case GateFailureKind::fuzzEvidence: return D::fuzzed;
  }
  return D::missing;
}

bool isFuzzed(const ObligationReport &r) { return r.disposition == EvidenceDisposition::fuzzed; }
bool isGuarded(const ObligationReport &r) { return r.disposition == EvidenceDisposition::guarded; }
bool isTested(const ObligationReport &r) { return r.disposition == EvidenceDisposition::tested; }

// Gate.lean's `guardedReports`: the audit's `obligationReports` that `ObligationReport.isGuarded`
// keeps; likewise the tested and fuzz-backed ones. gateFailures lists the same reports by their
// disposition (failureDisposition); tests/gate/gate_test.cpp shows that the two agree.
std::vector<ObligationReport> guardedReports(const Interner &interner, const ExecutionAudit &a) {
  return reportsWhere(interner, a, isGuarded);
}
std::vector<ObligationReport> testedReports(const Interner &interner, const ExecutionAudit &a) {
  return reportsWhere(interner, a, isTested);
}
std::vector<ObligationReport> fuzzReports(const Interner &interner, const ExecutionAudit &a) {
  return reportsWhere(interner, a, isFuzzed);
}

std::optional<GateFailureKind> failureKindOf(const AssurancePolicy &policy, EvidenceDisposition d) {
  for (std::size_t k = 0; k < vocabularySize<GateFailureKind>(); ++k) {
    const auto kind = static_cast<GateFailureKind>(k);
    if (failureDisposition(kind) == d)
      return looksFor(policy, kind) ? std::optional(kind) : std::nullopt;
  }
  return std::nullopt; // proved, checked: admitted by every policy
}

std::vector<GateFailure> gateFailures(const Interner &interner, const AssurancePolicy &policy,
                                      const ExecutionAudit &a) {
  // `missing ++ guarded ++ tested ++ trusted ++ fuzzed`: the order of GateFailureKind.
  std::vector<GateFailure> out;
  for (std::size_t k = 0; k < vocabularySize<GateFailureKind>(); ++k) {
    const auto kind = static_cast<GateFailureKind>(k);
    if (!looksFor(policy, kind))
      continue;
    GateFailure f{kind, {}, {}};
    const EvidenceDisposition d = failureDisposition(kind);
    for (std::size_t row = 0; row < a.kernels.size(); ++row)
      for (auto &r : obligationReports(interner, a.kernels[row]))
        if (r.disposition == d) {
          f.reports.push_back(std::move(r));
          f.rows.push_back(row);
        }
    if (!f.reports.empty()) // `match reports with | [] => [] | reports => [...]`
      out.push_back(std::move(f));
  }
  return out;
}

GateResult gate(const Interner &interner, const AssurancePolicy &policy, const ExecutionAudit &a) {
  return GateResult{gateFailures(interner, policy, a)};
}

GateResult gate(Interner &interner, const AssurancePolicy &policy, const ExecutionPlan &p) {
  return gate(interner, policy, audit(interner, p));
}

bool acceptedBy(Interner &interner, const AssurancePolicy &policy, const ExecutionPlan &p) {
  return gate(interner, policy, p).accepted();
}

GateResult gate(Interner &interner, const AssurancePolicy &policy, const GraphLoweringPlan &p) {
  return gate(interner, policy, toExecutionPlan(p));
}

ExecutionAudit distinctRows(Interner &interner, const GraphLoweringPlan &p) {
  ExecutionPlan rows;
  std::unordered_set<std::uint64_t> seen;
  for (const LoweredKernelGroup &g : p.groups) {
    const auto key = (std::uint64_t{static_cast<std::uint32_t>(g.capsule)} << 8) |
                     static_cast<std::uint64_t>(g.op);
    if (seen.insert(key).second)
      rows.kernels.push_back({g.op, g.capsule});
  }
  return audit(interner, rows);
}

std::vector<ObligationReport> reportSet(const GateResult &result, GateFailureKind kind) {
  std::vector<ObligationReport> reports;
  for (const GateFailure &f : result.failures)
    if (f.kind == kind)
      reports = f.reports;
  std::sort(reports.begin(), reports.end(), reportLess);
  reports.erase(std::unique(reports.begin(), reports.end()), reports.end());
  return reports;
}

bool sameGate(const GateResult &a, const GateResult &b) {
  if (a.failures.size() != b.failures.size())
    return false;
  for (std::size_t i = 0; i < a.failures.size(); ++i)
    if (a.failures[i].kind != b.failures[i].kind ||
        reportSet(a, a.failures[i].kind) != reportSet(b, b.failures[i].kind))
      return false;
  return true;
}

} // namespace lo
