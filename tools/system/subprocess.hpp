// Running another implementation for `diff`: "runs COMMAND once per generated plan with `{plan}`,
// `{out}`, `{mode}`, `{equality}` substituted (no shell injection through file names), with a
// timeout per case".
//
// The command is split into arguments once, like a POSIX shell splits words (quotes and
// backslashes), but no shell ever runs it: placeholders are substituted inside each argument and
// the result goes to execvp, so a file name is always exactly one argument.
#pragma once

#include <chrono>
#include <functional>
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

using Clock = std::chrono::steady_clock;

/// `now + timeout`, saturated at the clock's end instead of overflowing (a `--timeout-ms` of
/// 10^15 means "no timeout", not a deadline in the past).
Clock::time_point deadlineAfter(std::chrono::milliseconds timeout,
                                Clock::time_point now = Clock::now());

/// While an InterruptGuard lives, SIGINT and SIGTERM only set a flag (the second one of a kind
/// acts as usual): every wait of this file then stops its child's process group and returns
/// `interrupted`, so the caller can print what it has, remove its temporary files and exit.
/// SIGPIPE is ignored meanwhile (a worker that dies makes a write fail, not the oracle).
class InterruptGuard {
public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard &) = delete;
  InterruptGuard &operator=(const InterruptGuard &) = delete;
  /// The signal received since the guard was made, or 0.
  static int received();
};

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
  std::chrono::milliseconds timeout{10000};
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

/// A long-running implementation (`diff --worker`): started once, in its own process group, and
/// sent one request line after another on its standard input; each answer is one line on its
/// standard output. Its standard error is collected per exchange (at most `maxStderr` bytes).
/// After anything but an answer the worker is stopped (its whole process group killed) and the
/// next exchange starts it again.
class Worker {
public:
  Worker(std::vector<std::string> argv, std::size_t maxLine, std::size_t maxStderr = 1 << 16);
  ~Worker();
  Worker(const Worker &) = delete;
  Worker &operator=(const Worker &) = delete;

  struct Reply {
    enum class Status { answered, exited, signaled, timedOut, tooLong, failedToStart, interrupted };
    Status status = Status::answered;
    int code = 0;              // exited: exit status; signaled: signal number
    std::string line;          // answered: the line, without its newline
    std::string standardError; // what the worker wrote to standard error during the exchange
    std::string error;         // failedToStart: why
  };
  /// Writes `request` and a newline, then reads one line, all before `deadline`.
  Reply exchange(std::string_view request, Clock::time_point deadline);
  /// Kills the worker's process group and reaps it (nothing when it is not running).
  void stop();
  std::size_t starts() const { return starts_; }

private:
  bool start(std::string &error);
  void pump(int timeoutMs, bool wantWrite, bool &writable);

  std::vector<std::string> argv_;
  std::size_t maxLine_, maxStderr_;
  int pid_ = -1, in_ = -1, out_ = -1, err_ = -1;
  std::string pending_, stderr_;
  bool outClosed_ = false;
  std::size_t starts_ = 0;
};

/// "exited with status 3 while ...", as describe() says it, for a worker's reply.
std::string describe(const Worker::Reply &r, std::chrono::milliseconds timeout);

} // namespace lo::subprocess
