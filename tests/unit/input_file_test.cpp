// io::InputFile, the handle of every reader (docs/errors.md, "Input files"): a read error is an
// InputError with its reason and position; a FIFO opened without waiting for its writer, and a
// descriptor someone else made non-blocking, still wait for their data instead of ending early;
// io::loadSource reads a document into the buffer of the one before.
#include "ref/io/error.hpp"
#include "ref/io/input.hpp"
#include "ref/io/reader.hpp"
#include "ref/io/stream.hpp"
#include "ref/io/strict_json.hpp"
#include "tests/temp_dir.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
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

struct FifoTest : lo::testing::TempDir {
  fs::path fifo;
  std::string prefix() const override { return "lo-input"; }
  void SetUp() override {
    TempDir::SetUp();
    fifo = dir / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  }
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

/// A pipe whose ends close with it.
struct WatchedPipe {
  int fds[2] = {-1, -1};
  WatchedPipe() { EXPECT_EQ(::pipe(fds), 0); }
  ~WatchedPipe() {
    ::close(fds[0]);
    ::close(fds[1]);
  }
  std::string path() const { return "/dev/fd/" + std::to_string(fds[0]); }
  void put(std::string_view bytes) const {
    EXPECT_EQ(::write(fds[1], bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  }
};

TEST(StallWatch, AWaitWithNoByteOnAnyInputIsAStallNamingTheOtherInputsUnreadBytes) {
  WatchedPipe a, b;
  b.put("abc"); // the other input has bytes its reader has not taken
  io::InputFile fa(a.path()), fb(b.path());
  auto watch = std::make_shared<io::StallWatch>();
  watch->limit = 30ms;
  watch->advice = "Interleave the two streams.";
  fa.watch(watch);
  fb.watch(watch);
  char buf[8];
  int error = 0;
  try {
    (void)fa.readSome(buf, sizeof buf, error);
    FAIL() << "the wait did not end";
  } catch (const io::InputError &e) {
    EXPECT_EQ(e.message(), "stalled: waiting for input here, no byte arrived on any input for 30 "
                           "ms; " +
                               b.path() +
                               " has 3 bytes unread (its producer is probably blocked writing "
                               "it). Interleave the two streams.");
  }
}

TEST(StallWatch, ABytePassingOnAnyInputStartsTheLimitAgain) {
  // Bytes arrive on the other input every 50 ms for 200 ms, longer than the limit of 150 ms,
  // then on this one: no stall.
  WatchedPipe a, b;
  io::InputFile fa(a.path()), fb(b.path());
  auto watch = std::make_shared<io::StallWatch>();
  watch->limit = 150ms;
  fa.watch(watch);
  fb.watch(watch);
  std::thread producer([&] {
    for (int i = 0; i < 4; ++i) {
      std::this_thread::sleep_for(50ms);
      b.put("b");
    }
    a.put("a");
  });
  char buf[8];
  int error = 0;
  EXPECT_EQ(fa.readSome(buf, sizeof buf, error), 1u);
  EXPECT_EQ(buf[0], 'a');
  producer.join();
}

} // namespace
} // namespace lo::test

namespace lo::test {
namespace {

struct LoadSource : lo::testing::TempDir {
  std::string prefix() const override { return "lo-load"; }
  fs::path write(const std::string &name, const std::string &text) {
    const fs::path p = dir / name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
};

TEST_F(LoadSource, ReadsIntoTheBufferOfTheDocumentBefore) {
  // A document read into the buffer of a longer one, of a shorter one, and from a FIFO (no size
  // known): each time exactly its own bytes, under its own name.
  const std::string longText(100000, 'a'), shortText = "{\"b\":1}";
  io::Source s = io::loadSource(write("long.json", longText).string());
  const std::size_t capacity = s.text.capacity();
  const char *buffer = s.text.data();
  io::loadSource(write("short.json", shortText).string(), s);
  EXPECT_EQ(s.text, shortText);
  EXPECT_EQ(s.name, (dir / "short.json").string());
  EXPECT_EQ(s.text.data(), buffer) << "the longer document's buffer was not kept";
  EXPECT_EQ(s.text.capacity(), capacity);
  io::loadSource((dir / "long.json").string(), s);
  EXPECT_EQ(s.text, longText);
  const std::string longer(300000, 'c');
  io::loadSource(write("longer.json", longer).string(), s);
  EXPECT_EQ(s.text, longer);
  EXPECT_GE(s.text.capacity(), longer.size() + simdjson::SIMDJSON_PADDING);
  const fs::path fifo = dir / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << shortText; });
  io::loadSource(fifo.string(), s);
  writer.join();
  EXPECT_EQ(s.text, shortText);
}

} // namespace
} // namespace lo::test
