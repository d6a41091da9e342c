// Judging another implementation's selection (docs/spec.md §10.8): every departure of a candidate
// GraphExecutionPlan from the rule of §10.3-§10.5, found by the rule itself (is this capsule
// eligible, is there an earlier eligible one, ...), never by comparing with the reference's plan.
// `check-plan` reports them (docs/spec.md §10.8).
#pragma once

#include "ref/profile.hpp"

#include <optional>
#include <string>
#include <vector>

namespace lo::checks {

#define LO_DEPARTURES(X)                                                                           \
  X(plannedWithoutWork, "selection.planned-without-work")                                          \
  X(unknownNode, "selection.unknown-node")                                                         \
  X(kindMismatch, "selection.kind-mismatch")                                                       \
  X(missingNode, "selection.missing-node")                                                         \
  X(outOfOrder, "selection.out-of-order")                                                          \
  X(notInRegistry, "selection.not-in-registry")                                                    \
  X(notAdmissible, "selection.not-admissible")                                                     \
  X(preferenceIgnored, "selection.preference-ignored")                                             \
  X(earlierPassedOver, "selection.earlier-passed-over")                                            \
  X(planWhereError, "selection.plan-where-error")                                                  \
  X(errorWherePlan, "selection.error-where-plan")

} // namespace lo::checks

namespace lo {
LO_DECLARE_VOCABULARY(Departure, LO_DEPARTURES, "selection check")
} // namespace lo

namespace lo::checks {

/// One departure: its check, the JSON pointer into the candidate (or into the graph, for a
/// missing node) and one sentence.
struct Finding {
  Departure check;
  std::string pointer;
  std::string sentence;
};

/// Every departure of `candidate` (a GraphExecutionPlan whose capsules are in `interner`, or, when
/// `candidateError` is given, an implementation's planning failure) from selection under
/// `profile` for `graph`.
std::vector<Finding> judgeSelection(const selection::BackendProfile &profile,
                                    const selection::Graph &graph, const Interner &interner,
                                    const GraphExecutionPlan &candidate,
                                    const std::optional<std::string> &candidateError = {});

} // namespace lo::checks
