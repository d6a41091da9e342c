// The capsule registry: ordered, named modules of capsules, validated and flattened
// (docs/spec.md §10.1).
#pragma once

#include "ref/capsule.hpp"

#include <optional>
#include <string>
#include <vector>

namespace lo::selection {

/// `Registry.CapsuleModule {name, capsules}`.
struct CapsuleModule {
  std::string name;
  std::vector<KernelCapsule> capsules;
  bool operator==(const CapsuleModule &) const = default;
};

/// `Registry.flatten`: the modules' capsules, module order then local order.
std::vector<KernelCapsule> flatten(const std::vector<CapsuleModule> &modules);

/// `firstDuplicateModuleName?`: the first module (in order) whose name another module also has.
std::optional<std::string> firstDuplicateModuleName(const std::vector<CapsuleModule> &modules);

/// `firstDuplicateCapsuleName?`: the name of the first capsule (in order) whose identity
/// (`sameIdentity`) another capsule also has.
std::optional<std::string> firstDuplicateCapsuleName(const std::vector<KernelCapsule> &capsules);

/// `Registry.validateModules`: nullopt, or upstream's message for the first failure
/// (docs/spec.md §10.1).
std::optional<std::string> validateModules(const std::vector<CapsuleModule> &modules);

} // namespace lo::selection
