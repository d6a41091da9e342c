// The original's `List.map` (Lean's `l.map f`, and `Array.map` in edition 2026-08): the functions
// of docs/spec.md §1.4 that map a list element by element (toSingletonLoweringPlan,
// toExecutionPlan, capsuleNames, trustLevels) are one call of `mapped`, as the original writes
// them.
#pragma once

#include <type_traits>
#include <vector>

namespace lo {

/// [f x | x <- xs], in order.
template <class T, class F> auto mapped(const std::vector<T> &xs, F &&f) {
  std::vector<std::decay_t<std::invoke_result_t<F &, const T &>>> out;
  out.reserve(xs.size());
  for (const T &x : xs)
    out.push_back(f(x));
  return out;
}

} // namespace lo
