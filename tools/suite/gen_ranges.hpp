// gen's ranges (docs/errors.md, "Options"; docs/spec.md §4.3 `gen`): the largest `--count` and
// `--max-nodes` of `gen`, which `diff` shares for its generated cases, and so the largest values a
// manifest that names gen's parameters may hold (`verify`, "Suite integrity").
// tools/cli/options.hpp gives them to the options.
#pragma once

#include <cstdint>

namespace lo::suite {

/// --count of gen and diff: at most a million cases.
inline constexpr std::uint64_t kMaxCount = 1000000;
/// --max-nodes of gen and diff: at most 100000 nodes in a random case.
inline constexpr std::uint64_t kMaxNodes = 100000;

} // namespace lo::suite
