// maximal: in mode coalesced, `canAppend` holds across the boundary of two adjacent groups
// (docs/spec.md §3.1).
#include "checks/context.hpp"

namespace lo::checks::detail {

// For adjacent non-empty groups A, B: whether B's first node could have been appended to A, i.e.
// `canAppend(A, first(B))` with `same` of the checked equality. A is taken as its first node
// lowered alone (the op and capsule a conforming A carries), so a group whose declared op or
// capsule is wrong is the op or capsule check's finding, not also this one. Only groups that are
// adjacent in the plan are judged (A's last node directly precedes B's first node), so a node
// dropped between two groups is a provenance finding, not also this one.
void checkMaximal(Judge &j, GroupSite &site, const PreviousGroup *previous) {
  if (j.options.mode != Mode::coalesced || site.members.empty() || !previous)
    return;
  const Member &firstB = site.members.front();
  if (!previous->head || previous->lastPosition == Member::kAbsent || !firstB.kernel ||
      previous->lastPosition + 1 != firstB.position)
    return;
  const PlannedNodeKernel &headA = *previous->head, &k = *firstB.kernel;
  if (!canAppend(j.interner, j.options.equality, toSingletonLoweredGroup(headA), k))
    return;
  const std::size_t g = site.index;
  j.findings.report(Check::maximal, g, k.nodeId, [&] {
    const bool sameCapsule = headA.capsule == k.capsule;
    std::string capsule =
        sameCapsule ? "the same " + j.capsuleWords(k.capsule, firstB.position)
                    : "capsules of the same identity (" + j.interner.capsule(k.capsule).name + ")";
    return Description{groupPointer(g), groupLabel(site.group, g) +
                                            " could have been appended to group " +
                                            std::to_string(previous->index) + ": same op " +
                                            std::string(spelling(k.op)) + " and " + capsule};
  });
}

} // namespace lo::checks::detail
