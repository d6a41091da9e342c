// `diff` against the Python peers of tests/peers/ and against implementations that crash, time
// out, write invalid JSON or cannot start.
#include "ref/io/reader.hpp"
#include "tests/campaign.hpp"
#include "tests/cli_run.hpp"
#include "tests/seed.hpp"

#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <regex>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>

extern char **environ;

namespace lo::testing {
namespace {

const std::string kPeers = LO_PEERS_DIR;
/// `--edition` of the seed's documents, for a gate command of the oracle's that diff runs.
const std::string kSeedEdition = "--edition " + std::string(spelling(test::seed::kEdition));

std::string peer(const std::string &script) {
  return std::string(LO_PYTHON3) + " " + kPeers + "/" + script + " {plan} {out} {mode} {equality}";
}

std::string worker(const std::string &flags = "") {
  return std::string(LO_PYTHON3) + " " + kPeers + "/worker.py" + (flags.empty() ? "" : " " + flags);
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

using Diff = TempDir;

// After shrinking, the minimal plan is spelled plainly when the failure persists without the
// case's exotic spelling (an identity peer: the spelling does not matter), and keeps the exotic
// spelling when the failure needs it (a peer that requires "format" and "version").
TEST_F(Diff, TheMinimalPlanIsSpelledPlainlyUnlessTheSpellingIsTheCause) {
  const fs::path keep = dir / "plain";
  // Case 0038 of seed 2 spells its strings with escapes ("\u0069").
  const auto r =
      seedOracle({"diff", "--impl", peer("identity.py"), "--seed", "2", "--keep", keep.string()});
  ASSERT_EQ(r.code, 1) << r.standardOutput << r.standardError;
  EXPECT_EQ(slurp(keep / "plan.json").find("\\u00"), std::string::npos)
      << slurp(keep / "plan.json");
  EXPECT_NE(slurp(keep / "original-plan.json").find("\\u00"), std::string::npos);
  EXPECT_TRUE(
      contains(slurp(keep / "report.txt"), "plan.json spelled plainly (the failure persists"))
      << slurp(keep / "report.txt");

  const fs::path exotic = dir / "exotic";
  const auto raw =
      seedOracle({"diff", "--impl",
                  std::string(LO_PYTHON3) + " " + kPeers +
                      "/mutants.py --mutant requires-format {plan} {out} {mode} {equality}",
                  "--keep", exotic.string()});
  ASSERT_EQ(raw.code, 1) << raw.standardOutput << raw.standardError;
  EXPECT_TRUE(contains(slurp(exotic / "report.txt"),
                       "plan.json spelled as the case was (the failure "
                       "needs its spelling)"))
      << slurp(exotic / "report.txt");
  const std::string plan = slurp(exotic / "plan.json");
  EXPECT_TRUE(!contains(plan, "\"format\"") || !contains(plan, "\"version\"")) << plan;
}

struct Broken {
  const char *name;
  std::string impl;
  std::string expect; // in the summary line
};

// The conforming peer at the default count (200 cases) is peers.conforming; here: a passing run
// with --keep saves nothing.
TEST_F(Diff, ConformingPeerPassesAndNothingIsKept) {
  const std::string count = std::to_string(instance(10, 60)); // tests/campaign.hpp
  const auto r = seedOracle({"diff", "--impl", peer("conforming.py"), "--count", count, "--keep",
                             (dir / "keep").string()});
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
  EXPECT_NE(r.standardOutput.find("all " + count + " cases conform"), std::string::npos)
      << r.standardOutput;
  EXPECT_FALSE(fs::exists(dir / "keep")) << "nothing to keep";
}

// By default each case asks for one of the four lowerings in turn (docs/spec.md §4.3), so a bug
// confined to the singleton lowering or to the identity equality is caught at the default cost of
// one run a case; --mode or --equality pins one lowering.
TEST_F(Diff, EveryLoweringByDefault) {
  const std::string count = std::to_string(instance(8, 40)); // the passing runs' cases
  const auto conforming = seedOracle({"diff", "--impl", peer("conforming.py"), "--count", count});
  EXPECT_EQ(conforming.code, 0) << conforming.standardOutput << conforming.standardError;
  EXPECT_TRUE(
      contains(conforming.standardOutput,
               "all " + count +
                   " cases conform (lowerings singleton/contract, singleton/identity, "
                   "coalesced/contract, coalesced/identity, one per case in turn, seed 1, " +
                   count + " runs"))
      << conforming.standardOutput;
  const std::string py = std::string(LO_PYTHON3) + " " + kPeers + "/conforming.py {plan} {out} ";
  const Broken confined[] = {
      {"always-coalesced", py + "coalesced {equality}", "mode singleton, equality "},
      {"always-contract", py + "{mode} contract", "mode coalesced, equality identity) fails"},
  };
  for (const Broken &b : confined) {
    SCOPED_TRACE(b.name);
    const auto r =
        seedOracle({"diff", "--impl", b.impl, "--count", "40", "--keep", (dir / b.name).string()});
    EXPECT_EQ(r.code, 1) << r.standardOutput << r.standardError;
    EXPECT_TRUE(contains(r.standardOutput, b.expect)) << r.standardOutput;
    EXPECT_TRUE(fs::exists(dir / b.name / "plan.json")) << "saved in --keep itself";
    const auto pinned =
        seedOracle({"diff", "--impl", b.impl, "--count", count, "--mode", "coalesced"});
    EXPECT_EQ(pinned.code, 0) << "pinned to coalesced/contract: " << pinned.standardOutput;
    EXPECT_TRUE(contains(pinned.standardOutput, "(mode coalesced, equality contract, seed 1"))
        << pinned.standardOutput;
  }
  // The same for a gate: the reference gate of the coalesced/contract lowering, whatever it is
  // asked, differs from another lowering's (the identity trap, or a report per node where the
  // coalesced lowering has one per group).
  const std::string gateCommand = std::string(LO_ORACLE_BINARY) + " gate " + kSeedEdition +
                                  " {plan} -o {out} --policy {policy} "
                                  "--format json";
  const auto r =
      seedOracle({"diff", "--gate", gateCommand, "--count", "12", "--keep", (dir / "g").string()});
  EXPECT_EQ(r.code, 1) << r.standardOutput << r.standardError;
  EXPECT_TRUE(contains(r.standardOutput, ") fails; minimal case")) << r.standardOutput;
  EXPECT_FALSE(contains(r.standardOutput, "mode coalesced, equality contract")) << r.standardOutput;
  const auto pinned =
      seedOracle({"diff", "--gate", gateCommand, "--count", "12", "--equality", "contract"});
  EXPECT_EQ(pinned.code, 0) << pinned.standardOutput << pinned.standardError;
}

TEST_F(Diff, ConformingPeerPassesTheOtherLoweringsToo) {
  for (const auto &[mode, equality] :
       {std::pair{"singleton", "contract"}, std::pair{"coalesced", "identity"}}) {
    const auto r = seedOracle({"diff", "--impl", peer("conforming.py"), "--count",
                               std::to_string(instance(8, 40)), "--seed", "5", "--mode", mode,
                               "--equality", equality});
    EXPECT_EQ(r.code, 0) << mode << "/" << equality << ": " << r.standardOutput << r.standardError;
  }
}

// The identity peer is caught, and the failure shrinks to two nodes whose capsules share their
// identity but differ in their contract (the shrinker keeps the last violated check, `gate`, so the
// difference it keeps is one the gate sees).
TEST_F(Diff, IdentityPeerIsCaughtAndShrunkToTwoCapsulesOfOneIdentity) {
  const fs::path keep = dir / "keep";
  const auto r = seedOracle({"diff", "--impl", peer("identity.py") + " {audit}", "--count", "100",
                             "--keep", keep.string()});
  ASSERT_EQ(r.code, 1) << r.standardOutput << r.standardError;
  EXPECT_EQ(std::count(r.standardOutput.begin(), r.standardOutput.end(), '\n'), 1)
      << "one summary line: " << r.standardOutput;
  EXPECT_NE(r.standardOutput.find("minimal case 2 nodes"), std::string::npos) << r.standardOutput;

  Interner interner;
  const GraphExecutionPlan plan =
      lo::test::seed::readExecutionPlan(io::loadSource((keep / "plan.json").string()), interner);
  ASSERT_EQ(plan.kernels.size(), 2u);
  const KernelCapsule &a = interner.capsule(plan.kernels[0].capsule);
  const KernelCapsule &b = interner.capsule(plan.kernels[1].capsule);
  EXPECT_TRUE(sameIdentity(a, b));
  EXPECT_NE(a, b) << "the capsules differ in their contract";

  // The implementation's output and the report are kept beside the plan.
  const auto output =
      lo::test::seed::readLoweringPlan(io::loadSource((keep / "output.json").string()), interner);
  EXPECT_EQ(output.plan.groups.size(), 1u) << "the identity peer merged the two nodes";
  const std::string report = slurp(keep / "report.txt");
  EXPECT_NE(report.find("capsule"), std::string::npos) << report;
  EXPECT_NE(report.find("shrunk from"), std::string::npos) << report;
  EXPECT_TRUE(fs::exists(keep / "original-plan.json"));
  // The same finding as a picture (docs/spec.md §3.5): both nodes in the strip, the merged group
  // under them, the capsule finding pinned with its field-by-field difference.
  const std::string html = slurp(keep / "report.html");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u) << html.substr(0, 200);
  EXPECT_NE(html.find("<span class=\"check\">capsule</span>"), std::string::npos) << html;
  EXPECT_NE(html.find("<table class=\"fields\">"), std::string::npos) << html;
  EXPECT_NE(html.find("<th>candidate</th><td colspan=\"2\""), std::string::npos) << html;
  EXPECT_NE(html.find("href=\"#c0-f0\""), std::string::npos) << "the finding is pinned";
}

// The standard is the user's (docs/spec.md §4.3): an output that declares another lowering than
// the one asked is judged as asked, and the declaration is noted.
TEST_F(Diff, AnOutputsDeclarationNeverChoosesTheStandard) {
  // The coalesced/contract lowering, declared as coalesced/identity: it conforms as asked.
  std::ofstream(dir / "declares.py")
      << "import sys\nsys.path.insert(0, '" << kPeers
      << "')\nimport conforming, json\n"
         "plan = json.load(open(sys.argv[1]))\n"
         "same = conforming.same_identity if sys.argv[4] == 'identity' else "
         "conforming.same_contract\n"
         "conforming.write(conforming.lower(plan, sys.argv[3], same), sys.argv[3], "
         "'identity' if sys.argv[4] == 'contract' else 'contract', sys.argv[2])\n";
  const auto r = seedOracle({"diff", "--impl",
                             std::string(LO_PYTHON3) + " " + (dir / "declares.py").string() +
                                 " {plan} {out} {mode} {equality}",
                             "--count", "12", "--mode", "coalesced", "--equality", "contract"});
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
  EXPECT_TRUE(contains(r.standardOutput, "diff: note: 12 outputs declare another mode or equality "
                                         "than the one asked and were judged as asked (first: "
                                         "case 0000-"))
      << r.standardOutput;
  EXPECT_TRUE(contains(r.standardOutput, "declares equality identity)")) << r.standardOutput;

  // The identity lowering declared as such is judged under contract: the identity trap fails.
  const fs::path keep = dir / "keep";
  const auto trap = seedOracle(
      {"diff", "--impl",
       std::string(LO_PYTHON3) + " " + kPeers + "/identity.py {plan} {out} {mode} identity",
       "--count", "12", "--mode", "coalesced", "--equality", "contract", "--keep", keep.string()});
  EXPECT_EQ(trap.code, 1) << trap.standardOutput << trap.standardError;
  EXPECT_TRUE(contains(trap.standardOutput, "equality contract) fails")) << trap.standardOutput;
  EXPECT_TRUE(contains(slurp(keep / "report.txt"),
                       "note: the candidate declares equality identity, but it is checked with "
                       "equality contract"))
      << slurp(keep / "report.txt");
}

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
    const auto r = seedOracle(
        {"diff", "--impl", b.impl, "--count", "5", "--timeout-ms", "300", "--keep", keep.string()});
    EXPECT_EQ(r.code, 1) << r.standardOutput << r.standardError;
    EXPECT_NE(r.standardOutput.find(b.expect), std::string::npos) << r.standardOutput;
    EXPECT_TRUE(fs::exists(keep / "report.txt"));
    EXPECT_TRUE(fs::exists(keep / "plan.json"));
    // No lowering to draw: the page shows the failure beside the reference lowering.
    const std::string html = slurp(keep / "report.html");
    EXPECT_NE(html.find("<th>reference lowering</th>"), std::string::npos) << html;
    EXPECT_EQ(html.find("<th>candidate</th>"), std::string::npos) << html;
  }
  // "a finding with its stderr"
  EXPECT_NE(slurp(dir / "crash" / "stderr.txt").find("dying"), std::string::npos);
  EXPECT_NE(slurp(dir / "exit" / "report.txt").find("bad plan"), std::string::npos);
}

