// The audit of a lowering plan and its views (docs/spec.md §1.4: `audit`, `capsuleNames`,
// `trustLevels`, `trustedExternalOps`, `hasTrustedExternal`).
#include "support.hpp"

#include "ref/io/gate_writer.hpp"
#include "ref/io/writer.hpp"

#include <gtest/gtest.h>

namespace lo::test {
namespace {

using B = BackendOp;
using K = KindTag;

struct AuditTest : ::testing::Test {
  Interner interner;
  CapsuleId relu = interner.intern(makeCapsule("reference.relu", B::relu));
  CapsuleId mm =
      interner.intern(makeCapsule("libtorch.matmul", B::matmul, TrustLevel::trusted_external,
                                  Provider::libtorch, Device::cuda));
  CapsuleId sm =
      interner.intern(makeCapsule("reference.softmax", B::softmax, TrustLevel::verified));
  CapsuleId ext = interner.intern(makeCapsule(
      "libtorch.relu", B::relu, TrustLevel::trusted_external, Provider::libtorch, Device::cuda));
  GraphExecutionPlan plan{{node(1, K::relu, B::relu, relu), node(2, K::relu, B::relu, relu),
                           node(3, K::matmul, B::matmul, mm), node(4, K::relu, B::relu, ext),
                           node(5, K::relu, B::relu, relu)}};
};

TEST_F(AuditTest, OneRowPerGroupWithTheGroupsOpAndTheCapsulesFields) {
  const GraphLoweringPlan c = toCoalescedLoweringPlan(interner, plan);
  const ExecutionAudit a = audit(interner, c);
  ASSERT_EQ(a.kernels.size(), c.groups.size());
  ASSERT_EQ(a.kernels.size(), 4u);
  for (std::size_t i = 0; i < a.kernels.size(); ++i) {
    const KernelCapsule &row = interner.capsule(a.kernels[i].view);
    const KernelCapsule &cap = interner.capsule(c.groups[i].capsule);
    EXPECT_EQ(row.op, c.groups[i].op);
    EXPECT_EQ(row.name, cap.name);
    EXPECT_EQ(row.provider, cap.provider);
    EXPECT_EQ(row.device, cap.device);
    EXPECT_EQ(row.trustLevel, cap.trustLevel);
    EXPECT_EQ(row.vjpMode, cap.vjpMode);
    EXPECT_EQ(row.shapeContract, cap.shapeContract);
    EXPECT_EQ(row.layoutContract, cap.layoutContract);
    EXPECT_EQ(row.valueContract, cap.valueContract);
    EXPECT_EQ(row.vjpContract, cap.vjpContract);
    EXPECT_EQ(row.numericalPolicy, cap.numericalPolicy);
  }
  EXPECT_EQ(a, audit(interner, toExecutionPlan(c)));
}

TEST_F(AuditTest, RowOpComesFromTheGroupNotTheCapsule) {
  // A group whose op differs from its capsule's op (as a candidate file may say).
  GraphLoweringPlan p{{LoweredKernelGroup{
      {1}, {Interner::bareKind(K::add)}, B::add, relu, GroupingKind::singleton}}};
  const ExecutionAudit a = audit(interner, p);
  ASSERT_EQ(a.kernels.size(), 1u);
  EXPECT_EQ(interner.capsule(a.kernels[0].view).op, B::add);
  EXPECT_EQ(capsuleNames(interner, a), (std::vector<std::string>{"reference.relu"}));
}

TEST_F(AuditTest, RowsIgnoreFieldsTheAuditDoesNotShow) {
  KernelCapsule other = interner.capsule(relu);
  other.notes = "another note";
  other.supportsForward = false;
  const CapsuleId id = interner.intern(other);
  ASSERT_NE(id, relu);
  const ExecutionAudit a = audit(interner, ExecutionPlan{{{B::relu, relu}, {B::relu, id}}});
  EXPECT_EQ(a.kernels[0], a.kernels[1]);
  other.trustLevel = TrustLevel::fuzzed;
  const ExecutionAudit b =
      audit(interner, ExecutionPlan{{{B::relu, relu}, {B::relu, interner.intern(other)}}});
  EXPECT_NE(b.kernels[0], b.kernels[1]);
}

TEST_F(AuditTest, ViewsListNamesTrustLevelsAndTrustedExternalOps) {
  const ExecutionAudit coalesced = audit(interner, toCoalescedLoweringPlan(interner, plan));
  EXPECT_EQ(capsuleNames(interner, coalesced),
            (std::vector<std::string>{"reference.relu", "libtorch.matmul", "libtorch.relu",
                                      "reference.relu"}));
  EXPECT_EQ(trustLevels(interner, coalesced),
            (std::vector<TrustLevel>{TrustLevel::checked, TrustLevel::trusted_external,
                                     TrustLevel::trusted_external, TrustLevel::checked}));
  EXPECT_EQ(trustedExternalOps(interner, coalesced), (std::vector<B>{B::matmul, B::relu}));
  EXPECT_TRUE(hasTrustedExternal(interner, coalesced));

  const ExecutionAudit singleton = audit(interner, toSingletonLoweringPlan(plan));
  EXPECT_EQ(singleton.kernels.size(), 5u);
  EXPECT_EQ(capsuleNames(interner, singleton).front(), "reference.relu");
  EXPECT_EQ(trustedExternalOps(interner, singleton), (std::vector<B>{B::matmul, B::relu}));

  const ExecutionAudit clean = audit(
      interner,
      toCoalescedLoweringPlan(interner, GraphExecutionPlan{{node(1, K::relu, B::relu, relu),
                                                            node(2, K::softmax, B::softmax, sm)}}));
  EXPECT_FALSE(hasTrustedExternal(interner, clean));
  EXPECT_TRUE(trustedExternalOps(interner, clean).empty());
  EXPECT_EQ(trustLevels(interner, clean),
            (std::vector<TrustLevel>{TrustLevel::checked, TrustLevel::verified}));
  EXPECT_FALSE(hasTrustedExternal(interner, ExecutionAudit{}));
}

TEST_F(AuditTest, DocumentDerivesEveryView) {
  const ExecutionAudit a = audit(interner, toCoalescedLoweringPlan(interner, plan));
  const AuditDocument d = toDocument(interner, a);
  EXPECT_EQ(d.audit, a);
  EXPECT_EQ(d.capsuleNames, capsuleNames(interner, a));
  EXPECT_EQ(d.trustLevels, trustLevels(interner, a));
  EXPECT_EQ(d.trustedExternalOps, trustedExternalOps(interner, a));
  EXPECT_EQ(d.hasTrustedExternal, hasTrustedExternal(interner, a));
}

std::vector<std::string> textAuditLines(const Interner &interner, const ExecutionAudit &a,
                                        bool detailed) {
  std::string text;
  io::Sink out(text);
  io::writeAuditText(out, interner, a, detailed);
  out.flush();
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
    lines.push_back(text.substr(start, nl - start));
  EXPECT_EQ(start, text.size()) << "the text audit ends with a newline";
  return lines;
}

// docs/spec.md §3.5: text from the input is escaped in every report, so a capsule name cannot
// forge an audit line or hide one from a terminal.
TEST_F(AuditTest, TextEscapesControlCharactersOfNames) {
  KernelCapsule c = makeCapsule("evil\n#9  relu  forged\x1b[8m\r\x7f", B::relu);
  c.valueContract.evidence.text = "suite\nforged line";
  const CapsuleId evil = interner.intern(std::move(c));
  const ExecutionAudit a = audit(
      interner, toSingletonLoweringPlan(GraphExecutionPlan{{node(1, K::relu, B::relu, evil)}}));
  for (bool detailed : {false, true}) {
    const auto lines = textAuditLines(interner, a, detailed);
    ASSERT_EQ(lines.size(), detailed ? 6u : 2u);
    EXPECT_NE(lines[0].find("evil\\u000a#9  relu  forged\\u001b[8m\\u000d\\u007f"),
              std::string::npos)
        << lines[0];
    for (const std::string &line : lines)
      for (char ch : line)
        EXPECT_FALSE(static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) << line;
  }
}

// The original's `KernelAudit.detailedReportLines`: the row's line, then
// `    FIELD: CLAIM; EVIDENCE` for shape, layout, value and vjp.
TEST_F(AuditTest, DetailedTextHasTheFourContractLinesOfEachRow) {
  const ExecutionAudit a = audit(interner, toCoalescedLoweringPlan(interner, plan));
  const auto plain = textAuditLines(interner, a, false);
  const auto lines = textAuditLines(interner, a, true);
  ASSERT_EQ(plain.size(), a.kernels.size() + 1);
  ASSERT_EQ(lines.size(), 5 * a.kernels.size() + 1);
  for (std::size_t i = 0; i < a.kernels.size(); ++i) {
    EXPECT_EQ(lines[5 * i], plain[i]);
    EXPECT_EQ(lines[5 * i + 1].rfind("    shape: ", 0), 0u) << lines[5 * i + 1];
    EXPECT_EQ(lines[5 * i + 2].rfind("    layout: ", 0), 0u) << lines[5 * i + 2];
    EXPECT_EQ(lines[5 * i + 3].rfind("    value: ", 0), 0u) << lines[5 * i + 3];
    EXPECT_EQ(lines[5 * i + 4].rfind("    vjp: ", 0), 0u) << lines[5 * i + 4];
  }
  EXPECT_EQ(lines.back(), plain.back());
  // Row 0 is the reference ReLU of makeCapsule (tests/unit/support.hpp).
  EXPECT_EQ(lines[1], "    shape: shape safety for relu; guarded at runtime by portable runtime "
                      "shape checks");
  EXPECT_EQ(lines[3], "    value: relu forward refines the canonical semantics; covered by test "
                      "suite NN.Tests.Runtime.Floats.Suite");
}

TEST(AuditLabels, TheClaimsOfEachEdition) {
  // 2026-07's claims name their spec; 2026-08's refine the op's canonical semantics, and
  // vjpUnavailable says that no VJP is supplied (docs/spec.md §1.6).
  using T = ContractClaim::Tag;
  EXPECT_EQ(io::claimLabel({T::valueRefinement, BackendOp::relu, {}, "Spec.relu", {}}),
            "relu forward refines Spec.relu");
  EXPECT_EQ(io::claimLabel({T::valueRefinement, BackendOp::relu, {}, {}, {}}),
            "relu forward refines the canonical semantics");
  EXPECT_EQ(io::claimLabel({T::vjpRefinement, BackendOp::gelu, {}, {}, VJPMode::backend_vjp}),
            "gelu backend-vjp VJP refines the canonical semantics");
  EXPECT_EQ(io::claimLabel({T::vjpUnavailable, BackendOp::relu, {}, {}, {}}),
            "relu supplies no VJP");
  EXPECT_EQ(io::evidenceLabel({EvidenceTag::notApplicable, ""}), "not applicable");
}

} // namespace
} // namespace lo::test
