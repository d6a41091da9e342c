#include "ref/io/acceptance_writer.hpp"

#include "ref/io/escape.hpp"
#include "ref/io/gate_writer.hpp"
#include "ref/io/limits.hpp"
#include "ref/io/writer.hpp"

#include <map>
#include <utility>
#include <vector>

namespace lo::io {

using acceptance::AcceptanceFailure;
using acceptance::KernelPolicy;

AcceptanceFailure boundedFailure(AcceptanceFailure f) { return boundedTexts(std::move(f)); }

void writeAcceptanceFailure(Sink &out, const AcceptanceFailure &f, std::size_t group) {
  using K = AcceptanceFailureKind;
  out << "{\"group\":" << std::uint64_t{group} << ",\"kind\":\"" << spelling(f.kind)
      << "\",\"op\":\"" << spelling(f.op) << '"';
  if (f.kind == K::operationMismatch)
    out << ",\"capsuleOp\":\"" << spelling(f.capsuleOp) << '"';
  else {
    out << ",\"capsuleName\":";
    out.jsonString(f.capsuleName);
  }
  switch (f.kind) {
  case K::trustRejected: out << ",\"trust\":\"" << spelling(f.trust) << '"'; break;
  case K::providerRejected: out << ",\"provider\":\"" << spelling(f.provider) << '"'; break;
  case K::deviceMismatch:
    out << ",\"requested\":\"" << spelling(f.requestedDevice) << "\",\"actual\":\""
        << spelling(f.actualDevice) << '"';
    break;
  case K::vjpMismatch:
    out << ",\"requested\":\"" << spelling(f.requestedVJP) << "\",\"actual\":\""
        << spelling(f.actualVJP) << '"';
    break;
  case K::evidenceRejected:
    out << ",\"obligation\":\"" << spelling(f.obligation) << "\",\"claim\":";
    writeContractClaim(out, f.claim);
    out << ",\"evidence\":";
    writeContractEvidence(out, f.evidence);
    break;
  default: break;
  }
  out << ",\"message\":";
  out.jsonString(acceptance::message(f));
  out << '}';
}

bool writeAcceptance(Sink &out, const Interner &interner, std::string_view profile,
                     const KernelPolicy &policy, const GraphLoweringPlan &groups, bool json) {
  // The bounded failures of each distinct (op, capsule), made once.
  std::map<std::pair<BackendOp, CapsuleId>, std::vector<AcceptanceFailure>> failuresOf;
  auto failures = [&](const LoweredKernelGroup &g) -> const std::vector<AcceptanceFailure> & {
    auto [it, fresh] = failuresOf.try_emplace({g.op, g.capsule});
    if (fresh)
      for (auto &f : acceptance::acceptanceFailures(policy, g.op, interner.capsule(g.capsule)))
        it->second.push_back(boundedFailure(std::move(f)));
    return it->second;
  };
  std::uint64_t count = 0;
  for (const LoweredKernelGroup &g : groups.groups)
    count += failures(g).size();
  const bool accepted = count == 0;
  const std::string preference = acceptance::preferenceSpelling(policy.provider);
  if (json) {
    out << "{\n  \"format\": \"nn-backend/acceptance-result\",\n  \"version\": 1,\n"
        << "  \"policy\": {\"profile\":";
    out.jsonString(profile);
    out << ",\"device\":\"" << spelling(policy.device) << "\",\"provider\":\"" << preference
        << "\",\"allowTrustedExternal\":"
        << (policy.assurance.allowTrustedExternal ? "true" : "false") << ",\"vjpMode\":\""
        << spelling(policy.vjpMode) << "\"},\n  \"verdict\": \""
        << (accepted ? "accepted" : "rejected") << "\",\n  \"groups\": [";
    for (std::size_t i = 0; i < groups.groups.size(); ++i) {
      const LoweredKernelGroup &g = groups.groups[i];
      out << (i ? ",\n    " : "\n    ") << "{\"nodeIds\":[";
      for (std::size_t n = 0; n < g.nodeIds.size(); ++n)
        out << (n ? "," : "") << std::uint64_t{g.nodeIds[n]};
      out << "],\"op\":\"" << spelling(g.op) << "\",\"capsuleName\":";
      std::string name = interner.capsule(g.capsule).name;
      cutText(name, kMaxGateTextBytes);
      out.jsonString(name);
      out << '}';
    }
    out << (groups.groups.empty() ? "],\n  \"failures\": [" : "\n  ],\n  \"failures\": [");
  } else {
    // Upstream's profile summary (Report.lean), with the provider preference.
    out << (accepted ? "accepted" : "rejected") << " by profile=" << profile
        << " device=" << spelling(policy.device) << " provider=" << preference
        << " assurance=" << acceptance::assuranceSpelling(policy.assurance)
        << " vjp=" << spelling(policy.vjpMode);
    if (!accepted)
      out << ": " << count << (count == 1 ? " failure" : " failures");
    out << '\n';
  }
  bool first = true;
  for (std::size_t i = 0; i < groups.groups.size(); ++i)
    for (const AcceptanceFailure &f : failures(groups.groups[i])) {
      if (json) {
        out << (first ? "\n    " : ",\n    ");
        writeAcceptanceFailure(out, f, i);
      } else {
        out << "  group " << std::uint64_t{i} << ' ' << spelling(f.kind) << ": "
            << shownText(acceptance::message(f), kUncut) << '\n';
      }
      first = false;
    }
  if (json)
    out << (first ? "]\n}\n" : "\n  ]\n}\n");
  out.flush();
  return accepted;
}

std::string acceptanceText(const Interner &interner, std::string_view profile,
                           const KernelPolicy &policy, const GraphLoweringPlan &groups, bool json) {
  return writtenText(
      [&](Sink &out) { writeAcceptance(out, interner, profile, policy, groups, json); });
}

} // namespace lo::io
