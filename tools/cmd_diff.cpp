// The `diff` command (docs/spec.md §4.3, "diff"; its options are in its --help and docs/spec.md
// §4.2): runs another implementation on generated plans, checks each output, shrinks the first
// failure and saves it. With --gate it runs another implementation's acceptance gate instead, once
// per case, lowering and policy (the presets and the case's custom policy; `{policy}` and the six
// booleans too), or as one process (--gate-worker), and compares each gate result with the
// reference gate of the same lowering (docs/spec.md §4.3 and §6.4). A case may ask for the audit
// (`{audit}`, a request's "audit"; --audit: every case).
//
// The command's options only: the run lives in tools/diff (diff_runner: the run and the
// shrinking; diff_drivers: --impl, --gate, --worker and --gate-worker; diff_judge: judging one
// output).
//
// The implementation is hostile until proven otherwise (docs/conformance.md, "The runner"): the
// timeout covers the whole case, its running, the reading of its output and the check; `{out}`
// must be a regular file and is read up to --max-output-bytes, as is standard output; SIGINT and
// SIGTERM stop its process group, print the partial summary and remove the work directory.
#include "ref/acceptance_profile.hpp"
#include "tools/cli/options.hpp"
#include "tools/command.hpp"
#include "tools/diff/diff_drivers.hpp"
#include "tools/diff/diff_runner.hpp"
#include "tools/diff/diff_settings.hpp"
#include "tools/diff/planner_run.hpp"
#include "tools/plans/selection_cases.hpp"
#include "tools/report/report.hpp"
#include "tools/system/files.hpp"
#include "tools/system/interrupt.hpp"

#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <unistd.h>

