// The worker protocol of `diff --worker` (docs/spec.md §4.3; docs/conformance.md, "The worker
// protocol"): a long-running implementation is started once and sent one request line after
// another; each answer is one line. This file holds the process side of it: starting, the
// exchange of one line for one line within a deadline, and stopping; what the lines say is
// tools/diff/diff_drivers.cpp's.
#pragma once

#include "tools/system/deadline.hpp"

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace lo::system {

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

} // namespace lo::system
