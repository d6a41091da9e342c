// How a planner is run on one selection case (docs/spec.md §10.8), for `diff --planner` and
// `verify --selection`: `--planner` starts a command per case, `--planner-worker` sends one
// request a case to one process (docs/conformance.md, "The planner worker protocol"). Exit status
// 2 of a command, or a worker's `"status": "error"`, is the planner's answer that selection fails.
#pragma once

#include "tools/diff/diff_drivers.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lo::diff {

class PlannerDriver {
public:
  /// Runs `s.plannerWorker` when given, else `s.planner`. Throws std::invalid_argument when the
  /// command cannot be split.
  explicit PlannerDriver(const DiffSettings &s);

  /// One case: the graph and profile are at their paths (and their texts are sent to a worker);
  /// the planner writes to `outPath` (or its standard output, a command without {out}). Throws
  /// Interrupted, and UsageError when the planner cannot start.
  Produced produce(const std::filesystem::path &graphPath, const std::filesystem::path &profilePath,
                   const std::filesystem::path &outPath, std::string_view graphText,
                   std::string_view profileText, Edition edition, std::size_t caseIndex,
                   system::Clock::time_point deadline);

  /// A refusal's words (`p.withoutOutput`): the worker's message, or the first line of the
  /// command's standard error.
  std::string refusal(const Produced &p) const;

  bool isWorker() const { return worker_.has_value(); }
  std::size_t starts() const;

private:
  const DiffSettings &s_;
  std::vector<std::string> template_;
  bool toStdout_ = false;
  std::optional<WorkerSession> worker_;
  std::size_t runs_ = 0;
};

} // namespace lo::diff
