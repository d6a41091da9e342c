// Editions: each published vocabulary of the upstream library, declared once, as data
// (docs/spec.md §1.6).
//
// The vocabularies of ref/vocab.hpp hold the union of every edition's values; an edition is the
// set of values it has, and a value not listed below is in every edition. Everything that depends
// on an edition (the readers, the writers, the gate's dispositions, gen's plans, the proofs, the
// schemas and the docs' tables) asks `inEdition` or `valuesOf`, never a list of its own.
#pragma once

#include "ref/opkind.hpp"
#include "ref/vocab.hpp"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace lo {

#define LO_EDITIONS(X)                                                                             \
  X(e2026_07, "2026-07")                                                                           \
  X(e2026_08, "2026-08")                                                                           \
  X(e2026_08b, "2026-08b")                                                                         \
  X(e2026_09, "2026-09")                                                                           \
  X(e2026_09b, "2026-09b")                                                                         \
  X(e2026_10, "2026-10")

/// The editions, oldest first.
LO_DECLARE_VOCABULARY(Edition, LO_EDITIONS, "edition")

/// The default edition (docs/spec.md §1.6): the newest.
inline constexpr Edition kNewestEdition = Edition::e2026_10;

/// Where an edition's vocabulary comes from: the upstream repository, the commits and the files it
/// transcribes (docs/spec.md §1.6).
struct EditionSource {
  Edition edition;
  std::string_view repository;
  std::string_view commits;
  std::string_view files;
};

inline constexpr EditionSource kEditionSources[] = {
    {Edition::e2026_07, "wadkisson/TorchLean", "c2be276 (2026-07-21)",
     "NN/Backend/Capsule.lean, Types.lean, Recheck.lean, Gate.lean, IR.lean, Lowering.lean; "
     "NN/IR/Graph.lean"},
    {Edition::e2026_08, "NicolasRouquette/TorchLean", "be55ea0, b2a2184 (2026-08-04)",
     "NN/Backend/Capsule.lean, Types.lean, Recheck.lean, Gate.lean, IR.lean, Grouping.lean; "
     "NN/IR/Graph.lean, NN/IR/HardMask.lean"},
    {Edition::e2026_08b, "NicolasRouquette/TorchLean", "cfbb01e (August 2026)",
     "NN/Backend/IR.lean, Grouping.lean"},
    {Edition::e2026_09, "srirampc/TorchLean", "a351909, 801eb0e (September 2026)",
     "NN/Backend/Types.lean, Capsule.lean, ContractCheck.lean, Grouping.lean, Audit.lean, "
     "Report.lean, IR.lean; NN/IR/Operator.lean; NN/Runtime/PyTorch/Wire.lean"},
    {Edition::e2026_09b, "srirampc/TorchLean", "3447b74 (late September 2026)",
     "NN/Backend/Types.lean, Capsule.lean, Report.lean, Profile.lean, IR.lean; "
     "NN/IR/Operator.lean"},
    {Edition::e2026_10, "lean-dojo/TorchLean, srirampc/TorchLean",
     "996dda0 (October 2026); read at lean-dojo 13d0283",
     "NN/IR/Operator.lean; NN/Runtime/PyTorch/Wire.lean"}};
static_assert(std::size(kEditionSources) == vocabularySize<Edition>());
static_assert(vocabularySize<Edition>() <= 8, "EditionSet holds one bit per edition");

/// A set of editions, one bit per edition.
using EditionSet = std::uint8_t;
constexpr EditionSet editionBit(Edition e) {
  return static_cast<EditionSet>(1u << static_cast<unsigned>(e));
}
inline constexpr EditionSet kEveryEdition =
    static_cast<EditionSet>((1u << vocabularySize<Edition>()) - 1);

/// A value that only some editions have.
template <class E> struct EditionOnly {
  E value;
  EditionSet editions;
};

/// The values of a vocabulary that not every edition has (none, unless declared below).
template <class E> struct EditionTable {
  static constexpr std::span<const EditionOnly<E>> entries{};
};

// --- The declaration: every value that is not in every edition ---------------------------------

