// Proofs that cannot fail prove nothing: every obligation is refuted once the encoding of the
// algorithm is broken on purpose. Each test prints its obligation's row of the sabotage matrix
// (docs/proofs.md has the whole table) and asserts the sabotages it must catch are caught.
#include "proofs/obligations.hpp"
#include "proofs/selection.hpp"
#include "tests/campaign.hpp"
#include "tests/proofs/obligation_names.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <set>

namespace lo::proofs {
namespace {

// Every sabotage that is caught has a counterexample of exactly two nodes (a bounded obligation
// holds for lengths 0 and 1 under each), so the matrix checks length 2 only.
constexpr std::size_t kSabotageBound = 2;

using S = Sabotage;

// The sabotages each obligation must catch, by reading the sabotage and the obligation: a test
// fails if one of these is not refuted. (The printed row shows every sabotage that is caught.)
const std::map<std::string_view, std::set<Sabotage>> kMustCatch{
    {"singleton.provenance", {S::singletonDropsLast}},
    {"singleton.order", {S::singletonReversed, S::singletonDropsLast}},
    {"singleton.one-node", {S::singletonMergesFirstTwo, S::singletonDropsLast}},
    {"singleton.audit", {S::singletonShiftsCapsule, S::auditDropsTrust}},
    {"singleton.unique",
     {S::singletonReversed, S::singletonDropsLast, S::singletonMergesFirstTwo,
      S::singletonShiftsCapsule}},
    {"coalesced.provenance", {S::appendDropsKind, S::appendDropsId, S::singletonGroupDropsId}},
    {"coalesced.non-empty", {S::singletonGroupDropsId}},
    {"coalesced.order", {S::appendDropsId, S::appendPrepends}},
    {"coalesced.contract-equality",
     {S::canAppendIdentityOnly, S::canAppendIgnoresCapsule, S::foldAlwaysAppends}},
    {"coalesced.grouping-kind", {S::appendKeepsSingleton}},
    {"coalesced.maximal", {S::foldNeverAppends}},
    {"coalesced.audit", {S::canAppendIdentityOnly, S::canAppendIgnoresCapsule, S::auditDropsTrust}},
    {"coalesced.refines-singleton",
     {S::canAppendIdentityOnly, S::canAppendIgnoresCapsule, S::appendPrepends, S::appendDropsKind}},
    {"coalesced.unique",
     {S::canAppendIdentityOnly, S::foldNeverAppends, S::appendKeepsSingleton, S::appendPrepends}},
    {"step.order", {S::appendDropsId, S::appendDropsKind, S::appendPrepends}},
    {"step.grouping-kind", {S::appendKeepsSingleton, S::appendDropsKind}},
    {"step.non-empty", {S::singletonGroupDropsId}},
    {"step.contract-equality",
     {S::canAppendIdentityOnly, S::canAppendIgnoresCapsule, S::foldAlwaysAppends}},
    {"step.maximal", {S::foldNeverAppends}},
    {"step.audit", {S::canAppendIgnoresCapsule, S::auditDropsTrust}},
    {"step.refines-singleton", {S::canAppendIdentityOnly, S::canAppendIgnoresCapsule}},
    {"singleton.gate",
     {S::singletonShiftsCapsule, S::singletonDropsLast, S::singletonMergesFirstTwo}},
    {"coalesced.gate",
     {S::canAppendIdentityOnly, S::canAppendIgnoresCapsule, S::foldAlwaysAppends}},
    {"step.gate", {S::canAppendIdentityOnly, S::canAppendIgnoresCapsule, S::foldAlwaysAppends}},
    {"coalesced.acceptance",
     {S::canAppendIdentityOnly, S::canAppendIgnoresCapsule, S::foldAlwaysAppends}},
    {"step.acceptance",
     {S::canAppendIdentityOnly, S::canAppendIgnoresCapsule, S::foldAlwaysAppends}},
};

/// The selection obligations break under the selection's own sabotages (proofs/selection.hpp),
/// which change the choice and nothing of the lowering.
bool isSelection(const Obligation &o) { return o.needs == Needs::selection; }

using SS = SelectionSabotage;
const std::map<std::string_view, std::set<SelectionSabotage>> kSelectionMustCatch{
    {"selection.eligible", {SS::ignoresAvailability, SS::preferenceOverridesTrust}},
    {"selection.first", {SS::skipsPreference, SS::lastEligible}},
    {"selection.fails-when-none", {SS::ignoresAvailability, SS::preferenceOverridesTrust}},
    {"selection.trust-filter", {SS::preferenceOverridesTrust}},
    {"selection.narrowing", {SS::ignoresAvailability}},
};

std::vector<std::string_view> loweringObligationNames() {
  std::vector<std::string_view> out;
  for (const Obligation &o : obligations())
    if (!isSelection(o))
      out.push_back(o.name);
  return out;
}

/// The sabotages of group kinds, which a lowering without `kinds` and `groupingKind` cannot show.
bool showsOnlyInGroupKinds(Sabotage s) {
  return s == S::appendDropsKind || s == S::appendKeepsSingleton;
}

// `canAppend-ignores-op` is caught by nothing in the seed's editions, and rightly: in a valid plan
// `capsule.op == op`, and both equalities compare the capsules' ops, so the op comparison of
// canAppend is implied. In the lineage a kernel's op may differ from its capsule's (the acceptance
// gate's operationMismatch): there it is caught.
TEST(Sabotage, IgnoringTheOpInCanAppendChangesNothingOnValidPlansOfTheSeed) {
  for (const Obligation *o : obligationsOf(kNewestSeedEdition)) {
    const Result r = discharge(*o, Options{.edition = kNewestSeedEdition,
                                           .bound = kSabotageBound,
                                           .equality = Equality::contract,
                                           .timeoutMs = 60000,
                                           .sabotage = S::canAppendIgnoresOp});
    EXPECT_EQ(r.status, Status::proved) << o->name;
  }
  for (const char *name : {"coalesced.contract-equality", "step.contract-equality"}) {
    const Result r = discharge(*findObligation(name), Options{.edition = kNewestEdition,
                                                              .bound = kSabotageBound,
                                                              .equality = Equality::contract,
                                                              .timeoutMs = 60000,
                                                              .sabotage = S::canAppendIgnoresOp});
    EXPECT_EQ(r.status, Status::refuted) << name << " in " << spelling(kNewestEdition);
  }
}

class SabotageMatrix : public ::testing::TestWithParam<std::string_view> {};

// The whole row (every sabotage) in the campaign tier; outside it, the sabotages the obligation
// must catch (tests/campaign.hpp), each still refuted.
TEST_P(SabotageMatrix, EveryObligationCatchesASabotage) {
  const Obligation &o = *findObligation(GetParam());
  ASSERT_TRUE(kMustCatch.contains(o.name)) << o.name;
  std::set<Sabotage> caught;
  std::string row = "sabotage row " + std::string(o.name) + ":";
  const auto &must = kMustCatch.at(o.name);
  for (Sabotage s : allSabotages()) {
    if (!lo::testing::campaign() && !must.contains(s))
      continue;
    const Result r = discharge(o, Options{.edition = test_names::homeEdition(o),
                                          .bound = kSabotageBound,
                                          .minLength = kSabotageBound,
                                          .equality = Equality::contract,
                                          .timeoutMs = 60000,
                                          .sabotage = s});
    EXPECT_NE(r.status, Status::unknown) << o.name << " under " << spelling(s) << ": " << r.reason;
    if (r.status == Status::refuted) {
      caught.insert(s);
      row += " " + std::string(spelling(s));
    }
  }
  std::cout << row << '\n';
  EXPECT_FALSE(caught.empty()) << o.name << " catches no sabotage";
  for (Sabotage s : must)
    EXPECT_TRUE(caught.contains(s)) << o.name << " does not catch " << spelling(s);
}

INSTANTIATE_TEST_SUITE_P(Proofs, SabotageMatrix, ::testing::ValuesIn(loweringObligationNames()),
                         test_names::testName);

// The selection's matrix (registries of two capsules, in the newest edition; in the campaign tier
// in each edition of the lineage): each obligation catches the sabotages it must, each sabotage is
// caught, and the lowering's sabotages change no selection obligation. Rows printed as
// `selection sabotage row NAME in E: ...`.
TEST(Sabotage, SelectionObligationsCatchTheirSabotages) {
  std::size_t obligationsSeen = 0;
  for (const Obligation &o : obligations()) {
    if (!isSelection(o))
      continue;
    ++obligationsSeen;
    ASSERT_TRUE(kSelectionMustCatch.contains(o.name)) << o.name;
    for (std::size_t i = 0; i < vocabularySize<Edition>(); ++i) {
      const auto edition = static_cast<Edition>(i);
      if (!appliesIn(o, edition) || (edition != kNewestEdition && !lo::testing::campaign()))
        continue;
      std::set<SelectionSabotage> caught;
      std::string row = "selection sabotage row " + std::string(o.name) + " in " +
                        std::string(spelling(edition)) + ":";
      for (SelectionSabotage s : allSelectionSabotages()) {
        const Result r = discharge(o, Options{.edition = edition,
                                              .bound = kSabotageBound,
                                              .timeoutMs = 60000,
                                              .selectionSabotage = s});
        EXPECT_NE(r.status, Status::unknown) << o.name << " under " << spelling(s);
        if (r.status == Status::refuted) {
          caught.insert(s);
          row += " " + std::string(spelling(s));
        }
      }
      std::cout << row << '\n';
      for (SelectionSabotage s : kSelectionMustCatch.at(o.name))
        EXPECT_TRUE(caught.contains(s))
            << o.name << " does not catch " << spelling(s) << " in " << spelling(edition);
      EXPECT_EQ(discharge(o, Options{.edition = edition,
                                     .bound = kSabotageBound,
                                     .timeoutMs = 60000,
                                     .sabotage = S::foldAlwaysAppends})
                    .status,
                Status::proved)
          << o.name;
    }
  }
  EXPECT_EQ(obligationsSeen, kSelectionMustCatch.size());
  std::set<SelectionSabotage> required;
  for (const auto &[name, sabotages] : kSelectionMustCatch)
    required.insert(sabotages.begin(), sabotages.end());
  for (SelectionSabotage s : allSelectionSabotages())
    EXPECT_TRUE(required.contains(s)) << spelling(s) << " is required of no obligation";
}

// The gate obligations range over the dispositions of the edition proved: in each edition they
// catch the sabotages they must catch (the matrix above runs in the newest edition only).
TEST(Sabotage, GateObligationsCatchTheirSabotagesInEachEdition) {
  for (std::size_t i = 0; i < vocabularySize<Edition>(); ++i) {
    const auto edition = static_cast<Edition>(i);
    if (!(kOldKindEditions & editionBit(edition))) // 2026-08b proves as 2026-08: docs/spec.md §4
      continue;
    for (std::string_view name : {"singleton.gate", "coalesced.gate", "step.gate"})
      for (Sabotage s : kMustCatch.at(name)) {
        const Result r = discharge(*findObligation(name), Options{.edition = edition,
                                                                  .bound = kSabotageBound,
                                                                  .minLength = kSabotageBound,
                                                                  .equality = Equality::contract,
                                                                  .timeoutMs = 60000,
                                                                  .sabotage = s});
        EXPECT_EQ(r.status, Status::refuted)
            << name << " under " << spelling(s) << " in " << spelling(edition);
      }
  }
}

// The lineage's rows (the matrix above runs each obligation in its home edition): every obligation
// of the newest edition catches the sabotages it must catch, but those of group kinds; in the
// campaign tier the whole row, printed as `lineage sabotage row NAME: ...`.
TEST(Sabotage, LineageObligationsCatchTheirSabotages) {
  for (const Obligation *o : obligationsOf(kNewestEdition)) {
    if (isSelection(*o))
      continue; // SelectionObligationsCatchTheirSabotages
    ASSERT_TRUE(kMustCatch.contains(o->name)) << o->name;
    const auto &must = kMustCatch.at(o->name);
    std::size_t caught = 0;
    std::string row = "lineage sabotage row " + std::string(o->name) + ":";
    for (Sabotage s : allSabotages()) {
      const bool required = must.contains(s) && !showsOnlyInGroupKinds(s);
      if (!lo::testing::campaign() && !required)
        continue;
      const Result r = discharge(*o, Options{.edition = kNewestEdition,
                                             .bound = kSabotageBound,
                                             .minLength = kSabotageBound,
                                             .equality = Equality::contract,
                                             .timeoutMs = 60000,
                                             .sabotage = s});
      EXPECT_NE(r.status, Status::unknown) << o->name << " under " << spelling(s);
      if (required) {
        EXPECT_EQ(r.status, Status::refuted) << o->name << " under " << spelling(s);
      }
      if (r.status == Status::refuted) {
        ++caught;
        row += " " + std::string(spelling(s));
      }
    }
    std::cout << row << '\n';
    EXPECT_GT(caught, 0u) << o->name << " catches no sabotage in " << spelling(kNewestEdition);
  }
}

// Under contract equality, taking the node's capsule on append changes nothing (an appended node's
// capsule equals the group's); under identity it does: the group no longer keeps its first
// node's capsule, which the `capsule` check requires.
TEST(Sabotage, AppendTakingTheNodeCapsuleIsCaughtUnderIdentity) {
  const Options contract{.bound = kSabotageBound,
                         .equality = Equality::contract,
                         .timeoutMs = 60000,
                         .sabotage = S::appendTakesNodeCapsule};
  const Options identity{.bound = kSabotageBound,
                         .equality = Equality::identity,
                         .timeoutMs = 60000,
                         .sabotage = S::appendTakesNodeCapsule};
  const Obligation &o = *findObligation("coalesced.contract-equality");
  EXPECT_EQ(discharge(o, contract).status, Status::proved);
  EXPECT_EQ(discharge(o, identity).status, Status::refuted);
  EXPECT_EQ(discharge(*findObligation("step.maximal"), identity).status, Status::refuted);
}

} // namespace
} // namespace lo::proofs
