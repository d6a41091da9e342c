// Reading what another program left behind (tools/system/bounded_read.hpp, files.hpp): the file
// that is read is judged by the descriptor that was opened, not only by the name resolved before.
#include "tools/system/bounded_read.hpp"
#include "tools/system/files.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

namespace lo::system {
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
  EXPECT_EQ(r.status, system::BoundedRead::Status::ok) << r.why;
  EXPECT_EQ(r.text, "inside");
}

TEST_F(BoundedRead, ALinkThatLeavesItsDirectoryIsRefusedUnread) {
  fs::create_directory_symlink(dir / "elsewhere", dir / "suite" / "sub");
  const auto r = readInside(dir / "suite", "sub/secret.json", 100);
  EXPECT_EQ(r.status, system::BoundedRead::Status::notRegular);
  EXPECT_EQ(r.why, "is a symbolic link that leaves its directory: refused");
  EXPECT_TRUE(r.text.empty());
}

// What a link swapped in after the name was resolved would give: a name that leads outside the
// directory by the time it is opened. The check on the open descriptor refuses it.
TEST_F(BoundedRead, TheOpenedFileIsJudgedByItsDescriptor) {
  const fs::path root = fs::canonical(dir / "suite");
  const auto outside = readRegularFile((dir / "elsewhere" / "secret.json").string(), 100, root);
  EXPECT_EQ(outside.status, system::BoundedRead::Status::notRegular);
  EXPECT_EQ(outside.why, "is a symbolic link that leaves its directory: refused");
  EXPECT_TRUE(outside.text.empty());
  const auto inside = readRegularFile((dir / "suite" / "in.json").string(), 100, root);
  EXPECT_EQ(inside.status, system::BoundedRead::Status::ok) << inside.why;
  EXPECT_EQ(inside.text, "inside");
}

TEST(IsInside, ComponentByComponent) {
  EXPECT_TRUE(isInside("/a/b", "/a/b/c"));
  EXPECT_TRUE(isInside("/a/b", "/a/b"));
  EXPECT_FALSE(isInside("/a/b", "/a/bc"));
  EXPECT_FALSE(isInside("/a/b", "/a"));
  EXPECT_FALSE(isInside("/a/b", "/x/b/c"));
}

// system::TemporaryDirectory (docs/spec.md §4.1, "Temporaries"): a private directory under
// $TMPDIR, removed with what it holds when it ends, and on SIGTERM from the moment it exists.
TEST(TemporaryDirectory, IsPrivateUnderTmpdirAndRemovedAtTheEndAndOnASignal) {
  std::string parent = (fs::temp_directory_path() / "lo-tempdir-XXXXXX").string();
  ASSERT_NE(::mkdtemp(parent.data()), nullptr);
  const char *saved = std::getenv("TMPDIR");
  const std::string before = saved ? saved : "";
  ::setenv("TMPDIR", parent.c_str(), 1);
  fs::path made;
  {
    TemporaryDirectory t("lo-test");
    made = t.path();
    EXPECT_EQ(made.parent_path(), fs::path(parent));
    EXPECT_EQ(fs::status(made).permissions() & fs::perms::all, fs::perms::owner_all);
    std::ofstream(made / "query.smt2") << "(check-sat)";
    fs::create_directories(made / "sub");
  }
  EXPECT_FALSE(fs::exists(made)) << "removed when it ends";
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(fds[0]);
    TemporaryDirectory t("lo-signal");
    std::ofstream(t.path() / "case.json") << "{}";
    const std::string p = t.path().string() + "\n";
    if (::write(fds[1], p.data(), p.size()) != static_cast<ssize_t>(p.size()))
      ::_exit(99);
    ::raise(SIGTERM);
    ::_exit(98); // not reached: the signal ends the process
  }
  ::close(fds[1]);
  std::string path;
  char c;
  while (::read(fds[0], &c, 1) == 1 && c != '\n')
    path += c;
  ::close(fds[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  EXPECT_FALSE(path.empty());
  EXPECT_FALSE(fs::exists(path)) << "removed on SIGTERM: " << path;
  if (before.empty())
    ::unsetenv("TMPDIR");
  else
    ::setenv("TMPDIR", before.c_str(), 1);
  EXPECT_TRUE(fs::is_empty(parent));
  fs::remove_all(parent);
}

} // namespace
} // namespace lo::system
