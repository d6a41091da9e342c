#include "proofs/acceptance.hpp"

#include "proofs/gate.hpp"
#include "proofs/step.hpp"

namespace lo::proofs {

SymbolicKernelPolicy freshKernelPolicy(z3::context &ctx, const std::string &prefix) {
  auto i = [&](const char *name) { return ctx.int_const((prefix + "." + name).c_str()); };
  return SymbolicKernelPolicy{i("device"), i("preference"), i("provider"),
                              ctx.bool_const((prefix + ".allowTrustedExternal").c_str()),
                              i("vjpMode")};
}

SymbolicKernelPolicy constantKernelPolicy(z3::context &ctx, const acceptance::KernelPolicy &p) {
  auto i = [&](auto v) { return ctx.int_val(static_cast<int>(v)); };
  return SymbolicKernelPolicy{i(p.device), i(p.provider.kind), i(p.provider.provider),
                              ctx.bool_val(p.assurance.allowTrustedExternal), i(p.vjpMode)};
}

z3::expr wellFormed(const Encoder &e, const SymbolicKernelPolicy &p) {
  const Edition ed = e.edition();
  return inEditionOf<Device>(p.device, ed) && p.preference >= 0 && p.preference <= 2 &&
         inEditionOf<Provider>(p.provider, ed) && inEditionOf<VJPMode>(p.vjpMode, ed);
}

z3::func_decl contractsAlignedDecl(z3::context &ctx) {
  z3::sort_vector fields(ctx); // op, vjpMode and the four contracts
  for (int k = 0; k < 6; ++k)
    fields.push_back(ctx.int_sort());
  return ctx.function("contractsAligned", fields, ctx.bool_sort());
}

z3::expr contractsAligned(const Capsule &c) {
  z3::expr_vector args(c.op.ctx());
  for (const z3::expr *x :
       {&c.op, &c.vjpMode, &c.shapeContract, &c.layoutContract, &c.valueContract, &c.vjpContract})
    args.push_back(*x);
  return contractsAlignedDecl(c.op.ctx())(args);
}

namespace {

int asInt(auto v) { return static_cast<int>(v); }

/// The contract's disposition is `d` (never, when the edition has no such disposition).
z3::expr hasDisposition(const z3::expr &contract, Edition edition, EvidenceDisposition d) {
  const std::vector<EvidenceDisposition> all = dispositionsOf(edition);
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i] == d)
      return disposition(contract, edition) == static_cast<int>(i);
  return contract.ctx().bool_val(false);
}

/// `AssurancePolicy.acceptsEvidence`: trusted-boundary evidence only when trusted-external code
/// is allowed; no evidence never (ref/acceptance.cpp).
z3::expr acceptsEvidence(const SymbolicKernelPolicy &p, const z3::expr &contract, Edition e) {
  return !(hasDisposition(contract, e, EvidenceDisposition::trusted) && !p.allowTrustedExternal) &&
         !hasDisposition(contract, e, EvidenceDisposition::missing);
}

/// `KernelCapsule.matchesVJP policy`.
z3::expr matchesVJP(const SymbolicKernelPolicy &p, const Capsule &c) {
  const z3::expr needsVJP =
      c.op != asInt(BackendOp::rand_uniform) && c.op != asInt(BackendOp::bernoulli_mask);
  const z3::expr tape = c.vjpMode == asInt(VJPMode::torchlean_tape),
                 backend = c.vjpMode == asInt(VJPMode::backend_vjp);
  return p.vjpMode == asInt(VJPMode::none) || !needsVJP ||
         z3::ite(p.vjpMode == asInt(VJPMode::torchlean_tape), tape || backend, backend);
}

} // namespace

std::vector<EncodedFailure> acceptanceFailures(const Encoder &e, const SymbolicKernelPolicy &p,
                                               const z3::expr &op, const Capsule &c) {
  using K = AcceptanceFailureKind;
  const z3::expr trustedExternal = c.trustLevel == kTrustedExternal;
  const z3::expr only = p.preference == asInt(acceptance::ProviderPreference::Kind::only);
  std::vector<EncodedFailure> out{
      {K::operationMismatch, op != c.op, {op, c.op}},
      {K::forwardUnsupported, !c.supportsForward, {op, c.name}},
      {K::contractsMisaligned, !contractsAligned(c), {op, c.name}},
      {K::trustRejected, trustedExternal && !p.allowTrustedExternal, {op, c.name, c.trustLevel}},
      {K::providerRejected, only && p.provider != c.provider, {op, c.name, c.provider}},
      {K::deviceMismatch, p.device != c.device, {op, c.name, c.device}},
      {K::vjpMismatch, !matchesVJP(p, c), {op, c.name, c.vjpMode}},
  };
  const z3::expr *contracts[] = {&c.shapeContract, &c.layoutContract, &c.valueContract,
                                 &c.vjpContract};
  for (int o = 0; o < 4; ++o) // shape, layout, value, vjp (ContractObligation order)
    out.push_back({K::evidenceRejected,
                   !acceptsEvidence(p, *contracts[o], e.edition()),
                   {op, c.name, e.ctx().int_val(o), *contracts[o]}});
  return out;
}

