// docs/spec.md §10.2.
#include "ref/availability.hpp"

#include <algorithm>

namespace lo::selection {

Availability Availability::cuda(bool withLibTorch) {
  Availability a;
  a.devices = {Device::cpu, Device::cuda};
  a.providers = {Provider::reference, Provider::torchlean, Provider::native_cuda};
  if (withLibTorch)
    a.providers.push_back(Provider::libtorch);
  return a;
}

bool admitsCapsule(const Availability &a, const KernelCapsule &c) {
  return std::find(a.devices.begin(), a.devices.end(), c.device) != a.devices.end() &&
         std::find(a.providers.begin(), a.providers.end(), c.provider) != a.providers.end();
}

std::vector<std::size_t> filterCapsules(const Availability &a,
                                        const std::vector<KernelCapsule> &capsules) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < capsules.size(); ++i)
    if (admitsCapsule(a, capsules[i]))
      out.push_back(i);
  return out;
}

} // namespace lo::selection
