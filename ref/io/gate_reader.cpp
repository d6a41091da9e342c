#include "ref/io/gate_reader.hpp"

#include "ref/io/contract_reader.hpp"
#include "ref/io/gate_writer.hpp"
#include "ref/io/strict_json.hpp"
#include "ref/io/verdict_reader.hpp"
#include "ref/recheck.hpp"

#include <algorithm>
#include <array>
#include <set>

namespace lo::io {

namespace {

// The fields of a gate result (docs/spec.md §6.5) and of its parts, in the order of their bits.
constexpr std::string_view kGateResultFormat = "nn-backend/gate-result";
constexpr std::string_view kResultFields[] = {"format", "version", "policy", "verdict", "failures"};
/// A policy's fields: `name`, then the six booleans of kPolicyFlags, in their order.
constexpr auto kPolicyFields = [] {
  std::array<std::string_view, std::size(kPolicyFlags) + 1> fields{"name"};
  for (std::size_t i = 0; i < std::size(kPolicyFlags); ++i)
    fields[i + 1] = kPolicyFlags[i].name;
  return fields;
}();
constexpr std::string_view kFailureFields[] = {"kind", "reports"};
/// The six fields of an obligation report (docs/spec.md §6.1).
constexpr std::string_view kReportFields[] = {"op",    "capsuleName", "obligation",
                                              "claim", "evidence",    "disposition"};

/// A policy: `name` (a preset or "custom") and the six booleans, all required.
void readPolicy(JsonReader &r, od::value &v, ReadGateResult &out) {
  r.fields(v, "a policy", FieldSet{kPolicyFields, allFieldBits(kPolicyFields.size())},
           [&](std::size_t i, od::value x) {
             if (i > 0) {
               out.policy.*kPolicyFlags[i - 1].field = r.boolean(x, kPolicyFields[i]);
               return;
             }
             const char *at = r.location(x);
             const std::string_view name = r.string(x, "a policy name");
             if (name != kCustomPolicy && !policyPreset(name))
               r.fail(at, "unknown policy name " + quote(name) +
                              "; expected one of: " + policyNames(true));
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
             case 3: out.claim = readRecord<ContractClaim>(r, x); break;
             case 4: out.evidence = readRecord<ContractEvidence>(r, x); break;
             case 5: out.disposition = r.enumValue<EvidenceDisposition>(x); break;
             }
           });
  if (const EvidenceDisposition d = disposition(out.evidence); out.disposition != d)
    r.failAtPointer(r.pointer() + "/disposition",
                    "disposition " + quote(spelling(out.disposition)) + " is not that of " +
                        std::string(spelling(out.evidence.tag)) + " evidence, " +
                        quote(spelling(d)));
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
               out.reports.push_back(obligationReportText(readReport(r, report)));
             });
             if (out.reports.empty())
               r.fail(at, "a failure lists at least one report");
           });
  return out;
}

} // namespace

std::string obligationReportText(const ObligationReport &r) {
  std::string text;
  Sink out(text);
  writeObligationReport(out, r);
  out.flush();
  return text;
}

ReadGateResult readGateResult(const Source &source, Edition edition) {
  JsonReader r(source);
  r.setEdition(edition);
  ReadGateResult out;
  std::set<GateFailureKind> kinds;
  r.documentFields(
      "a gate result", kGateResultFormat,
      FieldSet{kResultFields, fieldBits(kResultFields, {"policy", "verdict", "failures"})},
      [&](std::size_t i, od::value v) {
        switch (i) {
        case 2: readPolicy(r, v, out); break;
        case 3: out.accepted = readVerdict(r, v); break;
        case 4:
          r.elements(v, "the failures array",
                     [&](od::value &f) { out.failures.push_back(readFailure(r, f, kinds)); });
          break;
        }
      });
  checkVerdictAgrees(r, out.accepted, out.failures.size());
  return out;
}

} // namespace lo::io
