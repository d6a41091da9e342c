// Editions in `gen`, `verify` and `diff` (docs/spec.md §1.6): every generated value is one of the
// edition's, the suite's manifest records its edition, `verify` judges in it and refuses a suite of
// one edition judged as another, and `diff --worker` names the edition in every request.
#include "checks/catalogue.hpp"
#include "checks/checks.hpp"
#include "ref/edition.hpp"
#include "ref/io/error.hpp"
#include "ref/io/reader.hpp"
#include "ref/io/writer.hpp"
#include "tests/campaign.hpp"
#include "tests/cli_run.hpp"
#include "tests/gen/suite_outputs.hpp"
#include "tools/plans/kinds.hpp"
#include "tools/suite/generate.hpp"

#include <simdjson.h>

#include <fstream>
#include <regex>
#include <set>

namespace lo::testing {
namespace {

using suite::Case;
using suite::caseAt;
using suite::caseLabel;
using suite::planJson;

constexpr std::size_t kCases = 80;

/// What the values of a generated suite's plans are, read back by the edition's reader.
struct Seen {
  std::set<EvidenceTag> evidence;
  std::set<ClaimTag> claims;
  std::set<KindTag> kinds;
  std::set<BackendOp> ops;
  std::set<TrustLevel> trust;
  std::set<Provider> providers;
  std::set<Reduction> reductions;
  std::size_t specs = 0, masks = 0, sizedMasks = 0;
  std::size_t notes = 0;        // capsules with notes
  std::size_t seedPolicies = 0; // capsules with a rounding, subnormals or contraction drawn
};

void see(const Interner &in, const GraphExecutionPlan &plan, Seen &seen) {
  for (const PlannedNodeKernel &k : plan.kernels) {
    const OpKind &kind = in.kind(k.kind);
    seen.kinds.insert(kind.tag);
    seen.ops.insert(k.op);
    if (kind.tag == KindTag::hardMaskedSoftmax) {
      ++seen.masks;
      const HardMaskView mask = decodeHardMask(kind.params.at(0));
      std::uint64_t size = 1;
      for (auto d : mask.shape)
        size *= d;
      seen.sizedMasks += !mask.shape.empty() && mask.allowed.size() == size;
    }
    const KernelCapsule &c = in.capsule(k.capsule);
    seen.trust.insert(c.trustLevel);
    seen.providers.insert(c.provider);
    seen.reductions.insert(c.numericalPolicy.reduction);
    seen.notes += !c.notes.empty();
    seen.seedPolicies += c.numericalPolicy.rounding != Rounding::unspecified ||
                         c.numericalPolicy.subnormals != Subnormals::unspecified ||
                         c.numericalPolicy.contraction != Contraction::unspecified;
    for (const ContractDescriptor *d :
         {&c.shapeContract, &c.layoutContract, &c.valueContract, &c.vjpContract}) {
      seen.evidence.insert(d->evidence.tag);
      seen.claims.insert(d->claim.tag);
      seen.specs += d->claim.spec.has_value();
    }
  }
}

/// The first `kCases` cases of seed 5 in `edition`, each written and read back by the reader of
/// `edition`.
Seen generated(Edition edition) {
  Seen seen;
  suite::Settings s;
  s.seed = 5;
  s.edition = edition;
  for (std::size_t i = 0; i < kCases; ++i) {
    Interner in;
    const Case c = caseAt(in, s, i);
    const std::string text = planJson(in, c.plan, c.encoding, edition);
    Interner back;
    GraphExecutionPlan read;
    try {
      read = io::readExecutionPlan(io::sourceFromString("plan.json", text), back, edition);
    } catch (const io::InputError &e) {
      ADD_FAILURE() << caseLabel(i, c) << " is not valid in edition " << spelling(edition) << ": "
                    << io::formatError(e) << "\n"
                    << text;
      continue;
    }
    EXPECT_EQ(io::executionPlanJson(back, read), io::executionPlanJson(in, c.plan))
        << caseLabel(i, c);
    see(back, read, seen);
  }
  return seen;
}

TEST(EditionGen, A2026_08SuiteHasItsNewValuesAndNoSpec) {
  const Seen s = generated(Edition::e2026_08);
  EXPECT_TRUE(s.evidence.count(EvidenceTag::notApplicable));
  EXPECT_TRUE(s.claims.count(ClaimTag::vjpUnavailable));
  EXPECT_TRUE(s.kinds.count(KindTag::hardMaskedSoftmax));
  EXPECT_TRUE(s.ops.count(BackendOp::hard_masked_softmax));
  EXPECT_GT(s.sizedMasks, 0u) << "some masks have `allowed` of the shape's size";
  EXPECT_EQ(s.specs, 0u) << "claims of 2026-08 have no spec";
  // Only the edition's values (theorem and checker are 2026-07's).
  for (EvidenceTag t : s.evidence)
    EXPECT_TRUE(inEdition(t, Edition::e2026_08)) << spelling(t);
  EXPECT_FALSE(s.evidence.count(EvidenceTag::theorem));
  EXPECT_FALSE(s.evidence.count(EvidenceTag::checker));
}

TEST(EditionGen, A2026_07SuiteHasTheoremCheckerAndSpecAndNo2026_08Value) {
  const Seen s = generated(Edition::e2026_07);
  EXPECT_TRUE(s.evidence.count(EvidenceTag::theorem));
  EXPECT_TRUE(s.evidence.count(EvidenceTag::checker));
  EXPECT_GT(s.specs, 0u);
  EXPECT_FALSE(s.evidence.count(EvidenceTag::notApplicable));
  EXPECT_FALSE(s.claims.count(ClaimTag::vjpUnavailable));
  EXPECT_FALSE(s.kinds.count(KindTag::hardMaskedSoftmax));
  EXPECT_FALSE(s.ops.count(BackendOp::hard_masked_softmax));
  for (EvidenceTag t : s.evidence)
    EXPECT_TRUE(inEdition(t, Edition::e2026_07)) << spelling(t);
}

TEST(EditionGen, EveryEditionOnlyValueIsDrawn) {
  // Whatever ref/edition.hpp declares for an edition, its suite draws it (no list of gen's own).
  for (std::size_t e = 0; e < vocabularySize<Edition>(); ++e) {
    const auto edition = static_cast<Edition>(e);
    const Seen s = generated(edition);
    for (EvidenceTag t : valuesOf<EvidenceTag>(edition))
      EXPECT_TRUE(s.evidence.count(t)) << spelling(edition) << ": " << spelling(t);
    for (ClaimTag t : valuesOf<ClaimTag>(edition))
      EXPECT_TRUE(s.claims.count(t)) << spelling(edition) << ": " << spelling(t);
    // Every kind a plan of the edition can have (2026-08b's windows and `transpose` among them),
    // each read back by the edition's reader (generated() reads every plan back).
    for (KindTag t : plans::plannedKinds(edition))
      EXPECT_TRUE(s.kinds.count(t)) << spelling(edition) << ": " << spelling(t);
    for (TrustLevel t : valuesOf<TrustLevel>(edition))
      EXPECT_TRUE(s.trust.count(t)) << spelling(edition) << ": " << spelling(t);
    for (Provider p : valuesOf<Provider>(edition))
      EXPECT_TRUE(s.providers.count(p)) << spelling(edition) << ": " << spelling(p);
    for (Reduction r : valuesOf<Reduction>(edition))
      EXPECT_TRUE(s.reductions.count(r)) << spelling(edition) << ": " << spelling(r);
  }
}

TEST(EditionGen, ALineageSuiteHasTheLineagesCapsule) {
  // The lean-dojo lineage's capsule (docs/spec.md §2.2): no notes, a numerical policy of its
  // reduction alone; read back by its reader, which refuses the seed's values (generated()).
  for (Edition edition : {Edition::e2026_09, Edition::e2026_10}) {
    const Seen s = generated(edition);
    EXPECT_EQ(s.notes, 0u) << spelling(edition);
    EXPECT_EQ(s.seedPolicies, 0u) << spelling(edition);
    EXPECT_FALSE(s.trust.count(TrustLevel::verified)) << spelling(edition);
  }
  EXPECT_TRUE(generated(Edition::e2026_10).kinds.count(KindTag::custom));
  EXPECT_GT(generated(Edition::e2026_08).notes, 0u) << "the seed's capsule has notes";
}

TEST(EditionGen, APlanOfOneEditionIsRefusedByTheOther) {
  // The suites differ where the editions do: some plan of each is refused by the other's reader.
  for (const auto &[made, readIn] : {std::pair{Edition::e2026_07, Edition::e2026_08},
                                     std::pair{Edition::e2026_08, Edition::e2026_07}}) {
    suite::Settings s;
    s.edition = made;
    std::size_t refused = 0;
    for (std::size_t i = 0; i < suite::edgeCaseCount(); ++i) {
      Interner in;
      const Case c = caseAt(in, s, i);
      Interner back;
      try {
        io::readExecutionPlan(
            io::sourceFromString("plan.json", planJson(in, c.plan, c.encoding, made)), back,
            readIn);
      } catch (const io::InputError &e) {
        ++refused;
        EXPECT_NE(std::string(e.what()).find("use --edition " + std::string(spelling(made))),
                  std::string::npos)
            << e.what();
      }
    }
    EXPECT_GT(refused, 0u) << spelling(made) << " read in " << spelling(readIn);
  }
}

// --- gen and verify through the binary -----------------------------------------------------------

/// A suite of one edition (and its outputs) under names of that edition.
class EditionSuite : public SuiteTest {
protected:
  void makeSuite(const std::string &edition, int count = 14) {
    SuiteTest::makeSuite(count, {"--edition", edition}, "-" + edition, false);
  }
};

TEST_F(EditionSuite, GenAndVerifyRoundTripInEachEditionAndEveryFormatNamesIt) {
  // 14 cases: three lowerings each, two in the lean-dojo lineage (no singleton lowering).
  for (const auto &[edition, entries] : {std::pair<std::string, int>{"2026-07", 42},
                                         {"2026-08", 42},
                                         {"2026-08b", 42},
                                         {"2026-10", 28}}) {
    makeSuite(edition);
    EXPECT_NE(slurp(suite / "manifest.json").find("\"edition\": \"" + edition + "\""),
              std::string::npos);
    auto r = verify();
    EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
    const std::string n = std::to_string(entries);
    EXPECT_TRUE(std::regex_search(r.standardOutput,
                                  std::regex("\nverify: " + n + " entries: " + n +
                                             " conform, .*; judged in edition " + edition + "\n$")))
        << r.standardOutput;
    r = verify({"--edition", edition, "--format", "json"});
    EXPECT_EQ(r.code, 0) << r.standardError;
    EXPECT_NE(r.standardOutput.find("\"edition\":\"" + edition + "\""), std::string::npos);
    r = verify({"--format", "junit"});
    EXPECT_NE(r.standardOutput.find("<property name=\"edition\" value=\"" + edition + "\""),
              std::string::npos)
        << r.standardOutput.substr(0, 2000);
    r = verify({"--format", "sarif"});
    EXPECT_NE(r.standardOutput.find("\"edition\":\"" + edition + "\""), std::string::npos)
        << r.standardOutput.substr(0, 2000);
    r = verify({"--format", "html"});
    EXPECT_NE(r.standardOutput.find("judged in edition " + edition), std::string::npos);
  }
}

TEST_F(EditionSuite, ASuiteOfOneEditionJudgedAsAnotherIsRefused) {
  makeSuite("2026-07");
  const auto r = verify({"--edition", "2026-08"});
  EXPECT_EQ(r.code, 2) << r.standardOutput << r.standardError;
  EXPECT_EQ(r.standardOutput, "") << "no report";
  EXPECT_NE(r.standardError.find("a suite of one edition judged as another is refused"),
            std::string::npos)
      << r.standardError;
  EXPECT_NE(r.standardError.find("manifest.json: /edition: the suite is of edition 2026-07 and "
                                 "--edition asks for 2026-08"),
            std::string::npos)
      << r.standardError;
  EXPECT_EQ(std::count(r.standardError.begin(), r.standardError.end(), '\n'), 1)
      << "one line: " << r.standardError;
}

TEST_F(EditionSuite, AnUnknownEditionInTheManifestIsABadSuiteNamingWhere) {
  makeSuite("2026-08", 12);
  const fs::path manifest = suite / "manifest.json";
  std::string text = slurp(manifest);
  const std::size_t at = text.find("\"2026-08\"");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 9, "\"2026-13\"");
  std::ofstream(manifest, std::ios::binary | std::ios::trunc) << text;
  const auto r = verify();
  EXPECT_EQ(r.code, 2) << r.standardError;
  EXPECT_TRUE(
      std::regex_search(r.standardError, std::regex("manifest\\.json:[0-9]+:[0-9]+: .*edition")))
      << r.standardError;
  EXPECT_NE(r.standardError.find("/edition"), std::string::npos) << r.standardError;
  EXPECT_NE(r.standardError.find("2026-13"), std::string::npos) << r.standardError;
}

// --- diff --worker names the edition in every request --------------------------------------------

class EditionWorker : public TempDir {
protected:
  /// A conforming worker that also writes each request's `edition` (or `-` without one) to a log.
  std::string recordingWorker() {
    std::string lineage; // kLineageEditions, as a Python tuple
    for (std::size_t i = 0; i < vocabularySize<Edition>(); ++i)
      if (kLineageEditions & editionBit(static_cast<Edition>(i)))
        lineage += "'" + std::string(spelling(static_cast<Edition>(i))) + "', ";
    const fs::path script = dir / "recording_worker.py";
    std::ofstream(script)
        << "import json, sys\n"
           "sys.path.insert(0, '"
        << LO_PEERS_DIR << "')\n"
        << "import conforming\n"
           "log = open(sys.argv[1], 'a')\n"
           "for line in sys.stdin:\n"
           "    r = json.loads(line)\n"
           "    log.write(r.get('edition', '-') + '\\n')\n"
           "    log.flush()\n"
           "    same = (conforming.same_identity if r['equality'] == 'identity'\n"
           "            else conforming.same_contract)\n"
        << "    lineage = r['edition'] in (" << lineage
        << ")\n"
           "    groups = conforming.lower(r['inline'], r['mode'], same, lineage)\n"
           "    conforming.write(groups, r['mode'], r['equality'], r['out'],\n"
           "                     r['audit'], lineage)\n"
           "    print(json.dumps({'id': r['id'], 'status': 'done'}), "
           "flush=True)\n";
    return std::string(LO_PYTHON3) + " " + script.string() + " " + (dir / "log").string();
  }
  std::vector<std::string> logged() {
    std::vector<std::string> out;
    std::ifstream f(dir / "log");
    for (std::string line; std::getline(f, line);)
      out.push_back(line);
    return out;
  }
};

TEST_F(EditionWorker, EveryRequestCarriesTheEditionAskedFor) {
  for (const std::string edition : {"2026-07", "2026-08", ""}) {
    fs::remove(dir / "log");
    std::vector<std::string> args{"diff", "--worker", recordingWorker(), "--count", "20"};
    if (!edition.empty())
      args.insert(args.end(), {"--edition", edition});
    const auto r = oracle(args);
    EXPECT_EQ(r.code, 0) << r.standardOutput << r.standardError;
    const std::vector<std::string> lines = logged();
    EXPECT_EQ(lines.size(), 20u);
    const std::string expected =
        edition.empty() ? std::string(spelling(kNewestEdition)) : edition; // the newest by default
    for (const std::string &line : lines)
      EXPECT_EQ(line, expected);
  }
}

TEST_F(EditionWorker, ThePeersWorkerAndImplReadEveryGeneratedEdition) {
  // (2026-09b's capsules and rules are 2026-10's but for the kind `custom`: one of the two.)
  for (const std::string edition : {"2026-07", "2026-08", "2026-08b", "2026-09", "2026-10"}) {
    const auto r =
        oracle({"diff", "--worker", std::string(LO_PYTHON3) + " " + LO_PEERS_DIR + "/worker.py",
                "--count", std::to_string(instance(10, 60)), "--edition", edition});
    EXPECT_EQ(r.code, 0) << edition << r.standardOutput << r.standardError;
  }
  // The gate of 2026-08b is 2026-08's (the same capsules and dispositions): two editions suffice.
  for (const std::string edition : {"2026-07", "2026-08"}) {
    const auto r =
        oracle({"diff", "--gate",
                std::string(LO_PYTHON3) + " " + LO_PEERS_DIR +
                    "/gate.py {plan} --policy {policy} --mode {mode} --equality {equality}",
                "--count", std::to_string(instance(8, 16)), "--edition", edition});
    EXPECT_EQ(r.code, 0) << edition << r.standardOutput << r.standardError;
  }
}

TEST_F(EditionWorker, ExplainsExampleIsValidInEveryEdition) {
  for (const std::string edition : {"2026-07", "2026-08"}) {
    const auto r = oracle({"explain", "gate", "--edition", edition});
    EXPECT_EQ(r.code, 0) << r.standardError;
    EXPECT_NE(r.standardOutput.find("--edition " + edition), std::string::npos);
  }
  // 2026-08b has the seed's capsules and cfbb01e's kinds: every check's example is written and
  // read back in it.
  for (const std::string_view check : Vocabulary<Check>::spellings) {
    const auto r = oracle({"explain", std::string(check), "--edition", "2026-08b"});
    EXPECT_EQ(r.code, 0) << check << ": " << r.standardError;
    EXPECT_NE(r.standardOutput.find("--edition 2026-08b"), std::string::npos) << check;
  }
  // In the lean-dojo lineage each capsule of an example takes the edition's values; a check the
  // edition does not run has no example, and every other example fails its check there, as
  // `check --edition E` of the files shown says.
  for (const std::string edition : {"2026-09", "2026-10"})
    for (std::size_t c = 0; c < vocabularySize<Check>(); ++c) {
      const auto check = static_cast<Check>(c);
      const std::string name(spelling(check));
      const auto r = oracle({"explain", name, "--edition", edition});
      EXPECT_EQ(r.code, 0) << edition << " " << name << ": " << r.standardError;
      if (!checks::appliesIn(check, checks::info(check).onlyIn.value_or(Mode::coalesced),
                             *parseSpelling<Edition>(edition))) {
        EXPECT_NE(r.standardOutput.find("No example in edition " + edition), std::string::npos)
            << name;
        continue;
      }
      EXPECT_NE(r.standardOutput.find("--edition " + edition), std::string::npos) << name;
      EXPECT_NE(r.standardOutput.find(": " + name + ": "), std::string::npos)
          << edition << " " << name << ": the example does not fail its check\n"
          << r.standardOutput;
      EXPECT_EQ(r.standardOutput.find("\"notes\""), std::string::npos) << name;
    }
}

} // namespace
} // namespace lo::testing
