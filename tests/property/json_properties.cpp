// JSON round trips of plans, lowerings and audits, and deterministic writing (docs/spec.md §2.1).
#include "ref/io/reader.hpp"
#include "ref/io/writer.hpp"
#include "tests/property/generators.hpp"
#include "tests/property/support.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace lo::prop {
namespace {

io::Source writtenSource(const std::string &text) {
  return io::sourceFromString("<written>", text);
}

/// An interner whose ids differ from a fresh one's: the pool interned in reverse order first.
void shiftIds(Interner &interner, const PlanSpec &spec) {
  for (auto it = spec.pool.rbegin(); it != spec.pool.rend(); ++it)
    interner.intern(contractTwin(*it, 3, spec.edition));
  for (auto it = spec.pool.rbegin(); it != spec.pool.rend(); ++it)
    interner.intern(*it);
}

// A written GraphExecutionPlan reads back as the same plan, and writing what was read gives the
// same bytes, whatever ids another interner gives the capsules.
RC_GTEST_PROP(Json, PlansRoundTrip, ()) {
  const PlanSpec spec = *genPlan();
  Interner interner;
  const GraphExecutionPlan plan = buildPlan(spec, interner);
  const std::string text = io::executionPlanJson(interner, plan);
  RC_ASSERT(io::readExecutionPlan(writtenSource(text), interner, spec.edition) == plan);
  Interner other;
  shiftIds(other, spec);
  const GraphExecutionPlan again = io::readExecutionPlan(writtenSource(text), other, spec.edition);
  RC_ASSERT(io::executionPlanJson(other, again) == text);
}

// A written GraphLoweringPlan, with or without its audit, reads back as the same groups, mode,
// equality and audit (rows and the four derived views).
RC_GTEST_PROP(Json, LoweringsAndAuditsRoundTrip, ()) {
  const PlanSpec spec = *genPlan();
  const Mode mode = *genMode();
  const Equality equality = *genEquality();
  const bool withAudit = *rc::gen::arbitrary<bool>();
  Interner interner;
  const GraphLoweringPlan l = lower(interner, buildPlan(spec, interner), mode, equality);
  const AuditDocument a = toDocument(interner, audit(interner, l));
  const std::string text =
      io::loweringPlanJson(interner, l, mode, equality, withAudit ? &a : nullptr);
  const io::LoweringDocument doc =
      io::readLoweringPlan(writtenSource(text), interner, spec.edition);
  RC_ASSERT(doc.plan == l);
  RC_ASSERT(doc.mode == std::optional<Mode>(mode));
  RC_ASSERT(doc.equality == std::optional<Equality>(equality));
  RC_ASSERT(doc.audit.has_value() == withAudit);
  if (withAudit)
    RC_ASSERT(*doc.audit == a);

  Interner other;
  shiftIds(other, spec);
  const io::LoweringDocument again = io::readLoweringPlan(writtenSource(text), other, spec.edition);
  RC_ASSERT(io::loweringPlanJson(other, again.plan, mode, equality,
                                 again.audit ? &*again.audit : nullptr) == text);
}

// The same plan, read from two different encodings (table or inline, defaults spelled or not,
// other keys, fields in another order) into interners that number capsules differently, is
// written as the same bytes: plan, lowering with its audit, and the audit as text.
RC_GTEST_PROP(Json, WritingIsDeterministic, ()) {
  const PlanSpec spec = *genPlan();
  const Mode mode = *genMode();
  const Equality equality = *genEquality();
  PlanSpec respelled = spec;
  respelled.encoding = *rc::gen::element(Encoding::table, Encoding::inline_, Encoding::mixed);
  respelled.styleBits = ~spec.styleBits;
  respelled.header = !spec.header;
  respelled.capsulesFirst = !spec.capsulesFirst;
  for (std::size_t i = 0; i < respelled.keys.size(); ++i) {
    respelled.keys[i] = "key " + std::to_string(respelled.keys.size() - i);
    respelled.spellDefaults[i] = !spec.spellDefaults[i];
  }

  auto writeAll = [&](Interner &interner, const GraphExecutionPlan &plan) {
    const GraphLoweringPlan l = lower(interner, plan, mode, equality);
    const AuditDocument a = toDocument(interner, audit(interner, l));
    std::string auditText;
    {
      io::Sink sink(auditText);
      io::writeAuditText(sink, interner, a.audit);
      io::writeAudit(sink, interner, a);
      sink.flush();
    }
    return io::executionPlanJson(interner, plan) +
           io::loweringPlanJson(interner, l, mode, equality, &a) + auditText;
  };
  Interner first;
  const GraphExecutionPlan plan = readPlan(spec, first);
  const std::string once = writeAll(first, plan);
  RC_ASSERT(writeAll(first, plan) == once);
  Interner second;
  shiftIds(second, spec);
  RC_ASSERT(writeAll(second, readPlan(respelled, second)) == once);
}

} // namespace
} // namespace lo::prop