namespace lo::cli {

namespace fs = std::filesystem;

Action setupDiff(CLI::App &app) {
  auto o = std::make_shared<diff::DiffSettings>();
  auto *sub = app.add_subcommand(
      "diff", "Run another implementation on generated plans, check every output, and shrink "
              "and save the first failure.");
  auto *impl = sub->add_option(
      "--impl", o->impl,
      "the command to run once per case, split into arguments like a shell would (quotes, "
      "backslashes) but never run by a shell; {plan}, {out}, {mode}, {equality} and {audit} (true "
      "when the case asks for the ExecutionAudit, else false) are replaced inside each argument. "
      "Without {out}, the output is read from standard output; without {audit}, no case asks "
      "for the audit.");
  auto *worker = sub->add_option(
      "--worker", o->worker,
      "instead of --impl: a command started once that answers one JSON line per case on its "
      "standard output to one JSON request line on its standard input (docs/conformance.md, "
      "\"The worker protocol\"); restarted after a crash, a timeout or a garbled answer");
  auto *gateOption = sub->add_option(
      "--gate", o->gate,
      "instead of --impl: another implementation's acceptance gate (docs/spec.md §6), run like "
      "--impl once per case, lowering and policy preset (verified, checked, external), with "
      "{policy} (a preset's name or custom) and {allowChecked} {allowFuzzed} "
      "{allowTrustedExternal} {requireEvidence} {allowRuntimeGuards} {allowTestEvidence} (true "
      "or false) replaced too; a command that names those six is also judged under each case's "
      "custom policy. It writes a gate result (nn-backend/gate-result) to {out} or "
      "standard output and exits 0 when it accepts, 1 when it rejects (a status that contradicts "
      "its result's verdict is a finding). Each result must equal the "
      "reference gate of the plan's lowering asked for (each lowering in turn, or --mode and "
      "--equality, or --all): the verdict, the "
      "failure kinds in order, each kind's reports in order, the policy asked for; the first "
      "difference is shrunk.");
  auto *gateWorker = sub->add_option(
      "--gate-worker", o->gateWorker,
      "instead of --gate: a gate started once that answers one JSON line per case to one JSON "
      "request line (docs/conformance.md, \"The gate worker protocol\"); each request names "
      "the policy (its name and six booleans), and the gate result is judged as --gate's");
  auto *planner = sub->add_option(
      "--planner", o->planner,
      "instead of --impl: another implementation's selection (docs/spec.md §10), run like --impl "
      "once per generated torchlean.ir.v1 graph and backend profile (with its own modules), "
      "with " +
          std::string(diff::kPlannerPlaceholders) +
          " replaced. It writes a GraphExecutionPlan to {out} or standard output and exits 0, or "
          "exits 2 when selection fails; each answer is judged by the selection checks "
          "(docs/spec.md §10.8) and the first failure is shrunk. In a lean-dojo lineage "
          "edition only (2026-09 on)");
  auto *plannerWorker = sub->add_option(
      "--planner-worker", o->plannerWorker,
      "instead of --planner: a planner started once that answers one JSON line per case to one "
      "JSON request line (docs/conformance.md, \"The planner worker protocol\"): done, with the "
      "GraphExecutionPlan at \"out\" or inline, or error when selection fails");
  sub->add_option("--policy", o->policy,
                  "with --gate or --gate-worker: ask only for the gate under this policy: a "
                  "preset, or custom, the case's custom policy (default: verified, checked, "
                  "external and, when the gate can be told one, custom, in this order); in an "
                  "edition with upstream's acceptance gate, a maintained profile (default: each "
                  "of the edition's)");
  sub->add_flag("--audit", o->audit,
                "ask every lowering for its ExecutionAudit (docs/spec.md §2.6; by default one "
                "case in " +
                    std::to_string(suite::kAuditShare) +
                    " asks, drawn from the seed): a worker's request says \"audit\": true, "
                    "--impl's {audit} is replaced by true; a missing or wrong audit is a finding");
  impl->excludes(worker);
  gateOption->excludes(impl);
  gateOption->excludes(worker);
  gateWorker->excludes(impl);
  gateWorker->excludes(worker);
  gateWorker->excludes(gateOption);
  for (CLI::Option *other : {impl, worker, gateOption, gateWorker})
    planner->excludes(other);
  for (CLI::Option *other : {impl, worker, gateOption, gateWorker, planner})
    plannerWorker->excludes(other);
  // At least one case: a run that judges nothing never says "conform" (exit status 0).
  addNatural(*sub, "--count", o->count, 1, kMaxCount,
             "number of cases (the " + std::to_string(suite::edgeCaseCount()) +
                 " hand-picked ones first, as in `gen`; with --planner or --planner-worker every "
                 "case is drawn)");
  addNatural(*sub, "--seed", o->gen.seed, 0, kMaxU64, "seed of the random cases");
  addNatural(*sub, "--max-nodes", o->gen.maxNodes, 0, kMaxNodes, "most nodes in a random case");
  addEditionOption(*sub, o->gen.edition)
      ->description("the edition whose values the plans are written in and the outputs read in "
                    "(docs/spec.md §1.6), sent to a worker as the request's \"edition\"; default "
                    "the newest");
  auto *modeOption = addModeOption(*sub, o->mode);
  auto *equalityOption = addEqualityOption(*sub, o->equality);
  modeOption->default_str("")->description(
      modeOption->get_description() +
      ". Without --mode and --equality, each case asks for one of the four lowerings in turn "
      "(case i: singleton/contract, singleton/identity, coalesced/contract, coalesced/identity "
      "for i mod 4); with either, every case asks for that one lowering (the other option's "
      "default: coalesced, contract)");
  equalityOption->default_str("")->description(equalityOption->get_description() +
                                               ". Like --mode, pins one lowering for every case");
  sub->add_flag("--all", o->all,
                "ask for every lowering of each case: singleton/contract, singleton/identity, "
                "coalesced/contract and coalesced/identity (overrides --mode and --equality)");
  sub->add_flag("--keep-going", o->keepGoing,
                "do not stop at the first failure: run every case, shrink and save the first "
                "failure of each kind (lowering, policy, kind of failure, check or gate "
                "difference) in its own directory "
                "under --keep, and list every failing case at the end");
  sub->add_flag("--progress", o->progress,
                "a progress line on standard error every second even when it is not a terminal "
                "(on a terminal, one line updated in place is always shown)");
  addRunBounds(*sub, o->timeoutMs, o->maxOutputBytes, "", "case", "a finding, not judged");
  sub->add_option("--keep", o->keep,
                  "directory for the minimal failing case (plan.json, output.json, report.txt, "
                  "report.html (the same finding as a picture), stderr.txt, original-plan.json, "
                  "and with --gate expected.json, the reference "
                  "gate result; with --keep-going or --all one subdirectory "
                  "per saved failure); default: a new directory under $TMPDIR. Must not be an "
                  "existing file.");
  sub->footer("Exit status: 0 every output conforms, 1 a finding (an output does not conform or "
              "a gate result differs, or the implementation crashed, timed out or wrote invalid "
              "JSON), 2 bad usage (the "
              "command cannot be split or started), 3 interrupted (SIGINT, SIGTERM) before any "
              "finding; interrupted after a finding is 1.");
  return [sub, o, modeOption, equalityOption]() -> int {
    o->pinned = modeOption->count() > 0 || equalityOption->count() > 0;
    applyEditionRules(*sub, o->gen.edition, &o->mode, nullptr);
    // --policy names a maintained profile of an edition with upstream's acceptance gate
    // (docs/spec.md §6.10), else a preset or custom.
    const bool lineage = acceptance::hasAcceptanceGate(o->gen.edition);
    const bool known = lineage ? acceptance::findProfile(o->gen.edition, o->policy) != nullptr
                               : o->policy == kCustomPolicy || policyPreset(o->policy).has_value();
    if (!o->policy.empty() && !known)
      throw CLI::ValidationError(
          "--policy",
          o->policy + ": in edition " + std::string(spelling(o->gen.edition)) + " expected " +
              (lineage ? "a maintained profile (" + acceptance::profileNames(o->gen.edition) + ")"
                       : policyNames(true, " or ")));
    // Refused (exit status 2, main's error path) before any run.
    if (o->impl.empty() + o->worker.empty() + o->gate.empty() + o->gateWorker.empty() +
            o->planner.empty() + o->plannerWorker.empty() !=
        5)
      throw std::runtime_error("diff: give exactly one of --impl, --worker, --gate, "
                               "--gate-worker, --planner and --planner-worker");
    if (o->planners()) {
      const std::string which = o->planner.empty() ? "--planner-worker" : "--planner";
      if (!selection::hasSelection(o->gen.edition))
        throw std::runtime_error("diff: " + which + ": edition " +
                                 std::string(spelling(o->gen.edition)) +
                                 " has no selection (docs/spec.md §10); use 2026-09 or later");
      for (const char *option :
           {"--mode", "--equality", "--all", "--audit", "--keep-going", "--policy"})
        if (sub->count(option) > 0)
          throw std::runtime_error(std::string("diff: ") + option +
                                   " asks a lowering or a gate, not a planner");
    }
    if (!o->policy.empty() && !o->gates())
      throw std::runtime_error("diff: --policy needs --gate or --gate-worker");
    if (o->policy == "custom" && !o->customAskable())
      throw std::runtime_error(
          "diff: --policy custom: the --gate command must name the six booleans' placeholders "
          "({allowChecked} {allowFuzzed} {allowTrustedExternal} {requireEvidence} "
          "{allowRuntimeGuards} {allowTestEvidence}) to be told a custom policy");
    if (o->audit && !o->auditAskable())
      throw std::runtime_error(o->gates() ? "diff: --audit asks a lowering, not a gate"
                                          : "diff: --audit: the --impl command must name {audit} "
                                            "to be asked for the audit");
    // docs/spec.md §4.1, "Output directories": refused before any run, nothing touched.
    if (std::string why; !o->keep.empty() && !system::outputDirectoryUsable(o->keep, why))
      throw std::runtime_error("diff: --keep " + io::shownText(o->keep) + ": " + why);
    try {
      system::InterruptGuard guard; // before the work directory exists
      return o->planners() ? diff::runPlannerDiff(*o) : runDiff(*o);
    } catch (const std::invalid_argument &e) {
      throw std::runtime_error(std::string(!o->planner.empty()         ? "--planner"
                                           : !o->plannerWorker.empty() ? "--planner-worker"
                                           : !o->gate.empty()          ? "--gate"
                                           : !o->gateWorker.empty()    ? "--gate-worker"
                                           : o->impl.empty()           ? "--worker"
                                                                       : "--impl") +
                               ": " + e.what());
    } catch (const diff::UsageError &) {
      // A progress line in place on a terminal is cleared first; elsewhere nothing precedes it.
      if (::isatty(2))
        std::cerr << "\r\033[K";
      throw;
    }
  };
}

} // namespace lo::cli
