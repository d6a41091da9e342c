// op: "the group's op differs from a member's op" (SPEC section 3).
#include "checks/context.hpp"

#include <algorithm>

namespace lo::checks::detail {

// One violation per group, naming the first member whose plan op differs. In mode singleton only
// the first member is judged: further members are the singleton check's finding.
void checkOp(Context &cx) {
  const auto &groups = cx.lowering.groups;
  const bool onlyFirst = cx.options.mode == Mode::singleton;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto &group = groups[g];
    const PlannedNodeKernel *first = nullptr;
    std::size_t wrong = 0;
    const std::size_t members =
        onlyFirst ? std::min<std::size_t>(1, group.nodeIds.size()) : group.nodeIds.size();
    for (std::size_t i = 0; i < members; ++i) {
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
