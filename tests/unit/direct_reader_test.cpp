// The direct path of the readers (ref/io/direct_reader.cpp) against the strict reader, in every
// edition: it takes the texts the writer writes and gives the strict reader's value
// (TakesTheWritersTexts), and on texts spelled every way and then damaged byte by byte it either
// declines or gives the strict reader's value, never one for a text the strict reader refuses
// (AgreesOnDamagedTexts; tests/direct_agreement.hpp). The seed is printed; LO_TEST_SEED=N runs it
// again.
#include "ref/io/graph_writer.hpp"
#include "ref/io/writer.hpp"
#include "ref/lowering.hpp"
#include "tests/direct_agreement.hpp"
#include "tests/random_seed.hpp"
#include "tools/plans/plans.hpp"
#include "tools/plans/selection_cases.hpp"
#include "tools/plans/spelling.hpp"

#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <iterator>
#include <string>

namespace lo::test {
namespace {

/// A random plan of edition `e`, with kinds that have parameters (the direct path reads those on
/// their own).
GraphExecutionPlan planOf(Interner &interner, plans::Rng &rng, Edition e) {
  plans::PlanKnobs knobs;
  knobs.edition = e;
  knobs.maxNodes = 40;
  return plans::randomPlan(interner, rng, knobs);
}

std::string loweringText(const Interner &interner, const GraphExecutionPlan &plan, Mode mode,
                         Edition e) {
  return io::loweringPlanJson(interner, lower(interner, plan, mode, Equality::contract), mode,
                              Equality::contract, nullptr, e);
}

/// `text` with a space after every `,"` and `":` (inside strings too: the readers are compared
/// on whatever text this gives).
std::string spaced(std::string text) {
  for (const std::string_view from : {std::string_view(",\""), std::string_view("\":")})
    for (std::size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + from.size() + 1))
      text.insert(at + (from[0] == ',' ? 1 : 2), 1, ' ');
  return text;
}

TEST(DirectReader, TakesTheWritersTexts) {
  plans::Rng rng(randomSeed());
  for (std::size_t ei = 0; ei < vocabularySize<Edition>(); ++ei) {
    const auto e = static_cast<Edition>(ei);
    for (int round = 0; round < 20; ++round) {
      Interner interner;
      const GraphExecutionPlan plan = planOf(interner, rng, e);
      for (const auto &[text, isPlan] :
           {std::pair{io::executionPlanJson(interner, plan, e), true},
            std::pair{loweringText(interner, plan, Mode::coalesced, e), false},
            std::pair{loweringText(interner, plan, Mode::singleton, e), false}}) {
        for (const std::string &t : {text, spaced(text)}) {
          Direct direct{};
          EXPECT_EQ(directDisagreement(t, isPlan ? Document::plan : Document::lowering, e, direct),
                    "")
              << spelling(e) << "\n"
              << t;
          EXPECT_EQ(direct, Direct::agreed) << "declined, edition " << spelling(e) << "\n" << t;
        }
      }
    }
  }
}

/// `text` with one byte replaced, inserted or removed, a stretch repeated, or a number spoiled.
std::string damaged(std::string text, plans::Rng &rng) {
  static constexpr std::string_view kBytes = "{}[],:\" \\0123456789-.eEtfnu/a\x01\xc3\xa9\xff";
  const std::size_t at = text.empty() ? 0 : rng.below(text.size());
  const char b = kBytes[rng.below(kBytes.size())];
  if (rng.chance(1, 5)) { // a zero before a number, or a number made longer than any natural
    const std::size_t digit = text.find_first_of("0123456789", at);
    if (digit != std::string::npos)
      text.insert(digit, rng.chance(1, 2) ? "0" : "99999999999999999999");
    return text;
  }
  switch (rng.below(4)) {
  case 0:
    if (!text.empty())
      text[at] = b;
    break;
  case 1: text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), b); break;
  case 2:
    if (!text.empty())
      text.erase(at, 1);
    break;
  default: {
    const std::size_t n = rng.below(std::min<std::size_t>(40, text.size() - at) + 1);
    text.insert(at, text.substr(at, n));
  }
  }
  return text;
}

