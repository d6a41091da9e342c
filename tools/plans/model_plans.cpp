// modelPlan of the one plan generator (tools/plans/plans.hpp), for the benchmarks: "plans of
// 10^3 to 10^7 kernels (capsule-table form, realistic runs)" (docs/performance.md).
//
// The plan repeats the node sequence of a transformer block (layernorm, q/k/v linears, reshapes
// and permutes, attention matmuls, softmax, the MLP) and of a convolutional stem, interleaved with
// elementwise chains. Blocks run on the CPU reference capsules or on the native CUDA ones, and a
// few matmuls go to the trusted-external LibTorch capsule, so runs have realistic lengths (mostly
// 1 to 3, sometimes tens) and capsule boundaries appear where real plans have them.
#include "tools/plans/plans.hpp"

#include <array>
#include <optional>
#include <string>

namespace lo::plans {

namespace {

ContractDescriptor modelDescriptor(ContractClaim::Tag tag, BackendOp op, std::string summary,
                                   ContractEvidence evidence, std::string path, Edition edition) {
  ContractDescriptor d;
  d.claim.tag = tag;
  d.claim.op = op;
  if (tag == ContractClaim::Tag::layoutCompatibility)
    d.claim.layout = TensorLayout::canonical_tensor;
  if ((tag == ContractClaim::Tag::valueRefinement || tag == ContractClaim::Tag::vjpRefinement) &&
      claimsHaveSpec(edition))
    d.claim.spec = "Spec." + std::string(spelling(op));
  if (tag == ContractClaim::Tag::vjpRefinement)
    d.claim.mode = VJPMode::torchlean_tape;
  d.summary = std::move(summary);
  d.evidence = std::move(evidence);
  d.provenance.push_back({ContractProvenance::Tag::sourceFile, std::move(path), {}, {}});
  return d;
}

/// A capsule of one of three families: the CPU reference, native CUDA, or LibTorch.
enum class Family { reference, cuda, libtorch };

/// What a family's capsules share: the name's prefix, the fields, the Lean file their contracts
/// cite and the evidence they carry (the first where the edition has it, else the second).
struct FamilyFacts {
  const char *prefix;
  Provider provider;
  Device device;
  TrustLevel trustLevel;
  VJPMode vjpMode;
  const char *file;
  ContractEvidence::Tag evidence, evidenceOtherwise;
  NumericalPolicy numericalPolicy;
};

using E = ContractEvidence::Tag;
constexpr std::array<FamilyFacts, 3> kFamilies{{
    {"reference.",
     Provider::reference,
     Device::cpu,
     TrustLevel::verified,
     VJPMode::torchlean_tape,
     "NN/Backend/Reference.lean",
     E::theorem,
     E::testSuite,
     {Rounding::nearest_even, Subnormals::gradual_underflow, Contraction::separate,
      Reduction::fixed_left}},
    {"native-cuda.",
     Provider::native_cuda,
     Device::cuda,
     TrustLevel::checked,
     VJPMode::backend_vjp,
     "NN/Backend/NativeCUDA.lean",
     E::checker,
     E::runtimeGuard,
     {Rounding::nearest_even, Subnormals::flush_to_zero, Contraction::fused,
      Reduction::fixed_tree}},
    {"libtorch.",
     Provider::libtorch,
     Device::cuda,
     TrustLevel::trusted_external,
     VJPMode::backend_vjp,
     "NN/Backend/Attention.lean",
     E::trustedBoundary,
     E::trustedBoundary,
     {Rounding::implementation_defined, Subnormals::implementation_defined,
      Contraction::implementation_defined, Reduction::implementation_defined}},
}};

KernelCapsule modelCapsule(BackendOp op, Family family, Edition edition) {
  using T = ContractClaim::Tag;
  const FamilyFacts &facts = kFamilies[static_cast<std::size_t>(family)];
  const std::string opName(spelling(op));
  KernelCapsule c;
  c.op = op;
  c.name = facts.prefix + opName;
  c.provider = facts.provider;
  c.device = facts.device;
  c.trustLevel = facts.trustLevel;
  c.vjpMode = facts.vjpMode;
  c.numericalPolicy = facts.numericalPolicy;
  const std::string file = facts.file;
  const E evidence = inEditionOr(edition, facts.evidence, facts.evidenceOtherwise);
  auto ev = [&](std::string what) {
    return ContractEvidence{evidence, evidence == E::trustedBoundary
                                          ? "LibTorch kernel, outside the proof boundary"
                                          : what + "_" + opName};
  };
  c.shapeContract =
      modelDescriptor(T::shapeSafety, op, "output shape follows the " + opName + " rule",
                      ev("shape"), file, edition);
  c.layoutContract =
      modelDescriptor(T::layoutCompatibility, op, "reads and writes canonical tensors",
                      ev("layout"), file, edition);
  c.valueContract = modelDescriptor(T::valueRefinement, op, "refines the real-valued " + opName,
                                    ev("value"), file, edition);
  c.vjpContract = modelDescriptor(T::vjpRefinement, op, "the VJP refines the tape derivative",
                                  ev("vjp"), file, edition);
  c.notes = family == Family::libtorch ? "trusted external: audited at the boundary" : "";
  return c;
}

OpKind kindWith(KindTag tag, std::vector<std::vector<std::uint64_t>> params) {
  return OpKind{tag, std::move(params)};
}

} // namespace

GraphExecutionPlan modelPlan(Interner &interner, Choices &rng, std::uint64_t kernels,
                             Edition edition) {
  const std::array families{Family::reference, Family::cuda};

  // Capsules by op and family, interned once.
  std::vector<std::optional<CapsuleId>> capsules(vocabularySize<BackendOp>() * 3);
  auto capsule = [&](BackendOp op, Family f) {
    auto &slot = capsules[static_cast<std::size_t>(op) * 3 + static_cast<std::size_t>(f)];
    if (!slot)
      slot = interner.intern(modelCapsule(op, f, edition));
    return *slot;
  };

  // The kinds the plan uses.
  const KindId layernorm = interner.intern(kindWith(KindTag::layernorm, {{2}}));
  const KindId softmax = interner.intern(kindWith(KindTag::softmax, {{3}}));
  const KindId split =
      interner.intern(kindWith(KindTag::reshape, {{8, 128, 768}, {8, 128, 12, 64}}));
  const KindId merge =
      interner.intern(kindWith(KindTag::reshape, {{8, 128, 12, 64}, {8, 128, 768}}));
  const KindId perm = interner.intern(kindWith(KindTag::permute, {{0, 2, 1, 3}}));
  const KindId conv = interner.intern(kindWith(KindTag::conv2d, {{3}, {64}, {3}, {3}, {1}, {1}}));
  const KindId bn = interner.intern(kindWith(KindTag::batch_norm2d_nchw_eval, {{64}}));
  const KindId pool = interner.intern(kindWith(KindTag::max_pool2d, {{2}, {2}, {2}}));
  const KindId linear = Interner::bareKind(KindTag::linear);
  const KindId matmul = Interner::bareKind(KindTag::matmul);
  const KindId add = Interner::bareKind(KindTag::add);
  const KindId mul = Interner::bareKind(KindTag::mul_elem);
  const KindId relu = Interner::bareKind(KindTag::relu);
  const KindId tanh = Interner::bareKind(KindTag::tanh);
  const KindId sigmoid = Interner::bareKind(KindTag::sigmoid);

  struct Step {
    KindId kind;
    BackendOp op;
  };
  const std::vector<Step> transformer{{layernorm, BackendOp::layer_norm},
                                      {linear, BackendOp::linear},
                                      {linear, BackendOp::linear},
                                      {linear, BackendOp::linear},
                                      {split, BackendOp::reshape},
                                      {split, BackendOp::reshape},
                                      {split, BackendOp::reshape},
                                      {perm, BackendOp::permute},
                                      {perm, BackendOp::permute},
                                      {perm, BackendOp::permute},
                                      {matmul, BackendOp::matmul},
                                      {softmax, BackendOp::softmax},
                                      {matmul, BackendOp::matmul},
                                      {perm, BackendOp::permute},
                                      {merge, BackendOp::reshape},
                                      {linear, BackendOp::linear},
                                      {add, BackendOp::add},
                                      {layernorm, BackendOp::layer_norm},
                                      {linear, BackendOp::linear},
                                      {relu, BackendOp::relu},
                                      {linear, BackendOp::linear},
                                      {add, BackendOp::add}};
  const std::vector<Step> stem{{conv, BackendOp::conv},     {bn, BackendOp::batch_norm},
                               {relu, BackendOp::relu},     {conv, BackendOp::conv},
                               {bn, BackendOp::batch_norm}, {relu, BackendOp::relu},
                               {pool, BackendOp::max_pool}};
  const std::vector<Step> elementwise{{add, BackendOp::add},
                                      {mul, BackendOp::mul},
                                      {relu, BackendOp::relu},
                                      {tanh, BackendOp::tanh},
                                      {sigmoid, BackendOp::sigmoid}};

  GraphExecutionPlan plan;
  plan.kernels.reserve(kernels);
  NodeId next = 1;
  auto push = [&](Step s, CapsuleId c) {
    if (plan.kernels.size() < kernels)
      plan.kernels.push_back({next, s.kind, s.op, c});
    next +=
        1 + (rng.chance(1, 4) ? rng.below(3) : 0); // ids increase, with the gaps of pruned nodes
  };
  while (plan.kernels.size() < kernels) {
    const Family family = families[rng.chance(1, 4) ? 1 : 0];
    const std::uint64_t pick = rng.below(10);
    if (pick < 6) {
      // A transformer block; one block in eight sends its attention matmuls to LibTorch.
      const bool external = rng.chance(1, 8);
      for (const Step &s : transformer)
        push(s, capsule(s.op, external && s.op == BackendOp::matmul ? Family::libtorch : family));
    } else if (pick < 8) {
      for (const Step &s : stem)
        push(s, capsule(s.op, family));
    } else {
      // An elementwise chain: one op repeated 1 to 48 times (a fused activation run).
      const Step s = rng.pick(elementwise);
      const std::uint64_t length = rng.between(1, 48);
      const CapsuleId c = capsule(s.op, family);
      for (std::uint64_t i = 0; i < length; ++i)
        push(s, c);
    }
  }
  return plan;
}

} // namespace lo::plans
