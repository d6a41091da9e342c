// `check PLAN CANDIDATE`: "decides whether CANDIDATE is exactly what the spec gives for PLAN
// under a mode and an equality, and names every way in which it is not" (SPEC section 3).
#include "checks/context.hpp"

namespace lo::checks {

Report check(Interner &interner, const GraphExecutionPlan &plan,
             const io::LoweringDocument &candidate, const Options &options) {
  detail::Context cx(interner, plan, candidate, options);
  if (candidate.mode && *candidate.mode != options.mode)
    cx.findings.note("the candidate declares mode " + std::string(spelling(*candidate.mode)) +
                     ", but it is checked as mode " + std::string(spelling(options.mode)));
  if (candidate.equality && *candidate.equality != options.equality)
    cx.findings.note(
        "the candidate declares equality " + std::string(spelling(*candidate.equality)) +
        ", but it is checked with equality " + std::string(spelling(options.equality)));
  // The order matters: earlier checks record what later checks must not name again.
  detail::checkProvenance(cx);
  detail::checkOrder(cx);
  detail::checkEmptyGroup(cx);
  detail::checkKinds(cx);
  detail::checkOp(cx);
  detail::checkCapsule(cx);
  detail::checkGroupingKind(cx);
  detail::checkSingleton(cx);
  detail::checkMaximal(cx);
  detail::checkAudit(cx);
  detail::checkTrustBoundary(cx);
  return std::move(cx.findings).finish();
}

} // namespace lo::checks
