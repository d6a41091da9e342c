// provenance: "the groups' ids, concatenated, are not the plan's ids as a multiset (missing,
// extra, repeated)" (docs/spec.md §3).
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
        if (!cx.findings.listing(Check::provenance)) {
          cx.findings.count(Check::provenance);
          continue;
        }
        cx.findings.add(Check::provenance, g, id, groupPointer(g, "nodeIds", i),
                        "group " + std::to_string(g) + " lists node " + std::to_string(id) +
                            (p == NodeIndex::kAbsent ? ", which is not in the plan"
                                                     : " again; the plan has it once"));
      } else {
        seen[p] = 1;
      }
    }
  }
  for (std::size_t p = 0; p < seen.size(); ++p) {
    if (seen[p])
      continue;
    clean = false;
    const NodeId id = cx.plan.kernels[p].nodeId;
    if (!cx.findings.listing(Check::provenance)) {
      cx.findings.count(Check::provenance);
      continue;
    }
    std::string where = p == 0 ? std::string("it is the plan's first node")
                               : "it comes after node " +
                                     std::to_string(cx.plan.kernels[p - 1].nodeId) + " in the plan";
    cx.findings.add(Check::provenance, std::nullopt, id, "/groups",
                    "node " + std::to_string(id) + " (" +
                        kindText(cx.interner, cx.plan.kernels[p].kind) +
                        ") of the plan is in no group; " + where);
  }
  cx.sameMultiset = clean;
}

} // namespace lo::checks::detail
