// `check --stream` (checks::checkStream) against `check` (checks::check) on generated plans: the
// stream checker reads the plan and the candidate one kernel and one group at a time and judges
// provenance and order by merging the two id sequences, so what it must keep of `check` is
// stated here and tested on every mutant of the catalogue and on shuffled id sequences:
//   - the verdict is always `check`'s;
//   - when the candidate lists the plan's ids in plan order, the whole report is `check`'s;
//   - it names provenance or order exactly when the candidate's ids are not the plan's in order.
#include "checks/checks.hpp"
#include "tests/property/generators.hpp"
#include "tests/property/mutations.hpp"
#include "tests/property/support.hpp"
#include "tests/seed.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <sstream>

namespace lo::prop {
namespace {

/// The plan of `spec` with its node ids sorted into increasing order (the stream form's rule);
/// the ids keep their gaps and their range.
GraphExecutionPlan increasingPlan(const PlanSpec &spec, Interner &interner) {
  GraphExecutionPlan plan = buildPlan(spec, interner);
  std::vector<NodeId> ids = kernelIds(plan);
  std::sort(ids.begin(), ids.end());
  for (std::size_t i = 0; i < ids.size(); ++i)
    plan.kernels[i].nodeId = ids[i];
  return plan;
}

bool inPlanOrder(const GraphExecutionPlan &plan, const GraphLoweringPlan &candidate) {
  std::vector<NodeId> ids;
  for (const auto &group : candidate.groups)
    ids.insert(ids.end(), group.nodeIds.begin(), group.nodeIds.end());
  return ids == kernelIds(plan);
}

bool namesSequence(const checks::Report &report) {
  auto sequence = [](Check c) { return c == Check::provenance || c == Check::order; };
  return std::any_of(report.violations.begin(), report.violations.end(),
                     [&](const auto &v) { return sequence(v.check); }) ||
         std::any_of(report.omitted.begin(), report.omitted.end(),
                     [&](const auto &o) { return sequence(o.first); });
}

/// Compares the two checkers on one candidate, as the header of this file says.
void compare(Interner &interner, const GraphExecutionPlan &plan, const GraphLoweringPlan &candidate,
             const checks::Options &options) {
  io::LoweringDocument doc;
  doc.plan = candidate;
  const checks::Report whole = checks::check(interner, plan, doc, options);
  const checks::Report stream = checks::checkStream(interner, plan, doc, options);
  RC_LOG() << "check:\n" << describe(whole) << "check --stream:\n" << describe(stream);
  RC_ASSERT(whole.conforms() == stream.conforms());
  const bool ordered = inPlanOrder(plan, candidate);
  RC_ASSERT(namesSequence(stream) == !ordered);
  if (ordered) {
    RC_ASSERT(whole.violations == stream.violations);
    RC_ASSERT(whole.omitted == stream.omitted);
    RC_ASSERT(whole.notes == stream.notes);
  }
}

RC_GTEST_PROP(StreamCheck, AgreesWithCheckOnTheReferenceAndEveryMutant, ()) {
  const PlanSpec spec = *genPlan();
  const Mode mode = *genMode();
  const Equality equality = *genEquality();
  const auto salt = *rc::gen::arbitrary<std::uint64_t>();
  const std::size_t cap = *rc::gen::inRange<std::size_t>(1, 25);
  Interner interner;
  const GraphExecutionPlan plan = increasingPlan(spec, interner);
  io::LoweringDocument reference;
  reference.plan = lower(interner, plan, mode, equality);
  const checks::Options options = test::seed::options(mode, equality, cap);
  compare(interner, plan, reference.plan, options);
  RC_ASSERT(checks::checkStream(interner, plan, reference, options).conforms());
  for (std::size_t i = 0; i < vocabularySize<Mutation>(); ++i) {
    auto mutant = mutate(static_cast<Mutation>(i), interner, plan, reference, mode, equality,
                         salt + i, spec.edition);
    if (mutant) // (the stream form carries no audit, so alterAuditRow never applies)
      compare(interner, plan, mutant->document.plan, options);
  }
}

// The merge on sequences the catalogue does not make: node ids dropped, repeated, moved far,
// replaced by ids the plan lacks, and groups cut anywhere, on plans whose ids have gaps.
RC_GTEST_PROP(StreamCheck, AgreesWithCheckOnShuffledIdSequences, ()) {
  const PlanSpec spec = *genPlan(PlanShape{12, 6});
  const Mode mode = *genMode();
  const Equality equality = *genEquality();
  Interner interner;
  const GraphExecutionPlan plan = increasingPlan(spec, interner);
  std::vector<std::size_t> order(plan.kernels.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  // Positions into the plan, edited: each step drops, repeats, moves one position, or inserts
  // an id the plan lacks (a position past its end).
  const auto edits = *rc::gen::container<std::vector<std::array<std::size_t, 3>>>(
      rc::gen::map(rc::gen::arbitrary<std::array<std::uint16_t, 3>>(), [](auto a) {
        return std::array<std::size_t, 3>{a[0], a[1], a[2]};
      }));
  for (const auto &[what, from, to] : edits) {
    if (order.empty())
      break;
    const std::size_t a = from % order.size(), b = to % (order.size() + 1);
    switch (what % 4) {
    case 0: order.erase(order.begin() + static_cast<std::ptrdiff_t>(a)); break;
    case 1: order.insert(order.begin() + static_cast<std::ptrdiff_t>(b), order[a]); break;
    case 2: {
      const std::size_t x = order[a];
      order.erase(order.begin() + static_cast<std::ptrdiff_t>(a));
      order.insert(order.begin() + static_cast<std::ptrdiff_t>(std::min(b, order.size())), x);
      break;
    }
    case 3: order.insert(order.begin() + static_cast<std::ptrdiff_t>(b), plan.kernels.size() + a);
    }
  }
  // Cut into groups where the generator says, each group carrying its first node's op and
  // capsule (an id the plan lacks borrows the plan's first kernel, with a fresh id).
  const auto cuts =
      *rc::gen::container<std::vector<bool>>(order.size(), rc::gen::arbitrary<bool>());
  GraphLoweringPlan candidate;
  const NodeId beyond = plan.kernels.empty() ? 0 : plan.kernels.back().nodeId;
  for (std::size_t i = 0; i < order.size(); ++i) {
    PlannedNodeKernel k = plan.kernels[order[i] % plan.kernels.size()];
    if (order[i] >= plan.kernels.size())
      k.nodeId = beyond + 1 + order[i]; // not in the plan
    if (i == 0 || cuts[i])
      candidate.groups.push_back(toSingletonLoweredGroup(k));
    else
      appendNode(candidate.groups.back(), k);
  }
  compare(interner, plan, candidate, test::seed::options(mode, equality, 20));
}

} // namespace
} // namespace lo::prop
