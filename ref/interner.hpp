// Interning of capsules and kinds: each distinct value is stored once and named by a small id.
//
// Capsules are interned once per document, so that `canAppend` (docs/spec.md §1.3) costs O(1). Two
// capsules have the same CapsuleId exactly when they are equal in every field (equality
// `contract`), and the same IdentityId exactly when `sameIdentity` holds (equality `identity`).
// One Interner may serve several documents (a plan and a candidate), so their ids compare.
#pragma once

#include "ref/capsule.hpp"
#include "ref/opkind.hpp"

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

namespace lo {

enum class CapsuleId : std::uint32_t {};
enum class IdentityId : std::uint32_t {};
enum class KindId : std::uint32_t {};

class Interner {
public:
  Interner();
  Interner(const Interner &) = delete;
  Interner &operator=(const Interner &) = delete;

  CapsuleId intern(KernelCapsule capsule);
  KindId intern(OpKind kind);
  /// The id of a kind without parameters; no lookup needed.
  static KindId bareKind(KindTag tag) { return static_cast<KindId>(tag); }

  const KernelCapsule &capsule(CapsuleId id) const { return capsules_[index(id)]; }
  const OpKind &kind(KindId id) const { return kinds_[index(id)]; }
  IdentityId identity(CapsuleId id) const { return identities_[index(id)]; }
  std::size_t capsuleCount() const { return capsules_.size(); }

  /// `same(g.capsule, k.capsule)` of docs/spec.md §1.3, under either equality, in O(1).
  bool same(Equality equality, CapsuleId a, CapsuleId b) const {
    return equality == Equality::contract ? a == b : identity(a) == identity(b);
  }

private:
  template <class Id> static std::size_t index(Id id) { return static_cast<std::size_t>(id); }

  std::deque<KernelCapsule> capsules_;
  std::vector<IdentityId> identities_;
  std::unordered_multimap<std::size_t, CapsuleId> byHash_;
  std::unordered_multimap<std::size_t, IdentityId> identityByHash_; // -> a representative
  std::vector<CapsuleId> identityRepresentative_;
  std::deque<OpKind> kinds_;
  std::unordered_multimap<std::size_t, KindId> kindsByHash_;
};

} // namespace lo
