// A model of a refuted obligation, written back as a concrete GraphExecutionPlan that the other
// commands accept (docs/spec.md §5.3).
#pragma once

#include "proofs/encoding.hpp"
#include "ref/ir.hpp"

namespace lo::proofs {

/// The plan the model `m` gives to the symbolic plan `p`. Integer fields that stand for strings
/// or records (names, contracts, numerical policies, notes, kinds) are mapped by rank, so equal
/// values give equal fields and different values different ones. Every value is one of `edition`
/// (the edition proved): the plan reads back with `io::readExecutionPlan(source, interner,
/// edition)`.
GraphExecutionPlan concretePlan(const z3::model &m, const Plan &p, Edition edition,
                                Interner &interner);

} // namespace lo::proofs
