// `diff --gate` judges another implementation's gate result (ref/io/gate_reader,
// checks/gate_result): what it reads, what it refuses, and the first difference it names
// (docs/spec.md §4.3, §6.3, §6.7).
#include "checks/gate_result.hpp"
#include "ref/io/error.hpp"
#include "ref/io/gate_reader.hpp"
#include "ref/io/gate_writer.hpp"
#include "ref/io/reader.hpp"
#include "tests/seed.hpp"
#include "tools/suite/generate.hpp"

#include <gtest/gtest.h>

#include <regex>

namespace lo::testing {
namespace {

using checks::GateDifference;

/// An implementation's gate result, named as `diff --gate` names it.
io::Source result(const std::string &text) { return io::sourceFromString("output.json", text); }

bool mentions(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

/// The hand-picked case of docs/spec.md §6.7: two relu nodes of one identity, the second with a
/// trusted value contract, in 2026-08 (the evidence gate's edition), as its gate results are read.
struct Trap : ::testing::Test {
  Interner interner;
  GraphExecutionPlan plan;
  void SetUp() override {
    suite::Settings settings;
    settings.edition = test::seed::kEdition;
    for (std::size_t i = 0; i < suite::edgeCaseCount(); ++i) {
      suite::Case c = suite::caseAt(interner, settings, i);
      if (c.name == "gate-identity-trap")
        plan = std::move(c.plan);
    }
    ASSERT_EQ(plan.kernels.size(), 2u);
  }
  GraphLoweringPlan lowering(Mode m, Equality e) { return lower(interner, plan, m, e); }
  GateResult gateOf(const AssurancePolicy &p, Mode m, Equality e) {
    return gate(interner, p, lowering(m, e));
  }
  std::vector<ObligationReport> auditOf(Mode m, Equality e) {
    return obligationReports(interner, audit(interner, lowering(m, e)));
  }
  /// Compares `text` (an implementation's result) with the reference under policy `name`.
  checks::GateComparison compare(const std::string &text, std::string_view name, Mode m, Equality e,
                                 bool exact = true) {
    const AssurancePolicy p = *policyPreset(name);
    return checks::compareGateResult(name, p, gateOf(p, m, e), auditOf(m, e),
                                     io::readGateResult(result(text), test::seed::kEdition), exact);
  }
};

TEST_F(Trap, TheReferenceResultOfEveryPresetAndLoweringAgreesWithItself) {
  for (const NamedPolicy &p : kPolicyPresets)
    for (Mode m : {Mode::singleton, Mode::coalesced})
      for (Equality e : {Equality::contract, Equality::identity}) {
        const std::string text = io::gateResultJson(p.policy, gateOf(p.policy, m, e));
        const auto c = compare(text, p.name, m, e);
        EXPECT_EQ(c.difference, GateDifference::none) << p.name << ": " << c.words;
      }
}

// Member order, white space and string escapes are free, as in every file of docs/spec.md §2.
TEST_F(Trap, MemberOrderWhiteSpaceAndEscapesAreFree) {
  const std::string text = R"({"failures": [ {"reports": [{"disposition":"trusted",
      "evidence": {"reason": "vendor\u0020kernel", "tag": "trustedBoundary"},
      "claim": {"op": "relu", "tag": "valueRefinement"},
      "obligation": "value", "capsuleName": "relu\/cudnn", "op": "relu"}],
    "kind": "trustedBoundary"}], "verdict": "rejected",
    "policy": {"allowTestEvidence": true, "allowRuntimeGuards": true, "requireEvidence": true,
               "allowTrustedExternal": false, "allowFuzzed": true, "allowChecked": true,
               "name": "checked"}})";
  // The capsule is relu.cudnn, not relu/cudnn: the escape is read, and the report differs.
  auto c = compare(text, "checked", Mode::coalesced, Equality::contract);
  EXPECT_EQ(c.difference, GateDifference::reports) << c.words;
  c = compare(std::regex_replace(text, std::regex(R"(relu\\/cudnn)"), "relu.cudnn"), "checked",
              Mode::coalesced, Equality::contract);
  EXPECT_EQ(c.difference, GateDifference::none) << c.words;
}

