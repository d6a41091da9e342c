// GroupFold (ref/lowering.hpp), the lowering one kernel at a time, against `lower` as its model:
// the groups it hands out are those of `lower` in every mode and equality, and
// io::writeLoweringOf writes the bytes io::writeLoweringPlan writes for `lower`'s plan. Random
// plans with near-collisions of capsules (where identity and contract equality group apart); the
// seed is printed, LO_TEST_SEED=N runs it again.
#include "ref/io/writer.hpp"
#include "ref/lowering.hpp"
#include "tests/random_seed.hpp"
#include "tools/plans/plans.hpp"

#include <gtest/gtest.h>

namespace lo::test {
namespace {

TEST(GroupFold, GivesTheGroupsOfLower) {
  plans::Rng rng(randomSeed());
  std::size_t groups = 0, appended = 0;
  for (int round = 0; round < 300; ++round) {
    Interner interner;
    plans::PlanKnobs knobs;
    knobs.edition = static_cast<Edition>(rng.below(vocabularySize<Edition>()));
    const GraphExecutionPlan plan = plans::randomPlan(interner, rng, knobs);
    for (const Mode mode : {Mode::singleton, Mode::coalesced})
      for (const Equality equality : {Equality::contract, Equality::identity}) {
        const GraphLoweringPlan model = lower(interner, plan, mode, equality);
        GraphLoweringPlan folded;
        GroupFold fold(interner, mode, equality);
        const auto emit = [&](const LoweredKernelGroup &g) { folded.groups.push_back(g); };
        for (const auto &k : plan.kernels)
          fold.push(k, emit);
        fold.finish(emit);
        ASSERT_EQ(folded, model) << "mode " << spelling(mode) << ", " << spelling(equality);
        groups += model.groups.size();
        for (const auto &g : model.groups)
          appended += g.nodeIds.size() - 1;

        const auto edition = knobs.edition;
        ASSERT_EQ(io::loweringPlanJson(interner, model, mode, equality, nullptr, edition),
                  [&] {
                    std::string text;
                    io::Sink sink(text);
                    io::writeLoweringOf(sink, interner, plan, mode, equality, edition);
                    return text;
                  }())
            << "mode " << spelling(mode) << ", " << spelling(equality);
      }
  }
  // Groups of one and groups of many were both met.
  EXPECT_GT(groups, 0u);
  EXPECT_GT(appended, 0u);
}

} // namespace
} // namespace lo::test
