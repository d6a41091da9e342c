// The `verify` command (its options are in its --help and docs/spec.md §4): judges a whole
// directory of an implementation's outputs against a conformance suite (what `gen` writes: a
// manifest with one entry per case, mode and equality) in one process, with one report. Each output
// is judged as `check PLAN OUTPUT --mode M --equality E` judges it (the checks of docs/spec.md §3);
// an output that is missing, unreadable or not a valid GraphLoweringPlan is an entry with an error.
// With --gates, the manifest's gate entries (one per case and policy preset) are judged instead:
// the implementation's gate result must have the reference's verdict, failure kinds in order and,
// for each kind, set of reports (docs/spec.md §6.7).
//
// The suite is verified before anything is judged (docs/spec.md §4.3, "Suite integrity"): a suite
// whose manifest names gen's parameters (seed, count, maxNodes) is regenerated from them in memory
// and every file gen writes must be byte for byte the suite's; any difference is an error naming
// the file (exit status 2). A suite without them (hand-made) is judged only with
// --unverified-suite, and the report says it was not verified. A manifest without entries is never
// a pass.
#include "checks/checks.hpp"
#include "checks/gate_result.hpp"
#include "ref/gate.hpp"
#include "ref/io/error.hpp"
#include "ref/io/gate_reader.hpp"
#include "ref/io/reader.hpp"
#include "tools/cli/command_io.hpp"
#include "tools/cli/options.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"
#include "tools/report/html_report.hpp"
#include "tools/report/locate.hpp"
#include "tools/report/suite_report.hpp"
#include "tools/suite/suite_files.hpp"
#include "tools/suite/suite_manifest.hpp"
#include "tools/system/files.hpp"

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>

namespace lo::cli {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

/// The most of an output's error message a report shows: the reader's message may quote the
/// output, and a report echoes no more of a file than a short, escaped excerpt (docs/spec.md §4.3).
constexpr std::size_t kMaxExcerptBytes = 160;

/// --max-file-bytes: at most the reader's limit (ref/io/source.hpp).
constexpr std::uint64_t kMaxFileBytes = io::kMaxDocumentBytes;

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

/// The parameters `gen` wrote the suite with, when its manifest names them.
struct Provenance {
  gen::Settings settings;
  std::size_t count = 0;
};

struct Manifest {
  std::vector<ManifestEntry> entries;
  std::optional<Provenance> provenance; // nullopt: a hand-made suite
  std::string text;                     // the manifest's bytes
};

/// A file of the suite, read as every file of SUITE and OUTPUTS is (files::readInside): a regular
/// file inside the directory, of at most `cap` bytes.
std::string readSuiteFile(const fs::path &suite, const std::string &relative, std::size_t cap) {
  files::BoundedRead r = files::readInside(suite, relative, cap);
  if (r.status != files::BoundedRead::Status::ok)
    throw SuiteError(shownText((suite / relative).string()) + ": " + r.why);
  return std::move(r.text);
}

Manifest readManifest(const fs::path &suite, bool gates, std::size_t cap) {
  const fs::path path = suite / gen::kManifestName;
  const std::string where = shownText(path.string());
  Manifest out;
  {
    files::BoundedRead r = files::readInside(suite, std::string(gen::kManifestName), cap);
    if (r.status == files::BoundedRead::Status::missing)
      throw SuiteError(shownText(suite.string()) + ": not a conformance suite: it has no " +
                       std::string(gen::kManifestName));
    if (r.status != files::BoundedRead::Status::ok)
      throw SuiteError(where + ": " + r.why);
    out.text = std::move(r.text);
  }
  // The manifest's shape (docs/schema/conformance-suite.schema.json) is the reader's to check:
  // an error names the manifest, the line and column, and the JSON pointer.
  gen::SuiteManifest manifest;
  try {
    manifest = gen::readSuiteManifest(io::sourceFromString(path.string(), out.text));
  } catch (const io::InputError &e) {
    throw SuiteError(io::formatError(e));
  }
  // gen's parameters: all three, or none (a hand-made suite).
  if (manifest.seed || manifest.count || manifest.maxNodes) {
    if (!manifest.seed || !manifest.count || !manifest.maxNodes || *manifest.count > kMaxCount ||
        *manifest.maxNodes > kMaxNodes)
      throw SuiteError(where + ": /seed, /count, /maxNodes: a suite gen wrote names all three, "
                               "as whole numbers within gen's ranges; this manifest does not, so "
                               "the suite cannot be verified");
    Provenance p;
    p.settings.seed = *manifest.seed;
    p.settings.maxNodes = static_cast<std::size_t>(*manifest.maxNodes);
    p.count = static_cast<std::size_t>(*manifest.count);
    out.provenance = p;
  }
  if (gates && !manifest.gates)
    throw SuiteError(where + ": /gates: expected an array (--gates needs a suite whose "
                             "manifest lists gate results)");
  const auto &entries = gates ? *manifest.gates : manifest.cases;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const gen::SuiteManifest::Entry &e = entries[i];
    const std::string at = where + (gates ? ": /gates/" : ": /cases/") + std::to_string(i);
    // The case name becomes part of a file name: one path component, not `.` or `..`.
    const std::string_view name = e.caseName;
    if (name.empty() || name == "." || name == ".." ||
        name.find_first_of(std::string_view("/\0", 2)) != std::string_view::npos)
      throw SuiteError(at + "/case: not a case name: " + shownText(name));
    ManifestEntry m;
    m.caseName = e.caseName;
    m.mode = e.mode;
    m.equality = e.equality;
    m.plan = insidePath(e.plan, at + "/files/plan");
    m.policy = e.policy;
    out.entries.push_back(std::move(m));
  }
  // No two entries alike: each is one test case of the report, named by its case, mode, equality
  // and policy as the report shows them (JUnit class names are unique, docs/spec.md §4.3); two
  // names that are shown alike (cut, or escaped to the same text) are alike.
  std::map<std::string, std::size_t> seen;
  for (std::size_t k = 0; k < out.entries.size(); ++k) {
    const ManifestEntry &m = out.entries[k];
    const std::string key = shownText(m.caseName) + '\0' + std::string(spelling(m.mode)) + '\0' +
                            std::string(spelling(m.equality)) + '\0' + m.policy;
    const auto [at, added] = seen.emplace(key, k);
    if (!added)
      throw SuiteError(where + (gates ? ": /gates/" : ": /cases/") + std::to_string(k) +
                       ": duplicate entry: case " + shownText(m.caseName) + ", mode " +
                       std::string(spelling(m.mode)) + ", equality " +
                       std::string(spelling(m.equality)) +
                       (m.policy.empty() ? "" : ", policy " + m.policy) + " is also " +
                       (gates ? "/gates/" : "/cases/") + std::to_string(at->second) +
                       " (every entry must be one test case of the report)");
  }
  return out;
}

