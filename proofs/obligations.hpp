// The obligations of docs/spec.md §5, one named obligation per function, and their discharge.
//
// A bounded obligation is a statement about every valid plan of length n, checked for every n
// from 0 to the bound (one solver call per length, each with the timeout). A `step.*` lemma is a
// statement about one `pushKernel` step from an arbitrary fold state: with the (trivial) empty
// initial state it is an inductive proof of a fold invariant for every length.
#pragma once

#include "proofs/encoding.hpp"
#include "ref/ir.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lo::proofs {

/// What one solver call decides: valid(hypothesis) => goal.
struct Query {
  z3::expr hypothesis;
  z3::expr goal;
  /// The symbolic plan, when a model of the refutation should be written as a plan.
  std::optional<Plan> plan;
  /// Parts of the goal whose refutation makes a more telling counterexample: tried first.
  std::vector<z3::expr> preferred;
};

/// What an obligation's statement needs of the edition (docs/spec.md §1.6, `EditionRules`).
enum class Needs : std::uint8_t {
  nothing,           // every edition
  singletonLowering, // the edition has the singleton lowering
  groupKinds,        // its groups carry `kinds` and `groupingKind`
  noGroupKinds,      // its groups are {nodeIds, op, capsule}
  evidenceGate,      // its gate is the evidence gate (docs/spec.md §6.1-§6.9)
  acceptanceGate,    // its gate is upstream's `acceptGraphKernelPlan` (docs/spec.md §6.10)
  selection,         // it has upstream's planner (docs/spec.md §10)
};

struct Obligation {
  std::string_view name;
  std::string_view statement; // one sentence of mathematics (docs/proofs.md, prove --help)
  bool everyLength;           // a step lemma: proved for every length by induction
  std::function<Query(Encoder &e, std::size_t n)> build;
  Needs needs = Needs::nothing;
};

/// Whether `o` is an obligation of edition `e` (its `needs`, read from `rulesOf(e)`).
bool appliesIn(const Obligation &o, Edition e);

/// Every obligation of every edition, in the order `prove` lists them.
const std::vector<Obligation> &obligations();
/// The obligations of edition `e`, in that order.
std::vector<const Obligation *> obligationsOf(Edition e);
const Obligation *findObligation(std::string_view name);

/// Cross-checks that `prove` does not run: the bounded statements of `singleton.unique` and
/// `coalesced.unique` (every plan of length <= N, every candidate of N slots, the checks exactly as
/// spec_checks.hpp states them), which the tests run at small bounds against the induction.
const std::vector<Obligation> &crossChecks();

/// One solver call of a discharge as an SMT-LIB 2 script (prove --emit-smt2), with Z3's answer.
struct EmittedQuery {
  std::string_view obligation;
  bool everyLength = false; // a step lemma: one query for every length
  std::size_t length = 0;   // otherwise the plan length
  Smt2 smt2;                // valid(hypothesis) and not(goal): unsat means proved
  Status z3 = Status::unknown;
  double z3Seconds = 0;
};

struct Options {
  /// The edition proved (docs/spec.md §1.6): the vocabularies' values the plans hold, and the
  /// dispositions the gate obligations range over.
  Edition edition = kNewestEdition;
  std::size_t bound = 8;
  /// The smallest length checked (the sabotage matrix starts at the length of its
  /// counterexamples).
  std::size_t minLength = 0;
  Equality equality = Equality::contract;
  unsigned timeoutMs = 20000;
  Sabotage sabotage = Sabotage::none;
  /// The selection obligations' (proofs/selection.hpp).
  SelectionSabotage selectionSabotage{};
  /// When set, called with every query discharged, as an SMT-LIB 2 script and Z3's answer.
  std::function<void(const EmittedQuery &)> emit = nullptr;
  /// When set, another solver decides each query, and Z3 decides it too (docs/proofs.md, "Trust
  /// base": every answer cross-checked): the solver gets the SMT-LIB 2 script and answers proved
  /// (unsat), refuted (sat) or unknown (with a reason). A query is proved only when both say
  /// unsat, refuted only when both say sat; opposite answers are a Result::disagreement. A
  /// counterexample is Z3's model of the refuted query.
  std::function<Status(const Smt2 &, std::string &reason)> solver = nullptr;
};

/// Opposite answers of the solver of Options::solver and of Z3 on one query.
struct Disagreement {
  Status solver = Status::unknown; // proved (unsat) or refuted (sat)
  Status z3 = Status::unknown;     // the other one
};

struct Result {
  std::string name;
  Status status = Status::unknown;
  bool everyLength = false;
  /// proved: the bound; refuted or unknown: the length at which it happened.
  std::size_t length = 0;
  double seconds = 0;
  std::string reason; // why unknown
  /// Set when Options::solver and Z3 gave opposite answers at `length` (status unknown): neither
  /// answer is believed.
  std::optional<Disagreement> disagreement;
  /// For a refuted bounded obligation with `interner` given: the counterexample plan.
  std::optional<GraphExecutionPlan> counterexample;
};

/// Discharges `o` in `options.edition` (one of its editions: std::logic_error otherwise) for every
/// length 0..options.bound (or once, for a step
/// lemma). When refuted and `interner` is not null, the model is turned into a plan of that
/// edition whose capsules and kinds live there.
Result discharge(const Obligation &o, const Options &options, Interner *interner = nullptr);

} // namespace lo::proofs
