#include "ref/io/output.hpp"

#include <charconv>

namespace lo::io {

Sink &Sink::operator<<(std::uint64_t n) {
  constexpr std::size_t kLongest = 20; // 2^64 - 1
  if (capacity_ - used_ >= kLongest) { // straight into the buffer
    char *at = buffer_.get() + used_;
    used_ += static_cast<std::size_t>(std::to_chars(at, at + kLongest, n).ptr - at);
    return *this;
  }
  char buf[kLongest];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, n);
  return *this << std::string_view(buf, static_cast<std::size_t>(end - buf));
}

Sink &Sink::jsonString(std::string_view s) {
  *this << '"';
  // Most strings need no escape: append them whole.
  bool plain = true;
  for (char c : s)
    plain &= static_cast<unsigned char>(c) >= 0x20 && c != '"' && c != '\\';
  if (plain) {
    *this << s;
    s = {};
  }
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
    case '"': *this << "\\\""; break;
    case '\\': *this << "\\\\"; break;
    case '\n': *this << "\\n"; break;
    case '\t': *this << "\\t"; break;
    case '\r': *this << "\\r"; break;
    case '\b': *this << "\\b"; break;
    case '\f': *this << "\\f"; break;
    default:
      if (u < 0x20) {
        static constexpr char hex[] = "0123456789abcdef";
        *this << "\\u00" << hex[u >> 4] << hex[u & 15];
      } else {
        *this << c;
      }
    }
  }
  return *this << '"';
}

Sink &Sink::appendLong(std::string_view s) {
  flush();
  if (s.size() <= capacity_) {
    std::memcpy(buffer_.get(), s.data(), s.size());
    used_ = s.size();
  } else if (file_) {
    file_->write(s);
  } else if (target_) {
    target_->append(s);
  }
  return *this;
}

void Sink::flush() {
  const std::string_view bytes(buffer_.get(), used_);
  if (file_)
    file_->write(bytes);
  else if (target_)
    target_->append(bytes);
  used_ = 0;
}

} // namespace lo::io
