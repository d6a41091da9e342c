#include "tools/cli/check_run.hpp"

#include "checks/checks.hpp"
#include "ref/io/source.hpp"
#include "ref/io/stream.hpp"
#include "tools/cli/command_io.hpp"
#include "tools/exit_codes.hpp"
#include "tools/report/html_report.hpp"

#include <chrono>
#include <memory>
#include <stdexcept>
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

/// `check --stream`: the plan and the lowering read in step, in memory bounded by the largest
/// group and the distinct capsules and kinds; no picture.
void checkStreams(const CheckSettings &s, Interner &interner, const checks::Options &options,
                  report::CaseResult &result) {
  const auto stall = stallWatch(s.plan, s.candidate, s.stallMs);
  io::PlanStream plan(s.plan, interner, stall, s.edition);
  io::LoweringStream candidate(s.candidate, interner, stall, s.edition);
  checks::StreamTotals totals;
  result.report = checks::checkStream(
      interner, [&](PlannedNodeKernel &k) { return plan.next(k); },
      [&](LoweredKernelGroup &g) { return candidate.next(g); }, options, candidate.declared().mode,
      candidate.declared().equality, &totals);
  result.subject.groups = totals.groups;
  result.subject.nodes = totals.kernels;
  result.noPicture = "check --stream keeps neither the plan nor the lowering in memory";
}

/// `check`: both documents read whole; `candidateSource` keeps the candidate's text for the
/// SARIF regions.
void checkDocuments(const CheckSettings &s, Interner &interner, const checks::Options &options,
                    io::Source &candidateSource, report::CaseResult &result) {
  io::Source planSource = io::loadSource(s.plan);
  checks::CheckedDocuments read = checks::checkDocuments(
      interner, planSource,
      [&]() -> const io::Source & {
        // Asked for once the plan is read: the candidate is read into the plan's buffer.
        candidateSource = std::move(planSource);
        io::loadSource(s.candidate, candidateSource);
        return candidateSource;
      },
      options);
  const GraphExecutionPlan &plan = read.plan;
  const io::LoweringDocument &candidate = read.candidate;
  result.report = std::move(read.report);
  result.subject.groups = candidate.plan.groups.size();
  result.subject.nodes = plan.kernels.size();
  result.candidateText = candidateSource.text;
  if (s.format == report::ReportFormat::html) // the picture needs the plan and the candidate
    result.picture = report::htmlPicture(
        {&interner, &plan, &candidate, &result.report, "c0-"},
        checks::pictureFacts(interner, plan, &candidate, options.mode, options.equality));
}

} // namespace

int runCheck(const CheckSettings &s) {
  if (s.plan == "-" && s.candidate == "-")
    throw std::runtime_error("PLAN and CANDIDATE cannot both be standard input");
  const auto start = std::chrono::steady_clock::now();
  Interner interner;
  checks::Options options;
  options.maxPerCheck = s.maxPerCheck;
  // The mode and equality checked are the user's (docs/spec.md §3.2): the options, else
  // coalesced and contract. What the candidate declares never chooses them; it is only noted.
  options.mode = s.mode;
  options.equality = s.equality;
  options.edition = s.edition;
  options.auditAsked = s.audit;
  report::CaseResult result;
  result.subject = {s.plan == "-" ? "<stdin>" : s.plan,
                    s.candidate == "-" ? "<stdin>" : s.candidate,
                    options.mode,
                    options.equality,
                    0,
                    0};
  auto write = [&] {
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    writeOutput(s.out, [&](io::Sink &sink) { writeReports(sink, s.format, {result}); });
  };
  io::Source candidateSource; // kept for the SARIF regions
  try {
    if (s.stream)
      checkStreams(s, interner, options, result);
    else
      checkDocuments(s, interner, options, candidateSource, result);
  } catch (const io::InputError &e) {
    // Invalid input is exit status 2 with its line on standard error, and, for the formats
    // that tools read, an error entry in the report as well (so that CI shows it).
    if (s.format != report::ReportFormat::text) {
      result.error = report::ReportError::from(e);
      write();
    }
    throw;
  }
  result.subject.mode = options.mode;
  result.subject.equality = options.equality;
  result.subject.edition = options.edition;
  write();
  return result.report.conforms() ? kSuccess : kFinding;
}

} // namespace lo::cli
