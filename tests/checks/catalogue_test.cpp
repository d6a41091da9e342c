// The catalogue of hand-written wrong candidates: each is a reference output with one thing
// broken, and must be flagged with exactly the expected check (and the expected number of
// violations), nothing else.
#include "fixtures.hpp"
#include "tests/seed.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

namespace lo::checks::testing {
namespace {

struct Case {
  std::string name;
  std::function<void(io::LoweringDocument &)> mutate;
  Check expected;
  std::size_t count = 1;
  /// The wrong capsule also hides a trusted-external node's boundary from the audit: one more
  /// finding, by trust-boundary (the consequence an auditor must see).
  bool hidesBoundary = false;
  /// The mistake also changes the gate (docs/spec.md §6): one more finding, by gate (what it
  /// means for a deployment decision).
  bool changesGate = false;
};

// --- Mutations of a lowering ------------------------------------------------------------------

std::size_t groupOf(const GraphLoweringPlan &p, NodeId id) {
  for (std::size_t g = 0; g < p.groups.size(); ++g)
    for (NodeId n : p.groups[g].nodeIds)
      if (n == id)
        return g;
  ADD_FAILURE() << "node " << id << " is in no group";
  return 0;
}

void fixGroupingKind(LoweredKernelGroup &g) {
  g.groupingKind = g.nodeIds.size() == 1 ? GroupingKind::singleton : GroupingKind::sameCapsuleRun;
}

void dropNode(io::LoweringDocument &d, NodeId id) {
  auto &groups = d.plan.groups;
  const std::size_t g = groupOf(d.plan, id);
  auto &grp = groups[g];
  const auto at = std::find(grp.nodeIds.begin(), grp.nodeIds.end(), id) - grp.nodeIds.begin();
  grp.nodeIds.erase(grp.nodeIds.begin() + at);
  grp.kinds.erase(grp.kinds.begin() + at);
  if (grp.nodeIds.empty())
    groups.erase(groups.begin() + static_cast<std::ptrdiff_t>(g));
  else
    fixGroupingKind(grp);
}

/// Moves the group of `id` into the group before it (kinds and groupingKind kept consistent).
void mergeIntoPrevious(io::LoweringDocument &d, NodeId id) {
  auto &groups = d.plan.groups;
  const std::size_t g = groupOf(d.plan, id);
  auto &prev = groups[g - 1];
  prev.nodeIds.insert(prev.nodeIds.end(), groups[g].nodeIds.begin(), groups[g].nodeIds.end());
  prev.kinds.insert(prev.kinds.end(), groups[g].kinds.begin(), groups[g].kinds.end());
  fixGroupingKind(prev);
  groups.erase(groups.begin() + static_cast<std::ptrdiff_t>(g));
}

/// Splits the group of `id` so that `id` starts a new group (with its own capsule).
void splitAt(const GraphExecutionPlan &plan, io::LoweringDocument &d, NodeId id) {
  auto &groups = d.plan.groups;
  const std::size_t g = groupOf(d.plan, id);
  auto &grp = groups[g];
  const auto at = std::find(grp.nodeIds.begin(), grp.nodeIds.end(), id) - grp.nodeIds.begin();
  LoweredKernelGroup tail{{grp.nodeIds.begin() + at, grp.nodeIds.end()},
                          {grp.kinds.begin() + at, grp.kinds.end()},
                          grp.op,
                          grp.capsule,
                          GroupingKind::singleton};
  for (const auto &k : plan.kernels)
    if (k.nodeId == id)
      tail.capsule = k.capsule;
  grp.nodeIds.erase(grp.nodeIds.begin() + at, grp.nodeIds.end());
  grp.kinds.erase(grp.kinds.begin() + at, grp.kinds.end());
  fixGroupingKind(grp);
  fixGroupingKind(tail);
  groups.insert(groups.begin() + static_cast<std::ptrdiff_t>(g) + 1, std::move(tail));
}

/// Replaces the audit row of the group of `id` by `edit(row)`, keeping the views consistent
/// with the rows (a tool that forges its audit consistently).
void editAuditRow(Interner &in, io::LoweringDocument &d, NodeId id,
                  const std::function<void(KernelCapsule &)> &edit) {
  ASSERT_TRUE(d.audit);
  const std::size_t g = groupOf(d.plan, id);
  KernelCapsule row = in.capsule(d.audit->audit.kernels[g].view);
  edit(row);
  ExecutionAudit rows = d.audit->audit;
  rows.kernels[g] = KernelAudit{in.intern(row)};
  d.audit = toDocument(in, rows);
}

// --- The catalogue ----------------------------------------------------------------------------

struct Combination {
  Mode mode;
  Equality equality;
};

std::string comboName(Combination c) {
  return std::string(spelling(c.mode)) + "/" + std::string(spelling(c.equality));
}

class Catalogue : public ::testing::TestWithParam<Combination> {
protected:
  Interner in;
  Alphabet a = alphabet(in);
  GraphExecutionPlan plan = basePlan(a);

