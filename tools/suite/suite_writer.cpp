#include "tools/suite/suite_writer.hpp"

#include "ref/acceptance_profile.hpp"
#include "ref/gate.hpp"
#include "ref/selection.hpp"
#include "tools/exit_codes.hpp"
#include "tools/suite/suite_files.hpp"
#include "tools/system/cleanup.hpp"
#include "tools/system/files.hpp"

#include <algorithm>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <sys/stat.h>
#include <vector>

namespace lo::suite {

namespace fs = std::filesystem;

namespace {

using system::makeTempDir;
using system::writeFile;

/// Writes the whole suite into `dir` (an empty directory).
void writeSuite(const fs::path &dir, const Settings &settings, std::size_t count) {
  suiteFiles(settings, count, [&](const std::string &path, std::string_view text) {
    const fs::path target = dir / path;
    fs::create_directories(target.parent_path());
    writeFile(target, text);
  });
}

} // namespace

int runGen(fs::path out, bool force, const Settings &settings, std::size_t count) {
  out = out.lexically_normal();
  if (out.filename().empty())
    out = out.parent_path();
  if (out.filename() == "." || out.filename() == "..") { // by its name, to rename it
    out = fs::absolute(out).lexically_normal();
    if (out.filename().empty())
      out = out.parent_path();
  }
  const bool exists = fs::exists(out);
  // Refused (exit status 2, main's error path) before anything is touched.
  if (exists && !fs::is_directory(out))
    throw std::runtime_error(out.string() + ": exists and is not a directory");
  const bool nonEmpty = exists && !fs::is_empty(out);
  if (nonEmpty && !force)
    throw std::runtime_error(out.string() +
                             ": directory is not empty (use --force to replace a suite gen wrote)");
  // --force replaces only a suite gen wrote, as its manifest proves (docs/spec.md §4.3): never a
  // working directory, a checkout or a home directory. Nothing is touched otherwise.
  if (std::string why; nonEmpty && !isGenSuite(out, why))
    throw std::runtime_error(out.string() +
                             ": not a suite gen wrote, so --force does not replace it: " + why +
                             "; nothing was touched (choose a new or empty directory)");
  const fs::path parent = out.has_parent_path() ? out.parent_path() : fs::path(".");
  fs::create_directories(parent);
  // Made and registered with the signals held: SIGINT or SIGTERM in between cannot leave it.
  std::optional<system::SignalsHeld> held(std::in_place);
  const fs::path temp = makeTempDir(parent, out.filename().string() + ".tmp");
  system::DirectoryCleanupOnSignal cleanup(temp.string()); // SIGINT, SIGTERM remove it
  held.reset();
  fs::path old;
  std::vector<fs::path> names;      // the new suite's entries
  std::vector<fs::path> asideNames; // gen's entries of the old suite, moved into `old`
  bool swapping = false;            // between the first move and the last
  try {
    // mkdtemp makes the directory 0700; the suite gets what a new directory gets: 0777 less the
    // umask.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    fs::permissions(temp, static_cast<fs::perms>(0777 & ~mask), fs::perm_options::replace);
    writeSuite(temp, settings, count);
    if (nonEmpty) {
      // Only what gen writes is replaced: each of the new suite's entries takes the place of the
      // old one of its name, and everything else in DIR (a run's outputs and reports, the user's
      // notes) stays. With the signals held, so that no interrupt leaves half a suite.
      for (const fs::directory_entry &e : fs::directory_iterator(temp))
        names.push_back(e.path().filename());
      const system::SignalsHeld swapHeld;
      old = makeTempDir(parent, out.filename().string() + ".old");
      swapping = true;
      for (const fs::path &n : names)
        if (fs::symlink_status(out / n).type() != fs::file_type::not_found) {
          fs::rename(out / n, old / n);
          asideNames.push_back(n);
        }
      for (const fs::path &n : names)
        fs::rename(temp / n, out / n);
      swapping = false;
      fs::remove(temp);
      cleanup.release();
      fs::remove_all(old);
    } else {
      if (exists)
        fs::remove(out);
      fs::rename(temp, out);
      cleanup.release();
    }
  } catch (...) {
    std::error_code ignored;
    bool restored = true;
    if (swapping) // the new suite's entries moved in already out, the old ones back in place
      for (const fs::path &n : names) {
        if (fs::symlink_status(temp / n).type() == fs::file_type::not_found)
          fs::remove_all(out / n, ignored);
        if (std::find(asideNames.begin(), asideNames.end(), n) != asideNames.end()) {
          fs::rename(old / n, out / n, ignored);
          restored = restored && !ignored;
        }
      }
    fs::remove_all(temp, ignored);
    if (!old.empty() && restored)
      fs::remove_all(old, ignored);
    throw;
  }
  std::cout << "gen: wrote " << count << " cases ("
            << expectedOutputsPerCase(settings.edition) * count << " expected outputs, "
            << gateResultsPerCase(settings.edition) * count
            << (acceptance::hasAcceptanceGate(settings.edition) ? " expected acceptance results"
                                                                : " expected gate results")
            << (selection::hasSelection(settings.edition)
                    ? ", " + std::to_string(count) + " selection cases) to "
                    : ") to ")
            << out.string() << '\n';
  return cli::kSuccess;
}

} // namespace lo::suite