TEST_F(Diff, BadUsage) {
  const auto missing = seedOracle({"diff", "--impl", "/nonexistent/impl {plan} {out}"});
  EXPECT_EQ(missing.code, 2);
  EXPECT_EQ(missing.standardError.rfind("lowering-oracle: cannot run /nonexistent/impl", 0), 0u)
      << "the error is the first line, not after an empty one: " << missing.standardError;
  EXPECT_EQ(seedOracle({"diff", "--impl", "'unterminated"}).code, 2);
  EXPECT_EQ(seedOracle({"diff", "--impl", "   "}).code, 2);
  EXPECT_EQ(seedOracle({"diff"}).code, 2) << "--impl is required";
  EXPECT_EQ(seedOracle({"diff", "--impl", "true", "--mode", "fused"}).code, 2);
}

// --- `diff --gate` (docs/spec.md §4.3, §6) ------------------------------------------------------

TEST_F(Diff, GateIsOneOfImplWorkerAndGateAndPolicyNeedsIt) {
  EXPECT_EQ(seedOracle({"diff", "--gate", "true", "--impl", "true"}).code, 2);
  EXPECT_EQ(seedOracle({"diff", "--gate", "true", "--worker", "true"}).code, 2);
  EXPECT_EQ(seedOracle({"diff", "--impl", "true", "--policy", "checked"}).code, 2);
  EXPECT_EQ(seedOracle({"diff", "--gate", "true", "--policy", "strict"}).code, 2);
  EXPECT_EQ(seedOracle({"diff", "--gate", "'unterminated"}).code, 2);
}

