// The `check` command: the checks of docs/spec.md §3, whether CANDIDATE is exactly what the spec
// gives for PLAN (its options are in its --help and docs/spec.md §4).
#include "checks/checks.hpp"
#include "ref/io/reader.hpp"
#include "ref/io/stream.hpp"
#include "tools/cli/command_io.hpp"
#include "tools/cli/options.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"
#include "tools/report/html_report.hpp"
#include "tools/report/report.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <sys/stat.h>

namespace lo::cli {

namespace {

/// Whether `path` ("-": standard input) is a regular file, which never blocks a reader.
bool regularFile(const std::string &path) {
  struct stat st {};
  return (path == "-" ? ::fstat(0, &st) : ::stat(path.c_str(), &st)) == 0 && S_ISREG(st.st_mode);
}

/// The stall watch of `check --stream` (docs/formats.md, "Feeding check --stream"): armed only
/// when neither input is a regular file, for a deadlock needs two pipes.
std::shared_ptr<io::StallWatch> stallWatch(const std::string &plan, const std::string &candidate,
                                           std::uint64_t stallMs) {
  auto watch = std::make_shared<io::StallWatch>();
  if (!regularFile(plan) && !regularFile(candidate))
    watch->limit = std::chrono::milliseconds(stallMs);
  watch->advice =
      "check --stream reads PLAN and CANDIDATE in step, one kernel and one group at a time, so "
      "a producer that writes one stream whole before the other (or a batch implementation "
      "behind tee) blocks on a full pipe while check waits for the other: a deadlock. Write the "
      "two streams to files first and check the files, or have the producer interleave them "
      "(docs/formats.md, \"Feeding check --stream\"); --stall-ms sets this limit (0: wait "
      "forever)";
  return watch;
}

} // namespace

Action setupCheck(CLI::App &app) {
  struct Options {
    std::string plan, candidate, out = "-";
    Mode mode = Mode::coalesced;
    Equality equality = Equality::contract;
    ReportFormat format = ReportFormat::text;
    std::size_t maxPerCheck = 20;
    bool stream = false;
    std::uint64_t stallMs = 10000;
  };
  auto o = std::make_shared<Options>();
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
  addReportOptions(*sub, o->format, o->maxPerCheck,
                   "text: one line a violation and a summary line; json: the violations with "
                   "the spec's field names; junit: one test case per check; sarif: SARIF 2.1.0, "
                   "rule id = check name; html: one self-contained page (no script) with the "
                   "plan's nodes, the reference's and the candidate's groups and each finding "
                   "pinned to them (not drawn with --stream)",
                   "per check");
  sub->add_flag(
      "--stream", o->stream,
      "read PLAN and CANDIDATE in the NDJSON stream form (docs/formats.md) and check as "
      "they are read, in memory bounded by the largest group and the distinct capsules and kinds");
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
  return [o] {
    if (o->plan == "-" && o->candidate == "-")
      throw std::runtime_error("PLAN and CANDIDATE cannot both be standard input");
    const ReportFormat format = o->format;
    const auto start = std::chrono::steady_clock::now();
    Interner interner;
    checks::Options options;
    options.maxPerCheck = o->maxPerCheck;
    // The mode and equality checked are the user's (docs/spec.md §3.2): the options, else
    // coalesced and contract. What the candidate declares never chooses them; it is only noted.
    options.mode = o->mode;
    options.equality = o->equality;
    CaseResult result;
    result.subject = {o->plan == "-" ? "<stdin>" : o->plan,
                      o->candidate == "-" ? "<stdin>" : o->candidate,
                      options.mode,
                      options.equality,
                      0,
                      0};
    auto write = [&] {
      result.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      writeOutput(o->out, [&](io::Sink &sink) { writeReports(sink, format, {result}); });
    };
    io::Source candidateSource; // kept for the SARIF regions
    try {
      if (o->stream) {
        const auto stall = stallWatch(o->plan, o->candidate, o->stallMs);
        io::PlanStream plan(o->plan, interner, stall);
        io::LoweringStream candidate(o->candidate, interner, stall);
        checks::StreamTotals totals;
        result.report = checks::checkStream(
            interner, [&](PlannedNodeKernel &k) { return plan.next(k); },
            [&](LoweredKernelGroup &g) { return candidate.next(g); }, options,
            candidate.declared().mode, candidate.declared().equality, &totals);
        result.subject.groups = totals.groups;
        result.subject.nodes = totals.kernels;
        result.noPicture = "check --stream keeps neither the plan nor the lowering in memory";
      } else {
        const GraphExecutionPlan plan = io::readExecutionPlan(io::loadSource(o->plan), interner);
        candidateSource = io::loadSource(o->candidate);
        const io::LoweringDocument candidate = io::readLoweringPlan(candidateSource, interner);
        result.report = checks::check(interner, plan, candidate, options);
        result.subject.groups = candidate.plan.groups.size();
        result.subject.nodes = plan.kernels.size();
        result.candidateText = candidateSource.text;
        if (format == ReportFormat::html) // the picture needs the plan and the candidate
          result.picture = htmlPicture({&interner, &plan, &candidate, &result.report, options.mode,
                                        options.equality, "c0-"});
      }
    } catch (const io::InputError &e) {
      // Invalid input is exit status 2 with its line on standard error, and, for the formats
      // that tools read, an error entry in the report as well (so that CI shows it).
      if (format != ReportFormat::text) {
        result.error = ReportError::from(e);
        write();
      }
      throw;
    }
    result.subject.mode = options.mode;
    result.subject.equality = options.equality;
    write();
    return int{result.report.conforms() ? kSuccess : kFinding};
  };
}

} // namespace lo::cli
