#include "tools/system/output_file.hpp"

#include "ref/hash.hpp"
#include "tools/system/cleanup.hpp"

#include <cerrno>
#include <charconv>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

namespace lo::system {

namespace {

[[noreturn]] void fail(const std::string &path, const std::string &what, int error) {
  throw std::runtime_error(path + ": " + what + ": " + std::strerror(error));
}

/// The descriptor a name of the process's own descriptors stands for ("-", /dev/stdout,
/// /dev/stderr, /dev/fd/N, /proc/self/fd/N), or -1 for any other path.
int ownDescriptor(const std::string &path) {
  if (path == "-" || path == "/dev/stdout")
    return 1;
  if (path == "/dev/stderr")
    return 2;
  for (std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (path.size() <= prefix.size() || path.compare(0, prefix.size(), prefix) != 0)
      continue;
    int fd = 0;
    const char *first = path.data() + prefix.size(), *last = path.data() + path.size();
    auto [end, ec] = std::from_chars(first, last, fd);
    if (ec == std::errc() && end == last)
      return fd;
  }
  return -1;
}

bool sameFile(const struct stat &a, const struct stat &b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/// Whether the directory open as `dirFd` is /dev or a directory of /proc (however it was spelled:
/// /dev//, //dev, /dev/fd, /proc/self/fd): its entries stand for devices and descriptors, and
/// are never replaced or created.
bool systemDirectory(int dirFd) {
  constexpr long kProcSuperMagic = 0x9fa0;
  struct statfs fs {};
  if (::fstatfs(dirFd, &fs) == 0 && static_cast<long>(fs.f_type) == kProcSuperMagic)
    return true;
  struct stat dir {
  }, dev{};
  return ::fstat(dirFd, &dir) == 0 && ::stat("/dev", &dev) == 0 && sameFile(dir, dev);
}

/// A name for the temporary file: BASE.tmp.XXXXXX, the Xs random, BASE cut to fit NAME_MAX.
std::string temporaryName(const std::string &base, std::uint64_t attempt) {
  static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::uint64_t r = keyedHash(
      static_cast<std::uint64_t>(::getpid()) << 32 ^ attempt ^
      static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
  // The name fits NAME_MAX whatever the length of `base` (a prefix of it is enough to tell whose
  // temporary file it is; O_EXCL and the random suffix make it unique).
  static constexpr std::size_t kSuffix = 11; // ".tmp." and six characters
  std::string name = base.substr(0, NAME_MAX - kSuffix) + ".tmp.";
  for (int i = 0; i < 6; ++i, r /= 62)
    name += kChars[r % 62];
  return name;
}

} // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (const int own = ownDescriptor(path_); own >= 0) {
    if (::fcntl(own, F_GETFD) < 0)
      fail(path_, "cannot write", errno);
    fd_ = own;
    return;
  }
  // The directory, opened by the kernel (symbolic links on the way are the kernel's to follow);
  // the last component is never followed.
  std::string dir = ".";
  base_ = path_;
  if (const auto slash = path_.rfind('/'); slash != std::string::npos) {
    dir = slash == 0 ? "/" : path_.substr(0, slash);
    base_ = path_.substr(slash + 1);
  }
  if (base_.empty() || base_ == "." || base_ == "..")
    throw std::runtime_error(path_ + ": names a directory, not a file");
  dirFd_ = ::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (dirFd_ < 0)
    fail(path_, "cannot open its directory", errno);

  if (systemDirectory(dirFd_)) {
    openSystemEntry();
    return;
  }

