// "Exit status, for every command: 0 success (conforms, proved); 1 a finding (does not conform, an
// implementation differs, an obligation refuted); 2 bad usage or invalid input; 3 inconclusive
// (solver unknown or timed out)." (docs/spec.md §4)
#pragma once

namespace lo::cli {

enum ExitCode : int {
  kSuccess = 0,
  kFinding = 1,
  kBadInput = 2,
  kInconclusive = 3,
};

} // namespace lo::cli
