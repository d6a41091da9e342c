// trust-boundary: "the candidate's audit hides a trusted-external boundary that the singleton
// lowering shows" (docs/spec.md §3).
#include "checks/audit_rows.hpp"

namespace lo::checks::detail {

namespace {

std::size_t trustedExternalRows(const Interner &interner, const std::vector<KernelAudit> &rows) {
  std::size_t n = 0;
  for (const auto &r : rows)
    n += isTrustedExternal(interner, r);
  return n;
}

} // namespace

// A carried audit hides a boundary when a row, or one of the views, shows less trusted-external
// than the rows derived from the candidate's groups (or than its own rows, for the views).
void checkCarriedTrustBoundary(Context &cx) {
  const AuditDocument &a = *cx.candidate.audit;
  const auto &derived = cx.derivedAudit();
  const Interner &in = cx.interner;
  auto report = [&](std::optional<std::size_t> g, std::string pointer, std::string message) {
    cx.findings.report(Check::trustBoundary, g, std::nullopt, [&] {
      return Description{std::move(pointer), std::move(message)};
    });
  };
  const auto &rows = a.audit.kernels;
  if (rows.size() != derived.size()) {
    const std::size_t shown = trustedExternalRows(in, rows),
                      truth = trustedExternalRows(in, derived);
    if (shown < truth)
      report(std::nullopt, "/audit/kernels",
             "the audit shows " + std::to_string(shown) +
                 " trusted-external rows, but the groups "
                 "have " +
                 std::to_string(truth) + ": it hides a trusted-external boundary");
  } else {
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const CapsuleId shown = rows[i].view, truth = derived[i].view;
      if (shown == truth || !hidesBoundary(in, shown, truth))
        continue;
      report(i, "/audit/kernels/" + std::to_string(i) + "/trustLevel",
             rowLabel(in, i, shown) + " says trustLevel " +
                 std::string(spelling(in.capsule(shown).trustLevel)) + ", but group " +
                 std::to_string(i) + "'s " + capsuleText(in, truth) +
                 " is trusted-external: the audit hides a trusted-external boundary");
    }
  }

  const AuditDocument own = toDocument(in, a.audit);
  if (a.trustLevels.size() == own.trustLevels.size())
    for (std::size_t i = 0; i < own.trustLevels.size(); ++i)
      if (own.trustLevels[i] == TrustLevel::trusted_external &&
          a.trustLevels[i] != TrustLevel::trusted_external) {
        report(std::nullopt, "/audit/trustLevels/" + std::to_string(i),
               "trustLevels[" + std::to_string(i) + "] is " +
                   std::string(spelling(a.trustLevels[i])) + ", but audit row " +
                   std::to_string(i) + " is trusted-external: the audit hides the boundary");
        break;
      }
  if (a.trustedExternalOps.size() < own.trustedExternalOps.size())
    report(std::nullopt, "/audit/trustedExternalOps",
           "trustedExternalOps lists " + std::to_string(a.trustedExternalOps.size()) +
               " ops, but " + std::to_string(own.trustedExternalOps.size()) +
               " audit rows are trusted-external: the audit hides a boundary");
  if (!a.hasTrustedExternal && own.hasTrustedExternal)
    report(std::nullopt, "/audit/hasTrustedExternal",
           "hasTrustedExternal is false, but an audit row is trusted-external");
}

// The audit derived from the groups, against the singleton lowering's rows. A hidden
// trusted-external boundary is reported even in a group the capsule check already named: the
// capsule finding says the group is wrong, this one says what the wrong group hides from an
// auditor (a consequence a user must see, not a cascade). Under equality identity a later
// member's hidden boundary is what the identity lowering gives: the audit check tells it as a
// note.
void checkTrustBoundaryRows(Judge &j, GroupSite &site) {
  const bool identity = j.identityCoalescing();
  const Interner &in = j.interner;
  const std::size_t g = site.index;
  forEachMemberRowDifference(
      j, site,
      [&](const PlannedNodeKernel &k, std::size_t i, CapsuleId groupRow, CapsuleId memberRow) {
        if ((identity && i > 0) || !hidesBoundary(in, groupRow, memberRow))
          return;
        j.findings.report(Check::trustBoundary, g, k.nodeId, [&] {
          return Description{
              groupPointer(g),
              "the audit row of " + groupLabel(site.group, g) +
                  " is not trusted-external, but node " + std::to_string(k.nodeId) +
                  "'s singleton row is: the audit hides a trusted-external boundary"};
        });
      });
}

} // namespace lo::checks::detail
