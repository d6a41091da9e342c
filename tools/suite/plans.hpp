// The one generator of valid GraphExecutionPlans (docs/spec.md §2: "A **valid** plan also has:
// unique `nodeId`s, each below 2^63 ...; a kind that does runtime work, and `op` equal to the op
// its kind maps to (§1.6); `capsule.op == op`"; docs/conformance.md, "What is generated"), for
// every place that needs random plans:
//
//   gen, diff       the random cases of a suite (tools/suite/generate.hpp), from an Rng
//   tests/fuzz      the structured harness, from the fuzzer's bytes (Vocabulary::drawn,
//                   Params::wild)
//   tests/property  the kinds of the property tests, from RapidCheck's seed words
//                   (tests/property/generators.hpp)
//   tests/bench     the benchmarks' plans of 10^3 to 10^7 kernels (Shape::model)
//
// Each draws its choices from a Choices (tools/suite/choices.hpp) and sets the knobs below; the
// same knobs and choices give the same plan.
#pragma once

#include "ref/interner.hpp"
#include "ref/ir.hpp"
#include "tools/suite/capsules.hpp"
#include "tools/suite/choices.hpp"
#include "tools/suite/kinds.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lo::gen {

/// What a plan is made of.
enum class Shape : std::uint8_t {
  /// Runs of geometric length over a few ops, each op with a small pool of capsules that are
  /// near-collisions of one another: where an implementation's grouping goes wrong.
  runs,
  /// "realistic runs": the node sequence of a transformer block and of a convolutional stem,
  /// interleaved with elementwise chains, on the CPU reference capsules or the native CUDA ones,
  /// with a few matmuls on a trusted-external LibTorch capsule (tools/suite/model_plans.cpp).
  model,
};

struct PlanKnobs {
  Shape shape = Shape::runs;
  /// runs: at most this many kernels (one plan in eight has at most two); model: exactly this many.
  std::size_t maxNodes = 24;
  std::size_t maxOps = 3;      // runs: the plan's ops, 1 to maxOps, each with its capsule pool
  std::size_t maxBases = 2;    // runs: independent capsules per op, 1 to maxBases
  std::size_t maxVariants = 3; // runs: near-collisions per op (capsules.hpp: variant), 0 to this
  /// runs: a run's length is geometric (mean 3), capped here (a shrunk source keeps it short).
  std::size_t maxRunLength = SIZE_MAX;
  Vocabulary vocabulary = Vocabulary::suite; // runs: the capsules' texts
  Params params = Params::sensible;          // runs: the kinds' parameters
};

/// A plan drawn from `choices` as `knobs` say.
GraphExecutionPlan randomPlan(Interner &interner, Choices &choices, const PlanKnobs &knobs = {});

/// `n` unique node ids below 2^63: consecutive, spaced, near the top of the range, or shuffled.
std::vector<NodeId> nodeIds(Choices &choices, std::size_t n);

/// Shape::model (tools/suite/model_plans.cpp): exactly `kernels` kernels, with increasing ids.
GraphExecutionPlan modelPlan(Interner &interner, Choices &choices, std::uint64_t kernels);

} // namespace lo::gen
