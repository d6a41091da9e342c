// Writers of a gate result (docs/spec.md §6.5): the `nn-backend/gate-result` JSON document, and the
// text report in the original's report style (Report.lean: `ContractClaim.label`,
// `ContractEvidence.label`, `ContractDescriptor.reportLine`).
#pragma once

#include "ref/io/escape.hpp"

#include "ref/gate.hpp"
#include "ref/io/limits.hpp"
#include "ref/io/output.hpp"

#include <string>
#include <string_view>
#include <utility>

namespace lo::io {

/// A claim in words: "shape safety for relu",
/// "flat-row-major layout compatibility for relu", "relu forward refines SPEC",
/// "relu backend-vjp VJP refines SPEC".
std::string claimLabel(const ContractClaim &c);

/// Evidence in words: "proved by NAME",
/// "accepted by proved checker NAME", "guarded at runtime by NAME", "covered by test suite NAME",
/// "compared by fuzz oracle NAME", "trusted boundary: REASON", "no evidence recorded".
std::string evidenceLabel(const ContractEvidence &e);

/// One obligation report on one line: "relu: native_cuda.relu value: relu forward refines SPEC;
/// trusted boundary: REASON".
std::string reportLine(const ObligationReport &r);

/// One obligation report as JSON: {op, capsuleName, obligation, claim, evidence, disposition}.
void writeObligationReport(Sink &out, const ObligationReport &r);

// One writer, one truth (docs/spec.md §6.5): every gate result this tool writes or compares with
// (`gate`, the expected gate results of `gen`, the reference of `verify --gates` and `diff
// --gate`) has every report bounded by boundedReport, so that `gate`'s own output is the
// reference byte for byte, whatever the length of a string.

/// The `nn-backend/gate-result` document: {format, version, policy {name, the six booleans},
/// verdict, failures [{kind, reports}]}, every report bounded (boundedReport).
void writeGateResult(Sink &out, const AssurancePolicy &policy, const GateResult &result);

/// The text report: the verdict and the policy on the first line, then each failure kind with its
/// number of reports, and each report on its own line (with its audit row), every report bounded.
void writeGateText(Sink &out, const AssurancePolicy &policy, const GateResult &result);

/// `x` (an ObligationReport, or an AcceptanceFailure of ref/io/acceptance_writer.hpp) with its
/// capsule name, claim spec and evidence text cut at kMaxGateTextBytes, never inside a UTF-8
/// character, and marked (cutText; docs/spec.md §6.5, "Bound").
template <class T> T boundedTexts(T x) {
  cutText(x.capsuleName, kMaxGateTextBytes);
  if (x.claim.spec)
    cutText(*x.claim.spec, kMaxGateTextBytes);
  cutText(x.evidence.text, kMaxGateTextBytes);
  return x;
}

/// An obligation report bounded (boundedTexts).
inline ObligationReport boundedReport(ObligationReport r) { return boundedTexts(std::move(r)); }

/// A report of the reference gate as a gate result holds it: obligationReportText (the reader's
/// spelling, ref/io/gate_reader.hpp) of boundedReport(r). What `verify --gates` and `diff --gate`
/// compare an implementation's reports with.
std::string gateReportText(const ObligationReport &r);

/// The gate of `audit` under `policy`, written (text, or the JSON document when `json`) exactly
/// as writeGateText and writeGateResult write `gate(interner, policy, audit)`, but with every
/// report bounded (boundedReport) and without holding the result: the bounded reports of each
/// distinct audit view are made once, one pass counts, and one pass per failing kind writes. The
/// `gate` command's writer: its memory is the audit and the distinct capsules, its output at
/// most about 3 KiB a report. Returns whether the gate accepts.
bool writeBoundedGate(Sink &out, const Interner &interner, const AssurancePolicy &policy,
                      const ExecutionAudit &audit, bool json);

/// Convenience: the JSON document as a string.
std::string gateResultJson(const AssurancePolicy &policy, const GateResult &result);

} // namespace lo::io
