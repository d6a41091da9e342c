// Judging another implementation's gate result (docs/spec.md §6.5) against the reference gate, for
// `diff --gate` (docs/spec.md §4.3): "the same verdict, the same failure kinds in the same order,
// and for each kind the same reports".
//
// The implementation's result is read strictly (ref/io/strict_json.hpp), as the schema
// docs/schema/gate-result.schema.json describes it: an unknown or repeated field, a wrong type, an
// unknown spelling (a claim tag, a failure kind) or a disposition that is not its evidence's is an
// input error, not a difference. Each report is kept as the text io::writeObligationReport writes
// for it, as the reference's reports are, so that member order, white space and string escapes are
// free, as in every file of docs/spec.md §2.
#pragma once

#include "ref/gate.hpp"
#include "ref/io/source.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace lo::cli {

/// A gate result as another implementation wrote it.
struct ReadGateResult {
  struct Failure {
    GateFailureKind kind = GateFailureKind::missingEvidence;
    std::vector<std::string> reports; // as io::writeObligationReport writes them, in order
  };
  std::string policyName;
  AssurancePolicy policy;
  bool accepted = true;
  std::vector<Failure> failures;
};

/// How an implementation's gate result differs from the reference's, the first difference in
/// this order: the verdict, the failure kinds, the reports of one kind, the policy it names.
enum class GateDifference {
  none,
  acceptsRejected, // the implementation accepts, the reference rejects
  rejectsAccepted, // the implementation rejects, the reference accepts
  kinds,           // both reject, with other failure kinds (or another order)
  reports,         // the same kinds, but one kind's reports differ
  policy           // the same gate, but the result names another policy
};

struct GateComparison {
  GateDifference difference = GateDifference::none;
  std::string words; // one sentence naming the policy (text from the input escaped)
  std::string
      pointer; // into the implementation's result: /verdict, /failures, /failures/I, /policy
};

/// Compares gate results of one plan under one policy.
class GateComparer {
public:
  /// Reads `source` as a gate result (docs/spec.md §6.5): `format` ("nn-backend/gate-result")
  /// and `version` (1) are optional, as on every input; `policy` (a name and the six booleans),
  /// `verdict` and `failures` are required, `accepted` exactly when there is no failure, every
  /// kind a GateFailure spelling at most once, every report an object with exactly the six fields
  /// of docs/spec.md §6.1 (its claim and evidence as in a capsule, §2.2), its disposition that of
  /// its evidence. Throws io::InputError (the source's name, line, column and JSON pointer).
  ReadGateResult read(const io::Source &source);

  /// The first difference between `actual` and the reference `expected`, both under the policy
  /// named `policyName`. `exact`: each kind's reports as lists (order and multiplicity count), as
  /// for one lowering; else as sets (docs/spec.md §6.7). `audit` is every report of the reference
  /// audit, to name a report in words (io::reportLine) when the implementation lists it.
  GateComparison compare(std::string_view policyName, const AssurancePolicy &policy,
                         const GateResult &expected, const std::vector<ObligationReport> &audit,
                         const ReadGateResult &actual, bool exact);
};

} // namespace lo::cli
