#include "ref/io/gate_writer.hpp"

#include "ref/io/writer.hpp"

namespace lo::io {

std::string claimLabel(const ContractClaim &c) {
  const std::string op(spelling(c.op));
  using T = ContractClaim::Tag;
  switch (c.tag) {
  case T::shapeSafety: return "shape safety for " + op;
  case T::layoutCompatibility:
    return std::string(spelling(c.layout)) + " layout compatibility for " + op;
  case T::valueRefinement: return op + " forward refines " + shownText(c.spec, kUncut);
  case T::vjpRefinement:
    return op + " " + std::string(spelling(c.mode)) + " VJP refines " + shownText(c.spec, kUncut);
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
  out << "{\n  \"format\": \"nn-backend/gate-result\",\n  \"version\": 1,\n  \"policy\": {"
      << "\"name\":\"" << policyName(policy) << '"';
  for (const auto &flag : kPolicyFlags)
    out << ",\"" << flag.name << "\":" << (policy.*flag.field ? "true" : "false");
  out << "},\n  \"verdict\": \"" << (result.accepted() ? "accepted" : "rejected")
      << "\",\n  \"failures\": [";
  for (std::size_t f = 0; f < result.failures.size(); ++f) {
    const GateFailure &failure = result.failures[f];
    out << (f ? ",\n    " : "\n    ") << "{\"kind\":\"" << spelling(failure.kind)
        << "\",\"reports\":[";
    for (std::size_t i = 0; i < failure.reports.size(); ++i) {
      out << (i ? ",\n      " : "\n      ");
      writeObligationReport(out, failure.reports[i]);
    }
    out << "]}";
  }
  out << (result.failures.empty() ? "]\n}\n" : "\n  ]\n}\n");
  out.flush();
}

void writeGateText(Sink &out, const AssurancePolicy &policy, const GateResult &result) {
  out << (result.accepted() ? "accepted" : "rejected") << " by policy " << policyName(policy)
      << " (";
  bool any = false;
  for (const auto &flag : kPolicyFlags)
    if (policy.*flag.field) {
      out << (any ? " " : "") << flag.name;
      any = true;
    }
  out << (any ? ")" : "no flag set)");
  if (!result.accepted())
    out << ": " << std::uint64_t{result.failures.size()}
        << (result.failures.size() == 1 ? " failure" : " failures");
  out << '\n';
  for (const GateFailure &failure : result.failures) {
    out << spelling(failure.kind) << ": " << std::uint64_t{failure.reports.size()}
        << (failure.reports.size() == 1 ? " report\n" : " reports\n");
    for (std::size_t i = 0; i < failure.reports.size(); ++i) {
      out << "  #";
      out << std::uint64_t{i < failure.rows.size() ? failure.rows[i] : i};
      out << ' ' << reportLine(failure.reports[i]) << '\n';
    }
  }
  out.flush();
}

std::string gateResultJson(const AssurancePolicy &policy, const GateResult &result) {
  return writtenText([&](Sink &out) { writeGateResult(out, policy, result); });
}

} // namespace lo::io
