// One `pushKernel` step over an arbitrary fold state, for the `step.*` lemmas: the invariants of
// the fold proved for every plan length by induction over the state.
//
// The state is abstracted to what one step reads or writes: whether a group exists, the ids and
// kinds of the closed groups (sequences of any length), the last group (its ids and kinds as
// sequences of any length, its op, capsule and groupingKind), the head of the group before it,
// the last group's first node (its leader) and one arbitrary member of it (a representative: a
// property proved for an arbitrary member holds for every member). The step itself is the
// encoder's `algorithmCanAppend` and `appendHead` (shared with the bounded fold) with the lists
// updated as `appendNode` updates them.
#pragma once

#include "proofs/encoding.hpp"

namespace lo::proofs {

struct FoldState {
  z3::expr hasGroup;           // groups is not empty
  z3::expr count;              // the number of groups
  z3::expr doneIds, doneKinds; // the closed groups' ids and kinds, concatenated
  z3::expr ids, kinds;         // the last group's nodeIds and kinds
  Encoder::Head last;          // the last group's op, capsule and groupingKind
  z3::expr hasPrevious;        // a group before the last exists
  z3::expr previousOp;         // ... its op and capsule
  Capsule previousCapsule;
  Node leader;       // the last group's first node
  Node member;       // an arbitrary node of the last group
  z3::expr appended; // (after a step) whether the step appended
};

/// The sort of id and kind lists: sequences of integers.
z3::sort intSequence(z3::context &ctx);

/// An arbitrary state (all fields fresh).
FoldState freshFoldState(Encoder &e, const std::string &prefix);

/// One step of a fold that either joins node `k` to the last group (`join`), giving it `ids`,
/// `kinds` and `last`, or closes the last group (its lists, in the order of `closedIds` and
/// `closedKinds`, go to the closed groups' lists) and starts a new one of `k` alone
/// (`Encoder::singletonGroupIds`), whose head is `last` too (`last` is the caller's
/// `ite(join, ...)`).
FoldState foldStep(const Encoder &e, const FoldState &s, const Node &k, const z3::expr &join,
                   const z3::expr &ids, const z3::expr &kinds, const z3::expr &closedIds,
                   const z3::expr &closedKinds, const Encoder::Head &last);

/// `pushKernel(s, k)`. In the result, `member` is the old member (still in the last group when
/// `appended`) and `leader` is the new last group's first node.
FoldState pushKernel(const Encoder &e, const FoldState &s, const Node &k);

} // namespace lo::proofs
