// The two instance sizes of a test labelled `campaign` (docs/testing.md, "Tiers"): the README's
// test command runs the small one; `ctest --preset campaign` (CI, after the README's command)
// sets LO_CAMPAIGN=1 and runs the full one. Each test declares its pair once, at its use:
// `instance(small, full)`. The property and every check stay; only the size moves.
#pragma once

#include <cstdlib>
#include <cstring>

namespace lo::testing {

/// Whether this run is the campaign tier's (LO_CAMPAIGN=1 in the environment).
inline bool campaign() {
  const char *v = std::getenv("LO_CAMPAIGN");
  return v != nullptr && std::strcmp(v, "1") == 0;
}

/// `full` in the campaign tier, else `small`.
template <class T> T instance(T small, T full) { return campaign() ? full : small; }

} // namespace lo::testing
