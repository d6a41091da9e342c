#include "tools/diff/diff_judge.hpp"

#include "checks/acceptance_result.hpp"
#include "ref/acceptance_profile.hpp"
#include "ref/io/acceptance_reader.hpp"
#include "ref/io/acceptance_writer.hpp"
#include "ref/io/error.hpp"
#include "ref/io/gate_writer.hpp"
#include "ref/io/reader.hpp"
#include "tools/report/report.hpp"

#include <cstdio>
#include <stdexcept>

namespace lo::diff {

std::string Lowering::words() const {
  std::string out = "mode " + modeName() + ", equality " + equalityName();
  if (policy) {
    out += ", policy " + policyName();
    if (policy->name ==
        "custom") { // the booleans it sets, as `gate` names them (docs/spec.md §6.6)
      std::string set;
      for (const PolicyFlag &f : kPolicyFlags)
        if (policy->policy.*f.field)
          set += (set.empty() ? "" : " ") + std::string(f.name);
      out += " (" + (set.empty() ? std::string("none set") : set) + ")";
    }
  }
  return audit ? out + ", audit asked" : out;
}

Outcome failedOutcome(Outcome::Kind kind, std::string summary, std::string standardError) {
  Outcome o;
  o.kind = kind;
  o.summary = std::move(summary);
  o.report = io::shownText(o.summary) + "\n"; // one line, whatever the input said
  o.standardError = std::move(standardError);
  return o;
}

bool sameFailure(const Outcome &a, const Outcome &b) {
  if (a.kind != b.kind)
    return false;
  if (a.kind == Outcome::Kind::gateDiffers)
    return a.gate == b.gate;
  return a.kind != Outcome::Kind::violations ||
         (a.primary == b.primary && a.departure == b.departure);
}

/// The outcome of the check as the child sends it back: "KIND PRIMARY GATE SUMMARYSIZE
/// DECLARATIONSIZE\n" SUMMARY DECLARATION REPORT.
std::string encode(const Outcome &o) {
  return std::to_string(static_cast<int>(o.kind)) + ' ' +
         std::to_string(static_cast<int>(o.primary)) + ' ' +
         std::to_string(static_cast<int>(o.gate)) + ' ' + std::to_string(o.summary.size()) + ' ' +
         std::to_string(o.declaration.size()) + '\n' + o.summary + o.declaration + o.report;
}

Outcome decode(const std::string &text) {
  Outcome o;
  int kind = 0, primary = 0, gate = 0;
  std::size_t size = 0, declared = 0, used = 0;
  if (std::sscanf(text.c_str(), "%d %d %d %zu %zu\n%zn", &kind, &primary, &gate, &size, &declared,
                  &used) < 5 ||
      used == 0 || size > text.size() || declared > text.size() - size ||
      used > text.size() - size - declared)
    throw std::runtime_error("internal error: a garbled answer from the judging child");
  o.kind = static_cast<Outcome::Kind>(kind);
  o.primary = static_cast<Check>(primary);
  o.gate = static_cast<checks::GateDifference>(gate);
  o.summary = text.substr(used, size);
  o.declaration = text.substr(used + size, declared);
  o.report = text.substr(used + size + declared);
  return o;
}

/// "declares mode singleton, equality identity" when the candidate declares another lowering than
/// `l`; empty when it declares `l` or nothing.
static std::string declarationDiffering(const io::LoweringDocument &candidate, const Lowering &l) {
  const bool mode = candidate.mode && *candidate.mode != l.mode;
  const bool equality = candidate.equality && *candidate.equality != l.equality;
  if (!mode && !equality)
    return {};
  std::string words = "declares";
  if (mode)
    words += " mode " + std::string(spelling(*candidate.mode));
  if (equality)
    words +=
        std::string(mode ? "," : "") + " equality " + std::string(spelling(*candidate.equality));
  return words;
}

/// An outcome told in one line: its report is its summary, escaped, whatever the input said.
static Outcome oneLine(Outcome::Kind kind, std::string summary) {
  Outcome o;
  o.kind = kind;
  o.summary = std::move(summary);
  o.report = io::shownText(o.summary) + "\n";
  return o;
}

/// In an edition whose gate is upstream's acceptance gate (docs/spec.md §6.10): the gate's
/// acceptance result against the reference's under the maintained profile `l.policy` names, its
/// exit status held to its verdict as checkGate says.
static Outcome checkAcceptance(const std::string &planText, const std::string &output,
                               const Lowering &l, int exitCode) {
  Outcome o;
  Interner fresh;
  const GraphExecutionPlan plan =
      io::readExecutionPlan(io::sourceFromString("plan.json", planText), fresh, l.edition);
  const acceptance::MaintainedProfile *profile = acceptance::findProfile(l.edition, l.policy->name);
  const acceptance::GraphAcceptance expected =
      acceptance::acceptGraphKernelPlan(fresh, plan, profile->policy);
  io::ReadAcceptanceResult actual;
  try {
    actual = io::readAcceptanceResult(io::sourceFromString("output.json", output), l.edition);
  } catch (const io::InputError &e) {
    return oneLine(Outcome::Kind::invalidOutput,
                   std::string("the implementation wrote an invalid acceptance result: ") +
                       e.what());
  }
  if (std::string contradiction = checks::exitContradiction(exitCode, actual.accepted);
      !contradiction.empty())
    return oneLine(Outcome::Kind::gateExit, std::move(contradiction));
  const checks::GateComparison c =
      checks::compareAcceptanceResult(fresh, profile->name, profile->policy, expected, actual);
  if (c.difference == checks::GateDifference::none)
    return o;
  o.kind = Outcome::Kind::gateDiffers;
  o.gate = c.difference;
  o.summary = c.words;
  o.report = c.words + "\n\nthe reference acceptance result:\n" +
             io::acceptanceText(fresh, profile->name, profile->policy, expected.groups, false);
  return o;
}

/// Reads the plan and the implementation's gate result and compares it with the reference gate of
/// the plan's lowering under the same mode, equality and policy (docs/spec.md §6.4), so the
/// verdict, the failure kinds in order and each kind's list of reports must be exactly the
/// reference's (in an edition with the acceptance gate: checkAcceptance).
///
/// A gate exits 0 when it accepts and 1 when it rejects (docs/spec.md §6.6): an exit status that
/// contradicts the verdict of its result is a finding, whatever the result says. A gate worker has
/// no exit status per case (`exitCode` -1): its verdict is its result's.
static Outcome checkGate(const std::string &planText, const std::string &output, const Lowering &l,
                         int exitCode) {
  if (acceptance::hasAcceptanceGate(l.edition))
    return checkAcceptance(planText, output, l, exitCode);
  Outcome o;
  Interner fresh;
  const GraphExecutionPlan plan =
      io::readExecutionPlan(io::sourceFromString("plan.json", planText), fresh, l.edition);
  const GraphLoweringPlan lowering = lower(fresh, plan, l.mode, l.equality);
  const AssurancePolicy &policy = l.policy->policy;
  const GateResult expected = gate(fresh, policy, lowering);
  io::ReadGateResult actual;
  try {
    // Named as the output is kept with a finding (`--keep`: output.json).
    actual = io::readGateResult(io::sourceFromString("output.json", output), l.edition);
  } catch (const io::InputError &e) {
    return oneLine(Outcome::Kind::invalidOutput,
                   std::string("the implementation wrote an invalid gate result: ") + e.what());
  }
  if (std::string contradiction = checks::exitContradiction(exitCode, actual.accepted);
      !contradiction.empty())
    return oneLine(Outcome::Kind::gateExit, std::move(contradiction));
  const checks::GateComparison c = checks::compareGateResult(
      l.policy->name, policy, expected, obligationReports(fresh, audit(fresh, lowering)), actual,
      /*exact=*/true);
  if (c.difference == checks::GateDifference::none)
    return o;
  o.kind = Outcome::Kind::gateDiffers;
  o.gate = c.difference;
  o.summary = c.words;
  const std::size_t groups = lowering.groups.size();
  std::string text = c.words + "\n\nthe reference gate of the plan's " + l.name() + " lowering (" +
                     std::to_string(groups) + (groups == 1 ? " group" : " groups") + "):\n";
  io::Sink sink(text);
  io::writeGateText(sink, policy, expected);
  sink.flush();
  o.report = std::move(text);
  return o;
}

/// Reads the plan and the candidate and runs the checks (in the forked child).
/// `exitCode`: the implementation's exit status (0 for a worker), which a gate's verdict must
/// match.
Outcome checkOutput(const std::string &planText, const std::string &output, const Lowering &l,
                    int exitCode) {
  if (l.policy)
    return checkGate(planText, output, l, exitCode);
  Outcome o;
  using K = Outcome::Kind;
  // The plan is read back from the file the implementation saw, so that the checks judge
  // exactly that plan.
  Interner fresh;
  const GraphExecutionPlan read =
      io::readExecutionPlan(io::sourceFromString("plan.json", planText), fresh, l.edition);
  io::LoweringDocument candidate;
  try {
    candidate = io::readLoweringPlan(io::sourceFromString("output.json", output), fresh, l.edition);
  } catch (const io::InputError &e) {
    o.kind = K::invalidOutput;
    o.summary = "the implementation wrote an invalid GraphLoweringPlan: " + io::formatError(e);
    o.report = io::shownText(o.summary) + "\n"; // one line, whatever the input said
    return o;
  }
  // The standard is the lowering asked for, whatever the candidate declares (docs/spec.md §4.3).
  checks::Options options{l.mode, l.equality};
  options.edition = l.edition;  // the checks of its rules (docs/spec.md §1.6)
  options.auditAsked = l.audit; // a missing audit, asked for, is an `audit` violation
  const checks::Report report = checks::check(fresh, read, candidate, options);
  o.declaration = declarationDiffering(candidate, l);
  if (report.conforms())
    return o;
  o.kind = K::violations;
  for (std::size_t c = 0; c < vocabularySize<Check>(); ++c)
    if (report.violates(static_cast<Check>(c)))
      o.primary = static_cast<Check>(c);
  const auto &first = report.violations.front();
  o.summary = std::string(spelling(first.check)) + ": " + first.message + " (" +
              report::violationSummary(report) + ")";
  report::ReportSubject subject{
      "plan.json",        "output.json", l.mode, l.equality, candidate.plan.groups.size(),
      read.kernels.size()};
  o.report = io::writtenText([&](io::Sink &sink) { writeReportText(sink, report, subject); });
  return o;
}

} // namespace lo::diff
