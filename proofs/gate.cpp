#include "proofs/gate.hpp"

#include "proofs/step.hpp"
#include "ref/gate.hpp"

namespace lo::proofs {

SymbolicPolicy freshPolicy(z3::context &ctx, const std::string &prefix) {
  auto b = [&](const char *name) { return ctx.bool_const((prefix + "." + name).c_str()); };
  return SymbolicPolicy{b("allowChecked"),    b("allowFuzzed"),        b("allowTrustedExternal"),
                        b("requireEvidence"), b("allowRuntimeGuards"), b("allowTestEvidence")};
}

std::vector<EvidenceDisposition> dispositionsOf(Edition edition) {
  return valuesOf<EvidenceDisposition>(edition);
}

z3::expr disposition(const z3::expr &contract, Edition edition) {
  return z3::mod(contract, static_cast<int>(dispositionsOf(edition).size()));
}

namespace {

constexpr ContractObligation kObligations[] = {ContractObligation::shape,
                                               ContractObligation::layout,
                                               ContractObligation::value, ContractObligation::vjp};

const z3::expr &contractOf(const AuditRow &r, ContractObligation o) {
  switch (o) {
  case ContractObligation::shape: return r.view.shapeContract;
  case ContractObligation::layout: return r.view.layoutContract;
  case ContractObligation::value: return r.view.valueContract;
  case ContractObligation::vjp: return r.view.vjpContract;
  }
  return r.view.shapeContract;
}

/// An audit row of a lowering's slot (active when the slot is one of its groups).
struct Row {
  z3::expr active;
  AuditRow row;
};

std::vector<Row> rowsOf(const Encoder &e, const Lowering &l, const Plan &p) {
  std::vector<Row> rows;
  for (std::size_t j = 0; j < l.groups.size(); ++j)
    rows.push_back(Row{l.count > static_cast<int>(j), e.groupRow(l, j, p)});
  return rows;
}

/// The plan's singleton gate reads one row per node, from the plan's nodes directly.
std::vector<Row> nodeRowsOf(const Encoder &e, const Plan &p) {
  std::vector<Row> rows;
  for (const Node &k : p.nodes)
    rows.push_back(Row{e.ctx().bool_val(true), auditRow(k.op, k.capsule)});
  return rows;
}

/// The contract's disposition is the one a failure of kind `k` lists (never, when the edition has
/// no such disposition).
z3::expr listedBy(const z3::expr &contract, Edition edition, GateFailureKind k) {
  const std::vector<EvidenceDisposition> all = dispositionsOf(edition);
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i] == failureDisposition(k))
      return disposition(contract, edition) == static_cast<int>(i);
  return contract.ctx().bool_val(false);
}

/// Report (r, o) is a report of `rows`.
z3::expr contains(const std::vector<Row> &rows, const AuditRow &r, ContractObligation o) {
  z3::expr any = r.view.op.ctx().bool_val(false);
  for (const Row &x : rows)
    any = any || (x.active && x.row.view.op == r.view.op && x.row.view.name == r.view.name &&
                  contractOf(x.row, o) == contractOf(r, o));
  return any;
}

/// Every report of `a` with the disposition of `k` is a report of `b`.
z3::expr included(z3::context &ctx, Edition edition, const std::vector<Row> &a,
                  const std::vector<Row> &b, GateFailureKind k) {
  z3::expr all = ctx.bool_val(true);
  for (const Row &x : a)
    for (ContractObligation o : kObligations)
      all = all && z3::implies(x.active && listedBy(contractOf(x.row, o), edition, k),
                               contains(b, x.row, o));
  return all;
}

/// A failure of kind `k` is in the gate of `rows` (checked by the policy, some report has it).
z3::expr present(const SymbolicPolicy &p, Edition edition, const std::vector<Row> &rows,
                 GateFailureKind k) {
  z3::expr any = p.requireEvidence.ctx().bool_val(false);
  for (const Row &x : rows)
    for (ContractObligation o : kObligations)
      any = any || (x.active && listedBy(contractOf(x.row, o), edition, k));
  return looksFor(p, k) && any;
}

z3::expr accepted(const SymbolicPolicy &p, Edition edition, const std::vector<Row> &rows) {
  z3::expr none = p.requireEvidence.ctx().bool_val(true);
  for (std::size_t k = 0; k < vocabularySize<GateFailureKind>(); ++k)
    none = none && !present(p, edition, rows, static_cast<GateFailureKind>(k));
  return none;
}

/// Two gates agree as docs/spec.md §6.7 says: the same verdict and, per kind, the same presence and
/// (when present) the same set of reports.
z3::expr sameGate(const SymbolicPolicy &p, Edition edition, const std::vector<Row> &a,
                  const std::vector<Row> &b) {
  z3::expr all = p.requireEvidence.ctx().bool_val(true);
  for (std::size_t i = 0; i < vocabularySize<GateFailureKind>(); ++i) {
    const auto k = static_cast<GateFailureKind>(i);
    // Equal sets of a kind the policy looks for give the same presence; a kind it does not look
    // for is absent from both.
    z3::context &ctx = p.requireEvidence.ctx();
    all = all && z3::implies(looksFor(p, k),
                             included(ctx, edition, a, b, k) && included(ctx, edition, b, a, k));
  }
  return all;
}

