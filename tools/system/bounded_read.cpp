#include "tools/system/bounded_read.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lo::system {

namespace {

const char *typeName(mode_t mode) {
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISSOCK(mode))
    return "a socket";
  return "not a regular file";
}

} // namespace

bool isInside(const std::filesystem::path &dir, const std::filesystem::path &path) {
  const auto [dirEnd, pathAt] = std::mismatch(dir.begin(), dir.end(), path.begin(), path.end());
  return dirEnd == dir.end();
}

BoundedRead readRegularFile(const std::string &path, std::size_t maxBytes,
                            const std::filesystem::path &inside) {
  BoundedRead r;
  // O_NOFOLLOW: a symbolic link is refused, whatever it points to. O_NONBLOCK: opening a FIFO
  // does not wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    r.status = e == ENOENT  ? BoundedRead::Status::missing
               : e == ELOOP ? BoundedRead::Status::notRegular
                            : BoundedRead::Status::unreadable;
    r.why = e == ELOOP ? "is a symbolic link, not a regular file"
                       : std::string("cannot be opened: ") + std::strerror(e);
    return r;
  }
  if (!inside.empty()) {
    std::error_code ec;
    const auto opened = std::filesystem::read_symlink("/proc/self/fd/" + std::to_string(fd), ec);
    if (ec || !isInside(inside, opened)) {
      ::close(fd);
      r.status = BoundedRead::Status::notRegular;
      r.why = "is a symbolic link that leaves its directory: refused";
      return r;
    }
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    r.status = BoundedRead::Status::notRegular;
    r.why = std::string("is ") + typeName(st.st_mode) + ", not a regular file";
    if (!S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode) &&
        !S_ISDIR(st.st_mode) && !S_ISSOCK(st.st_mode))
      r.why = "is not a regular file";
    ::close(fd);
    return r;
  }
  if (static_cast<std::size_t>(st.st_size) > maxBytes) {
    r.status = BoundedRead::Status::tooLarge;
    r.why = "holds " + std::to_string(st.st_size) + " bytes, more than the cap of " +
            std::to_string(maxBytes);
    ::close(fd);
    return r;
  }
  // The file may still grow while it is read (a writer left behind): never read past the cap.
  std::string text(std::min<std::size_t>(static_cast<std::size_t>(st.st_size), maxBytes), '\0');
  std::size_t have = 0;
  char probe;
  while (true) {
    // A full buffer: one more byte is read to see whether the file grew (then the buffer grows).
    const bool full = have == text.size();
    const ssize_t n =
        full ? ::read(fd, &probe, 1) : ::read(fd, text.data() + have, text.size() - have);
    if (n == 0)
      break;
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      r.status = BoundedRead::Status::unreadable;
      r.why = std::string("cannot be read: ") + std::strerror(errno);
      break;
    }
    if (full) {
      if (text.size() >= maxBytes) {
        r.status = BoundedRead::Status::tooLarge;
        r.why = "holds more than the cap of " + std::to_string(maxBytes) + " bytes";
        break;
      }
      text.push_back(probe);
      text.resize(std::min(maxBytes, text.size() * 2 + 4096));
    }
    have += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (r.status == BoundedRead::Status::ok) {
    text.resize(have);
    r.text = std::move(text);
  }
  return r;
}

} // namespace lo::system
