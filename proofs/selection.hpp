// The selection obligations (docs/spec.md §5.6): `chooseCapsuleFor` of ref/selection.cpp over the
// capsules an availability admits, encoded as written (under `prefer P` a pass for P's first
// eligible capsule, then a pass for the first eligible one), for every registry of up to N
// capsules, every `KernelPolicy`, every availability and every op at once.
//
// Admissibility is the acceptance encoding's (proofs/acceptance.hpp): a capsule is admissible when
// none of the tests `acceptanceFailures` shares with `admissible` fails (forward, alignment, trust,
// provider, device, VJP), so the two encodings cannot drift apart. The statements are declarative
// (docs/spec.md §10.3 read as a property of the position chosen), never the encoded passes again.
#pragma once

#include "proofs/acceptance.hpp"
#include "ref/availability.hpp"

#include <vector>

namespace lo::proofs {

// X(enumerator, spelling, what it breaks)
#define LO_SELECTION_SABOTAGES(X)                                                                  \
  X(none, "none", "the reference choice")                                                          \
  X(skipsPreference, "choose-skips-preference", "chooseCapsuleFor has no pass for `prefer P`")     \
  X(ignoresAvailability, "choose-ignores-availability",                                            \
    "chooseCapsuleFor runs over the whole registry, not the capsules available")                   \
  X(preferenceOverridesTrust, "prefer-overrides-trust",                                            \
    "the pass for `prefer P` does not ask the assurance")                                          \
  X(lastEligible, "choose-last-eligible", "each pass takes its last capsule, not its first")

LO_DECLARE_SABOTAGES(SelectionSabotage, LO_SELECTION_SABOTAGES, allSelectionSabotages)

/// `Availability`, symbolic: whether each device and each provider (by vocabulary index) is
/// declared.
struct SymbolicAvailability {
  std::vector<z3::expr> devices, providers;
};
SymbolicAvailability freshAvailability(z3::context &ctx, const std::string &prefix);
SymbolicAvailability constantAvailability(z3::context &ctx, const selection::Availability &a);

/// `Availability.admitsCapsule`.
z3::expr admitsCapsule(const SymbolicAvailability &a, const Capsule &c);
/// Every device and provider `a` declares, `wider` declares.
z3::expr narrows(const SymbolicAvailability &a, const SymbolicAvailability &wider);

/// `KernelCapsule.admissible policy c`.
z3::expr admissible(const Encoder &e, const SymbolicKernelPolicy &p, const Capsule &c);

/// A choice: whether a capsule is chosen, and its position in the registry (when one is).
struct Choice {
  z3::expr found, index;
};

/// `chooseCapsuleFor policy op (filterCapsules availability registry)`, as ref/selection.cpp
/// computes it (the encoder's selection sabotage applies).
Choice chooseCapsuleFor(const Encoder &e, const SymbolicKernelPolicy &p,
                        const SymbolicAvailability &a, const z3::expr &op,
                        const std::vector<Capsule> &registry);

/// The selection obligations, in the order `prove` lists them.
std::vector<Obligation> selectionObligations();

} // namespace lo::proofs
