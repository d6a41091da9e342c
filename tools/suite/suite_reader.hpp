// What `verify` reads of a conformance suite beyond its manifest's shape (docs/spec.md §4.3;
// the shape is suite_manifest.hpp's): every path of the manifest stays inside the suite, every case
// name is one file-name component, gen's parameters are all three or none and within gen's ranges,
// no two entries are one test case of the report, and each file is read as every file of SUITE is
// ("Files": a regular file inside the suite, of at most --max-file-bytes). Anything else is an
// invalid suite: a SuiteError, exit status 2.
#pragma once

#include "tools/suite/generate.hpp"
#include "tools/suite/suite_manifest.hpp"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace lo::suite {

/// A problem with the suite or with verify's options (not with an output): exit status 2.
struct SuiteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The parameters `gen` wrote the suite with, when its manifest names them.
struct Provenance {
  Settings settings;
  std::size_t count = 0;
};

/// The parameters gen wrote a suite with (docs/spec.md §4.3): all three of seed, count and
/// maxNodes, within gen's ranges, or none (nullopt: a hand-made suite); anything between throws
/// SuiteError (`where` names the manifest). The one rule of "a suite gen wrote", for verify and
/// for `gen --force` (isGenSuite).
std::optional<Provenance> provenanceOf(const SuiteManifest &manifest, const std::string &where);

/// Which of a manifest's lists `verify` judges: `cases`, the gate results (`gates`, or
/// `acceptance` in an edition with upstream's acceptance gate; verify --gates) or `selection`
/// (verify --selection).
enum class SuiteList { cases, gates, selection };

/// A suite's manifest as verify judges it.
struct Suite {
  /// The entries judged: the manifest's list that `SuiteList` names.
  std::vector<SuiteManifest::Entry> entries;
  std::optional<Provenance> provenance; // nullopt: a hand-made suite
  std::optional<Edition> edition;       // the manifest's `edition`; nullopt: it names none
  std::string manifestText;             // the manifest's bytes
};

/// Reads `suite`/manifest.json and judges it as the header says; `list` chooses the entries.
/// Throws SuiteError.
Suite readSuite(const std::filesystem::path &suite, SuiteList list, std::size_t maxFileBytes);

/// The file `relative` of `suite`, read as every file of SUITE is (system::readInside): a regular
/// file inside the directory, of at most `maxFileBytes`. Throws SuiteError.
std::string readSuiteFile(const std::filesystem::path &suite, const std::string &relative,
                          std::size_t maxFileBytes);

} // namespace lo::suite
