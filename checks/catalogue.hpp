// What each check means, and a minimal failing example of it: used by `explain`, by the report
// writers (SARIF rule descriptions, JUnit test cases) and by the tests.
#pragma once

#include "checks/checks.hpp"

#include <string_view>

namespace lo::checks {

struct CheckInfo {
  Check check;
  /// The "fails when" sentence of docs/spec.md §3.
  std::string_view failsWhen;
  /// What the check protects and how it words its findings (a short paragraph).
  std::string_view meaning;
  /// The mode it applies in (nullopt: both).
  std::optional<Mode> onlyIn;
  /// It judges what only a group with `kinds` and `groupingKind` has (or the singleton lowering),
  /// so it is not run in an edition whose groups lack them (`EditionRules::groupKinds`,
  /// ref/edition.hpp; docs/spec.md §1.6).
  bool needsGroupKinds = false;
};

const CheckInfo &info(Check check);

/// Whether `check` is run in `mode` and `edition` (its `onlyIn` and `needsGroupKinds`).
bool appliesIn(Check check, Mode mode, Edition edition);

/// The note of a report in an edition whose groups have no `kinds` and no `groupingKind`: the
/// checks that are not run there (docs/spec.md §3.1); nothing in the other editions.
std::optional<std::string> notRunNote(Edition edition);

/// A minimal plan and a candidate that fails exactly `check` (and no other check) under
/// `options`.
struct Example {
  GraphExecutionPlan plan;
  io::LoweringDocument candidate;
  Options options;
  /// One sentence: what is wrong with the candidate.
  std::string_view story;
  /// A second check the example fails: for `gate`, the check that names the mistake itself (under
  /// a conforming equality no candidate changes the gate and passes every other check); for a
  /// mistake that also changes the gate (a dropped node, a wrong op), `gate`.
  std::optional<Check> alongside;
};

Example example(Interner &interner, Check check);

} // namespace lo::checks
