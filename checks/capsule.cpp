// capsule: "contract: the group's capsule is not equal to every member's; identity: not equal to
// the first member's, or a member's capsule differs in identity" (SPEC section 3).
#include "checks/context.hpp"

namespace lo::checks::detail {

namespace {

std::string hiddenBoundary(const Interner &interner, CapsuleId group, const PlannedNodeKernel &k) {
  if (hidesBoundary(interner, group, k.capsule))
    return "; the group hides the trusted-external boundary of node " + std::to_string(k.nodeId);
  return {};
}

} // namespace

// One violation per group, naming the first member that breaks the rule. Members whose op
// differs from the group's are the op check's finding and are not judged here again. In mode
// singleton only the first member is judged: further members are the singleton check's finding.
void checkCapsule(Context &cx) {
  const auto &groups = cx.lowering.groups;
  const Interner &in = cx.interner;
  const bool identity =
      cx.options.equality == Equality::identity && cx.options.mode == Mode::coalesced;
  const bool onlyFirst = cx.options.mode == Mode::singleton;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto &group = groups[g];
    for (std::size_t i = 0; i < group.nodeIds.size(); ++i) {
      if (i > 0 && onlyFirst)
        break;
      const PlannedNodeKernel *k = cx.kernel(group.nodeIds[i]);
      if (!k || k->op != group.op)
        continue;
      const bool exact = i == 0 || !identity;
      const bool ok = exact ? k->capsule == group.capsule
                            : in.same(Equality::identity, k->capsule, group.capsule);
      if (ok)
        continue;
      cx.groupJudged[g] = 1;
      if (!cx.findings.listing(Check::capsule)) {
        cx.findings.count(Check::capsule);
        break;
      }
      const KernelCapsule &gc = in.capsule(group.capsule), &kc = in.capsule(k->capsule);
      const std::string node = "node " + std::to_string(k->nodeId);
      std::string message = groupLabel(group, g) + " has " + capsuleText(in, group.capsule);
      if (gc.name != kc.name)
        message += ", but its " + node + " uses " + capsuleText(in, k->capsule);
      else if (exact)
        message +=
            ", but its " + node + "'s capsule of that name differs in " + capsuleDifference(gc, kc);
      else
        message +=
            ", but its " + node + "'s capsule differs in identity: " + identityDifference(gc, kc);
      if (identity && i == 0)
        message += " (under equality identity a group carries its first node's capsule exactly)";
      message += hiddenBoundary(in, group.capsule, *k);
      cx.findings.add(Check::capsule, g, k->nodeId, groupPointer(g, "capsule"), std::move(message));
      break;
    }
  }
}

} // namespace lo::checks::detail
