// `prove --solver z3|cvc5` (docs/spec.md §4.3; docs/proofs.md, "Trust base"): which solver decides
// each query. Z3 decides in process; cvc5 is the binary on PATH, trusted only once it is named by
// its resolved path and version and passes a self-test (tools/system/solver_binary.hpp), then run
// on each query as an SMT-LIB 2 file (a counterexample is still Z3's model).
#pragma once

#include "proofs/obligations.hpp"
#include "tools/system/solver_binary.hpp"

#include <optional>
#include <string>

namespace lo::prove {

/// The solver `name` ("z3" or "cvc5") for `options`: z3 leaves `options.solver` unset and gives
/// nullopt; cvc5 gives the trusted binary (self-tested within options.timeoutMs and 2 s; else
/// std::runtime_error, exit status 2) and sets `options.solver` to run it on each query with
/// options.timeoutMs (cvc5's own --tlimit, and a kill after it).
std::optional<system::SolverBinary> chooseSolver(const std::string &name, proofs::Options &options);

} // namespace lo::prove
