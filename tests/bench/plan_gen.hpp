// Synthetic GraphExecutionPlans for the benchmarks: "plans of 10^3 to 10^7 kernels (capsule-table
// form, realistic runs)".
//
// The plan repeats the node sequence of a transformer block (layernorm, q/k/v linears, reshapes
// and permutes, attention matmuls, softmax, the MLP) and of a convolutional stem, interleaved with
// elementwise chains. Blocks run on the CPU reference capsules or on the native CUDA ones, and a
// few matmuls go to the trusted-external LibTorch capsule, so runs have realistic lengths (mostly
// 1 to 3, sometimes tens) and capsule boundaries appear where real plans have them.
#pragma once

#include "ref/ir.hpp"

#include <cstdint>

namespace lo::bench {

/// A deterministic plan of exactly `kernels` kernels, with increasing node ids.
GraphExecutionPlan generatePlan(Interner &interner, std::uint64_t kernels, std::uint64_t seed);

} // namespace lo::bench
