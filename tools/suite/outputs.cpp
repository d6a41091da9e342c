#include "tools/suite/outputs.hpp"

#include "ref/io/escape.hpp"
#include "tools/suite/judge.hpp"
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

void checkOperands(const VerifySettings &s) {
  using io::shownText;
  if (s.pattern.find("{case}") == std::string::npos)
    throw SuiteError("--pattern must contain {case}");
  if (s.gatePattern.find("{case}") == std::string::npos ||
      s.gatePattern.find("{policy}") == std::string::npos)
    throw SuiteError("--gate-pattern must contain {case} and {policy}");
  if (s.selectionPattern.find("{case}") == std::string::npos)
    throw SuiteError("--selection-pattern must contain {case}");
  // `--impl` removes an output before each run (docs/spec.md §4.1, "Output directories").
  for (const auto &[option, pattern] :
       {std::pair{"--pattern", &s.pattern}, std::pair{"--gate-pattern", &s.gatePattern},
        std::pair{"--selection-pattern", &s.selectionPattern}})
    if (!staysInside(*pattern))
      throw SuiteError(std::string(option) + " " + shownText(*pattern) +
                       " leaves OUTPUTS: a pattern is a relative name without a .. component");
  std::string missing;
  if (!fs::is_directory(s.suite))
    missing = shownText(s.suite) + ": no such suite: not a directory";
  if (!s.producer && !fs::is_directory(s.outputs))
    missing += (missing.empty() ? "" : "; ") + shownText(s.outputs) +
               ": no such outputs directory: not a directory";
  if (!missing.empty())
    throw SuiteError(missing);
}

std::string outputNameInside(const std::string &pattern, const SuiteManifest::Entry &m) {
  std::string name = outputName(pattern, m);
  if (!staysInside(name))
    throw SuiteError(io::shownText(name) + ": an output name that leaves OUTPUTS");
  return name;
}

std::string linkLeavesOutputs(const fs::path &file) {
  return "no output: " + io::shownText(file.string()) +
         " is reached through a symbolic link that leaves OUTPUTS: not removed, the "
         "implementation not run";
}

} // namespace lo::suite
