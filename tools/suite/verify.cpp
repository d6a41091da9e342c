#include "tools/suite/verify.hpp"

#include "ref/io/error.hpp"
#include "ref/io/escape.hpp"
#include "ref/io/reader.hpp"
#include "tools/report/html_report.hpp"
#include "tools/suite/judge.hpp"
#include "tools/suite/outputs.hpp"
#include "tools/suite/suite_files.hpp"
#include "tools/suite/suite_integrity.hpp"
#include "tools/suite/suite_reader.hpp"
#include "tools/system/bounded_read.hpp"
#include "tools/system/files.hpp"

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <stdexcept>

namespace lo::suite {

namespace {

namespace fs = std::filesystem;

} // namespace

void requireNamedSuite(const std::string &manifest, const std::optional<Provenance> &provenance,
                       const VerifySettings &s) {
  struct Expectation {
    const char *option, *pointer;
    std::optional<std::uint64_t> asked;
    std::uint64_t named;
    bool atLeast; // --min-count: the suite's count may be larger
  };
  const Provenance p = provenance.value_or(Provenance{});
  const Expectation expectations[] = {
      {"--expect-seed", "/seed", s.expectSeed, p.settings.seed, false},
      {"--expect-count", "/count", s.expectCount, p.count, false},
      {"--min-count", "/count", s.minCount, p.count, true},
      {"--expect-max-nodes", "/maxNodes", s.expectMaxNodes, p.settings.maxNodes, false},
  };
  for (const Expectation &e : expectations) {
    if (!e.asked)
      continue;
    const std::string asked = std::to_string(*e.asked);
    if (!provenance)
      throw SuiteError(manifest + ": " + e.pointer +
                       ": the suite names no seed, count and maxNodes (a hand-made suite), so it "
                       "is not the suite " +
                       e.option + " " + asked + " asks for: refused");
    if (e.atLeast ? e.named >= *e.asked : e.named == *e.asked)
      continue;
    throw SuiteError(manifest + ": " + e.pointer + ": the suite's " + (e.pointer + 1) + " is " +
                     std::to_string(e.named) + " and " + e.option + " asks for " +
                     (e.atLeast ? "at least " : "") + asked +
                     ": not the suite asked for, refused (write it with `lowering-oracle gen` "
                     "and the parameters you require)");
  }
}

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

VerifiedSuite verifiedSuite(const VerifySettings &s, bool allPlans) {
  const fs::path suite(s.suite);
  if (!fs::is_directory(suite))
    throw SuiteError(io::shownText(s.suite) + ": no such suite: not a directory");
  VerifiedSuite v;
  v.suite = suite;
  v.read = readSuite(suite,
                     s.selection ? SuiteList::selection
                     : s.gates   ? SuiteList::gates
                                 : SuiteList::cases,
                     s.maxFileBytes);
  v.manifestName = io::shownText((suite / kManifestName).string());
  v.edition = judgedEdition(v.manifestName, v.read.edition, s.edition);
  requireNamedSuite(v.manifestName, v.read.provenance, s);
  // Every plan is read once: for a suite gen wrote, while it is verified (its bytes are kept and
  // judged); for a hand-made one, here when `allPlans`, else when it is first judged.
  checkSuiteIntegrity(suite, v.read, s.unverifiedSuite, s.maxFileBytes, v.files);
  // Zero entries judged is never a pass (docs/spec.md §4.3).
  if (v.read.entries.empty())
    throw SuiteError(v.manifestName + ": " +
                     (s.selection ? "/selection"
                      : s.gates   ? "/gates"
                                  : "/cases") +
                     " lists no entries: nothing to judge");
  if (allPlans)
    for (const SuiteManifest::Entry &m : v.read.entries)
      for (const std::string *path : {&m.plan, &m.graph, &m.profile})
        if (!path->empty())
          (void)suiteFileText(v, *path, s.maxFileBytes);
  return v;
}

const std::string &suiteFileText(VerifiedSuite &v, const std::string &path,
                                 std::size_t maxFileBytes) {
  auto kept = v.files.find(path);
  if (kept == v.files.end()) {
    if (v.read.provenance) // verified: every file an entry reads was kept
      throw std::logic_error("internal error: the verified file " + path + " was not kept");
    kept = v.files.emplace(path, readSuiteFile(v.suite, path, maxFileBytes)).first;
  }
  return kept->second;
}

report::SuiteHeader headerOf(const VerifySettings &s, const VerifiedSuite &v) {
  report::SuiteHeader h;
  h.suite = s.suite;
  h.outputs = s.outputs;
  h.suiteVerified = v.read.provenance.has_value();
  if (v.read.provenance)
    h.parameters =
        report::SuiteParameters{v.read.provenance->settings.seed, v.read.provenance->count,
                                v.read.provenance->settings.maxNodes};
  h.edition = v.edition;
  return h;
}

VerifiedSuite startRun(const VerifySettings &s) {
  checkOperands(s);
  VerifiedSuite verified = verifiedSuite(s);
  if (s.afterVerified)
    s.afterVerified();
  claimOutputs(s);
  return verified;
}

report::SuiteReport runVerify(const VerifySettings &s) {
  using Clock = std::chrono::steady_clock;
  VerifiedSuite verified = startRun(s);
  const Suite &read = verified.read;
  const Edition edition = verified.edition;
  const fs::path suite(s.suite), outputs(s.outputs);

  report::SuiteReport report;
  static_cast<report::SuiteHeader &>(report) = headerOf(s, verified);
  report.quiet = s.quiet;
  report.entries.reserve(read.entries.size());
  // Failing entries are drawn while their pictures fit in the page (passing ones never are).
  report::PictureBudget pictures(s.pictures || s.format == report::ReportFormat::html);
  // The entries of one case share its plan: it is read once, into the interner its outputs share.
  std::unique_ptr<Interner> interner;
  GraphExecutionPlan plan;
  std::string planPath;
  std::string_view planText;
  std::size_t caseIndex = 0;
  for (const SuiteManifest::Entry &m : read.entries) {
    const auto start = Clock::now();
    const std::string planFile = (suite / m.plan).string();
    if (planFile != planPath) {
      const std::string &text = suiteFileText(verified, m.plan, s.maxFileBytes);
      interner = std::make_unique<Interner>();
      try {
        plan = io::readExecutionPlan(io::sourceFromString(planFile, text), *interner, edition);
      } catch (const io::InputError &e) {
        throw SuiteError("the suite's plan is invalid: " + io::formatError(e));
      }
      if (!planPath.empty())
        ++caseIndex;
      planPath = planFile;
      planText = text;
    }
    JudgeOptions options{s.maxPerCheck, s.maxFileBytes, {}, edition};
    if (pictures.drawing())
      options.picturePrefix = "e" + std::to_string(report.entries.size()) + "-";
    const std::string name = outputNameInside(m.policy.empty() ? s.pattern : s.gatePattern, m);
    report::SuiteEntry entry;
    if (!s.producer) {
      entry = judgeEntry(*interner, plan, m, outputs, name, options);
    } else if (!resolvesInside(outputs, name)) {
      entry = unjudgedEntry(plan, m, name, linkLeavesOutputs(outputs / name));
    } else {
      ProducedOutput produced =
          s.producer({&m, caseIndex, planText, {}, {}, outputs / name, edition});
      options.exitCode = produced.exitCode;
      entry = produced.ok ? judgeOutputText(*interner, plan, m, name, (outputs / name).string(),
                                            std::move(produced.text), options)
                          : unjudgedEntry(plan, m, name, std::move(produced.error));
    }
    pictures.admit(entry.result.picture);
    entry.result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    report.entries.push_back(std::move(entry));
  }
  return report;
}

} // namespace lo::suite
