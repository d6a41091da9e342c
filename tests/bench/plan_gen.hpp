// Synthetic GraphExecutionPlans for the benchmarks: 10^3 to 10^7 kernels, in the capsule-table
// form, with realistic runs. They come from the one plan generator
// (tools/plans/plans.hpp, modelPlan: transformer blocks, convolutional stems and elementwise
// chains), its choices drawn from std::mt19937_64 seeded with the seed, as they always were, so
// that a seed gives the plans the recorded measurements of docs/performance.md were made on.
#pragma once

#include "ref/edition.hpp"
#include "ref/ir.hpp"

#include <cstdint>

namespace lo::bench {

/// The edition of the plans (docs/spec.md §1.6): modelPlan's kinds and capsules are 2026-08's, and
/// tools/bench names it on every command that reads them.
inline constexpr Edition kEdition = Edition::e2026_08;

/// A deterministic plan of exactly `kernels` kernels, with increasing node ids.
GraphExecutionPlan generatePlan(Interner &interner, std::uint64_t kernels, std::uint64_t seed);

} // namespace lo::bench
