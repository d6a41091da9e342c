// The cases of the conformance suite (`gen`) and of the differential runner (`diff`): hand-picked
// edge cases first (tools/suite/edge_cases.hpp), then random cases from the one plan generator
// (tools/plans/plans.hpp), each written in an encoding (tools/suite/plan_json.hpp).
//
// Deterministic (docs/spec.md §4.3, "gen"): every random choice comes from SplitMix64
// (plans::Rng, tools/plans/choices.hpp), so the same seed gives the same plans on every platform.
// Case `i` of seed `S` and edition `E` is the same plan in `gen` and in `diff`; every value of it
// is one of the edition's (docs/spec.md §1.6, ref/edition.hpp).
#pragma once

#include "ref/edition.hpp"
#include "ref/gate.hpp"
#include "ref/interner.hpp"
#include "ref/ir.hpp"
#include "tools/plans/choices.hpp"
#include "tools/suite/plan_json.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace lo::suite {

struct Case {
  std::string name; // a short slug, e.g. "trusted-external-in-checked-run" or "random"
  GraphExecutionPlan plan;
  Encoding encoding;
  /// What the case asks beyond its lowering (docs/spec.md §4.3, "What a case asks"), drawn
  /// from the seed and the index alone, so that `gen` and `diff` ask the same of case `i`:
  /// whether the output must carry its ExecutionAudit (docs/spec.md §2.6; one case in
  /// kAuditShare), and the custom AssurancePolicy its gate is judged under besides the presets
  /// (docs/spec.md §6.2: six booleans equal to no preset, `requireEvidence` either way).
  bool audit = false;
  AssurancePolicy customPolicy;
};

/// One case in this many asks for the audit.
inline constexpr std::uint64_t kAuditShare = 4;

struct Settings {
  std::uint64_t seed = 1;
  std::size_t maxNodes = 24; // bound on the nodes of a random case
  /// The edition whose values the cases draw (default the newest, docs/spec.md §1.6).
  Edition edition = kNewestEdition;
};

/// The number of hand-picked edge cases; they are cases 0 .. edgeCaseCount()-1 of every suite.
std::size_t edgeCaseCount();

/// Case `index` of a suite: a hand-picked edge case for the first indices, then random cases, each
/// drawn from its own generator seeded by (seed, index), so one case reproduces alone.
Case caseAt(Interner &interner, const Settings &settings, std::size_t index);

/// "0007": case `index`'s number, zero-padded (its directory under `selection/`, its selection
/// case "selection-0007").
std::string caseNumber(std::size_t index);

/// "0007-random": the index, zero-padded, and the case's slug.
std::string caseLabel(std::size_t index, const Case &c);

} // namespace lo::suite
