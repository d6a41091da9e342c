// A model of a refuted obligation, written back as a concrete GraphExecutionPlan that the other
// commands accept (docs/spec.md §5: "the counterexample is written as a GraphExecutionPlan").
#pragma once

#include "proofs/encoding.hpp"
#include "ref/ir.hpp"

namespace lo::proofs {

/// The plan the model `m` gives to the symbolic plan `p`. Integer fields that stand for strings
/// or records (names, contracts, numerical policies, notes, kinds) are mapped by rank, so equal
/// values give equal fields and different values different ones.
GraphExecutionPlan concretePlan(const z3::model &m, const Plan &p, Interner &interner);

} // namespace lo::proofs
