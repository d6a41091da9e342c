// The structured harness's plans: the one plan generator of the suite (tools/plans/plans.hpp),
// drawing its choices from the fuzzer's bytes.
//
// Valid plans (docs/spec.md §2.4). The generator keeps a small pool of
// capsules per op, some of which differ only outside their identity (trust level, notes, a
// contract), so that the two equalities group differently, and it repeats kinds and capsules often,
// so that runs coalesce. For the fuzzer its texts are drawn strings (control characters included)
// and its kinds' parameters anything their signature allows.
#pragma once

#include "ref/ir.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "tools/plans/plans.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>

namespace lo::fuzz {

/// The fuzzer's bytes as choices: each below(n) consumes what a value below n needs. When the
/// bytes run out, a fixed SplitMix64 answers, so that a generator that loops while a choice says
/// so still ends.
class FuzzedChoices final : public plans::Choices {
public:
  explicit FuzzedChoices(FuzzedDataProvider &in) : in_(in) {}
  std::uint64_t below(std::uint64_t n) override {
    if (in_.remaining_bytes() == 0)
      return fallback_.below(n);
    return in_.ConsumeIntegralInRange<std::uint64_t>(0, n - 1);
  }

private:
  FuzzedDataProvider &in_;
  plans::Rng fallback_{0x66757a7a};
};

/// A plan of at most `maxKernels` kernels of `edition` drawn from the fuzzer's bytes.
inline GraphExecutionPlan generatePlan(FuzzedDataProvider &in, Interner &interner,
                                       std::size_t maxKernels = 48, Edition edition = kEdition) {
  FuzzedChoices choices(in);
  plans::PlanKnobs knobs;
  knobs.maxNodes = maxKernels;
  knobs.maxOps = 4;
  knobs.maxVariants = 4;
  knobs.maxRunLength = 64;
  knobs.vocabulary = plans::Vocabulary::drawn;
  knobs.params = plans::Params::wild;
  knobs.edition = edition;
  return plans::randomPlan(interner, choices, knobs);
}

} // namespace lo::fuzz
