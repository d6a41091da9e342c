// Completeness by enumeration: for every plan of up to 5 nodes (4 outside the campaign tier,
// tests/campaign.hpp) over a small capsule alphabet
// (including identity-equal, contract-different capsules), every way of cutting it into
// contiguous groups is checked; under each mode and equality exactly one cut passes, and it is
// the reference lowering. (The checks never compute the reference: this test is what shows that
// passing them implies equality.)
#include "fixtures.hpp"
#include "tests/campaign.hpp"
#include "tests/seed.hpp"

#include <gtest/gtest.h>

namespace lo::checks::testing {
namespace {

struct Symbol {
  KindId kind;
  BackendOp op;
  CapsuleId capsule;
};

/// The cut `mask` (bit i set: a group boundary after node i) as a lowering: each group carries
/// its first node's op and capsule, its nodes' kinds, and the groupingKind of its size.
GraphLoweringPlan cut(const GraphExecutionPlan &plan, unsigned mask) {
  GraphLoweringPlan out;
  for (std::size_t i = 0; i < plan.kernels.size(); ++i) {
    if (i == 0 || (mask >> (i - 1)) & 1u)
      out.groups.push_back(toSingletonLoweredGroup(plan.kernels[i]));
    else
      appendNode(out.groups.back(), plan.kernels[i]);
  }
  return out;
}

TEST(Enumeration, ExactlyTheReferenceCutPasses) {
  Interner in;
  const Alphabet a = alphabet(in);
  // relu with reference.relu (verified), reference.relu (trusted-external: same identity, other
  // contract), cudnn.relu (another identity); tanh with reference.tanh (another op).
  const Symbol symbols[] = {{a.relu, BackendOp::relu, a.R},
                            {a.relu, BackendOp::relu, a.Rx},
                            {a.relu, BackendOp::relu, a.C},
                            {a.tanh, BackendOp::tanh, a.T}};
  constexpr std::size_t kSymbols = std::size(symbols);
  const std::size_t maxNodes = lo::testing::instance<std::size_t>(4, 5);
  const Mode modes[] = {Mode::coalesced, Mode::singleton};
  const Equality equalities[] = {Equality::contract, Equality::identity};

  std::size_t plans = 0, candidates = 0;
  for (std::size_t n = 1; n <= maxNodes; ++n) {
    std::size_t words = 1;
    for (std::size_t i = 0; i < n; ++i)
      words *= kSymbols;
    for (std::size_t word = 0; word < words; ++word) {
      GraphExecutionPlan plan;
      for (std::size_t i = 0, w = word; i < n; ++i, w /= kSymbols) {
        const Symbol &s = symbols[w % kSymbols];
        plan.kernels.push_back({NodeId{10 + i}, s.kind, s.op, s.capsule});
      }
      ++plans;
      std::vector<io::LoweringDocument> cuts(std::size_t{1} << (n - 1));
      for (unsigned mask = 0; mask < cuts.size(); ++mask)
        cuts[mask].plan = cut(plan, mask);
      for (Mode mode : modes)
        for (Equality equality : equalities) {
          const GraphLoweringPlan reference = lower(in, plan, mode, equality);
          std::size_t passing = 0;
          for (unsigned mask = 0; mask < cuts.size(); ++mask) {
            ++candidates;
            // A cap of 0 lists nothing and counts everything: no message is built.
            const Report r =
                check(in, plan, cuts[mask], lo::test::seed::options(mode, equality, 0));
            const bool isReference = cuts[mask].plan == reference;
            if (r.conforms()) {
              ++passing;
              ASSERT_TRUE(isReference) << "a cut that is not the reference passes: plan word "
                                       << word << " of " << n << " nodes, cut " << mask;
            } else {
              ASSERT_FALSE(isReference)
                  << "the reference fails: plan word " << word << " of " << n << " nodes\n"
                  << describe(r);
              // One wrong cut, one root cause: every finding names maximal or singleton,
              // capsule or op (the only things a cut can get wrong), or trust-boundary when a
              // wrong capsule hides a trusted-external node.
              // A wrong capsule or op may also change the gate: gate then tells the
              // consequence, never alone.
              const std::set<Check> found = checksOf(r);
              for (Check c : found)
                ASSERT_TRUE(c == Check::maximal || c == Check::singleton || c == Check::capsule ||
                            c == Check::op || c == Check::trustBoundary || c == Check::gate)
                    << spelling(c) << " for plan word " << word << ", cut " << mask;
              if (found.count(Check::gate)) {
                ASSERT_TRUE(found.count(Check::capsule) || found.count(Check::op) ||
                            found.count(Check::singleton))
                    << "gate alone for plan word " << word << ", cut " << mask;
              }
            }
          }
          ASSERT_EQ(passing, 1u) << "plan word " << word << " of " << n << " nodes, mode "
                                 << spelling(mode) << ", equality " << spelling(equality);
        }
    }
  }
  std::printf("enumerated %zu plans, %zu candidate checks\n", plans, candidates);
  std::size_t expected = 0; // 4 + 16 + ... + 4^maxNodes
  for (std::size_t n = 1, words = 4; n <= maxNodes; ++n, words *= 4)
    expected += words;
  EXPECT_EQ(plans, expected);
}

} // namespace
} // namespace lo::checks::testing
