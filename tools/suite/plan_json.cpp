#include "tools/suite/plan_json.hpp"

#include "ref/io/writer.hpp"
#include "tools/suite/spelling.hpp"

#include <vector>

namespace lo::suite {

std::string planJson(const Interner &interner, const GraphExecutionPlan &plan, Encoding encoding) {
  if (encoding.spelling)
    return spelledPlanJson(interner, plan, encoding.placement, *encoding.spelling);
  std::string text;
  io::Sink out(text);
  if (encoding.placement == Placement::table) {
    io::writeExecutionPlan(out, interner, plan);
    return text;
  }
  // Inline (or alternately inline and by key): only the capsules used by key go to the table.
  const auto byKey = [&](std::size_t i) {
    return encoding.placement == Placement::mixed && i % 2 == 1;
  };
  std::vector<CapsuleId> keyed;
  for (std::size_t i = 0; i < plan.kernels.size(); ++i)
    if (byKey(i))
      keyed.push_back(plan.kernels[i].capsule);
  io::CapsuleKeys keys(interner, keyed);
  out << "{\n  \"format\": \"nn-backend/graph-execution-plan\",\n  \"version\": 1,\n";
  if (!keyed.empty()) {
    io::writeCapsuleTable(out, interner, keys);
    out << ",\n";
  }
  out << "  \"kernels\": [";
  for (std::size_t i = 0; i < plan.kernels.size(); ++i) {
    const auto &k = plan.kernels[i];
    out << (i ? ",\n    " : "\n    ");
    io::writeKernel(out, interner, k, byKey(i) ? &keys.key(k.capsule) : nullptr);
  }
  out << (plan.kernels.empty() ? "]\n}\n" : "\n  ]\n}\n");
  out.flush();
  return text;
}

} // namespace lo::suite
