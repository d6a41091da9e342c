// The encoding is the code: the Z3 encoding of the lowering (proofs/encoding.hpp), driven with
// concrete values, computes what ref/lowering.cpp computes (docs/proofs.md, "The encoding is the
// code").
//
// For a plan, every symbolic input of the encoded plan is fixed to the plan's values (each capsule
// field by LO_CAPSULE_FIELDS: a vocabulary field by its index, a record field by the rank of its
// value among the values seen), `valid(plan)` is asserted with them (so the encoding must also
// accept the plan as valid), and the encoded `toCoalesced`, `toSingleton` and audit rows are
// evaluated in the model and read back group by group, then compared with `lower` and `audit` of
// ref/lowering.cpp on the same plan: both modes, both equalities; and the encoded gate of each
// lowering (proofs/gate.hpp `encodedGate`) under each policy preset with `gate` of ref/gate.cpp.
// The encoding is built in an edition (docs/spec.md §1.6) and the plans hold that edition's values.
// Plans: RapidCheck's property generators (tests/property/generators.hpp, brought into the newest
// edition), every plan of up to 5 nodes over each of a few triples of near-colliding capsules (the
// newest edition), and in each edition every plan of up to 2 nodes over capsules carrying each of
// the edition's dispositions (where the editions' gates differ). A sabotaged encoding
// (proofs/encoding.hpp `Sabotage`) must make the comparison fail.
#include "proofs/acceptance.hpp"
#include "proofs/encoding.hpp"
#include "proofs/gate.hpp"
#include "proofs/selection.hpp"
#include "ref/edition.hpp"
#include "ref/lowering.hpp"
#include "ref/registry.hpp"
#include "ref/selection.hpp"
#include "tests/campaign.hpp"
#include "tests/property/generators.hpp"
#include "tools/plans/selection_cases.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <type_traits>

namespace lo::proofs {
namespace {

constexpr std::size_t kBound = 8; // `prove`'s default bound

/// The integer (or boolean) that stands for each capsule field's value: a vocabulary's index, and
/// for a record field the index of its value in a table of the values seen, whose entry 0 is the
/// field's default (so a hidden audit-row field, whose view holds the default, is 0 as in the
/// encoding); for a contract, that index times the number of the edition's dispositions plus the
/// index of its evidence's disposition among them, which the gate encoding reads as the value mod
/// that number.
/// In an edition of the lineage's capsule, a numerical policy is the index of its reduction among
/// the edition's (the encoding's range).
class Codes {
public:
  explicit Codes(Edition edition) : edition_(edition), dispositions_(dispositionsOf(edition)) {
    const KernelCapsule defaults; // not a capsule of the lineage: its values are not checked
    seeding_ = true;
#define LO_SEED_TABLE(field, sort, part, row, carrier) code(tables_.field, defaults.field);
    LO_CAPSULE_FIELDS(LO_SEED_TABLE)
#undef LO_SEED_TABLE
    seeding_ = false;
  }

  /// The value of each field of `c`, in LO_CAPSULE_FIELDS order.
  std::vector<std::int64_t> of(const KernelCapsule &c) {
    std::vector<std::int64_t> out;
#define LO_CODE_FIELD(field, sort, part, row, carrier) out.push_back(code(tables_.field, c.field));
    LO_CAPSULE_FIELDS(LO_CODE_FIELD)
#undef LO_CODE_FIELD
    return out;
  }

private:
  template <class T> std::int64_t code(std::vector<T> &table, const T &v) const {
    if constexpr (std::is_enum_v<T>) {
      return static_cast<std::int64_t>(v);
    } else if constexpr (std::is_same_v<T, bool>) {
      return v ? 1 : 0;
    } else if constexpr (std::is_same_v<T, NumericalPolicy>) {
      if (hasSeedCapsule(edition_))
        return rank(table, v);
      const std::vector<Reduction> reductions = valuesOf<Reduction>(edition_);
      for (std::size_t i = 0; i < reductions.size(); ++i)
        if (reductions[i] == v.reduction)
          return static_cast<std::int64_t>(i);
      return static_cast<std::int64_t>(reductions.size()); // the default: not a plan's
    } else if constexpr (std::is_same_v<T, ContractDescriptor>) {
      // The gate encoding reads a contract's disposition as its value mod the number of the
      // edition's dispositions (proofs/gate.hpp).
      const auto n = static_cast<std::int64_t>(dispositions_.size());
      return n * rank(table, v) + dispositionIndex(disposition(v.evidence));
    } else {
      return rank(table, v);
    }
  }

  /// The index of `d` among the edition's dispositions (a plan of the edition has no other).
  std::int64_t dispositionIndex(EvidenceDisposition d) const {
    for (std::size_t i = 0; i < dispositions_.size(); ++i)
      if (dispositions_[i] == d)
        return static_cast<std::int64_t>(i);
    if (!seeding_)
      ADD_FAILURE() << "disposition " << spelling(d) << " is not in the edition";
    return 0;
  }

