// Input files: one handle for the readers of whole documents (ref/io/reader.cpp) and of streams
// (ref/io/stream.cpp). "-" is standard input. A directory, a file that cannot be opened and a read
// error are InputErrors with their reason and a position (docs/errors.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace lo::io {

class InputFile {
public:
  /// Opens `path` ("-": standard input, named "<stdin>" in messages).
  explicit InputFile(const std::string &path);
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

private:
  std::string name_;
  int fd_ = -1;
  bool regular_ = false;
  std::uint64_t size_ = 0;
};

} // namespace lo::io
