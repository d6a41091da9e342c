// KernelCapsule and its contract descriptors (docs/spec.md §2.2): a capsule records the op it
// implements, who provides it, where it runs, how far it is trusted, and four contract descriptors
// whose evidence is kept as data.
#pragma once

#include "ref/edition.hpp"
#include "ref/packed_list.hpp"
#include "ref/record.hpp"
#include "ref/vocab.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace lo {

/// A structured backend obligation: `shapeSafety op` | `layoutCompatibility op layout` |
/// `valueRefinement op spec` | `vjpRefinement op spec mode` (edition 2026-07); from 2026-08
/// `valueRefinement op` | `vjpRefinement op mode` | `vjpUnavailable op` (docs/spec.md §1.6).
struct ContractClaim {
  using Tag = ClaimTag;
  Tag tag = Tag::shapeSafety;
  BackendOp op = BackendOp::relu;
  TensorLayout layout = TensorLayout::canonical_tensor; // layoutCompatibility only
  std::optional<std::string> spec; // valueRefinement, vjpRefinement, edition 2026-07 only
  VJPMode mode = VJPMode::none;    // vjpRefinement only
  bool operator==(const ContractClaim &) const; // contract equality, from the table below
};

/// How a capsule justifies one part of its contract: `theorem name` | `checker name` (edition
/// 2026-07) | `runtimeGuard name` | `testSuite name` | `fuzzOracle name` | `trustedBoundary reason`
/// | `notProvided` | `notApplicable` (edition 2026-08). `text` holds the name (or the reason),
/// empty for `notProvided` and `notApplicable`.
struct ContractEvidence {
  using Tag = EvidenceTag;
  Tag tag = Tag::notProvided;
  std::string text;
  bool operator==(const ContractEvidence &) const; // contract equality, from the table below
};

/// The text field an evidence tag carries (docs/spec.md §2.2): `reason` for trustedBoundary, none
/// for notProvided and notApplicable, `name` for every other tag.
enum class EvidenceText : std::uint8_t { none, name, reason };
EvidenceText evidenceTextOf(EvidenceTag tag);

/// Source-level provenance of a contract: `sourceFile path` | `nativeSymbol path symbol
/// buildTarget?` | `note text`. For `note`, `path` holds the text.
struct ContractProvenance {
  using Tag = ProvenanceTag;
  Tag tag = Tag::sourceFile;
  std::string path; // sourceFile.path, nativeSymbol.path, note.text
  std::string symbol;
  std::optional<std::string> buildTarget;
  bool operator==(const ContractProvenance &) const; // contract equality, from the table below
};

/// A contract descriptor: a claim, its evidence and notes (docs/spec.md §2.2).
struct ContractDescriptor {
  ContractClaim claim;
  std::string summary;
  ContractEvidence evidence;
  PackedList<ContractProvenance> provenance;         // default []
  bool operator==(const ContractDescriptor &) const; // contract equality, from the table below
};

/// `numericalPolicy {rounding, subnormals, contraction, reduction}`, each default "unspecified".
struct NumericalPolicy {
  Rounding rounding = Rounding::unspecified;
  Subnormals subnormals = Subnormals::unspecified;
  Contraction contraction = Contraction::unspecified;
  Reduction reduction = Reduction::unspecified;
  bool operator==(const NumericalPolicy &) const; // contract equality, from the table below
};

/// A capsule (docs/spec.md §2.2).
struct KernelCapsule {
  std::string name;
  BackendOp op = BackendOp::relu;
  Provider provider = Provider::reference;
  Device device = Device::cpu;
  TrustLevel trustLevel = TrustLevel::verified;
  bool supportsForward = true;
  VJPMode vjpMode = VJPMode::none;
  ContractDescriptor shapeContract;
  ContractDescriptor layoutContract;
  ContractDescriptor valueContract;
  ContractDescriptor vjpContract;
  NumericalPolicy numericalPolicy;
  std::string notes;

  /// Equality `contract` (docs/spec.md §1.3): every field of the table below that takes part in it.
  bool operator==(const KernelCapsule &) const;
};

// --- The tables of the records (ref/record.hpp) ------------------------------------------------

template <> struct RecordTable<ContractClaim> {
  using Value = ContractClaim;
  using Tag = ClaimTag;
  using C = ContractClaim;
  static constexpr std::string_view what = "a contract claim", tagPrefix = "a ",
                                    tagSuffix = " claim";
  static constexpr auto fields =
      std::tuple{field("tag", &C::tag).says("a claim tag"), field("op", &C::op),
                 field("layout", &C::layout).forTags(tagBits({Tag::layoutCompatibility})),
                 field("spec", &C::spec)
                     .only(editionsWithSpec())
                     .forTags(tagBits({Tag::valueRefinement, Tag::vjpRefinement}))
                     .says("a spec name")
                     .with(kFieldVerbatim),
                 field("mode", &C::mode).forTags(tagBits({Tag::vjpRefinement}))};
};

