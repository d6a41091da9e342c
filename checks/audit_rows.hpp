// What the audit and trust-boundary checks share: the views a carried audit states, derived
// again from its own rows, and the walk over a group's members that compares the group's audit
// row with their singleton rows.
#pragma once

#include "checks/context.hpp"

#include <functional>

namespace lo::checks::detail {

/// `capsuleNames`, `trustLevels`, `trustedExternalOps`, `hasTrustedExternal` of `rows`.
AuditDocument viewsOf(const Interner &interner, const ExecutionAudit &rows);

/// Calls `visit(member, i, groupRow, memberRow)` for each member of a non-empty group whose
/// singleton audit row differs from the audit row derived from the group. The first member is
/// always compared; the others only in mode coalesced (in mode singleton they are the singleton
/// check's finding).
void forEachMemberRowDifference(
    Judge &j, const GroupSite &site,
    const std::function<void(const PlannedNodeKernel &, std::size_t, CapsuleId, CapsuleId)> &visit);

/// "audit row 2 (relu, capsule reference.relu)".
std::string rowLabel(const Interner &interner, std::size_t i, CapsuleId row);

} // namespace lo::checks::detail
