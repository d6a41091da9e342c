#include "ref/audit.hpp"

#include "ref/list.hpp"

#include <unordered_map>

namespace lo {

KernelCapsule auditView(BackendOp op, const KernelCapsule &capsule) {
  // The row's fields from the capsule, every other field of the view at its default.
  KernelCapsule view;
  forEachField<AuditRow>([&](const auto &f, auto) { view.*f.member = capsule.*f.member; });
  view.op = op;
  return view;
}

KernelAudit ofPlannedKernel(Interner &interner, const PlannedKernel &k) {
  return KernelAudit{interner.intern(auditView(k.op, interner.capsule(k.capsule)))};
}

bool isTrustedExternal(const Interner &interner, const KernelAudit &row) {
  return isTrustedExternal(interner.capsule(row.view));
}

ExecutionAudit audit(Interner &interner, const ExecutionPlan &p) {
  ExecutionAudit a;
  a.kernels.reserve(p.kernels.size());
  // A plan repeats a few (op, capsule) pairs: the row of each is built and interned once.
  std::unordered_map<std::uint64_t, KernelAudit> rows;
  for (const auto &k : p.kernels) {
    const std::uint64_t key =
        static_cast<std::uint64_t>(k.capsule) << 8 | static_cast<std::uint64_t>(k.op);
    auto it = rows.find(key);
    if (it == rows.end())
      it = rows.emplace(key, ofPlannedKernel(interner, k)).first;
    a.kernels.push_back(it->second);
  }
  return a;
}

std::vector<std::string> capsuleNames(const Interner &interner, const ExecutionAudit &a) {
  return mapped(a.kernels, [&](const KernelAudit &row) { return interner.capsule(row.view).name; });
}

std::vector<TrustLevel> trustLevels(const Interner &interner, const ExecutionAudit &a) {
  return mapped(a.kernels,
                [&](const KernelAudit &row) { return interner.capsule(row.view).trustLevel; });
}

std::vector<BackendOp> trustedExternalOps(const Interner &interner, const ExecutionAudit &a) {
  std::vector<BackendOp> out;
  for (const auto &row : a.kernels)
    if (isTrustedExternal(interner, row))
      out.push_back(interner.capsule(row.view).op);
  return out;
}

bool hasTrustedExternal(const Interner &interner, const ExecutionAudit &a) {
  for (const auto &row : a.kernels)
    if (isTrustedExternal(interner, row))
      return true;
  return false;
}

AuditDocument toDocument(const Interner &interner, ExecutionAudit a) {
  AuditDocument d;
  d.capsuleNames = TextList(capsuleNames(interner, a));
  d.trustLevels = trustLevels(interner, a);
  d.trustedExternalOps = trustedExternalOps(interner, a);
  d.hasTrustedExternal = hasTrustedExternal(interner, a);
  d.audit = std::move(a);
  return d;
}

} // namespace lo
