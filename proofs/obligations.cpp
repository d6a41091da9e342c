#include "proofs/obligations.hpp"

#include "proofs/acceptance.hpp"
#include "proofs/counterexample.hpp"
#include "proofs/gate.hpp"
#include "proofs/selection.hpp"
#include "proofs/spec_checks.hpp"
#include "proofs/step.hpp"
#include "proofs/unique.hpp"
#include "ref/selection.hpp"

#include <optional>
#include <stdexcept>

namespace lo::proofs {

namespace {

int asInt(std::size_t i) { return static_cast<int>(i); }

/// The reference lowering of a fresh valid plan of length n, with the checks over it.
struct Bounded {
  Plan plan;
  Lowering lowering;
  z3::expr valid;
};

/// The reference lowering of `mode` (toSingleton or toCoalesced) of a fresh plan of length n.
Bounded referenceOf(Encoder &e, std::size_t n, Mode mode) {
  Plan p = e.freshPlan(n);
  Lowering l = mode == Mode::singleton ? e.toSingleton(p) : e.toCoalesced(p);
  z3::expr v = e.valid(p);
  return Bounded{std::move(p), std::move(l), v};
}

Bounded singletonOf(Encoder &e, std::size_t n) { return referenceOf(e, n, Mode::singleton); }
Bounded coalescedOf(Encoder &e, std::size_t n) { return referenceOf(e, n, Mode::coalesced); }

/// "valid(plan) => property(checks of the reference lowering)".
template <class F> Query referencePasses(Bounded b, const Encoder &e, F property) {
  SpecChecks c(e, b.plan, b.lowering);
  return Query{b.valid, property(c), std::move(b.plan), {}};
}

/// The obligations stated alike of both lowerings: provenance (with kinds, where groups have
/// them) and order.
Query provenanceHolds(Encoder &e, std::size_t n, Mode mode) {
  const bool kinds = e.groupKinds();
  return referencePasses(referenceOf(e, n, mode), e, [kinds](const SpecChecks &c) {
    return kinds ? c.provenance() && c.kinds() : c.provenance();
  });
}

Query orderHolds(Encoder &e, std::size_t n, Mode mode) {
  return referencePasses(referenceOf(e, n, mode), e, [](const SpecChecks &c) { return c.order(); });
}

/// "Every lowering of the plan that passes every check of `mode` is the reference lowering."
Query unique(Encoder &e, Bounded b, Mode mode) {
  const std::size_t n = b.plan.nodes.size();
  Lowering candidate = e.freshLowering(n);
  SpecChecks c(e, b.plan, candidate);
  return Query{b.valid && e.wellFormed(candidate) && c.all(mode),
               sameLowering(candidate, b.lowering, e.groupKinds()),
               std::move(b.plan),
               {}};
}

// --- singleton ------------------------------------------------------------------------------

Query singletonProvenance(Encoder &e, std::size_t n) {
  return provenanceHolds(e, n, Mode::singleton);
}

Query singletonOrder(Encoder &e, std::size_t n) { return orderHolds(e, n, Mode::singleton); }

Query singletonOneNode(Encoder &e, std::size_t n) {
  Bounded b = singletonOf(e, n);
  const z3::expr count = b.lowering.count == asInt(n);
  return referencePasses(std::move(b), e, [&](const SpecChecks &c) {
    return count && c.singleton() && c.emptyGroup() && c.groupingKind();
  });
}

Query singletonAudit(Encoder &e, std::size_t n) {
  return referencePasses(singletonOf(e, n), e,
                         [](const SpecChecks &c) { return c.audit() && c.trustBoundary(); });
}

/// Completeness for every length: the induction of unique.hpp (base, step and end lemmas).
Query uniqueForEveryLength(Encoder &e, Mode mode) {
  return Query{e.ctx().bool_val(true), uniqueInduction(e, mode), std::nullopt, {}};
}

Query singletonUnique(Encoder &e, std::size_t) { return uniqueForEveryLength(e, Mode::singleton); }

Query singletonUniqueBounded(Encoder &e, std::size_t n) {
  return unique(e, singletonOf(e, n), Mode::singleton);
}

// --- coalesced ------------------------------------------------------------------------------

Query coalescedProvenance(Encoder &e, std::size_t n) {
  return provenanceHolds(e, n, Mode::coalesced);
}

Query coalescedOrder(Encoder &e, std::size_t n) { return orderHolds(e, n, Mode::coalesced); }

Query coalescedContractEquality(Encoder &e, std::size_t n) {
  return referencePasses(coalescedOf(e, n), e,
                         [](const SpecChecks &c) { return c.op() && c.capsule(); });
}

Query coalescedGroupingKind(Encoder &e, std::size_t n) {
  return referencePasses(coalescedOf(e, n), e,
                         [](const SpecChecks &c) { return c.emptyGroup() && c.groupingKind(); });
}

Query coalescedNonEmpty(Encoder &e, std::size_t n) {
  return referencePasses(coalescedOf(e, n), e, [](const SpecChecks &c) { return c.emptyGroup(); });
}

Query coalescedMaximal(Encoder &e, std::size_t n) {
  return referencePasses(coalescedOf(e, n), e, [](const SpecChecks &c) { return c.maximal(); });
}

Query coalescedAudit(Encoder &e, std::size_t n) {
  Bounded b = coalescedOf(e, n);
  SpecChecks c(e, b.plan, b.lowering);
  const z3::expr boundary = c.trustBoundary(), goal = c.audit() && boundary;
  // A counterexample that hides a trusted-external boundary is the most telling one.
  return Query{b.valid, goal, std::move(b.plan), {boundary}};
}

Query coalescedRefinesSingleton(Encoder &e, std::size_t n) {
  Bounded b = coalescedOf(e, n);
  const Lowering s = e.toSingleton(b.plan);
  return referencePasses(std::move(b), e, [&](const SpecChecks &c) { return c.expandsTo(s); });
}

Query coalescedUnique(Encoder &e, std::size_t) { return uniqueForEveryLength(e, Mode::coalesced); }

Query coalescedUniqueBounded(Encoder &e, std::size_t n) {
  return unique(e, coalescedOf(e, n), Mode::coalesced);
}

// --- step lemmas: one pushKernel step from an arbitrary state ----------------------------------

struct Step {
  FoldState s, t;
  Node k;
  z3::expr nodes; // the nodes involved are well formed
};

Step step(Encoder &e) {
  FoldState s = freshFoldState(e, "state");
  Node k = e.freshNode("pushed");
  FoldState t = pushKernel(e, s, k);
  z3::expr nodes = e.wellFormed(k) && e.wellFormed(s.leader) && e.wellFormed(s.member);
  return Step{std::move(s), std::move(t), std::move(k), nodes};
}

/// "If the invariant holds before the step, it holds after it."
Query preserved(const Step &st, const z3::expr &before, const z3::expr &after) {
  return Query{st.nodes && before, after, std::nullopt, {}};
}

Query stepOrder(Encoder &e, std::size_t) {
  Step st = step(e);
  z3::context &ctx = e.ctx();
  const z3::sort seq = intSequence(ctx);
  const z3::expr ids = ctx.constant("prefix.ids", seq), kinds = ctx.constant("prefix.kinds", seq);
  const FoldState &s = st.s, &t = st.t;
  // groups' ids (kinds, where groups have them) concatenated == the pushed prefix's ids (kinds)
  z3::expr before = z3::ite(s.hasGroup, z3::concat(s.doneIds, s.ids) == ids, ids == z3::empty(seq));
  z3::expr after = z3::concat(t.doneIds, t.ids) == z3::concat(ids, st.k.nodeId.unit());
  if (e.groupKinds()) {
    before = before && z3::ite(s.hasGroup, z3::concat(s.doneKinds, s.kinds) == kinds,
                               kinds == z3::empty(seq));
    after = after && z3::concat(t.doneKinds, t.kinds) == z3::concat(kinds, st.k.kind.unit());
  }
  return preserved(st, before, after);
}

z3::expr groupShape(const FoldState &s) {
  const z3::expr len = s.ids.length();
  return len >= 1 && s.kinds.length() == len && s.last.run == (len >= 2);
}

Query stepGroupingKind(Encoder &e, std::size_t) {
  Step st = step(e);
  return preserved(st, z3::implies(st.s.hasGroup, groupShape(st.s)), groupShape(st.t));
}

Query stepNonEmpty(Encoder &e, std::size_t) {
  Step st = step(e);
  auto nonEmpty = [](const FoldState &s) { return s.ids.length() >= 1; };
  return preserved(st, z3::implies(st.s.hasGroup, nonEmpty(st.s)), nonEmpty(st.t));
}

/// `op` and `capsule` checks for one member of the last group; `first` when it is the leader.
z3::expr memberFits(const Encoder &e, const FoldState &s, const Node &m, bool first) {
  const z3::expr capsule = first ? sameContract(s.last.capsule, m.capsule)
                                 : same(e.equality(), s.last.capsule, m.capsule);
  return m.op == s.last.op && capsule;
}

Query stepContractEquality(Encoder &e, std::size_t) {
  Step st = step(e);
  const FoldState &s = st.s, &t = st.t;
  const z3::expr before = z3::implies(s.hasGroup, memberFits(e, s, s.leader, true) &&
                                                      memberFits(e, s, s.member, false));
  const z3::expr after = memberFits(e, t, t.leader, true) && memberFits(e, t, st.k, false) &&
                         z3::implies(t.appended, memberFits(e, t, s.member, false));
  return preserved(st, before, after);
}

Query stepMaximal(Encoder &e, std::size_t) {
  Step st = step(e);
  const FoldState &s = st.s, &t = st.t;
  auto boundary = [&](const FoldState &x) {
    return z3::implies(x.hasPrevious, !e.specCanAppend(x.previousOp, x.previousCapsule, x.leader));
  };
  const z3::expr before = z3::implies(s.hasGroup, memberFits(e, s, s.leader, true) && boundary(s));
  return preserved(st, before, memberFits(e, t, t.leader, true) && boundary(t));
}

// The step encoding keeps no last node, so `audit-from-last-node` (a sabotage of the bounded
// audit view) does not apply here. The row is the head's, and the head's capsule is for its op.
z3::expr headRowIs(const Encoder &e, const FoldState &x, const Node &m) {
  return e.capsuleForOp(x.last.op, x.last.capsule) &&
         sameRow(e.groupRow(x.last.op, x.last.capsule), auditRow(m.op, m.capsule));
}

Query stepAudit(Encoder &e, std::size_t) {
  Step st = step(e);
  const FoldState &s = st.s, &t = st.t;
  const z3::expr before = z3::implies(s.hasGroup, headRowIs(e, s, s.member));
  return preserved(st, before,
                   headRowIs(e, t, st.k) && z3::implies(t.appended, headRowIs(e, t, s.member)));
}

Query stepRefinesSingleton(Encoder &e, std::size_t) {
  Step st = step(e);
  const FoldState &s = st.s, &t = st.t;
  // expanding the last group at a member gives that member's singleton group
  auto expands = [](const FoldState &x, const Node &m) {
    return m.op == x.last.op && sameContract(x.last.capsule, m.capsule);
  };
  return preserved(st, z3::implies(s.hasGroup, expands(s, s.member)),
                   expands(t, st.k) && z3::implies(t.appended, expands(t, s.member)));
}

// clang-format off
const std::vector<Obligation> kObligations{
  {"singleton.provenance", "for all valid P with |P| <= N: the ids of toSingleton(P)'s groups, concatenated, are ids(P) as a multiset, each group's kinds are its nodes' kinds", false, singletonProvenance, Needs::singletonLowering},
  {"singleton.order", "for all valid P with |P| <= N: concat(nodeIds(g) for g in toSingleton(P)) = ids(P)", false, singletonOrder, Needs::singletonLowering},
  {"singleton.one-node", "for all valid P with |P| <= N: |toSingleton(P)| = |P| and every group has exactly one node and groupingKind singleton", false, singletonOneNode, Needs::singletonLowering},
  {"singleton.audit", "for all valid P with |P| <= N: each group's audit row equals the singleton audit row of its node, and hasTrustedExternal and the set of trusted-external ops are those of the singleton audit", false, singletonAudit, Needs::singletonLowering},
  {"singleton.unique", "for all valid P of any length and all lowerings L: L passes every check of mode singleton => L = toSingleton(P) (by induction over the nodes: base, step and end lemmas)", true, singletonUnique, Needs::singletonLowering},
  {"coalesced.provenance", "for all valid P with |P| <= N: the ids of toCoalesced(P)'s groups, concatenated, are ids(P) as a multiset, each group's kinds are its nodes' kinds", false, coalescedProvenance},
  {"coalesced.order", "for all valid P with |P| <= N: concat(nodeIds(g) for g in toCoalesced(P)) = ids(P)", false, coalescedOrder},
  {"coalesced.contract-equality", "for all valid P with |P| <= N, groups g of toCoalesced(P) and members k of g: g.op = k.op and g.capsule equals k.capsule (contract: every field; identity: every field for the first member, the identity part for the others)", false, coalescedContractEquality},
  {"coalesced.grouping-kind", "for all valid P with |P| <= N and groups g of toCoalesced(P): |g| >= 1 and g.groupingKind = (if |g| = 1 then singleton else sameCapsuleRun)", false, coalescedGroupingKind, Needs::groupKinds},
  {"coalesced.non-empty", "for all valid P with |P| <= N and groups g of toCoalesced(P): |g| >= 1", false, coalescedNonEmpty, Needs::noGroupKinds},
  {"coalesced.maximal", "for all valid P with |P| <= N and adjacent groups g, h of toCoalesced(P): not canAppend(g, first(h))", false, coalescedMaximal},
  {"coalesced.audit", "for all valid P with |P| <= N, groups g of toCoalesced(P) and members k of g: row(g) = row(singleton(k)), and hasTrustedExternal and the set of trusted-external ops equal the singleton audit's", false, coalescedAudit},
  {"coalesced.refines-singleton", "for all valid P with |P| <= N: replacing each group g of toCoalesced(P) by the singleton groups {[id], [kind], g.op, g.capsule} of its nodes gives toSingleton(P)", false, coalescedRefinesSingleton},
  {"coalesced.unique", "for all valid P of any length and all lowerings L: L passes every check of mode coalesced => L = toCoalesced(P) (by induction over the nodes: base, step and end lemmas)", true, coalescedUnique},
  {"step.order", "for every fold state S over a prefix Q and node k: ids(S) = ids(Q) and kinds(S) = kinds(Q) => ids(pushKernel(S, k)) = ids(Q)++[k.id] and kinds likewise", true, stepOrder},
  {"step.grouping-kind", "for every fold state S and node k: the last group is non-empty, has as many kinds as ids and is sameCapsuleRun iff it has >= 2 ids => the same holds after pushKernel(S, k)", true, stepGroupingKind, Needs::groupKinds},
  {"step.non-empty", "for every fold state S and node k: the last group is non-empty => it is non-empty after pushKernel(S, k)", true, stepNonEmpty, Needs::noGroupKinds},
  {"step.contract-equality", "for every fold state S and node k: the last group's op and capsule fit its first node and an arbitrary member => they fit the first node, k and (if appended) that member after pushKernel(S, k)", true, stepContractEquality},
  {"step.maximal", "for every fold state S and node k: the last group's head is its first node's and the last boundary is maximal => both hold after pushKernel(S, k)", true, stepMaximal},
  {"step.audit", "for every fold state S and node k: the last group's audit row is an arbitrary member's singleton row => it is k's and (if appended) that member's after pushKernel(S, k)", true, stepAudit},
  {"step.refines-singleton", "for every fold state S and node k: expanding the last group at an arbitrary member gives the member's singleton group => the same holds for k and (if appended) that member after pushKernel(S, k)", true, stepRefinesSingleton},
};

const std::vector<Obligation> kCrossChecks{
  {"singleton.unique-bounded", "for all valid P with |P| <= N and all lowerings L: L passes every check of mode singleton => L = toSingleton(P)", false, singletonUniqueBounded, Needs::singletonLowering},
  {"coalesced.unique-bounded", "for all valid P with |P| <= N and all lowerings L: L passes every check of mode coalesced => L = toCoalesced(P)", false, coalescedUniqueBounded},
};
// clang-format on

/// A plan whose counterexample reads plainly: every capsule is for its kernel's op, and (in an
/// edition with the acceptance gate) its claims are aligned. Only preferred, never assumed.
z3::expr tidyPlan(const Encoder &e, const Plan &p) {
  z3::expr_vector all(e.ctx());
  for (const Node &k : p.nodes) {
    all.push_back(k.capsule.op == k.op);
    if (rulesOf(e.edition()).gate == GateKind::acceptance)
      all.push_back(contractsAligned(k.capsule));
  }
  return z3::mk_and(all);
}

} // namespace

bool appliesIn(const Obligation &o, Edition e) {
  const EditionRules &r = rulesOf(e);
  switch (o.needs) {
  case Needs::nothing: return true;
  case Needs::singletonLowering: return r.singletonLowering;
  case Needs::groupKinds: return r.groupKinds;
  case Needs::noGroupKinds: return !r.groupKinds;
  case Needs::evidenceGate: return r.gate == GateKind::evidence;
  case Needs::acceptanceGate: return r.gate == GateKind::acceptance;
  case Needs::selection: return selection::hasSelection(e);
  }
  return false;
}

const std::vector<Obligation> &obligations() {
  // The gates' obligations (proofs/gate.cpp, proofs/acceptance.cpp) follow the lowering's, then
  // the selection's (proofs/selection.cpp).
  static const std::vector<Obligation> all = [] {
    std::vector<Obligation> v = kObligations;
    for (Obligation &o : gateObligations())
      v.push_back(std::move(o));
    for (Obligation &o : acceptanceObligations())
      v.push_back(std::move(o));
    for (Obligation &o : selectionObligations())
      v.push_back(std::move(o));
    return v;
  }();
  return all;
}

std::vector<const Obligation *> obligationsOf(Edition e) {
  std::vector<const Obligation *> out;
  for (const Obligation &o : obligations())
    if (appliesIn(o, e))
      out.push_back(&o);
  return out;
}
const std::vector<Obligation> &crossChecks() { return kCrossChecks; }

const Obligation *findObligation(std::string_view name) {
  for (const Obligation &o : obligations())
    if (o.name == name)
      return &o;
  return nullptr;
}

namespace {

/// The lengths below this one share one Z3 context in `discharge` when nothing asks for the
/// queries' text: under AddressSanitizer creating a context costs more than their queries
/// (docs/testing.md, "Z3 under AddressSanitizer"). A longer query has a context of its own, and
/// so has a length whose answer in the shared one is unknown, or refuted where a counterexample
/// is asked for: it is asked again in a fresh context, so that every answer `discharge` reports
/// (its reason, its model) is the one a context of its own gives.
constexpr std::size_t kSharedContextLengths = 4;

/// What one length of an obligation gives: the answer, and what `discharge` reports with it.
struct LengthResult {
  Status status = Status::proved;
  std::string reason;
  std::optional<Disagreement> disagreement;
  std::optional<GraphExecutionPlan> counterexample;
};

LengthResult dischargeLength(z3::context &ctx, const Obligation &o, std::size_t n,
                             const Options &options, Interner *interner) {
  LengthResult r;
  Encoder e(ctx, options.edition, options.equality, options.sabotage, options.selectionSabotage);
  Query q = o.build(e, n);
  Solver solver(ctx, options.timeoutMs);
  solver.add(q.hypothesis);
  if (options.solver) {
    // Another solver decides, and Z3 decides the same query (docs/proofs.md, "Trust base":
    // every answer is cross-checked): proved when both say unsat, refuted when both say sat,
    // a disagreement when one says sat and the other unsat, else unknown.
    std::string reason;
    const Smt2 smt = smtLib2(ctx, {q.hypothesis, !q.goal});
    const Status s = options.solver(smt, reason);
    const auto call = std::chrono::steady_clock::now();
    const Status z3 = solver.prove(q.goal);
    if (options.emit)
      options.emit(EmittedQuery{o.name, o.everyLength, n, smt, z3, secondsSince(call)});
    if (s == Status::proved && z3 == Status::proved)
      return r;
    if (s != Status::unknown && z3 != Status::unknown && s != z3) {
      r.status = Status::unknown;
      r.disagreement = Disagreement{s, z3};
      return r;
    }
    r.status = s == z3 ? s : Status::unknown;
    r.reason = s == Status::unknown    ? reason
               : z3 == Status::unknown ? "Z3 could not cross-check the answer " +
                                             std::string(spelling(s)) + ": " + solver.reason()
                                       : std::string();
    if (r.status == Status::refuted && interner && q.plan)
      r.counterexample = concretePlan(*solver.model(), *q.plan, options.edition, *interner);
    return r;
  }
  const auto call = std::chrono::steady_clock::now();
  const Status s = solver.prove(q.goal);
  if (options.emit)
    options.emit(EmittedQuery{o.name, o.everyLength, n, smtLib2(ctx, {q.hypothesis, !q.goal}), s,
                              secondsSince(call)});
  if (s == Status::proved)
    return r;
  r.status = s;
  r.reason = solver.reason();
  if (s == Status::refuted && interner && q.plan) {
    std::optional<z3::model> model = solver.model();
    // A more telling model, if there is one: a preferred part refuted, first by a tidy plan.
    const z3::expr tidy = tidyPlan(e, *q.plan);
    std::vector<z3::expr> parts;
    for (const z3::expr &part : q.preferred)
      parts.push_back(z3::implies(tidy, part));
    parts.push_back(z3::implies(tidy, q.goal));
    parts.insert(parts.end(), q.preferred.begin(), q.preferred.end());
    for (const z3::expr &part : parts)
      if (solver.prove(part) == Status::refuted) {
        model = solver.model();
        break;
      }
    r.counterexample = concretePlan(*model, *q.plan, options.edition, *interner);
  }
  return r;
}

} // namespace

Result discharge(const Obligation &o, const Options &options, Interner *interner) {
  if (!appliesIn(o, options.edition))
    throw std::logic_error(std::string(o.name) + " is not an obligation of edition " +
                           std::string(spelling(options.edition)));
  const auto start = std::chrono::steady_clock::now();
  Result r;
  r.name = o.name;
  r.everyLength = o.everyLength;
  r.status = Status::proved;
  const bool textAsked = options.solver || options.emit;
  std::optional<z3::context> shared;
  const std::size_t last = o.everyLength ? 0 : options.bound;
  for (std::size_t n = o.everyLength ? 0 : options.minLength; n <= last; ++n) {
    r.length = n;
    std::optional<LengthResult> l;
    if (!textAsked && n < kSharedContextLengths) {
      if (!shared)
        shared.emplace();
      l = dischargeLength(*shared, o, n, options, interner);
      if (l->status == Status::unknown || (l->status == Status::refuted && interner))
        l.reset();
    }
    if (!l) {
      z3::context own;
      l = dischargeLength(own, o, n, options, interner);
    }
    if (l->status == Status::proved)
      continue;
    r.status = l->status;
    r.reason = std::move(l->reason);
    r.disagreement = l->disagreement;
    r.counterexample = std::move(l->counterexample);
    break;
  }
  r.seconds = secondsSince(start);
  return r;
}

} // namespace lo::proofs
