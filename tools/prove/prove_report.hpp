// The report of `prove` (docs/spec.md §4.3 and §5.3): `--format text`, a table (obligation,
// status, bound, seconds) after the solver's line and the edition's; `--format json`, the document
// `lowering-oracle/proofs` with the edition proved, the solver that decided and one entry per
// obligation.
#pragma once

#include "proofs/obligations.hpp"
#include "ref/io/output.hpp"
#include "tools/system/solver_binary.hpp"

#include <optional>
#include <vector>

namespace lo::prove {

/// The table after the line `edition: E`; with `solver` (--solver cvc5), a line naming it first
/// (and its warning).
void writeProveText(io::Sink &out, const std::vector<proofs::Result> &results,
                    const proofs::Options &options,
                    const std::optional<system::SolverBinary> &solver);

/// The JSON document; `solver` nullopt: Z3 in process.
void writeProveJson(io::Sink &out, const std::vector<proofs::Result> &results,
                    const proofs::Options &options,
                    const std::optional<system::SolverBinary> &solver);

} // namespace lo::prove
