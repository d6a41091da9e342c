#include "tools/support/gate_compare.hpp"

#include "ref/io/contract_reader.hpp"
#include "ref/io/gate_writer.hpp"
#include "ref/io/strict_json.hpp"
#include "ref/recheck.hpp"
#include "tools/support/report.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace lo::cli {

namespace {

/// A report as io::writeObligationReport writes it: one spelling for each report, whatever the
/// member order, white space and string escapes of the text it was read from.
std::string reportText(const ObligationReport &r) {
  std::string text;
  io::Sink out(text);
  io::writeObligationReport(out, r);
  out.flush();
  return text;
}

std::string plural(std::size_t n, const char *word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string kindList(const std::vector<GateFailureKind> &kinds) {
  std::string out;
  for (GateFailureKind k : kinds)
    out += (out.empty() ? "" : ", ") + std::string(spelling(k));
  return out.empty() ? "none" : out;
}

// The fields of a gate result (docs/spec.md §6.5) and of its parts, in the order of their bits.
constexpr std::string_view kGateResultFormat = "nn-backend/gate-result";
constexpr std::string_view kResultFields[] = {"format", "version", "policy", "verdict", "failures"};
constexpr std::string_view kPolicyFields[] = {"name",
                                              "allowChecked",
                                              "allowFuzzed",
                                              "allowTrustedExternal",
                                              "requireEvidence",
                                              "allowRuntimeGuards",
                                              "allowTestEvidence"};
constexpr std::string_view kFailureFields[] = {"kind", "reports"};
/// The six fields of an obligation report (docs/spec.md §6.1).
constexpr std::string_view kReportFields[] = {"op",    "capsuleName", "obligation",
                                              "claim", "evidence",    "disposition"};

/// kPolicyFields after `name` are the six booleans of kPolicyFlags, in their order.
constexpr bool policyFieldsAreTheFlags() {
  if (std::size(kPolicyFields) != std::size(kPolicyFlags) + 1)
    return false;
  for (std::size_t i = 0; i < std::size(kPolicyFlags); ++i)
    if (kPolicyFields[i + 1] != kPolicyFlags[i].name)
      return false;
  return true;
}
static_assert(policyFieldsAreTheFlags());

using io::fieldBits;
using io::FieldSet;
using io::JsonReader;
namespace od = io::od;

/// A policy: `name` (a preset or "custom") and the six booleans, all required.
void readPolicy(JsonReader &r, od::value &v, ReadGateResult &out) {
  r.fields(v, "a policy",
           FieldSet{kPolicyFields,
                    fieldBits(kPolicyFields,
                              {"name", "allowChecked", "allowFuzzed", "allowTrustedExternal",
                               "requireEvidence", "allowRuntimeGuards", "allowTestEvidence"})},
           [&](std::size_t i, od::value x) {
             if (i > 0) {
               out.policy.*kPolicyFlags[i - 1].field = r.boolean(x, kPolicyFields[i]);
               return;
             }
             const char *at = r.location(x);
             const std::string_view name = r.string(x, "a policy name");
             if (name != "custom" && !policyPreset(name))
               r.fail(at, "unknown policy name " + io::quote(name) +
                              "; expected one of: verified, checked, external, custom");
             out.policyName = name;
           });
}

/// An obligation report: its six fields, and the disposition that of its evidence (§6.1).
ObligationReport readReport(JsonReader &r, od::value &v) {
  ObligationReport out;
  r.fields(v, "an obligation report",
           FieldSet{kReportFields, fieldBits(kReportFields, {"op", "capsuleName", "obligation",
                                                             "claim", "evidence", "disposition"})},
           [&](std::size_t i, od::value x) {
             switch (i) {
             case 0: out.op = r.enumValue<BackendOp>(x); break;
             case 1: out.capsuleName = std::string(r.string(x, "a capsule name")); break;
             case 2: out.obligation = r.enumValue<ContractObligation>(x); break;
             case 3: out.claim = io::readClaim(r, x); break;
             case 4: out.evidence = io::readEvidence(r, x); break;
             case 5: out.disposition = r.enumValue<EvidenceDisposition>(x); break;
             }
           });
  if (const EvidenceDisposition d = disposition(out.evidence); out.disposition != d)
    r.failAtPointer(r.pointer() + "/disposition",
                    "disposition " + io::quote(spelling(out.disposition)) + " is not that of " +
                        std::string(spelling(out.evidence.tag)) + " evidence, " +
                        io::quote(spelling(d)));
  return out;
}

/// A failure: its kind (`kinds` holds those read before: each at most once) and its reports.
ReadGateResult::Failure readFailure(JsonReader &r, od::value &v, std::set<GateFailureKind> &kinds) {
  ReadGateResult::Failure out;
  r.fields(v, "a failure", FieldSet{kFailureFields, fieldBits(kFailureFields, {"kind", "reports"})},
           [&](std::size_t i, od::value x) {
             const char *at = r.location(x);
             if (i == 0) {
               out.kind = r.enumValue<GateFailureKind>(x);
               if (!kinds.insert(out.kind).second)
                 r.fail(at, "failure kind " + std::string(spelling(out.kind)) + " listed twice");
               return;
             }
             r.elements(x, "the reports array", [&](od::value &report) {
               out.reports.push_back(reportText(readReport(r, report)));
             });
             if (out.reports.empty())
               r.fail(at, "a failure lists at least one report");
           });
  return out;
}

} // namespace

ReadGateResult GateComparer::read(const io::Source &source) {
  JsonReader r(source);
  ReadGateResult out;
  std::set<GateFailureKind> kinds;
  r.rootFields("a gate result",
               FieldSet{kResultFields, fieldBits(kResultFields, {"policy", "verdict", "failures"})},
               [&](std::size_t i, od::value v) {
                 switch (i) {
                 case 0: r.expectFormat(v, kGateResultFormat); break;
                 case 1: r.expectVersion(v); break;
                 case 2: readPolicy(r, v, out); break;
                 case 3: {
                   const char *at = r.location(v);
                   const std::string_view verdict = r.string(v, "a verdict");
                   if (verdict != "accepted" && verdict != "rejected")
                     r.fail(at, "unknown verdict " + io::quote(verdict) +
                                    "; expected one of: accepted, rejected");
                   out.accepted = verdict == "accepted";
                   break;
                 }
                 case 4:
                   r.elements(v, "the failures array", [&](od::value &f) {
                     out.failures.push_back(readFailure(r, f, kinds));
                   });
                   break;
                 }
               });
  if (out.accepted != out.failures.empty())
    r.failAtPointer("/verdict", out.accepted ? "\"accepted\", but /failures lists " +
                                                   plural(out.failures.size(), "failure")
                                             : "\"rejected\", but /failures is empty");
  return out;
}

GateComparison GateComparer::compare(std::string_view policyName, const AssurancePolicy &policy,
                                     const GateResult &expected,
                                     const std::vector<ObligationReport> &audit,
                                     const ReadGateResult &actual, bool exact) {
  // A report in words: the reference's line for it when the audit has it, else its JSON.
  std::map<std::string, std::string> named;
  for (const ObligationReport &r : audit)
    named.emplace(reportText(r), io::reportLine(r));
  const auto words = [&](const std::string &c) {
    const auto it = named.find(c);
    return it != named.end() ? shownText(it->second, 400) : "the report " + shownText(c, 400);
  };
  std::vector<std::vector<std::string>> want;
  std::vector<GateFailureKind> wantKinds, haveKinds;
  for (const GateFailure &f : expected.failures) {
    wantKinds.push_back(f.kind);
    want.emplace_back();
    for (const ObligationReport &r : f.reports)
      want.back().push_back(reportText(r));
  }
  for (const auto &f : actual.failures)
    haveKinds.push_back(f.kind);
  const std::string under = "under policy " + std::string(policyName) + " ";
  const auto failureWords = [&](GateFailureKind kind, const std::vector<std::string> &reports) {
    return std::string(spelling(kind)) + " (" + plural(reports.size(), "report") + ", e.g. " +
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
    const std::string failure =
        under + "the implementation's " + std::string(spelling(wantKinds[i])) + " failure (" +
        plural(have.size(), "report") + ", the reference's " + plural(need.size(), "report") + ") ";
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
                failure + "lists " + words(r) + " " + plural(haveCount[r], "time") +
                    ", the reference " + plural(n, "time"),
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
                shownText(actual.policyName, 40) + (flags.empty() ? "" : " with" + flags),
            "/policy"};
  }
  return {};
}

} // namespace lo::cli
