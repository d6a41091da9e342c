// A thin RAII layer over the Z3 C++ API (z3++.h), in the style of Alive2's smt/ layer: one
// context per proof run, one solver per query with a timeout on every call, and the result of a
// check read as proved (the negated goal is unsatisfiable), refuted (a model exists) or unknown.
#pragma once

#include <z3++.h>

#include <chrono>
#include <optional>
#include <string>

namespace lo::proofs {

/// The outcome of discharging one query.
enum class Status { proved, refuted, unknown };

std::string_view spelling(Status s);

/// "every solver call has a timeout": a solver whose checks stop after `timeoutMs` milliseconds.
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

/// Seconds since `start`, for the table of `prove`.
double secondsSince(std::chrono::steady_clock::time_point start);

} // namespace lo::proofs
