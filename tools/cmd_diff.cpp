// `diff --impl 'COMMAND' [--count N] [--seed S] [--mode] [--equality] [--timeout-ms T]
// [--keep DIR]`: "runs another implementation on generated plans (`{plan}`, `{out}`, `{mode}`,
// `{equality}` are substituted), checks each output, shrinks the first failure and saves it"
// (docs/spec.md §4).
#include "checks/checks.hpp"
#include "ref/io/error.hpp"
#include "ref/io/reader.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"
#include "tools/support/files.hpp"
#include "tools/support/generate.hpp"
#include "tools/support/options.hpp"
#include "tools/support/report.hpp"
#include "tools/support/shrink.hpp"
#include "tools/support/subprocess.hpp"

#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace lo::cli {

namespace {

namespace fs = std::filesystem;
using files::makeTempDir;
using files::readFile;
using files::tempParent;
using files::writeFile;
using Clock = std::chrono::steady_clock;

/// A usage problem found while running (the command cannot start): exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What happened to one run of the implementation. "An implementation that crashes, times out or
/// writes invalid JSON is a finding with its stderr."
struct Outcome {
  enum class Kind { conforms, crashed, timedOut, failed, noOutput, invalidOutput, violations };
  Kind kind = Kind::conforms;
  Check primary =
      Check::provenance; // violations: the last violated check in the order of docs/spec.md §3
  std::string summary;   // one sentence
  std::string report;    // the full report
  std::string output;    // what the implementation wrote
  std::string standardError;
  bool fails() const { return kind != Kind::conforms; }
};

/// "while the failure persists": the same kind of failure and, for violations, the same check
/// still violated (other violations may come and go).
bool sameFailure(const Outcome &a, const Outcome &b) {
  if (a.kind != b.kind)
    return false;
  return a.kind != Outcome::Kind::violations || a.primary == b.primary;
}

struct Settings {
  std::string impl;
  std::size_t count = 200;
  gen::Settings gen;
  Mode mode = Mode::coalesced;
  Equality equality = Equality::contract;
  long timeoutMs = 10000;
  std::string keep;
};

class Runner {
public:
  explicit Runner(const Settings &s)
      : s_(s), template_(subprocess::splitCommand(s.impl)), mode_(s.mode), equality_(s.equality),
        work_(makeTempDir(tempParent(), "lowering-oracle-diff")) {
    // Without `{out}` the implementation writes its output to standard output.
    toStdout_ = s.impl.find("{out}") == std::string::npos;
  }
  ~Runner() {
    std::error_code ignored;
    fs::remove_all(work_, ignored);
  }
  Runner(const Runner &) = delete;

  Outcome judge(const Interner &interner, const GraphExecutionPlan &plan, gen::Encoding encoding) {
    const std::string planText = gen::planJson(interner, plan, encoding);
    const fs::path planPath = work_ / "plan.json", outPath = work_ / "out.json";
    writeFile(planPath, planText);
    std::error_code ignored;
    fs::remove(outPath, ignored);
    const auto argv =
        subprocess::substitute(template_, {{"plan", planPath.string()},
                                           {"out", outPath.string()},
                                           {"mode", std::string(spelling(mode_))},
                                           {"equality", std::string(spelling(equality_))}});
    subprocess::Options options;
    options.timeout = std::chrono::milliseconds(s_.timeoutMs);
    options.captureStdout = toStdout_;
    const subprocess::Result r = subprocess::run(argv, options);
    ++runs_;
    Outcome o;
    o.standardError = r.standardError;
    using K = Outcome::Kind;
    if (r.status == subprocess::Result::Status::failedToStart)
      throw UsageError("cannot run " + argv[0] + ": " + r.error);
    if (!r.ok()) {
      o.kind = r.status == subprocess::Result::Status::signaled   ? K::crashed
               : r.status == subprocess::Result::Status::timedOut ? K::timedOut
                                                                  : K::failed;
      o.summary = "the implementation " + subprocess::describe(r, options.timeout);
      o.report = o.summary + "\n";
      return o;
    }
    bool found = true;
    o.output = toStdout_ ? r.standardOutput : readFile(outPath, found);
    if (!found) {
      o.kind = K::noOutput;
      o.summary = "the implementation exited with status 0 but wrote no output file";
      o.report = o.summary + "\n";
      return o;
    }
    // The plan is read back from the file the implementation saw, so that the checks judge
    // exactly that plan.
    Interner fresh;
    const GraphExecutionPlan read =
        io::readExecutionPlan(io::sourceFromString("plan.json", planText), fresh);
    io::LoweringDocument candidate;
    try {
      candidate = io::readLoweringPlan(io::sourceFromString("output.json", o.output), fresh);
    } catch (const io::InputError &e) {
      o.kind = K::invalidOutput;
      o.summary = "the implementation wrote an invalid GraphLoweringPlan: " + io::formatError(e);
      o.report = o.summary + "\n";
      return o;
    }
    const checks::Report report = checks::check(fresh, read, candidate, {mode_, equality_});
    if (report.conforms())
      return o;
    o.kind = K::violations;
    for (std::size_t c = 0; c < vocabularySize<Check>(); ++c)
      if (report.violates(static_cast<Check>(c)))
        o.primary = static_cast<Check>(c);
    const auto &first = report.violations.front();
    o.summary = std::string(spelling(first.check)) + ": " + first.message + " (" +
                violationSummary(report) + ")";
    std::string text;
    io::Sink sink(text);
    writeReportText(sink, report,
                    {"plan.json", "output.json", mode_, equality_, candidate.plan.groups.size(),
                     read.kernels.size()});
    sink.flush();
    o.report = std::move(text);
    return o;
  }

