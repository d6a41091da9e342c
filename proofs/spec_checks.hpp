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

  // Each check of docs/spec.md §3.1, by its name in the check vocabulary, holds when the
  // candidate passes it.
  z3::expr provenance() const;
  z3::expr order() const;
  z3::expr emptyGroup() const;
  z3::expr kinds() const;
  z3::expr op() const;
  /// Under the equality in force (docs/spec.md §3.2).
  z3::expr capsule() const;
  z3::expr groupingKind() const;
  z3::expr singleton() const;
  z3::expr maximal() const;
  /// Each group's row against its nodes' singleton rows.
  z3::expr audit() const;
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
