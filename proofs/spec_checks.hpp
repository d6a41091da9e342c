// The conformance checks of docs/spec.md §3 as predicates over a symbolic lowering of a symbolic
// plan: each is true exactly when the check finds nothing. They are the spec's definitions and
// are never sabotaged (only `Encoder::groupRow`, the audit derived from the candidate's groups,
// follows the encoder's sabotage, as the candidate's audit is derived from its groups).
//
// The candidate's audit is taken to be the one derived from its groups (a candidate without an
// `audit`, or with exactly the derived one): the first half of the `audit` check then holds.
#pragma once

#include "proofs/encoding.hpp"

namespace lo::proofs {

class SpecChecks {
public:
  SpecChecks(const Encoder &encoder, const Plan &plan, const Lowering &candidate);

  /// "the groups' ids, concatenated, are not the plan's ids as a multiset"
  z3::expr provenance() const;
  /// "same multiset, different sequence"
  z3::expr order() const;
  /// "a group has no nodes"
  z3::expr emptyGroup() const;
  /// "`kinds` is not, position by position, the kinds of the group's nodes"
  z3::expr kinds() const;
  /// "the group's op differs from a member's op"
  z3::expr op() const;
  /// "contract: the group's capsule is not equal to every member's; identity: not equal to the
  /// first member's, or a member's capsule differs in identity"
  z3::expr capsule() const;
  /// "not `singleton` for one node and `sameCapsuleRun` for two or more"
  z3::expr groupingKind() const;
  /// "mode singleton and a group holds more than one node"
  z3::expr singleton() const;
  /// "mode coalesced and two adjacent groups could be one (`canAppend` across the boundary)"
  z3::expr maximal() const;
  /// "a group's audit row differs from the singleton audit row of one of its nodes"
  z3::expr audit() const;
  /// "the candidate's audit hides a trusted-external boundary that the singleton lowering shows":
  /// `hasTrustedExternal` and the set of trusted-external ops are those of the singleton audit.
  z3::expr trustBoundary() const;
  /// Every check of docs/spec.md §3 for `mode`.
  z3::expr all(Mode mode) const;

  /// Expanding each group into singleton groups (its op and capsule for each of its nodes) gives
  /// `singletonLowering`.
  z3::expr expandsTo(const Lowering &singletonLowering) const;

private:
  /// Group j's cell p is one of its nodes.
  z3::expr member(std::size_t j, std::size_t p) const;
  /// For every plan node k whose id is `id`, `property(k)` (plan ids are distinct).
  template <class F> z3::expr forNode(const z3::expr &id, F property) const;
  /// sum of the idCounts of the groups before j
  z3::expr offset(std::size_t j) const;
  z3::expr total() const;

  const Encoder &encoder_;
  const Plan &plan_;
  const Lowering &l_;
  std::vector<z3::expr> offsets_; // offsets_[j] for j = 0..capacity
};

} // namespace lo::proofs
