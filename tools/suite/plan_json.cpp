#include "tools/suite/plan_json.hpp"

#include "ref/io/writer.hpp"
#include "tools/suite/spelling.hpp"

namespace lo::suite {

std::string planJson(const Interner &interner, const GraphExecutionPlan &plan, Encoding encoding) {
  if (encoding.spelling)
    return spelledPlanJson(interner, plan, encoding.placement, *encoding.spelling);
  return io::writtenText(
      [&](io::Sink &out) { io::writeExecutionPlan(out, interner, plan, {}, encoding.placement); });
}

} // namespace lo::suite
