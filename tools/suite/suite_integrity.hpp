// docs/spec.md §4.3, "Suite integrity": a manifest that names `seed`, `count` and `maxNodes` is
// checked by regenerating that suite in memory and comparing every file byte for byte before
// anything is judged. A manifest that names none of them is a hand-made suite,
// judged only with --unverified-suite.
#pragma once

#include "tools/suite/suite_reader.hpp"

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>

namespace lo::suite {

/// The integrity rule for `suite`, whose manifest `read` is: a suite that claims to be gen's is
/// regenerated in memory (suiteFiles) and every file compared with the suite's, byte for byte (the
/// files gen does not write are not looked at); a hand-made suite passes only when
/// `unverifiedSuite` (--unverified-suite). Throws SuiteError naming the first file that differs,
/// is missing or cannot be read, or the hand-made suite.
///
/// Each file is read once: the bytes of every file an entry reads (a plan; a selection entry's
/// graph and profile) are kept in `files` (by the manifest's path), so that `verify` judges the
/// very bytes it verified and a file swapped after the check is never read (docs/spec.md §4.3,
/// "Suite integrity"). A hand-made suite keeps none.
void checkSuiteIntegrity(const std::filesystem::path &suite, const Suite &read,
                         bool unverifiedSuite, std::size_t maxFileBytes,
                         std::map<std::string, std::string> &files);

} // namespace lo::suite