namespace {

/// A planned kernel {op, capsule} that is one of a list's (active when it is).
struct Kernel {
  z3::expr active, op;
  Capsule capsule;
};

std::vector<Kernel> groupKernels(const Lowering &l) {
  std::vector<Kernel> out;
  for (std::size_t j = 0; j < l.groups.size(); ++j)
    out.push_back(Kernel{l.count > static_cast<int>(j), l.groups[j].op, l.groups[j].capsule});
  return out;
}

std::vector<Kernel> nodeKernels(z3::context &ctx, const Plan &p) {
  std::vector<Kernel> out;
  for (const Node &k : p.nodes)
    out.push_back(Kernel{ctx.bool_val(true), k.op, k.capsule});
  return out;
}

using Failures = std::vector<std::vector<EncodedFailure>>; // per kernel, per test

Failures failuresOf(const Encoder &e, const SymbolicKernelPolicy &p,
                    const std::vector<Kernel> &ks) {
  Failures out;
  for (const Kernel &k : ks)
    out.push_back(acceptanceFailures(e, p, k.op, k.capsule));
  return out;
}

z3::expr sameData(const EncodedFailure &a, const EncodedFailure &b) {
  z3::expr all = a.fails.ctx().bool_val(true);
  for (std::size_t i = 0; i < a.data.size(); ++i)
    all = all && a.data[i] == b.data[i];
  return all;
}

/// Every failure of test t in `a` is a failure of test t in `b`.
z3::expr included(z3::context &ctx, const std::vector<Kernel> &ka, const Failures &a,
                  const std::vector<Kernel> &kb, const Failures &b, std::size_t t) {
  z3::expr_vector all(ctx);
  for (std::size_t i = 0; i < a.size(); ++i) {
    z3::expr_vector any(ctx);
    for (std::size_t j = 0; j < b.size(); ++j)
      any.push_back(kb[j].active && b[j][t].fails && sameData(a[i][t], b[j][t]));
    all.push_back(z3::implies(ka[i].active && a[i][t].fails, z3::mk_or(any)));
  }
  return z3::mk_and(all);
}

/// `GroupedKernelPlan.acceptable`: no active kernel fails a test.
z3::expr acceptable(z3::context &ctx, const std::vector<Kernel> &ks, const Failures &f) {
  z3::expr_vector none(ctx);
  for (std::size_t i = 0; i < ks.size(); ++i)
    for (const EncodedFailure &x : f[i])
      none.push_back(!(ks[i].active && x.fails));
  return z3::mk_and(none);
}

/// `coalesced.acceptance`: the derived groups' verdict is the nodes' (upstream's `acceptable` of
/// every node) and every test fails with the same set of failures. A counterexample whose verdict
/// flips is the most telling one: tried first.
Query coalescedAcceptance(Encoder &e, std::size_t n) {
  z3::context &ctx = e.ctx();
  Plan p = e.freshPlan(n);
  const SymbolicKernelPolicy pol = freshKernelPolicy(ctx);
  const std::vector<Kernel> groups = groupKernels(e.toCoalesced(p)), nodes = nodeKernels(ctx, p);
  const Failures fg = failuresOf(e, pol, groups), fn = failuresOf(e, pol, nodes);
  const z3::expr verdict = acceptable(ctx, groups, fg) == acceptable(ctx, nodes, fn);
  z3::expr sets = verdict;
  for (std::size_t t = 0; t < kAcceptanceTests; ++t)
    sets =
        sets && included(ctx, groups, fg, nodes, fn, t) && included(ctx, nodes, fn, groups, fg, t);
  const z3::expr valid = e.valid(p) && wellFormed(e, pol);
  return Query{valid, sets, std::move(p), {verdict}};
}

/// Each test fails alike for two kernels, with the same data when it does.
z3::expr sameFailures(const Encoder &e, const SymbolicKernelPolicy &p, const z3::expr &op1,
                      const Capsule &c1, const z3::expr &op2, const Capsule &c2) {
  const std::vector<EncodedFailure> a = acceptanceFailures(e, p, op1, c1),
                                    b = acceptanceFailures(e, p, op2, c2);
  z3::expr all = p.allowTrustedExternal.ctx().bool_val(true);
  for (std::size_t t = 0; t < a.size(); ++t)
    all = all && a[t].fails == b[t].fails && z3::implies(a[t].fails, sameData(a[t], b[t]));
  return all;
}

Query stepAcceptance(Encoder &e, std::size_t) {
  const FoldState s = freshFoldState(e, "state");
  const Node k = e.freshNode("pushed");
  const FoldState t = pushKernel(e, s, k);
  const SymbolicKernelPolicy pol = freshKernelPolicy(e.ctx());
  const z3::expr nodes =
      e.wellFormed(k) && e.wellFormed(s.leader) && e.wellFormed(s.member) && wellFormed(e, pol);
  auto headIs = [&](const FoldState &x, const Node &m) {
    return sameFailures(e, pol, x.last.op, x.last.capsule, m.op, m.capsule);
  };
  const z3::expr before = z3::implies(s.hasGroup, headIs(s, s.member));
  const z3::expr after = headIs(t, k) && z3::implies(t.appended, headIs(t, s.member));
  return Query{nodes && before, after, std::nullopt, {}};
}

} // namespace

// clang-format off
std::vector<Obligation> acceptanceObligations() {
  return {
    {"coalesced.acceptance", "for all valid P with |P| <= N and every KernelPolicy: acceptGraphKernelPlan(P) (the groups of toCoalesced(P)) accepts iff every node {k.op, k.capsule} is acceptable, and each test of acceptanceFailures fails with the same set of failures over the groups as over the nodes", false, coalescedAcceptance, Needs::acceptanceGate},
    {"step.acceptance", "for every fold state S, node k and KernelPolicy: the last group's failures are an arbitrary member's (each test fails alike, with the same data) => they are k's and (if appended) that member's after pushKernel(S, k)", true, stepAcceptance, Needs::acceptanceGate},
  };
}
// clang-format on

} // namespace lo::proofs
