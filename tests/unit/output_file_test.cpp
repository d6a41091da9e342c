// system::OutputFile: an output file is written whole or not at all (docs/spec.md §4.1); a target
// that is not a regular file is written directly.
#include "ref/io/output.hpp"
#include "tests/temp_dir.hpp"
#include "tools/system/output_file.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

namespace lo::test {
namespace {

namespace fs = std::filesystem;
using lo::testing::slurp;

struct OutputFileTest : lo::testing::TempDir {
  std::string prefix() const override { return "lo-output"; }
  std::size_t entries() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), {}));
  }
};

TEST_F(OutputFileTest, CommittedFileHasTheWholeContentAndNoTemporaryRemains) {
  const fs::path out = dir / "out.json";
  {
    system::OutputFile f(out.string());
    io::Sink sink(f);
    sink << "{\"a\":" << std::uint64_t{42} << '}';
    sink.jsonString("x\"y");
    sink.flush();
    EXPECT_FALSE(fs::exists(out)) << "nothing appears before commit";
    f.commit();
  }
  EXPECT_EQ(slurp(out), "{\"a\":42}\"x\\\"y\"");
  EXPECT_EQ(entries(), 1u);
  EXPECT_TRUE(fs::is_regular_file(out));
  EXPECT_EQ(fs::status(out).permissions() & fs::perms::owner_read, fs::perms::owner_read);
}

TEST_F(OutputFileTest, AFailedRunLeavesNoFile) {
  const fs::path out = dir / "out.json";
  try {
    system::OutputFile f(out.string());
    f.write("partial");
    throw std::runtime_error("the run fails before commit");
  } catch (const std::runtime_error &) {
  }
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(entries(), 0u) << "the temporary file was removed";
}

