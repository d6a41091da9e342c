#include "tools/diff/diff_runner.hpp"

#include "ref/acceptance_profile.hpp"
#include "ref/io/gate_writer.hpp"
#include "tools/diff/diff_drivers.hpp"
#include "tools/diff/diff_judge.hpp"
#include "tools/diff/diff_page.hpp"
#include "tools/diff/progress_line.hpp"
#include "tools/diff/shrink.hpp"
#include "tools/exit_codes.hpp"
#include "tools/report/report.hpp"
#include "tools/system/files.hpp"
#include "tools/system/interrupt.hpp"
#include "tools/system/spawn.hpp"

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <set>
#include <tuple>

namespace lo::diff {

namespace {

namespace fs = std::filesystem;
using system::claimOutputDirectory;
using system::Clock;
using system::makeTempDir;
using system::tempParent;
using system::writeFile;

/// A failing case, as the summary lists it.
struct Failure {
  std::string label;
  Lowering lowering;
  Outcome outcome;
  bool shrunk = false;   // the first of its kind: shrunk, and saved unless the files failed
  std::string savedIn;   // where it was saved
  std::string saveError; // why it could not be saved (a full disk, a read-only directory)
  std::size_t minimalNodes = 0;
};

class Runner {
public:
  explicit Runner(const DiffSettings &s)
      : s_(s), work_(std::make_unique<system::TemporaryDirectory>("lowering-oracle-diff")) {
    impl_ = makeImplementation(s);
    // Every lowering by default: case i asks for the lowering i mod N of this list (the cost of
    // one lowering a case; N is 4, or 2 without the singleton lowering); --all asks for all N a
    // case; --mode or --equality pins one.
    std::vector<Lowering> asked;
    if (s.all || !s.pinned)
      asked = {{Mode::singleton, Equality::contract},
               {Mode::singleton, Equality::identity},
               {Mode::coalesced, Equality::contract},
               {Mode::coalesced, Equality::identity}};
    else
      asked = {{s.mode, s.equality}};
    // An edition without a singleton lowering (docs/spec.md §1.6) is asked its coalesced ones;
    // upstream's acceptance gate always derives the coalesced groups under contract (§6.10).
    if (!rulesOf(s.gen.edition).singletonLowering)
      std::erase_if(asked, [](const Lowering &l) { return l.mode == Mode::singleton; });
    const bool acceptanceGate = s.gates() && acceptance::hasAcceptanceGate(s.gen.edition);
    if (acceptanceGate)
      asked = {{Mode::coalesced, Equality::contract}};
    for (Lowering &l : asked)
      l.edition = s.gen.edition;
    loweringCount_ = asked.size();
    inTurn_ = !s.all && !s.pinned;
    // --gate: each lowering under each preset, in the order verified, checked, external, then
    // under the case's custom policy when the gate can be told one (docs/spec.md §6.2).
    for (const Lowering &l : asked)
      if (!s.gates()) {
        lowerings_.push_back(l);
      } else if (acceptanceGate) { // each maintained profile of the edition, in declared order
        for (const acceptance::MaintainedProfile *p : acceptance::profilesOf(l.edition))
          if (s.policy.empty() || s.policy == p->name)
            lowerings_.push_back({l.mode, l.equality, NamedPolicy{p->name, {}}, l.edition});
      } else {
        for (const NamedPolicy &p : kPolicyPresets)
          if (s.policy.empty() || s.policy == p.name)
            lowerings_.push_back({l.mode, l.equality, p, l.edition});
        if (s.customAskable() && (s.policy.empty() || s.policy == "custom"))
          lowerings_.push_back({l.mode, l.equality, NamedPolicy{"custom", {}}, l.edition});
      }
  }
  ~Runner() {
    impl_.reset(); // stops a worker before its directory goes
    std::error_code ignored;
    fs::permissions(work(), fs::perms::owner_all, fs::perm_options::add, ignored);
    work_.reset(); // removed with what the implementation left in it
  }
  Runner(const Runner &) = delete;

