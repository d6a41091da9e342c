// empty-group: a group without nodes (docs/spec.md §3.1).
#include "checks/context.hpp"

namespace lo::checks::detail {

// The per-group checks (kinds, op, capsule, grouping-kind) say nothing more about an empty
// group, and `maximal` looks past it, so an inserted empty group is this one finding.
void checkEmptyGroup(Judge &j, GroupSite &site) {
  if (!site.group.nodeIds.empty())
    return;
  const std::size_t g = site.index;
  j.findings.report(Check::emptyGroup, g, std::nullopt, [&] {
    return Description{groupPointer(g, "nodeIds"),
                       "group " + std::to_string(g) +
                           " has no nodes; every group is a backend call for at least one planned "
                           "node"};
  });
}

} // namespace lo::checks::detail
