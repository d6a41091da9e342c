// The maintained capsule modules of the lineage, as data (docs/spec.md §10.5): srirampc/TorchLean
// a351909, NN/Backend/Reference.lean and NativeCUDA.lean; the attention capsules and LibTorch's
// `libtorch.sdpa_forward` from NN/Backend/Attention.lean as the index stores it (309b12d), cut to
// the lineage's capsule (reduction alone, no notes); see docs/spec.md §10.5 for what is not read.
#include "ref/profile.hpp"

#include <tuple>
#include <utility>

namespace lo::selection {
namespace {

ContractDescriptor descriptor(ContractClaim claim, std::string summary, EvidenceTag tag,
                              std::string text = {}) {
  return {std::move(claim), std::move(summary), {tag, std::move(text)}, {}};
}

ContractClaim claim(ClaimTag tag, BackendOp op,
                    TensorLayout layout = TensorLayout::canonical_tensor,
                    VJPMode mode = VJPMode::none) {
  return {tag, op, layout, std::nullopt, mode};
}

std::string opName(BackendOp op) { return std::string(spelling(op)); }

/// The shape shared by `Reference.capsule` and `NativeCUDA.nativeCapsule`.
struct Builder {
  Provider provider;
  Device device;
  TensorLayout layout;
  const char *shapeSummary, *shapeGuard, *layoutSummary, *layoutGuard, *suite;
  VJPMode defaultVJP;
  const char *prefix, *vendor; // "reference." / "Reference", "native_cuda." / "Native CUDA"

