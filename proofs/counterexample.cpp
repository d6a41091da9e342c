#include "proofs/counterexample.hpp"

#include <algorithm>
#include <map>

namespace lo::proofs {

namespace {

std::int64_t valueOf(const z3::model &m, const z3::expr &e) {
  return m.eval(e, true).get_numeral_int64();
}

/// Rank of each value among the distinct values seen (ascending).
class Ranks {
public:
  void see(std::int64_t v) { ranks_.emplace(v, 0); }
  void freeze() {
    std::size_t i = 0;
    for (auto &[v, r] : ranks_)
      r = i++;
  }
  std::size_t operator()(std::int64_t v) const { return ranks_.at(v); }

private:
  std::map<std::int64_t, std::size_t> ranks_;
};

template <class E> E enumAt(std::int64_t v) {
  return static_cast<E>(static_cast<std::size_t>(v) % vocabularySize<E>());
}

/// The descriptor of an encoded contract `value` (the `rank`-th distinct one): its evidence tag
/// is the value mod 7 (proofs/gate.hpp: the disposition the gate obligations read).
ContractDescriptor descriptor(ContractClaim::Tag tag, BackendOp op, std::size_t rank,
                              std::int64_t value) {
  ContractDescriptor d;
  d.claim.tag = tag;
  d.claim.op = op;
  if (tag == ContractClaim::Tag::valueRefinement || tag == ContractClaim::Tag::vjpRefinement)
    d.claim.spec = "spec";
  d.summary = "contract variant " + std::to_string(rank);
  const auto evidence = static_cast<ContractEvidence::Tag>(((value % 7) + 7) % 7);
  if (evidence != ContractEvidence::Tag::notProvided)
    d.evidence = ContractEvidence{evidence, "evidence-" + std::to_string(rank)};
  return d;
}

/// A kind of `op`; with `variant > 0`, a parameterised one whose first parameter is `variant`.
OpKind kindOf(BackendOp op, std::size_t variant) {
  std::optional<KindTag> bare, param;
  for (std::size_t t = 0; t < vocabularySize<KindTag>(); ++t) {
    const auto tag = static_cast<KindTag>(t);
    const KindSignature &s = signature(tag);
    if (s.op != op)
      continue;
    if (s.params.empty())
      bare = bare.value_or(tag);
    else if (s.params[0].type == ParamType::natural)
      param = param.value_or(tag);
  }
  OpKind k;
  k.tag = (variant == 0 && bare) || !param ? bare.value_or(KindTag::relu) : *param;
  for (const ParamSpec &spec : signature(k.tag).params)
    k.params.push_back(spec.type == ParamType::natural ? std::vector<std::uint64_t>{0}
                                                       : std::vector<std::uint64_t>{});
  if (!k.params.empty())
    k.params[0] = {variant};
  return k;
}

} // namespace

GraphExecutionPlan concretePlan(const z3::model &m, const Plan &p, Interner &interner) {
  Ranks names, contracts, policies, notes;
  std::map<std::int64_t, std::map<std::int64_t, std::size_t>> kindsByOp; // op -> kind -> variant
  for (const Node &k : p.nodes) {
    const Capsule &c = k.capsule;
    names.see(valueOf(m, c.name));
    for (const z3::expr *x :
         {&c.shapeContract, &c.layoutContract, &c.valueContract, &c.vjpContract})
      contracts.see(valueOf(m, *x));
    policies.see(valueOf(m, c.numericalPolicy));
    notes.see(valueOf(m, c.notes));
    kindsByOp[valueOf(m, k.op)].emplace(valueOf(m, k.kind), 0);
  }
  names.freeze();
  contracts.freeze();
  policies.freeze();
  notes.freeze();
  for (auto &[op, kinds] : kindsByOp) {
    std::size_t i = 0;
    for (auto &[kind, variant] : kinds)
      variant = kinds.size() == 1 ? 0 : ++i;
  }

  GraphExecutionPlan plan;
  for (const Node &k : p.nodes) {
    const Capsule &c = k.capsule;
    const auto op = enumAt<BackendOp>(valueOf(m, k.op));
    KernelCapsule capsule;
    capsule.name = "capsule-" + std::to_string(names(valueOf(m, c.name)));
    capsule.op = op;
    capsule.provider = enumAt<Provider>(valueOf(m, c.provider));
    capsule.device = enumAt<Device>(valueOf(m, c.device));
    capsule.trustLevel = enumAt<TrustLevel>(valueOf(m, c.trustLevel));
    capsule.supportsForward = m.eval(c.supportsForward, true).is_true();
    capsule.vjpMode = enumAt<VJPMode>(valueOf(m, c.vjpMode));
    using Tag = ContractClaim::Tag;
    auto contract = [&](Tag tag, const z3::expr &x) {
      const std::int64_t v = valueOf(m, x);
      return descriptor(tag, op, contracts(v), v);
    };
    capsule.shapeContract = contract(Tag::shapeSafety, c.shapeContract);
    capsule.layoutContract = contract(Tag::layoutCompatibility, c.layoutContract);
    capsule.valueContract = contract(Tag::valueRefinement, c.valueContract);
    capsule.vjpContract = contract(Tag::vjpRefinement, c.vjpContract);
    // mixed radix over the four fields; rank 0 is the default policy (every field "unspecified",
    // the last spelling of each)
    std::size_t rest = policies(valueOf(m, c.numericalPolicy));
    auto digit = [&rest]<class E>(E) {
      const std::size_t size = vocabularySize<E>(), d = rest % size;
      rest /= size;
      return static_cast<E>(size - 1 - d);
    };
    capsule.numericalPolicy.rounding = digit(Rounding{});
    capsule.numericalPolicy.subnormals = digit(Subnormals{});
    capsule.numericalPolicy.contraction = digit(Contraction{});
    capsule.numericalPolicy.reduction = digit(Reduction{});
    const std::size_t note = notes(valueOf(m, c.notes));
    capsule.notes = note == 0 ? "" : "note " + std::to_string(note);
    const std::int64_t kindValue = valueOf(m, k.kind);
    PlannedNodeKernel node;
    node.nodeId = static_cast<NodeId>(valueOf(m, k.nodeId));
    node.op = op;
    node.kind = interner.intern(kindOf(op, kindsByOp[valueOf(m, k.op)][kindValue]));
    node.capsule = interner.intern(std::move(capsule));
    plan.kernels.push_back(node);
  }
  return plan;
}

} // namespace lo::proofs
