// Running the real binary from the tests, in a fresh temporary directory.
#pragma once

#include "tools/system/spawn.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace lo::testing {

namespace fs = std::filesystem;

inline subprocess::Result oracle(std::vector<std::string> args,
                                 std::chrono::milliseconds timeout = std::chrono::minutes(10)) {
  args.insert(args.begin(), LO_BINARY);
  subprocess::Options o;
  o.timeout = timeout;
  o.captureStdout = true;
  return subprocess::run(args, o);
}

inline std::string slurp(const fs::path &p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

class TempDir : public ::testing::Test {
protected:
  void SetUp() override {
    const char *t = std::getenv("TMPDIR");
    std::string pattern = (fs::path(t && *t ? t : "/tmp") / "lo-gen-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir = pattern;
  }
  void TearDown() override { fs::remove_all(dir); }
  fs::path dir;
};

} // namespace lo::testing