/// "Suite integrity" (docs/spec.md §4.3): every file gen writes for the manifest's parameters,
/// regenerated in memory, must be the suite's, byte for byte; the first that is not is an error
/// naming it.
void verifySuite(const fs::path &suite, const Manifest &manifest, std::size_t cap) {
  const Provenance &p = *manifest.provenance;
  const std::string command = "gen --seed " + std::to_string(p.settings.seed) + " --count " +
                              std::to_string(p.count) + " --max-nodes " +
                              std::to_string(p.settings.maxNodes);
  gen::suiteFiles(p.settings, p.count, [&](const std::string &path, std::string_view text) {
    const std::string shown = shownText((suite / path).string());
    std::string actual;
    if (path == gen::kManifestName) {
      actual = manifest.text;
    } else {
      files::BoundedRead r = files::readInside(suite, path, cap);
      if (r.status != files::BoundedRead::Status::ok)
        throw SuiteError(shown + ": the suite is not the one `" + command + "` writes: this file " +
                         r.why + "; the suite is not judged");
      actual = std::move(r.text);
    }
    if (actual != text)
      throw SuiteError(shown + ": differs from the file `" + command +
                       "` writes: the suite was changed after gen wrote it (or written by another "
                       "version of gen); it is not judged (write it again with `lowering-oracle " +
                       command + " --out DIR`)");
  });
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
  bool unverifiedSuite = false;
  bool quiet = false;
  std::size_t maxPerCheck = 20;
  std::size_t maxFileBytes = std::size_t{256} << 20;
};

