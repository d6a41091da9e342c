// The gate obligations (docs/spec.md §5.4 and §6.7): coalescing preserves the acceptance gate, for
// every assurance policy at once.
//
// A report of audit row r for obligation o is the tuple (r.op, r.capsuleName, o, r.contract_o):
// an encoded contract value stands for its whole descriptor, so two reports are equal only when
// their descriptors are (a finer equality than the claim and evidence the real report shows;
// equal sets under the finer equality are equal under the coarser one, so a proof carries over).
// The evidence's disposition is the contract value mod the number of the edition's dispositions,
// an index into `valuesOf<EvidenceDisposition>(edition)` (ref/edition.hpp; 2026-07: proved,
// checked, guarded, tested, fuzzed, trusted, missing; 2026-08: guarded, tested, fuzzed, trusted,
// missing, notApplicable), which is how a counterexample's contracts are written back as evidence
// (proofs/counterexample.cpp). The six policy booleans are free: one proof covers every policy.
#pragma once

#include "proofs/obligations.hpp"
#include "ref/gate.hpp"

#include <vector>

namespace lo::proofs {

/// The six booleans of `AssurancePolicy`, symbolic.
struct SymbolicPolicy {
  z3::expr allowChecked, allowFuzzed, allowTrustedExternal, requireEvidence, allowRuntimeGuards,
      allowTestEvidence;
};

SymbolicPolicy freshPolicy(z3::context &ctx, const std::string &prefix = "policy");

/// The dispositions of an edition, in the order an encoded contract's value indexes them.
std::vector<EvidenceDisposition> dispositionsOf(Edition edition);

/// The index of an encoded contract's disposition in `dispositionsOf(edition)`: its value mod
/// their number.
z3::expr disposition(const z3::expr &contract, Edition edition);

/// A policy of fixed values (a preset), as the encoding's symbolic policy.
SymbolicPolicy constantPolicy(z3::context &ctx, const AssurancePolicy &policy);

/// The encoded gate of a lowering's audit rows under a policy, the terms the gate obligations are
/// built from: whether a failure of each kind is present (in `GateFailureKind` order) and the
/// verdict. The test that drives the encoding with concrete values evaluates them and compares
/// them with ref/gate.cpp (docs/proofs.md, "The encoding is the code").
struct EncodedGate {
  std::vector<z3::expr> present;
  z3::expr accepted;
};
EncodedGate encodedGate(const Encoder &e, const Lowering &l, const Plan &p,
                        const SymbolicPolicy &policy);

/// `singleton.gate`, `coalesced.gate` and `step.gate`, in the order `prove` lists them.
std::vector<Obligation> gateObligations();

} // namespace lo::proofs
