// Judging another implementation's gate result (docs/spec.md §6.5, read by
// ref/io/gate_reader.hpp) against the reference gate, for `diff --gate` and `verify --gates`
// (docs/spec.md §4.3 and §6.7): verdict, failure kinds in order, and each kind's reports.
#pragma once

#include "ref/gate.hpp"
#include "ref/io/gate_reader.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace lo::checks {

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

/// The first difference between `actual` and the reference `expected`, both under the policy
/// named `policyName`. `exact`: each kind's reports as lists (order and multiplicity count), as
/// for one lowering; else as sets (docs/spec.md §6.7). `audit` is every report of the reference
/// audit, to name a report in words (io::reportLine) when the implementation lists it.
GateComparison compareGateResult(std::string_view policyName, const AssurancePolicy &policy,
                                 const GateResult &expected,
                                 const std::vector<ObligationReport> &audit,
                                 const io::ReadGateResult &actual, bool exact);

/// A gate exits 0 when it accepts and 1 when it rejects (docs/spec.md §6.6): the sentence of an
/// exit status `exitCode` that contradicts the result's verdict `accepted`, or "" when it does not
/// (another status is the run's failure, not this rule's; -1: no exit status, as a gate worker's).
/// The one rule of `diff --gate` and `verify --gates --impl`.
std::string exitContradiction(int exitCode, bool accepted);

} // namespace lo::checks
