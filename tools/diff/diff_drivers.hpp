// `diff` (docs/spec.md §4.3; docs/conformance.md, "The runner"): the drivers of the implementation
// under test: `--impl` and `--gate`, one process per case, and `--worker` and `--gate-worker`, one
// process answering a JSON line per case (docs/conformance.md, "The worker protocol", "The gate
// worker protocol").
#pragma once

#include "ref/io/strict_json.hpp"
#include "tools/diff/diff_judge.hpp"
#include "tools/diff/diff_settings.hpp"
#include "tools/diff/progress_line.hpp"
#include "tools/system/deadline.hpp"
#include "tools/system/worker.hpp"

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace lo::diff {

/// A usage problem found while running (the command cannot start): exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What the implementation produced for one case: its output, or the failure that stands for it.
struct Produced {
  bool ok = false;
  /// when ok: an answer without output (ExitMeans::answer, or a worker's "error" under
  /// `errorIsAnswer`): a planner's "selection fails"
  bool withoutOutput = false;
  int exitCode = 0;   // when ok: the implementation's exit status (0 or, for a gate, 1)
  Outcome failure;    // when !ok
  std::string output; // when ok
  std::string standardError;
  std::string message; // a worker's answer without output: its "error" message
};

/// One case's files and request.
struct CaseFiles {
  std::size_t index = 0;
  std::string label;
  std::string planText;
  std::filesystem::path planPath, outPath;
};

class Implementation {
public:
  virtual ~Implementation() = default;
  virtual Produced produce(const CaseFiles &c, const Lowering &l,
                           system::Clock::time_point deadline) = 0;
  virtual std::size_t starts() const = 0;
};

/// What an exit status of a command run once per case means: its output to read, an answer
/// without output (a planner's "selection fails"), or a failure of the implementation.
enum class ExitMeans { output, answer, failure };

/// Runs `argv` once for a case (--impl, --gate, --planner), within `deadline` and the bounds of
/// `s`, and reads its output from `outPath` or, with `toStdout`, its standard output; `means`
/// says what each nonzero exit status is (0 is always an output); `who` names it in a failure
/// ("the implementation", "the planner"). Throws Interrupted, and UsageError when it cannot
/// start.
Produced runCase(const std::vector<std::string> &argv, const DiffSettings &s,
                 system::Clock::time_point deadline, bool toStdout,
                 const std::filesystem::path &outPath, const std::function<ExitMeans(int)> &means,
                 const std::string &who);

/// One worker process for a whole run (`--worker`, `--gate-worker`, `--planner-worker`): one
/// request line and one answer line per case, the answer read strictly (docs/conformance.md, "The
/// worker protocol"). Anything but an answer stops the worker; the next exchange starts it again.
class WorkerSession {
public:
  /// `outputWhat` names the inline output in a wrong answer ("a GraphLoweringPlan"); with
  /// `errorIsAnswer`, `"status": "error"` is an answer without output (with its message), not a
  /// failure.
  WorkerSession(const DiffSettings &s, std::string command, std::string outputWhat,
                bool errorIsAnswer);
  ~WorkerSession();
  WorkerSession(const WorkerSession &) = delete;
  WorkerSession &operator=(const WorkerSession &) = delete;

  /// Sends `{"id": N, FIELDS}` and reads the answer: the output inline or at `outPath`. Throws
  /// Interrupted, and UsageError when the worker cannot start.
  Produced exchange(std::string_view fields, const std::filesystem::path &outPath,
                    system::Clock::time_point deadline);
  std::size_t starts() const;

private:
  Produced answer(const std::string &line, std::uint64_t id, const std::filesystem::path &outPath,
                  std::string standardError);
  /// The fields of an answer, in the order of their bits: `id` and `status` always; `message`
  /// with "error", `output` (an object) with "done".
  static constexpr std::string_view kAnswerFields[] = {"status", "id", "output", "message"};
  static std::uint32_t readAnswer(io::JsonReader &r, const char *what,
                                  std::optional<std::uint64_t> &id, std::string_view &status,
                                  std::optional<std::string_view> &message,
                                  std::optional<std::string_view> &output);

  const DiffSettings &s_;
  std::string command_, outputWhat_;
  bool errorIsAnswer_ = false;
  system::Worker worker_;
  std::uint64_t requests_ = 0;
};

/// The driver `s` asks for: --worker, else --impl or --gate. Throws std::invalid_argument when the
/// command cannot be split.
std::unique_ptr<Implementation> makeImplementation(const DiffSettings &s);

} // namespace lo::diff