  template <class T> static std::int64_t rank(std::vector<T> &table, const T &v) {
    for (std::size_t i = 0; i < table.size(); ++i)
      if (table[i] == v)
        return static_cast<std::int64_t>(i);
    table.push_back(v);
    return static_cast<std::int64_t>(table.size() - 1);
  }

#define LO_TABLE(field, sort, part, row, carrier) std::vector<decltype(KernelCapsule::field)> field;
  struct {
    LO_CAPSULE_FIELDS(LO_TABLE)
  } tables_;
#undef LO_TABLE
  Edition edition_;
  std::vector<EvidenceDisposition> dispositions_;
  bool seeding_ = false;
};

std::vector<const z3::expr *> fieldsOf(const Capsule &c) {
  std::vector<const z3::expr *> out;
#define LO_FIELD_POINTER(field, sort, part, row, carrier) out.push_back(&c.field);
  LO_CAPSULE_FIELDS(LO_FIELD_POINTER)
#undef LO_FIELD_POINTER
  return out;
}

std::vector<std::string> fieldNames() {
  return {
#define LO_FIELD_NAME(field, sort, part, row, carrier) #field,
      LO_CAPSULE_FIELDS(LO_FIELD_NAME)
#undef LO_FIELD_NAME
  };
}

std::size_t fieldIndex(std::string_view name) {
  const std::vector<std::string> names = fieldNames();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name)
      return i;
  ADD_FAILURE() << "no capsule field " << name;
  return 0;
}

z3::expr valueOf(z3::context &ctx, const z3::expr &symbol, std::int64_t v) {
  return symbol.is_bool() ? ctx.bool_val(v != 0) : ctx.int_val(v);
}

std::int64_t read(const z3::model &m, const z3::expr &e) {
  const z3::expr v = m.eval(e, true);
  return e.is_bool() ? (v.is_true() ? 1 : 0) : v.get_numeral_int64();
}

/// The encoded algorithm at one length under one equality and sabotage: built once, then
/// evaluated in the model of each plan.
struct Encoded {
  Encoded(z3::context &ctx, Edition edition, Equality equality, Sabotage sabotage, std::size_t n)
      : encoder(ctx, edition, equality, sabotage), plan(encoder.freshPlan(n, "p")),
        coalesced(encoder.toCoalesced(plan)), singleton(encoder.toSingleton(plan)),
        valid(encoder.valid(plan)) {}
  Encoder encoder;
  Plan plan;
  Lowering coalesced, singleton;
  z3::expr valid;
};

/// The kernel policies the acceptance gate is compared under (an edition with that gate).
const std::vector<acceptance::KernelPolicy> &kernelPolicies() {
  using acceptance::ProviderPreference;
  static const std::vector<acceptance::KernelPolicy> policies{
      acceptance::checkedCpuPolicy(),
      {Device::cuda, ProviderPreference::only(Provider::cudnn),
       acceptance::AssurancePolicy::external(), VJPMode::backend_vjp},
      {Device::cpu, ProviderPreference::prefer(Provider::reference),
       acceptance::AssurancePolicy::external(), VJPMode::none}};
  return policies;
}

class Differential {
public:
  /// The encoding of `edition`, compared on plans of that edition.
  explicit Differential(Edition edition = kNewestSeedEdition)
      : edition_(edition), codes_(edition) {}

  /// The first difference between the encoding and ref/lowering.cpp on `plan` (every mode and
  /// equality), or "" when there is none.
  /// With `gatePolicy`, the encoded gate is evaluated under that policy for every preset of the
  /// code (a deliberate mismatch, to show the gate comparison can fail).
  /// With `kernelPolicy` (an edition with the acceptance gate), the encoded acceptance is
  /// evaluated under that policy for every policy of the code.
  std::string compare(Interner &interner, const GraphExecutionPlan &plan,
                      Sabotage sabotage = Sabotage::none,
                      const AssurancePolicy *gatePolicy = nullptr,
                      const acceptance::KernelPolicy *kernelPolicy = nullptr) {
    for (Equality equality : {Equality::contract, Equality::identity}) {
      Encoded &e = encoded(equality, sabotage, plan.kernels.size());
      const z3::model m = modelOf(e, interner, plan);
      std::string out;
      if (!m.eval(e.valid, true).is_true()) {
        out = "the encoding does not accept the plan as valid";
      } else {
        for (Mode mode : {Mode::coalesced, Mode::singleton}) {
          const GraphLoweringPlan ref = lower(interner, plan, mode, equality);
          const Lowering &l = mode == Mode::coalesced ? e.coalesced : e.singleton;
          out = compareLowering(m, e, l, ref, interner);
          if (out.empty())
            out = rulesOf(edition_).gate == GateKind::acceptance
                      ? compareAcceptance(m, e, l, ref, interner, kernelPolicy)
                      : compareGate(m, e, l, ref, interner, gatePolicy);
          if (!out.empty()) {
            out = std::string(spelling(mode)) + ": " + out;
            break;
          }
        }
      }
      if (!out.empty())
        return std::string(spelling(equality)) + " " + out;
    }
    return "";
  }

private:
  Encoded &encoded(Equality equality, Sabotage sabotage, std::size_t n) {
    auto &slot = cache_[{static_cast<int>(equality), static_cast<int>(sabotage), n}];
    if (!slot)
      slot = std::make_unique<Encoded>(ctx_, edition_, equality, sabotage, n);
    return *slot;
  }

  /// The model that gives every symbolic input of the encoded plan the plan's value, and the
  /// uninterpreted `opOfKind` the plan's map from kinds to ops.
  z3::model modelOf(const Encoded &e, const Interner &interner, const GraphExecutionPlan &plan) {
    z3::model m(ctx_);
    auto fix = [&](const z3::expr &symbol, std::int64_t v) {
      z3::func_decl d = symbol.decl();
      z3::expr value = valueOf(ctx_, symbol, v);
      m.add_const_interp(d, value);
    };
    z3::func_decl opOfKind = ctx_.function("opOfKind", ctx_.int_sort(), ctx_.int_sort());
    z3::expr noOp = ctx_.int_val(-1);
    z3::func_interp kindToOp = m.add_func_interp(opOfKind, noOp);
    for (std::size_t i = 0; i < plan.kernels.size(); ++i) {
      const PlannedNodeKernel &k = plan.kernels[i];
      const Node &s = e.plan.nodes[i];
      fix(s.nodeId, static_cast<std::int64_t>(k.nodeId));
      fix(s.kind, static_cast<std::int64_t>(k.kind));
      fix(s.op, static_cast<std::int64_t>(k.op));
      z3::expr_vector kind(ctx_);
      kind.push_back(ctx_.int_val(static_cast<std::int64_t>(k.kind)));
      z3::expr op = ctx_.int_val(static_cast<std::int64_t>(k.op));
      kindToOp.add_entry(kind, op);
      const std::vector<std::int64_t> values = codes_.of(interner.capsule(k.capsule));
      const std::vector<const z3::expr *> fields = fieldsOf(s.capsule);
      for (std::size_t f = 0; f < fields.size(); ++f)
        fix(*fields[f], values[f]);
    }
    // `contractsAligned` (proofs/acceptance.hpp) is the code's at each capsule of the plan: its
    // arguments are the codes of the capsule's op, vjpMode and four contracts.
    z3::func_decl alignedDecl = contractsAlignedDecl(ctx_);
    z3::expr no = ctx_.bool_val(false);
    z3::func_interp aligned = m.add_func_interp(alignedDecl, no);
    std::set<CapsuleId> seen;
    for (const PlannedNodeKernel &k : plan.kernels) {
      if (!seen.insert(k.capsule).second)
        continue;
      const KernelCapsule &c = interner.capsule(k.capsule);
      const std::vector<std::int64_t> values = codes_.of(c);
      z3::expr_vector args(ctx_);
      for (const char *field :
           {"op", "vjpMode", "shapeContract", "layoutContract", "valueContract", "vjpContract"})
        args.push_back(ctx_.int_val(values[fieldIndex(field)]));
      z3::expr value = ctx_.bool_val(acceptance::contractsAligned(c));
      aligned.add_entry(args, value);
    }
    return m;
  }

