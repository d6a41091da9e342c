// Vocabulary of docs/spec.md §1: every enumeration with its stable spelling.
//
// "Vocabulary (stable spellings, used in every file and message)". Each enumeration is declared
// once, by an X-macro list, so that the C++ enumerator, its index and its spelling cannot drift.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lo {

#define LO_BACKEND_OPS(X)                                                                          \
  X(rand_uniform, "rand_uniform")                                                                  \
  X(bernoulli_mask, "bernoulli_mask")                                                              \
  X(add, "add")                                                                                    \
  X(sub, "sub")                                                                                    \
  X(mul, "mul")                                                                                    \
  X(scale, "scale")                                                                                \
  X(abs, "abs")                                                                                    \
  X(sqrt, "sqrt")                                                                                  \
  X(clamp, "clamp")                                                                                \
  X(max, "max")                                                                                    \
  X(min, "min")                                                                                    \
  X(relu, "relu")                                                                                  \
  X(gelu, "gelu")                                                                                  \
  X(sigmoid, "sigmoid")                                                                            \
  X(tanh, "tanh")                                                                                  \
  X(softplus, "softplus")                                                                          \
  X(exp, "exp")                                                                                    \
  X(log, "log")                                                                                    \
  X(sin, "sin")                                                                                    \
  X(cos, "cos")                                                                                    \
  X(inv, "inv")                                                                                    \
  X(safe_log, "safe_log")                                                                          \
  X(log_softmax, "log_softmax")                                                                    \
  X(softmax, "softmax")                                                                            \
  X(reduce_sum, "reduce_sum")                                                                      \
  X(reduce_mean, "reduce_mean")                                                                    \
  X(reshape, "reshape")                                                                            \
  X(permute, "permute")                                                                            \
  X(broadcast, "broadcast")                                                                        \
  X(concat, "concat")                                                                              \
  X(slice, "slice")                                                                                \
  X(gather, "gather")                                                                              \
  X(scatter_add, "scatter_add")                                                                    \
  X(matmul, "matmul")                                                                              \
  X(linear, "linear")                                                                              \
  X(mse_loss, "mse_loss")                                                                          \
  X(layer_norm, "layer_norm")                                                                      \
  X(batch_norm, "batch_norm")                                                                      \
  X(conv, "conv")                                                                                  \
  X(conv_transpose, "conv_transpose")                                                              \
  X(max_pool, "max_pool")                                                                          \
  X(smooth_max_pool, "smooth_max_pool")                                                            \
  X(avg_pool, "avg_pool")                                                                          \
  X(fft_fno, "fft_fno")                                                                            \
  X(selective_scan, "selective_scan")                                                              \
  X(scaled_dot_product_attention, "scaled_dot_product_attention")                                  \
  X(hard_masked_softmax, "hard_masked_softmax")                                                    \
  X(attention, "attention")                                                                        \
  X(div, "div")                                                                                    \
  X(neg, "neg")                                                                                    \
  X(custom, "custom")

#define LO_PROVIDERS(X)                                                                            \
  X(reference, "reference")                                                                        \
  X(torchlean, "torchlean")                                                                        \
  X(native_cuda, "native-cuda")                                                                    \
  X(libtorch, "libtorch")                                                                          \
  X(aten, "aten")                                                                                  \
  X(mps, "mps")                                                                                    \
  X(webgpu, "webgpu")                                                                              \
  X(cublas, "cublas")                                                                              \
  X(cudnn, "cudnn")                                                                                \
  X(cufft, "cufft")                                                                                \
  X(xla, "xla")                                                                                    \
  X(neuron, "neuron")                                                                              \
  X(custom_chip, "custom-chip")                                                                    \
  X(external, "external")

#define LO_DEVICES(X)                                                                              \
  X(cpu, "cpu")                                                                                    \
  X(cuda, "cuda")                                                                                  \
  X(rocm, "rocm")                                                                                  \
  X(metal, "metal")                                                                                \
  X(wasm, "wasm")                                                                                  \
  X(tpu, "tpu")                                                                                    \
  X(trainium, "trainium")                                                                          \
  X(custom, "custom")                                                                              \
  X(external, "external")

