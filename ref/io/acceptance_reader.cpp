#include "ref/io/acceptance_reader.hpp"

#include "ref/io/contract_reader.hpp"
#include "ref/io/escape.hpp"
#include "ref/io/strict_json.hpp"
#include "ref/io/verdict_reader.hpp"

#include <optional>

namespace lo::io {

namespace {

using acceptance::AcceptanceFailure;
using K = AcceptanceFailureKind;

constexpr std::string_view kAcceptanceResultFormat = "nn-backend/acceptance-result";
// The fields of an acceptance result (docs/spec.md §6.10) and of its parts, in the order of their
// bits.
constexpr std::string_view kResultFields[] = {"format",  "version", "policy",
                                              "verdict", "groups",  "failures"};
constexpr std::string_view kPolicyFields[] = {"profile", "device", "provider",
                                              "allowTrustedExternal", "vjpMode"};
constexpr std::string_view kGroupFields[] = {"nodeIds", "op", "capsuleName"};
/// A failure's fields: `kind` first (checkTagFields reads bit 0 as the tag), then the others.
constexpr std::string_view kFailureFields[] = {
    "kind",      "group",  "op",         "capsuleOp", "capsuleName", "trust",  "provider",
    "requested", "actual", "obligation", "claim",     "evidence",    "message"};

/// The fields a failure of kind `k` carries (docs/spec.md §6.10; io::writeAcceptanceFailure).
std::uint32_t failureFieldsOf(K k) {
  const std::uint32_t common = fieldBits(kFailureFields, {"kind", "group", "op", "message"});
  switch (k) {
  case K::operationMismatch: return common | fieldBits(kFailureFields, {"capsuleOp"});
  case K::trustRejected: return common | fieldBits(kFailureFields, {"capsuleName", "trust"});
  case K::providerRejected: return common | fieldBits(kFailureFields, {"capsuleName", "provider"});
  case K::deviceMismatch:
  case K::vjpMismatch:
    return common | fieldBits(kFailureFields, {"capsuleName", "requested", "actual"});
  case K::evidenceRejected:
    return common | fieldBits(kFailureFields, {"capsuleName", "obligation", "claim", "evidence"});
  default: return common | fieldBits(kFailureFields, {"capsuleName"});
  }
}

/// A spelling read as text, parsed once the failure's kind says its vocabulary.
struct Deferred {
  std::string text;
  std::string pointer;
};

template <class E> E parseDeferred(JsonReader &r, const Deferred &d) {
  if (const auto e = lookupSpelling<E>(d.text); e && inEdition(*e, r.edition()))
    return *e;
  r.failAtPointer(d.pointer, "unknown " + std::string(Vocabulary<E>::name) + " " + quote(d.text) +
                                 "; expected one of: " + joinedSpellings<E>(r.edition()));
}

AcceptanceFailure readFailure(JsonReader &r, od::value &v, std::size_t &group) {
  AcceptanceFailure f;
  const char *start = r.location(v);
  const std::string at = r.pointer();
  std::optional<Deferred> requested, actual;
  std::string message;
  const std::uint32_t seen = r.fields(
      v, "a failure", FieldSet{kFailureFields, fieldBits(kFailureFields, {"kind"})},
      [&](std::size_t i, od::value x) {
        switch (i) {
        case 0: f.kind = r.enumValue<AcceptanceFailureKind>(x); break;
        case 1: group = r.natural(x, "a group index"); break;
        case 2: f.op = r.enumValue<BackendOp>(x); break;
        case 3: f.capsuleOp = r.enumValue<BackendOp>(x); break;
        case 4: f.capsuleName = std::string(r.string(x, "a capsule name")); break;
        case 5: f.trust = r.enumValue<TrustLevel>(x); break;
        case 6: f.provider = r.enumValue<Provider>(x); break;
        case 7:
          requested = Deferred{std::string(r.string(x, "a device or VJP mode")), r.pointer()};
          break;
        case 8:
          actual = Deferred{std::string(r.string(x, "a device or VJP mode")), r.pointer()};
          break;
        case 9: f.obligation = r.enumValue<ContractObligation>(x); break;
        case 10: f.claim = readRecord<ContractClaim>(r, x); break;
        case 11: f.evidence = readRecord<ContractEvidence>(r, x); break;
        case 12: message = std::string(r.string(x, "a message")); break;
        }
      });
  const std::uint32_t allowed = failureFieldsOf(f.kind);
  r.checkTagFields(start, kFailureFields, seen, allowed, allowed,
                   [&] { return "a " + std::string(spelling(f.kind)) + " failure"; });
  if (f.kind == K::deviceMismatch) {
    f.requestedDevice = parseDeferred<Device>(r, *requested);
    f.actualDevice = parseDeferred<Device>(r, *actual);
  } else if (f.kind == K::vjpMismatch) {
    f.requestedVJP = parseDeferred<VJPMode>(r, *requested);
    f.actualVJP = parseDeferred<VJPMode>(r, *actual);
  }
  if (const std::string expected = acceptance::message(f); message != expected)
    r.failAtPointer(at + "/message", "the message of this " + std::string(spelling(f.kind)) +
                                         " failure is " + quote(expected));
  return f;
}

} // namespace

ReadAcceptanceResult readAcceptanceResult(const Source &source, Edition edition) {
  JsonReader r(source);
  r.setEdition(edition);
  ReadAcceptanceResult out;
  r.documentFields(
      "an acceptance result", kAcceptanceResultFormat,
      FieldSet{kResultFields,
               fieldBits(kResultFields, {"policy", "verdict", "groups", "failures"})},
      [&](std::size_t i, od::value v) {
        switch (i) {
        case 2:
          r.fields(v, "a kernel policy", FieldSet{kPolicyFields, allFieldBits(5)},
                   [&](std::size_t f, od::value x) {
                     switch (f) {
                     case 0: out.profile = r.string(x, "a profile name"); break;
                     case 1: out.policy.device = r.enumValue<Device>(x); break;
                     case 2: {
                       const char *at = r.location(x);
                       const std::string_view text = r.string(x, "a provider preference");
                       const auto p = acceptance::parsePreference(text);
                       if (!p || !inEdition(p->provider, edition))
                         r.fail(at, "unknown provider preference " + quote(text) +
                                        "; expected auto, prefer:P or only:P with P a provider "
                                        "of edition " +
                                        std::string(spelling(edition)));
                       out.policy.provider = *p;
                       break;
                     }
                     case 3:
                       out.policy.assurance.allowTrustedExternal =
                           r.boolean(x, "allowTrustedExternal");
                       break;
                     case 4: out.policy.vjpMode = r.enumValue<VJPMode>(x); break;
                     }
                   });
          break;
        case 3: out.accepted = readVerdict(r, v); break;
        case 4:
          r.elements(v, "the groups array", [&](od::value &g) {
            ReadAcceptanceResult::Group group;
            r.fields(g, "a group", FieldSet{kGroupFields, allFieldBits(3)},
                     [&](std::size_t f, od::value x) {
                       switch (f) {
                       case 0: group.nodeIds = r.naturals(x, "the node ids"); break;
                       case 1: group.op = r.enumValue<BackendOp>(x); break;
                       case 2: group.capsuleName = r.string(x, "a capsule name"); break;
                       }
                     });
            out.groups.push_back(std::move(group));
          });
          break;
        case 5:
          r.elements(v, "the failures array", [&](od::value &f) {
            std::size_t group = 0;
            out.failures.push_back(readFailure(r, f, group));
            out.failureGroups.push_back(group);
          });
          break;
        }
      });
  // Members in any order: a failure's group is checked once the groups are read.
  for (std::size_t i = 0; i < out.failureGroups.size(); ++i)
    if (out.failureGroups[i] >= out.groups.size())
      r.failAtPointer("/failures/" + std::to_string(i) + "/group",
                      "group " + std::to_string(out.failureGroups[i]) + " is not one of the " +
                          counted(out.groups.size(), "group"));
  checkVerdictAgrees(r, out.accepted, out.failures.size());
  return out;
}

} // namespace lo::io