// What docs/schema/gate-result.schema.json rejects is an input error with the result's name, a
// position and a JSON pointer (docs/errors.md), never a difference: an unknown claim tag, an
// unknown or repeated field, a wrong type, a disposition that is not its evidence's.
TEST_F(Trap, RefusesWhatIsNotAGateResultWithAPointer) {
  const std::string ok =
      io::gateResultJson(AssurancePolicy::checked(),
                         gateOf(AssurancePolicy::checked(), Mode::coalesced, Equality::contract));
  EXPECT_NO_THROW(io::readGateResult(result(ok), test::seed::kEdition));
  const auto edit = [&](const char *from, const char *to) {
    const std::string text = std::regex_replace(ok, std::regex(from), to);
    EXPECT_NE(text, ok) << from;
    return text;
  };
  struct Bad {
    std::string text, pointer, message;
  };
  const Bad bad[] = {
      {"not json", "", "expected a JSON object"},
      {"{\"policy\": nope}", "/policy", "expected a policy (a JSON object)"},
      {"[]", "", "expected a gate result (a JSON object)"},
      {edit("\"rejected\"", "\"accepted\""), "/verdict",
       "\"accepted\", but /failures lists 1 failure"},
      {edit("\"verdict\"", "\"verdict\": \"rejected\", \"x\""), "/x",
       "unknown field \"x\" in a gate result"},
      {edit("\"trustedBoundary\",", "\"trusted\","), "/failures/0/kind",
       "unknown GateFailure \"trusted\"; expected one of: missingEvidence"},
      {edit("\"disposition\"", "\"extra\":1,\"disposition\""), "/failures/0/reports/0/extra",
       "unknown field \"extra\" in an obligation report"},
      {edit("\"name\":\"checked\",", ""), "/policy", "missing field \"name\" in a policy"},
      {edit("\"allowFuzzed\":true", "\"allowFuzzed\":1"), "/policy/allowFuzzed",
       "expected allowFuzzed (true or false)"},
      {edit("nn-backend/gate-result", "nn-backend/audit"), "/format",
       "format is \"nn-backend/audit\", expected \"nn-backend/gate-result\""},
      {R"({"policy":{"name":"checked","allowChecked":true,"allowFuzzed":true,
          "allowTrustedExternal":false,"requireEvidence":true,"allowRuntimeGuards":true,
          "allowTestEvidence":true},"verdict":"rejected","failures":[
          {"kind":"fuzzEvidence","reports":[]}]})",
       "/failures/0/reports", "a failure lists at least one report"},
      // An unknown claim tag is not a report the reference lacks: the result is not one.
      {edit("\"valueRefinement\"", "\"valueSafety\""), "/failures/0/reports/0/claim/tag",
       "unknown claim tag \"valueSafety\""},
      {edit("\"tag\":\"valueRefinement\",\"op\":\"relu\"",
            "\"tag\":\"valueRefinement\",\"op\":\"relu\",\"layout\":\"flat-row-major\""),
       "/failures/0/reports/0/claim/layout",
       "field \"layout\" does not belong to a valueRefinement claim"},
      {edit("\"op\":\"relu\",\"capsuleName\"", "\"op\":7,\"capsuleName\""),
       "/failures/0/reports/0/op", "expected BackendOp (a string)"},
      {edit("\"disposition\":\"trusted\"", "\"disposition\":\"tested\""),
       "/failures/0/reports/0/disposition",
       "disposition \"tested\" is not that of trustedBoundary evidence, \"trusted\""},
      // Duplicate keys: the schema's object has each property once (RFC 8259 names should be
      // unique; docs/spec.md §2.1 makes it an error).
      {edit("\"verdict\"", "\"verdict\": \"rejected\", \"verdict\""), "/verdict",
       "duplicate field \"verdict\" in a gate result"},
      {edit("\"obligation\"", "\"obligation\":\"value\",\"obligation\""),
       "/failures/0/reports/0/obligation",
       "duplicate field \"obligation\" in an obligation report"},
      {edit("\"allowChecked\"", "\"allowChecked\":true,\"allowChecked\""), "/policy/allowChecked",
       "duplicate field \"allowChecked\" in a policy"},
  };
  for (const Bad &b : bad) {
    try {
      io::readGateResult(result(b.text), test::seed::kEdition);
      ADD_FAILURE() << "accepted: " << b.text;
    } catch (const io::InputError &e) {
      EXPECT_EQ(e.file(), "output.json");
      EXPECT_GE(e.line(), 1u) << e.what();
      EXPECT_EQ(e.pointer(), b.pointer) << e.what();
      EXPECT_TRUE(mentions(e.message(), b.message)) << e.what() << "\nexpected: " << b.message;
    }
  }
}

