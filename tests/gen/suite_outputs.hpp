// The outputs a conforming implementation writes for a generated suite, under the names `verify`
// looks for (docs/spec.md §4.3, "verify"): the tests of gen and verify start from them and break
// one at a time.
#pragma once

#include "tests/cli_run.hpp"

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

} // namespace lo::testing
