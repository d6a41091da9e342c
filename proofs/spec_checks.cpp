#include "proofs/spec_checks.hpp"

namespace lo::proofs {

namespace {
int asInt(std::size_t i) { return static_cast<int>(i); }
} // namespace

SpecChecks::SpecChecks(const Encoder &encoder, const Plan &plan, const Lowering &candidate)
    : encoder_(encoder), plan_(plan), l_(candidate) {
  z3::context &ctx = encoder.ctx();
  offsets_.push_back(ctx.int_val(0));
  for (std::size_t j = 0; j < l_.groups.size(); ++j)
    offsets_.push_back(offsets_.back() +
                       z3::ite(l_.count > asInt(j), l_.groups[j].idCount, ctx.int_val(0)));
}

z3::expr SpecChecks::offset(std::size_t j) const { return offsets_[j]; }
z3::expr SpecChecks::total() const { return offsets_.back(); }

z3::expr SpecChecks::member(std::size_t j, std::size_t p) const {
  return l_.count > asInt(j) && l_.groups[j].idCount > asInt(p);
}

template <class F> z3::expr SpecChecks::forNode(const z3::expr &id, F property) const {
  z3::expr_vector all(encoder_.ctx());
  for (const Node &k : plan_.nodes)
    all.push_back(z3::implies(id == k.nodeId, property(k)));
  return z3::mk_and(all);
}

// Plan ids are distinct, so the concatenation is the plan's ids as a multiset exactly when it has
// n cells, each holds a plan id, and no two hold the same id.
z3::expr SpecChecks::provenance() const {
  z3::context &ctx = encoder_.ctx();
  z3::expr_vector all(ctx);
  all.push_back(total() == asInt(plan_.nodes.size()));
  const std::size_t cap = l_.groups.size();
  for (std::size_t j = 0; j < cap; ++j)
    for (std::size_t p = 0; p < cap; ++p) {
      const z3::expr &id = l_.groups[j].nodeIds[p];
      z3::expr_vector isPlanId(ctx);
      for (const Node &k : plan_.nodes)
        isPlanId.push_back(id == k.nodeId);
      all.push_back(z3::implies(member(j, p), z3::mk_or(isPlanId)));
      for (std::size_t j2 = j; j2 < cap; ++j2)
        for (std::size_t p2 = j2 == j ? p + 1 : 0; p2 < cap; ++p2)
          all.push_back(
              z3::implies(member(j, p) && member(j2, p2), id != l_.groups[j2].nodeIds[p2]));
    }
  return z3::mk_and(all);
}

z3::expr SpecChecks::order() const {
  z3::expr_vector all(encoder_.ctx());
  all.push_back(total() == asInt(plan_.nodes.size()));
  const std::size_t cap = l_.groups.size();
  for (std::size_t j = 0; j < cap; ++j)
    for (std::size_t p = 0; p < cap; ++p)
      for (std::size_t i = 0; i < plan_.nodes.size(); ++i)
        all.push_back(z3::implies(member(j, p) && offset(j) + asInt(p) == asInt(i),
                                  l_.groups[j].nodeIds[p] == plan_.nodes[i].nodeId));
  return z3::mk_and(all);
}

z3::expr SpecChecks::emptyGroup() const {
  z3::expr_vector all(encoder_.ctx());
  for (std::size_t j = 0; j < l_.groups.size(); ++j)
    all.push_back(z3::implies(l_.count > asInt(j), l_.groups[j].idCount >= 1));
  return z3::mk_and(all);
}

z3::expr SpecChecks::kinds() const {
  z3::expr_vector all(encoder_.ctx());
  for (std::size_t j = 0; j < l_.groups.size(); ++j) {
    const Group &g = l_.groups[j];
    all.push_back(z3::implies(l_.count > asInt(j), g.kindCount == g.idCount));
    for (std::size_t p = 0; p < g.nodeIds.size(); ++p)
      all.push_back(z3::implies(member(j, p), forNode(g.nodeIds[p], [&](const Node &k) {
                                  return g.kinds[p] == k.kind;
                                })));
  }
  return z3::mk_and(all);
}

z3::expr SpecChecks::op() const {
  z3::expr_vector all(encoder_.ctx());
  for (std::size_t j = 0; j < l_.groups.size(); ++j) {
    const Group &g = l_.groups[j];
    for (std::size_t p = 0; p < g.nodeIds.size(); ++p)
      all.push_back(z3::implies(
          member(j, p), forNode(g.nodeIds[p], [&](const Node &k) { return g.op == k.op; })));
  }
  return z3::mk_and(all);
}

z3::expr SpecChecks::capsule() const {
  z3::expr_vector all(encoder_.ctx());
  const bool contract = encoder_.equality() == Equality::contract;
  for (std::size_t j = 0; j < l_.groups.size(); ++j) {
    const Group &g = l_.groups[j];
    for (std::size_t p = 0; p < g.nodeIds.size(); ++p)
      all.push_back(z3::implies(member(j, p), forNode(g.nodeIds[p], [&](const Node &k) {
                                  return contract || p == 0 ? sameContract(g.capsule, k.capsule)
                                                            : sameIdentity(g.capsule, k.capsule);
                                })));
  }
  return z3::mk_and(all);
}

z3::expr SpecChecks::groupingKind() const {
  z3::expr_vector all(encoder_.ctx());
  for (std::size_t j = 0; j < l_.groups.size(); ++j)
    all.push_back(
        z3::implies(l_.count > asInt(j), l_.groups[j].run == (l_.groups[j].idCount >= 2)));
  return z3::mk_and(all);
}

z3::expr SpecChecks::singleton() const {
  z3::expr_vector all(encoder_.ctx());
  for (std::size_t j = 0; j < l_.groups.size(); ++j)
    all.push_back(z3::implies(l_.count > asInt(j), l_.groups[j].idCount <= 1));
  return z3::mk_and(all);
}

z3::expr SpecChecks::maximal() const {
  z3::expr_vector all(encoder_.ctx());
  for (std::size_t j = 0; j + 1 < l_.groups.size(); ++j) {
    const Group &g = l_.groups[j];
    all.push_back(
        z3::implies(member(j + 1, 0), forNode(l_.groups[j + 1].nodeIds[0], [&](const Node &k) {
                      return !encoder_.specCanAppend(g.op, g.capsule, k);
                    })));
  }
  return z3::mk_and(all);
}

z3::expr SpecChecks::audit() const {
  z3::expr_vector all(encoder_.ctx());
  for (std::size_t j = 0; j < l_.groups.size(); ++j) {
    const AuditRow row = encoder_.groupRow(l_, j, plan_);
    for (std::size_t p = 0; p < l_.groups[j].nodeIds.size(); ++p)
      all.push_back(z3::implies(member(j, p), forNode(l_.groups[j].nodeIds[p], [&](const Node &k) {
                                  return sameRow(row, auditRow(k.op, k.capsule));
                                })));
  }
  return z3::mk_and(all);
}

z3::expr SpecChecks::trustBoundary() const {
  z3::context &ctx = encoder_.ctx();
  z3::expr_vector candidateHas(ctx), singletonHas(ctx), all(ctx);
  std::vector<AuditRow> rows;
  for (std::size_t j = 0; j < l_.groups.size(); ++j)
    rows.push_back(encoder_.groupRow(l_, j, plan_));
  for (std::size_t j = 0; j < rows.size(); ++j) {
    const z3::expr used = l_.count > asInt(j);
    candidateHas.push_back(used && isTrustedExternal(rows[j]));
    // each trusted-external op of the candidate is one of the singleton audit's ...
    z3::expr_vector shown(ctx);
    for (const Node &k : plan_.nodes)
      shown.push_back(isTrustedExternal(auditRow(k.op, k.capsule)) && k.op == rows[j].view.op);
    all.push_back(z3::implies(used && isTrustedExternal(rows[j]), z3::mk_or(shown)));
  }
  // ... and each of the singleton audit's is one of the candidate's
  for (const Node &k : plan_.nodes) {
    const AuditRow r = auditRow(k.op, k.capsule);
    singletonHas.push_back(isTrustedExternal(r));
    z3::expr_vector kept(ctx);
    for (std::size_t j = 0; j < rows.size(); ++j)
      kept.push_back(l_.count > asInt(j) && isTrustedExternal(rows[j]) && rows[j].view.op == k.op);
    all.push_back(z3::implies(isTrustedExternal(r), z3::mk_or(kept)));
  }
  all.push_back(z3::mk_or(candidateHas) == z3::mk_or(singletonHas));
  return z3::mk_and(all);
}

z3::expr SpecChecks::all(Mode mode) const {
  z3::expr every =
      provenance() && order() && emptyGroup() && op() && capsule() && audit() && trustBoundary();
  if (encoder_.groupKinds()) // elsewhere not run (docs/spec.md §3.1)
    every = every && kinds() && groupingKind();
  return mode == Mode::singleton ? every && singleton() : every && maximal();
}

z3::expr SpecChecks::expandsTo(const Lowering &s) const {
  z3::context &ctx = encoder_.ctx();
  z3::expr_vector all(ctx);
  const std::size_t n = plan_.nodes.size();
  all.push_back(total() == asInt(n));
  all.push_back(s.count == asInt(n));
  const bool kinds = encoder_.groupKinds();
  for (std::size_t j = 0; j < l_.groups.size(); ++j) {
    const Group &g = l_.groups[j];
    if (kinds)
      all.push_back(z3::implies(l_.count > asInt(j), g.kindCount == g.idCount));
    for (std::size_t p = 0; p < g.nodeIds.size(); ++p)
      for (std::size_t i = 0; i < n && i < s.groups.size(); ++i) {
        // cell p of group j expands to {[id], [kind], g.op, g.capsule, singleton} at position i
        // (`toSingletonGroup`, {[id], g.op, g.capsule}, where groups have no kinds)
        const Group &e = s.groups[i];
        z3::expr expands = e.idCount == 1 && e.nodeIds[0] == g.nodeIds[p] && e.op == g.op &&
                           sameContract(e.capsule, g.capsule);
        if (kinds)
          expands = expands && e.kindCount == 1 && e.kinds[0] == g.kinds[p] && !e.run;
        all.push_back(z3::implies(member(j, p) && offset(j) + asInt(p) == asInt(i), expands));
      }
  }
  return z3::mk_and(all);
}

} // namespace lo::proofs