// The verdict first, in both directions, naming the policy and a report in words.
TEST_F(Trap, NamesAVerdictDifference) {
  // The identity lowering's result, judged as the contract lowering's: accepted where the
  // reference rejects under checked.
  const AssurancePolicy checked = AssurancePolicy::checked();
  const std::string identity =
      io::gateResultJson(checked, gateOf(checked, Mode::coalesced, Equality::identity));
  auto c = compare(identity, "checked", Mode::coalesced, Equality::contract);
  EXPECT_EQ(c.difference, GateDifference::acceptsRejected);
  EXPECT_EQ(c.words, "under policy checked the implementation accepts, the reference rejects: "
                     "trustedBoundary (1 report, e.g. relu: relu.cudnn value: relu forward "
                     "refines the canonical semantics; trusted boundary: vendor kernel)");
  // The other way round: the contract result judged as the identity lowering's.
  const std::string contract =
      io::gateResultJson(checked, gateOf(checked, Mode::coalesced, Equality::contract));
  c = compare(contract, "checked", Mode::coalesced, Equality::identity);
  EXPECT_EQ(c.difference, GateDifference::rejectsAccepted);
  EXPECT_TRUE(mentions(c.words, "the implementation rejects, the reference accepts: the "
                                "implementation reports trustedBoundary (1 report"))
      << c.words;
}

TEST_F(Trap, NamesAMissingOrAddedFailureKind) {
  // Under verified the reference rejects for runtime guards, tests, the trusted boundary and fuzz
  // evidence; a result without the trusted boundary misses that kind.
  const AssurancePolicy verified = AssurancePolicy::verified();
  GateResult r = gateOf(verified, Mode::coalesced, Equality::contract);
  ASSERT_EQ(r.failures.size(), 4u);
  ASSERT_EQ(r.failures[2].kind, GateFailureKind::trustedBoundary);
  GateResult without = r;
  without.failures.erase(without.failures.begin() + 2);
  auto c = compare(io::gateResultJson(verified, without), "verified", Mode::coalesced,
                   Equality::contract);
  EXPECT_EQ(c.difference, GateDifference::kinds);
  EXPECT_TRUE(mentions(c.words, "the implementation misses trustedBoundary (1 report")) << c.words;
  // Two kinds swapped: the same kinds in another order.
  GateResult swapped = r;
  std::swap(swapped.failures[0], swapped.failures[1]);
  c = compare(io::gateResultJson(verified, swapped), "verified", Mode::coalesced,
              Equality::contract);
  EXPECT_EQ(c.difference, GateDifference::kinds);
  EXPECT_TRUE(mentions(c.words, "in another order")) << c.words;
}

// docs/spec.md §6.7: the singleton and the coalesced contract lowerings have the same gate up to
// multiplicities. As sets they agree; as the gate of one lowering they do not.
TEST_F(Trap, ReportsAreListsForOneLoweringAndSetsAcrossLowerings) {
  // Two equal nodes: the singleton lowering lists each report twice, the coalesced one once.
  GraphExecutionPlan two;
  two.kernels = {plan.kernels[0], plan.kernels[0]};
  two.kernels[1].nodeId = plan.kernels[0].nodeId + 1;
  const AssurancePolicy verified = AssurancePolicy::verified();
  const GateResult singleton =
      gate(interner, verified, lower(interner, two, Mode::singleton, Equality::contract));
  const GateResult coalesced =
      gate(interner, verified, lower(interner, two, Mode::coalesced, Equality::contract));
  ASSERT_TRUE(sameGate(singleton, coalesced));
  const auto read =
      io::readGateResult(result(io::gateResultJson(verified, singleton)), test::seed::kEdition);
  const auto reports = obligationReports(
      interner, audit(interner, lower(interner, two, Mode::coalesced, Equality::contract)));
  auto c =
      checks::compareGateResult("verified", verified, coalesced, reports, read, /*exact=*/true);
  EXPECT_EQ(c.difference, GateDifference::reports);
  EXPECT_TRUE(mentions(c.words, "2 times, the reference 1 time")) << c.words;
  c = checks::compareGateResult("verified", verified, coalesced, reports, read, /*exact=*/false);
  EXPECT_EQ(c.difference, GateDifference::none) << c.words;
}

TEST_F(Trap, NamesAResultThatNamesAnotherPolicy) {
  // Under external the trap is accepted, and so it is under a custom policy that allows the
  // same: the gate agrees, the policy does not.
  AssurancePolicy custom = AssurancePolicy::external();
  custom.allowChecked = false;
  const std::string text =
      io::gateResultJson(custom, gateOf(custom, Mode::coalesced, Equality::contract));
  const auto c = compare(text, "external", Mode::coalesced, Equality::contract);
  EXPECT_EQ(c.difference, GateDifference::policy);
  EXPECT_EQ(c.words, "under policy external the gate agrees, but the implementation's result "
                     "names policy custom with allowChecked=false");
}

} // namespace
} // namespace lo::testing
