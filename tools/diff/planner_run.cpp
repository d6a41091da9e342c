#include "tools/diff/planner_run.hpp"

#include "checks/selection.hpp"
#include "ref/io/error.hpp"
#include "ref/io/graph_writer.hpp"
#include "ref/io/reader.hpp"
#include "tools/diff/diff_drivers.hpp"
#include "tools/diff/selection_shrink.hpp"
#include "tools/exit_codes.hpp"
#include "tools/report/report.hpp"
#include "tools/system/bounded_read.hpp"
#include "tools/system/command_line.hpp"
#include "tools/system/files.hpp"
#include "tools/system/interrupt.hpp"
#include "tools/system/spawn.hpp"

#include <csignal>
#include <filesystem>
#include <iostream>
#include <map>
#include <unistd.h>

namespace lo::diff {

namespace {

namespace fs = std::filesystem;
using system::Clock;

/// What happened to one case: a crash, a timeout or invalid JSON is a finding too.
struct PlannerOutcome {
  enum class Kind {
    conforms,
    crashed,
    timedOut,
    failed,
    noOutput,
    notRegular,
    tooLarge,
    invalidOutput,
    departures
  };
  Kind kind = Kind::conforms;
  Departure first = Departure::plannedWithoutWork; // departures: the first finding's check
  std::string summary;                             // one sentence
  std::string report;                              // every finding, a line each
  std::string output, standardError;
  bool fails() const { return kind != Kind::conforms; }
};

/// The failure persists while shrinking: the same kind and, for departures, the same first check.
bool sameFailure(const PlannerOutcome &a, const PlannerOutcome &b) {
  return a.kind == b.kind && (a.kind != PlannerOutcome::Kind::departures || a.first == b.first);
}

PlannerOutcome failure(PlannerOutcome::Kind kind, std::string summary, std::string standardError) {
  PlannerOutcome o;
  o.kind = kind;
  o.summary = std::move(summary);
  o.report = io::shownText(o.summary) + "\n";
  o.standardError = std::move(standardError);
  return o;
}

/// The first line of `text`, or `fallback`.
std::string firstLine(const std::string &text, std::string fallback) {
  const std::string line = text.substr(0, text.find('\n'));
  return line.empty() ? fallback : line;
}

class PlannerRunner {
public:
  explicit PlannerRunner(const DiffSettings &s)
      : s_(s), template_(system::splitCommand(s.planner)),
        work_(std::make_unique<system::TemporaryDirectory>("lowering-oracle-diff")) {
    toStdout_ = s.planner.find("{out}") == std::string::npos;
  }
  PlannerRunner(const PlannerRunner &) = delete;
  ~PlannerRunner() {
    std::error_code ignored;
    fs::permissions(work(), fs::perms::owner_all, fs::perm_options::add, ignored);
    work_.reset();
  }

