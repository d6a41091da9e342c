// Properties of the acceptance gate (docs/spec.md §6) on generated plans full of near-collision
// capsules: coalescing under contract preserves the gate for every policy; a policy that allows
// more never rejects what a stricter one accepts; the identity lowering flips some verdict (an
// expected finding, which RapidCheck must find); and `check` names `gate` exactly when a preset's
// gate of the candidate differs from the plan's singleton gate.
#include "ref/gate.hpp"
#include "tests/property/support.hpp"
#include "tests/seed.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <iostream>

namespace lo::prop {
namespace {

AssurancePolicy genPolicy() {
  AssurancePolicy p;
  for (const auto &flag : kPolicyFlags)
    p.*flag.field = *rc::gen::arbitrary<bool>();
  return p;
}

std::string policyText(const AssurancePolicy &p) {
  std::string out(policyName(p));
  for (const auto &flag : kPolicyFlags)
    out += std::string(" ") + std::string(flag.name) + "=" + (p.*flag.field ? "1" : "0");
  return out;
}

RC_GTEST_PROP(Gate, CoalescingPreservesTheGateUnderContract, ()) {
  const PlanSpec spec = *genPlan();
  const AssurancePolicy policy = genPolicy();
  Interner interner;
  const GraphExecutionPlan plan = buildPlan(spec, interner);
  RC_LOG() << policyText(policy);
  const GateResult singleton = gate(interner, policy, toSingletonLoweringPlan(plan));
  const GateResult coalesced =
      gate(interner, policy, toCoalescedLoweringPlan(interner, plan, Equality::contract));
  RC_ASSERT(sameGate(coalesced, singleton));
  RC_CLASSIFY(singleton.accepted(), "accepted");
}

RC_GTEST_PROP(Gate, AllowingMoreNeverRejectsWhatAStricterPolicyAccepts, ()) {
  const PlanSpec spec = *genPlan();
  const AssurancePolicy strict = genPolicy();
  // `loose` allows everything `strict` allows, and requires evidence only if `strict` does.
  AssurancePolicy loose = strict;
  for (const auto &flag : kPolicyFlags) {
    const bool more = *rc::gen::arbitrary<bool>();
    if (std::string_view(flag.name) == "requireEvidence")
      loose.*flag.field = strict.*flag.field && !more;
    else
      loose.*flag.field = strict.*flag.field || more;
  }
  Interner interner;
  const GraphExecutionPlan plan = buildPlan(spec, interner);
  const GraphLoweringPlan l = lower(interner, plan, *genMode(), *genEquality());
  const GateResult s = gate(interner, strict, l), o = gate(interner, loose, l);
  RC_LOG() << "strict " << policyText(strict) << "; loose " << policyText(loose);
  if (s.accepted())
    RC_ASSERT(o.accepted());
  // Every failure of the looser policy is one of the stricter's, with the same reports.
  for (const auto &f : o.failures) {
    bool found = false;
    for (const auto &g : s.failures)
      found = found || (g.kind == f.kind && g.reports == f.reports);
    RC_ASSERT(found);
  }
}

RC_GTEST_PROP(Gate, CheckNamesGateExactlyWhenAPresetsGateDiffers, ()) {
  const PlanSpec spec = *genPlan();
  const Equality produced = *genEquality();
  Interner interner;
  const GraphExecutionPlan plan = buildPlan(spec, interner);
  io::LoweringDocument candidate;
  candidate.plan = toCoalescedLoweringPlan(interner, plan, produced);
  // The reference gate of each preset, on the candidate's groups and on the plan's nodes.
  bool differs = false;
  for (const auto &preset : kPolicyPresets)
    differs = differs || !sameGate(gate(interner, preset.policy, candidate.plan),
                                   gate(interner, preset.policy, toSingletonLoweringPlan(plan)));
  const checks::Report r = checks::check(
      interner, plan, candidate, test::seed::options(Mode::coalesced, Equality::contract, 20));
  RC_LOG() << describe(r);
  bool named = false;
  for (const auto &v : r.violations)
    named = named || v.check == Check::gate;
  RC_ASSERT(named == differs);
  if (produced == Equality::contract)
    RC_ASSERT(!differs);
  RC_CLASSIFY(differs, "the identity lowering changes a preset's gate");
}

/// Whether some preset's verdict differs between the identity lowering of `spec` and its singleton
/// lowering.
bool identityFlipsAVerdict(const PlanSpec &spec) {
  Interner interner;
  const GraphExecutionPlan plan = buildPlan(spec, interner);
  const GraphLoweringPlan identity = toCoalescedLoweringPlan(interner, plan, Equality::identity);
  for (const auto &preset : kPolicyPresets)
    if (gate(interner, preset.policy, identity).accepted() !=
        gate(interner, preset.policy, toSingletonLoweringPlan(plan)).accepted())
      return true;
  return false;
}

// The expected finding of docs/spec.md §6.7: under identity, coalescing does not preserve the gate.
// The property "the identity lowering's gate equals the singleton gate under every preset" must
// be falsified; the test fails if RapidCheck cannot find such a plan among the near-collision
// pools. The plan found is shrunk, printed and checked again, read from its JSON text.
TEST(Gate, IdentityLoweringFlipsSomeVerdict) {
  static std::optional<PlanSpec> found;
  found.reset();
  // A flip needs two identity-equal neighbours whose second capsule has evidence the first lacks,
  // in a plan that some preset accepts otherwise: about one generated plan in 300 has one
  // (measured over 30 seeds: found after 72 to 999 plans, and not within 1,000 for 3 of them).
  // RapidCheck stops at the first one, so a larger limit costs nothing when the finding is there;
  // the seed and the other parameters still come from RC_PARAMS. RapidCheck's own shrink is off:
  // over every field of every capsule it took from 12 s to two minutes by the seed
  // (docs/testing.md, "The test loop"); the plan is shrunk below by dropping kernels while a
  // verdict still flips.
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess = std::max(params.maxSuccess, 30000);
  params.disableShrinking = true;
  const auto result = rc::detail::checkTestable(
      [] {
        const PlanSpec spec = *genPlan();
        const bool flips = identityFlipsAVerdict(spec);
        if (flips)
          found = spec;
        RC_ASSERT(!flips);
      },
      rc::detail::TestMetadata{}, params);
  ASSERT_TRUE(result.is<rc::detail::FailureResult>())
      << "expected a plan whose identity lowering flips a verdict; none found";
  ASSERT_TRUE(found.has_value());
  PlanSpec shrunk = *found;
  for (bool dropped = true; dropped;) {
    dropped = false;
    for (std::size_t i = 0; i < shrunk.kernels.size();) {
      PlanSpec fewer = shrunk;
      fewer.kernels.erase(fewer.kernels.begin() + static_cast<std::ptrdiff_t>(i));
      if (identityFlipsAVerdict(fewer)) {
        shrunk = std::move(fewer);
        dropped = true;
      } else {
        ++i;
      }
    }
  }
  const auto &failure = result.get<rc::detail::FailureResult>();
  std::cout << "Expected finding after " << failure.numSuccess
            << " plans: under --equality identity a preset's verdict flips.\n"
            << "Shrunk plan, " << shrunk.kernels.size() << " of " << found->kernels.size()
            << " kernels (lowering-oracle gate PLAN --equality identity --policy P):\n"
            << planJson(shrunk) << std::flush;
  EXPECT_LE(shrunk.kernels.size(), 3u) << "a flip needs two neighbours (and at most one between)";

  Interner interner;
  const GraphExecutionPlan plan = readPlan(shrunk, interner);
  const auto identity = toCoalescedLoweringPlan(interner, plan, Equality::identity);
  bool flips = false;
  for (const auto &preset : kPolicyPresets) {
    const GateResult s = gate(interner, preset.policy, toSingletonLoweringPlan(plan));
    const GateResult i = gate(interner, preset.policy, identity);
    if (s.accepted() != i.accepted()) {
      flips = true;
      // The identity lowering only loses reports: it can only accept what the plan rejects.
      EXPECT_TRUE(i.accepted()) << preset.name;
    }
  }
  EXPECT_TRUE(flips);
}

} // namespace
} // namespace lo::prop
