#include "tools/suite/generate.hpp"

#include "tools/plans/plans.hpp"
#include "tools/suite/edge_cases.hpp"

#include <cstdio>

namespace lo::suite {

namespace {

/// A random case: its placement, then a plan of the one generator with the suite's knobs.
Case randomCase(Interner &interner, plans::Rng &rng, std::size_t maxNodes, Edition edition) {
  Case c{"random", {}, {}, false, {}};
  const std::uint64_t e = rng.below(8);
  c.encoding.placement = e < 5 ? Placement::table : e < 7 ? Placement::inline_ : Placement::mixed;
  plans::PlanKnobs knobs;
  knobs.maxNodes = maxNodes;
  knobs.edition = edition;
  c.plan = randomPlan(interner, rng, knobs);
  return c;
}

/// The asks of case `index` (docs/spec.md §4.3, "What a case asks"), the same in gen, verify and
/// diff: a generator of their own, seeded from (seed, index), so
/// that they leave the plan and its spelling as they were, and the hand-picked cases ask
/// differently under each seed.
void drawAsks(Case &c, std::uint64_t seed, std::size_t index) {
  plans::Rng seeder(seed ^ (0x9e3779b97f4a7c15ULL * (index + 1)) ^ 0xa5c0a5c0a5c0a5c0ULL);
  plans::Rng rng(seeder.next());
  c.audit = rng.chance(1, kAuditShare);
  // The custom policy: one of the 61 sets of six booleans that no preset has, uniformly
  // (docs/spec.md §4.3, "What a case asks"; the names, docs/spec.md §6.2).
  std::uint64_t pick = rng.below(64 - std::size(kPolicyPresets));
  for (std::uint64_t bits = 0; bits < 64; ++bits) {
    AssurancePolicy p;
    for (std::size_t f = 0; f < std::size(kPolicyFlags); ++f)
      p.*kPolicyFlags[f].field = (bits >> f) & 1;
    if (policyName(p) != "custom")
      continue;
    if (pick-- == 0) {
      c.customPolicy = p;
      return;
    }
  }
}

} // namespace

Case caseAt(Interner &interner, const Settings &settings, std::size_t index) {
  if (index < edgeCaseCount()) {
    // The hand-picked plans do not depend on the seed, nor do their spellings: the first two are
    // written as the reference writer writes them, the others spelled from their index.
    Case c = edgeCase(interner, index, settings.edition);
    if (index >= 2)
      c.encoding.spelling = plans::Rng(0x5be11ed ^ index).next();
    drawAsks(c, settings.seed, index);
    return c;
  }
  // One generator per case, seeded from (seed, index) through one SplitMix64 step.
  plans::Rng seeder(settings.seed ^ (0xd1b54a32d192ed03ULL * (index + 1)));
  plans::Rng rng(seeder.next());
  Case c = randomCase(interner, rng, settings.maxNodes, settings.edition);
  // The spellings come from a generator of their own, so that they leave the plan as it was. One
  // plan in five keeps the reference writer's text; the others draw their spellings.
  plans::Rng spelling(seeder.next());
  if (!spelling.chance(1, 5))
    c.encoding.spelling = spelling.next();
  drawAsks(c, settings.seed, index);
  return c;
}

std::string caseNumber(std::size_t index) {
  char digits[24];
  std::snprintf(digits, sizeof digits, "%04zu", index);
  return digits;
}

std::string caseLabel(std::size_t index, const Case &c) { return caseNumber(index) + "-" + c.name; }

} // namespace lo::suite
