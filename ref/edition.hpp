// Editions (docs/spec.md §1.7): each published vocabulary of the upstream library, declared once,
// as data. The C++ enumerations of ref/vocab.hpp, ref/opkind.hpp and ref/recheck.hpp hold the
// union of every edition's values; the tables here say which edition has which value and what else
// differs, and everything that reads, writes, draws or judges a value asks them (`inEdition`,
// `valuesOf`, `facts`), never a list of its own.
//
// "Upstream evolves: every vocabulary fact names the edition and commit it comes from."
#pragma once

#include "ref/opkind.hpp"
#include "ref/recheck.hpp"
#include "ref/vocab.hpp"

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace lo {

#define LO_EDITIONS(X)                                                                             \
  X(e2026_07, "2026-07")                                                                           \
  X(e2026_08, "2026-08")

LO_DECLARE_VOCABULARY(Edition, LO_EDITIONS, "edition")

/// The newest edition.
inline constexpr Edition kNewestEdition = Edition::e2026_08;

/// One upstream file an edition transcribes, at the commit it was read at.
struct EditionSource {
  std::string_view repository; // owner/name on GitHub
  std::string_view commit;     // the full commit id
  std::string_view date;       // the commit's date, YYYY-MM-DD
  std::string_view files;      // the files read, comma-separated
};

/// What an edition is beyond its values: where it comes from and the shapes that differ.
struct EditionFacts {
  Edition edition;
  std::span<const EditionSource> sources;
  /// `valueRefinement` and `vjpRefinement` claims carry a `spec` string (docs/spec.md §2.2).
  bool claimsNameSpec;
  /// The Lean names of §8 that differ between editions.
  std::string_view groupingKindType;   // GroupingKind | GroupKind
  std::string_view sameCapsuleRunName; // sameCapsuleRun | sameCapsuleBoundary
  std::string_view groupType;          // LoweredKernelGroup | KernelGroup
  std::string_view loweringPlanType;   // GraphLoweringPlan | GroupedKernelPlan
};

/// The facts of `e`.
const EditionFacts &facts(Edition e);

/// A value that is not in every edition: it is in the editions from `first` to `last`.
template <class E> struct EditionRange {
  E value;
  Edition first;
  Edition last;
};

// The values that some edition lacks, by vocabulary; every other value is in every edition.
// 2026-08 (be55ea0): `hard_masked_softmax` is new (Types.lean), and its IR kind (Graph.lean);
// the claim `vjpUnavailable` is new and `theorem` and `checker` evidence are gone, `notApplicable`
// new (Capsule.lean); the dispositions `proved` and `checked` are gone, `notApplicable` new
// (Recheck.lean).
inline constexpr EditionRange<BackendOp> kBackendOpEditions[] = {
    {BackendOp::hard_masked_softmax, Edition::e2026_08, Edition::e2026_08}};
inline constexpr EditionRange<KindTag> kKindTagEditions[] = {
    {KindTag::hard_masked_softmax, Edition::e2026_08, Edition::e2026_08}};
inline constexpr EditionRange<ClaimTag> kClaimTagEditions[] = {
    {ClaimTag::vjpUnavailable, Edition::e2026_08, Edition::e2026_08}};
inline constexpr EditionRange<EvidenceTag> kEvidenceTagEditions[] = {
    {EvidenceTag::theorem, Edition::e2026_07, Edition::e2026_07},
    {EvidenceTag::checker, Edition::e2026_07, Edition::e2026_07},
    {EvidenceTag::notApplicable, Edition::e2026_08, Edition::e2026_08}};
inline constexpr EditionRange<EvidenceDisposition> kDispositionEditions[] = {
    {EvidenceDisposition::proved, Edition::e2026_07, Edition::e2026_07},
    {EvidenceDisposition::checked, Edition::e2026_07, Edition::e2026_07},
    {EvidenceDisposition::notApplicable, Edition::e2026_08, Edition::e2026_08}};

/// The table of `E` (empty: every value of E is in every edition).
template <class E> constexpr std::span<const EditionRange<E>> editionRanges() { return {}; }
template <> constexpr std::span<const EditionRange<BackendOp>> editionRanges() {
  return kBackendOpEditions;
}
template <> constexpr std::span<const EditionRange<KindTag>> editionRanges() {
  return kKindTagEditions;
}
template <> constexpr std::span<const EditionRange<ClaimTag>> editionRanges() {
  return kClaimTagEditions;
}
template <> constexpr std::span<const EditionRange<EvidenceTag>> editionRanges() {
  return kEvidenceTagEditions;
}
template <> constexpr std::span<const EditionRange<EvidenceDisposition>> editionRanges() {
  return kDispositionEditions;
}

/// Whether edition `e` has the value `v`.
template <class E> constexpr bool inEdition(Edition e, E v) {
  for (const auto &r : editionRanges<E>())
    if (r.value == v)
      return r.first <= e && e <= r.last;
  return true;
}

/// The values of `E` that edition `e` has, in declaration order.
template <class E> std::vector<E> valuesOf(Edition e) {
  std::vector<E> out;
  for (std::size_t i = 0; i < vocabularySize<E>(); ++i)
    if (inEdition(e, static_cast<E>(i)))
      out.push_back(static_cast<E>(i));
  return out;
}

/// The newest edition other than `e` that has `v` (for "valid in edition 2026-07: use
/// --edition 2026-07"), if `e` lacks it.
template <class E> std::optional<Edition> editionHaving(Edition e, E v) {
  for (std::size_t i = vocabularySize<Edition>(); i-- > 0;)
    if (static_cast<Edition>(i) != e && inEdition(static_cast<Edition>(i), v))
      return static_cast<Edition>(i);
  return std::nullopt;
}

/// The sentence that sends a reader to the edition a value or shape fits: "valid in edition
/// 2026-07: use --edition 2026-07".
std::string useEdition(Edition e);

} // namespace lo