/// A gate entry: the implementation's gate result against the reference gate of the plan's
/// lowering under the entry's mode and equality, as sets of reports per kind (docs/spec.md §6.7:
/// every lowering of the plan under contract has this gate up to multiplicities). A difference is
/// one violation of the check `gate` at the pointer where the result differs.
void judgeGate(Interner &interner, const GraphExecutionPlan &plan, const ManifestEntry &m,
               const io::Source &source, SuiteEntry &entry) {
  const AssurancePolicy policy = *policyPreset(m.policy);
  const GraphLoweringPlan lowering = lower(interner, plan, m.mode, m.equality);
  io::ReadGateResult actual;
  try {
    actual = io::readGateResult(source);
  } catch (const io::InputError &e) {
    entry.status = SuiteEntry::Status::error;
    entry.error = "not a gate result: " + shownText(e.message(), kMaxExcerptBytes);
    entry.errorPointer = shownText(e.pointer(), kMaxExcerptBytes);
    entry.line = e.line();
    entry.column = e.column();
    return;
  }
  const checks::GateComparison c =
      checks::compareGateResult(m.policy, policy, gate(interner, policy, lowering),
                                obligationReports(interner, audit(interner, lowering)), actual,
                                /*exact=*/false);
  entry.groups = lowering.groups.size();
  if (c.difference == checks::GateDifference::none) {
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
  // Both operands are named when they are not directories (SUITE first).
  std::string missing;
  if (!fs::is_directory(suite))
    missing = shownText(o.suite) + ": no such suite: not a directory";
  if (!fs::is_directory(outputs))
    missing += (missing.empty() ? "" : "; ") + shownText(o.outputs) +
               ": no such outputs directory: not a directory";
  if (!missing.empty())
    throw SuiteError(missing);
  const Manifest read = readManifest(suite, o.gates, o.maxFileBytes);
  if (read.provenance)
    verifySuite(suite, read, o.maxFileBytes);
  else if (!o.unverifiedSuite)
    throw SuiteError(
        shownText(suite.string()) +
        ": not a suite gen wrote (its manifest names no seed, count and maxNodes), so it cannot "
        "be verified; judge it as it is with --unverified-suite (the report then says so)");
  const std::vector<ManifestEntry> &manifest = read.entries;
  // Zero entries judged is never a pass (docs/spec.md §4.3).
  if (manifest.empty())
    throw SuiteError(shownText((suite / gen::kManifestName).string()) + ": " +
                     (o.gates ? "/gates" : "/cases") + " lists no entries: nothing to judge");

  SuiteReport report{o.suite, o.outputs, {}};
  report.suiteVerified = read.provenance.has_value();
  report.quiet = o.quiet;
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
        plan = io::readExecutionPlan(
            io::sourceFromString(planFile, readSuiteFile(suite, m.plan, o.maxFileBytes)),
            *interner);
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
    // The output is read as `diff` reads `{out}` (files::readInside): a regular file inside
    // OUTPUTS of at most --max-file-bytes; a FIFO, a device or a symbolic link out of OUTPUTS is
    // an error entry, never opened for a blocking read (docs/spec.md §4.3).
    files::BoundedRead read = files::readInside(outputs, name, o.maxFileBytes);
    if (read.status != files::BoundedRead::Status::ok) {
      entry.status = SuiteEntry::Status::error;
      entry.error =
          read.status == files::BoundedRead::Status::missing
              ? "no output: " + outputFile.string() + " does not exist"
          : read.status == files::BoundedRead::Status::tooLarge
              ? "output not judged: " + outputFile.string() + " " + read.why + " (--max-file-bytes)"
              : "no output: " + outputFile.string() + " " + read.why;
    } else {
      try {
        const io::Source source = io::sourceFromString(outputFile.string(), read.text);
        read.text = std::string();
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
        if (o.format == ReportFormat::html)
          entry.picture =
              htmlPicture({interner.get(), &plan, &candidate, &entry.report, m.mode, m.equality,
                           "e" + std::to_string(report.entries.size()) + "-"});
        std::vector<std::string_view> pointers;
        for (const auto &v : entry.report.violations)
          pointers.push_back(v.pointer);
        for (const auto &at : locateAll(source.text, pointers)) // one pass over the output
          entry.positions.push_back(at.value_or(std::pair<std::size_t, std::size_t>{}));
      } catch (const io::InputError &e) {
        entry.status = SuiteEntry::Status::error;
        entry.error = shownText(e.message(), kMaxExcerptBytes); // it may quote the output
        entry.errorPointer = shownText(e.pointer(), kMaxExcerptBytes);
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
  addOutputOption(*sub, o->out, "report file");
  sub->footer(
      "Each output is judged as `check` judges it under the entry's mode and equality, "
      "never under those the output declares (a declaration that differs is a note in "
      "the report; a gate result as --gates says). The suite is verified first: a suite "
      "gen wrote is regenerated from its manifest's seed, count and maxNodes, and any "
      "file that differs is an error naming it. A missing, unreadable or invalid output is an "
      "error entry in the report.\nExit "
      "status: 0 every output conforms, 1 an output does not conform or is missing or "
      "invalid, 2 bad usage, an invalid suite, a suite that differs from what gen writes "
      "for its manifest's parameters, a hand-made suite without --unverified-suite, or a "
      "manifest without entries.");
  return [o]() -> int {
    try {
      return verify(*o);
    } catch (const SuiteError &e) {
      std::cerr << "lowering-oracle: " << shownText(e.what(), io::kUncut) << '\n';
      return kBadInput;
    }
  };
}

} // namespace lo::cli
