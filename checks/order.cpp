// order: the candidate has the plan's ids, but not in the plan's order (docs/spec.md §3.1).
#include "checks/context.hpp"

#include <algorithm>

namespace lo::checks::detail {

// Judged only when provenance holds, so the candidate's ids are a permutation of the plan's.
// The nodes that stay in place are a longest increasing subsequence of plan positions (found in
// O(n log n)); every maximal run of the other, displaced nodes is one violation. Two swapped
// groups are thus one finding (the smaller group moved), not one per later node.
void checkOrder(Context &cx) {
  if (!cx.sameMultiset)
    return;
  const auto &groups = cx.lowering.groups;
  // The common case, in order, is decided without allocating.
  bool sorted = true;
  std::size_t next = 0;
  for (std::size_t g = 0; g < groups.size() && sorted; ++g)
    for (NodeId id : groups[g].nodeIds)
      if (cx.index.find(id) != next++) {
        sorted = false;
        break;
      }
  if (sorted)
    return;
  std::vector<std::size_t> pos;                        // candidate sequence as plan positions
  std::vector<std::pair<std::size_t, std::size_t>> at; // (group, index in group)
  pos.reserve(cx.plan.kernels.size());
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (NodeId id : groups[g].nodeIds)
      pos.push_back(cx.index.find(id));
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (std::size_t i = 0; i < groups[g].nodeIds.size(); ++i)
      at.emplace_back(g, i);

  // Patience sorting: tails[l] = index (into pos) of the smallest tail of an increasing
  // subsequence of length l + 1; prev links reconstruct one longest subsequence.
  const std::size_t n = pos.size();
  std::vector<std::size_t> tails, prev(n, SIZE_MAX);
  for (std::size_t j = 0; j < n; ++j) {
    auto it = std::lower_bound(tails.begin(), tails.end(), pos[j],
                               [&](std::size_t t, std::size_t v) { return pos[t] < v; });
    if (it != tails.begin())
      prev[j] = *(it - 1);
    if (it == tails.end())
      tails.push_back(j);
    else
      *it = j;
  }
  std::vector<std::uint8_t> kept(n, 0);
  for (std::size_t j = tails.empty() ? SIZE_MAX : tails.back(); j != SIZE_MAX; j = prev[j])
    kept[j] = 1;

  for (std::size_t j = 0; j < n;) {
    if (kept[j]) {
      ++j;
      continue;
    }
    std::size_t end = j;
    while (end < n && !kept[end])
      ++end;
    const std::size_t g = at[j].first, i = at[j].second; // captured below: no structured binding
    cx.findings.report(Check::order, g, cx.plan.kernels[pos[j]].nodeId, [&] {
      std::vector<NodeId> moved;
      for (std::size_t k = j; k < end; ++k)
        moved.push_back(cx.plan.kernels[pos[k]].nodeId);
      const std::size_t p = pos[j];
      return Description{
          groupPointer(g, "nodeIds", i),
          outOfOrderMessage(moved, g,
                            p == 0 ? std::nullopt : std::optional(cx.plan.kernels[p - 1].nodeId))};
    });
    j = end;
  }
}

} // namespace lo::checks::detail
