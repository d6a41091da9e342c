#include "proofs/step.hpp"

namespace lo::proofs {

z3::sort intSequence(z3::context &ctx) {
  z3::sort i = ctx.int_sort();
  return ctx.seq_sort(i);
}

FoldState freshFoldState(Encoder &e, const std::string &prefix) {
  z3::context &ctx = e.ctx();
  const z3::sort seq = intSequence(ctx);
  auto s = [&](const char *name) { return ctx.constant((prefix + "." + name).c_str(), seq); };
  return FoldState{ctx.bool_const((prefix + ".hasGroup").c_str()),
                   ctx.int_const((prefix + ".count").c_str()),
                   s("doneIds"),
                   s("doneKinds"),
                   s("ids"),
                   s("kinds"),
                   Encoder::Head{ctx.int_const((prefix + ".op").c_str()),
                                 e.freshCapsule(prefix + ".capsule"),
                                 ctx.bool_const((prefix + ".run").c_str())},
                   ctx.bool_const((prefix + ".hasPrevious").c_str()),
                   ctx.int_const((prefix + ".previousOp").c_str()),
                   e.freshCapsule(prefix + ".previousCapsule"),
                   e.freshNode(prefix + ".leader"),
                   e.freshNode(prefix + ".member"),
                   ctx.bool_val(false)};
}

FoldState pushKernel(const Encoder &e, const FoldState &s, const Node &k) {
  z3::context &ctx = e.ctx();
  // Appended to the last group when canAppend(group, node) holds (docs/spec.md §1.2),
  const z3::expr append = s.hasGroup && e.algorithmCanAppend(s.last.op, s.last.capsule, k);
  // appendNode's lists: the id and the kind go last (or, sabotaged, first or nowhere)
  const Sabotage sab = e.sabotage();
  const z3::expr id = k.nodeId.unit(), kind = k.kind.unit();
  z3::expr ids = sab == Sabotage::appendPrepends  ? z3::concat(id, s.ids)
                 : sab == Sabotage::appendDropsId ? s.ids
                                                  : z3::concat(s.ids, id);
  z3::expr kinds = sab == Sabotage::appendPrepends    ? z3::concat(kind, s.kinds)
                   : sab == Sabotage::appendDropsKind ? s.kinds
                                                      : z3::concat(s.kinds, kind);
  const Encoder::Head head = e.appendHead(s.last, k);
  // else the start of a new singleton group.
  const Encoder::Head fresh{k.op, k.capsule, ctx.bool_val(false)};
  return foldStep(
      e, s, k, append, ids, kinds, z3::concat(s.doneIds, s.ids), z3::concat(s.doneKinds, s.kinds),
      Encoder::Head{z3::ite(append, head.op, fresh.op), ite(append, head.capsule, fresh.capsule),
                    z3::ite(append, head.run, fresh.run)});
}

FoldState foldStep(const Encoder &e, const FoldState &s, const Node &k, const z3::expr &join,
                   const z3::expr &ids, const z3::expr &kinds, const z3::expr &closedIds,
                   const z3::expr &closedKinds, const Encoder::Head &last) {
  z3::context &ctx = s.count.ctx();
  const z3::expr none = z3::empty(intSequence(ctx));
  return FoldState{ctx.bool_val(true),
                   z3::ite(join, s.count, s.count + 1),
                   z3::ite(join, s.doneIds, z3::ite(s.hasGroup, closedIds, none)),
                   z3::ite(join, s.doneKinds, z3::ite(s.hasGroup, closedKinds, none)),
                   z3::ite(join, ids, e.singletonGroupIds(k)),
                   z3::ite(join, kinds, k.kind.unit()),
                   last,
                   z3::ite(join, s.hasPrevious, s.hasGroup),
                   z3::ite(join, s.previousOp, s.last.op),
                   ite(join, s.previousCapsule, s.last.capsule),
                   ite(join, s.leader, k),
                   s.member,
                   join};
}

} // namespace lo::proofs
