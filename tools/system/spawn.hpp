// Running another program for `diff --impl` (docs/spec.md §4.3: "`--impl 'COMMAND'` starts
// COMMAND once per case", "`--timeout-ms 10000` per run"), and the judging of its output in a
// forked copy of this process, bounded in time the same way. The arguments come from
// tools/system/command_line.hpp; the child runs in its own process group
// (tools/system/child_process.hpp), which a timeout or an interrupt (tools/system/interrupt.hpp)
// kills whole.
#pragma once

#include "ref/io/limits.hpp"
#include "tools/system/deadline.hpp"

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace lo::system {

struct Result {
  enum class Status { exited, signaled, timedOut, failedToStart, interrupted };
  Status status = Status::exited;
  int code = 0;                 // exit status (exited) or signal number (signaled)
  std::string error;            // failedToStart: why execvp failed
  std::string standardOutput;   // captured only when asked for, at most `maxStdout` bytes
  bool stdoutTruncated = false; // the child wrote more than `maxStdout` bytes
  std::string standardError;    // captured, at most `maxCapture` bytes (then "...")
  std::chrono::milliseconds elapsed{0};
  bool ok() const { return status == Status::exited && code == 0; }
};

struct Options {
  std::chrono::milliseconds timeout{io::kDefaultTimeoutMs};
  Clock::time_point deadline = Clock::time_point::max(); // also stop here, if earlier
  bool captureStdout = false;
  std::size_t maxCapture = std::size_t{1} << 20; // standard error
  std::size_t maxStdout = std::size_t{64} << 20; // standard output (captureStdout)
};

/// Runs `argv` (argv[0] is looked up in PATH) with standard input from /dev/null, in its own
/// process group; on timeout the whole group is killed with SIGKILL.
Result run(const std::vector<std::string> &argv, const Options &options);

/// "exited with status 3", "killed by signal 11 (Segmentation fault)", "timed out after 200 ms",
/// "could not start: No such file or directory".
std::string describe(const Result &r, std::chrono::milliseconds timeout);

/// The answer of `work` run in a forked copy of this process, so that a computation on hostile
/// input can be bounded in time: the child sends `work()`'s string back through a pipe and exits.
struct ForkResult {
  enum class Status { answered, failed, timedOut, crashed, interrupted };
  Status status = Status::answered;
  std::string answer; // answered: what work() returned; failed: the exception's message
};
ForkResult runForked(const std::function<std::string()> &work, Clock::time_point deadline,
                     std::size_t maxAnswer = std::size_t{1} << 30);

} // namespace lo::system
