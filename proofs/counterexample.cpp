#include "proofs/counterexample.hpp"

#include "proofs/acceptance.hpp"
#include "proofs/gate.hpp"
#include "ref/recheck.hpp"

#include <algorithm>
#include <map>

namespace lo::proofs {

namespace {

/// A field's value in the model: an integer, or 0 and 1 for a boolean.
std::int64_t valueOf(const z3::model &m, const z3::expr &e) {
  const z3::expr v = m.eval(e, true);
  return e.is_bool() ? (v.is_true() ? 1 : 0) : v.get_numeral_int64();
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

/// What a field's decoder reads: its value, the value's rank among the plan's values of that
/// field (equal values, equal ranks), the node's op and the edition the plan is written in; in an
/// edition with the acceptance gate, also the capsule's op and VJP mode and the model's value of
/// `contractsAligned` for the capsule (proofs/acceptance.hpp), which its claims realize.
struct FieldValue {
  std::int64_t value;
  std::size_t rank;
  BackendOp op;
  Edition edition;
  BackendOp capsuleOp = BackendOp::relu;
  VJPMode vjpMode = VJPMode::none;
  bool aligned = true;
};

/// The evidence tag of edition `e` whose disposition is `d` (every disposition of an edition has
/// one: ref/recheck.hpp derives the dispositions' editions from the tags').
EvidenceTag evidenceOf(EvidenceDisposition d, Edition e) {
  for (EvidenceTag tag : valuesOf<EvidenceTag>(e))
    if (disposition(ContractEvidence{tag, {}}) == d)
      return tag;
  return EvidenceTag::notProvided;
}

template <class E> E enumAt(std::int64_t v) {
  return static_cast<E>(static_cast<std::size_t>(v) % vocabularySize<E>());
}

// One decoder per carrier (LO_CAPSULE_FIELDS): the real field a symbolic value stands for.
template <class E> E decode(carrier::Vocabulary<E>, const FieldValue &v) {
  return enumAt<E>(v.value);
}
bool decode(carrier::Flag, const FieldValue &v) { return v.value != 0; }
std::string decode(carrier::Name, const FieldValue &v) {
  return "capsule-" + std::to_string(v.rank);
}
std::string decode(carrier::Notes, const FieldValue &v) {
  return v.rank == 0 ? "" : "note " + std::to_string(v.rank);
}
/// An op of edition `e` other than `op` (a misaligned claim's).
BackendOp otherOp(BackendOp op, Edition e) {
  for (BackendOp o : valuesOf<BackendOp>(e))
    if (o != op)
      return o;
  return op;
}

template <ContractClaim::Tag T>
ContractDescriptor decode(carrier::Contract<T>, const FieldValue &v) {
  ContractDescriptor d;
  d.claim.tag = T;
  d.claim.op = v.op;
  if (rulesOf(v.edition).gate == GateKind::acceptance) {
    // Claims aligned with the capsule (`contractsAligned`), or, when the model says they are
    // not, a shape claim of another op.
    d.claim.op = v.capsuleOp;
    if (T == ContractClaim::Tag::vjpRefinement) {
      d.claim.mode = v.vjpMode;
      if (v.vjpMode == VJPMode::none)
        d.claim.tag = ContractClaim::Tag::vjpUnavailable;
    }
    if (T == ContractClaim::Tag::shapeSafety && !v.aligned)
      d.claim.op = otherOp(v.capsuleOp, v.edition);
  }
  if ((T == ContractClaim::Tag::valueRefinement || T == ContractClaim::Tag::vjpRefinement) &&
      claimsHaveSpec(v.edition))
    d.claim.spec = "spec";
  d.summary = "contract variant " + std::to_string(v.rank);
  // The disposition is the value mod the number of the edition's dispositions (proofs/gate.hpp:
  // the disposition the gate obligations read), so that a counterexample's evidence follows the
  // model; the evidence is the edition's tag of that disposition.
  const std::vector<EvidenceDisposition> dispositions = dispositionsOf(v.edition);
  const auto n = static_cast<std::int64_t>(dispositions.size());
  const EvidenceTag tag =
      evidenceOf(dispositions[static_cast<std::size_t>(((v.value % n) + n) % n)], v.edition);
  d.evidence = ContractEvidence{tag, evidenceTextOf(tag) == EvidenceText::none
                                         ? std::string()
                                         : "evidence-" + std::to_string(v.rank)};
  return d;
}
NumericalPolicy decode(carrier::Policy, const FieldValue &v) {
  if (!hasSeedCapsule(v.edition)) { // {reduction}: the edition's reductions, in order
    const std::vector<Reduction> reductions = valuesOf<Reduction>(v.edition);
    NumericalPolicy p;
    p.reduction = reductions[v.rank % reductions.size()];
    return p;
  }
  // mixed radix over the four fields; rank 0 is the default policy (every field "unspecified",
  // the last spelling of each)
  std::size_t rest = v.rank;
  auto digit = [&rest]<class E>(E) {
    const std::size_t size = vocabularySize<E>(), d = rest % size;
    rest /= size;
    return static_cast<E>(size - 1 - d);
  };
  NumericalPolicy p;
  p.rounding = digit(Rounding{});
  p.subnormals = digit(Subnormals{});
  p.contraction = digit(Contraction{});
  p.reduction = digit(Reduction{});
  return p;
}

/// A kind of `op` in edition `e`; with `variant > 0`, a parameterised one whose first parameter is
/// `variant`.
OpKind kindOf(BackendOp op, std::size_t variant, Edition e) {
  std::optional<KindTag> bare, param;
  for (KindTag tag : valuesOf<KindTag>(e)) {
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

GraphExecutionPlan concretePlan(const z3::model &m, const Plan &p, Edition edition,
                                Interner &interner) {
  // one rank table per capsule field
#define LO_FIELD_RANKS(field, sort, part, row, carrier) Ranks field;
  struct {
    LO_CAPSULE_FIELDS(LO_FIELD_RANKS)
  } ranks;
#undef LO_FIELD_RANKS
  std::map<std::int64_t, std::map<std::int64_t, std::size_t>> kindsByOp; // op -> kind -> variant
  for (const Node &k : p.nodes) {
#define LO_SEE_FIELD(field, sort, part, row, carrier) ranks.field.see(valueOf(m, k.capsule.field));
    LO_CAPSULE_FIELDS(LO_SEE_FIELD)
#undef LO_SEE_FIELD
    kindsByOp[valueOf(m, k.op)].emplace(valueOf(m, k.kind), 0);
  }
#define LO_FREEZE_FIELD(field, sort, part, row, carrier) ranks.field.freeze();
  LO_CAPSULE_FIELDS(LO_FREEZE_FIELD)
#undef LO_FREEZE_FIELD
  for (auto &[op, kinds] : kindsByOp) {
    std::size_t i = 0;
    for (auto &[kind, variant] : kinds)
      variant = kinds.size() == 1 ? 0 : ++i;
  }

  GraphExecutionPlan plan;
  for (const Node &k : p.nodes) {
    const auto op = enumAt<BackendOp>(valueOf(m, k.op));
    const auto capsuleOp = enumAt<BackendOp>(valueOf(m, k.capsule.op));
    const auto vjpMode = enumAt<VJPMode>(valueOf(m, k.capsule.vjpMode));
    const bool aligned = m.eval(contractsAligned(k.capsule), true).is_true();
    KernelCapsule capsule;
#define LO_DECODE_FIELD(field, sort, part, row, carrier)                                           \
  {                                                                                                \
    const std::int64_t v = valueOf(m, k.capsule.field);                                            \
    capsule.field = decode(                                                                        \
        carrier{}, FieldValue{v, ranks.field(v), op, edition, capsuleOp, vjpMode, aligned});       \
  }
    LO_CAPSULE_FIELDS(LO_DECODE_FIELD)
#undef LO_DECODE_FIELD
    const std::int64_t kindValue = valueOf(m, k.kind);
    PlannedNodeKernel node;
    node.nodeId = static_cast<NodeId>(valueOf(m, k.nodeId));
    node.op = op;
    node.kind = interner.intern(kindOf(op, kindsByOp[valueOf(m, k.op)][kindValue], edition));
    node.capsule = interner.intern(std::move(capsule));
    plan.kernels.push_back(node);
  }
  return plan;
}

} // namespace lo::proofs
