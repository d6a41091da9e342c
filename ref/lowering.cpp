#include "ref/lowering.hpp"

#include "ref/list.hpp"

namespace lo {

PlannedKernel toPlannedKernel(const LoweredKernelGroup &g) { return {g.op, g.capsule}; }

bool hasTrustedExternal(const Interner &interner, const LoweredKernelGroup &g) {
  return isTrustedExternal(interner.capsule(g.capsule));
}

bool canAppend(const Interner &interner, Equality equality, const LoweredKernelGroup &g,
               const PlannedNodeKernel &k) {
  return g.op == k.op && interner.same(equality, g.capsule, k.capsule);
}

void appendNode(LoweredKernelGroup &g, const PlannedNodeKernel &k) {
  g.nodeIds.push_back(k.nodeId);
  g.kinds.push_back(k.kind);
  g.groupingKind = GroupingKind::sameCapsuleRun;
}

std::vector<NodeId> nodeIds(const GraphLoweringPlan &p) {
  std::size_t n = 0;
  for (const auto &g : p.groups)
    n += g.nodeIds.size();
  std::vector<NodeId> out;
  out.reserve(n);
  for (const auto &g : p.groups)
    out.insert(out.end(), g.nodeIds.begin(), g.nodeIds.end());
  return out;
}

std::vector<std::string> capsuleNames(const Interner &interner, const GraphLoweringPlan &p) {
  return mapped(p.groups,
                [&](const LoweredKernelGroup &g) { return interner.capsule(g.capsule).name; });
}

ExecutionPlan toExecutionPlan(const GraphLoweringPlan &p) {
  return ExecutionPlan{mapped(p.groups, toPlannedKernel)};
}

ExecutionAudit audit(Interner &interner, const GraphLoweringPlan &p) {
  return audit(interner, toExecutionPlan(p));
}

bool hasTrustedExternal(const Interner &interner, const GraphLoweringPlan &p) {
  for (const auto &g : p.groups)
    if (hasTrustedExternal(interner, g))
      return true;
  return false;
}

LoweredKernelGroup toSingletonLoweredGroup(const PlannedNodeKernel &k) {
  return LoweredKernelGroup{{k.nodeId}, {k.kind}, k.op, k.capsule, GroupingKind::singleton};
}

void startGroup(LoweredKernelGroup &g, const PlannedNodeKernel &k) {
  g.nodeIds.clear();
  g.nodeIds.push_back(k.nodeId);
  g.kinds.clear();
  g.kinds.push_back(k.kind);
  g.op = k.op;
  g.capsule = k.capsule;
  g.groupingKind = GroupingKind::singleton;
}

GraphLoweringPlan toSingletonLoweringPlan(const GraphExecutionPlan &p) {
  return GraphLoweringPlan{mapped(p.kernels, toSingletonLoweredGroup)};
}

void LoweringState::pushKernel(const PlannedNodeKernel &k) {
  if (!groups.empty() && canAppend(interner, equality, groups.back(), k))
    appendNode(groups.back(), k);
  else
    groups.push_back(toSingletonLoweredGroup(k));
}

GraphLoweringPlan toCoalescedLoweringPlan(const Interner &interner, const GraphExecutionPlan &p,
                                          Equality equality) {
  LoweringState s{interner, equality, {}};
  // At most one group per kernel: the vector is never regrown (pages not written cost nothing).
  s.groups.reserve(p.kernels.size());
  for (const auto &k : p.kernels)
    s.pushKernel(k);
  return GraphLoweringPlan{std::move(s.groups)};
}

GraphLoweringPlan lower(const Interner &interner, const GraphExecutionPlan &p, Mode mode,
                        Equality equality) {
  return mode == Mode::singleton ? toSingletonLoweringPlan(p)
                                 : toCoalescedLoweringPlan(interner, p, equality);
}

} // namespace lo