// The reference `gate` command is a conforming gate: under the identity equality too, where the
// hand-picked identity trap is accepted by `checked`.
TEST_F(Diff, TheGateCommandPassesAsAnImplementation) {
  const auto r = seedOracle({"diff", "--gate",
                             std::string(LO_ORACLE_BINARY) + " gate " + kSeedEdition +
                                 " {plan} -o {out} --policy {policy} --mode "
                                 "{mode} --equality {equality} --format json",
                             "--count", "12", "--policy", "checked", "--equality", "identity"});
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
  EXPECT_TRUE(contains(r.standardOutput, "diff: all 12 cases conform (mode coalesced, equality "
                                         "identity, gate of policy checked, seed 1, 12 runs"))
      << r.standardOutput;
}

// A gate may exit 0 or 1 (its verdict); anything else, or a result that is not a gate result, is a
// finding, shrunk and saved with the reference result beside it.
TEST_F(Diff, BrokenGatesAreFindings) {
  const Broken cases[] = {
      {"exit", "sh -c 'echo \"cannot gate\" >&2; exit 2' sh {plan}", "exited with status 2"},
      {"not-json", "sh -c 'echo not json; exit 1' sh {plan}",
       "the implementation wrote an invalid gate result: output.json:1:1: /: expected a JSON "
       "object"},
      {"lowering", std::string(LO_PYTHON3) + " " + kPeers + "/conforming.py {plan} {out}",
       "invalid gate result: output.json:1:12: /format: format is "
       "\"nn-backend/graph-lowering-plan\", expected \"nn-backend/gate-result\""},
  };
  for (const Broken &b : cases) {
    SCOPED_TRACE(b.name);
    const fs::path keep = dir / b.name;
    const auto r = seedOracle({"diff", "--gate", b.impl, "--count", "3", "--keep", keep.string()});
    EXPECT_EQ(r.code, 1) << r.standardOutput << r.standardError;
    // Case 0 asks for the first lowering in turn, singleton/contract.
    EXPECT_TRUE(contains(r.standardOutput, "(seed 1, mode singleton, equality contract, policy "
                                           "verified) fails; minimal case 0 nodes"))
        << r.standardOutput;
    EXPECT_TRUE(contains(r.standardOutput, b.expect)) << r.standardOutput;
    EXPECT_TRUE(contains(slurp(keep / "report.txt"), "policy verified"))
        << slurp(keep / "report.txt");
    EXPECT_TRUE(contains(slurp(keep / "expected.json"), "\"verdict\": \"accepted\""))
        << "the reference gate of the empty plan";
  }
  EXPECT_TRUE(contains(slurp(dir / "exit" / "stderr.txt"), "cannot gate"));
}