  struct stat st {};
  const bool exists = ::fstatat(dirFd_, base_.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
  // A symbolic link to a device or a pipe is that device or pipe (the resolved target counts,
  // not the spelling): written directly, the link kept.
  struct stat target {};
  if (exists && S_ISLNK(st.st_mode) && ::fstatat(dirFd_, base_.c_str(), &target, 0) == 0 &&
      (S_ISCHR(target.st_mode) || S_ISFIFO(target.st_mode) || S_ISBLK(target.st_mode))) {
    openDirectly(/*followLink=*/true);
    return;
  }
  if (exists && S_ISDIR(st.st_mode))
    throw std::runtime_error(path_ + ": is a directory");
  if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISBLK(st.st_mode))) {
    openDirectly(/*followLink=*/false);
    return;
  }
  // Read-only: no write permission for this user, or none for anyone (which root would pass).
  if (exists && S_ISREG(st.st_mode) &&
      ((st.st_mode & 0222) == 0 || ::faccessat(dirFd_, base_.c_str(), W_OK, AT_EACCESS) != 0))
    throw std::runtime_error(path_ + ": is read-only: not replaced (make it writable, or remove "
                                     "it, to write it)");
  if (exists && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
    throw std::runtime_error(path_ + ": is neither a regular file, a symbolic link, a device nor a "
                                     "pipe: not replaced");

  // Created and registered for removal with the signals held: a SIGINT or SIGTERM in between
  // would leave the temporary file behind (docs/spec.md §4.1).
  const SignalsHeld held;
  for (std::uint64_t attempt = 0; fd_ < 0; ++attempt) {
    temp_ = temporaryName(base_, attempt);
    fd_ = ::openat(dirFd_, temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                   0666); // less the umask, for a new file
    if (fd_ < 0 && (errno != EEXIST || attempt == 100)) {
      const int e = errno;
      temp_.clear();
      fail(path_, "cannot create a temporary file beside it", e);
    }
  }
  ownFd_ = true;
  cleanup_ = std::make_unique<CleanupOnSignal>(dirFd_, temp_, false);
  // The new file keeps the mode of the regular file it replaces.
  if (exists && S_ISREG(st.st_mode))
    ::fchmod(fd_, st.st_mode & 07777);
}

void OutputFile::openDirectly(bool followLink) {
  // A device or a pipe: written directly (opening a FIFO waits for its reader, as a shell's `>`
  // does).
  fd_ = ::openat(dirFd_, base_.c_str(),
                 O_WRONLY | O_NOCTTY | O_CLOEXEC | (followLink ? 0 : O_NOFOLLOW));
  if (fd_ < 0)
    fail(path_, "cannot open for writing", errno);
  ownFd_ = true;
  struct stat opened {};
  if (::fstat(fd_, &opened) != 0 || S_ISREG(opened.st_mode) || S_ISDIR(opened.st_mode))
    throw std::runtime_error(path_ + ": changed while it was opened; not written");
}

void OutputFile::openSystemEntry() {
  // An entry of /dev or /proc, judged by what it resolves to: standard output or error (however
  // spelled: /dev//stdout, /dev/./stderr, /proc//self/fd/1) is that descriptor; standard input
  // (a file or a pipe) is no output; another device or a pipe is written directly; nothing else
  // there is replaced or created (as root, renaming over /dev/stdout would destroy it).
  struct stat target {};
  if (::fstatat(dirFd_, base_.c_str(), &target, 0) != 0) {
    const int e = errno;
    if (e == ENOENT)
      throw std::runtime_error(path_ + ": no such device; nothing is created in /dev or /proc");
    fail(path_, "cannot open for writing", e);
  }
  for (const int own : {1, 2}) {
    struct stat st {};
    if (::fstat(own, &st) == 0 && sameFile(st, target)) {
      fd_ = own;
      return;
    }
  }
  // Standard input (/dev/stdin, /dev/fd/0 however spelled) is no output, unless it is a
  // character device that any name reaches as well (/dev/null as standard input).
  struct stat input {};
  if (!S_ISCHR(target.st_mode) && ::fstat(0, &input) == 0 && sameFile(input, target))
    throw std::runtime_error(path_ + ": is the standard input, not an output: not written");
  if (!(S_ISCHR(target.st_mode) || S_ISFIFO(target.st_mode) || S_ISBLK(target.st_mode)))
    throw std::runtime_error(path_ + ": is an entry of /dev or /proc that is neither a device nor "
                                     "a pipe: not replaced");
  openDirectly(/*followLink=*/true);
}

OutputFile::~OutputFile() {
  if (ownFd_ && fd_ >= 0)
    ::close(fd_);
  if (!committed_ && !temp_.empty())
    ::unlinkat(dirFd_, temp_.c_str(), 0);
  cleanup_.reset();
  if (dirFd_ >= 0)
    ::close(dirFd_);
}

void OutputFile::writeAll(const char *data, std::size_t size) {
  // The process's standard streams may hold text written through stdio: it goes first.
  if (fd_ == 1)
    std::fflush(stdout);
  else if (fd_ == 2)
    std::fflush(stderr);
  while (size > 0) {
    const ssize_t n = ::write(fd_, data, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      fail(path_, "write error", n < 0 ? errno : EIO);
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

void OutputFile::write(std::string_view bytes) { writeAll(bytes.data(), bytes.size()); }

void OutputFile::commit() {
  if (ownFd_) {
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0)
      fail(path_, "write error", errno);
  }
  if (!temp_.empty() && ::renameat(dirFd_, temp_.c_str(), dirFd_, base_.c_str()) != 0)
    fail(path_, "cannot rename the temporary file into place", errno);
  committed_ = true;
}

} // namespace lo::system
