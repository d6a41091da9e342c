#include "ref/interner.hpp"

#include <optional>

namespace lo {

namespace {

/// The id filed under hash `h` in `byHash` for which `same(id)` holds, if any.
template <class Id, class Same>
std::optional<Id> findByHash(const std::unordered_multimap<std::size_t, Id> &byHash, std::size_t h,
                             Same &&same) {
  auto [lo, hi] = byHash.equal_range(h);
  for (auto it = lo; it != hi; ++it)
    if (same(it->second))
      return it->second;
  return std::nullopt;
}

} // namespace

Interner::Interner() {
  // Kinds without parameters get the id of their tag, so the reader needs no lookup for them.
  for (std::size_t t = 0; t < vocabularySize<KindTag>(); ++t) {
    OpKind k{static_cast<KindTag>(t), {}};
    k.params.resize(signature(k.tag).params.size());
    kindsByHash_.emplace(hashKind(k), static_cast<KindId>(kinds_.size()));
    kinds_.push_back(std::move(k));
  }
}

CapsuleId Interner::intern(KernelCapsule capsule) {
  const std::size_t h = hashCapsule(capsule);
  if (auto found = findByHash(byHash_, h, [&](CapsuleId c) { return this->capsule(c) == capsule; }))
    return *found;

  const auto id = static_cast<CapsuleId>(capsules_.size());
  const std::size_t ih = hashIdentity(capsule);
  std::optional<IdentityId> identity = findByHash(identityByHash_, ih, [&](IdentityId i) {
    return sameIdentity(this->capsule(identityRepresentative_[index(i)]), capsule);
  });
  if (!identity) {
    identity = static_cast<IdentityId>(identityRepresentative_.size());
    identityRepresentative_.push_back(id);
    identityByHash_.emplace(ih, *identity);
  }
  capsules_.push_back(std::move(capsule));
  identities_.push_back(*identity);
  byHash_.emplace(h, id);
  return id;
}

KindId Interner::intern(OpKind kind) {
  const std::size_t h = hashKind(kind);
  if (auto found = findByHash(kindsByHash_, h, [&](KindId k) { return this->kind(k) == kind; }))
    return *found;
  const auto id = static_cast<KindId>(kinds_.size());
  kinds_.push_back(std::move(kind));
  kindsByHash_.emplace(h, id);
  return id;
}

} // namespace lo
