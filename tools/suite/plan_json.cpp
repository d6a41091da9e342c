#include "tools/suite/plan_json.hpp"

#include "ref/io/writer.hpp"
#include "tools/plans/spelling.hpp"

namespace lo::suite {

std::string planJson(const Interner &interner, const GraphExecutionPlan &plan, Encoding encoding,
                     Edition edition) {
  if (encoding.spelling)
    return plans::spelledPlanJson(interner, plan, encoding.placement, *encoding.spelling, edition);
  return io::writtenText([&](io::Sink &out) {
    io::writeExecutionPlan(out, interner, plan, edition, encoding.placement);
  });
}

} // namespace lo::suite
