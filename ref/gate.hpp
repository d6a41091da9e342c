// Acceptance gates: an assurance policy decides from an audit's evidence whether a plan may run
// (docs/spec.md §6.2 and §6.4; Gate.lean and the AssurancePolicy of Types.lean in the original):
// the audit's obligation reports become a yes or no before a plan runs.
//
// The gate reads evidence only: a capsule's trust level is the planner's concern
// (`acceptsTrust`), and `allowChecked` does not enter the gate.
#pragma once

#include "ref/lowering.hpp"
#include "ref/recheck.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace lo {

/// An assurance policy (docs/spec.md §6.2): three fields for the planner (which trust levels it may
/// select), three for the gate (which evidence may discharge an obligation).
struct AssurancePolicy {
  bool allowChecked = false;
  bool allowFuzzed = false;
  bool allowTrustedExternal = false;
  bool requireEvidence = true;
  bool allowRuntimeGuards = false;
  bool allowTestEvidence = false;
  bool operator==(const AssurancePolicy &) const = default;

  /// The proof-only preset: only `requireEvidence`.
  static AssurancePolicy verified() { return {}; }
  /// The runtime preset: checked and fuzzed implementations; guard, test and fuzz evidence; not
  /// trusted-external implementations nor trusted boundaries.
  static AssurancePolicy checked() {
    return {.allowChecked = true,
            .allowFuzzed = true,
            .allowTrustedExternal = false,
            .requireEvidence = true,
            .allowRuntimeGuards = true,
            .allowTestEvidence = true};
  }
  /// `checked` plus `allowTrustedExternal`; the boundary stays visible in the audit.
  static AssurancePolicy external() {
    AssurancePolicy p = checked();
    p.allowTrustedExternal = true;
    return p;
  }
};

/// The presets, by name, in the order verified, checked, external.
struct NamedPolicy {
  std::string_view name;
  AssurancePolicy policy;
};
inline const NamedPolicy kPolicyPresets[] = {{"verified", AssurancePolicy::verified()},
                                             {"checked", AssurancePolicy::checked()},
                                             {"external", AssurancePolicy::external()}};

/// The preset `gate` and the Python module's gate() apply when none is named.
inline constexpr std::string_view kDefaultPolicy = "checked";

/// The preset of that name, if any.
std::optional<AssurancePolicy> policyPreset(std::string_view name);

/// The name of a policy that is no preset's.
inline constexpr std::string_view kCustomPolicy = "custom";

/// The name of the preset equal to `p`, else kCustomPolicy.
std::string_view policyName(const AssurancePolicy &p);

/// The presets' names in order, then (`withCustom`) kCustomPolicy, for a message: joined by ", ",
/// the last by `last` ("verified, checked, external, custom").
std::string policyNames(bool withCustom, std::string_view last = ", ");

/// The six booleans, in the order of the structure, with their names (for the writers and the
/// command line).
struct PolicyFlag {
  std::string_view name;
  bool AssurancePolicy::*field;
};
inline constexpr PolicyFlag kPolicyFlags[] = {
    {"allowChecked", &AssurancePolicy::allowChecked},
    {"allowFuzzed", &AssurancePolicy::allowFuzzed},
    {"allowTrustedExternal", &AssurancePolicy::allowTrustedExternal},
    {"requireEvidence", &AssurancePolicy::requireEvidence},
    {"allowRuntimeGuards", &AssurancePolicy::allowRuntimeGuards},
    {"allowTestEvidence", &AssurancePolicy::allowTestEvidence}};

/// Whether the policy lets the planner select a capsule of trust level `t`. The
/// planner's question, not the gate's: `gate` never calls it.
bool acceptsTrust(const AssurancePolicy &policy, TrustLevel t);

/// Whether the policy admits a disposition: missing unless
/// requireEvidence, trusted when allowTrustedExternal, fuzzed when allowFuzzed, guarded when
/// allowRuntimeGuards, tested when allowTestEvidence; proved, checked (edition 2026-07) and
/// notApplicable (2026-08) always.
bool acceptsDisposition(const AssurancePolicy &policy, EvidenceDisposition d);

#define LO_GATE_FAILURE_KINDS(X)                                                                   \
  X(missingEvidence, "missingEvidence")                                                            \
  X(runtimeGuardEvidence, "runtimeGuardEvidence")                                                  \
  X(testEvidence, "testEvidence")                                                                  \
  X(trustedBoundary, "trustedBoundary")                                                            \
  X(fuzzEvidence, "fuzzEvidence")

/// The kinds of `GateFailure`, in the order `gateFailures` lists them.
LO_DECLARE_VOCABULARY(GateFailureKind, LO_GATE_FAILURE_KINDS, "GateFailure")

/// The disposition whose reports a failure of this kind lists (missingEvidence: missing,
/// runtimeGuardEvidence: guarded, testEvidence: tested, trustedBoundary: trusted, fuzzEvidence:
/// fuzzed).
EvidenceDisposition failureDisposition(GateFailureKind kind);

/// One reason for a rejection: a kind and its reports.
/// `rows` is not in the original: the audit row of each report (for the text report).
struct GateFailure {
  GateFailureKind kind = GateFailureKind::missingEvidence;
  std::vector<ObligationReport> reports;
  std::vector<std::size_t> rows;
};

/// A gate's result: `accepted`, or `rejected`
/// with its failures (never an empty list).
struct GateResult {
  std::vector<GateFailure> failures;
  bool accepted() const { return failures.empty(); }
};

