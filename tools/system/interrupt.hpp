// An interrupted `diff`, `verify --impl`/`--worker` or `prove --solver cvc5` (docs/spec.md §4.3 and
// §4.4; docs/conformance.md, "The runner: `diff`"): the child's whole process group is killed,
// and the command says what it has and exits.
//
// The signals are caught by the one mechanism of tools/system/cleanup.hpp
// (system::SignalsDeferred): the first SIGINT and the first SIGTERM only set a flag, which every
// wait of tools/system/spawn.cpp (stopBefore(), tools/system/deadline.hpp) and the worker's
// exchange read; a second one of a kind removes the registered temporaries and ends the process by
// that signal.
#pragma once

#include "tools/system/cleanup.hpp"

#include <csignal>

namespace lo::system {

/// While an InterruptGuard lives, SIGINT and SIGTERM only set a flag (the second one of a kind
/// acts as usual): every wait of tools/system/ then stops its child (run's and the worker's whole
/// process group, runForked's fork alone) and returns `interrupted`, so the caller can print what
/// it has, remove its temporary files and exit. SIGPIPE is ignored meanwhile (a worker that dies
/// makes a write fail, not the oracle).
class InterruptGuard : Pinned {
public:
  InterruptGuard();
  ~InterruptGuard();
  /// The signal received since the guard was made, or 0.
  static int received() { return system::SignalsDeferred::received(); }

private:
  system::SignalsDeferred deferred_;
  struct sigaction oldPipe_ {};
};

} // namespace lo::system
