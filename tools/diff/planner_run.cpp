#include "tools/diff/planner_run.hpp"

#include "checks/selection.hpp"
#include "ref/io/error.hpp"
#include "ref/io/graph_reader.hpp"
#include "ref/io/graph_writer.hpp"
#include "ref/io/reader.hpp"
#include "tools/diff/diff_drivers.hpp"
#include "tools/diff/planner_driver.hpp"
#include "tools/diff/progress_line.hpp"
#include "tools/diff/selection_shrink.hpp"
#include "tools/exit_codes.hpp"
#include "tools/report/report.hpp"
#include "tools/report/selection_report.hpp"
#include "tools/system/command_line.hpp"
#include "tools/system/files.hpp"
#include "tools/system/interrupt.hpp"
#include "tools/system/spawn.hpp"

#include <csignal>
#include <filesystem>
#include <iostream>
#include <optional>

namespace lo::diff {

namespace {

namespace fs = std::filesystem;
using system::Clock;

class PlannerRunner {
public:
  explicit PlannerRunner(const DiffSettings &s)
      : s_(s), work_(std::make_unique<system::TemporaryDirectory>("lowering-oracle-diff")),
        planner_(s) {}
  PlannerRunner(const PlannerRunner &) = delete;
  ~PlannerRunner() {
    std::error_code ignored;
    fs::permissions(work(), fs::perms::owner_all, fs::perm_options::add, ignored);
    work_.reset();
  }

  int run() {
    const auto start = Clock::now();
    return runCases(
        progress_, s_.count,
        [&](std::size_t i) {
          Interner interner;
          const plans::SelectionCase c = plans::selectionCaseAt(
              interner, s_.gen.seed, i, plans::SelectionKnobs{s_.gen.maxNodes, s_.gen.edition});
          caseIndex_ = i;
          Outcome o = judge(interner, c);
          if (!o.fails())
            return false;
          record(interner, c, i, std::move(o));
          return true;
        },
        [&](std::size_t cases) {
          return "diff: " + std::to_string(cases) + "/" + std::to_string(s_.count) + " cases, " +
                 std::to_string(runs_) + " runs";
        },
        [&](std::size_t cases, bool interrupted) { return summary(start, cases, interrupted); });
  }

private:
  /// Runs the planner on `c` and judges what it wrote.
  Outcome judge(Interner &interner, const plans::SelectionCase &c) {
    using K = Outcome::Kind;
    const auto deadline = system::deadlineAfter(s_.timeout());
    const fs::path graphPath = work() / "graph.json", profilePath = work() / "profile.json",
                   outPath = work() / "out.json";
    const std::string graphText = io::graphJson(c.graph, interner),
                      profileText = io::profileJson(c.profile, s_.gen.edition);
    system::recreateFile(graphPath, graphText);
    system::recreateFile(profilePath, profileText);
    std::error_code e;
    fs::remove_all(outPath, e);
    if (e)
      throw std::runtime_error(outPath.string() + ": cannot remove: " + e.message());
    ++runs_;
    Produced p = planner_.produce(graphPath, profilePath, outPath, graphText, profileText,
                                  s_.gen.edition, caseIndex_, deadline);
    if (!p.ok)
      return std::move(p.failure);
    const bool refused = p.withoutOutput;
    std::string output = std::move(p.output);
    std::string standardError = std::move(p.standardError);
    // The candidate's capsules are interned beside the case's kinds.
    GraphExecutionPlan plan;
    std::optional<std::string> failed;
    if (refused) {
      failed = planner_.refusal(p);
    } else {
      try {
        plan = io::readExecutionPlan(io::sourceFromString("output.json", output), interner,
                                     s_.gen.edition);
      } catch (const io::InputError &error) {
        Outcome o = failedOutcome(K::invalidOutput,
                                  "the planner's output is not a GraphExecutionPlan: " +
                                      std::string(error.what()),
                                  std::move(standardError));
        o.output = std::move(output);
        return o;
      }
    }
    const std::vector<checks::Finding> findings =
        checks::judgeSelection(c.profile, c.graph, interner, plan, failed);
    Outcome o;
    o.output = std::move(output);
    o.standardError = std::move(standardError);
    if (Clock::now() > deadline) {
      Outcome late = failedOutcome(K::timedOut,
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
    o.kind = K::violations;
    o.departure = findings.front().check;
    o.summary =
        std::string(spelling(findings.front().check)) + ": " + findings.front().sentence +
        (findings.size() > 1 ? " (and " + io::counted(findings.size() - 1, "more") + ")" : "");
    o.report = io::writtenText([&](io::Sink &out) {
      report::writeSelectionText(out, {"graph.json", "output.json", c.profile.name}, findings);
    });
    return o;
  }

  static std::size_t capsuleCount(const plans::SelectionCase &c) {
    std::size_t n = 0;
    for (const auto &m : c.profile.capsuleModules)
      n += m.capsules.size();
    return n;
  }

  void record(Interner &interner, const plans::SelectionCase &c, std::size_t index,
              Outcome original) {
    progress_.clear("diff: case " + std::to_string(index) + " fails; shrinking...");
    label_ = std::to_string(index);
    finding_ = std::move(original);
    Limits limits;
    limits.maxTests = finding_.kind == Outcome::Kind::timedOut ? 8 : 1000;
    Stats stats;
    plans::SelectionCase minimal = shrinkSelection(
        c,
        [&](const plans::SelectionCase &candidate) {
          return sameFailure(judge(interner, candidate), finding_);
        },
        limits, &stats);
    Outcome last = judge(interner, minimal);
    if (!sameFailure(last, finding_)) { // a flaky planner: keep the original case
      minimal = c;
      last = finding_;
    }
    progress_.clear();
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
            const plans::SelectionCase &minimal, const Outcome &last, const Stats &stats) {
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
        " (planner, edition " + std::string(spelling(e)) + ")\ncommand: " +
        (planner_.isWorker() ? "--planner-worker " + io::shownText(s_.plannerWorker)
                             : io::shownText(s_.planner)) +
        "\nshrunk from " + std::to_string(original.graph.nodes.size()) + " nodes and " +
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
    // A departure as a picture (docs/spec.md §10.8): the minimal case's node and its candidates.
    if (last.kind == Outcome::Kind::violations) {
      Interner fresh;
      const selection::Graph graph = io::readGraph(
          io::sourceFromString("graph.json", io::graphJson(minimal.graph, interner)), fresh, e);
      const GraphExecutionPlan plan =
          io::readExecutionPlan(io::sourceFromString("output.json", last.output), fresh, e);
      const std::optional<std::string> none;
      system::writeFile(keep / "report.html", io::writtenText([&](io::Sink &out) {
                          report::writeSelectionHtml(
                              out, {"graph.json", "output.json", minimal.profile.name}, e,
                              {graph, minimal.profile, fresh, plan, none},
                              checks::judgeSelection(minimal.profile, graph, fresh, plan));
                        }));
    }
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
  std::unique_ptr<system::TemporaryDirectory> work_;
  PlannerDriver planner_;
  std::size_t caseIndex_ = 0;
  ProgressLine progress_{s_.progress};
  std::size_t runs_ = 0, planned_ = 0;
  Outcome finding_;
  std::string label_, savedIn_, saveError_;
  std::size_t minimalNodes_ = 0, minimalCapsules_ = 0;
};

} // namespace

int runPlannerDiff(const DiffSettings &s) {
  PlannerRunner runner(s);
  return runner.run();
}

} // namespace lo::diff
