#include "proofs/smt.hpp"

namespace lo::proofs {

std::string_view spelling(Status s) {
  switch (s) {
  case Status::proved: return "proved";
  case Status::refuted: return "refuted";
  case Status::unknown: return "unknown";
  }
  return "unknown";
}

Solver::Solver(z3::context &ctx, unsigned timeoutMs) : solver_(ctx) {
  z3::params p(ctx);
  p.set("timeout", timeoutMs);
  solver_.set(p);
}

Status Solver::prove(const z3::expr &goal) {
  model_.reset();
  reason_.clear();
  solver_.push();
  solver_.add(!goal);
  Status status = Status::unknown;
  try {
    switch (solver_.check()) {
    case z3::unsat: status = Status::proved; break;
    case z3::sat:
      status = Status::refuted;
      model_.emplace(solver_.get_model());
      break;
    case z3::unknown: reason_ = solver_.reason_unknown(); break;
    }
  } catch (const z3::exception &e) {
    reason_ = e.msg();
  }
  solver_.pop();
  return status;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace lo::proofs
