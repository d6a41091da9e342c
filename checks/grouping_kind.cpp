// grouping-kind: a group's `groupingKind` does not match its number of nodes (docs/spec.md §3.1).
#include "checks/context.hpp"

namespace lo::checks::detail {

void checkGroupingKind(Judge &j, GroupSite &site) {
  const auto &group = site.group;
  const std::size_t g = site.index;
  if (group.nodeIds.empty()) // the empty-group check's finding
    return;
  const GroupingKind expected =
      group.nodeIds.size() == 1 ? GroupingKind::singleton : GroupingKind::sameCapsuleRun;
  if (group.groupingKind == expected)
    return;
  j.findings.report(Check::groupingKind, g, group.nodeIds.front(), [&] {
    return Description{
        groupPointer(g, "groupingKind"),
        groupLabel(group, g) + " has groupingKind " + std::string(spelling(group.groupingKind)) +
            ", but a group of " +
            (group.nodeIds.size() == 1 ? std::string("one node is ")
                                       : std::to_string(group.nodeIds.size()) + " nodes is ") +
            std::string(spelling(expected)),
        "groupingKind", std::string(spelling(expected)), std::string(spelling(group.groupingKind))};
  });
}

} // namespace lo::checks::detail