  std::string compareCapsule(const z3::model &m, const Capsule &symbolic, const KernelCapsule &c) {
    const std::vector<std::int64_t> want = codes_.of(c);
    const std::vector<const z3::expr *> fields = fieldsOf(symbolic);
    for (std::size_t f = 0; f < fields.size(); ++f)
      if (read(m, *fields[f]) != want[f])
        return fieldNames()[f] + " is " + std::to_string(read(m, *fields[f])) + ", the code's " +
               std::to_string(want[f]);
    return "";
  }

  /// The code's lowering as a symbolic one of constants, in as many slots as the encoded one.
  Lowering constantLowering(const Encoded &e, const GraphLoweringPlan &ref,
                            const Interner &interner) {
    const std::size_t cap = e.plan.nodes.size();
    Lowering out{ctx_.int_val(static_cast<int>(ref.groups.size())),
                 std::vector<Group>(cap, e.encoder.emptyGroup(cap))};
    for (std::size_t j = 0; j < ref.groups.size(); ++j) {
      const LoweredKernelGroup &r = ref.groups[j];
      Group &g = out.groups[j];
      g.idCount = ctx_.int_val(static_cast<int>(r.nodeIds.size()));
      g.kindCount = ctx_.int_val(static_cast<int>(r.kinds.size()));
      for (std::size_t p = 0; p < r.nodeIds.size(); ++p) {
        g.nodeIds[p] = ctx_.int_val(static_cast<std::int64_t>(r.nodeIds[p]));
        g.kinds[p] = ctx_.int_val(static_cast<std::int64_t>(r.kinds[p]));
      }
      g.op = ctx_.int_val(static_cast<int>(r.op));
      g.capsule = constantCapsule(interner.capsule(r.capsule));
      g.run = ctx_.bool_val(r.groupingKind == GroupingKind::sameCapsuleRun);
    }
    return out;
  }

  Capsule constantCapsule(const KernelCapsule &c) {
    const std::vector<std::int64_t> values = codes_.of(c);
    std::size_t f = 0;
#define LO_CONSTANT_FIELD(field, sort, part, row, carrier)                                         \
  z3::expr field = constant(values[f++], sorts::sort{});
    LO_CAPSULE_FIELDS(LO_CONSTANT_FIELD)
#undef LO_CONSTANT_FIELD
#define LO_FIELD(field, sort, part, row, carrier) field,
    return Capsule{LO_CAPSULE_FIELDS(LO_FIELD)};
#undef LO_FIELD
  }
  z3::expr constant(std::int64_t v, sorts::Int) { return ctx_.int_val(v); }
  z3::expr constant(std::int64_t v, sorts::Bool) { return ctx_.bool_val(v != 0); }

  std::string compareLowering(const z3::model &m, const Encoded &e, const Lowering &l,
                              const GraphLoweringPlan &ref, Interner &interner) {
    // One evaluation of both (the lowering and the audit rows equal) first; the field-by-field
    // reading below names the first difference when there is one.
    const ExecutionAudit refRows = audit(interner, ref);
    z3::expr_vector same(ctx_);
    same.push_back(sameLowering(l, constantLowering(e, ref, interner)));
    for (std::size_t j = 0; j < ref.groups.size() && j < l.groups.size(); ++j)
      same.push_back(sameRow(e.encoder.groupRow(l, j, e.plan),
                             AuditRow{constantCapsule(interner.capsule(refRows.kernels[j].view))}));
    if (m.eval(z3::mk_and(same), true).is_true())
      return "";
    const std::string difference = firstDifference(m, e, l, ref, interner);
    return difference.empty() ? "sameLowering or sameRow differs" : difference;
  }

  /// The encoded gate of `l` (which failure kinds are present, and the verdict) under each
  /// preset, against ref/gate.cpp's gate of the code's lowering `ref` under the same preset.
  std::string compareGate(const z3::model &m, const Encoded &e, const Lowering &l,
                          const GraphLoweringPlan &ref, Interner &interner,
                          const AssurancePolicy *encodedPolicy) {
    for (const NamedPolicy &preset : kPolicyPresets) {
      const EncodedGate g =
          encodedGate(e.encoder, l, e.plan,
                      constantPolicy(ctx_, encodedPolicy ? *encodedPolicy : preset.policy));
      const GateResult r = lo::gate(interner, preset.policy, ref);
      std::vector<bool> kinds(vocabularySize<GateFailureKind>(), false);
      for (const GateFailure &f : r.failures)
        kinds[static_cast<std::size_t>(f.kind)] = true;
      const std::string where = "gate of policy " + std::string(preset.name) + ": ";
      for (std::size_t k = 0; k < kinds.size(); ++k)
        if (m.eval(g.present[k], true).is_true() != kinds[k])
          return where + std::string(spelling(static_cast<GateFailureKind>(k))) +
                 (kinds[k] ? " absent, the code's present" : " present, the code's absent");
      if (m.eval(g.accepted, true).is_true() != r.accepted())
        return where +
               (r.accepted() ? "rejected, the code's accepted" : "accepted, the code's rejected");
    }
    return "";
  }

  /// The encoded failures of each group of `l` (proofs/acceptance.hpp: which of the eleven tests
  /// fail) under each kernel policy, against `acceptGroups` of ref/acceptance.cpp on the code's
  /// lowering `ref` under the same policy.
  std::string compareAcceptance(const z3::model &m, const Encoded &e, const Lowering &l,
                                const GraphLoweringPlan &ref, Interner &interner,
                                const acceptance::KernelPolicy *encodedPolicy) {
    for (const acceptance::KernelPolicy &policy : kernelPolicies()) {
      const acceptance::GraphAcceptance r = acceptance::acceptGroups(interner, ref, policy);
      // the failing tests of each group: a kind's index, evidenceRejected's per obligation
      std::vector<std::set<std::size_t>> want(ref.groups.size());
      for (std::size_t i = 0; i < r.failures.size(); ++i) {
        const acceptance::AcceptanceFailure &f = r.failures[i];
        std::size_t t = static_cast<std::size_t>(f.kind);
        if (f.kind == AcceptanceFailureKind::evidenceRejected)
          t += static_cast<std::size_t>(f.obligation);
        want[r.failureGroups[i]].insert(t);
      }
      const SymbolicKernelPolicy encoded =
          constantKernelPolicy(ctx_, encodedPolicy ? *encodedPolicy : policy);
      const std::string where = "acceptance under " +
                                acceptance::preferenceSpelling(policy.provider) + " on " +
                                std::string(spelling(policy.device)) + ": ";
      for (std::size_t j = 0; j < ref.groups.size(); ++j) {
        const std::vector<EncodedFailure> tests =
            acceptanceFailures(e.encoder, encoded, l.groups[j].op, l.groups[j].capsule);
        for (std::size_t t = 0; t < tests.size(); ++t)
          if (m.eval(tests[t].fails, true).is_true() != want[j].contains(t))
            return where + "group " + std::to_string(j) + " test " + std::to_string(t) + " (" +
                   std::string(spelling(tests[t].kind)) + ") " +
                   (want[j].contains(t) ? "passes, the code's fails" : "fails, the code's passes");
      }
    }
    return "";
  }

