// Build availability: the devices and providers a build declares to planning (docs/spec.md §10.2).
#pragma once

#include "ref/capsule.hpp"

#include <cstddef>
#include <vector>

namespace lo::selection {

/// `Availability {devices, providers}`, with upstream's defaults (`cpu`; `reference`, `torchlean`).
struct Availability {
  std::vector<Device> devices{Device::cpu};
  std::vector<Provider> providers{Provider::reference, Provider::torchlean};
  bool operator==(const Availability &) const = default;

  /// `Availability.cpu`.
  static Availability cpu() { return {}; }
  /// `Availability.cuda withLibTorch`.
  static Availability cuda(bool withLibTorch = false);
};

/// `Availability.admitsCapsule`: the capsule's device and provider are both declared.
bool admitsCapsule(const Availability &a, const KernelCapsule &c);

/// `Availability.filterCapsules`, as the positions in `capsules` of the admitted ones, in order.
std::vector<std::size_t> filterCapsules(const Availability &a,
                                        const std::vector<KernelCapsule> &capsules);

} // namespace lo::selection