// What docs/schema/gate-result.schema.json rejects is an invalid gate result, named with its
// position and pointer, never a gate that differs: here the reference gate of the same lowering
// with its claim tags renamed (valueRefinement becomes valuePromise), and its exit status kept.
TEST_F(Diff, AGateResultWithAnUnknownClaimTagIsInvalidNotADifference) {
  const std::string gate =
      "sh -c 'out=$(\"$0\" gate " + kSeedEdition +
      " \"$1\" --policy \"$2\" --mode \"$3\" --equality "
      "\"$4\" "
      "--format json); code=$?; printf \"%s\\n\" \"$out\" | sed s/Refinement/Promise/g; exit "
      "$code' " +
      std::string(LO_ORACLE_BINARY) + " {plan} {policy} {mode} {equality}";
  const auto r = seedOracle({"diff", "--gate", gate, "--count", "12", "--policy", "verified"});
  EXPECT_EQ(r.code, 1) << r.standardOutput << r.standardError;
  EXPECT_TRUE(contains(r.standardOutput, "the implementation wrote an invalid gate result: "
                                         "output.json:"))
      << r.standardOutput;
  EXPECT_TRUE(contains(r.standardOutput, "/claim/tag: unknown claim tag \"")) << r.standardOutput;
  EXPECT_FALSE(contains(r.standardOutput, "under policy verified")) << "not a difference";
}

// A gate exits 0 when it accepts and 1 when it rejects (docs/spec.md §6.6): an exit status that
// contradicts its result's verdict is a finding, even when the result is the reference's.
TEST_F(Diff, AGateWhoseExitStatusContradictsItsResultIsAFinding) {
  const std::string gate = std::string("sh -c '\"$0\" gate " + kSeedEdition +
                                       " \"$1\" -o \"$2\" --policy \"$3\" "
                                       "--mode \"$4\" --equality \"$5\" --format json; exit ") +
                           "STATUS' " + LO_ORACLE_BINARY +
                           " {plan} {out} {policy} {mode} {equality}";
  const Broken cases[] = {
      {"always-0", std::regex_replace(gate, std::regex("STATUS"), "0"),
       "the gate exited with status 0 (accepted), but its result's verdict is rejected"},
      {"always-1", std::regex_replace(gate, std::regex("STATUS"), "1"),
       "the gate exited with status 1 (rejected), but its result's verdict is accepted"},
  };
  for (const Broken &b : cases) {
    SCOPED_TRACE(b.name);
    const fs::path keep = dir / b.name;
    const auto r = seedOracle({"diff", "--gate", b.impl, "--count", std::to_string(instance(6, 20)),
                               "--keep", keep.string()});
    EXPECT_EQ(r.code, 1) << r.standardOutput << r.standardError;
    EXPECT_TRUE(contains(r.standardOutput, b.expect)) << r.standardOutput;
    EXPECT_FALSE(contains(r.standardOutput, "conform")) << r.standardOutput;
    EXPECT_TRUE(contains(slurp(keep / "report.txt"), b.expect)) << slurp(keep / "report.txt");
  }
  // Exiting as its verdict says, the same gate conforms.
  const auto r = seedOracle({"diff", "--gate",
                             std::string(LO_ORACLE_BINARY) + " gate " + kSeedEdition +
                                 " {plan} -o {out} --policy {policy} --mode "
                                 "{mode} --equality {equality} --format json",
                             "--count", std::to_string(instance(6, 20))});
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
}

// File names reach the implementation as single arguments: a temporary directory whose name is
// shell syntax changes nothing.
TEST_F(Diff, FileNamesCannotInject) {
  const fs::path tricky = dir / "a dir; touch INJECTED $(touch INJECTED2)";
  fs::create_directories(tricky);
  ::setenv("TMPDIR", tricky.c_str(), 1);
  const auto r = seedOracle({"diff", "--impl", peer("conforming.py"), "--count", "15"});
  ::unsetenv("TMPDIR");
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
  for (const fs::path &where : {dir, tricky, fs::current_path()})
    for (const char *name : {"INJECTED", "INJECTED2"})
      EXPECT_FALSE(fs::exists(where / name)) << where / name;
}

// --- The worker protocol ---------------------------------------------------------------------

TEST_F(Diff, ConformingWorkerPassesFromOneProcess) {
  const std::string count = std::to_string(instance(50, 150)); // tests/campaign.hpp
  const auto r = seedOracle({"diff", "--worker", worker(), "--count", count});
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
  EXPECT_TRUE(contains(r.standardOutput, "all " + count + " cases conform")) << r.standardOutput;
  EXPECT_TRUE(contains(r.standardOutput, "1 start of the implementation")) << r.standardOutput;
}

