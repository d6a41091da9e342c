#include "tools/suite/edge_cases.hpp"

#include "ref/capsule.hpp"
#include "tools/plans/capsules.hpp"
#include "tools/plans/kinds.hpp"

#include <iterator>
#include <optional>
#include <string>
#include <utility>

namespace lo::suite {

namespace {

/// A spec name where the edition's claims carry one (`claimsHaveSpec`), else none.
std::optional<std::string> specIn(Edition edition, std::string name) {
  if (claimsHaveSpec(edition))
    return name;
  return std::nullopt;
}

/// The capsule of the hand-picked cases, in the values of `edition`: shape evidence `checker`
/// (2026-07) or `runtimeGuard` (2026-08, which has no checker); a VJP contract without evidence
/// (so that the gate of every hand-picked case but the trap and the empty plan rejects it:
/// missingEvidence).
KernelCapsule fixedCapsule(BackendOp op, std::string name, Provider provider, Device device,
                           TrustLevel trust, Edition edition) {
  KernelCapsule c = sampleCapsule(std::move(name), op, trust, provider, device);
  using T = ContractClaim::Tag;
  using E = ContractEvidence::Tag;
  c.shapeContract = {{T::shapeSafety, op, {}, {}, {}},
                     "shape checked",
                     {inEditionOr(edition, E::checker, E::runtimeGuard), "shape_ok"},
                     {}};
  c.layoutContract = {{T::layoutCompatibility, op, TensorLayout::flat_row_major, {}, {}},
                      "row-major buffers",
                      {ContractEvidence::Tag::runtimeGuard, "layout_guard"},
                      {}};
  c.valueContract = {
      {T::valueRefinement, op, {}, specIn(edition, std::string(spelling(op)) + ".spec"), {}},
      "refines the reference",
      {ContractEvidence::Tag::testSuite, "suite/v1"},
      {{ContractProvenance::Tag::sourceFile, "csrc/kernels.cu", "", {}}}};
  c.vjpContract = {{T::vjpRefinement,
                    op,
                    {},
                    specIn(edition, std::string(spelling(op)) + ".vjp"),
                    VJPMode::none},
                   "",
                   {E::notProvided, ""},
                   {}};
  return c;
}

KernelCapsule checkedRelu(Edition edition) {
  return fixedCapsule(BackendOp::relu, "relu.cudnn", Provider::cudnn, Device::cuda,
                      TrustLevel::checked, edition);
}

/// `relu.cudnn` as a trusted-external capsule: same identity, another trust level and evidence.
KernelCapsule trustedRelu(Edition edition) {
  KernelCapsule c = checkedRelu(edition);
  c.trustLevel = TrustLevel::trusted_external;
  c.valueContract.evidence = {ContractEvidence::Tag::trustedBoundary, "vendor kernel"};
  return c;
}

struct Builder {
  Interner &interner;
  Edition edition;
  Case c;
  NodeId nextId = 1;
  void add(const OpKind &kind, const KernelCapsule &capsule) {
    c.plan.kernels.push_back({nextId++, interner.intern(kind), *opOf(kind),
                              interner.intern(plans::inEditionValues(capsule, edition))});
  }
  void add(KindTag bare, const KernelCapsule &capsule) { add(OpKind{bare, {}}, capsule); }
};

using EdgeCase = Case (*)(Interner &, Edition);

Case makeEdge(Interner &interner, Edition edition, const char *name, Placement placement,
              void (*fill)(Builder &)) {
  Builder b{interner, edition, Case{name, {}, {placement, {}}, false, {}}};
  fill(b);
  return std::move(b.c);
}

#define LO_EDGE(slug, placement, ...)                                                              \
  [](Interner &in, Edition e) {                                                                    \
    return makeEdge(in, e, slug, placement, [](Builder & b) __VA_ARGS__);                          \
  }

const EdgeCase kEdgeCases[] = {
    LO_EDGE("empty-plan", Placement::table, { (void)b; }),
    LO_EDGE("one-node", Placement::table, { b.add(KindTag::relu, checkedRelu(b.edition)); }),
    LO_EDGE("long-run", Placement::table,
            {
              for (int i = 0; i < 64; ++i)
                b.add(KindTag::relu, checkedRelu(b.edition));
            }),
    // A trusted-external capsule inside a run of checked ones.
    LO_EDGE("trusted-external-in-checked-run", Placement::table,
            {
              for (int i = 0; i < 7; ++i)
                b.add(KindTag::relu, i == 3 ? trustedRelu(b.edition) : checkedRelu(b.edition));
            }),
    LO_EDGE("alternating-capsules", Placement::table,
            {
              KernelCapsule other = fixedCapsule(BackendOp::relu, "relu.aten", Provider::aten,
                                                 Device::cpu, TrustLevel::verified, b.edition);
              for (int i = 0; i < 8; ++i)
                b.add(KindTag::relu, i % 2 ? other : checkedRelu(b.edition));
            }),
    // Neighbours equal in identity but not in contract: each differs from the first in one
    // field the identity does not look at.
    LO_EDGE("identity-equal-contract-different", Placement::table,
            {
              const KernelCapsule base = checkedRelu(b.edition);
              b.add(KindTag::relu, base);
              KernelCapsule v = base;
              v.valueContract.evidence = {ContractEvidence::Tag::fuzzOracle, "fuzz/relu"};
              b.add(KindTag::relu, v);
              v = base;
              v.vjpMode = VJPMode::backend_vjp;
              b.add(KindTag::relu, v);
              v = base; // the lineage's numerical policy is its reduction alone
              if (hasSeedCapsule(b.edition))
                v.numericalPolicy.contraction = Contraction::fused;
              else
                v.numericalPolicy.reduction = Reduction::implementation_defined;
              b.add(KindTag::relu, v);
              v = base; // the lineage's capsule has no notes
              if (hasSeedCapsule(b.edition))
                v.notes = "notes differ";
              else
                v.layoutContract.summary = "summary differs";
              b.add(KindTag::relu, v);
              v = base;
              v.supportsForward = false;
              b.add(KindTag::relu, v);
              b.add(KindTag::relu, base);
            }),
    // Same name, other identity: the written keys are `relu.cudnn` and `relu.cudnn#2`.
    LO_EDGE("same-name-other-provider", Placement::table,
            {
              KernelCapsule v = checkedRelu(b.edition);
              v.provider = Provider::libtorch;
              b.add(KindTag::relu, checkedRelu(b.edition));
              b.add(KindTag::relu, v);
              b.add(KindTag::relu, checkedRelu(b.edition));
            }),
    // Every kind with parameters, twice each so that equal neighbours coalesce, inline capsules
    LO_EDGE("every-kind-inline", Placement::inline_,
            {
              plans::Rng rng(0x5eed);
              for (KindTag tag : plans::plannedKinds(b.edition)) {
                const OpKind kind = randomKind(rng, tag);
                const BackendOp op = *signature(tag).op;
                const KernelCapsule capsule =
                    fixedCapsule(op, std::string(spelling(op)) + ".ref", Provider::reference,
                                 Device::cpu, TrustLevel::verified, b.edition);
                b.add(kind, capsule);
                b.add(kind, capsule);
              }
            }),
    LO_EDGE("every-kind-table", Placement::table,
            {
              plans::Rng rng(0x7ab1e);
              for (KindTag tag : plans::plannedKinds(b.edition)) {
                const BackendOp op = *signature(tag).op;
                b.add(randomKind(rng, tag),
                      fixedCapsule(op, std::string(spelling(op)) + ".xla", Provider::xla,
                                   Device::tpu, TrustLevel::fuzzed, b.edition));
              }
            }),
    // Kinds of one op with other parameters still share a group (canAppend looks at op and
    // capsule).
    LO_EDGE("same-op-different-kinds", Placement::mixed,
            {
              const KernelCapsule pool =
                  fixedCapsule(BackendOp::max_pool, "max_pool.cudnn", Provider::cudnn, Device::cuda,
                               TrustLevel::checked, b.edition);
              // Three windows of one op: be55ea0's pooling kinds, or cfbb01e's `max_pool` of a
              // window configuration (its arrays one value a dimension).
              const bool windows = inEdition(KindTag::max_pool, b.edition);
              const OpKind a = windows ? OpKind{KindTag::max_pool, {{2}, {2, 2}, {2, 2}, {0, 0}}}
                                       : OpKind{KindTag::max_pool2d, {{2}, {2}, {2}}};
              const OpKind c = windows ? OpKind{KindTag::max_pool, {{2}, {3, 3}, {3, 3}, {1, 1}}}
                                       : OpKind{KindTag::max_pool2d_pad, {{3}, {3}, {1}, {1}}};
              const OpKind d = windows ? OpKind{KindTag::max_pool, {{1}, {2}, {1}, {0}}}
                                       : OpKind{KindTag::max_pool2d, {{2}, {2}, {1}}};
              b.add(a, pool);
              b.add(c, pool);
              b.add(d, pool);
              b.add(KindTag::relu, checkedRelu(b.edition));
              b.add(a, pool);
            }),
    LO_EDGE("extreme-node-ids", Placement::table,
            {
              const NodeId ids[] = {kNodeIdLimit - 1, 0, 42, kNodeIdLimit - 2};
              for (NodeId id : ids) {
                b.nextId = id;
                b.add(KindTag::relu, checkedRelu(b.edition));
              }
            }),
    // The gate's identity trap (docs/spec.md §6.7): two nodes of one identity, the first with
    // evidence `checked` accepts (nothing missing, no trusted boundary), the second with
    // trustedBoundary value evidence. `verified` rejects both lowerings (guard, test and fuzz
    // evidence), `checked` rejects the contract lowerings and accepts the identity one,
    // `external` accepts.
    LO_EDGE("gate-identity-trap", Placement::table,
            {
              KernelCapsule evidenced = checkedRelu(b.edition);
              evidenced.vjpContract.evidence = {ContractEvidence::Tag::fuzzOracle, "fuzz/relu"};
              KernelCapsule trusted = evidenced;
              trusted.trustLevel = TrustLevel::trusted_external;
              trusted.valueContract.evidence = {ContractEvidence::Tag::trustedBoundary,
                                                "vendor kernel"};
              b.add(KindTag::relu, evidenced);
              b.add(KindTag::relu, trusted);
            }),
};

#undef LO_EDGE

} // namespace

std::size_t edgeCaseCount() { return std::size(kEdgeCases); }

Case edgeCase(Interner &interner, std::size_t index, Edition edition) {
  return kEdgeCases[index](interner, edition);
}

} // namespace lo::suite
