// `verify`: what it trusts and what it refuses (docs/spec.md §4.3, "verify"). A suite gen wrote is
// regenerated from its manifest's parameters and must be byte for byte the same ("Suite
// integrity"); a hand-made suite is judged only with --unverified-suite, and every report says so;
// no manifest without entries is a pass.
#include "tests/gen/cli.hpp"

#include <simdjson.h>

#include <regex>

namespace lo::testing {
namespace {

void write(const fs::path &p, const std::string &text) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f << text;
}

/// The manifest with its `cases` and `gates` emptied (no `]` occurs inside an entry).
std::string emptied(std::string text) {
  for (const char *key : {"\"cases\": [", "\"gates\": ["}) {
    const std::size_t at = text.find(key);
    EXPECT_NE(at, std::string::npos) << key;
    if (at == std::string::npos)
      continue;
    const std::size_t open = at + std::string_view(key).size();
    text.erase(open, text.find(']', open) - open);
  }
  return text;
}

class Verify : public TempDir {
protected:
  /// A suite of `count` cases in dir/suite and, in dir/out, every expected output (and gate result)
  /// under the name verify looks for: everything conforms.
  void makeSuite(int count = 13) {
    suite = dir / "suite";
    outputs = dir / "out";
    const auto r = oracle({"gen", "--out", suite.string(), "--count", std::to_string(count)});
    ASSERT_TRUE(r.ok()) << r.standardError;
    fs::create_directories(outputs);
    for (const auto &c : fs::directory_iterator(suite / "cases")) {
      const std::string name = c.path().filename().string();
      fs::copy_file(c.path() / "singleton.json", outputs / (name + "-singleton-contract.json"));
      fs::copy_file(c.path() / "coalesced-contract.json",
                    outputs / (name + "-coalesced-contract.json"));
      fs::copy_file(c.path() / "coalesced-identity.json",
                    outputs / (name + "-coalesced-identity.json"));
      for (const char *policy : {"verified", "checked", "external"})
        fs::copy_file(c.path() / ("gate-" + std::string(policy) + ".json"),
                      outputs / (name + "-gate-" + policy + ".json"));
    }
  }
  subprocess::Result verify(std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"verify", suite.string(), outputs.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return oracle(args);
  }
  /// The manifest without gen's parameters: a hand-made suite.
  void stripProvenance() {
    const std::string text = slurp(suite / "manifest.json");
    const std::string stripped =
        std::regex_replace(text, std::regex("\"(seed|count|maxNodes)\": [0-9]+,\n *"), "");
    ASSERT_NE(stripped, text);
    write(suite / "manifest.json", stripped);
  }
  fs::path suite, outputs;
};

TEST_F(Verify, AnUntouchedSuiteIsVerifiedAndItsConformingOutputsPass) {
  makeSuite();
  auto r = verify({"--format", "json"});
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
  EXPECT_NE(r.standardOutput.find("\"suiteVerified\":true"), std::string::npos);
  r = verify({"--gates"});
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
  EXPECT_NE(r.standardOutput.find("verify: 39 entries: 39 conform"), std::string::npos);
}

// The attack: every plan emptied, every output an empty lowering, every gate result "accepted".
TEST_F(Verify, ATamperedSuiteIsAnErrorNamingTheFileAlsoWithGates) {
  makeSuite();
  for (const auto &c : fs::directory_iterator(suite / "cases"))
    write(c.path() / "plan.json", "{\"kernels\":[]}");
  const std::string empty = "{\"format\":\"nn-backend/graph-lowering-plan\",\"version\":1,"
                            "\"mode\":\"coalesced\",\"equality\":\"contract\",\"groups\":[]}";
  for (const auto &f : fs::directory_iterator(outputs))
    if (f.path().string().find("-gate-") == std::string::npos)
      write(f.path(), empty);
  for (const bool gates : {false, true}) {
    const auto r = verify(gates ? std::vector<std::string>{"--gates"} : std::vector<std::string>{});
    EXPECT_EQ(r.code, 2) << r.standardOutput << r.standardError;
    EXPECT_EQ(r.standardOutput, "") << "no report of a suite that is not gen's";
    EXPECT_NE(r.standardError.find("cases/0000-empty-plan/plan.json: differs from the file `gen "
                                   "--seed 1 --count 13 --max-nodes 24` writes"),
              std::string::npos)
        << r.standardError;
  }
}

TEST_F(Verify, AChangedExpectedFileOrAMissingOneIsAnError) {
  makeSuite();
  const fs::path expected = suite / "cases" / "0004-alternating-capsules" / "gate-checked.json";
  write(expected, slurp(expected) + " ");
  auto r = verify();
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.standardError.find("0004-alternating-capsules/gate-checked.json: differs"),
            std::string::npos)
      << r.standardError;
  fs::remove(expected);
  r = verify();
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.standardError.find("0004-alternating-capsules/gate-checked.json: the suite is not"),
            std::string::npos)
      << r.standardError;
}

TEST_F(Verify, AnEmptiedManifestThatDeclaresACountIsAnIntegrityError) {
  makeSuite();
  write(suite / "manifest.json", emptied(slurp(suite / "manifest.json")));
  for (const bool gates : {false, true}) {
    const auto r = verify(gates ? std::vector<std::string>{"--gates"} : std::vector<std::string>{});
    EXPECT_EQ(r.code, 2) << r.standardOutput;
    EXPECT_NE(r.standardError.find("manifest.json: differs from the file `gen --seed 1 --count 13"),
              std::string::npos)
        << r.standardError;
  }
}

