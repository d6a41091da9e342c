#include "checks/audit_rows.hpp"

namespace lo::checks::detail {

std::string rowLabel(const Interner &interner, std::size_t i, CapsuleId row) {
  const KernelCapsule &c = interner.capsule(row);
  return "audit row " + std::to_string(i) + " (" + std::string(spelling(c.op)) + ", capsule " +
         c.name + ")";
}

std::size_t trustedExternalRows(const Interner &interner, const std::vector<KernelAudit> &rows) {
  std::size_t n = 0;
  for (const auto &r : rows)
    n += isTrustedExternal(interner, r);
  return n;
}

} // namespace lo::checks::detail
