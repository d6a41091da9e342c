// `diff` (docs/spec.md §4.3; docs/conformance.md, "The runner"): what the command line asks of a
// run.
#pragma once

#include "ref/gate.hpp"
#include "ref/io/limits.hpp"
#include "ref/ir.hpp"
#include "tools/suite/generate.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace lo::diff {

/// The options of `diff`.
struct DiffSettings {
  std::string impl, worker, gate, gateWorker;
  /// --planner, --planner-worker: another implementation's selection (tools/diff/planner_run.hpp).
  std::string planner, plannerWorker;
  bool planners() const { return !planner.empty() || !plannerWorker.empty(); }
  std::string policy; // --gate: one preset (or custom) only; empty: all asked
  /// --audit: every lowering asked carries the audit (else one case in suite::kAuditShare).
  bool audit = false;
  std::size_t count = 200;
  suite::Settings gen;
  Mode mode = Mode::coalesced;
  Equality equality = Equality::contract;
  /// --mode or --equality given: every case asks for that one lowering. Else each case asks for
  /// one of the four in turn (docs/spec.md §4.3), and with --all for all four.
  bool pinned = false;
  bool all = false, keepGoing = false, progress = false;
  std::uint64_t timeoutMs = io::kDefaultTimeoutMs;
  std::uint64_t maxOutputBytes = io::kDefaultMaxOutputBytes;
  std::string keep;

  /// --gate or --gate-worker: the implementation is a gate.
  bool gates() const { return !gate.empty() || !gateWorker.empty(); }
  /// The placeholder `{audit}`: whether the case asks for the audit (docs/spec.md §4.3, "diff").
  static constexpr std::string_view kAuditPlaceholder = "{audit}";
  /// Whether the lowerings can be asked for the audit: a worker's request always can, --impl
  /// when its command names `{audit}`.
  bool auditAskable() const {
    return !gates() && (!worker.empty() || impl.find(kAuditPlaceholder) != std::string::npos);
  }
  /// Whether the gate can be asked for a custom policy: a gate worker's request always can,
  /// --gate when its command names the six booleans' placeholders (`{allowChecked}`, ...).
  bool customAskable() const {
    if (!gateWorker.empty())
      return true;
    if (gate.empty())
      return false;
    for (const PolicyFlag &f : kPolicyFlags)
      if (gate.find("{" + std::string(f.name) + "}") == std::string::npos)
        return false;
    return true;
  }

  std::chrono::milliseconds timeout() const {
    return std::chrono::milliseconds(static_cast<long long>(
        std::min<std::uint64_t>(timeoutMs, std::numeric_limits<long long>::max())));
  }
  std::size_t maxOutput() const {
    return static_cast<std::size_t>(
        std::min<std::uint64_t>(maxOutputBytes, std::numeric_limits<std::size_t>::max() / 2));
  }
};

} // namespace lo::diff
