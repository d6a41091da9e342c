// What the audit and trust-boundary checks share: the walk over a group's members that compares the
// group's audit row with their singleton rows.
#pragma once

#include "checks/context.hpp"

namespace lo::checks::detail {

/// Calls `visit(member, i, groupRow, memberRow)` for each member of a non-empty group whose
/// singleton audit row differs from the audit row derived from the group. The first member is
/// always compared; the others only in mode coalesced (in mode singleton they are the singleton
/// check's finding).
/// (A template, so that the per-group call costs no std::function.)
template <class Visit>
void forEachMemberRowDifference(Judge &j, const GroupSite &site, Visit &&visit) {
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

/// "audit row 2 (relu, capsule reference.relu)".
std::string rowLabel(const Interner &interner, std::size_t i, CapsuleId row);

} // namespace lo::checks::detail
