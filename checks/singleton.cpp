// singleton: in mode singleton, a group of two or more nodes (docs/spec.md §3.1).
#include "checks/context.hpp"

namespace lo::checks::detail {

// `toSingleton` gives one group per planned node, each of kind `singleton` (docs/spec.md §1.2).
void checkSingleton(Judge &j, GroupSite &site) {
  const auto &group = site.group;
  const std::size_t g = site.index;
  if (j.options.mode != Mode::singleton || group.nodeIds.size() <= 1)
    return;
  j.findings.report(Check::singleton, g, group.nodeIds[1], [&] {
    return Description{groupPointer(g, "nodeIds", 1),
                       groupLabel(group, g) + " holds " + std::to_string(group.nodeIds.size()) +
                           " nodes, but in mode singleton every group holds one node"};
  });
}

} // namespace lo::checks::detail
