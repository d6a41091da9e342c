// Harness 2, the candidate reader and `check`: any bytes, as a candidate against fixed plans, give
// a report or a clean error.
//
// A candidate that is read is also written and read again (same groups, same bytes). Every mode and
// equality is checked against every fixed plan, and a candidate that passes every check must
// equal the reference output; `check --stream` must agree with `check` (the verdict always, the
// report when the ids are in order).
#include "checks/checks.hpp"
#include "ref/io/reader.hpp"
#include "ref/io/writer.hpp"
#include "tests/fuzz/fixed_plans.hpp"
#include "tests/fuzz/fuzz_support.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

using namespace lo;

namespace {

void requireRoundTrip(Interner &interner, const io::LoweringDocument &doc) {
  const Mode mode = doc.mode.value_or(Mode::coalesced);
  const Equality equality = doc.equality.value_or(Equality::contract);
  const AuditDocument *audit = doc.audit ? &*doc.audit : nullptr;
  const std::string once = io::loweringPlanJson(interner, doc.plan, mode, equality, audit);
  io::LoweringDocument again;
  try {
    again =
        io::readLoweringPlan(io::sourceFromString("written.json", once), interner, fuzz::kEdition);
  } catch (const io::InputError &e) {
    fuzz::fail("the writer's output of a read candidate is rejected",
               std::string(e.what()) + "\n" + once);
  }
  fuzz::require(again.plan == doc.plan, "candidate round trip changed the groups", once);
  fuzz::require(again.audit == doc.audit, "candidate round trip changed the audit", once);
  fuzz::require(io::loweringPlanJson(interner, again.plan, mode, equality, audit) == once,
                "candidate round trip gives other bytes", once);
}

/// `check --stream` (checks::checkStream) on the same groups, for a plan whose ids increase (the
/// stream form's rule): the verdict is `check`'s, and when the candidate lists the plan's ids in
/// plan order so is the whole report (docs/checks.md, "Streaming").
void requireStreamAgrees(Interner &interner, const GraphExecutionPlan &plan,
                         const io::LoweringDocument &doc, const checks::Options &options,
                         const checks::Report &whole, std::string_view bytes) {
  for (std::size_t i = 1; i < plan.kernels.size(); ++i)
    if (plan.kernels[i].nodeId <= plan.kernels[i - 1].nodeId)
      return;
  // The stream form carries no audit: a candidate with one is compared without it.
  const io::LoweringDocument groupsOnly{doc.mode, doc.equality, doc.plan, std::nullopt,
                                        doc.edition};
  std::optional<checks::Report> withoutAudit;
  if (doc.audit)
    withoutAudit = checks::check(interner, plan, groupsOnly, options);
  const checks::Report &expected = withoutAudit ? *withoutAudit : whole;
  const checks::Report stream = checks::checkStream(interner, plan, groupsOnly, options);
  fuzz::require(stream.conforms() == expected.conforms(),
                "check --stream and check disagree on the verdict", bytes);
  std::vector<NodeId> ids, planIds;
  for (const auto &group : doc.plan.groups)
    ids.insert(ids.end(), group.nodeIds.begin(), group.nodeIds.end());
  for (const auto &kernel : plan.kernels)
    planIds.push_back(kernel.nodeId);
  if (ids == planIds)
    fuzz::require(stream.violations == expected.violations && stream.omitted == expected.omitted &&
                      stream.notes == expected.notes,
                  "check --stream reports otherwise than check on ids in plan order", bytes);
}

void requireReport(Interner &interner, const GraphExecutionPlan &plan,
                   const io::LoweringDocument &doc, Mode mode, Equality equality,
                   std::string_view bytes) {
  const checks::Report report =
      checks::check(interner, plan, doc, {mode, equality, io::kDefaultMaxPerCheck, fuzz::kEdition});
  for (const auto &v : report.violations) {
    fuzz::require(v.pointer.empty() || v.pointer[0] == '/',
                  "a violation's pointer is not a JSON pointer", v.pointer);
    fuzz::require(!v.message.empty() && v.message.find('\n') == std::string::npos,
                  "a violation's message is not one plain sentence", v.message);
  }
  if (report.conforms())
    fuzz::require(doc.plan == lower(interner, plan, mode, equality),
                  "a candidate passes every check but differs from the reference", bytes);
  requireStreamAgrees(interner, plan, doc,
                      {mode, equality, io::kDefaultMaxPerCheck, fuzz::kEdition}, report, bytes);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char *>(data), size);
  for (std::string_view planText : fuzz::kFixedPlans) {
    Interner interner;
    const GraphExecutionPlan plan = io::readExecutionPlan(
        io::sourceFromString("plan.json", planText), interner, fuzz::kEdition);
    io::LoweringDocument doc;
    try {
      doc = io::readLoweringPlan(io::sourceFromString("candidate.json", bytes), interner,
                                 fuzz::kEdition);
    } catch (const io::InputError &e) {
      fuzz::requireCleanError(e, "candidate.json");
      return 0; // the same bytes are rejected against every plan
    }
    if (planText == fuzz::kFixedPlans.front())
      requireRoundTrip(interner, doc);
    for (Mode mode : {Mode::singleton, Mode::coalesced})
      for (Equality equality : {Equality::contract, Equality::identity})
        requireReport(interner, plan, doc, mode, equality, bytes);
  }
  return 0;
}
