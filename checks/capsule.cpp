// capsule: "contract: the group's capsule is not equal to every member's; identity: not equal to
// the first member's, or a member's capsule differs in identity" (docs/spec.md §3).
#include "checks/context.hpp"

#include <algorithm>

namespace lo::checks::detail {

namespace {

std::string hiddenBoundary(const Interner &interner, CapsuleId group, const PlannedNodeKernel &k) {
  if (hidesBoundary(interner, group, k.capsule))
    return "; the group hides the trusted-external boundary of node " + std::to_string(k.nodeId);
  return {};
}

} // namespace

// One violation per group, naming the first member that breaks the rule. Members whose op
// differs from the group's are the op check's finding and are not judged here again. In mode
// singleton only the first member is judged: further members are the singleton check's finding.
void checkCapsule(Judge &j, GroupSite &site) {
  const auto &group = site.group;
  const std::size_t g = site.index;
  const Interner &in = j.interner;
  const bool identity = j.identityCoalescing();
  const std::size_t members = j.options.mode == Mode::singleton
                                  ? std::min<std::size_t>(1, group.nodeIds.size())
                                  : group.nodeIds.size();
  for (std::size_t i = 0; i < members; ++i) {
    const PlannedNodeKernel *k = site.kernel(i);
    if (!k || k->op != group.op)
      continue;
    const bool exact = i == 0 || !identity;
    const bool ok = exact ? k->capsule == group.capsule
                          : in.same(Equality::identity, k->capsule, group.capsule);
    if (ok)
      continue;
    site.judged = true;
    return j.findings.report(Check::capsule, g, k->nodeId, [&] {
      const KernelCapsule &gc = in.capsule(group.capsule), &kc = in.capsule(k->capsule);
      const std::string node = "node " + std::to_string(k->nodeId);
      const Sides sides{"the group's", node + "'s"};
      std::string message = groupLabel(group, g) + " has " + capsuleText(in, group.capsule);
      if (gc.name != kc.name)
        message += ", but its " + node + " uses " + capsuleText(in, k->capsule);
      else if (exact)
        message += ", but its " + node + "'s capsule of that name differs in " +
                   capsuleDifference(gc, kc, sides);
      else
        message += ", but its " + node +
                   "'s capsule differs in identity: " + identityDifference(gc, kc, sides);
      if (identity && i == 0)
        message += " (under equality identity a group carries its first node's capsule exactly)";
      message += hiddenBoundary(in, group.capsule, *k);
      Description d{groupPointer(g, "capsule"), std::move(message)};
      if (gc.name != kc.name) { // the capsule's name names the wrong capsule outright
        d.field = "capsule";
        d.expected = kc.name;
        d.actual = gc.name;
      }
      return d;
    });
  }
}

} // namespace lo::checks::detail
