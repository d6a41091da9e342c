#include "ref/io/output.hpp"

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace lo::io {

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (path_ == "-") {
    file_ = stdout;
    return;
  }
  // A symbolic link is followed: its target is replaced, the link is kept.
  struct stat st {};
  if (::lstat(path_.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    if (char *resolved = ::realpath(path_.c_str(), nullptr)) {
      path_ = resolved;
      std::free(resolved);
    }
  }
  const bool exists = ::stat(path_.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode)) {
    file_ = std::fopen(path_.c_str(), "wb");
    if (!file_)
      throw std::runtime_error(path_ + ": cannot open for writing: " + std::strerror(errno));
    return;
  }
  temp_ = path_ + ".tmp.XXXXXX";
  int fd = ::mkstemp(temp_.data());
  if (fd < 0) {
    const int e = errno;
    temp_.clear();
    throw std::runtime_error(path_ +
                             ": cannot create a temporary file beside it: " + std::strerror(e));
  }
  // The new file keeps the mode of the file it replaces; a new file gets 0666 less the umask.
  mode_t mode = 0;
  if (exists) {
    mode = st.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  ::fchmod(fd, mode);
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    ::close(fd);
    ::unlink(temp_.c_str());
    throw std::runtime_error(path_ + ": cannot open for writing: " + std::strerror(errno));
  }
}

OutputFile::~OutputFile() {
  if (file_ && file_ != stdout)
    std::fclose(file_);
  if (!committed_ && !temp_.empty())
    ::unlink(temp_.c_str());
}

void OutputFile::write(std::string_view bytes) {
  if (bytes.empty())
    return;
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
    throw std::runtime_error(path_ + ": write error: " + std::strerror(errno));
}

void OutputFile::commit() {
  if (std::fflush(file_) != 0)
    throw std::runtime_error(path_ + ": write error: " + std::strerror(errno));
  if (file_ != stdout) {
    std::FILE *f = file_;
    file_ = nullptr;
    if (std::fclose(f) != 0)
      throw std::runtime_error(path_ + ": write error: " + std::strerror(errno));
  }
  if (!temp_.empty() && std::rename(temp_.c_str(), path_.c_str()) != 0)
    throw std::runtime_error(
        path_ + ": cannot rename the temporary file into place: " + std::strerror(errno));
  committed_ = true;
}

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
