// The hand-picked edge cases that open every suite (docs/conformance.md, "What is generated"), from
// `0000-empty-plan` to `0011-gate-identity-trap`, the identity
// trap of docs/spec.md §6.7): cases 0 .. edgeCaseCount()-1 of `gen` and `diff`, the same plans for
// every seed, in the values of the suite's edition (docs/spec.md §1.6).
#pragma once

#include "tools/suite/generate.hpp"

#include <cstddef>

namespace lo::suite {

/// Edge case `index` (< edgeCaseCount()) of edition `edition`, without the spelling caseAt() gives
/// it.
Case edgeCase(Interner &interner, std::size_t index, Edition edition);

} // namespace lo::suite
