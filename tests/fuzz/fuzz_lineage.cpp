// Harness 4, the lean-dojo lineage (docs/spec.md §1.6, §6.10): a valid plan of the newest edition
// built from the fuzzer's bytes. It round-trips in its edition; its coalesced lowerings under both
// equalities pass every check the edition runs and are written without kinds and grouping kind;
// and upstream's acceptance gate (ref/acceptance.hpp) under a KernelPolicy drawn from the bytes
// holds what docs/spec.md §5.5 proves: over the plan's coalesced groups under contract it accepts
// exactly when every node is acceptable and reports the same failures as the nodes do, while over
// the identity lowering's groups it reports only failures of the nodes.
#include "checks/checks.hpp"
#include "ref/acceptance.hpp"
#include "ref/edition.hpp"
#include "ref/io/reader.hpp"
#include "ref/io/writer.hpp"
#include "ref/lowering.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "tests/fuzz/plan_generator.hpp"

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

using namespace lo;

namespace {

constexpr Edition kLineage = kNewestEdition;

template <class E> E drawn(FuzzedDataProvider &in) {
  const std::vector<E> values = valuesOf<E>(kLineage);
  return values[in.ConsumeIntegralInRange<std::size_t>(0, values.size() - 1)];
}

acceptance::KernelPolicy drawPolicy(FuzzedDataProvider &in) {
  acceptance::KernelPolicy p;
  p.device = drawn<Device>(in);
  const auto kind = in.ConsumeIntegralInRange<int>(0, 2);
  const Provider provider = drawn<Provider>(in);
  p.provider = kind == 0   ? acceptance::ProviderPreference::autoPreference()
               : kind == 1 ? acceptance::ProviderPreference::prefer(provider)
                           : acceptance::ProviderPreference::only(provider);
  p.assurance.allowTrustedExternal = in.ConsumeBool();
  p.vjpMode = drawn<VJPMode>(in);
  return p;
}

/// A failure as its kind and message (the message shows every field its kind carries).
std::string key(const acceptance::AcceptanceFailure &f) {
  return std::string(spelling(f.kind)) + ": " + acceptance::message(f);
}

std::set<std::string> keys(const std::vector<acceptance::AcceptanceFailure> &failures) {
  std::set<std::string> out;
  for (const auto &f : failures)
    out.insert(key(f));
  return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  Interner interner;
  const GraphExecutionPlan plan = fuzz::generatePlan(in, interner, 48, kLineage);
  const std::string detail = io::executionPlanJson(interner, plan, kLineage);
  try {
    const GraphExecutionPlan reread =
        io::readExecutionPlan(io::sourceFromString("plan.json", detail), interner, kLineage);
    fuzz::require(reread == plan, "plan round trip changed the plan", detail);
  } catch (const io::InputError &e) {
    fuzz::fail("a valid plan is rejected by the reader", std::string(e.what()) + "\n" + detail);
  }

  for (Equality equality : {Equality::contract, Equality::identity}) {
    const GraphLoweringPlan coalesced = toCoalescedLoweringPlan(interner, plan, equality);
    const std::string written =
        io::loweringPlanJson(interner, coalesced, Mode::coalesced, equality, nullptr, kLineage);
    fuzz::require(written.find("\"groupingKind\"") == std::string::npos &&
                      written.find("\"kinds\"") == std::string::npos,
                  "a lowering of the lineage is written with kinds or a grouping kind", written);
    io::LoweringDocument doc;
    try {
      doc =
          io::readLoweringPlan(io::sourceFromString("candidate.json", written), interner, kLineage);
    } catch (const io::InputError &e) {
      fuzz::fail("the writer's lowering is rejected by the reader",
                 std::string(e.what()) + "\n" + written);
    }
    const checks::Report report = checks::check(
        interner, plan, doc, {Mode::coalesced, equality, io::kDefaultMaxPerCheck, kLineage});
    std::string why;
    for (const auto &v : report.violations)
      why += std::string(spelling(v.check)) + " " + v.pointer + ": " + v.message + "\n";
    fuzz::require(report.conforms(), "the reference lowering fails a check", why + detail);
  }

  // The acceptance gate under a drawn policy.
  const acceptance::KernelPolicy policy = drawPolicy(in);
  const acceptance::GraphAcceptance upstream =
      acceptance::acceptGraphKernelPlan(interner, plan, policy);
  std::vector<acceptance::AcceptanceFailure> nodes;
  bool everyNode = true;
  for (const PlannedNodeKernel &k : plan.kernels) {
    auto f = acceptance::acceptanceFailures(policy, k.op, interner.capsule(k.capsule));
    everyNode = everyNode && acceptance::acceptable(policy, k.op, interner.capsule(k.capsule));
    nodes.insert(nodes.end(), f.begin(), f.end());
  }
  fuzz::require(upstream.accepted() == everyNode,
                "acceptGraphKernelPlan's verdict is not every node's", detail);
  fuzz::require(keys(upstream.failures) == keys(nodes),
                "coalescing under contract changes the acceptance failures", detail);
  for (const auto &f : upstream.failures)
    fuzz::require(!acceptance::message(f).empty(), "a failure without a message", detail);
  const acceptance::GraphAcceptance merged = acceptance::acceptGroups(
      interner, toCoalescedLoweringPlan(interner, plan, Equality::identity), policy);
  const std::set<std::string> all = keys(nodes);
  for (const auto &f : merged.failures)
    fuzz::require(all.contains(key(f)), "the identity lowering reports a failure of no node",
                  key(f) + "\n" + detail);
  fuzz::require(!upstream.accepted() || merged.accepted(),
                "the identity lowering rejects what the plan's groups accept", detail);
  return 0;
}
