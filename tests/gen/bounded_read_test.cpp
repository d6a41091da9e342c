// Reading what another program left behind (tools/system/bounded_read.hpp, files.hpp): the file
// that is read is judged by the descriptor that was opened, not only by the name resolved before.
#include "tools/system/bounded_read.hpp"
#include "tools/system/files.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <unistd.h>

namespace lo::files {
namespace {

namespace fs = std::filesystem;

struct BoundedRead : ::testing::Test {
  fs::path dir = fs::temp_directory_path() / ("lo-bounded-read-" + std::to_string(::getpid()));
  void SetUp() override {
    fs::remove_all(dir);
    fs::create_directories(dir / "suite");
    fs::create_directories(dir / "elsewhere");
    std::ofstream(dir / "suite" / "in.json") << "inside";
    std::ofstream(dir / "elsewhere" / "secret.json") << "secret";
  }
  void TearDown() override { fs::remove_all(dir); }
};

TEST_F(BoundedRead, AFileInsideIsRead) {
  const auto r = readInside(dir / "suite", "in.json", 100);
  EXPECT_EQ(r.status, files::BoundedRead::Status::ok) << r.why;
  EXPECT_EQ(r.text, "inside");
}

TEST_F(BoundedRead, ALinkThatLeavesItsDirectoryIsRefusedUnread) {
  fs::create_directory_symlink(dir / "elsewhere", dir / "suite" / "sub");
  const auto r = readInside(dir / "suite", "sub/secret.json", 100);
  EXPECT_EQ(r.status, files::BoundedRead::Status::notRegular);
  EXPECT_EQ(r.why, "is a symbolic link that leaves its directory: refused");
  EXPECT_TRUE(r.text.empty());
}

// What a link swapped in after the name was resolved would give: a name that leads outside the
// directory by the time it is opened. The check on the open descriptor refuses it.
TEST_F(BoundedRead, TheOpenedFileIsJudgedByItsDescriptor) {
  const fs::path root = fs::canonical(dir / "suite");
  const auto outside = readRegularFile((dir / "elsewhere" / "secret.json").string(), 100, root);
  EXPECT_EQ(outside.status, files::BoundedRead::Status::notRegular);
  EXPECT_EQ(outside.why, "is a symbolic link that leaves its directory: refused");
  EXPECT_TRUE(outside.text.empty());
  const auto inside = readRegularFile((dir / "suite" / "in.json").string(), 100, root);
  EXPECT_EQ(inside.status, files::BoundedRead::Status::ok) << inside.why;
  EXPECT_EQ(inside.text, "inside");
}

TEST(IsInside, ComponentByComponent) {
  EXPECT_TRUE(isInside("/a/b", "/a/b/c"));
  EXPECT_TRUE(isInside("/a/b", "/a/b"));
  EXPECT_FALSE(isInside("/a/b", "/a/bc"));
  EXPECT_FALSE(isInside("/a/b", "/a"));
  EXPECT_FALSE(isInside("/a/b", "/x/b/c"));
}

} // namespace
} // namespace lo::files
