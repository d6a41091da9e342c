// The direct path of the plan and lowering readers (docs/performance.md, "The direct path"): one
// pass over the text, without simdjson's index, for the documents written the common way
// (ref/io/direct_scanner.hpp). It takes a text only when every value it meets is one it can judge
// exactly as the strict reader (ref/io/reader.cpp) does, and then gives what the strict reader
// gives; on anything else it declines, with nothing kept, and the strict reader reads the text from
// its start and gives the value or the error (tests/fuzz/fuzz_plan_reader.cpp,
// tests/unit/direct_reader_test.cpp).
//
// Values it does not read itself it hands to the strict reader on their own: the capsules table,
// and each kind written as an object the first time its text is met.
#include "ref/io/direct_scanner.hpp"

namespace lo::io::detail {

std::optional<GraphExecutionPlan> readExecutionPlanDirect(const Source &source, Interner &interner,
                                                          Edition edition,
                                                          std::optional<Edition> *declared) {
  return declinable([&] {
    Scanner s(source, interner, edition);
    GraphExecutionPlan plan;
    std::optional<Edition> written;
    const bool capsuleOpChecked = capsuleOpMustMatch(s.edition());
    std::uint32_t seen = 0;
    s.objectFields(kPlanFields, allFieldBits(std::size(kPlanFields)), seen, [&](std::size_t i) {
      switch (i) {
      case 0: s.format(kPlanFormat); break;
      case 1: s.version(); break;
      case 2: s.capsules(); break;
      case 3: {
        // A kernel written as one before it but for its node id (the kernels of a run, and of a
        // model's repeated blocks) is that kernel with this id: the text after the id is
        // compared, not read. The texts read before are kept by their first bytes.
        static const std::string idFirst = Scanner::opening(fieldNames<PlannedNodeKernel>()[0]);
        Scanner::Tails<PlannedNodeKernel> tails(kTailSetBits); // after the id, to the brace
        s.elements([&] {
          PlannedNodeKernel k;
          std::optional<Scanner::Mark> tail;
          std::optional<std::size_t> set;
          if (s.takeWord(idFirst, kOpeningTokens)) {
            k.nodeId = s.natural(kNodeIdLimit);
            tail = s.mark();
            if (const auto *known = s.takeTail(tails, set)) {
              plan.kernels.push_back(
                  {k.nodeId, known->value.kind, known->value.op, known->value.capsule});
              return;
            }
          }
          const auto field = [&](std::size_t f) {
            switch (f) {
            case 0: k.nodeId = s.natural(kNodeIdLimit); break;
            case 1: k.kind = s.kind(); break;
            case 2: k.op = s.enumValue<BackendOp>(); break;
            default: k.capsule = s.capsuleRef();
            }
          };
          if (tail)
            s.recordFieldsAfter<PlannedNodeKernel>(fieldBit(0), 1, field);
          else
            s.recordFields<PlannedNodeKernel>(field);
          // Ops that agree with the kind and the capsule (docs/spec.md §2.4).
          if (opOf(s.interner().kind(k.kind)) != k.op ||
              (capsuleOpChecked && s.interner().capsule(k.capsule).op != k.op))
            decline();
          if (set)
            tails.remember(*set, {s.since(*tail), s.tokensSince(*tail), k});
          // Reserved once the first kernel is read, as the strict reader reserves (a text declined
          // before has reserved nothing).
          if (plan.kernels.capacity() == 0)
            plan.kernels.reserve(s.size() / kShortestKernel);
          plan.kernels.push_back(k);
        });
        break;
      }
      default: written = s.enumValue<Edition>();
      }
    });
    if (!(seen & fieldBits(kPlanFields, {"kernels"})) || firstRepeatedNodeId(plan.kernels))
      decline();
    s.end();
    if (declared && written)
      *declared = written;
    return plan;
  });
}

std::optional<LoweringDocument> readLoweringPlanDirect(const Source &source, Interner &interner,
                                                       Edition edition) {
  return declinable([&] {
    Scanner s(source, interner, edition);
    LoweringDocument out;
    std::uint32_t seen = 0;
    // No audit: a lowering with one is left to the strict reader.
    const std::uint32_t allowed =
        allFieldBits(std::size(kLoweringFields)) & ~fieldBits(kLoweringFields, {"audit"});
    s.objectFields(kLoweringFields, allowed, seen, [&](std::size_t i) {
      switch (i) {
      case 0: s.format(kLoweringFormat); break;
      case 1: s.version(); break;
      case 2: out.mode = s.enumValue<Mode>(); break;
      case 3: out.equality = s.enumValue<Equality>(); break;
      case 4: s.capsules(); break;
      case 5: {
        // As for a plan's kernels: the text after a group's node ids (its kinds, op, capsule and
        // grouping kind, the same for the groups of a run's length) is compared with those read
        // before.
        using G = LoweredKernelGroup;
        static const std::string idsFirst = Scanner::opening(fieldNames<G>()[0]);
        Scanner::Tails<G> tails(kTailSetBits); // from after the node ids to the closing brace
        s.elements([&] {
          G g;
          const auto field = [&](std::size_t f) {
            switch (f) {
            case 0:
              g.nodeIds.reserve(s.numberCount());
              s.elements([&] { g.nodeIds.push_back(s.natural(kNodeIdLimit)); });
              break;
            case 1:
              g.kinds.reserve(g.nodeIds.size()); // a kind a node, when the ids came first
              s.elements([&] { g.kinds.push_back(s.kind()); });
              break;
            case 2: g.op = s.enumValue<BackendOp>(); break;
            case 3: g.capsule = s.capsuleRef(); break;
            default: g.groupingKind = s.enumValue<GroupingKind>();
            }
          };
          if (s.takeWord(idsFirst, kOpeningTokens)) {
            field(0);
            const Scanner::Mark tail = s.mark();
            std::optional<std::size_t> set;
            if (const auto *known = s.takeTail(tails, set, g.nodeIds.size())) {
              g.kinds = known->value.kinds;
              g.op = known->value.op;
              g.capsule = known->value.capsule;
              g.groupingKind = known->value.groupingKind;
            } else {
              s.recordFieldsAfter<G>(fieldBit(0), 1, field);
              if (set)
                tails.remember(*set, {s.since(tail), s.tokensSince(tail),
                                      G{{}, g.kinds, g.op, g.capsule, g.groupingKind}});
            }
          } else {
            s.recordFields<G>(field);
          }
          if (out.plan.groups.capacity() == 0)
            out.plan.groups.reserve(s.size() / kShortestGroup);
          out.plan.groups.push_back(std::move(g));
        });
        break;
      }
      default: out.edition = s.enumValue<Edition>();
      }
    });
    if (!(seen & fieldBits(kLoweringFields, {"groups"})))
      decline();
    s.end();
    return out;
  });
}

} // namespace lo::io::detail
