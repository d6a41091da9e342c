// What run(), runForked() (tools/system/spawn.hpp) and Worker (tools/system/worker.hpp) share to
// start another process and talk to it: pipes, reading what a pipe holds, and starting a program
// in a process group of its own, so that a timeout or an interrupt kills everything it started
// (docs/spec.md §4.3, "diff" and, for verify, "Running the implementation").
#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

namespace lo::system {

/// A pipe whose two ends are closed on exec and when it is destroyed.
struct Pipe {
  int fd[2] = {-1, -1};
  Pipe();
  ~Pipe();
  Pipe(const Pipe &) = delete;
  Pipe &operator=(const Pipe &) = delete;
  void closeRead();
  void closeWrite();
};

/// Appends what can be read from `fd` now to `into`, keeping at most `max` bytes; false at end of
/// file.
bool drain(int fd, std::string &into, std::size_t max);

/// Starts `argv` (argv[0] looked up in PATH) in a process group of its own, with `in`, `out` and
/// `err` as its standard input, output and error (-1: /dev/null), and SIGINT, SIGTERM and SIGPIPE
/// at their defaults. Returns 0 with the child's id in `pid`, or the errno of an exec that failed
/// (no child is then left).
int spawn(const std::vector<std::string> &argv, int in, int out, int err, pid_t &pid);

} // namespace lo::system
