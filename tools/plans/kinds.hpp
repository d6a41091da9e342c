// The kinds of the generated plans (docs/spec.md §1.7, the kind table; docs/conformance.md, "What
// is generated"): only kinds that are planned ("`-`: no runtime work, never planned" excludes the
// others) and that the edition has (docs/spec.md §1.6: `hardMaskedSoftmax` from 2026-08), each
// with parameters that make sense for it, drawn from a Choices.
#pragma once

#include "ref/edition.hpp"
#include "ref/opkind.hpp"
#include "tools/plans/choices.hpp"

#include <vector>

namespace lo::plans {

/// The kinds of edition `edition` that are planned, in the order of the kind table.
std::vector<KindTag> plannedKinds(Edition edition = kNewestEdition);

/// The planned kinds of edition `edition` that map to `op`.
const std::vector<KindTag> &kindsOf(BackendOp op, Edition edition = kNewestEdition);

/// The ops of edition `edition` that some kind of the edition maps to (only these can appear in a
/// valid plan of the edition).
const std::vector<BackendOp> &plannedOps(Edition edition = kNewestEdition);

/// How a kind's parameters are drawn: `sensible` for the suite (a permutation for `permute`,
/// shapes that broadcast for `broadcastTo`, shapes of equal size for `reshape`, small positive
/// window sizes, a small HardMask whose `allowed` has the shape's size), `wild` for the fuzzer (any
/// length of a list, any natural below 2^64: valid by the kind's signature and nothing more).
enum class Params : std::uint8_t { sensible, wild };

/// A kind `tag` with parameters drawn as `params` says.
OpKind randomKind(Choices &choices, KindTag tag, Params params = Params::sensible);

/// Any natural below 2^64, from two choices of 32 bits.
std::uint64_t anyNatural(Choices &choices);

} // namespace lo::plans
