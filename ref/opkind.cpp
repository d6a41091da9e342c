#include "ref/opkind.hpp"

#include "ref/hash.hpp"

#include <array>
#include <functional>

namespace lo {

namespace {

using enum ParamType;
constexpr ParamSpec kNone[] = {{"", natural}}; // placeholder, never used (span of size 0)
constexpr ParamSpec kValueShape[] = {{"valueShape", naturals}};
constexpr ParamSpec kPerm[] = {{"perm", naturals}};
constexpr ParamSpec kSeed[] = {{"seed", natural}};
constexpr ParamSpec kPool[] = {{"kH", natural}, {"kW", natural}, {"stride", natural}};
constexpr ParamSpec kPoolPad[] = {
    {"kH", natural}, {"kW", natural}, {"stride", natural}, {"padding", natural}};
constexpr ParamSpec kBroadcast[] = {{"s1", naturals}, {"s2", naturals}};
constexpr ParamSpec kAxis[] = {{"axis", natural}};
constexpr ParamSpec kConv[] = {{"inC", natural}, {"outC", natural},   {"kH", natural},
                               {"kW", natural},  {"stride", natural}, {"padding", natural}};
constexpr ParamSpec kChannels[] = {{"channels", natural}};
constexpr ParamSpec kReshape[] = {{"inShape", naturals}, {"outShape", naturals}};
constexpr ParamSpec kFlatten[] = {{"s", naturals}};
constexpr ParamSpec kHardMask[] = {{"mask", hardMask}};
// The lineage's kinds (NN/IR/Operator.lean at a351909): parameters by their Lean field names.
constexpr ParamSpec kTranspose[] = {{"axis1", natural}, {"axis2", natural}};
constexpr ParamSpec kWindow[] = {
    {"spatialRank", natural}, {"kernel", naturals}, {"stride", naturals}, {"padding", naturals}};
constexpr ParamSpec kConvConfig[] = {{"spatialRank", natural}, {"kernel", naturals},
                                     {"stride", naturals},     {"padding", naturals},
                                     {"dilation", naturals},   {"paddingAfter", naturals},
                                     {"groups", natural},      {"channelAxis", natural},
                                     {"inChannels", natural},  {"outChannels", natural}};
constexpr ParamSpec kBatchNormEval[] = {{"channelAxis", natural}, {"channels", natural}};
constexpr ParamSpec kCustom[] = {{"name", text}, {"inputs", shapes}, {"output", naturals}};

const std::span<const ParamSpec> none{kNone, 0};

std::array<KindSignature, vocabularySize<KindTag>()> buildSignatures() {
  std::array<KindSignature, vocabularySize<KindTag>()> t{};
  auto set = [&](KindTag tag, std::span<const ParamSpec> params, std::optional<BackendOp> op) {
    t[static_cast<std::size_t>(tag)] = KindSignature{params, op};
  };
  using K = KindTag;
  using B = BackendOp;
  set(K::input, none, std::nullopt);
  set(K::const_, kValueShape, std::nullopt);
  set(K::detach, none, std::nullopt);
  set(K::permute, kPerm, B::permute);
  set(K::rand_uniform, kSeed, B::rand_uniform);
  set(K::bernoulli_mask, kSeed, B::bernoulli_mask);
  set(K::add, none, B::add);
  set(K::sub, none, B::sub);
  set(K::mul_elem, none, B::mul);
  set(K::abs, none, B::abs);
  set(K::sqrt, none, B::sqrt);
  set(K::inv, none, B::inv);
  set(K::max_elem, none, B::max);
  set(K::min_elem, none, B::min);
  set(K::max_pool2d, kPool, B::max_pool);
  set(K::max_pool2d_pad, kPoolPad, B::max_pool);
  set(K::avg_pool2d, kPool, B::avg_pool);
  set(K::avg_pool2d_pad, kPoolPad, B::avg_pool);
  set(K::swap_first_two, none, B::permute);
  set(K::mse_loss, none, B::mse_loss);
  set(K::broadcastTo, kBroadcast, B::broadcast);
  set(K::reduce_sum, kAxis, B::reduce_sum);
  set(K::reduce_mean, kAxis, B::reduce_mean);
  set(K::sum, none, B::reduce_sum);
  set(K::matmul, none, B::matmul);
  set(K::linear, none, B::linear);
  set(K::conv2d, kConv, B::conv);
  set(K::batch_norm2d_nchw_eval, kChannels, B::batch_norm);
  set(K::relu, none, B::relu);
  set(K::tanh, none, B::tanh);
  set(K::sigmoid, none, B::sigmoid);
  set(K::exp, none, B::exp);
  set(K::log, none, B::log);
  set(K::sin, none, B::sin);
  set(K::cos, none, B::cos);
  set(K::softmax, kAxis, B::softmax);
  set(K::layernorm, kAxis, B::layer_norm);
  set(K::reshape, kReshape, B::reshape);
  set(K::flatten, kFlatten, B::reshape);
  set(K::concat, kAxis, B::concat);
  set(K::transpose3d_last_two, none, B::permute);
  set(K::hardMaskedSoftmax, kHardMask, B::hard_masked_softmax);
  set(K::transpose, kTranspose, B::permute);
  set(K::max_pool, kWindow, B::max_pool);
  set(K::avg_pool, kWindow, B::avg_pool);
  set(K::broadcast_to, kBroadcast, B::broadcast);
  set(K::conv, kConvConfig, B::conv);
  set(K::batch_norm_eval, kBatchNormEval, B::batch_norm);
  set(K::hard_masked_softmax, kHardMask, B::hard_masked_softmax);
  set(K::softplus, none, B::softplus);
  set(K::safe_log, none, B::safe_log);
  set(K::custom, kCustom, B::custom);
  return t;
}

const std::array<KindSignature, vocabularySize<KindTag>()> kSignatures = buildSignatures();

} // namespace

const KindSignature &signature(KindTag tag) { return kSignatures[static_cast<std::size_t>(tag)]; }

std::optional<BackendOp> opOf(const OpKind &kind) { return signature(kind.tag).op; }

std::vector<std::uint64_t> encodeHardMask(std::span<const std::uint64_t> shape,
                                          std::span<const std::uint64_t> allowed) {
  std::vector<std::uint64_t> out;
  out.reserve(1 + shape.size() + allowed.size());
  out.push_back(shape.size());
  out.insert(out.end(), shape.begin(), shape.end());
  out.insert(out.end(), allowed.begin(), allowed.end());
  return out;
}

HardMaskView decodeHardMask(std::span<const std::uint64_t> values) {
  if (values.empty())
    return {};
  const std::size_t rank = std::min<std::size_t>(values[0], values.size() - 1);
  return {values.subspan(1, rank), values.subspan(1 + rank)};
}

std::vector<std::span<const std::uint64_t>> decodeShapes(std::span<const std::uint64_t> values) {
  std::vector<std::span<const std::uint64_t>> out;
  std::size_t at = 1;
  for (std::uint64_t n = values.empty() ? 0 : values[0]; n > 0 && at < values.size(); --n) {
    const std::size_t rank = std::min<std::size_t>(values[at], values.size() - at - 1);
    out.push_back(values.subspan(at + 1, rank));
    at += 1 + rank;
  }
  return out;
}

std::string decodeText(std::span<const std::uint64_t> values) {
  std::string out;
  out.reserve(values.size());
  for (auto v : values)
    out.push_back(static_cast<char>(static_cast<unsigned char>(v)));
  return out;
}

std::string_view paramTypeName(ParamType type) {
  switch (type) {
  case ParamType::natural: return "natural";
  case ParamType::naturals: return "naturals";
  case ParamType::hardMask: return "hardMask";
  case ParamType::text: return "text";
  case ParamType::shapes: return "shapes";
  }
  return "natural";
}

bool isBare(KindTag tag) { return signature(tag).params.empty(); }

std::size_t hashKind(const OpKind &kind) {
  SipHasher h; // keyed (ref/hash.hpp): kind parameters come from input files
  h.word(static_cast<std::uint64_t>(kind.tag));
  for (const auto &p : kind.params) {
    h.word(p.size());
    for (auto v : p)
      h.word(v);
  }
  return h.finish();
}

} // namespace lo
