// When a wait for another process ends: at its deadline ("`--timeout-ms 10000` per run",
// docs/spec.md §4.3), or at an interrupt (tools/system/interrupt.hpp). Every wait of
// tools/system/spawn.cpp asks stopBefore() and sleeps at most waitMs(); the worker's exchange
// (tools/system/worker.cpp) checks the same two conditions itself, an answer already read
// winning over the deadline.
#pragma once

#include <chrono>

namespace lo::system {

using Clock = std::chrono::steady_clock;

/// `now + timeout`, saturated at the clock's end instead of overflowing (a `--timeout-ms` of
/// 10^15 means "no timeout", not a deadline in the past).
Clock::time_point deadlineAfter(std::chrono::milliseconds timeout,
                                Clock::time_point now = Clock::now());

/// Milliseconds until `deadline`, at most `cap`, at least 0 (a timeout for poll()).
int waitMs(Clock::time_point deadline, int cap);

/// Why a wait stops before what it waits for: an interrupt (InterruptGuard) or the deadline.
enum class Stop { no, interrupted, timedOut };

/// An interrupt received under an InterruptGuard first, then the deadline.
Stop stopBefore(Clock::time_point deadline);

} // namespace lo::system
