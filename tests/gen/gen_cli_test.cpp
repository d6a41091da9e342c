// `gen`: same seed same bytes, the manifest, every expected output passes the checks, every
// expected gate result is the `gate` command's, and the directory is written whole or not at all.
#include "checks/checks.hpp"
#include "ref/gate.hpp"
#include "ref/io/gate_writer.hpp"
#include "ref/io/reader.hpp"
#include "tests/cli_run.hpp"
#include "tests/seed.hpp"

#include <simdjson.h>

#include <cctype>
#include <map>
#include <set>
#include <sys/stat.h>

namespace lo::testing {
namespace {

constexpr int kCount = 60;

std::map<std::string, std::string> allFiles(const fs::path &root) {
  std::map<std::string, std::string> out;
  for (const auto &e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file())
      out[fs::relative(e.path(), root).string()] = slurp(e.path());
  return out;
}

std::string str(simdjson::simdjson_result<simdjson::dom::element> e) {
  return std::string(std::string_view(e.value()));
}

using Gen = TempDir;

TEST_F(Gen, SameSeedSameBytes) {
  const auto gen = [&](const std::string &name, const std::string &seed) {
    const auto r = seedOracle({"gen", "--out", (dir / name).string(), "--count",
                               std::to_string(kCount), "--seed", seed, "--max-nodes", "16"});
    EXPECT_TRUE(r.ok()) << r.standardError;
    return allFiles(dir / name);
  };
  const auto a = gen("a", "11"), b = gen("b", "11"), c = gen("c", "12");
  // manifest, README, and per case a plan, 3 outputs and 4 gate results (3 presets, 1 custom)
  EXPECT_EQ(a.size(), 2u + 8u * kCount);
  EXPECT_TRUE(a == b) << "same seed, same bytes";
  std::size_t differ = 0;
  for (const auto &[name, text] : a)
    differ += c.count(name) && c.at(name) != text;
  EXPECT_GT(differ, 20u) << "another seed, other random cases";
}

TEST_F(Gen, ManifestListsEveryCaseModeAndEqualityAndEveryExpectedOutputPassesTheChecks) {
  const fs::path suite = dir / "suite";
  const auto r = seedOracle({"gen", "--out", suite.string(), "--count", std::to_string(kCount)});
  ASSERT_TRUE(r.ok()) << r.standardError;
  EXPECT_TRUE(fs::exists(suite / "README.md"));
  EXPECT_NE(slurp(suite / "README.md").find("lowering-oracle check"), std::string::npos);

  simdjson::dom::parser parser;
  simdjson::dom::element manifest = parser.load((suite / "manifest.json").string());
  EXPECT_EQ(str(manifest["format"]), "lowering-oracle/conformance-suite");
  EXPECT_EQ(int64_t(manifest["count"]), kCount);
  std::map<std::string, std::set<std::string>> modes; // case -> {"mode/equality"}
  std::size_t entries = 0, audited = 0;
  for (simdjson::dom::element e : manifest["cases"].get_array()) {
    ++entries;
    const std::string name = str(e["case"]);
    // `audit`: the case asks for the ExecutionAudit, and its expected output carries it.
    bool audit = false;
    ASSERT_EQ(e["audit"].get(audit), simdjson::SUCCESS) << name;
    audited += audit;
    const std::string modeText = str(e["mode"]);
    const std::string equalityText = str(e["equality"]);
    modes[name].insert(modeText + "/" + equalityText);
    const fs::path plan = suite / str(e["files"]["plan"]);
    const fs::path expected = suite / str(e["files"]["expected"]);
    ASSERT_TRUE(fs::exists(plan)) << plan;
    ASSERT_TRUE(fs::exists(expected)) << expected;
    EXPECT_EQ(plan.parent_path().filename().string(), name);

    // The expected output passes every check of its mode and equality.
    Interner interner;
    const auto p = lo::test::seed::readExecutionPlan(io::loadSource(plan.string()), interner);
    const auto candidate =
        lo::test::seed::readLoweringPlan(io::loadSource(expected.string()), interner);
    checks::Options options = lo::test::seed::options();
    options.mode = *parseSpelling<Mode>(modeText);
    options.equality = *parseSpelling<Equality>(equalityText);
    options.auditAsked = audit;
    EXPECT_EQ(candidate.audit.has_value(), audit) << expected;
    const checks::Report report = checks::check(interner, p, candidate, options);
    EXPECT_TRUE(report.conforms())
        << expected << ": " << (report.violations.empty() ? "" : report.violations[0].message);
    EXPECT_EQ(candidate.mode, options.mode);
    EXPECT_EQ(candidate.equality, options.equality);
  }
  EXPECT_EQ(entries, 3u * kCount);
  // One case in four asks, drawn from the seed: some do, most do not.
  EXPECT_GT(audited, 0u);
  EXPECT_LT(audited, entries / 2);
  ASSERT_EQ(modes.size(), std::size_t{kCount});
  for (const auto &[name, set] : modes)
    EXPECT_EQ(set, (std::set<std::string>{"singleton/contract", "coalesced/contract",
                                          "coalesced/identity"}))
        << name;
}

// docs/spec.md §4.3 and §6: one gate entry per case and preset, and one under the case's custom
// policy (six booleans equal to no preset); its expected file is exactly what `gate plan.json
// --policy P --format json` writes (the coalesced lowering under contract; for custom, each boolean
// given), and has the singleton lowering's gate in the sense of §6.7.
TEST_F(Gen, ManifestListsEveryCaseAndPresetAndEveryExpectedGateIsTheGateOfThePlan) {
  const fs::path suite = dir / "suite";
  const auto r = seedOracle({"gen", "--out", suite.string(), "--count", std::to_string(kCount)});
  ASSERT_TRUE(r.ok()) << r.standardError;
  simdjson::dom::parser parser;
  simdjson::dom::element manifest = parser.load((suite / "manifest.json").string());
  std::map<std::string, std::vector<std::string>> policies; // case -> policies in order
  std::map<std::string, std::size_t> verdicts;              // "policy accepted|rejected" -> count
  std::map<std::string, std::size_t> customs; // custom policies with and without requireEvidence
  std::size_t entries = 0;
  for (simdjson::dom::element e : manifest["gates"].get_array()) {
    const std::string name = str(e["case"]), policyText = str(e["policy"]);
    policies[name].push_back(policyText);
    EXPECT_EQ(str(e["mode"]), "coalesced");
    EXPECT_EQ(str(e["equality"]), "contract");
    const fs::path plan = suite / str(e["files"]["plan"]);
    const fs::path expected = suite / str(e["files"]["expected"]);
    EXPECT_EQ(expected.parent_path().filename().string(), name);
    EXPECT_EQ(expected.filename().string(), "gate-" + policyText + ".json");

    Interner interner;
    const auto p = lo::test::seed::readExecutionPlan(io::loadSource(plan.string()), interner);
    AssurancePolicy policy;
    std::vector<std::string> flags; // `gate`'s options for the entry's booleans
    for (const PolicyFlag &f : kPolicyFlags) {
      bool b = false;
      ASSERT_EQ(e["booleans"][f.name].get(b), simdjson::SUCCESS) << name << " " << f.name;
      policy.*f.field = b;
      std::string option = "--";
      for (char ch : f.name)
        option += std::isupper(static_cast<unsigned char>(ch))
                      ? std::string("-") + static_cast<char>(std::tolower(ch))
                      : std::string(1, ch);
      flags.insert(flags.end(), {option, b ? "true" : "false"});
    }
    // A preset's booleans are the preset's; a custom policy is no preset.
    EXPECT_EQ(std::string(policyName(policy)), policyText) << name;
    if (policyText == "custom")
      ++customs[policy.requireEvidence ? "requireEvidence" : "no requireEvidence"];
    const GateResult coalesced =
        gate(interner, policy, lower(interner, p, Mode::coalesced, Equality::contract));
    const GateResult singleton =
        gate(interner, policy, lower(interner, p, Mode::singleton, Equality::contract));
    const std::string text = slurp(expected);
    EXPECT_EQ(text, io::gateResultJson(policy, coalesced)) << expected;
    EXPECT_TRUE(sameGate(coalesced, singleton)) << expected;
    ++verdicts[policyText + (coalesced.accepted() ? " accepted" : " rejected")];

    // The command itself on every 19th entry (every preset, hand-picked and random cases; a
    // start of the sanitized binary is slow).
    if (entries++ % 19 == 3 || (policyText == "custom" && entries % 7 == 0)) {
      std::vector<std::string> args{"gate",     plan.string(),
                                    "--policy", policyText == "custom" ? "verified" : policyText,
                                    "--format", "json"};
      args.insert(args.end(), flags.begin(), flags.end());
      const auto cli = seedOracle(args);
      EXPECT_EQ(cli.code, coalesced.accepted() ? 0 : 1) << cli.standardError;
      EXPECT_EQ(cli.standardOutput, text) << "the bytes `gate` writes: " << expected;
    }
  }
  EXPECT_EQ(entries, 4u * kCount);
  ASSERT_EQ(policies.size(), std::size_t{kCount});
  for (const auto &[name, list] : policies)
    EXPECT_EQ(list, (std::vector<std::string>{"verified", "checked", "external", "custom"}))
        << name;
  // Custom policies with requireEvidence both ways (docs/spec.md §6.2, §6.3).
  EXPECT_GT(customs["requireEvidence"], 0u);
  EXPECT_GT(customs["no requireEvidence"], 0u);
  // The suite has both verdicts under every preset, and under custom policies.
  for (const char *policy : {"verified", "checked", "external", "custom"})
    for (const char *verdict : {" accepted", " rejected"})
      EXPECT_GT(verdicts[std::string(policy) + verdict], 0u) << policy << verdict;
}

TEST_F(Gen, ExpectedOutputPassesTheCheckCommand) {
  const fs::path suite = dir / "suite";
  ASSERT_TRUE(seedOracle({"gen", "--out", suite.string(), "--count", "12"}).ok());
  const fs::path c = suite / "cases" / "0003-trusted-external-in-checked-run";
  EXPECT_TRUE(
      seedOracle({"check", (c / "plan.json").string(), (c / "coalesced-contract.json").string(),
                  "--mode", "coalesced", "--equality", "contract"})
          .ok());
  // The identity lowering hides the trusted-external node: judged under contract, it fails.
  const auto r = seedOracle({"check", (c / "plan.json").string(),
                             (c / "coalesced-identity.json").string(), "--equality", "contract"});
  EXPECT_EQ(r.code, 1) << r.standardOutput << r.standardError;
}

TEST_F(Gen, RefusesANonEmptyDirectoryUnlessForcedAndLeavesNoTemporaryBehind) {
  const fs::path suite = dir / "suite";
  fs::create_directories(suite);
  { std::ofstream(suite / "mine.txt") << "keep me"; }
  auto r = seedOracle({"gen", "--out", suite.string(), "--count", "3"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.standardError.find("not empty"), std::string::npos) << r.standardError;
  EXPECT_EQ(slurp(suite / "mine.txt"), "keep me");

  // --force replaces a suite gen wrote, and only what gen wrote: a file put beside it stays.
  fs::remove(suite / "mine.txt");
  ASSERT_TRUE(seedOracle({"gen", "--out", suite.string(), "--count", "2"}).ok());
  { std::ofstream(suite / "mine.txt") << "an output beside the suite"; }
  r = seedOracle({"gen", "--out", suite.string(), "--count", "3", "--force"});
  EXPECT_TRUE(r.ok()) << r.standardError;
  EXPECT_EQ(slurp(suite / "mine.txt"), "an output beside the suite");
  EXPECT_TRUE(fs::exists(suite / "manifest.json"));

  // A file where the directory should be: bad usage, nothing created.
  { std::ofstream(dir / "file") << "x"; }
  EXPECT_EQ(seedOracle({"gen", "--out", (dir / "file").string()}).code, 2);
  // An empty directory is fine.
  fs::create_directories(dir / "empty");
  EXPECT_TRUE(seedOracle({"gen", "--out", (dir / "empty").string(), "--count", "2"}).ok());

  std::set<std::string> names;
  for (const auto &e : fs::directory_iterator(dir))
    names.insert(e.path().filename().string());
  EXPECT_EQ(names, (std::set<std::string>{"empty", "file", "suite"})) << "no .tmp or .old left";
}

// docs/spec.md §4.3: `--force` replaces only a directory that is a suite gen wrote, as its manifest
// proves. `gen --out . --force` in a checkout used to delete the checkout, `.git` included.
TEST_F(Gen, ForceRefusesADirectoryThatIsNotASuiteGenWroteAndTouchesNothing) {
  const fs::path checkout = dir / "checkout";
  fs::create_directories(checkout / ".git" / "objects");
  { std::ofstream(checkout / ".git" / "HEAD") << "ref: refs/heads/main\n"; }
  { std::ofstream(checkout / "main.cpp") << "int main() {}\n"; }
  const auto before = allFiles(checkout);
  for (const fs::path &out : {checkout / ".", checkout, checkout / "..", checkout / ".git"}) {
    const auto r = seedOracle({"gen", "--out", out.string(), "--count", "2", "--force"});
    EXPECT_EQ(r.code, 2) << out << r.standardError;
    EXPECT_NE(r.standardError.find("not a suite gen wrote"), std::string::npos) << r.standardError;
    EXPECT_NE(r.standardError.find("nothing was touched"), std::string::npos) << r.standardError;
    EXPECT_EQ(allFiles(checkout), before) << out;
  }
  // A manifest that does not prove gen wrote the directory: no seed, count and maxNodes.
  {
    std::ofstream(checkout / "manifest.json")
        << R"({"format":"lowering-oracle/conformance-suite"})";
  }
  EXPECT_EQ(seedOracle({"gen", "--out", checkout.string(), "--count", "2", "--force"}).code, 2);
  EXPECT_TRUE(fs::exists(checkout / ".git" / "HEAD"));
  // Nor does one whose parameters gen could not have written (a count beyond its range): the one
  // rule verify holds a suite to (provenanceOf) is the one --force asks.
  {
    std::ofstream(checkout / "manifest.json")
        << R"({"format":"lowering-oracle/conformance-suite","version":1,"seed":1,"count":99999999999,)"
        << R"("maxNodes":4,"cases":[],"gates":[]})";
  }
  const auto beyond = seedOracle({"gen", "--out", checkout.string(), "--count", "2", "--force"});
  EXPECT_EQ(beyond.code, 2) << beyond.standardError;
  EXPECT_NE(beyond.standardError.find("within gen's ranges"), std::string::npos)
      << beyond.standardError;
  EXPECT_TRUE(fs::exists(checkout / ".git" / "HEAD"));
  // Nothing beside it either: no temporary directory left.
  std::set<std::string> names;
  for (const auto &e : fs::directory_iterator(dir))
    names.insert(e.path().filename().string());
  EXPECT_EQ(names, std::set<std::string>{"checkout"});
}

// gen honours the umask: the suite's directories get 0777 less the umask (they were 0700).
TEST_F(Gen, TheSuiteHonoursTheUmask) {
  for (const mode_t mask : {mode_t{022}, mode_t{077}, mode_t{002}}) {
    const mode_t saved = ::umask(mask);
    const fs::path suite = dir / ("suite-" + std::to_string(mask));
    const auto r = seedOracle({"gen", "--out", suite.string(), "--count", "1"});
    ::umask(saved);
    ASSERT_TRUE(r.ok()) << r.standardError;
    const auto perms = [](const fs::path &p) {
      return static_cast<unsigned>(fs::status(p).permissions() & fs::perms::all);
    };
    EXPECT_EQ(perms(suite), 0777u & ~mask) << suite;
    EXPECT_EQ(perms(suite / "cases"), 0777u & ~mask);
    EXPECT_EQ(perms(suite / "manifest.json"), 0666u & ~mask);
  }
}

} // namespace
} // namespace lo::testing
