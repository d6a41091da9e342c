// Shrinking a failing plan for `diff` (docs/spec.md §4.3, "diff"): delta debugging over the
// kernels, then over the capsules, while the failure persists.
#pragma once

#include "ref/interner.hpp"
#include "ref/ir.hpp"

#include <cstddef>
#include <functional>

namespace lo::shrink {

/// Whether the failure persists on a smaller plan. Capsule ids refer to the shrinker's interner.
using StillFails = std::function<bool(const GraphExecutionPlan &)>;

struct Limits {
  std::size_t maxTests = 1000; // calls of StillFails, at most
};

struct Stats {
  std::size_t tests = 0;    // calls of StillFails
  std::size_t accepted = 0; // of which the failure persisted
};

/// A plan on which `stillFails` holds, no larger than `failing` (on which it must hold), reached by
///  1. delta debugging over the kernels (remove chunks, halving the chunk size down to one kernel,
///     so that no single kernel can be removed at the end),
///  2. capsule variety: replace every use of a capsule by an earlier capsule of the same op,
///  3. then make the remaining capsules of one op agree field by field where the failure allows,
///  4. and number the nodes 1, 2, ... when the failure allows.
/// New capsules are interned in `interner`.
GraphExecutionPlan shrink(Interner &interner, GraphExecutionPlan failing,
                          const StillFails &stillFails, const Limits &limits = {},
                          Stats *stats = nullptr);

} // namespace lo::shrink