TEST_F(OutputFileTest, AFailedRunKeepsTheOldFile) {
  const fs::path out = dir / "out.json";
  std::ofstream(out) << "old";
  {
    system::OutputFile f(out.string());
    f.write("new but never committed");
  }
  EXPECT_EQ(slurp(out), "old");
  EXPECT_EQ(entries(), 1u);
  {
    system::OutputFile f(out.string());
    f.write("new");
    f.commit();
  }
  EXPECT_EQ(slurp(out), "new");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(OutputFileTest, DevNullIsWrittenDirectlyAndNeverReplaced) {
  struct stat before {};
  ASSERT_EQ(::stat("/dev/null", &before), 0);
  ASSERT_TRUE(S_ISCHR(before.st_mode));
  {
    system::OutputFile f("/dev/null");
    f.write("discarded");
    f.commit();
  }
  struct stat after {};
  ASSERT_EQ(::stat("/dev/null", &after), 0);
  EXPECT_TRUE(S_ISCHR(after.st_mode)) << "/dev/null was replaced";
  EXPECT_EQ(before.st_ino, after.st_ino);
  EXPECT_EQ(before.st_rdev, after.st_rdev);
}

TEST_F(OutputFileTest, FifoIsWrittenDirectly) {
  const fs::path fifo = dir / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Open the reading end first (non-blocking), so that opening for writing does not block.
  const int rd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(rd, 0);
  {
    system::OutputFile f(fifo.string());
    f.write("through the pipe");
    f.commit();
  }
  char buf[64] = {};
  const ssize_t n = ::read(rd, buf, sizeof buf - 1);
  ::close(rd);
  EXPECT_EQ(std::string(buf, n > 0 ? static_cast<std::size_t>(n) : 0), "through the pipe");
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_EQ(entries(), 1u);
}

TEST_F(OutputFileTest, AnOwnDescriptorIsWrittenThroughItsOpenFile) {
  // /dev/fd/N is the descriptor N itself, not the file re-opened by its name: opened for
  // appending, it appends (as `-o /dev/stdout >> log` must).
  const fs::path log = dir / "log.txt";
  std::ofstream(log) << "earlier\n";
  struct stat before {};
  ASSERT_EQ(::stat(log.c_str(), &before), 0);
  const int fd = ::open(log.c_str(), O_WRONLY | O_APPEND);
  ASSERT_GE(fd, 0);
  {
    system::OutputFile f("/dev/fd/" + std::to_string(fd));
    f.write("later\n");
    f.commit();
  }
  ::close(fd);
  EXPECT_EQ(slurp(log), "earlier\nlater\n");
  struct stat after {};
  ASSERT_EQ(::stat(log.c_str(), &after), 0);
  EXPECT_EQ(before.st_ino, after.st_ino) << "the file was replaced";
  EXPECT_EQ(entries(), 1u);
}

/// Points descriptor `fd` at `file` (opened with `flags`) while it lives.
struct RedirectedDescriptor {
  int fd, saved;
  RedirectedDescriptor(int fd, const fs::path &file, int flags) : fd(fd), saved(::dup(fd)) {
    std::fflush(nullptr); // what stdio holds goes where it was meant to go
    const int opened = ::open(file.c_str(), flags, 0600);
    EXPECT_GE(opened, 0);
    ::dup2(opened, fd);
    ::close(opened);
  }
  ~RedirectedDescriptor() {
    std::fflush(nullptr);
    ::dup2(saved, fd);
    ::close(saved);
  }
};

/// The identity of a /dev entry itself (not followed).
std::pair<dev_t, ino_t> entryOf(const char *path) {
  struct stat st {};
  EXPECT_EQ(::lstat(path, &st), 0) << path;
  return {st.st_dev, st.st_ino};
}

TEST_F(OutputFileTest, AnotherSpellingOfDevStdoutIsStandardOutputAndTheEntryStays) {
  // docs/spec.md §4.1: the resolved target counts, not the spelling. As root, renaming over
  // /dev//stdout would replace the /dev/stdout link with a regular file.
  const auto before = entryOf("/dev/stdout");
  const fs::path log = dir / "stdout.txt";
  for (const char *spelling : {"/dev//stdout", "/dev/./stdout", "//dev/stdout"}) {
    {
      RedirectedDescriptor out(1, log, O_WRONLY | O_CREAT | O_TRUNC);
      system::OutputFile f(spelling);
      f.write("through standard output");
      f.commit();
    }
    EXPECT_EQ(slurp(log), "through standard output") << spelling;
    EXPECT_EQ(entryOf("/dev/stdout"), before) << spelling << " replaced /dev/stdout";
  }
  EXPECT_EQ(entries(), 1u);
}

TEST_F(OutputFileTest, DevStdinIsRefusedAndNeverReplaced) {
  const auto before = entryOf("/dev/stdin");
  std::ofstream(dir / "input.json") << "the input";
  {
    RedirectedDescriptor in(0, dir / "input.json", O_RDONLY);
    for (const char *spelling : {"/dev/stdin", "/dev//stdin", "/dev/./stdin"})
      EXPECT_THROW(system::OutputFile f(spelling), std::runtime_error) << spelling;
  }
  EXPECT_EQ(entryOf("/dev/stdin"), before) << "/dev/stdin was replaced";
  EXPECT_EQ(slurp(dir / "input.json"), "the input");
}

TEST_F(OutputFileTest, DevNullIsWrittenWhenItIsStandardInputToo) {
  // Under CI, standard input is often /dev/null: -o /dev/null still writes (to the device).
  RedirectedDescriptor in(0, "/dev/null", O_RDONLY);
  system::OutputFile f("/dev/null");
  f.write("discarded");
  f.commit();
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST_F(OutputFileTest, NothingIsCreatedInDev) {
  EXPECT_THROW(system::OutputFile f("/dev//lowering-oracle-no-such-device"), std::runtime_error);
  EXPECT_FALSE(fs::exists("/dev/lowering-oracle-no-such-device"));
}

TEST_F(OutputFileTest, ASymlinkToADeviceIsWrittenThroughAndKept) {
  fs::create_symlink("/dev/null", dir / "out.json");
  {
    system::OutputFile f((dir / "out.json").string());
    f.write("discarded");
    f.commit();
  }
  EXPECT_TRUE(fs::is_symlink(dir / "out.json"));
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  EXPECT_EQ(entries(), 1u);
}

TEST_F(OutputFileTest, ASymlinkIsReplacedItselfAndItsTargetIsUntouched) {
  std::ofstream(dir / "target") << "target";
  fs::create_symlink(dir / "target", dir / "out.json");
  {
    system::OutputFile f((dir / "out.json").string());
    f.write("new");
    f.commit();
  }
  EXPECT_EQ(slurp(dir / "target"), "target");
  EXPECT_FALSE(fs::is_symlink(dir / "out.json"));
  EXPECT_EQ(slurp(dir / "out.json"), "new");
}

TEST_F(OutputFileTest, AReadOnlyFileIsNotReplaced) {
  std::ofstream(dir / "out.json") << "old";
  fs::permissions(dir / "out.json", fs::perms::owner_read);
  EXPECT_THROW(system::OutputFile f((dir / "out.json").string()), std::runtime_error);
  EXPECT_EQ(slurp(dir / "out.json"), "old");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(OutputFileTest, UnwritableDirectoryThrowsAndCreatesNothing) {
  const fs::path out = dir / "missing" / "out.json";
  EXPECT_THROW(system::OutputFile f(out.string()), std::runtime_error);
  EXPECT_FALSE(fs::exists(dir / "missing"));
}

/// The message of the std::runtime_error that opening `path` throws ("" when it opens).
std::string openingError(const std::string &path) {
  try {
    system::OutputFile f(path);
  } catch (const std::runtime_error &e) {
    return e.what();
  }
  return "";
}

TEST_F(OutputFileTest, DevStderrIsStandardErrorAfterWhatStdioHolds) {
  const fs::path log = dir / "stderr.txt";
  {
    RedirectedDescriptor err(2, log, O_WRONLY | O_CREAT | O_TRUNC);
    std::fputs("stdio first, ", stderr);
    system::OutputFile f("/dev/stderr");
    f.write("then the output");
    f.commit();
  }
  EXPECT_EQ(slurp(log), "stdio first, then the output");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(OutputFileTest, AClosedOwnDescriptorCannotBeWritten) {
  EXPECT_EQ(openingError("/dev/fd/987"), "/dev/fd/987: cannot write: Bad file descriptor");
  EXPECT_EQ(openingError("/proc/self/fd/987"),
            "/proc/self/fd/987: cannot write: Bad file descriptor");
}

TEST_F(OutputFileTest, ADirectoryIsNotAnOutput) {
  for (const std::string suffix : {"/", "/.", "/.."})
    EXPECT_EQ(openingError(dir.string() + suffix),
              dir.string() + suffix + ": names a directory, not a file");
  fs::create_directory(dir / "sub");
  EXPECT_EQ(openingError((dir / "sub").string()), (dir / "sub").string() + ": is a directory");
  EXPECT_TRUE(fs::is_directory(dir / "sub"));
  EXPECT_EQ(entries(), 1u);
}

TEST_F(OutputFileTest, ASocketIsNotReplaced) {
  const fs::path sock = dir / "sock";
  const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(s, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  // Bound through the directory's descriptor: `dir` is under $TMPDIR, in the build tree, whose
  // path may be longer than a socket address holds.
  const int at = ::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(at, 0);
  const std::string bound = "/proc/self/fd/" + std::to_string(at) + "/sock";
  ASSERT_LT(bound.size(), sizeof addr.sun_path);
  std::strcpy(addr.sun_path, bound.c_str());
  ASSERT_EQ(::bind(s, reinterpret_cast<const sockaddr *>(&addr), sizeof addr), 0)
      << std::strerror(errno);
  ::close(at);
  EXPECT_EQ(openingError(sock.string()),
            sock.string() +
                ": is neither a regular file, a symbolic link, a device nor a pipe: not replaced");
  ::close(s);
  EXPECT_TRUE(fs::is_socket(sock));
  EXPECT_EQ(entries(), 1u);
}

TEST_F(OutputFileTest, AValidLongNameIsWrittenThroughATemporaryNameThatFits) {
  // 250 and 255 bytes are valid names (NAME_MAX), too long for NAME.tmp.XXXXXX: the temporary
  // name fits in NAME_MAX; two at once are two names in the same directory.
  for (const std::size_t length : {250u, 255u}) {
    const fs::path out = dir / std::string(length, 'n');
    {
      system::OutputFile first(out.string());
      system::OutputFile second(out.string());
      first.write("first");
      second.write("second");
      std::vector<std::string> temporaries;
      for (const auto &e : fs::directory_iterator(dir))
        temporaries.push_back(e.path().filename().string());
      ASSERT_EQ(temporaries.size(), 2u);
      EXPECT_NE(temporaries[0], temporaries[1]);
      for (const std::string &t : temporaries)
        EXPECT_LE(t.size(), 255u) << t;
      first.commit();
    }
    EXPECT_EQ(slurp(out), "first");
    EXPECT_EQ(entries(), 1u) << "the uncommitted temporary is removed";
    fs::remove(out);
  }
}

TEST_F(OutputFileTest, ADeviceThatCannotBeOpenedIsAnError) {
  // A character device no driver answers (major 0): open fails (ENXIO, or EPERM where a device
  // cgroup forbids it).
  const fs::path node = dir / "nodevice";
  if (::mknod(node.c_str(), S_IFCHR | 0600, makedev(0, 0)) != 0)
    GTEST_SKIP() << "mknod: " << std::strerror(errno);
  const std::string message = openingError(node.string());
  EXPECT_EQ(message.rfind(node.string() + ": cannot open for writing: ", 0), 0u) << message;
  EXPECT_TRUE(fs::is_character_file(node)) << "the device was replaced";
}

TEST_F(OutputFileTest, InDevAndProcOnlyDevicesAndPipesAreWritten) {
  EXPECT_EQ(openingError("/proc/self/status"),
            "/proc/self/status: is an entry of /dev or /proc that is neither a device nor a pipe: "
            "not replaced");
  const std::string tooLong = "/dev/" + std::string(300, 'd');
  EXPECT_EQ(openingError(tooLong), tooLong + ": cannot open for writing: File name too long");
}

TEST_F(OutputFileTest, ARenameThatFailsIsAnErrorAndLeavesNoTemporaryFile) {
  const fs::path out = dir / "out.json";
  {
    system::OutputFile f(out.string());
    f.write("complete");
    // Before the commit, a non-empty directory takes the name: the rename cannot replace it.
    fs::create_directory(out);
    std::ofstream(out / "inside") << "x";
    try {
      f.commit();
      FAIL() << "the commit replaced a directory";
    } catch (const std::runtime_error &e) {
      EXPECT_EQ(std::string(e.what()).rfind(
                    out.string() + ": cannot rename the temporary file into place: ", 0),
                0u)
          << e.what();
    }
  }
  EXPECT_TRUE(fs::is_directory(out));
  EXPECT_EQ(entries(), 1u) << "the temporary file was left behind";
}

TEST(Sink, WritesToAStringWithJsonEscapes) {
  std::string s;
  {
    io::Sink sink(s);
    sink.jsonString(std::string("a\"b\\c\nd\te\x01\x1f\0\r\b\f", 15));
    sink << ' ' << std::uint64_t{18446744073709551615ull};
    sink.flush();
  }
  EXPECT_EQ(s, "\"a\\\"b\\\\c\\nd\\te\\u0001\\u001f\\u0000\\r\\b\\f\" 18446744073709551615");
}

} // namespace
} // namespace lo::test
