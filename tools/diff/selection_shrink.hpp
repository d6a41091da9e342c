// Shrinking a failing selection case for `diff --planner` (docs/spec.md §4.3, "diff"): delta
// debugging over the graph's nodes, then over the registry's capsules, while the failure persists.
#pragma once

#include "tools/diff/shrink.hpp"
#include "tools/plans/selection_cases.hpp"

#include <functional>

namespace lo::diff {

/// Whether the failure persists on a smaller case.
using SelectionStillFails = std::function<bool(const plans::SelectionCase &)>;

/// `g` without the nodes at `positions` (ascending): the remaining nodes renumbered so that the
/// ids keep their offsets from the positions, and the parents that named a removed node dropped.
selection::Graph withoutNodes(const selection::Graph &g, const std::vector<std::size_t> &positions);

/// A case on which `stillFails` holds, no larger than `failing` (on which it must hold), reached by
///  1. delta debugging over the graph's nodes (chunks halving down to one node),
///  2. removing each capsule of the registry in turn, then each empty module,
///  3. and dropping each node's parents.
plans::SelectionCase shrinkSelection(plans::SelectionCase failing,
                                     const SelectionStillFails &stillFails,
                                     const Limits &limits = {}, Stats *stats = nullptr);

} // namespace lo::diff
