// Harness 1, the plan reader: any bytes give a plan or a clean error, and a plan that is read is
// the same after writing and reading it again, in every edition; read as a plan, a lowering and a
// graph, the direct path of the readers agrees with the strict reader (tests/direct_agreement.hpp).
#include "ref/edition.hpp"
#include "ref/io/reader.hpp"
#include "ref/io/writer.hpp"
#include "tests/direct_agreement.hpp"
#include "tests/fuzz/fuzz_support.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

using namespace lo;

namespace {

/// The two plans are the same: same nodes, kinds, ops and capsules (compared by value, since the
/// two documents were read into different interners).
void requireSamePlan(const Interner &a, const GraphExecutionPlan &p, const Interner &b,
                     const GraphExecutionPlan &q, std::string_view detail) {
  fuzz::require(p.kernels.size() == q.kernels.size(), "round trip changed the number of kernels",
                detail);
  for (std::size_t i = 0; i < p.kernels.size(); ++i) {
    const auto &x = p.kernels[i];
    const auto &y = q.kernels[i];
    fuzz::require(x.nodeId == y.nodeId && x.op == y.op, "round trip changed a kernel", detail);
    fuzz::require(a.kind(x.kind) == b.kind(y.kind), "round trip changed a kind", detail);
    fuzz::require(a.capsule(x.capsule) == b.capsule(y.capsule), "round trip changed a capsule",
                  detail);
  }
}

} // namespace

/// One edition (docs/spec.md §1.6): the bytes read in it give a plan or a clean error, and the
/// plan written and read again in it is the same plan, written the same.
void roundTrip(std::string_view bytes, Edition edition) {
  for (const auto document :
       {test::Document::plan, test::Document::lowering, test::Document::graph}) {
    test::Direct direct{};
    const std::string why = test::directDisagreement(bytes, document, edition, direct);
    fuzz::require(why.empty(), "the direct path disagrees with the strict reader",
                  why + "\n" + std::string(bytes));
  }
  Interner interner;
  GraphExecutionPlan plan;
  try {
    plan = io::readExecutionPlan(io::sourceFromString("input.json", bytes), interner, edition);
  } catch (const io::InputError &e) {
    fuzz::requireCleanError(e, "input.json");
    return;
  }
  const std::string once = io::executionPlanJson(interner, plan, edition);
  Interner again;
  GraphExecutionPlan reread;
  try {
    reread = io::readExecutionPlan(io::sourceFromString("written.json", once), again, edition);
  } catch (const io::InputError &e) {
    fuzz::fail("the writer's output of a valid plan is rejected",
               std::string(e.what()) + "\n" + once);
  }
  requireSamePlan(interner, plan, again, reread, once);
  fuzz::require(io::executionPlanJson(again, reread, edition) == once,
                "writing the re-read plan gives other bytes", once);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char *>(data), size);
  // Every edition reads the same bytes: a value of one edition only is an error in the other.
  for (std::size_t e = 0; e < vocabularySize<Edition>(); ++e)
    roundTrip(bytes, static_cast<Edition>(e));
  return 0;
}