  std::string firstDifference(const z3::model &m, const Encoded &e, const Lowering &l,
                              const GraphLoweringPlan &ref, Interner &interner) {
    std::ostringstream os;
    const std::int64_t count = read(m, l.count);
    if (count != static_cast<std::int64_t>(ref.groups.size())) {
      os << count << " groups, the code " << ref.groups.size();
      return os.str();
    }
    const ExecutionAudit rows = audit(interner, ref);
    for (std::size_t j = 0; j < ref.groups.size(); ++j) {
      const Group &g = l.groups[j];
      const LoweredKernelGroup &r = ref.groups[j];
      os << "group " << j << ": ";
      const std::int64_t ids = read(m, g.idCount), kinds = read(m, g.kindCount);
      if (ids != static_cast<std::int64_t>(r.nodeIds.size()) ||
          kinds != static_cast<std::int64_t>(r.kinds.size())) {
        os << ids << " ids and " << kinds << " kinds, the code " << r.nodeIds.size();
        return os.str();
      }
      for (std::size_t p = 0; p < r.nodeIds.size(); ++p) {
        if (read(m, g.nodeIds[p]) != static_cast<std::int64_t>(r.nodeIds[p]))
          return os.str() + "nodeIds[" + std::to_string(p) + "] differs";
        if (read(m, g.kinds[p]) != static_cast<std::int64_t>(r.kinds[p]))
          return os.str() + "kinds[" + std::to_string(p) + "] differs";
      }
      if (read(m, g.op) != static_cast<std::int64_t>(r.op))
        return os.str() + "op differs";
      if ((read(m, g.run) != 0) != (r.groupingKind == GroupingKind::sameCapsuleRun))
        return os.str() + "groupingKind differs";
      if (std::string d = compareCapsule(m, g.capsule, interner.capsule(r.capsule)); !d.empty())
        return os.str() + "capsule: " + d;
      const AuditRow row = e.encoder.groupRow(l, j, e.plan);
      if (std::string d = compareCapsule(m, row.view, interner.capsule(rows.kernels[j].view));
          !d.empty())
        return os.str() + "audit row: " + d;
      os.str("");
    }
    return "";
  }

