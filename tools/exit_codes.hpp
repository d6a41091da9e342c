// The exit statuses every command shares (docs/spec.md §4.4).
#pragma once

#include <stdexcept>

namespace lo::cli {

enum ExitCode : int {
  kSuccess = 0,
  kFinding = 1,
  kBadInput = 2,
  kInconclusive = 3,
};

/// A run stopped by SIGINT or SIGTERM before it could conclude (`verify --impl`/`--worker`,
/// `prove --solver cvc5`): main prints it on the one error path and exits 3, inconclusive
/// (docs/spec.md §4.4).
struct InterruptedRun : std::runtime_error {
  using std::runtime_error::runtime_error;
};

} // namespace lo::cli
