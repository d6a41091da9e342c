// What each selection check means, and a minimal example that fails it alone (docs/spec.md §10.8):
// used by `explain` and by the tests.
#pragma once

#include "checks/selection.hpp"

namespace lo::checks {

/// The "finding" of docs/spec.md §10.8's table.
std::string_view findingOf(Departure d);

/// A graph, a profile (with its own modules) and a candidate selection, or a planning failure,
/// that fail exactly `d` and no other selection check.
struct SelectionExample {
  selection::Graph graph;
  selection::BackendProfile profile;
  GraphExecutionPlan candidate;
  std::optional<std::string> failed; // the implementation failed to plan, with this message
  /// One sentence: what is wrong with the candidate.
  std::string_view story;
};

/// The example of `d`; kinds and capsules interned in `interner`. Its values are those of every
/// edition of the lean-dojo lineage (docs/spec.md §1.6).
SelectionExample selectionExample(Interner &interner, Departure d);

} // namespace lo::checks
