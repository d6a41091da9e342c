#include "tools/plans/plans.hpp"

#include <algorithm>
#include <optional>
#include <unordered_set>

namespace lo::plans {

std::vector<NodeId> nodeIds(Choices &rng, std::size_t n) {
  std::vector<NodeId> ids(n);
  switch (rng.below(4)) {
  case 0:
    for (std::size_t i = 0; i < n; ++i)
      ids[i] = i + 1;
    break;
  case 1: {
    NodeId next = rng.below(4);
    for (auto &id : ids)
      id = next += rng.between(1, 1000);
    break;
  }
  case 2:
    for (std::size_t i = 0; i < n; ++i)
      ids[i] = kNodeIdLimit - 1 - (n - 1 - i);
    break;
  default: {
    std::unordered_set<NodeId> seen;
    for (auto &id : ids) {
      // Drawn again on a collision; after many, the next free id (a source that keeps answering
      // the same, a shrunk one, still ends).
      id = rng.below(kNodeIdLimit);
      for (int tries = 0; !seen.insert(id).second;)
        id = ++tries < 64 ? rng.below(kNodeIdLimit) : (id + 1) % kNodeIdLimit;
    }
  }
  }
  return ids;
}

namespace {

/// Runs of geometric length over a few ops, each op with a small pool of capsules
/// that are near-collisions of one another.
GraphExecutionPlan runsPlan(Interner &interner, Choices &rng, const PlanKnobs &knobs) {
  GraphExecutionPlan plan;
  const std::size_t maxNodes = knobs.maxNodes;
  const std::size_t n = rng.chance(1, 8) ? rng.below(std::min<std::size_t>(maxNodes, 2) + 1)
                                         : rng.below(maxNodes + 1);

  struct OpPool {
    BackendOp op;
    std::vector<CapsuleId> capsules;
  };
  std::vector<OpPool> pools(rng.between(1, knobs.maxOps));
  for (auto &pool : pools) {
    pool.op = rng.pick(plannedOps(knobs.edition));
    std::vector<KernelCapsule> made;
    for (std::uint64_t b = rng.between(1, knobs.maxBases); b > 0; --b)
      made.push_back(randomCapsule(rng, pool.op, knobs.vocabulary, knobs.edition));
    for (std::uint64_t v = rng.below(knobs.maxVariants + 1); v > 0; --v)
      made.push_back(variant(rng, rng.pick(made), knobs.vocabulary, knobs.edition));
    for (auto &capsule : made)
      pool.capsules.push_back(interner.intern(std::move(capsule)));
  }

  const std::vector<NodeId> ids = nodeIds(rng, n);
  std::size_t poolIndex = 0;
  std::optional<CapsuleId> capsule;
  std::optional<OpKind> kind;
  while (plan.kernels.size() < n) {
    // A new run: often the same op as the last one, so that runs meet at capsule boundaries.
    if (!capsule || rng.chance(1, 2))
      poolIndex = rng.below(pools.size());
    const OpPool &pool = pools[poolIndex];
    capsule = rng.pick(pool.capsules);
    if (!kind || opOf(*kind) != pool.op || rng.chance(1, 3))
      kind = randomKind(rng, rng.pick(kindsOf(pool.op, knobs.edition)), knobs.params);
    std::size_t length = 1;
    while (length < knobs.maxRunLength && rng.chance(2, 3))
      ++length;
    for (; length > 0 && plan.kernels.size() < n; --length) {
      if (rng.chance(1, 10)) // another kind of the same op within a run
        kind = randomKind(rng, rng.pick(kindsOf(pool.op, knobs.edition)), knobs.params);
      plan.kernels.push_back({ids[plan.kernels.size()], interner.intern(*kind), pool.op, *capsule});
    }
  }
  return plan;
}

} // namespace

GraphExecutionPlan randomPlan(Interner &interner, Choices &choices, const PlanKnobs &knobs) {
  return runsPlan(interner, choices, knobs);
}

} // namespace lo::plans
