// Invariants and metamorphic relations of the reference lowering (docs/spec.md §1), on generated
// plans, for each mode and equality where they apply.
#include "ref/io/reader.hpp"
#include "tests/property/generators.hpp"
#include "tests/property/support.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <sstream>
#include <unordered_map>

namespace lo::prop {
namespace {

// The generated JSON text (either encoding, defaults written out or omitted, fields in any order)
// reads as the plan built directly: near-collision twins that differ only in how their defaults
// are spelled intern to the same capsule.
RC_GTEST_PROP(Generators, JsonTextReadsAsTheBuiltPlan, ()) {
  const PlanSpec spec = *genPlan();
  Interner interner;
  const GraphExecutionPlan built = buildPlan(spec, interner);
  const GraphExecutionPlan read = readPlan(spec, interner);
  RC_ASSERT(read == built);
  for (std::size_t i = 0; i < spec.pool.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      RC_ASSERT((interner.intern(spec.pool[i]) == interner.intern(spec.pool[j])) ==
                (spec.pool[i] == spec.pool[j]));
  RC_CLASSIFY(spec.encoding == Encoding::table, "table");
  RC_CLASSIFY(spec.encoding == Encoding::inline_, "inline");
  RC_CLASSIFY(spec.encoding == Encoding::mixed, "mixed");
}

/// What makes a plan valid (docs/spec.md §2.4): unique `nodeId`s below 2^63, `op` equal to the op
/// its kind maps to, `capsule.op == op`.
void assertValid(const PlanSpec &spec) {
  std::unordered_map<NodeId, int> seen;
  for (const auto &k : spec.kernels) {
    RC_ASSERT(k.nodeId < kNodeIdLimit);
    RC_ASSERT(++seen[k.nodeId] == 1);
    RC_ASSERT(opOf(k.kind) == std::optional<BackendOp>(k.op));
    RC_ASSERT(k.capsule < spec.pool.size());
    RC_ASSERT(spec.pool[k.capsule].op == k.op);
  }
}

// Shrinking keeps plans valid: the shrinks RapidCheck would try first (every immediate shrink,
// and a chain of first shrinks) of a plan drawn at any size are valid plans that read back.
RC_GTEST_PROP(Generators, ShrinksAreValidPlans, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const int size = *rc::gen::inRange(0, rc::kNominalSize + 1);
  rc::Shrinkable<PlanSpec> plan = genPlan()(rc::Random(seed), size);
  for (int depth = 0; depth < 4; ++depth) {
    auto shrinks = plan.shrinks();
    std::optional<rc::Shrinkable<PlanSpec>> first;
    int n = 0;
    while (auto shrink = shrinks.next()) {
      const PlanSpec spec = shrink->value();
      assertValid(spec);
      if (depth == 0 && n == 0) {
        Interner interner;
        RC_ASSERT(readPlan(spec, interner) == buildPlan(spec, interner));
      }
      if (!first)
        first = *shrink;
      if (++n == 6)
        break;
    }
    if (!first)
      break;
    plan = *first;
  }
}

// Every generated plan is valid.
RC_GTEST_PROP(Generators, PlansAreValid, ()) {
  const PlanSpec spec = *genPlan();
  assertValid(spec);
  // A counterexample is printed as one line of description, then the plan's JSON text, which the
  // reader (and so `lowering-oracle lower` and `check`) accepts.
  std::ostringstream shown;
  showValue(spec, shown);
  const std::string text = shown.str();
  Interner interner;
  RC_ASSERT(io::readExecutionPlan(io::sourceFromString("<shown>", text.substr(text.find('\n') + 1)),
                                  interner, spec.edition) == buildPlan(spec, interner));
}

// The groups' ids, concatenated, are the plan's ids, in order, in both lowerings (docs/spec.md
// §1.2).
RC_GTEST_PROP(Lowering, NodeIdsAreTheKernelIds, ()) {
  const PlanSpec spec = *genPlan();
  const Mode mode = *genMode();
  const Equality equality = *genEquality();
  Interner interner;
  const GraphExecutionPlan plan = buildPlan(spec, interner);
  RC_ASSERT(nodeIds(lower(interner, plan, mode, equality)) == kernelIds(plan));
}

// toSingleton: one group of kind singleton per planned node (docs/spec.md §1.2).
RC_GTEST_PROP(Lowering, SingletonHasOneGroupPerKernel, ()) {
  const PlanSpec spec = *genPlan();
  Interner interner;
  const GraphExecutionPlan plan = buildPlan(spec, interner);
  const GraphLoweringPlan l = toSingletonLoweringPlan(plan);
  RC_ASSERT(l.groups.size() == plan.kernels.size());
  for (std::size_t i = 0; i < l.groups.size(); ++i) {
    const auto &g = l.groups[i];
    const auto &k = plan.kernels[i];
    RC_ASSERT(g.nodeIds == std::vector<NodeId>{k.nodeId});
    RC_ASSERT(g.kinds == std::vector<KindId>{k.kind});
    RC_ASSERT(g.op == k.op);
    RC_ASSERT(g.capsule == k.capsule);
    RC_ASSERT(g.groupingKind == GroupingKind::singleton);
  }
}

// Coalesced: groups = 1 + boundaries, where a boundary is a pair of neighbours that differ in op
// or are not `same` capsules (both equalities are equivalences, so neighbours suffice).
RC_GTEST_PROP(Lowering, GroupsAreOnePlusBoundaries, ()) {
  const PlanSpec spec = *genPlan();
  const Equality equality = *genEquality();
  Interner interner;
  const GraphExecutionPlan plan = buildPlan(spec, interner);
  const GraphLoweringPlan l = toCoalescedLoweringPlan(interner, plan, equality);
  std::size_t boundaries = 0;
  for (std::size_t i = 1; i < plan.kernels.size(); ++i) {
    const auto &a = plan.kernels[i - 1];
    const auto &b = plan.kernels[i];
    boundaries += !(a.op == b.op && interner.same(equality, a.capsule, b.capsule));
  }
  RC_ASSERT(l.groups.size() == (plan.kernels.empty() ? 0 : 1 + boundaries));
  RC_CLASSIFY(l.groups.size() < plan.kernels.size(), "some group has several nodes");
}

// Appending keeps the group's op and capsule (its first node's), adds the node's id and kind at the
// end, and makes the group a sameCapsuleRun (docs/spec.md §1.2).
RC_GTEST_PROP(Lowering, GroupsKeepTheirFirstMemberAndEveryKind, ()) {
  const PlanSpec spec = *genPlan();
  const Mode mode = *genMode();
  const Equality equality = *genEquality();
  Interner interner;
  const GraphExecutionPlan plan = buildPlan(spec, interner);
  const GraphLoweringPlan l = lower(interner, plan, mode, equality);
  std::size_t at = 0;
  for (const auto &g : l.groups) {
    RC_ASSERT(!g.nodeIds.empty());
    RC_ASSERT(g.kinds.size() == g.nodeIds.size());
    RC_ASSERT(g.op == plan.kernels[at].op);
    RC_ASSERT(g.capsule == plan.kernels[at].capsule);
    RC_ASSERT(g.groupingKind ==
              (g.nodeIds.size() == 1 ? GroupingKind::singleton : GroupingKind::sameCapsuleRun));
    for (std::size_t i = 0; i < g.nodeIds.size(); ++i, ++at) {
      RC_ASSERT(g.kinds[i] == plan.kernels[at].kind);
      RC_ASSERT(g.op == plan.kernels[at].op);
      RC_ASSERT(interner.same(equality, g.capsule, plan.kernels[at].capsule));
    }
  }
  RC_ASSERT(at == plan.kernels.size());
}

// Identity grouping is coarser: every contract group lies inside one identity group.
RC_GTEST_PROP(Lowering, IdentityGroupingIsCoarser, ()) {
  const PlanSpec spec = *genPlan();
  Interner interner;
  const GraphExecutionPlan plan = buildPlan(spec, interner);
  const auto byContract = toCoalescedLoweringPlan(interner, plan, Equality::contract);
  const auto byIdentity = toCoalescedLoweringPlan(interner, plan, Equality::identity);
  std::unordered_map<NodeId, std::size_t> identityGroup;
  for (std::size_t i = 0; i < byIdentity.groups.size(); ++i)
    for (NodeId id : byIdentity.groups[i].nodeIds)
      identityGroup.emplace(id, i);
  for (const auto &g : byContract.groups)
    for (NodeId id : g.nodeIds)
      RC_ASSERT(identityGroup.at(id) == identityGroup.at(g.nodeIds.front()));
  RC_ASSERT(byIdentity.groups.size() <= byContract.groups.size());
  RC_CLASSIFY(byIdentity.groups.size() < byContract.groups.size(), "identity merges more");
}

// Concatenation: lower(p ++ q) = lower(p) ++ lower(q), with the two boundary groups merged exactly
// when canAppend holds across them (coalesced; the singleton lowering never merges).
RC_GTEST_PROP(Lowering, ConcatenationMergesTheBoundaryExactlyWhenCanAppend, ()) {
  const PlanSpec spec = *genPlan();
  const Mode mode = *genMode();
  const Equality equality = *genEquality();
  const auto cut = *rc::gen::inRange<std::size_t>(0, spec.kernels.size() + 1);
  Interner interner;
  const GraphExecutionPlan plan = buildPlan(spec, interner);
  const GraphExecutionPlan p = slicePlan(plan, 0, cut);
  const GraphExecutionPlan q = slicePlan(plan, cut, plan.kernels.size());
  GraphLoweringPlan expected = lower(interner, p, mode, equality);
  const GraphLoweringPlan lq = lower(interner, q, mode, equality);
  auto rest = lq.groups.begin();
  const bool merge = mode == Mode::coalesced && !expected.groups.empty() && !q.kernels.empty() &&
                     canAppend(interner, equality, expected.groups.back(), q.kernels.front());
  if (merge) {
    LoweredKernelGroup &g = expected.groups.back();
    g.nodeIds.insert(g.nodeIds.end(), rest->nodeIds.begin(), rest->nodeIds.end());
    g.kinds.insert(g.kinds.end(), rest->kinds.begin(), rest->kinds.end());
    g.groupingKind = GroupingKind::sameCapsuleRun;
    ++rest;
  }
  expected.groups.insert(expected.groups.end(), rest, lq.groups.end());
  RC_ASSERT(lower(interner, plan, mode, equality) == expected);
  RC_CLASSIFY(merge, "boundary groups merged");
}

// Refinement: expanding each coalesced group gives the singleton lowering. Under identity the
// expanded capsule is the group's first one, so it agrees with the node's up to identity only.
RC_GTEST_PROP(Lowering, ExpandingTheCoalescedLoweringGivesTheSingletonLowering, ()) {
  const PlanSpec spec = *genPlan();
  const Equality equality = *genEquality();
  Interner interner;
  const GraphExecutionPlan plan = buildPlan(spec, interner);
  const GraphLoweringPlan expanded = expand(toCoalescedLoweringPlan(interner, plan, equality));
  const GraphLoweringPlan singleton = toSingletonLoweringPlan(plan);
  if (equality == Equality::contract) {
    RC_ASSERT(expanded == singleton);
    return;
  }
  RC_ASSERT(expanded.groups.size() == singleton.groups.size());
  bool exact = true;
  for (std::size_t i = 0; i < expanded.groups.size(); ++i) {
    const auto &e = expanded.groups[i];
    const auto &s = singleton.groups[i];
    RC_ASSERT(e.nodeIds == s.nodeIds);
    RC_ASSERT(e.kinds == s.kinds);
    RC_ASSERT(e.op == s.op);
    RC_ASSERT(e.groupingKind == s.groupingKind);
    RC_ASSERT(interner.identity(e.capsule) == interner.identity(s.capsule));
    exact = exact && e.capsule == s.capsule;
  }
  RC_CLASSIFY(!exact, "identity expansion differs in contract");
}

// A plan whose neighbours never share a capsule coalesces to the singleton lowering.
RC_GTEST_PROP(Lowering, NoSharedNeighboursCoalescesToTheSingletonLowering, ()) {
  const Equality equality = *genEquality();
  const PlanSpec spec = *genPlanWithoutSharedNeighbours(equality);
  Interner interner;
  const GraphExecutionPlan plan = buildPlan(spec, interner);
  RC_ASSERT(toCoalescedLoweringPlan(interner, plan, equality) == toSingletonLoweringPlan(plan));
}

} // namespace
} // namespace lo::prop
