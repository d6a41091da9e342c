#include "checks/audit_rows.hpp"

namespace lo::checks::detail {

AuditDocument viewsOf(const Interner &interner, const ExecutionAudit &rows) {
  return toDocument(interner, rows);
}

void forEachMemberRowDifference(Judge &j, const GroupSite &site,
                                const std::function<void(const PlannedNodeKernel &, std::size_t,
                                                         CapsuleId, CapsuleId)> &visit) {
  const auto &group = site.group;
  if (group.nodeIds.empty())
    return;
  const std::size_t members = j.options.mode == Mode::coalesced ? group.nodeIds.size() : 1;
  for (std::size_t i = 0; i < members; ++i) {
    const PlannedNodeKernel *k = site.kernel(i);
    // Same op and the same capsule give the same row: no row needs to be built.
    if (!k || (k->op == group.op && k->capsule == group.capsule))
      continue;
    const CapsuleId groupRow = j.auditRow(group.op, group.capsule).view;
    const CapsuleId memberRow = j.auditRow(k->op, k->capsule).view;
    if (groupRow != memberRow)
      visit(*k, i, groupRow, memberRow);
  }
}

std::string rowLabel(const Interner &interner, std::size_t i, CapsuleId row) {
  const KernelCapsule &c = interner.capsule(row);
  return "audit row " + std::to_string(i) + " (" + std::string(spelling(c.op)) + ", capsule " +
         c.name + ")";
}

} // namespace lo::checks::detail