TEST_F(Diff, IdentityWorkerIsCaughtAndShrunk) {
  const fs::path keep = dir / "keep";
  const auto r = seedOracle(
      {"diff", "--worker", worker("--identity"), "--count", "100", "--keep", keep.string()});
  ASSERT_EQ(r.code, 1) << r.standardOutput << r.standardError;
  EXPECT_TRUE(contains(r.standardOutput, "minimal case 2 nodes")) << r.standardOutput;
  EXPECT_TRUE(contains(r.standardOutput, "capsule")) << r.standardOutput;
  Interner interner;
  const GraphExecutionPlan plan =
      lo::test::seed::readExecutionPlan(io::loadSource((keep / "plan.json").string()), interner);
  EXPECT_EQ(plan.kernels.size(), 2u);
  EXPECT_TRUE(contains(slurp(keep / "report.txt"), "--worker")) << "the report names the worker";
}

// The output may come inline in the answer instead of in {out}.
TEST_F(Diff, WorkerMayAnswerWithTheOutputInline) {
  const std::string script =
      "import json, os, sys\n"
      "sys.path.insert(0, '" +
      kPeers +
      "')\n"
      "import conforming\n"
      "for line in sys.stdin:\n"
      "    q = json.loads(line)\n"
      "    same = conforming.same_identity if q['equality'] == 'identity' else "
      "conforming.same_contract\n"
      "    conforming.write(conforming.lower(q['inline'], q['mode'], same), q['mode'], "
      "q['equality'], q['out'], q['audit'])\n"
      "    out = json.load(open(q['out']))\n"
      "    os.remove(q['out'])\n"
      "    print(json.dumps({'id': q['id'], 'status': 'done', 'output': out}), flush=True)\n";
  std::ofstream(dir / "inline.py") << script;
  const auto r =
      seedOracle({"diff", "--worker", std::string(LO_PYTHON3) + " " + (dir / "inline.py").string(),
                  "--count", "40", "--all"});
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
  EXPECT_TRUE(contains(r.standardOutput, "all 40 cases conform")) << r.standardOutput;
}

TEST_F(Diff, BrokenWorkersAreFindings) {
  const Broken cases[] = {
      {"dies", "sh -c 'read -r line; echo bye >&2; exit 3'",
       "exited with status 3 without answering"},
      {"hangs", "sleep 30", "timed out after 300 ms"},
      {"garbles", "sh -c 'while read -r l; do echo nope; done'", "is not one JSON object"},
      {"wrong-id",
       "sh -c 'while read -r l; do echo {\\\"id\\\":0,\\\"status\\\":\\\"done\\\"}; done'",
       "does not carry the request's \"id\""},
      {"error",
       "sh -c 'while read -r l; do echo "
       "{\\\"id\\\":1,\\\"status\\\":\\\"error\\\",\\\"message\\\":\\\"unsupported\\\"}; done'",
       "the worker answered error: unsupported"},
      {"too-long", "sh -c 'read -r l; head -c 100000 /dev/zero | tr \"\\\\0\" x'",
       "longer than the cap"},
      // Read strictly: an unknown or repeated field, or one its status does not have, named with
      // its position and pointer.
      {"unknown-field",
       "sh -c 'while read -r l; do echo "
       "{\\\"id\\\":1,\\\"status\\\":\\\"done\\\",\\\"extra\\\":1}; done'",
       "is not a worker answer (answer:1:25: /extra: unknown field \"extra\" in a worker answer"},
      {"duplicate-key",
       "sh -c 'while read -r l; do echo "
       "{\\\"id\\\":1,\\\"status\\\":\\\"done\\\",\\\"id\\\":1}; done'",
       "is not a worker answer (answer:1:25: /id: duplicate field \"id\" in a worker answer)"},
      {"message-when-done",
       "sh -c 'while read -r l; do echo "
       "{\\\"id\\\":1,\\\"status\\\":\\\"done\\\",\\\"message\\\":\\\"x\\\"}; "
       "done'",
       "/message: field \"message\" does not belong to a worker answer with \"status\": "
       "\"done\""},
  };
  for (const Broken &b : cases) {
    SCOPED_TRACE(b.name);
    const fs::path keep = dir / b.name;
    // Only the hanging worker meets the short timeout: the others answer, however loaded the
    // machine, long before 10 s.
    const std::string timeout = std::string(b.name) == "hangs" ? "300" : "10000";
    const auto r = seedOracle({"diff", "--worker", b.impl, "--count", "3", "--timeout-ms", timeout,
                               "--max-output-bytes", "1000", "--keep", keep.string()});
    EXPECT_EQ(r.code, 1) << r.standardOutput << r.standardError;
    EXPECT_TRUE(contains(r.standardOutput, b.expect)) << r.standardOutput;
    EXPECT_TRUE(fs::exists(keep / "report.txt"));
  }
  EXPECT_TRUE(contains(slurp(dir / "dies" / "stderr.txt"), "bye"));
  EXPECT_EQ(seedOracle({"diff", "--worker", "/nonexistent/worker"}).code, 2);
  EXPECT_EQ(seedOracle({"diff", "--worker", worker(), "--impl", "true"}).code, 2)
      << "one of the two";
}

