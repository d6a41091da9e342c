// Test parameters: the names of every obligation, a gtest-safe name for each, and the edition a
// test proves each in.
#pragma once

#include "proofs/obligations.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace lo::proofs::test_names {

inline std::vector<std::string_view> obligationNames() {
  std::vector<std::string_view> out;
  for (const auto &o : obligations())
    out.push_back(o.name);
  return out;
}

/// The edition a test proves obligation `o` in: the newest edition of the seed's capsule where the
/// obligation is one of its, else the newest edition (docs/spec.md §5.5).
inline Edition homeEdition(const Obligation &o) {
  return appliesIn(o, kNewestSeedEdition) ? kNewestSeedEdition : kNewestEdition;
}

inline std::string testName(const ::testing::TestParamInfo<std::string_view> &info) {
  std::string s(info.param);
  for (char &c : s)
    if (c == '.' || c == '-')
      c = '_';
  return s;
}

} // namespace lo::proofs::test_names
