#include "ref/io/input.hpp"

#include "ref/io/error.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lo::io {

InputFile::InputFile(const std::string &path) : name_(path == "-" ? "<stdin>" : path) {
  fd_ = path == "-" ? 0 : ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd_ < 0)
    throw InputError(name_, 1, 1, "", std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      if (fd_ != 0)
        ::close(fd_);
      fd_ = -1;
      throw InputError(name_, 1, 1, "", "is a directory, not a file");
    }
    regular_ = S_ISREG(st.st_mode);
    size_ = regular_ ? static_cast<std::uint64_t>(st.st_size) : 0;
  }
}

InputFile::~InputFile() {
  if (fd_ > 0)
    ::close(fd_);
}

std::size_t InputFile::readSome(char *into, std::size_t room, int &error) {
  error = 0;
  if (beforeWait && !regular_) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 0) == 0)
      beforeWait(); // nothing to read now: the read below waits
  }
  for (;;) {
    const ssize_t n = ::read(fd_, into, room);
    if (n >= 0)
      return static_cast<std::size_t>(n);
    if (errno == EAGAIN || errno == EWOULDBLOCK) { // a non-blocking descriptor: wait for it
      pollfd p{fd_, POLLIN, -1};
      ::poll(&p, 1, -1);
      continue;
    }
    if (errno != EINTR) {
      error = errno;
      return 0;
    }
  }
}

void InputFile::readFailed(int error, std::size_t line, std::size_t column) const {
  throw InputError(name_, line, column, "", std::string("read error: ") + std::strerror(error));
}

} // namespace lo::io
