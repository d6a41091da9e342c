// The original's own expectations of the gate, on the capsules of its registry rebuilt as the
// examples under examples/gate/ (docs/spec.md §6). Each test names the line of
// `NN/Tests/Backend/Profile.lean` (wadkisson/TorchLean) it transcribes by its text. The original's
// `AssurancePolicy.verified` is this project's `verified` preset ("strict gate"), and
// `AssurancePolicy.checked` its `checked` preset ("runtime gate").
#include "ref/gate.hpp"
#include "ref/io/reader.hpp"
#include "tests/seed.hpp"

#include <gtest/gtest.h>

#include <string>

namespace lo::test {
namespace {

const std::string kExamples = LO_EXAMPLES_DIR;

/// The lowering the original gates: the file's groups as written for a lowering plan, else the
/// plan's lowering under `mode` (the original's `planOps` gates the selected kernels one a row,
/// which is the singleton lowering; the graph profiles coalesce). A file under 2026-07/ or
/// 2026-08/ is read in that edition (the evidence gate's).
GraphLoweringPlan loweringOf(Interner &in, const std::string &file, Mode mode = Mode::singleton) {
  const io::Source source = io::loadSource(kExamples + "/" + file);
  const Edition edition = file.starts_with("2026-07/") ? Edition::e2026_07 : test::seed::kEdition;
  if (io::detectDocumentKind(source) == io::DocumentKind::loweringPlan)
    return io::readLoweringPlan(source, in, edition).plan;
  return lower(in, io::readExecutionPlan(source, in, edition), mode, Equality::contract);
}

bool acceptedBy(const AssurancePolicy &policy, const std::string &file,
                Mode mode = Mode::singleton) {
  Interner in;
  return gate(in, policy, loweringOf(in, file, mode)).accepted();
}

bool hasFailure(const GateResult &r, GateFailureKind kind) {
  for (const auto &f : r.failures)
    if (f.kind == kind)
      return true;
  return false;
}

TEST(Profile, StrictGateRejectsFuzzOnlyEvidence) {
  // expect "strict gate rejects fuzz-only evidence"
  //   (!fuzzedRelu.acceptedBy AssurancePolicy.verified)
  EXPECT_FALSE(acceptedBy(AssurancePolicy::verified(), "2026-08/gate/fuzzed-relu.json"));
  Interner in;
  const GateResult r =
      gate(in, AssurancePolicy::verified(), loweringOf(in, "2026-08/gate/fuzzed-relu.json"));
  EXPECT_TRUE(hasFailure(r, GateFailureKind::fuzzEvidence));
  // Without the fuzz oracle the value contract would be test-backed like the others: the fuzz
  // evidence is what the fuzzEvidence failure names.
  for (const auto &f : r.failures)
    if (f.kind == GateFailureKind::fuzzEvidence) {
      ASSERT_EQ(f.reports.size(), 1u);
      EXPECT_EQ(f.reports[0].obligation, ContractObligation::value);
      EXPECT_EQ(f.reports[0].evidence.text, "profile-test-fuzz-oracle");
    }
}

TEST(Profile, RuntimeGateAcceptsFuzzBackedCheckedEvidence) {
  // expect "runtime gate accepts fuzz-backed checked evidence"
  //   (fuzzedRelu.acceptedBy AssurancePolicy.checked)
  EXPECT_TRUE(acceptedBy(AssurancePolicy::checked(), "2026-08/gate/fuzzed-relu.json"));
}

TEST(Profile, StrictGateAcceptsProofBearingEvidence) {
  // expect "strict gate accepts proof-bearing evidence"
  //   (provedRelu.acceptedBy AssurancePolicy.verified)
  EXPECT_TRUE(acceptedBy(AssurancePolicy::verified(), "2026-07/proved-relu.json"));
}

TEST(Profile, StrictGateRejectsTrustedLibTorchForward) {
  // expect "strict gate rejects trusted LibTorch forward"
  //   (!libtorchForward.acceptedBy AssurancePolicy.verified)
  EXPECT_FALSE(
      acceptedBy(AssurancePolicy::verified(), "2026-08/gate/libtorch-sdpa-forward.lowering.json"));
  Interner in;
  const GateResult r = gate(in, AssurancePolicy::verified(),
                            loweringOf(in, "2026-08/gate/libtorch-sdpa-forward.lowering.json"));
  EXPECT_TRUE(hasFailure(r, GateFailureKind::trustedBoundary));
  // The explicit external-provider policy admits the boundary it names.
  EXPECT_TRUE(
      acceptedBy(AssurancePolicy::external(), "2026-08/gate/libtorch-sdpa-forward.lowering.json"));
  EXPECT_FALSE(
      acceptedBy(AssurancePolicy::checked(), "2026-08/gate/libtorch-sdpa-forward.lowering.json"));
}

TEST(Profile, CheckedCpuGraphAcceptance) {
  // acceptedGraphOrThrow "checked cpu graph acceptance" BackendProfile.checkedCpu tinyReluGraph
  // (two relu nodes on reference.relu, coalesced, gated by the profile's checked policy)
  EXPECT_TRUE(acceptedBy(AssurancePolicy::checked(), "2026-08/two-relu.json", Mode::coalesced));
  // acceptedGraphOrThrow "checked cpu singleton graph acceptance" singletonCpuProfile ...
  EXPECT_TRUE(acceptedBy(AssurancePolicy::checked(), "2026-08/two-relu.json", Mode::singleton));
}

TEST(Profile, CheckedCpuGraphHasNoMissingEvidence) {
  // expect "checked cpu graph has no missing evidence" acceptedCpuGraph.audit.hasNoMissingEvidence
  Interner in;
  const GraphLoweringPlan l = loweringOf(in, "2026-08/two-relu.json", Mode::coalesced);
  EXPECT_TRUE(hasNoMissingEvidence(in, audit(in, l)));
  EXPECT_FALSE(
      hasFailure(gate(in, AssurancePolicy::verified(), l), GateFailureKind::missingEvidence));
}

} // namespace
} // namespace lo::test
