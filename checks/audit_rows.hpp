// What the audit and trust-boundary checks share: the walk over a group's members that compares the
// group's audit row with their singleton rows, and the walk over a carried audit's rows that
// compares them with the rows derived from the groups.
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

std::size_t trustedExternalRows(const Interner &interner, const std::vector<KernelAudit> &rows);

/// The candidate's carried audit, as the audit and trust-boundary checks judge it: its rows
/// against the rows derived from the groups, its views against the views of its own rows.
struct CarriedAudit {
  CarriedAudit(Context &cx, Check check)
      : cx(cx), check(check), in(cx.interner), carried(*cx.candidate.audit),
        own(toDocument(in, carried.audit)) {}

  Context &cx;
  const Check check;
  const Interner &in;
  const AuditDocument &carried;
  const AuditDocument own; // the views of the carried rows

  /// A finding of `check` at `pointer`, of group `g` when given.
  void report(std::optional<std::size_t> g, std::string pointer, std::string message) {
    cx.findings.report(check, g, std::nullopt, [&] {
      return Description{std::move(pointer), std::move(message)};
    });
  }

  /// The trusted-external rows of the carried audit (`shown`) and of the derived one (`truth`).
  struct TrustedExternalCounts {
    std::size_t shown, truth;
  };

  /// Calls `onRow(i, shown, truth)` for every carried row `i` that differs from the derived row,
  /// when there are as many of each; when their numbers differ, returns the trusted-external
  /// counts instead.
  template <class OnRow> std::optional<TrustedExternalCounts> forEachDifferentRow(OnRow &&onRow) {
    const auto &rows = carried.audit.kernels;
    const auto &derived = cx.derivedAudit();
    if (rows.size() != derived.size())
      return TrustedExternalCounts{trustedExternalRows(in, rows), trustedExternalRows(in, derived)};
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (rows[i].view != derived[i].view)
        onRow(i, rows[i].view, derived[i].view);
    return std::nullopt;
  }
};

/// The first op that `truth` (the trustedExternalOps of the rows) lists more often than `shown`
/// (the carried trustedExternalOps) does: a trusted-external boundary the carried view hides.
/// trustedExternalOps is one entry per trusted-external row, so hiding is a multiset question
/// (docs/spec.md §5.1), not a question of length: a view as long as the rows' that names another
/// op instead of `relu` still hides `relu`.
std::optional<BackendOp> hiddenTrustedExternalOp(const std::vector<BackendOp> &shown,
                                                 const std::vector<BackendOp> &truth);

/// "audit row 2 (relu, capsule reference.relu)".
std::string rowLabel(const Interner &interner, std::size_t i, CapsuleId row);

} // namespace lo::checks::detail
