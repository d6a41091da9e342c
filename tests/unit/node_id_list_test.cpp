// NodeIdList (ref/node_id_list.hpp) against std::vector as its model: random edits, copies, moves
// and swaps between the form that holds one id in place and the one that holds a heap block, each
// followed by a comparison of the two. The seed is printed; LO_TEST_SEED=N runs it again.
#include "ref/node_id_list.hpp"

#include "tests/random_seed.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace lo::test {
namespace {

TEST(NodeIdList, OneIdIsHeldInPlace) {
  NodeIdList ids;
  ids.push_back(7);
  EXPECT_EQ(ids.capacity(), 1u);
  EXPECT_EQ(ids.data(), reinterpret_cast<const NodeId *>(&ids)) << "not in place";
  ids.push_back(8);
  EXPECT_EQ(ids.capacity(), 2u);
  EXPECT_EQ(ids, (std::vector<NodeId>{7, 8}));
  NodeIdList exact;
  exact.reserve(1000);
  EXPECT_EQ(exact.capacity(), 1000u) << "no room beyond what was asked";
}

TEST(NodeIdList, BehavesAsAVector) {
  const std::uint64_t seed = randomSeed();
  std::mt19937_64 random(seed);
  auto below = [&](std::size_t n) { return n == 0 ? 0 : random() % n; };
  std::vector<NodeId> model[2];
  NodeIdList list[2];
  std::size_t steps = 0;
  for (; steps < 20000; ++steps) {
    const std::size_t a = below(2), b = 1 - a;
    auto &m = model[a];
    auto &l = list[a];
    switch (below(11)) {
    case 0:
    case 1: {
      const NodeId id = random();
      m.push_back(id);
      l.push_back(id);
      break;
    }
    case 2: {
      const std::size_t n = below(4) ? below(3) : below(40); // mostly the small forms
      m.resize(n);
      l.resize(n);
      break;
    }
    case 3: {
      const std::size_t at = below(m.size() + 1);
      const NodeId id = random();
      m.insert(m.begin() + static_cast<std::ptrdiff_t>(at), id);
      l.insert(l.begin() + at, id);
      break;
    }
    case 4: {
      const std::size_t at = below(m.size() + 1);
      const std::vector<NodeId> more(below(5), random());
      m.insert(m.begin() + static_cast<std::ptrdiff_t>(at), more.begin(), more.end());
      l.insert(l.begin() + at, more.begin(), more.end());
      break;
    }
    case 5:
      if (!m.empty()) {
        const std::size_t from = below(m.size()), to = from + below(m.size() - from + 1);
        m.erase(m.begin() + static_cast<std::ptrdiff_t>(from),
                m.begin() + static_cast<std::ptrdiff_t>(to));
        l.erase(l.begin() + from, l.begin() + to);
      }
      break;
    case 6:
      model[b] = m;
      list[b] = l; // copy
      break;
    case 7: {
      NodeIdList moved(std::move(l));
      EXPECT_TRUE(l.empty());
      l = NodeIdList(moved); // copy back
      list[b] = std::move(moved);
      model[b] = m;
      break;
    }
    case 8:
      std::swap(model[a], model[b]);
      l.swap(list[b]);
      break;
    case 9:
      m.clear();
      l.clear();
      break;
    default: l.reserve(below(50)); break;
    }
    for (std::size_t i : {std::size_t{0}, std::size_t{1}}) {
      ASSERT_EQ(list[i].size(), model[i].size()) << "seed " << seed << ", step " << steps;
      ASSERT_TRUE(list[i] == model[i]) << "seed " << seed << ", step " << steps;
      ASSERT_GE(list[i].capacity(), list[i].size());
      ASSERT_EQ(list[i] == list[1 - i], model[i] == model[1 - i]);
      ASSERT_EQ(NodeIdList(list[i].begin(), list[i].end()), list[i]);
    }
  }
  EXPECT_EQ(steps, 20000u);
}

} // namespace
} // namespace lo::test
