// The `check` command: the checks of docs/spec.md §3.1, whether CANDIDATE is exactly what the spec
// gives for PLAN (its options are in its --help and docs/spec.md §4.2). The command's options only:
// the run, whole documents or streams, lives in tools/cli/check_run.
#include "checks/checks.hpp"
#include "tools/cli/check_run.hpp"
#include "tools/cli/command_io.hpp"
#include "tools/cli/options.hpp"
#include "tools/command.hpp"

#include <memory>

namespace lo::cli {

Action setupCheck(CLI::App &app) {
  auto o = std::make_shared<CheckSettings>();
  auto *sub = app.add_subcommand(
      "check", "Check that a candidate GraphLoweringPlan is exactly the lowering the spec gives "
               "for a GraphExecutionPlan, and name every way in which it is not.");
  addOperand(
      *sub, "PLAN", o->plan,
      "GraphExecutionPlan file (JSON; a plan stream with --stream), or - for standard input");
  addOperand(*sub, "CANDIDATE", o->candidate,
             "candidate GraphLoweringPlan file (JSON; a lowering stream with --stream), or -");
  addVocabularyOption(*sub, "--mode", o->mode,
                      "singleton or coalesced (default coalesced, whatever the candidate "
                      "declares)");
  addVocabularyOption(*sub, "--equality", o->equality,
                      "contract or identity (default contract, whatever the candidate declares)");
  addEditionOption(*sub, o->edition);
  addReportOptions(*sub, o->format, o->maxPerCheck,
                   "text: one line a violation and a summary line; json: the violations with "
                   "the spec's field names; junit: one test case per check; sarif: SARIF 2.1.0, "
                   "rule id = check name; html: one self-contained page (no script) with the "
                   "plan's nodes, the reference's and the candidate's groups and each finding "
                   "pinned to them (not drawn with --stream)",
                   "per check");
  auto *stream = sub->add_flag(
      "--stream", o->stream,
      "read PLAN and CANDIDATE in the NDJSON stream form (docs/formats.md) and check as "
      "they are read, in memory bounded by the largest group and the distinct capsules and kinds");
  sub->add_flag("--audit", o->audit,
                "the audit is asked for: a candidate without an ExecutionAudit violates audit (as "
                "verify judges a suite entry with \"audit\": true, and diff a case that asks "
                "for it)")
      ->excludes(stream);
  addNatural(*sub, "--stall-ms", o->stallMs, 0, kMaxTimeoutMs,
             "with --stream, when neither input is a regular file: no byte arriving on either "
             "input for this long while check waits is a stall (a producer that writes one "
             "stream whole before the other), exit 2 with what happened and what to do; 0 waits "
             "forever");
  addOutputOption(*sub, o->out, "report file");
  sub->footer(
      // The list is the check vocabulary's (checks/checks.hpp), so that a new check is listed.
      "Checks: " + joinedSpellings<Check>() +
      " (`lowering-oracle explain CHECK` says what each means).\n"
      "The lowering judged against is the user's choice, never the candidate's: --mode and "
      "--equality, else coalesced and contract. A candidate that declares another mode or "
      "equality is judged by that choice all the same, and told so in a note.\nExit status: 0 the "
      "candidate conforms, 1 it does not, 2 bad usage or invalid "
      "input.");
  return [o, sub] {
    applyEditionRules(*sub, o->edition, &o->mode, &o->equality);
    return runCheck(*o);
  };
}

} // namespace lo::cli
