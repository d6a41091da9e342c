// `check PLAN CANDIDATE` (docs/spec.md §3.1): runs every check on the candidate and gathers the
// findings.
#include "checks/catalogue.hpp"
#include "checks/context.hpp"
#include "ref/io/reader.hpp"

namespace lo::checks {

std::array<std::size_t, vocabularySize<Check>()> Report::countsPerCheck() const {
  std::array<std::size_t, vocabularySize<Check>()> n{};
  for (const auto &v : violations)
    ++n[static_cast<std::size_t>(v.check)];
  for (const auto &[c, k] : omitted)
    n[static_cast<std::size_t>(c)] += k;
  return n;
}

std::size_t Report::total() const {
  std::size_t n = 0;
  for (auto k : countsPerCheck())
    n += k;
  return n;
}

std::optional<std::string> editionNote(std::string_view what, std::optional<Edition> declared,
                                       Edition judged) {
  if (!declared || *declared == judged)
    return std::nullopt;
  return std::string(what) + " declares edition " + std::string(spelling(*declared)) +
         ", but it is read in edition " + std::string(spelling(judged));
}

Report check(Interner &interner, const GraphExecutionPlan &plan,
             const io::LoweringDocument &candidate, const Options &options) {
  detail::Context cx(interner, plan, candidate, options);
  detail::declarationNotes(cx, candidate.mode, candidate.equality, candidate.edition);
  // The order matters: earlier checks record what later checks must not name again.
  detail::checkProvenance(cx);
  detail::checkOrder(cx);
  if (candidate.audit) {
    detail::checkCarriedAudit(cx);
    detail::checkCarriedTrustBoundary(cx);
  } else if (options.auditAsked) {
    // An asked-for audit that the candidate lacks is an audit finding (docs/spec.md §3.1).
    cx.findings.report(Check::audit, std::nullopt, std::nullopt, [] {
      return detail::Description{"/audit", "the audit was asked for, but the candidate carries "
                                           "none (an ExecutionAudit in \"audit\", docs/spec.md "
                                           "§2.6)"};
    });
  }
  detail::GroupChecks groups(cx);
  for (const auto &k : plan.kernels)
    groups.planned(k);
  const auto &list = candidate.plan.groups;
  for (std::size_t g = 0; g < list.size(); ++g) {
    detail::GroupSite site{g, list[g], detail::MemberList(plan.kernels, cx.index, list[g].nodeIds)};
    groups.judge(site);
  }
  groups.finish();
  Report r = std::move(cx.findings).finish();
  if (auto note = notRunNote(options.edition))
    r.notes.push_back(std::move(*note));
  return r;
}

CheckedDocuments checkDocuments(Interner &interner, const io::Source &plan,
                                const std::function<const io::Source &()> &candidate,
                                const Options &options) {
  CheckedDocuments out;
  std::optional<Edition> planDeclares;
  out.plan = io::readExecutionPlan(plan, interner, options.edition, &planDeclares);
  out.candidate = io::readLoweringPlan(candidate(), interner, options.edition);
  out.report = check(interner, out.plan, out.candidate, options);
  if (auto note = editionNote("the plan", planDeclares, options.edition))
    out.report.notes.insert(out.report.notes.begin(), std::move(*note));
  return out;
}

} // namespace lo::checks
