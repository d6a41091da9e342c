// audit: the candidate's audit is not the one its groups give, or a group's row is not its
// nodes' singleton rows (docs/spec.md §3.1).
#include "checks/audit_rows.hpp"

namespace lo::checks::detail {

namespace {

/// How an audit row differs from the row it should be, each named by its side; a row names its
/// capsule `capsuleName` (docs/spec.md §2.6).
FieldDifference rowDifference(const KernelCapsule &shown, const KernelCapsule &truth, Sides sides) {
  sides.nameField = "capsuleName";
  return capsuleDifference(shown, truth, sides);
}

} // namespace

// A carried audit equals the derived one exactly when its rows equal the derived rows and its
// views equal the views of its own rows. Judging the views against the candidate's own rows
// keeps one finding for a row that was changed consistently everywhere. Differences that hide a
// trusted-external boundary are the trust-boundary check's; every other one is named here.
void checkCarriedAudit(Context &cx) {
  CarriedAudit c(cx, Check::audit);
  const AuditDocument &a = c.carried, &own = c.own;
  const Interner &in = c.in;
  const auto counts = c.forEachDifferentRow([&](std::size_t i, CapsuleId shown, CapsuleId truth) {
    if (hidesBoundary(in, shown, truth))
      return;
    cx.findings.report(Check::audit, i, std::nullopt, [&] {
      const FieldDifference diff =
          rowDifference(in.capsule(shown), in.capsule(truth), {"the row's", "the derived row's"});
      // The pointer reaches the differing field of the row (a row is written whole, never by
      // key); `field` is its nested path (docs/spec.md §3.5).
      return Description{"/audit/kernels/" + std::to_string(i) + diff.pointer(),
                         rowLabel(in, i, shown) + " differs from the row derived from group " +
                             std::to_string(i) + " in " + diff.words,
                         diff.path, diff.second, diff.first};
    });
  });
  // A missing trusted-external row is the trust-boundary check's finding.
  if (counts && counts->shown >= counts->truth)
    c.report(std::nullopt, "/audit/kernels",
             "the audit has " + std::to_string(a.audit.kernels.size()) +
                 " rows, but the candidate has " + std::to_string(cx.derivedAudit().size()) +
                 " groups (one row a group)");

  auto firstDifference = [](const TextList &x, const TextList &y) {
    std::size_t i = 0;
    for (auto p = x.begin(), q = y.begin(); i < x.size() && i < y.size() && *p == *q; ++p, ++q)
      ++i;
    return i;
  };
  if (a.capsuleNames != own.capsuleNames) {
    const std::size_t i = firstDifference(a.capsuleNames, own.capsuleNames);
    c.report(std::nullopt, "/audit/capsuleNames",
             a.capsuleNames.size() != own.capsuleNames.size()
                 ? "the audit lists " + std::to_string(a.capsuleNames.size()) +
                       " capsuleNames for " + std::to_string(own.capsuleNames.size()) + " rows"
                 : "capsuleNames[" + std::to_string(i) + "] is " + std::string(a.capsuleNames[i]) +
                       ", but audit row " + std::to_string(i) + " names " +
                       std::string(own.capsuleNames[i]));
  }
  // An audit without `trustLevels` (the edition's audit has none, ref/edition.hpp) is not judged
  // on it.
  if (!rulesOf(cx.options.edition).auditTrustLevels) {
  } else if (a.trustLevels.size() != own.trustLevels.size()) {
    c.report(std::nullopt, "/audit/trustLevels",
             "the audit lists " + std::to_string(a.trustLevels.size()) + " trustLevels for " +
                 std::to_string(own.trustLevels.size()) + " rows");
  } else {
    for (std::size_t i = 0; i < own.trustLevels.size(); ++i) {
      const TrustLevel shown = a.trustLevels[i], truth = own.trustLevels[i];
      if (shown == truth || truth == TrustLevel::trusted_external)
        continue;
      c.report(std::nullopt, "/audit/trustLevels/" + std::to_string(i),
               "trustLevels[" + std::to_string(i) + "] is " + std::string(spelling(shown)) +
                   ", but audit row " + std::to_string(i) + " says " +
                   std::string(spelling(truth)));
      break;
    }
  }
  // A view that hides a trusted-external op is trust-boundary's finding; any other difference
  // (an extra op, another order) is this check's.
  if (a.trustedExternalOps != own.trustedExternalOps &&
      !hiddenTrustedExternalOp(a.trustedExternalOps, own.trustedExternalOps)) {
    c.report(std::nullopt, "/audit/trustedExternalOps",
             "trustedExternalOps lists " + std::to_string(a.trustedExternalOps.size()) +
                 (a.trustedExternalOps.size() == 1 ? " op" : " ops") +
                 ", but the audit rows give " + std::to_string(own.trustedExternalOps.size()) +
                 (a.trustedExternalOps.size() == own.trustedExternalOps.size() ? " different ones"
                                                                               : ""));
  }
  if (a.hasTrustedExternal && !own.hasTrustedExternal)
    c.report(std::nullopt, "/audit/hasTrustedExternal",
             "hasTrustedExternal is true, but no audit row is trusted-external");
}

// A group's row against its nodes' singleton rows. A row is a
// function of the op and the capsule, so a member's row differs only where its op or capsule
// differs from the group's, and the op and capsule checks have named every such member and marked
// the group judged (in mode singleton, where they judge a group's first member only, the
// singleton check names the others), except one: under equality identity a group's later members
// may differ from it in trust level or evidence. That is what the identity lowering gives (the
// reference output must pass), so it is told as a note, not as a violation.
void checkAuditRows(Judge &j, GroupSite &site) {
  if (site.judged || !j.identityCoalescing())
    return;
  const Interner &in = j.interner;
  const auto &group = site.group;
  const std::size_t g = site.index;
  forEachMemberRowDifference(
      j, site,
      [&](const PlannedNodeKernel &k, std::size_t, CapsuleId groupRow, CapsuleId memberRow) {
        // Only a later member can differ here (the capsule check holds the first to the group's
        // capsule exactly).
        if (j.identityNotes++ < j.options.maxPerCheck)
          j.findings.note(
              "under equality identity, " + groupLabel(group, g) + " shows node " +
              std::to_string(k.nodeId) +
              " with the audit row of its first node, which differs in " +
              rowDifference(in.capsule(groupRow), in.capsule(memberRow),
                            {"the group's row", "node " + std::to_string(k.nodeId) + "'s row"})
                  .words +
              (hidesBoundary(in, groupRow, memberRow)
                   ? ": the audit hides the trusted-external boundary the singleton "
                     "lowering shows"
                   : ""));
      });
}

} // namespace lo::checks::detail