  z3::context ctx_;
  Edition edition_;
  Codes codes_;
  std::map<std::tuple<int, int, std::size_t>, std::unique_ptr<Encoded>> cache_;
};

// --- the exhaustive family: every plan of up to 5 nodes over three near-colliding capsules
// --------

/// Evidence of tag `tag` with the text the tag carries.
ContractEvidence evidence(EvidenceTag tag) {
  return ContractEvidence{tag, evidenceTextOf(tag) == EvidenceText::none ? "" : "lemma"};
}

/// The first evidence tag of edition `e` whose disposition every policy accepts (2026-07:
/// theorem; 2026-08: notApplicable).
EvidenceTag acceptedByEveryPolicy(Edition e) {
  for (EvidenceTag tag : valuesOf<EvidenceTag>(e))
    if (acceptsDisposition(AssurancePolicy::verified(), disposition(ContractEvidence{tag, {}})))
      return tag;
  ADD_FAILURE() << "edition " << spelling(e) << " has no evidence every policy accepts";
  return EvidenceTag::notProvided;
}

/// A capsule of edition `e`: a shape claim, and a value claim (with a spec name where the edition
/// has one) whose evidence every policy accepts.
KernelCapsule capsule(std::string name, BackendOp op, Edition e = kNewestSeedEdition) {
  KernelCapsule c;
  c.name = std::move(name);
  c.op = op;
  c.shapeContract.claim = ContractClaim{ContractClaim::Tag::shapeSafety, op, {}, {}, {}};
  c.valueContract.claim =
      ContractClaim{ContractClaim::Tag::valueRefinement,
                    op,
                    {},
                    claimsHaveSpec(e) ? std::optional<std::string>("spec") : std::nullopt,
                    VJPMode::none};
  c.valueContract.evidence = evidence(acceptedByEveryPolicy(e));
  return c;
}

struct Triple {
  std::string what;
  BackendOp op;
  std::vector<KernelCapsule> capsules; // three
  std::vector<OpKind> kinds;           // kinds of op, used in turn
};

std::vector<Triple> triples() {
  std::vector<Triple> out;
  const KernelCapsule a = capsule("a", BackendOp::relu);
  {
    KernelCapsule te = a, b = capsule("b", BackendOp::relu);
    te.trustLevel = TrustLevel::trusted_external;
    out.push_back({"same identity, other trust; another name", BackendOp::relu, {a, te, b}, {}});
  }
  {
    KernelCapsule evidence = a, provider = a;
    evidence.valueContract.evidence =
        ContractEvidence{ContractEvidence::Tag::trustedBoundary, "vendor"};
    provider.provider = Provider::cudnn;
    out.push_back({"same identity, other evidence; other provider",
                   BackendOp::relu,
                   {a, evidence, provider},
                   {}});
  }
  {
    KernelCapsule notes = a, policy = a;
    notes.notes = "fused";
    notes.supportsForward = false;
    policy.numericalPolicy.rounding = Rounding::nearest_even;
    out.push_back({"same identity, other notes and supportsForward; other numerical policy",
                   BackendOp::relu,
                   {a, notes, policy},
                   {}});
  }
  {
    const KernelCapsule s = capsule("s", BackendOp::reduce_sum);
    KernelCapsule device = s, vjp = s;
    device.device = Device::cuda;
    vjp.vjpMode = VJPMode::backend_vjp;
    vjp.trustLevel = TrustLevel::fuzzed;
    out.push_back({"reduce_sum with two kinds: other device; other vjp mode and trust",
                   BackendOp::reduce_sum,
                   {s, device, vjp},
                   {}});
  }
  for (Triple &t : out)
    for (KindTag tag : prop::kindsOf(t.op)) {
      OpKind k{tag, {}};
      for (const ParamSpec &p : signature(tag).params)
        k.params.push_back(p.type == ParamType::natural ? std::vector<std::uint64_t>{1}
                                                        : std::vector<std::uint64_t>{});
      t.kinds.push_back(k);
    }
  return out;
}

/// Node ids in plan order: not sorted, one at the top of the range.
constexpr NodeId kIds[] = {7, 3, kNodeIdLimit - 1, 0, 42};

/// Every plan of 0..maxNodes nodes over the triple's capsules (kinds taken in turn).
template <class F> void everyPlan(const Triple &t, std::size_t maxNodes, F visit) {
  for (std::size_t n = 0; n <= maxNodes; ++n) {
    std::size_t combinations = 1;
    for (std::size_t i = 0; i < n; ++i)
      combinations *= 3;
    for (std::size_t c = 0; c < combinations; ++c) {
      Interner interner;
      GraphExecutionPlan plan;
      std::size_t rest = c;
      for (std::size_t i = 0; i < n; ++i, rest /= 3)
        plan.kernels.push_back(PlannedNodeKernel{kIds[i],
                                                 interner.intern(t.kinds[i % t.kinds.size()]), t.op,
                                                 interner.intern(t.capsules[rest % 3])});
      if (!visit(interner, plan))
        return;
    }
  }
}

TEST(EncodingIsCode, EveryPlanOfUpToFiveNodesOverThreeNearCollidingCapsules) {
  Differential d;
  std::size_t plans = 0;
  const std::size_t maxNodes = lo::testing::instance<std::size_t>(3, 5); // tests/campaign.hpp
  for (const Triple &t : triples())
    everyPlan(t, maxNodes, [&](Interner &interner, const GraphExecutionPlan &plan) {
      ++plans;
      const std::string diff = d.compare(interner, plan);
      EXPECT_EQ(diff, "") << t.what << ", plan of " << plan.kernels.size() << " nodes";
      return diff.empty();
    });
  std::size_t perTriple = 0; // 1 + 3 + ... + 3^maxNodes
  for (std::size_t n = 0, words = 1; n <= maxNodes; ++n, words *= 3)
    perTriple += words;
  EXPECT_EQ(plans, 4u * perTriple);
}

// In each edition, every plan of up to 2 nodes over capsules that differ in the disposition of
// their value evidence, one capsule for each of the edition's dispositions (and one also with a
// trusted-external trust level): the gates of the editions differ in their dispositions, so this is
// where the encoding of each edition's gate meets ref/gate.cpp.
TEST(EncodingIsCode, EveryPlanOfUpToTwoNodesOverEachDispositionOfEachEdition) {
  for (std::size_t i = 0; i < vocabularySize<Edition>(); ++i) {
    const auto edition = static_cast<Edition>(i);
    if (!(kOldKindEditions & editionBit(edition))) // 2026-08b proves as 2026-08: docs/spec.md §4
      continue;
    Differential d(edition);
    std::vector<KernelCapsule> capsules;
    std::set<EvidenceDisposition> dispositions;
    for (EvidenceTag tag : valuesOf<EvidenceTag>(edition)) {
      KernelCapsule c = capsule("a", BackendOp::relu, edition);
      c.valueContract.evidence = evidence(tag);
      dispositions.insert(disposition(c.valueContract.evidence));
      capsules.push_back(c);
    }
    KernelCapsule te = capsules.front();
    te.trustLevel = TrustLevel::trusted_external;
    capsules.push_back(te);
    EXPECT_EQ(dispositions.size(), dispositionsOf(edition).size()) << spelling(edition);
    const OpKind relu{KindTag::relu, {}};
    std::size_t plans = 0;
    for (std::size_t a = 0; a <= capsules.size(); ++a)
      for (std::size_t b = 0; b <= capsules.size(); ++b) {
        if (a == capsules.size() && b != capsules.size())
          continue; // a == size: no first node; b == size: no second node
        Interner interner;
        GraphExecutionPlan plan;
        for (std::size_t c : {a, b})
          if (c < capsules.size())
            plan.kernels.push_back(PlannedNodeKernel{kIds[plan.kernels.size()],
                                                     interner.intern(relu), BackendOp::relu,
                                                     interner.intern(capsules[c])});
        ++plans;
        EXPECT_EQ(d.compare(interner, plan), "")
            << spelling(edition) << ", capsules " << a << " and " << b;
      }
    const std::size_t n = capsules.size();
    EXPECT_EQ(plans, 1 + n + n * n) << spelling(edition);
  }
}

/// `plan` with every value brought into edition `e`: evidence the edition lacks becomes evidence
/// every policy accepts, and claims carry a spec name exactly where the edition has one (the
/// property generators write edition 2026-07 values).
GraphExecutionPlan intoEdition(const GraphExecutionPlan &plan, Interner &interner, Edition e) {
  GraphExecutionPlan out = plan;
  for (PlannedNodeKernel &k : out.kernels) {
    KernelCapsule c = interner.capsule(k.capsule);
    for (ContractDescriptor *d :
         {&c.shapeContract, &c.layoutContract, &c.valueContract, &c.vjpContract}) {
      if (!inEdition(d->evidence.tag, e))
        d->evidence = evidence(acceptedByEveryPolicy(e));
      const bool named = d->claim.tag == ContractClaim::Tag::valueRefinement ||
                         d->claim.tag == ContractClaim::Tag::vjpRefinement;
      if (!named || !claimsHaveSpec(e))
        d->claim.spec.reset();
      else if (!d->claim.spec)
        d->claim.spec = "spec";
    }
    k.capsule = interner.intern(std::move(c));
  }
  return out;
}

// The generators' plans, cut to the bound and brought into the newest edition (RapidCheck: the
// suite's main asks for 1,000 cases).
RC_GTEST_PROP(EncodingIsCode, GeneratedPlansUpToTheBound, ()) {
  static Differential d;
  const prop::PlanSpec spec = *prop::genPlan(prop::PlanShape{.maxRuns = 5, .maxRunLength = 4});
  const prop::PlanSpec cut = prop::slice(spec, 0, std::min(spec.kernels.size(), kBound));
  Interner interner;
  const GraphExecutionPlan plan =
      intoEdition(prop::buildPlan(cut, interner), interner, kNewestSeedEdition);
  RC_TAG(plan.kernels.size());
  const std::string diff = d.compare(interner, plan);
  RC_ASSERT(diff == "");
}

// A sabotaged encoding differs from the code on some plan of at most 3 nodes of the family, under
// one equality or the other, except `canAppend-ignores-op`: on a valid plan the capsules' ops
// equal the nodes' ops and both equalities compare them, so that sabotage computes the same thing.
TEST(EncodingIsCode, EverySabotageMakesTheComparisonFail) {
  Differential d;
  for (Sabotage s : allSabotages()) {
    std::string found;
    for (const Triple &t : triples()) {
      everyPlan(t, 3, [&](Interner &interner, const GraphExecutionPlan &plan) {
        found = d.compare(interner, plan, s);
        return found.empty();
      });
      if (!found.empty())
        break;
    }
    if (s == Sabotage::canAppendIgnoresOp) {
      EXPECT_EQ(found, "") << spelling(s);
    } else {
      EXPECT_NE(found, "") << spelling(s) << " is not caught";
      std::cout << "sabotage " << spelling(s) << ": " << found << '\n';
    }
  }
}

// The gate comparison can fail: the encoded gate evaluated under `verified` for every preset
// differs from the code's gate under `external` on a plan whose value evidence is a trusted
// boundary (external accepts it, verified does not), while under `verified` itself it agrees.
TEST(EncodingIsCode, AGateUnderAnotherPolicyMakesTheComparisonFail) {
  Differential d;
  const AssurancePolicy verified = AssurancePolicy::verified();
  std::string found;
  std::size_t plans = 0;
  for (const Triple &t : triples()) {
    everyPlan(t, 3, [&](Interner &interner, const GraphExecutionPlan &plan) {
      ++plans;
      found = d.compare(interner, plan, Sabotage::none, &verified);
      return found.empty();
    });
    if (!found.empty())
      break;
  }
  EXPECT_NE(found.find("gate of policy "), std::string::npos) << found;
  EXPECT_EQ(found.find("gate of policy verified"), std::string::npos) << found;
  std::cout << "gate under another policy, after " << plans << " plans: " << found << '\n';
}

// --- the lineage: the acceptance gate (docs/spec.md §6.10, §5.5) --------------------------------

/// A capsule of the lineage's newest edition: claims aligned with `op`, runtime-guard evidence.
KernelCapsule lineageCapsule(BackendOp op) {
  KernelCapsule c;
  c.name = "a";
  c.op = op;
  c.trustLevel = TrustLevel::checked;
  c.vjpMode = VJPMode::torchlean_tape;
  using Tag = ContractClaim::Tag;
  c.shapeContract.claim = ContractClaim{Tag::shapeSafety, op, {}, {}, {}};
  c.layoutContract.claim = ContractClaim{Tag::layoutCompatibility, op, {}, {}, {}};
  c.valueContract.claim = ContractClaim{Tag::valueRefinement, op, {}, {}, {}};
  c.vjpContract.claim = ContractClaim{Tag::vjpRefinement, op, {}, {}, VJPMode::torchlean_tape};
  for (ContractDescriptor *d :
       {&c.shapeContract, &c.layoutContract, &c.valueContract, &c.vjpContract})
    d->evidence = ContractEvidence{EvidenceTag::runtimeGuard, "guard"};
  c.numericalPolicy = NumericalPolicy{};
  c.numericalPolicy.reduction = valuesOf<Reduction>(kNewestEdition).front();
  return c;
}

/// The kernels of the lineage's family: one (op, capsule) per failure kind of the acceptance gate,
/// every capsule of one identity ("a", relu, reference, cpu) but the ones whose identity field is
/// the point, and a sigmoid kernel with relu's capsule (operationMismatch).
std::vector<std::pair<BackendOp, KernelCapsule>> lineageKernels() {
  const KernelCapsule a = lineageCapsule(BackendOp::relu);
  KernelCapsule te = a, misaligned = a, noForward = a, cuda = a, cudnn = a, noVJP = a, boundary = a;
  te.trustLevel = TrustLevel::trusted_external;
  misaligned.shapeContract.claim.op = BackendOp::sigmoid;
  noForward.supportsForward = false;
  cuda.device = Device::cuda;
  cudnn.provider = Provider::cudnn;
  noVJP.vjpMode = VJPMode::none;
  noVJP.vjpContract.claim =
      ContractClaim{ContractClaim::Tag::vjpUnavailable, BackendOp::relu, {}, {}, VJPMode::none};
  boundary.valueContract.evidence = ContractEvidence{EvidenceTag::trustedBoundary, "vendor"};
  std::vector<std::pair<BackendOp, KernelCapsule>> out;
  for (const KernelCapsule &c : {a, te, misaligned, noForward, cuda, cudnn, noVJP, boundary})
    out.emplace_back(BackendOp::relu, c);
  out.emplace_back(BackendOp::sigmoid, a);
  return out;
}

/// Every plan of 0..maxNodes nodes over the lineage's kernels.
template <class F> void everyLineagePlan(std::size_t maxNodes, F visit) {
  const auto kernels = lineageKernels();
  const std::size_t n = kernels.size();
  for (std::size_t len = 0; len <= maxNodes; ++len) {
    std::size_t combinations = 1;
    for (std::size_t i = 0; i < len; ++i)
      combinations *= n;
    for (std::size_t c = 0; c < combinations; ++c) {
      Interner interner;
      GraphExecutionPlan plan;
      std::size_t rest = c;
      for (std::size_t i = 0; i < len; ++i, rest /= n) {
        const auto &[op, capsule] = kernels[rest % n];
        const OpKind kind{op == BackendOp::relu ? KindTag::relu : KindTag::sigmoid, {}};
        plan.kernels.push_back(
            PlannedNodeKernel{kIds[i], interner.intern(kind), op, interner.intern(capsule)});
      }
      if (!visit(interner, plan))
        return;
    }
  }
}

TEST(EncodingIsCode, EveryLineagePlanOfUpToThreeNodesUnderEachKernelPolicy) {
  Differential d(kNewestEdition);
  std::size_t plans = 0;
  const std::size_t maxNodes = lo::testing::instance<std::size_t>(2, 3); // tests/campaign.hpp
  everyLineagePlan(maxNodes, [&](Interner &interner, const GraphExecutionPlan &plan) {
    ++plans;
    const std::string diff = d.compare(interner, plan);
    EXPECT_EQ(diff, "") << "plan of " << plan.kernels.size() << " nodes";
    return diff.empty();
  });
  std::size_t expected = 0;
  for (std::size_t n = 0, words = 1; n <= maxNodes; ++n, words *= lineageKernels().size())
    expected += words;
  EXPECT_EQ(plans, expected);
}

// In the lineage a kernel's op may differ from its capsule's (the gate's operationMismatch), so
// `canAppend-ignores-op` is caught there too: every sabotage is.
TEST(EncodingIsCode, EverySabotageMakesTheLineageComparisonFail) {
  Differential d(kNewestEdition);
  for (Sabotage s : allSabotages()) {
    std::string found;
    everyLineagePlan(2, [&](Interner &interner, const GraphExecutionPlan &plan) {
      found = d.compare(interner, plan, s);
      return found.empty();
    });
    EXPECT_NE(found, "") << spelling(s) << " is not caught";
    std::cout << "lineage sabotage " << spelling(s) << ": " << found << '\n';
  }
}

// The acceptance comparison can fail: the encoded gate evaluated under upstream's checked_cpu
// policy for every policy differs from the code's under another one.
TEST(EncodingIsCode, AcceptanceUnderAnotherPolicyMakesTheComparisonFail) {
  Differential d(kNewestEdition);
  const acceptance::KernelPolicy checkedCpu = acceptance::checkedCpuPolicy();
  std::string found;
  everyLineagePlan(1, [&](Interner &interner, const GraphExecutionPlan &plan) {
    found = d.compare(interner, plan, Sabotage::none, nullptr, &checkedCpu);
    return found.empty();
  });
  EXPECT_NE(found.find("acceptance under "), std::string::npos) << found;
  EXPECT_EQ(found.find("acceptance under auto on cpu"), std::string::npos) << found;
  std::cout << "acceptance under another policy: " << found << '\n';
}

// --- selection (proofs/selection.hpp) -----------------------------------------------------------

/// The encoded `chooseCapsuleFor` over registries of one length, its inputs symbolic: fixed per
/// registry, then per policy, availability and op, by substitution, and simplified to a value.
class SelectionDifferential {
public:
  /// One policy, availability and op, and the values of the symbols that stand for them.
  struct Case {
    acceptance::KernelPolicy policy;
    selection::Availability availability;
    BackendOp op;
    z3::expr_vector values;
  };

