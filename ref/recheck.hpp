// Recheck obligations: the four contract obligations of every audit row, each with the
// disposition of its evidence (docs/spec.md §6.1; Recheck.lean in the original). Data only: a
// report says which kind of evidence backs an obligation (or that none does), never that a foreign
// kernel is proved.
#pragma once

#include "ref/audit.hpp"

#include <string>
#include <vector>

namespace lo {

#define LO_CONTRACT_OBLIGATIONS(X)                                                                 \
  X(shape, "shape")                                                                                \
  X(layout, "layout")                                                                              \
  X(value, "value")                                                                                \
  X(vjp, "vjp")

#define LO_EVIDENCE_DISPOSITIONS(X)                                                                \
  X(proved, "proved")                                                                              \
  X(checked, "checked")                                                                            \
  X(guarded, "guarded")                                                                            \
  X(tested, "tested")                                                                              \
  X(fuzzed, "fuzzed")                                                                              \
  X(trusted, "trusted")                                                                            \
  X(missing, "missing")                                                                            \
  X(notApplicable, "notApplicable")

/// "The contract obligation attached to a backend capsule."
LO_DECLARE_VOCABULARY(ContractObligation, LO_CONTRACT_OBLIGATIONS, "ContractObligation")
/// "Normalized evidence class used by reports and policy filters." proved and checked are in
/// edition 2026-07 only, notApplicable in 2026-08 only (ref/edition.hpp).
LO_DECLARE_VOCABULARY(EvidenceDisposition, LO_EVIDENCE_DISPOSITIONS, "EvidenceDisposition")

/// "Convert detailed evidence into the coarse class used by recheck reports": theorem -> proved,
/// checker -> checked, runtimeGuard -> guarded, testSuite -> tested, fuzzOracle -> fuzzed,
/// trustedBoundary -> trusted, notProvided -> missing; notApplicable -> notApplicable (edition
/// 2026-08).
EvidenceDisposition disposition(const ContractEvidence &e);

/// The editions that have a disposition: those with an evidence tag of that disposition (derived
/// from ref/edition.hpp's declaration, never declared twice). `inEdition` and `valuesOf` find
/// it.
EditionSet editionsOf(EvidenceDisposition d);

/// "Whether this evidence gives any non-missing justification."
bool isProvided(const ContractEvidence &e);

/// "Whether this evidence crosses a trusted boundary."
bool isTrustedBoundary(const ContractEvidence &e);

/// "Recheck row for one obligation of one selected backend kernel."
struct ObligationReport {
  BackendOp op = BackendOp::relu;
  std::string capsuleName;
  ContractObligation obligation = ContractObligation::shape;
  ContractClaim claim;
  ContractEvidence evidence;
  EvidenceDisposition disposition = EvidenceDisposition::missing;
  bool operator==(const ObligationReport &) const = default;
};

/// A strict weak order on reports (field by field), for sets of reports: the gate is compared
/// by "the same *set* of reports" (docs/spec.md §6).
bool reportLess(const ObligationReport &a, const ObligationReport &b);

/// "Whether this obligation has no recorded evidence."
bool isMissing(const ObligationReport &r);

/// "Whether this obligation is discharged only by a trusted boundary."
bool isTrusted(const ObligationReport &r);

/// The contract descriptor of a capsule (or audit row) that an obligation names.
const ContractDescriptor &contractOf(const KernelCapsule &c, ContractObligation o);

/// `KernelAudit.obligationReports`: "All contract obligations associated with a selected kernel",
/// in the order shape, layout, value, vjp.
std::vector<ObligationReport> obligationReports(const Interner &interner, const KernelAudit &a);

/// "Obligations without any recorded evidence."
std::vector<ContractObligation> missingObligations(const Interner &interner, const KernelAudit &a);

/// "Obligations discharged by a trusted boundary."
std::vector<ContractObligation> trustedBoundaryObligations(const Interner &interner,
                                                           const KernelAudit &a);

/// `ExecutionAudit.obligationReports`: "All recheck obligations for all selected kernels", four
/// per row, in row order.
std::vector<ObligationReport> obligationReports(const Interner &interner, const ExecutionAudit &a);

/// "Recheck obligations with no recorded evidence."
std::vector<ObligationReport> missingReports(const Interner &interner, const ExecutionAudit &a);

/// "Recheck obligations discharged by trusted external boundaries."
std::vector<ObligationReport> trustedBoundaryReports(const Interner &interner,
                                                     const ExecutionAudit &a);

/// "Whether every obligation has a non-missing audit classification."
bool hasNoMissingEvidence(const Interner &interner, const ExecutionAudit &a);

} // namespace lo
