#include "tools/support/files.hpp"

#include "ref/io/output.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
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

} // namespace lo::files
