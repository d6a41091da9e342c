// Output files, written whole or not at all (docs/spec.md §4.1).
//
// "-", /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N are the process's own descriptor,
// written directly (so `-o /dev/stdout >> log` appends). Otherwise the directory of the path is
// opened. In /dev or /proc (however spelled: /dev//stdout, /dev/./stdin) the entry is judged by
// the file it resolves to, never by its spelling: standard output or error is that descriptor,
// standard input is refused, another device or a pipe is written directly, and nothing there is
// ever replaced or created. Elsewhere the last component is looked at without following it: a
// character device or a FIFO (/dev/null, a pipe), or a symbolic link to one, is written directly
// and never replaced; a regular file, another symbolic link or a new name is replaced atomically,
// in that directory, by a temporary file created there with O_EXCL|O_NOFOLLOW and renamed over the
// name (renameat) by commit(). The new file keeps a replaced regular file's mode; a symbolic link
// is replaced itself (its target is not touched); a read-only file is not replaced (an error, as a
// shell's `>` gives). See docs/errors.md, "Output files".
#pragma once

#include "ref/io/cleanup.hpp"

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace lo::io {

class OutputFile {
public:
  /// Opens `path` for writing; throws std::runtime_error with a plain message on failure.
  explicit OutputFile(std::string path);
  ~OutputFile(); // removes the temporary file unless committed
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;

  void write(std::string_view bytes);
  /// Flushes and, for a regular file, renames the temporary file into place.
  void commit();

private:
  void writeAll(const char *data, std::size_t size);
  void openDirectly(bool followLink);
  void openSystemEntry();
  std::string path_;
  int fd_ = -1;
  bool ownFd_ = false; // whether fd_ is closed by this object
  int dirFd_ = -1;     // the directory of a replaced file
  std::string base_;   // the name replaced in it
  std::string temp_;   // the temporary file's name in it; empty when writing directly
  std::unique_ptr<CleanupOnSignal> cleanup_;
  bool committed_ = false;
};

/// Buffered text output to an OutputFile (or to a string, for tests and in-memory use).
class Sink {
public:
  explicit Sink(OutputFile &file) : file_(&file) { buffer_.reserve(kFlushAt + 4096); }
  explicit Sink(std::string &target) : target_(&target) {}
  ~Sink() = default;
  Sink(const Sink &) = delete;

  Sink &operator<<(std::string_view s) {
    buffer_.append(s);
    if (buffer_.size() >= kFlushAt)
      flush();
    return *this;
  }
  Sink &operator<<(char c) {
    buffer_.push_back(c);
    return *this;
  }
  Sink &operator<<(std::uint64_t n);
  /// A JSON string literal, escaped.
  Sink &jsonString(std::string_view s);
  void flush();

private:
  static constexpr std::size_t kFlushAt = std::size_t{1} << 20;
  OutputFile *file_ = nullptr;
  std::string *target_ = nullptr;
  std::string buffer_;
};

/// What `write(sink)` writes, as a string.
template <class Write> std::string writtenText(Write &&write) {
  std::string text;
  Sink out(text);
  write(out);
  out.flush();
  return text;
}

} // namespace lo::io
