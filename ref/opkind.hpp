// IR node kinds (`OpKind`): tag, parameters, and the BackendOp each maps to (docs/spec.md §1.7,
// the table; which edition has which kind: ref/edition.hpp).
//
// "IR node kinds (`kind`), tag and parameters (naturals unless noted; a Shape is an array of
// naturals, `[]` for a scalar), and the BackendOp each maps to (`-`: no runtime work, never
// planned)."
#pragma once

#include "ref/vocab.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lo {

// X(enumerator, tag spelling)
#define LO_KIND_TAGS(X)                                                                            \
  X(input, "input")                                                                                \
  X(const_, "const")                                                                               \
  X(detach, "detach")                                                                              \
  X(permute, "permute")                                                                            \
  X(rand_uniform, "rand_uniform")                                                                  \
  X(bernoulli_mask, "bernoulli_mask")                                                              \
  X(add, "add")                                                                                    \
  X(sub, "sub")                                                                                    \
  X(mul_elem, "mul_elem")                                                                          \
  X(abs, "abs")                                                                                    \
  X(sqrt, "sqrt")                                                                                  \
  X(inv, "inv")                                                                                    \
  X(max_elem, "max_elem")                                                                          \
  X(min_elem, "min_elem")                                                                          \
  X(max_pool2d, "max_pool2d")                                                                      \
  X(max_pool2d_pad, "max_pool2d_pad")                                                              \
  X(avg_pool2d, "avg_pool2d")                                                                      \
  X(avg_pool2d_pad, "avg_pool2d_pad")                                                              \
  X(swap_first_two, "swap_first_two")                                                              \
  X(mse_loss, "mse_loss")                                                                          \
  X(broadcastTo, "broadcastTo")                                                                    \
  X(reduce_sum, "reduce_sum")                                                                      \
  X(reduce_mean, "reduce_mean")                                                                    \
  X(sum, "sum")                                                                                    \
  X(matmul, "matmul")                                                                              \
  X(linear, "linear")                                                                              \
  X(conv2d, "conv2d")                                                                              \
  X(batch_norm2d_nchw_eval, "batch_norm2d_nchw_eval")                                              \
  X(relu, "relu")                                                                                  \
  X(tanh, "tanh")                                                                                  \
  X(sigmoid, "sigmoid")                                                                            \
  X(exp, "exp")                                                                                    \
  X(log, "log")                                                                                    \
  X(sin, "sin")                                                                                    \
  X(cos, "cos")                                                                                    \
  X(softmax, "softmax")                                                                            \
  X(layernorm, "layernorm")                                                                        \
  X(reshape, "reshape")                                                                            \
  X(flatten, "flatten")                                                                            \
  X(concat, "concat")                                                                              \
  X(transpose3d_last_two, "transpose3d_last_two")                                                  \
  X(hardMaskedSoftmax, "hardMaskedSoftmax")                                                        \
  X(transpose, "transpose")                                                                        \
  X(max_pool, "max_pool")                                                                          \
  X(avg_pool, "avg_pool")                                                                          \
  X(broadcast_to, "broadcast_to")                                                                  \
  X(conv, "conv")                                                                                  \
  X(batch_norm_eval, "batch_norm_eval")                                                            \
  X(hard_masked_softmax, "hard_masked_softmax")                                                    \
  X(softplus, "softplus")                                                                          \
  X(safe_log, "safe_log")                                                                          \
  X(custom, "custom")

LO_DECLARE_VOCABULARY(KindTag, LO_KIND_TAGS, "kind")

/// A kind parameter is a natural, an array of naturals (a Shape, or `permute`'s `perm`), a
/// HardMask (`hardMaskedSoftmax`'s `mask`, edition 2026-08): a shape and a row-major array of
/// booleans, `{"shape": [2, 2], "allowed": [true, false, true, true]}`, a text (`custom`'s
/// `name`, its bytes one value each) or an array of Shapes (`custom`'s `inputs`: the count, then
/// each shape's rank and extents). A window's arrays (`kernel`, `stride`, ... of `max_pool`,
/// `avg_pool`, `conv`) have `spatialRank` values each (docs/spec.md §1.7).
enum class ParamType : std::uint8_t { natural, naturals, hardMask, text, shapes };

/// A HardMask as the values of one parameter: the shape's rank, the shape, then each boolean as 0
/// or 1. As upstream's `OpKind`, a plan does not require `allowed` to have the shape's size
/// (NN/IR/HardMask.lean checks it when a graph is evaluated).
std::vector<std::uint64_t> encodeHardMask(std::span<const std::uint64_t> shape,
                                          std::span<const std::uint64_t> allowed);
struct HardMaskView {
  std::span<const std::uint64_t> shape;
  std::span<const std::uint64_t> allowed; // each 0 or 1
};
HardMaskView decodeHardMask(std::span<const std::uint64_t> values);

/// `custom`'s `inputs` as its shapes, and `custom`'s `name` as text (ParamType above).
std::vector<std::span<const std::uint64_t>> decodeShapes(std::span<const std::uint64_t> values);
std::string decodeText(std::span<const std::uint64_t> values);
/// "natural", "naturals", "hardMask", "text" or "shapes".
std::string_view paramTypeName(ParamType type);

struct ParamSpec {
  std::string_view name;
  ParamType type;
};

/// The signature of a kind tag: its parameters in order and the BackendOp it maps to.
struct KindSignature {
  std::span<const ParamSpec> params;
  std::optional<BackendOp> op; // nullopt: "no runtime work, never planned"
};

const KindSignature &signature(KindTag tag);

/// One IR node kind with its parameter values. `params[i]` is the value of
/// `signature(tag).params[i]`; a natural parameter is stored as a one-element array.
struct OpKind {
  KindTag tag = KindTag::relu;
  std::vector<std::vector<std::uint64_t>> params;
  bool operator==(const OpKind &) const = default;
};

/// The BackendOp a kind maps to (`-` in the table is nullopt).
std::optional<BackendOp> opOf(const OpKind &kind);

/// Whether `tag` has no parameters (and so is written as a bare string).
bool isBare(KindTag tag);

std::size_t hashKind(const OpKind &kind);

} // namespace lo
