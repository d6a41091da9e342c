// `verify SUITE OUTPUTS [--pattern P] [--format text|json|junit|sarif] [-o OUT]`: judges a whole
// directory of an implementation's outputs against a conformance suite (what `gen` writes: a
// manifest with one entry per case, mode and equality) in one process, with one report. Each output
// is judged as `check PLAN OUTPUT --mode M --equality E` judges it (the checks of docs/spec.md §3);
// an output that is missing, unreadable or not a valid GraphLoweringPlan is an entry with an error.
// With --gates, the manifest's gate entries (one per case and policy preset) are judged instead:
// the implementation's gate result must have the reference's verdict, failure kinds in order and,
// for each kind, set of reports (docs/spec.md §6.7).
#include "checks/checks.hpp"
#include "ref/gate.hpp"
#include "ref/io/error.hpp"
#include "ref/io/reader.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"
#include "tools/support/command_io.hpp"
#include "tools/support/gate_compare.hpp"
#include "tools/support/locate.hpp"
#include "tools/support/suite_report.hpp"

#include <simdjson.h>

#include <chrono>
#include <filesystem>
#include <memory>

namespace lo::cli {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

/// A problem with the suite or the options (not with an output): exit status 2.
struct SuiteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One manifest entry: `{"case", "mode", "equality", "files": {"plan", "expected"}}`, or a gate
/// entry `{"case", "policy", "mode", "equality", "files": {"plan", "expected"}}`.
struct ManifestEntry {
  std::string caseName;
  Mode mode = Mode::coalesced;
  Equality equality = Equality::contract;
  std::string plan;   // relative to the suite
  std::string policy; // a gate entry: the preset; empty for a lowering entry
};

/// A path of the manifest stays inside the suite: relative, without `..`.
std::string insidePath(std::string_view p, const std::string &where) {
  const fs::path path(p);
  if (p.empty() || path.is_absolute())
    throw SuiteError(where + ": not a relative path inside the suite: " + std::string(p));
  for (const auto &part : path)
    if (part == "..")
      throw SuiteError(where + ": not a relative path inside the suite: " + std::string(p));
  return std::string(p);
}

std::vector<ManifestEntry> readManifest(const fs::path &suite, bool gates) {
  const fs::path path = suite / "manifest.json";
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (auto err = parser.load(path.string()).get(doc))
    throw SuiteError(path.string() +
                     ": not a conformance suite manifest: " + simdjson::error_message(err));
  std::string_view format;
  if (doc["format"].get(format) || format != "lowering-oracle/conformance-suite")
    throw SuiteError(path.string() + ": /format: expected \"lowering-oracle/conformance-suite\"");
  simdjson::dom::array cases, gateEntries;
  if (doc["cases"].get(cases))
    throw SuiteError(path.string() + ": /cases: expected an array");
  if (gates && doc["gates"].get(gateEntries))
    throw SuiteError(path.string() + ": /gates: expected an array (--gates needs a suite whose "
                                     "manifest lists gate results)");
  std::vector<ManifestEntry> out;
  const auto read = [&](simdjson::dom::element e, const std::string &where, bool gate) {
    std::string_view name, mode, equality, plan, policy;
    if (e["case"].get(name) || e["mode"].get(mode) || e["equality"].get(equality) ||
        e["files"]["plan"].get(plan) || (gate && e["policy"].get(policy)))
      throw SuiteError(where + (gate ? ": expected {\"case\", \"policy\", \"mode\", "
                                       "\"equality\", \"files\": {\"plan\", ...}} with string "
                                       "values"
                                     : ": expected {\"case\", \"mode\", \"equality\", \"files\": "
                                       "{\"plan\", ...}} with string values"));
    ManifestEntry m;
    // The case name becomes part of a file name: one path component, not `.` or `..`.
    if (name.empty() || name == "." || name == ".." ||
        name.find_first_of(std::string_view("/\0", 2)) != std::string_view::npos)
      throw SuiteError(where + "/case: not a case name: " + std::string(name));
    m.caseName = name;
    const auto md = parseSpelling<Mode>(mode);
    const auto eq = parseSpelling<Equality>(equality);
    if (!md || !eq)
      throw SuiteError(where + ": unknown mode or equality");
    if (gate && !policyPreset(policy))
      throw SuiteError(where + "/policy: not verified, checked or external");
    m.mode = *md;
    m.equality = *eq;
    m.plan = insidePath(plan, where + "/files/plan");
    m.policy = policy;
    out.push_back(std::move(m));
  };
  std::size_t i = 0;
  for (simdjson::dom::element e : gates ? gateEntries : cases)
    read(e, path.string() + (gates ? ": /gates/" : ": /cases/") + std::to_string(i++), gates);
  return out;
}

/// The output file name of an entry: `pattern` with {case}, {mode}, {equality} and {policy}
/// replaced.
std::string outputName(const std::string &pattern, const ManifestEntry &e) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size();) {
    const auto replace = [&](std::string_view placeholder, std::string_view value) {
      if (pattern.compare(i, placeholder.size(), placeholder) != 0)
        return false;
      out += value;
      i += placeholder.size();
      return true;
    };
    if (!replace("{case}", e.caseName) && !replace("{mode}", spelling(e.mode)) &&
        !replace("{equality}", spelling(e.equality)) && !replace("{policy}", e.policy))
      out += pattern[i++];
  }
  return out;
}

