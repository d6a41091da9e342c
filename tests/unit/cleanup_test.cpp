// system::CleanupOnSignal, runCleanup() and system::SignalsDeferred: the paths registered while a
// temporary file or directory exists are removed on SIGINT or SIGTERM (docs/spec.md §4.1). The
// signal itself ends the process, whose coverage is then never written, and
// tests/hardening/attack_test.cpp sends the real signals to the binary; here the handler's work,
// runCleanup(), and the installed handler itself run in this process.
#include "tests/temp_dir.hpp"
#include "tools/system/cleanup.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

namespace lo::test {
namespace {

namespace fs = std::filesystem;

struct CleanupTest : lo::testing::TempDir {
  int dirFd = -1;
  std::string prefix() const override { return "lo-cleanup"; }
  void SetUp() override {
    TempDir::SetUp();
    dirFd = ::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    ASSERT_GE(dirFd, 0);
  }
  void TearDown() override {
    ::close(dirFd);
    TempDir::TearDown();
  }
  void touch(const fs::path &p) const { std::ofstream(p) << "partial"; }
  /// A tree of `depth` nested directories under `top`, each holding a file.
  void tree(const fs::path &top, int depth) const {
    fs::path d = top;
    for (int i = 0; i < depth; ++i, d /= "sub") {
      fs::create_directories(d);
      touch(d / "file.json");
    }
  }
};

TEST_F(CleanupTest, RunCleanupRemovesRegisteredFilesAndTreesOnly) {
  touch(dir / "out.json.tmp.abc123");
  touch(dir / "kept.json");
  tree(dir / "suite", 3); // gen's temporary suite: three levels
  system::CleanupOnSignal file(dirFd, "out.json.tmp.abc123", false);
  system::DirectoryCleanupOnSignal suite((dir / "suite").string());
  system::runCleanup();
  EXPECT_FALSE(fs::exists(dir / "out.json.tmp.abc123"));
  EXPECT_FALSE(fs::exists(dir / "suite"));
  EXPECT_TRUE(fs::exists(dir / "kept.json")) << "an unregistered file was removed";
}

TEST_F(CleanupTest, AReleasedPathIsKept) {
  touch(dir / "renamed.json");
  tree(dir / "suite", 2);
  system::CleanupOnSignal file(dirFd, "renamed.json", false);
  system::DirectoryCleanupOnSignal suite((dir / "suite").string());
  file.release();
  suite.release();
  file.release(); // a second release does nothing
  system::runCleanup();
  EXPECT_TRUE(fs::exists(dir / "renamed.json"));
  EXPECT_TRUE(fs::exists(dir / "suite" / "sub" / "file.json"));
}

TEST_F(CleanupTest, ATreeIsNamedWithTrailingSlashesOrRelativeToTheWorkingDirectory) {
  tree(dir / "a", 1);
  tree(dir / "b", 1);
  const fs::path cwd = fs::current_path();
  fs::current_path(dir);
  {
    system::DirectoryCleanupOnSignal slashes((dir / "a").string() + "//");
    system::DirectoryCleanupOnSignal relative("b");
    system::runCleanup();
  }
  fs::current_path(cwd);
  EXPECT_FALSE(fs::exists(dir / "a"));
  EXPECT_FALSE(fs::exists(dir / "b"));
}

TEST_F(CleanupTest, PathsGoneAlreadyAndDeepTreesAreNoError) {
  // The cleanup removes at most six levels below the registered directory (buffers on the
  // stack of a signal handler): a deeper tree loses what it can and the rest stays.
  tree(dir / "deep", 9);
  system::CleanupOnSignal gone(dirFd, "never-created", false);
  system::CleanupOnSignal goneTree(dirFd, "never-created-either", true);
  system::CleanupOnSignal deep(dirFd, "deep", true);
  system::runCleanup();
  EXPECT_TRUE(fs::exists(dir / "deep")) << "a tree deeper than the limit was not kept";
  EXPECT_FALSE(fs::exists(dir / "deep" / "file.json")) << "its upper files stay";
}

TEST_F(CleanupTest, AManyEntryDirectoryIsRemovedWhole) {
  // More entries than one getdents64 buffer (2 KiB) holds.
  fs::create_directories(dir / "wide");
  for (int i = 0; i < 200; ++i)
    touch(dir / "wide" / ("entry-with-a-long-name-" + std::to_string(i) + ".json"));
  system::DirectoryCleanupOnSignal wide((dir / "wide").string());
  system::runCleanup();
  EXPECT_FALSE(fs::exists(dir / "wide"));
}

TEST_F(CleanupTest, ANameTooLongIsNotWatchedAndTakesNoSlot) {
  // No file has a name of 300 bytes (NAME_MAX is 255): it is not registered, and every one of
  // the 64 slots is still free for the paths registered after it.
  system::CleanupOnSignal tooLong(dirFd, std::string(300, 'x'), false);
  tooLong.release(); // releasing what was never registered does nothing
  std::vector<std::unique_ptr<system::CleanupOnSignal>> entries;
  for (int i = 0; i < 64; ++i) {
    const std::string name = "tmp" + std::to_string(i);
    touch(dir / name);
    entries.push_back(std::make_unique<system::CleanupOnSignal>(dirFd, name, false));
  }
  system::runCleanup();
  for (int i = 0; i < 64; ++i)
    EXPECT_FALSE(fs::exists(dir / ("tmp" + std::to_string(i)))) << i;
}

/// SIGTERM's disposition when the program started, before any test registered a path.
const auto kSigtermAtStart = [] {
  struct sigaction a {};
  ::sigaction(SIGTERM, nullptr, &a);
  return a.sa_handler;
}();

TEST_F(CleanupTest, TheInstalledHandlerRemovesTheRegisteredPaths) {
  // The first registration installs the handler for SIGTERM, unless the process handles or
  // ignores SIGTERM itself (then it is left alone).
  if (kSigtermAtStart != SIG_DFL)
    GTEST_SKIP() << "SIGTERM was not at its default disposition when the program started";
  touch(dir / "out.json.tmp.xyz789");
  system::CleanupOnSignal file(dirFd, "out.json.tmp.xyz789", false);
  struct sigaction current {};
  ASSERT_EQ(::sigaction(SIGTERM, nullptr, &current), 0);
  ASSERT_TRUE(current.sa_handler != SIG_DFL && current.sa_handler != SIG_IGN)
      << "registering a path installed no SIGTERM handler";
  // Called with SIGURG, whose default action is to ignore it, the handler does its work and then
  // re-raises a signal that does not end this process.
  current.sa_handler(SIGURG);
  EXPECT_FALSE(fs::exists(dir / "out.json.tmp.xyz789"));
  struct sigaction urg {};
  ASSERT_EQ(::sigaction(SIGURG, nullptr, &urg), 0);
  EXPECT_EQ(urg.sa_handler, SIG_DFL) << "the handler restores the default before re-raising";
}

// system::SignalsDeferred, the mechanism `diff` stops by (tools/system/interrupt.hpp): under it a
// first SIGINT only sets the flag and removes nothing; the dispositions before it come back after
// it.
TEST_F(CleanupTest, UnderSignalsDeferredAFirstSignalOnlySetsTheFlag) {
  // SIGINT ignored before it, so that "restored" is not the handler it installs itself.
  struct sigaction ignore {
  }, saved{};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ASSERT_EQ(::sigaction(SIGINT, &ignore, &saved), 0);
  touch(dir / "out.json.tmp.deferred");
  system::CleanupOnSignal file(dirFd, "out.json.tmp.deferred", false);
  struct sigaction before {};
  ASSERT_EQ(::sigaction(SIGINT, nullptr, &before), 0);
  ASSERT_EQ(before.sa_handler, SIG_IGN);
  {
    const system::SignalsDeferred deferred;
    EXPECT_EQ(system::SignalsDeferred::received(), 0);
    ::raise(SIGINT); // delivered before raise() returns
    EXPECT_EQ(system::SignalsDeferred::received(), SIGINT);
    EXPECT_TRUE(fs::exists(dir / "out.json.tmp.deferred")) << "a deferred signal removed a path";
  }
  struct sigaction after {};
  ASSERT_EQ(::sigaction(SIGINT, nullptr, &after), 0);
  EXPECT_EQ(after.sa_handler, before.sa_handler) << "the disposition before it is restored";
  ASSERT_EQ(::sigaction(SIGINT, &saved, nullptr), 0);
}

// The second signal of a kind under SignalsDeferred acts as without it: the registered paths are
// removed. The handler is called directly with SIGURG (of SIGTERM's kind, and harmless when it
// re-raises it).
TEST_F(CleanupTest, UnderSignalsDeferredASecondSignalOfAKindRemovesThePaths) {
  touch(dir / "out.json.tmp.second");
  system::CleanupOnSignal file(dirFd, "out.json.tmp.second", false);
  const system::SignalsDeferred deferred;
  struct sigaction current {};
  ASSERT_EQ(::sigaction(SIGTERM, nullptr, &current), 0);
  ASSERT_TRUE(current.sa_handler != SIG_DFL && current.sa_handler != SIG_IGN);
  current.sa_handler(SIGURG);
  EXPECT_EQ(system::SignalsDeferred::received(), SIGURG);
  EXPECT_TRUE(fs::exists(dir / "out.json.tmp.second")) << "the first signal removed a path";
  current.sa_handler(SIGURG);
  EXPECT_FALSE(fs::exists(dir / "out.json.tmp.second")) << "the second signal kept the path";
}

TEST_F(CleanupTest, APathRegisteredUnderSignalsDeferredIsStillRemovedOnASignalAfterIt) {
  if (kSigtermAtStart != SIG_DFL)
    GTEST_SKIP() << "SIGTERM was not at its default disposition when the program started";
  // SIGTERM at its default before it, as in a fresh `gen` (earlier tests of this process may have
  // installed the cleanup's handler): the branch that keeps the handler for the registered path.
  struct sigaction defaults {
  }, saved{};
  defaults.sa_handler = SIG_DFL;
  sigemptyset(&defaults.sa_mask);
  ASSERT_EQ(::sigaction(SIGTERM, &defaults, &saved), 0);
  touch(dir / "suite.tmp");
  std::optional<system::CleanupOnSignal> file;
  {
    const system::SignalsDeferred deferred;
    file.emplace(dirFd, "suite.tmp", false);
  }
  struct sigaction current {};
  ASSERT_EQ(::sigaction(SIGTERM, nullptr, &current), 0);
  ASSERT_TRUE(current.sa_handler != SIG_DFL && current.sa_handler != SIG_IGN)
      << "the handler went with the SignalsDeferred while a path is registered";
  current.sa_handler(SIGURG); // as above: the cleanup, then a signal that does not end the test
  EXPECT_FALSE(fs::exists(dir / "suite.tmp"));
  ASSERT_EQ(::sigaction(SIGTERM, &saved, nullptr), 0);
}

TEST(SignalsHeld, HoldsSigtermWhileItLivesAndRestoresTheMask) {
  sigset_t before, during, after;
  ASSERT_EQ(::pthread_sigmask(SIG_BLOCK, nullptr, &before), 0);
  {
    const system::SignalsHeld held;
    ASSERT_EQ(::pthread_sigmask(SIG_BLOCK, nullptr, &during), 0);
    EXPECT_TRUE(sigismember(&during, SIGINT));
    EXPECT_TRUE(sigismember(&during, SIGTERM));
  }
  ASSERT_EQ(::pthread_sigmask(SIG_BLOCK, nullptr, &after), 0);
  EXPECT_EQ(sigismember(&after, SIGTERM), sigismember(&before, SIGTERM));
  EXPECT_EQ(sigismember(&after, SIGINT), sigismember(&before, SIGINT));
}

} // namespace
} // namespace lo::test
