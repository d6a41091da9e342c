#include "ref/capsule.hpp"

#include "ref/hash.hpp"

namespace lo {

bool sameIdentity(const KernelCapsule &a, const KernelCapsule &b) {
  return identitiesEqual<KernelCapsule>(a, b);
}

bool isTrustedExternal(const KernelCapsule &c) {
  return c.trustLevel == TrustLevel::trusted_external;
}

// Keyed (ref/hash.hpp): capsules come from input files, which must not be able to choose
// capsules that collide.
std::size_t hashIdentity(const KernelCapsule &c) {
  SipHasher h;
  hashRecord<KernelCapsule>(h, c, true);
  return h.finish();
}

std::size_t hashCapsule(const KernelCapsule &c) {
  SipHasher h;
  hashRecord<KernelCapsule>(h, c);
  return h.finish();
}

EvidenceText evidenceTextOf(EvidenceTag tag) {
  // The evidence table's text fields (`name`, and `reason` for other tags) say which tag has which.
  EvidenceText text = EvidenceText::none;
  forEachField<ContractEvidence>([&](const auto &f, auto) {
    if (f.name != "tag" && f.forTag(tag))
      text = f.name == "reason" ? EvidenceText::reason : EvidenceText::name;
  });
  return text;
}

KernelCapsule sampleCapsule(std::string name, BackendOp op, TrustLevel trust, Provider provider,
                            Device device) {
  KernelCapsule c;
  c.name = std::move(name);
  c.op = op;
  c.provider = provider;
  c.device = device;
  c.trustLevel = trust;
  for (auto *d : {&c.shapeContract, &c.layoutContract, &c.valueContract, &c.vjpContract})
    d->claim.op = op;
  return c;
}

} // namespace lo
