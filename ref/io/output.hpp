// Output files: "An output file is written whole or not at all: a failed run leaves no partial
// file behind" (docs/spec.md §4).
//
// A regular file (or a new path) is written to a temporary file beside it and renamed over it by
// commit(). "-" is standard output. A path that exists and is not a regular file (/dev/null, a
// pipe) is written directly and never replaced.
#pragma once

#include <cstdio>
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
  std::string path_;
  std::string temp_; // empty when writing directly
  std::FILE *file_ = nullptr;
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

} // namespace lo::io
