// `verify --impl 'COMMAND'` and `verify --worker 'COMMAND'` (docs/spec.md §4.3, "verify"): the
// implementation under test run over a suite's entries by `verify` itself, one process per entry
// or one worker for the run, with diff's drivers (diff_drivers.hpp): no loop of the user's, and one
// run for every report (`--report FORMAT=FILE`).
#pragma once

#include "ref/io/limits.hpp"
#include "tools/suite/verify.hpp"

#include <cstdint>
#include <string>

namespace lo::diff {

/// What `verify` asks of the implementation's runs.
struct SuiteRunSettings {
  std::string impl, worker; // --impl, --worker: one of them
  bool gates = false;       // --gates: `impl` is a gate command ({policy} replaced)
  /// --selection: `impl` is a planner command ({graph}, {profile}, {out}), `worker` a planner
  /// worker, as diff's --planner and --planner-worker
  bool selection = false;
  std::uint64_t timeoutMs = io::kDefaultTimeoutMs;
  std::uint64_t maxOutputBytes = io::kDefaultMaxOutputBytes;
};

/// The producer of `verify --impl` or `--worker`: for each entry, the entry's plan (its verified
/// bytes) is written afresh to a file of its own work directory (`{plan}`; a worker's request
/// carries it too), the entry's output file in OUTPUTS (`{out}`) is removed, and the implementation
/// is run under the entry's mode, equality (and policy) within `--timeout-ms`; what it writes (to
/// `{out}`, to standard output without `{out}`, or in a worker's answer) is the output judged. A
/// crash, a timeout, a non-zero exit (a gate may exit 1), no output or one over
/// `--max-output-bytes` is the entry's error. A selection entry's graph and profile are written
/// (`{graph}`, `{profile}`) and the planner run as `diff --planner` runs it: its exit status 2 (a
/// worker's "error") is its answer that selection fails. A command that cannot be split or started
/// throws UsageError (exit status 2).
suite::Producer suiteProducer(const SuiteRunSettings &s);

} // namespace lo::diff
