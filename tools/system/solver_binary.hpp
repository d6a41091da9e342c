// An external SMT solver binary that `prove --solver cvc5` trusts with its verdicts
// (docs/proofs.md, "Trust base"): found once on PATH and named by its resolved absolute path (every
// query then runs that very file), its version asked (`--version`), and a self-test that it answers
// a trivially satisfiable and a trivially unsatisfiable query correctly before any of its answers
// is believed.
#pragma once

#include "tools/system/spawn.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lo::system {

/// The cvc5 version the trust base names (Debian 12's package, the one CI makes agree with Z3 on
/// every query): another version is run, but warned about.
inline constexpr std::string_view kDocumentedCvc5Version = "1.0.3";

/// A solver binary that passed its self-test.
struct SolverBinary {
  std::string name;    // "cvc5"
  std::string path;    // resolved absolute path (symbolic links followed)
  std::string version; // "1.0.3", from `PATH --version`; "unknown" when it does not say
  /// Empty, or why the version is not trusted as documented ("cvc5 version 1.2.0 is not the
  /// documented 1.0.3 ...").
  std::string warning;
};

/// The absolute path of `program` as execvp would find it on `pathVariable` (PATH's value), with
/// symbolic links resolved; nullopt when there is none.
std::optional<std::string> findOnPath(std::string_view program, std::string_view pathVariable);

/// The version in cvc5's `--version` text ("This is cvc5 version 1.0.3 ..."): the word after
/// "version", or nullopt.
std::optional<std::string> cvc5Version(std::string_view versionText);

/// One run of the solver at `path` on `query`: the query written whole to a temporary `.smt2`
/// file (always removed), then `path ARGS... FILE` run with `options`.
struct SolverRun {
  std::string why;       // non-empty: no run, the temporary file could not be made or written
  system::Result result; // otherwise: the run
  std::string answer;    // its standard output without trailing white space
};
SolverRun runSolver(const std::string &path, std::string_view query,
                    const std::vector<std::string> &args, const system::Options &options);

/// The self-test's two queries for `key` (docs/proofs.md, "Trust base"): `sat` asserts x = a,
/// `unsat` asserts x = a and x = b (a != b), with the variable's name and a and b drawn from
/// `key`, so that no fixed text answers them. trustedCvc5 draws a key per process.
struct SelfTest {
  std::string sat, unsat;
};
SelfTest selfTestQueries(std::uint64_t key);

/// Finds cvc5 on PATH, asks its version and self-tests it (a sat and an unsat query, each within
/// `timeout`). Throws std::runtime_error, one line, when it is missing or fails its self-test: a
/// solver that does not answer those two correctly is refused, none of its answers believed.
SolverBinary trustedCvc5(std::chrono::milliseconds timeout);

} // namespace lo::system
