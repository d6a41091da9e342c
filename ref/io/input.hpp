// Input files: one handle for the readers of whole documents (ref/io/strict_json.cpp) and of
// streams (ref/io/stream.cpp). "-" is standard input. A directory, a file that cannot be opened and
// a read error are InputErrors with their reason and a position (docs/errors.md).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace lo::io {

/// Inputs read in step by one reader (`check --stream` reads a plan stream and a lowering stream
/// one record of each at a time). A producer that writes one of them whole before the other
/// blocks on a full pipe while the reader waits for the other: a deadlock. A wait on a pipe (or
/// device) of the watch during which no byte arrives on any input of the watch for `limit` is
/// such a stall: the waiting read throws an InputError saying what happened, then `advice`
/// (docs/formats.md, "Feeding check --stream"). `check --stream` sets a limit only when a
/// deadlock is possible (no input is a regular file, which never blocks).
struct StallWatch {
  std::chrono::milliseconds limit{0}; // 0: wait forever
  std::string advice;
  struct Input {
    int fd;
    std::string name;
  };
  std::vector<Input> inputs; // filled by InputFile::watch
};

class InputFile {
public:
  /// Opens `path` ("-": standard input, named "<stdin>" in messages). With `nonBlockingFifo`, a
  /// FIFO is opened without waiting for its writer (a wait there could not be watched for a
  /// stall); its reads still wait for data, and its end is its writer's close.
  explicit InputFile(const std::string &path, bool nonBlockingFifo = false);
  ~InputFile(); // closes the file (never standard input)
  InputFile(const InputFile &) = delete;
  InputFile &operator=(const InputFile &) = delete;

  const std::string &name() const { return name_; }
  /// The size of a regular file, or nullopt-like 0 with `regular()` false for a pipe or device.
  bool regular() const { return regular_; }
  std::uint64_t size() const { return size_; }

  /// Reads what is available now, at most `room` bytes, waiting only while nothing is: a pipe
  /// delivers each write as it comes, never held back to fill `room`. Returns 0 at the end. Before
  /// it waits for a pipe, calls `beforeWait` when set (a streamed lowering flushes its output
  /// there, so that a reader of its output is never kept waiting for what was already computed).
  /// On a read error, returns 0 with `error` set to errno (else `error` is 0).
  std::size_t readSome(char *into, std::size_t room, int &error);
  /// The InputError of a read error at `line`:`column`.
  [[noreturn]] void readFailed(int error, std::size_t line, std::size_t column) const;

  std::function<void()> beforeWait;

  /// Joins `watch`: from now on, a wait on this file that sees no byte arrive on any input of the
  /// watch for its limit throws (see StallWatch).
  void watch(std::shared_ptr<StallWatch> watch);

private:
  /// Returns once this file has something to read (or hung up), or throws on a stall.
  void awaitProgress();
  std::shared_ptr<StallWatch> stall_;
  bool nonBlocking_ = false;
  std::string name_;
  int fd_ = -1;
  bool regular_ = false;
  std::uint64_t size_ = 0;
};

} // namespace lo::io
