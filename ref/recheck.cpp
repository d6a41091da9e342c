#include "ref/recheck.hpp"

#include <tuple>
#include <utility>

namespace lo {

EvidenceDisposition disposition(const ContractEvidence &e) {
  using T = ContractEvidence::Tag;
  using D = EvidenceDisposition;
  switch (e.tag) {
  case T::theorem: return D::proved;
  case T::checker: return D::checked;
  case T::runtimeGuard: return D::guarded;
  case T::testSuite: return D::tested;
  case T::fuzzOracle: return D::fuzzed;
  case T::trustedBoundary: return D::trusted;
  case T::notProvided: return D::missing;
  case T::notApplicable: return D::notApplicable;
  }
  return D::missing;
}

EditionSet editionsOf(EvidenceDisposition d) {
  EditionSet set = 0;
  for (std::size_t i = 0; i < vocabularySize<EvidenceTag>(); ++i) {
    const auto tag = static_cast<EvidenceTag>(i);
    if (disposition(ContractEvidence{tag, {}}) == d)
      set |= editionsOf(tag);
  }
  return set;
}

bool isProvided(const ContractEvidence &e) {
  return disposition(e) != EvidenceDisposition::missing;
}

bool isTrustedBoundary(const ContractEvidence &e) {
  return disposition(e) == EvidenceDisposition::trusted;
}

bool reportLess(const ObligationReport &a, const ObligationReport &b) {
  auto key = [](const ObligationReport &r) {
    return std::tie(r.op, r.capsuleName, r.obligation, r.claim.tag, r.claim.op, r.claim.layout,
                    r.claim.spec, r.claim.mode, r.evidence.tag, r.evidence.text, r.disposition);
  };
  return key(a) < key(b);
}

bool isMissing(const ObligationReport &r) { return r.disposition == EvidenceDisposition::missing; }

bool isTrusted(const ObligationReport &r) { return r.disposition == EvidenceDisposition::trusted; }

const ContractDescriptor &contractOf(const KernelCapsule &c, ContractObligation o) {
  switch (o) {
  case ContractObligation::shape: return c.shapeContract;
  case ContractObligation::layout: return c.layoutContract;
  case ContractObligation::value: return c.valueContract;
  case ContractObligation::vjp: return c.vjpContract;
  }
  return c.shapeContract;
}

ContractDescriptor &contractOf(KernelCapsule &c, ContractObligation o) {
  return const_cast<ContractDescriptor &>(contractOf(std::as_const(c), o));
}

std::vector<ObligationReport> obligationReports(const Interner &interner, const KernelAudit &a) {
  const KernelCapsule &row = interner.capsule(a.view);
  std::vector<ObligationReport> out;
  out.reserve(4);
  for (auto o : {ContractObligation::shape, ContractObligation::layout, ContractObligation::value,
                 ContractObligation::vjp}) {
    const ContractDescriptor &d = contractOf(row, o);
    out.push_back(
        ObligationReport{row.op, row.name, o, d.claim, d.evidence, disposition(d.evidence)});
  }
  return out;
}

namespace {

template <class Keep>
std::vector<ContractObligation> obligationsWhere(const Interner &interner, const KernelAudit &a,
                                                 Keep keep) {
  std::vector<ContractObligation> out;
  for (const auto &r : obligationReports(interner, a))
    if (keep(r))
      out.push_back(r.obligation);
  return out;
}

} // namespace

std::vector<ContractObligation> missingObligations(const Interner &interner, const KernelAudit &a) {
  return obligationsWhere(interner, a, isMissing);
}

std::vector<ContractObligation> trustedBoundaryObligations(const Interner &interner,
                                                           const KernelAudit &a) {
  return obligationsWhere(interner, a, isTrusted);
}

std::vector<ObligationReport> reportsWhere(const Interner &interner, const ExecutionAudit &a,
                                           bool (*keep)(const ObligationReport &)) {
  std::vector<ObligationReport> out;
  for (const auto &row : a.kernels)
    for (auto &r : obligationReports(interner, row))
      if (keep(r))
        out.push_back(std::move(r));
  return out;
}

std::vector<ObligationReport> obligationReports(const Interner &interner, const ExecutionAudit &a) {
  return reportsWhere(interner, a, [](const ObligationReport &) { return true; });
}

std::vector<ObligationReport> missingReports(const Interner &interner, const ExecutionAudit &a) {
  return reportsWhere(interner, a, isMissing);
}

std::vector<ObligationReport> trustedBoundaryReports(const Interner &interner,
                                                     const ExecutionAudit &a) {
  return reportsWhere(interner, a, isTrusted);
}

bool hasNoMissingEvidence(const Interner &interner, const ExecutionAudit &a) {
  return missingReports(interner, a).empty();
}

} // namespace lo
