#include "tools/suite/verify.hpp"

#include "ref/io/error.hpp"
#include "ref/io/escape.hpp"
#include "ref/io/reader.hpp"
#include "tools/suite/judge.hpp"
#include "tools/suite/suite_files.hpp"
#include "tools/suite/suite_integrity.hpp"
#include "tools/suite/suite_reader.hpp"

#include <chrono>
#include <filesystem>
#include <memory>

namespace lo::gen {

namespace {

namespace fs = std::filesystem;

/// The patterns name the placeholders an output name needs, and both operands are directories
/// (both named when neither is, SUITE first).
void checkOperands(const VerifySettings &s) {
  using io::shownText;
  if (s.pattern.find("{case}") == std::string::npos)
    throw SuiteError("--pattern must contain {case}");
  if (s.gatePattern.find("{case}") == std::string::npos ||
      s.gatePattern.find("{policy}") == std::string::npos)
    throw SuiteError("--gate-pattern must contain {case} and {policy}");
  std::string missing;
  if (!fs::is_directory(s.suite))
    missing = shownText(s.suite) + ": no such suite: not a directory";
  if (!fs::is_directory(s.outputs))
    missing += (missing.empty() ? "" : "; ") + shownText(s.outputs) +
               ": no such outputs directory: not a directory";
  if (!missing.empty())
    throw SuiteError(missing);
}

} // namespace

Edition judgedEdition(const std::string &manifest, std::optional<Edition> named,
                      std::optional<Edition> asked) {
  if (named && asked && *named != *asked)
    throw SuiteError(manifest + ": /edition: the suite is of edition " +
                     std::string(spelling(*named)) + " and --edition asks for " +
                     std::string(spelling(*asked)) +
                     ": a suite of one edition judged as another is refused (verify it with "
                     "--edition " +
                     std::string(spelling(*named)) + " or without --edition)");
  return named ? *named : asked.value_or(kNewestEdition);
}

cli::SuiteReport runVerify(const VerifySettings &s) {
  using Clock = std::chrono::steady_clock;
  checkOperands(s);
  const fs::path suite(s.suite), outputs(s.outputs);
  const Suite read = readSuite(suite, s.gates, s.maxFileBytes);
  const Edition edition =
      judgedEdition(io::shownText((suite / kManifestName).string()), read.edition, s.edition);
  checkSuiteIntegrity(suite, read, s.unverifiedSuite, s.maxFileBytes);
  // Zero entries judged is never a pass (docs/spec.md §4.3).
  if (read.entries.empty())
    throw SuiteError(io::shownText((suite / kManifestName).string()) + ": " +
                     (s.gates ? "/gates" : "/cases") + " lists no entries: nothing to judge");

  cli::SuiteReport report{s.suite, s.outputs, {}};
  report.suiteVerified = read.provenance.has_value();
  report.edition = edition;
  report.quiet = s.quiet;
  report.entries.reserve(read.entries.size());
  // The entries of one case share its plan: it is read once, into the interner its outputs share.
  std::unique_ptr<Interner> interner;
  GraphExecutionPlan plan;
  std::string planPath;
  for (const SuiteManifest::Entry &m : read.entries) {
    const auto start = Clock::now();
    const std::string planFile = (suite / m.plan).string();
    if (planFile != planPath) {
      interner = std::make_unique<Interner>();
      try {
        plan = io::readExecutionPlan(
            io::sourceFromString(planFile, readSuiteFile(suite, m.plan, s.maxFileBytes)), *interner,
            edition);
      } catch (const io::InputError &e) {
        throw SuiteError("the suite's plan is invalid: " + io::formatError(e));
      }
      planPath = planFile;
    }
    JudgeOptions options{s.maxPerCheck, s.maxFileBytes, {}, edition};
    if (s.format == cli::ReportFormat::html)
      options.picturePrefix = "e" + std::to_string(report.entries.size()) + "-";
    cli::SuiteEntry entry =
        judgeEntry(*interner, plan, m, outputs,
                   outputName(m.policy.empty() ? s.pattern : s.gatePattern, m), options);
    entry.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    report.entries.push_back(std::move(entry));
  }
  return report;
}

} // namespace lo::gen
