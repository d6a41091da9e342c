// A thin RAII layer over the Z3 C++ API (z3++.h), in the style of Alive2's smt/ layer: one
// context per proof run, one solver per query with a timeout on every call, and the result of a
// check read as proved (the negated goal is unsatisfiable), refuted (a model exists) or unknown.
#pragma once

#include <z3++.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace lo::proofs {

/// The outcome of discharging one query.
enum class Status { proved, refuted, unknown };

std::string_view spelling(Status s);

/// A solver whose every check stops after `timeoutMs` milliseconds (docs/spec.md §4.3, "prove").
class Solver {
public:
  Solver(z3::context &ctx, unsigned timeoutMs);

  void add(const z3::expr &e) { solver_.add(e); }

  /// Checks the asserted facts together with the negation of `goal`: proved when no model exists.
  Status prove(const z3::expr &goal);

  /// The model of the last `prove` that returned refuted.
  const std::optional<z3::model> &model() const { return model_; }
  /// Z3's reason for the last unknown ("timeout", "canceled", ...), empty otherwise.
  const std::string &reason() const { return reason_; }

private:
  z3::solver solver_;
  std::optional<z3::model> model_;
  std::string reason_;
};

/// A query as a self-contained SMT-LIB 2 script for any solver: `(set-logic LOGIC)`, the
/// declarations, one `(assert ...)` per fact, `(check-sat)`. Unsat means the query's goal holds.
struct Smt2 {
  std::string logic; // the smallest SMT-LIB logic the facts need (smtLogic)
  std::string text;
};
Smt2 smtLib2(z3::context &ctx, const std::vector<z3::expr> &facts);

/// The SMT-LIB logic of a set of facts: QF_ (no quantifier is ever built), UF when an
/// uninterpreted function is applied, S when a sequence occurs (SMT-LIB's strings-and-sequences
/// extension, as cvc5 names it), LIA (integer linear arithmetic, always).
std::string smtLogic(const std::vector<z3::expr> &facts);

/// Seconds since `start`, for the table of `prove`.
double secondsSince(std::chrono::steady_clock::time_point start);

} // namespace lo::proofs
