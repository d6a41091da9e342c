#include "tools/suite/outputs.hpp"

#include "ref/io/escape.hpp"
#include "tools/system/files.hpp"

namespace lo::suite {

namespace fs = std::filesystem;

bool staysInside(const std::string &name) {
  const fs::path p(name);
  if (name.empty() || p.is_absolute() || p.has_root_name() || p.has_root_directory())
    return false;
  const std::string normal = p.lexically_normal().string();
  if (normal == "." || normal == "./") // OUTPUTS itself
    return false;
  for (const fs::path &part : p)
    if (part == "..")
      return false;
  return true;
}

bool resolvesInside(const fs::path &outputs, const std::string &name) {
  std::error_code e;
  const fs::path root = fs::weakly_canonical(fs::absolute(outputs, e), e);
  if (e)
    return false;
  const fs::path where = fs::weakly_canonical(fs::absolute(outputs / name, e).parent_path(), e);
  return !e && system::isInside(root, where);
}

void claimOutputs(const VerifySettings &s) {
  if (!s.producer)
    return;
  if (std::string why; !system::outputDirectoryUsable(s.outputs, why))
    throw SuiteError("verify: OUTPUTS " + io::shownText(s.outputs) + ": " + why);
  try {
    system::claimOutputDirectory(s.outputs, "verify");
  } catch (const std::exception &e) {
    throw SuiteError(e.what());
  }
}

} // namespace lo::suite
