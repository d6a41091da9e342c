// grouping-kind: "not `singleton` for one node and `sameCapsuleRun` for two or more"
// (SPEC section 3).
#include "checks/context.hpp"

namespace lo::checks::detail {

void checkGroupingKind(Context &cx) {
  const auto &groups = cx.lowering.groups;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto &group = groups[g];
    if (group.nodeIds.empty()) // the empty-group check's finding
      continue;
    const GroupingKind expected =
        group.nodeIds.size() == 1 ? GroupingKind::singleton : GroupingKind::sameCapsuleRun;
    if (group.groupingKind == expected)
      continue;
    if (!cx.findings.listing(Check::groupingKind)) {
      cx.findings.count(Check::groupingKind);
      continue;
    }
    cx.findings.add(Check::groupingKind, g, group.nodeIds.front(), groupPointer(g, "groupingKind"),
                    groupLabel(group, g) + " has groupingKind " +
                        std::string(spelling(group.groupingKind)) + ", but a group of " +
                        (group.nodeIds.size() == 1
                             ? std::string("one node is ")
                             : std::to_string(group.nodeIds.size()) + " nodes is ") +
                        std::string(spelling(expected)));
  }
}

} // namespace lo::checks::detail
