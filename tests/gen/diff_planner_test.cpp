// `diff --planner` (docs/spec.md §4.3, "diff"): the generated selection cases, their documents read
// back as written, the shrinker's node removal, and the real binary against the Python planner of
// tests/peers/planner.py, conforming and with each of its mutants.
#include "ref/io/graph_reader.hpp"
#include "ref/io/graph_writer.hpp"
#include "ref/io/source.hpp"
#include "tests/campaign.hpp"
#include "tests/cli_run.hpp"
#include "tools/diff/selection_shrink.hpp"
#include "tools/plans/selection_cases.hpp"
#include "tools/system/spawn.hpp"

#include <map>
#include <regex>

namespace lo::testing {
namespace {

const std::string kPlanner =
    std::string(LO_PYTHON3) + " " + LO_PEERS_DIR + "/planner.py {graph} {profile} {out}";

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

plans::SelectionCase caseOf(Interner &interner, std::uint64_t seed, Edition e) {
  plans::Rng rng(seed);
  return plans::randomSelectionCase(interner, rng, plans::SelectionKnobs{24, e});
}

// Every drawn case, in every edition with selection, reads back as it was written.
TEST(SelectionCases, DocumentsReadBackAsWritten) {
  for (Edition e : valuesOf<Edition>(kNewestEdition)) {
    if (!selection::hasSelection(e))
      continue;
    for (std::uint64_t seed = 0; seed < 150; ++seed) {
      SCOPED_TRACE("edition " + std::string(spelling(e)) + ", seed " + std::to_string(seed));
      Interner interner;
      const plans::SelectionCase c = caseOf(interner, seed, e);
      const selection::Graph g =
          io::readGraph(io::sourceFromString("g", io::graphJson(c.graph, interner)), interner, e);
      ASSERT_EQ(g.nodes.size(), c.graph.nodes.size());
      for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        EXPECT_EQ(g.nodes[i].id, c.graph.nodes[i].id);
        EXPECT_EQ(g.nodes[i].parents, c.graph.nodes[i].parents);
        EXPECT_EQ(g.nodes[i].kind, c.graph.nodes[i].kind); // interned: the same kind
        EXPECT_EQ(g.nodes[i].op, c.graph.nodes[i].op);
      }
      const selection::BackendProfile p =
          io::readProfile(io::sourceFromString("p", io::profileJson(c.profile, e)), e);
      EXPECT_EQ(p.name, c.profile.name);
      EXPECT_EQ(p.policy, c.profile.policy);
      EXPECT_EQ(p.availability, c.profile.availability);
      EXPECT_EQ(p.capsuleModules, c.profile.capsuleModules);
    }
  }
}

// The draws reach what a planner gets wrong (tools/plans/selection_cases.hpp): most cases plan,
// some fail for each of selection's reasons, and the capsules are refused for each reason.
TEST(SelectionCases, ReachEveryRefusalAndEveryFailure) {
  std::size_t planned = 0, noCapsule = 0, duplicate = 0, illFormed = 0;
  std::map<Refusal, std::size_t> refusals;
  constexpr std::size_t kCases = 400;
  for (std::uint64_t seed = 0; seed < kCases; ++seed) {
    Interner interner;
    const plans::SelectionCase c = caseOf(interner, seed, kNewestEdition);
    std::vector<KernelCapsule> registry;
    const selection::SelectionResult r = selection::planGraphNodes(c.profile, c.graph, registry);
    planned += r.ok();
    if (!r.ok()) {
      noCapsule += contains(*r.error, "no admissible kernel capsule");
      duplicate += contains(*r.error, "duplicate backend capsule");
      illFormed += contains(*r.error, "IR graph");
    }
    for (const KernelCapsule &k : registry)
      for (Refusal why : valuesOf<Refusal>(kNewestEdition))
        if (why != Refusal::otherOp &&
            (selection::refusals(c.profile.policy, c.profile.availability, k.op, k) &
             selection::refusalBit(why)))
          ++refusals[why];
  }
  EXPECT_GT(planned, kCases / 2) << "most cases plan";
  EXPECT_LT(planned, kCases * 9 / 10) << "and a tenth or more fail";
  EXPECT_GT(noCapsule, 0u);
  EXPECT_GT(duplicate, 0u);
  EXPECT_GT(illFormed, 0u);
  for (Refusal why : valuesOf<Refusal>(kNewestEdition))
    if (why != Refusal::otherOp) {
      EXPECT_GT(refusals[why], 0u) << spelling(why);
    }
}

TEST(SelectionCases, WithoutNodesRenumbersAndDropsParents) {
  selection::Graph g;
  for (NodeId i = 0; i < 5; ++i)
    g.nodes.push_back({i, i == 0 ? NodeIdList{} : NodeIdList{0, i - 1}, {}, {}});
  const selection::Graph out = diff::withoutNodes(g, {1, 2});
  ASSERT_EQ(out.nodes.size(), 3u);
  EXPECT_EQ(out.nodes[1].id, 1u);
  EXPECT_EQ(out.nodes[1].parents, (std::vector<NodeId>{0})) << "node 3's parent 2 went";
  EXPECT_EQ(out.nodes[2].id, 2u);
  EXPECT_EQ(out.nodes[2].parents, (std::vector<NodeId>{0, 1})) << "node 4's parent 3 is now 1";
}

using DiffPlanner = TempDir;

TEST_F(DiffPlanner, TheConformingPlannerAndTheOraclesOwnPlanPass) {
  const std::string count = std::to_string(instance(12, 200));
  const auto python = oracle({"diff", "--planner", kPlanner, "--count", count});
  EXPECT_EQ(python.code, 0) << python.standardOutput << python.standardError;
  EXPECT_TRUE(contains(python.standardOutput, "all " + count + " cases conform (planner"))
      << python.standardOutput;
  const std::string own =
      std::string(LO_ORACLE_BINARY) + " plan {graph} --profile-file {profile} --edition 2026-09";
  const auto r =
      oracle({"diff", "--planner", own, "--count", count, "--edition", "2026-09", "--seed", "7"});
  EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
  EXPECT_TRUE(std::regex_search(r.standardOutput, std::regex(R"(\d+ planned, \d+ failing as)")))
      << r.standardOutput;
}

// Each wrong planner is caught at diff's defaults, shrunk to a node or two, and saved so that
// `check-plan` repeats the finding from the saved files.
TEST_F(DiffPlanner, EachMutantIsCaughtShrunkAndSaved) {
  struct Mutant {
    std::string name, finding;
  };
  const Mutant mutants[] = {
      {"skip-preference", "selection.preference-ignored"},
      {"ignore-availability", "selection.plan-where-error"},
      // A trusted-external capsule chosen where another is eligible, or where none is.
      {"preference-overrides-trust", "selection.(not-admissible|plan-where-error)"},
      {"plans-input", "has no runtime work and is never planned"},
      {"last-eligible", "selection.earlier-passed-over"},
  };
  // The mutants are planner.py's, each once (its MUTANTS, in its order).
  system::Options options;
  options.captureStdout = true;
  const system::Result listed = system::run(
      {LO_PYTHON3, "-c",
       "import sys; sys.path.insert(0, sys.argv[1]); import planner; print(*planner.MUTANTS)",
       LO_PEERS_DIR},
      options);
  std::string names;
  for (const Mutant &m : mutants)
    names += (names.empty() ? "" : " ") + m.name;
  EXPECT_EQ(listed.standardOutput, names + "\n") << listed.standardError;
  for (const Mutant &m : mutants) {
    SCOPED_TRACE(m.name);
    const fs::path keep = dir / m.name;
    const auto r = oracle({"diff", "--planner", kPlanner + " " + m.name, "--keep", keep.string()});
    EXPECT_EQ(r.code, 1) << r.standardOutput << r.standardError;
    const std::regex finding(m.finding);
    EXPECT_TRUE(std::regex_search(r.standardOutput, finding)) << r.standardOutput;
    std::smatch nodes;
    ASSERT_TRUE(
        std::regex_search(r.standardOutput, nodes, std::regex(R"(minimal case (\d+) node)")))
        << r.standardOutput;
    EXPECT_LE(std::stoul(nodes[1]), 2u) << r.standardOutput;
    for (const char *file : {"graph.json", "profile.json", "output.json", "original-graph.json",
                             "original-profile.json", "report.txt", "stderr.txt"})
      EXPECT_TRUE(fs::exists(keep / file)) << file;
    const std::string report = slurp(keep / "report.txt");
    EXPECT_TRUE(std::regex_search(report, finding)) << report;
    if (contains(m.finding, "selection.")) {
      const std::string page = slurp(keep / "report.html");
      EXPECT_TRUE(contains(page, "<span class=\"check\">selection.")) << "report.html";
      const auto again =
          oracle({"check-plan", (keep / "graph.json").string(), (keep / "output.json").string(),
                  "--profile-file", (keep / "profile.json").string(), "--edition", "2026-10"});
      EXPECT_EQ(again.code, 1) << again.standardOutput << again.standardError;
      EXPECT_TRUE(std::regex_search(again.standardOutput, finding)) << again.standardOutput;
    }
  }
}

TEST_F(DiffPlanner, CrashesGarbageAndUsage) {
  const auto crash = oracle({"diff", "--planner", "/bin/sh -c 'kill -SEGV $$'", "--count", "3"});
  EXPECT_EQ(crash.code, 1) << crash.standardOutput;
  EXPECT_TRUE(contains(crash.standardOutput, "killed by signal 11")) << crash.standardOutput;
  const auto garbage = oracle({"diff", "--planner", "/bin/sh -c 'echo [1,2]'", "--count", "3",
                               "--keep", (dir / "g").string()});
  EXPECT_EQ(garbage.code, 1) << garbage.standardOutput;
  EXPECT_TRUE(contains(garbage.standardOutput, "is not a GraphExecutionPlan"))
      << garbage.standardOutput;
  const auto seed = oracle({"diff", "--planner", kPlanner, "--edition", "2026-08"});
  EXPECT_EQ(seed.code, 2);
  EXPECT_TRUE(contains(seed.standardError, "edition 2026-08 has no selection"))
      << seed.standardError;
  const auto mode = oracle({"diff", "--planner", kPlanner, "--mode", "coalesced"});
  EXPECT_EQ(mode.code, 2);
  EXPECT_TRUE(contains(mode.standardError, "--mode asks a lowering or a gate, not a planner"))
      << mode.standardError;
  const auto both = oracle({"diff", "--planner", kPlanner, "--impl", "true"});
  EXPECT_EQ(both.code, 2);
  const auto missing = oracle({"diff", "--planner", "/nonexistent/planner {graph}"});
  EXPECT_EQ(missing.code, 2) << missing.standardOutput;
}

// A planner started once (docs/conformance.md, "The planner worker protocol") is judged as the
// planner run per case: the conforming one passes, its "error" answer is "selection fails"; a
// mutant is caught and shrunk; a wrong answer or a crash is a finding; and the options exclude
// each other.
TEST_F(DiffPlanner, APlannerWorkerIsJudgedAsThePlanner) {
  const std::string worker = std::string(LO_PYTHON3) + " " + LO_PEERS_DIR + "/planner.py --worker";
  const std::string count = std::to_string(instance(12, 200));
  const auto ok = oracle({"diff", "--planner-worker", worker, "--count", count});
  EXPECT_EQ(ok.code, 0) << ok.standardOutput << ok.standardError;
  EXPECT_TRUE(std::regex_search(
      ok.standardOutput,
      std::regex("all " + count + R"( cases conform \(planner.*, \d+ planned, [1-9]\d* failing)")))
      << ok.standardOutput;
  const fs::path keep = dir / "mutant";
  const auto mutant =
      oracle({"diff", "--planner-worker", worker + " skip-preference", "--keep", keep.string()});
  EXPECT_EQ(mutant.code, 1) << mutant.standardOutput << mutant.standardError;
  EXPECT_TRUE(contains(mutant.standardOutput, "selection.preference-ignored"))
      << mutant.standardOutput;
  EXPECT_TRUE(contains(mutant.standardOutput, "minimal case 1 node")) << mutant.standardOutput;
  EXPECT_TRUE(contains(slurp(keep / "report.txt"), "command: --planner-worker "));
  const auto wrongId =
      oracle({"diff", "--planner-worker",
              "sh -c 'while read -r l; do echo {\\\"id\\\":0,\\\"status\\\":\\\"done\\\"}; done'",
              "--count", "3"});
  EXPECT_EQ(wrongId.code, 1) << wrongId.standardOutput;
  EXPECT_TRUE(contains(wrongId.standardOutput, "does not carry the request's \"id\""))
      << wrongId.standardOutput;
  const auto dies =
      oracle({"diff", "--planner-worker", "sh -c 'read -r l; exit 3'", "--count", "3"});
  EXPECT_EQ(dies.code, 1) << dies.standardOutput;
  EXPECT_TRUE(contains(dies.standardOutput, "exited with status 3")) << dies.standardOutput;
  const auto both = oracle({"diff", "--planner-worker", worker, "--planner", kPlanner});
  EXPECT_EQ(both.code, 2);
  const auto seed = oracle({"diff", "--planner-worker", worker, "--edition", "2026-08"});
  EXPECT_EQ(seed.code, 2);
  EXPECT_TRUE(contains(seed.standardError, "--planner-worker: edition 2026-08 has no selection"))
      << seed.standardError;
}

} // namespace
} // namespace lo::testing

namespace lo::testing {
namespace {

// The generator ends for any source of choices, one that repeats a single answer too (the words
// Hypothesis draws through the Python module: zeros past their end).
TEST(SelectionCases, AnyWordsGiveACase) {
  const std::vector<std::vector<std::uint64_t>> sources = {{},
                                                           std::vector<std::uint64_t>(300, 0),
                                                           std::vector<std::uint64_t>(300, ~0ull),
                                                           std::vector<std::uint64_t>(40, 5)};
  for (const auto &words : sources) {
    Interner interner;
    plans::WordsChoices choices(words);
    const plans::SelectionCase c = plans::randomSelectionCase(interner, choices);
    EXPECT_LE(c.graph.nodes.size(), 24u);
    EXPECT_FALSE(c.profile.capsuleModules.empty());
  }
}

} // namespace
} // namespace lo::testing