  Outcome judge(const Interner &interner, const GraphExecutionPlan &plan, suite::Encoding encoding,
                const Lowering &l, std::size_t index, const std::string &label) {
    // The timeout covers the whole case: running, reading the output and checking it.
    const auto deadline = system::deadlineAfter(s_.timeout());
    CaseFiles c;
    c.index = index;
    c.label = label;
    c.planText = suite::planJson(interner, plan, encoding, s_.gen.edition);
    // The case's files are the runner's: made afresh for every case, whatever the implementation
    // left there (a FIFO, a read-only file, a directory), without ever blocking.
    for (int attempt = 0;; ++attempt) {
      c.planPath = work() / "plan.json";
      c.outPath = work() / "out.json";
      try {
        system::recreateFile(c.planPath, c.planText);
        std::error_code e;
        fs::remove_all(c.outPath, e);
        if (e)
          throw std::runtime_error(c.outPath.string() + ": cannot remove: " + e.message());
        break;
      } catch (const std::runtime_error &) {
        if (attempt == 1)
          throw;
        renewWorkDirectory(); // the implementation took the directory itself
      }
    }
    ++runs_;
    Produced p = impl_->produce(c, l, deadline);
    if (!p.ok)
      return std::move(p.failure);
    if (p.output.size() <= kJudgeInProcessBytes) {
      // A small output is read and checked in a bounded time: judged here, and a case that
      // overran its deadline all the same counts as timed out.
      Outcome o = checkOutput(c.planText, p.output, l, p.exitCode);
      if (Clock::now() > deadline)
        o = timedOut(p.output.size());
      o.output = std::move(p.output);
      o.standardError = std::move(p.standardError);
      return o;
    }
    const auto judged = system::runForked(
        [&] { return encode(checkOutput(c.planText, p.output, l, p.exitCode)); }, deadline);
    using F = system::ForkResult::Status;
    if (judged.status == F::interrupted)
      throw Interrupted{};
    Outcome o;
    if (judged.status == F::timedOut) {
      o = timedOut(p.output.size());
    } else if (judged.status == F::answered) {
      o = decode(judged.answer);
    } else {
      throw std::runtime_error(
          "internal error: judging case " + label + " " +
          (judged.status == F::failed ? "failed: " + judged.answer : std::string("crashed")));
    }
    o.output = std::move(p.output);
    o.standardError = std::move(p.standardError);
    return o;
  }

  /// A new work directory instead of one the implementation has made unusable.
  void renewWorkDirectory() {
    std::error_code ignored;
    fs::permissions(work(), fs::perms::owner_all, fs::perm_options::add, ignored);
    work_ = std::make_unique<system::TemporaryDirectory>("lowering-oracle-diff");
  }

  /// Outputs larger than this are judged in a forked child that is killed at the case's
  /// deadline; smaller ones cannot take long (docs/conformance.md, "Bounds").
  static constexpr std::size_t kJudgeInProcessBytes = std::size_t{256} << 10;

  Outcome timedOut(std::size_t outputBytes) const {
    Outcome o;
    o.kind = Outcome::Kind::timedOut;
    o.summary = "the case took longer than the timeout of " + std::to_string(s_.timeoutMs) +
                " ms: the implementation's output (" + std::to_string(outputBytes) +
                " bytes) was not judged in time";
    o.report = io::shownText(o.summary) + "\n"; // one line, whatever the input said
    return o;
  }

  int run() {
    const auto start = Clock::now();
    return runCases(
        progress_, s_.count, [&](std::size_t i) { return runCase(i); },
        [&](std::size_t cases) { return progress(cases, start); },
        [&](std::size_t cases, bool interrupted) { return summary(start, cases, interrupted); });
  }

private:
  /// Judges case `i` under each of its lowerings; true when a failure stops the run.
  bool runCase(std::size_t i) {
    Interner interner;
    const suite::Case c = suite::caseAt(interner, s_.gen, i);
    const std::string label = suite::caseLabel(i, c);
    // The lowerings of case i: each of them, or in turn the i-th (with --gate, under each preset).
    const std::size_t perLowering = lowerings_.size() / loweringCount_;
    const std::size_t first = inTurn_ ? (i % loweringCount_) * perLowering : 0;
    const std::size_t last = inTurn_ ? first + perLowering : lowerings_.size();
    for (std::size_t k = first; k < last; ++k) {
      // What the case asks beyond its lowering (suite::Case): its custom policy, the audit.
      Lowering l = lowerings_[k];
      if (l.policy && l.policy->name == kCustomPolicy)
        l.policy->policy = c.customPolicy;
      l.audit = s_.auditAskable() && (s_.audit || c.audit);
      Outcome o = judge(interner, c.plan, c.encoding, l, i, label);
      ++caseRuns_;
      if (!o.declaration.empty() && declarations_++ == 0)
        firstDeclaration_ = "case " + label + " (asked " + l.words() + ") " + o.declaration;
      if (o.fails()) {
        record(interner, c, i, l, std::move(o));
        if (!s_.keepGoing)
          return true;
      }
    }
    return false;
  }

