// The acceptance obligations (docs/spec.md §5.5): in an edition whose gate is upstream's
// `acceptGraphKernelPlan` (§6.10), coalescing under contract equality changes neither the verdict
// nor any failure, for every `KernelPolicy` at once.
//
// `acceptanceFailures` of ref/acceptance.cpp is encoded test by test, in upstream's order: each
// test is whether it fails and the data of the failure it reports (the fields that kind carries:
// the planned op, the capsule's name, and the trust level, provider, device, VJP mode, capsule op
// or contract its message shows). Two failures are equal when their kinds and data are; an
// encoded contract stands for its whole descriptor (finer than the claim and evidence a failure
// shows, so equal sets of failures under the finer equality are equal under the real one). An
// evidence test reads the contract's disposition as the gate obligations do (proofs/gate.hpp:
// the value mod the number of the edition's dispositions), and `contractsAligned` is an
// uninterpreted predicate of the capsule's fields that alignment reads: a proof holds for every
// such predicate, the real one among them.
#pragma once

#include "proofs/obligations.hpp"
#include "ref/acceptance.hpp"

#include <vector>

namespace lo::proofs {

/// `KernelPolicy`, symbolic: `preference` is the provider preference's kind (the index of
/// `ProviderPreference::Kind`) and `provider` its provider.
struct SymbolicKernelPolicy {
  z3::expr device, preference, provider, allowTrustedExternal, vjpMode;
};

SymbolicKernelPolicy freshKernelPolicy(z3::context &ctx, const std::string &prefix = "policy");
/// A policy of fixed values.
SymbolicKernelPolicy constantKernelPolicy(z3::context &ctx, const acceptance::KernelPolicy &p);
/// The policy's fields hold values of the encoder's edition.
z3::expr wellFormed(const Encoder &e, const SymbolicKernelPolicy &p);

/// `KernelCapsule.contractsAligned`: the uninterpreted predicate `contractsAligned` of the
/// capsule's op, VJP mode and four contracts.
z3::expr contractsAligned(const Capsule &c);
/// Its declaration (the differential test fixes it to the code's value at each capsule).
z3::func_decl contractsAlignedDecl(z3::context &ctx);

/// One test of `acceptanceFailures`: its kind (an `evidenceRejected` test per obligation), whether
/// it fails, and the failure's data.
struct EncodedFailure {
  AcceptanceFailureKind kind;
  z3::expr fails;
  std::vector<z3::expr> data;
};

/// The number of tests: one per kind, `evidenceRejected` once per obligation.
inline constexpr std::size_t kAcceptanceTests = vocabularySize<AcceptanceFailureKind>() - 1 + 4;

/// `PlannedKernel.acceptanceFailures policy {op, capsule}`: the eleven tests in upstream's order
/// (seven kinds, then `evidenceRejected` for shape, layout, value and vjp).
std::vector<EncodedFailure> acceptanceFailures(const Encoder &e, const SymbolicKernelPolicy &p,
                                               const z3::expr &op, const Capsule &c);

/// `coalesced.acceptance` and `step.acceptance`, in the order `prove` lists them.
std::vector<Obligation> acceptanceObligations();

} // namespace lo::proofs
