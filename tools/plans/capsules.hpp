// The capsules of the generated plans and their near-collisions (docs/conformance.md, "What is
// generated"): every field
// drawn from a Choices, and variants that keep a capsule's identity (name, op, provider, device)
// but change one field outside it, so that only the `contract` equality tells them apart
// (docs/spec.md §1.3), or keep its name and change its identity, so that their written keys collide
// (`#2`). Every value is one of the edition's (docs/spec.md §1.6): its evidence tags, claim tags
// (`vjpUnavailable` from 2026-08), trust levels, providers, provenance tags and reductions, a
// claim's `spec` only where `claimsHaveSpec`, and in the lean-dojo lineage its capsule (no notes,
// a numerical policy of its reduction alone: docs/spec.md §2.2).
#pragma once

#include "ref/capsule.hpp"
#include "ref/edition.hpp"
#include "tools/plans/choices.hpp"

#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

namespace lo::plans {

/// Where the texts of a capsule come from: `suite` picks among a few fixed texts (names, evidence,
/// paths, notes, some with escapes and non-ASCII letters); `drawn` builds short strings from the
/// choices themselves, control characters included (the writer escapes them), and names the
/// capsules `k0` to `k2`, so that identities collide across ops and providers (the fuzzer).
enum class Vocabulary : std::uint8_t { suite, drawn };

/// A capsule of edition `edition` for `op` with every field drawn.
KernelCapsule randomCapsule(Choices &choices, BackendOp op, Vocabulary vocabulary = {},
                            Edition edition = kNewestEdition);

/// The ways a near-collision differs from its capsule: all but the last two keep its identity
/// (name, op, provider, device), so only the `contract` equality tells them apart (docs/spec.md
/// §1.3); `provider` and `device` keep its name and op, so that their written keys collide (`#2`).
enum class Collision : std::uint8_t {
  trustedExternal, // trusted-external, its value contract's evidence a trusted boundary
  trustLevel,      // another trust level
  evidence,        // other evidence in the value contract
  provenance,      // one more provenance entry in the shape contract
  vjpMode,         // another VJP mode
  numericalPolicy, // another rounding (the lineage, whose policy is its reduction: another one)
  notes,           // other notes (the lineage, without notes: another layout summary)
  provider,        // another provider
  device,          // another device
};

/// Each Collision's name, in its order (the Python module's strategies name them so).
inline constexpr std::string_view kCollisionNames[] = {
    "trustedExternal", "trustLevel", "evidence", "provenance", "vjpMode",
    "numericalPolicy", "notes",      "provider", "device"};
static_assert(std::size(kCollisionNames) == static_cast<std::size_t>(Collision::device) + 1);

/// The one near-collision maker: `c` changed in the way `collision` names, every value one of
/// edition `edition`'s, drawn from `choices` (zero choices give the first other value). The
/// result differs from `c`: where the drawn value is `c`'s own, supportsForward flips.
KernelCapsule nearCollision(Choices &choices, const KernelCapsule &c, Collision collision,
                            Vocabulary vocabulary = {}, Edition edition = kNewestEdition);

/// A near-collision of `c` in edition `edition` of a collision drawn from `choices` (a
/// trusted-external one in five, the others one in ten each).
KernelCapsule variant(Choices &choices, const KernelCapsule &c, Vocabulary vocabulary = {},
                      Edition edition = kNewestEdition);

/// `c` in the values of edition `edition` (docs/spec.md §1.6): in the lean-dojo lineage, a
/// `verified` or `fuzzed` capsule is `checked`, `fuzzOracle` and `notProvided` evidence is
/// `testSuite`, `sourceFile` and `note` provenance is a `nativeSymbol`, a provider the edition
/// lacks (`native-cuda`) is `torchlean`, the numerical policy is
/// its `reduction` alone (`unspecified` and `fixed-tree` are `fixed-left`), and there are no
/// notes; a capsule without a VJP (mode `none`, claiming a refinement of mode `none`) uses the
/// TorchLean tape, so that its contracts are aligned and a maintained profile may accept it
/// (docs/spec.md §6.10). A capsule of a seed edition is kept as it is. For gen's hand-picked
/// cases and explain's examples, written by hand in the seed's values.
KernelCapsule inEditionValues(KernelCapsule c, Edition edition);

/// The tag of a drawn evidence: any of the edition's evidence tags.
EvidenceTag randomEvidenceTag(Choices &choices, Edition edition);

} // namespace lo::plans
