// Test parameters: the names of every obligation, and a gtest-safe name for each.
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

inline std::string testName(const ::testing::TestParamInfo<std::string_view> &info) {
  std::string s(info.param);
  for (char &c : s)
    if (c == '.' || c == '-')
      c = '_';
  return s;
}

} // namespace lo::proofs::test_names
