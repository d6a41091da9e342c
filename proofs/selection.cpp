#include "proofs/selection.hpp"

#include "proofs/sabotage_table.hpp"

#include <algorithm>
#include <array>

namespace lo::proofs {

namespace {

constexpr auto kSelectionSabotages =
    sabotageTable<SelectionSabotage>(std::array{LO_SELECTION_SABOTAGES(LO_SABOTAGE_ROW)});

using Kind = acceptance::ProviderPreference::Kind;

int indexOf(auto v) { return static_cast<int>(v); }

/// Admissible, but for the failure kinds in `skip` (none: `admissible`).
z3::expr admissibleBut(const Encoder &e, const SymbolicKernelPolicy &p, const Capsule &c,
                       std::initializer_list<AcceptanceFailureKind> skip) {
  z3::expr all = e.ctx().bool_val(true);
  for (const EncodedFailure &f : acceptanceFailures(e, p, c.op, c)) {
    const bool shared = f.kind != AcceptanceFailureKind::operationMismatch &&
                        f.kind != AcceptanceFailureKind::evidenceRejected;
    if (shared && std::find(skip.begin(), skip.end(), f.kind) == skip.end())
      all = all && !f.fails;
  }
  return all;
}

} // namespace

std::string_view spelling(SelectionSabotage s) { return kSelectionSabotages.spelling(s); }
std::string_view describe(SelectionSabotage s) { return kSelectionSabotages.describe(s); }
std::vector<SelectionSabotage> allSelectionSabotages() { return kSelectionSabotages.all(); }

SymbolicAvailability freshAvailability(z3::context &ctx, const std::string &prefix) {
  SymbolicAvailability a;
  for (std::size_t i = 0; i < vocabularySize<Device>(); ++i)
    a.devices.push_back(ctx.bool_const((prefix + ".device" + std::to_string(i)).c_str()));
  for (std::size_t i = 0; i < vocabularySize<Provider>(); ++i)
    a.providers.push_back(ctx.bool_const((prefix + ".provider" + std::to_string(i)).c_str()));
  return a;
}

SymbolicAvailability constantAvailability(z3::context &ctx, const selection::Availability &a) {
  SymbolicAvailability out;
  for (std::size_t i = 0; i < vocabularySize<Device>(); ++i)
    out.devices.push_back(ctx.bool_val(std::ranges::count(a.devices, static_cast<Device>(i)) > 0));
  for (std::size_t i = 0; i < vocabularySize<Provider>(); ++i)
    out.providers.push_back(
        ctx.bool_val(std::ranges::count(a.providers, static_cast<Provider>(i)) > 0));
  return out;
}

z3::expr admitsCapsule(const SymbolicAvailability &a, const Capsule &c) {
  z3::expr_vector device(c.device.ctx()), provider(c.device.ctx());
  for (std::size_t i = 0; i < a.devices.size(); ++i)
    device.push_back(c.device == indexOf(i) && a.devices[i]);
  for (std::size_t i = 0; i < a.providers.size(); ++i)
    provider.push_back(c.provider == indexOf(i) && a.providers[i]);
  return z3::mk_or(device) && z3::mk_or(provider);
}

z3::expr narrows(const SymbolicAvailability &a, const SymbolicAvailability &wider) {
  z3::expr_vector all(a.devices.front().ctx());
  for (std::size_t i = 0; i < a.devices.size(); ++i)
    all.push_back(z3::implies(a.devices[i], wider.devices[i]));
  for (std::size_t i = 0; i < a.providers.size(); ++i)
    all.push_back(z3::implies(a.providers[i], wider.providers[i]));
  return z3::mk_and(all);
}

z3::expr admissible(const Encoder &e, const SymbolicKernelPolicy &p, const Capsule &c) {
  return admissibleBut(e, p, c, {});
}

Choice chooseCapsuleFor(const Encoder &e, const SymbolicKernelPolicy &p,
                        const SymbolicAvailability &a, const z3::expr &op,
                        const std::vector<Capsule> &registry) {
  using S = SelectionSabotage;
  const S sab = e.selectionSabotage();
  z3::context &ctx = e.ctx();
  auto available = [&](const Capsule &c) {
    return sab == S::ignoresAvailability ? ctx.bool_val(true) : admitsCapsule(a, c);
  };
  // One pass over the available capsules: the first whose capsule `takes` (the last, sabotaged).
  auto pass = [&](auto takes) {
    Choice c{ctx.bool_val(false), ctx.int_val(-1)};
    for (std::size_t k = 0; k < registry.size(); ++k) {
      const std::size_t j = sab == S::lastEligible ? k : registry.size() - 1 - k;
      const z3::expr t = available(registry[j]) && takes(registry[j]);
      c = Choice{t || c.found, z3::ite(t, ctx.int_val(indexOf(j)), c.index)};
    }
    return c;
  };
  const Choice preferred = pass([&](const Capsule &c) {
    const z3::expr ok = sab == S::preferenceOverridesTrust
                            ? admissibleBut(e, p, c, {AcceptanceFailureKind::trustRejected})
                            : admissible(e, p, c);
    return c.op == op && ok && c.provider == p.provider;
  });
  const Choice first = pass([&](const Capsule &c) { return c.op == op && admissible(e, p, c); });
  const z3::expr prefer =
      p.preference == indexOf(Kind::prefer) && ctx.bool_val(sab != S::skipsPreference);
  const z3::expr takePreferred = prefer && preferred.found;
  return Choice{takePreferred || first.found, z3::ite(takePreferred, preferred.index, first.index)};
}

namespace {

/// A fresh registry of n capsules, policy, availability and op, and that they are well formed.
struct Selection {
  std::vector<Capsule> registry;
  SymbolicKernelPolicy policy;
  SymbolicAvailability availability;
  z3::expr op, wellFormed;
};

Selection freshSelection(Encoder &e, std::size_t n) {
  z3::context &ctx = e.ctx();
  Selection s{{},
              freshKernelPolicy(ctx),
              freshAvailability(ctx, "availability"),
              ctx.int_const("op"),
              ctx.bool_val(true)};
  s.wellFormed = wellFormed(e, s.policy) && inEditionOf<BackendOp>(s.op, e.edition());
  for (std::size_t j = 0; j < n; ++j) {
    s.registry.push_back(e.freshCapsule("capsule" + std::to_string(j)));
    s.wellFormed = s.wellFormed && e.wellFormed(s.registry.back());
  }
  return s;
}

Choice choose(const Encoder &e, const Selection &s, const SymbolicKernelPolicy &p,
              const SymbolicAvailability &a) {
  return chooseCapsuleFor(e, p, a, s.op, s.registry);
}

/// `at(index, j)` for the position j the choice names, as one disjunction.
template <class F> z3::expr atChosen(const Selection &s, const z3::expr &index, F at) {
  z3::expr_vector any(s.op.ctx());
  for (std::size_t j = 0; j < s.registry.size(); ++j)
    any.push_back(index == indexOf(j) && at(j));
  return z3::mk_or(any);
}

/// docs/spec.md §10.3, read as properties of a position (never sabotaged): E_j, eligible and
/// available; P_j, E_j and of the preferred provider under `prefer P`.
struct Spec {
  std::vector<z3::expr> eligible, preferred;
  z3::expr anyEligible, anyPreferred;
};

Spec specOf(const Encoder &e, const Selection &s, const SymbolicKernelPolicy &p,
            const SymbolicAvailability &a) {
  z3::context &ctx = e.ctx();
  Spec out{{}, {}, ctx.bool_val(false), ctx.bool_val(false)};
  const z3::expr prefer = p.preference == indexOf(Kind::prefer);
  for (const Capsule &c : s.registry) {
    out.eligible.push_back(admitsCapsule(a, c) && c.op == s.op && admissible(e, p, c));
    out.preferred.push_back(out.eligible.back() && prefer && c.provider == p.provider);
    out.anyEligible = out.anyEligible || out.eligible.back();
    out.anyPreferred = out.anyPreferred || out.preferred.back();
  }
  return out;
}

/// None of `xs` before position j.
z3::expr noneBefore(z3::context &ctx, const std::vector<z3::expr> &xs, std::size_t j) {
  z3::expr none = ctx.bool_val(true);
  for (std::size_t k = 0; k < j; ++k)
    none = none && !xs[k];
  return none;
}

Query chosenIsEligible(Encoder &e, std::size_t n) {
  const Selection s = freshSelection(e, n);
  const Choice c = choose(e, s, s.policy, s.availability);
  const Spec spec = specOf(e, s, s.policy, s.availability);
  return Query{
      s.wellFormed,
      z3::implies(c.found, atChosen(s, c.index, [&](std::size_t j) { return spec.eligible[j]; })),
      std::nullopt,
      {}};
}

Query chosenIsFirst(Encoder &e, std::size_t n) {
  const Selection s = freshSelection(e, n);
  const Choice c = choose(e, s, s.policy, s.availability);
  const Spec spec = specOf(e, s, s.policy, s.availability);
  const z3::expr first = atChosen(s, c.index, [&](std::size_t j) {
    return (spec.preferred[j] && noneBefore(e.ctx(), spec.preferred, j)) ||
           (!spec.anyPreferred && spec.eligible[j] && noneBefore(e.ctx(), spec.eligible, j));
  });
  return Query{s.wellFormed, z3::implies(c.found, first), std::nullopt, {}};
}

Query failsExactlyWhenNone(Encoder &e, std::size_t n) {
  const Selection s = freshSelection(e, n);
  const Choice c = choose(e, s, s.policy, s.availability);
  return Query{s.wellFormed,
               c.found == specOf(e, s, s.policy, s.availability).anyEligible,
               std::nullopt,
               {}};
}

Query trustIsAFilter(Encoder &e, std::size_t n) {
  const Selection s = freshSelection(e, n);
  const SymbolicKernelPolicy &p = s.policy;
  SymbolicKernelPolicy automatic = p;
  automatic.preference = e.ctx().int_val(indexOf(Kind::automatic));
  const Choice c = choose(e, s, p, s.availability), a = choose(e, s, automatic, s.availability);
  const z3::expr accepted = atChosen(s, c.index, [&](std::size_t j) {
    return s.registry[j].trustLevel != kTrustedExternal || p.allowTrustedExternal;
  });
  const z3::expr prefer = p.preference == indexOf(Kind::prefer);
  return Query{s.wellFormed,
               z3::implies(c.found, accepted) && z3::implies(prefer, c.found == a.found),
               std::nullopt,
               {}};
}

Query availabilityNarrows(Encoder &e, std::size_t n) {
  const Selection s = freshSelection(e, n);
  const SymbolicAvailability &narrow = s.availability, wide = freshAvailability(e.ctx(), "wider");
  const Choice cn = choose(e, s, s.policy, narrow), cw = choose(e, s, s.policy, wide);
  auto admittedAt = [&](const z3::expr &index) {
    return atChosen(s, index, [&](std::size_t j) { return admitsCapsule(narrow, s.registry[j]); });
  };
  const z3::expr goal =
      z3::implies(cn.found, admittedAt(cn.index) && cw.found) &&
      z3::implies(cw.found && admittedAt(cw.index), cn.found && cn.index == cw.index);
  return Query{s.wellFormed && narrows(narrow, wide), goal, std::nullopt, {}};
}

} // namespace

// clang-format off
std::vector<Obligation> selectionObligations() {
  return {
    {"selection.eligible", "for every registry R with |R| <= N, KernelPolicy, availability A and op: the capsule chooseCapsuleFor picks is admitted by A, of the op, and admissible under the policy", false, chosenIsEligible, Needs::selection},
    {"selection.first", "for every R, policy, A and op: the capsule picked is, under prefer P, the first eligible capsule of provider P when there is one, and otherwise the first eligible capsule", false, chosenIsFirst, Needs::selection},
    {"selection.fails-when-none", "for every R, policy, A and op: chooseCapsuleFor picks nothing exactly when no capsule of R is eligible", false, failsExactlyWhenNone, Needs::selection},
    {"selection.trust-filter", "for every R, policy, A and op: the capsule picked is one the assurance accepts, and under prefer P a capsule is picked exactly when one is under auto", false, trustIsAFilter, Needs::selection},
    {"selection.narrowing", "for every R, policy, op and availabilities A within A': what A picks A admits, and A' picks something; what A' picks, when A admits it, A picks too", false, availabilityNarrows, Needs::selection},
  };
}
// clang-format on

} // namespace lo::proofs
