// `diff --impl 'COMMAND' | --worker 'COMMAND' | --gate 'COMMAND' [--count N] [--seed S] [--mode]
// [--equality] [--all] [--keep-going] [--progress] [--timeout-ms T] [--max-output-bytes B]
// [--keep DIR]`: "runs another implementation on generated plans (`{plan}`, `{out}`, `{mode}`,
// `{equality}` are substituted), checks each output, shrinks the first failure and saves it"
// (docs/spec.md §4). With --gate it runs another implementation's acceptance gate instead, once
// per case, lowering and policy preset (`{policy}` too), and compares each gate result with the
// reference gate of the same lowering (docs/spec.md §4.3 and §6).
//
// The implementation is hostile until proven otherwise (docs/conformance.md, "The runner"): the
// timeout covers the whole case, its running, the reading of its output and the check; `{out}`
// must be a regular file and is read up to --max-output-bytes, as is standard output; SIGINT and
// SIGTERM stop its process group, print the partial summary and remove the work directory.
#include "checks/checks.hpp"
#include "ref/gate.hpp"
#include "ref/io/error.hpp"
#include "ref/io/gate_writer.hpp"
#include "ref/io/reader.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"
#include "tools/support/bounded_read.hpp"
#include "tools/support/files.hpp"
#include "tools/support/gate_compare.hpp"
#include "tools/support/generate.hpp"
#include "tools/support/options.hpp"
#include "tools/support/report.hpp"
#include "tools/support/shrink.hpp"
#include "tools/support/subprocess.hpp"

#include <simdjson.h>

#include <climits>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>
#include <set>
#include <tuple>
#include <unistd.h>

namespace lo::cli {

namespace {

namespace fs = std::filesystem;
using files::makeTempDir;
using files::tempParent;
using files::writeFile;
using subprocess::Clock;

/// A usage problem found while running (the command cannot start): exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// SIGINT or SIGTERM arrived: unwinds to the partial summary.
struct Interrupted {};

/// One lowering asked of the implementation; with --gate, the gate of that lowering under one
/// policy preset.
struct Lowering {
  Mode mode;
  Equality equality;
  const NamedPolicy *policy = nullptr; // --gate: the preset
  std::string modeName() const { return std::string(spelling(mode)); }
  std::string equalityName() const { return std::string(spelling(equality)); }
  std::string policyName() const { return policy ? std::string(policy->name) : std::string(); }
  std::string name() const { return modeName() + "/" + equalityName(); }
  /// "mode M, equality E" and, with --gate, ", policy P".
  std::string words() const {
    return "mode " + modeName() + ", equality " + equalityName() +
           (policy ? ", policy " + policyName() : "");
  }
};

/// What happened to one case. "An implementation that crashes, times out or writes invalid JSON
/// is a finding with its stderr."
struct Outcome {
  enum class Kind {
    conforms,
    crashed,
    timedOut,
    failed,
    noOutput,
    notRegular,
    tooLarge,
    protocol,
    invalidOutput,
    violations,
    gateDiffers
  };
  Kind kind = Kind::conforms;
  Check primary =
      Check::provenance; // violations: the last violated check in the order of docs/spec.md §3
  GateDifference gate = GateDifference::none; // gateDiffers: the first difference
  std::string summary;                        // one sentence (from input: escaped when printed)
  std::string report;                         // the full report
  std::string output;                         // what the implementation wrote
  std::string standardError;
  bool fails() const { return kind != Kind::conforms; }
};

/// "while the failure persists": the same kind of failure and, for violations, the same check
/// still violated (other violations may come and go); for a gate, the same first difference (a
/// verdict difference keeps its direction).
bool sameFailure(const Outcome &a, const Outcome &b) {
  if (a.kind != b.kind)
    return false;
  if (a.kind == Outcome::Kind::gateDiffers)
    return a.gate == b.gate;
  return a.kind != Outcome::Kind::violations || a.primary == b.primary;
}

struct Settings {
  std::string impl, worker, gate;
  std::string policy; // --gate: one preset only; empty: all three
  std::size_t count = 200;
  gen::Settings gen;
  Mode mode = Mode::coalesced;
  Equality equality = Equality::contract;
  bool all = false, keepGoing = false, progress = false;
  std::uint64_t timeoutMs = 10000;
  std::uint64_t maxOutputBytes = std::uint64_t{64} << 20;
  std::string keep;

