// Builds a valid GraphExecutionPlan from fuzzer bytes (FuzzedDataProvider), for the structured
// harness and for the fixed plans of the candidate harness.
//
// "A valid plan also has: unique `nodeId`s (naturals below 2^63); `op` equal to the op its kind
// maps to; `capsule.op == op`." The generator keeps a small pool of capsules, some of which differ
// only outside their identity (trust level, notes, a contract), so that the two equalities group
// differently, and it repeats kinds and capsules often, so that runs coalesce.
#pragma once

#include "ref/ir.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace lo::fuzz {

/// A short string of valid UTF-8 (the readers accept nothing else): ASCII bytes as they come,
/// control characters included (the writer escapes them), and "é" for any other byte.
inline std::string text(FuzzedDataProvider &in) {
  std::string out;
  for (char c : in.ConsumeRandomLengthString(8)) {
    if (static_cast<unsigned char>(c) < 0x80)
      out += c;
    else
      out += "\xC3\xA9";
  }
  return out;
}

template <class E> E pick(FuzzedDataProvider &in) {
  return static_cast<E>(in.ConsumeIntegralInRange<std::size_t>(0, vocabularySize<E>() - 1));
}

inline ContractDescriptor descriptor(FuzzedDataProvider &in, BackendOp op) {
  ContractDescriptor d;
  d.claim.tag = static_cast<ContractClaim::Tag>(in.ConsumeIntegralInRange<int>(0, 3));
  d.claim.op = op;
  if (d.claim.tag == ContractClaim::Tag::layoutCompatibility)
    d.claim.layout = pick<TensorLayout>(in);
  if (d.claim.tag == ContractClaim::Tag::valueRefinement ||
      d.claim.tag == ContractClaim::Tag::vjpRefinement)
    d.claim.spec = text(in);
  if (d.claim.tag == ContractClaim::Tag::vjpRefinement)
    d.claim.mode = pick<VJPMode>(in);
  d.summary = text(in);
  d.evidence.tag = static_cast<ContractEvidence::Tag>(in.ConsumeIntegralInRange<int>(0, 6));
  if (d.evidence.tag != ContractEvidence::Tag::notProvided)
    d.evidence.text = text(in);
  const int provenance = in.ConsumeIntegralInRange<int>(0, 2);
  for (int i = 0; i < provenance; ++i) {
    ContractProvenance p;
    p.tag = static_cast<ContractProvenance::Tag>(in.ConsumeIntegralInRange<int>(0, 2));
    p.path = text(in);
    if (p.tag == ContractProvenance::Tag::nativeSymbol) {
      p.symbol = text(in);
      if (in.ConsumeBool())
        p.buildTarget = text(in);
    }
    d.provenance.push_back(std::move(p));
  }
  return d;
}

/// A capsule template: its op is set per kernel (`capsule.op == op`).
inline KernelCapsule capsuleTemplate(FuzzedDataProvider &in) {
  KernelCapsule c;
  c.name = "k" + std::to_string(in.ConsumeIntegralInRange<int>(0, 2));
  c.provider = pick<Provider>(in);
  c.device = pick<Device>(in);
  c.trustLevel = pick<TrustLevel>(in);
  c.supportsForward = in.ConsumeBool();
  c.vjpMode = pick<VJPMode>(in);
  if (in.ConsumeBool()) {
    c.shapeContract = descriptor(in, c.op);
    c.valueContract = descriptor(in, c.op);
  }
  c.numericalPolicy = {pick<Rounding>(in), pick<Subnormals>(in), pick<Contraction>(in),
                       pick<Reduction>(in)};
  if (in.ConsumeBool())
    c.notes = text(in);
  return c;
}

/// A kind that maps to an op (planned kinds only), with parameters.
inline OpKind plannedKind(FuzzedDataProvider &in) {
  static const std::vector<KindTag> planned = [] {
    std::vector<KindTag> out;
    for (std::size_t t = 0; t < vocabularySize<KindTag>(); ++t)
      if (signature(static_cast<KindTag>(t)).op)
        out.push_back(static_cast<KindTag>(t));
    return out;
  }();
  OpKind k{planned[in.ConsumeIntegralInRange<std::size_t>(0, planned.size() - 1)], {}};
  for (const auto &param : signature(k.tag).params) {
    std::vector<std::uint64_t> values;
    const std::size_t n =
        param.type == ParamType::natural ? 1 : in.ConsumeIntegralInRange<std::size_t>(0, 3);
    for (std::size_t i = 0; i < n; ++i)
      values.push_back(in.ConsumeBool() ? in.ConsumeIntegralInRange<std::uint64_t>(0, 8)
                                        : in.ConsumeIntegral<std::uint64_t>());
    k.params.push_back(std::move(values));
  }
  return k;
}

inline GraphExecutionPlan generatePlan(FuzzedDataProvider &in, Interner &interner,
                                       std::size_t maxKernels = 48) {
  std::vector<KernelCapsule> pool;
  const int poolSize = in.ConsumeIntegralInRange<int>(1, 4);
  for (int i = 0; i < poolSize; ++i) {
    pool.push_back(capsuleTemplate(in));
    if (in.ConsumeBool()) { // same identity, another contract
      KernelCapsule v = pool.back();
      v.trustLevel = pick<TrustLevel>(in);
      v.notes += "'";
      pool.push_back(std::move(v));
    }
  }

  GraphExecutionPlan plan;
  const std::size_t count = in.ConsumeIntegralInRange<std::size_t>(0, maxKernels);
  // Unique ids: increasing from a start with gaps, then a few swaps. The start stays far enough
  // below 2^63 that `count` gaps of at most 2^16 cannot reach it.
  NodeId id = in.ConsumeBool()
                  ? in.ConsumeIntegralInRange<NodeId>(0, 16)
                  : in.ConsumeIntegralInRange<NodeId>(0, kNodeIdLimit - (NodeId{1} << 32));
  OpKind kind = plannedKind(in);
  std::size_t capsule = 0;
  for (std::size_t i = 0; i < count && in.remaining_bytes() > 0; ++i) {
    if (i > 0 && in.ConsumeBool())
      kind = plannedKind(in);
    if (in.ConsumeBool())
      capsule = in.ConsumeIntegralInRange<std::size_t>(0, pool.size() - 1);
    PlannedNodeKernel k;
    k.nodeId = id;
    k.op = *opOf(kind);
    k.kind = interner.intern(kind);
    KernelCapsule c = pool[capsule];
    c.op = k.op;
    k.capsule = interner.intern(std::move(c));
    plan.kernels.push_back(k);
    id += 1 + (in.ConsumeBool() ? 0 : in.ConsumeIntegralInRange<NodeId>(0, 1u << 16));
  }
  const std::size_t swaps = plan.kernels.empty() ? 0 : in.ConsumeIntegralInRange<std::size_t>(0, 3);
  for (std::size_t s = 0; s < swaps; ++s) {
    const auto a = in.ConsumeIntegralInRange<std::size_t>(0, plan.kernels.size() - 1);
    const auto b = in.ConsumeIntegralInRange<std::size_t>(0, plan.kernels.size() - 1);
    std::swap(plan.kernels[a].nodeId, plan.kernels[b].nodeId);
  }
  return plan;
}

} // namespace lo::fuzz
