#include "ref/capsule.hpp"

#include "ref/hash.hpp"

namespace lo {

namespace {

// Keyed (ref/hash.hpp): capsules come from input files, which must not be able to choose
// capsules that collide.
struct Hasher {
  SipHasher sip;
  void mix(std::uint64_t v) { sip.word(v); }
  void str(const std::string &s) { sip.bytes(s); }
  template <class E> void en(E e) { mix(static_cast<std::uint64_t>(e) + 1); }

  void claim(const ContractClaim &c) {
    en(c.tag);
    en(c.op);
    en(c.layout);
    mix(c.spec.has_value());
    if (c.spec)
      str(*c.spec);
    en(c.mode);
  }
  void descriptor(const ContractDescriptor &d) {
    claim(d.claim);
    str(d.summary);
    en(d.evidence.tag);
    str(d.evidence.text);
    mix(d.provenance.size());
    for (const auto &p : d.provenance) {
      en(p.tag);
      str(p.path);
      str(p.symbol);
      mix(p.buildTarget.has_value());
      if (p.buildTarget)
        str(*p.buildTarget);
    }
  }
};

} // namespace

bool sameIdentity(const KernelCapsule &a, const KernelCapsule &b) {
  return a.name == b.name && a.op == b.op && a.provider == b.provider && a.device == b.device;
}

bool isTrustedExternal(const KernelCapsule &c) {
  return c.trustLevel == TrustLevel::trusted_external;
}

std::size_t hashIdentity(const KernelCapsule &c) {
  Hasher h;
  h.str(c.name);
  h.en(c.op);
  h.en(c.provider);
  h.en(c.device);
  return h.sip.finish();
}

std::size_t hashCapsule(const KernelCapsule &c) {
  Hasher h;
  h.mix(hashIdentity(c));
  h.en(c.trustLevel);
  h.mix(c.supportsForward);
  h.en(c.vjpMode);
  h.descriptor(c.shapeContract);
  h.descriptor(c.layoutContract);
  h.descriptor(c.valueContract);
  h.descriptor(c.vjpContract);
  h.en(c.numericalPolicy.rounding);
  h.en(c.numericalPolicy.subnormals);
  h.en(c.numericalPolicy.contraction);
  h.en(c.numericalPolicy.reduction);
  h.str(c.notes);
  return h.sip.finish();
}

EvidenceText evidenceTextOf(EvidenceTag tag) {
  // Every tag named, so that a new tag is a compile error here (-Wswitch), not a silent `name`.
  using T = EvidenceTag;
  switch (tag) {
  case T::trustedBoundary: return EvidenceText::reason;
  case T::notProvided:
  case T::notApplicable: return EvidenceText::none;
  case T::theorem:
  case T::checker:
  case T::runtimeGuard:
  case T::testSuite:
  case T::fuzzOracle: return EvidenceText::name;
  }
  return EvidenceText::name;
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
