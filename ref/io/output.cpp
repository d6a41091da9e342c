#include "ref/io/output.hpp"

#include <charconv>

namespace lo::io {

Sink &Sink::operator<<(std::uint64_t n) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, n);
  buffer_.append(buf, end);
  return *this;
}

Sink &Sink::jsonString(std::string_view s) {
  buffer_.push_back('"');
  // Most strings need no escape: append them whole.
  bool plain = true;
  for (char c : s)
    plain &= static_cast<unsigned char>(c) >= 0x20 && c != '"' && c != '\\';
  if (plain) {
    buffer_.append(s);
    s = {};
  }
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
    case '"': buffer_ += "\\\""; break;
    case '\\': buffer_ += "\\\\"; break;
    case '\n': buffer_ += "\\n"; break;
    case '\t': buffer_ += "\\t"; break;
    case '\r': buffer_ += "\\r"; break;
    case '\b': buffer_ += "\\b"; break;
    case '\f': buffer_ += "\\f"; break;
    default:
      if (u < 0x20) {
        static constexpr char hex[] = "0123456789abcdef";
        buffer_ += "\\u00";
        buffer_ += hex[u >> 4];
        buffer_ += hex[u & 15];
      } else {
        buffer_.push_back(c);
      }
    }
  }
  buffer_.push_back('"');
  if (buffer_.size() >= kFlushAt)
    flush();
  return *this;
}

void Sink::flush() {
  if (file_)
    file_->write(buffer_);
  else if (target_)
    target_->append(buffer_);
  buffer_.clear();
}

} // namespace lo::io