// report.txt shows the implementation's text escaped (docs/ci.md, "Reports"): no raw ESC, and no
// line of its standard error or of a worker's message can pass for a line of the report.
TEST_F(Diff, ReportTxtCarriesNoRawControlCharacters) {
  const Broken cases[] = {
      {"stderr", "sh -c 'printf \"bad\\033[2J\\nshrunk from 9 to 9 nodes\\r\\n\" >&2; exit 4'", ""},
      {"worker",
       "sh -c 'while read -r l; do printf %s\\\\n \""
       "{\\\"id\\\":1,\\\"status\\\":\\\"error\\\",\\\"message\\\":"
       "\\\"a\\\\u001b[2J\\\\nshrunk from 9 to 9 nodes\\\"}\"; done'",
       ""},
  };
  for (const Broken &b : cases) {
    SCOPED_TRACE(b.name);
    const fs::path keep = dir / b.name;
    const auto r = seedOracle({"diff", std::string(b.name) == "worker" ? "--worker" : "--impl",
                               b.impl, "--count", "2", "--keep", keep.string()});
    EXPECT_EQ(r.code, 1) << r.standardOutput << r.standardError;
    const std::string report = slurp(keep / "report.txt");
    EXPECT_TRUE(contains(report, "\\u001b[2J")) << report;
    EXPECT_FALSE(contains(report, "\033")) << report;
    EXPECT_FALSE(contains(report, "\r")) << report;
    EXPECT_FALSE(contains(report, "\nshrunk from 9")) << report;
  }
}

// A worker's stray line on standard output is quoted, escaped and cut, in the finding, in
// report.txt and in stderr.txt.
TEST_F(Diff, AWorkersStrayLineIsQuoted) {
  const fs::path keep = dir / "keep";
  const auto r =
      seedOracle({"diff", "--worker",
                  "sh -c 'read -r l; printf \"Loading model \\033[1mfast\\033[0m %0300d\\n\" 7'",
                  "--count", "3", "--keep", keep.string()});
  EXPECT_EQ(r.code, 1) << r.standardOutput << r.standardError;
  const std::string quoted = "is not one JSON object on one line: \"Loading model \\u001b[1mfast"
                             "\\u001b[0m 000";
  EXPECT_TRUE(contains(r.standardOutput, quoted)) << r.standardOutput;
  EXPECT_TRUE(contains(r.standardOutput, "\xe2\x80\xa6\"; it is started again"))
      << "cut: " << r.standardOutput;
  EXPECT_TRUE(contains(slurp(keep / "report.txt"), quoted)) << slurp(keep / "report.txt");
  EXPECT_TRUE(contains(slurp(keep / "stderr.txt"), "Loading model \\u001b[1mfast"))
      << slurp(keep / "stderr.txt");
  EXPECT_FALSE(contains(r.standardOutput + slurp(keep / "report.txt"), "\033"));
}

// --- --all, --keep-going, --progress -------------------------------------------------------

TEST_F(Diff, KeepGoingCollectsEveryFailureAndShrinksOnePerKind) {
  const fs::path keep = dir / "keep";
  const int count = instance(8, 20);
  const auto r =
      seedOracle({"diff", "--impl", peer("identity.py"), "--count", std::to_string(count), "--all",
                  "--keep-going", "--keep", keep.string()});
  ASSERT_EQ(r.code, 1) << r.standardOutput << r.standardError;
  // Only coalesced/contract can fail for an identity peer: it is asked for all four lowerings.
  EXPECT_TRUE(contains(r.standardOutput, "runs fail (lowerings singleton/contract, "
                                         "singleton/identity, coalesced/contract, "
                                         "coalesced/identity"))
      << r.standardOutput;
  EXPECT_TRUE(contains(r.standardOutput, "of " + std::to_string(4 * count) + " runs fail"))
      << r.standardOutput;
  EXPECT_TRUE(contains(r.standardOutput, ") fails: ")) << "later failures are listed";
  EXPECT_FALSE(contains(r.standardOutput, "mode singleton")) << r.standardOutput;
  std::size_t saved = 0;
  // The directory is marked as this tool's (docs/spec.md §4.1, "Output directories").
  EXPECT_TRUE(fs::is_regular_file(keep / ".lowering-oracle-output"));
  for (const auto &entry : fs::directory_iterator(keep)) {
    if (entry.path().filename() == ".lowering-oracle-output")
      continue;
    ++saved;
    EXPECT_TRUE(contains(entry.path().filename().string(), "-coalesced-contract")) << entry.path();
    EXPECT_TRUE(fs::exists(entry.path() / "plan.json"));
  }
  EXPECT_GE(saved, 1u);
}

TEST_F(Diff, ProgressLinesWhenAskedOffATerminal) {
  const auto quiet = seedOracle({"diff", "--worker", worker(), "--count", "30"});
  EXPECT_EQ(quiet.standardError, "") << "no progress unless asked off a terminal";
  const auto r = seedOracle({"diff", "--impl",
                             "sh -c 'sleep 0.3; exec " + std::string(LO_PYTHON3) + " " + kPeers +
                                 "/conforming.py \"$1\" \"$2\"' sh {plan} {out}",
                             "--count", "8", "--progress", "--mode", "coalesced"});
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
  EXPECT_TRUE(contains(r.standardError, "diff: ")) << r.standardError;
  EXPECT_TRUE(contains(r.standardError, "/8 cases")) << r.standardError;
  EXPECT_EQ(r.standardError.find('\r'), std::string::npos) << "lines, not a terminal's updates";
}

// --- Interruption ------------------------------------------------------------------------------