z3::expr isPreset(const SymbolicPolicy &p, const AssurancePolicy &preset) {
  auto is = [](const z3::expr &x, bool v) { return v ? x : !x; };
  return is(p.allowChecked, preset.allowChecked) && is(p.allowFuzzed, preset.allowFuzzed) &&
         is(p.allowTrustedExternal, preset.allowTrustedExternal) &&
         is(p.requireEvidence, preset.requireEvidence) &&
         is(p.allowRuntimeGuards, preset.allowRuntimeGuards) &&
         is(p.allowTestEvidence, preset.allowTestEvidence);
}

/// The gate obligation of docs/spec.md §5.4 for plans of at most N nodes. A counterexample whose
/// `checked` verdict flips is the most telling one: tried first.
Query gatePreserved(Encoder &e, std::size_t n, Mode mode) {
  Plan p = e.freshPlan(n);
  const Lowering l = mode == Mode::singleton ? e.toSingleton(p) : e.toCoalesced(p);
  const SymbolicPolicy pol = freshPolicy(e.ctx());
  const std::vector<Row> lowered = rowsOf(e, l, p), singleton = nodeRowsOf(e, p);
  const Edition edition = e.edition();
  const z3::expr goal = sameGate(pol, edition, lowered, singleton);
  const z3::expr flip =
      z3::implies(isPreset(pol, AssurancePolicy::checked()),
                  accepted(pol, edition, lowered) == accepted(pol, edition, singleton));
  const z3::expr valid = e.valid(p);
  return Query{valid, goal, std::move(p), {flip}};
}

Query singletonGate(Encoder &e, std::size_t n) { return gatePreserved(e, n, Mode::singleton); }
Query coalescedGate(Encoder &e, std::size_t n) { return gatePreserved(e, n, Mode::coalesced); }

/// Two rows give the same four reports.
z3::expr sameReports(const AuditRow &a, const AuditRow &b) {
  z3::expr all = a.view.op == b.view.op && a.view.name == b.view.name;
  for (ContractObligation o : kObligations)
    all = all && contractOf(a, o) == contractOf(b, o);
  return all;
}

Query stepGate(Encoder &e, std::size_t) {
  FoldState s = freshFoldState(e, "state");
  const Node k = e.freshNode("pushed");
  const FoldState t = pushKernel(e, s, k);
  const z3::expr nodes = e.wellFormed(k) && e.wellFormed(s.leader) && e.wellFormed(s.member);
  auto head = [&](const FoldState &x) { return e.groupRow(x.last.op, x.last.capsule); };
  // As in step.audit: the head's capsule is for the head's op (every group of a valid plan's
  // lowering has it), so that the reports' op is the capsule's.
  auto headFor = [](const FoldState &x) { return x.last.capsule.op == x.last.op; };
  const z3::expr before = z3::implies(
      s.hasGroup, headFor(s) && sameReports(head(s), auditRow(s.member.op, s.member.capsule)));
  const z3::expr after =
      headFor(t) && sameReports(head(t), auditRow(k.op, k.capsule)) &&
      z3::implies(t.appended, sameReports(head(t), auditRow(s.member.op, s.member.capsule)));
  return Query{nodes && before, after, std::nullopt, {}};
}

} // namespace

SymbolicPolicy constantPolicy(z3::context &ctx, const AssurancePolicy &p) {
  return SymbolicPolicy{ctx.bool_val(p.allowChecked),         ctx.bool_val(p.allowFuzzed),
                        ctx.bool_val(p.allowTrustedExternal), ctx.bool_val(p.requireEvidence),
                        ctx.bool_val(p.allowRuntimeGuards),   ctx.bool_val(p.allowTestEvidence)};
}

EncodedGate encodedGate(const Encoder &e, const Lowering &l, const Plan &p,
                        const SymbolicPolicy &policy) {
  const auto rows = rowsOf(e, l, p); // the gate's rows (not the audit's Row enumeration)
  std::vector<z3::expr> present;
  for (std::size_t k = 0; k < vocabularySize<GateFailureKind>(); ++k)
    present.push_back(proofs::present(policy, e.edition(), rows, static_cast<GateFailureKind>(k)));
  return EncodedGate{std::move(present), accepted(policy, e.edition(), rows)};
}

// clang-format off
std::vector<Obligation> gateObligations() {
  return {
    {"singleton.gate", "for all valid P with |P| <= N and every policy: gate(toSingleton(P)) = gate(one row per node of P) (same verdict, same failure kinds in order, the same set of reports for each)", false, singletonGate, Needs::evidenceGate},
    {"coalesced.gate", "for all valid P with |P| <= N and every policy: gate(toCoalesced(P)) = gate(one row per node of P) (same verdict, same failure kinds in order, the same set of reports for each)", false, coalescedGate, Needs::evidenceGate},
    {"step.gate", "for every fold state S and node k: the head's capsule is for its op and the last group's four reports are an arbitrary member's singleton reports => they are k's and (if appended) that member's after pushKernel(S, k); with step.order, every length keeps the set of reports, so every gate", true, stepGate, Needs::evidenceGate},
  };
}
// clang-format on

} // namespace lo::proofs
