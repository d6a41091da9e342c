#include "tools/prove/solver_choice.hpp"

#include "ref/io/limits.hpp"
#include "tools/system/spawn.hpp"

#include <chrono>

namespace lo::prove {

namespace {

/// `prove --solver cvc5`: the cvc5 binary at `solver` (found on PATH and self-tested) on each
/// query, written to a temporary file that is always removed, with the `--timeout-ms` timeout
/// (cvc5's own --tlimit, and a kill after it).
proofs::Status runCvc5(const std::string &solver, const proofs::Smt2 &query, unsigned timeoutMs,
                       std::string &reason) {
  const auto timeout = std::chrono::milliseconds(timeoutMs);
  const system::SolverRun run = runSolver(
      solver, query.text, {"--tlimit=" + std::to_string(timeoutMs)},
      system::Options{
          .timeout = timeout + std::chrono::seconds(2), .captureStdout = true, .maxCapture = 4096});
  if (!run.why.empty()) {
    reason = run.why;
    return proofs::Status::unknown;
  }
  const bool exited = run.result.status == system::Result::Status::exited;
  if (exited && run.answer == "unsat")
    return proofs::Status::proved;
  if (exited && run.answer == "sat")
    return proofs::Status::refuted;
  reason = "cvc5: " + (run.answer.empty() ? system::describe(run.result, timeout)
                                          : run.answer.substr(0, io::kMaxEchoBytes));
  return proofs::Status::unknown;
}

} // namespace

std::optional<system::SolverBinary> chooseSolver(const std::string &name,
                                                 proofs::Options &options) {
  if (name != "cvc5")
    return std::nullopt;
  // The trust base (docs/proofs.md): the binary is named, its version asked, and it must pass a
  // self-test before any of its answers is believed; then that very file runs.
  system::SolverBinary solver =
      system::trustedCvc5(std::chrono::milliseconds(options.timeoutMs) + std::chrono::seconds(2));
  options.solver = [timeoutMs = options.timeoutMs, path = solver.path](const proofs::Smt2 &q,
                                                                       std::string &reason) {
    return runCvc5(path, q, timeoutMs, reason);
  };
  return solver;
}

} // namespace lo::prove
