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
  X(e2026_08, "2026-08")

/// The editions, oldest first.
LO_DECLARE_VOCABULARY(Edition, LO_EDITIONS, "edition")

/// The default edition, the newest (docs/spec.md §1.6).
inline constexpr Edition kNewestEdition = Edition::e2026_08;

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
    {Edition::e2026_08, "NicolasRouquette/TorchLean", "be55ea0, b2a2184 (2026-08-04), cfbb01e",
     "NN/Backend/Capsule.lean, Types.lean, Recheck.lean, Gate.lean, IR.lean, Grouping.lean; "
     "NN/IR/Graph.lean, NN/IR/HardMask.lean"}};
static_assert(std::size(kEditionSources) == vocabularySize<Edition>());

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

/// BackendOp: `hardMaskedSoftmax` is new in 2026-08 (Capsule.lean at be55ea0; 47 ops).
inline constexpr EditionOnly<BackendOp> kBackendOpEditions[] = {
    {BackendOp::hard_masked_softmax, editionBit(Edition::e2026_08)}};
/// IR kind `hardMaskedSoftmax (mask : HardMask)`, new in 2026-08 (NN/IR/Graph.lean at be55ea0).
inline constexpr EditionOnly<KindTag> kKindTagEditions[] = {
    {KindTag::hardMaskedSoftmax, editionBit(Edition::e2026_08)}};
/// ContractClaim: `vjpUnavailable op` is new in 2026-08 (Capsule.lean at be55ea0).
inline constexpr EditionOnly<ClaimTag> kClaimTagEditions[] = {
    {ClaimTag::vjpUnavailable, editionBit(Edition::e2026_08)}};
/// ContractEvidence: `theorem` and `checker` are 2026-07 only; `notApplicable` is new in 2026-08
/// (Capsule.lean at be55ea0).
inline constexpr EditionOnly<EvidenceTag> kEvidenceTagEditions[] = {
    {EvidenceTag::theorem, editionBit(Edition::e2026_07)},
    {EvidenceTag::checker, editionBit(Edition::e2026_07)},
    {EvidenceTag::notApplicable, editionBit(Edition::e2026_08)}};

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

/// `valueRefinement op spec` and `vjpRefinement op spec mode` carry a spec name in 2026-07; from
/// 2026-08 they are `valueRefinement op` and `vjpRefinement op mode` (Capsule.lean at be55ea0).
constexpr bool claimsHaveSpec(Edition e) { return e == Edition::e2026_07; }

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

/// "... valid in edition 2026-07: use --edition 2026-07" for a value or field that edition `e`
/// lacks and the editions `fits` have.
std::string editionHint(EditionSet fits);

} // namespace lo
