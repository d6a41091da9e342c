// maximal: "mode coalesced and two adjacent groups could be one (`canAppend` across the
// boundary)" (SPEC section 3).
#include "checks/context.hpp"

namespace lo::checks::detail {

// For adjacent non-empty groups A, B: whether B's first node could have been appended to A, i.e.
// `canAppend(A, first(B))` with `same` of the checked equality. A is taken as its first node
// lowered alone (the op and capsule a conforming A carries), so a group whose declared op or
// capsule is wrong is the op or capsule check's finding, not also this one. Only groups that are
// adjacent in the plan are judged (A's last node directly precedes B's first node), so a node
// dropped between two groups is a provenance finding, not also this one.
void checkMaximal(Context &cx) {
  if (cx.options.mode != Mode::coalesced)
    return;
  const auto &groups = cx.lowering.groups;
  std::size_t prev = SIZE_MAX;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto &group = groups[g];
    if (group.nodeIds.empty())
      continue;
    const std::size_t a = prev;
    prev = g;
    if (a == SIZE_MAX)
      continue;
    const auto &A = groups[a];
    const std::size_t lastA = cx.index.find(A.nodeIds.back());
    const std::size_t firstB = cx.index.find(group.nodeIds.front());
    const PlannedNodeKernel *headA = cx.kernel(A.nodeIds.front());
    if (!headA || lastA == NodeIndex::kAbsent || firstB == NodeIndex::kAbsent ||
        lastA + 1 != firstB)
      continue;
    const PlannedNodeKernel &k = cx.plan.kernels[firstB];
    if (!canAppend(cx.interner, cx.options.equality, toSingletonLoweredGroup(*headA), k))
      continue;
    if (!cx.findings.listing(Check::maximal)) {
      cx.findings.count(Check::maximal);
      continue;
    }
    const bool sameCapsule = headA->capsule == k.capsule;
    std::string capsule =
        sameCapsule ? "the same " + capsuleText(cx.interner, k.capsule)
                    : "capsules of the same identity (" + cx.interner.capsule(k.capsule).name + ")";
    cx.findings.add(Check::maximal, g, k.nodeId, groupPointer(g),
                    groupLabel(group, g) + " could have been appended to group " +
                        std::to_string(a) + ": same op " + std::string(spelling(k.op)) + " and " +
                        capsule);
  }
}

} // namespace lo::checks::detail
