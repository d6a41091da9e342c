// Shrinking a failing plan for `diff` (docs/spec.md §4.3, "diff"): delta debugging over the
// kernels, then over the capsules, while the failure persists.
#pragma once

#include "ref/interner.hpp"
#include "ref/ir.hpp"
#include "ref/record.hpp"

#include <array>
#include <cstddef>
#include <functional>
#include <type_traits>
#include <utility>

namespace lo::diff {

/// Whether the failure persists on a smaller plan. Capsule ids refer to the shrinker's interner.
using StillFails = std::function<bool(const GraphExecutionPlan &)>;

struct Limits {
  std::size_t maxTests = 1000; // calls of StillFails, at most
};

struct Stats {
  std::size_t tests = 0;    // calls of StillFails
  std::size_t accepted = 0; // of which the failure persisted
};

/// One step of a shrinker: tests `candidate` while the limit allows, and keeps it as `current`
/// when `stillFails` says the failure persists.
template <class T, class Test>
bool tryCandidate(T &current, T candidate, const Test &stillFails, const Limits &limits,
                  Stats &stats) {
  if (stats.tests >= limits.maxTests)
    return false;
  ++stats.tests;
  if (!stillFails(candidate))
    return false;
  ++stats.accepted;
  current = std::move(candidate);
  return true;
}

/// The fields of record `K` (indices into its table) in the order in which step 3 below makes two
/// records agree, from the table alone: the fields that are neither identity nor trust, in the
/// table's order, then the identity fields, then the trust level (a field of type TrustLevel), so
/// that a difference in trust survives when it matters; another spelling of an earlier field's
/// member (`kFieldAlias`) is not a step of its own.
template <class K> constexpr auto unifyOrder() {
  std::array<std::size_t, memberFieldCount<K>()> order{};
  std::size_t n = 0;
  for (int pass = 0; pass < 3; ++pass)
    forEachField<K>([&](const auto &f, auto i) {
      using T = typename std::remove_cvref_t<decltype(f)>::Type;
      if (f.has(kFieldAlias))
        return;
      const int rank = std::is_same_v<T, TrustLevel> ? 2 : f.has(kFieldIdentity) ? 1 : 0;
      if (rank == pass)
        order[n++] = i;
    });
  return order;
}

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

} // namespace lo::diff
