// Harness 3, structured differential: a valid plan built from the fuzzer's bytes; both lowerings
// pass every check, round-trip through JSON and relate as docs/spec.md §1.2 says. And the
// acceptance gate (docs/spec.md §6.7): coalescing under contract preserves it for the presets and a
// drawn policy; the identity lowering only ever accepts more; `check` names `gate` exactly when a
// preset's differs.
#include "checks/checks.hpp"
#include "ref/gate.hpp"
#include "ref/io/reader.hpp"
#include "ref/io/writer.hpp"
#include "ref/lowering.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "tests/fuzz/plan_generator.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace lo;

namespace {

std::string describe(const Interner &interner, const GraphExecutionPlan &plan) {
  return io::executionPlanJson(interner, plan, fuzz::kEdition);
}

/// Expanding each coalesced group gives the singleton lowering: the group's ids and kinds,
/// one by one, with the group's op, and a capsule that is `same` as the member's.
void requireRefines(const Interner &interner, Equality equality, const GraphLoweringPlan &coalesced,
                    const GraphLoweringPlan &singleton, const std::string &detail) {
  std::size_t n = 0;
  for (const auto &g : coalesced.groups) {
    fuzz::require(!g.nodeIds.empty() && g.nodeIds.size() == g.kinds.size(),
                  "a coalesced group is empty or its kinds do not match its ids", detail);
    fuzz::require(g.groupingKind == (g.nodeIds.size() == 1 ? GroupingKind::singleton
                                                           : GroupingKind::sameCapsuleRun),
                  "wrong groupingKind", detail);
    for (std::size_t i = 0; i < g.nodeIds.size(); ++i, ++n) {
      fuzz::require(n < singleton.groups.size(), "coalesced lowering has more nodes", detail);
      const auto &s = singleton.groups[n];
      fuzz::require(s.nodeIds.size() == 1 && s.nodeIds[0] == g.nodeIds[i] &&
                        s.kinds[0] == g.kinds[i] && s.op == g.op &&
                        interner.same(equality, s.capsule, g.capsule),
                    "expanding a coalesced group does not give the singleton lowering", detail);
    }
  }
  fuzz::require(n == singleton.groups.size(), "coalesced lowering has fewer nodes", detail);
}

/// Maximality: no two adjacent groups could be one.
void requireMaximal(const Interner &interner, Equality equality, const GraphExecutionPlan &plan,
                    const GraphLoweringPlan &coalesced, const std::string &detail) {
  std::size_t start = 0;
  for (std::size_t i = 0; i + 1 < coalesced.groups.size(); ++i) {
    start += coalesced.groups[i].nodeIds.size();
    fuzz::require(!canAppend(interner, equality, coalesced.groups[i], plan.kernels[start]),
                  "two adjacent coalesced groups could be one", detail);
  }
}

/// Group start positions (indices into the plan).
std::vector<std::size_t> starts(const GraphLoweringPlan &p) {
  std::vector<std::size_t> out;
  std::size_t n = 0;
  for (const auto &g : p.groups) {
    out.push_back(n);
    n += g.nodeIds.size();
  }
  return out;
}

/// Writing a lowering and reading it back gives the same groups, and the same bytes again.
void requireLoweringRoundTrip(Interner &interner, const GraphLoweringPlan &lowering, Mode mode,
                              Equality equality, const std::string &detail) {
  const AuditDocument audit = toDocument(interner, lo::audit(interner, lowering));
  const std::string once = io::loweringPlanJson(interner, lowering, mode, equality, &audit);
  io::LoweringDocument doc;
  try {
    doc =
        io::readLoweringPlan(io::sourceFromString("lowering.json", once), interner, fuzz::kEdition);
  } catch (const io::InputError &e) {
    fuzz::fail("the writer's lowering is rejected by the reader",
               std::string(e.what()) + "\n" + once);
  }
  fuzz::require(doc.plan == lowering, "lowering round trip changed the groups", once);
  fuzz::require(doc.mode == mode && doc.equality == equality,
                "lowering round trip changed mode or equality", once);
  fuzz::require(doc.audit && *doc.audit == audit, "lowering round trip changed the audit", once);
  fuzz::require(io::loweringPlanJson(interner, doc.plan, mode, equality, &*doc.audit) == once,
                "lowering round trip gives other bytes", once);
  (void)detail;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  Interner interner;
  const GraphExecutionPlan plan = fuzz::generatePlan(in, interner);
  const std::string detail = describe(interner, plan);

  // JSON round trip of the plan, into the same interner: the same ids come back.
  try {
    const GraphExecutionPlan reread =
        io::readExecutionPlan(io::sourceFromString("plan.json", detail), interner, fuzz::kEdition);
    fuzz::require(reread == plan, "plan round trip changed the plan", detail);
  } catch (const io::InputError &e) {
    fuzz::fail("a valid plan is rejected by the reader", std::string(e.what()) + "\n" + detail);
  }

  const GraphLoweringPlan singleton = toSingletonLoweringPlan(plan);
  fuzz::require(lower(interner, plan, Mode::singleton, Equality::identity) == singleton,
                "the singleton lowering depends on the equality", detail);
  fuzz::require(nodeIds(singleton).size() == plan.kernels.size(), "singleton lost nodes", detail);
  requireRefines(interner, Equality::contract, singleton, singleton, detail);

  for (Equality equality : {Equality::contract, Equality::identity}) {
    const GraphLoweringPlan coalesced = toCoalescedLoweringPlan(interner, plan, equality);
    requireRefines(interner, equality, coalesced, singleton, detail);
    requireMaximal(interner, equality, plan, coalesced, detail);
    // Under contract equality every member's capsule is the group's capsule, exactly.
    if (equality == Equality::contract) {
      std::size_t n = 0;
      for (const auto &g : coalesced.groups)
        for (std::size_t i = 0; i < g.nodeIds.size(); ++i, ++n)
          fuzz::require(plan.kernels[n].capsule == g.capsule,
                        "a contract group holds another capsule", detail);
    }
    for (Mode mode : {Mode::singleton, Mode::coalesced}) {
      const GraphLoweringPlan &lowering = mode == Mode::singleton ? singleton : coalesced;
      requireLoweringRoundTrip(interner, lowering, mode, equality, detail);
      const std::string written = io::loweringPlanJson(interner, lowering, mode, equality, nullptr);
      const io::LoweringDocument doc = io::readLoweringPlan(
          io::sourceFromString("candidate.json", written), interner, fuzz::kEdition);
      const checks::Report report = checks::check(
          interner, plan, doc, {mode, equality, io::kDefaultMaxPerCheck, fuzz::kEdition});
      std::string why;
      for (const auto &v : report.violations)
        why += std::string(spelling(v.check)) + " " + v.pointer + ": " + v.message + "\n";
      fuzz::require(report.conforms(), "the reference lowering fails a check", why + detail);
    }
  }

  // The gate: the presets and one policy drawn from the input's remaining bytes.
  std::vector<AssurancePolicy> policies;
  for (const auto &preset : kPolicyPresets)
    policies.push_back(preset.policy);
  const auto bits = in.ConsumeIntegral<std::uint8_t>();
  AssurancePolicy drawn;
  for (std::size_t i = 0; i < std::size(kPolicyFlags); ++i)
    drawn.*kPolicyFlags[i].field = (bits >> i) & 1u;
  policies.push_back(drawn);
  const GraphLoweringPlan contract = toCoalescedLoweringPlan(interner, plan, Equality::contract);
  const GraphLoweringPlan identity = toCoalescedLoweringPlan(interner, plan, Equality::identity);
  bool presetDiffers = false;
  for (std::size_t i = 0; i < policies.size(); ++i) {
    const GateResult s = gate(interner, policies[i], singleton);
    fuzz::require(sameGate(gate(interner, policies[i], contract), s),
                  "coalescing under contract changes the gate", detail);
    const GateResult id = gate(interner, policies[i], identity);
    fuzz::require(!s.accepted() || id.accepted(),
                  "the identity lowering rejects what the singleton lowering accepts", detail);
    if (i < std::size(kPolicyPresets))
      presetDiffers = presetDiffers || !sameGate(id, s);
  }
#ifdef LO_FUZZ_HAVE_CHECKS
  {
    io::LoweringDocument doc;
    doc.plan = identity;
    const checks::Report report = checks::check(
        interner, plan, doc,
        {Mode::coalesced, Equality::contract, io::kDefaultMaxPerCheck, fuzz::kEdition});
    bool named = false;
    for (const auto &v : report.violations)
      named = named || v.check == Check::gate;
    fuzz::require(named == presetDiffers,
                  "check names gate where no preset's gate differs, or misses one", detail);
  }
#else
  (void)presetDiffers;
#endif

  // Identity groups are coarser than contract groups: every identity group boundary is a
  // contract group boundary.
  const auto contractStarts = starts(toCoalescedLoweringPlan(interner, plan, Equality::contract));
  const auto identityStarts = starts(toCoalescedLoweringPlan(interner, plan, Equality::identity));
  fuzz::require(std::includes(contractStarts.begin(), contractStarts.end(), identityStarts.begin(),
                              identityStarts.end()),
                "identity grouping is not coarser than contract grouping", detail);
  return 0;
}