  /// The progress line's text.
  std::string progress(std::size_t cases, Clock::time_point start) const {
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return "diff: " + std::to_string(cases) + "/" + std::to_string(s_.count) + " cases, " +
           std::to_string(runs_) + " runs, " + std::to_string(failures_.size()) +
           (failures_.size() == 1 ? " failure, " : " failures, ") +
           std::to_string(
               static_cast<long>(seconds > 0 ? static_cast<double>(runs_) / seconds : 0)) +
           " runs/s";
  }

  std::string lowerings() const {
    std::string out;
    for (std::size_t i = 0; i < lowerings_.size(); i += lowerings_.size() / loweringCount_)
      out += (out.empty() ? "" : ", ") + lowerings_[i].name(); // once per lowering
    return out;
  }

  /// With --gate: "gates of policies verified, checked, external" (or of the one asked).
  std::string policies() const {
    std::string out;
    for (std::size_t i = 0; i < lowerings_.size() / loweringCount_; ++i)
      out += (out.empty() ? "" : ", ") + lowerings_[i].policyName();
    return !s_.gates() ? ""
                       : (lowerings_.size() == loweringCount_ ? ", gate of policy "
                                                              : ", gates of policies ") +
                             out;
  }

  /// ", the audit asked of every case" (--audit) or ", the audit asked of 1 case in 4"; nothing
  /// when it cannot be asked (a gate, --impl without `{audit}`).
  std::string audits() const {
    if (!s_.auditAskable())
      return "";
    return s_.audit ? ", the audit asked of every case"
                    : ", the audit asked of 1 case in " + std::to_string(suite::kAuditShare);
  }

  /// The summary lines on standard output; the exit status.
  int summary(Clock::time_point start, std::size_t cases, bool interrupted) {
    const long ms = static_cast<long>(
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count());
    const std::string where =
        (loweringCount_ == 1
             ? "mode " + lowerings_[0].modeName() + ", equality " + lowerings_[0].equalityName()
             : "lowerings " + lowerings() + (inTurn_ ? ", one per case in turn" : "")) +
        policies() + audits() + ", seed " + std::to_string(s_.gen.seed);
    // Every shrunk finding first, then the failing cases counted with it, at most kListed.
    constexpr std::size_t kListed = 50;
    std::size_t listed = 0;
    // A finding's line is printed whatever happened to its files.
    for (const Failure &f : failures_)
      if (f.shrunk)
        std::cout << "diff: case " << f.label << " (seed " << s_.gen.seed << ", "
                  << f.lowering.words() << ") fails; minimal case " << f.minimalNodes
                  << (f.minimalNodes == 1 ? " node" : " nodes") << ": "
                  << io::shownText(f.outcome.summary)
                  << (f.saveError.empty() ? "; saved in " + io::shownText(f.savedIn)
                                          : "; not saved: " + io::shownText(f.saveError))
                  << '\n';
    for (const Failure &f : failures_)
      if (!f.shrunk && listed++ < kListed)
        std::cout << "diff: case " << f.label << " (" << f.lowering.words()
                  << ") fails: " << io::shownText(f.outcome.summary) << '\n';
    if (listed > kListed)
      std::cout << "diff: ... and " << listed - kListed << " more failing cases not listed\n";
    // The standard is the lowering asked for; an output that declares another is judged as asked
    // and noted (docs/spec.md §4.3).
    if (declarations_ > 0)
      std::cout << "diff: note: " << declarations_
                << (declarations_ == 1 ? " output declares" : " outputs declare")
                << " another mode or equality than the one asked and "
                << (declarations_ == 1 ? "was" : "were")
                << " judged as asked (first: " << io::shownText(firstDeclaration_) << ")\n";
    // What the command cannot be asked is never judged: said, so that a pass claims no more.
    if (!s_.impl.empty() && !s_.auditAskable())
      std::cout << "diff: note: no case asked for the audit: the --impl command does not name "
                   "{audit}, so the implementation's audit was not judged\n";
    if (!s_.gate.empty() && !s_.customAskable() && !acceptance::hasAcceptanceGate(s_.gen.edition))
      std::cout << "diff: note: no custom policy was asked: the --gate command does not name the "
                   "six booleans' placeholders ({allowChecked} {allowFuzzed} "
                   "{allowTrustedExternal} {requireEvidence} {allowRuntimeGuards} "
                   "{allowTestEvidence}), so the gate was judged under the presets only\n";
    if (interrupted) {
      const int signal = system::InterruptGuard::received();
      std::cout << "diff: interrupted by " << (signal == SIGTERM ? "SIGTERM" : "SIGINT")
                << " after " << cases << " of " << s_.count << " cases (" << where << ", " << runs_
                << " runs in " << ms << " ms): " << failures_.size()
                << (failures_.size() == 1 ? " failure" : " failures") << " so far\n";
      return failures_.empty() ? cli::kInconclusive : cli::kFinding;
    }
    if (failures_.empty()) {
      std::cout << "diff: all " << cases << " cases conform (" << where << ", " << runs_
                << " runs in " << ms << " ms, " << impl_->starts()
                << (impl_->starts() == 1 ? " start" : " starts") << " of the implementation)\n";
      return cli::kSuccess;
    }
    if (s_.keepGoing)
      std::cout << "diff: " << failures_.size() << " of " << caseRuns_ << " runs fail (" << where
                << ", " << cases << " cases in " << ms << " ms)\n";
    return cli::kFinding;
  }

