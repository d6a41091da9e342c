// SIGINT and SIGTERM, the one handler of the oracle for both.
//
// Cleanup: a run that is interrupted leaves no partial file either (docs/spec.md §4.1). The
// temporary file of `-o` (system::OutputFile) and the temporary directory of `gen` are registered
// here while they exist; a signal removes every registered path, then ends the process by that
// signal (exit status 128 + N in a shell).
//
// Deferral: a command that stops by itself on an interrupt (`diff`, `verify --impl`/`--worker`,
// `prove --solver cvc5`; docs/spec.md §4.3 and §4.4) holds a SignalsDeferred: the first signal of
// each kind then only sets a flag it reads (tools/system/interrupt.hpp); the second one of a kind
// removes the registered paths and ends the process, as without it.
//
// The handler is async-signal-safe: it reads and writes only `volatile sig_atomic_t` flags and
// lock-free atomics, the registry is a fixed array of slots, each a directory file descriptor and
// a name relative to it, and removal uses only unlinkat, openat, getdents64, close, signal and
// raise. For the cleanup alone the handler is installed at a registration, and only for a signal
// whose disposition is the default (a handler found in place is left alone); a
// SignalsDeferred installs it whatever the disposition was, and puts that back when it ends.
#pragma once

#include "tools/system/pinned.hpp"

#include <csignal>
#include <memory>
#include <string>

namespace lo::system {

/// A path removed on SIGINT or SIGTERM while this object lives: `name` in the directory
/// `dirFd` (which must stay open as long), a file or, with `directory`, a directory tree.
class CleanupOnSignal : Pinned {
public:
  CleanupOnSignal(int dirFd, const std::string &name, bool directory);
  ~CleanupOnSignal();
  /// Stops watching the path (it was renamed into place or removed).
  void release();

private:
  int slot_ = -1;
};

/// A directory tree removed on SIGINT or SIGTERM while this object lives; opens its parent. Not
/// copyable (it owns its entry).
class DirectoryCleanupOnSignal {
public:
  explicit DirectoryCleanupOnSignal(const std::string &path);
  ~DirectoryCleanupOnSignal();
  void release();

private:
  int parentFd_ = -1;
  std::unique_ptr<CleanupOnSignal> entry_;
};

/// SIGINT and SIGTERM held (blocked) while this object lives, then delivered: a path is created
/// and registered under it, so that a signal between the two cannot leave the path behind.
class SignalsHeld : Pinned {
public:
  SignalsHeld();
  ~SignalsHeld();

private:
  unsigned char saved_[128]; // the previous signal mask (a sigset_t)
};

/// While a SignalsDeferred lives, the first SIGINT and the first SIGTERM only set the flag that
/// received() reads, and make a blocking call return EINTR; the second one of a kind removes the
/// registered paths and ends the process by that signal. The dispositions before it are restored
/// when it ends (the cleanup's handler stays while a path is registered).
class SignalsDeferred : Pinned {
public:
  SignalsDeferred();
  ~SignalsDeferred();
  /// The signal received since the newest SignalsDeferred was made (the last one if both), or 0.
  static int received();

private:
  struct sigaction oldInt_ {
  }, oldTerm_{};
};

/// Removes every registered path now (async-signal-safe): the handler's work, public for the
/// tests.
void runCleanup();

} // namespace lo::system