TEST_F(Verify, AHandMadeSuiteIsJudgedOnlyWithTheFlagAndEveryReportSaysItWasNotVerified) {
  makeSuite();
  stripProvenance();
  auto r = verify();
  EXPECT_EQ(r.code, 2) << r.standardOutput;
  EXPECT_NE(r.standardError.find("--unverified-suite"), std::string::npos) << r.standardError;
  EXPECT_EQ(r.standardOutput, "");

  r = verify({"--unverified-suite"});
  EXPECT_EQ(r.code, 0) << r.standardError;
  EXPECT_NE(
      r.standardOutput.find("verify: note: the suite " + suite.string() + " was not verified"),
      std::string::npos)
      << r.standardOutput;
  r = verify({"--unverified-suite", "--format", "json"});
  EXPECT_NE(r.standardOutput.find("\"suiteVerified\":false"), std::string::npos);
  r = verify({"--unverified-suite", "--format", "junit"});
  EXPECT_NE(r.standardOutput.find("<property name=\"suite-verified\" value=\"false\"/>"),
            std::string::npos);
  EXPECT_NE(r.standardOutput.find("was not verified"), std::string::npos);
  r = verify({"--unverified-suite", "--format", "sarif", "--gates"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.standardOutput.find("\"suiteVerified\":false"), std::string::npos);
  EXPECT_NE(r.standardOutput.find("\"level\":\"warning\""), std::string::npos);

  // Half of gen's parameters: neither gen's suite nor a hand-made one.
  write(suite / "manifest.json",
        std::regex_replace(slurp(suite / "manifest.json"), std::regex("\"version\": 1,"),
                           "\"version\": 1, \"seed\": 1,"));
  r = verify({"--unverified-suite"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.standardError.find("/seed, /count, /maxNodes"), std::string::npos) << r.standardError;
}

TEST_F(Verify, ZeroEntriesIsNeverAPass) {
  makeSuite(2);
  stripProvenance();
  write(suite / "manifest.json", emptied(slurp(suite / "manifest.json")));
  for (const bool gates : {false, true}) {
    std::vector<std::string> args{"--unverified-suite"};
    if (gates)
      args.push_back("--gates");
    const auto r = verify(args);
    EXPECT_EQ(r.code, 2) << r.standardOutput;
    EXPECT_NE(r.standardError.find(gates ? "/gates lists no entries" : "/cases lists no entries"),
              std::string::npos)
        << r.standardError;
  }
  // gen --count 0: a verified suite with nothing to judge.
  const auto g = oracle({"gen", "--out", (dir / "none").string(), "--count", "0"});
  ASSERT_TRUE(g.ok()) << g.standardError;
  const auto r = oracle({"verify", (dir / "none").string(), outputs.string()});
  EXPECT_EQ(r.code, 2) << r.standardOutput;
  EXPECT_NE(r.standardError.find("lists no entries"), std::string::npos) << r.standardError;
}

} // namespace
} // namespace lo::testing

namespace lo::testing {
namespace {

// The standard is the entry's, never the output's (docs/spec.md §4.3): an output that declares
// another mode or equality is judged under its entry's, and the declaration is a note in every
// report format, also when the output conforms.
TEST_F(Verify, AnOutputsDeclarationNeverChoosesItsStandardAndIsNotedInEveryFormat) {
  makeSuite();
  // Case 0: the empty plan, whose lowerings are all equal: the singleton file conforms as the
  // coalesced one, declaring singleton.
  fs::copy_file(suite / "cases/0000-empty-plan/singleton.json",
                outputs / "0000-empty-plan-coalesced-contract.json",
                fs::copy_options::overwrite_existing);
  auto r = verify();
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
  EXPECT_NE(r.standardOutput.find("0000-empty-plan-coalesced-contract.json: note: the candidate "
                                  "declares mode singleton, but it is checked as mode coalesced"),
            std::string::npos)
      << r.standardOutput;
  r = verify({"--format", "json"});
  EXPECT_NE(r.standardOutput.find("\"notes\":[\"the candidate declares mode singleton"),
            std::string::npos)
      << r.standardOutput;
  r = verify({"--format", "junit"});
  EXPECT_NE(r.standardOutput.find("note: the candidate declares mode singleton"),
            std::string::npos);
  r = verify({"--format", "sarif"});
  EXPECT_NE(r.standardOutput.find("{\"level\":\"note\",\"message\":{\"text\":\""),
            std::string::npos);

  // The identity trap: the identity lowering, declaring identity, in place of the contract one,
  // is judged under contract and does not conform.
  fs::copy_file(suite / "cases/0003-trusted-external-in-checked-run/coalesced-identity.json",
                outputs / "0003-trusted-external-in-checked-run-coalesced-contract.json",
                fs::copy_options::overwrite_existing);
  r = verify();
  EXPECT_EQ(r.code, 1) << r.standardOutput;
  EXPECT_NE(r.standardOutput.find("declares equality identity, but it is checked with equality "
                                  "contract"),
            std::string::npos)
      << r.standardOutput;
}

} // namespace
} // namespace lo::testing
