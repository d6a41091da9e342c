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

/// Which of a capsule's four contracts an obligation is about.
LO_DECLARE_VOCABULARY(ContractObligation, LO_CONTRACT_OBLIGATIONS, "ContractObligation")
/// The coarse class of an evidence tag, as reports and policies use it. proved and checked are in
/// edition 2026-07 only, notApplicable in 2026-08 only (ref/edition.hpp).
LO_DECLARE_VOCABULARY(EvidenceDisposition, LO_EVIDENCE_DISPOSITIONS, "EvidenceDisposition")

/// The disposition of an evidence tag: theorem -> proved,
/// checker -> checked, runtimeGuard -> guarded, testSuite -> tested, fuzzOracle -> fuzzed,
/// trustedBoundary -> trusted, notProvided -> missing; notApplicable -> notApplicable (edition
/// 2026-08).
EvidenceDisposition disposition(const ContractEvidence &e);

/// The editions that have a disposition: those with an evidence tag of that disposition (derived
/// from ref/edition.hpp's declaration, never declared twice). `inEdition` and `valuesOf` find
/// it.
EditionSet editionsOf(EvidenceDisposition d);

/// Whether the evidence is anything but notProvided.
bool isProvided(const ContractEvidence &e);

/// Whether the evidence is a trusted boundary.
bool isTrustedBoundary(const ContractEvidence &e);

/// One obligation of one selected kernel, with its claim, evidence and disposition.
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
/// by its set of reports (docs/spec.md §6.7).
bool reportLess(const ObligationReport &a, const ObligationReport &b);

/// Whether the obligation's disposition is missing.
bool isMissing(const ObligationReport &r);

/// Whether the obligation rests on a trusted boundary only.
bool isTrusted(const ObligationReport &r);

/// The contract descriptor of a capsule (or audit row) that an obligation names.
const ContractDescriptor &contractOf(const KernelCapsule &c, ContractObligation o);
ContractDescriptor &contractOf(KernelCapsule &c, ContractObligation o);

/// `KernelAudit.obligationReports`: a row's four obligations,
/// in the order shape, layout, value, vjp.
std::vector<ObligationReport> obligationReports(const Interner &interner, const KernelAudit &a);

/// The row's obligations whose disposition is missing.
std::vector<ContractObligation> missingObligations(const Interner &interner, const KernelAudit &a);

/// The row's obligations that rest on a trusted boundary.
std::vector<ContractObligation> trustedBoundaryObligations(const Interner &interner,
                                                           const KernelAudit &a);

/// `(obligationReports a).filter keep`: the reports `keep` keeps, in row order.
std::vector<ObligationReport> reportsWhere(const Interner &interner, const ExecutionAudit &a,
                                           bool (*keep)(const ObligationReport &));

/// `ExecutionAudit.obligationReports`: every row's obligations, four
/// per row, in row order.
std::vector<ObligationReport> obligationReports(const Interner &interner, const ExecutionAudit &a);

/// The reports whose disposition is missing.
std::vector<ObligationReport> missingReports(const Interner &interner, const ExecutionAudit &a);

/// The reports that rest on a trusted boundary.
std::vector<ObligationReport> trustedBoundaryReports(const Interner &interner,
                                                     const ExecutionAudit &a);

/// Whether no report is missing.
bool hasNoMissingEvidence(const Interner &interner, const ExecutionAudit &a);

} // namespace lo
