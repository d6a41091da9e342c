#include "tools/plans/kinds.hpp"

#include "ref/capsule.hpp"

#include <array>
#include <utility>

namespace lo::gen {

/// The kinds that are planned ("`-`: no runtime work, never planned" excludes the others).
std::vector<KindTag> plannedKinds() {
  std::vector<KindTag> out;
  for (std::size_t i = 0; i < vocabularySize<KindTag>(); ++i)
    if (signature(static_cast<KindTag>(i)).op)
      out.push_back(static_cast<KindTag>(i));
  return out;
}

const std::vector<KindTag> &kindsOf(BackendOp op) {
  static const auto table = [] {
    std::array<std::vector<KindTag>, vocabularySize<BackendOp>()> t;
    for (KindTag k : plannedKinds())
      t[static_cast<std::size_t>(*signature(k).op)].push_back(k);
    return t;
  }();
  return table[static_cast<std::size_t>(op)];
}

/// The ops some kind maps to (only these can appear in a valid plan).
const std::vector<BackendOp> &plannedOps() {
  static const auto ops = [] {
    std::vector<BackendOp> out;
    for (std::size_t i = 0; i < vocabularySize<BackendOp>(); ++i)
      if (!kindsOf(static_cast<BackendOp>(i)).empty())
        out.push_back(static_cast<BackendOp>(i));
    return out;
  }();
  return ops;
}

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

/// Valid by the signature only: one natural or a list of up to three, small or anything.
OpKind wildKind(Choices &rng, KindTag tag) {
  OpKind k{tag, {}};
  for (const auto &param : signature(tag).params) {
    std::vector<std::uint64_t> values(param.type == ParamType::natural ? 1 : rng.below(4));
    for (auto &v : values)
      v = rng.chance(1, 2) ? rng.below(9) : anyNatural(rng);
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
  default:
    for (std::size_t i = 0; i < signature(tag).params.size(); ++i)
      k.params.push_back({rng.below(8)});
  }
  return k;
}

} // namespace lo::gen
