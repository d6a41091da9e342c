// docs/spec.md §10.1.
#include "ref/registry.hpp"

#include "ref/hash.hpp"

#include <unordered_map>

namespace lo::selection {

std::vector<KernelCapsule> flatten(const std::vector<CapsuleModule> &modules) {
  std::vector<KernelCapsule> out;
  for (const CapsuleModule &m : modules)
    out.insert(out.end(), m.capsules.begin(), m.capsules.end());
  return out;
}

std::optional<std::string> firstDuplicateModuleName(const std::vector<CapsuleModule> &modules) {
  // The first module, in order, whose name occurs twice: count every name, then scan.
  std::unordered_map<std::string, std::size_t> count;
  for (const CapsuleModule &m : modules)
    ++count[m.name];
  for (const CapsuleModule &m : modules)
    if (count[m.name] > 1)
      return m.name;
  return std::nullopt;
}

namespace {
struct IdentityHash {
  std::size_t operator()(const KernelCapsule *c) const { return hashIdentity(*c); }
};
struct IdentityEqual {
  bool operator()(const KernelCapsule *a, const KernelCapsule *b) const {
    return sameIdentity(*a, *b);
  }
};
} // namespace

std::optional<std::string> firstDuplicateCapsuleName(const std::vector<KernelCapsule> &capsules) {
  std::unordered_map<const KernelCapsule *, std::size_t, IdentityHash, IdentityEqual> count;
  for (const KernelCapsule &c : capsules)
    ++count[&c];
  for (const KernelCapsule &c : capsules)
    if (count[&c] > 1)
      return c.name;
  return std::nullopt;
}

std::optional<std::string> validateModules(const std::vector<CapsuleModule> &modules) {
  if (auto name = firstDuplicateModuleName(modules))
    return "duplicate backend capsule module `" + *name + "`";
  if (auto name = firstDuplicateCapsuleName(flatten(modules)))
    return "duplicate backend capsule identity `" + *name + "`";
  return std::nullopt;
}

} // namespace lo::selection
