// The one generator of valid GraphExecutionPlans (docs/spec.md §2.4; docs/conformance.md, "What
// is generated"), for every place that needs random plans:
//
//   gen, diff       the random cases of a suite (tools/suite/generate.hpp), from an Rng
//   tests/fuzz      the structured harness, from the fuzzer's bytes (Vocabulary::drawn,
//                   Params::wild)
//   tests/property  the capsules, near-collisions and kinds of the property tests, from
//                   RapidCheck's seed words (tests/property/generators.hpp)
//   the Python module  the strategies' near-collisions and kinds, from the words Hypothesis
//                   draws (lowering_oracle.strategies, through lowering_oracle._native)
//   tests/bench     the benchmarks' plans of 10^3 to 10^7 kernels (modelPlan)
//
// Each draws its choices from a Choices (tools/plans/choices.hpp) and sets the knobs below; the
// same knobs and choices give the same plan. The property tests and the Python strategies keep
// only the structure they shrink (pools, runs, palettes, node ids); tools/plans/spelling.hpp
// writes every generated plan's text.
#pragma once

#include "ref/interner.hpp"
#include "ref/ir.hpp"
#include "tools/plans/capsules.hpp"
#include "tools/plans/choices.hpp"
#include "tools/plans/kinds.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lo::plans {

/// The knobs of randomPlan: runs of geometric length over a few ops, each op with a small pool of
/// capsules that are near-collisions of one another, where an implementation's grouping goes
/// wrong.
struct PlanKnobs {
  /// At most this many kernels (one plan in eight has at most two).
  std::size_t maxNodes = 24;
  std::size_t maxOps = 3;      // the plan's ops, 1 to maxOps, each with its capsule pool
  std::size_t maxBases = 2;    // independent capsules per op, 1 to maxBases
  std::size_t maxVariants = 3; // near-collisions per op (capsules.hpp: variant), 0 to this
  /// A run's length is geometric (mean 3), capped here (a shrunk source keeps it short).
  std::size_t maxRunLength = SIZE_MAX;
  Vocabulary vocabulary = Vocabulary::suite; // the capsules' texts
  Params params = Params::sensible;          // the kinds' parameters
  /// The edition whose values the plan draws (docs/spec.md §1.7): its ops, kinds, claim and
  /// evidence tags, and a claim's spec only where the edition has it.
  Edition edition = kNewestEdition;
};

/// A plan drawn from `choices` as `knobs` say.
GraphExecutionPlan randomPlan(Interner &interner, Choices &choices, const PlanKnobs &knobs = {});

/// `n` unique node ids below 2^63: consecutive, spaced, near the top of the range, or shuffled.
std::vector<NodeId> nodeIds(Choices &choices, std::size_t n);

/// "Realistic runs" for the benchmarks (tools/plans/model_plans.cpp): the node sequence of a
/// transformer block and of a convolutional stem, interleaved with elementwise chains, on the CPU
/// reference capsules or the native CUDA ones, with a few matmuls on a trusted-external LibTorch
/// capsule; exactly `kernels` kernels, with increasing ids, drawn from `choices` as
/// randomPlan's are, in the values of edition `edition`.
GraphExecutionPlan modelPlan(Interner &interner, Choices &choices, std::uint64_t kernels,
                             Edition edition = kNewestEdition);

} // namespace lo::plans
