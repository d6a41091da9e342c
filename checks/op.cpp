// op: "the group's op differs from a member's op" (SPEC section 3).
#include "checks/context.hpp"

namespace lo::checks::detail {

// One violation per group, naming the first member whose plan op differs.
void checkOp(Context &cx) {
  const auto &groups = cx.lowering.groups;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto &group = groups[g];
    const PlannedNodeKernel *first = nullptr;
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < group.nodeIds.size(); ++i) {
      const PlannedNodeKernel *k = cx.kernel(group.nodeIds[i]);
      if (k && k->op != group.op && !wrong++)
        first = k;
    }
    if (!wrong)
      continue;
    cx.groupJudged[g] = 1;
    if (!cx.findings.listing(Check::op)) {
      cx.findings.count(Check::op);
      continue;
    }
    cx.findings.add(Check::op, g, first->nodeId, groupPointer(g, "op"),
                    groupLabel(group, g) + " has op " + std::string(spelling(group.op)) +
                        ", but its node " + std::to_string(first->nodeId) + " has op " +
                        std::string(spelling(first->op)) +
                        (wrong > 1 ? " (and " + std::to_string(wrong - 1) + " more nodes differ)"
                                   : std::string()));
  }
}

} // namespace lo::checks::detail
