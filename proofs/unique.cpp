#include "proofs/unique.hpp"

namespace lo::proofs {

namespace {

CandidateState freshCandidate(Encoder &e, const std::string &prefix) {
  z3::context &ctx = e.ctx();
  const z3::sort seq = intSequence(ctx);
  auto s = [&](const char *name) { return ctx.constant((prefix + "." + name).c_str(), seq); };
  return CandidateState{ctx.int_const((prefix + ".count").c_str()),
                        s("doneIds"),
                        s("doneKinds"),
                        s("takenIds"),
                        s("takenKinds"),
                        s("restIds"),
                        s("restKinds"),
                        ctx.int_const((prefix + ".op").c_str()),
                        e.freshCapsule(prefix + ".capsule"),
                        ctx.bool_const((prefix + ".run").c_str())};
}

// Where the edition's groups have no `kinds` and `groupingKind` (Encoder::groupKinds), the
// relation, the checks' facts and the goals leave the kind lists and the grouping kind out: the
// checks `kinds` and `grouping-kind` are not run there, and a group is {nodeIds, op, capsule}.

/// What the checks say of every group of a candidate of `mode`: `kinds` (as many kinds as ids),
/// `empty-group`, `grouping-kind`, and for mode singleton `singleton`.
z3::expr groupChecks(const Encoder &e, const CandidateState &c, Mode mode) {
  const z3::expr len = c.ids().length();
  z3::expr facts = len >= 1;
  if (e.groupKinds())
    facts = facts && c.kinds().length() == len && c.run == (len >= 2);
  return mode == Mode::singleton ? facts && len <= 1 : facts;
}

/// The reference's last group equals the candidate's current group, whole, in every field.
z3::expr sameGroup(const Encoder &e, const FoldState &s, const CandidateState &c) {
  z3::expr same = s.ids == c.ids() && s.last.op == c.op && sameContract(s.last.capsule, c.capsule);
  return e.groupKinds() ? same && s.kinds == c.kinds() && s.last.run == c.run : same;
}

/// R(s, c): the reference and the candidate agree on the first i nodes.
z3::expr agree(const Encoder &e, const FoldState &s, const CandidateState &c) {
  z3::context &ctx = c.count.ctx();
  const z3::expr none = z3::empty(intSequence(ctx));
  z3::expr last = c.takenIds.length() >= 1 && s.ids == c.takenIds && s.last.op == c.op &&
                  e.capsuleForOp(s.last.op, s.last.capsule) &&
                  sameContract(s.last.capsule, c.capsule);
  z3::expr done = s.doneIds == c.doneIds && z3::implies(!s.hasGroup, s.doneIds == none);
  if (e.groupKinds()) {
    last = last && c.takenKinds.length() == c.takenIds.length() && s.kinds == c.takenKinds &&
           s.last.run == (s.ids.length() >= 2);
    done = done && s.doneKinds == c.doneKinds && z3::implies(!s.hasGroup, s.doneKinds == none);
  }
  return c.count >= 0 && s.count == c.count && s.hasGroup == (c.count >= 1) && done &&
         z3::implies(s.hasGroup, last);
}

/// The singleton lowering as a fold: every node starts a new group `toSingletonLoweredGroup(k)`,
/// with the sabotages of the singleton map that a step can show (`singleton-drops-last` is at the
/// end: finalCount).
FoldState pushSingleton(const Encoder &e, const FoldState &s, const Node &k) {
  z3::context &ctx = e.ctx();
  const Sabotage sab = e.sabotage();
  const z3::expr id = k.nodeId.unit(), kind = k.kind.unit();
  // `singleton-merges-first-two`: the second node joins the first group
  const z3::expr merge = sab == Sabotage::singletonMergesFirstTwo
                             ? s.hasGroup && !s.hasPrevious && s.ids.length() == 1
                             : ctx.bool_val(false);
  // `singleton-shifts-capsule`: node i gets the capsule of node i-1 (the last group's leader)
  const Capsule capsule = sab == Sabotage::singletonShiftsCapsule
                              ? ite(s.hasGroup, s.leader.capsule, k.capsule)
                              : k.capsule;
  // `singleton-reversed`: each new group goes first, so a closed group goes before the others
  const z3::expr closedIds = sab == Sabotage::singletonReversed ? z3::concat(s.ids, s.doneIds)
                                                                : z3::concat(s.doneIds, s.ids);
  const z3::expr closedKinds = sab == Sabotage::singletonReversed
                                   ? z3::concat(s.kinds, s.doneKinds)
                                   : z3::concat(s.doneKinds, s.kinds);
  return foldStep(
      e, s, k, merge, z3::concat(s.ids, id), z3::concat(s.kinds, kind), closedIds, closedKinds,
      Encoder::Head{z3::ite(merge, s.last.op, k.op), ite(merge, s.last.capsule, capsule), merge});
}

/// The number of groups of the finished lowering.
z3::expr finalCount(const Encoder &e, const FoldState &s, Mode mode) {
  if (mode == Mode::singleton && e.sabotage() == Sabotage::singletonDropsLast)
    return z3::ite(s.hasGroup, s.count - 1, s.count);
  return s.count;
}

z3::expr base(Encoder &e) {
  z3::context &ctx = e.ctx();
  const z3::expr none = z3::empty(intSequence(ctx));
  FoldState s = freshFoldState(e, "base.state");
  s.hasGroup = ctx.bool_val(false);
  s.count = ctx.int_val(0);
  s.doneIds = s.doneKinds = none;
  CandidateState c = freshCandidate(e, "base.candidate");
  c.count = ctx.int_val(0);
  c.doneIds = c.doneKinds = none;
  return agree(e, s, c);
}

z3::expr step(Encoder &e, Mode mode) {
  z3::context &ctx = e.ctx();
  const z3::sort seq = intSequence(ctx);
  const z3::expr none = z3::empty(seq);
  const FoldState s = freshFoldState(e, "state");
  const CandidateState c = freshCandidate(e, "candidate");
  const Node k = e.freshNode("pushed");
  const z3::expr id = k.nodeId.unit(), kind = k.kind.unit();
  // the current group's cells after k's, when k is in it
  const z3::expr laterIds = ctx.constant("candidate.laterIds", seq),
                 laterKinds = ctx.constant("candidate.laterKinds", seq);
  // the group that begins with k when the current one has no cell left
  const CandidateState h = freshCandidate(e, "next");
  const z3::expr going = c.count >= 1 && c.restIds.length() >= 1;
  // What the checks say of the cell that holds k (its id is the i-th of the concatenation):
  // order and kinds (the cell holds k's id and kind), op, capsule (a later member: `same` of the
  // equality); and of the group that begins with k when the current one is done: empty-group,
  // kinds, grouping-kind, singleton, the cell, op, capsule (its first member: every field) and
  // maximal (coalesced) across the boundary.
  z3::expr goesOn = c.restIds == z3::concat(id, laterIds) && c.op == k.op &&
                    same(e.equality(), c.capsule, k.capsule);
  z3::expr begins = h.takenIds == id && groupChecks(e, h, mode) && h.op == k.op &&
                    sameContract(h.capsule, k.capsule);
  if (e.groupKinds()) {
    goesOn = goesOn && c.restKinds == z3::concat(kind, laterKinds);
    begins = begins && h.takenKinds == kind;
  }
  if (mode == Mode::coalesced)
    begins = begins && z3::implies(c.count >= 1, !e.specCanAppend(c.op, c.capsule, k));
  const z3::expr hypothesis = e.wellFormed(k) && agree(e, s, c) &&
                              z3::implies(c.count >= 1, groupChecks(e, c, mode)) &&
                              z3::ite(going, goesOn, begins);

  const FoldState t = mode == Mode::coalesced ? pushKernel(e, s, k) : pushSingleton(e, s, k);
  CandidateState after = c;
  after.takenIds = z3::concat(c.takenIds, id);
  after.takenKinds = z3::concat(c.takenKinds, kind);
  after.restIds = laterIds;
  after.restKinds = laterKinds;
  CandidateState next = h;
  next.count = c.count + 1;
  next.doneIds = z3::ite(c.count >= 1, z3::concat(c.doneIds, c.ids()), none);
  next.doneKinds = z3::ite(c.count >= 1, z3::concat(c.doneKinds, c.kinds()), none);
  const z3::expr goal = t.appended == going &&
                        z3::ite(going, agree(e, t, after), agree(e, t, next)) &&
                        z3::implies(!going && c.count >= 1, sameGroup(e, s, c));
  return z3::implies(hypothesis, goal);
}

z3::expr end(Encoder &e, Mode mode) {
  const FoldState s = freshFoldState(e, "final.state");
  const CandidateState c = freshCandidate(e, "final.candidate");
  // after the last node no cell is left: the current group is consumed
  const z3::expr hypothesis =
      agree(e, s, c) &&
      z3::implies(c.count >= 1, groupChecks(e, c, mode) && c.restIds.length() == 0);
  const z3::expr goal =
      finalCount(e, s, mode) == c.count && z3::implies(c.count >= 1, sameGroup(e, s, c));
  return z3::implies(hypothesis, goal);
}

} // namespace

z3::expr uniqueInduction(Encoder &e, Mode mode) { return base(e) && step(e, mode) && end(e, mode); }

} // namespace lo::proofs
