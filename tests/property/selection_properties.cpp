// Properties of selection (docs/spec.md §10) on the cases `diff --planner` draws
// (tools/plans/selection_cases.hpp, from a seed RapidCheck picks): the reference's plan passes
// the selection checks, and every other capsule for a planned node is a departure (so passing
// them means choosing exactly what selection chooses); the chosen capsule is eligible, of the
// preferred provider whenever one is eligible, never one that trust refuses; narrowing the
// availability never makes a case plan that did not; and replacing a module puts its capsules
// first (`withCapsuleModules`).
#include "checks/selection.hpp"
#include "tools/plans/selection_cases.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace lo::prop {
namespace {

using selection::SelectionResult;

/// The case of `seed` (any edition of the lineage: the newest).
plans::SelectionCase caseOf(Interner &interner, std::uint64_t seed) {
  plans::Rng rng(seed);
  return plans::randomSelectionCase(interner, rng, {12, kNewestEdition});
}

/// The reference's plan as a candidate: each kernel's capsule interned.
GraphExecutionPlan candidateOf(Interner &interner, const SelectionResult &r,
                               const std::vector<KernelCapsule> &registry) {
  GraphExecutionPlan plan;
  for (const selection::PlannedNode &k : r.kernels)
    plan.kernels.push_back({k.nodeId, k.kind, k.op, interner.intern(registry[k.capsule])});
  return plan;
}

std::string departureLines(const std::vector<checks::Finding> &findings) {
  std::string out;
  for (const checks::Finding &f : findings)
    out += std::string(spelling(f.check)) + " " + f.pointer + ": " + f.sentence + "\n";
  return out;
}

RC_GTEST_PROP(Selection, ThePlanPassesTheSelectionChecks, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  Interner interner;
  const plans::SelectionCase c = caseOf(interner, seed);
  std::vector<KernelCapsule> registry;
  const SelectionResult r = selection::planGraphNodes(c.profile, c.graph, registry);
  const auto findings = checks::judgeSelection(c.profile, c.graph, interner,
                                               candidateOf(interner, r, registry), r.error);
  RC_LOG() << departureLines(findings);
  RC_ASSERT(findings.empty());
  RC_CLASSIFY(r.ok(), "plans");
}

// Completeness on the capsule: a planned node given any capsule of the registry that is not its
// chosen one (under contract equality) is a departure; so is a missing kernel, and a failure.
RC_GTEST_PROP(Selection, EveryOtherChoiceIsADeparture, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  Interner interner;
  const plans::SelectionCase c = caseOf(interner, seed);
  std::vector<KernelCapsule> registry;
  const SelectionResult r = selection::planGraphNodes(c.profile, c.graph, registry);
  RC_PRE(r.ok() && !r.kernels.empty());
  const GraphExecutionPlan plan = candidateOf(interner, r, registry);
  const std::size_t k = *rc::gen::inRange<std::size_t>(0, plan.kernels.size());
  for (const KernelCapsule &other : registry) {
    if (other == interner.capsule(plan.kernels[k].capsule))
      continue;
    GraphExecutionPlan wrong = plan;
    wrong.kernels[k].capsule = interner.intern(other);
    RC_ASSERT(!checks::judgeSelection(c.profile, c.graph, interner, wrong).empty());
  }
  GraphExecutionPlan dropped = plan;
  dropped.kernels.erase(dropped.kernels.begin() + static_cast<std::ptrdiff_t>(k));
  RC_ASSERT(!checks::judgeSelection(c.profile, c.graph, interner, dropped).empty());
  RC_ASSERT(
      !checks::judgeSelection(c.profile, c.graph, interner, {}, std::string("failed")).empty());
}

RC_GTEST_PROP(Selection, TheChoiceIsEligiblePreferredAndTrusted, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  Interner interner;
  const plans::SelectionCase c = caseOf(interner, seed);
  std::vector<KernelCapsule> registry;
  const SelectionResult r = selection::planGraphNodes(c.profile, c.graph, registry);
  const auto &policy = c.profile.policy;
  using Kind = acceptance::ProviderPreference::Kind;
  for (const selection::PlannedNode &k : r.kernels) {
    const KernelCapsule &chosen = registry[k.capsule];
    RC_ASSERT(selection::refusals(policy, c.profile.availability, k.op, chosen) == 0);
    RC_ASSERT(policy.assurance.allowTrustedExternal ||
              chosen.trustLevel != TrustLevel::trusted_external);
    if (policy.provider.kind == Kind::automatic)
      continue;
    bool preferredEligible = false;
    for (const KernelCapsule &x : registry)
      preferredEligible |= x.provider == policy.provider.provider &&
                           selection::refusals(policy, c.profile.availability, k.op, x) == 0;
    if (preferredEligible || policy.provider.kind == Kind::only) {
      RC_ASSERT(chosen.provider == policy.provider.provider);
    }
  }
}

RC_GTEST_PROP(Selection, AvailabilityOnlyNarrows, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  Interner interner;
  const plans::SelectionCase c = caseOf(interner, seed);
  plans::SelectionCase narrow = c;
  auto &devices = narrow.profile.availability.devices;
  auto &providers = narrow.profile.availability.providers;
  const bool dropDevice = *rc::gen::arbitrary<bool>();
  const std::size_t from = dropDevice ? devices.size() : providers.size();
  RC_PRE(from > 0);
  const std::size_t at = *rc::gen::inRange<std::size_t>(0, from);
  if (dropDevice)
    devices.erase(devices.begin() + static_cast<std::ptrdiff_t>(at));
  else
    providers.erase(providers.begin() + static_cast<std::ptrdiff_t>(at));
  std::vector<KernelCapsule> wide, narrowed;
  const SelectionResult before = selection::planGraphNodes(c.profile, c.graph, wide);
  const SelectionResult after = selection::planGraphNodes(narrow.profile, narrow.graph, narrowed);
  if (after.ok()) {
    RC_ASSERT(before.ok());
  }
  for (const selection::PlannedNode &k : after.kernels) {
    RC_ASSERT(selection::refusals(c.profile.policy, c.profile.availability, k.op,
                                  narrowed[k.capsule]) == 0);
  }
}

RC_GTEST_PROP(Selection, AReplacedModuleComesFirst, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  Interner interner;
  const plans::SelectionCase c = caseOf(interner, seed);
  RC_PRE(!c.profile.capsuleModules.empty());
  const std::size_t m = *rc::gen::inRange<std::size_t>(0, c.profile.capsuleModules.size());
  selection::CapsuleModule replacement{c.profile.capsuleModules[m].name, {}};
  for (const auto &module : c.profile.capsuleModules)
    if (!module.capsules.empty())
      replacement.capsules.push_back(module.capsules.back());
  const selection::BackendProfile p = selection::withCapsuleModules(c.profile, {replacement});
  std::vector<KernelCapsule> expected = replacement.capsules;
  for (const auto &module : c.profile.capsuleModules)
    if (module.name != replacement.name)
      expected.insert(expected.end(), module.capsules.begin(), module.capsules.end());
  RC_ASSERT(selection::flatten(p.capsuleModules) == expected);
}

} // namespace
} // namespace lo::prop