/// Starts the oracle with `args`, its output in `out`, and TMPDIR set to `tmp`.
pid_t spawnOracle(const std::vector<std::string> &args, const fs::path &out, const fs::path &tmp) {
  std::vector<std::string> argv{LO_ORACLE_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char *> cargv;
  for (auto &a : argv)
    cargv.push_back(a.data());
  cargv.push_back(nullptr);
  std::vector<std::string> env{"TMPDIR=" + tmp.string()};
  for (char **e = environ; *e; ++e)
    if (std::string_view(*e).substr(0, 7) != "TMPDIR=")
      env.emplace_back(*e);
  std::vector<char *> cenv;
  for (auto &e : env)
    cenv.push_back(e.data());
  cenv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = -1;
  EXPECT_EQ(posix_spawn(&pid, LO_ORACLE_BINARY, &actions, nullptr, cargv.data(), cenv.data()), 0);
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

/// Whether process `pid` is gone (or a zombie no one has reaped yet: dead all the same).
bool dead(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line))
    return true;
  const auto close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z';
}

TEST_F(Diff, SignalsPrintAPartialSummaryStopTheGroupAndLeaveNoDirectory) {
  for (const auto &[signal, name, flag] :
       {std::tuple{SIGINT, "SIGINT", "--impl"}, std::tuple{SIGTERM, "SIGTERM", "--worker"}}) {
    SCOPED_TRACE(name);
    const fs::path tmp = dir / (std::string("tmp-") + name),
                   pids = dir / (std::string(name) + ".pid");
    fs::create_directories(tmp);
    // The implementation leaves a grandchild in its process group, and hangs.
    const std::string impl = "sh -c 'sleep 60 & echo $! > " + pids.string() + "; wait'";
    const pid_t pid =
        spawnOracle({"diff", flag, impl, "--timeout-ms", "120000"}, dir / "out.txt", tmp);
    for (int i = 0; i < 400 && (!fs::exists(pids) || fs::file_size(pids) == 0); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_TRUE(fs::exists(pids)) << "the implementation did not start";
    ASSERT_FALSE(fs::is_empty(tmp)) << "the work directory exists while it runs";
    ::kill(pid, signal);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "exits, not killed by the signal";
    EXPECT_EQ(WEXITSTATUS(status), 3) << "interrupted before any finding: inconclusive";
    const std::string out = slurp(dir / "out.txt");
    EXPECT_TRUE(contains(out, std::string("interrupted by ") + name + " after 0 of 200 cases"))
        << out;
    EXPECT_TRUE(fs::is_empty(tmp)) << "no temporary directory left behind";
    const pid_t grandchild = std::stoi(slurp(pids));
    for (int i = 0; i < 100 && !dead(grandchild); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_TRUE(dead(grandchild)) << "the implementation's process group is stopped";
  }
}

// An interrupt while the first failure is being shrunk: the failure is reported (exit status 1),
// not lost.
TEST_F(Diff, AnInterruptWhileShrinkingKeepsTheFinding) {
  const fs::path tmp = dir / "tmp", runs = dir / "runs.txt";
  fs::create_directories(tmp);
  // The identity peer, counting its runs: cases 0 to 3 are four runs, case 3 fails, and every
  // later run is one of the shrinker's.
  const std::string impl = "sh -c 'echo run >> " + runs.string() + "; exec " +
                           std::string(LO_PYTHON3) + " " + kPeers +
                           "/identity.py \"$@\"' sh {plan} {out} {mode} {equality}";
  const pid_t pid = spawnOracle({"diff", "--edition", "2026-08", "--impl", impl, "--count", "50",
                                 "--mode", "coalesced", "--equality", "contract"},
                                dir / "out.txt", tmp);
  auto lines = [&] {
    const std::string text = slurp(runs);
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  };
  for (int i = 0; i < 1200 && lines() < 8; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_GE(lines(), 8u) << "the shrinker did not start";
  ::kill(pid, SIGINT);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  const std::string out = slurp(dir / "out.txt");
  EXPECT_EQ(WEXITSTATUS(status), 1) << out;
  EXPECT_TRUE(contains(out, "interrupted by SIGINT")) << out;
  EXPECT_TRUE(contains(out, "1 failure so far")) << out;
  EXPECT_TRUE(contains(out, "case 0003-trusted-external-in-checked-run")) << out;
  EXPECT_TRUE(fs::is_empty(tmp)) << "no temporary directory left behind";
}

// --- A hostile implementation's output -------------------------------------------------------

TEST_F(Diff, OutputMustBeARegularFileReadWithACap) {
  const Broken cases[] = {
      {"fifo", "sh -c 'mkfifo \"$1\"' sh {out}", "{out} is a FIFO, not a regular file; refused"},
      {"dev-zero", "ln -s /dev/zero {out}", "{out} is a symbolic link, not a regular file"},
      {"large-file", "sh -c 'head -c 5000 /dev/zero > \"$1\"' sh {out}",
       "holds 5000 bytes, more than the cap of 4096 (--max-output-bytes); it was not judged"},
      {"large-stdout", "head -c 5000 /dev/zero",
       "wrote more than 4096 bytes to standard output (--max-output-bytes); it was not judged"},
  };
  for (const Broken &b : cases) {
    SCOPED_TRACE(b.name);
    const auto start = std::chrono::steady_clock::now();
    const auto r = seedOracle({"diff", "--impl", b.impl, "--count", "3", "--timeout-ms", "600000",
                               "--max-output-bytes", "4096", "--keep", (dir / b.name).string()});
    EXPECT_EQ(r.code, 1) << r.standardOutput << r.standardError;
    EXPECT_TRUE(contains(r.standardOutput, b.expect)) << r.standardOutput;
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(120))
        << "refused, not waited on for the timeout";
  }
}

// Each case's files are the runner's: an implementation that leaves {plan} a FIFO, read-only, or a
// directory, or {out} a directory, changes nothing for the next case; no step waits on a FIFO.
TEST_F(Diff, TheCaseFilesAreMadeAfreshWhateverTheImplementationLeft) {
  const std::string conforming =
      std::string(LO_PYTHON3) + " " + kPeers + "/conforming.py \"$1\" \"$2\" \"$3\" \"$4\"";
  const Broken cases[] = {
      {"fifo", "rm -f \"$1\"; mkfifo \"$1\"", ""},
      {"read-only", "chmod 0444 \"$1\"", ""},
      {"directory", "rm -f \"$1\"; mkdir -p \"$1/sub\"", ""},
  };
  for (const Broken &b : cases) {
    SCOPED_TRACE(b.name);
    const auto start = std::chrono::steady_clock::now();
    const auto r = seedOracle(
        {"diff", "--impl",
         "sh -c '" + conforming + " && " + b.impl + "' sh {plan} {out} {mode} {equality}",
         "--count", "6", "--timeout-ms", "20000"},
        std::chrono::seconds(100));
    EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
    EXPECT_TRUE(contains(r.standardOutput, "all 6 cases conform")) << r.standardOutput;
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(90));
  }
}

// Standard output is judged whole up to the cap: an output of 2 MB (2 MB of white space, then
// the conforming JSON) conforms, where a fixed 1 MiB cut would have judged white space only. It
// is judged in a forked child (above 256 KiB); with a cap below its size it is a finding.
TEST_F(Diff, LargeStandardOutputIsJudgedWhole) {
  const std::string impl = "sh -c '{ head -c 2000000 /dev/zero | tr \"\\0\" \" \"; " +
                           std::string(LO_PYTHON3) + " " + kPeers +
                           "/conforming.py \"$1\" /dev/stdout; }' sh {plan}";
  // The implementation lowers coalesced/contract whatever it is asked: pinned to that lowering.
  const auto r = seedOracle({"diff", "--impl", impl, "--count", "12", "--mode", "coalesced"});
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
  const auto capped = seedOracle({"diff", "--impl", impl, "--count", "12", "--mode", "coalesced",
                                  "--max-output-bytes", "1048576", "--keep", (dir / "k").string()});
  EXPECT_EQ(capped.code, 1) << capped.standardOutput << capped.standardError;
  EXPECT_TRUE(contains(capped.standardOutput, "wrote more than 1048576 bytes to standard output"))
      << capped.standardOutput;
}

TEST_F(Diff, TheLargestTimeoutIsAcceptedAndDoesNotOverflow) {
  // --timeout-ms is capped at one day (tools/cli/options.hpp); at the cap the deadline
  // arithmetic must not overflow into a false timeout.
  const auto r = seedOracle(
      {"diff", "--impl", peer("conforming.py"), "--count", "12", "--timeout-ms", "86400000"});
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
}

// A finding whose files cannot be written (a full disk, a read-only directory) is still a finding:
// its line is printed, saying why it was not saved, and the exit status stays 1.
TEST_F(Diff, AFindingIsReportedWhenItsFilesCannotBeWritten) {
  // A directory an earlier run wrote (it has the marker), whose plan.json was made read-only.
  fs::create_directories(dir / "read-only");
  std::ofstream(dir / "read-only" / ".lowering-oracle-output") << "";
  std::ofstream(dir / "read-only" / "plan.json") << "{}";
  fs::permissions(dir / "read-only" / "plan.json", fs::perms::owner_read);
  std::ofstream(dir / "file") << "x";
  for (const fs::path &keep : {dir / "read-only", dir / "file" / "sub"}) {
    SCOPED_TRACE(keep);
    const auto r = seedOracle({"diff", "--impl", peer("identity.py"), "--count", "40", "--mode",
                               "coalesced", "--keep", keep.string()});
    EXPECT_EQ(r.code, 1) << r.standardOutput << r.standardError;
    EXPECT_TRUE(contains(r.standardOutput, "(seed 1, mode coalesced, equality contract) fails; "
                                           "minimal case 2 nodes: capsule: "))
        << r.standardOutput;
    EXPECT_TRUE(contains(r.standardOutput, "; not saved: ")) << r.standardOutput;
  }
  EXPECT_EQ(slurp(dir / "read-only" / "plan.json"), "{}");
  // A directory of files this tool did not write is refused before any run (exit 2).
  const auto proc = seedOracle({"diff", "--impl", peer("identity.py"), "--count", "40", "--mode",
                                "coalesced", "--keep", "/proc/self/fdinfo"});
  EXPECT_EQ(proc.code, 2) << proc.standardOutput << proc.standardError;
  EXPECT_TRUE(contains(proc.standardError, "was not written by lowering-oracle"))
      << proc.standardError;
}

TEST_F(Diff, KeepOnAnExistingFileIsRefusedBeforeAnyRun) {
  const fs::path file = dir / "notes.txt";
  std::ofstream(file) << "precious";
  const auto r =
      seedOracle({"diff", "--impl", peer("identity.py"), "--count", "20", "--keep", file.string()});
  EXPECT_EQ(r.code, 2) << r.standardOutput;
  EXPECT_TRUE(contains(r.standardError, "exists and is not a directory")) << r.standardError;
  EXPECT_EQ(slurp(file), "precious");
  // An existing directory is used as it is.
  fs::create_directories(dir / "existing");
  const auto again = seedOracle({"diff", "--impl", peer("identity.py"), "--count", "40", "--mode",
                                 "coalesced", "--keep", (dir / "existing").string()});
  EXPECT_EQ(again.code, 1) << again.standardOutput << again.standardError;
  EXPECT_TRUE(fs::exists(dir / "existing" / "plan.json"));
}

} // namespace
} // namespace lo::testing
