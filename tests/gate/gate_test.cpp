// The acceptance gate of docs/spec.md §6: dispositions, obligation reports, the policies, the
// order of the gate failures, the verdict, and the gate result writers.
#include "ref/gate.hpp"
#include "ref/io/gate_reader.hpp"
#include "ref/io/gate_writer.hpp"
#include "ref/io/source.hpp"
#include "ref/lowering.hpp"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <array>
#include <string>

namespace lo::test {
namespace {

using E = ContractEvidence::Tag;
using D = EvidenceDisposition;
using F = GateFailureKind;

ContractDescriptor descriptor(ContractClaim::Tag claim, BackendOp op, E evidence,
                              std::string text = "evidence") {
  ContractDescriptor d;
  d.claim.tag = claim;
  d.claim.op = op;
  d.claim.spec = claim == ContractClaim::Tag::valueRefinement ? "Spec.relu" : "";
  d.summary = "s";
  d.evidence = {evidence, evidence == E::notProvided ? "" : std::move(text)};
  return d;
}

/// A relu capsule whose four contracts carry the given evidence (shape, layout, value, vjp).
KernelCapsule capsule(std::string name, std::array<E, 4> evidence,
                      TrustLevel trust = TrustLevel::checked) {
  KernelCapsule c;
  c.name = std::move(name);
  c.op = BackendOp::relu;
  c.trustLevel = trust;
  using T = ContractClaim::Tag;
  c.shapeContract = descriptor(T::shapeSafety, c.op, evidence[0]);
  c.layoutContract = descriptor(T::layoutCompatibility, c.op, evidence[1]);
  c.valueContract = descriptor(T::valueRefinement, c.op, evidence[2]);
  c.vjpContract = descriptor(T::vjpRefinement, c.op, evidence[3]);
  return c;
}

AssurancePolicy policyFromBits(unsigned bits) {
  AssurancePolicy p;
  for (std::size_t i = 0; i < std::size(kPolicyFlags); ++i)
    p.*kPolicyFlags[i].field = (bits >> i) & 1;
  return p;
}

std::vector<F> kindsOf(const GateResult &r) {
  std::vector<F> out;
  for (const auto &f : r.failures)
    out.push_back(f.kind);
  return out;
}

TEST(Disposition, EveryEvidenceTag) {
  const std::pair<E, D> table[] = {{E::theorem, D::proved},       {E::checker, D::checked},
                                   {E::runtimeGuard, D::guarded}, {E::testSuite, D::tested},
                                   {E::fuzzOracle, D::fuzzed},    {E::trustedBoundary, D::trusted},
                                   {E::notProvided, D::missing}};
  for (auto [tag, d] : table) {
    EXPECT_EQ(disposition({tag, "x"}), d) << spelling(d);
    EXPECT_EQ(isProvided({tag, "x"}), d != D::missing);
    EXPECT_EQ(isTrustedBoundary({tag, "x"}), d == D::trusted);
  }
}

TEST(ObligationReports, FourPerRowInTheOrderShapeLayoutValueVjp) {
  Interner in;
  const CapsuleId c = in.intern(capsule(
      "native_cuda.relu", {E::runtimeGuard, E::theorem, E::trustedBoundary, E::notProvided}));
  const ExecutionAudit a = audit(in, ExecutionPlan{{{BackendOp::relu, c}, {BackendOp::relu, c}}});
  const auto reports = obligationReports(in, a);
  ASSERT_EQ(reports.size(), 8u);
  const ContractObligation order[] = {ContractObligation::shape, ContractObligation::layout,
                                      ContractObligation::value, ContractObligation::vjp};
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(reports[i].obligation, order[i % 4]);
    EXPECT_EQ(reports[i].op, BackendOp::relu);
    EXPECT_EQ(reports[i].capsuleName, "native_cuda.relu");
    EXPECT_EQ(reports[i].claim, contractOf(in.capsule(c), order[i % 4]).claim);
    EXPECT_EQ(reports[i].evidence, contractOf(in.capsule(c), order[i % 4]).evidence);
    EXPECT_EQ(reports[i].disposition, disposition(reports[i].evidence));
  }
  EXPECT_EQ(missingReports(in, a).size(), 2u);
  EXPECT_EQ(missingReports(in, a)[0].obligation, ContractObligation::vjp);
  EXPECT_EQ(trustedBoundaryReports(in, a).size(), 2u);
  EXPECT_EQ(trustedBoundaryReports(in, a)[1].obligation, ContractObligation::value);
  EXPECT_FALSE(hasNoMissingEvidence(in, a));
  EXPECT_EQ(missingObligations(in, a.kernels[0]),
            std::vector<ContractObligation>{ContractObligation::vjp});
  EXPECT_EQ(trustedBoundaryObligations(in, a.kernels[0]),
            std::vector<ContractObligation>{ContractObligation::value});
}

TEST(ObligationReports, OpComesFromTheRow) {
  Interner in;
  const CapsuleId c = in.intern(capsule("c", {E::theorem, E::theorem, E::theorem, E::theorem}));
  const auto reports = obligationReports(in, audit(in, ExecutionPlan{{{BackendOp::tanh, c}}}));
  ASSERT_EQ(reports.size(), 4u);
  EXPECT_EQ(reports[0].op, BackendOp::tanh);
  EXPECT_EQ(reports[0].claim.op, BackendOp::relu); // the claim is the capsule's
}

TEST(Policy, Presets) {
  const AssurancePolicy v = AssurancePolicy::verified();
  EXPECT_EQ(v, AssurancePolicy{});
  EXPECT_TRUE(v.requireEvidence);
  EXPECT_FALSE(v.allowChecked || v.allowFuzzed || v.allowTrustedExternal || v.allowRuntimeGuards ||
               v.allowTestEvidence);
  const AssurancePolicy c = AssurancePolicy::checked();
  EXPECT_TRUE(c.allowChecked && c.allowFuzzed && c.allowRuntimeGuards && c.allowTestEvidence &&
              c.requireEvidence);
  EXPECT_FALSE(c.allowTrustedExternal);
  AssurancePolicy e = c;
  e.allowTrustedExternal = true;
  EXPECT_EQ(AssurancePolicy::external(), e);
  EXPECT_EQ(policyName(v), "verified");
  EXPECT_EQ(policyName(c), "checked");
  EXPECT_EQ(policyName(e), "external");
  e.requireEvidence = false;
  EXPECT_EQ(policyName(e), "custom");
  EXPECT_EQ(policyPreset("checked"), c);
  EXPECT_EQ(policyPreset("strict"), std::nullopt);
}

TEST(Policy, AcceptsTrustIsThePlannersQuestion) {
  const AssurancePolicy v = AssurancePolicy::verified(), c = AssurancePolicy::checked(),
                        e = AssurancePolicy::external();
  EXPECT_TRUE(acceptsTrust(v, TrustLevel::verified));
  EXPECT_FALSE(acceptsTrust(v, TrustLevel::checked));
  EXPECT_TRUE(acceptsTrust(c, TrustLevel::checked));
  EXPECT_TRUE(acceptsTrust(c, TrustLevel::fuzzed));
  EXPECT_FALSE(acceptsTrust(c, TrustLevel::trusted_external));
  EXPECT_TRUE(acceptsTrust(e, TrustLevel::trusted_external));
}

TEST(Policy, AcceptsDisposition) {
  for (unsigned bits = 0; bits < 64; ++bits) {
    const AssurancePolicy p = policyFromBits(bits);
    EXPECT_EQ(acceptsDisposition(p, D::missing), !p.requireEvidence);
    EXPECT_EQ(acceptsDisposition(p, D::trusted), p.allowTrustedExternal);
    EXPECT_EQ(acceptsDisposition(p, D::fuzzed), p.allowFuzzed);
    EXPECT_EQ(acceptsDisposition(p, D::guarded), p.allowRuntimeGuards);
    EXPECT_EQ(acceptsDisposition(p, D::tested), p.allowTestEvidence);
    EXPECT_TRUE(acceptsDisposition(p, D::proved));
    EXPECT_TRUE(acceptsDisposition(p, D::checked));
  }
}

struct GateTest : ::testing::Test {
  Interner in;
  // One row of every disposition but proved, checked in the last row.
  CapsuleId a =
      in.intern(capsule("a", {E::fuzzOracle, E::trustedBoundary, E::testSuite, E::runtimeGuard}));
  CapsuleId b = in.intern(capsule("b", {E::notProvided, E::theorem, E::checker, E::fuzzOracle}));
  ExecutionAudit rows = audit(in, ExecutionPlan{{{BackendOp::relu, a}, {BackendOp::relu, b}}});
};

TEST_F(GateTest, FailuresInExactlyTheOrderOfTheSpec) {
  const GateResult r = gate(in, AssurancePolicy::verified(), rows);
  EXPECT_FALSE(r.accepted());
  EXPECT_EQ(kindsOf(r), (std::vector<F>{F::missingEvidence, F::runtimeGuardEvidence,
                                        F::testEvidence, F::trustedBoundary, F::fuzzEvidence}));
  // Each failure lists its reports in row order, with their rows.
  const GateFailure &fuzz = r.failures.back();
  ASSERT_EQ(fuzz.reports.size(), 2u);
  EXPECT_EQ(fuzz.reports[0].capsuleName, "a");
  EXPECT_EQ(fuzz.reports[0].obligation, ContractObligation::shape);
  EXPECT_EQ(fuzz.reports[1].capsuleName, "b");
  EXPECT_EQ(fuzz.reports[1].obligation, ContractObligation::vjp);
  EXPECT_EQ(fuzz.rows, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(r.failures[0].reports, missingReports(in, rows));
  EXPECT_EQ(r.failures[1].reports, guardedReports(in, rows));
  EXPECT_EQ(r.failures[2].reports, testedReports(in, rows));
  EXPECT_EQ(r.failures[3].reports, trustedBoundaryReports(in, rows));
  EXPECT_EQ(r.failures[4].reports, fuzzReports(in, rows));
}

TEST_F(GateTest, PresetsOnTheRows) {
  EXPECT_EQ(kindsOf(gate(in, AssurancePolicy::checked(), rows)),
            (std::vector<F>{F::missingEvidence, F::trustedBoundary}));
  EXPECT_EQ(kindsOf(gate(in, AssurancePolicy::external(), rows)),
            (std::vector<F>{F::missingEvidence}));
  AssurancePolicy all = AssurancePolicy::external();
  all.requireEvidence = false;
  EXPECT_TRUE(gate(in, all, rows).accepted());
}

TEST_F(GateTest, EveryPolicyAcceptsExactlyWhenEveryReportIsAdmitted) {
  for (unsigned bits = 0; bits < 64; ++bits) {
    const AssurancePolicy p = policyFromBits(bits);
    bool admitted = true;
    for (const auto &r : obligationReports(in, rows))
      admitted = admitted && acceptsDisposition(p, r.disposition);
    const GateResult g = gate(in, p, rows);
    EXPECT_EQ(g.accepted(), admitted) << bits;
    EXPECT_EQ(g.accepted(), gateFailures(in, p, rows).empty());
    for (const auto &f : g.failures) {
      EXPECT_FALSE(f.reports.empty());
      EXPECT_FALSE(acceptsDisposition(p, failureDisposition(f.kind)));
      for (const auto &r : f.reports)
        EXPECT_EQ(r.disposition, failureDisposition(f.kind));
    }
  }
}

TEST_F(GateTest, AllowCheckedAndTrustLevelDoNotEnterTheGate) {
  KernelCapsule other = in.capsule(a);
  other.trustLevel = TrustLevel::trusted_external;
  const ExecutionAudit relabelled =
      audit(in, ExecutionPlan{{{BackendOp::relu, in.intern(other)}, {BackendOp::relu, b}}});
  for (unsigned bits = 0; bits < 64; ++bits) {
    AssurancePolicy p = policyFromBits(bits), q = p;
    q.allowChecked = !p.allowChecked;
    EXPECT_TRUE(sameGate(gate(in, p, rows), gate(in, q, rows)));
    EXPECT_TRUE(sameGate(gate(in, p, rows), gate(in, p, relabelled)));
  }
}

TEST_F(GateTest, ExecutionPlanAndLoweringPlanGateTheirAudit) {
  const ExecutionPlan plan{{{BackendOp::relu, a}, {BackendOp::relu, b}}};
  for (const auto &preset : kPolicyPresets) {
    EXPECT_TRUE(sameGate(gate(in, preset.policy, plan), gate(in, preset.policy, rows)));
    EXPECT_EQ(acceptedBy(in, preset.policy, plan), gate(in, preset.policy, rows).accepted());
  }
  const GraphExecutionPlan g{{{1, Interner::bareKind(KindTag::relu), BackendOp::relu, a},
                              {2, Interner::bareKind(KindTag::relu), BackendOp::relu, b}}};
  EXPECT_TRUE(sameGate(gate(in, AssurancePolicy::verified(), toSingletonLoweringPlan(g)),
                       gate(in, AssurancePolicy::verified(), rows)));
}

TEST(SameGate, SetsNotMultiplicitiesButKindOrder) {
  Interner in;
  const CapsuleId c =
      in.intern(capsule("c", {E::fuzzOracle, E::theorem, E::theorem, E::trustedBoundary}));
  const AssurancePolicy v = AssurancePolicy::verified();
  const GateResult once = gate(in, v, ExecutionPlan{{{BackendOp::relu, c}}});
  const GateResult twice = gate(in, v, ExecutionPlan{{{BackendOp::relu, c}, {BackendOp::relu, c}}});
  EXPECT_EQ(twice.failures[0].reports.size(), 2 * once.failures[0].reports.size());
  EXPECT_TRUE(sameGate(once, twice));
  GateResult swapped = once;
  std::swap(swapped.failures[0], swapped.failures[1]);
  EXPECT_FALSE(sameGate(once, swapped));
  GateResult fewer = once;
  fewer.failures.pop_back();
  EXPECT_FALSE(sameGate(once, fewer));
  GateResult renamed = once;
  renamed.failures[0].reports[0].capsuleName = "d";
  EXPECT_FALSE(sameGate(once, renamed));
  EXPECT_TRUE(sameGate(GateResult{}, GateResult{}));
}

TEST(Coalescing, ContractPreservesTheGateIdentityCanFlipIt) {
  // docs/spec.md §6.7: two nodes of one identity, the second with trustedBoundary value evidence;
  // under checked the singleton lowering is rejected and the identity lowering accepted.
  Interner in;
  const CapsuleId first = in.intern(
      capsule("native_cuda.relu", {E::runtimeGuard, E::runtimeGuard, E::testSuite, E::testSuite}));
  KernelCapsule vendor = in.capsule(first);
  vendor.valueContract.evidence = {E::trustedBoundary, "vendor kernel"};
  const CapsuleId second = in.intern(vendor);
  const KindId relu = Interner::bareKind(KindTag::relu);
  const GraphExecutionPlan plan{
      {{1, relu, BackendOp::relu, first}, {2, relu, BackendOp::relu, second}}};
  const AssurancePolicy checked = AssurancePolicy::checked();
  const GateResult singleton = gate(in, checked, toSingletonLoweringPlan(plan));
  ASSERT_FALSE(singleton.accepted());
  EXPECT_EQ(kindsOf(singleton), std::vector<F>{F::trustedBoundary});
  for (unsigned bits = 0; bits < 64; ++bits) {
    const AssurancePolicy p = policyFromBits(bits);
    EXPECT_TRUE(sameGate(gate(in, p, toCoalescedLoweringPlan(in, plan, Equality::contract)),
                         gate(in, p, toSingletonLoweringPlan(plan))));
  }
  const GraphLoweringPlan identity = toCoalescedLoweringPlan(in, plan, Equality::identity);
  ASSERT_EQ(identity.groups.size(), 1u);
  EXPECT_TRUE(gate(in, checked, identity).accepted());
}

// --- Writers ------------------------------------------------------------------------------------

TEST_F(GateTest, JsonDocument) {
  const AssurancePolicy p = AssurancePolicy::checked();
  const GateResult r = gate(in, p, rows);
  const std::string text = io::gateResultJson(p, r);
  EXPECT_EQ(text, io::gateResultJson(p, r)); // deterministic
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(text).get(doc), simdjson::SUCCESS) << text;
  EXPECT_EQ(std::string_view(doc["format"]), "nn-backend/gate-result");
  EXPECT_EQ(int64_t(doc["version"]), 1);
  EXPECT_EQ(std::string_view(doc["policy"]["name"]), "checked");
  EXPECT_EQ(bool(doc["policy"]["allowChecked"]), true);
  EXPECT_EQ(bool(doc["policy"]["allowTrustedExternal"]), false);
  EXPECT_EQ(std::string_view(doc["verdict"]), "rejected");
  simdjson::dom::array failures = doc["failures"];
  ASSERT_EQ(failures.size(), 2u);
  EXPECT_EQ(std::string_view(failures.at(0)["kind"]), "missingEvidence");
  simdjson::dom::element report = failures.at(1)["reports"].at(0);
  EXPECT_EQ(std::string_view(report["op"]), "relu");
  EXPECT_EQ(std::string_view(report["capsuleName"]), "a");
  EXPECT_EQ(std::string_view(report["obligation"]), "layout");
  EXPECT_EQ(std::string_view(report["claim"]["tag"]), "layoutCompatibility");
  EXPECT_EQ(std::string_view(report["evidence"]["tag"]), "trustedBoundary");
  EXPECT_EQ(std::string_view(report["evidence"]["reason"]), "evidence");
  EXPECT_EQ(std::string_view(report["disposition"]), "trusted");
  EXPECT_NE(text.find("\"verdict\": \"rejected\""), std::string::npos);

  const std::string accepted = io::gateResultJson(p, GateResult{});
  ASSERT_EQ(parser.parse(accepted).get(doc), simdjson::SUCCESS) << accepted;
  EXPECT_EQ(std::string_view(doc["verdict"]), "accepted");
  EXPECT_EQ(simdjson::dom::array(doc["failures"]).size(), 0u);
}

TEST_F(GateTest, TextReport) {
  std::string text;
  {
    io::Sink out(text);
    io::writeGateText(out, AssurancePolicy::checked(), gate(in, AssurancePolicy::checked(), rows));
  }
  EXPECT_EQ(text, "rejected by policy checked (allowChecked allowFuzzed requireEvidence "
                  "allowRuntimeGuards allowTestEvidence): 2 failures\n"
                  "missingEvidence: 1 report\n"
                  "  #1 relu: b shape: shape safety for relu; no evidence recorded\n"
                  "trustedBoundary: 1 report\n"
                  "  #0 relu: a layout: canonical-tensor layout compatibility for relu; trusted "
                  "boundary: evidence\n");
  std::string accepted;
  {
    io::Sink out(accepted);
    io::writeGateText(out, AssurancePolicy::verified(), GateResult{});
  }
  EXPECT_EQ(accepted, "accepted by policy verified (requireEvidence)\n");
}

TEST_F(GateTest, TheBoundedWriterWritesWhatTheWritersWriteForEveryPolicy) {
  // `gate`'s writer (docs/spec.md §6.6) is byte for byte writeGateText and writeGateResult of the
  // gate when no string is longer than the bound.
  const ExecutionAudit many =
      audit(in, ExecutionPlan{{{BackendOp::relu, a}, {BackendOp::relu, b}, {BackendOp::relu, a}}});
  for (const ExecutionAudit *r : {static_cast<const ExecutionAudit *>(&rows), &many})
    for (unsigned bits = 0; bits < 64; ++bits) {
      const AssurancePolicy p = policyFromBits(bits);
      const GateResult g = gate(in, p, *r);
      for (const bool json : {false, true}) {
        std::string expected, bounded;
        {
          io::Sink out(expected);
          if (json)
            io::writeGateResult(out, p, g);
          else
            io::writeGateText(out, p, g);
        }
        bool accepted = false;
        {
          io::Sink out(bounded);
          accepted = io::writeBoundedGate(out, in, p, *r, json);
        }
        EXPECT_EQ(bounded, expected) << bits << (json ? " json" : " text");
        EXPECT_EQ(accepted, g.accepted()) << bits;
      }
    }
}

TEST(GateBound, OneWriterTheSameBytesForEveryGateResultWhateverTheLengthOfAString) {
  // docs/spec.md §6.5, "Bound": writeGateResult and writeGateText (gen's expected gate results,
  // diff's expected.json and report) write what `gate` writes (writeBoundedGate) also when a
  // capsule name, a claim spec and an evidence text are over 1024 bytes; and the reference's
  // reports as verify --gates compares them (gateReportText) are the reports `gate` wrote.
  Interner in;
  const std::string longName = std::string(1023, 'n') + "\xc3\xa9" + std::string(1500, 'm');
  KernelCapsule c =
      capsule(longName, {E::trustedBoundary, E::testSuite, E::trustedBoundary, E::notProvided});
  // Edition 2026-07: value and vjp claims carry a spec (docs/spec.md §2.2), the others none.
  c.shapeContract.claim.spec = c.layoutContract.claim.spec = std::nullopt;
  c.valueContract.claim.spec = std::string(3000, 's');
  c.vjpContract.claim.spec = "Spec.relu";
  c.valueContract.evidence.text = std::string(2000, 'r');
  const CapsuleId id = in.intern(std::move(c));
  const ExecutionAudit rows =
      audit(in, ExecutionPlan{{{BackendOp::relu, id}, {BackendOp::relu, id}}});
  for (unsigned bits = 0; bits < 64; ++bits) {
    const AssurancePolicy p = policyFromBits(bits);
    const GateResult g = gate(in, p, rows);
    for (const bool json : {false, true}) {
      std::string whole, bounded;
      {
        io::Sink out(whole);
        if (json)
          io::writeGateResult(out, p, g);
        else
          io::writeGateText(out, p, g);
      }
      {
        io::Sink out(bounded);
        (void)io::writeBoundedGate(out, in, p, rows, json);
      }
      EXPECT_EQ(bounded, whole) << bits << (json ? " json" : " text");
      EXPECT_EQ(whole.find(std::string(1024, 'n')), std::string::npos) << bits;
      if (!json || g.accepted())
        continue;
      const io::ReadGateResult read =
          io::readGateResult(io::sourceFromString("gate.json", bounded), Edition::e2026_07);
      ASSERT_EQ(read.failures.size(), g.failures.size()) << bits;
      for (std::size_t f = 0; f < g.failures.size(); ++f)
        for (std::size_t r = 0; r < g.failures[f].reports.size(); ++r)
          EXPECT_EQ(read.failures[f].reports[r], io::gateReportText(g.failures[f].reports[r]))
              << bits;
    }
  }
}

TEST(GateBound, LongStringsAreCutSoTheOutputGrowsWithTheRowsOnly) {
  // Two capsules with 1 MiB strings alternating on 200 rows: unbounded, every report copies them
  // (about 2.4 GB of text, as much memory); bounded, at most kMaxGateTextBytes of each.
  Interner in;
  const std::string huge(std::size_t{1} << 20, 'x');
  std::array<CapsuleId, 2> ids{};
  for (int i = 0; i < 2; ++i) {
    KernelCapsule c = capsule(huge + char('a' + i), {E::trustedBoundary, E::trustedBoundary,
                                                     E::trustedBoundary, E::notProvided});
    c.valueContract.claim.spec = huge;
    for (ContractDescriptor *d : {&c.shapeContract, &c.layoutContract, &c.valueContract})
      d->evidence.text = huge + "\xc3\xa9"; // cut before a two-byte character, not inside
    ids[static_cast<std::size_t>(i)] = in.intern(std::move(c));
  }
  ExecutionPlan plan;
  for (std::size_t k = 0; k < 200; ++k)
    plan.kernels.push_back({BackendOp::relu, ids[k % 2]});
  const ExecutionAudit rows = audit(in, plan);
  for (const bool json : {false, true}) {
    std::string text;
    bool accepted = true;
    {
      io::Sink out(text);
      accepted = io::writeBoundedGate(out, in, AssurancePolicy::verified(), rows, json);
    }
    EXPECT_FALSE(accepted);
    // 200 rows, 4 reports each, each at most 3 cut strings and its labels.
    EXPECT_LT(text.size(), 200u * 4u * (3u * (io::kMaxGateTextBytes + 16u) + 512u)) << json;
    EXPECT_NE(text.find(std::string(io::kMaxGateTextBytes - 3, 'x') + "..."), std::string::npos);
    EXPECT_EQ(text.find(std::string(io::kMaxGateTextBytes + 1, 'x')), std::string::npos);
  }
  // The cut never splits a UTF-8 character.
  ObligationReport r;
  r.evidence.text = std::string(io::kMaxGateTextBytes - 1, 'y') + "\xc3\xa9";
  EXPECT_EQ(io::boundedReport(r).evidence.text,
            std::string(io::kMaxGateTextBytes - 1, 'y') + "...");
}

TEST(GateText, HostileTextStaysOnOneLine) {
  ObligationReport r;
  r.capsuleName = "evil\nname";
  r.evidence = {E::trustedBoundary, "line\nbreak"};
  r.claim.tag = ContractClaim::Tag::valueRefinement;
  r.claim.spec = "spec\r";
  EXPECT_EQ(io::reportLine(r).find('\n'), std::string::npos);
  EXPECT_EQ(io::reportLine(r).find('\r'), std::string::npos);
  // The one rule of docs/spec.md §3.5: a newline shows as `\u000a` here as in every report.
  EXPECT_NE(io::reportLine(r).find("evil\\u000aname"), std::string::npos) << io::reportLine(r);
  // Unicode line breaks and bidirectional controls cannot forge a line for a line splitter.
  r.capsuleName = "x\xe2\x80\xa8"
                  "accepted by policy verified\xc2\x85\xe2\x80\xae\xe2\x81\xa6";
  EXPECT_NE(io::reportLine(r).find(": x\\u2028accepted by policy verified\\u0085\\u202e\\u2066 "),
            std::string::npos)
      << io::reportLine(r);
}

TEST(GateText, Labels) {
  using T = ContractClaim::Tag;
  EXPECT_EQ(io::claimLabel({T::shapeSafety, BackendOp::relu, {}, {}, {}}), "shape safety for relu");
  EXPECT_EQ(io::claimLabel(
                {T::layoutCompatibility, BackendOp::add, TensorLayout::flat_row_major, {}, {}}),
            "flat-row-major layout compatibility for add");
  EXPECT_EQ(io::claimLabel({T::valueRefinement, BackendOp::relu, {}, "Spec.relu", {}}),
            "relu forward refines Spec.relu");
  EXPECT_EQ(io::claimLabel({T::vjpRefinement, BackendOp::relu, {}, "S", VJPMode::torchlean_tape}),
            "relu torchlean-tape VJP refines S");
  EXPECT_EQ(io::evidenceLabel({E::theorem, "t"}), "proved by t");
  EXPECT_EQ(io::evidenceLabel({E::checker, "c"}), "accepted by proved checker c");
  EXPECT_EQ(io::evidenceLabel({E::runtimeGuard, "g"}), "guarded at runtime by g");
  EXPECT_EQ(io::evidenceLabel({E::testSuite, "s"}), "covered by test suite s");
  EXPECT_EQ(io::evidenceLabel({E::fuzzOracle, "f"}), "compared by fuzz oracle f");
  EXPECT_EQ(io::evidenceLabel({E::trustedBoundary, "r"}), "trusted boundary: r");
  EXPECT_EQ(io::evidenceLabel({E::notProvided, ""}), "no evidence recorded");
}

} // namespace
} // namespace lo::test