template <> struct RecordTable<ContractEvidence> {
  using Value = ContractEvidence;
  using Tag = EvidenceTag;
  using E = ContractEvidence;
  static constexpr std::string_view what = "contract evidence", tagPrefix = "",
                                    tagSuffix = " evidence";
  static constexpr auto fields =
      std::tuple{field("tag", &E::tag).says("an evidence tag"),
                 field("name", &E::text)
                     .forTags(tagBits({Tag::theorem, Tag::checker, Tag::runtimeGuard,
                                       Tag::testSuite, Tag::fuzzOracle}))
                     .says("a name"),
                 field("reason", &E::text)
                     .forTags(tagBits({Tag::trustedBoundary}))
                     .says("a reason")
                     .with(kFieldAlias)};
};

template <> struct RecordTable<ContractProvenance> {
  using Value = ContractProvenance;
  using Tag = ProvenanceTag;
  using P = ContractProvenance;
  static constexpr std::string_view what = "a provenance item", tagPrefix = "a ",
                                    tagSuffix = " provenance item";
  static constexpr auto fields = std::tuple{
      field("tag", &P::tag).says("a provenance tag"),
      field("path", &P::path).forTags(tagBits({Tag::sourceFile, Tag::nativeSymbol})).says("a path"),
      field("symbol", &P::symbol).forTags(tagBits({Tag::nativeSymbol})).says("a symbol"),
      field("buildTarget", &P::buildTarget)
          .defaulted()
          .forTags(tagBits({Tag::nativeSymbol}))
          .says("a build target"),
      field("text", &P::path).forTags(tagBits({Tag::note})).says("a note").with(kFieldAlias)};
};

template <> struct RecordTable<ContractDescriptor> {
  using Value = ContractDescriptor;
  using D = ContractDescriptor;
  static constexpr std::string_view what = "a contract descriptor";
  static constexpr auto fields =
      std::tuple{field("claim", &D::claim), field("summary", &D::summary).says("a summary"),
                 field("evidence", &D::evidence), field("provenance", &D::provenance).defaulted()};
};

template <> struct RecordTable<NumericalPolicy> {
  using Value = NumericalPolicy;
  using N = NumericalPolicy;
  static constexpr std::string_view what = "a numerical policy";
  static constexpr auto fields =
      std::tuple{field("rounding", &N::rounding).only(seedCapsuleEditions()).defaulted(),
                 field("subnormals", &N::subnormals).only(seedCapsuleEditions()).defaulted(),
                 field("contraction", &N::contraction).only(seedCapsuleEditions()).defaulted(),
                 field("reduction", &N::reduction).requiredOnlyIn(kLineageEditions)};
};

template <> struct RecordTable<KernelCapsule> {
  using Value = KernelCapsule;
  using K = KernelCapsule;
  static constexpr std::string_view what = "a capsule";
  static constexpr auto fields = std::tuple{
      field("name", &K::name).says("a capsule name").with(kFieldIdentity | kFieldVerbatim),
      field("op", &K::op).with(kFieldIdentity),
      field("provider", &K::provider).with(kFieldIdentity),
      field("device", &K::device).with(kFieldIdentity),
      field("trustLevel", &K::trustLevel),
      field("supportsForward", &K::supportsForward).defaulted(),
      field("vjpMode", &K::vjpMode).defaulted(),
      field("shapeContract", &K::shapeContract),
      field("layoutContract", &K::layoutContract),
      field("valueContract", &K::valueContract),
      field("vjpContract", &K::vjpContract),
      field("numericalPolicy", &K::numericalPolicy).requiredOnlyIn(kLineageEditions),
      field("notes", &K::notes).only(seedCapsuleEditions()).defaulted().says("notes")};
};

LO_RECORD_EQUALITY(ContractClaim)
LO_RECORD_EQUALITY(ContractEvidence)
LO_RECORD_EQUALITY(ContractProvenance)
LO_RECORD_EQUALITY(ContractDescriptor)
LO_RECORD_EQUALITY(NumericalPolicy)
LO_RECORD_EQUALITY(KernelCapsule)

/// Equality `identity`: name, op, provider and device (docs/spec.md §1.3;
/// `KernelCapsule.sameIdentity` in the Lean original).
bool sameIdentity(const KernelCapsule &a, const KernelCapsule &b);

/// `KernelCapsule.isTrustedExternal`: `c.trustLevel == .trustedExternal`.
bool isTrustedExternal(const KernelCapsule &c);

/// A capsule for examples, generated suites and tests: every contract at its default with claims
/// about `op`, the given fields set (shapeSafety claims, notProvided evidence: valid in every
/// edition).
KernelCapsule sampleCapsule(std::string name, BackendOp op, TrustLevel trust = TrustLevel::verified,
                            Provider provider = Provider::reference, Device device = Device::cpu);

/// A hash consistent with `operator==` (every field), used to intern capsules; keyed per process
/// (ref/hash.hpp).
std::size_t hashCapsule(const KernelCapsule &c);

/// A hash consistent with `sameIdentity`, keyed per process.
std::size_t hashIdentity(const KernelCapsule &c);

} // namespace lo
