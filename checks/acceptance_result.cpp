#include "checks/acceptance_result.hpp"

#include "ref/io/acceptance_writer.hpp"
#include "ref/io/escape.hpp"
#include "ref/io/limits.hpp"

namespace lo::checks {

namespace {

using acceptance::AcceptanceFailure;

/// A capsule name as the acceptance result writes it (cut at kMaxGateTextBytes, then "...").
std::string writtenName(std::string name) {
  io::cutText(name, io::kMaxGateTextBytes);
  return name;
}

std::string failureWords(const AcceptanceFailure &f, std::size_t group) {
  return std::string(spelling(f.kind)) + " of group " + std::to_string(group) + " (" +
         io::shownText(acceptance::message(f), io::kMaxReportWordsBytes) + ")";
}

} // namespace

GateComparison compareAcceptanceResult(const Interner &interner, std::string_view profile,
                                       const acceptance::KernelPolicy &policy,
                                       const acceptance::GraphAcceptance &expected,
                                       const io::ReadAcceptanceResult &actual) {
  const std::string under = "under profile " + std::string(profile) + " ";
  const bool accepts = expected.accepted();
  if (actual.accepted != accepts) {
    GateComparison c{
        actual.accepted ? GateDifference::acceptsRejected : GateDifference::rejectsAccepted,
        under + "the implementation " + (actual.accepted ? "accepts" : "rejects") +
            " the plan, but the reference " + (accepts ? "accepts" : "rejects") + " it",
        "/verdict"};
    if (!accepts)
      c.words += ": " + failureWords(io::boundedFailure(expected.failures.front()),
                                     expected.failureGroups.front());
    return c;
  }
  // The groups: the plan's coalesced groups under contract, always derived.
  const auto &groups = expected.groups.groups;
  for (std::size_t i = 0; i < std::max(groups.size(), actual.groups.size()); ++i) {
    if (i < groups.size() && i < actual.groups.size()) {
      const io::ReadAcceptanceResult::Group want{
          groups[i].nodeIds.vector(), groups[i].op,
          writtenName(interner.capsule(groups[i].capsule).name)};
      if (actual.groups[i] == want)
        continue;
    }
    const std::string pointer =
        i < actual.groups.size() ? "/groups/" + std::to_string(i) : "/groups";
    return {GateDifference::kinds,
            under + "the result's groups are not the plan's coalesced groups under contract: " +
                (i >= actual.groups.size() ? "group " + std::to_string(i) + " is missing"
                 : i >= groups.size() ? "it lists " + io::counted(actual.groups.size(), "group") +
                                            ", the plan has " + std::to_string(groups.size())
                                      : "group " + std::to_string(i) + " differs"),
            pointer};
  }
  // The failures, in order, each with its group.
  for (std::size_t i = 0; i < std::max(expected.failures.size(), actual.failures.size()); ++i) {
    const bool haveWant = i < expected.failures.size(), haveActual = i < actual.failures.size();
    if (haveWant && haveActual && io::boundedFailure(expected.failures[i]) == actual.failures[i] &&
        expected.failureGroups[i] == actual.failureGroups[i])
      continue;
    std::string words = under + "failure " + std::to_string(i) + " differs: ";
    if (haveWant)
      words += "the reference's is " +
               failureWords(io::boundedFailure(expected.failures[i]), expected.failureGroups[i]);
    else
      words += "the reference lists " + io::counted(expected.failures.size(), "failure");
    if (haveActual)
      words += (haveWant ? ", the implementation's " : ", and the implementation lists ") +
               failureWords(actual.failures[i], actual.failureGroups[i]);
    else
      words += ", and the implementation lists " + io::counted(actual.failures.size(), "failure");
    return {GateDifference::reports, std::move(words),
            haveActual ? "/failures/" + std::to_string(i) : "/failures"};
  }
  if (actual.profile != profile || !(actual.policy == policy))
    return {GateDifference::policy,
            under + "the result is the reference's, but it names profile " +
                io::shownText(actual.profile, io::kMaxReportWordsBytes) +
                (actual.policy == policy ? "" : " and another kernel policy"),
            "/policy"};
  return {};
}

} // namespace lo::checks
