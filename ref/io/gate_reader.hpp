// Reading another implementation's gate result (docs/spec.md §6.5), for `diff --gate` and
// `verify --gates` (docs/spec.md §4.3), beside its writer (ref/io/gate_writer.hpp).
//
// The result is read strictly (ref/io/strict_json.hpp), as the schema
// docs/schema/gate-result.schema.json describes it: an unknown or repeated field, a wrong type, an
// unknown spelling (a claim tag, a failure kind) or a disposition that is not its evidence's is an
// input error, not a difference. Each report is kept as the text io::writeObligationReport writes
// for it (obligationReportText), as the reference's reports are, so that member order, white space
// and string escapes are free, as in every file of docs/spec.md §2.
#pragma once

#include "ref/edition.hpp"
#include "ref/gate.hpp"
#include "ref/io/source.hpp"

#include <string>
#include <vector>

namespace lo::io {

/// A gate result as another implementation wrote it.
struct ReadGateResult {
  struct Failure {
    GateFailureKind kind = GateFailureKind::missingEvidence;
    std::vector<std::string> reports; // as obligationReportText writes them, in order
  };
  std::string policyName;
  AssurancePolicy policy;
  bool accepted = true;
  std::vector<Failure> failures;
};

/// A report as io::writeObligationReport writes it: one spelling for each report, whatever the
/// member order, white space and string escapes of the text it was read from.
std::string obligationReportText(const ObligationReport &r);

/// Reads `source` as a gate result (docs/spec.md §6.5): `format` ("nn-backend/gate-result")
/// and `version` (1) are optional, as on every input; `policy` (a name and the six booleans),
/// `verdict` and `failures` are required, `accepted` exactly when there is no failure, every
/// kind a GateFailure spelling at most once, every report an object with exactly the six fields
/// of docs/spec.md §6.1 (its claim and evidence as in a capsule, §2.2), its disposition that of
/// its evidence. Every value is read in `edition` (docs/spec.md §1.6), as the gate's plan is.
/// Throws io::InputError (the source's name, line, column and JSON pointer).
ReadGateResult readGateResult(const Source &source, Edition edition = kNewestEdition);

} // namespace lo::io