struct Options {
  std::string suite, outputs, pattern = "{case}-{mode}-{equality}.json", out = "-";
  ReportFormat format = ReportFormat::text;
  std::string gatePattern = "{case}-gate-{policy}.json";
  bool gates = false;
  std::size_t maxPerCheck = 20;
};

/// A gate entry: the implementation's gate result against the reference gate of the plan's
/// lowering under the entry's mode and equality, as sets of reports per kind (docs/spec.md §6.7:
/// every lowering of the plan under contract has this gate up to multiplicities). A difference is
/// one violation of the check `gate` at the pointer where the result differs.
void judgeGate(Interner &interner, const GraphExecutionPlan &plan, const ManifestEntry &m,
               const io::Source &source, SuiteEntry &entry) {
  const AssurancePolicy policy = *policyPreset(m.policy);
  const GraphLoweringPlan lowering = lower(interner, plan, m.mode, m.equality);
  GateComparer comparer;
  ReadGateResult actual;
  try {
    actual = comparer.read(source.text);
  } catch (const GateResultError &e) {
    entry.status = SuiteEntry::Status::error;
    entry.error = "not a gate result: " + e.message;
    entry.errorPointer = e.pointer;
    if (const auto at = locate(source.text, e.pointer)) {
      entry.line = at->first;
      entry.column = at->second;
    }
    return;
  }
  const GateComparison c =
      comparer.compare(m.policy, policy, gate(interner, policy, lowering),
                       obligationReports(interner, audit(interner, lowering)), actual,
                       /*exact=*/false);
  entry.groups = lowering.groups.size();
  if (c.difference == GateDifference::none) {
    entry.status = SuiteEntry::Status::conforms;
    return;
  }
  entry.status = SuiteEntry::Status::fails;
  checks::Violation v;
  v.check = Check::gate;
  v.pointer = c.pointer;
  v.message = c.words;
  entry.report.violations.push_back(std::move(v));
  entry.positions.push_back(
      locate(source.text, c.pointer).value_or(std::pair<std::size_t, std::size_t>{}));
}

