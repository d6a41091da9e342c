// docs/spec.md §10.8.
#include "checks/selection.hpp"

#include <unordered_map>

namespace lo::checks {

namespace {

std::string kernelPointer(std::size_t i) { return "/kernels/" + std::to_string(i); }

} // namespace

std::vector<Finding> judgeSelection(const selection::BackendProfile &profile,
                                    const selection::Graph &graph, const Interner &interner,
                                    const GraphExecutionPlan &candidate,
                                    const std::optional<std::string> &candidateError) {
  std::vector<Finding> out;
  std::vector<KernelCapsule> registry;
  const selection::SelectionResult expected = planGraphNodes(profile, graph, registry);
  // Whether a plan exists is the rule's own answer (§10.5); a planning failure is judged by it.
  if (candidateError || !expected.ok()) {
    if (candidateError && expected.ok())
      out.push_back({Departure::errorWherePlan, "",
                     "the implementation failed (" + *candidateError +
                         ") where selection plans every runtime-relevant node"});
    else if (!candidateError)
      out.push_back({Departure::planWhereError, "",
                     "the implementation wrote a plan where selection fails: " + *expected.error});
    return out;
  }
  const std::vector<std::size_t> available = filterCapsules(profile.availability, registry);
  std::unordered_map<NodeId, std::size_t> index; // graph node id -> position in the graph
  for (std::size_t i = 0; i < graph.nodes.size(); ++i)
    index.emplace(graph.nodes[i].id, i);
  std::vector<bool> covered(graph.nodes.size(), false);
  std::size_t lastPosition = 0;
  bool any = false;
  for (std::size_t k = 0; k < candidate.kernels.size(); ++k) {
    const PlannedNodeKernel &kernel = candidate.kernels[k];
    const std::string at = kernelPointer(k);
    auto it = index.find(kernel.nodeId);
    if (it == index.end()) {
      out.push_back({Departure::unknownNode, at + "/nodeId",
                     "node " + std::to_string(kernel.nodeId) + " is not in the graph"});
      continue;
    }
    const selection::Node &node = graph.nodes[it->second];
    if (!node.op) {
      out.push_back({Departure::plannedWithoutWork, at + "/nodeId",
                     "node " + std::to_string(kernel.nodeId) +
                         " is planned, but its kind maps to no op (no runtime work)"});
      continue;
    }
    // The kernel carries the node's kind and the op it maps to (§10.7).
    if (kernel.kind != node.kind || kernel.op != *node.op) {
      const KindTag nodeTag = interner.kind(node.kind).tag,
                    kernelTag = interner.kind(kernel.kind).tag;
      out.push_back({Departure::kindMismatch, at + (kernel.kind != node.kind ? "/kind" : "/op"),
                     "node " + std::to_string(kernel.nodeId) + " is of kind " +
                         std::string(spelling(nodeTag)) + " (op " +
                         std::string(spelling(*node.op)) + "), but its kernel says " +
                         (kernelTag == nodeTag && kernel.kind != node.kind
                              ? std::string("that kind with other parameters")
                              : "kind " + std::string(spelling(kernelTag))) +
                         " (op " + std::string(spelling(kernel.op)) + ")"});
    }
    if (any && it->second <= lastPosition)
      out.push_back(
          {Departure::outOfOrder, at + "/nodeId",
           "node " + std::to_string(kernel.nodeId) + " is planned out of graph order (or twice)"});
    any = true;
    lastPosition = it->second;
    covered[it->second] = true;
    const KernelCapsule &c = interner.capsule(kernel.capsule);
    const BackendOp op = *node.op;
    std::optional<std::size_t> position;
    for (std::size_t i = 0; i < registry.size() && !position; ++i)
      if (registry[i] == c)
        position = i;
    const selection::Refusals refused = refusals(profile.policy, profile.availability, op, c);
    if (!position)
      out.push_back({Departure::notInRegistry, at + "/capsule",
                     "capsule \"" + c.name + "\" is not in the profile's registry"});
    if (refused)
      out.push_back({Departure::notAdmissible, at + "/capsule",
                     "capsule \"" + c.name + "\" is not eligible for op " +
                         std::string(spelling(op)) + ": " + selection::refusalWords(refused)});
    if (refused || !position)
      continue;
    // Eligible and registered: is it the one the rule picks (§10.3)? Under `prefer P` with an
    // eligible capsule of P, the first of those; else the first eligible one. One finding a node.
    const auto &pref = profile.policy.provider;
    const bool prefer = pref.kind == acceptance::ProviderPreference::Kind::prefer;
    auto eligible = [&](std::size_t i) {
      return refusals(profile.policy, profile.availability, op, registry[i]) == 0;
    };
    std::optional<std::size_t> preferred;
    if (prefer)
      for (std::size_t i : available)
        if (registry[i].provider == pref.provider && eligible(i)) {
          preferred = i;
          break;
        }
    if (preferred && c.provider != pref.provider) {
      out.push_back({Departure::preferenceIgnored, at + "/capsule",
                     "capsule \"" + registry[*preferred].name + "\" of the preferred provider " +
                         std::string(spelling(pref.provider)) + " is eligible for op " +
                         std::string(spelling(op)) + ", but \"" + c.name + "\" was chosen"});
      continue;
    }
    for (std::size_t i : available) {
      if (i == *position)
        break;
      if (!eligible(i) || (preferred && registry[i].provider != pref.provider))
        continue;
      out.push_back({Departure::earlierPassedOver, at + "/capsule",
                     "capsule \"" + registry[i].name + "\" is eligible for op " +
                         std::string(spelling(op)) + " and comes before \"" + c.name + "\""});
      break;
    }
  }
  for (std::size_t i = 0; i < graph.nodes.size(); ++i)
    if (graph.nodes[i].op && !covered[i])
      out.push_back({Departure::missingNode, "/nodes/" + std::to_string(i),
                     "node " + std::to_string(graph.nodes[i].id) + " (op " +
                         std::string(spelling(*graph.nodes[i].op)) + ") is not planned"});
  return out;
}

} // namespace lo::checks
