// Judging another implementation's gate result (docs/spec.md §6.5) against the reference gate, for
// `diff --gate` (docs/spec.md §4.3): "the same verdict, the same failure kinds in the same order,
// and for each kind the same reports".
//
// The implementation's result is read as JSON, not through the reference readers: each report is
// kept as canonical text (members sorted by name, strings re-escaped, no white space), and the
// reference's reports are written by io::writeObligationReport and brought to the same form, so
// that member order, white space and string escapes are free, as in every file of docs/spec.md §2.
#pragma once

#include "ref/gate.hpp"

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace lo::cli {

/// A document that is not a gate result: where (a JSON pointer) and what is wrong.
struct GateResultError : std::runtime_error {
  GateResultError(std::string pointer, const std::string &message)
      : std::runtime_error(pointer + ": " + message), pointer(std::move(pointer)),
        message(message) {}
  std::string pointer, message;
};

/// A gate result as another implementation wrote it.
struct ReadGateResult {
  struct Failure {
    GateFailureKind kind = GateFailureKind::missingEvidence;
    std::vector<std::string> reports; // canonical JSON, in the order written
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
  GateComparer();
  ~GateComparer();
  GateComparer(const GateComparer &) = delete;
  GateComparer &operator=(const GateComparer &) = delete;

  /// Reads `text` as a gate result: `format` ("nn-backend/gate-result") and `version` (1) are
  /// optional, as on every input; `policy` (a name and the six booleans), `verdict` and `failures`
  /// are required, `accepted` exactly when there is no failure, every kind a GateFailure spelling
  /// at most once, every report an object with exactly the six fields of docs/spec.md §6.1.
  /// Throws GateResultError.
  ReadGateResult read(std::string_view text);

  /// The first difference between `actual` and the reference `expected`, both under the policy
  /// named `policyName`. `exact`: each kind's reports as lists (order and multiplicity count), as
  /// for one lowering; else as sets (docs/spec.md §6.7). `audit` is every report of the reference
  /// audit, to name a report in words (io::reportLine) when the implementation lists it.
  GateComparison compare(std::string_view policyName, const AssurancePolicy &policy,
                         const GateResult &expected, const std::vector<ObligationReport> &audit,
                         const ReadGateResult &actual, bool exact);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace lo::cli
