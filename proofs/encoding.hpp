// Symbolic plans and the reference algorithm over them (docs/spec.md §5).
//
// A plan of length n is n symbolic nodes: an id, a kind, an op and a capsule whose identity part
// (name, op, provider, device) and contract part (trust level, supportsForward, vjp mode, the four
// contracts, the numerical policy, notes) are separate symbolic fields, so that `contract`
// equality (every field) and `identity` equality (the identity part) differ exactly as in
// docs/spec.md §1. Field values are integers: the lowering only ever compares them for equality, so
// any carrier with equality is as good as the real vocabularies; the small enumerations (trust
// level, vjp mode, provider, device, op) are kept to their real ranges so a model maps back to a
// plan.
//
// The algorithm is encoded as written in ref/lowering.cpp, not as its properties: `canAppend`,
// `appendNode`, `toSingletonLoweredGroup`, the `pushKernel` fold over a bounded array of group
// slots, the singleton map and the audit row. The conformance checks of docs/spec.md §3 are encoded
// separately (`SpecChecks`, proofs/spec_checks.hpp) as predicates over any symbolic lowering, so
// the obligations can say "the reference passes check X" and "whatever passes every check is the
// reference".
//
// A `Sabotage` breaks the algorithm on purpose; the tests use it to show each obligation can fail.
#pragma once

#include "proofs/sabotage_table.hpp"
#include "proofs/smt.hpp"
#include "ref/capsule.hpp"
#include "ref/edition.hpp"
#include "ref/vocab.hpp"

#include <string_view>
#include <vector>