  SelectionDifferential(std::size_t n, SelectionSabotage sabotage,
                        const std::vector<acceptance::KernelPolicy> &policies,
                        const std::vector<selection::Availability> &availabilities,
                        const std::vector<BackendOp> &ops = {BackendOp::relu, BackendOp::sigmoid})
      : encoder_(ctx_, kNewestEdition, Equality::contract, Sabotage::none, sabotage),
        policy_(freshKernelPolicy(ctx_)), availability_(freshAvailability(ctx_, "a")),
        op_(ctx_.int_const("op")), choice_{ctx_.bool_val(false), ctx_.int_val(0)}, symbols_(ctx_) {
    for (std::size_t j = 0; j < n; ++j)
      registry_.push_back(encoder_.freshCapsule("c" + std::to_string(j)));
    choice_ = chooseCapsuleFor(encoder_, policy_, availability_, op_, registry_);
    symbolsOf(policy_, availability_, op_, symbols_);
    ask(policies, availabilities, ops);
  }

  /// The cases compared from now on: each policy, availability and op.
  void ask(const std::vector<acceptance::KernelPolicy> &policies,
           const std::vector<selection::Availability> &availabilities,
           const std::vector<BackendOp> &ops) {
    cases_.clear();
    for (const acceptance::KernelPolicy &p : policies)
      for (const selection::Availability &a : availabilities)
        for (BackendOp op : ops) {
          cases_.push_back(Case{p, a, op, z3::expr_vector(ctx_)});
          symbolsOf(constantKernelPolicy(ctx_, p), constantAvailability(ctx_, a),
                    ctx_.int_val(static_cast<int>(op)), cases_.back().values);
        }
  }

