// `diff` (docs/spec.md §4.3; docs/conformance.md, "The runner"): judging what the implementation
// wrote for one case: the check of a lowering, or the comparison of a gate result with the
// reference gate, and the outcome's encoding for the forked child that judges a large output.
#pragma once

#include "checks/checks.hpp"
#include "checks/gate_result.hpp"
#include "checks/selection.hpp"
#include "ref/edition.hpp"
#include "ref/gate.hpp"

#include <optional>
#include <string>

namespace lo::diff {

/// One lowering asked of the implementation; with --gate, the gate of that lowering under one
/// policy (a preset, or the case's custom policy).
struct Lowering {
  Mode mode;
  Equality equality;
  std::optional<NamedPolicy> policy =
      std::nullopt;                 // --gate: the policy; its name is a preset's or "custom"
  Edition edition = kNewestEdition; // --edition: the plan's and the output's (docs/spec.md §1.6)
  /// The output must carry its ExecutionAudit (docs/spec.md §2.6): the case asks for it, or
  /// --audit. A missing audit is then an `audit` violation; a carried one is judged as always.
  bool audit = false;
  std::string modeName() const { return std::string(spelling(mode)); }
  std::string equalityName() const { return std::string(spelling(equality)); }
  std::string policyName() const { return policy ? std::string(policy->name) : std::string(); }
  std::string name() const { return modeName() + "/" + equalityName(); }
  /// "mode M, equality E" and, with --gate, ", policy P" (a custom policy with the booleans it
  /// sets, "policy custom (allowFuzzed requireEvidence)"); ", audit asked" when it is.
  std::string words() const;
};

/// What happened to one case (docs/spec.md §4.3, "diff"): a crash, a timeout or invalid JSON is a
/// finding too, with the implementation's stderr.
struct Outcome {
  enum class Kind {
    conforms,
    crashed,
    timedOut,
    failed,
    noOutput,
    notRegular,
    tooLarge,
    protocol,
    invalidOutput,
    violations,
    gateDiffers,
    gateExit // the gate's exit status contradicts its result's verdict
  };
  Kind kind = Kind::conforms;
  Check primary =
      Check::provenance; // violations: the last violated check in the order of docs/spec.md §3.1
  checks::GateDifference gate = checks::GateDifference::none; // gateDiffers: the first difference
  /// violations of a planner's output (`diff --planner`): the first departure's check.
  Departure departure = Departure::plannedWithoutWork;
  std::string summary; // one sentence (from input: escaped when printed)
  std::string report;  // the full report
  /// The output declares another mode or equality than the one asked: it is judged as asked (the
  /// standard is the user's, never the output's: docs/spec.md §4.3), and the declaration noted.
  std::string declaration;
  std::string output; // what the implementation wrote
  std::string standardError;
  bool fails() const { return kind != Kind::conforms; }
};

/// A failure of the implementation itself (it crashed, timed out, wrote nothing readable): its
/// summary, the report the same one line, shown as text from the input is.
Outcome failedOutcome(Outcome::Kind kind, std::string summary, std::string standardError = {});

/// The failure persists while shrinking: the same kind of failure and, for violations, the same
/// check still violated (other violations may come and go; for a planner, the same first
/// departure); for a gate, the same first difference (a verdict difference keeps its direction).
bool sameFailure(const Outcome &a, const Outcome &b);

/// The outcome as the judging child sends it back, and read back.
std::string encode(const Outcome &o);
Outcome decode(const std::string &text);

/// Reads the plan and the implementation's output and judges it as the lowering `l` asked for
/// (with a policy: the gate of that lowering). `exitCode`: the implementation's exit status (0 for
/// a worker), which a gate's verdict must match.
Outcome checkOutput(const std::string &planText, const std::string &output, const Lowering &l,
                    int exitCode);

} // namespace lo::diff
