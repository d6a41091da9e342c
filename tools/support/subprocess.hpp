// Running another implementation for `diff`: "runs COMMAND once per generated plan with `{plan}`,
// `{out}`, `{mode}`, `{equality}` substituted (no shell injection through file names), with a
// timeout per case".
//
// The command is split into arguments once, like a POSIX shell splits words (quotes and
// backslashes), but no shell ever runs it: placeholders are substituted inside each argument and
// the result goes to execvp, so a file name is always exactly one argument.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace lo::subprocess {

/// Splits a command template into arguments: white space separates, '...' keeps everything
/// literally, "..." keeps everything but `\"` and `\\`, and a backslash outside quotes escapes the
/// next character. Throws std::invalid_argument on an unterminated quote or an empty command.
std::vector<std::string> splitCommand(std::string_view command);

/// Replaces every `{name}` of `values` in every argument. Other braces are left alone.
std::vector<std::string> substitute(const std::vector<std::string> &argv,
                                    const std::map<std::string, std::string> &values);

struct Result {
  enum class Status { exited, signaled, timedOut, failedToStart };
  Status status = Status::exited;
  int code = 0;               // exit status (exited) or signal number (signaled)
  std::string error;          // failedToStart: why execvp failed
  std::string standardOutput; // captured only when asked for
  std::string standardError;  // captured, at most `maxCapture` bytes (then "...")
  std::chrono::milliseconds elapsed{0};
  bool ok() const { return status == Status::exited && code == 0; }
};

struct Options {
  std::chrono::milliseconds timeout{10000};
  bool captureStdout = false;
  std::size_t maxCapture = std::size_t{1} << 20;
};

/// Runs `argv` (argv[0] is looked up in PATH) with standard input from /dev/null, in its own
/// process group; on timeout the whole group is killed with SIGKILL.
Result run(const std::vector<std::string> &argv, const Options &options);

/// "exited with status 3", "killed by signal 11 (Segmentation fault)", "timed out after 200 ms",
/// "could not start: No such file or directory".
std::string describe(const Result &r, std::chrono::milliseconds timeout);

} // namespace lo::subprocess
