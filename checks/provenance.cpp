// provenance: an id of the plan is missing from the groups, or one is extra or repeated
// (docs/spec.md §3.1).
#include "checks/context.hpp"

namespace lo::checks::detail {

// Each id of the candidate is looked up once; a plan node is "seen" at its first occurrence.
// An id the plan lacks is extra, a second occurrence is repeated, and a plan node never seen is
// missing: one violation each, so a dropped node is exactly one finding.
void checkProvenance(Context &cx) {
  std::vector<std::uint8_t> seen(cx.plan.kernels.size(), 0);
  const auto &groups = cx.lowering.groups;
  bool clean = true;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto &ids = groups[g].nodeIds;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const NodeId id = ids[i];
      const std::size_t p = cx.index.find(id);
      if (p == NodeIndex::kAbsent || seen[p]) {
        clean = false;
        cx.findings.report(Check::provenance, g, id, [&] {
          return Description{groupPointer(g, "nodeIds", i), p == NodeIndex::kAbsent
                                                                ? extraNodeMessage(g, id)
                                                                : repeatedNodeMessage(g, id)};
        });
      } else {
        seen[p] = 1;
      }
    }
  }
  for (std::size_t p = 0; p < seen.size(); ++p) {
    if (seen[p])
      continue;
    clean = false;
    const PlannedNodeKernel &k = cx.plan.kernels[p];
    cx.findings.report(Check::provenance, std::nullopt, k.nodeId, [&] {
      return Description{
          "/groups",
          missingNodeMessage(cx.interner, k,
                             p == 0 ? std::nullopt : std::optional(cx.plan.kernels[p - 1].nodeId))};
    });
  }
  cx.sameMultiset = clean;
}

} // namespace lo::checks::detail
