// trust-boundary: a trusted-external boundary the singleton lowering's audit shows is missing from
// the candidate's (docs/spec.md §3.1).
#include "checks/audit_rows.hpp"
#include "ref/io/escape.hpp"

#include <algorithm>

namespace lo::checks::detail {

// A carried audit hides a boundary when a row, or one of the views, shows less trusted-external
// than the rows derived from the candidate's groups (or than its own rows, for the views).
void checkCarriedTrustBoundary(Context &cx) {
  CarriedAudit c(cx, Check::trustBoundary);
  const AuditDocument &a = c.carried, &own = c.own;
  const auto counts = c.forEachDifferentRow([&](std::size_t i, CapsuleId shown, CapsuleId truth) {
    if (hidesBoundary(c.in, shown, truth))
      c.report(i, "/audit/kernels/" + std::to_string(i) + "/trustLevel",
               rowLabel(c.in, i, shown) + " says trustLevel " +
                   std::string(spelling(c.in.capsule(shown).trustLevel)) + ", but group " +
                   std::to_string(i) + "'s " + capsuleText(c.in, truth) +
                   " is trusted-external: the audit hides a trusted-external boundary");
  });
  if (counts && counts->shown < counts->truth)
    c.report(std::nullopt, "/audit/kernels",
             "the audit shows " + std::to_string(counts->shown) +
                 " trusted-external rows, but the groups have " + std::to_string(counts->truth) +
                 ": it hides a trusted-external boundary");

  if (a.trustLevels.size() == own.trustLevels.size())
    for (std::size_t i = 0; i < own.trustLevels.size(); ++i)
      if (own.trustLevels[i] == TrustLevel::trusted_external &&
          a.trustLevels[i] != TrustLevel::trusted_external) {
        c.report(std::nullopt, "/audit/trustLevels/" + std::to_string(i),
                 "trustLevels[" + std::to_string(i) + "] is " +
                     std::string(spelling(a.trustLevels[i])) + ", but audit row " +
                     std::to_string(i) + " is trusted-external: the audit hides the boundary");
        break;
      }
  // The list is a multiset of the rows' ops: an op it lists fewer times than the rows have it is
  // hidden, and the sentence says so in those words ("lists sin 1 time, where the rows have it 2
  // times"), never "leaves out sin" for a list that holds sin.
  if (const auto hidden = hiddenTrustedExternalOp(a.trustedExternalOps, own.trustedExternalOps)) {
    const auto times = [&](const std::vector<BackendOp> &ops) {
      return io::counted(static_cast<std::size_t>(std::count(ops.begin(), ops.end(), *hidden)),
                         "time");
    };
    const std::string op(spelling(*hidden));
    const bool listed = std::find(a.trustedExternalOps.begin(), a.trustedExternalOps.end(),
                                  *hidden) != a.trustedExternalOps.end();
    c.report(std::nullopt, "/audit/trustedExternalOps",
             "trustedExternalOps lists " + std::to_string(a.trustedExternalOps.size()) +
                 (a.trustedExternalOps.size() == 1 ? " op, but " : " ops, but ") +
                 std::to_string(own.trustedExternalOps.size()) +
                 (own.trustedExternalOps.size() == 1 ? " audit row is" : " audit rows are") +
                 " trusted-external and " +
                 (listed ? "it lists " + op + " " + times(a.trustedExternalOps) +
                               ", where the rows have it " + times(own.trustedExternalOps)
                         : "it leaves out " + op) +
                 ": the audit hides a boundary");
  }
  if (!a.hasTrustedExternal && own.hasTrustedExternal)
    c.report(std::nullopt, "/audit/hasTrustedExternal",
             "hasTrustedExternal is false, but an audit row is trusted-external");
}

// The audit derived from the groups, against the singleton lowering's rows. A hidden
// trusted-external boundary is reported even in a group the capsule check already named: the
// capsule finding says the group is wrong, this one says what the wrong group hides from an
// auditor (a consequence a user must see, not a cascade). Under equality identity a later
// member's hidden boundary is what the identity lowering gives: the audit check tells it as a
// note.
void checkTrustBoundaryRows(Judge &j, GroupSite &site) {
  const std::size_t g = site.index;
  forEachMemberRowDifference(
      j, site,
      [&](const PlannedNodeKernel &k, std::size_t i, CapsuleId groupRow, CapsuleId memberRow) {
        if (!hidesBoundary(j.interner, groupRow, memberRow) || (i > 0 && j.identityCoalescing()))
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