#define LO_TRUST_LEVELS(X)                                                                         \
  X(verified, "verified")                                                                          \
  X(checked, "checked")                                                                            \
  X(fuzzed, "fuzzed")                                                                              \
  X(trusted_external, "trusted-external")

#define LO_VJP_MODES(X)                                                                            \
  X(none, "none")                                                                                  \
  X(torchlean_tape, "torchlean-tape")                                                              \
  X(backend_vjp, "backend-vjp")

#define LO_TENSOR_LAYOUTS(X)                                                                       \
  X(canonical_tensor, "canonical-tensor")                                                          \
  X(flat_row_major, "flat-row-major")                                                              \
  X(libtorch_cuda_view, "libtorch-cuda-view")

#define LO_ROUNDINGS(X)                                                                            \
  X(scalar_context, "scalar-context")                                                              \
  X(nearest_even, "nearest-even")                                                                  \
  X(directed, "directed")                                                                          \
  X(implementation_defined, "implementation-defined")                                              \
  X(unspecified, "unspecified")

#define LO_SUBNORMALS(X)                                                                           \
  X(gradual_underflow, "gradual-underflow")                                                        \
  X(flush_to_zero, "flush-to-zero")                                                                \
  X(implementation_defined, "implementation-defined")                                              \
  X(unspecified, "unspecified")

#define LO_CONTRACTIONS(X)                                                                         \
  X(separate, "separate")                                                                          \
  X(fused, "fused")                                                                                \
  X(implementation_defined, "implementation-defined")                                              \
  X(not_applicable, "n/a")                                                                         \
  X(unspecified, "unspecified")

#define LO_REDUCTIONS(X)                                                                           \
  X(fixed_left, "fixed-left")                                                                      \
  X(fixed_tree, "fixed-tree")                                                                      \
  X(implementation_defined, "implementation-defined")                                              \
  X(not_applicable, "n/a")                                                                         \
  X(unspecified, "unspecified")

#define LO_GROUPING_KINDS(X)                                                                       \
  X(singleton, "singleton")                                                                        \
  X(sameCapsuleRun, "sameCapsuleRun")

// The tags of a contract descriptor's variant parts (docs/spec.md §2, the Capsule shape).
//
// Every vocabulary holds the union of the editions' values, new values appended; which edition has
// which value is declared in ref/edition.hpp.
#define LO_CLAIM_TAGS(X)                                                                           \
  X(shapeSafety, "shapeSafety")                                                                    \
  X(layoutCompatibility, "layoutCompatibility")                                                    \
  X(valueRefinement, "valueRefinement")                                                            \
  X(vjpRefinement, "vjpRefinement")                                                                \
  X(vjpUnavailable, "vjpUnavailable")

#define LO_EVIDENCE_TAGS(X)                                                                        \
  X(theorem, "theorem")                                                                            \
  X(checker, "checker")                                                                            \
  X(runtimeGuard, "runtimeGuard")                                                                  \
  X(testSuite, "testSuite")                                                                        \
  X(fuzzOracle, "fuzzOracle")                                                                      \
  X(trustedBoundary, "trustedBoundary")                                                            \
  X(notProvided, "notProvided")                                                                    \
  X(notApplicable, "notApplicable")

#define LO_PROVENANCE_TAGS(X)                                                                      \
  X(sourceFile, "sourceFile")                                                                      \
  X(nativeSymbol, "nativeSymbol")                                                                  \
  X(note, "note")

// The two lowerings of docs/spec.md §1 and the two capsule equalities `canAppend` may use.
#define LO_MODES(X)                                                                                \
  X(singleton, "singleton")                                                                        \
  X(coalesced, "coalesced")

