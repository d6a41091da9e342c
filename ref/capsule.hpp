// KernelCapsule and its contract descriptors (docs/spec.md §1 and §2.2).
//
// "A backend capsule is TorchLean's unit of delegation to fast code": it records the op it
// implements, who provides it, where it runs, how far it is trusted, and four contract descriptors
// whose evidence is kept as data.
#pragma once

#include "ref/edition.hpp"
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
  bool operator==(const ContractClaim &) const = default;
};

/// How a capsule justifies one part of its contract: `theorem name` | `checker name` (edition
/// 2026-07) | `runtimeGuard name` | `testSuite name` | `fuzzOracle name` | `trustedBoundary reason`
/// | `notProvided` | `notApplicable` (edition 2026-08). `text` holds the name (or the reason),
/// empty for `notProvided` and `notApplicable`.
struct ContractEvidence {
  using Tag = EvidenceTag;
  Tag tag = Tag::notProvided;
  std::string text;
  bool operator==(const ContractEvidence &) const = default;
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
  bool operator==(const ContractProvenance &) const = default;
};

/// "A structured contract claim together with its evidence and human-readable explanation."
struct ContractDescriptor {
  ContractClaim claim;
  std::string summary;
  ContractEvidence evidence;
  std::vector<ContractProvenance> provenance; // default []
  bool operator==(const ContractDescriptor &) const = default;
};

/// `numericalPolicy {rounding, subnormals, contraction, reduction}`, each default "unspecified".
struct NumericalPolicy {
  Rounding rounding = Rounding::unspecified;
  Subnormals subnormals = Subnormals::unspecified;
  Contraction contraction = Contraction::unspecified;
  Reduction reduction = Reduction::unspecified;
  bool operator==(const NumericalPolicy &) const = default;
};

/// "A contract-carrying fast kernel or reference implementation."
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

  /// Equality `contract`: "the two capsule records are equal in every field".
  bool operator==(const KernelCapsule &) const = default;
};

/// Equality `identity`: "equal name, op, provider and device only"
/// (`KernelCapsule.sameIdentity` in the Lean original).
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
