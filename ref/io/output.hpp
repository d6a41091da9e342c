// Buffered text output (docs/spec.md §4.1): a Sink writes to a Destination, which the tools give
// as a file written whole or not at all (tools/system/output_file.hpp), or to a string.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace lo::io {

/// Where a Sink's bytes go, in order.
class Destination {
public:
  virtual void write(std::string_view bytes) = 0;

protected:
  ~Destination() = default;
};

/// Buffered text output to a Destination (or to a string, for tests and in-memory use).
class Sink {
public:
  explicit Sink(Destination &file) : file_(&file) { buffer_.reserve(kFlushAt + 4096); }
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
  Destination *file_ = nullptr;
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