  void expectOnly(const Case &c, bool withAudit = false) {
    const Combination combo = GetParam();
    io::LoweringDocument d = referenceDocument(in, plan, combo.mode, combo.equality, withAudit);
    c.mutate(d);
    const Report r = check(in, plan, d, lo::test::seed::options(combo.mode, combo.equality, 20));
    std::set<Check> expected{c.expected};
    if (c.hidesBoundary)
      expected.insert(Check::trustBoundary);
    if (c.changesGate)
      expected.insert(Check::gate);
    EXPECT_EQ(checksOf(r), expected) << c.name << " under " << comboName(combo) << ":\n"
                                     << describe(r);
    EXPECT_EQ(r.violations.size(), c.count + (c.hidesBoundary ? 1 : 0) + (c.changesGate ? 1 : 0))
        << c.name << ":\n"
        << describe(r);
    for (const auto &v : r.violations) {
      EXPECT_FALSE(v.message.empty());
      EXPECT_EQ(v.pointer.rfind('/', 0), 0u) << v.pointer;
      EXPECT_TRUE(v.message.find('\n') == std::string::npos) << "one sentence: " << v.message;
    }
  }
  bool coalesced() const { return GetParam().mode == Mode::coalesced; }
  bool identity() const { return GetParam().equality == Equality::identity; }
};

TEST_P(Catalogue, ReferencePasses) {
  for (bool withAudit : {false, true}) {
    const auto d = referenceDocument(in, plan, GetParam().mode, GetParam().equality, withAudit);
    const Report r =
        check(in, plan, d, lo::test::seed::options(GetParam().mode, GetParam().equality, 20));
    EXPECT_TRUE(r.conforms()) << describe(r);
  }
}

TEST_P(Catalogue, DroppedNode) {
  expectOnly({"drop a singleton group's node", [&](auto &d) { dropNode(d, 5); }, Check::provenance,
              1, false, true});
  expectOnly(
      {"drop the last node", [&](auto &d) { dropNode(d, 9); }, Check::provenance, 1, false, true});
  // Node 2 is inside a run in mode coalesced: the run shrinks, and nothing else is reported.
  expectOnly({"drop a node inside a run", [&](auto &d) { dropNode(d, 2); }, Check::provenance});
}

TEST_P(Catalogue, ExtraNode) {
  expectOnly(
      {"a node the plan lacks",
       [&](auto &d) {
         d.plan.groups.push_back({{99}, {a.relu}, BackendOp::relu, a.R, GroupingKind::singleton});
       },
       Check::provenance});
}

TEST_P(Catalogue, RepeatedNode) {
  expectOnly({"a group listed twice",
              [&](auto &d) {
                const std::size_t g = groupOf(d.plan, 5);
                d.plan.groups.insert(d.plan.groups.begin() + static_cast<std::ptrdiff_t>(g),
                                     d.plan.groups[g]);
              },
              Check::provenance});
}

TEST_P(Catalogue, RepeatedAndMissing) {
  // Node 5 listed where node 4 should be: one repeated id and one missing id.
  expectOnly({"a node replaced by its neighbour",
              [&](auto &d) {
                auto &g = d.plan.groups[groupOf(d.plan, 4)];
                g = d.plan.groups[groupOf(d.plan, 5)];
              },
              Check::provenance, 2, false, true});
}

TEST_P(Catalogue, GroupsSwapped) {
  expectOnly({"two groups swapped",
              [&](auto &d) {
                std::swap(d.plan.groups[groupOf(d.plan, 4)], d.plan.groups[groupOf(d.plan, 5)]);
              },
              Check::order});
  expectOnly({"first and last groups swapped",
              [&](auto &d) { std::swap(d.plan.groups.front(), d.plan.groups.back()); },
              Check::order, 2});
}

TEST_P(Catalogue, NodesSwappedInsideAGroup) {
  if (!coalesced())
    GTEST_SKIP() << "groups of one node in mode singleton";
  expectOnly({"reshape and flatten swapped inside their group",
              [&](auto &d) {
                auto &g = d.plan.groups[groupOf(d.plan, 6)];
                std::swap(g.nodeIds[0], g.nodeIds[1]);
                std::swap(g.kinds[0], g.kinds[1]);
              },
              Check::order});
}

TEST_P(Catalogue, GroupSplitInTwo) {
  if (!coalesced())
    GTEST_SKIP() << "maximal applies in mode coalesced";
  expectOnly({"a run split in two", [&](auto &d) { splitAt(plan, d, 7); }, Check::maximal});
  expectOnly(
      {"the leading run split in two", [&](auto &d) { splitAt(plan, d, 2); }, Check::maximal});
  if (identity())
    expectOnly({"identity run split at the contract boundary",
                [&](auto &d) { splitAt(plan, d, 3); }, Check::maximal});
}

TEST_P(Catalogue, MergedAcrossCapsules) {
  // Node 4 (cudnn.relu) merged into the group before it (reference.relu).
  expectOnly({"merged across different capsules", [&](auto &d) { mergeIntoPrevious(d, 4); },
              coalesced() ? Check::capsule : Check::singleton, 1, false, true});
}

TEST_P(Catalogue, MergedAcrossContracts) {
  if (identity() && coalesced())
    GTEST_SKIP() << "the identity lowering merges node 3 itself";
  // Node 3 (reference.relu, trusted-external) merged into [1, 2] (reference.relu, verified):
  // same identity, different contract.
  expectOnly({"merged across identity-equal, contract-different capsules",
              [&](auto &d) {
                if (coalesced())
                  mergeIntoPrevious(d, 3);
                else {
                  mergeIntoPrevious(d, 3);
                  mergeIntoPrevious(d, 2);
                }
              },
              coalesced() ? Check::capsule : Check::singleton, 1, coalesced()});
}

TEST_P(Catalogue, MergedAcrossOps) {
  expectOnly({"merged across different ops", [&](auto &d) { mergeIntoPrevious(d, 5); },
              coalesced() ? Check::op : Check::singleton, 1, false, true});
}

TEST_P(Catalogue, KindsReversed) {
  if (coalesced())
    expectOnly({"kinds reversed",
                [&](auto &d) {
                  auto &k = d.plan.groups[groupOf(d.plan, 6)].kinds;
                  std::reverse(k.begin(), k.end());
                },
                Check::kinds});
  expectOnly({"a kind replaced",
              [&](auto &d) { d.plan.groups[groupOf(d.plan, 5)].kinds = {a.relu}; }, Check::kinds});
  expectOnly({"a kind missing", [&](auto &d) { d.plan.groups[groupOf(d.plan, 8)].kinds.clear(); },
              Check::kinds});
}

TEST_P(Catalogue, WrongGroupingKind) {
  expectOnly({"singleton group says sameCapsuleRun",
              [&](auto &d) {
                d.plan.groups[groupOf(d.plan, 5)].groupingKind = GroupingKind::sameCapsuleRun;
              },
              Check::groupingKind});
  if (coalesced())
    expectOnly(
        {"run says singleton",
         [&](auto &d) { d.plan.groups[groupOf(d.plan, 1)].groupingKind = GroupingKind::singleton; },
         Check::groupingKind});
}

TEST_P(Catalogue, EmptyGroup) {
  expectOnly({"an empty group inserted",
              [&](auto &d) {
                d.plan.groups.insert(d.plan.groups.begin() + 1,
                                     {{}, {}, BackendOp::relu, a.R, GroupingKind::singleton});
              },
              Check::emptyGroup});
  expectOnly({"an empty group with a stray kind",
              [&](auto &d) {
                d.plan.groups.push_back(
                    {{}, {a.relu}, BackendOp::relu, a.R, GroupingKind::sameCapsuleRun});
              },
              Check::emptyGroup});
}

TEST_P(Catalogue, WrongOp) {
  expectOnly({"a group's op replaced",
              [&](auto &d) { d.plan.groups[groupOf(d.plan, 5)].op = BackendOp::relu; }, Check::op,
              1, false, true});
}

TEST_P(Catalogue, WrongCapsule) {
  expectOnly({"a group's capsule replaced",
              [&](auto &d) { d.plan.groups[groupOf(d.plan, 4)].capsule = a.R; }, Check::capsule, 1,
              false, true});
  expectOnly({"a trusted-external group's capsule replaced",
              [&](auto &d) { d.plan.groups[groupOf(d.plan, 9)].capsule = a.C; }, Check::capsule, 1,
              true, true});
  if (identity() && coalesced())
    expectOnly({"identity group carrying its last node's capsule",
                [&](auto &d) { d.plan.groups[groupOf(d.plan, 1)].capsule = a.Rx; },
                Check::capsule});
}

TEST_P(Catalogue, OtherModesOutput) {
  const Combination combo = GetParam();
  expectOnly({"the other mode's output",
              [&](auto &d) {
                const Mode other = coalesced() ? Mode::singleton : Mode::coalesced;
                d.plan = lower(in, plan, other, combo.equality);
              },
              coalesced() ? Check::maximal : Check::singleton,
              // coalesced: [2] and [7] (and [3] under identity) could join the group before;
              // singleton: [1, 2] (or [1, 2, 3]) and [6, 7] hold several nodes.
              coalesced() && identity() ? 3u : 2u});
}

TEST_P(Catalogue, LoweringUnderTheOtherEqualityIsFlagged) {
  if (!coalesced())
    GTEST_SKIP() << "the equality does not change the singleton lowering";
  expectOnly({"the other equality's output",
              [&](auto &d) {
                d.plan = lower(in, plan, Mode::coalesced,
                               identity() ? Equality::contract : Equality::identity);
              },
              identity() ? Check::maximal : Check::capsule, 1, !identity()});
}

TEST_P(Catalogue, AuditRowChanged) {
  expectOnly({"an audit row's vjpMode changed",
              [&](auto &d) {
                editAuditRow(in, d, 5, [](KernelCapsule &c) { c.vjpMode = VJPMode::backend_vjp; });
              },
              Check::audit},
             true);
  expectOnly({"an audit row's capsule name changed",
              [&](auto &d) { editAuditRow(in, d, 4, [](KernelCapsule &c) { c.name = "x"; }); },
              Check::audit},
             true);
  expectOnly({"an audit row marks a verified capsule trusted-external",
              [&](auto &d) {
                editAuditRow(in, d, 5,
                             [](KernelCapsule &c) { c.trustLevel = TrustLevel::trusted_external; });
              },
              Check::audit},
             true);
}

TEST_P(Catalogue, AuditRowMissing) {
  expectOnly({"an audit row dropped",
              [&](auto &d) {
                ExecutionAudit rows = d.audit->audit;
                rows.kernels.erase(rows.kernels.begin() +
                                   static_cast<std::ptrdiff_t>(groupOf(d.plan, 5)));
                d.audit = toDocument(in, rows);
              },
              Check::audit},
             true);
}

TEST_P(Catalogue, AuditViewsInconsistent) {
  expectOnly({"capsuleNames disagrees with the rows",
              [&](auto &d) { d.audit->capsuleNames.set(0, "somewhere.else"); }, Check::audit},
             true);
  expectOnly({"trustLevels disagrees with the rows",
              [&](auto &d) { d.audit->trustLevels[0] = TrustLevel::fuzzed; }, Check::audit},
             true);
  expectOnly({"the last of capsuleNames disagrees with the rows",
              [&](auto &d) {
                d.audit->capsuleNames.set(d.audit->capsuleNames.size() - 1, "somewhere.else");
              },
              Check::audit},
             true);
  expectOnly({"trustLevels has one entry too many",
              [&](auto &d) { d.audit->trustLevels.push_back(TrustLevel::verified); }, Check::audit},
             true);
  expectOnly({"trustLevels has one entry too few",
              [&](auto &d) { d.audit->trustLevels.erase(d.audit->trustLevels.begin()); },
              Check::audit},
             true);
}

TEST_P(Catalogue, AuditRelabelsTrustedExternal) {
  expectOnly({"an audit that relabels a trusted-external row as checked",
              [&](auto &d) {
                editAuditRow(in, d, 9,
                             [](KernelCapsule &c) { c.trustLevel = TrustLevel::checked; });
              },
              Check::trustBoundary},
             true);
  expectOnly({"hasTrustedExternal false", [&](auto &d) { d.audit->hasTrustedExternal = false; },
              Check::trustBoundary},
             true);
  expectOnly({"trustedExternalOps emptied", [&](auto &d) { d.audit->trustedExternalOps.clear(); },
              Check::trustBoundary},
             true);
  // As long as the rows' list, but another op in place of the trusted-external one: a hidden
  // boundary all the same (docs/spec.md §3.3: a multiset question, not a count).
  expectOnly({"trustedExternalOps names another op instead",
              [&](auto &d) {
                ASSERT_FALSE(d.audit->trustedExternalOps.empty());
                d.audit->trustedExternalOps.back() =
                    d.audit->trustedExternalOps.back() == BackendOp::gelu ? BackendOp::relu
                                                                          : BackendOp::gelu;
              },
              Check::trustBoundary},
             true);
  // An op added, none hidden: an audit finding, not a trust-boundary one.
  expectOnly({"trustedExternalOps adds an op",
              [&](auto &d) { d.audit->trustedExternalOps.push_back(BackendOp::gelu); },
              Check::audit},
             true);
  expectOnly({"trustLevels view hides the row",
              [&](auto &d) { d.audit->trustLevels.back() = TrustLevel::verified; },
              Check::trustBoundary},
             true);
  expectOnly({"a trusted-external row dropped",
              [&](auto &d) {
                ExecutionAudit rows = d.audit->audit;
                rows.kernels.pop_back(); // vendor.relu's row
                d.audit = toDocument(in, rows);
              },
              Check::trustBoundary},
             true);
}

TEST_P(Catalogue, CountsInMessagesAreSingularOrPlural) {
  // "trustedExternalOps lists 1 op", "1 audit row is", never "1 ops" or "1 audit rows are".
  auto messages = [&](const std::function<void(io::LoweringDocument &)> &mutate) {
    io::LoweringDocument d =
        referenceDocument(in, plan, GetParam().mode, GetParam().equality, true);
    mutate(d);
    std::string all;
    for (const auto &v :
         check(in, plan, d, lo::test::seed::options(GetParam().mode, GetParam().equality, 20))
             .violations)
      all += v.message + "\n";
    EXPECT_EQ(all.find(" 1 ops"), std::string::npos) << all;
    EXPECT_EQ(all.find(" 1 audit rows"), std::string::npos) << all;
    return all;
  };
  // The catalogue's plan has two trusted-external ops (one under identity in mode coalesced,
  // whose reference lowering hides one).
  const std::size_t ops = referenceDocument(in, plan, GetParam().mode, GetParam().equality, true)
                              .audit->trustedExternalOps.size();
  ASSERT_GE(ops, 1u);
  const std::string rows =
      std::to_string(ops) + (ops == 1 ? " audit row is" : " audit rows are") + " trusted-external";
  const std::string one =
      messages([](io::LoweringDocument &d) { d.audit->trustedExternalOps.resize(1); });
  if (ops > 1) {
    EXPECT_NE(one.find("trustedExternalOps lists 1 op, but " + rows), std::string::npos) << one;
  }
  // A list that holds the op, but fewer times than the rows, does not "leave it out": the
  // sentence names the op and both counts.
  const io::LoweringDocument reference =
      referenceDocument(in, plan, GetParam().mode, GetParam().equality, true);
  const std::vector<BackendOp> &truth = reference.audit->trustedExternalOps;
  const BackendOp first = truth.front();
  const std::string fewer =
      messages([&](io::LoweringDocument &d) { d.audit->trustedExternalOps.assign(1, first); });
  const auto truthCount = static_cast<std::size_t>(std::count(truth.begin(), truth.end(), first));
  if (truthCount > 1) {
    EXPECT_NE(fewer.find("it lists " + std::string(spelling(first)) +
                         " 1 time, where the rows have it " + std::to_string(truthCount) +
                         " times"),
              std::string::npos)
        << fewer;
  }
  EXPECT_EQ(fewer.find("leaves out " + std::string(spelling(first))), std::string::npos) << fewer;
  const std::string emptied =
      messages([](io::LoweringDocument &d) { d.audit->trustedExternalOps.clear(); });
  EXPECT_NE(emptied.find("trustedExternalOps lists 0 ops, but " + rows), std::string::npos)
      << emptied;
}

INSTANTIATE_TEST_SUITE_P(ModesAndEqualities, Catalogue,
                         ::testing::Values(Combination{Mode::coalesced, Equality::contract},
                                           Combination{Mode::coalesced, Equality::identity},
                                           Combination{Mode::singleton, Equality::contract},
                                           Combination{Mode::singleton, Equality::identity}),
                         [](const auto &info) {
                           return std::string(spelling(info.param.mode)) + "_" +
                                  std::string(spelling(info.param.equality));
                         });

// --- Beyond the catalogue -------------------------------------------------------------------

// Node ids far apart are found through the plan's hashed index, not its direct table: the same
// plan with its ids spread out is judged as with ids 1..n, mistake for mistake.
TEST(Checks, SparseNodeIdsAreJudgedAsDenseOnes) {
  Interner in;
  const Alphabet a = alphabet(in);
  const GraphExecutionPlan dense = basePlan(a);
  const auto far = [](NodeId id) { return id * 1000003 + (NodeId{1} << 40); };
  GraphExecutionPlan sparse = dense;
  for (auto &k : sparse.kernels)
    k.nodeId = far(k.nodeId);
  const auto add = [](io::LoweringDocument &d, std::size_t g, NodeId id) {
    auto &grp = d.plan.groups[g];
    grp.nodeIds.push_back(id);
    grp.kinds.push_back(grp.kinds.back());
    fixGroupingKind(grp);
  };
  using Mutation = std::function<void(io::LoweringDocument &, std::function<NodeId(NodeId)>)>;
  const std::vector<std::pair<std::string, Mutation>> mutations = {
      {"none", [](auto &, auto) {}},
      {"drop node 5", [](auto &d, auto id) { dropNode(d, id(5)); }},
      {"an id the plan lacks", [&](auto &d, auto id) { add(d, 0, id(1000)); }},
      {"node 2 twice", [&](auto &d, auto id) { add(d, d.plan.groups.size() - 1, id(2)); }}};
  for (const Mode mode : {Mode::singleton, Mode::coalesced})
    for (const auto &[name, mutate] : mutations) {
      io::LoweringDocument d = referenceDocument(in, dense, mode, Equality::contract, false);
      io::LoweringDocument s = referenceDocument(in, sparse, mode, Equality::contract, false);
      mutate(d, [](NodeId id) { return id; });
      mutate(s, far);
      const auto options = lo::test::seed::options(mode, Equality::contract, 20);
      const Report rd = check(in, dense, d, options), rs = check(in, sparse, s, options);
      EXPECT_EQ(checksOf(rs), checksOf(rd)) << name << ":\n" << describe(rs);
      EXPECT_EQ(rs.violations.size(), rd.violations.size()) << name << ":\n" << describe(rs);
      EXPECT_EQ(rs.conforms(), name == "none") << name << ":\n" << describe(rs);
    }
}

TEST(Checks, ExplainExamplesFailExactlyTheirCheck) {
  for (std::size_t c = 0; c < vocabularySize<Check>(); ++c) {
    Interner in;
    const Check check = static_cast<Check>(c);
    const Example ex = example(in, check);
    const Report r = lo::checks::check(in, ex.plan, ex.candidate, ex.options);
    std::set<Check> expected{check};
    if (ex.alongside)
      expected.insert(*ex.alongside);
    EXPECT_EQ(checksOf(r), expected) << spelling(check) << ":\n" << describe(r);
    EXPECT_EQ(r.violations.size(), expected.size()) << describe(r);
    // ... and the reference output of the example's plan passes.
    const auto ref = referenceDocument(in, ex.plan, ex.options.mode, ex.options.equality, true);
    EXPECT_TRUE(lo::checks::check(in, ex.plan, ref, ex.options).conforms());
  }
}

TEST(Checks, HasTrustedExternalClaimedWithoutATrustedExternalRow) {
  Interner in;
  const Alphabet a = alphabet(in);
  GraphExecutionPlan plan;
  plan.kernels = {{1, a.relu, BackendOp::relu, a.R}, {2, a.tanh, BackendOp::tanh, a.T}};
  auto d = referenceDocument(in, plan, Mode::coalesced, Equality::contract, true);
  d.audit->hasTrustedExternal = true;
  const Report r = check(in, plan, d, lo::test::seed::options());
  EXPECT_EQ(checksOf(r), std::set<Check>{Check::audit}) << describe(r);
  EXPECT_EQ(r.violations.size(), 1u) << describe(r);
}

// The views of a carried audit: the message names the entry that differs, or the lengths.
TEST(Checks, AuditViewFindingsNameTheEntryOrTheLengths) {
  Interner in;
  const Alphabet a = alphabet(in);
  const GraphExecutionPlan plan = basePlan(a);
  const auto reference = referenceDocument(in, plan, Mode::coalesced, Equality::contract, true);
  const std::size_t rows = reference.audit->trustLevels.size();
  ASSERT_GE(rows, 2u);
  auto only = [&](const std::function<void(io::LoweringDocument &)> &mutate) {
    auto d = reference;
    mutate(d);
    const Report r = check(in, plan, d, lo::test::seed::options());
    EXPECT_EQ(r.violations.size(), 1u) << describe(r);
    return r.violations.empty() ? Violation{} : r.violations[0];
  };
  const Violation name = only([](auto &d) { d.audit->capsuleNames.set(1, "somewhere.else"); });
  EXPECT_EQ(name.check, Check::audit);
  EXPECT_EQ(name.pointer, "/audit/capsuleNames");
  EXPECT_EQ(name.message, "capsuleNames[1] is somewhere.else, but audit row 1 names " +
                              std::string(reference.audit->capsuleNames[1]));
  const Violation longer =
      only([](auto &d) { d.audit->trustLevels.push_back(TrustLevel::verified); });
  EXPECT_EQ(longer.check, Check::audit);
  EXPECT_EQ(longer.pointer, "/audit/trustLevels");
  EXPECT_EQ(longer.message, "the audit lists " + std::to_string(rows + 1) + " trustLevels for " +
                                std::to_string(rows) + " rows");
}

TEST(Checks, IdentityHidesTheBoundaryAsANote) {
  Interner in;
  const Alphabet a = alphabet(in);
  const GraphExecutionPlan plan = basePlan(a);
  const auto d = referenceDocument(in, plan, Mode::coalesced, Equality::identity, true);
  const Report r =
      check(in, plan, d, lo::test::seed::options(Mode::coalesced, Equality::identity, 20));
  EXPECT_TRUE(r.conforms()) << describe(r);
  ASSERT_EQ(r.notes.size(), 1u) << describe(r);
  EXPECT_NE(r.notes[0].find("node 3"), std::string::npos) << r.notes[0];
  EXPECT_NE(r.notes[0].find("trusted-external"), std::string::npos) << r.notes[0];
}

TEST(Checks, DeclaredModeAndEqualityAreToldWhenTheyDiffer) {
  Interner in;
  const Alphabet a = alphabet(in);
  const GraphExecutionPlan plan = basePlan(a);
  auto d = referenceDocument(in, plan, Mode::coalesced, Equality::contract, false);
  d.mode = Mode::singleton;
  d.equality = Equality::identity;
  const Report r = check(in, plan, d, lo::test::seed::options());
  EXPECT_TRUE(r.conforms());
  ASSERT_EQ(r.notes.size(), 2u) << describe(r);
  EXPECT_NE(r.notes[0].find("declares mode singleton"), std::string::npos) << r.notes[0];
  EXPECT_NE(r.notes[1].find("declares equality identity"), std::string::npos) << r.notes[1];
}

TEST(Checks, LongListsAreCapped) {
  Interner in;
  const Alphabet a = alphabet(in);
  GraphExecutionPlan plan;
  for (NodeId i = 0; i < 100; ++i)
    plan.kernels.push_back({i, a.relu, BackendOp::relu, i % 2 ? a.R : a.C});
  io::LoweringDocument d; // every node dropped
  const Report r =
      check(in, plan, d, lo::test::seed::options(Mode::coalesced, Equality::contract, 7));
  // 7 provenance violations listed, and the gate finding: dropping every node loses every
  // report of the plan's gate.
  EXPECT_EQ(r.violations.size(), 8u);
  ASSERT_EQ(r.omitted.size(), 1u);
  EXPECT_EQ(r.omitted[0], std::make_pair(Check::provenance, std::size_t{93}));
  EXPECT_FALSE(r.conforms());
}

TEST(Checks, ViolationsNameGroupNodeAndPointer) {
  Interner in;
  const Alphabet a = alphabet(in);
  const GraphExecutionPlan plan = basePlan(a);
  auto d = referenceDocument(in, plan, Mode::coalesced, Equality::contract, false);
  splitAt(plan, d, 7); // [6] [7]: group 5 is [7]
  const Report r = check(in, plan, d, lo::test::seed::options());
  ASSERT_EQ(r.violations.size(), 1u) << describe(r);
  const Violation &v = r.violations[0];
  EXPECT_EQ(v.check, Check::maximal);
  EXPECT_EQ(v.group, std::optional<std::size_t>{5});
  EXPECT_EQ(v.nodeId, std::optional<NodeId>{7});
  EXPECT_EQ(v.pointer, "/groups/5");
  EXPECT_EQ(v.message, "group 5 (node 7) could have been appended to group 4: same op reshape and "
                       "the same capsule reference.reshape");
}

} // namespace
} // namespace lo::checks::testing