/// The editions of the seed's capsule vocabulary (trust `verified` and `fuzzed`, `fuzzOracle` and
/// `notProvided` evidence, `sourceFile` and `note` provenance, the capsule's `notes`, the four
/// numerical-policy fields), and of the lean-dojo lineage, which cut them (docs/spec.md §1.6).
inline constexpr EditionSet kSeedEditions =
    editionBit(Edition::e2026_07) | editionBit(Edition::e2026_08) | editionBit(Edition::e2026_08b);
inline constexpr EditionSet kLineageEditions =
    editionBit(Edition::e2026_09) | editionBit(Edition::e2026_09b) | editionBit(Edition::e2026_10);

/// The newest edition of kSeedEditions (the seed's capsule, its singleton lowering and evidence
/// gate): the edition of the catalogue's examples, and of the proof tests of those rules.
inline constexpr Edition kNewestSeedEdition = Edition::e2026_08b;
static_assert((kSeedEditions & editionBit(kNewestSeedEdition)) != 0);
/// From 2026-08 on.
inline constexpr EditionSet kSince2026_08 =
    static_cast<EditionSet>(kEveryEdition & ~editionBit(Edition::e2026_07));
/// The kinds of be55ea0 (2026-07, 2026-08) and the kinds of cfbb01e on (conv and pools with window
/// configurations, `transpose`, spelled as `torchlean.ir.v1` spells them).
inline constexpr EditionSet kOldKindEditions =
    editionBit(Edition::e2026_07) | editionBit(Edition::e2026_08);
inline constexpr EditionSet kNewKindEditions =
    static_cast<EditionSet>(editionBit(Edition::e2026_08b) | kLineageEditions);

/// BackendOp: `hardMaskedSoftmax` is new in 2026-08 (Capsule.lean at be55ea0; 47 ops);
/// `scaledDotProductAttention` is renamed `attention` at 3447b74; `div`, `neg` and `custom` are new
/// at 996dda0 (docs/lineage.md says which of these facts are verified).
inline constexpr EditionOnly<BackendOp> kBackendOpEditions[] = {
    {BackendOp::hard_masked_softmax, kSince2026_08},
    {BackendOp::scaled_dot_product_attention,
     static_cast<EditionSet>(kSeedEditions | editionBit(Edition::e2026_09))},
    {BackendOp::attention, editionBit(Edition::e2026_09b) | editionBit(Edition::e2026_10)},
    {BackendOp::div, editionBit(Edition::e2026_10)},
    {BackendOp::neg, editionBit(Edition::e2026_10)},
    {BackendOp::custom, editionBit(Edition::e2026_10)}};
/// IR kinds: be55ea0's (NN/IR/Graph.lean) in 2026-07 and 2026-08 (`hardMaskedSoftmax` new in
/// 2026-08); cfbb01e's on (NN/IR/Operator.lean, NN/Backend/IR.lean), `softplus` and `safe_log`
/// from a351909, `custom` from 996dda0.
inline constexpr EditionOnly<KindTag> kKindTagEditions[] = {
    {KindTag::max_pool2d, kOldKindEditions},
    {KindTag::max_pool2d_pad, kOldKindEditions},
    {KindTag::avg_pool2d, kOldKindEditions},
    {KindTag::avg_pool2d_pad, kOldKindEditions},
    {KindTag::swap_first_two, kOldKindEditions},
    {KindTag::broadcastTo, kOldKindEditions},
    {KindTag::conv2d, kOldKindEditions},
    {KindTag::batch_norm2d_nchw_eval, kOldKindEditions},
    {KindTag::transpose3d_last_two, kOldKindEditions},
    {KindTag::hardMaskedSoftmax, editionBit(Edition::e2026_08)},
    {KindTag::transpose, kNewKindEditions},
    {KindTag::max_pool, kNewKindEditions},
    {KindTag::avg_pool, kNewKindEditions},
    {KindTag::broadcast_to, kNewKindEditions},
    {KindTag::conv, kNewKindEditions},
    {KindTag::batch_norm_eval, kNewKindEditions},
    {KindTag::hard_masked_softmax, kNewKindEditions},
    {KindTag::softplus, kLineageEditions},
    {KindTag::safe_log, kLineageEditions},
    {KindTag::custom, editionBit(Edition::e2026_10)}};
