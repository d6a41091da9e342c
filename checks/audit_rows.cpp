#include "checks/audit_rows.hpp"

namespace lo::checks::detail {

AuditDocument viewsOf(const Interner &interner, const ExecutionAudit &rows) {
  return toDocument(interner, rows);
}

void forEachMemberRowDifference(
    Context &cx, JudgedGroups judged,
    const std::function<void(std::size_t, const PlannedNodeKernel &, std::size_t, CapsuleId,
                             CapsuleId)> &visit) {
  const auto &groups = cx.lowering.groups;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto &group = groups[g];
    if (group.nodeIds.empty() || (judged == JudgedGroups::skip && cx.groupJudged[g]))
      continue;
    const std::size_t members = cx.options.mode == Mode::coalesced ? group.nodeIds.size() : 1;
    for (std::size_t i = 0; i < members; ++i) {
      const PlannedNodeKernel *k = cx.kernel(group.nodeIds[i]);
      // Same op and the same capsule give the same row: no row needs to be built.
      if (!k || (k->op == group.op && k->capsule == group.capsule))
        continue;
      const CapsuleId groupRow = cx.derivedAudit()[g].view;
      const CapsuleId memberRow = cx.auditRow(k->op, k->capsule).view;
      if (groupRow != memberRow)
        visit(g, *k, i, groupRow, memberRow);
    }
  }
}

std::string rowLabel(const Interner &interner, std::size_t i, CapsuleId row) {
  const KernelCapsule &c = interner.capsule(row);
  return "audit row " + std::to_string(i) + " (" + std::string(spelling(c.op)) + ", capsule " +
         c.name + ")";
}

} // namespace lo::checks::detail