namespace lo::proofs {

// X(enumerator, spelling, what it breaks)
#define LO_SABOTAGES(X)                                                                            \
  X(none, "none", "the reference algorithm")                                                       \
  X(canAppendIgnoresOp, "canAppend-ignores-op", "canAppend does not compare the op")               \
  X(canAppendIgnoresCapsule, "canAppend-ignores-capsule", "canAppend does not compare capsules")   \
  X(canAppendIdentityOnly, "canAppend-identity-only",                                              \
    "canAppend compares the identity part only, whatever the equality")                            \
  X(foldNeverAppends, "fold-never-appends", "pushKernel always starts a new group")                \
  X(foldAlwaysAppends, "fold-always-appends", "pushKernel appends to any last group")              \
  X(appendDropsKind, "appendNode-drops-kind", "appendNode does not append the kind")               \
  X(appendDropsId, "appendNode-drops-id", "appendNode does not append the node id")                \
  X(appendPrepends, "appendNode-prepends", "appendNode puts the id and kind first")                \
  X(appendKeepsSingleton, "appendNode-keeps-singleton", "appendNode leaves groupingKind alone")    \
  X(appendTakesNodeCapsule, "appendNode-takes-node-capsule",                                       \
    "appendNode replaces the group's capsule by the node's")                                       \
  X(auditFromLastNode, "audit-from-last-node", "a group's audit row is the last node's row")       \
  X(auditDropsTrust, "audit-drops-trust", "a group's audit row has trust level verified")          \
  X(singletonReversed, "singleton-reversed", "the singleton map emits the nodes in reverse")       \
  X(singletonDropsLast, "singleton-drops-last", "the singleton map omits the last node")           \
  X(singletonMergesFirstTwo, "singleton-merges-first-two",                                         \
    "the singleton map puts the first two nodes in one group")                                     \
  X(singletonShiftsCapsule, "singleton-shifts-capsule",                                            \
    "the singleton map gives node i the capsule of node i-1")                                      \
  X(singletonGroupDropsId, "singleton-group-drops-id",                                             \
    "toSingletonLoweredGroup leaves the node's id out")

LO_DECLARE_SABOTAGES(Sabotage, LO_SABOTAGES, allSabotages)

/// The sabotages of the selection encoding (proofs/selection.hpp); 0 is `none`.
enum class SelectionSabotage : std::uint8_t;

/// The columns of LO_CAPSULE_FIELDS.
namespace sorts {
struct Int {};
struct Bool {};
} // namespace sorts
enum class Part : std::uint8_t { identity, contract };
enum class Row : std::uint8_t { shown, hidden };

/// How a symbolic field stands for the real record's field (read by the counterexample, which
/// maps a model back to a plan, and by the encoding's range constraints).
namespace carrier {
template <class E> struct Vocabulary {};            // the index of a spelling of vocabulary E
struct Flag {};                                     // a boolean
struct Name {};                                     // a string compared only for equality
struct Notes {};                                    // ... the notes (default "")
struct Policy {};                                   // a NumericalPolicy compared only for equality
template <ContractClaim::Tag T> struct Contract {}; // a ContractDescriptor with claim tag T
} // namespace carrier

// The capsule's fields, once for every use (the symbolic record, both equalities, the audit row,
// the counterexample and the tests that fix a plan's values):
//   X(field, sort, part, row, carrier)
//   sort:    Int or Bool, the Z3 sort of the symbolic field
//   part:    identity or contract: `identity` equality compares the identity part only
//   row:     shown when the audit row (KernelAudit) shows the field, hidden when the row's view
//            has the field's default (ref/audit.hpp `auditView`: supportsForward true, notes "")
//   carrier: what the value stands for (namespace carrier)
#define LO_CAPSULE_FIELDS(X)                                                                       \
  X(name, Int, identity, shown, carrier::Name)                                                     \
  X(op, Int, identity, shown, carrier::Vocabulary<BackendOp>)                                      \
  X(provider, Int, identity, shown, carrier::Vocabulary<Provider>)                                 \
  X(device, Int, identity, shown, carrier::Vocabulary<Device>)                                     \
  X(trustLevel, Int, contract, shown, carrier::Vocabulary<TrustLevel>)                             \
  X(supportsForward, Bool, contract, hidden, carrier::Flag)                                        \
  X(vjpMode, Int, contract, shown, carrier::Vocabulary<VJPMode>)                                   \
  X(shapeContract, Int, contract, shown, carrier::Contract<ContractClaim::Tag::shapeSafety>)       \
  X(layoutContract, Int, contract, shown,                                                          \
    carrier::Contract<ContractClaim::Tag::layoutCompatibility>)                                    \
  X(valueContract, Int, contract, shown, carrier::Contract<ContractClaim::Tag::valueRefinement>)   \
  X(vjpContract, Int, contract, shown, carrier::Contract<ContractClaim::Tag::vjpRefinement>)       \
  X(numericalPolicy, Int, contract, shown, carrier::Policy)                                        \
  X(notes, Int, contract, hidden, carrier::Notes)

/// A capsule with symbolic fields (LO_CAPSULE_FIELDS): the identity part, then the contract part.
struct Capsule {
#define LO_CAPSULE_MEMBER(field, sort, part, row, carrier) z3::expr field;
  LO_CAPSULE_FIELDS(LO_CAPSULE_MEMBER)
#undef LO_CAPSULE_MEMBER
};

/// A fresh symbolic value of a sort, and the value an unused slot or a hidden row field holds.
z3::expr constant(z3::context &ctx, sorts::Int, const std::string &name);
z3::expr constant(z3::context &ctx, sorts::Bool, const std::string &name);
z3::expr defaultValue(z3::context &ctx, sorts::Int);  // 0
z3::expr defaultValue(z3::context &ctx, sorts::Bool); // true (supportsForward's default)

/// One audit row, `KernelAudit.ofPlannedKernel {op, capsule}`: "`op` from the group;
/// `capsuleName`, `provider`, `device`, `trustLevel`, `vjpMode`, the four contracts and
/// `numericalPolicy` from its capsule". As in ref/audit.hpp, the row is held as its view: the
/// capsule with the row's op, and the fields the row does not show at their defaults, so two rows
/// are equal exactly when their views are equal in every field.
struct AuditRow {
  Capsule view;
};

/// A planned node (`PlannedNodeKernel`).
struct Node {
  z3::expr nodeId, kind, op;
  Capsule capsule;
};

/// A plan of symbolic nodes (`GraphExecutionPlan`).
struct Plan {
  std::vector<Node> nodes;
};

/// A group (`LoweredKernelGroup`) in a bounded slot: `nodeIds` and `kinds` are arrays of
/// `capacity` cells of which the first `idCount` and `kindCount` are meaningful; `run` is
/// `groupingKind == sameCapsuleRun`.
struct Group {
  z3::expr idCount, kindCount;
  std::vector<z3::expr> nodeIds, kinds;
  z3::expr op;
  Capsule capsule;
  z3::expr run;
};

/// A lowering (`GraphLoweringPlan`): the first `count` of the slots are its groups.
struct Lowering {
  z3::expr count;
  std::vector<Group> groups;
};

/// Capsule equality of docs/spec.md §1.
z3::expr sameContract(const Capsule &a, const Capsule &b); // every field
z3::expr sameIdentity(const Capsule &a, const Capsule &b); // name, op, provider, device
z3::expr same(Equality equality, const Capsule &a, const Capsule &b);
z3::expr sameRow(const AuditRow &a, const AuditRow &b); // the views are equal in every field
Capsule ite(const z3::expr &c, const Capsule &a, const Capsule &b);
Node ite(const z3::expr &c, const Node &a, const Node &b);
Group ite(const z3::expr &c, const Group &a, const Group &b);
/// `KernelCapsule.isTrustedExternal` and `KernelAudit.isTrustedExternal`.
z3::expr isTrustedExternal(const Capsule &c);
z3::expr isTrustedExternal(const AuditRow &r);
/// `KernelAudit.ofPlannedKernel {op, capsule}`: the row the singleton lowering shows for a node
/// `k` is `auditRow(k.op, k.capsule)`. Never sabotaged (Encoder::groupRow is the row under audit).
AuditRow auditRow(const z3::expr &op, const Capsule &c);

/// `x` is the index of a value of vocabulary E that edition `e` has: a range when the edition's
/// values are the first ones of the vocabulary, else one of them.
template <class E> z3::expr inEditionOf(const z3::expr &x, Edition e) {
  const std::vector<E> values = valuesOf<E>(e);
  bool prefix = true;
  for (std::size_t i = 0; i < values.size(); ++i)
    prefix = prefix && values[i] == static_cast<E>(i);
  if (prefix)
    return x >= 0 && x < static_cast<int>(values.size());
  z3::expr_vector any(x.ctx());
  for (E v : values)
    any.push_back(x == static_cast<int>(v));
  return z3::mk_or(any);
}

/// The integer that stands for `trusted-external` in `trustLevel` fields.
inline constexpr int kTrustedExternal = static_cast<int>(TrustLevel::trusted_external);

/// Builds symbolic plans and lowerings in one Z3 context, in one edition (docs/spec.md §1.6: the
/// vocabularies' values a plan may hold), under one equality and one sabotage.
class Encoder {
public:
  Encoder(z3::context &ctx, Edition edition, Equality equality, Sabotage sabotage = Sabotage::none,
          SelectionSabotage selectionSabotage = SelectionSabotage{});

