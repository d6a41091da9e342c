// Buffered text output (docs/spec.md §4.1): a Sink writes to a Destination, which the tools give
// as a file written whole or not at all (tools/system/output_file.hpp), or to a string.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
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
  explicit Sink(Destination &file) : capacity_(kFileBufferBytes), file_(&file) {}
  explicit Sink(std::string &target) : capacity_(kTextBufferBytes), target_(&target) {}
  ~Sink() = default;
  Sink(const Sink &) = delete;

  Sink &operator<<(std::string_view s) {
    if (s.size() > capacity_ - used_) [[unlikely]]
      return appendLong(s);
    std::memcpy(buffer_.get() + used_, s.data(), s.size());
    used_ += s.size();
    return *this;
  }
  Sink &operator<<(char c) {
    if (used_ == capacity_) [[unlikely]]
      flush();
    buffer_[used_++] = c;
    return *this;
  }
  Sink &operator<<(std::uint64_t n);
  /// A JSON string literal, escaped.
  Sink &jsonString(std::string_view s);
  void flush();

private:
  /// `s` when the buffer has no room for it: the buffer written out first, then `s` buffered, or
  /// written out too when it is larger than the buffer.
  Sink &appendLong(std::string_view s);

  static constexpr std::size_t kFileBufferBytes = std::size_t{1} << 20;
  static constexpr std::size_t kTextBufferBytes = 4096;
  std::size_t capacity_;
  Destination *file_ = nullptr;
  std::string *target_ = nullptr;
  std::unique_ptr<char[]> buffer_{new char[capacity_]};
  std::size_t used_ = 0;
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