  /// A failure: shrunk and saved when it is the first of its kind (mode, equality, policy, kind
  /// of failure, check or gate difference), else listed.
  void record(Interner &interner, const suite::Case &c, std::size_t index, const Lowering &l,
              Outcome original) {
    Failure f{suite::caseLabel(index, c), l, std::move(original), false, "", "", 0};
    const auto signature = std::make_tuple(
        static_cast<int>(l.mode), static_cast<int>(l.equality),
        l.policy
            ? static_cast<int>(
                  std::find_if(std::begin(kPolicyPresets), std::end(kPolicyPresets),
                               [&](const NamedPolicy &p) { return p.name == l.policy->name; }) -
                  std::begin(kPolicyPresets))
            : -1,
        static_cast<int>(f.outcome.kind), static_cast<int>(f.outcome.primary),
        static_cast<int>(f.outcome.gate));
    // Listed first, so that an interrupt while it is shrunk still reports it.
    failures_.push_back(std::move(f));
    if (seen_.insert(signature).second)
      shrinkAndSave(interner, c, index, failures_.back());
  }

  void shrinkAndSave(Interner &interner, const suite::Case &c, std::size_t index, Failure &f) {
    progress_.clear("diff: case " + std::to_string(index) + " fails; shrinking...");
    diff::Limits limits;
    // A timeout costs the whole timeout per attempt: shrink it only a little.
    limits.maxTests = f.outcome.kind == Outcome::Kind::timedOut ? 8 : 1000;
    diff::Stats stats;
    const Outcome &original = f.outcome;
    GraphExecutionPlan minimal = diff::shrink(
        interner, c.plan,
        [&](const GraphExecutionPlan &p) {
          return sameFailure(judge(interner, p, c.encoding, f.lowering, index, f.label), original);
        },
        limits, &stats);
    Outcome last = judge(interner, minimal, c.encoding, f.lowering, index, f.label);
    if (!sameFailure(last, original)) { // a flaky implementation: keep the original case
      minimal = c.plan;
      last = original;
    }
    // A human reads the minimal plan: it is written plainly (as the reference writer writes it,
    // capsules in the table, else in the case's placement) whenever the failure persists without
    // the case's spelling; an exotic spelling is kept only when the failure needs it.
    suite::Encoding spelled = c.encoding;
    for (const suite::Encoding plain : {suite::Encoding{suite::Placement::table, std::nullopt},
                                        suite::Encoding{c.encoding.placement, std::nullopt}}) {
      if (plain == c.encoding)
        break;
      Outcome o = judge(interner, minimal, plain, f.lowering, index, f.label);
      if (sameFailure(o, original)) {
        spelled = plain;
        last = std::move(o);
        break;
      }
    }
    progress_.clear();
    f.shrunk = true;
    f.minimalNodes = minimal.kernels.size();
    // The finding stands whatever happens to its files (a full disk, a read-only --keep): a
    // failure to save it is said on its line, and the exit status stays 1.
    try {
      save(interner, c, f, minimal, spelled, last, stats);
    } catch (const std::exception &e) {
      f.saveError = e.what();
    }
    f.outcome = std::move(last);
  }

