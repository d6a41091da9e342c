// `diff` against the Python peers of tests/peers/ and against implementations that crash, time
// out, write invalid JSON or cannot start.
#include "ref/io/reader.hpp"
#include "tests/gen/cli.hpp"

#include <cstdlib>

namespace lo::testing {
namespace {

const std::string kPeers = LO_PEERS_DIR;

std::string peer(const std::string &script) {
  return std::string(LO_PYTHON3) + " " + kPeers + "/" + script + " {plan} {out} {mode} {equality}";
}

using Diff = TempDir;

TEST_F(Diff, ConformingPeerPassesFiveHundredCases) {
  const auto r = oracle({"diff", "--impl", peer("conforming.py"), "--count", "500", "--keep",
                         (dir / "keep").string()});
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
  EXPECT_NE(r.standardOutput.find("all 500 cases conform"), std::string::npos) << r.standardOutput;
  EXPECT_FALSE(fs::exists(dir / "keep")) << "nothing to keep";
}

TEST_F(Diff, ConformingPeerPassesTheOtherLoweringsToo) {
  for (const auto &[mode, equality] :
       {std::pair{"singleton", "contract"}, std::pair{"coalesced", "identity"}}) {
    const auto r = oracle({"diff", "--impl", peer("conforming.py"), "--count", "40", "--seed", "5",
                           "--mode", mode, "--equality", equality});
    EXPECT_EQ(r.code, 0) << mode << "/" << equality << ": " << r.standardOutput << r.standardError;
  }
}

// The identity peer is caught, and the failure shrinks to two nodes whose capsules differ in their
// trust level only.
TEST_F(Diff, IdentityPeerIsCaughtAndShrunkToATrustLevelDifference) {
  const fs::path keep = dir / "keep";
  const auto r =
      oracle({"diff", "--impl", peer("identity.py"), "--count", "100", "--keep", keep.string()});
  ASSERT_EQ(r.code, 1) << r.standardOutput << r.standardError;
  EXPECT_EQ(std::count(r.standardOutput.begin(), r.standardOutput.end(), '\n'), 1)
      << "one summary line: " << r.standardOutput;
  EXPECT_NE(r.standardOutput.find("minimal case 2 nodes"), std::string::npos) << r.standardOutput;

  Interner interner;
  const GraphExecutionPlan plan =
      io::readExecutionPlan(io::loadSource((keep / "plan.json").string()), interner);
  ASSERT_EQ(plan.kernels.size(), 2u);
  KernelCapsule a = interner.capsule(plan.kernels[0].capsule);
  const KernelCapsule &b = interner.capsule(plan.kernels[1].capsule);
  EXPECT_TRUE(sameIdentity(a, b));
  EXPECT_NE(a.trustLevel, b.trustLevel);
  a.trustLevel = b.trustLevel;
  EXPECT_EQ(a, b) << "the capsules differ only in trust level";

  // The implementation's output and the report are kept beside the plan.
  const auto output =
      io::readLoweringPlan(io::loadSource((keep / "output.json").string()), interner);
  EXPECT_EQ(output.plan.groups.size(), 1u) << "the identity peer merged the two nodes";
  const std::string report = slurp(keep / "report.txt");
  EXPECT_NE(report.find("capsule"), std::string::npos) << report;
  EXPECT_NE(report.find("shrunk from"), std::string::npos) << report;
  EXPECT_TRUE(fs::exists(keep / "original-plan.json"));
}

struct Broken {
  const char *name;
  std::string impl;
  std::string expect; // in the summary line
};

TEST_F(Diff, CrashesTimeoutsFailuresAndInvalidJsonAreFindings) {
  const Broken cases[] = {
      {"crash", "sh -c 'echo dying >&2; kill -SEGV $$'", "signal 11"},
      {"timeout", "sleep 5", "timed out after 300 ms"},
      {"exit", "sh -c 'echo \"bad plan\" >&2; exit 4' sh {plan}", "exited with status 4"},
      {"invalid", "sh -c 'printf \"{not json\" > \"$1\"' sh {out}", "invalid GraphLoweringPlan"},
      {"no-output", "true {out}", "wrote no output"},
      {"stdout", "sh -c 'echo \"[]\"' {plan}", "invalid GraphLoweringPlan"},
  };
  for (const Broken &b : cases) {
    SCOPED_TRACE(b.name);
    const fs::path keep = dir / b.name;
    const auto r = oracle(
        {"diff", "--impl", b.impl, "--count", "5", "--timeout-ms", "300", "--keep", keep.string()});
    EXPECT_EQ(r.code, 1) << r.standardOutput << r.standardError;
    EXPECT_NE(r.standardOutput.find(b.expect), std::string::npos) << r.standardOutput;
    EXPECT_TRUE(fs::exists(keep / "report.txt"));
    EXPECT_TRUE(fs::exists(keep / "plan.json"));
  }
  // "a finding with its stderr"
  EXPECT_NE(slurp(dir / "crash" / "stderr.txt").find("dying"), std::string::npos);
  EXPECT_NE(slurp(dir / "exit" / "report.txt").find("bad plan"), std::string::npos);
}

TEST_F(Diff, BadUsage) {
  EXPECT_EQ(oracle({"diff", "--impl", "/nonexistent/impl {plan} {out}"}).code, 2);
  EXPECT_EQ(oracle({"diff", "--impl", "'unterminated"}).code, 2);
  EXPECT_EQ(oracle({"diff", "--impl", "   "}).code, 2);
  EXPECT_EQ(oracle({"diff"}).code, 2) << "--impl is required";
  EXPECT_EQ(oracle({"diff", "--impl", "true", "--mode", "fused"}).code, 2);
}

// File names reach the implementation as single arguments: a temporary directory whose name is
// shell syntax changes nothing.
TEST_F(Diff, FileNamesCannotInject) {
  const fs::path tricky = dir / "a dir; touch INJECTED $(touch INJECTED2)";
  fs::create_directories(tricky);
  ::setenv("TMPDIR", tricky.c_str(), 1);
  const auto r = oracle({"diff", "--impl", peer("conforming.py"), "--count", "15"});
  ::unsetenv("TMPDIR");
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
  for (const fs::path &where : {dir, tricky, fs::current_path()})
    for (const char *name : {"INJECTED", "INJECTED2"})
      EXPECT_FALSE(fs::exists(where / name)) << where / name;
}

} // namespace
} // namespace lo::testing