  KernelCapsule make(std::string name, BackendOp op, std::string valueSummary,
                     std::string vjpSummary, VJPMode vjpMode, Reduction reduction) const {
    KernelCapsule c;
    c.name = std::move(name);
    c.op = op;
    c.provider = provider;
    c.device = device;
    c.trustLevel = TrustLevel::checked;
    c.supportsForward = true;
    c.vjpMode = vjpMode;
    c.shapeContract = descriptor(claim(ClaimTag::shapeSafety, op), shapeSummary,
                                 EvidenceTag::runtimeGuard, shapeGuard);
    c.layoutContract = descriptor(claim(ClaimTag::layoutCompatibility, op, layout), layoutSummary,
                                  EvidenceTag::runtimeGuard, layoutGuard);
    c.valueContract = descriptor(claim(ClaimTag::valueRefinement, op), std::move(valueSummary),
                                 EvidenceTag::testSuite, suite);
    c.vjpContract = vjpMode == VJPMode::none
                        ? descriptor(claim(ClaimTag::vjpUnavailable, op), std::move(vjpSummary),
                                     EvidenceTag::notApplicable)
                        : descriptor(claim(ClaimTag::vjpRefinement, op,
                                           TensorLayout::canonical_tensor, vjpMode),
                                     std::move(vjpSummary), EvidenceTag::testSuite, suite);
    c.numericalPolicy.reduction = reduction;
    return c;
  }
  KernelCapsule named(const char *name, BackendOp op, const char *value, const char *vjp,
                      Reduction reduction) const {
    return make(name, op, value, vjp, defaultVJP, reduction);
  }
  /// A templated capsule: "{vendor} `{op}` {value}" and the VJP summary `vjp` with `{op}` filled.
  KernelCapsule templated(BackendOp op, const std::string &value, const std::string &vjp,
                          Reduction reduction, VJPMode vjpMode) const {
    return make(prefix + opName(op), op, value, vjp, vjpMode, reduction);
  }
};

constexpr Builder kReference{
    Provider::reference,
    Device::cpu,
    TensorLayout::canonical_tensor,
    "Shapes are checked in Lean before entering the portable runtime path.",
    "portable runtime shape checks",
    "Portable paths use TorchLean's canonical tensor representation.",
    "typed tensor layout",
    "NN.Tests.Runtime.Floats.Suite",
    VJPMode::torchlean_tape,
    "reference.",
    "Reference"};

constexpr Builder kNativeCuda{Provider::native_cuda,
                              Device::cuda,
                              TensorLayout::flat_row_major,
                              "Inputs and outputs are checked against explicit UInt32 dimensions.",
                              "CUDA FFI size/rank checks at the Lean/native boundary",
                              "CUDA buffers are contiguous flat float32 buffers.",
                              "flat row-major Cuda.Buffer layout checks",
                              "NN.Tests.Runtime.Cuda.Suite",
                              VJPMode::backend_vjp,
                              "native_cuda.",
                              "Native CUDA"};

using O = BackendOp;
using R = Reduction;

std::string q(BackendOp op) { return "`" + opName(op) + "`"; }

// Reference.lean's builders.
KernelCapsule refPointwise(O op) {
  return kReference.templated(op, "Reference " + q(op) + " follows the pointwise tensor contract.",
                              "TorchLean tape supplies the " + q(op) + " VJP where differentiable.",
                              R::not_applicable, VJPMode::torchlean_tape);
}
KernelCapsule refReduction(O op) {
  return kReference.templated(
      op, "Reference " + q(op) + " follows the explicit reduction shape contract.",
      "TorchLean tape supplies the " + q(op) + " adjoint where differentiable.", R::fixed_left,
      VJPMode::torchlean_tape);
}
KernelCapsule refView(O op) {
  return kReference.templated(
      op, "Reference " + q(op) + " follows the explicit shape/layout contract.",
      "TorchLean tape supplies the " + q(op) + " adjoint where differentiable.", R::not_applicable,
      VJPMode::torchlean_tape);
}
KernelCapsule refForwardOnly(O op, const char *value) {
  return kReference.templated(
      op, value, "Reference " + q(op) + " is a forward-only capsule with no registered VJP.",
      R::not_applicable, VJPMode::none);
}
KernelCapsule refAccumulation(const char *name, O op, const char *value, const char *vjp) {
  return kReference.named(name, op, value, vjp, R::fixed_left);
}

std::vector<KernelCapsule> referenceCapsules() {
  const char *tape = "TorchLean tape supplies the VJP.";
  // Attention.lean's reference capsule: an accumulation whose shape and layout guards are its own.
  KernelCapsule attention =
      refAccumulation("reference.attention", O::scaled_dot_product_attention,
                      "Composed reference attention uses hard-mask zero-numerator semantics.",
                      "TorchLean tape supplies the composed VJP.");
  attention.shapeContract.summary = "Q/K/V and mask shapes are checked by the typed tensor layer.";
  attention.shapeContract.evidence.text = "typed attention shapes";
  attention.layoutContract.summary =
      "Reference attention uses TorchLean tensor semantics rather than a foreign layout.";
  attention.layoutContract.evidence.text = "typed tensor layout";
  KernelCapsule maxPool = kReference.templated(
      O::max_pool, "Reference `max_pool` follows the channel-first runtime contract.",
      "TorchLean tape supplies the `max_pool` VJP where differentiable.", R::fixed_left,
      VJPMode::torchlean_tape);
  return {
      refAccumulation("reference.matmul", O::matmul,
                      "Portable matmul follows the spec-level matrix product contract.", tape),
      refAccumulation("reference.linear", O::linear,
                      "Reference linear follows the matvec/matmul plus bias contract.", tape),
      refAccumulation("reference.mse_loss", O::mse_loss,
                      "Reference MSE follows the mean squared residual contract.", tape),
      kReference.named("reference.relu", O::relu,
                       "Reference ReLU follows pointwise tensor semantics.", tape,
                       R::not_applicable),
      kReference.named("reference.gelu", O::gelu,
                       "Reference GELU follows the documented runtime approximation contract.",
                       tape, R::not_applicable),
      refPointwise(O::add),
      refPointwise(O::sub),
      refPointwise(O::mul),
      refPointwise(O::scale),
      refPointwise(O::abs),
      refPointwise(O::sqrt),
      refPointwise(O::clamp),
      refPointwise(O::max),
      refPointwise(O::min),
      refPointwise(O::sigmoid),
      refPointwise(O::tanh),
      refPointwise(O::softplus),
      refPointwise(O::exp),
      refPointwise(O::log),
      refPointwise(O::sin),
      refPointwise(O::cos),
      refPointwise(O::inv),
      refPointwise(O::safe_log),
      refAccumulation("reference.log_softmax", O::log_softmax,
                      "Reference log-softmax follows the stable row/axis normalization contract.",
                      tape),
      refAccumulation("reference.softmax", O::softmax,
                      "Reference softmax follows the row/axis normalization contract.", tape),
      refAccumulation("reference.hard_masked_softmax", O::hard_masked_softmax,
                      "Reference hard-masked softmax normalizes over allowed coordinates and "
                      "returns zero for fully blocked rows.",
                      "TorchLean tape supplies the masked-softmax VJP with the mask treated as "
                      "constant."),
      refReduction(O::reduce_sum),
      refReduction(O::reduce_mean),
      refView(O::reshape),
      refView(O::permute),
      refView(O::broadcast),
      refView(O::concat),
      refView(O::slice),
      refView(O::gather),
      refAccumulation(
          "reference.scatter_add", O::scatter_add,
          "Indexed source values accumulate into the base tensor, including repeated indices.",
          "The VJP gathers output gradients at the source indices and preserves the base "
          "gradient."),
      refForwardOnly(O::rand_uniform, "Reference deterministic random-uniform tensors follow the "
                                      "seeded spec/runtime contract."),
      refForwardOnly(O::bernoulli_mask,
                     "Reference deterministic Bernoulli masks follow the seeded spec/runtime "
                     "contract."),
      refAccumulation("reference.layer_norm", O::layer_norm,
                      "Reference LayerNorm follows the per-row normalization contract.", tape),
      refAccumulation("reference.batch_norm", O::batch_norm,
                      "Reference BatchNorm follows the channel-first normalization contract.",
                      tape),
      refAccumulation("reference.conv", O::conv,
                      "Reference convolution follows the generic channel-first contract.", tape),
      refAccumulation("reference.conv_transpose", O::conv_transpose,
                      "Reference transpose convolution follows the generic channel-first contract.",
                      tape),
      maxPool,
      refAccumulation("reference.smooth_max_pool", O::smooth_max_pool,
                      "Reference smooth max pooling uses stable max/min-shifted window weights.",
                      tape),
      refAccumulation("reference.avg_pool", O::avg_pool,
                      "Reference average-pooling follows the channel-first window contract.", tape),
      attention};
}

// NativeCUDA.lean's builders.
KernelCapsule cudaPointwise(O op) {
  return kNativeCuda.templated(
      op, "Native CUDA " + q(op) + " follows the pointwise tensor contract.",
      "Native CUDA " + q(op) + " VJP is checked through runtime autograd tests.", R::not_applicable,
      VJPMode::backend_vjp);
}
KernelCapsule cudaReduction(O op) {
  return kNativeCuda.templated(
      op, "Native CUDA " + q(op) + " follows the explicit reduction shape contract.",
      "Native CUDA " + q(op) + " adjoint is checked through runtime gradient tests.",
      R::implementation_defined, VJPMode::backend_vjp);
}
KernelCapsule cudaView(O op) {
  return kNativeCuda.templated(
      op, "Native CUDA " + q(op) + " follows the explicit shape/layout contract.",
      "Native CUDA " + q(op) + " adjoint is checked through runtime gradient tests.",
      R::not_applicable, VJPMode::backend_vjp);
}
KernelCapsule cudaForwardOnly(O op, const char *value) {
  return kNativeCuda.templated(
      op, value, "Native CUDA " + q(op) + " is a forward-only capsule with no registered VJP.",
      R::not_applicable, VJPMode::none);
}
KernelCapsule cudaAccumulation(const char *name, O op, const char *value, const char *vjp) {
  return kNativeCuda.named(name, op, value, vjp, R::implementation_defined);
}

std::vector<KernelCapsule> nativeCudaCapsules() {
  return {
      cudaAccumulation("native_cuda.matmul", O::matmul,
                       "Matrix products agree with the row-major runtime contract.",
                       "Backward products are checked through autograd/runtime parity."),
      cudaAccumulation("native_cuda.linear", O::linear,
                       "Linear layer kernels follow the matvec/matmul plus bias contract.",
                       "Linear VJP is checked by CUDA runtime coverage."),
      cudaAccumulation("native_cuda.mse_loss", O::mse_loss,
                       "MSE loss follows the mean squared residual contract.",
                       "MSE VJP is checked by CUDA runtime coverage."),
      kNativeCuda.named("native_cuda.relu", O::relu,
                        "ReLU forward follows the pointwise activation contract.",
                        "ReLU VJP is checked through runtime autograd tests.", R::not_applicable),
      kNativeCuda.named("native_cuda.gelu", O::gelu,
                        "GELU forward follows the documented runtime approximation contract.",
                        "GELU VJP is checked through runtime autograd tests.", R::not_applicable),
      cudaPointwise(O::add),
      cudaPointwise(O::sub),
      cudaPointwise(O::mul),
      cudaPointwise(O::scale),
      cudaPointwise(O::abs),
      cudaPointwise(O::sqrt),
      cudaPointwise(O::clamp),
      cudaPointwise(O::max),
      cudaPointwise(O::min),
      cudaPointwise(O::sigmoid),
      cudaPointwise(O::tanh),
      cudaPointwise(O::softplus),
      cudaPointwise(O::exp),
      cudaPointwise(O::sin),
      cudaPointwise(O::cos),
      cudaPointwise(O::log),
      cudaPointwise(O::inv),
      cudaPointwise(O::safe_log),
      cudaAccumulation("native_cuda.log_softmax", O::log_softmax,
                       "Log-softmax kernels follow the stable row/axis normalization contract.",
                       "Log-softmax VJPs are checked through runtime autograd tests."),
      cudaAccumulation("native_cuda.softmax", O::softmax,
                       "Softmax kernels follow the row/axis normalization contract.",
                       "Softmax VJPs are checked through runtime autograd tests."),
      cudaAccumulation("native_cuda.hard_masked_softmax", O::hard_masked_softmax,
                       "The kernel normalizes over allowed entries and writes zeros at blocked "
                       "coordinates. A fully blocked row returns zeros.",
                       "The local VJP uses the softmax Jacobian evaluated at the masked output; "
                       "blocked coordinates therefore receive zero gradient."),
      cudaReduction(O::reduce_sum),
      cudaReduction(O::reduce_mean),
      cudaView(O::reshape),
      cudaView(O::permute),
      cudaView(O::broadcast),
      cudaView(O::concat),
      cudaView(O::slice),
      cudaView(O::gather),
      cudaAccumulation(
          "native_cuda.scatter_add", O::scatter_add,
          "Indexed source values accumulate into the base tensor, including repeated indices.",
          "The VJP gathers output gradients at the source indices and preserves the base "
          "gradient."),
      cudaForwardOnly(O::rand_uniform, "Native CUDA deterministic random-uniform buffers follow "
                                       "the seeded runtime contract."),
      cudaForwardOnly(O::bernoulli_mask,
                      "Native CUDA deterministic Bernoulli masks follow the seeded runtime "
                      "contract."),
      cudaAccumulation("native_cuda.layer_norm", O::layer_norm,
                       "LayerNorm follows the per-row normalization contract.",
                       "LayerNorm VJP is checked by CUDA runtime coverage."),
      cudaAccumulation("native_cuda.batch_norm", O::batch_norm,
                       "BatchNorm follows the channel-first normalization contract.",
                       "BatchNorm VJP is checked by CUDA runtime coverage."),
      cudaAccumulation("native_cuda.conv", O::conv,
                       "Convolution follows the generic channel-first runtime contract.",
                       "Convolution VJP is checked by CUDA runtime coverage."),
      cudaAccumulation("native_cuda.conv_transpose", O::conv_transpose,
                       "Transpose convolution follows the generic channel-first runtime contract.",
                       "Transpose-convolution VJP is checked by CUDA runtime coverage."),
      kNativeCuda.templated(O::max_pool,
                            "Native CUDA `max_pool` follows the channel-first runtime contract.",
                            "Native CUDA `max_pool` VJP is checked by CUDA runtime coverage.",
                            R::implementation_defined, VJPMode::backend_vjp),
      cudaAccumulation("native_cuda.smooth_max_pool", O::smooth_max_pool,
                       "Smooth max pooling uses finite nonzero beta and stable max/min-shifted "
                       "window weights.",
                       "Forward and VJP stability are checked against the reference runtime at "
                       "overflow-scale inputs."),
      cudaAccumulation("native_cuda.avg_pool", O::avg_pool,
                       "Average-pooling follows the channel-first window contract.",
                       "Average-pooling VJP is checked by CUDA runtime coverage."),
      cudaAccumulation("native_cuda.fft_fno", O::fft_fno,
                       "Packed rFFT/irFFT and spectral convolution follow the documented "
                       "half-spectrum contract.",
                       "Packed transforms use the real-linear half-spectrum adjoints; spectral "
                       "convolution propagates gradients to its input and both weight components."),
      cudaAccumulation("native_cuda.selective_scan", O::selective_scan,
                       "Shared and token-dependent coefficients follow the diagonal recurrence "
                       "contract.",
                       "Reverse recurrence differentiates coefficients, inputs, and the initial "
                       "state; shared coefficient cotangents are accumulated across time.")};
}

KernelCapsule attentionCapsule(const char *name, Provider provider, TrustLevel trust,
                               VJPMode vjpMode, TensorLayout layout,
                               std::pair<const char *, const char *> shape,
                               std::pair<const char *, const char *> layoutText,
                               std::tuple<EvidenceTag, const char *, const char *> value,
                               std::tuple<EvidenceTag, const char *, const char *> vjp) {
  const O op = O::scaled_dot_product_attention;
  KernelCapsule c;
  c.name = name;
  c.op = op;
  c.provider = provider;
  c.device = Device::cuda;
  c.trustLevel = trust;
  c.vjpMode = vjpMode;
  c.shapeContract = descriptor(claim(ClaimTag::shapeSafety, op), shape.first,
                               EvidenceTag::runtimeGuard, shape.second);
  c.layoutContract = descriptor(claim(ClaimTag::layoutCompatibility, op, layout), layoutText.first,
                                EvidenceTag::runtimeGuard, layoutText.second);
  c.valueContract = descriptor(claim(ClaimTag::valueRefinement, op), std::get<1>(value),
                               std::get<0>(value), std::get<2>(value));
  c.vjpContract =
      descriptor(claim(ClaimTag::vjpRefinement, op, TensorLayout::canonical_tensor, vjpMode),
                 std::get<1>(vjp), std::get<0>(vjp), std::get<2>(vjp));
  c.numericalPolicy.reduction = R::implementation_defined;
  return c;
}

std::vector<KernelCapsule> attentionCapsules() {
  return {
      attentionCapsule(
          "native_cuda.direct_attention", Provider::native_cuda, TrustLevel::checked,
          VJPMode::backend_vjp, TensorLayout::flat_row_major,
          {"Q/K/V use a folded (batch, head, n, headDim) layout; the optional mask broadcasts "
           "over the folded batch-head axis.",
           "torchlean_cuda_buffer_flash_attention_* size checks"},
          {"Flat row-major buffers; the folded batch-head axis is the kernel batch axis.",
           "Cuda.Buffer shape/size FFI checks"},
          {EvidenceTag::testSuite,
           "Direct CUDA fused attention with hard-mask zero-numerator semantics.",
           "NN.Tests.Runtime.Cuda.Attention"},
          {EvidenceTag::testSuite, "CUDA VJP kernels return dQ, dK, and dV for the fused operator.",
           "NN.Tests.Runtime.Cuda.Attention"}),
      attentionCapsule(
          "torchlean.composed_attention", Provider::torchlean, TrustLevel::checked,
          VJPMode::torchlean_tape, TensorLayout::flat_row_major,
          {"Q/K/V have logical shape (batch, heads, n, headDim), with batch optional; the "
           "runtime folds (batch, heads) for BMM and broadcasts the mask over that folded "
           "axis.",
           "Runtime.Autograd.Cuda.requireValue plus checked UInt32 dimensions"},
          {"Flat row-major buffers; the folded (batch, head) axis is the BMM batch axis.",
           "Buffer.swapAdjacentAtDepth and bmm shape checks"},
          {EvidenceTag::testSuite, "Composed bmm, hard-masked row softmax, and bmm.",
           "NN.Tests.Runtime.Cuda.Attention"},
          {EvidenceTag::testSuite,
           "TorchLean tape VJP through the composed expression, summing shared weight "
           "gradients over the leading batch.",
           "Runtime autograd attention tests"})};
}

std::vector<KernelCapsule> libTorchCapsules() {
  KernelCapsule c = attentionCapsule(
      "libtorch.sdpa_forward", Provider::libtorch, TrustLevel::trusted_external,
      VJPMode::torchlean_tape, TensorLayout::libtorch_cuda_view,
      {"Q/K/V are checked after folding batch and head axes; the optional mask is broadcast over "
       "that folded axis.",
       "torchlean_libtorch_sdpa_fwd size checks"},
      {"TorchLean CUDA buffers are wrapped by LibTorch from_blob and copied back contiguous.",
       "contiguous CUDA tensor views"},
      {EvidenceTag::trustedBoundary, "LibTorch scaled_dot_product_attention forward.",
       "LibTorch/CUDA SDPA implementation"},
      {EvidenceTag::runtimeGuard,
       "TorchLean records the node and keeps the backward boundary inside TorchLean.",
       "backend profile requires vjpMode=torchLeanTape"});
  ContractProvenance p;
  p.tag = ProvenanceTag::nativeSymbol;
  p.path = "csrc/cuda/kernels/torchlean_libtorch_sdpa.cpp";
  p.symbol = "torchlean_libtorch_sdpa_fwd";
  p.buildTarget = "torchlean_libtorch_sdpa";
  c.layoutContract.provenance.push_back(std::move(p));
  return {std::move(c)};
}

} // namespace

std::optional<CapsuleModule> maintainedModule(std::string_view name) {
  if (name == "attention")
    return CapsuleModule{"attention", attentionCapsules()};
  if (name == "native-cuda")
    return CapsuleModule{"native-cuda", nativeCudaCapsules()};
  if (name == "reference")
    return CapsuleModule{"reference", referenceCapsules()};
  if (name == "libtorch")
    return CapsuleModule{"libtorch", libTorchCapsules()};
  return std::nullopt;
}

} // namespace lo::selection
