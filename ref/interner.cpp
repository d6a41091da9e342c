#include "ref/interner.hpp"

namespace lo {

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
  auto [lo, hi] = byHash_.equal_range(h);
  for (auto it = lo; it != hi; ++it)
    if (capsules_[index(it->second)] == capsule)
      return it->second;

  const auto id = static_cast<CapsuleId>(capsules_.size());
  const std::size_t ih = hashIdentity(capsule);
  std::optional<IdentityId> identity;
  auto [ilo, ihi] = identityByHash_.equal_range(ih);
  for (auto it = ilo; it != ihi; ++it)
    if (sameIdentity(capsules_[index(identityRepresentative_[index(it->second)])], capsule))
      identity = it->second;
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
  auto [lo, hi] = kindsByHash_.equal_range(h);
  for (auto it = lo; it != hi; ++it)
    if (kinds_[index(it->second)] == kind)
      return it->second;
  const auto id = static_cast<KindId>(kinds_.size());
  kinds_.push_back(std::move(kind));
  kindsByHash_.emplace(h, id);
  return id;
}

} // namespace lo