  /// Writes the minimal case's files; throws on a write error.
  void save(Interner &interner, const suite::Case &c, Failure &f, const GraphExecutionPlan &minimal,
            suite::Encoding spelled, const Outcome &last, const diff::Stats &stats) {
    fs::path keep = keepRoot();
    claimOutputDirectory(keep, "diff --keep");
    if (s_.keepGoing || s_.all)
      keep /= f.label + "-" + f.lowering.modeName() + "-" + f.lowering.equalityName() +
              (f.lowering.policy ? "-" + f.lowering.policyName() : "");
    fs::create_directories(keep);
    const std::string minimalJson = suite::planJson(interner, minimal, spelled, s_.gen.edition);
    writeFile(keep / "plan.json", minimalJson);
    writeFile(keep / "original-plan.json",
              suite::planJson(interner, c.plan, c.encoding, s_.gen.edition));
    writeFile(keep / "output.json", last.output);
    writeFile(keep / "stderr.txt", last.standardError);
    if (f.lowering.policy) // the reference gate result of the minimal plan, as `gate` writes it
      writeFile(
          keep / "expected.json",
          io::gateResultJson(f.lowering.policy->policy,
                             gate(interner, f.lowering.policy->policy,
                                  lower(interner, minimal, f.lowering.mode, f.lowering.equality))));
    const std::string command = !s_.gate.empty()         ? "--gate " + s_.gate
                                : !s_.gateWorker.empty() ? "--gate-worker " + s_.gateWorker
                                : s_.impl.empty()        ? "--worker " + s_.worker
                                                         : s_.impl;
    std::string report =
        "lowering-oracle diff: case " + f.label + " of seed " + std::to_string(s_.gen.seed) + " (" +
        f.lowering.words() + ")\ncommand: " + io::shownText(command) + "\nshrunk from " +
        std::to_string(c.plan.kernels.size()) + " to " + std::to_string(minimal.kernels.size()) +
        " nodes in " + std::to_string(stats.tests) + " runs\nplan.json spelled " +
        (spelled != c.encoding ? "plainly (the failure persists without the case's spelling)"
         : c.encoding.spelling ? "as the case was (the failure needs its spelling)"
                               : "plainly, as the case was") +
        "\n\n" + io::shownLines(last.report, io::kMaxKeptReportBytes, "");
    // Text from the implementation and the input is shown line by line (docs/ci.md, "Reports"):
    // no raw control character or escape sequence, and its standard error indented, so that no
    // line of it can pass for a line of the report.
    if (!last.standardError.empty())
      report += "\nstandard error of the implementation:\n" +
                io::shownLines(last.standardError, io::kMaxShownBytes, "  ");
    f.savedIn = keep.string();
    writeFile(keep / "report.txt", report);
    // The same finding as a picture (docs/spec.md §3.5): the minimal plan and the output drawn.
    writeFile(keep / "report.html",
              diffReportPage(minimalJson, last.output,
                             !f.lowering.policy && last.kind == Outcome::Kind::violations,
                             f.lowering.mode, f.lowering.equality, f.lowering.edition,
                             "lowering-oracle diff: case " + f.label + " of seed " +
                                 std::to_string(s_.gen.seed) + " (" + f.lowering.words() + ")",
                             last.summary));
  }

  /// --keep, else a new directory under $TMPDIR (made once).
  fs::path keepRoot() {
    if (!s_.keep.empty())
      return s_.keep;
    if (defaultKeep_.empty())
      defaultKeep_ = makeTempDir(tempParent(), "lowering-oracle-finding");
    return defaultKeep_;
  }

  const DiffSettings &s_;
  std::vector<Lowering> lowerings_; // with --gate, each lowering once per preset
  std::size_t loweringCount_ = 1;   // lowerings asked (--all and by default: 4)
  bool inTurn_ = false;             // one lowering a case, in turn (neither --all nor pinned)
  /// The cases' files (docs/spec.md §4.1, "Temporaries"): private, registered for removal on
  /// SIGINT and SIGTERM from the moment it exists, removed at the end.
  std::unique_ptr<system::TemporaryDirectory> work_;
  const fs::path &work() const { return work_->path(); }
  fs::path defaultKeep_;
  std::unique_ptr<Implementation> impl_;
  ProgressLine progress_{s_.progress};
  std::vector<Failure> failures_;
  std::set<std::tuple<int, int, int, int, int, int>> seen_;
  std::size_t runs_ = 0;         // of the implementation, shrinking included
  std::size_t caseRuns_ = 0;     // one per case and lowering
  std::size_t declarations_ = 0; // outputs that declare another lowering than the one asked
  std::string firstDeclaration_;
};

} // namespace

int runDiff(const DiffSettings &s) {
  Runner runner(s);
  return runner.run();
}

} // namespace lo::diff
