// `diff --planner` (docs/spec.md §4.3, "diff"; docs/conformance.md, "Judging a planner"): another
// implementation's selection run on generated graphs and profiles (tools/plans/selection_cases),
// each output judged by the selection checks (checks/selection.hpp), the first failure shrunk
// (tools/diff/selection_shrink) and saved.
#pragma once

#include "tools/diff/diff_settings.hpp"

namespace lo::diff {

/// The placeholders of a --planner command.
inline constexpr std::string_view kPlannerPlaceholders = "{graph}, {profile} and {out}";

/// Runs `diff --planner` as `s` says; the exit status (0 every output conforms, 1 a finding, 3
/// interrupted before any finding). Throws UsageError when the planner cannot start,
/// std::invalid_argument when its command cannot be split.
int runPlannerDiff(const DiffSettings &s);

} // namespace lo::diff
