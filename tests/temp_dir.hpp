// The scratch files of the GoogleTest tests: `slurp` (a file's bytes), `makeTempDir` (a new
// private directory) and the fixture `TempDir` (one such directory per test, removed after it).
// One copy for every test program; tests/cli_run.hpp adds running the binary.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <unistd.h>

namespace lo::testing {

/// The bytes of the file `p` (empty when it cannot be read).
inline std::string slurp(const std::filesystem::path &p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// A new directory `PREFIX-XXXXXX` (mode 0700) under $TMPDIR (or /tmp); empty when it cannot be
/// made.
inline std::filesystem::path makeTempDir(const std::string &prefix) {
  const char *t = std::getenv("TMPDIR");
  std::string pattern =
      (std::filesystem::path(t && *t ? t : "/tmp") / (prefix + "-XXXXXX")).string();
  if (!::mkdtemp(pattern.data()))
    return {};
  return pattern;
}

/// A fresh temporary directory `dir` for each test, removed after it; a derived fixture may name
/// its prefix with `prefix()`.
class TempDir : public ::testing::Test {
protected:
  virtual std::string prefix() const { return "lo-test"; }
  void SetUp() override {
    dir = makeTempDir(prefix());
    ASSERT_FALSE(dir.empty()) << "cannot make a temporary directory";
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
  std::filesystem::path dir;
};

} // namespace lo::testing
