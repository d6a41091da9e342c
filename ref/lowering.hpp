// Backend lowering plans (docs/spec.md §1; Lowering.lean in the original).
//
// "GraphExecutionPlan chooses a capsule for each runtime-relevant IR node. A GraphLoweringPlan
// groups those choices into backend calls. The conservative lowering coalesces adjacent nodes only
// when they use the same operation and the exact same capsule contract."
#pragma once

#include "ref/audit.hpp"
#include "ref/ir.hpp"

#include <string>
#include <vector>

namespace lo {

/// "One lowered backend call, with source IR nodes kept for audit and debugging."
struct LoweredKernelGroup {
  std::vector<NodeId> nodeIds;
  std::vector<KindId> kinds;
  BackendOp op = BackendOp::relu;
  CapsuleId capsule{};
  GroupingKind groupingKind = GroupingKind::singleton;
  bool operator==(const LoweredKernelGroup &) const = default;
};

/// The fields of a group (ref/record.hpp; docs/spec.md §2.5): `kinds` and `groupingKind` only in
/// the editions whose upstream groups carry them (`EditionRules::groupKinds`, ref/edition.hpp).
template <> struct RecordTable<LoweredKernelGroup> {
  using Value = LoweredKernelGroup;
  using G = LoweredKernelGroup;
  static constexpr std::string_view what = "a group";
  static constexpr auto fields = std::tuple{
      field("nodeIds", &G::nodeIds), field("kinds", &G::kinds).only(editionsWithGroupKinds()),
      field("op", &G::op), field("capsule", &G::capsule),
      field("groupingKind", &G::groupingKind).only(editionsWithGroupKinds())};
};

/// "Graph lowering plan: backend groups in execution order."
struct GraphLoweringPlan {
  std::vector<LoweredKernelGroup> groups;
  bool operator==(const GraphLoweringPlan &) const = default;
};

// --- LoweredKernelGroup ---------------------------------------------------------------------

/// "Erase lowering metadata to the older single-kernel execution-plan row."
PlannedKernel toPlannedKernel(const LoweredKernelGroup &g);

/// "Whether this lowered group crosses a trusted-external boundary."
bool hasTrustedExternal(const Interner &interner, const LoweredKernelGroup &g);

/// "Whether a planned node can be appended to this lowered backend group":
/// `canAppend(g, k) = g.op == k.op && same(g.capsule, k.capsule)`.
bool canAppend(const Interner &interner, Equality equality, const LoweredKernelGroup &g,
               const PlannedNodeKernel &k);

/// "Append a node to an existing backend group, preserving source-node provenance": keeps `op`
/// and `capsule`, appends the id and the kind, sets `groupingKind = sameCapsuleRun`.
void appendNode(LoweredKernelGroup &g, const PlannedNodeKernel &k);

// --- GraphLoweringPlan ----------------------------------------------------------------------

/// "Source IR node ids covered by the lowering plan, in execution order."
std::vector<NodeId> nodeIds(const GraphLoweringPlan &p);

/// "Selected capsule names, in lowering order."
std::vector<std::string> capsuleNames(const Interner &interner, const GraphLoweringPlan &p);

/// "Erase lowering metadata to the audit/execution-plan view."
ExecutionPlan toExecutionPlan(const GraphLoweringPlan &p);

/// "Audit the selected backend boundaries of the lowering plan."
ExecutionAudit audit(Interner &interner, const GraphLoweringPlan &p);

/// "Whether any lowered group crosses a trusted-external boundary."
bool hasTrustedExternal(const Interner &interner, const GraphLoweringPlan &p);

// --- Lowerings --------------------------------------------------------------------------------

/// "Lower one graph-planned node to a singleton backend group."
LoweredKernelGroup toSingletonLoweredGroup(const PlannedNodeKernel &k);

/// "Default lowering: one backend group per runtime-relevant IR node."
GraphLoweringPlan toSingletonLoweringPlan(const GraphExecutionPlan &p);

/// "Fold state for conservative same-boundary lowering." The Lean state keeps `groupsRev`, the
/// groups newest first; here `groups.back()` is the head of that list.
struct LoweringState {
  const Interner &interner;
  Equality equality;
  std::vector<LoweredKernelGroup> groups;

  /// "Add one planned node to the lowering state, coalescing with the previous group when safe."
  void pushKernel(const PlannedNodeKernel &k);
};

/// "Conservative grouping: adjacent nodes with the same backend boundary share one
/// audit/scheduling group." A left fold of `pushKernel` over the planned nodes.
GraphLoweringPlan toCoalescedLoweringPlan(const Interner &interner, const GraphExecutionPlan &p,
                                          Equality equality = Equality::contract);

/// The lowering of `mode`: `toSingletonLoweringPlan` or `toCoalescedLoweringPlan`.
GraphLoweringPlan lower(const Interner &interner, const GraphExecutionPlan &p, Mode mode,
                        Equality equality = Equality::contract);

} // namespace lo
