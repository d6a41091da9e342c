#include "tools/plans/capsules.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace lo::plans {

namespace {

template <class E> E anyOf(Choices &rng) { return static_cast<E>(rng.below(vocabularySize<E>())); }

/// The values of `E` that each edition has (ref/edition.hpp), computed once.
template <class E> const std::vector<E> &editionValues(Edition edition) {
  static const auto values = [] {
    std::array<std::vector<E>, vocabularySize<Edition>()> v;
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = valuesOf<E>(static_cast<Edition>(i));
    return v;
  }();
  return values[static_cast<std::size_t>(edition)];
}

/// Any of edition `edition`'s values of `E` (in an edition that has them all, as anyOf draws).
template <class E> E anyIn(Choices &rng, Edition edition) {
  return rng.pick(editionValues<E>(edition));
}

/// A trust level other than `trusted-external` (that one comes from the variants): the edition's,
/// `trusted-external` being the vocabulary's last value, which every edition has.
static_assert(static_cast<std::size_t>(TrustLevel::trusted_external) ==
              vocabularySize<TrustLevel>() - 1);
TrustLevel anyTrustBelowExternal(Choices &rng, Edition edition) {
  const std::vector<TrustLevel> &levels = editionValues<TrustLevel>(edition);
  return levels[rng.below(levels.size() - 1)];
}

/// A short string of valid UTF-8 (the readers accept nothing else): ASCII bytes as they come,
/// control characters included, and "é" for any other byte.
std::string drawnText(Choices &rng) {
  std::string out;
  for (std::uint64_t n = rng.below(9); n > 0; --n) {
    const auto c = static_cast<unsigned char>(rng.below(256));
    if (c < 0x80)
      out += static_cast<char>(c);
    else
      out += "\xC3\xA9";
  }
  return out;
}

/// One of `options` (suite) or a drawn string.
std::string pickText(Choices &rng, Vocabulary vocabulary,
                     std::initializer_list<const char *> options) {
  if (vocabulary == Vocabulary::drawn)
    return drawnText(rng);
  return rng.pick(options);
}

ContractEvidence randomEvidence(Choices &rng, Vocabulary vocabulary, Edition edition) {
  ContractEvidence e;
  e.tag = randomEvidenceTag(rng, edition);
  switch (evidenceTextOf(e.tag)) {
  case EvidenceText::reason:
    e.text =
        pickText(rng, vocabulary, {"vendor kernel", "closed-source library", "hardware intrinsic"});
    break;
  case EvidenceText::name:
    e.text = pickText(rng, vocabulary,
                      {"NN.Backend.relu_refines", "shape_ok", "guard.nan", "suite/v2",
                       "fuzz \"oracle\" #3", "théorème"});
    break;
  case EvidenceText::none: break;
  }
  return e;
}

PackedList<ContractProvenance> randomProvenance(Choices &rng, Vocabulary vocabulary,
                                                Edition edition) {
  PackedList<ContractProvenance> out;
  for (std::size_t n = rng.below(3); n > 0; --n) {
    ContractProvenance p;
    p.tag = anyIn<ContractProvenance::Tag>(rng, edition);
    p.path = pickText(rng, vocabulary,
                      {"NN/Backend/Kernels.lean", "csrc/relu.cu", "a path\\with\tescapes"});
    if (p.tag == ContractProvenance::Tag::nativeSymbol) {
      p.symbol = pickText(rng, vocabulary, {"lo_relu_f32", "_ZN2at6native4reluE"});
      if (rng.chance(1, 2))
        p.buildTarget = "//kernels:cuda";
    }
    out.push_back(p);
  }
  return out;
}

ContractDescriptor descriptor(Choices &rng, ContractClaim::Tag tag, BackendOp op, VJPMode mode,
                              Vocabulary vocabulary, Edition edition) {
  ContractDescriptor d;
  d.claim.tag = tag;
  d.claim.op = op;
  if (tag == ContractClaim::Tag::layoutCompatibility)
    d.claim.layout = anyOf<TensorLayout>(rng);
  if ((tag == ContractClaim::Tag::valueRefinement || tag == ContractClaim::Tag::vjpRefinement) &&
      claimsHaveSpec(edition))
    d.claim.spec = std::string(spelling(op)) + (rng.chance(1, 2) ? ".spec" : ".spec_v2");
  if (tag == ContractClaim::Tag::vjpRefinement) // "vjpRefinement only": no other claim writes it
    d.claim.mode = mode;
  d.summary =
      pickText(rng, vocabulary, {"", "refines the reference", "checked at runtime", "line\nbreak"});
  d.evidence = randomEvidence(rng, vocabulary, edition);
  d.provenance = randomProvenance(rng, vocabulary, edition);
  return d;
}

/// The claim of a capsule's VJP contract: `vjpRefinement`, or in an edition that has it, one time
/// in three `vjpUnavailable` ("vjpUnavailable op", Capsule.lean at be55ea0).
ContractClaim::Tag vjpClaimTag(Choices &rng, Edition edition) {
  using T = ContractClaim::Tag;
  return inEdition(T::vjpUnavailable, edition) && rng.chance(1, 3) ? T::vjpUnavailable
                                                                   : T::vjpRefinement;
}

} // namespace