#define LO_EQUALITIES(X)                                                                           \
  X(contract, "contract")                                                                          \
  X(identity, "identity")

// Which acceptance gate an edition has (ref/edition.hpp, `EditionRules`): the evidence gate of
// docs/spec.md §6, or upstream's `acceptGraphKernelPlan` (ref/acceptance.hpp).
#define LO_GATE_KINDS(X)                                                                           \
  X(evidence, "evidence")                                                                          \
  X(acceptance, "acceptance")

#define LO_ENUMERATOR(name, spelling) name,
#define LO_SPELLING(name, spelling) std::string_view{spelling},
#define LO_DECLARE_VOCABULARY(Type, LIST, label)                                                   \
  enum class Type : std::uint8_t { LIST(LO_ENUMERATOR) };                                          \
  template <> struct Vocabulary<Type> {                                                            \
    static constexpr std::string_view name = label;                                                \
    static constexpr std::array spellings{LIST(LO_SPELLING)};                                      \
  };

template <class E> struct Vocabulary;

LO_DECLARE_VOCABULARY(BackendOp, LO_BACKEND_OPS, "BackendOp")
LO_DECLARE_VOCABULARY(Provider, LO_PROVIDERS, "Provider")
LO_DECLARE_VOCABULARY(Device, LO_DEVICES, "Device")
LO_DECLARE_VOCABULARY(TrustLevel, LO_TRUST_LEVELS, "TrustLevel")
LO_DECLARE_VOCABULARY(VJPMode, LO_VJP_MODES, "VJPMode")
LO_DECLARE_VOCABULARY(TensorLayout, LO_TENSOR_LAYOUTS, "TensorLayout")
LO_DECLARE_VOCABULARY(Rounding, LO_ROUNDINGS, "Rounding")
LO_DECLARE_VOCABULARY(Subnormals, LO_SUBNORMALS, "Subnormals")
LO_DECLARE_VOCABULARY(Contraction, LO_CONTRACTIONS, "Contraction")
LO_DECLARE_VOCABULARY(Reduction, LO_REDUCTIONS, "Reduction")
LO_DECLARE_VOCABULARY(GroupingKind, LO_GROUPING_KINDS, "GroupingKind")
LO_DECLARE_VOCABULARY(ClaimTag, LO_CLAIM_TAGS, "claim tag")
LO_DECLARE_VOCABULARY(EvidenceTag, LO_EVIDENCE_TAGS, "evidence tag")
LO_DECLARE_VOCABULARY(ProvenanceTag, LO_PROVENANCE_TAGS, "provenance tag")
LO_DECLARE_VOCABULARY(Mode, LO_MODES, "mode")
LO_DECLARE_VOCABULARY(Equality, LO_EQUALITIES, "equality")
LO_DECLARE_VOCABULARY(GateKind, LO_GATE_KINDS, "gate kind")

/// Number of values of a vocabulary.
template <class E> constexpr std::size_t vocabularySize() {
  return Vocabulary<E>::spellings.size();
}

/// The stable spelling of a value.
template <class E> constexpr std::string_view spelling(E value) {
  return Vocabulary<E>::spellings[static_cast<std::size_t>(value)];
}

/// The value spelled `text`, if any, by a linear scan over the spellings (at most 46). The reader's
/// hot path uses a hash table over the same spellings instead (`lookupSpelling` in
/// ref/io/strict_json.hpp).
template <class E> constexpr std::optional<E> parseSpelling(std::string_view text) {
  const auto &table = Vocabulary<E>::spellings;
  for (std::size_t i = 0; i < table.size(); ++i)
    if (table[i] == text)
      return static_cast<E>(i);
  return std::nullopt;
}

/// All spellings of a vocabulary joined by ", " (for error messages and --help).
template <class E> std::string joinedSpellings() {
  std::string out;
  for (auto s : Vocabulary<E>::spellings) {
    if (!out.empty())
      out += ", ";
    out += s;
  }
  return out;
}

} // namespace lo
