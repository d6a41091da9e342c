#include "checks/audit_rows.hpp"

#include <array>

namespace lo::checks::detail {

std::string rowLabel(const Interner &interner, std::size_t i, CapsuleId row) {
  const KernelCapsule &c = interner.capsule(row);
  return "audit row " + std::to_string(i) + " (" + std::string(spelling(c.op)) + ", capsule " +
         c.name + ")";
}

std::optional<BackendOp> hiddenTrustedExternalOp(const std::vector<BackendOp> &shown,
                                                 const std::vector<BackendOp> &truth) {
  std::array<std::size_t, vocabularySize<BackendOp>()> count{};
  for (BackendOp op : shown)
    ++count[static_cast<std::size_t>(op)];
  for (BackendOp op : truth)
    if (count[static_cast<std::size_t>(op)]-- == 0)
      return op;
  return std::nullopt;
}

std::size_t trustedExternalRows(const Interner &interner, const std::vector<KernelAudit> &rows) {
  std::size_t n = 0;
  for (const auto &r : rows)
    n += isTrustedExternal(interner, r);
  return n;
}

} // namespace lo::checks::detail