EvidenceTag randomEvidenceTag(Choices &rng, Edition edition) {
  return anyIn<EvidenceTag>(rng, edition);
}

KernelCapsule inEditionValues(KernelCapsule c, Edition edition) {
  if (hasSeedCapsule(edition))
    return c;
  using E = ContractEvidence::Tag;
  if (!inEdition(c.trustLevel, edition))
    c.trustLevel = TrustLevel::checked;
  if (!inEdition(c.provider, edition)) // native-cuda, gone at 3447b74
    c.provider = Provider::torchlean;
  for (auto *d : {&c.shapeContract, &c.layoutContract, &c.valueContract, &c.vjpContract}) {
    if (d->evidence.tag == E::fuzzOracle)
      d->evidence.tag = E::testSuite;
    else if (d->evidence.tag == E::notProvided)
      d->evidence = {E::testSuite, "suite/v1"};
    PackedList<ContractProvenance> provenance;
    for (ContractProvenance p : d->provenance)
      provenance.push_back(
          inEdition(p.tag, edition)
              ? p
              : ContractProvenance{ContractProvenance::Tag::nativeSymbol, p.path, "lo_kernel", {}});
    d->provenance = std::move(provenance);
  }
  ContractClaim &vjp = c.vjpContract.claim;
  if (c.vjpMode == VJPMode::none && vjp.tag == ContractClaim::Tag::vjpRefinement &&
      vjp.mode == VJPMode::none)
    c.vjpMode = vjp.mode = VJPMode::torchlean_tape;
  const Reduction reduction = c.numericalPolicy.reduction;
  c.numericalPolicy = {};
  c.numericalPolicy.reduction = inEdition(reduction, edition) ? reduction : Reduction::fixed_left;
  c.notes.clear();
  return c;
}

