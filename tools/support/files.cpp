#include "tools/support/files.hpp"

#include "ref/io/output.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace lo::files {

namespace fs = std::filesystem;

fs::path makeTempDir(const fs::path &parent, const std::string &stem) {
  std::string pattern = (parent / (stem + "-XXXXXX")).string();
  if (!::mkdtemp(pattern.data()))
    throw std::runtime_error(pattern + ": cannot create a directory: " + std::strerror(errno));
  return pattern;
}

fs::path tempParent() {
  const char *t = std::getenv("TMPDIR");
  return t && *t ? fs::path(t) : fs::path("/tmp");
}

void writeFile(const fs::path &path, std::string_view text) {
  io::OutputFile file(path.string());
  file.write(text);
  file.commit();
}

std::string readFile(const fs::path &path, bool &found) {
  std::ifstream f(path, std::ios::binary);
  found = static_cast<bool>(f);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
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
  // Inside: `root` is a prefix of `target`, component by component.
  const auto [rootEnd, targetAt] =
      std::mismatch(root.begin(), root.end(), target.begin(), target.end());
  if (rootEnd != root.end() || targetAt == target.end()) {
    BoundedRead r;
    r.status = BoundedRead::Status::notRegular;
    r.why = "is a symbolic link that leaves its directory: refused";
    return r;
  }
  return readRegularFile(target.string(), maxBytes);
}

} // namespace lo::files
