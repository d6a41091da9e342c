// The run of `prove` (docs/spec.md §4.3 and §5): the obligations of the edition
// --edition names (docs/spec.md §1.6; default kNewestEdition) that --only names, the
// solver --solver chooses (solver_choice.hpp), the queries --emit-smt2 writes (smt2_emitter.hpp),
// the first counterexample to --counterexample-out, the report on standard output
// (prove_report.hpp).
#pragma once

#include "proofs/obligations.hpp"
#include "ref/edition.hpp"
#include "ref/vocab.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace lo::prove {

/// prove's options (its --help). The default bound 8 is the whole suite in under 60 s
/// (docs/performance.md).
struct ProveSettings {
  Edition edition = kNewestEdition;       // --edition
  std::size_t bound = 8;                  // --bound
  Equality equality = Equality::contract; // --equality
  enum class Format { text, json } format = Format::text;
  std::string counterexampleOut; // --counterexample-out FILE; empty: none
  std::string only;              // --only NAME; empty: every obligation
  std::string emitSmt2;          // --emit-smt2 DIR; empty: none
  std::string solver = "z3";     // --solver z3|cvc5
  unsigned timeoutMs = 20000;    // --timeout-ms, each solver call
};

/// The editions that have obligation `o`, spelled for a message; "" when every edition has it.
std::string obligationEditions(const proofs::Obligation &o);

/// The obligations of `edition` that `--only NAME` names: the one of that name and every one whose
/// name starts with NAME followed by a dot (`--only step`); every one when `only` is empty. Throws
/// std::runtime_error when there is none, naming the editions of another edition's obligation.
std::vector<const proofs::Obligation *> chosenObligations(const std::string &only, Edition edition);

/// Discharges the obligations of `s` and prints the report on standard output; a cvc5 warning
/// and the counterexample's fate are lines on standard error (printDiagnostic). Returns kSuccess
/// when all are proved, kFinding when one is refuted, else kInconclusive when one is unknown.
/// Throws std::runtime_error (exit status 2) when --only names no obligation, --emit-smt2's
/// directory may not be used, or cvc5 is missing or fails its self-test.
int runProve(const ProveSettings &s);

} // namespace lo::prove