TEST(DirectReader, ReadsGraphsAsTheStrictReader) {
  // Every example graph (a CNN, an MLP, a transformer block: kinds with parameters, which the
  // direct path leaves to the strict reader) and random graphs of every lean-dojo edition, as
  // written and damaged a byte at a time.
  plans::Rng rng(randomSeed());
  std::size_t agreed = 0, declined = 0;
  auto judge = [&](const std::string &text, Edition e) {
    Direct direct{};
    ASSERT_EQ(directDisagreement(text, Document::graph, e, direct), "") << "\n" << text;
    ++(direct == Direct::agreed ? agreed : declined);
  };
  for (const char *name : {"cnn", "mlp", "transformer-block"}) {
    std::ifstream in(std::string(LO_EXAMPLES_DIR) + "/graphs/" + name + ".json");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(text.empty()) << name;
    judge(text, kNewestEdition);
  }
  for (int round = 0; round < 500; ++round) {
    Interner interner;
    plans::SelectionKnobs knobs;
    do // an edition with selection (docs/spec.md §10)
      knobs.edition = static_cast<Edition>(rng.below(vocabularySize<Edition>()));
    while (!selection::hasSelection(knobs.edition));
    auto c = plans::randomSelectionCase(interner, rng, knobs);
    // The graph's nodes again, their ids and parents shifted (a model's repeated blocks: the
    // nodes the direct path reads as ones before but for their numbers).
    const std::size_t n = c.graph.nodes.size();
    for (std::size_t i = 0; i < n; ++i) {
      selection::Node again = c.graph.nodes[i];
      again.id += 1000;
      for (auto &parent : again.parents)
        parent += 1000;
      c.graph.nodes.push_back(std::move(again));
    }
    std::string text = io::graphJson(c.graph, interner);
    if (rng.chance(1, 2))
      text = spaced(std::move(text));
    for (int step = 0; step < 6; ++step) {
      judge(text, knobs.edition);
      text = damaged(std::move(text), rng);
    }
  }
  EXPECT_GT(agreed, 0u);
  EXPECT_GT(declined, 0u);
}

TEST(DirectReader, AgreesOnDamagedTexts) {
  plans::Rng rng(randomSeed());
  std::array<std::size_t, 2> agreed{}, declined{};
  for (std::size_t ei = 0; ei < vocabularySize<Edition>(); ++ei) {
    const auto e = static_cast<Edition>(ei);
    for (int round = 0; round < 40; ++round) {
      Interner interner;
      const GraphExecutionPlan plan = planOf(interner, rng, e);
      const auto placement =
          rng.pick({io::Placement::table, io::Placement::inline_, io::Placement::mixed});
      const bool isPlan = rng.chance(1, 2);
      std::string text = isPlan ? plans::spelledPlanJson(interner, plan, placement, rng.next(), e)
                                : loweringText(interner, plan, Mode::coalesced, e);
      if (rng.chance(1, 2))
        text = spaced(std::move(text));
      for (int step = 0; step < 8; ++step) {
        Direct direct{};
        ASSERT_EQ(directDisagreement(text, isPlan ? Document::plan : Document::lowering, e, direct),
                  "")
            << "edition " << spelling(e) << "\n"
            << text;
        ++(direct == Direct::agreed ? agreed : declined)[isPlan ? 0 : 1];
        text = damaged(std::move(text), rng);
      }
    }
  }
  // Both outcomes were met, for both documents: the comparison had something to compare.
  for (int d = 0; d < 2; ++d) {
    EXPECT_GT(agreed[d], 0u) << (d == 0 ? "plans" : "lowerings");
    EXPECT_GT(declined[d], 0u) << (d == 0 ? "plans" : "lowerings");
  }
}

} // namespace
} // namespace lo::test
