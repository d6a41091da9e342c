#include "tests/bench/plan_gen.hpp"

#include "tools/plans/plans.hpp"

#include <random>

namespace lo::bench {

namespace {

/// The generator's choices from std::mt19937_64: below(n) is the next value modulo n.
class Mt19937Choices final : public plans::Choices {
public:
  explicit Mt19937Choices(std::uint64_t seed) : rng_(seed) {}
  std::uint64_t below(std::uint64_t n) override { return rng_() % n; }

private:
  std::mt19937_64 rng_;
};

} // namespace

GraphExecutionPlan generatePlan(Interner &interner, std::uint64_t kernels, std::uint64_t seed) {
  Mt19937Choices choices(seed);
  return plans::modelPlan(interner, choices, kernels, kEdition);
}

} // namespace lo::bench
