// The `verify` command (its options are in its --help and docs/spec.md §4.2): judges a whole
// directory of an implementation's outputs against a conformance suite in one process, with one
// report. The command's options only: the run lives in tools/suite (verify: the run and its
// report; suite_reader: the manifest's meaning; suite_integrity: "Suite integrity" of docs/spec.md
// §4.3; judge: one entry), the report in tools/report (suite_report).
#include "ref/io/source.hpp"
#include "tools/cli/command_io.hpp"
#include "tools/cli/options.hpp"
#include "tools/command.hpp"
#include "tools/diff/suite_run.hpp"
#include "tools/exit_codes.hpp"
#include "tools/report/selection_suite_report.hpp"
#include "tools/report/suite_report.hpp"
#include "tools/suite/verify.hpp"
#include "tools/system/interrupt.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <sys/stat.h>
#include <utility>
#include <vector>

namespace lo::cli {

namespace {

/// --max-file-bytes: at most the reader's limit (ref/io/source.hpp).
constexpr std::uint64_t kMaxFileBytes = io::kMaxDocumentBytes;

/// `--report FORMAT=FILE`: the format and the file, or a usage error.
std::pair<report::ReportFormat, std::string> reportOf(const std::string &value) {
  const std::size_t eq = value.find('=');
  if (eq != std::string::npos && eq + 1 < value.size())
    for (const auto &[name, format] : report::kReportFormats)
      if (std::string_view(value).substr(0, eq) == name)
        return {format, value.substr(eq + 1)};
  throw CLI::ValidationError("--report", "expected FORMAT=FILE with FORMAT one of text, json, "
                                         "junit, sarif, html, not " +
                                             io::shownText(value));
}

/// True when `a` and `b` name one file: the same device and inode when both exist, else the same
/// name once resolved.
bool sameFile(const std::string &a, const std::string &b) {
  namespace fs = std::filesystem;
  struct stat sa {
  }, sb{};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  std::error_code ea, eb;
  const fs::path ra = fs::weakly_canonical(fs::absolute(a, ea), ea);
  const fs::path rb = fs::weakly_canonical(fs::absolute(b, eb), eb);
  return !ea && !eb && ra == rb;
}

/// Two reports of one run never go to one file (the second would silently replace the first):
/// a usage error naming both options.
void refuseOneFileTwice(const std::string &out,
                        const std::vector<std::pair<report::ReportFormat, std::string>> &files) {
  std::vector<std::pair<std::string, std::string>> named; // option, file
  if (out != "-")
    named.emplace_back("-o", out);
  for (const auto &f : files)
    if (f.second != "-")
      named.emplace_back("--report", f.second);
  for (std::size_t i = 0; i < named.size(); ++i)
    for (std::size_t j = i + 1; j < named.size(); ++j)
      if (sameFile(named[i].second, named[j].second))
        throw std::invalid_argument(
            named[i].first + " " + io::shownText(named[i].second) + " and " + named[j].first + " " +
            io::shownText(named[j].second) + " name one file: give each report a file of its own");
}

} // namespace

Action setupVerify(CLI::App &app) {
  auto o = std::make_shared<suite::VerifySettings>();
  auto out = std::make_shared<std::string>("-");
  auto *sub = app.add_subcommand(
      "verify", "Judge a directory of an implementation's outputs against a conformance suite "
                "(from `gen`) in one process, with one report.");
  addOperand(*sub, "SUITE", o->suite, "the suite directory (with manifest.json)");
  addOperand(*sub, "OUTPUTS", o->outputs,
             "the directory of the implementation's outputs, one GraphLoweringPlan (with "
             "--gates, one gate result; with --selection, one GraphExecutionPlan) per manifest "
             "entry, named by --pattern (--gate-pattern, --selection-pattern)");
  sub->add_option("--pattern", o->pattern,
                  "the file name of an entry's output in OUTPUTS; {case}, {mode} and {equality} "
                  "are replaced")
      ->capture_default_str();
  sub->add_flag("--gates", o->gates,
                "judge the manifest's gate entries instead of its lowerings: per case and policy "
                "preset, the "
                "implementation's gate result (nn-backend/gate-result) in OUTPUTS, named by "
                "--gate-pattern, must have the reference's verdict, failure kinds in order and "
                "set of reports per kind; a difference is a violation of the check gate");
  auto *selection = sub->add_flag(
      "--selection", o->selection,
      "judge the manifest's selection entries (an edition with selection, docs/spec.md §10): per "
      "case, the planner's GraphExecutionPlan in OUTPUTS, named by --selection-pattern (or, "
      "where the planner says selection fails, NAME.error with its message), judged by the "
      "selection checks against the case's graph and profile");
  sub->add_option("--selection-pattern", o->selectionPattern,
                  "with --selection, the file name of a selection entry's output in OUTPUTS; "
                  "{case} is replaced")
      ->capture_default_str();
  sub->add_flag("--unverified-suite", o->unverifiedSuite,
                "judge a suite gen did not write (its manifest names no seed, count and maxNodes) "
                "as it is: its plans and entries cannot be verified, and the report says so. A "
                "suite gen wrote is always verified: regenerated from its manifest's parameters, "
                "every file must be the suite's");
  sub->add_flag("--quiet", o->quiet,
                "text format: leave out the note lines of conforming entries (an output that "
                "declares another mode or equality than its entry's); findings, errors, the "
                "unverified-suite note and the summary stay; the other formats keep every note");
  addNatural(*sub, "--max-file-bytes", o->maxFileBytes, 1, kMaxFileBytes,
             "the largest file read from SUITE or OUTPUTS, in bytes: a larger output is an error "
             "entry, a larger suite file an invalid suite");
  sub->add_option("--gate-pattern", o->gatePattern,
                  "with --gates, the file name of a gate entry's output in OUTPUTS; {case}, "
                  "{policy}, {mode} and {equality} are replaced")
      ->capture_default_str();
  addReportOptions(*sub, o->format, o->maxPerCheck,
                   "text: the violations and errors, then a summary line; json: one result per "
                   "entry; junit: one test case per entry; sarif: SARIF 2.1.0, one result per "
                   "violation or error; html: one page, a summary table of every entry "
                   "linking to its picture",
                   "per check and entry");
  addOutputOption(*sub, *out, "report file");
  auto reports = std::make_shared<std::vector<std::string>>();
  sub->add_option("--report", *reports,
                  "FORMAT=FILE: also write the report in FORMAT (text, json, junit, sarif, html) "
                  "to FILE, from the same run; repeatable (--report junit=verify.xml --report "
                  "html=verify.html)")
      ->type_name("FORMAT=FILE")
      ->check([](const std::string &v) {
        try {
          reportOf(v);
          return std::string();
        } catch (const CLI::ValidationError &e) {
          return std::string(e.what());
        }
      });
  auto run = std::make_shared<diff::SuiteRunSettings>();
  auto *impl = sub->add_option(
      "--impl", run->impl,
      "run the implementation for every entry instead of reading OUTPUTS as it is: COMMAND is "
      "split like diff's --impl, {plan}, {out}, {mode} and {equality} (with --gates, {policy}) "
      "replaced; {out} is the entry's file in OUTPUTS (made when absent; docs/spec.md §4.1, "
      "\"Output directories\"), standard output without {out}; with --selection a planner, as "
      "diff's --planner: {graph}, {profile} and {out} replaced, exit status 2 when selection "
      "fails");
  auto *worker = sub->add_option(
      "--worker", run->worker,
      "instead of --impl: a command started once that answers one JSON line per entry, as "
      "diff's --worker (docs/conformance.md, \"The worker protocol\"); with --gates, a gate "
      "worker answering one gate result per entry, as diff's --gate-worker (\"The gate worker "
      "protocol\"): one gate process for the whole suite; with --selection a planner worker, as "
      "diff's --planner-worker (\"The planner worker protocol\")");
  impl->excludes(worker);
  selection->excludes("--gates");
  addRunBounds(*sub, run->timeoutMs, run->maxOutputBytes, "with --impl or --worker, ", "entry",
               "an error entry");
  auto expected = std::make_shared<std::array<std::uint64_t, 4>>();
  CLI::Option *expectations[] = {
      addNatural(*sub, "--expect-seed", (*expected)[0], 0, kMaxU64,
                 "refuse the suite (exit status 2) unless its manifest's seed is this one"),
      addNatural(*sub, "--expect-count", (*expected)[1], 0, kMaxU64,
                 "refuse the suite unless its manifest's count (of cases) is this one"),
      addNatural(*sub, "--min-count", (*expected)[2], 0, kMaxU64,
                 "refuse the suite unless its manifest's count is at least this one (a suite "
                 "of one case proves little)"),
      addNatural(*sub, "--expect-max-nodes", (*expected)[3], 0, kMaxU64,
                 "refuse the suite unless its manifest's maxNodes is this one")};
  auto given = std::make_shared<std::array<CLI::Option *, 4>>();
  std::copy(std::begin(expectations), std::end(expectations), given->begin());
  auto edition = std::make_shared<Edition>(kNewestEdition);
  CLI::Option *editionOption = addEditionOption(*sub, *edition);
  editionOption->description(
      "the edition to judge in (docs/spec.md §1.6); default the suite manifest's `edition` (a "
      "hand-made suite without one: the newest). A suite of one edition judged as another is "
      "refused (exit status 2)");
  sub->footer(
      "Each output is judged as `check` judges it under the entry's mode and equality, "
      "never under those the output declares (a declaration that differs is a note in "
      "the report; a gate result as --gates says). The suite is verified first: a suite "
      "gen wrote is regenerated from its manifest's seed, count and maxNodes, and any "
      "file that differs is an error naming it. A missing, unreadable or invalid output is an "
      "error entry in the report. Each plan is read once: the bytes verified are the bytes "
      "judged. With --impl or --worker the implementation is run for every entry (into "
      "OUTPUTS) and its outputs judged in the same run; every report (--format with -o, each "
      "--report) comes from that one run and names the suite's seed, count, max-nodes and "
      "edition and whether it was verified.\nExit "
      "status: 0 every output conforms, 1 an output does not conform or is missing or "
      "invalid, 2 bad usage, an invalid suite, a suite that differs from what gen writes "
      "for its manifest's parameters, a suite other than --expect-seed, --expect-count, "
      "--min-count or --expect-max-nodes names, a hand-made suite without --unverified-suite, "
      "or a manifest without entries, 3 interrupted (SIGINT, SIGTERM) while it runs the "
      "implementation (no report is written).");
  return [o, out, edition, editionOption, reports, run, impl, worker, expected, given]() -> int {
    if (editionOption->count() > 0)
      o->edition = *edition;
    std::optional<std::uint64_t> *const fields[] = {&o->expectSeed, &o->expectCount, &o->minCount,
                                                    &o->expectMaxNodes};
    for (std::size_t i = 0; i < 4; ++i)
      if ((*given)[i]->count() > 0)
        *fields[i] = (*expected)[i];
    std::vector<std::pair<report::ReportFormat, std::string>> files;
    for (const std::string &r : *reports) {
      files.push_back(reportOf(r));
      o->pictures = o->pictures || files.back().first == report::ReportFormat::html;
    }
    refuseOneFileTwice(*out, files);
    run->gates = o->gates;
    run->selection = o->selection;
    // An interrupt stops the implementation's whole process group (tools/system/interrupt.hpp).
    std::optional<system::InterruptGuard> guard;
    if (impl->count() > 0 || worker->count() > 0) {
      guard.emplace();
      o->producer = suiteProducer(*run);
    }
    // A SuiteError: main's error path, exit status 2; the worker stopped and the run's work
    // directory removed first.
    const auto judged = [&](auto run) {
      try {
        auto report = run(*o);
        o->producer = nullptr;
        return report;
      } catch (...) {
        o->producer = nullptr;
        throw;
      }
    };
    const auto written = [&](const auto &report, auto write) {
      writeOutput(*out, [&](io::Sink &sink) { write(sink, o->format, report); });
      for (const auto &file : files)
        writeOutput(file.second, [&](io::Sink &sink) { write(sink, file.first, report); });
      return report.conforms() ? kSuccess : kFinding;
    };
    if (o->selection)
      return written(judged(suite::runVerifySelection), report::writeSelectionSuiteReport);
    return written(judged(suite::runVerify), report::writeSuiteReport);
  };
}

} // namespace lo::cli