  std::chrono::milliseconds timeout() const {
    return std::chrono::milliseconds(static_cast<long long>(
        std::min<std::uint64_t>(timeoutMs, std::numeric_limits<long long>::max())));
  }
  std::size_t maxOutput() const {
    return static_cast<std::size_t>(
        std::min<std::uint64_t>(maxOutputBytes, std::numeric_limits<std::size_t>::max() / 2));
  }
};

// --- Judging an output, in a forked child bounded by the case's deadline ------------------

/// The outcome of the check as the child sends it back: "KIND PRIMARY GATE SUMMARYSIZE\n"
/// SUMMARY REPORT.
std::string encode(const Outcome &o) {
  return std::to_string(static_cast<int>(o.kind)) + ' ' +
         std::to_string(static_cast<int>(o.primary)) + ' ' +
         std::to_string(static_cast<int>(o.gate)) + ' ' + std::to_string(o.summary.size()) + '\n' +
         o.summary + o.report;
}

Outcome decode(const std::string &text) {
  Outcome o;
  int kind = 0, primary = 0, gate = 0;
  std::size_t size = 0, used = 0;
  if (std::sscanf(text.c_str(), "%d %d %d %zu\n%zn", &kind, &primary, &gate, &size, &used) < 4 ||
      used == 0 || used + size > text.size())
    throw std::runtime_error("internal error: a garbled answer from the judging child");
  o.kind = static_cast<Outcome::Kind>(kind);
  o.primary = static_cast<Check>(primary);
  o.gate = static_cast<GateDifference>(gate);
  o.summary = text.substr(used, size);
  o.report = text.substr(used + size);
  return o;
}

/// Reads the plan and the implementation's gate result and compares it with the reference gate of
/// the plan's lowering under the same mode, equality and policy: "the gate of a GraphExecutionPlan
/// is the gate of its lowering under a mode and an equality" (docs/spec.md §6.4), so the verdict,
/// the failure kinds in order and each kind's list of reports must be exactly the reference's.
Outcome checkGate(const std::string &planText, const std::string &output, const Lowering &l) {
  Outcome o;
  Interner fresh;
  const GraphExecutionPlan plan =
      io::readExecutionPlan(io::sourceFromString("plan.json", planText), fresh);
  const GraphLoweringPlan lowering = lower(fresh, plan, l.mode, l.equality);
  const AssurancePolicy &policy = l.policy->policy;
  const GateResult expected = gate(fresh, policy, lowering);
  GateComparer comparer;
  ReadGateResult actual;
  try {
    actual = comparer.read(output);
  } catch (const GateResultError &e) {
    o.kind = Outcome::Kind::invalidOutput;
    o.summary = std::string("the implementation wrote an invalid gate result: ") + e.what();
    o.report = o.summary + "\n";
    return o;
  }
  const GateComparison c = comparer.compare(
      l.policy->name, policy, expected, obligationReports(fresh, audit(fresh, lowering)), actual,
      /*exact=*/true);
  if (c.difference == GateDifference::none)
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
Outcome checkOutput(const std::string &planText, const std::string &output, const Lowering &l) {
  if (l.policy)
    return checkGate(planText, output, l);
  Outcome o;
  using K = Outcome::Kind;
  // The plan is read back from the file the implementation saw, so that the checks judge
  // exactly that plan.
  Interner fresh;
  const GraphExecutionPlan read =
      io::readExecutionPlan(io::sourceFromString("plan.json", planText), fresh);
  io::LoweringDocument candidate;
  try {
    candidate = io::readLoweringPlan(io::sourceFromString("output.json", output), fresh);
  } catch (const io::InputError &e) {
    o.kind = K::invalidOutput;
    o.summary = "the implementation wrote an invalid GraphLoweringPlan: " + io::formatError(e);
    o.report = o.summary + "\n";
    return o;
  }
  const checks::Report report = checks::check(fresh, read, candidate, {l.mode, l.equality});
  if (report.conforms())
    return o;
  o.kind = K::violations;
  for (std::size_t c = 0; c < vocabularySize<Check>(); ++c)
    if (report.violates(static_cast<Check>(c)))
      o.primary = static_cast<Check>(c);
  const auto &first = report.violations.front();
  o.summary = std::string(spelling(first.check)) + ": " + first.message + " (" +
              violationSummary(report) + ")";
  ReportSubject subject{
      "plan.json",        "output.json", l.mode, l.equality, candidate.plan.groups.size(),
      read.kernels.size()};
  o.report = io::writtenText([&](io::Sink &sink) { writeReportText(sink, report, subject); });
  return o;
}

// --- Running the implementation ---------------------------------------------------------------

/// What the implementation produced for one case: its output, or the failure that stands for it.
struct Produced {
  bool ok = false;
  Outcome failure;    // when !ok
  std::string output; // when ok
  std::string standardError;
};

Produced failure(Outcome::Kind kind, std::string summary, std::string standardError = {}) {
  Produced p;
  p.failure.kind = kind;
  p.failure.summary = std::move(summary);
  p.failure.report = p.failure.summary + "\n";
  p.failure.standardError = p.standardError = std::move(standardError);
  return p;
}

/// `{out}` after the implementation is done: a regular file of at most the cap.
Produced readOut(const fs::path &outPath, std::size_t cap, std::string standardError,
                 const std::string &how) {
  using K = Outcome::Kind;
  files::BoundedRead r = files::readRegularFile(outPath.string(), cap);
  switch (r.status) {
  case files::BoundedRead::Status::ok: {
    Produced p;
    p.ok = true;
    p.output = std::move(r.text);
    p.standardError = std::move(standardError);
    return p;
  }
  case files::BoundedRead::Status::missing:
    return failure(K::noOutput, "the implementation " + how + " but wrote no output file",
                   std::move(standardError));
  case files::BoundedRead::Status::tooLarge:
    return failure(K::tooLarge,
                   "the implementation's output file " + r.why +
                       " (--max-output-bytes); it was not judged",
                   std::move(standardError));
  case files::BoundedRead::Status::notRegular:
  case files::BoundedRead::Status::unreadable: break;
  }
  return failure(K::notRegular, "the implementation's output file {out} " + r.why + "; refused",
                 std::move(standardError));
}

/// One case's files and request.
struct CaseFiles {
  std::size_t index = 0;
  std::string label;
  std::string planText;
  fs::path planPath, outPath;
};

class Implementation {
public:
  virtual ~Implementation() = default;
  virtual Produced produce(const CaseFiles &c, const Lowering &l, Clock::time_point deadline) = 0;
  virtual std::size_t starts() const = 0;
};

/// `--impl` (and `--gate`): one process per case.
class PerCase : public Implementation {
public:
  explicit PerCase(const Settings &s)
      : s_(s), command_(s.gate.empty() ? s.impl : s.gate),
        template_(subprocess::splitCommand(command_)) {
    // Without `{out}` the implementation writes its output to standard output.
    toStdout_ = command_.find("{out}") == std::string::npos;
  }
  Produced produce(const CaseFiles &c, const Lowering &l, Clock::time_point deadline) override {
    using K = Outcome::Kind;
    const auto argv = subprocess::substitute(template_, {{"plan", c.planPath.string()},
                                                         {"out", c.outPath.string()},
                                                         {"mode", l.modeName()},
                                                         {"equality", l.equalityName()},
                                                         {"policy", l.policyName()}});
    subprocess::Options options;
    options.timeout = s_.timeout();
    options.deadline = deadline;
    options.captureStdout = toStdout_;
    options.maxStdout = s_.maxOutput();
    subprocess::Result r = subprocess::run(argv, options);
    ++starts_;
    if (r.status == subprocess::Result::Status::interrupted)
      throw Interrupted{};
    if (r.status == subprocess::Result::Status::failedToStart)
      throw UsageError("cannot run " + argv[0] + ": " + r.error);
    // A gate exits 1 when it rejects (docs/spec.md §6.6): its verdict is read from its output.
    const bool rejected = l.policy && r.status == subprocess::Result::Status::exited && r.code == 1;
    if (!r.ok() && !rejected)
      return failure(r.status == subprocess::Result::Status::signaled   ? K::crashed
                     : r.status == subprocess::Result::Status::timedOut ? K::timedOut
                                                                        : K::failed,
                     "the implementation " + subprocess::describe(r, s_.timeout()),
                     std::move(r.standardError));
    if (!toStdout_)
      return readOut(c.outPath, s_.maxOutput(), std::move(r.standardError),
                     "exited with status " + std::to_string(r.code));
    if (r.stdoutTruncated)
      return failure(K::tooLarge,
                     "the implementation wrote more than " + std::to_string(s_.maxOutput()) +
                         " bytes to standard output (--max-output-bytes); it was not judged",
                     std::move(r.standardError));
    Produced p;
    p.ok = true;
    p.output = std::move(r.standardOutput);
    p.standardError = std::move(r.standardError);
    return p;
  }
  std::size_t starts() const override { return starts_; }

private:
  const Settings &s_;
  std::string command_;
  std::vector<std::string> template_;
  bool toStdout_ = false;
  std::size_t starts_ = 0;
};

/// `--worker`: one process for the whole run, one request line and one answer line per case
/// (docs/conformance.md, "The worker protocol").
class Worker : public Implementation {
public:
  explicit Worker(const Settings &s)
      : s_(s), worker_(subprocess::splitCommand(s.worker), s.maxOutput() + (1 << 16)) {}

  Produced produce(const CaseFiles &c, const Lowering &l, Clock::time_point deadline) override {
    using K = Outcome::Kind;
    const std::uint64_t id = ++requests_;
    std::string request;
    {
      io::Sink sink(request);
      sink << "{\"id\":" << id << ",\"case\":" << std::uint64_t{c.index} << ",\"label\":";
      sink.jsonString(c.label);
      sink << ",\"mode\":\"" << l.modeName() << "\",\"equality\":\"" << l.equalityName()
           << "\",\"plan\":";
      sink.jsonString(c.planPath.string());
      sink << ",\"out\":";
      sink.jsonString(c.outPath.string());
      sink << ",\"inline\":" << minified(c.planText) << '}';
      sink.flush();
    }
    subprocess::Worker::Reply r = worker_.exchange(request, deadline);
    using S = subprocess::Worker::Reply::Status;
    if (r.status == S::interrupted)
      throw Interrupted{};
    if (r.status == S::failedToStart)
      throw UsageError("cannot run " + subprocess::splitCommand(s_.worker)[0] + ": " + r.error);
    if (r.status != S::answered)
      return failure(
          r.status == S::signaled   ? K::crashed
          : r.status == S::timedOut ? K::timedOut
          : r.status == S::tooLong  ? K::tooLarge
                                    : K::failed,
          "the worker " + subprocess::describe(r, s_.timeout()) +
              (r.status == S::tooLong ? " (--max-output-bytes); it was not judged" : "") +
              "; it is started again for the next case",
          std::move(r.standardError));
    return answer(r.line, id, c, std::move(r.standardError));
  }
  std::size_t starts() const override { return worker_.starts(); }

private:
  /// The plan as one line (the request is one line).
  std::string minified(const std::string &planText) {
    simdjson::dom::element doc;
    if (parser_.parse(planText).get(doc) != simdjson::SUCCESS)
      throw std::runtime_error("internal error: a generated plan is not JSON");
    return simdjson::minify(doc);
  }

  /// `{"id":N,"status":"done"}` (output in `{out}`), `{"id":N,"status":"done","output":{...}}`,
  /// or `{"id":N,"status":"error","message":"..."}`.
  Produced answer(const std::string &line, std::uint64_t id, const CaseFiles &c,
                  std::string standardError) {
    using K = Outcome::Kind;
    auto bad = [&](const std::string &why) {
      worker_.stop(); // out of step: start afresh
      return failure(K::protocol, "the worker's answer " + why + "; it is started again",
                     std::move(standardError));
    };
    simdjson::dom::element doc;
    if (parser_.parse(line).get(doc) != simdjson::SUCCESS || !doc.is_object())
      return bad("is not one JSON object on one line");
    std::uint64_t gotId = 0;
    if (doc["id"].get_uint64().get(gotId) != simdjson::SUCCESS || gotId != id)
      return bad("does not carry the request's \"id\" " + std::to_string(id));
    std::string_view status;
    if (doc["status"].get_string().get(status) != simdjson::SUCCESS)
      return bad("has no \"status\" string");
    if (status == "error") {
      std::string_view message;
      if (doc["message"].get_string().get(message) != simdjson::SUCCESS)
        message = "(no message)";
      return failure(K::failed, "the worker answered error: " + std::string(message),
                     std::move(standardError));
    }
    if (status != "done")
      return bad("has \"status\" other than \"done\" or \"error\"");
    simdjson::dom::element output;
    if (doc["output"].get(output) == simdjson::SUCCESS) {
      Produced p;
      p.ok = true;
      p.output = simdjson::minify(output);
      p.standardError = std::move(standardError);
      return p;
    }
    return readOut(c.outPath, s_.maxOutput(), std::move(standardError), "answered done");
  }

  const Settings &s_;
  subprocess::Worker worker_;
  simdjson::dom::parser parser_;
  std::uint64_t requests_ = 0;
};

// --- The run ------------------------------------------------------------------------------

/// A failing case, as the summary lists it.
struct Failure {
  std::string label;
  Lowering lowering;
  Outcome outcome;
  std::string savedIn; // shrunk and saved there; empty when only counted
  std::size_t minimalNodes = 0;
};

class Runner {
public:
  explicit Runner(const Settings &s)
      : s_(s), work_(makeTempDir(tempParent(), "lowering-oracle-diff")) {
    if (s.worker.empty())
      impl_ = std::make_unique<PerCase>(s);
    else
      impl_ = std::make_unique<Worker>(s);
    std::vector<Lowering> asked;
    if (s.all)
      asked = {{Mode::singleton, Equality::contract},
               {Mode::singleton, Equality::identity},
               {Mode::coalesced, Equality::contract},
               {Mode::coalesced, Equality::identity}};
    else
      asked = {{s.mode, s.equality}};
    loweringCount_ = asked.size();
    // --gate: each lowering under each preset, in the order verified, checked, external.
    for (const Lowering &l : asked)
      if (s.gate.empty())
        lowerings_.push_back(l);
      else
        for (const NamedPolicy &p : kPolicyPresets)
          if (s.policy.empty() || s.policy == p.name)
            lowerings_.push_back({l.mode, l.equality, &p});
  }
  ~Runner() {
    impl_.reset(); // stops a worker before its directory goes
    std::error_code ignored;
    fs::remove_all(work_, ignored);
  }
  Runner(const Runner &) = delete;

  Outcome judge(const Interner &interner, const GraphExecutionPlan &plan, gen::Encoding encoding,
                const Lowering &l, std::size_t index, const std::string &label) {
    // The timeout covers the whole case: running, reading the output and checking it.
    const auto deadline = subprocess::deadlineAfter(s_.timeout());
    CaseFiles c;
    c.index = index;
    c.label = label;
    c.planText = gen::planJson(interner, plan, encoding);
    c.planPath = work_ / "plan.json";
    c.outPath = work_ / "out.json";
    writeFile(c.planPath, c.planText);
    std::error_code ignored;
    fs::remove(c.outPath, ignored);
    ++runs_;
    Produced p = impl_->produce(c, l, deadline);
    if (!p.ok)
      return std::move(p.failure);
    if (p.output.size() <= kJudgeInProcessBytes) {
      // A small output is read and checked in a bounded time: judged here, and a case that
      // overran its deadline all the same counts as timed out.
      Outcome o = checkOutput(c.planText, p.output, l);
      if (Clock::now() > deadline)
        o = timedOut(p.output.size());
      o.output = std::move(p.output);
      o.standardError = std::move(p.standardError);
      return o;
    }
    const auto judged = subprocess::runForked(
        [&] { return encode(checkOutput(c.planText, p.output, l)); }, deadline);
    using F = subprocess::ForkResult::Status;
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

  /// Outputs larger than this are judged in a forked child that is killed at the case's
  /// deadline; smaller ones cannot take long (docs/conformance.md, "Bounds").
  static constexpr std::size_t kJudgeInProcessBytes = std::size_t{256} << 10;

  Outcome timedOut(std::size_t outputBytes) const {
    Outcome o;
    o.kind = Outcome::Kind::timedOut;
    o.summary = "the case took longer than the timeout of " + std::to_string(s_.timeoutMs) +
                " ms: the implementation's output (" + std::to_string(outputBytes) +
                " bytes) was not judged in time";
    o.report = o.summary + "\n";
    return o;
  }

  int run() {
    const bool terminal = ::isatty(2);
    const auto start = Clock::now();
    auto lastProgress = start;
    std::size_t cases = 0;
    try {
      for (std::size_t i = 0; i < s_.count; ++i) {
        Interner interner;
        const gen::Case c = gen::caseAt(interner, s_.gen, i);
        const std::string label = gen::caseLabel(i, c);
        for (const Lowering &l : lowerings_) {
          Outcome o = judge(interner, c.plan, c.encoding, l, i, label);
          ++caseRuns_;
          if (o.fails()) {
            record(interner, c, i, l, std::move(o), terminal);
            if (!s_.keepGoing)
              return summary(start, cases + 1, false);
          }
        }
        ++cases;
        if ((terminal || s_.progress) &&
            Clock::now() - lastProgress > std::chrono::milliseconds(terminal ? 100 : 1000)) {
          lastProgress = Clock::now();
          progress(terminal, cases, start);
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
  void progress(bool terminal, std::size_t cases, Clock::time_point start) {
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    std::cerr << (terminal ? "\r" : "") << "diff: " << cases << "/" << s_.count << " cases, "
              << runs_ << " runs, " << failures_.size()
              << (failures_.size() == 1 ? " failure, " : " failures, ")
              << static_cast<long>(seconds > 0 ? static_cast<double>(runs_) / seconds : 0)
              << " runs/s" << (terminal ? "" : "\n") << std::flush;
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
    return s_.gate.empty() ? ""
                           : (lowerings_.size() == loweringCount_ ? ", gate of policy "
                                                                  : ", gates of policies ") +
                                 out;
  }

  /// The summary lines on standard output; the exit status.
  int summary(Clock::time_point start, std::size_t cases, bool interrupted) {
    const long ms = static_cast<long>(
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count());
    const std::string where =
        (loweringCount_ == 1
             ? "mode " + lowerings_[0].modeName() + ", equality " + lowerings_[0].equalityName()
             : "lowerings " + lowerings()) +
        policies() + ", seed " + std::to_string(s_.gen.seed);
    // Every shrunk finding first, then the failing cases counted with it, at most kListed.
    constexpr std::size_t kListed = 50;
    std::size_t listed = 0;
    for (const Failure &f : failures_)
      if (!f.savedIn.empty())
        std::cout << "diff: case " << f.label << " (seed " << s_.gen.seed << ", "
                  << f.lowering.words() << ") fails; minimal case " << f.minimalNodes
                  << (f.minimalNodes == 1 ? " node" : " nodes") << ": "
                  << shownText(f.outcome.summary) << "; saved in " << shownText(f.savedIn) << '\n';
    for (const Failure &f : failures_)
      if (f.savedIn.empty() && listed++ < kListed)
        std::cout << "diff: case " << f.label << " (" << f.lowering.words()
                  << ") fails: " << shownText(f.outcome.summary) << '\n';
    if (listed > kListed)
      std::cout << "diff: ... and " << listed - kListed << " more failing cases not listed\n";
    if (interrupted) {
      const int signal = subprocess::InterruptGuard::received();
      std::cout << "diff: interrupted by " << (signal == SIGTERM ? "SIGTERM" : "SIGINT")
                << " after " << cases << " of " << s_.count << " cases (" << where << ", " << runs_
                << " runs in " << ms << " ms): " << failures_.size()
                << (failures_.size() == 1 ? " failure" : " failures") << " so far\n";
      return failures_.empty() ? kInconclusive : kFinding;
    }
    if (failures_.empty()) {
      std::cout << "diff: all " << cases << " cases conform (" << where << ", " << runs_
                << " runs in " << ms << " ms, " << impl_->starts()
                << (impl_->starts() == 1 ? " start" : " starts") << " of the implementation)\n";
      return kSuccess;
    }
    if (s_.keepGoing)
      std::cout << "diff: " << failures_.size() << " of " << caseRuns_ << " runs fail (" << where
                << ", " << cases << " cases in " << ms << " ms)\n";
    return kFinding;
  }

  /// A failure: shrunk and saved when it is the first of its kind (mode, equality, policy, kind
  /// of failure, check or gate difference), else listed.
  void record(Interner &interner, const gen::Case &c, std::size_t index, const Lowering &l,
              Outcome original, bool terminal) {
    Failure f{gen::caseLabel(index, c), l, std::move(original), "", 0};
    const auto signature =
        std::make_tuple(static_cast<int>(l.mode), static_cast<int>(l.equality),
                        l.policy ? static_cast<int>(l.policy - kPolicyPresets) : -1,
                        static_cast<int>(f.outcome.kind), static_cast<int>(f.outcome.primary),
                        static_cast<int>(f.outcome.gate));
    // Listed first, so that an interrupt while it is shrunk still reports it.
    failures_.push_back(std::move(f));
    if (seen_.insert(signature).second)
      shrinkAndSave(interner, c, index, failures_.back(), terminal);
  }

  void shrinkAndSave(Interner &interner, const gen::Case &c, std::size_t index, Failure &f,
                     bool terminal) {
    if (terminal)
      std::cerr << "\r\033[Kdiff: case " << index << " fails; shrinking..." << std::flush;
    shrink::Limits limits;
    // A timeout costs the whole timeout per attempt: shrink it only a little.
    limits.maxTests = f.outcome.kind == Outcome::Kind::timedOut ? 8 : 1000;
    shrink::Stats stats;
    const Outcome &original = f.outcome;
    GraphExecutionPlan minimal = shrink::shrink(
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
    if (terminal)
      std::cerr << "\r\033[K";

    fs::path keep = keepRoot();
    if (s_.keepGoing || loweringCount_ > 1)
      keep /= f.label + "-" + f.lowering.modeName() + "-" + f.lowering.equalityName() +
              (f.lowering.policy ? "-" + f.lowering.policyName() : "");
    fs::create_directories(keep);
    writeFile(keep / "plan.json", gen::planJson(interner, minimal, c.encoding));
    writeFile(keep / "original-plan.json", gen::planJson(interner, c.plan, c.encoding));
    writeFile(keep / "output.json", last.output);
    writeFile(keep / "stderr.txt", last.standardError);
    if (f.lowering.policy) // the reference gate result of the minimal plan, as `gate` writes it
      writeFile(
          keep / "expected.json",
          io::gateResultJson(f.lowering.policy->policy,
                             gate(interner, f.lowering.policy->policy,
                                  lower(interner, minimal, f.lowering.mode, f.lowering.equality))));
    const std::string command = !s_.gate.empty()  ? "--gate " + s_.gate
                                : s_.impl.empty() ? "--worker " + s_.worker
                                                  : s_.impl;
    std::string report =
        "lowering-oracle diff: case " + f.label + " of seed " + std::to_string(s_.gen.seed) + " (" +
        f.lowering.words() + ")\ncommand: " + command + "\nshrunk from " +
        std::to_string(c.plan.kernels.size()) + " to " + std::to_string(minimal.kernels.size()) +
        " nodes in " + std::to_string(stats.tests) + " runs\n\n" + last.report;
    if (!last.standardError.empty())
      report += "\nstandard error of the implementation:\n" + last.standardError;
    writeFile(keep / "report.txt", report);
    f.outcome = std::move(last);
    f.savedIn = keep.string();
    f.minimalNodes = minimal.kernels.size();
  }

  /// --keep, else a new directory under $TMPDIR (made once).
  fs::path keepRoot() {
    if (!s_.keep.empty())
      return s_.keep;
    if (defaultKeep_.empty())
      defaultKeep_ = makeTempDir(tempParent(), "lowering-oracle-finding");
    return defaultKeep_;
  }

  const Settings &s_;
  std::vector<Lowering> lowerings_; // with --gate, each lowering once per preset
  std::size_t loweringCount_ = 1;   // lowerings asked (--all: 4)
  fs::path work_, defaultKeep_;
  std::unique_ptr<Implementation> impl_;
  std::vector<Failure> failures_;
  std::set<std::tuple<int, int, int, int, int, int>> seen_;
  std::size_t runs_ = 0;     // of the implementation, shrinking included
  std::size_t caseRuns_ = 0; // one per case and lowering
};

} // namespace

Action setupDiff(CLI::App &app) {
  auto o = std::make_shared<Settings>();
  auto *sub = app.add_subcommand(
      "diff", "Run another implementation on generated plans, check every output, and shrink "
              "and save the first failure.");
  auto *impl = sub->add_option(
      "--impl", o->impl,
      "the command to run once per case, split into arguments like a shell would (quotes, "
      "backslashes) but never run by a shell; {plan}, {out}, {mode} and {equality} are replaced "
      "inside each argument. Without {out}, the output is read from standard output.");
  auto *worker = sub->add_option(
      "--worker", o->worker,
      "instead of --impl: a command started once that answers one JSON line per case on its "
      "standard output to one JSON request line on its standard input (docs/conformance.md, "
      "\"The worker protocol\"); restarted after a crash, a timeout or a garbled answer");
  auto *gateOption = sub->add_option(
      "--gate", o->gate,
      "instead of --impl: another implementation's acceptance gate (docs/spec.md §6), run like "
      "--impl once per case, lowering and policy preset (verified, checked, external), with "
      "{policy} replaced too; it writes a gate result (nn-backend/gate-result) to {out} or "
      "standard output and may exit 0 or 1 (accepted or rejected). Each result must equal the "
      "reference gate of the plan's lowering under --mode and --equality: the verdict, the "
      "failure kinds in order, each kind's reports in order, the policy asked for; the first "
      "difference is shrunk.");
  sub->add_option("--policy", o->policy,
                  "with --gate: ask only for the gate under this preset (default: verified, "
                  "checked and external, in this order)")
      ->check(CLI::IsMember({"verified", "checked", "external"}))
      ->needs(gateOption);
  impl->excludes(worker);
  gateOption->excludes(impl);
  gateOption->excludes(worker);
  addNatural(*sub, "--count", o->count, 0, kMaxCount,
             "number of cases (the " + std::to_string(gen::edgeCaseCount()) +
                 " hand-picked ones first, as in `gen`)");
  addNatural(*sub, "--seed", o->gen.seed, 0, kMaxU64, "seed of the random cases");
  addNatural(*sub, "--max-nodes", o->gen.maxNodes, 0, kMaxNodes, "most nodes in a random case");
  addModeOption(*sub, o->mode);
  addEqualityOption(*sub, o->equality);
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
  addNatural(*sub, "--timeout-ms", o->timeoutMs, 1, kMaxTimeoutMs,
             "time allowed for one case: running the implementation, reading its output and "
             "checking it");
  addNatural(*sub, "--max-output-bytes", o->maxOutputBytes, 1, kMaxOutputBytes,
             "largest output read from the implementation ({out} or standard output, or a "
             "worker's answer); a larger one is a finding, not judged");
  sub->add_option("--keep", o->keep,
                  "directory for the minimal failing case (plan.json, output.json, report.txt, "
                  "stderr.txt, original-plan.json, and with --gate expected.json, the reference "
                  "gate result; with --keep-going or --all one subdirectory "
                  "per saved failure); default: a new directory under $TMPDIR. Must not be an "
                  "existing file.");
  sub->footer("Exit status: 0 every output conforms, 1 a finding (an output does not conform or "
              "a gate result differs, or the implementation crashed, timed out or wrote invalid "
              "JSON), 2 bad usage (the "
              "command cannot be split or started), 3 interrupted (SIGINT, SIGTERM) before any "
              "finding; interrupted after a finding is 1.");
  return [o]() -> int {
    if (o->impl.empty() + o->worker.empty() + o->gate.empty() != 2) {
      std::cerr << "lowering-oracle: diff: give exactly one of --impl, --worker and --gate\n";
      return kBadInput;
    }
    if (!o->keep.empty()) {
      std::error_code e;
      const auto st = fs::status(o->keep, e);
      if (fs::exists(st) && !fs::is_directory(st)) {
        std::cerr << "lowering-oracle: diff: --keep " << shownText(o->keep)
                  << " exists and is not a directory; name a directory (new or existing)\n";
        return kBadInput;
      }
    }
    try {
      subprocess::InterruptGuard guard; // before the work directory exists
      Runner runner(*o);
      return runner.run();
    } catch (const std::invalid_argument &e) {
      std::cerr << "lowering-oracle: "
                << (!o->gate.empty()  ? "--gate"
                    : o->impl.empty() ? "--worker"
                                      : "--impl")
                << ": " << e.what() << '\n';
      return kBadInput;
    } catch (const UsageError &e) {
      std::cerr << "\nlowering-oracle: " << e.what() << '\n';
      return kBadInput;
    }
  };
}

} // namespace lo::cli
