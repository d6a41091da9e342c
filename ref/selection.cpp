// docs/spec.md §10.3, §10.4.
#include "ref/selection.hpp"

#include <array>

namespace lo::selection {

using namespace lo::acceptance;

std::string refusalWords(Refusals r) {
  std::string out;
  for (std::size_t i = 0; i < vocabularySize<Refusal>(); ++i)
    if (r & refusalBit(static_cast<Refusal>(i)))
      out += (out.empty() ? "" : ", ") + std::string(spelling(static_cast<Refusal>(i)));
  return out;
}

Refusals refusals(const KernelPolicy &policy, const Availability &availability, BackendOp op,
                  const KernelCapsule &c) {
  Refusals r = 0;
  auto add = [&](bool refused, Refusal why) {
    if (refused)
      r |= refusalBit(why);
  };
  add(c.op != op, Refusal::otherOp);
  add(!admitsCapsule(availability, c), Refusal::unavailable);
  add(!c.supportsForward, Refusal::noForward);
  add(!contractsAligned(c), Refusal::contractsMisaligned);
  add(!allowedBy(policy, c), Refusal::trustRejected);
  add(!matchesPreference(policy, c), Refusal::providerExcluded);
  add(!matchesDevice(policy, c), Refusal::deviceMismatch);
  add(!matchesVJP(policy, c), Refusal::vjpMismatch);
  return r;
}

std::optional<std::size_t> chooseCapsuleFor(const KernelPolicy &policy, BackendOp op,
                                            const std::vector<KernelCapsule> &capsules,
                                            const std::vector<std::size_t> &positions) {
  auto eligible = [&](const KernelCapsule &c) { return c.op == op && admissible(policy, c); };
  if (policy.provider.kind == ProviderPreference::Kind::prefer)
    for (std::size_t i : positions)
      if (eligible(capsules[i]) && capsules[i].provider == policy.provider.provider)
        return i;
  for (std::size_t i : positions)
    if (eligible(capsules[i]))
      return i;
  return std::nullopt;
}

std::string noCapsuleMessage(const KernelPolicy &policy, BackendOp op) {
  return "no admissible kernel capsule for op " + std::string(spelling(op)) + " on device " +
         std::string(spelling(policy.device));
}

std::optional<std::string> checkWellFormed(const Graph &g) {
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node &n = g.nodes[i];
    if (n.id != i) {
      const std::string index = std::to_string(i);
      return "IR graph: id discipline violated at index " + index + ": nodes[" + index +
             "].id = " + std::to_string(n.id);
    }
    for (NodeId pid : n.parents)
      if (pid >= n.id)
        return "IR graph: node " + std::to_string(i) + ": parent id " + std::to_string(pid) +
               " is not < " + std::to_string(n.id);
  }
  return std::nullopt;
}

namespace {

/// The choice depends on the op alone (policy, availability and registry are fixed), so it is
/// made once per op.
class Chooser {
public:
  Chooser(const KernelPolicy &policy, const Availability &availability,
          const std::vector<KernelCapsule> &registry)
      : policy_(policy), registry_(registry), available_(filterCapsules(availability, registry)) {}

  std::optional<std::size_t> operator()(BackendOp op) {
    auto &slot = memo_[static_cast<std::size_t>(op)];
    if (!slot.done) {
      slot.done = true;
      slot.choice = chooseCapsuleFor(policy_, op, registry_, available_);
    }
    return slot.choice;
  }

private:
  struct Slot {
    bool done = false;
    std::optional<std::size_t> choice;
  };
  const KernelPolicy &policy_;
  const std::vector<KernelCapsule> &registry_;
  std::vector<std::size_t> available_;
  std::array<Slot, vocabularySize<BackendOp>()> memo_{};
};

} // namespace

SelectionResult planGraph(const KernelPolicy &policy, const Availability &availability,
                          const std::vector<KernelCapsule> &registry, const Graph &g) {
  SelectionResult out;
  Chooser choose(policy, availability, registry);
  for (const Node &n : g.nodes) {
    if (!n.op)
      continue;
    auto chosen = choose(*n.op);
    if (!chosen) {
      out.kernels.clear();
      out.error = noCapsuleMessage(policy, *n.op);
      return out;
    }
    out.kernels.push_back({n.id, n.kind, *n.op, *chosen});
  }
  return out;
}

SelectionResult checkedPlanGraph(const KernelPolicy &policy, const Availability &availability,
                                 const std::vector<KernelCapsule> &registry, const Graph &g) {
  if (auto error = checkWellFormed(g)) {
    SelectionResult out;
    out.error = std::move(error);
    return out;
  }
  return planGraph(policy, availability, registry, g);
}

SelectionResult planOps(const KernelPolicy &policy, const Availability &availability,
                        const std::vector<KernelCapsule> &registry,
                        const std::vector<BackendOp> &ops) {
  Graph g;
  g.nodes.reserve(ops.size());
  for (std::size_t i = 0; i < ops.size(); ++i)
    g.nodes.push_back({i, {}, ops[i], KindId{}});
  return planGraph(policy, availability, registry, g);
}

} // namespace lo::selection
