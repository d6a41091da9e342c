// `diff` (docs/spec.md §4.3; docs/conformance.md, "The runner"): the run: generates the cases, asks
// the implementation for each lowering, judges each output within the case's deadline, shrinks and
// saves the first failure of each kind, and prints the summary.
#pragma once

#include "tools/diff/diff_settings.hpp"

namespace lo::diff {

/// Runs `diff` as `s` says, with the work directory under $TMPDIR; the exit status (0 every output
/// conforms, 1 a finding, 3 interrupted before any finding). Throws UsageError when the
/// implementation cannot start, std::invalid_argument when its command cannot be split.
int runDiff(const DiffSettings &s);

} // namespace lo::diff
