// The run of `gen` (docs/spec.md §4.3 and §4.1): the suite is built beside DIR and renamed into
// place, so that a failed or interrupted run leaves no partial suite; `--force` replaces only a
// suite gen wrote.
#pragma once

#include "tools/suite/generate.hpp"

#include <cstddef>
#include <filesystem>

namespace lo::suite {

/// Writes `count` cases of `settings` into `out` (absent or empty, or with `force` a suite gen
/// wrote) and says so on standard output; returns the exit status. A refusal throws, before
/// anything is touched.
int runGen(std::filesystem::path out, bool force, const Settings &settings, std::size_t count);

} // namespace lo::suite
