// Shared builders for the unit tests: capsules, planned nodes, plans, and documents with a marked
// error position.
#pragma once

#include "ref/io/error.hpp"
#include "ref/io/reader.hpp"
#include "ref/lowering.hpp"
#include "tests/seed.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace lo::test {

/// A capsule with every contract filled in, so that changing any single field changes it.
inline KernelCapsule makeCapsule(std::string name, BackendOp op,
                                 TrustLevel trust = TrustLevel::checked,
                                 Provider provider = Provider::reference,
                                 Device device = Device::cpu, Edition edition = seed::kEdition) {
  KernelCapsule c = sampleCapsule(std::move(name), op, trust, provider, device);
  // A spec name only in an edition whose claims carry one (docs/spec.md §1.6).
  const std::optional<std::string> spec =
      claimsHaveSpec(edition) ? std::optional<std::string>("Spec.relu") : std::nullopt;
  c.vjpMode = VJPMode::torchlean_tape;
  c.shapeContract = {{ContractClaim::Tag::shapeSafety, op, {}, {}, {}},
                     "Shapes are checked in Lean before entering the portable runtime path.",
                     {ContractEvidence::Tag::runtimeGuard, "portable runtime shape checks"},
                     {}};
  c.layoutContract = {
      {ContractClaim::Tag::layoutCompatibility, op, TensorLayout::canonical_tensor, {}, {}},
      "Portable paths use TorchLean's canonical tensor representation.",
      {ContractEvidence::Tag::runtimeGuard, "typed tensor layout"},
      {}};
  c.valueContract = {{ContractClaim::Tag::valueRefinement, op, {}, spec, {}},
                     "Reference ReLU follows pointwise tensor semantics.",
                     {ContractEvidence::Tag::testSuite, "NN.Tests.Runtime.Floats.Suite"},
                     {{ContractProvenance::Tag::sourceFile, "NN/Backend/Reference.lean", "", {}}}};
  c.vjpContract = {{ContractClaim::Tag::vjpRefinement, op, {}, spec, VJPMode::torchlean_tape},
                   "TorchLean tape supplies the VJP.",
                   {ContractEvidence::Tag::testSuite, "NN.Tests.Runtime.Floats.Suite"},
                   {}};
  c.notes = "Reference/portable capsules are the cross-platform fallback.";
  return c;
}

/// A planned node of a parameterless kind whose op is `op`'s own kind (relu, add, matmul, ...).
inline PlannedNodeKernel node(NodeId id, KindTag tag, BackendOp op, CapsuleId capsule) {
  return PlannedNodeKernel{id, Interner::bareKind(tag), op, capsule};
}

/// Node ids of a lowering plan, group by group.
inline std::vector<std::vector<NodeId>> idsByGroup(const GraphLoweringPlan &p) {
  std::vector<std::vector<NodeId>> out;
  for (const auto &g : p.groups)
    out.push_back(g.nodeIds.vector());
  return out;
}

/// JSON text of a capsule (the fields every capsule must have; defaults left out).
inline std::string capsuleJson(std::string_view name, std::string_view op,
                               std::string_view trust = "checked",
                               Edition edition = seed::kEdition) {
  std::string o(op);
  const std::string spec = claimsHaveSpec(edition) ? ",\"spec\":\"Spec\"" : "";
  auto descriptor = [&](std::string claim) {
    return "{\"claim\":" + claim + ",\"summary\":\"s\",\"evidence\":{\"tag\":\"notProvided\"}}";
  };
  return "{\"name\":\"" + std::string(name) + "\",\"op\":\"" + o +
         "\",\"provider\":\"reference\",\"device\":\"cpu\",\"trustLevel\":\"" + std::string(trust) +
         "\",\"shapeContract\":" + descriptor("{\"tag\":\"shapeSafety\",\"op\":\"" + o + "\"}") +
         ",\"layoutContract\":" +
         descriptor("{\"tag\":\"layoutCompatibility\",\"op\":\"" + o +
                    "\",\"layout\":\"canonical-tensor\"}") +
         ",\"valueContract\":" +
         descriptor("{\"tag\":\"valueRefinement\",\"op\":\"" + o + "\"" + spec + "}") +
         ",\"vjpContract\":" +
         descriptor("{\"tag\":\"vjpRefinement\",\"op\":\"" + o + "\"" + spec +
                    ",\"mode\":\"none\"}") +
         "}";
}

/// A document in which "@@" marks where the reader must report an error. `text` is the document
/// without the marker; `line` and `column` are 1-based (column in bytes).
struct Marked {
  std::string text;
  std::size_t line = 0, column = 0;
};

inline Marked mark(std::string withMarker) {
  const auto at = withMarker.find("@@");
  Marked m;
  if (at == std::string::npos) {
    ADD_FAILURE() << "test document has no @@ marker";
    m.text = withMarker;
    return m;
  }
  EXPECT_EQ(withMarker.find("@@", at + 2), std::string::npos) << "two @@ markers";
  m.text = withMarker.substr(0, at) + withMarker.substr(at + 2);
  m.line = 1;
  std::size_t lineStart = 0;
  for (std::size_t i = 0; i < at; ++i)
    if (withMarker[i] == '\n') {
      ++m.line;
      lineStart = i + 1;
    }
  m.column = at - lineStart + 1;
  return m;
}

/// Runs `read` on the marked document and checks the error: file, line, column, pointer, the
/// formatted line, and that the message contains `contains`.
inline void expectRejected(const std::function<void(const io::Source &)> &read,
                           const std::string &withMarker, const std::string &pointer,
                           const std::string &contains) {
  const Marked m = mark(withMarker);
  const io::Source src = io::sourceFromString("plan.json", m.text);
  try {
    read(src);
    ADD_FAILURE() << "accepted: " << m.text;
  } catch (const io::InputError &e) {
    EXPECT_EQ(e.file(), "plan.json");
    EXPECT_EQ(e.line(), m.line) << e.what();
    EXPECT_EQ(e.column(), m.column) << e.what();
    EXPECT_EQ(e.pointer(), pointer) << e.what();
    EXPECT_NE(e.message().find(contains), std::string::npos)
        << "message \"" << e.message() << "\" lacks \"" << contains << "\"";
    const std::string prefix = "plan.json:" + std::to_string(m.line) + ":" +
                               std::to_string(m.column) + ": " + (pointer.empty() ? "/" : pointer) +
                               ": ";
    EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << "not one line";
  }
}

inline void expectPlanRejected(const std::string &withMarker, const std::string &pointer,
                               const std::string &contains) {
  expectRejected(
      [](const io::Source &s) {
        Interner interner;
        (void)io::readExecutionPlan(s, interner, seed::kEdition);
      },
      withMarker, pointer, contains);
}

inline void expectLoweringRejected(const std::string &withMarker, const std::string &pointer,
                                   const std::string &contains) {
  expectRejected(
      [](const io::Source &s) {
        Interner interner;
        (void)io::readLoweringPlan(s, interner, seed::kEdition);
      },
      withMarker, pointer, contains);
}

} // namespace lo::test
