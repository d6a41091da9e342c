// PackedList (ref/packed_list.hpp) against std::vector as its model: random provenance items (every
// tag, texts long enough for a length of several bytes, a build target present or not, or empty),
// random pushes, replacements, clears and copies, each followed by a comparison of the two. The
// seed is printed; LO_TEST_SEED=N runs it again.
#include "ref/capsule.hpp"

#include "tests/random_seed.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace lo::test {
namespace {

void expectSame(const std::vector<ContractProvenance> &model,
                const PackedList<ContractProvenance> &list, std::uint64_t seed, std::size_t step) {
  ASSERT_EQ(list.size(), model.size()) << "seed " << seed << ", step " << step;
  ASSERT_EQ(list.empty(), model.empty()) << "seed " << seed << ", step " << step;
  std::size_t i = 0;
  for (const ContractProvenance &p : list) {
    ASSERT_LT(i, model.size());
    const ContractProvenance &m = model[i++];
    // Every member, not only those contract equality compares.
    ASSERT_EQ(p.tag, m.tag) << "seed " << seed << ", step " << step << ", item " << i - 1;
    ASSERT_EQ(p.path, m.path) << "seed " << seed << ", step " << step << ", item " << i - 1;
    ASSERT_EQ(p.symbol, m.symbol) << "seed " << seed << ", step " << step << ", item " << i - 1;
    ASSERT_EQ(p.buildTarget, m.buildTarget)
        << "seed " << seed << ", step " << step << ", item " << i - 1;
  }
  ASSERT_EQ(i, model.size());
}

TEST(PackedList, BehavesAsAVector) {
  const std::uint64_t seed = randomSeed();
  std::mt19937_64 random(seed);
  auto below = [&](std::size_t n) { return n == 0 ? 0 : random() % n; };
  auto text = [&] {
    // Mostly short; one in eight longer than 127 bytes (a length of two bytes or more).
    std::string out(below(8) ? below(12) : 120 + below(20000), 'a');
    for (char &c : out)
      c = static_cast<char>(below(256)); // any byte, NUL included
    return out;
  };
  auto item = [&] {
    ContractProvenance p;
    p.tag = static_cast<ProvenanceTag>(below(vocabularySize<ProvenanceTag>()));
    p.path = text();
    p.symbol = text();
    if (below(2))
      p.buildTarget = text();
    return p;
  };
  std::vector<ContractProvenance> model[2];
  PackedList<ContractProvenance> list[2];
  for (std::size_t step = 0; step < 4000; ++step) {
    const std::size_t a = below(2), b = 1 - a;
    switch (below(8)) {
    case 0:
    case 1:
    case 2: {
      const ContractProvenance p = item();
      model[a].push_back(p);
      list[a].push_back(p);
      break;
    }
    case 3:
      if (!model[a].empty()) {
        const std::size_t at = below(model[a].size());
        const ContractProvenance p = item();
        model[a][at] = p;
        list[a].set(at, p);
      }
      break;
    case 4:
      if (below(4) == 0) {
        model[a].clear();
        list[a].clear();
      }
      break;
    case 5:
      model[b] = model[a];
      list[b] = list[a];
      break;
    default: break;
    }
    expectSame(model[a], list[a], seed, step);
    ASSERT_EQ(list[0] == list[1], model[0] == model[1]) << "seed " << seed << ", step " << step;
    if (!model[a].empty()) {
      ASSERT_EQ(list[a].front(), model[a].front()) << "seed " << seed << ", step " << step;
    }
  }
}

TEST(PackedList, HoldsANoteInFourBytes) {
  PackedList<ContractProvenance> list;
  const std::size_t empty = sizeof list;
  for (int i = 0; i < 1000; ++i)
    list.push_back({ProvenanceTag::note, "", "", std::nullopt});
  EXPECT_EQ(list.size(), 1000u);
  EXPECT_EQ(empty, sizeof(std::vector<ContractProvenance>)) << "no larger than a vector";
  // The count, then per note: its tag, an empty path and symbol, no build target.
  EXPECT_EQ(list.packedBytes(), 4u + 4u * 1000u);
  EXPECT_EQ(list.front(), (ContractProvenance{ProvenanceTag::note, "", "", std::nullopt}));
  std::size_t n = 0;
  for (const ContractProvenance &p : list)
    n += p.tag == ProvenanceTag::note && p.path.empty() && !p.buildTarget;
  EXPECT_EQ(n, 1000u);
}

} // namespace
} // namespace lo::test