/// ContractClaim: `vjpUnavailable op` is new in 2026-08 (Capsule.lean at be55ea0).
inline constexpr EditionOnly<ClaimTag> kClaimTagEditions[] = {
    {ClaimTag::vjpUnavailable, kSince2026_08}};
/// ContractEvidence: `theorem` and `checker` are 2026-07 only; `notApplicable` is new in 2026-08
/// (Capsule.lean at be55ea0); `fuzzOracle` and `notProvided` are gone at a351909.
inline constexpr EditionOnly<EvidenceTag> kEvidenceTagEditions[] = {
    {EvidenceTag::theorem, editionBit(Edition::e2026_07)},
    {EvidenceTag::checker, editionBit(Edition::e2026_07)},
    {EvidenceTag::fuzzOracle, kSeedEditions},
    {EvidenceTag::notProvided, kSeedEditions},
    {EvidenceTag::notApplicable, kSince2026_08}};
/// TrustLevel: `verified` and `fuzzed` are gone at a351909 (Types.lean).
inline constexpr EditionOnly<TrustLevel> kTrustLevelEditions[] = {
    {TrustLevel::verified, kSeedEditions}, {TrustLevel::fuzzed, kSeedEditions}};
/// Provider: `native-cuda` is gone at 3447b74 (Types.lean).
inline constexpr EditionOnly<Provider> kProviderEditions[] = {
    {Provider::native_cuda,
     static_cast<EditionSet>(kSeedEditions | editionBit(Edition::e2026_09))}};
/// ContractProvenance: `sourceFile` and `note` are gone at a351909 (Capsule.lean).
inline constexpr EditionOnly<ProvenanceTag> kProvenanceTagEditions[] = {
    {ProvenanceTag::sourceFile, kSeedEditions}, {ProvenanceTag::note, kSeedEditions}};
/// ReductionPolicy: `fixed-tree` and `unspecified` are gone at a351909 (Capsule.lean).
inline constexpr EditionOnly<Reduction> kReductionEditions[] = {
    {Reduction::fixed_tree, kSeedEditions}, {Reduction::unspecified, kSeedEditions}};

template <> struct EditionTable<BackendOp> {
  static constexpr std::span<const EditionOnly<BackendOp>> entries{kBackendOpEditions};
};
template <> struct EditionTable<KindTag> {
  static constexpr std::span<const EditionOnly<KindTag>> entries{kKindTagEditions};
};
template <> struct EditionTable<ClaimTag> {
  static constexpr std::span<const EditionOnly<ClaimTag>> entries{kClaimTagEditions};
};
template <> struct EditionTable<EvidenceTag> {
  static constexpr std::span<const EditionOnly<EvidenceTag>> entries{kEvidenceTagEditions};
};
template <> struct EditionTable<TrustLevel> {
  static constexpr std::span<const EditionOnly<TrustLevel>> entries{kTrustLevelEditions};
};
template <> struct EditionTable<Provider> {
  static constexpr std::span<const EditionOnly<Provider>> entries{kProviderEditions};
};
template <> struct EditionTable<ProvenanceTag> {
  static constexpr std::span<const EditionOnly<ProvenanceTag>> entries{kProvenanceTagEditions};
};
template <> struct EditionTable<Reduction> {
  static constexpr std::span<const EditionOnly<Reduction>> entries{kReductionEditions};
};

// --- Rules: what an edition's upstream code does, as data ----------------------------------------

/// The rules of an edition that are not a vocabulary (docs/spec.md §1.6): the equality its
/// `canAppend` uses by default, whether its groups carry `kinds` and `groupingKind`, whether it has
/// a singleton lowering, and which acceptance gate it has.
struct EditionRules {
  Edition edition;
  /// The default `--equality` (docs/spec.md §1.3).
  Equality equality;
  /// A group is `{nodeIds, kinds, op, capsule, groupingKind}` (true) or `{nodeIds, op, capsule}`.
  bool groupKinds;
  /// Upstream builds one group per node (`--mode singleton`); without, the mode is refused.
  bool singletonLowering;
  /// The gate of docs/spec.md §6 (evidence dispositions) or upstream's `acceptGraphKernelPlan`.
  GateKind gate;
  /// The ExecutionAudit has the derived `trustLevels` (upstream's `KernelPlanAudit` at a351909
  /// has no such view: Audit.lean).
  bool auditTrustLevels;
};

