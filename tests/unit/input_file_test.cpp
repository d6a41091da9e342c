// io::InputFile, the handle of every reader (docs/errors.md, "Input files"): a read error is an
// InputError with its reason and position; a FIFO opened without waiting for its writer, and a
// descriptor someone else made non-blocking, still wait for their data instead of ending early.
#include "ref/io/error.hpp"
#include "ref/io/input.hpp"
#include "ref/io/reader.hpp"
#include "ref/io/stream.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace lo::test {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// /proc/self/mem reads as a regular file whose first page (address 0) is never mapped: every
// read of it fails with EIO.
constexpr const char *kUnreadable = "/proc/self/mem";

TEST(InputFile, AReadErrorIsReportedWithItsReason) {
  io::InputFile f(kUnreadable);
  char buf[16];
  int error = 0;
  EXPECT_EQ(f.readSome(buf, sizeof buf, error), 0u);
  EXPECT_EQ(error, EIO);
  try {
    f.readFailed(error, 3, 7);
    FAIL() << "readFailed returned";
  } catch (const io::InputError &e) {
    EXPECT_STREQ(e.what(), "/proc/self/mem:3:7: /: read error: Input/output error");
  }
}

TEST(InputFile, ADocumentThatCannotBeReadIsAnInputError) {
  try {
    (void)io::loadSource(kUnreadable);
    FAIL() << "an unreadable document was loaded";
  } catch (const io::InputError &e) {
    EXPECT_STREQ(e.what(), "/proc/self/mem:1:1: /: read error: Input/output error");
  }
}

TEST(InputFile, AStreamThatCannotBeReadIsAnInputErrorAtItsFirstLine) {
  io::LineSource source(kUnreadable);
  std::string_view line;
  try {
    (void)source.next(line);
    FAIL() << "an unreadable stream gave a line";
  } catch (const io::InputError &e) {
    EXPECT_STREQ(e.what(), "/proc/self/mem:1:1: /: read error: Input/output error");
  }
}

struct FifoTest : ::testing::Test {
  fs::path dir, fifo;
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "lo-input-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir = tmpl;
    fifo = dir / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  }
  void TearDown() override { fs::remove_all(dir); }
  /// Everything `f` reads until its end.
  static std::string readAll(io::InputFile &f) {
    std::string out;
    char buf[64];
    int error = 0;
    while (const std::size_t n = f.readSome(buf, sizeof buf, error))
      out.append(buf, n);
    EXPECT_EQ(error, 0);
    return out;
  }
};

TEST_F(FifoTest, AFifoOpenedWithoutItsWriterWaitsForTheWriterAndItsData) {
  // Without a stall limit (one input is a regular file, so no deadlock can happen), the read waits
  // for the writer that comes later, reads what it writes, and ends when it closes.
  io::InputFile f(fifo.string(), /*nonBlockingFifo=*/true);
  f.watch(std::make_shared<io::StallWatch>());
  std::thread writer([&] {
    std::this_thread::sleep_for(20ms);
    const int w = ::open(fifo.c_str(), O_WRONLY);
    ASSERT_GE(w, 0);
    ASSERT_EQ(::write(w, "late\n", 5), 5);
    ::close(w);
  });
  EXPECT_EQ(readAll(f), "late\n");
  writer.join();
}

TEST_F(FifoTest, ANonBlockingDescriptorWaitsForItsData) {
  // The FIFO is opened non-blocking and its writer is there, with nothing written yet: the read
  // sees EAGAIN and waits instead of ending the input.
  io::InputFile f(fifo.string(), /*nonBlockingFifo=*/true);
  const int w = ::open(fifo.c_str(), O_WRONLY);
  ASSERT_GE(w, 0);
  std::thread writer([&] {
    std::this_thread::sleep_for(20ms);
    ASSERT_EQ(::write(w, "data", 4), 4);
    ::close(w);
  });
  EXPECT_EQ(readAll(f), "data");
  writer.join();
}

TEST(InputFile, AWatchWithoutALimitOnAPipeReadsAsAPlainRead) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ASSERT_EQ(::write(fds[1], "x", 1), 1);
  ::close(fds[1]);
  io::InputFile f("/dev/fd/" + std::to_string(fds[0]));
  f.watch(std::make_shared<io::StallWatch>());
  f.watch(nullptr); // no watch: nothing changes
  char buf[4];
  int error = 0;
  EXPECT_EQ(f.readSome(buf, sizeof buf, error), 1u);
  EXPECT_EQ(f.readSome(buf, sizeof buf, error), 0u);
  EXPECT_EQ(error, 0);
  ::close(fds[0]);
}

} // namespace
} // namespace lo::test
