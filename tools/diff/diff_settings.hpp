// `diff` (docs/spec.md §4.3; docs/conformance.md, "The runner"): what the command line asks of a
// run.
#pragma once

#include "ref/ir.hpp"
#include "tools/suite/generate.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <string>

namespace lo::cli {

/// The options of `diff`.
struct DiffSettings {
  std::string impl, worker, gate;
  std::string policy; // --gate: one preset only; empty: all three
  std::size_t count = 200;
  gen::Settings gen;
  Mode mode = Mode::coalesced;
  Equality equality = Equality::contract;
  /// --mode or --equality given: every case asks for that one lowering. Else each case asks for
  /// one of the four in turn (docs/spec.md §4.3), and with --all for all four.
  bool pinned = false;
  bool all = false, keepGoing = false, progress = false;
  std::uint64_t timeoutMs = 10000;
  std::uint64_t maxOutputBytes = std::uint64_t{64} << 20;
  std::string keep;

  std::chrono::milliseconds timeout() const {
    return std::chrono::milliseconds(static_cast<long long>(
        std::min<std::uint64_t>(timeoutMs, std::numeric_limits<long long>::max())));
  }
  std::size_t maxOutput() const {
    return static_cast<std::size_t>(
        std::min<std::uint64_t>(maxOutputBytes, std::numeric_limits<std::size_t>::max() / 2));
  }
};

} // namespace lo::cli
