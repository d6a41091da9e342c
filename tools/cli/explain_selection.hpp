// `explain` of a selection check (docs/spec.md §10.8): what it finds and a minimal example, the
// graph, the profile and the candidate written in the edition asked for, read back by that
// edition's readers, and the report `check-plan` gives for them.
#pragma once

#include "checks/selection.hpp"

#include <string>

namespace lo::cli {

/// Writes the explanation of `d` in edition `edition` to `out` (a path, or - for standard
/// output); the exit status.
int explainSelection(Departure d, Edition edition, const std::string &out);

} // namespace lo::cli
