// The outputs a conforming implementation writes for a generated suite, under the names `verify`
// looks for (docs/spec.md §4.3, "verify"), and the fixture SuiteTest: the tests of gen and verify
// start from them and break one at a time.
#pragma once

#include "tests/cli_run.hpp"

#include <fstream>
#include <string>
#include <vector>

namespace lo::testing {

/// Copies each case's expected outputs from `suite` into `outputs` as
/// `CASE-singleton-contract.json`, `CASE-coalesced-contract.json` and
/// `CASE-coalesced-identity.json`, and with `gates` each policy's gate result (the presets and the
/// case's custom policy) as
/// `CASE-gate-POLICY.json`.
inline void writeExpectedOutputs(const fs::path &suite, const fs::path &outputs, bool gates) {
  fs::create_directories(outputs);
  for (const auto &c : fs::directory_iterator(suite / "cases")) {
    const std::string name = c.path().filename().string();
    if (fs::exists(c.path() / "singleton.json")) // not in the lean-dojo lineage
      fs::copy_file(c.path() / "singleton.json", outputs / (name + "-singleton-contract.json"));
    fs::copy_file(c.path() / "coalesced-contract.json",
                  outputs / (name + "-coalesced-contract.json"));
    fs::copy_file(c.path() / "coalesced-identity.json",
                  outputs / (name + "-coalesced-identity.json"));
    if (gates)
      for (const char *policy : {"verified", "checked", "external", "custom"})
        fs::copy_file(c.path() / ("gate-" + std::string(policy) + ".json"),
                      outputs / (name + "-gate-" + policy + ".json"));
  }
}

/// `path` holding exactly `text` (a test breaking a suite file).
inline void write(const fs::path &path, const std::string &text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
}

/// A generated suite and its conforming outputs in a fresh directory, for the tests of gen and
/// verify, gen in test::seed::kEdition unless GEN-ARGS name another (seedOracle): makeSuite(COUNT,
/// GEN-ARGS, TAG, GATES) runs `gen --out dir/suiteTAG --count COUNT GEN-ARGS...` and writes every
/// expected output (with GATES, every gate result) into dir/outTAG; verify(EXTRA) runs `verify
/// SUITE OUTPUTS EXTRA...`.
class SuiteTest : public TempDir {
protected:
  void makeSuite(int count = 13, const std::vector<std::string> &genArgs = {},
                 const std::string &tag = "", bool gates = true) {
    suite = dir / ("suite" + tag);
    outputs = dir / ("out" + tag);
    std::vector<std::string> args{"gen", "--out", suite.string(), "--count", std::to_string(count)};
    args.insert(args.end(), genArgs.begin(), genArgs.end());
    const auto r = seedOracle(args);
    ASSERT_TRUE(r.ok()) << r.standardError;
    writeExpectedOutputs(suite, outputs, gates);
  }
  system::Result verify(std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"verify", suite.string(), outputs.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return oracle(args); // in the manifest's edition, verify's default
  }
  fs::path suite, outputs;
};

} // namespace lo::testing
