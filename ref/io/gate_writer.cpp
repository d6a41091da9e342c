#include "ref/io/gate_writer.hpp"

#include "ref/io/escape.hpp"
#include "ref/io/gate_reader.hpp"
#include "ref/io/writer.hpp"

#include <array>
#include <unordered_map>

namespace lo::io {

namespace {

/// The first line of the text report: verdict, policy, flags, number of failures.
void writeTextHeading(Sink &out, const AssurancePolicy &policy, std::size_t failures) {
  out << (failures == 0 ? "accepted" : "rejected") << " by policy " << policyName(policy) << " (";
  bool any = false;
  for (const auto &flag : kPolicyFlags)
    if (policy.*flag.field) {
      out << (any ? " " : "") << flag.name;
      any = true;
    }
  out << (any ? ")" : "no flag set)");
  if (failures != 0)
    out << ": " << std::uint64_t{failures} << (failures == 1 ? " failure" : " failures");
  out << '\n';
}

/// The JSON document up to its `failures` array's opening bracket.
void writeJsonHeading(Sink &out, const AssurancePolicy &policy, bool accepted) {
  out << "{\n  \"format\": \"nn-backend/gate-result\",\n  \"version\": 1,\n  \"policy\": {"
      << "\"name\":\"" << policyName(policy) << '"';
  for (const auto &flag : kPolicyFlags)
    out << ",\"" << flag.name << "\":" << (policy.*flag.field ? "true" : "false");
  out << "},\n  \"verdict\": \"" << (accepted ? "accepted" : "rejected")
      << "\",\n  \"failures\": [";
}

} // namespace

bool writeBoundedGate(Sink &out, const Interner &interner, const AssurancePolicy &policy,
                      const ExecutionAudit &audit, bool json) {
  constexpr std::size_t kinds = vocabularySize<GateFailureKind>();
  // The bounded reports of each distinct audit view, made once: rows that share a capsule share
  // them (a long string is copied once per capsule, not once per row).
  std::unordered_map<CapsuleId, std::vector<ObligationReport>> reportsOf;
  auto reports = [&](const KernelAudit &row) -> const std::vector<ObligationReport> & {
    auto [it, fresh] = reportsOf.try_emplace(row.view);
    if (fresh)
      for (auto &r : obligationReports(interner, row))
        it->second.push_back(boundedReport(std::move(r)));
    return it->second;
  };
  // First pass: the number of reports of each failure kind (failureKindOf: the kind gateFailures
  // lists the report under, if any), in gateFailures' order.
  std::array<std::uint64_t, kinds> counts{};
  for (const KernelAudit &row : audit.kernels)
    for (const ObligationReport &r : reports(row))
      if (const auto kind = failureKindOf(policy, r.disposition))
        ++counts[static_cast<std::size_t>(*kind)];
  std::size_t failures = 0;
  for (const std::uint64_t n : counts)
    failures += n != 0;
  if (json)
    writeJsonHeading(out, policy, failures == 0);
  else
    writeTextHeading(out, policy, failures);
  // Then one pass over the rows per failing kind, writing its reports as they come.
  bool firstFailure = true;
  for (std::size_t k = 0; k < kinds; ++k) {
    if (counts[k] == 0)
      continue;
    const auto kind = static_cast<GateFailureKind>(k);
    if (json)
      out << (firstFailure ? "\n    " : ",\n    ") << "{\"kind\":\"" << spelling(kind)
          << "\",\"reports\":[";
    else
      out << spelling(kind) << ": " << counts[k] << (counts[k] == 1 ? " report\n" : " reports\n");
    firstFailure = false;
    bool firstReport = true;
    for (std::size_t row = 0; row < audit.kernels.size(); ++row)
      for (const ObligationReport &r : reports(audit.kernels[row])) {
        if (failureKindOf(policy, r.disposition) != kind)
          continue;
        if (json) {
          out << (firstReport ? "\n      " : ",\n      ");
          writeObligationReport(out, r);
        } else {
          out << "  #" << std::uint64_t{row} << ' ' << reportLine(r) << '\n';
        }
        firstReport = false;
      }
    if (json)
      out << "]}";
  }
  if (json)
    out << (failures == 0 ? "]\n}\n" : "\n  ]\n}\n");
  out.flush();
  return failures == 0;
}

std::string claimLabel(const ContractClaim &c) {
  const std::string op(spelling(c.op));
  using T = ContractClaim::Tag;
  switch (c.tag) {
  case T::shapeSafety: return "shape safety for " + op;
  case T::layoutCompatibility:
    return std::string(spelling(c.layout)) + " layout compatibility for " + op;
  case T::valueRefinement:
    return op + " forward refines " +
           (c.spec ? shownText(*c.spec, kUncut) : "the canonical semantics");
  case T::vjpRefinement:
    return op + " " + std::string(spelling(c.mode)) + " VJP refines " +
           (c.spec ? shownText(*c.spec, kUncut) : "the canonical semantics");
  case T::vjpUnavailable: return op + " supplies no VJP";
  }
  return op;
}

std::string evidenceLabel(const ContractEvidence &e) {
  using T = ContractEvidence::Tag;
  const std::string text = shownText(e.text, kUncut);
  switch (e.tag) {
  case T::theorem: return "proved by " + text;
  case T::checker: return "accepted by proved checker " + text;
  case T::runtimeGuard: return "guarded at runtime by " + text;
  case T::testSuite: return "covered by test suite " + text;
  case T::fuzzOracle: return "compared by fuzz oracle " + text;
  case T::trustedBoundary: return "trusted boundary: " + text;
  case T::notProvided: return "no evidence recorded";
  case T::notApplicable: return "not applicable";
  }
  return text;
}

std::string reportLine(const ObligationReport &r) {
  return std::string(spelling(r.op)) + ": " + shownText(r.capsuleName, kUncut) + " " +
         std::string(spelling(r.obligation)) + ": " + claimLabel(r.claim) + "; " +
         evidenceLabel(r.evidence);
}

void writeObligationReport(Sink &out, const ObligationReport &r) {
  out << "{\"op\":\"" << spelling(r.op) << "\",\"capsuleName\":";
  out.jsonString(r.capsuleName);
  out << ",\"obligation\":\"" << spelling(r.obligation) << "\",\"claim\":";
  writeContractClaim(out, r.claim);
  out << ",\"evidence\":";
  writeContractEvidence(out, r.evidence);
  out << ",\"disposition\":\"" << spelling(r.disposition) << "\"}";
}

void writeGateResult(Sink &out, const AssurancePolicy &policy, const GateResult &result) {
  writeJsonHeading(out, policy, result.accepted());
  for (std::size_t f = 0; f < result.failures.size(); ++f) {
    const GateFailure &failure = result.failures[f];
    out << (f ? ",\n    " : "\n    ") << "{\"kind\":\"" << spelling(failure.kind)
        << "\",\"reports\":[";
    for (std::size_t i = 0; i < failure.reports.size(); ++i) {
      out << (i ? ",\n      " : "\n      ");
      writeObligationReport(out, boundedReport(failure.reports[i]));
    }
    out << "]}";
  }
  out << (result.failures.empty() ? "]\n}\n" : "\n  ]\n}\n");
  out.flush();
}

void writeGateText(Sink &out, const AssurancePolicy &policy, const GateResult &result) {
  writeTextHeading(out, policy, result.failures.size());
  for (const GateFailure &failure : result.failures) {
    out << spelling(failure.kind) << ": " << std::uint64_t{failure.reports.size()}
        << (failure.reports.size() == 1 ? " report\n" : " reports\n");
    for (std::size_t i = 0; i < failure.reports.size(); ++i) {
      out << "  #";
      out << std::uint64_t{i < failure.rows.size() ? failure.rows[i] : i};
      out << ' ' << reportLine(boundedReport(failure.reports[i])) << '\n';
    }
  }
  out.flush();
}

std::string gateReportText(const ObligationReport &r) {
  return obligationReportText(boundedReport(r));
}

std::string gateResultJson(const AssurancePolicy &policy, const GateResult &result) {
  return writtenText([&](Sink &out) { writeGateResult(out, policy, result); });
}

} // namespace lo::io
