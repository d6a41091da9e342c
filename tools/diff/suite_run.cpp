#include "tools/diff/suite_run.hpp"

#include "ref/io/escape.hpp"
#include "tools/diff/diff_drivers.hpp"
#include "tools/diff/planner_driver.hpp"
#include "tools/exit_codes.hpp"
#include "tools/system/files.hpp"
#include "tools/system/interrupt.hpp"

#include <csignal>
#include <memory>
#include <optional>

namespace lo::diff {

namespace {

namespace fs = std::filesystem;

/// The run's driver and its work directory (docs/spec.md §4.1, "Temporaries": registered for
/// removal on SIGINT and SIGTERM, removed at the end, after the worker is stopped).
struct Run {
  DiffSettings settings; // the driver holds a reference to it
  std::unique_ptr<Implementation> implementation;
  std::unique_ptr<PlannerDriver> planner; // --selection
  std::unique_ptr<system::TemporaryDirectory> work;
  ~Run() {
    implementation.reset();
    planner.reset();
    if (work) {
      std::error_code ignored;
      fs::permissions(work->path(), fs::perms::owner_all, fs::perm_options::add, ignored);
    }
    work.reset();
  }
};

/// The run's work directory, made at the first run (once the suite is verified).
const fs::path &workOf(Run &run) {
  try {
    if (!run.work)
      run.work = std::make_unique<system::TemporaryDirectory>("lowering-oracle-verify");
  } catch (const std::runtime_error &e) {
    throw UsageError(std::string("verify: the run's work directory: ") + e.what());
  }
  return run.work->path();
}

/// One run of the implementation; SIGINT or SIGTERM during it ends verify without a report.
template <class F> Produced uninterrupted(F &&produce) {
  try {
    return produce();
  } catch (const Interrupted &) {
    throw cli::InterruptedRun(
        std::string("verify: interrupted by ") +
        (system::InterruptGuard::received() == SIGTERM ? "SIGTERM" : "SIGINT") +
        " while it ran the implementation: no report written, nothing concluded");
  }
}

/// An entry's error for a run without an output: the failure, and how its standard error begins.
std::string failureOf(const Produced &p) {
  std::string error = p.failure.summary;
  if (!p.standardError.empty())
    error += "; its standard error begins: " + io::shownText(p.standardError, io::kMaxExcerptBytes);
  return error;
}

/// A selection entry: the planner on the entry's graph and profile (their verified bytes).
suite::ProducedOutput producePlan(Run &run, const suite::ProduceRequest &q) {
  suite::ProducedOutput out;
  const fs::path graphPath = workOf(run) / "graph.json", profilePath = workOf(run) / "profile.json";
  try {
    system::recreateFile(graphPath, q.graphText);
    system::recreateFile(profilePath, q.profileText);
  } catch (const std::runtime_error &e) {
    throw UsageError(std::string("verify: the run's work directory: ") + e.what());
  }
  // The output and a refusal of an earlier run are removed first; a refusal is written beside
  // where the plan would be, as one judged from OUTPUTS is read (docs/spec.md §4.3).
  fs::path refusalPath = q.outPath;
  refusalPath += ".error";
  for (const fs::path &old : {q.outPath, refusalPath}) {
    std::error_code e;
    fs::remove_all(old, e);
    if (e) {
      out.error =
          "no output: " + old.string() + " cannot be removed before the run: " + e.message();
      return out;
    }
  }
  const Produced p = uninterrupted([&] {
    return run.planner->produce(graphPath, profilePath, q.outPath, q.graphText, q.profileText,
                                q.edition, q.caseIndex,
                                system::deadlineAfter(run.settings.timeout()));
  });
  if (!p.ok) {
    out.error = failureOf(p);
    return out;
  }
  out.ok = true;
  if (p.withoutOutput) {
    out.refused = true;
    out.message = run.planner->refusal(p);
    try {
      system::recreateFile(refusalPath, out.message + "\n");
    } catch (const std::runtime_error &e) {
      out = {};
      out.error = "the planner's refusal cannot be written: " + std::string(e.what());
    }
  } else {
    out.text = std::move(p.output);
  }
  return out;
}

suite::ProducedOutput produce(Run &run, const suite::ProduceRequest &q) {
  if (q.entry->selection)
    return producePlan(run, q);
  const suite::SuiteManifest::Entry &m = *q.entry;
  // A gate entry's policy: a preset, or the case's custom policy told by its six booleans
  // (docs/spec.md §4.3, "What a case asks").
  std::optional<NamedPolicy> policy;
  for (const NamedPolicy &p : kPolicyPresets)
    if (!m.policy.empty() && m.policy == p.name)
      policy = p;
  if (m.policy == "custom")
    policy = NamedPolicy{"custom", m.gatePolicy};
  if (m.acceptance) // a maintained profile, by its name (docs/spec.md §6.10)
    policy = NamedPolicy{m.policy, {}};
  CaseFiles c;
  c.index = q.caseIndex;
  c.label = m.caseName;
  c.planText = std::string(q.planText);
  c.outPath = q.outPath;
  suite::ProducedOutput out;
  // The plan is the runner's file, made afresh (whatever the last run left there); the output file
  // is removed first, so that an output of an earlier run is never judged as this one's.
  c.planPath = workOf(run) / "plan.json";
  try {
    system::recreateFile(c.planPath, c.planText);
  } catch (const std::runtime_error &e) {
    throw UsageError(std::string("verify: the run's work directory: ") + e.what());
  }
  std::error_code e;
  fs::remove_all(c.outPath, e);
  if (e) {
    out.error =
        "no output: " + c.outPath.string() + " cannot be removed before the run: " + e.message();
    return out;
  }
  Lowering l{m.mode, m.equality, policy, q.edition};
  l.audit = m.audit; // the entry asks for the audit: `{audit}` and a worker's request say so
  Produced p = uninterrupted([&] {
    return run.implementation->produce(c, l, system::deadlineAfter(run.settings.timeout()));
  });
  if (!p.ok) {
    out.error = failureOf(p);
    return out;
  }
  out.ok = true;
  out.text = std::move(p.output);
  out.exitCode = p.exitCode;
  return out;
}

} // namespace

suite::Producer suiteProducer(const SuiteRunSettings &s) {
  auto run = std::make_shared<Run>();
  run->settings.timeoutMs = s.timeoutMs;
  run->settings.maxOutputBytes = s.maxOutputBytes;
  try {
    if (s.selection) {
      run->settings.planner = s.impl;
      run->settings.plannerWorker = s.worker;
      run->planner = std::make_unique<PlannerDriver>(run->settings);
    } else {
      run->settings.impl = s.gates ? std::string() : s.impl;
      run->settings.gate = s.gates ? s.impl : std::string();
      // A gate worker answers gate results (docs/conformance.md, "The gate worker protocol").
      (s.gates ? run->settings.gateWorker : run->settings.worker) = s.worker;
      run->implementation = makeImplementation(run->settings);
    }
  } catch (const std::invalid_argument &e) {
    throw UsageError(std::string(s.worker.empty() ? "--impl" : "--worker") +
                     ": the command cannot be split: " + e.what());
  }
  return [run](const suite::ProduceRequest &q) { return produce(*run, q); };
}

} // namespace lo::diff
