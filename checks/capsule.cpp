// capsule: a group's capsule is not equal, under the equality in force, to its members'
// (docs/spec.md §3.1 and §3.2).
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
    // Keys of the capsules the plan uses up to this node (the stream form has read that far).
    const std::size_t at = site.members[i].position;
    return j.findings.report(Check::capsule, g, k->nodeId, [&] {
      const KernelCapsule &gc = in.capsule(group.capsule), &kc = in.capsule(k->capsule);
      const std::string node = "node " + std::to_string(k->nodeId);
      const Sides sides{"the group's", node + "'s"};
      Description d{groupPointer(g, "capsule"), {}};
      if (gc.name != kc.name) { // the capsule's name names the wrong capsule outright
        d.message = groupLabel(group, g) + " has " + j.capsuleWords(group.capsule, at) +
                    ", but its " + node + " uses " + j.capsuleWords(k->capsule, at);
        d.field = "capsule";
        d.expected = kc.name;
        d.actual = gc.name;
      } else {
        // One name, two capsules: where the plan keys them apart (relu.cudnn, relu.cudnn#2), the
        // keys say which is which (docs/spec.md §3.5).
        const std::string *groupKey = j.planKey(group.capsule, at);
        const std::string *nodeKey = j.planKey(k->capsule, at);
        const bool byKey = nodeKey && (!groupKey || *groupKey != *nodeKey);
        const std::string groupCapsule =
            "capsule " + gc.name +
            (!byKey     ? std::string()
             : groupKey ? " (key " + *groupKey + ")"
                        : " (used by no plan node up to " + node + ")");
        const std::string nodeCapsule =
            node + "'s capsule of that name" + (byKey ? " (key " + *nodeKey + ")" : "");
        const FieldDifference diff =
            exact ? capsuleDifference(gc, kc, sides) : identityDifference(gc, kc, sides);
        d.message = groupLabel(group, g) + " has " + groupCapsule + ", but its " + nodeCapsule +
                    (exact ? " differs in " : " differs in identity: ") + diff.words;
        // The field found wrong by its nested path below the group (docs/spec.md §3.5).
        d.field = "capsule." + diff.path;
        d.expected = diff.second;
        d.actual = diff.first;
      }
      if (identity && i == 0)
        d.message += " (under equality identity a group carries its first node's capsule exactly)";
      d.message += hiddenBoundary(in, group.capsule, *k);
      return d;
    });
  }
}

} // namespace lo::checks::detail
