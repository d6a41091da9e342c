// op: a member's op is not the group's (docs/spec.md §3.1).
#include "checks/context.hpp"

#include <algorithm>

namespace lo::checks::detail {

// One violation per group, naming the first member whose plan op differs. In mode singleton only
// the first member is judged: further members are the singleton check's finding.
void checkOp(Judge &j, GroupSite &site) {
  const auto &group = site.group;
  const std::size_t g = site.index;
  const std::size_t members = j.options.mode == Mode::singleton
                                  ? std::min<std::size_t>(1, group.nodeIds.size())
                                  : group.nodeIds.size();
  const PlannedNodeKernel *first = nullptr;
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < members; ++i) {
    const PlannedNodeKernel *k = site.kernel(i);
    if (k && k->op != group.op && !wrong++)
      first = k;
  }
  if (!wrong)
    return;
  site.judged = true;
  j.findings.report(Check::op, g, first->nodeId, [&] {
    return Description{groupPointer(g, "op"),
                       groupLabel(group, g) + " has op " + std::string(spelling(group.op)) +
                           ", but its node " + std::to_string(first->nodeId) + " has op " +
                           std::string(spelling(first->op)) +
                           (wrong > 1 ? " (and " + std::to_string(wrong - 1) + " more nodes differ)"
                                      : std::string()),
                       "op", std::string(spelling(first->op)), std::string(spelling(group.op))};
  });
}

} // namespace lo::checks::detail
