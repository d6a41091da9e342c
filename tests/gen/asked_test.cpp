// What a case asks beyond its lowering (docs/conformance.md, "What is generated"): the audit on a
// share of the cases and a custom policy per case for its gate, the same in `gen`, `verify` and
// `diff`; and what a worker's request carries (the case's exact text).
#include "ref/gate.hpp"
#include "ref/io/gate_writer.hpp"
#include "ref/io/reader.hpp"
#include "ref/lowering.hpp"
#include "tests/cli_run.hpp"
#include "tests/gen/suite_outputs.hpp"
#include "tools/suite/generate.hpp"

#include <simdjson.h>

#include <regex>
#include <set>

namespace lo::testing {
namespace {

/// A suite and its conforming outputs (makeSuite(COUNT)), whose asks each test reads or breaks.
using Asked = SuiteTest;

// Drawn from the seed and the index alone: each seed asks for the audit of about one case in
// four, and the custom policies take every boolean both ways, never a preset's six.
TEST_F(Asked, TheAsksOfACaseComeFromTheSeedAndCoverEveryBoolean) {
  std::size_t audits = 0, cases = 0;
  std::set<std::pair<std::size_t, bool>> seen; // (boolean, value)
  for (std::uint64_t seed : {1, 2, 3}) {
    suite::Settings settings;
    settings.seed = seed;
    settings.edition = test::seed::kEdition; // the seed's asks: the audit and a custom policy
    for (std::size_t i = 0; i < 100; ++i) {
      Interner a, b;
      const suite::Case c = suite::caseAt(a, settings, i), again = suite::caseAt(b, settings, i);
      EXPECT_EQ(c.audit, again.audit);
      EXPECT_EQ(c.customPolicy, again.customPolicy);
      EXPECT_EQ(policyName(c.customPolicy), "custom") << "case " << i << " of seed " << seed;
      for (std::size_t f = 0; f < std::size(kPolicyFlags); ++f)
        seen.insert({f, c.customPolicy.*kPolicyFlags[f].field});
      audits += c.audit;
      ++cases;
    }
  }
  EXPECT_EQ(seen.size(), 2 * std::size(kPolicyFlags)) << "every boolean both ways";
  EXPECT_GT(audits, cases / 8);
  EXPECT_LT(audits, cases / 2);
}

// A manifest entry with "audit": true asks for the audit: an output without it does not conform
// (check `audit`, at /audit); the expected output, which carries it, does.
TEST_F(Asked, AnEntryThatAsksForTheAuditFailsWithoutOne) {
  makeSuite(12);
  simdjson::dom::parser parser;
  simdjson::dom::element manifest = parser.load((suite / "manifest.json").string());
  std::string name, plan, mode, equality;
  std::size_t asked = 0;
  for (simdjson::dom::element e : manifest["cases"].get_array()) {
    bool audit = false;
    ASSERT_EQ(e["audit"].get(audit), simdjson::SUCCESS);
    if (!audit || asked++)
      continue;
    name = std::string(e["case"].get_string().value());
    plan = std::string(e["files"]["plan"].get_string().value());
    mode = std::string(e["mode"].get_string().value());
    equality = std::string(e["equality"].get_string().value());
  }
  ASSERT_GT(asked, 0u) << "no case of seed 1 asks for the audit";
  auto r = verify();
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
  // The same lowering without its audit.
  const fs::path output = outputs / (name + "-" + mode + "-" + equality + ".json");
  r = seedOracle({"lower", (suite / plan).string(), "--mode", mode, "--equality", equality, "-o",
                  output.string()});
  ASSERT_EQ(r.code, 0) << r.standardError;
  r = verify();
  EXPECT_EQ(r.code, 1) << r.standardOutput;
  EXPECT_NE(r.standardOutput.find(output.filename().string() +
                                  ": /audit: audit: the audit was asked for, but the candidate "
                                  "carries none"),
            std::string::npos)
      << r.standardOutput;
  EXPECT_NE(r.standardOutput.find("1 does not conform"), std::string::npos) << r.standardOutput;
  // `check --audit` judges the one output as verify does; without it the audit is not asked.
  const std::vector<std::string> checkOne{
      "check", (suite / plan).string(), output.string(), "--mode", mode, "--equality", equality};
  EXPECT_EQ(seedOracle(checkOne).code, 0);
  std::vector<std::string> withAudit = checkOne;
  withAudit.push_back("--audit");
  r = seedOracle(withAudit);
  EXPECT_EQ(r.code, 1) << r.standardOutput;
  EXPECT_NE(r.standardOutput.find("/audit: audit: the audit was asked for"), std::string::npos)
      << r.standardOutput;
}

// verify --gates judges each custom entry under its own booleans: the gate results of a gate that
// ignores requireEvidence (the custom policy's booleans, the failures of requireEvidence true)
// fail exactly where a custom policy leaves requireEvidence out and the plan misses evidence.
TEST_F(Asked, VerifyJudgesACustomGateEntryUnderItsBooleans) {
  makeSuite(24);
  suite::Settings settings; // gen's defaults, as makeSuite wrote them
  settings.edition = test::seed::kEdition;
  std::set<std::string> changed;
  for (std::size_t i = 0; i < 24; ++i) {
    Interner interner;
    const suite::Case c = suite::caseAt(interner, settings, i);
    const std::string label = suite::caseLabel(i, c);
    const GraphLoweringPlan lowering = lower(interner, c.plan, Mode::coalesced, Equality::contract);
    AssurancePolicy ignoring = c.customPolicy;
    ignoring.requireEvidence = true;
    const std::string wrong =
        io::gateResultJson(c.customPolicy, gate(interner, ignoring, lowering));
    const fs::path output = outputs / (label + "-gate-custom.json");
    if (wrong != slurp(output)) {
      write(output, wrong);
      changed.insert(output.filename().string());
    }
  }
  ASSERT_FALSE(changed.empty()) << "no custom policy of seed 1 tells requireEvidence";
  const auto r = verify({"--gates"});
  EXPECT_EQ(r.code, 1) << r.standardOutput;
  std::set<std::string> failing;
  const std::regex line("^([^:\\n]*\\.json): /[^ ]*: gate: under policy custom ");
  std::istringstream lines(r.standardOutput);
  for (std::string l; std::getline(lines, l);) {
    std::smatch m;
    if (std::regex_search(l, m, line))
      failing.insert(m[1]);
  }
  EXPECT_EQ(failing, changed) << r.standardOutput;
  EXPECT_NE(
      r.standardOutput.find("custom 24 (" + std::to_string(24 - changed.size()) + " conform)"),
      std::string::npos)
      << r.standardOutput;
}

// diff asks --impl for the audit through {audit}: without it nothing is asked (and --audit is
// refused); an implementation that ignores {audit} is caught at diff's defaults, and with
// --audit on the first case.
TEST_F(Asked, DiffAsksForTheAuditThroughItsPlaceholder) {
  const std::string peer = std::string(LO_PYTHON3) + " " + LO_PEERS_DIR +
                           "/conforming.py {plan} {out} {mode} {equality}";
  auto r = seedOracle({"diff", "--impl", peer + " {audit}", "--count", "16"});
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
  EXPECT_NE(r.standardOutput.find("the audit asked of 1 case in 4"), std::string::npos)
      << r.standardOutput;
  r = seedOracle({"diff", "--impl", peer, "--count", "12"});
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
  EXPECT_EQ(r.standardOutput.find("audit asked"), std::string::npos) << r.standardOutput;
  r = seedOracle({"diff", "--impl", peer, "--audit"});
  EXPECT_EQ(r.code, 2) << r.standardOutput;
  EXPECT_NE(r.standardError.find("--audit: the --impl command must name {audit}"),
            std::string::npos)
      << r.standardError;
  // An implementation that is told but never writes the audit.
  const std::string ignoring =
      "sh -c '" + std::string(LO_PYTHON3) + " " + LO_PEERS_DIR +
      "/conforming.py \"$1\" \"$2\" \"$3\" \"$4\"' sh {plan} {out} {mode} {equality} {audit}";
  r = seedOracle({"diff", "--impl", ignoring, "--keep", (dir / "k").string()});
  EXPECT_EQ(r.code, 1) << r.standardOutput;
  EXPECT_NE(r.standardOutput.find("audit asked) fails; minimal case"), std::string::npos)
      << r.standardOutput;
  EXPECT_NE(r.standardOutput.find("audit: the audit was asked for, but the candidate carries none"),
            std::string::npos)
      << r.standardOutput;
  r = seedOracle({"diff", "--impl", ignoring, "--audit", "--count", "1"});
  EXPECT_EQ(r.code, 1) << r.standardOutput;
  EXPECT_NE(r.standardOutput.find("case 0000-empty-plan"), std::string::npos) << r.standardOutput;
  EXPECT_EQ(seedOracle({"diff", "--gate", "true", "--audit"}).code, 2) << "a gate has no audit";
}

// diff --gate tells a custom policy only to a command that names the six booleans' placeholders;
// --policy custom asks for it alone.
TEST_F(Asked, DiffGateAsksForCustomPoliciesWhenItCanTellThem) {
  const std::string gate = std::string(LO_PYTHON3) + " " + LO_PEERS_DIR +
                           "/gate.py {plan} --policy {policy} --mode {mode} --equality {equality}";
  const std::string booleans =
      " --allow-checked {allowChecked} --allow-fuzzed {allowFuzzed} --allow-trusted-external "
      "{allowTrustedExternal} --require-evidence {requireEvidence} --allow-runtime-guards "
      "{allowRuntimeGuards} --allow-test-evidence {allowTestEvidence}";
  auto r = seedOracle({"diff", "--gate", gate + booleans, "--count", "16", "--policy", "custom"});
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
  EXPECT_NE(r.standardOutput.find("gate of policy custom, seed 1, 16 runs"), std::string::npos)
      << r.standardOutput;
  r = seedOracle({"diff", "--gate", gate, "--policy", "custom"});
  EXPECT_EQ(r.code, 2) << r.standardOutput;
  EXPECT_NE(r.standardError.find("--policy custom: the --gate command must name"),
            std::string::npos)
      << r.standardError;
  EXPECT_EQ(seedOracle({"diff", "--impl", "true", "--policy", "checked"}).code, 2);
}

// docs/conformance.md, "The gate worker protocol": one process answers every case and policy,
// its answers judged as --gate's results; a lowering is no gate result, a crash is a finding.
TEST_F(Asked, AGateWorkerIsJudgedAsAGateFromOneProcess) {
  const std::string py = std::string(LO_PYTHON3) + " " + LO_PEERS_DIR;
  auto r = seedOracle({"diff", "--gate-worker", py + "/gate_worker.py", "--count", "20", "--all"});
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
  EXPECT_NE(r.standardOutput.find("gates of policies verified, checked, external, custom, seed 1, "
                                  "320 runs"),
            std::string::npos)
      << r.standardOutput;
  EXPECT_NE(r.standardOutput.find("1 start of the implementation"), std::string::npos);
  r = seedOracle(
      {"diff", "--gate-worker", py + "/worker.py", "--count", "2", "--keep", (dir / "k").string()});
  EXPECT_EQ(r.code, 1) << r.standardOutput;
  EXPECT_NE(r.standardOutput.find("the implementation wrote an invalid gate result: "),
            std::string::npos)
      << r.standardOutput;
  EXPECT_TRUE(fs::exists(dir / "k" / "expected.json")) << "the reference gate result is saved";
  r = seedOracle({"diff", "--gate-worker", "sh -c 'read l; exit 4'", "--count", "1", "--keep",
                  (dir / "k2").string()});
  EXPECT_EQ(r.code, 1) << r.standardOutput;
  EXPECT_NE(r.standardOutput.find("the worker exited with status 4 without answering"),
            std::string::npos)
      << r.standardOutput;
  EXPECT_EQ(seedOracle({"diff", "--gate-worker", "true", "--gate", "true"}).code, 2);
  EXPECT_EQ(seedOracle({"diff", "--gate-worker", "true", "--worker", "true"}).code, 2);
}

// docs/conformance.md, "The worker protocol": `planText` is the plan file byte for byte, and
// `inline` the same bytes with each line break a space.
TEST_F(Asked, EveryRequestCarriesTheCasesExactText) {
  const fs::path script = dir / "text_worker.py";
  std::ofstream(script)
      << "import json, sys\n"
         "sys.path.insert(0, '"
      << LO_PEERS_DIR
      << "')\n"
         "import conforming\n"
         "log = open(sys.argv[1], 'a')\n"
         "for line in sys.stdin:\n"
         "    r = json.loads(line)\n"
         "    text = open(r['plan'], encoding='utf-8', newline='').read()\n"
         "    raw = line.rstrip('\\n')[line.index(',\"inline\":') + len(',\"inline\":'):-1]\n"
         "    ok = (r['planText'] == text and\n"
         "          raw == text.replace('\\n', ' ').replace('\\r', ' '))\n"
         "    log.write('%s %s %s\\n' % (ok, '\\\\/' in raw, '\\\\u' in raw))\n"
         "    log.flush()  # the worker is killed at the end of the run\n"
         "    same = (conforming.same_identity if r['equality'] == 'identity'\n"
         "            else conforming.same_contract)\n"
         "    groups = conforming.lower(r['inline'], r['mode'], same)\n"
         "    conforming.write(groups, r['mode'], r['equality'], r['out'], r['audit'])\n"
         "    print(json.dumps({'id': r['id'], 'status': 'done'}), flush=True)\n";
  const auto r =
      seedOracle({"diff", "--worker",
                  std::string(LO_PYTHON3) + " " + script.string() + " " + (dir / "log").string(),
                  "--count", "40"});
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
  std::ifstream log(dir / "log");
  std::size_t lines = 0, solidus = 0, unicode = 0;
  for (std::string ok, s, u; log >> ok >> s >> u; ++lines) {
    EXPECT_EQ(ok, "True") << "request " << lines + 1;
    solidus += s == "True";
    unicode += u == "True";
  }
  EXPECT_EQ(lines, 40u);
  EXPECT_GT(solidus, 0u) << "no request carried the escape \\/";
  EXPECT_GT(unicode, 0u) << "no request carried a \\u escape";
}

} // namespace
} // namespace lo::testing