  /// "" when the encoded choice is ref/selection.cpp's over `registry` in every case, else the
  /// first difference.
  std::string compare(const std::vector<KernelCapsule> &registry) {
    // First each `contractsAligned` application (the code's value), then every field.
    z3::expr_vector from(ctx_), to(ctx_);
    for (std::size_t j = 0; j < registry.size(); ++j) {
      from.push_back(contractsAligned(registry_[j]));
      to.push_back(ctx_.bool_val(acceptance::contractsAligned(registry[j])));
    }
    Codes codes(kNewestEdition);
    z3::expr_vector fields(ctx_), values(ctx_);
    for (std::size_t j = 0; j < registry.size(); ++j) {
      const std::vector<std::int64_t> v = codes.of(registry[j]);
      const std::vector<const z3::expr *> f = fieldsOf(registry_[j]);
      for (std::size_t i = 0; i < f.size(); ++i) {
        fields.push_back(*f[i]);
        values.push_back(valueOf(ctx_, *f[i], v[i]));
      }
    }
    auto fix = [&](z3::expr x) { return x.substitute(from, to).substitute(fields, values); };
    z3::expr found = fix(choice_.found), index = fix(choice_.index);
    for (Case &c : cases_) {
      const z3::expr f = found.substitute(symbols_, c.values).simplify();
      const z3::expr i = index.substitute(symbols_, c.values).simplify();
      const std::optional<std::size_t> code = selection::chooseCapsuleFor(
          c.policy, c.op, registry, selection::filterCapsules(c.availability, registry));
      const bool agrees =
          f.is_true()
              ? code && i.is_numeral() && i.get_numeral_int64() == static_cast<std::int64_t>(*code)
              : f.is_false() && !code;
      if (!agrees)
        return "registry of " + std::to_string(registry.size()) + ", op " +
               std::string(spelling(c.op)) + ", " +
               acceptance::preferenceSpelling(c.policy.provider) + " on " +
               std::string(spelling(c.policy.device)) + ": encoded " + f.to_string() + " at " +
               i.to_string() + ", code " + (code ? std::to_string(*code) : "none");
    }
    return "";
  }

private:
  static void symbolsOf(const SymbolicKernelPolicy &p, const SymbolicAvailability &a,
                        const z3::expr &op, z3::expr_vector &out) {
    for (const z3::expr *x :
         {&p.device, &p.preference, &p.provider, &p.allowTrustedExternal, &p.vjpMode, &op})
      out.push_back(*x);
    for (const z3::expr &x : a.devices)
      out.push_back(x);
    for (const z3::expr &x : a.providers)
      out.push_back(x);
  }

