// The lean-dojo lineage's acceptance gate (docs/lineage.md §6), against upstream's own expectations
// (docs/lineage.md §7): srirampc/TorchLean, NN/Tests/Backend/Profile.lean, `run`, at a351909 (the
// same text at 801eb0e and 3447b74). Where upstream asserts only that some failure is present, or
// that the list is non-empty, the test asserts the exact list derived from the rules of
// docs/lineage.md §6.2 and says so. Line numbers are a351909's, placed but not checked against
// a checkout (docs/lineage.md §0).
#include "ref/acceptance.hpp"
#include "ref/io/acceptance_writer.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lo::test {
namespace {

using namespace lo::acceptance;
using Kind = AcceptanceFailureKind;

ContractDescriptor descriptor(ContractClaim claim, std::string summary, EvidenceTag tag,
                              std::string text) {
  return {claim, std::move(summary), {tag, std::move(text)}, {}};
}

ContractClaim claim(ClaimTag tag, BackendOp op,
                    TensorLayout layout = TensorLayout::canonical_tensor,
                    VJPMode mode = VJPMode::none) {
  return {tag, op, layout, std::nullopt, mode};
}

/// `Reference.relu` (docs/lineage.md §4).
KernelCapsule referenceRelu() {
  KernelCapsule c;
  c.name = "reference.relu";
  c.op = BackendOp::relu;
  c.provider = Provider::reference;
  c.device = Device::cpu;
  c.trustLevel = TrustLevel::checked;
  c.supportsForward = true;
  c.vjpMode = VJPMode::torchlean_tape;
  c.shapeContract =
      descriptor(claim(ClaimTag::shapeSafety, BackendOp::relu),
                 "Shapes are checked in Lean before entering the portable runtime path.",
                 EvidenceTag::runtimeGuard, "portable runtime shape checks");
  c.layoutContract = descriptor(claim(ClaimTag::layoutCompatibility, BackendOp::relu),
                                "Portable paths use TorchLean's canonical tensor representation.",
                                EvidenceTag::runtimeGuard, "typed tensor layout");
  c.valueContract = descriptor(claim(ClaimTag::valueRefinement, BackendOp::relu),
                               "Reference ReLU follows pointwise tensor semantics.",
                               EvidenceTag::testSuite, "NN.Tests.Runtime.Floats.Suite");
  c.vjpContract = descriptor(claim(ClaimTag::vjpRefinement, BackendOp::relu,
                                   TensorLayout::canonical_tensor, VJPMode::torchlean_tape),
                             "TorchLean tape supplies the VJP.", EvidenceTag::testSuite,
                             "NN.Tests.Runtime.Floats.Suite");
  c.numericalPolicy.reduction = Reduction::not_applicable;
  return c;
}

/// `trustedValueReluCapsule` of the test file.
KernelCapsule trustedValueRelu() {
  KernelCapsule c = referenceRelu();
  c.name = "reference.relu_trusted_value";
  c.valueContract =
      descriptor(claim(ClaimTag::valueRefinement, BackendOp::relu),
                 "Test-only value contract resting on a trusted boundary.",
                 EvidenceTag::trustedBoundary, "profile-test external implementation");
  return c;
}

/// `malformedReluCapsule` of the test file.
KernelCapsule malformedRelu() {
  KernelCapsule c = referenceRelu();
  c.name = "reference.relu_malformed";
  c.shapeContract = descriptor(claim(ClaimTag::valueRefinement, BackendOp::relu),
                               "Deliberately mismatched descriptor for contract-alignment testing.",
                               EvidenceTag::testSuite, "NN.Tests.Backend.Profile");
  return c;
}

/// `forwardOnlyReluCapsule` of the test file.
KernelCapsule forwardOnlyRelu() {
  KernelCapsule c = referenceRelu();
  c.name = "reference.relu_forward_only";
  c.vjpMode = VJPMode::none;
  c.vjpContract =
      descriptor(claim(ClaimTag::vjpUnavailable, BackendOp::relu),
                 "This test capsule intentionally has no VJP.", EvidenceTag::notApplicable, "");
  return c;
}

std::vector<Kind> kinds(const std::vector<AcceptanceFailure> &fs) {
  std::vector<Kind> out;
  for (const auto &f : fs)
    out.push_back(f.kind);
  return out;
}

std::vector<std::string> messages(const std::vector<AcceptanceFailure> &fs) {
  std::vector<std::string> out;
  for (const auto &f : fs)
    out.push_back(message(f));
  return out;
}

/// A two-node plan `[{1, relu, Reference.relu}, {2, relu, second}]`, as the test file builds it.
GraphExecutionPlan twoRelu(Interner &in, const KernelCapsule &second) {
  const KindId relu = Interner::bareKind(KindTag::relu);
  return {{{1, relu, BackendOp::relu, in.intern(referenceRelu())},
           {2, relu, BackendOp::relu, in.intern(second)}}};
}

// --- Admissibility of the planner's expectations (lines 365-376) -----------------------------

TEST(LineageAdmissible, ReferenceReluAndTheTestCapsules) {
  // "default registry contract fields are aligned" (for Reference.relu).
  EXPECT_TRUE(contractsAligned(referenceRelu()));
  KernelCapsule disabled = referenceRelu();
  disabled.name = "reference.relu_disabled";
  disabled.supportsForward = false;
  // "disabled forward capsule unexpectedly planned": not admissible under {device := cpu}.
  EXPECT_FALSE(admissible(KernelPolicy{}, disabled));
  // "inference accepts a forward capsule that also supports VJP".
  EXPECT_TRUE(admissible(KernelPolicy{Device::cpu, {}, {}, VJPMode::none}, referenceRelu()));
  // "forward-only differentiable capsule unexpectedly planned": aligned, but not under the tape.
  EXPECT_TRUE(contractsAligned(forwardOnlyRelu()));
  EXPECT_FALSE(
      admissible(KernelPolicy{Device::cpu, {}, {}, VJPMode::torchlean_tape}, forwardOnlyRelu()));
  // "malformed capsule unexpectedly planned".
  EXPECT_FALSE(contractsAligned(malformedRelu()));
  EXPECT_FALSE(admissible(KernelPolicy{}, malformedRelu()));
  // The trusted-value capsule is planned ("The planner admits it by label").
  EXPECT_TRUE(admissible(KernelPolicy{}, trustedValueRelu()));
}

// --- The acceptance expectations (lines 378-458) ---------------------------------------------

// Lines 378-397: "checked policy rejects trusted evidence hidden under a checked label", "external
// policy accepts trusted evidence", "rejected contract report names the value obligation".
// Upstream asserts some failure is evidenceRejected of `value`; the exact list is derived.
TEST(LineageAcceptance, TrustedValueContractIsRejectedOnTheValueObligation) {
  const auto failures = acceptanceFailures(checkedCpuPolicy(), BackendOp::relu, trustedValueRelu());
  ASSERT_EQ(kinds(failures), std::vector<Kind>{Kind::evidenceRejected});
  EXPECT_EQ(failures[0].obligation, ContractObligation::value);
  EXPECT_EQ(
      messages(failures),
      std::vector<std::string>{"reference.relu_trusted_value has rejected value evidence for "
                               "relu: trusted boundary: profile-test external implementation"});
  KernelPolicy external = checkedCpuPolicy();
  external.assurance = acceptance::AssurancePolicy::external();
  EXPECT_TRUE(acceptable(external, BackendOp::relu, trustedValueRelu()));
}

// Lines 399-408: "acceptance rejects a capsule relabelled as another operation". Upstream asserts
// some failure is `operationMismatch sigmoid relu`; the exact list is derived.
TEST(LineageAcceptance, ForgedOperationIsAnOperationMismatch) {
  const auto failures = acceptanceFailures(checkedCpuPolicy(), BackendOp::sigmoid, referenceRelu());
  ASSERT_EQ(kinds(failures), std::vector<Kind>{Kind::operationMismatch});
  EXPECT_EQ(failures[0].op, BackendOp::sigmoid);
  EXPECT_EQ(failures[0].capsuleOp, BackendOp::relu);
  EXPECT_EQ(message(failures[0]),
            "planned operation sigmoid does not match capsule operation relu");
}

// Lines 410-420: "acceptance rechecks capsule trust instead of trusting the planned record".
// Upstream asserts some failure is `trustRejected relu _ trustedExternal`; the exact list is
// derived.
TEST(LineageAcceptance, ForgedTrustIsRejected) {
  KernelCapsule forged = referenceRelu();
  forged.trustLevel = TrustLevel::trusted_external;
  const auto failures = acceptanceFailures(checkedCpuPolicy(), BackendOp::relu, forged);
  ASSERT_EQ(kinds(failures), std::vector<Kind>{Kind::trustRejected});
  EXPECT_EQ(failures[0].trust, TrustLevel::trusted_external);
  EXPECT_EQ(message(failures[0]),
            "reference.relu uses rejected trust level trusted-external for relu");
}

// Lines 422-431: the tiny ReLU graph under checkedCpu: accepted, one group of nodes 1 and 2 with
// `reference.relu`, no trusted external, one audit row.
TEST(LineageAcceptance, TinyReluGraphIsAcceptedInOneGroup) {
  Interner in;
  const auto result = acceptGraphKernelPlan(in, twoRelu(in, referenceRelu()), checkedCpuPolicy());
  EXPECT_TRUE(result.accepted());
  EXPECT_EQ(capsuleNames(in, result.groups), std::vector<std::string>{"reference.relu"});
  EXPECT_EQ(nodeIds(result.groups), (std::vector<NodeId>{1, 2}));
  EXPECT_FALSE(hasTrustedExternal(in, result.groups));
  EXPECT_EQ(audit(in, result.groups).kernels.size(), 1U);
}

// Lines 433-450: "different contracts retain separate audit groups" and "rejected grouped plan
// explains the failing contract", for each of four second capsules. Upstream asserts two groups
// and a non-empty failure list; the exact lists (the first group passes) are derived.
struct Changed {
  const char *what;
  KernelCapsule capsule;
  std::vector<Kind> expected;
  std::string firstMessage;
};

std::vector<Changed> changedCapsules() {
  KernelCapsule trust = referenceRelu();
  trust.trustLevel = TrustLevel::trusted_external;
  KernelCapsule value = trustedValueRelu();
  value.name = "reference.relu";
  KernelCapsule shape = malformedRelu();
  shape.name = "reference.relu";
  KernelCapsule forward = referenceRelu();
  forward.supportsForward = false;
  return {
      {"trust level",
       trust,
       {Kind::trustRejected},
       "reference.relu uses rejected trust level trusted-external for relu"},
      {"trusted value evidence",
       value,
       {Kind::evidenceRejected},
       "reference.relu has rejected value evidence for relu: trusted boundary: profile-test "
       "external implementation"},
      {"misaligned shape contract",
       shape,
       {Kind::contractsMisaligned},
       "reference.relu has misaligned contract claims for relu"},
      {"no forward",
       forward,
       {Kind::forwardUnsupported},
       "reference.relu has no forward implementation for relu"},
  };
}

TEST(LineageAcceptance, ChangedContractsKeepSeparateGroupsAndAreRejected) {
  for (const Changed &c : changedCapsules()) {
    SCOPED_TRACE(c.what);
    Interner in;
    const auto result = acceptGraphKernelPlan(in, twoRelu(in, c.capsule), checkedCpuPolicy());
    EXPECT_EQ(result.groups.groups.size(), 2U);
    EXPECT_FALSE(result.accepted());
    EXPECT_EQ(kinds(result.failures), c.expected);
    ASSERT_FALSE(result.failures.empty());
    EXPECT_EQ(message(result.failures[0]), c.firstMessage);
  }
}

// Lines 452-458: "different numerical policies retain separate audit groups". The verdict is not
// asserted upstream; derived: both groups pass.
TEST(LineageAcceptance, ChangedReductionKeepsSeparateGroups) {
  KernelCapsule changed = referenceRelu();
  changed.numericalPolicy.reduction = Reduction::implementation_defined;
  Interner in;
  const auto result = acceptGraphKernelPlan(in, twoRelu(in, changed), checkedCpuPolicy());
  EXPECT_EQ(result.groups.groups.size(), 2U);
  EXPECT_TRUE(result.accepted());
}

// --- The rules themselves (docs/lineage.md §6.2), beyond upstream's cases ----------------------

// Every failure kind at once, in upstream's order, with every message.
TEST(LineageAcceptance, EveryFailureKindInOrder) {
  KernelCapsule c = malformedRelu(); // contractsMisaligned
  c.name = "x";
  c.supportsForward = false;
  c.trustLevel = TrustLevel::trusted_external;
  c.provider = Provider::libtorch;
  c.device = Device::cuda;
  c.vjpMode = VJPMode::none;
  c.vjpContract = descriptor(claim(ClaimTag::vjpUnavailable, BackendOp::relu), "",
                             EvidenceTag::notApplicable, "");
  c.layoutContract.evidence = {EvidenceTag::trustedBoundary, "r1"};
  c.vjpContract.evidence = {EvidenceTag::trustedBoundary, "r2"};
  const KernelPolicy policy{Device::cpu, ProviderPreference::only(Provider::reference),
                            acceptance::AssurancePolicy::checked(), VJPMode::backend_vjp};
  const auto failures = acceptanceFailures(policy, BackendOp::gelu, c);
  EXPECT_EQ(kinds(failures),
            (std::vector<Kind>{Kind::operationMismatch, Kind::forwardUnsupported,
                               Kind::contractsMisaligned, Kind::trustRejected,
                               Kind::providerRejected, Kind::deviceMismatch, Kind::vjpMismatch,
                               Kind::evidenceRejected, Kind::evidenceRejected}));
  EXPECT_EQ(messages(failures), (std::vector<std::string>{
                                    "planned operation gelu does not match capsule operation relu",
                                    "x has no forward implementation for gelu",
                                    "x has misaligned contract claims for gelu",
                                    "x uses rejected trust level trusted-external for gelu",
                                    "x uses rejected provider libtorch for gelu",
                                    "x targets cuda, not requested cpu, for gelu",
                                    "x offers none, not requested backend-vjp, for gelu",
                                    "x has rejected layout evidence for gelu: trusted boundary: r1",
                                    "x has rejected vjp evidence for gelu: trusted boundary: r2",
                                }));
}

TEST(LineageAcceptance, ProviderPreferenceOnlyFiltersOnlyUnderOnly) {
  const KernelCapsule c = referenceRelu();
  KernelPolicy policy = checkedCpuPolicy();
  policy.provider = ProviderPreference::prefer(Provider::libtorch);
  EXPECT_TRUE(acceptable(policy, BackendOp::relu, c));
  policy.provider = ProviderPreference::only(Provider::libtorch);
  EXPECT_EQ(kinds(acceptanceFailures(policy, BackendOp::relu, c)),
            std::vector<Kind>{Kind::providerRejected});
  policy.provider = ProviderPreference::only(Provider::reference);
  EXPECT_TRUE(acceptable(policy, BackendOp::relu, c));
}

TEST(LineageAcceptance, VJPModes) {
  KernelPolicy policy = checkedCpuPolicy();
  policy.vjpMode = VJPMode::backend_vjp;
  // A tape capsule does not satisfy backend-vjp...
  EXPECT_EQ(kinds(acceptanceFailures(policy, BackendOp::relu, referenceRelu())),
            std::vector<Kind>{Kind::vjpMismatch});
  // ... but an op that requires no VJP always does.
  KernelCapsule random = forwardOnlyRelu();
  random.op = BackendOp::rand_uniform;
  for (ContractDescriptor *d :
       {&random.shapeContract, &random.layoutContract, &random.valueContract, &random.vjpContract})
    d->claim.op = BackendOp::rand_uniform;
  EXPECT_TRUE(acceptable(policy, BackendOp::rand_uniform, random));
  // Inference (none) accepts any VJP mode.
  policy.vjpMode = VJPMode::none;
  EXPECT_TRUE(acceptable(policy, BackendOp::relu, forwardOnlyRelu()));
  EXPECT_TRUE(acceptable(policy, BackendOp::relu, referenceRelu()));
}

// Coalescing is under contract equality: two capsules of one identity that differ in trust stay
// in two groups, so the second's failure is not hidden behind the first (docs/spec.md §1.3).
TEST(LineageAcceptance, GroupsAreCoalescedUnderContractEquality) {
  KernelCapsule second = referenceRelu();
  second.trustLevel = TrustLevel::trusted_external;
  Interner in;
  const GraphExecutionPlan plan = twoRelu(in, second);
  EXPECT_EQ(toCoalescedLoweringPlan(in, plan, Equality::identity).groups.size(), 1U);
  EXPECT_EQ(acceptGraphKernelPlan(in, plan, checkedCpuPolicy()).groups.groups.size(), 2U);
}

// --- The acceptance result (docs/spec.md §6.10) --------------------------------------------------

TEST(LineageAcceptance, FailuresCarryTheirGroup) {
  KernelCapsule trust = referenceRelu();
  trust.trustLevel = TrustLevel::trusted_external;
  Interner in;
  const auto result = acceptGraphKernelPlan(in, twoRelu(in, trust), checkedCpuPolicy());
  EXPECT_EQ(result.failureGroups, std::vector<std::size_t>{1});
}

TEST(LineageAcceptance, PreferenceSpellingsRoundTrip) {
  for (const ProviderPreference &p :
       {ProviderPreference::autoPreference(), ProviderPreference::prefer(Provider::libtorch),
        ProviderPreference::only(Provider::native_cuda)})
    EXPECT_EQ(parsePreference(preferenceSpelling(p)), p) << preferenceSpelling(p);
  EXPECT_EQ(preferenceSpelling(ProviderPreference::only(Provider::libtorch)), "only:libtorch");
  for (const char *bad :
       {"", "prefer", "prefer:", "only:nope", "auto:reference", "Prefer:reference"})
    EXPECT_FALSE(parsePreference(bad)) << bad;
}

TEST(LineageAcceptanceResult, RejectedJsonNamesGroupKindFieldsAndMessage) {
  KernelCapsule trust = referenceRelu();
  trust.trustLevel = TrustLevel::trusted_external;
  Interner in;
  const GraphLoweringPlan groups =
      toCoalescedLoweringPlan(in, twoRelu(in, trust), Equality::contract);
  const std::string json = io::acceptanceText(in, "checked_cpu", checkedCpuPolicy(), groups, true);
  EXPECT_EQ(json, R"({
  "format": "nn-backend/acceptance-result",
  "version": 1,
  "policy": {"profile":"checked_cpu","device":"cpu","provider":"auto","allowTrustedExternal":false,"vjpMode":"torchlean-tape"},
  "verdict": "rejected",
  "groups": [
    {"nodeIds":[1],"op":"relu","capsuleName":"reference.relu"},
    {"nodeIds":[2],"op":"relu","capsuleName":"reference.relu"}
  ],
  "failures": [
    {"group":1,"kind":"trustRejected","op":"relu","capsuleName":"reference.relu","trust":"trusted-external","message":"reference.relu uses rejected trust level trusted-external for relu"}
  ]
}
)");
  const std::string text = io::acceptanceText(in, "checked_cpu", checkedCpuPolicy(), groups, false);
  EXPECT_EQ(text, "rejected by profile=checked_cpu device=cpu provider=auto assurance=checked "
                  "vjp=torchlean-tape: 1 failure\n"
                  "  group 1 trustRejected: reference.relu uses rejected trust level "
                  "trusted-external for relu\n");
}