  z3::context &ctx() const { return ctx_; }
  Edition edition() const { return edition_; }
  Equality equality() const { return equality_; }
  /// The edition's groups carry `kinds` and `groupingKind` (docs/spec.md §1.6, `EditionRules`):
  /// elsewhere the encoding still keeps them, as ref/lowering.cpp does, but no obligation, check
  /// or comparison reads them.
  bool groupKinds() const { return rulesOf(edition_).groupKinds; }
  /// `capsule.op = op`, where the edition's plans require it (docs/spec.md §2.4); true in an
  /// edition whose gate reads a mismatch as `operationMismatch` (§6.10).
  z3::expr capsuleForOp(const z3::expr &op, const Capsule &capsule) const;
  Sabotage sabotage() const { return sabotage_; }
  SelectionSabotage selectionSabotage() const { return selectionSabotage_; }

  // --- symbolic values ---------------------------------------------------------------------
  Capsule freshCapsule(const std::string &prefix);
  Node freshNode(const std::string &prefix);
  Plan freshPlan(std::size_t n, const std::string &prefix = "node");
  /// Any lowering with `capacity` slots (the candidates of the uniqueness obligations).
  Lowering freshLowering(std::size_t capacity, const std::string &prefix = "cand");

  /// A node is well formed: its capsule's op is its op (`capsuleForOp`), its op is the op its kind
  /// maps to, it is the op of a kind of the edition, and its capsule is well formed.
  z3::expr wellFormed(const Node &k);
  /// A capsule is well formed: its enumerations hold values of the edition, and where the edition
  /// has the lineage's capsule, `notes` is absent and the numerical policy one of its reductions.
  z3::expr wellFormed(const Capsule &c) const;
  /// A valid plan (docs/spec.md §2.4).
  z3::expr valid(const Plan &p);
  /// A lowering's counts are within its slots (any lowering that passes `provenance` and
  /// `empty-group` has at most n groups of at most n nodes, so n slots of n cells lose nothing).
  z3::expr wellFormed(const Lowering &l);

