#include "tools/diff/selection_shrink.hpp"

#include <algorithm>

namespace lo::diff {

selection::Graph withoutNodes(const selection::Graph &g,
                              const std::vector<std::size_t> &positions) {
  std::vector<bool> removed(g.nodes.size(), false);
  std::vector<NodeId> removedIds;
  for (std::size_t p : positions) {
    removed[p] = true;
    removedIds.push_back(g.nodes[p].id);
  }
  std::sort(removedIds.begin(), removedIds.end());
  // An id moves down by the removed ids below it; a parent that names a removed node goes.
  auto below = [&](NodeId id) {
    return static_cast<NodeId>(std::lower_bound(removedIds.begin(), removedIds.end(), id) -
                               removedIds.begin());
  };
  selection::Graph out;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (removed[i])
      continue;
    selection::Node n = g.nodes[i];
    n.id -= below(n.id);
    n.parents.clear();
    for (NodeId p : g.nodes[i].parents)
      if (!std::binary_search(removedIds.begin(), removedIds.end(), p))
        n.parents.push_back(p - below(p));
    out.nodes.push_back(std::move(n));
  }
  return out;
}

plans::SelectionCase shrinkSelection(plans::SelectionCase current,
                                     const SelectionStillFails &stillFails, const Limits &limits,
                                     Stats *stats) {
  Stats local;
  Stats &st = stats ? *stats : local;
  auto attempt = [&](plans::SelectionCase candidate) {
    return tryCandidate(current, std::move(candidate), stillFails, limits, st);
  };
  // 1. Nodes: chunks of halving size, from the end (a later node rarely matters less).
  for (std::size_t chunk = std::max<std::size_t>(current.graph.nodes.size() / 2, 1); chunk > 0;
       chunk /= 2) {
    for (std::size_t start = current.graph.nodes.size(); start > 0;) {
      const std::size_t from = start > chunk ? start - chunk : 0;
      std::vector<std::size_t> positions;
      for (std::size_t p = from; p < start && p < current.graph.nodes.size(); ++p)
        positions.push_back(p);
      plans::SelectionCase candidate = current;
      candidate.graph = withoutNodes(current.graph, positions);
      attempt(std::move(candidate));
      start = from;
    }
  }
  // 2. Capsules, last first, then the modules left empty.
  for (std::size_t m = current.profile.capsuleModules.size(); m-- > 0;)
    for (std::size_t c = current.profile.capsuleModules[m].capsules.size(); c-- > 0;) {
      plans::SelectionCase candidate = current;
      auto &capsules = candidate.profile.capsuleModules[m].capsules;
      capsules.erase(capsules.begin() + static_cast<std::ptrdiff_t>(c));
      attempt(std::move(candidate));
    }
  for (std::size_t m = current.profile.capsuleModules.size(); m-- > 0;)
    if (current.profile.capsuleModules[m].capsules.empty()) {
      plans::SelectionCase candidate = current;
      candidate.profile.capsuleModules.erase(candidate.profile.capsuleModules.begin() +
                                             static_cast<std::ptrdiff_t>(m));
      attempt(std::move(candidate));
    }
  // 3. Parents.
  for (std::size_t i = 0; i < current.graph.nodes.size(); ++i)
    if (!current.graph.nodes[i].parents.empty()) {
      plans::SelectionCase candidate = current;
      candidate.graph.nodes[i].parents.clear();
      attempt(std::move(candidate));
    }
  return current;
}

} // namespace lo::diff