  int run() {
    const bool terminal = ::isatty(2);
    const auto start = Clock::now();
    auto lastProgress = start;
    std::size_t cases = 0;
    try {
      for (std::size_t i = 0; i < s_.count; ++i) {
        Interner interner;
        plans::Rng seeder(s_.gen.seed ^ (0x9b5d3a4f1e2c7d6bULL * (i + 1)));
        plans::Rng rng(seeder.next());
        const plans::SelectionCase c = plans::randomSelectionCase(
            interner, rng, plans::SelectionKnobs{s_.gen.maxNodes, s_.gen.edition});
        PlannerOutcome o = judge(interner, c);
        ++cases;
        if (o.fails()) {
          record(interner, c, i, std::move(o), terminal);
          return summary(start, cases, false);
        }
        if ((terminal || s_.progress) &&
            Clock::now() - lastProgress > std::chrono::milliseconds(terminal ? 100 : 1000)) {
          lastProgress = Clock::now();
          std::cerr << (terminal ? "\r" : "") << "diff: " << cases << "/" << s_.count << " cases, "
                    << runs_ << " runs" << (terminal ? "" : "\n") << std::flush;
        }
      }
    } catch (const Interrupted &) {
      if (terminal)
        std::cerr << "\r\033[K";
      return summary(start, cases, true);
    }
    if (terminal)
      std::cerr << "\r\033[K";
    return summary(start, cases, false);
  }

private:
  /// Runs the planner on `c` and judges what it wrote.
  PlannerOutcome judge(Interner &interner, const plans::SelectionCase &c) {
    using K = PlannerOutcome::Kind;
    const auto deadline = system::deadlineAfter(s_.timeout());
    const fs::path graphPath = work() / "graph.json", profilePath = work() / "profile.json",
                   outPath = work() / "out.json";
    system::recreateFile(graphPath, io::graphJson(c.graph, interner));
    system::recreateFile(profilePath, io::profileJson(c.profile, s_.gen.edition));
    std::error_code e;
    fs::remove_all(outPath, e);
    if (e)
      throw std::runtime_error(outPath.string() + ": cannot remove: " + e.message());
    const auto argv = system::substitute(template_, {{"graph", graphPath.string()},
                                                     {"profile", profilePath.string()},
                                                     {"out", outPath.string()}});
    system::Options options;
    options.timeout = s_.timeout();
    options.deadline = deadline;
    options.captureStdout = toStdout_;
    options.maxStdout = s_.maxOutput();
    system::Result r = system::run(argv, options);
    ++runs_;
    if (r.status == system::Result::Status::interrupted)
      throw Interrupted{};
    if (r.status == system::Result::Status::failedToStart)
      throw UsageError("cannot run " + argv[0] + ": " + r.error);
    // Exit status 2: the planner says selection fails (docs/spec.md §4.3, "diff").
    const bool refused = r.status == system::Result::Status::exited && r.code == 2;
    if (!r.ok() && !refused)
      return failure(r.status == system::Result::Status::signaled   ? K::crashed
                     : r.status == system::Result::Status::timedOut ? K::timedOut
                                                                    : K::failed,
                     "the planner " + system::describe(r, s_.timeout()),
                     std::move(r.standardError));
    std::string output;
    if (refused) {
      // Nothing to read: the plan is the failure.
    } else if (toStdout_) {
      if (r.stdoutTruncated)
        return failure(K::tooLarge,
                       "the planner wrote more than " + std::to_string(s_.maxOutput()) +
                           " bytes to standard output (--max-output-bytes); it was not judged",
                       std::move(r.standardError));
      output = std::move(r.standardOutput);
    } else {
      system::BoundedRead b = system::readRegularFile(outPath.string(), s_.maxOutput());
      using S = system::BoundedRead::Status;
      if (b.status == S::missing)
        return failure(K::noOutput, "the planner exited with status 0 but wrote no output file",
                       std::move(r.standardError));
      if (b.status == S::tooLarge)
        return failure(K::tooLarge,
                       "the planner's output file " + b.why +
                           " (--max-output-bytes); it was not judged",
                       std::move(r.standardError));
      if (b.status != S::ok)
        return failure(K::notRegular, "the planner's output file {out} " + b.why + "; refused",
                       std::move(r.standardError));
      output = std::move(b.text);
    }
    // The candidate's capsules are interned beside the case's kinds.
    GraphExecutionPlan plan;
    std::optional<std::string> failed;
    if (refused) {
      failed = firstLine(r.standardError, "the planner exited with status 2");
    } else {
      try {
        plan = io::readExecutionPlan(io::sourceFromString("output.json", output), interner,
                                     s_.gen.edition);
      } catch (const io::InputError &error) {
        PlannerOutcome o = failure(K::invalidOutput,
                                   "the planner's output is not a GraphExecutionPlan: " +
                                       std::string(error.what()),
                                   std::move(r.standardError));
        o.output = std::move(output);
        return o;
      }
    }
    const std::vector<checks::Finding> findings =
        checks::judgeSelection(c.profile, c.graph, interner, plan, failed);
    PlannerOutcome o;
    o.output = std::move(output);
    o.standardError = std::move(r.standardError);
    if (Clock::now() > deadline) {
      PlannerOutcome late = failure(K::timedOut,
                                    "the case took longer than the timeout of " +
                                        std::to_string(s_.timeoutMs) + " ms",
                                    std::move(o.standardError));
      late.output = std::move(o.output);
      return late;
    }
    if (findings.empty()) {
      planned_ += failed ? 0 : 1;
      return o;
    }
    o.kind = K::departures;
    o.first = findings.front().check;
    o.summary =
        std::string(spelling(findings.front().check)) + ": " + findings.front().sentence +
        (findings.size() > 1 ? " (and " + io::counted(findings.size() - 1, "more") + ")" : "");
    for (const checks::Finding &f : findings)
      o.report += (f.check == Departure::missingNode ? "graph.json: " : "output.json: ") +
                  (f.pointer.empty() ? "" : f.pointer + ": ") + std::string(spelling(f.check)) +
                  ": " + io::shownText(f.sentence) + "\n";
    return o;
  }

  static std::size_t capsuleCount(const plans::SelectionCase &c) {
    std::size_t n = 0;
    for (const auto &m : c.profile.capsuleModules)
      n += m.capsules.size();
    return n;
  }

