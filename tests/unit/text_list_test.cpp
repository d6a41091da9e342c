// TextList (ref/text_list.hpp) against a std::vector<std::string> as its model: random pushes
// and replacements, each followed by a comparison. The seed is printed; LO_TEST_SEED=N runs it
// again.
#include "ref/text_list.hpp"

#include "tests/random_seed.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace lo::test {
namespace {

TEST(TextList, BehavesAsAVectorOfStrings) {
  const std::uint64_t seed = randomSeed();
  std::mt19937_64 random(seed);
  // Mostly short texts; one in eight of 120 to 300 bytes, whose length takes two bytes.
  auto text = [&] {
    const std::size_t n = random() % 8 ? random() % 5 : 120 + random() % 181;
    return std::string(n, static_cast<char>('a' + random() % 3));
  };
  std::vector<std::string> model;
  TextList list;
  for (std::size_t step = 0; step < 600; ++step) {
    if (random() % 4 || model.empty()) {
      const std::string t = text();
      model.push_back(t);
      list.push_back(t);
    } else {
      const std::size_t i = random() % model.size();
      const std::string t = text();
      model[i] = t;
      list.set(i, t);
    }
    ASSERT_TRUE(list == model) << "seed " << seed << ", step " << step;
    ASSERT_EQ(list, TextList(model)) << "seed " << seed;
    std::size_t i = 0;
    for (std::string_view t : list)
      ASSERT_EQ(t, model[i++]) << "seed " << seed;
    ASSERT_EQ(i, model.size());
    const std::size_t k = random() % model.size();
    ASSERT_EQ(list[k], model[k]) << "seed " << seed << ", text " << k;
    ASSERT_EQ(list.back(), model.back()) << "seed " << seed;
  }
  EXPECT_FALSE(list == std::vector<std::string>{}) << "a list of 600 texts equals none";
  EXPECT_EQ(TextList({"a", ""}), (std::vector<std::string>{"a", ""}));
  EXPECT_FALSE(TextList({"a", ""}) == TextList({"", "a"}));
}

} // namespace
} // namespace lo::test
