// Selection: a capsule for each runtime-relevant node of an IR graph, as the lean-dojo lineage's
// planner chooses it (docs/spec.md §10). Pure functions; the admissibility predicates are
// ref/acceptance.hpp's.
#pragma once

#include "ref/acceptance.hpp"
#include "ref/availability.hpp"
#include "ref/ir.hpp"
#include "ref/node_id_list.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lo::selection {

using acceptance::KernelPolicy;

/// Whether edition `e` has upstream's planner (docs/spec.md §10): the lean-dojo lineage's.
constexpr bool hasSelection(Edition e) { return (kLineageEditions & editionBit(e)) != 0; }

/// Why one capsule is not chosen for one op, in the order docs/spec.md §10.3 tests them; a capsule
/// may fail several. `passedOver`: eligible, but an earlier one (or, under `prefer P`, one of the
/// preferred provider) was chosen.
#define LO_REFUSALS(X)                                                                             \
  X(otherOp, "otherOp")                                                                            \
  X(unavailable, "unavailable")                                                                    \
  X(noForward, "noForward")                                                                        \
  X(contractsMisaligned, "contractsMisaligned")                                                    \
  X(trustRejected, "trustRejected")                                                                \
  X(providerExcluded, "providerExcluded")                                                          \
  X(deviceMismatch, "deviceMismatch")                                                              \
  X(vjpMismatch, "vjpMismatch")

} // namespace lo::selection

namespace lo {
LO_DECLARE_VOCABULARY(Refusal, LO_REFUSALS, "refusal")
} // namespace lo

namespace lo::selection {

/// A set of refusals, one bit per `Refusal`.
using Refusals = std::uint16_t;
constexpr Refusals refusalBit(Refusal r) { return static_cast<Refusals>(1u << unsigned(r)); }

/// The refusals of `r` spelled in the order of docs/spec.md §10.3, comma separated
/// (`unavailable, trustRejected`).
std::string refusalWords(Refusals r);

/// Every refusal of `c` for `op` under `policy` and `availability` (0: `c` is eligible).
Refusals refusals(const KernelPolicy &policy, const Availability &availability, BackendOp op,
                  const KernelCapsule &c);

/// `chooseCapsuleFor? policy op capsules` over the capsules at `positions` (in their order): the
/// position chosen, or nullopt.
std::optional<std::size_t> chooseCapsuleFor(const KernelPolicy &policy, BackendOp op,
                                            const std::vector<KernelCapsule> &capsules,
                                            const std::vector<std::size_t> &positions);

/// `planOp`'s failure: "no admissible kernel capsule for op {op} on device {device}".
std::string noCapsuleMessage(const KernelPolicy &policy, BackendOp op);

/// One IR node as selection reads it: id, parents, and the op its kind maps to (`op?`, nullopt for
/// a kind with no runtime work). `kind` is the kind as the plan writes it.
struct Node {
  NodeId id = 0;
  NodeIdList parents;
  std::optional<BackendOp> op;
  KindId kind{};
};

/// `NN.IR.Graph`: nodes in order.
struct Graph {
  std::vector<Node> nodes;
};

/// `Graph.checkWellFormed` (id discipline and parents below; docs/spec.md §10.4): nullopt, or the
/// first failure's message.
std::optional<std::string> checkWellFormed(const Graph &g);

/// One planned node: position of the chosen capsule in the flattened registry.
struct PlannedNode {
  NodeId nodeId = 0;
  KindId kind{};
  BackendOp op = BackendOp::relu;
  std::size_t capsule = 0;
  bool operator==(const PlannedNode &) const = default;
};

/// A plan or upstream's first error.
struct SelectionResult {
  std::vector<PlannedNode> kernels;
  std::optional<std::string> error;
  bool ok() const { return !error; }
};

/// `IR.planGraph policy availability registry g`: every runtime-relevant node in graph order.
SelectionResult planGraph(const KernelPolicy &policy, const Availability &availability,
                          const std::vector<KernelCapsule> &registry, const Graph &g);

/// `IR.checkedPlanGraph`: `checkWellFormed`, then `planGraph`.
SelectionResult checkedPlanGraph(const KernelPolicy &policy, const Availability &availability,
                                 const std::vector<KernelCapsule> &registry, const Graph &g);

/// `planOpsAvailable`: a capsule for each op, or the first op's error.
SelectionResult planOps(const KernelPolicy &policy, const Availability &availability,
                        const std::vector<KernelCapsule> &registry,
                        const std::vector<BackendOp> &ops);

} // namespace lo::selection
