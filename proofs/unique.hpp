// Completeness of the checks for every length (docs/proofs.md, "Completeness for every length"):
// a candidate lowering that passes every check of a mode is the reference lowering of that mode.
//
// The argument is a simulation over the plan's nodes. After the first i nodes, the reference fold
// has a state s (step.hpp: the closed groups' ids and kinds, the last group, the group count) and
// the candidate L has a *candidate state* c: how many of its groups hold one of the first i nodes,
// the ids and kinds of those before the current one, and the current group (whole: all its ids,
// kinds, op, capsule, grouping kind) with how many of its nodes are among the first i. The
// relation R(s, c) says that the two agree so far: same count, same closed ids and kinds, the last
// group is the prefix of the current group consumed so far, with the same op, capsule and
// grouping kind. Three Z3 lemmas, for sequences of any length:
//
//  * base: R holds between the empty fold state and the empty candidate state;
//  * step: if R(s, c) and node k is the next node, with what the checks of docs/spec.md §3 say of
//    the cell of L that holds k (order, kinds, op, capsule, empty-group, grouping-kind, and maximal
//    or singleton by mode), then the reference appends k exactly when L's current group goes on,
//    R holds after the step, and a group the step closes equals the candidate group it closes in
//    every field;
//  * end: if R(s, c) and the candidate's current group is consumed (after the last node, by
//    `order`), the last groups are equal and the group counts are the same.
//
// By induction over the nodes, every group of L equals the reference's group at the same index
// and there are as many: L is the reference lowering.
#pragma once

#include "proofs/encoding.hpp"
#include "proofs/step.hpp"

namespace lo::proofs {

/// The candidate lowering after the plan's first i nodes.
struct CandidateState {
  z3::expr count;              // groups holding one of the first i nodes
  z3::expr doneIds, doneKinds; // the ids and kinds of those before the current one, concatenated
  // The current group's nodeIds and kinds are takenIds ++ restIds and takenKinds ++ restKinds:
  // the cells of the first i nodes, and the cells of later nodes.
  z3::expr takenIds, takenKinds, restIds, restKinds;
  z3::expr op; // the current group's op, capsule and `groupingKind == sameCapsuleRun`
  Capsule capsule;
  z3::expr run;

  z3::expr ids() const { return z3::concat(takenIds, restIds); }
  z3::expr kinds() const { return z3::concat(takenKinds, restKinds); }
};

/// The base, step and end lemmas for `mode`, as one goal (their conjunction; each over its own
/// variables). Proved means the checks of `mode` are complete for every plan length.
z3::expr uniqueInduction(Encoder &e, Mode mode);

} // namespace lo::proofs
