#include "tools/system/files.hpp"

#include "ref/io/output.hpp"
#include "tools/system/output_file.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <unistd.h>

namespace lo::system {

namespace fs = std::filesystem;

fs::path makeTempDir(const fs::path &parent, const std::string &stem) {
  // The name fits NAME_MAX whatever the length of `stem`: its part before the last dot is cut, its
  // role (".tmp", ".old") and mkdtemp's "-XXXXXX" are kept (mkdtemp makes it unique).
  static constexpr std::size_t kRandom = 7;
  std::string name = stem;
  if (name.size() + kRandom > NAME_MAX) {
    const std::size_t dot = name.rfind('.');
    const std::string role =
        dot != std::string::npos && name.size() - dot <= 8 ? name.substr(dot) : "";
    name = name.substr(0, NAME_MAX - kRandom - role.size()) + role;
  }
  std::string pattern = (parent / (name + "-XXXXXX")).string();
  if (!::mkdtemp(pattern.data()))
    throw std::runtime_error(pattern + ": cannot create a directory: " + std::strerror(errno));
  return pattern;
}

TemporaryDirectory::TemporaryDirectory(const std::string &stem) {
  system::SignalsHeld held;
  path_ = makeTempDir(tempParent(), stem);
  cleanup_ = std::make_unique<system::DirectoryCleanupOnSignal>(path_.string());
}

TemporaryDirectory::~TemporaryDirectory() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
  cleanup_.reset();
}

bool outputDirectoryUsable(const fs::path &dir, std::string &why) {
  std::error_code e;
  const fs::file_status st = fs::symlink_status(dir, e);
  if (e || !fs::exists(st))
    return true; // absent (or not examinable): claimOutputDirectory makes it or says why not
  if (!fs::is_directory(fs::status(dir, e)) || e) {
    why = "exists and is not a directory";
    return false;
  }
  if (fs::is_empty(dir, e) && !e)
    return true;
  if (fs::is_regular_file(fs::symlink_status(dir / kOutputMarker, e)) && !e)
    return true;
  why = "directory is not empty and was not written by lowering-oracle (it has no " +
        std::string(kOutputMarker) + "); nothing was touched (name a new or empty directory)";
  return false;
}

void claimOutputDirectory(const fs::path &dir, std::string_view command) {
  fs::create_directories(dir);
  const fs::path marker = dir / kOutputMarker;
  std::error_code e;
  if (fs::is_regular_file(fs::symlink_status(marker, e)) && !e)
    return;
  writeFile(marker, "This directory was written by lowering-oracle " + std::string(command) +
                        "; a later run may replace its files (docs/spec.md §4.1).\n");
}

fs::path tempParent() {
  const char *t = std::getenv("TMPDIR");
  return t && *t ? fs::path(t) : fs::path("/tmp");
}

void writeFile(const fs::path &path, std::string_view text) {
  system::OutputFile file(path.string());
  file.write(text);
  file.commit();
}

void recreateFile(const fs::path &path, std::string_view text) {
  std::error_code e;
  fs::remove_all(path, e); // a symbolic link itself, not its target
  if (e)
    throw std::runtime_error(path.string() + ": cannot remove: " + e.message());
  const int fd =
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
  if (fd < 0)
    throw std::runtime_error(path.string() + ": cannot create: " + std::strerror(errno));
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      const int why = n < 0 ? errno : EIO;
      ::close(fd);
      throw std::runtime_error(path.string() + ": cannot write: " + std::strerror(why));
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  if (::close(fd) != 0)
    throw std::runtime_error(path.string() + ": cannot write: " + std::strerror(errno));
}

BoundedRead readInside(const fs::path &dir, const std::string &relative, std::size_t maxBytes) {
  std::error_code ec;
  const fs::path root = fs::weakly_canonical(fs::absolute(dir, ec), ec);
  const fs::path target = fs::weakly_canonical(fs::absolute(dir / relative, ec), ec);
  if (ec) {
    BoundedRead r;
    r.status = BoundedRead::Status::unreadable;
    r.why = "cannot be resolved: " + ec.message();
    return r;
  }
  // Inside: `root` is a prefix of `target`, component by component; and the file opened is
  // judged again by its descriptor (a link swapped in after this check is caught there).
  if (!isInside(root, target) || target == root) {
    BoundedRead r;
    r.status = BoundedRead::Status::notRegular;
    r.why = "is a symbolic link that leaves its directory: refused";
    return r;
  }
  return readRegularFile(target.string(), maxBytes, root);
}

} // namespace lo::system
