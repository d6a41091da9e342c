// The conformance checks of docs/spec.md §3: whether a candidate lowering is exactly what the spec
// gives for a plan under a mode and an equality, and every way in which it is not.
//
// This header is the API the rest of the project codes against (tools/, tests/); the checks
// themselves live one per file in checks/.
#pragma once

#include "ref/io/document.hpp"
#include "ref/io/limits.hpp"
#include "ref/io/source.hpp"
#include "ref/ir.hpp"
#include "ref/lowering.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lo {

// Check names: "stable, used in reports".
#define LO_CHECK_NAMES(X)                                                                          \
  X(provenance, "provenance")                                                                      \
  X(order, "order")                                                                                \
  X(emptyGroup, "empty-group")                                                                     \
  X(kinds, "kinds")                                                                                \
  X(op, "op")                                                                                      \
  X(capsule, "capsule")                                                                            \
  X(groupingKind, "grouping-kind")                                                                 \
  X(singleton, "singleton")                                                                        \
  X(maximal, "maximal")                                                                            \
  X(audit, "audit")                                                                                \
  X(trustBoundary, "trust-boundary")                                                               \
  X(gate, "gate")

LO_DECLARE_VOCABULARY(Check, LO_CHECK_NAMES, "check")

namespace checks {

/// One way in which a candidate departs from the spec, as a report names it (docs/spec.md §3.5).
struct Violation {
  Check check = Check::provenance;
  std::optional<std::size_t> group; // index into the candidate's groups
  std::optional<NodeId> nodeId;
  std::string pointer; // JSON pointer into the candidate
  std::string message; // one plain sentence
  /// Where a single field of the candidate is wrong: its name (as in the file), what the spec
  /// gives and what the candidate has. Empty when the finding is not about one field.
  std::string field, expected, actual;
  bool operator==(const Violation &) const = default;
};

struct Options {
  Mode mode = Mode::coalesced;
  Equality equality = Equality::contract;
  /// At most this many violations listed per check, the rest counted (docs/spec.md §3.5).
  std::size_t maxPerCheck = io::kDefaultMaxPerCheck;
  /// The edition the inputs were read in (docs/spec.md §1.6): a file's declaration is noted when
  /// it differs.
  Edition edition = kNewestEdition;
  /// The audit was asked for (`diff`, a suite entry's `"audit": true`): a candidate without one
  /// violates `audit` (docs/spec.md §3.1).
  bool auditAsked = false;
};

/// "the plan declares edition 2026-07, but it is read in edition 2026-08" (docs/spec.md §1.6), or
/// nothing when the declaration is absent or the same. `what` names the file ("the plan").
std::optional<std::string> editionNote(std::string_view what, std::optional<Edition> declared,
                                       Edition judged);

struct Report {
  std::vector<Violation> violations;
  /// Violations past the cap, per check, not listed.
  std::vector<std::pair<Check, std::size_t>> omitted;
  /// Remarks that are not violations of a check (for example, a candidate that declares another
  /// `mode` or `equality` than the one checked).
  std::vector<std::string> notes;
  bool conforms() const { return violations.empty() && omitted.empty(); }
  /// Violations of each check (indexed by Check), listed and omitted.
  std::array<std::size_t, vocabularySize<Check>()> countsPerCheck() const;
  /// Violations of `check`, listed and omitted.
  std::size_t count(Check check) const { return countsPerCheck()[static_cast<std::size_t>(check)]; }
  /// Violations of every check, listed and omitted.
  std::size_t total() const;
  /// Whether `check` failed.
  bool violates(Check check) const { return count(check) != 0; }
};

/// Runs every check of docs/spec.md §3 on `candidate` as a lowering of `plan`. `interner` must be
/// the one both documents were read into, so that capsule ids compare.
Report check(Interner &interner, const GraphExecutionPlan &plan,
             const io::LoweringDocument &candidate, const Options &options);

/// `check` of two documents as read (docs/spec.md §3, the command `check` and the Python
/// module's): the plan read into `interner` in `options.edition`, then the candidate (`candidate()`
/// gives its bytes, asked for only once the plan is read, so that the plan's error comes first;
/// `plan` is not read after it, so that the candidate may be read into the plan's buffer),
/// and the report, with the note of a plan that declares another edition first. Throws
/// io::InputError when either cannot be read.
struct CheckedDocuments {
  GraphExecutionPlan plan;
  io::LoweringDocument candidate;
  Report report;
};
CheckedDocuments checkDocuments(Interner &interner, const io::Source &plan,
                                const std::function<const io::Source &()> &candidate,
                                const Options &options);

/// The stream checker's inputs: each call reads the next plan kernel or candidate group into its
/// argument, and returns false at the end.
using NextKernel = std::function<bool(PlannedNodeKernel &)>;
using NextGroup = std::function<bool(LoweredKernelGroup &)>;

/// What the stream checker read.
struct StreamTotals {
  std::uint64_t kernels = 0;
  std::uint64_t groups = 0;
};

/// How many plan nodes the stream checker keeps, at most, read ahead of the candidate or passed
/// over by it (docs/checks.md, "Streaming").
inline constexpr std::size_t kStreamWindow = std::size_t{1} << 20;

/// Runs the checks of docs/spec.md §3 while it reads a plan and a candidate one kernel and one
/// group at a time (`check --stream`), in memory bounded by the largest group, the capsule table
/// and at most kStreamWindow plan nodes the candidate departs from. The plan's node ids must
/// increase (the stream form's rule). Every group is judged as `check` judges it; provenance and
/// order are judged by merging the two sequences in node-id order. The verdict is always
/// `check`'s, and so is the whole report when the candidate lists the plan's node ids in order
/// (docs/checks.md, "Streaming").
Report checkStream(Interner &interner, const NextKernel &plan, const NextGroup &candidate,
                   const Options &options, std::optional<Mode> declaredMode = std::nullopt,
                   std::optional<Equality> declaredEquality = std::nullopt,
                   StreamTotals *totals = nullptr);

/// The same, reading the kernels of `plan` and the groups of `candidate` one at a time from
/// memory (how the tests compare `check --stream` with `check`).
Report checkStream(Interner &interner, const GraphExecutionPlan &plan,
                   const io::LoweringDocument &candidate, const Options &options);

} // namespace checks
} // namespace lo