inline constexpr EditionRules kEditionRules[] = {
    {Edition::e2026_07, Equality::contract, true, true, GateKind::evidence, true},
    {Edition::e2026_08, Equality::contract, true, true, GateKind::evidence, true},
    {Edition::e2026_08b, Equality::contract, true, true, GateKind::evidence, true},
    {Edition::e2026_09, Equality::contract, false, false, GateKind::acceptance, false},
    {Edition::e2026_09b, Equality::contract, false, false, GateKind::acceptance, false},
    {Edition::e2026_10, Equality::contract, false, false, GateKind::acceptance, false}};
static_assert(std::size(kEditionRules) == vocabularySize<Edition>());

constexpr const EditionRules &rulesOf(Edition e) {
  return kEditionRules[static_cast<std::size_t>(e)];
}
/// The editions whose groups carry `kinds` and `groupingKind` (derived from `kEditionRules`).
constexpr EditionSet editionsWithGroupKinds() {
  EditionSet set = 0;
  for (const auto &r : kEditionRules)
    if (r.groupKinds)
      set |= editionBit(r.edition);
  return set;
}

/// `valueRefinement op spec` and `vjpRefinement op spec mode` carry a spec name in 2026-07; from
/// 2026-08 they are `valueRefinement op` and `vjpRefinement op mode` (Capsule.lean at be55ea0).
constexpr bool claimsHaveSpec(Edition e) { return e == Edition::e2026_07; }

/// The editions of the seed's numerical policy (rounding, subnormals, contraction, reduction, each
/// defaulted) and the capsule's `notes`; the lineage's policy is `{reduction}`, required.
constexpr EditionSet seedCapsuleEditions() { return kSeedEditions; }
/// Whether edition `e` has the seed's capsule (its numerical policy's four fields and `notes`).
constexpr bool hasSeedCapsule(Edition e) { return (seedCapsuleEditions() & editionBit(e)) != 0; }

/// The editions whose claims carry a spec name (derived from `claimsHaveSpec`).
constexpr EditionSet editionsWithSpec() {
  EditionSet set = 0;
  for (std::size_t i = 0; i < vocabularySize<Edition>(); ++i)
    if (claimsHaveSpec(static_cast<Edition>(i)))
      set |= editionBit(static_cast<Edition>(i));
  return set;
}

// --- Derived ------------------------------------------------------------------------------------

/// The editions that have `value`.
template <class E> constexpr EditionSet editionsOf(E value) {
  for (const auto &entry : EditionTable<E>::entries)
    if (entry.value == value)
      return entry.editions;
  return kEveryEdition;
}

/// Whether edition `e` has `value`.
template <class E> constexpr bool inEdition(E value, Edition e) {
  return (editionsOf(value) & editionBit(e)) != 0;
}

/// `preferred` if edition `e` has it, else `otherwise` (for example `checker` evidence in
/// 2026-07 and `runtimeGuard` in 2026-08, which has no checker).
template <class E> constexpr E inEditionOr(Edition e, E preferred, E otherwise) {
  return inEdition(preferred, e) ? preferred : otherwise;
}

/// The values of vocabulary `E` that edition `e` has, in the vocabulary's order.
template <class E> std::vector<E> valuesOf(Edition e) {
  std::vector<E> out;
  for (std::size_t i = 0; i < vocabularySize<E>(); ++i)
    if (inEdition(static_cast<E>(i), e))
      out.push_back(static_cast<E>(i));
  return out;
}

/// The spellings of `valuesOf<E>(e)` joined by ", " (for error messages).
template <class E> std::string joinedSpellings(Edition e) {
  std::string out;
  for (E v : valuesOf<E>(e)) {
    if (!out.empty())
      out += ", ";
    out += spelling(v);
  }
  return out;
}

/// The editions of a set, joined by ", " ("2026-07").
std::string editionNames(EditionSet set);

/// "... valid in edition 2026-07: use --edition 2026-07" for a value or field that edition `judged`
/// lacks and the editions `fits` have; the edition suggested is the one of `fits` nearest `judged`.
std::string editionHint(EditionSet fits, Edition judged);

} // namespace lo
