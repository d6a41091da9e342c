// kinds: a group's `kinds` differs, at some position, from its nodes' kinds (docs/spec.md §3.1).
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
void checkKinds(Judge &j, GroupSite &site) {
  const auto &group = site.group;
  const std::size_t g = site.index;
  if (group.nodeIds.empty())
    return;
  if (group.kinds.size() != group.nodeIds.size()) {
    return j.findings.report(Check::kinds, g, std::nullopt, [&] {
      return Description{groupPointer(g, "kinds"),
                         groupLabel(group, g) + " lists " + std::to_string(group.kinds.size()) +
                             (group.kinds.size() == 1 ? " kind" : " kinds") + " for " +
                             std::to_string(group.nodeIds.size()) +
                             (group.nodeIds.size() == 1 ? " node" : " nodes")};
    });
  }
  std::size_t first = SIZE_MAX, wrong = 0;
  for (std::size_t i = 0; i < group.nodeIds.size(); ++i) {
    const PlannedNodeKernel *k = site.kernel(i);
    if (k && k->kind != group.kinds[i] && !wrong++)
      first = i;
  }
  if (!wrong)
    return;
  const NodeId id = group.nodeIds[first];
  j.findings.report(Check::kinds, g, id, [&] {
    // The nodes' kinds, where the plan has the node (else the group's own): listed whole only for
    // a group of at most 4 nodes, so that a message costs nothing per node of a large group.
    auto truth = [&](std::size_t i) {
      return site.kernel(i) ? site.kernel(i)->kind : group.kinds[i];
    };
    std::string message;
    if (group.nodeIds.size() == 1) {
      message = groupLabel(group, g) + " lists kind " + kindText(j.interner, group.kinds[0]) +
                ", but node " + std::to_string(id) + " is " + kindText(j.interner, truth(0));
    } else if (group.nodeIds.size() <= 4) {
      std::vector<KindId> nodes;
      for (std::size_t i = 0; i < group.nodeIds.size(); ++i)
        nodes.push_back(truth(i));
      message = groupLabel(group, g) + " lists kinds " + kindsText(j.interner, group.kinds) +
                ", but its nodes' kinds are " + kindsText(j.interner, nodes);
    } else {
      message = "kind " + std::to_string(first) + " of " + groupLabel(group, g) + " is " +
                kindText(j.interner, group.kinds[first]) + ", but node " + std::to_string(id) +
                " is " + kindText(j.interner, truth(first)) +
                (wrong > 1 ? " (" + std::to_string(wrong - 1) + " more positions differ)" : "");
    }
    return Description{groupPointer(g, "kinds", first), std::move(message)};
  });
}

} // namespace lo::checks::detail