namespace lo::checks::testing {
namespace {

// A comparison of two capsules names both sides and the nested field (docs/spec.md §3.5): "which
// value is the group's and which the node's" is never left to the reader.
/// The messages of `check` on a candidate that merges nodes 1 and 2 of `plan` into one group of
/// node 1's capsule.
std::string mergedMessages(Interner &in, const GraphExecutionPlan &plan, Equality equality) {
  io::LoweringDocument d = referenceDocument(in, plan, Mode::coalesced, Equality::contract, false);
  EXPECT_EQ(d.plan.groups.size(), 2u);
  d.plan.groups[0].nodeIds.push_back(2);
  d.plan.groups[0].kinds.push_back(plan.kernels[1].kind);
  d.plan.groups[0].groupingKind = GroupingKind::sameCapsuleRun;
  d.plan.groups.pop_back();
  std::string all;
  for (const auto &v :
       check(in, plan, d, lo::test::seed::options(Mode::coalesced, equality, 20)).violations)
    all += v.message + "\n";
  return all;
}

TEST(BothSides, ACapsuleDifferenceNamesTheFieldPathAndBothValues) {
  Interner in;
  KernelCapsule a = sampleCapsule("vendor.relu", BackendOp::relu);
  a.valueContract.evidence = {EvidenceTag::testSuite, "suite A"};
  KernelCapsule b = a;
  b.valueContract.evidence.text = "suite B";
  const KindId relu = Interner::bareKind(KindTag::relu);
  GraphExecutionPlan plan;
  plan.kernels = {{1, relu, BackendOp::relu, in.intern(a)},
                  {2, relu, BackendOp::relu, in.intern(b)}};
  const std::string contract = mergedMessages(in, plan, Equality::contract);
  // Two capsules of one name: each also named by its key, as the plan's keys tell them apart
  // (docs/spec.md §2.5: vendor.relu, vendor.relu#2).
  EXPECT_NE(contract.find("group 0 (nodes 1, 2) has capsule vendor.relu (key vendor.relu), but its "
                          "node 2's capsule of that name (key vendor.relu#2) differs in "
                          "valueContract.evidence.name: the group's \"suite A\", node 2's "
                          "\"suite B\""),
            std::string::npos)
      << contract;

  // Under identity, a member of another identity: the field and both values.
  KernelCapsule c = a;
  c.device = Device::wasm;
  plan.kernels[1].capsule = in.intern(c);
  const std::string identity = mergedMessages(in, plan, Equality::identity);
  EXPECT_NE(identity.find("differs in identity: device: the group's cpu, node 2's wasm"),
            std::string::npos)
      << identity;

  // A boolean field: both values by side, never "(false, not true)".
  KernelCapsule f = a;
  f.supportsForward = !a.supportsForward;
  plan.kernels[1].capsule = in.intern(f);
  const std::string boolean = mergedMessages(in, plan, Equality::contract);
  EXPECT_NE(boolean.find(std::string("supportsForward: the group's ") +
                         (a.supportsForward ? "true" : "false") + ", node 2's " +
                         (f.supportsForward ? "true" : "false")),
            std::string::npos)
      << boolean;
}

// The JSON report's field, expected and actual carry the nested field (docs/spec.md §3.5): a
// capsule finding between two capsules of one name, and a carried audit row, whose pointer
// reaches the field.
TEST(BothSides, FieldExpectedAndActualCarryTheNestedFieldAndBothValues) {
  Interner in;
  KernelCapsule a = sampleCapsule("vendor.relu", BackendOp::relu);
  KernelCapsule b = a;
  b.valueContract.claim.op = BackendOp::sin;
  const KindId relu = Interner::bareKind(KindTag::relu);
  GraphExecutionPlan plan;
  plan.kernels = {{1, relu, BackendOp::relu, in.intern(a)},
                  {2, relu, BackendOp::relu, in.intern(b)}};
  io::LoweringDocument d = referenceDocument(in, plan, Mode::coalesced, Equality::contract, false);
  ASSERT_EQ(d.plan.groups.size(), 2u);
  d.plan.groups[0].nodeIds.push_back(2);
  d.plan.groups[0].kinds.push_back(relu);
  d.plan.groups[0].groupingKind = GroupingKind::sameCapsuleRun;
  d.plan.groups.pop_back();
  const Report r =
      check(in, plan, d, lo::test::seed::options(Mode::coalesced, Equality::contract, 20));
  const auto capsule = std::find_if(r.violations.begin(), r.violations.end(),
                                    [](const Violation &v) { return v.check == Check::capsule; });
  ASSERT_NE(capsule, r.violations.end()) << describe(r);
  EXPECT_EQ(capsule->field, "capsule.valueContract.claim.op");
  EXPECT_EQ(capsule->expected, "sin");
  EXPECT_EQ(capsule->actual, "relu");
  EXPECT_NE(capsule->message.find("valueContract.claim.op: the group's relu, node 2's sin"),
            std::string::npos)
      << capsule->message;

  // A carried audit row whose value claim names another op.
  io::LoweringDocument withAudit =
      referenceDocument(in, plan, Mode::coalesced, Equality::contract, true);
  ASSERT_TRUE(withAudit.audit);
  KernelCapsule row = in.capsule(withAudit.audit->audit.kernels[0].view);
  row.valueContract.claim.op = BackendOp::sin;
  ExecutionAudit rows = withAudit.audit->audit;
  rows.kernels[0] = KernelAudit{in.intern(row)};
  withAudit.audit = toDocument(in, rows);
  const Report audited =
      check(in, plan, withAudit, lo::test::seed::options(Mode::coalesced, Equality::contract, 20));
  ASSERT_EQ(audited.violations.size(), 1u) << describe(audited);
  const Violation &v = audited.violations.front();
  EXPECT_EQ(v.check, Check::audit);
  EXPECT_EQ(v.pointer, "/audit/kernels/0/valueContract/claim/op");
  EXPECT_EQ(v.field, "valueContract.claim.op");
  EXPECT_EQ(v.expected, "relu");
  EXPECT_EQ(v.actual, "sin");
}

} // namespace
} // namespace lo::checks::testing
