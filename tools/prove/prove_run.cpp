#include "tools/prove/prove_run.hpp"

#include "ref/io/escape.hpp"
#include "ref/io/writer.hpp"
#include "tools/cli/command_io.hpp"
#include "tools/cli/diagnostic.hpp"
#include "tools/exit_codes.hpp"
#include "tools/prove/prove_report.hpp"
#include "tools/prove/smt2_emitter.hpp"
#include "tools/prove/solver_choice.hpp"
#include "tools/system/interrupt.hpp"

#include <memory>
#include <optional>
#include <stdexcept>

namespace lo::prove {

namespace {

/// The exit status of the results: a refutation is a finding, else an unknown is inconclusive.
int proveStatus(const std::vector<proofs::Result> &results) {
  for (const auto &r : results)
    if (r.status == proofs::Status::refuted)
      return cli::kFinding;
  for (const auto &r : results)
    if (r.status == proofs::Status::unknown)
      return cli::kInconclusive;
  return cli::kSuccess;
}

/// --emit-smt2 DIR, claimed before any query; refused (exit status 2) when DIR may not be used.
std::shared_ptr<Smt2Emitter> smt2Emitter(const std::string &dir) {
  try {
    return std::make_shared<Smt2Emitter>(dir);
  } catch (const std::exception &e) {
    throw std::runtime_error("prove: --emit-smt2 " + io::shownText(dir) + ": " +
                             io::shownText(e.what()));
  }
}

/// The one line of a failed cross-check (docs/proofs.md, "Trust base"): the solver, the query,
/// both answers.
std::string disagreementMessage(const system::SolverBinary &solver, const proofs::Result &r) {
  const auto answer = [](proofs::Status s) {
    return s == proofs::Status::proved ? std::string("unsat (proved)") : "sat (refuted)";
  };
  return "prove: --solver " + solver.name + ": " + io::shownText(solver.path) + " (version " +
         io::shownText(solver.version) + ") disagrees with Z3 on " + r.name +
         (r.everyLength ? " (for every length)" : " at length " + std::to_string(r.length)) + ": " +
         solver.name + " answered " + answer(r.disagreement->solver) + ", Z3 " +
         answer(r.disagreement->z3) +
         "; every answer is cross-checked with Z3, and a solver that contradicts it is refused: "
         "nothing claimed";
}

} // namespace

namespace {

/// `only` names the obligation, or a prefix of its name followed by a dot.
bool named(std::string_view name, const std::string &only) {
  return only.empty() || name == only ||
         (name.size() > only.size() && name.starts_with(only) && name[only.size()] == '.');
}

} // namespace

std::string obligationEditions(const proofs::Obligation &o) {
  std::string out;
  std::size_t count = 0;
  for (std::size_t i = 0; i < vocabularySize<Edition>(); ++i)
    if (const auto e = static_cast<Edition>(i); proofs::appliesIn(o, e)) {
      out += (out.empty() ? "" : ", ") + std::string(spelling(e));
      ++count;
    }
  return count == vocabularySize<Edition>() ? std::string() : out;
}

std::vector<const proofs::Obligation *> chosenObligations(const std::string &only,
                                                          Edition edition) {
  std::vector<const proofs::Obligation *> chosen;
  for (const auto *ob : proofs::obligationsOf(edition))
    if (named(ob->name, only))
      chosen.push_back(ob);
  if (!chosen.empty())
    return chosen;
  for (const auto &ob : proofs::obligations()) // another edition's (docs/spec.md §5.5)
    if (named(ob.name, only))
      throw std::runtime_error(
          "prove: " + std::string(ob.name) + " is not an obligation of edition " +
          std::string(spelling(edition)) + " (only of " + obligationEditions(ob) + ")");
  throw std::runtime_error("prove: no obligation named \"" + io::shownText(only) +
                           "\" (see prove --help)");
}

int runProve(const ProveSettings &s) {
  proofs::Options options;
  options.edition = s.edition;
  options.bound = s.bound;
  options.equality = s.equality;
  options.timeoutMs = s.timeoutMs;
  const std::vector<const proofs::Obligation *> chosen = chosenObligations(s.only, s.edition);
  const std::optional<system::SolverBinary> solver = chooseSolver(s.solver, options);
  if (solver && !solver->warning.empty())
    cli::printDiagnostic("prove: warning: " + solver->warning);
  std::shared_ptr<Smt2Emitter> emitter;
  if (!s.emitSmt2.empty()) {
    emitter = smt2Emitter(s.emitSmt2);
    options.emit = [emitter](const proofs::EmittedQuery &q) { (*emitter)(q); };
  }
  Interner interner;
  std::vector<proofs::Result> results;
  std::optional<std::pair<std::string, GraphExecutionPlan>> counterexample;
  for (const auto *ob : chosen) {
    results.push_back(proofs::discharge(*ob, options, &interner));
    if (system::InterruptGuard::received()) // cvc5 stopped (tools/cmd_prove.cpp): no more
      throw cli::InterruptedRun(
          "prove: interrupted by a signal: the solver stopped, nothing concluded");
    auto &r = results.back();
    if (r.disagreement) // the cross-check failed: no answer of that solver is believed
      throw std::runtime_error(disagreementMessage(*solver, r));
    if (r.counterexample && !counterexample)
      counterexample.emplace(r.name, std::move(*r.counterexample));
  }
  if (emitter)
    emitter->writeManifest(options);
  if (!s.counterexampleOut.empty()) {
    if (counterexample) {
      cli::writeOutput(s.counterexampleOut, [&](io::Sink &sink) {
        io::writeExecutionPlan(sink, interner, counterexample->second, s.edition);
      });
      cli::printDiagnostic("prove: counterexample to " + counterexample->first + " (" +
                           std::to_string(counterexample->second.kernels.size()) +
                           " nodes, edition " + std::string(spelling(s.edition)) + ") written to " +
                           io::shownText(s.counterexampleOut));
    } else {
      cli::printDiagnostic("prove: no obligation was refuted; " +
                           io::shownText(s.counterexampleOut) + " not written");
    }
  }
  cli::writeOutput("-", [&](io::Sink &sink) {
    if (s.format == ProveSettings::Format::json)
      writeProveJson(sink, results, options, solver);
    else
      writeProveText(sink, results, options, solver);
  });
  return proveStatus(results);
}

} // namespace lo::prove
