// Every rejection class of the readers (docs/spec.md §2), with the exact FILE:LINE:COL and
// JSON pointer. "@@" in a document marks where the error must be reported (see support.hpp).
#include "support.hpp"
#include "tests/seed.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <regex>

namespace lo::test {
namespace {

/// A plan with a capsules table holding "r" (a relu capsule) and "a" (an add capsule), and the
/// given kernels (one a line).
std::string planDoc(const std::string &kernels, const std::string &rootExtra = "") {
  return "{\"format\":\"nn-backend/graph-execution-plan\",\"version\":1,\n"
         "\"capsules\":{\"r\":" +
         capsuleJson("reference.relu", "relu") + ",\n\"a\":" + capsuleJson("reference.add", "add") +
         "},\n" + rootExtra + "\"kernels\":[\n" + kernels + "\n]}";
}

const std::string k1 = R"({"nodeId":1,"kind":"relu","op":"relu","capsule":"r"})";
const std::string k2 = R"({"nodeId":2,"kind":"relu","op":"relu","capsule":"r"})";

TEST(ReaderReject, BaseDocumentIsValid) {
  Interner interner;
  const auto plan = lo::test::seed::readExecutionPlan(
      io::sourceFromString("plan.json", planDoc(k1 + ",\n" + k2)), interner);
  EXPECT_EQ(plan.kernels.size(), 2u);
}

// --- unknown fields ------------------------------------------------------------------------------

TEST(ReaderReject, UnknownFieldAtTheRoot) {
  expectPlanRejected(planDoc(k1, "@@\"extra\":1,\n"), "/extra", "unknown field \"extra\"");
}

TEST(ReaderReject, UnknownFieldInAKernel) {
  expectPlanRejected(planDoc(R"({"nodeId":1,"kind":"relu",@@"Op":"relu","capsule":"r"})"),
                     "/kernels/0/Op", "unknown field \"Op\" in a kernel");
}

TEST(ReaderReject, UnknownFieldInACapsule) {
  std::string cap = capsuleJson("x", "relu");
  cap.insert(1, "@@\"runtimeSupport\":\"eager\",");
  expectPlanRejected(planDoc(R"({"nodeId":1,"kind":"relu","op":"relu","capsule":)" + cap + "}"),
                     "/kernels/0/capsule/runtimeSupport", "unknown field \"runtimeSupport\"");
}

TEST(ReaderReject, UnknownFieldInACapsuleTableEntryWithAnEscapedKey) {
  std::string cap = capsuleJson("x", "relu");
  cap.insert(1, "@@\"specName\":\"Spec.relu\",");
  const std::string doc = "{\"capsules\":{\"a/b~c\":" + cap +
                          "},\n\"kernels\":[{\"nodeId\":1,\"kind\":\"relu\",\"op\":\"relu\","
                          "\"capsule\":\"a/b~c\"}]}";
  expectPlanRejected(doc, "/capsules/a~1b~0c/specName", "unknown field \"specName\"");
}

TEST(ReaderReject, UnknownFieldInAKindObject) {
  expectPlanRejected(
      planDoc(
          R"({"nodeId":1,"kind":{"tag":"softmax","axis":1,"dim":@@2},"op":"softmax","capsule":"r"})"),
      "/kernels/0/kind/dim", "kind \"softmax\" has no parameter \"dim\"");
}

TEST(ReaderReject, AnObjectParameterAKindDoesNotHaveIsNamedAsTheKindsField) {
  // Not "unknown field \"b\" in a hard mask": the kind has no parameter "a", whatever its value,
  // and wherever the tag stands.
  expectPlanRejected(
      planDoc(R"({"nodeId":1,"kind":{"tag":"relu","a":@@{"b":1}},"op":"relu","capsule":"r"})"),
      "/kernels/0/kind/a", "kind \"relu\" has no parameter \"a\"");
  expectPlanRejected(
      planDoc(R"({"nodeId":1,"kind":{"a":@@{"b":1},"tag":"relu"},"op":"relu","capsule":"r"})"),
      "/kernels/0/kind/a", "kind \"relu\" has no parameter \"a\"");
}

TEST(ReaderReject, AHardMaskInAnEditionWithoutHardMasksIsTheKindsError) {
  const std::string kind = R"({"nodeId":1,"kind":{"tag":"softmax","axis":1,"mask":@@{"b":1}},)"
                           R"("op":"softmax","capsule":"r"})";
  expectPlanRejected(planDoc(kind), "/kernels/0/kind/mask",
                     "kind \"softmax\" has no parameter \"mask\"");
}

TEST(ReaderReject, KindObjectWithManyFieldsStopsEarly) {
  // conv (2026-08b on) has the most parameters (10); an eleventh field is rejected where it stands,
  // so an object with very many fields costs no more than one with eleven.
  std::string kind =
      R"({"tag":"conv2d","inC":3,"outC":8,"kH":3,"kW":3,"stride":1,"padding":0,"p7":1,"p8":1,)"
      R"("p9":1,"p10":1,@@"p11":1)";
  for (int i = 12; i < 20000; ++i)
    kind += ",\"p" + std::to_string(i) + "\":1";
  kind += "}";
  expectPlanRejected(planDoc(R"({"nodeId":1,"kind":)" + kind + R"(,"op":"conv","capsule":"r"})"),
                     "/kernels/0/kind/p11", "too many fields in a kind");
}

TEST(ReaderReject, FieldOfAnotherClaimTag) {
  std::string cap = capsuleJson("x", "relu");
  const std::string claim = R"({"tag":"shapeSafety","op":"relu"})";
  const auto at = cap.find(claim);
  ASSERT_NE(at, std::string::npos);
  cap.replace(at, claim.size(), R"({"tag":"shapeSafety","op":"relu","layout":@@"flat-row-major"})");
  expectPlanRejected(planDoc(R"({"nodeId":1,"kind":"relu","op":"relu","capsule":)" + cap + "}"),
                     "/kernels/0/capsule/shapeContract/claim/layout",
                     "does not belong to a shapeSafety claim");
}

// --- unknown spellings -----------------------------------------------------------------------

TEST(ReaderReject, UnknownOpSpelling) {
  expectPlanRejected(planDoc(R"({"nodeId":1,"kind":"relu","op":@@"ReLU","capsule":"r"})"),
                     "/kernels/0/op", "unknown BackendOp \"ReLU\"");
}

TEST(ReaderReject, UnknownKindSpelling) {
  expectPlanRejected(planDoc(R"({"nodeId":1,"kind":@@"gelu","op":"gelu","capsule":"r"})"),
                     "/kernels/0/kind", "unknown kind \"gelu\"");
}

TEST(ReaderReject, UnknownTrustLevelSpelling) {
  std::string cap = capsuleJson("x", "relu", "trusted_external");
  cap.insert(cap.find("\"trusted_external\""), "@@");
  expectPlanRejected(planDoc(R"({"nodeId":1,"kind":"relu","op":"relu","capsule":)" + cap + "}"),
                     "/kernels/0/capsule/trustLevel", "unknown TrustLevel \"trusted_external\"");
}

TEST(ReaderReject, UnknownProviderSpellingInTheTable) {
  std::string doc = planDoc(k1);
  const auto at = doc.find("\"provider\":\"reference\"");
  doc.replace(at, 22, "\"provider\":@@\"nativeCuda\"");
  expectPlanRejected(doc, "/capsules/r/provider", "unknown Provider \"nativeCuda\"");
}

TEST(ReaderReject, UnknownEvidenceTag) {
  std::string doc = planDoc(k1);
  const auto at = doc.find("{\"tag\":\"notProvided\"}");
  doc.replace(at, 21, "{\"tag\":@@\"proof\"}");
  expectPlanRejected(doc, "/capsules/r/shapeContract/evidence/tag", "unknown evidence tag");
}

TEST(ReaderReject, UnknownModeInALoweringPlan) {
  expectLoweringRejected(R"({"mode":@@"fused","groups":[]})", "/mode", "unknown mode \"fused\"");
}

TEST(ReaderReject, UnknownGroupingKind) {
  expectLoweringRejected(
      "{\"capsules\":{\"r\":" + capsuleJson("reference.relu", "relu") +
          "},\n\"groups\":[{\"nodeIds\":[1],\"kinds\":[\"relu\"],\"op\":\"relu\",\"capsule\":\"r\","
          "\"groupingKind\":@@\"run\"}]}",
      "/groups/0/groupingKind", "unknown GroupingKind \"run\"");
}

// --- wrong types -----------------------------------------------------------------------------

TEST(ReaderReject, NodeIdAsAString) {
  expectPlanRejected(planDoc(R"({"nodeId":@@"1","kind":"relu","op":"relu","capsule":"r"})"),
                     "/kernels/0/nodeId", "expected a nodeId");
}

TEST(ReaderReject, KernelsNotAnArray) {
  expectPlanRejected("{\"capsules\":{},\n\"kernels\":@@{\"nodeId\":1}}", "/kernels",
                     "(a JSON array)");
}

TEST(ReaderReject, RootNotAnObject) { expectPlanRejected("@@[1,2]", "", "(a JSON object)"); }

TEST(ReaderReject, BooleanAsAString) {
  std::string cap = capsuleJson("x", "relu");
  cap.insert(1, "\"supportsForward\":@@\"yes\",");
  expectPlanRejected(planDoc(R"({"nodeId":1,"kind":"relu","op":"relu","capsule":)" + cap + "}"),
                     "/kernels/0/capsule/supportsForward", "(true or false)");
}

TEST(ReaderReject, CapsuleAsANumber) {
  expectPlanRejected(planDoc(R"({"nodeId":1,"kind":"relu","op":"relu","capsule":@@7})"),
                     "/kernels/0/capsule", "a capsule key or an inline capsule");
}

TEST(ReaderReject, ShapeParameterAsANumber) {
  expectPlanRejected(
      planDoc(R"({"nodeId":1,"kind":{"tag":"flatten","s":@@3},"op":"reshape","capsule":"r"})"),
      "/kernels/0/kind/s", "must be an array of naturals");
}

TEST(ReaderReject, ParameterizedKindAsABareString) {
  expectPlanRejected(planDoc(R"({"nodeId":1,"kind":@@"softmax","op":"softmax","capsule":"r"})"),
                     "/kernels/0/kind", "must be written as an object");
}

TEST(ReaderReject, MissingRequiredField) {
  expectPlanRejected(planDoc(R"(@@{"nodeId":1,"kind":"relu","op":"relu"})"), "/kernels/0",
                     "missing field \"capsule\"");
}

TEST(ReaderReject, WrongFormat) {
  expectPlanRejected(R"({"format":@@"nn-backend/graph-lowering-plan","kernels":[]})", "/format",
                     "expected \"nn-backend/graph-execution-plan\"");
}

TEST(ReaderReject, WrongVersion) {
  expectPlanRejected(R"({"version":@@2,"kernels":[]})", "/version", "version 2 is not supported");
}

// --- node ids ------------------------------------------------------------------------------------

TEST(ReaderReject, NodeIdTwoToThe63) {
  expectPlanRejected(
      planDoc(R"({"nodeId":@@9223372036854775808,"kind":"relu","op":"relu","capsule":"r"})"),
      "/kernels/0/nodeId", "below 2^63");
}

TEST(ReaderReject, NodeIdTwoToThe64) {
  expectPlanRejected(
      planDoc(R"({"nodeId":@@18446744073709551616,"kind":"relu","op":"relu","capsule":"r"})"),
      "/kernels/0/nodeId", "below 2^63");
}

TEST(ReaderReject, NodeIdNegative) {
  expectPlanRejected(planDoc(R"({"nodeId":@@-1,"kind":"relu","op":"relu","capsule":"r"})"),
                     "/kernels/0/nodeId", "natural number");
}

TEST(ReaderReject, NodeIdFractional) {
  expectPlanRejected(planDoc(R"({"nodeId":@@1.5,"kind":"relu","op":"relu","capsule":"r"})"),
                     "/kernels/0/nodeId", "natural number");
}

TEST(ReaderReject, NodeIdWithAnExponent) {
  expectPlanRejected(planDoc(R"({"nodeId":@@1e3,"kind":"relu","op":"relu","capsule":"r"})"),
                     "/kernels/0/nodeId", "natural number");
}

TEST(ReaderReject, GroupNodeIdTwoToThe63) {
  expectLoweringRejected(
      "{\"capsules\":{\"r\":" + capsuleJson("reference.relu", "relu") +
          "},\n\"groups\":[{\"nodeIds\":[1,@@9223372036854775808],\"kinds\":[\"relu\",\"relu\"],"
          "\"op\":\"relu\",\"capsule\":\"r\",\"groupingKind\":\"sameCapsuleRun\"}]}",
      "/groups/0/nodeIds/1", "below 2^63");
}

TEST(ReaderAccept, LargestNodeId) {
  Interner interner;
  const auto plan = lo::test::seed::readExecutionPlan(
      io::sourceFromString(
          "plan.json",
          planDoc(R"({"nodeId":9223372036854775807,"kind":"relu","op":"relu","capsule":"r"})")),
      interner);
  ASSERT_EQ(plan.kernels.size(), 1u);
  EXPECT_EQ(plan.kernels[0].nodeId, kNodeIdLimit - 1);
}

TEST(ReaderReject, DuplicateAdjacentNodeIds) {
  expectPlanRejected(
      planDoc(k1 + ",\n" + R"({"nodeId":@@1,"kind":"relu","op":"relu","capsule":"r"})"),
      "/kernels/1/nodeId", "duplicate nodeId 1 (first at /kernels/0/nodeId)");
}

TEST(ReaderReject, DuplicateNodeIdsOutOfOrder) {
  expectPlanRejected(planDoc(R"({"nodeId":5,"kind":"relu","op":"relu","capsule":"r"},)"
                             "\n"
                             R"({"nodeId":3,"kind":"relu","op":"relu","capsule":"r"},)"
                             "\n"
                             R"({"nodeId":@@5,"kind":"relu","op":"relu","capsule":"r"})"),
                     "/kernels/2/nodeId", "duplicate nodeId 5 (first at /kernels/0/nodeId)");
}

// --- ops -----------------------------------------------------------------------------------------

TEST(ReaderReject, KindWhoseOpIsNotTheKernelsOp) {
  expectPlanRejected(planDoc(R"({"nodeId":1,"kind":"relu","op":@@"add","capsule":"a"})"),
                     "/kernels/0/op", "op \"add\" is not the op of kind \"relu\"");
}

TEST(ReaderReject, KindMappingToAnotherNameIsChecked) {
  // mul_elem maps to mul, not to mul_elem's own name.
  expectPlanRejected(planDoc(R"({"nodeId":1,"kind":"mul_elem","op":@@"max","capsule":"a"})"),
                     "/kernels/0/op", "which maps to \"mul\"");
}

TEST(ReaderReject, CapsuleWhoseOpIsNotTheKernelsOp) {
  expectPlanRejected(planDoc(R"({"nodeId":1,"kind":"add","op":"add","capsule":@@"r"})"),
                     "/kernels/0/capsule",
                     "implements op \"relu\", but the kernel's op is \"add\"");
}

TEST(ReaderReject, InlineCapsuleWhoseOpIsNotTheKernelsOp) {
  expectPlanRejected(planDoc(R"({"nodeId":1,"kind":"add","op":"add","capsule":@@)" +
                             capsuleJson("reference.relu", "relu") + "}"),
                     "/kernels/0/capsule", "implements op \"relu\"");
}

TEST(ReaderReject, CapsuleOpCheckedWhenTheTableComesLater) {
  const std::string doc =
      "{\"kernels\":[\n" + std::string(R"({"nodeId":1,"kind":"add","op":"add","capsule":@@"r"})") +
      "\n],\n\"capsules\":{\"r\":" + capsuleJson("reference.relu", "relu") + "}}";
  expectPlanRejected(doc, "/kernels/0/capsule", "implements op \"relu\"");
}

TEST(ReaderReject, KindThatIsNeverPlanned) {
  expectPlanRejected(planDoc(R"({"nodeId":1,"kind":@@"input","op":"relu","capsule":"r"})"),
                     "/kernels/0/kind", "kind \"input\" has no runtime work and is never planned");
}

TEST(ReaderReject, ConstKindIsNeverPlanned) {
  expectPlanRejected(
      planDoc(R"({"nodeId":1,"kind":@@{"tag":"const","valueShape":[]},"op":"relu","capsule":"r"})"),
      "/kernels/0/kind", "never planned");
}

// --- capsule keys --------------------------------------------------------------------------------

TEST(ReaderReject, CapsuleKeyMissingFromTheTable) {
  expectPlanRejected(
      planDoc(R"({"nodeId":1,"kind":"relu","op":"relu","capsule":@@"reference.relu"})"),
      "/kernels/0/capsule", "capsule key \"reference.relu\" is not in the capsules table");
}

TEST(ReaderReject, CapsuleKeyMissingFromALaterTable) {
  const std::string doc =
      "{\"kernels\":[\n" + std::string(R"({"nodeId":1,"kind":"relu","op":"relu","capsule":"r"},)") +
      "\n" + R"({"nodeId":2,"kind":"relu","op":"relu","capsule":@@"s"})" +
      "\n],\n\"capsules\":{\"r\":" + capsuleJson("reference.relu", "relu") + "}}";
  expectPlanRejected(doc, "/kernels/1/capsule", "capsule key \"s\" is not in the capsules table");
}

TEST(ReaderReject, CapsuleKeyWithoutAnyTable) {
  expectPlanRejected("{\"kernels\":[\n" +
                         std::string(R"({"nodeId":1,"kind":"relu","op":"relu","capsule":@@"r"})") +
                         "\n]}",
                     "/kernels/0/capsule", "the plan has no capsules table");
}

TEST(ReaderReject, GroupCapsuleKeyMissing) {
  expectLoweringRejected(
      "{\"groups\":[{\"nodeIds\":[1],\"kinds\":[\"relu\"],\"op\":\"relu\",\"capsule\":@@\"r\","
      "\"groupingKind\":\"singleton\"}],\n\"capsules\":{}}",
      "/groups/0/capsule", "capsule key \"r\" is not in the capsules table");
}

// --- duplicate keys ------------------------------------------------------------------------------

TEST(ReaderReject, DuplicateRootKey) {
  expectPlanRejected(planDoc(k1, "@@\"version\":1,\n"), "/version", "duplicate field \"version\"");
}

TEST(ReaderReject, DuplicateKernelKey) {
  expectPlanRejected(
      planDoc(R"({"nodeId":1,"kind":"relu","op":"relu",@@"op":"relu","capsule":"r"})"),
      "/kernels/0/op", "duplicate field \"op\" in a kernel");
}

TEST(ReaderReject, DuplicateCapsuleTableKey) {
  const std::string cap = capsuleJson("reference.relu", "relu");
  expectPlanRejected("{\"capsules\":{\"r\":" + cap + ",\n@@\"r\":" + cap + "},\n\"kernels\":[]}",
                     "/capsules/r", "duplicate capsule key \"r\"");
}

TEST(ReaderReject, DuplicateKindTag) {
  expectPlanRejected(
      planDoc(
          R"({"nodeId":1,"kind":{"tag":"softmax","axis":0,@@"tag":"softmax"},"op":"softmax","capsule":"r"})"),
      "/kernels/0/kind/tag", "duplicate field \"tag\"");
}

// --- trailing data and malformed text --------------------------------------------------------

TEST(ReaderReject, TrailingDocument) {
  expectPlanRejected(planDoc(k1) + "\n@@{\"kernels\":[]}", "", "trailing data");
}

TEST(ReaderReject, TrailingGarbage) {
  expectPlanRejected(planDoc(k1) + "  @@x", "", "trailing data");
}

TEST(ReaderReject, TrailingDataAfterALoweringPlan) {
  expectLoweringRejected("{\"groups\":[]}\n@@[]", "", "trailing data");
}

TEST(ReaderReject, NodeIdWrittenAsAFloat) {
  expectPlanRejected(planDoc(R"({"nodeId":@@1.0,"kind":"relu","op":"relu","capsule":"r"})"),
                     "/kernels/0/nodeId", "natural number");
}

/// Every message of `read` over `doc` with each scalar value (a number, a string, true, false)
/// replaced, one at a time, by each wrong value: none says a thing twice ("expected a natural
/// number (a natural number)").
template <class Read> void expectNoDoubledMessage(const std::string &doc, Read &&read) {
  static const std::regex doubled(R"(\b([a-z][a-z ]{4,}[a-z]) \(\1)");
  // The scalar values of `doc` (no escapes in it): strings that are not keys, numbers, booleans.
  std::vector<std::pair<std::size_t, std::size_t>> scalars; // offset, length
  for (std::size_t i = 0; i < doc.size();) {
    std::size_t end = i + 1;
    if (doc[i] == '"') {
      end = doc.find('"', i + 1) + 1;
      if (doc[end] != ':')
        scalars.emplace_back(i, end - i);
    } else if (std::isdigit(static_cast<unsigned char>(doc[i])) || doc[i] == 't' || doc[i] == 'f') {
      while (end < doc.size() && std::isalnum(static_cast<unsigned char>(doc[end])))
        ++end;
      scalars.emplace_back(i, end - i);
    }
    i = end;
  }
  const char *wrong[] = {"-1", "1.5", "\"x\"", "[-1]", "{}", "true", "null", "[[]]"};
  std::size_t messages = 0;
  for (const auto &[at, length] : scalars)
    for (const char *w : wrong) {
      try {
        read(io::sourceFromString("doc.json", doc.substr(0, at) + w + doc.substr(at + length)));
      } catch (const io::InputError &e) {
        ++messages;
        EXPECT_FALSE(std::regex_search(e.message(), doubled)) << e.what();
      }
    }
  EXPECT_GT(messages, 100u);
}

TEST(ReaderReject, NoMessageSaysAThingTwice) {
  const std::string kinds = R"({"nodeId":3,"kind":{"tag":"softmax","axis":1},"op":"softmax",)"
                            R"("capsule":"s"},{"nodeId":4,"kind":{"tag":"reshape","inShape":[2],)"
                            R"("outShape":[2]},"op":"reshape","capsule":"h"})";
  const std::string plan =
      "{\"format\":\"nn-backend/graph-execution-plan\",\"version\":1,\"capsules\":{\"r\":" +
      capsuleJson("reference.relu", "relu") + ",\"s\":" + capsuleJson("s", "softmax") +
      ",\"h\":" + capsuleJson("h", "reshape") + "},\"kernels\":[" + k1 + "," + kinds + "]}";
  expectNoDoubledMessage(plan, [](const io::Source &s) {
    Interner interner;
    (void)lo::test::seed::readExecutionPlan(s, interner);
  });
  const std::string lowering =
      "{\"format\":\"nn-backend/graph-lowering-plan\",\"version\":1,\"mode\":\"coalesced\","
      "\"equality\":\"contract\",\"capsules\":{\"r\":" +
      capsuleJson("reference.relu", "relu") +
      "},\"groups\":[{\"nodeIds\":[1,2],\"kinds\":[\"relu\",\"relu\"],\"op\":\"relu\","
      "\"capsule\":\"r\",\"groupingKind\":\"sameCapsuleRun\"}]}";
  expectNoDoubledMessage(lowering, [](const io::Source &s) {
    Interner interner;
    (void)lo::test::seed::readLoweringPlan(s, interner);
  });
}

TEST(ReaderReject, ByteOrderMark) {
  expectPlanRejected("@@\xEF\xBB\xBF{\"kernels\":[]}", "", "byte-order mark");
}

TEST(ReaderReject, InvalidUtf8InAString) {
  // simdjson finds invalid UTF-8 in its first pass, before any value is visited: the message and
  // the file are what matter here.
  const io::Source src = io::sourceFromString(
      "plan.json", planDoc(k1, "\"format\":\"nn-backend/graph-execution-plan\xFF\",\n"));
  Interner interner;
  try {
    (void)lo::test::seed::readExecutionPlan(src, interner);
    ADD_FAILURE() << "accepted invalid UTF-8";
  } catch (const io::InputError &e) {
    EXPECT_EQ(e.file(), "plan.json");
    EXPECT_NE(e.message().find("invalid UTF-8"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("plan.json:", 0), 0u) << e.what();
  }
}

TEST(ReaderReject, EmptyFileIsRejected) {
  const io::Source src = io::sourceFromString("plan.json", "");
  Interner interner;
  EXPECT_THROW((void)lo::test::seed::readExecutionPlan(src, interner), io::InputError);
}

} // namespace
} // namespace lo::test
