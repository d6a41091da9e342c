#include "proofs/smt.hpp"

#include <cctype>
#include <cstring>
#include <unordered_set>

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

namespace {

/// What a term uses, for its logic: one walk over the DAG (each node once).
struct Features {
  bool uf = false, seq = false;
  std::unordered_set<unsigned> seen;
  void walk(const z3::expr &e) {
    if (!seen.insert(e.id()).second)
      return;
    if (e.get_sort().is_seq())
      seq = true;
    if (e.is_app()) {
      const z3::func_decl f = e.decl();
      if (f.decl_kind() == Z3_OP_UNINTERPRETED && f.arity() > 0)
        uf = true;
      for (unsigned i = 0; i < e.num_args(); ++i)
        walk(e.arg(i));
    }
  }
};

/// Z3 4.8.12 prints an empty conjunction as a bare `and` (and an empty disjunction as `or`), which
/// is not SMT-LIB: cvc5 rejects it ("Symbol and is not declared"). A bare `and` or `or` (one not
/// in function position, right after an opening parenthesis) is written `true` or `false`.
std::string nullaryConnectives(const std::string &text) {
  std::string out;
  out.reserve(text.size());
  auto isSymbolChar = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("~!@$%^&*_-+=<>.?/", c);
  };
  char previous = ' '; // last character that is not white space
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == ';') { // a comment, to the end of the line
      const std::size_t end = text.find('\n', i);
      const std::size_t stop = end == std::string::npos ? text.size() : end;
      out.append(text, i, stop - i);
      i = stop;
      continue;
    }
    if (c == '|') { // a quoted symbol
      const std::size_t end = text.find('|', i + 1);
      const std::size_t stop = end == std::string::npos ? text.size() : end + 1;
      out.append(text, i, stop - i);
      i = stop;
      previous = '|';
      continue;
    }
    if (isSymbolChar(c)) {
      std::size_t j = i;
      while (j < text.size() && isSymbolChar(text[j]))
        ++j;
      const std::string_view token(text.data() + i, j - i);
      if (previous != '(' && token == "and")
        out += "true";
      else if (previous != '(' && token == "or")
        out += "false";
      else
        out.append(token);
      previous = text[j - 1];
      i = j;
      continue;
    }
    out += c;
    if (!std::isspace(static_cast<unsigned char>(c)))
      previous = c;
    ++i;
  }
  return out;
}

} // namespace

std::string smtLogic(const std::vector<z3::expr> &facts) {
  Features f;
  for (const z3::expr &e : facts)
    f.walk(e);
  return std::string("QF_") + (f.uf ? "UF" : "") + (f.seq ? "S" : "") + "LIA";
}

Smt2 smtLib2(z3::context &ctx, const std::vector<z3::expr> &facts) {
  Smt2 out{smtLogic(facts), {}};
  // Z3_benchmark_to_smtlib_string writes `(set-logic ...)`, the declarations, the assumptions
  // and the last formula as asserts, and `(check-sat)`.
  std::vector<Z3_ast> assumptions;
  for (std::size_t i = 0; i + 1 < facts.size(); ++i)
    assumptions.push_back(facts[i]);
  const z3::expr last = facts.empty() ? ctx.bool_val(true) : facts.back();
  out.text = Z3_benchmark_to_smtlib_string(
      ctx, "lowering-oracle proof obligation", out.logic.c_str(), "unknown", "",
      static_cast<unsigned>(assumptions.size()), assumptions.data(), last);
  ctx.check_error();
  out.text = nullaryConnectives(out.text);
  return out;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace lo::proofs
