#include "checks/picture_facts.hpp"

namespace lo::checks {

namespace {

/// The gate of `lowering` under every preset: a gate depends only on the set of reports, so on
/// the distinct rows of the lowering (distinctRows).
std::vector<GateResult> presetGates(Interner &interner, const GraphLoweringPlan &lowering) {
  const ExecutionAudit rows = distinctRows(interner, lowering);
  std::vector<GateResult> out;
  for (const auto &p : kPolicyPresets)
    out.push_back(gate(interner, p.policy, rows));
  return out;
}

} // namespace

PictureFacts pictureFacts(Interner &interner, const GraphExecutionPlan &plan,
                          const io::LoweringDocument *candidate, Mode mode, Equality equality) {
  PictureFacts f;
  f.reference = lower(interner, plan, mode, equality);
  f.referenceGates = presetGates(interner, f.reference);
  if (candidate)
    f.candidateGates = presetGates(interner, candidate->plan);
  return f;
}

} // namespace lo::checks