KernelCapsule randomCapsule(Choices &rng, BackendOp op, Vocabulary vocabulary, Edition edition) {
  KernelCapsule c;
  c.op = op;
  c.provider = anyIn<Provider>(rng, edition);
  c.device = anyIn<Device>(rng, edition);
  c.name = vocabulary == Vocabulary::drawn
               ? "k" + std::to_string(rng.below(3))
               : std::string(spelling(op)) + "." + std::string(spelling(c.provider));
  c.trustLevel = anyTrustBelowExternal(rng, edition);
  c.supportsForward = !rng.chance(1, 8);
  c.vjpMode = anyOf<VJPMode>(rng);
  using T = ContractClaim::Tag;
  c.shapeContract = descriptor(rng, T::shapeSafety, op, c.vjpMode, vocabulary, edition);
  c.layoutContract = descriptor(rng, T::layoutCompatibility, op, c.vjpMode, vocabulary, edition);
  c.valueContract = descriptor(rng, T::valueRefinement, op, c.vjpMode, vocabulary, edition);
  c.vjpContract = descriptor(rng, vjpClaimTag(rng, edition), op, c.vjpMode, vocabulary, edition);
  if (!hasSeedCapsule(edition)) { // the lineage's policy is `{reduction}`, and there are no notes
    c.numericalPolicy.reduction = anyIn<Reduction>(rng, edition);
    return c;
  }
  c.numericalPolicy = {anyOf<Rounding>(rng), anyOf<Subnormals>(rng), anyOf<Contraction>(rng),
                       anyIn<Reduction>(rng, edition)};
  c.notes = rng.chance(1, 2)
                ? ""
                : pickText(rng, vocabulary, {"fast path", "uses tensor cores", "ünïcode"});
  return c;
}

namespace {

/// Another of edition `edition`'s values of `E` than `value` (`value` itself when it has no other).
template <class E> E otherThan(Choices &rng, E value, Edition edition) {
  const std::vector<E> &values = editionValues<E>(edition);
  const auto at = std::find(values.begin(), values.end(), value);
  if (at == values.end()) // not one of the edition's: any of them
    return rng.pick(values);
  if (values.size() < 2)
    return value;
  const auto i = static_cast<std::size_t>(at - values.begin());
  return values[(i + 1 + rng.below(values.size() - 1)) % values.size()];
}

} // namespace

KernelCapsule nearCollision(Choices &rng, const KernelCapsule &c, Collision collision,
                            Vocabulary vocabulary, Edition edition) {
  KernelCapsule v = c;
  switch (collision) {
  case Collision::trustedExternal: // the case the audit must not hide
    v.trustLevel = TrustLevel::trusted_external;
    v.valueContract.evidence = {ContractEvidence::Tag::trustedBoundary, "vendor kernel"};
    break;
  case Collision::trustLevel: v.trustLevel = otherThan(rng, c.trustLevel, edition); break;
  case Collision::evidence:
    v.valueContract.evidence = randomEvidence(rng, vocabulary, edition);
    break;
  case Collision::provenance:
    v.shapeContract.provenance.push_back(
        inEdition(ContractProvenance::Tag::note, edition)
            ? ContractProvenance{ContractProvenance::Tag::note, "variant", "", {}}
            : ContractProvenance{
                  ContractProvenance::Tag::nativeSymbol, "variant.cu", "lo_variant", {}});
    break;
  case Collision::vjpMode: v.vjpMode = otherThan(rng, c.vjpMode, edition); break;
  case Collision::numericalPolicy:
    if (hasSeedCapsule(edition))
      v.numericalPolicy.rounding = otherThan(rng, c.numericalPolicy.rounding, edition);
    else
      v.numericalPolicy.reduction = otherThan(rng, c.numericalPolicy.reduction, edition);
    break;
  case Collision::notes:
    if (hasSeedCapsule(edition))
      v.notes = c.notes + " (variant)";
    else
      v.layoutContract.summary = c.layoutContract.summary + " (variant)";
    break;
  case Collision::provider: v.provider = otherThan(rng, c.provider, edition); break;
  case Collision::device: v.device = otherThan(rng, c.device, edition); break;
  }
  if (v == c) // a near-collision always differs (a field may have been drawn equal)
    v.supportsForward = !c.supportsForward;
  return v;
}

KernelCapsule variant(Choices &rng, const KernelCapsule &c, Vocabulary vocabulary,
                      Edition edition) {
  // Ten draws: the trusted-external collision twice, each other once, in Collision's order.
  const std::uint64_t draw = rng.below(10);
  const auto collision = static_cast<Collision>(draw < 2 ? 0 : draw - 1);
  return nearCollision(rng, c, collision, vocabulary, edition);
}

} // namespace lo::plans
