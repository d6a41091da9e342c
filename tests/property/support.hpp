// Helpers shared by the property files: how RapidCheck prints the vocabulary, and small views
// of a lowering that the properties compare.
#pragma once

#include "checks/checks.hpp"
#include "ref/lowering.hpp"
#include "tests/property/generators.hpp"

#include <ostream>
#include <sstream>
#include <string>

namespace lo {

// RapidCheck prints a counterexample's picks with showValue, found by argument-dependent lookup.
inline void showValue(Mode m, std::ostream &os) { os << spelling(m); }
inline void showValue(Equality e, std::ostream &os) { os << spelling(e); }

} // namespace lo

namespace lo::prop {

/// A check report, one line a violation, count past the cap and note (for RC_LOG).
inline std::string describe(const checks::Report &report) {
  std::ostringstream os;
  for (const auto &v : report.violations)
    os << spelling(v.check) << " " << v.pointer << ": " << v.message << "\n";
  for (const auto &[check, n] : report.omitted)
    os << spelling(check) << ": " << n << " more\n";
  for (const auto &n : report.notes)
    os << "note: " << n << "\n";
  return os.str();
}

/// Kernels [begin, end) of a plan.
inline GraphExecutionPlan slicePlan(const GraphExecutionPlan &p, std::size_t begin,
                                    std::size_t end) {
  GraphExecutionPlan out;
  out.kernels.assign(p.kernels.begin() + static_cast<std::ptrdiff_t>(begin),
                     p.kernels.begin() + static_cast<std::ptrdiff_t>(end));
  return out;
}

/// Each group split into singleton groups that keep the group's op and capsule.
inline GraphLoweringPlan expand(const GraphLoweringPlan &l) {
  GraphLoweringPlan out;
  for (const auto &g : l.groups)
    for (std::size_t i = 0; i < g.nodeIds.size(); ++i)
      out.groups.push_back(LoweredKernelGroup{
          {g.nodeIds[i]}, {g.kinds[i]}, g.op, g.capsule, GroupingKind::singleton});
  return out;
}

/// The plan's node ids in order.
inline std::vector<NodeId> kernelIds(const GraphExecutionPlan &p) {
  std::vector<NodeId> ids;
  ids.reserve(p.kernels.size());
  for (const auto &k : p.kernels)
    ids.push_back(k.nodeId);
  return ids;
}

} // namespace lo::prop
