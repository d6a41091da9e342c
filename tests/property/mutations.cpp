#include "tests/property/mutations.hpp"

#include "tests/property/generators.hpp"

#include <algorithm>

namespace lo::prop {

namespace {

/// Where node `at` (in plan order) lies: its group and its position in the group.
struct Place {
  std::size_t group = 0, index = 0, at = 0;
};

std::vector<Place> places(const GraphLoweringPlan &l) {
  std::vector<Place> out;
  for (std::size_t g = 0; g < l.groups.size(); ++g)
    for (std::size_t i = 0; i < l.groups[g].nodeIds.size(); ++i)
      out.push_back({g, i, out.size()});
  return out;
}

/// Groups with at least two nodes.
std::vector<std::size_t> runs(const GraphLoweringPlan &l) {
  std::vector<std::size_t> out;
  for (std::size_t g = 0; g < l.groups.size(); ++g)
    if (l.groups[g].nodeIds.size() >= 2)
      out.push_back(g);
  return out;
}

void fixGroupingKind(LoweredKernelGroup &g) {
  g.groupingKind = g.nodeIds.size() == 1 ? GroupingKind::singleton : GroupingKind::sameCapsuleRun;
}

/// The first plan position of each group.
std::vector<std::size_t> firstPositions(const GraphLoweringPlan &l) {
  std::vector<std::size_t> out;
  std::size_t at = 0;
  for (const auto &g : l.groups) {
    out.push_back(at);
    at += g.nodeIds.size();
  }
  return out;
}

/// A kind other than `id` for a node whose op is `op`: another kind of the op, else the same kind
/// with other parameters, else a kind of another op.
KindId otherKind(Interner &interner, KindId id, BackendOp op, std::uint64_t salt) {
  const OpKind kind = interner.kind(id);
  const auto &tags = kindsOf(op);
  if (tags.size() > 1) {
    const auto at = std::find(tags.begin(), tags.end(), kind.tag) - tags.begin();
    const KindTag tag =
        tags[(static_cast<std::size_t>(at) + 1 + salt % (tags.size() - 1)) % tags.size()];
    OpKind other{tag, std::vector<std::vector<std::uint64_t>>(signature(tag).params.size())};
    for (std::size_t i = 0; i < signature(tag).params.size(); ++i)
      if (signature(tag).params[i].type == ParamType::natural)
        other.params[i] = {1};
    return interner.intern(std::move(other));
  }
  if (!kind.params.empty()) {
    OpKind other = kind;
    other.params[0].push_back(salt % 5 + 1);
    if (signature(kind.tag).params[0].type == ParamType::natural)
      other.params[0] = {kind.params[0].at(0) + 1};
    return interner.intern(std::move(other));
  }
  const KindTag other = kind.tag == KindTag::relu ? KindTag::tanh : KindTag::relu;
  return Interner::bareKind(other);
}

} // namespace

std::optional<Mutant> mutate(Mutation mutation, Interner &interner, const GraphExecutionPlan &plan,
                             const io::LoweringDocument &reference, Mode mode, Equality equality,
                             std::uint64_t salt, Edition edition) {
  Mutant m{reference, Check::provenance};
  auto &groups = m.document.plan.groups;
  const std::vector<Place> nodes = places(reference.plan);
  const std::vector<std::size_t> multi = runs(reference.plan);
  auto pick = [salt](std::size_t n) { return static_cast<std::size_t>(salt % n); };

  switch (mutation) {
  case Mutation::dropNode: { // provenance: a node is missing
    if (nodes.empty())
      return std::nullopt;
    const Place p = nodes[pick(nodes.size())];
    auto &g = groups[p.group];
    g.nodeIds.erase(g.nodeIds.begin() + static_cast<std::ptrdiff_t>(p.index));
    g.kinds.erase(g.kinds.begin() + static_cast<std::ptrdiff_t>(p.index));
    if (g.nodeIds.empty())
      groups.erase(groups.begin() + static_cast<std::ptrdiff_t>(p.group));
    else
      fixGroupingKind(g);
    m.expected = Check::provenance;
    break;
  }
  case Mutation::repeatNode: { // provenance: a node is repeated
    if (nodes.empty())
      return std::nullopt;
    const Place p = nodes[pick(nodes.size())];
    auto &g = groups[p.group];
    g.nodeIds.insert(g.nodeIds.begin() + static_cast<std::ptrdiff_t>(p.index), g.nodeIds[p.index]);
    g.kinds.insert(g.kinds.begin() + static_cast<std::ptrdiff_t>(p.index), g.kinds[p.index]);
    fixGroupingKind(g);
    m.expected = Check::provenance;
    break;
  }
  case Mutation::swapGroups: { // order: same nodes, another sequence
    if (groups.size() < 2)
      return std::nullopt;
    const std::size_t i = pick(groups.size() - 1);
    std::swap(groups[i], groups[i + 1]);
    m.expected = Check::order;
    break;
  }
  case Mutation::splitGroup: { // maximal: the two parts could be one group
    if (multi.empty() || mode != Mode::coalesced)
      return std::nullopt;
    const std::size_t gi = multi[pick(multi.size())];
    LoweredKernelGroup &g = groups[gi];
    const std::size_t cut = 1 + static_cast<std::size_t>((salt / 7) % (g.nodeIds.size() - 1));
    const PlannedNodeKernel &head = plan.kernels[firstPositions(reference.plan)[gi] + cut];
    LoweredKernelGroup tail{{g.nodeIds.begin() + static_cast<std::ptrdiff_t>(cut), g.nodeIds.end()},
                            {g.kinds.begin() + static_cast<std::ptrdiff_t>(cut), g.kinds.end()},
                            g.op,
                            head.capsule,
                            GroupingKind::singleton};
    g.nodeIds.resize(cut);
    g.kinds.resize(cut);
    fixGroupingKind(g);
    fixGroupingKind(tail);
    groups.insert(groups.begin() + static_cast<std::ptrdiff_t>(gi) + 1, std::move(tail));
    m.expected = Check::maximal;
    break;
  }
  case Mutation::mergeGroups: { // singleton, or the op or capsule of a member differs
    if (groups.size() < 2)
      return std::nullopt;
    const std::size_t i = pick(groups.size() - 1);
    LoweredKernelGroup &a = groups[i];
    const LoweredKernelGroup b = groups[i + 1];
    a.nodeIds.insert(a.nodeIds.end(), b.nodeIds.begin(), b.nodeIds.end());
    a.kinds.insert(a.kinds.end(), b.kinds.begin(), b.kinds.end());
    a.groupingKind = GroupingKind::sameCapsuleRun;
    m.expected = mode == Mode::singleton ? Check::singleton
                 : a.op != b.op          ? Check::op
                                         : Check::capsule;
    groups.erase(groups.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    break;
  }
  case Mutation::replaceKind: { // kinds
    if (nodes.empty())
      return std::nullopt;
    const Place p = nodes[pick(nodes.size())];
    auto &g = groups[p.group];
    g.kinds[p.index] = otherKind(interner, g.kinds[p.index], plan.kernels[p.at].op, salt / 11);
    m.expected = Check::kinds;
    break;
  }
  case Mutation::replaceCapsule: { // capsule: a contract-different (identity-equal) twin
    if (groups.empty())
      return std::nullopt;
    auto &g = groups[pick(groups.size())];
    g.capsule = interner.intern(contractTwin(interner.capsule(g.capsule), salt / 13, edition));
    m.expected = Check::capsule;
    break;
  }
  case Mutation::wrongGroupingKind: { // grouping-kind
    if (groups.empty())
      return std::nullopt;
    auto &g = groups[pick(groups.size())];
    g.groupingKind = g.groupingKind == GroupingKind::singleton ? GroupingKind::sameCapsuleRun
                                                               : GroupingKind::singleton;
    m.expected = Check::groupingKind;
    break;
  }
  case Mutation::reverseGroup: { // order: the group's nodes in reverse
    if (multi.empty())
      return std::nullopt;
    auto &g = groups[multi[pick(multi.size())]];
    std::reverse(g.nodeIds.begin(), g.nodeIds.end());
    std::reverse(g.kinds.begin(), g.kinds.end());
    m.expected = Check::order;
    break;
  }
  case Mutation::addEmptyGroup: { // empty-group
    if (plan.kernels.empty())
      return std::nullopt;
    const std::size_t at = pick(groups.size() + 1);
    const PlannedNodeKernel &k = plan.kernels[pick(plan.kernels.size())];
    groups.insert(groups.begin() + static_cast<std::ptrdiff_t>(at),
                  LoweredKernelGroup{{}, {}, k.op, k.capsule, GroupingKind::singleton});
    m.expected = Check::emptyGroup;
    break;
  }
  case Mutation::alterAuditRow: { // audit: one row no longer derived from its group
    if (!reference.audit || reference.audit->audit.kernels.empty())
      return std::nullopt;
    auto &rows = m.document.audit->audit.kernels;
    KernelAudit &row = rows[pick(rows.size())];
    // Collisions that always change a field the audit shows (not notes, nor supportsForward,
    // which a collision whose drawn value is the capsule's own changes instead).
    using C = plans::Collision;
    constexpr C shown[] = {C::trustLevel, C::provenance, C::vjpMode, C::numericalPolicy};
    const KernelCapsule &view = interner.capsule(row.view);
    const bool wasTrusted = isTrustedExternal(view);
    row.view =
        interner.intern(auditView(view.op, contractTwin(view, shown[salt % 4], salt / 4, edition)));
    // Showing less trusted-external than the truth is a trust-boundary violation, any other
    // difference an audit one (docs/checks.md).
    m.expected = wasTrusted && !isTrustedExternal(interner.capsule(row.view)) ? Check::trustBoundary
                                                                              : Check::audit;
    return m;
  }
  }
  (void)equality;
  if (m.document.audit)
    m.document.audit = toDocument(interner, audit(interner, m.document.plan));
  return m;
}

} // namespace lo::prop
