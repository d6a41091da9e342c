// The selection checks are complete on small instances (docs/spec.md §10.8): over every registry
// of up to three capsules drawn from a pool of four relu capsules (each refused for another
// reason, or eligible), every policy and availability of a small grid, and two graphs, every
// candidate (each runtime node given any pool capsule or left out, or a failure) passes the checks
// exactly when it is what selection gives. The checks never compare with the reference's plan:
// this test does, to show that passing them means equality.
#include "checks/selection.hpp"

#include <gtest/gtest.h>

namespace lo::test {
namespace {

using namespace lo::selection;

KernelCapsule relu(std::string name, Provider provider, Device device, TrustLevel trust) {
  KernelCapsule c;
  const std::optional<CapsuleModule> module = maintainedModule("reference");
  for (const KernelCapsule &k : module->capsules)
    if (k.op == BackendOp::relu)
      c = k;
  c.name = std::move(name);
  c.provider = provider;
  c.device = device;
  c.trustLevel = trust;
  return c;
}

TEST(Enumeration, PassingTheSelectionChecksMeansEquality) {
  const std::vector<KernelCapsule> pool = {
      relu("a", Provider::reference, Device::cpu, TrustLevel::checked),
      relu("b", Provider::torchlean, Device::cpu, TrustLevel::checked),
      relu("c", Provider::reference, Device::cpu, TrustLevel::trusted_external),
      relu("d", Provider::reference, Device::cuda, TrustLevel::checked)};
  // Every ordered registry of distinct pool capsules, up to three.
  std::vector<std::vector<std::size_t>> registries = {{}};
  for (std::size_t len = 1; len <= 3; ++len)
    for (std::size_t code = 0; code < 64; ++code) {
      std::vector<std::size_t> r;
      for (std::size_t i = 0, c = code; i < len; ++i, c /= 4)
        r.push_back(c % 4);
      unsigned seen = 0;
      bool distinct = true;
      for (std::size_t i : r) {
        distinct = distinct && !(seen & (1u << i));
        seen |= 1u << i;
      }
      if (distinct && code < std::size_t{1} << (2 * len))
        registries.push_back(r);
    }
  using Pref = acceptance::ProviderPreference;
  const Pref preferences[] = {Pref::autoPreference(), Pref::prefer(Provider::torchlean),
                              Pref::prefer(Provider::reference), Pref::only(Provider::torchlean)};
  const Availability availabilities[] = {
      Availability{}, Availability{{Device::cpu, Device::cuda}, {Provider::reference}}};
  Interner interner;
  const KindId input = interner.intern(OpKind{KindTag::input, {}});
  const KindId reluKind = interner.intern(OpKind{KindTag::relu, {}});
  const Graph graphs[] = {
      {{{0, {}, std::nullopt, input}, {1, {0}, BackendOp::relu, reluKind}}},
      {{{0, {}, BackendOp::relu, reluKind}, {1, {0}, BackendOp::relu, reluKind}}}};
  std::vector<CapsuleId> ids;
  for (const KernelCapsule &c : pool)
    ids.push_back(interner.intern(c));
  std::size_t judged = 0, passed = 0;
  for (const auto &r : registries)
    for (const Pref &pref : preferences)
      for (bool external : {false, true})
        for (const Availability &availability : availabilities)
          for (const Graph &g : graphs) {
            BackendProfile p;
            p.name = "grid";
            p.policy = acceptance::checkedCpuPolicy();
            p.policy.provider = pref;
            p.policy.assurance.allowTrustedExternal = external;
            p.availability = availability;
            p.capsuleModules = {{"m", {}}};
            for (std::size_t i : r)
              p.capsuleModules[0].capsules.push_back(pool[i]);
            std::vector<KernelCapsule> registry;
            const SelectionResult expected = planGraphNodes(p, g, registry);
            // The failure, then every candidate: each runtime node given a pool capsule or none.
            const auto failureFindings =
                checks::judgeSelection(p, g, interner, {}, std::string("failed"));
            ++judged;
            EXPECT_EQ(failureFindings.empty(), !expected.ok());
            std::vector<std::size_t> runtime;
            for (std::size_t i = 0; i < g.nodes.size(); ++i)
              if (g.nodes[i].op)
                runtime.push_back(i);
            std::size_t combinations = 1;
            for (std::size_t i = 0; i < runtime.size(); ++i)
              combinations *= pool.size() + 1;
            for (std::size_t code = 0; code < combinations; ++code) {
              GraphExecutionPlan candidate;
              bool equal = expected.ok();
              std::size_t planned = 0;
              for (std::size_t i = 0, c = code; i < runtime.size(); ++i, c /= pool.size() + 1) {
                const std::size_t pick = c % (pool.size() + 1);
                if (pick == pool.size()) {
                  equal = false; // a runtime node left out
                  continue;
                }
                const Node &n = g.nodes[runtime[i]];
                candidate.kernels.push_back({n.id, n.kind, *n.op, ids[pick]});
                if (expected.ok())
                  equal = equal && planned < expected.kernels.size() &&
                          registry[expected.kernels[planned].capsule] == pool[pick];
                ++planned;
              }
              const auto findings = checks::judgeSelection(p, g, interner, candidate);
              ++judged;
              passed += findings.empty();
              EXPECT_EQ(findings.empty(), equal)
                  << "registry of " << r.size() << ", candidate " << code
                  << (findings.empty() ? "" : ": " + std::string(spelling(findings[0].check)));
            }
          }
  std::cout << judged << " candidates judged, " << passed << " passed\n";
  EXPECT_GT(passed, 0u);
}

} // namespace
} // namespace lo::test
