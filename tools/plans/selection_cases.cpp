#include "tools/plans/selection_cases.hpp"

#include "ref/acceptance.hpp"
#include "ref/io/graph_reader.hpp"
#include "ref/recheck.hpp"
#include "tools/plans/capsules.hpp"
#include "tools/plans/kinds.hpp"

#include <algorithm>

namespace lo::plans {

namespace {

std::vector<KindTag> writableKinds(BackendOp op, Edition e) {
  std::vector<KindTag> out;
  for (KindTag k : kindsOf(op, e))
    if (io::graphCarries(k))
      out.push_back(k);
  return out;
}

/// The first `n` values of the edition's vocabulary: a small pool, so that draws collide.
template <class E> std::vector<E> pool(Edition e, std::size_t n) {
  std::vector<E> v = valuesOf<E>(e);
  v.resize(std::min(v.size(), n));
  return v;
}

/// Each value of `from` with probability 3/4, in order.
template <class E> std::vector<E> subset(Choices &choices, const std::vector<E> &from) {
  std::vector<E> out;
  for (E x : from)
    if (choices.chance(3, 4))
      out.push_back(x);
  return out;
}

} // namespace

SelectionCase randomSelectionCase(Interner &interner, Choices &choices,
                                  const SelectionKnobs &knobs) {
  const Edition e = knobs.edition;
  SelectionCase out;
  const std::vector<Provider> providers = pool<Provider>(e, 3);
  const std::vector<Device> devices = pool<Device>(e, 2);
  const std::vector<VJPMode> modes = valuesOf<VJPMode>(e);

  // The ops: one to three of the edition's, each with a kind the graph can carry.
  std::vector<BackendOp> candidates;
  for (BackendOp op : plannedOps(e))
    if (!writableKinds(op, e).empty())
      candidates.push_back(op);
  // Distinct ops, each drawn from those left: a source that repeats one answer (a list of words,
  // zeros past its end) still ends.
  std::vector<BackendOp> ops;
  for (std::size_t n = choices.between(1, 3); ops.size() < n && !candidates.empty();) {
    const auto at = static_cast<std::ptrdiff_t>(choices.below(candidates.size()));
    ops.push_back(candidates[static_cast<std::size_t>(at)]);
    candidates.erase(candidates.begin() + at);
  }

  // The graph: runtime nodes of the ops, and nodes without runtime work between them.
  std::vector<KindTag> idle;
  for (KindTag k : {KindTag::input, KindTag::detach, KindTag::const_})
    if (inEdition(k, e))
      idle.push_back(k);
  const std::size_t n = knobs.maxNodes == 0     ? 0
                        : choices.below(8) == 7 ? choices.below(3)
                                                : choices.between(1, knobs.maxNodes);
  for (std::size_t i = 0; i < n && i < knobs.maxNodes; ++i) {
    selection::Node node;
    node.id = i;
    const bool work = i == 0 ? choices.below(2) == 0 : choices.below(6) != 5;
    const KindTag tag =
        work ? choices.pick(writableKinds(choices.pick(ops), e)) : choices.pick(idle);
    node.kind = interner.intern(randomKind(choices, tag, Params::sensible));
    node.op = signature(tag).op;
    for (std::size_t p = i == 0 ? 0 : choices.below(3); p > 0; --p)
      node.parents.push_back(choices.below(i));
    out.graph.nodes.push_back(std::move(node));
  }
  if (!out.graph.nodes.empty() && choices.below(24) == 23) { // not well formed (docs/spec.md §10.4)
    selection::Node &last = out.graph.nodes.back();
    if (choices.chance(1, 2))
      last.parents.push_back(last.id);
    else
      last.id += 1;
  }

  // The policy and the availability: mostly admitting the policy's device.
  acceptance::KernelPolicy &policy = out.profile.policy;
  policy.device = choices.pick(devices);
  switch (choices.below(3)) {
  case 0: policy.provider = acceptance::ProviderPreference::autoPreference(); break;
  case 1: policy.provider = acceptance::ProviderPreference::prefer(choices.pick(providers)); break;
  default: policy.provider = acceptance::ProviderPreference::only(choices.pick(providers)); break;
  }
  policy.assurance = choices.chance(2, 3) ? acceptance::AssurancePolicy::checked()
                                          : acceptance::AssurancePolicy::external();
  policy.vjpMode = choices.pick(modes);
  out.profile.name = "generated";
  out.profile.availability.devices = subset(choices, devices);
  if (choices.chance(7, 8) &&
      std::find(out.profile.availability.devices.begin(), out.profile.availability.devices.end(),
                policy.device) == out.profile.availability.devices.end())
    out.profile.availability.devices.push_back(policy.device);
  out.profile.availability.providers = subset(choices, providers);
  if (policy.provider.kind != acceptance::ProviderPreference::Kind::automatic &&
      choices.chance(7, 8) &&
      std::find(out.profile.availability.providers.begin(),
                out.profile.availability.providers.end(),
                policy.provider.provider) == out.profile.availability.providers.end())
    out.profile.availability.providers.push_back(policy.provider.provider);
  const std::vector<Provider> &offered = out.profile.availability.providers;

  // The modules: each op's capsules spread over one to three modules, mostly eligible ones but
  // for one reason or another.
  const std::size_t moduleCount = choices.between(1, 3);
  for (std::size_t m = 0; m < moduleCount; ++m)
    out.profile.capsuleModules.push_back({"m" + std::to_string(m), {}});
  std::size_t serial = 0;
  for (BackendOp op : ops) {
    const std::size_t count = choices.below(16) == 15 ? 0 : choices.between(1, 5);
    // Mostly one capsule eligible by construction among the others (docs/spec.md §10.3), so that
    // most cases plan and an implementation's choice among several eligible ones is tested.
    const std::size_t eligibleAt = count > 0 && choices.chance(4, 5) ? choices.below(count) : count;
    // Now and then the capsule before it is a decoy: eligible too but of another provider than
    // the preferred one (passed over, or the preference ignored), or of the preferred provider
    // but trusted-external (trust a preference must not override).
    using PK = acceptance::ProviderPreference::Kind;
    const bool preferring = policy.provider.kind == PK::prefer;
    const bool decoy =
        eligibleAt > 0 && eligibleAt < count && choices.below(3) >= (preferring ? 1u : 2u);
    const bool trustDecoy = decoy && choices.below(2) == 1;
    for (std::size_t i = 0; i < count; ++i) {
      KernelCapsule c = randomCapsule(choices, op, Vocabulary::suite, e);
      c.provider = choices.pick(providers);
      c.device = choices.chance(3, 4) ? policy.device : choices.pick(devices);
      c.trustLevel = choices.below(3) == 2 ? TrustLevel::trusted_external
                                           : choices.pick(valuesOf<TrustLevel>(e));
      c.supportsForward = choices.below(8) != 7;
      c.vjpMode = choices.chance(2, 3) ? policy.vjpMode : choices.pick(modes);
      if (i == eligibleAt || (decoy && i + 1 == eligibleAt)) {
        if (policy.provider.kind == PK::only ||
            (preferring && ((decoy && !trustDecoy) || choices.below(2) == 1)))
          c.provider = policy.provider.provider;
        else if (!offered.empty())
          c.provider = choices.pick(offered);
        c.device = policy.device;
        if (!policy.assurance.allowTrustedExternal && c.trustLevel == TrustLevel::trusted_external)
          c.trustLevel = TrustLevel::checked;
        c.supportsForward = true;
        c.vjpMode = policy.vjpMode == VJPMode::none ? choices.pick(modes) : VJPMode::backend_vjp;
      }
      if (decoy && i + 1 == eligibleAt) {
        if (trustDecoy) {
          c.trustLevel = TrustLevel::trusted_external;
          if (preferring)
            c.provider = policy.provider.provider;
        } else if (preferring) {
          for (Provider p : offered)
            if (p != policy.provider.provider)
              c.provider = p;
        }
      }
      for (ContractObligation o : valuesOf<ContractObligation>(e))
        contractOf(c, o).claim = acceptance::alignedClaim(op, c.vjpMode, o);
      if (i != eligibleAt &&
          choices.below(8) == 7) { // one claim of another op: contracts misaligned
        ContractClaim &claim =
            contractOf(c, choices.pick({ContractObligation::shape, ContractObligation::value}))
                .claim;
        claim.op = claim.op == ops.front() && ops.size() > 1 ? ops.back() : ops.front();
        if (claim.op == op)
          claim.tag = ClaimTag::layoutCompatibility;
      }
      // Distinct identities, but now and then a duplicate (validateModules fails).
      c.name = std::string(spelling(c.provider)) + "." + std::string(spelling(op)) + "." +
               std::to_string(choices.below(64) == 63 && serial > 0 ? serial - 1 : serial);
      ++serial;
      out.profile.capsuleModules[choices.below(moduleCount)].capsules.push_back(std::move(c));
    }
  }
  if (choices.below(40) == 39 && moduleCount > 1) // a duplicate module name
    out.profile.capsuleModules.back().name = out.profile.capsuleModules.front().name;

  return out;
}

SelectionCase selectionCaseAt(Interner &interner, std::uint64_t seed, std::size_t index,
                              const SelectionKnobs &knobs) {
  Rng seeder(seed ^ (0x9b5d3a4f1e2c7d6bULL * (index + 1)));
  Rng rng(seeder.next());
  return randomSelectionCase(interner, rng, knobs);
}

} // namespace lo::plans