TEST(LineageAcceptanceResult, AcceptedHasNoFailures) {
  Interner in;
  const GraphLoweringPlan groups =
      toCoalescedLoweringPlan(in, twoRelu(in, referenceRelu()), Equality::contract);
  const std::string text = io::acceptanceText(in, "checked_cpu", checkedCpuPolicy(), groups, false);
  EXPECT_EQ(text, "accepted by profile=checked_cpu device=cpu provider=auto assurance=checked "
                  "vjp=torchlean-tape\n");
  EXPECT_NE(io::acceptanceText(in, "checked_cpu", checkedCpuPolicy(), groups, true)
                .find("\"verdict\": \"accepted\",\n  \"groups\": [\n    {\"nodeIds\":[1,2]"),
            std::string::npos);
}

// A long capsule name is cut in the name and in the message alike.
TEST(LineageAcceptanceResult, LongNamesAreCut) {
  KernelCapsule c = referenceRelu();
  c.name = std::string(5000, 'n');
  c.supportsForward = false;
  Interner in;
  const GraphLoweringPlan groups = toCoalescedLoweringPlan(in, twoRelu(in, c), Equality::contract);
  const std::string json = io::acceptanceText(in, "checked_cpu", checkedCpuPolicy(), groups, true);
  EXPECT_EQ(json.find(std::string(1025, 'n')), std::string::npos);
  EXPECT_NE(json.find(std::string(1024, 'n') + "... has no forward implementation"),
            std::string::npos);
}

} // namespace
} // namespace lo::test