int verify(const Options &o) {
  const fs::path suite(o.suite), outputs(o.outputs);
  if (o.pattern.find("{case}") == std::string::npos)
    throw SuiteError("--pattern must contain {case}");
  if (o.gatePattern.find("{case}") == std::string::npos ||
      o.gatePattern.find("{policy}") == std::string::npos)
    throw SuiteError("--gate-pattern must contain {case} and {policy}");
  if (!fs::is_directory(outputs))
    throw SuiteError(o.outputs + ": not a directory");
  const std::vector<ManifestEntry> manifest = readManifest(suite, o.gates);

  SuiteReport report{o.suite, o.outputs, {}};
  report.entries.reserve(manifest.size());
  // The entries of one case share its plan: it is read once, into the interner its outputs share.
  std::unique_ptr<Interner> interner;
  GraphExecutionPlan plan;
  std::string planPath;
  for (const ManifestEntry &m : manifest) {
    const auto start = Clock::now();
    const std::string planFile = (suite / m.plan).string();
    if (planFile != planPath) {
      interner = std::make_unique<Interner>();
      try {
        plan = io::readExecutionPlan(io::loadSource(planFile), *interner);
      } catch (const io::InputError &e) {
        throw SuiteError("the suite's plan is invalid: " + io::formatError(e));
      }
      planPath = planFile;
    }
    SuiteEntry entry;
    entry.caseName = m.caseName;
    entry.mode = m.mode;
    entry.equality = m.equality;
    entry.policy = m.policy;
    entry.plan = m.plan;
    entry.nodes = plan.kernels.size();
    const std::string name = outputName(m.policy.empty() ? o.pattern : o.gatePattern, m);
    const fs::path outputFile = outputs / name;
    entry.output = name;
    std::error_code ec;
    if (!fs::exists(outputFile, ec)) {
      entry.status = SuiteEntry::Status::error;
      entry.error = "no output: " + outputFile.string() + " does not exist";
    } else if (fs::is_directory(outputFile, ec)) {
      entry.status = SuiteEntry::Status::error;
      entry.error = "no output: " + outputFile.string() + " is a directory";
    } else {
      try {
        const io::Source source = io::loadSource(outputFile.string());
        if (!m.policy.empty()) {
          judgeGate(*interner, plan, m, source, entry);
          entry.seconds = std::chrono::duration<double>(Clock::now() - start).count();
          report.entries.push_back(std::move(entry));
          continue;
        }
        const io::LoweringDocument candidate = io::readLoweringPlan(source, *interner);
        checks::Options options;
        options.mode = m.mode;
        options.equality = m.equality;
        options.maxPerCheck = o.maxPerCheck;
        entry.report = checks::check(*interner, plan, candidate, options);
        entry.groups = candidate.plan.groups.size();
        entry.status =
            entry.report.conforms() ? SuiteEntry::Status::conforms : SuiteEntry::Status::fails;
        std::vector<std::string_view> pointers;
        for (const auto &v : entry.report.violations)
          pointers.push_back(v.pointer);
        for (const auto &at : locateAll(source.text, pointers)) // one pass over the output
          entry.positions.push_back(at.value_or(std::pair<std::size_t, std::size_t>{}));
      } catch (const io::InputError &e) {
        entry.status = SuiteEntry::Status::error;
        entry.error = e.message();
        entry.errorPointer = e.pointer();
        entry.line = e.line();
        entry.column = e.column();
      }
    }
    entry.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    report.entries.push_back(std::move(entry));
  }

  writeOutput(o.out, [&](io::Sink &sink) { writeSuiteReport(sink, o.format, report); });
  return report.conforms() ? kSuccess : kFinding;
}

} // namespace

Action setupVerify(CLI::App &app) {
  auto o = std::make_shared<Options>();
  auto *sub = app.add_subcommand(
      "verify", "Judge a directory of an implementation's outputs against a conformance suite "
                "(from `gen`) in one process, with one report.");
  addOperand(*sub, "SUITE", o->suite, "the suite directory (with manifest.json)");
  addOperand(*sub, "OUTPUTS", o->outputs,
             "the directory of the implementation's outputs, one GraphLoweringPlan (with "
             "--gates, one gate result) per manifest entry, named by --pattern (--gate-pattern)");
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
  sub->add_option("--gate-pattern", o->gatePattern,
                  "with --gates, the file name of a gate entry's output in OUTPUTS; {case}, "
                  "{policy}, {mode} and {equality} are replaced")
      ->capture_default_str();
  addReportOptions(*sub, o->format, o->maxPerCheck,
                   "text: the violations and errors, then a summary line; json: one result per "
                   "entry; junit: one test case per entry; sarif: SARIF 2.1.0, one result per "
                   "violation or error",
                   "per check and entry");
  addOutputOption(*sub, o->out, "report file");
  sub->footer("Each output is judged as `check` judges it under the entry's mode and equality "
              "(a gate result as --gates says). A missing, unreadable or invalid output is an "
              "error entry in the report.\nExit "
              "status: 0 every output conforms, 1 an output does not conform or is missing or "
              "invalid, 2 bad usage or an invalid suite.");
  return [o]() -> int {
    try {
      return verify(*o);
    } catch (const SuiteError &e) {
      std::cerr << "lowering-oracle: " << e.what() << '\n';
      return kBadInput;
    }
  };
}

} // namespace lo::cli
