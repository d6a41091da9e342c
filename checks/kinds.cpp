// kinds: "`kinds` is not, position by position, the kinds of the group's nodes" (SPEC section 3).
#include "checks/context.hpp"

namespace lo::checks::detail {

namespace {

std::string kindsText(const Interner &interner, const std::vector<KindId> &kinds) {
  std::string out;
  for (std::size_t i = 0; i < kinds.size(); ++i)
    out += (i ? ", " : "") + kindText(interner, kinds[i]);
  return out;
}

} // namespace

// One violation per group: a length mismatch, or the positions whose kind differs from the plan
// kind of the node at that position (nodes the plan lacks are for provenance to name).
void checkKinds(Context &cx) {
  const auto &groups = cx.lowering.groups;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto &group = groups[g];
    if (group.nodeIds.empty())
      continue;
    if (group.kinds.size() != group.nodeIds.size()) {
      if (!cx.findings.listing(Check::kinds)) {
        cx.findings.count(Check::kinds);
        continue;
      }
      cx.findings.add(Check::kinds, g, std::nullopt, groupPointer(g, "kinds"),
                      groupLabel(group, g) + " lists " + std::to_string(group.kinds.size()) +
                          (group.kinds.size() == 1 ? " kind" : " kinds") + " for " +
                          std::to_string(group.nodeIds.size()) +
                          (group.nodeIds.size() == 1 ? " node" : " nodes"));
      continue;
    }
    std::size_t first = SIZE_MAX, wrong = 0;
    std::vector<KindId> truth;
    truth.reserve(group.nodeIds.size());
    for (std::size_t i = 0; i < group.nodeIds.size(); ++i) {
      const PlannedNodeKernel *k = cx.kernel(group.nodeIds[i]);
      truth.push_back(k ? k->kind : group.kinds[i]);
      if (k && k->kind != group.kinds[i]) {
        ++wrong;
        if (first == SIZE_MAX)
          first = i;
      }
    }
    if (!wrong)
      continue;
    if (!cx.findings.listing(Check::kinds)) {
      cx.findings.count(Check::kinds);
      continue;
    }
    const NodeId id = group.nodeIds[first];
    std::string message;
    if (group.nodeIds.size() <= 4)
      message = groupLabel(group, g) + " lists kinds " + kindsText(cx.interner, group.kinds) +
                ", but its nodes' kinds are " + kindsText(cx.interner, truth);
    else
      message = "kind " + std::to_string(first) + " of " + groupLabel(group, g) + " is " +
                kindText(cx.interner, group.kinds[first]) + ", but node " + std::to_string(id) +
                " is " + kindText(cx.interner, truth[first]) +
                (wrong > 1 ? " (" + std::to_string(wrong - 1) + " more positions differ)" : "");
    if (group.nodeIds.size() == 1)
      message = groupLabel(group, g) + " lists kind " + kindText(cx.interner, group.kinds[0]) +
                ", but node " + std::to_string(id) + " is " + kindText(cx.interner, truth[0]);
    cx.findings.add(Check::kinds, g, id, groupPointer(g, "kinds", first), std::move(message));
  }
}

} // namespace lo::checks::detail
