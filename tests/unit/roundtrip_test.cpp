// Reading and writing (docs/spec.md §2): round trips, determinism, defaults, capsule keys, the
// capsules table after the kernels, inline capsules.
#include "support.hpp"
#include "tests/seed.hpp"

#include "ref/io/writer.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace lo::test {
namespace {

using B = BackendOp;
using K = KindTag;

GraphExecutionPlan readPlan(Interner &interner, const std::string &text,
                            Edition edition = lo::test::seed::kEdition) {
  return lo::test::seed::readExecutionPlan(io::sourceFromString("plan.json", text), interner,
                                           edition);
}

constexpr Edition kEditions[] = {Edition::e2026_07, Edition::e2026_08};

/// A plan that uses every kind of value the writer has to spell: parameterized kinds, provenance
/// of all three tags, every evidence tag of `edition`, a non-default policy, and strings needing
/// escapes; in 2026-08 also vjpUnavailable and a hardMaskedSoftmax kind.
GraphExecutionPlan richPlan(Interner &interner, Edition edition) {
  const bool july = edition == Edition::e2026_07;
  auto capsule = [&](std::string name, BackendOp op, TrustLevel trust = TrustLevel::checked,
                     Provider provider = Provider::reference, Device device = Device::cpu) {
    return makeCapsule(std::move(name), op, trust, provider, device, edition);
  };
  KernelCapsule relu = capsule("reference.relu", B::relu);
  relu.valueContract.provenance = {
      {ContractProvenance::Tag::sourceFile, "NN/Backend/Reference.lean", "", {}},
      {ContractProvenance::Tag::nativeSymbol, "csrc/relu.cpp", "relu_fwd", "relu_so"},
      {ContractProvenance::Tag::nativeSymbol, "csrc/relu.cpp", "relu_bwd", std::nullopt},
      {ContractProvenance::Tag::note, "quote \" backslash \\ newline \n tab \t bell \x07", "", {}}};
  relu.numericalPolicy = {Rounding::nearest_even, Subnormals::flush_to_zero,
                          Contraction::not_applicable, Reduction::fixed_tree};
  relu.supportsForward = false;
  KernelCapsule sm = capsule("reference.softmax", B::softmax, TrustLevel::verified);
  if (july) {
    sm.shapeContract.evidence = {ContractEvidence::Tag::theorem, "Spec.softmax_shape"};
    sm.layoutContract.evidence = {ContractEvidence::Tag::checker, "layoutChecker"};
  } else {
    sm.shapeContract.evidence = {ContractEvidence::Tag::notApplicable, ""};
    sm.vjpContract.claim = {ContractClaim::Tag::vjpUnavailable, B::softmax, {}, {}, {}};
  }
  sm.valueContract.evidence = {ContractEvidence::Tag::fuzzOracle, "softmaxFuzz"};
  sm.vjpContract.evidence = {ContractEvidence::Tag::notProvided, ""};
  KernelCapsule conv =
      capsule("ünïcode.conv", B::conv, TrustLevel::trusted_external, Provider::cudnn, Device::cuda);
  conv.valueContract.evidence = {ContractEvidence::Tag::trustedBoundary, "cuDNN"};
  const CapsuleId r = interner.intern(relu), s = interner.intern(sm), c = interner.intern(conv);
  const KindId conv2d = interner.intern(OpKind{K::conv2d, {{3}, {8}, {3}, {3}, {1}, {0}}});
  const KindId softmax = interner.intern(OpKind{K::softmax, {{1}}});
  const KindId flatten = interner.intern(OpKind{K::flatten, {{}}}); // scalar shape []
  const KindId permute = interner.intern(OpKind{K::permute, {{2, 0, 1}}});
  const CapsuleId reshape = interner.intern(capsule("reference.reshape", B::reshape));
  const CapsuleId perm = interner.intern(capsule("reference.permute", B::permute));
  GraphExecutionPlan plan{{{10, conv2d, B::conv, c},
                           node(11, K::relu, B::relu, r),
                           node(12, K::relu, B::relu, r),
                           {13, flatten, B::reshape, reshape},
                           {14, permute, B::permute, perm},
                           {15, softmax, B::softmax, s},
                           {16, softmax, B::softmax, s}}};
  if (!july) {
    const std::uint64_t shape[] = {2, 2}, allowed[] = {1, 0, 1, 1};
    const KindId masked =
        interner.intern(OpKind{K::hardMaskedSoftmax, {encodeHardMask(shape, allowed)}});
    const CapsuleId m =
        interner.intern(capsule("reference.hard_masked_softmax", B::hard_masked_softmax));
    plan.kernels.push_back({17, masked, B::hard_masked_softmax, m});
  }
  return plan;
}

TEST(RoundTrip, ExecutionPlanReadWriteRead) {
  for (Edition edition : kEditions) {
    SCOPED_TRACE(spelling(edition));
    Interner interner;
    const GraphExecutionPlan plan = richPlan(interner, edition);
    const std::string text = io::executionPlanJson(interner, plan);
    EXPECT_EQ(readPlan(interner, text, edition), plan);
    // Into a fresh interner: the same bytes again.
    Interner other;
    const GraphExecutionPlan again = readPlan(other, text, edition);
    EXPECT_EQ(io::executionPlanJson(other, again), text);
    // The other edition refuses it, naming the edition it fits.
    const Edition other_edition =
        edition == Edition::e2026_07 ? Edition::e2026_08 : Edition::e2026_07;
    try {
      Interner third;
      readPlan(third, text, other_edition);
      ADD_FAILURE() << "read in the other edition";
    } catch (const io::InputError &e) {
      EXPECT_NE(e.message().find("use --edition " + std::string(spelling(edition))),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(RoundTrip, HardMaskIsWrittenAsAnObject) {
  Interner interner;
  const std::string text = io::executionPlanJson(interner, richPlan(interner, Edition::e2026_08));
  EXPECT_NE(text.find("{\"tag\":\"hardMaskedSoftmax\",\"mask\":{\"shape\":[2,2],\"allowed\":[true,"
                      "false,true,true]}}"),
            std::string::npos)
      << text;
}

TEST(RoundTrip, WriteIsByteIdenticalTwice) {
  Interner interner;
  const GraphExecutionPlan plan = richPlan(interner, kNewestEdition);
  EXPECT_EQ(io::executionPlanJson(interner, plan), io::executionPlanJson(interner, plan));
  for (Mode mode : {Mode::singleton, Mode::coalesced})
    for (Equality eq : {Equality::contract, Equality::identity}) {
      const GraphLoweringPlan l = lower(interner, plan, mode, eq);
      const AuditDocument a = toDocument(interner, audit(interner, l));
      EXPECT_EQ(io::loweringPlanJson(interner, l, mode, eq, &a),
                io::loweringPlanJson(interner, l, mode, eq, &a));
      EXPECT_EQ(io::loweringPlanJson(interner, l, mode, eq),
                io::loweringPlanJson(interner, lower(interner, plan, mode, eq), mode, eq));
    }
}

TEST(RoundTrip, LoweringPlanWithAuditReadWriteRead) {
  for (Edition edition : kEditions)
    for (Mode mode : {Mode::singleton, Mode::coalesced})
      for (Equality eq : {Equality::contract, Equality::identity}) {
        Interner interner;
        const GraphExecutionPlan plan = richPlan(interner, edition);
        const GraphLoweringPlan l = lower(interner, plan, mode, eq);
        const AuditDocument a = toDocument(interner, audit(interner, l));
        const std::string text = io::loweringPlanJson(interner, l, mode, eq, &a);
        const io::LoweringDocument d = lo::test::seed::readLoweringPlan(
            io::sourceFromString("lowering.json", text), interner, edition);
        EXPECT_EQ(d.plan, l);
        EXPECT_EQ(d.mode, mode);
        EXPECT_EQ(d.equality, eq);
        ASSERT_TRUE(d.audit.has_value());
        EXPECT_EQ(*d.audit, a);
        EXPECT_EQ(io::loweringPlanJson(interner, d.plan, *d.mode, *d.equality, &*d.audit), text);
        // Without --audit, no audit is written or read.
        const io::LoweringDocument bare = lo::test::seed::readLoweringPlan(
            io::sourceFromString("lowering.json", io::loweringPlanJson(interner, l, mode, eq)),
            interner, edition);
        EXPECT_FALSE(bare.audit.has_value());
        EXPECT_EQ(bare.plan, l);
      }
}

TEST(RoundTrip, CoalescedTwoReluPlanAsWritten) {
  Interner interner;
  const CapsuleId r = interner.intern(makeCapsule("reference.relu", B::relu));
  const GraphExecutionPlan plan{{node(1, K::relu, B::relu, r), node(2, K::relu, B::relu, r)}};
  const std::string text = io::loweringPlanJson(interner, toCoalescedLoweringPlan(interner, plan),
                                                Mode::coalesced, Equality::contract);
  EXPECT_NE(text.find("\"format\": \"nn-backend/graph-lowering-plan\""), std::string::npos);
  EXPECT_NE(text.find("\"version\": 1"), std::string::npos);
  EXPECT_NE(text.find("{\"nodeIds\":[1,2],\"kinds\":[\"relu\",\"relu\"],\"op\":\"relu\","
                      "\"capsule\":\"reference.relu\",\"groupingKind\":\"sameCapsuleRun\"}"),
            std::string::npos)
      << text;
}

TEST(RoundTrip, EmptyPlanAndEmptyLowering) {
  Interner interner;
  const GraphExecutionPlan empty;
  const std::string text = io::executionPlanJson(interner, empty);
  EXPECT_EQ(readPlan(interner, text), empty);
  const GraphLoweringPlan l = toCoalescedLoweringPlan(interner, empty);
  const AuditDocument a = toDocument(interner, audit(interner, l));
  const std::string lt = io::loweringPlanJson(interner, l, Mode::coalesced, Equality::contract, &a);
  const io::LoweringDocument d =
      lo::test::seed::readLoweringPlan(io::sourceFromString("l", lt), interner);
  EXPECT_TRUE(d.plan.groups.empty());
  ASSERT_TRUE(d.audit.has_value());
  EXPECT_EQ(*d.audit, a);
  EXPECT_FALSE(d.audit->hasTrustedExternal);
}

TEST(RoundTrip, AStatedAuditIsKeptAsWritten) {
  // A candidate's audit may state views that do not follow from its rows; the reader keeps them
  // (the `audit` check compares).
  Interner interner;
  const CapsuleId r = interner.intern(makeCapsule("reference.relu", B::relu));
  const GraphLoweringPlan l =
      toCoalescedLoweringPlan(interner, GraphExecutionPlan{{node(1, K::relu, B::relu, r)}});
  AuditDocument a = toDocument(interner, audit(interner, l));
  a.capsuleNames = {"something else"};
  a.hasTrustedExternal = true;
  a.trustedExternalOps = {B::gelu};
  const std::string lt = io::loweringPlanJson(interner, l, Mode::coalesced, Equality::contract, &a);
  const io::LoweringDocument d =
      lo::test::seed::readLoweringPlan(io::sourceFromString("l", lt), interner);
  ASSERT_TRUE(d.audit.has_value());
  EXPECT_EQ(*d.audit, a);
  EXPECT_NE(*d.audit, toDocument(interner, audit(interner, d.plan)));
}

TEST(Defaults, OmittedFieldsEqualWrittenOutDefaults) {
  const std::string minimal = capsuleJson("reference.relu", "relu");
  std::string full = minimal;
  full.insert(full.size() - 1,
              ",\"supportsForward\":true,\"vjpMode\":\"none\",\"numericalPolicy\":{\"rounding\":"
              "\"unspecified\",\"subnormals\":\"unspecified\",\"contraction\":\"unspecified\","
              "\"reduction\":\"unspecified\"},\"notes\":\"\"");
  // provenance: [] written out in every descriptor.
  for (std::size_t at = 0;
       (at = full.find("\"evidence\":{\"tag\":\"notProvided\"}", at)) != std::string::npos;) {
    at += 32;
    full.insert(at, ",\"provenance\":[]");
  }
  std::string partialPolicy = minimal;
  partialPolicy.insert(partialPolicy.size() - 1, ",\"numericalPolicy\":{}");
  auto doc = [](const std::string &cap) {
    return "{\"kernels\":[{\"nodeId\":1,\"kind\":\"relu\",\"op\":\"relu\",\"capsule\":" + cap +
           "}]}";
  };
  Interner interner;
  const GraphExecutionPlan a = readPlan(interner, doc(minimal));
  const GraphExecutionPlan b = readPlan(interner, doc(full));
  const GraphExecutionPlan c = readPlan(interner, doc(partialPolicy));
  EXPECT_EQ(a.kernels[0].capsule, b.kernels[0].capsule);
  EXPECT_EQ(a.kernels[0].capsule, c.kernels[0].capsule);
  EXPECT_EQ(interner.capsuleCount(), 1u);
  const KernelCapsule &cap = interner.capsule(a.kernels[0].capsule);
  EXPECT_TRUE(cap.supportsForward);
  EXPECT_EQ(cap.vjpMode, VJPMode::none);
  EXPECT_EQ(cap.numericalPolicy, NumericalPolicy{});
  EXPECT_EQ(cap.numericalPolicy.rounding, Rounding::unspecified);
  EXPECT_EQ(cap.notes, "");
  EXPECT_TRUE(cap.valueContract.provenance.empty());
  // The writer writes the defaults out.
  const std::string written = io::executionPlanJson(interner, a);
  EXPECT_NE(written.find("\"supportsForward\":true"), std::string::npos);
  EXPECT_NE(written.find("\"vjpMode\":\"none\""), std::string::npos);
  EXPECT_NE(written.find("\"rounding\":\"unspecified\""), std::string::npos);
  EXPECT_NE(written.find("\"notes\":\"\""), std::string::npos);
  EXPECT_NE(written.find("\"provenance\":[]"), std::string::npos);
  // A non-default value is a different capsule.
  std::string other = minimal;
  other.insert(other.size() - 1, ",\"supportsForward\":false");
  EXPECT_NE(readPlan(interner, doc(other)).kernels[0].capsule, a.kernels[0].capsule);
}

TEST(Defaults, FormatAndVersionAreOptionalOnInputAndAlwaysWritten) {
  Interner interner;
  const GraphExecutionPlan p = readPlan(interner, "{\"kernels\":[]}");
  EXPECT_TRUE(p.kernels.empty());
  const std::string text = io::executionPlanJson(interner, p);
  EXPECT_EQ(
      text.rfind("{\n  \"format\": \"nn-backend/graph-execution-plan\",\n  \"version\": 1,", 0), 0u)
      << text;
  const io::LoweringDocument d =
      lo::test::seed::readLoweringPlan(io::sourceFromString("l.json", "{\"groups\":[]}"), interner);
  EXPECT_FALSE(d.mode.has_value());
  EXPECT_FALSE(d.equality.has_value());
  EXPECT_FALSE(d.audit.has_value());
}

TEST(CapsuleKeys, NameThenHashNumbersInOrderOfFirstUse) {
  Interner interner;
  const CapsuleId x1 = interner.intern(makeCapsule("x", B::relu, TrustLevel::checked));
  const CapsuleId x2 = interner.intern(makeCapsule("x", B::relu, TrustLevel::verified));
  const CapsuleId x3 = interner.intern(makeCapsule("x", B::relu, TrustLevel::fuzzed));
  const CapsuleId y = interner.intern(makeCapsule("y", B::relu));
  // First use order: x3, y, x1, x3 again, x2.
  const std::vector<CapsuleId> use{x3, y, x1, x3, x2};
  const io::CapsuleKeys keys(interner, use);
  EXPECT_EQ(keys.order(), (std::vector<CapsuleId>{x3, y, x1, x2}));
  EXPECT_EQ(keys.key(x3), "x");
  EXPECT_EQ(keys.key(y), "y");
  EXPECT_EQ(keys.key(x1), "x#2");
  EXPECT_EQ(keys.key(x2), "x#3");
}

TEST(CapsuleKeys, AKeyTakenByAnotherCapsulesNameIsSkipped) {
  Interner interner;
  const CapsuleId literal = interner.intern(makeCapsule("x#2", B::relu));
  const CapsuleId x1 = interner.intern(makeCapsule("x", B::relu, TrustLevel::checked));
  const CapsuleId x2 = interner.intern(makeCapsule("x", B::relu, TrustLevel::verified));
  const std::vector<CapsuleId> use{literal, x1, x2};
  const io::CapsuleKeys keys(interner, use);
  EXPECT_EQ(keys.key(literal), "x#2");
  EXPECT_EQ(keys.key(x1), "x");
  EXPECT_EQ(keys.key(x2), "x#3");
}

TEST(CapsuleKeys, KeysStayUniqueWhenANameLooksLikeAGeneratedKey) {
  Interner interner;
  const CapsuleId x1 = interner.intern(makeCapsule("x", B::relu, TrustLevel::checked));
  const CapsuleId x2 = interner.intern(makeCapsule("x", B::relu, TrustLevel::verified));
  const CapsuleId literal = interner.intern(makeCapsule("x#2", B::relu));
  const GraphExecutionPlan plan{{node(1, K::relu, B::relu, x1), node(2, K::relu, B::relu, x2),
                                 node(3, K::relu, B::relu, literal)}};
  const std::vector<CapsuleId> use{x1, x2, literal};
  const io::CapsuleKeys keys(interner, use);
  EXPECT_EQ(keys.key(x1), "x");
  EXPECT_EQ(keys.key(x2), "x#2");
  EXPECT_NE(keys.key(literal), "x#2");
  EXPECT_NE(keys.key(literal), "x");
  // Whatever the keys, the plan reads back with three distinct capsules.
  Interner fresh;
  const GraphExecutionPlan back = readPlan(fresh, io::executionPlanJson(interner, plan));
  ASSERT_EQ(back.kernels.size(), 3u);
  EXPECT_EQ(fresh.capsule(back.kernels[0].capsule), interner.capsule(x1));
  EXPECT_EQ(fresh.capsule(back.kernels[1].capsule), interner.capsule(x2));
  EXPECT_EQ(fresh.capsule(back.kernels[2].capsule), interner.capsule(literal));
}

TEST(CapsuleKeys, ALongNameIsCutInTheKeyAtACharacterBoundary) {
  Interner interner;
  // 127 ASCII bytes, then a 3-byte character that the 128-byte cut would split.
  const std::string longName = std::string(127, 'n') + "\xe2\x80\xa6" + std::string(1000, 'z');
  const CapsuleId a = interner.intern(makeCapsule(longName, B::relu, TrustLevel::checked));
  const CapsuleId b = interner.intern(makeCapsule(longName + "-other", B::relu));
  const CapsuleId exact = interner.intern(makeCapsule(std::string(128, 'e'), B::relu));
  const io::CapsuleKeys keys(interner, std::vector<CapsuleId>{a, b, exact});
  EXPECT_EQ(keys.key(a), std::string(127, 'n') + "...");
  // Two long names with the same first bytes: one cut name, so the rule's `#2`.
  EXPECT_EQ(keys.key(b), std::string(127, 'n') + "...#2");
  EXPECT_EQ(keys.key(exact), std::string(128, 'e'));
  EXPECT_EQ(io::keyNameOf(std::string(129, 'e')), std::string(128, 'e') + "...");
}

TEST(CapsuleKeys, ALongNameIsNotCopiedOntoEveryGroup) {
  // A 1 MiB name and 100 singleton groups: the name is written once per capsule in the table,
  // not once per group (it was 100 MiB of output).
  Interner interner;
  const std::string longName(std::size_t{1} << 20, 'x');
  const CapsuleId a = interner.intern(makeCapsule(longName, B::relu, TrustLevel::checked));
  const CapsuleId b = interner.intern(makeCapsule(longName, B::relu, TrustLevel::verified));
  GraphExecutionPlan plan;
  for (std::uint64_t id = 1; id <= 100; ++id)
    plan.kernels.push_back(node(id, K::relu, B::relu, id % 2 ? a : b));
  const std::string text =
      io::loweringPlanJson(interner, lower(interner, plan, Mode::coalesced, Equality::contract),
                           Mode::coalesced, Equality::contract);
  EXPECT_LT(text.size(), 2 * longName.size() + 100 * 300);
  Interner fresh;
  const io::LoweringDocument back =
      lo::test::seed::readLoweringPlan(io::sourceFromString("l.json", text), fresh);
  ASSERT_EQ(back.plan.groups.size(), 100u);
  EXPECT_EQ(fresh.capsule(back.plan.groups[0].capsule), interner.capsule(a));
  EXPECT_EQ(fresh.capsule(back.plan.groups[1].capsule), interner.capsule(b));
}

TEST(CapsuleKeys, WrittenPlanUsesTheKeysAndReadsBackDistinctCapsules) {
  Interner interner;
  const CapsuleId a =
      interner.intern(makeCapsule("native_cuda.relu", B::relu, TrustLevel::checked));
  const CapsuleId b =
      interner.intern(makeCapsule("native_cuda.relu", B::relu, TrustLevel::trusted_external));
  const GraphExecutionPlan plan{
      {node(1, K::relu, B::relu, b), node(2, K::relu, B::relu, a), node(3, K::relu, B::relu, b)}};
  const std::string text = io::executionPlanJson(interner, plan);
  const auto first = text.find("\"native_cuda.relu\": {");
  const auto second = text.find("\"native_cuda.relu#2\": {");
  ASSERT_NE(first, std::string::npos) << text;
  ASSERT_NE(second, std::string::npos) << text;
  EXPECT_LT(first, second);
  EXPECT_LT(text.find("\"trusted-external\""), text.find("\"checked\"")) << "b is used first";
  EXPECT_NE(
      text.find(
          "\"nodeId\":2,\"kind\":\"relu\",\"op\":\"relu\",\"capsule\":\"native_cuda.relu#2\""),
      std::string::npos);
  Interner fresh;
  const GraphExecutionPlan back = readPlan(fresh, text);
  EXPECT_EQ(back.kernels[0].capsule, back.kernels[2].capsule);
  EXPECT_NE(back.kernels[0].capsule, back.kernels[1].capsule);
  EXPECT_EQ(fresh.capsule(back.kernels[0].capsule), interner.capsule(b));
  EXPECT_EQ(fresh.capsule(back.kernels[1].capsule), interner.capsule(a));
}

TEST(Reader, CapsulesTableAfterTheKernels) {
  const std::string cap = capsuleJson("reference.relu", "relu");
  const std::string kernels = "\"kernels\":[{\"nodeId\":1,\"kind\":\"relu\",\"op\":\"relu\","
                              "\"capsule\":\"k\"},{\"nodeId\":2,\"kind\":\"relu\",\"op\":\"relu\","
                              "\"capsule\":\"k\"}]";
  const std::string table = "\"capsules\":{\"k\":" + cap + "}";
  Interner interner;
  const GraphExecutionPlan before = readPlan(interner, "{" + table + "," + kernels + "}");
  const GraphExecutionPlan after = readPlan(interner, "{" + kernels + "," + table + "}");
  EXPECT_EQ(before, after);
  EXPECT_EQ(after.kernels[0].capsule, after.kernels[1].capsule);
  EXPECT_EQ(toCoalescedLoweringPlan(interner, after).groups.size(), 1u);
  // The same for a lowering plan.
  const std::string groups = "\"groups\":[{\"nodeIds\":[1,2],\"kinds\":[\"relu\",\"relu\"],\"op\":"
                             "\"relu\",\"capsule\":\"k\",\"groupingKind\":\"sameCapsuleRun\"}]";
  const auto l1 = lo::test::seed::readLoweringPlan(
      io::sourceFromString("l", "{" + groups + "," + table + "}"), interner);
  const auto l2 = lo::test::seed::readLoweringPlan(
      io::sourceFromString("l", "{" + table + "," + groups + "}"), interner);
  EXPECT_EQ(l1.plan, l2.plan);
  EXPECT_EQ(l1.plan, toCoalescedLoweringPlan(interner, after));
}

TEST(Reader, InlineCapsulesInternToTheTableCapsule) {
  const std::string cap = capsuleJson("reference.relu", "relu");
  Interner interner;
  const GraphExecutionPlan inlined = readPlan(
      interner, "{\"kernels\":[{\"nodeId\":1,\"kind\":\"relu\",\"op\":\"relu\",\"capsule\":" + cap +
                    "},{\"nodeId\":2,\"kind\":\"relu\",\"op\":\"relu\",\"capsule\":" + cap + "}]}");
  const GraphExecutionPlan mixed = readPlan(
      interner,
      "{\"capsules\":{\"any key\":" + cap +
          "},\"kernels\":[{\"nodeId\":1,\"kind\":\"relu\",\"op\":\"relu\",\"capsule\":" + cap +
          "},{\"nodeId\":2,\"kind\":\"relu\",\"op\":\"relu\",\"capsule\":\"any key\"}]}");
  EXPECT_EQ(inlined, mixed);
  EXPECT_EQ(inlined.kernels[0].capsule, inlined.kernels[1].capsule);
  const GraphLoweringPlan c = toCoalescedLoweringPlan(interner, inlined);
  ASSERT_EQ(c.groups.size(), 1u);
  // Written back with the name as the key.
  EXPECT_NE(io::executionPlanJson(interner, inlined).find("\"capsule\":\"reference.relu\""),
            std::string::npos);
}

TEST(Reader, KindsInBothForms) {
  Interner interner;
  const GraphExecutionPlan p = readPlan(
      interner,
      "{\"kernels\":[{\"nodeId\":1,\"kind\":{\"tag\":\"relu\"},\"op\":\"relu\",\"capsule\":" +
          capsuleJson("r", "relu") +
          "},{\"nodeId\":2,\"kind\":\"relu\",\"op\":\"relu\",\"capsule\":" +
          capsuleJson("r", "relu") +
          "},{\"nodeId\":3,\"kind\":{\"axis\":1,\"tag\":\"softmax\"},\"op\":\"softmax\","
          "\"capsule\":" +
          capsuleJson("s", "softmax") + "}]}");
  EXPECT_EQ(p.kernels[0].kind, p.kernels[1].kind);
  EXPECT_EQ(interner.kind(p.kernels[2].kind), (OpKind{K::softmax, {{1}}}));
  const std::string text = io::executionPlanJson(interner, p);
  EXPECT_NE(text.find("\"kind\":\"relu\""), std::string::npos);
  EXPECT_NE(text.find("\"kind\":{\"tag\":\"softmax\",\"axis\":1}"), std::string::npos);
}

/// The bundled examples read, lower under every mode and equality, and round-trip, each folder in
/// its edition (examples/ in the newest, examples/2026-08/ in 2026-08), writing only the fields
/// the edition has.
TEST(Examples, ReadLowerWriteRead) {
  std::size_t seen = 0;
  const std::pair<std::string, Edition> folders[] = {
      {LO_EXAMPLES_DIR, kNewestEdition}, {LO_EXAMPLES_DIR "/2026-08", Edition::e2026_08}};
  for (const auto &[folder, edition] : folders)
    for (const auto &entry : std::filesystem::directory_iterator(folder)) {
      const std::string path = entry.path().string();
      // The plans only: lowering plans are named *.lowering.json, and candidate.json is the
      // candidate lowering the docs' check examples use.
      if (entry.path().extension() != ".json" || path.find(".lowering.json") != std::string::npos ||
          entry.path().filename() == "candidate.json")
        continue;
      SCOPED_TRACE(path);
      ++seen;
      Interner interner;
      const GraphExecutionPlan plan =
          io::readExecutionPlan(io::loadSource(path), interner, edition);
      EXPECT_FALSE(plan.kernels.empty());
      const std::string text = io::executionPlanJson(interner, plan, edition);
      EXPECT_EQ(readPlan(interner, text, edition), plan);
      for (Mode mode : {Mode::singleton, Mode::coalesced})
        for (Equality eq : {Equality::contract, Equality::identity}) {
          if (mode == Mode::singleton && !rulesOf(edition).singletonLowering)
            continue;
          const GraphLoweringPlan l = lower(interner, plan, mode, eq);
          EXPECT_EQ(nodeIds(l), nodeIds(toSingletonLoweringPlan(plan)));
          const std::string out = io::loweringPlanJson(interner, l, mode, eq, nullptr, edition);
          const GraphLoweringPlan back =
              io::readLoweringPlan(io::sourceFromString("l", out), interner, edition).plan;
          if (rulesOf(edition).groupKinds) {
            EXPECT_EQ(back, l);
            continue;
          }
          // A group of the lineage is {nodeIds, op, capsule} (docs/spec.md §1.6).
          ASSERT_EQ(back.groups.size(), l.groups.size());
          for (std::size_t g = 0; g < l.groups.size(); ++g) {
            EXPECT_EQ(back.groups[g].nodeIds, l.groups[g].nodeIds);
            EXPECT_EQ(back.groups[g].op, l.groups[g].op);
            EXPECT_EQ(back.groups[g].capsule, l.groups[g].capsule);
          }
        }
    }
  EXPECT_GE(seen, 10u);
}

} // namespace
} // namespace lo::test
