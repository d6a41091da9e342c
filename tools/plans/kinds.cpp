#include "tools/plans/kinds.hpp"

#include "ref/capsule.hpp"

#include <array>
#include <utility>

namespace lo::plans {

std::vector<KindTag> plannedKinds(Edition edition) {
  std::vector<KindTag> out;
  for (KindTag k : valuesOf<KindTag>(edition))
    if (signature(k).op && inEdition(*signature(k).op, edition))
      out.push_back(k);
  return out;
}

namespace {

/// Per edition: the planned kinds of each op, and the ops with a planned kind.
struct EditionKinds {
  std::array<std::vector<KindTag>, vocabularySize<BackendOp>()> kindsOf;
  std::vector<BackendOp> ops;
};

const EditionKinds &editionKinds(Edition edition) {
  static const auto table = [] {
    std::array<EditionKinds, vocabularySize<Edition>()> t;
    for (std::size_t i = 0; i < t.size(); ++i) {
      const auto e = static_cast<Edition>(i);
      EditionKinds &k = t[i];
      for (KindTag tag : plannedKinds(e))
        k.kindsOf[static_cast<std::size_t>(*signature(tag).op)].push_back(tag);
      for (BackendOp op : valuesOf<BackendOp>(e))
        if (!k.kindsOf[static_cast<std::size_t>(op)].empty())
          k.ops.push_back(op);
    }
    return t;
  }();
  return table[static_cast<std::size_t>(edition)];
}

} // namespace

const std::vector<KindTag> &kindsOf(BackendOp op, Edition edition) {
  return editionKinds(edition).kindsOf[static_cast<std::size_t>(op)];
}

const std::vector<BackendOp> &plannedOps(Edition edition) { return editionKinds(edition).ops; }

std::uint64_t anyNatural(Choices &choices) {
  const std::uint64_t high = choices.below(std::uint64_t{1} << 32);
  return (high << 32) | choices.below(std::uint64_t{1} << 32);
}

namespace {

std::vector<std::uint64_t> shape(Choices &rng, std::size_t minRank = 0) {
  std::vector<std::uint64_t> s(rng.between(minRank, 4));
  for (auto &d : s)
    d = rng.between(1, 8);
  return s;
}

/// A HardMask (`{"shape", "allowed"}`): a shape of rank `rank` with dimensions from `dim`, and
/// `allowed` of `count` booleans (the shape's size when sensible; any length when wild: a plan
/// does not require the two to agree, ref/opkind.hpp).
std::vector<std::uint64_t> hardMask(Choices &rng, bool sensible) {
  std::vector<std::uint64_t> s(rng.between(sensible ? 1 : 0, 3));
  std::uint64_t size = 1;
  for (auto &d : s) {
    d = sensible || rng.chance(1, 2) ? rng.between(1, 4) : anyNatural(rng);
    size *= d;
  }
  std::vector<std::uint64_t> allowed(sensible ? size : rng.below(9));
  for (auto &b : allowed)
    b = rng.below(2);
  return encodeHardMask(s, allowed);
}

/// Whether a kind's arrays have `spatialRank` values each (a window: `conv`, `max_pool`,
/// `avg_pool`; the reader's rule, ref/io/reader.cpp).
bool windowed(KindTag tag) {
  const auto &params = signature(tag).params;
  return !params.empty() && params[0].name == "spatialRank";
}

/// Valid by the signature only: one natural or a list of up to three, small or anything (a
/// window's lists `spatialRank` values each, its rank at most three); a HardMask of any shape and
/// any number of booleans.
OpKind wildKind(Choices &rng, KindTag tag) {
  if (tag == KindTag::custom) // a text and shapes: their encodings are not any naturals
    return randomKind(rng, tag, Params::sensible);
  OpKind k{tag, {}};
  for (const auto &param : signature(tag).params) {
    if (param.type == ParamType::hardMask) {
      k.params.push_back(hardMask(rng, false));
      continue;
    }
    std::vector<std::uint64_t> values(param.type == ParamType::natural ? 1 : rng.below(4));
    if (windowed(tag) && !k.params.empty() && param.type == ParamType::naturals)
      values.resize(k.params[0][0]);
    for (auto &v : values)
      v = rng.chance(1, 2) ? rng.below(9) : anyNatural(rng);
    if (windowed(tag) && k.params.empty())
      values[0] = rng.below(4);
    k.params.push_back(std::move(values));
  }
  return k;
}

} // namespace

OpKind randomKind(Choices &rng, KindTag tag, Params params) {
  if (params == Params::wild)
    return wildKind(rng, tag);
  OpKind k{tag, {}};
  const auto nat = [&](std::uint64_t lo, std::uint64_t hi) {
    k.params.push_back({rng.between(lo, hi)});
  };
  using K = KindTag;
  switch (tag) {
  case K::permute: {
    std::vector<std::uint64_t> perm(rng.between(1, 4));
    for (std::size_t i = 0; i < perm.size(); ++i)
      perm[i] = i;
    for (std::size_t i = perm.size(); i > 1; --i) // Fisher-Yates with the portable generator
      std::swap(perm[i - 1], perm[rng.below(i)]);
    k.params.push_back(std::move(perm));
    break;
  }
  case K::rand_uniform:
  case K::bernoulli_mask:
    // Mostly small seeds, sometimes one near the top of the naturals an implementation must keep.
    k.params.push_back({rng.chance(1, 8) ? (std::uint64_t{1} << 63) - rng.below(1000)
                                         : rng.below(std::uint64_t{1} << 32)});
    break;
  case K::max_pool2d:
  case K::avg_pool2d:
  case K::max_pool2d_pad:
  case K::avg_pool2d_pad:
    nat(1, 5);
    nat(1, 5);
    nat(1, 3);
    if (tag == K::max_pool2d_pad || tag == K::avg_pool2d_pad)
      nat(0, 2);
    break;
  case K::broadcastTo: {
    std::vector<std::uint64_t> s2 = shape(rng, 1);
    std::vector<std::uint64_t> s1(s2.begin() + static_cast<std::ptrdiff_t>(rng.below(s2.size())),
                                  s2.end());
    for (auto &d : s1)
      if (rng.chance(1, 3))
        d = 1;
    k.params.push_back(std::move(s1));
    k.params.push_back(std::move(s2));
    break;
  }
  case K::reduce_sum:
  case K::reduce_mean:
  case K::softmax:
  case K::layernorm:
  case K::concat: nat(0, 3); break;
  case K::conv2d:
    nat(1, 64);
    nat(1, 64);
    nat(1, 7);
    nat(1, 7);
    nat(1, 2);
    nat(0, 3);
    break;
  case K::batch_norm2d_nchw_eval: nat(1, 256); break;
  case K::max_pool:
  case K::avg_pool:
  case K::conv: {
    // A window of rank 1 to 3: kernel, stride and padding (and a convolution's dilation and
    // padding after) one value a dimension.
    const std::uint64_t rank = rng.between(1, 3);
    k.params.push_back({rank});
    const auto each = [&](std::uint64_t lo, std::uint64_t hi) {
      std::vector<std::uint64_t> v(rank);
      for (auto &d : v)
        d = rng.between(lo, hi);
      k.params.push_back(std::move(v));
    };
    each(1, 5); // kernel
    each(1, 3); // stride
    each(0, 2); // padding
    if (tag == K::conv) {
      each(1, 2); // dilation
      each(0, 2); // paddingAfter
      nat(1, 1);  // groups
      nat(0, 3);  // channelAxis
      nat(1, 64); // inChannels
      nat(1, 64); // outChannels
    }
    break;
  }
  case K::reshape: {
    std::vector<std::uint64_t> in = shape(rng), out;
    for (std::size_t i = 0; i < in.size(); ++i) // merge adjacent dimensions: same element count
      if (!out.empty() && rng.chance(1, 2))
        out.back() *= in[i];
      else
        out.push_back(in[i]);
    k.params.push_back(std::move(in));
    k.params.push_back(std::move(out));
    break;
  }
  case K::flatten: k.params.push_back(shape(rng)); break;
  case K::hardMaskedSoftmax: k.params.push_back(hardMask(rng, true)); break;
  case K::custom: {
    // A name (its bytes one value each), the inputs' shapes (their count, then each shape's rank
    // and extents) and the output's shape (ref/opkind.hpp, ParamType).
    const std::string name = rng.pick({"rms_norm", "gelu_tanh", "swiglu", "scale \"x\""});
    k.params.push_back({name.begin(), name.end()});
    std::vector<std::uint64_t> inputs{rng.between(1, 3)};
    for (std::uint64_t i = 0; i < inputs[0]; ++i) {
      const std::vector<std::uint64_t> dims = shape(rng);
      inputs.push_back(dims.size());
      inputs.insert(inputs.end(), dims.begin(), dims.end());
    }
    k.params.push_back(std::move(inputs));
    k.params.push_back(shape(rng));
    break;
  }
  default:
    for (std::size_t i = 0; i < signature(tag).params.size(); ++i)
      k.params.push_back({rng.below(8)});
  }
  return k;
}

} // namespace lo::plans
