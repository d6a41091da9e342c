// The planner's output: `IR.PlannedNodeKernel` and `IR.GraphExecutionPlan` (docs/spec.md §1).
//
// "A GraphExecutionPlan picks one kernel capsule for every runtime-relevant IR node, in graph
// order."
#pragma once

#include "ref/interner.hpp"
#include "ref/record.hpp"

#include <cstdint>
#include <vector>

namespace lo {

/// IR node ids are naturals below 2^63 (docs/spec.md §2).
using NodeId = std::uint64_t;
inline constexpr NodeId kNodeIdLimit = NodeId{1} << 63;

/// One planned node: its id, its kind, the op it lowers to and the capsule chosen for it.
struct PlannedNodeKernel {
  NodeId nodeId = 0;
  KindId kind{};
  BackendOp op = BackendOp::relu;
  CapsuleId capsule{};
  bool operator==(const PlannedNodeKernel &) const = default;
};

/// The fields of a kernel (ref/record.hpp; docs/spec.md §2.4): every edition has each, required.
template <> struct RecordTable<PlannedNodeKernel> {
  using Value = PlannedNodeKernel;
  using K = PlannedNodeKernel;
  static constexpr std::string_view what = "a kernel";
  static constexpr auto fields = std::tuple{field("nodeId", &K::nodeId), field("kind", &K::kind),
                                            field("op", &K::op), field("capsule", &K::capsule)};
};

/// Planned nodes in graph order.
struct GraphExecutionPlan {
  std::vector<PlannedNodeKernel> kernels;
  bool operator==(const GraphExecutionPlan &) const = default;
};

} // namespace lo