  void record(Interner &interner, const plans::SelectionCase &c, std::size_t index,
              PlannerOutcome original, bool terminal) {
    if (terminal)
      std::cerr << "\r\033[Kdiff: case " << index << " fails; shrinking..." << std::flush;
    label_ = std::to_string(index);
    finding_ = std::move(original);
    Limits limits;
    limits.maxTests = finding_.kind == PlannerOutcome::Kind::timedOut ? 8 : 1000;
    Stats stats;
    plans::SelectionCase minimal = shrinkSelection(
        c,
        [&](const plans::SelectionCase &candidate) {
          return sameFailure(judge(interner, candidate), finding_);
        },
        limits, &stats);
    PlannerOutcome last = judge(interner, minimal);
    if (!sameFailure(last, finding_)) { // a flaky planner: keep the original case
      minimal = c;
      last = finding_;
    }
    if (terminal)
      std::cerr << "\r\033[K";
    minimalNodes_ = minimal.graph.nodes.size();
    minimalCapsules_ = capsuleCount(minimal);
    try {
      save(interner, c, minimal, last, stats);
    } catch (const std::exception &e) {
      saveError_ = e.what();
    }
    finding_ = std::move(last);
  }

  void save(const Interner &interner, const plans::SelectionCase &original,
            const plans::SelectionCase &minimal, const PlannerOutcome &last, const Stats &stats) {
    fs::path keep = s_.keep;
    if (keep.empty())
      keep = system::makeTempDir(system::tempParent(), "lowering-oracle-finding");
    system::claimOutputDirectory(keep, "diff --keep");
    fs::create_directories(keep);
    const Edition e = s_.gen.edition;
    system::writeFile(keep / "graph.json", io::graphJson(minimal.graph, interner));
    system::writeFile(keep / "profile.json", io::profileJson(minimal.profile, e));
    system::writeFile(keep / "original-graph.json", io::graphJson(original.graph, interner));
    system::writeFile(keep / "original-profile.json", io::profileJson(original.profile, e));
    system::writeFile(keep / "output.json", last.output);
    system::writeFile(keep / "stderr.txt", last.standardError);
    std::string report =
        "lowering-oracle diff: case " + label_ + " of seed " + std::to_string(s_.gen.seed) +
        " (planner, edition " + std::string(spelling(e)) +
        ")\ncommand: " + io::shownText(s_.planner) + "\nshrunk from " +
        std::to_string(original.graph.nodes.size()) + " nodes and " +
        std::to_string(capsuleCount(original)) + " capsules to " +
        std::to_string(minimal.graph.nodes.size()) + " and " +
        std::to_string(capsuleCount(minimal)) + " in " + std::to_string(stats.tests) +
        " runs\nrepeat: lowering-oracle check-plan graph.json output.json --profile-file "
        "profile.json --edition " +
        std::string(spelling(e)) + "\n\n" +
        io::shownLines(last.report, io::kMaxKeptReportBytes, "");
    if (!last.standardError.empty())
      report += "\nstandard error of the planner:\n" +
                io::shownLines(last.standardError, io::kMaxShownBytes, "  ");
    savedIn_ = keep.string();
    system::writeFile(keep / "report.txt", report);
  }

  int summary(Clock::time_point start, std::size_t cases, bool interrupted) {
    const long ms = static_cast<long>(
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count());
    const std::string where = "planner, edition " + std::string(spelling(s_.gen.edition)) +
                              ", seed " + std::to_string(s_.gen.seed);
    const bool found = finding_.fails();
    if (found)
      std::cout << "diff: case " << label_ << " (" << where << ") fails; minimal case "
                << io::counted(minimalNodes_, "node") << " and "
                << io::counted(minimalCapsules_, "capsule") << ": "
                << io::shownText(finding_.summary)
                << (saveError_.empty() ? "; saved in " + io::shownText(savedIn_)
                                       : "; not saved: " + io::shownText(saveError_))
                << '\n';
    if (interrupted) {
      const int signal = system::InterruptGuard::received();
      std::cout << "diff: interrupted by " << (signal == SIGTERM ? "SIGTERM" : "SIGINT")
                << " after " << cases << " of " << s_.count << " cases (" << where << ", " << runs_
                << " runs in " << ms << " ms)\n";
      return found ? cli::kFinding : cli::kInconclusive;
    }
    if (found)
      return cli::kFinding;
    std::cout << "diff: all " << cases << " cases conform (" << where << ", " << planned_
              << " planned, " << cases - planned_ << " failing as selection does, " << runs_
              << " runs in " << ms << " ms)\n";
    return cli::kSuccess;
  }

  const fs::path &work() const { return work_->path(); }

  const DiffSettings &s_;
  std::vector<std::string> template_;
  bool toStdout_ = false;
  std::unique_ptr<system::TemporaryDirectory> work_;
  std::size_t runs_ = 0, planned_ = 0;
  PlannerOutcome finding_;
  std::string label_, savedIn_, saveError_;
  std::size_t minimalNodes_ = 0, minimalCapsules_ = 0;
};

} // namespace

int runPlannerDiff(const DiffSettings &s) {
  PlannerRunner runner(s);
  return runner.run();
}

} // namespace lo::diff
