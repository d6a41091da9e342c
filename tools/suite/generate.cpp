#include "tools/suite/generate.hpp"

#include "ref/capsule.hpp"
#include "ref/io/writer.hpp"
#include "tools/suite/spelling.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <stdexcept>
#include <unordered_set>

namespace lo::gen {

// --- the generator ----------------------------------------------------------------------------

std::uint64_t Rng::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t Rng::below(std::uint64_t n) {
  if (n == 0) // no value lies in [0, 0): a caller's bug, never a division by zero
    throw std::logic_error("Rng::below(0): the range is empty");
  // Reject the top (2^64 mod n) values so that every residue is equally likely.
  const std::uint64_t threshold = (0 - n) % n;
  for (;;) {
    const std::uint64_t r = next();
    if (r >= threshold)
      return r % n;
  }
}

namespace {

template <class E> E anyOf(Rng &rng) { return static_cast<E>(rng.below(vocabularySize<E>())); }

std::uint64_t between(Rng &rng, std::uint64_t lo, std::uint64_t hi) {
  return lo + rng.below(hi - lo + 1);
}

// --- kinds --------------------------------------------------------------------------------------

/// The kinds that are planned ("`-`: no runtime work, never planned" excludes the others).
std::vector<KindTag> plannedKinds() {
  std::vector<KindTag> out;
  for (std::size_t i = 0; i < vocabularySize<KindTag>(); ++i)
    if (signature(static_cast<KindTag>(i)).op)
      out.push_back(static_cast<KindTag>(i));
  return out;
}

const std::vector<KindTag> &kindsOf(BackendOp op) {
  static const auto table = [] {
    std::array<std::vector<KindTag>, vocabularySize<BackendOp>()> t;
    for (KindTag k : plannedKinds())
      t[static_cast<std::size_t>(*signature(k).op)].push_back(k);
    return t;
  }();
  return table[static_cast<std::size_t>(op)];
}

/// The ops some kind maps to (only these can appear in a valid plan).
const std::vector<BackendOp> &plannedOps() {
  static const auto ops = [] {
    std::vector<BackendOp> out;
    for (std::size_t i = 0; i < vocabularySize<BackendOp>(); ++i)
      if (!kindsOf(static_cast<BackendOp>(i)).empty())
        out.push_back(static_cast<BackendOp>(i));
    return out;
  }();
  return ops;
}

std::vector<std::uint64_t> shape(Rng &rng, std::size_t minRank = 0) {
  std::vector<std::uint64_t> s(between(rng, minRank, 4));
  for (auto &d : s)
    d = between(rng, 1, 8);
  return s;
}

/// Parameters that make sense for the kind: a permutation for `perm`, shapes that broadcast for
/// `broadcastTo`, shapes of equal size for `reshape`, small positive window sizes.
OpKind randomKind(Rng &rng, KindTag tag) {
  OpKind k{tag, {}};
  const auto nat = [&](std::uint64_t lo, std::uint64_t hi) {
    k.params.push_back({between(rng, lo, hi)});
  };
  using K = KindTag;
  switch (tag) {
  case K::permute: {
    std::vector<std::uint64_t> perm(between(rng, 1, 4));
    for (std::size_t i = 0; i < perm.size(); ++i)
      perm[i] = i;
    for (std::size_t i = perm.size(); i > 1; --i) // Fisher-Yates with the portable generator
      std::swap(perm[i - 1], perm[rng.below(i)]);
    k.params.push_back(std::move(perm));
    break;
  }
  case K::rand_uniform:
  case K::bernoulli_mask:
    // Mostly small seeds, sometimes one near the top of the naturals an implementation must keep.
    k.params.push_back({rng.chance(1, 8) ? (std::uint64_t{1} << 63) - rng.below(1000)
                                         : rng.below(std::uint64_t{1} << 32)});
    break;
  case K::max_pool2d:
  case K::avg_pool2d:
  case K::max_pool2d_pad:
  case K::avg_pool2d_pad:
    nat(1, 5);
    nat(1, 5);
    nat(1, 3);
    if (tag == K::max_pool2d_pad || tag == K::avg_pool2d_pad)
      nat(0, 2);
    break;
  case K::broadcastTo: {
    std::vector<std::uint64_t> s2 = shape(rng, 1);
    std::vector<std::uint64_t> s1(s2.begin() + static_cast<std::ptrdiff_t>(rng.below(s2.size())),
                                  s2.end());
    for (auto &d : s1)
      if (rng.chance(1, 3))
        d = 1;
    k.params.push_back(std::move(s1));
    k.params.push_back(std::move(s2));
    break;
  }
  case K::reduce_sum:
  case K::reduce_mean:
  case K::softmax:
  case K::layernorm:
  case K::concat: nat(0, 3); break;
  case K::conv2d:
    nat(1, 64);
    nat(1, 64);
    nat(1, 7);
    nat(1, 7);
    nat(1, 2);
    nat(0, 3);
    break;
  case K::batch_norm2d_nchw_eval: nat(1, 256); break;
  case K::reshape: {
    std::vector<std::uint64_t> in = shape(rng), out;
    for (std::size_t i = 0; i < in.size(); ++i) // merge adjacent dimensions: same element count
      if (!out.empty() && rng.chance(1, 2))
        out.back() *= in[i];
      else
        out.push_back(in[i]);
    k.params.push_back(std::move(in));
    k.params.push_back(std::move(out));
    break;
  }
  case K::flatten: k.params.push_back(shape(rng)); break;
  default:
    for (std::size_t i = 0; i < signature(tag).params.size(); ++i)
      k.params.push_back({rng.below(8)});
  }
  return k;
}

// --- capsules -----------------------------------------------------------------------------------

std::string pickText(Rng &rng, std::initializer_list<const char *> options) {
  return *(options.begin() + rng.below(options.size()));
}

ContractEvidence randomEvidence(Rng &rng) {
  ContractEvidence e;
  e.tag = static_cast<ContractEvidence::Tag>(rng.below(7));
  if (e.tag == ContractEvidence::Tag::trustedBoundary)
    e.text = pickText(rng, {"vendor kernel", "closed-source library", "hardware intrinsic"});
  else if (e.tag != ContractEvidence::Tag::notProvided)
    e.text = pickText(rng, {"NN.Backend.relu_refines", "shape_ok", "guard.nan", "suite/v2",
                            "fuzz \"oracle\" #3", "théorème"});
  return e;
}

std::vector<ContractProvenance> randomProvenance(Rng &rng) {
  std::vector<ContractProvenance> out(rng.below(3));
  for (auto &p : out) {
    p.tag = static_cast<ContractProvenance::Tag>(rng.below(3));
    p.path = pickText(rng, {"NN/Backend/Kernels.lean", "csrc/relu.cu", "a path\\with\tescapes"});
    if (p.tag == ContractProvenance::Tag::nativeSymbol) {
      p.symbol = pickText(rng, {"lo_relu_f32", "_ZN2at6native4reluE"});
      if (rng.chance(1, 2))
        p.buildTarget = "//kernels:cuda";
    }
  }
  return out;
}

ContractDescriptor descriptor(Rng &rng, ContractClaim::Tag tag, BackendOp op, VJPMode mode) {
  ContractDescriptor d;
  d.claim.tag = tag;
  d.claim.op = op;
  if (tag == ContractClaim::Tag::layoutCompatibility)
    d.claim.layout = anyOf<TensorLayout>(rng);
  if (tag == ContractClaim::Tag::valueRefinement || tag == ContractClaim::Tag::vjpRefinement)
    d.claim.spec = std::string(spelling(op)) + (rng.chance(1, 2) ? ".spec" : ".spec_v2");
  d.claim.mode = mode;
  d.summary = pickText(rng, {"", "refines the reference", "checked at runtime", "line\nbreak"});
  d.evidence = randomEvidence(rng);
  d.provenance = randomProvenance(rng);
  return d;
}

KernelCapsule randomCapsule(Rng &rng, BackendOp op) {
  KernelCapsule c;
  c.op = op;
  c.provider = anyOf<Provider>(rng);
  c.device = anyOf<Device>(rng);
  c.name = std::string(spelling(op)) + "." + std::string(spelling(c.provider));
  c.trustLevel = static_cast<TrustLevel>(rng.below(3)); // trusted-external comes from variants
  c.supportsForward = !rng.chance(1, 8);
  c.vjpMode = anyOf<VJPMode>(rng);
  using T = ContractClaim::Tag;
  c.shapeContract = descriptor(rng, T::shapeSafety, op, c.vjpMode);
  c.layoutContract = descriptor(rng, T::layoutCompatibility, op, c.vjpMode);
  c.valueContract = descriptor(rng, T::valueRefinement, op, c.vjpMode);
  c.vjpContract = descriptor(rng, T::vjpRefinement, op, c.vjpMode);
  c.numericalPolicy = {anyOf<Rounding>(rng), anyOf<Subnormals>(rng), anyOf<Contraction>(rng),
                       anyOf<Reduction>(rng)};
  c.notes = rng.chance(1, 2) ? "" : pickText(rng, {"fast path", "uses tensor cores", "ünïcode"});
  return c;
}

template <class E> E otherThan(Rng &rng, E value) {
  return static_cast<E>((static_cast<std::size_t>(value) + 1 + rng.below(vocabularySize<E>() - 1)) %
                        vocabularySize<E>());
}

/// A near-collision of `c`: the same record but for one field. Most variants keep the capsule's
/// identity (name, op, provider, device), so only the equality `contract` tells them apart; the
/// last two keep the name but change the identity, so their written keys collide (`#2`).
KernelCapsule variant(Rng &rng, const KernelCapsule &c) {
  KernelCapsule v = c;
  switch (rng.below(10)) {
  case 0:
  case 1: // the case the audit must not hide: a trusted-external capsule of the same identity
    v.trustLevel = TrustLevel::trusted_external;
    v.valueContract.evidence = {ContractEvidence::Tag::trustedBoundary, "vendor kernel"};
    break;
  case 2: v.trustLevel = otherThan(rng, c.trustLevel); break;
  case 3: v.valueContract.evidence = randomEvidence(rng); break;
  case 4:
    v.shapeContract.provenance.push_back({ContractProvenance::Tag::note, "variant", "", {}});
    break;
  case 5: v.vjpMode = otherThan(rng, c.vjpMode); break;
  case 6: v.numericalPolicy.rounding = otherThan(rng, c.numericalPolicy.rounding); break;
  case 7: v.notes = c.notes + " (variant)"; break;
  case 8: v.provider = otherThan(rng, c.provider); break;
  default: v.device = otherThan(rng, c.device); break;
  }
  if (v == c) // a variant always differs (a field may have been drawn equal)
    v.supportsForward = !c.supportsForward;
  return v;
}

// --- node ids -----------------------------------------------------------------------------------

/// Unique ids below 2^63: consecutive, spaced, near the top of the range, or shuffled.
std::vector<NodeId> nodeIds(Rng &rng, std::size_t n) {
  std::vector<NodeId> ids(n);
  switch (rng.below(4)) {
  case 0:
    for (std::size_t i = 0; i < n; ++i)
      ids[i] = i + 1;
    break;
  case 1: {
    NodeId next = rng.below(4);
    for (auto &id : ids)
      id = next += between(rng, 1, 1000);
    break;
  }
  case 2:
    for (std::size_t i = 0; i < n; ++i)
      ids[i] = kNodeIdLimit - 1 - (n - 1 - i);
    break;
  default: {
    std::unordered_set<NodeId> seen;
    for (auto &id : ids)
      do
        id = rng.below(kNodeIdLimit);
      while (!seen.insert(id).second);
  }
  }
  return ids;
}

// --- random cases -------------------------------------------------------------------------------

/// Runs of geometric length over a few ops, each op with a small pool of capsules that are
/// near-collisions of one another.
Case randomCase(Interner &interner, Rng &rng, std::size_t maxNodes) {
  Case c{"random", {}, {}};
  const std::uint64_t e = rng.below(8);
  c.encoding.placement = e < 5 ? Placement::table : e < 7 ? Placement::inline_ : Placement::mixed;
  const std::size_t n = rng.chance(1, 8) ? rng.below(std::min<std::size_t>(maxNodes, 2) + 1)
                                         : rng.below(maxNodes + 1);

  struct OpPool {
    BackendOp op;
    std::vector<CapsuleId> capsules;
  };
  std::vector<OpPool> pools(between(rng, 1, 3));
  for (auto &pool : pools) {
    pool.op = rng.pick(plannedOps());
    std::vector<KernelCapsule> made;
    for (std::uint64_t b = between(rng, 1, 2); b > 0; --b)
      made.push_back(randomCapsule(rng, pool.op));
    for (std::uint64_t v = rng.below(4); v > 0; --v)
      made.push_back(variant(rng, rng.pick(made)));
    for (auto &capsule : made)
      pool.capsules.push_back(interner.intern(std::move(capsule)));
  }

  const std::vector<NodeId> ids = nodeIds(rng, n);
  std::size_t poolIndex = 0;
  std::optional<CapsuleId> capsule;
  std::optional<OpKind> kind;
  while (c.plan.kernels.size() < n) {
    // A new run: often the same op as the last one, so that runs meet at capsule boundaries.
    if (!capsule || rng.chance(1, 2))
      poolIndex = rng.below(pools.size());
    const OpPool &pool = pools[poolIndex];
    capsule = rng.pick(pool.capsules);
    if (!kind || opOf(*kind) != pool.op || rng.chance(1, 3))
      kind = randomKind(rng, rng.pick(kindsOf(pool.op)));
    std::size_t length = 1;
    while (rng.chance(2, 3))
      ++length;
    for (; length > 0 && c.plan.kernels.size() < n; --length) {
      if (rng.chance(1, 10)) // another kind of the same op within a run
        kind = randomKind(rng, rng.pick(kindsOf(pool.op)));
      c.plan.kernels.push_back(
          {ids[c.plan.kernels.size()], interner.intern(*kind), pool.op, *capsule});
    }
  }
  return c;
}

// --- hand-picked cases --------------------------------------------------------------------------

KernelCapsule fixedCapsule(BackendOp op, std::string name, Provider provider, Device device,
                           TrustLevel trust) {
  KernelCapsule c = sampleCapsule(std::move(name), op, trust, provider, device);
  using T = ContractClaim::Tag;
  c.shapeContract = {{T::shapeSafety, op, {}, "", {}},
                     "shape checked",
                     {ContractEvidence::Tag::checker, "shape_ok"},
                     {}};
  c.layoutContract = {{T::layoutCompatibility, op, TensorLayout::flat_row_major, "", {}},
                      "row-major buffers",
                      {ContractEvidence::Tag::runtimeGuard, "layout_guard"},
                      {}};
  c.valueContract = {{T::valueRefinement, op, {}, std::string(spelling(op)) + ".spec", {}},
                     "refines the reference",
                     {ContractEvidence::Tag::testSuite, "suite/v1"},
                     {{ContractProvenance::Tag::sourceFile, "csrc/kernels.cu", "", {}}}};
  c.vjpContract = {{T::vjpRefinement, op, {}, std::string(spelling(op)) + ".vjp", VJPMode::none},
                   "",
                   {ContractEvidence::Tag::notProvided, ""},
                   {}};
  return c;
}

KernelCapsule checkedRelu() {
  return fixedCapsule(BackendOp::relu, "relu.cudnn", Provider::cudnn, Device::cuda,
                      TrustLevel::checked);
}

/// `relu.cudnn` as a trusted-external capsule: same identity, another trust level and evidence.
KernelCapsule trustedRelu() {
  KernelCapsule c = checkedRelu();
  c.trustLevel = TrustLevel::trusted_external;
  c.valueContract.evidence = {ContractEvidence::Tag::trustedBoundary, "vendor kernel"};
  return c;
}

struct Builder {
  Interner &interner;
  Case c;
  NodeId nextId = 1;
  void add(const OpKind &kind, const KernelCapsule &capsule) {
    c.plan.kernels.push_back(
        {nextId++, interner.intern(kind), *opOf(kind), interner.intern(capsule)});
  }
  void add(KindTag bare, const KernelCapsule &capsule) { add(OpKind{bare, {}}, capsule); }
};

using EdgeCase = Case (*)(Interner &);

Case makeEdge(Interner &interner, const char *name, Placement placement, void (*fill)(Builder &)) {
  Builder b{interner, Case{name, {}, {placement, {}}}};
  fill(b);
  return std::move(b.c);
}

#define LO_EDGE(slug, placement, ...)                                                              \
  [](Interner &in) { return makeEdge(in, slug, placement, [](Builder & b) __VA_ARGS__); }

const EdgeCase kEdgeCases[] = {
    LO_EDGE("empty-plan", Placement::table, { (void)b; }),
    LO_EDGE("one-node", Placement::table, { b.add(KindTag::relu, checkedRelu()); }),
    LO_EDGE("long-run", Placement::table,
            {
              for (int i = 0; i < 64; ++i)
                b.add(KindTag::relu, checkedRelu());
            }),
    // "a trusted-external capsule inside a run of checked ones"
    LO_EDGE("trusted-external-in-checked-run", Placement::table,
            {
              for (int i = 0; i < 7; ++i)
                b.add(KindTag::relu, i == 3 ? trustedRelu() : checkedRelu());
            }),
    LO_EDGE("alternating-capsules", Placement::table,
            {
              KernelCapsule other = fixedCapsule(BackendOp::relu, "relu.aten", Provider::aten,
                                                 Device::cpu, TrustLevel::verified);
              for (int i = 0; i < 8; ++i)
                b.add(KindTag::relu, i % 2 ? other : checkedRelu());
            }),
    // "identity-equal but contract-different neighbours": each differs from the first in one
    // field the identity does not look at.
    LO_EDGE("identity-equal-contract-different", Placement::table,
            {
              const KernelCapsule base = checkedRelu();
              b.add(KindTag::relu, base);
              KernelCapsule v = base;
              v.valueContract.evidence = {ContractEvidence::Tag::fuzzOracle, "fuzz/relu"};
              b.add(KindTag::relu, v);
              v = base;
              v.vjpMode = VJPMode::backend_vjp;
              b.add(KindTag::relu, v);
              v = base;
              v.numericalPolicy.contraction = Contraction::fused;
              b.add(KindTag::relu, v);
              v = base;
              v.notes = "notes differ";
              b.add(KindTag::relu, v);
              v = base;
              v.supportsForward = false;
              b.add(KindTag::relu, v);
              b.add(KindTag::relu, base);
            }),
    // Same name, other identity: the written keys are `relu.cudnn` and `relu.cudnn#2`.
    LO_EDGE("same-name-other-provider", Placement::table,
            {
              KernelCapsule v = checkedRelu();
              v.provider = Provider::libtorch;
              b.add(KindTag::relu, checkedRelu());
              b.add(KindTag::relu, v);
              b.add(KindTag::relu, checkedRelu());
            }),
    // "every kind with parameters", twice each so that equal neighbours coalesce, inline capsules
    LO_EDGE("every-kind-inline", Placement::inline_,
            {
              Rng rng(0x5eed);
              for (KindTag tag : plannedKinds()) {
                const OpKind kind = randomKind(rng, tag);
                const BackendOp op = *signature(tag).op;
                const KernelCapsule capsule =
                    fixedCapsule(op, std::string(spelling(op)) + ".ref", Provider::reference,
                                 Device::cpu, TrustLevel::verified);
                b.add(kind, capsule);
                b.add(kind, capsule);
              }
            }),
    LO_EDGE("every-kind-table", Placement::table,
            {
              Rng rng(0x7ab1e);
              for (KindTag tag : plannedKinds()) {
                const BackendOp op = *signature(tag).op;
                b.add(randomKind(rng, tag),
                      fixedCapsule(op, std::string(spelling(op)) + ".xla", Provider::xla,
                                   Device::tpu, TrustLevel::fuzzed));
              }
            }),
    // Kinds of one op with other parameters still share a group (canAppend looks at op and
    // capsule).
    LO_EDGE("same-op-different-kinds", Placement::mixed,
            {
              const KernelCapsule pool =
                  fixedCapsule(BackendOp::max_pool, "max_pool.cudnn", Provider::cudnn, Device::cuda,
                               TrustLevel::checked);
              b.add(OpKind{KindTag::max_pool2d, {{2}, {2}, {2}}}, pool);
              b.add(OpKind{KindTag::max_pool2d_pad, {{3}, {3}, {1}, {1}}}, pool);
              b.add(OpKind{KindTag::max_pool2d, {{2}, {2}, {1}}}, pool);
              b.add(KindTag::relu, checkedRelu());
              b.add(OpKind{KindTag::max_pool2d, {{2}, {2}, {2}}}, pool);
            }),
    LO_EDGE("extreme-node-ids", Placement::table,
            {
              const NodeId ids[] = {kNodeIdLimit - 1, 0, 42, kNodeIdLimit - 2};
              for (NodeId id : ids) {
                b.nextId = id;
                b.add(KindTag::relu, checkedRelu());
              }
            }),
    // The gate's identity trap (docs/spec.md §6.7): two nodes of one identity, the first with
    // evidence `checked` accepts (nothing missing, no trusted boundary), the second with
    // trustedBoundary value evidence. `verified` rejects both lowerings (guard, test and fuzz
    // evidence), `checked` rejects the contract lowerings and accepts the identity one,
    // `external` accepts.
    LO_EDGE("gate-identity-trap", Placement::table,
            {
              KernelCapsule evidenced = checkedRelu();
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

Case caseAt(Interner &interner, const Settings &settings, std::size_t index) {
  if (index < edgeCaseCount()) {
    // The hand-picked plans do not depend on the seed, nor do their spellings: the first two are
    // written as the reference writer writes them, the others spelled from their index.
    Case c = kEdgeCases[index](interner);
    if (index >= 2)
      c.encoding.spelling = Rng(0x5be11ed ^ index).next();
    return c;
  }
  // One generator per case, seeded from (seed, index) through one SplitMix64 step.
  Rng seeder(settings.seed ^ (0xd1b54a32d192ed03ULL * (index + 1)));
  Rng rng(seeder.next());
  Case c = randomCase(interner, rng, settings.maxNodes);
  // The spellings come from a generator of their own, so that they leave the plan as it was. One
  // plan in five keeps the reference writer's text; the others draw their spellings.
  Rng spelling(seeder.next());
  if (!spelling.chance(1, 5))
    c.encoding.spelling = spelling.next();
  return c;
}

std::string caseLabel(std::size_t index, const Case &c) {
  char digits[24];
  std::snprintf(digits, sizeof digits, "%04zu-", index);
  return digits + c.name;
}

std::string planJson(const Interner &interner, const GraphExecutionPlan &plan, Encoding encoding) {
  if (encoding.spelling)
    return spelledPlanJson(interner, plan, encoding.placement, *encoding.spelling);
  std::string text;
  io::Sink out(text);
  if (encoding.placement == Placement::table) {
    io::writeExecutionPlan(out, interner, plan);
    return text;
  }
  // Inline (or alternately inline and by key): only the capsules used by key go to the table.
  const auto byKey = [&](std::size_t i) {
    return encoding.placement == Placement::mixed && i % 2 == 1;
  };
  std::vector<CapsuleId> keyed;
  for (std::size_t i = 0; i < plan.kernels.size(); ++i)
    if (byKey(i))
      keyed.push_back(plan.kernels[i].capsule);
  io::CapsuleKeys keys(interner, keyed);
  out << "{\n  \"format\": \"nn-backend/graph-execution-plan\",\n  \"version\": 1,\n";
  if (!keyed.empty()) {
    io::writeCapsuleTable(out, interner, keys);
    out << ",\n";
  }
  out << "  \"kernels\": [";
  for (std::size_t i = 0; i < plan.kernels.size(); ++i) {
    const auto &k = plan.kernels[i];
    out << (i ? ",\n    " : "\n    ");
    io::writeKernel(out, interner, k, byKey(i) ? &keys.key(k.capsule) : nullptr);
  }
  out << (plan.kernels.empty() ? "]\n}\n" : "\n  ]\n}\n");
  out.flush();
  return text;
}

} // namespace lo::gen