  /// Runs every case; on the first failure shrinks it, saves it and reports it.
  int run() {
    const bool terminal = ::isatty(2);
    const auto start = Clock::now();
    auto lastProgress = start;
    for (std::size_t i = 0; i < s_.count; ++i) {
      Interner interner;
      const gen::Case c = gen::caseAt(interner, s_.gen, i);
      const Outcome o = judge(interner, c.plan, c.encoding);
      if (terminal && (Clock::now() - lastProgress > std::chrono::milliseconds(100))) {
        lastProgress = Clock::now();
        std::cerr << "\rdiff: case " << i + 1 << "/" << s_.count << " conform so far" << std::flush;
      }
      if (o.fails())
        return finding(interner, c, i, o, terminal);
    }
    if (terminal)
      std::cerr << "\r\033[K";
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    std::cout << "diff: all " << s_.count << " cases conform (mode " << spelling(mode_)
              << ", equality " << spelling(equality_) << ", seed " << s_.gen.seed << ", " << runs_
              << " runs in " << static_cast<long>(seconds * 1000) << " ms)\n";
    return kSuccess;
  }

private:
  int finding(Interner &interner, const gen::Case &c, std::size_t index, const Outcome &original,
              bool terminal) {
    if (terminal)
      std::cerr << "\r\033[Kdiff: case " << index << " fails; shrinking..." << std::flush;
    shrink::Limits limits;
    // A timeout costs the whole timeout per attempt: shrink it only a little.
    limits.maxTests = original.kind == Outcome::Kind::timedOut ? 8 : 1000;
    shrink::Stats stats;
    GraphExecutionPlan minimal = shrink::shrink(
        interner, c.plan,
        [&](const GraphExecutionPlan &p) {
          return sameFailure(judge(interner, p, c.encoding), original);
        },
        limits, &stats);
    Outcome last = judge(interner, minimal, c.encoding);
    if (!last.fails()) { // a flaky implementation: keep the original case
      minimal = c.plan;
      last = original;
    }
    if (terminal)
      std::cerr << "\r\033[K";

    const fs::path keep =
        s_.keep.empty() ? makeTempDir(tempParent(), "lowering-oracle-finding") : fs::path(s_.keep);
    fs::create_directories(keep);
    const std::string label = gen::caseLabel(index, c);
    writeFile(keep / "plan.json", gen::planJson(interner, minimal, c.encoding));
    writeFile(keep / "original-plan.json", gen::planJson(interner, c.plan, c.encoding));
    writeFile(keep / "output.json", last.output);
    writeFile(keep / "stderr.txt", last.standardError);
    std::string report =
        "lowering-oracle diff: case " + label + " of seed " + std::to_string(s_.gen.seed) +
        " (mode " + std::string(spelling(mode_)) + ", equality " +
        std::string(spelling(equality_)) + ")\ncommand: " + s_.impl + "\nshrunk from " +
        std::to_string(c.plan.kernels.size()) + " to " + std::to_string(minimal.kernels.size()) +
        " nodes in " + std::to_string(stats.tests) + " runs\n\n" + last.report;
    if (!last.standardError.empty())
      report += "\nstandard error of the implementation:\n" + last.standardError;
    writeFile(keep / "report.txt", report);

    std::cout << "diff: case " << label << " (seed " << s_.gen.seed << ", mode " << spelling(mode_)
              << ", equality " << spelling(equality_) << ") fails; minimal case "
              << minimal.kernels.size() << (minimal.kernels.size() == 1 ? " node" : " nodes")
              << ": " << last.summary << "; saved in " << keep.string() << '\n';
    return kFinding;
  }

  const Settings &s_;
  std::vector<std::string> template_;
  Mode mode_;
  Equality equality_;
  fs::path work_;
  bool toStdout_ = false;
  std::size_t runs_ = 0;
};

} // namespace

Action setupDiff(CLI::App &app) {
  auto o = std::make_shared<Settings>();
  auto *sub = app.add_subcommand(
      "diff", "Run another implementation on generated plans, check every output, and shrink "
              "and save the first failure.");
  sub->add_option("--impl", o->impl,
                  "the command to run, split into arguments like a shell would (quotes, "
                  "backslashes) but never run by a shell; {plan}, {out}, {mode} and {equality} "
                  "are replaced inside each argument. Without {out}, the output is read from "
                  "standard output.")
      ->required();
  addNatural(*sub, "--count", o->count, 0, kMaxCount,
             "number of cases (the " + std::to_string(gen::edgeCaseCount()) +
                 " hand-picked ones first, as in `gen`)");
  addNatural(*sub, "--seed", o->gen.seed, 0, kMaxU64, "seed of the random cases");
  addNatural(*sub, "--max-nodes", o->gen.maxNodes, 0, kMaxNodes, "most nodes in a random case");
  addModeOption(*sub, o->mode);
  addEqualityOption(*sub, o->equality);
  addNatural(*sub, "--timeout-ms", o->timeoutMs, 1, kMaxTimeoutMs,
             "time allowed for one run of the implementation");
  sub->add_option("--keep", o->keep,
                  "directory for the minimal failing case (plan.json, output.json, report.txt, "
                  "stderr.txt, original-plan.json); default: a new directory under $TMPDIR");
  sub->footer("Exit status: 0 every output conforms, 1 a finding (an output does not conform, or "
              "the implementation crashed, timed out or wrote invalid JSON), 2 bad usage (the "
              "command cannot be split or started).");
  return [o]() -> int {
    try {
      Runner runner(*o);
      return runner.run();
    } catch (const std::invalid_argument &e) {
      std::cerr << "lowering-oracle: --impl: " << e.what() << '\n';
      return kBadInput;
    } catch (const UsageError &e) {
      std::cerr << "\nlowering-oracle: " << e.what() << '\n';
      return kBadInput;
    }
  };
}

} // namespace lo::cli
