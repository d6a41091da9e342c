#include "ref/io/input.hpp"

#include "ref/io/error.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lo::io {

InputFile::InputFile(const std::string &path, bool nonBlockingFifo)
    : name_(path == "-" ? "<stdin>" : path) {
  struct stat named {};
  nonBlocking_ = nonBlockingFifo && path != "-" && ::stat(path.c_str(), &named) == 0 &&
                 S_ISFIFO(named.st_mode);
  fd_ = path == "-" ? 0
                    : ::open(path.c_str(),
                             O_RDONLY | O_CLOEXEC | O_NOCTTY | (nonBlocking_ ? O_NONBLOCK : 0));
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

void InputFile::watch(std::shared_ptr<StallWatch> watch) {
  if (!watch)
    return;
  watch->inputs.push_back({fd_, name_});
  stall_ = std::move(watch);
}

void InputFile::awaitProgress() {
  using Clock = std::chrono::steady_clock;
  if (stall_->limit.count() <= 0) {
    // No limit: wait as a blocking read would (a FIFO opened without waiting for its writer
    // reports its end only once a writer has come and gone).
    while (nonBlocking_) {
      pollfd p{fd_, POLLIN, 0};
      const int r = ::poll(&p, 1, -1);
      if (r > 0 || (r < 0 && errno != EINTR))
        return;
    }
    return;
  }
  // Progress is a byte arriving on any input: the bytes waiting in each pipe (FIONREAD).
  auto unread = [](int fd) {
    int n = 0;
    return ::ioctl(fd, FIONREAD, &n) == 0 ? n : -1;
  };
  std::vector<int> seen;
  for (const auto &input : stall_->inputs)
    seen.push_back(unread(input.fd));
  auto deadline = Clock::now() + stall_->limit;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    pollfd p{fd_, POLLIN, 0};
    const int r = ::poll(&p, 1, static_cast<int>(std::clamp<long long>(left, 0, 100)));
    if (r > 0 || (r < 0 && errno != EINTR))
      return; // readable, at its end, or an error: the read says which
    bool progress = false;
    for (std::size_t i = 0; i < seen.size(); ++i)
      if (const int n = unread(stall_->inputs[i].fd); n != seen[i]) {
        seen[i] = n;
        progress = true;
      }
    if (progress) {
      deadline = Clock::now() + stall_->limit;
      continue;
    }
    if (Clock::now() < deadline)
      continue;
    std::string others;
    for (std::size_t i = 0; i < seen.size(); ++i)
      if (stall_->inputs[i].fd != fd_ && seen[i] > 0)
        others += (others.empty() ? "; " : ", ") + stall_->inputs[i].name + " has " +
                  std::to_string(seen[i]) +
                  " bytes unread (its producer is probably blocked "
                  "writing it)";
    throw InputError(name_, "stalled: waiting for input here, no byte arrived on any input for " +
                                std::to_string(stall_->limit.count()) + " ms" + others + ". " +
                                stall_->advice);
  }
}

std::size_t InputFile::readSome(char *into, std::size_t room, int &error) {
  error = 0;
  if (stall_ && !regular_)
    awaitProgress();
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