  z3::context ctx_;
  Encoder encoder_;
  SymbolicKernelPolicy policy_;
  SymbolicAvailability availability_;
  z3::expr op_;
  std::vector<Capsule> registry_;
  Choice choice_;
  z3::expr_vector symbols_;
  std::vector<Case> cases_;
};

/// The capsules registries are made of: relu on `torchlean` and, trusted-external, on `libtorch`
/// (which a preference and an availability tell apart), after the first of the lineage's kernels'
/// capsules (one per acceptance failure), then the others: a sabotage shows early.
std::vector<KernelCapsule> selectionCapsules() {
  const auto kernels = lineageKernels();
  std::vector<KernelCapsule> out{kernels.front().second};
  for (Provider p : {Provider::torchlean, Provider::libtorch}) {
    KernelCapsule c = lineageCapsule(BackendOp::relu);
    c.provider = p;
    out.push_back(c);
  }
  out.back().trustLevel = TrustLevel::trusted_external;
  for (std::size_t i = 1; i < kernels.size(); ++i)
    out.push_back(kernels[i].second);
  return out;
}

/// 32 policies: four preferences, trusted-external code allowed or not, two VJP modes, two
/// devices.
std::vector<acceptance::KernelPolicy> selectionPolicies() {
  using acceptance::ProviderPreference;
  std::vector<acceptance::KernelPolicy> out;
  for (ProviderPreference pref :
       {ProviderPreference::autoPreference(), ProviderPreference::prefer(Provider::torchlean),
        ProviderPreference::prefer(Provider::libtorch),
        ProviderPreference::only(Provider::reference)})
    for (bool external : {false, true})
      for (VJPMode vjp : {VJPMode::none, VJPMode::torchlean_tape})
        for (Device device : {Device::cpu, Device::cuda}) {
          acceptance::KernelPolicy p;
          p.device = device;
          p.provider = pref;
          p.assurance.allowTrustedExternal = external;
          p.vjpMode = vjp;
          out.push_back(p);
        }
  return out;
}

std::vector<selection::Availability> selectionAvailabilities() {
  selection::Availability all = selection::Availability::cuda(true);
  all.providers.push_back(Provider::cudnn);
  return {selection::Availability::cpu(), selection::Availability::cuda(false),
          selection::Availability::cuda(true), all};
}

/// Every registry of 0..maxLength capsules of selectionCapsules(), compared under `sabotage`;
/// the first difference, or "".
std::string compareEveryRegistry(std::size_t maxLength, SelectionSabotage sabotage,
                                 std::size_t *registries = nullptr) {
  const std::vector<KernelCapsule> capsules = selectionCapsules();
  const auto policies = selectionPolicies();
  const auto availabilities = selectionAvailabilities();
  for (std::size_t len = 0; len <= maxLength; ++len) {
    SelectionDifferential d(len, sabotage, policies, availabilities);
    std::size_t combinations = 1;
    for (std::size_t i = 0; i < len; ++i)
      combinations *= capsules.size();
    for (std::size_t c = 0; c < combinations; ++c) {
      std::vector<KernelCapsule> registry;
      for (std::size_t i = 0, rest = c; i < len; ++i, rest /= capsules.size())
        registry.push_back(capsules[rest % capsules.size()]);
      if (registries)
        ++*registries;
      if (std::string diff = d.compare(registry); !diff.empty())
        return diff;
    }
  }
  return "";
}

// The encoded choice is the code's on every registry of up to 2 capsules (3 in the campaign tier)
// over eleven capsules, under 32 policies, four availabilities and two ops.
TEST(EncodingIsCode, SelectionOnEveryRegistryOfUpToTwoCapsules) {
  const std::size_t maxLength = lo::testing::instance<std::size_t>(2, 3); // tests/campaign.hpp
  std::size_t registries = 0;
  EXPECT_EQ(compareEveryRegistry(maxLength, SelectionSabotage::none, &registries), "");
  std::size_t expected = 0;
  for (std::size_t n = 0, words = 1; n <= maxLength; ++n, words *= selectionCapsules().size())
    expected += words;
  EXPECT_EQ(registries, expected);
}

// The cases `diff --planner` draws (tools/plans/selection_cases: registries of several modules,
// each op's capsules refused for each reason, decoys beside a preferred provider): the encoded
// choice of each op of the graph, under the case's policy and availability, is the code's over the
// flattened registry (RapidCheck draws the generator's seed: the suite's main asks for 1,000).
RC_GTEST_PROP(EncodingIsCode, SelectionOnTheCasesDiffDraws, (std::uint64_t seed)) {
  Interner interner;
  plans::Rng rng(seed);
  const plans::SelectionCase c =
      plans::randomSelectionCase(interner, rng, plans::SelectionKnobs{12, kNewestEdition});
  const std::vector<KernelCapsule> registry = selection::flatten(c.profile.capsuleModules);
  std::vector<BackendOp> ops;
  for (const selection::Node &n : c.graph.nodes)
    if (n.op && std::find(ops.begin(), ops.end(), *n.op) == ops.end())
      ops.push_back(*n.op);
  RC_TAG(registry.size());
  // One encoding per registry length, built once (a context and its terms per case cost more
  // than the comparison).
  static std::map<std::size_t, std::unique_ptr<SelectionDifferential>> byLength;
  auto &d = byLength[registry.size()];
  if (!d)
    d = std::make_unique<SelectionDifferential>(registry.size(), SelectionSabotage::none,
                                                std::vector<acceptance::KernelPolicy>{},
                                                std::vector<selection::Availability>{});
  d->ask({c.profile.policy}, {c.profile.availability}, ops);
  const std::string diff = d->compare(registry);
  RC_ASSERT(diff == "");
}

// Each selection sabotage makes the comparison fail on a registry of at most 2 capsules.
TEST(EncodingIsCode, EverySelectionSabotageMakesTheComparisonFail) {
  for (SelectionSabotage s : allSelectionSabotages()) {
    const std::string found = compareEveryRegistry(2, s);
    EXPECT_NE(found, "") << spelling(s) << " is not caught";
    std::cout << "selection sabotage " << spelling(s) << ": " << found << '\n';
  }
}

} // namespace
} // namespace lo::proofs
