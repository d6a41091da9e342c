// Backend lowering plans (docs/spec.md §1.2 and §1.3; Lowering.lean in the original): the
// singleton lowering, one group per node, and the coalesced one, which appends a node to the last
// group while `canAppend` holds.
#pragma once

#include "ref/audit.hpp"
#include "ref/ir.hpp"
#include "ref/node_id_list.hpp"

#include <string>
#include <vector>

namespace lo {

/// One backend call: its op and capsule, and the plan nodes it covers (docs/spec.md §2.5).
struct LoweredKernelGroup {
  NodeIdList nodeIds;
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

/// The groups, in execution order.
struct GraphLoweringPlan {
  std::vector<LoweredKernelGroup> groups;
  bool operator==(const GraphLoweringPlan &) const = default;
};

// --- LoweredKernelGroup ---------------------------------------------------------------------

/// The group as an execution-plan row: its op and capsule.
PlannedKernel toPlannedKernel(const LoweredKernelGroup &g);

/// Whether the group's capsule is trusted-external.
bool hasTrustedExternal(const Interner &interner, const LoweredKernelGroup &g);

/// Whether node `k` may join group `g` (docs/spec.md §1.3):
/// `canAppend(g, k) = g.op == k.op && same(g.capsule, k.capsule)`.
bool canAppend(const Interner &interner, Equality equality, const LoweredKernelGroup &g,
               const PlannedNodeKernel &k);

/// Adds `k` to `g`: keeps `op`
/// and `capsule`, appends the id and the kind, sets `groupingKind = sameCapsuleRun`.
void appendNode(LoweredKernelGroup &g, const PlannedNodeKernel &k);

// --- GraphLoweringPlan ----------------------------------------------------------------------

/// The groups' node ids, concatenated.
std::vector<NodeId> nodeIds(const GraphLoweringPlan &p);

/// The groups' capsule names, in order.
std::vector<std::string> capsuleNames(const Interner &interner, const GraphLoweringPlan &p);

/// The plan as the execution-plan view: one row per group.
ExecutionPlan toExecutionPlan(const GraphLoweringPlan &p);

/// The audit of the groups, one row each (docs/spec.md §1.4).
ExecutionAudit audit(Interner &interner, const GraphLoweringPlan &p);

/// Whether some group's capsule is trusted-external.
bool hasTrustedExternal(const Interner &interner, const GraphLoweringPlan &p);

// --- Lowerings --------------------------------------------------------------------------------

/// The group of one node alone.
LoweredKernelGroup toSingletonLoweredGroup(const PlannedNodeKernel &k);

/// The singleton lowering: one group per planned node (docs/spec.md §1.2).
GraphLoweringPlan toSingletonLoweringPlan(const GraphExecutionPlan &p);

/// The state of the coalescing fold. The Lean state keeps `groupsRev`, the
/// groups newest first; here `groups.back()` is the head of that list.
struct LoweringState {
  const Interner &interner;
  Equality equality;
  std::vector<LoweredKernelGroup> groups;

  /// Appends `k` to the last group when `canAppend` holds, else starts a group of its own.
  void pushKernel(const PlannedNodeKernel &k);
};

/// `g` made `toSingletonLoweredGroup(k)`, keeping the room its lists have.
void startGroup(LoweredKernelGroup &g, const PlannedNodeKernel &k);

/// The lowering of `mode` made one kernel at a time, holding only the group still open (every
/// group before it is finished, since `pushKernel` only appends to the last): each group is
/// handed to `emit` once finished, in order, and the groups handed out are those of `lower`.
/// Used where the groups are written as they come (a stream, a lowering written from its plan).
class GroupFold {
public:
  GroupFold(const Interner &interner, Mode mode, Equality equality)
      : interner_(interner), mode_(mode), equality_(equality) {}

  template <class Emit> void push(const PlannedNodeKernel &k, Emit &&emit) {
    if (open_ && mode_ == Mode::coalesced && canAppend(interner_, equality_, group_, k)) {
      appendNode(group_, k);
      return;
    }
    if (open_)
      emit(static_cast<const LoweredKernelGroup &>(group_));
    startGroup(group_, k);
    open_ = true;
  }

  /// Hands the group still open, if any, to `emit`.
  template <class Emit> void finish(Emit &&emit) {
    if (open_)
      emit(static_cast<const LoweredKernelGroup &>(group_));
    open_ = false;
  }

private:
  const Interner &interner_;
  Mode mode_;
  Equality equality_;
  LoweredKernelGroup group_;
  bool open_ = false;
};

/// The coalesced lowering (docs/spec.md §1.2): a left fold of `pushKernel` over the planned
/// nodes.
GraphLoweringPlan toCoalescedLoweringPlan(const Interner &interner, const GraphExecutionPlan &p,
                                          Equality equality = Equality::contract);

/// The lowering of `mode`: `toSingletonLoweringPlan` or `toCoalescedLoweringPlan`.
GraphLoweringPlan lower(const Interner &interner, const GraphExecutionPlan &p, Mode mode,
                        Equality equality = Equality::contract);

} // namespace lo
