#include "checks/gate_result.hpp"

#include "ref/io/escape.hpp"
#include "ref/io/gate_writer.hpp"

#include <algorithm>
#include <map>

namespace lo::checks {

using io::counted;

namespace {

std::string kindList(const std::vector<GateFailureKind> &kinds) {
  std::string out;
  for (GateFailureKind k : kinds)
    out += (out.empty() ? "" : ", ") + std::string(spelling(k));
  return out.empty() ? "none" : out;
}

} // namespace

GateComparison compareGateResult(std::string_view policyName, const AssurancePolicy &policy,
                                 const GateResult &expected,
                                 const std::vector<ObligationReport> &audit,
                                 const io::ReadGateResult &actual, bool exact) {
  // A report in words: the reference's line for it when the audit has it, else its JSON.
  std::map<std::string, std::string> named;
  for (const ObligationReport &r : audit)
    named.emplace(io::gateReportText(r), io::reportLine(r));
  const auto words = [&](const std::string &c) {
    const auto it = named.find(c);
    return it != named.end() ? io::shownText(it->second, io::kMaxReportWordsBytes)
                             : "the report " + io::shownText(c, io::kMaxReportWordsBytes);
  };
  std::vector<std::vector<std::string>> want;
  std::vector<GateFailureKind> wantKinds, haveKinds;
  for (const GateFailure &f : expected.failures) {
    wantKinds.push_back(f.kind);
    want.emplace_back();
    for (const ObligationReport &r : f.reports)
      want.back().push_back(io::gateReportText(r)); // bounded, as the gate writer writes it
  }
  for (const auto &f : actual.failures)
    haveKinds.push_back(f.kind);
  const std::string under = "under policy " + std::string(policyName) + " ";
  const auto failureWords = [&](GateFailureKind kind, const std::vector<std::string> &reports) {
    return std::string(spelling(kind)) + " (" + counted(reports.size(), "report") + ", e.g. " +
           words(reports.front()) + ")";
  };

  // The verdict.
  if (actual.accepted != expected.accepted()) {
    if (actual.accepted)
      return {GateDifference::acceptsRejected,
              under + "the implementation accepts, the reference rejects: " +
                  failureWords(wantKinds.front(), want.front()),
              "/verdict"};
    return {GateDifference::rejectsAccepted,
            under +
                "the implementation rejects, the reference accepts: the implementation "
                "reports " +
                failureWords(haveKinds.front(), actual.failures.front().reports),
            "/verdict"};
  }
  // The failure kinds, in order.
  if (haveKinds != wantKinds) {
    const std::string both = under + "both reject, but the implementation's failure kinds are " +
                             kindList(haveKinds) + " and the reference's " + kindList(wantKinds) +
                             ": ";
    for (std::size_t i = 0; i < wantKinds.size(); ++i)
      if (std::find(haveKinds.begin(), haveKinds.end(), wantKinds[i]) == haveKinds.end())
        return {GateDifference::kinds,
                both + "the implementation misses " + failureWords(wantKinds[i], want[i]),
                "/failures"};
    for (std::size_t i = 0; i < haveKinds.size(); ++i)
      if (std::find(wantKinds.begin(), wantKinds.end(), haveKinds[i]) == wantKinds.end())
        return {GateDifference::kinds,
                both + "the reference has no " +
                    failureWords(haveKinds[i], actual.failures[i].reports),
                "/failures/" + std::to_string(i)};
    return {GateDifference::kinds,
            both + "the same kinds in another order (docs/spec.md §6.3 "
                   "lists them in one order)",
            "/failures"};
  }
  // The reports of each kind: as lists (exact) or as sets.
  for (std::size_t i = 0; i < want.size(); ++i) {
    const std::vector<std::string> &have = actual.failures[i].reports, &need = want[i];
    const std::string failure = under + "the implementation's " +
                                std::string(spelling(wantKinds[i])) + " failure (" +
                                counted(have.size(), "report") + ", the reference's " +
                                counted(need.size(), "report") + ") ";
    const std::string at = "/failures/" + std::to_string(i);
    std::map<std::string, std::size_t> haveCount, needCount;
    for (const auto &r : have)
      ++haveCount[r];
    for (const auto &r : need)
      ++needCount[r];
    for (const auto &r : need)
      if (!haveCount.count(r))
        return {GateDifference::reports, failure + "lacks " + words(r), at};
    for (const auto &r : have)
      if (!needCount.count(r))
        return {GateDifference::reports,
                failure + "has a report the reference does not: " + words(r), at};
    if (!exact)
      continue;
    for (const auto &[r, n] : needCount)
      if (haveCount[r] != n)
        return {GateDifference::reports,
                failure + "lists " + words(r) + " " + counted(haveCount[r], "time") +
                    ", the reference " + counted(n, "time"),
                at};
    for (std::size_t j = 0; j < need.size(); ++j)
      if (have[j] != need[j])
        return {GateDifference::reports,
                failure + "lists the reports in another order: report " + std::to_string(j) +
                    " is " + words(have[j]) + ", the reference's " + words(need[j]),
                at + "/reports/" + std::to_string(j)};
  }
  // The policy it names.
  if (actual.policyName != policyName || !(actual.policy == policy)) {
    std::string flags;
    for (const auto &flag : kPolicyFlags)
      if (actual.policy.*flag.field != policy.*flag.field)
        flags +=
            " " + std::string(flag.name) + "=" + (actual.policy.*flag.field ? "true" : "false");
    return {GateDifference::policy,
            under + "the gate agrees, but the implementation's result names policy " +
                io::shownText(actual.policyName, io::kMaxPolicyNameBytes) +
                (flags.empty() ? "" : " with" + flags),
            "/policy"};
  }
  return {};
}

std::string exitContradiction(int exitCode, bool accepted) {
  if (!((exitCode == 0 && !accepted) || (exitCode == 1 && accepted)))
    return {};
  return "the gate exited with status " + std::to_string(exitCode) + " (" +
         (exitCode == 0 ? "accepted" : "rejected") + "), but its result's verdict is " +
         (accepted ? "accepted" : "rejected") +
         " (a gate exits 0 when it accepts, 1 when it rejects)";
}

} // namespace lo::checks