  // --- the reference algorithm (ref/lowering.cpp) ------------------------------------------
  /// `canAppend(g, k) = g.op == k.op && same(g.capsule, k.capsule)`, as the algorithm runs it
  /// (sabotages of canAppend and of the fold apply).
  z3::expr algorithmCanAppend(const z3::expr &groupOp, const Capsule &groupCapsule,
                              const Node &k) const;
  /// `canAppend` as docs/spec.md §1.3 defines it (what the `maximal` check uses; never sabotaged).
  z3::expr specCanAppend(const z3::expr &groupOp, const Capsule &groupCapsule, const Node &k) const;
  /// `appendNode`: keeps `op` and `capsule`, appends the id and the kind, sets
  /// `groupingKind = sameCapsuleRun`.
  Group appendNode(const Group &g, const Node &k) const;
  /// The part of `appendNode` that is not the lists: the op, capsule and `run` it leaves.
  struct Head {
    z3::expr op;
    Capsule capsule;
    z3::expr run;
  };
  Head appendHead(const Head &g, const Node &k) const;
  /// `toSingletonLoweredGroup`: `{[k.nodeId], [k.kind], k.op, k.capsule, singleton}`.
  Group singletonGroup(const Node &k, std::size_t capacity) const;
  /// Its `nodeIds` as a sequence (the step lemmas' lists).
  z3::expr singletonGroupIds(const Node &k) const;
  /// An unused slot.
  Group emptyGroup(std::size_t capacity) const;
  /// `LoweringState.pushKernel`: "if the last group exists and canAppend(last, k), appendNode;
  /// otherwise push toSingletonLoweredGroup(k)". `step` is the number of nodes pushed before, so
  /// only slots 0..step can be touched.
  Lowering pushKernel(const Lowering &s, const Node &k, std::size_t step) const;
  /// `toCoalescedLoweringPlan`: the left fold of pushKernel from the empty state.
  Lowering toCoalesced(const Plan &p) const;
  /// `toSingletonLoweringPlan`: one singleton group per node.
  Lowering toSingleton(const Plan &p) const;
  /// The audit row of group `j` of a lowering of `p` (`KernelAudit.ofPlannedKernel` of
  /// `toPlannedKernel(g)`), as the algorithm under audit derives it (sabotages of the audit
  /// apply).
  AuditRow groupRow(const Lowering &l, std::size_t j, const Plan &p) const;
  /// The audit row of a group whose op and capsule are given (sabotages of the audit apply).
  AuditRow groupRow(const z3::expr &op, const Capsule &c) const;

private:
  z3::context &ctx_;
  Edition edition_;
  Equality equality_;
  Sabotage sabotage_;
  SelectionSabotage selectionSabotage_;
  z3::func_decl opOfKind_;
};

/// `l` and `r` are the same lowering: same groups, each equal in every field (with `kinds` and
/// `groupingKind` only when `groupKinds`, the edition's group shape).
z3::expr sameLowering(const Lowering &l, const Lowering &r, bool groupKinds = true);

} // namespace lo::proofs
