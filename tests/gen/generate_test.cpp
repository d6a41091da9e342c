// The generator: portable SplitMix64, same seed same bytes, valid plans, the hand-picked cases and
// the near-collisions the random cases are meant to contain.
#include "ref/io/reader.hpp"
#include "ref/io/writer.hpp"
#include "ref/lowering.hpp"
#include "tools/suite/generate.hpp"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <set>

namespace lo::suite {
namespace {

TEST(Rng, SplitMix64KnownAnswers) {
  // The published SplitMix64 sequence for seed 0: any platform must produce exactly these.
  plans::Rng rng(0);
  EXPECT_EQ(rng.next(), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(rng.next(), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(rng.next(), 0x06c45d188009454fULL);
  EXPECT_EQ(rng.next(), 0xf88bb8a8724c81ecULL);
}

TEST(Rng, BelowStaysInRangeAndHitsEveryValue) {
  plans::Rng rng(42);
  std::set<std::uint64_t> seen;
  for (int i = 0; i < 1000; ++i) {
    const auto v = rng.below(7);
    ASSERT_LT(v, 7u);
    seen.insert(v);
  }
  EXPECT_EQ(seen.size(), 7u);
}

std::string caseText(const suite::Settings &s, std::size_t i) {
  Interner interner;
  const suite::Case c = caseAt(interner, s, i);
  return caseLabel(i, c) + planJson(interner, c.plan, c.encoding, s.edition);
}

TEST(Generator, SameSeedSameBytesOtherSeedOtherPlans) {
  const suite::Settings a{7, 24}, b{8, 24};
  std::size_t differ = 0;
  for (std::size_t i = 0; i < 80; ++i) {
    EXPECT_EQ(caseText(a, i), caseText(a, i)) << "case " << i;
    differ += caseText(a, i) != caseText(b, i);
  }
  EXPECT_EQ(caseText(a, 0), caseText(b, 0)) << "hand-picked cases do not depend on the seed";
  EXPECT_GT(differ, 60u);
}

// Every generated plan, in every encoding, is a valid GraphExecutionPlan that reads back to the
// same plan; random cases respect --max-nodes.
TEST(Generator, PlansAreValidAndReadBack) {
  const suite::Settings s{3, 12};
  std::set<suite::Placement> encodings;
  for (std::size_t i = 0; i < 300; ++i) {
    Interner in;
    const suite::Case c = caseAt(in, s, i);
    encodings.insert(c.encoding.placement);
    if (i >= suite::edgeCaseCount()) {
      EXPECT_LE(c.plan.kernels.size(), s.maxNodes);
    }
    const std::string text = planJson(in, c.plan, c.encoding, s.edition);
    Interner back;
    GraphExecutionPlan read;
    ASSERT_NO_THROW(read = io::readExecutionPlan(io::sourceFromString("plan.json", text), back))
        << caseLabel(i, c) << "\n"
        << text;
    EXPECT_EQ(io::executionPlanJson(back, read), io::executionPlanJson(in, c.plan));
  }
  EXPECT_EQ(encodings.size(), 3u) << "table, inline and mixed capsule encodings all occur";
}

const suite::Case *findCase(const std::vector<suite::Case> &cases, std::string_view name) {
  for (const auto &c : cases)
    if (c.name == name)
      return &c;
  return nullptr;
}

TEST(Generator, HandPickedCases) {
  Interner in;
  std::vector<suite::Case> cases;
  for (std::size_t i = 0; i < suite::edgeCaseCount(); ++i)
    cases.push_back(suite::caseAt(in, {}, i));
  ASSERT_NE(findCase(cases, "empty-plan"), nullptr);
  EXPECT_TRUE(findCase(cases, "empty-plan")->plan.kernels.empty());
  EXPECT_EQ(findCase(cases, "one-node")->plan.kernels.size(), 1u);
  EXPECT_EQ(toCoalescedLoweringPlan(in, findCase(cases, "long-run")->plan).groups.size(), 1u);

  // A trusted-external capsule inside a run of checked ones, all of one identity.
  const auto &run = findCase(cases, "trusted-external-in-checked-run")->plan.kernels;
  std::size_t trusted = 0;
  for (std::size_t i = 0; i < run.size(); ++i) {
    const KernelCapsule &c = in.capsule(run[i].capsule);
    EXPECT_TRUE(sameIdentity(c, in.capsule(run[0].capsule)));
    if (isTrustedExternal(c)) {
      ++trusted;
      EXPECT_TRUE(i > 0 && i + 1 < run.size());
      EXPECT_EQ(in.capsule(run[i - 1].capsule).trustLevel, TrustLevel::checked);
      EXPECT_EQ(in.capsule(run[i + 1].capsule).trustLevel, TrustLevel::checked);
    }
  }
  EXPECT_EQ(trusted, 1u);

  // Identity-equal, contract-different neighbours: identity coalesces them, contract does not.
  const auto &near = findCase(cases, "identity-equal-contract-different")->plan;
  EXPECT_EQ(toCoalescedLoweringPlan(in, near, Equality::identity).groups.size(), 1u);
  EXPECT_EQ(toCoalescedLoweringPlan(in, near, Equality::contract).groups.size(),
            near.kernels.size()); // every neighbour differs in contract

  // Every planned kind with its parameters, inline and by table.
  for (const char *name : {"every-kind-inline", "every-kind-table"}) {
    std::set<KindTag> tags;
    for (const auto &k : findCase(cases, name)->plan.kernels)
      tags.insert(in.kind(k.kind).tag);
    EXPECT_EQ(tags.size(), valuesOf<KindTag>(kNewestEdition).size() - 3)
        << name << ": all but input, const, detach";
  }
  EXPECT_EQ(findCase(cases, "every-kind-inline")->encoding.placement, suite::Placement::inline_);
}

// Random cases contain what tells the equalities apart: runs of capsules equal in identity but
// not in contract, and among those, a trusted-external one.
TEST(Generator, RandomCasesHaveNearCollisions) {
  const suite::Settings s{1, 24};
  std::size_t equalitiesDiffer = 0, trustHidden = 0, runs = 0;
  for (std::size_t i = suite::edgeCaseCount(); i < suite::edgeCaseCount() + 200; ++i) {
    Interner in;
    const suite::Case c = caseAt(in, s, i);
    const auto contract = toCoalescedLoweringPlan(in, c.plan, Equality::contract);
    const auto identity = toCoalescedLoweringPlan(in, c.plan, Equality::identity);
    equalitiesDiffer += contract.groups.size() != identity.groups.size();
    trustHidden += hasTrustedExternal(in, toSingletonLoweringPlan(c.plan)) &&
                   !hasTrustedExternal(in, identity);
    runs += contract.groups.size() < c.plan.kernels.size();
  }
  EXPECT_GT(equalitiesDiffer, 20u);
  EXPECT_GT(trustHidden, 2u);
  EXPECT_GT(runs, 100u);
}

// The spellings of docs/spec.md §2 occur in the random cases, and within one plan: the same
// capsule spelled two ways in adjacent kernels (another key, inline against key, defaults left out
// or written, another member order), which an implementation comparing what is written splits.
TEST(Generator, SpellingsVaryWithinOnePlan) {
  const suite::Settings s{1, 24};
  const std::size_t plans = 200;
  std::size_t twoWays = 0, formatAbsent = 0, kindObject = 0, omitted = 0, written = 0, escaped = 0,
              secondKey = 0, canonical = 0;
  simdjson::dom::parser parser;
  for (std::size_t i = suite::edgeCaseCount(); i < suite::edgeCaseCount() + plans; ++i) {
    Interner in;
    const suite::Case c = caseAt(in, s, i);
    const std::string text = planJson(in, c.plan, c.encoding, s.edition);
    canonical += !c.encoding.spelling;
    Interner back;
    const GraphExecutionPlan read =
        io::readExecutionPlan(io::sourceFromString("plan.json", text), back);
    simdjson::dom::element doc = parser.parse(text);
    simdjson::dom::object table;
    const bool hasTable = !doc["capsules"].get(table);
    if (hasTable)
      for (auto [key, capsule] : table) {
        const std::string t = simdjson::minify(capsule);
        omitted += t.find("\"supportsForward\"") == std::string::npos;
        written += t.find("\"supportsForward\"") != std::string::npos;
      }
    std::set<CapsuleId> keyedCapsules;
    std::size_t keys = hasTable ? table.size() : 0;
    formatAbsent += doc["format"].error() == simdjson::NO_SUCH_FIELD;
    escaped += text.find("\\u00") != std::string::npos || text.find("\\/") != std::string::npos;
    std::vector<std::string> spelled; // each kernel's capsule as written
    std::size_t k = 0;
    bool objectKind = false;
    for (simdjson::dom::element kernel : doc["kernels"].get_array()) {
      simdjson::dom::object kind;
      if (!kernel["kind"].get(kind) && kind.size() == 1)
        objectKind = true;
      std::string_view key;
      if (!kernel["capsule"].get(key)) {
        keyedCapsules.insert(read.kernels[k].capsule);
        spelled.push_back("key " + std::string(key) + " " + simdjson::minify(table[key]));
      } else {
        const std::string t = simdjson::minify(kernel["capsule"]);
        omitted += t.find("\"supportsForward\"") == std::string::npos;
        written += t.find("\"supportsForward\"") != std::string::npos;
        spelled.push_back("inline " + t);
      }
      ++k;
    }
    kindObject += objectKind;
    secondKey += keys > keyedCapsules.size();
    bool differ = false;
    for (std::size_t j = 1; j < read.kernels.size(); ++j)
      differ |=
          read.kernels[j].capsule == read.kernels[j - 1].capsule && spelled[j] != spelled[j - 1];
    twoWays += differ;
  }
  std::cout << "of " << plans << " random plans: " << twoWays
            << " spell one capsule two ways in adjacent kernels, " << secondKey
            << " have a capsule under two keys, " << kindObject
            << " a kind without parameters as an object, " << formatAbsent << " no format, "
            << escaped << " optional escapes, " << canonical
            << " the reference writer's text; capsules without/with supportsForward: " << omitted
            << "/" << written << "\n";
  EXPECT_GT(twoWays, plans / 4);
  EXPECT_GT(secondKey, plans / 10);
  EXPECT_GT(kindObject, plans / 10);
  EXPECT_GT(formatAbsent, plans / 10);
  EXPECT_GT(escaped, plans / 4);
  EXPECT_GT(canonical, plans / 10);
  EXPECT_GT(omitted, plans / 4);
  EXPECT_GT(written, plans / 4);
}

} // namespace
} // namespace lo::suite
