// The `gen` command (its options are in its --help): "a conformance suite: per case the plan
// and the expected output of every mode and equality, a manifest, and a README for implementers"
// (docs/spec.md §4), and per case the expected gate result of each preset (docs/spec.md §6). "A
// deterministic suite (same seed, same bytes)."
#include "ref/gate.hpp"
#include "ref/io/cleanup.hpp"
#include "tools/cli/options.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"
#include "tools/suite/generate.hpp"
#include "tools/suite/suite_files.hpp"
#include "tools/system/files.hpp"

#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <sys/stat.h>

namespace lo::cli {

namespace {

namespace fs = std::filesystem;
using files::makeTempDir;
using files::writeFile;

/// Writes the whole suite into `dir` (an empty directory).
void writeSuite(const fs::path &dir, const gen::Settings &settings, std::size_t count) {
  gen::suiteFiles(settings, count, [&](const std::string &path, std::string_view text) {
    const fs::path target = dir / path;
    fs::create_directories(target.parent_path());
    writeFile(target, text);
  });
}

/// "A failed run leaves no half suite": the suite is built in DIR.tmp-XXXXXX beside DIR and renamed
/// into place only when complete.
int generate(fs::path out, bool force, const gen::Settings &settings, std::size_t count) {
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
  if (std::string why; nonEmpty && !gen::isGenSuite(out, why))
    throw std::runtime_error(out.string() +
                             ": not a suite gen wrote, so --force does not replace it: " + why +
                             "; nothing was touched (choose a new or empty directory)");
  const fs::path parent = out.has_parent_path() ? out.parent_path() : fs::path(".");
  fs::create_directories(parent);
  // Made and registered with the signals held: SIGINT or SIGTERM in between cannot leave it.
  std::optional<io::SignalsHeld> held(std::in_place);
  const fs::path temp = makeTempDir(parent, out.filename().string() + ".tmp");
  io::DirectoryCleanupOnSignal cleanup(temp.string()); // SIGINT, SIGTERM remove it
  held.reset();
  fs::path old;
  bool movedAside = false;
  try {
    // mkdtemp makes the directory 0700; the suite gets what a new directory gets: 0777 less the
    // umask.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    fs::permissions(temp, static_cast<fs::perms>(0777 & ~mask), fs::perm_options::replace);
    writeSuite(temp, settings, count);
    if (nonEmpty) {
      // rename(2) replaces an empty directory: move the old suite aside, then remove it.
      old = makeTempDir(parent, out.filename().string() + ".old");
      fs::rename(out, old);
      movedAside = true;
      fs::rename(temp, out);
      cleanup.release();
      movedAside = false;
      fs::remove_all(old);
    } else {
      if (exists)
        fs::remove(out);
      fs::rename(temp, out);
      cleanup.release();
    }
  } catch (...) {
    std::error_code ignored;
    fs::remove_all(temp, ignored);
    if (movedAside)
      fs::rename(old, out, ignored); // the old suite back in place
    else if (!old.empty())
      fs::remove(old, ignored); // still empty
    throw;
  }
  std::cout << "gen: wrote " << count << " cases (" << gen::kExpectedOutputsPerCase * count
            << " expected outputs, " << std::size(kPolicyPresets) * count
            << " expected gate results) to " << out.string() << '\n';
  return kSuccess;
}

} // namespace

Action setupGen(CLI::App &app) {
  struct Options {
    std::string out;
    std::size_t count = 100;
    gen::Settings settings;
    bool force = false;
  };
  auto o = std::make_shared<Options>();
  auto *sub = app.add_subcommand(
      "gen", "Write a deterministic conformance suite: plans, expected outputs, expected gate "
             "results, a manifest.");
  sub->add_option("--out", o->out, "directory to create (must not exist or be empty)")->required();
  addNatural(*sub, "--count", o->count, 0, kMaxCount,
             "number of cases: the " + std::to_string(gen::edgeCaseCount()) +
                 " hand-picked ones first, then random ones");
  addNatural(*sub, "--seed", o->settings.seed, 0, kMaxU64, "seed of the random cases");
  addNatural(*sub, "--max-nodes", o->settings.maxNodes, 0, kMaxNodes,
             "most nodes in a random case");
  sub->add_flag("--force", o->force,
                "replace a non-empty DIR, only if it is a suite gen wrote (its manifest.json "
                "names a conformance suite and gen's seed, count and maxNodes); anything else is "
                "refused and left untouched");
  sub->footer("Case I of seed S is the same plan in `gen` and `diff`.");
  return [o] { return generate(o->out, o->force, o->settings, o->count); };
}

} // namespace lo::cli
