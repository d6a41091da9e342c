// Shared test fixtures of the checks suite: a small capsule alphabet (with identity-equal,
// contract-different capsules), a hand-made plan over it, reference documents, and a seeded
// random plan generator.
#pragma once

#include "checks/catalogue.hpp"
#include "checks/checks.hpp"

#include <random>
#include <set>
#include <string>

namespace lo::checks::testing {

struct Alphabet {
  CapsuleId R;  // reference.relu, verified
  CapsuleId Rx; // reference.relu, trusted-external: same identity as R, a different contract
  CapsuleId C;  // cudnn.relu: same op as R, another identity
  CapsuleId T;  // reference.tanh
  CapsuleId S;  // reference.reshape
  CapsuleId X;  // vendor.relu, trusted-external, another identity
  KindId relu, tanh, reshape, flatten;
};

inline Alphabet alphabet(Interner &in) {
  Alphabet a;
  a.R = in.intern(sampleCapsule("reference.relu", BackendOp::relu));
  a.Rx = in.intern(sampleCapsule("reference.relu", BackendOp::relu, TrustLevel::trusted_external));
  a.C = in.intern(sampleCapsule("cudnn.relu", BackendOp::relu, TrustLevel::checked, Provider::cudnn,
                                Device::cuda));
  a.T = in.intern(sampleCapsule("reference.tanh", BackendOp::tanh));
  a.S = in.intern(sampleCapsule("reference.reshape", BackendOp::reshape));
  a.X = in.intern(sampleCapsule("vendor.relu", BackendOp::relu, TrustLevel::trusted_external,
                                Provider::external, Device::external));
  a.relu = Interner::bareKind(KindTag::relu);
  a.tanh = Interner::bareKind(KindTag::tanh);
  a.reshape = in.intern(OpKind{KindTag::reshape, {{2, 3}, {6}}});
  a.flatten = in.intern(OpKind{KindTag::flatten, {{2, 3}}});
  return a;
}

/// Nodes 1..9: 1 R, 2 R, 3 Rx, 4 C, 5 T, 6 S (reshape), 7 S (flatten), 8 R, 9 X.
/// coalesced/contract: [1,2] [3] [4] [5] [6,7] [8] [9]
/// coalesced/identity: [1,2,3] [4] [5] [6,7] [8] [9]
inline GraphExecutionPlan basePlan(const Alphabet &a) {
  GraphExecutionPlan p;
  p.kernels = {{1, a.relu, BackendOp::relu, a.R},       {2, a.relu, BackendOp::relu, a.R},
               {3, a.relu, BackendOp::relu, a.Rx},      {4, a.relu, BackendOp::relu, a.C},
               {5, a.tanh, BackendOp::tanh, a.T},       {6, a.reshape, BackendOp::reshape, a.S},
               {7, a.flatten, BackendOp::reshape, a.S}, {8, a.relu, BackendOp::relu, a.R},
               {9, a.relu, BackendOp::relu, a.X}};
  return p;
}

/// The reference output of `plan` as a candidate document (with its audit when asked).
inline io::LoweringDocument referenceDocument(Interner &in, const GraphExecutionPlan &plan,
                                              Mode mode, Equality equality, bool withAudit) {
  io::LoweringDocument d;
  d.mode = mode;
  d.equality = equality;
  d.plan = lower(in, plan, mode, equality);
  if (withAudit)
    d.audit = toDocument(in, audit(in, d.plan));
  return d;
}

inline std::set<Check> checksOf(const Report &r) {
  std::set<Check> out;
  for (const auto &v : r.violations)
    out.insert(v.check);
  for (const auto &[c, n] : r.omitted)
    out.insert(c);
  return out;
}

inline std::string describe(const Report &r) {
  std::string out;
  for (const auto &v : r.violations)
    out += std::string(spelling(v.check)) + " " + v.pointer + ": " + v.message + "\n";
  for (const auto &n : r.notes)
    out += "note: " + n + "\n";
  return out.empty() ? "(no violations)" : out;
}

/// A random valid plan: `n` nodes over the alphabet, in runs (so coalescing happens), with
/// distinct ids, dense or sparse.
inline GraphExecutionPlan randomPlan(const Alphabet &a, std::mt19937_64 &rng, std::size_t n) {
  struct Choice {
    KindId kind;
    BackendOp op;
    CapsuleId capsule;
  };
  const Choice choices[] = {
      {a.relu, BackendOp::relu, a.R},       {a.relu, BackendOp::relu, a.Rx},
      {a.relu, BackendOp::relu, a.C},       {a.tanh, BackendOp::tanh, a.T},
      {a.reshape, BackendOp::reshape, a.S}, {a.flatten, BackendOp::reshape, a.S},
      {a.relu, BackendOp::relu, a.X}};
  GraphExecutionPlan p;
  const bool sparse = rng() % 2;
  std::size_t current = rng() % std::size(choices);
  for (std::size_t i = 0; i < n; ++i) {
    if (rng() % 3 == 0)
      current = rng() % std::size(choices);
    const Choice &c = choices[current];
    // Sparse ids also run backwards: graph order is not id order.
    const NodeId id = sparse ? NodeId{n - i} * 1000003 + 17 : NodeId{i};
    p.kernels.push_back({id, c.kind, c.op, c.capsule});
  }
  return p;
}

} // namespace lo::checks::testing
