// empty-group: "a group has no nodes" (SPEC section 3).
#include "checks/context.hpp"

namespace lo::checks::detail {

// The per-group checks (kinds, op, capsule, grouping-kind) say nothing more about an empty
// group, and `maximal` looks past it, so an inserted empty group is this one finding.
void checkEmptyGroup(Context &cx) {
  const auto &groups = cx.lowering.groups;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (!groups[g].nodeIds.empty())
      continue;
    if (!cx.findings.listing(Check::emptyGroup)) {
      cx.findings.count(Check::emptyGroup);
      continue;
    }
    cx.findings.add(Check::emptyGroup, g, std::nullopt, groupPointer(g, "nodeIds"),
                    "group " + std::to_string(g) +
                        " has no nodes; every group is a backend call "
                        "for at least one planned node");
  }
}

} // namespace lo::checks::detail
