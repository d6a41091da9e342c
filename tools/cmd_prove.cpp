// The `prove` command (docs/spec.md §4.3, "prove", and §5; its options are in its --help). The
// command's options only: the run lives in tools/prove (prove_run: the run; solver_choice:
// --solver; smt2_emitter: --emit-smt2; prove_report: the report).
#include "proofs/obligations.hpp"
#include "tools/cli/options.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"
#include "tools/prove/prove_run.hpp"
#include "tools/system/interrupt.hpp"
#include "tools/system/solver_binary.hpp"

#include <csignal>

#include <memory>

namespace lo::cli {

Action setupProve(CLI::App &app) {
  auto o = std::make_shared<prove::ProveSettings>();
  auto *sub = app.add_subcommand(
      "prove", "Discharge the Z3 obligations of the reference lowering for every plan up to a "
               "bound, and the step lemmas for every length.");
  addNatural(*sub, "--bound", o->bound, 0, 64,
             "largest plan length checked (default 8: the whole suite in under 60 s)");
  addEqualityOption(*sub, o->equality);
  addEditionOption(*sub, o->edition,
                   "the newest; each edition has its own obligations (docs/spec.md §5.5)");
  addNatural(*sub, "--timeout-ms", o->timeoutMs, 1, 3600000,
             "timeout of each solver call, in milliseconds");
  using Format = prove::ProveSettings::Format;
  sub->add_option("--format", o->format, "text: a table; json: a document")
      ->type_name("TEXT")
      ->transform(spellingsOf<Format>({{"text", Format::text}, {"json", Format::json}}))
      ->default_str("text");
  sub->add_option("--counterexample-out", o->counterexampleOut,
                  "write the first refuted obligation's counterexample as a GraphExecutionPlan")
      ->type_name("FILE");
  sub->add_option("--only", o->only,
                  "discharge only this obligation (or every obligation whose name starts with "
                  "NAME followed by a dot, e.g. --only step)")
      ->type_name("NAME");
  sub->add_option("--emit-smt2", o->emitSmt2,
                  "also write every query as a self-contained SMT-LIB 2 file in this directory "
                  "(OBLIGATION.nLENGTH.smt2, OBLIGATION.all.smt2 for a step lemma; unsat means "
                  "proved) and a manifest.json with Z3's answer to each")
      ->type_name("DIR");
  sub->add_option("--solver", o->solver,
                  "z3 (default, in process) or cvc5 (the cvc5 binary on PATH, run on each query "
                  "as an SMT-LIB 2 file with the timeout; a counterexample is still Z3's model). "
                  "cvc5 is named in the report by its resolved path and version, must answer a "
                  "trivially sat and a trivially unsat query correctly first (else exit 2), and "
                  "is warned about when it is not the documented version " +
                      std::string(system::kDocumentedCvc5Version))
      ->check(CLI::IsMember({"z3", "cvc5"}))
      ->default_str("z3");
  std::string names = "Obligations (of every edition unless their editions are named; "
                      "docs/spec.md §5.5):";
  for (const auto &ob : proofs::obligations()) {
    const std::string editions = prove::obligationEditions(ob);
    names += "\n  " + std::string(ob.name) + (editions.empty() ? "" : "  (" + editions + ")");
  }
  sub->footer(
      names +
      "\nExit status: 0 all proved, 1 one refuted, 3 one unknown or timed out, or interrupted.");
  return [o] {
    if (o->solver != "cvc5") // Z3 runs in process: an interrupt ends it as usual
      return runProve(*o);
    // cvc5 runs in a process group of its own: an interrupt stops it (tools/system/interrupt.hpp),
    // and the run is inconclusive (docs/spec.md §4.4).
    int code = 0, signal = 0;
    {
      system::InterruptGuard guard;
      try {
        code = runProve(*o);
      } catch (...) {
        if (system::InterruptGuard::received() == 0)
          throw;
      }
      signal = system::InterruptGuard::received();
    }
    if (signal != 0)
      throw InterruptedRun(std::string("prove: interrupted by ") +
                           (signal == SIGTERM ? "SIGTERM" : "SIGINT") +
                           ": the solver stopped, nothing concluded");
    return code;
  };
}

} // namespace lo::cli