/// Whether a report's disposition is fuzzed, guarded, tested.
bool isFuzzed(const ObligationReport &r);
bool isGuarded(const ObligationReport &r);
bool isTested(const ObligationReport &r);

std::vector<ObligationReport> guardedReports(const Interner &interner, const ExecutionAudit &a);
std::vector<ObligationReport> testedReports(const Interner &interner, const ExecutionAudit &a);
/// The reports whose disposition is fuzzed.
std::vector<ObligationReport> fuzzReports(const Interner &interner, const ExecutionAudit &a);

/// Whether `gateFailures` looks for failures of `kind` under `policy`: missingEvidence when
/// requireEvidence, runtimeGuardEvidence unless allowRuntimeGuards, testEvidence unless
/// allowTestEvidence, trustedBoundary unless allowTrustedExternal, fuzzEvidence unless allowFuzzed.
/// `Policy`: an AssurancePolicy, or the solver's policy of the gate's encoding (proofs/gate.hpp),
/// whose six fields are terms: the encoding asks this code, not a copy of it.
template <class Policy>
auto looksFor(const Policy &policy, GateFailureKind kind)
    -> std::remove_cvref_t<decltype(policy.requireEvidence)> {
  // `if policy.requireEvidence then ...`, `if policy.allowX then [] else ...`
  switch (kind) {
  case GateFailureKind::missingEvidence: break;
  case GateFailureKind::runtimeGuardEvidence: return !policy.allowRuntimeGuards;
  case GateFailureKind::testEvidence: return !policy.allowTestEvidence;
  case GateFailureKind::trustedBoundary: return !policy.allowTrustedExternal;
  case GateFailureKind::fuzzEvidence: return !policy.allowFuzzed;
  }
  return policy.requireEvidence;
}

/// The kind under which `gateFailures` lists a report of disposition `d` under `policy` (the kind
/// whose failureDisposition is `d`, when the policy looks for it), or none when the policy admits
/// it: `gateFailures`' own pairing of looksFor and failureDisposition, for the writers and checks
/// that meet one report at a time.
std::optional<GateFailureKind> failureKindOf(const AssurancePolicy &policy, EvidenceDisposition d);

/// The verdict of a gate whose reports are held elsewhere (as sets, counts, ...): accepted unless
/// a kind the policy looks for has reports (`hasReports(kind)`), as `gate` decides.
template <class HasReports>
bool acceptedGiven(const AssurancePolicy &policy, HasReports hasReports) {
  for (std::size_t k = 0; k < vocabularySize<GateFailureKind>(); ++k)
    if (looksFor(policy, static_cast<GateFailureKind>(k)) &&
        hasReports(static_cast<GateFailureKind>(k)))
      return false;
  return true;
}

/// `sameGate` of two gates under `policy` whose reports are held elsewhere: `sameSet(kind)` says
/// whether both have the same set of reports of that kind. Only the kinds the policy looks for
/// enter: equal sets for each of them is the same verdict, the same failure kinds in the same
/// order and the same set of reports per kind.
template <class SameSet> bool sameGateGiven(const AssurancePolicy &policy, SameSet sameSet) {
  for (std::size_t k = 0; k < vocabularySize<GateFailureKind>(); ++k)
    if (looksFor(policy, static_cast<GateFailureKind>(k)) &&
        !sameSet(static_cast<GateFailureKind>(k)))
      return false;
  return true;
}

/// The failures of docs/spec.md §6.3, in that order, each only when it has reports: missingEvidence
/// when requireEvidence; runtimeGuardEvidence unless allowRuntimeGuards; testEvidence unless
/// allowTestEvidence; trustedBoundary unless allowTrustedExternal; fuzzEvidence unless allowFuzzed.
std::vector<GateFailure> gateFailures(const Interner &interner, const AssurancePolicy &policy,
                                      const ExecutionAudit &a);

/// The gate of an audit under `policy` (docs/spec.md §6.4).
GateResult gate(const Interner &interner, const AssurancePolicy &policy, const ExecutionAudit &a);

/// The gate of an execution plan: the gate of its audit.
GateResult gate(Interner &interner, const AssurancePolicy &policy, const ExecutionPlan &p);

/// Whether the plan's gate accepts.
bool acceptedBy(Interner &interner, const AssurancePolicy &policy, const ExecutionPlan &p);

/// The gate of a lowering: the gate of `toExecutionPlan`.
GateResult gate(Interner &interner, const AssurancePolicy &policy, const GraphLoweringPlan &p);

/// The audit of a lowering's distinct (op, capsule) rows, in order of first use. A gate depends
/// only on the set of its reports (docs/spec.md §6.7): under every policy the gate of these rows
/// has the verdict, the failure kinds and the report sets (sameGate) of `gate(interner, policy,
/// p)`, at the cost of the distinct rows rather than of every group.
ExecutionAudit distinctRows(Interner &interner, const GraphLoweringPlan &p);

/// The reports of `kind` in a result as a set (sorted by reportLess, duplicates removed; empty
/// when the result has no failure of that kind): what `sameGate` compares.
std::vector<ObligationReport> reportSet(const GateResult &result, GateFailureKind kind);

/// docs/spec.md §6.7 compares two results by this: the same verdict, the same
/// failure kinds in the same order, and for each kind the same *set* of reports (multiplicities
/// may differ).
bool sameGate(const GateResult &a, const GateResult &b);

} // namespace lo
