#include "tools/suite/suite_integrity.hpp"

#include "ref/io/escape.hpp"
#include "tools/suite/suite_files.hpp"
#include "tools/system/files.hpp"

#include <set>
#include <string_view>

namespace lo::suite {

void checkSuiteIntegrity(const std::filesystem::path &suite, const Suite &read,
                         bool unverifiedSuite, std::size_t maxFileBytes,
                         std::map<std::string, std::string> &files) {
  using io::shownText;
  if (!read.provenance) {
    if (unverifiedSuite)
      return;
    throw SuiteError(
        shownText(suite.string()) +
        ": not a suite gen wrote (its manifest names no seed, count and maxNodes), so it cannot "
        "be verified; judge it as it is with --unverified-suite (the report then says so)");
  }
  const Provenance &p = *read.provenance;
  const std::string command = "gen --edition " + std::string(spelling(p.settings.edition)) +
                              " --seed " + std::to_string(p.settings.seed) + " --count " +
                              std::to_string(p.count) + " --max-nodes " +
                              std::to_string(p.settings.maxNodes);
  // The files the entries read: their verified bytes are kept for the judge.
  std::set<std::string_view> wanted;
  for (const SuiteManifest::Entry &e : read.entries)
    for (const std::string *path : {&e.plan, &e.graph, &e.profile})
      if (!path->empty())
        wanted.insert(*path);
  suiteFiles(p.settings, p.count, [&](const std::string &path, std::string_view text) {
    const std::string shown = shownText((suite / path).string());
    std::string actual;
    if (path == kManifestName) {
      actual = read.manifestText;
    } else {
      system::BoundedRead r = system::readInside(suite, path, maxFileBytes);
      if (r.status != system::BoundedRead::Status::ok)
        throw SuiteError(shown + ": the suite is not the one `" + command + "` writes: this file " +
                         r.why + "; the suite is not judged");
      actual = std::move(r.text);
    }
    if (actual != text)
      throw SuiteError(shown + ": differs from the file `" + command +
                       "` writes: the suite was changed after gen wrote it (or written by another "
                       "version of gen); it is not judged (write it again with `lowering-oracle " +
                       command + " --out DIR`)");
    if (wanted.count(path) != 0)
      files.insert_or_assign(path, std::move(actual));
  });
}

} // namespace lo::suite
