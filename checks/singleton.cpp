// singleton: "mode singleton and a group holds more than one node" (SPEC section 3).
#include "checks/context.hpp"

namespace lo::checks::detail {

// `toSingleton`: "one group per planned node, `groupingKind = singleton`".
void checkSingleton(Context &cx) {
  if (cx.options.mode != Mode::singleton)
    return;
  const auto &groups = cx.lowering.groups;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto &group = groups[g];
    if (group.nodeIds.size() <= 1)
      continue;
    if (!cx.findings.listing(Check::singleton)) {
      cx.findings.count(Check::singleton);
      continue;
    }
    cx.findings.add(Check::singleton, g, group.nodeIds[1], groupPointer(g, "nodeIds", 1),
                    groupLabel(group, g) + " holds " + std::to_string(group.nodeIds.size()) +
                        " nodes, but in mode singleton every group holds one node");
  }
}

} // namespace lo::checks::detail
