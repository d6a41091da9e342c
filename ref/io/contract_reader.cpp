#include "ref/io/contract_reader.hpp"

namespace lo::io {

namespace {
constexpr std::string_view kClaimFields[] = {"tag", "op", "layout", "spec", "mode"};
// The fields of kClaimFields each claim tag has (in the order of the claim tags, docs/spec.md
// §1.5).
constexpr std::uint32_t kClaimShape[] = {
    fieldBits(kClaimFields, {"tag", "op"}),                 // shapeSafety
    fieldBits(kClaimFields, {"tag", "op", "layout"}),       // layoutCompatibility
    fieldBits(kClaimFields, {"tag", "op", "spec"}),         // valueRefinement
    fieldBits(kClaimFields, {"tag", "op", "spec", "mode"}), // vjpRefinement
    fieldBits(kClaimFields, {"tag", "op"})};                // vjpUnavailable
static_assert(std::size(kClaimShape) == vocabularySize<ClaimTag>());
constexpr std::uint32_t kSpecBit = fieldBits(kClaimFields, {"spec"});

constexpr std::string_view kEvidenceFields[] = {"tag", "name", "reason"};

constexpr std::string_view kProvenanceFields[] = {"tag", "path", "symbol", "buildTarget", "text"};
// Required and allowed fields of kProvenanceFields per tag (in the order of the provenance tags).
constexpr std::uint32_t kProvenanceRequired[] = {
    fieldBits(kProvenanceFields, {"tag", "path"}),           // sourceFile
    fieldBits(kProvenanceFields, {"tag", "path", "symbol"}), // nativeSymbol
    fieldBits(kProvenanceFields, {"tag", "text"})};          // note
constexpr std::uint32_t kProvenanceAllowed[] = {
    fieldBits(kProvenanceFields, {"tag", "path"}),
    fieldBits(kProvenanceFields, {"tag", "path", "symbol", "buildTarget"}),
    fieldBits(kProvenanceFields, {"tag", "text"})};
static_assert(std::size(kProvenanceRequired) == vocabularySize<ProvenanceTag>());

constexpr std::string_view kDescriptorFields[] = {"claim", "summary", "evidence", "provenance"};

constexpr std::string_view kPolicyFields[] = {"rounding", "subnormals", "contraction", "reduction"};

/// What readTagged read: the tag, the fields present (bits of the field table) and where the
/// object starts.
template <class Tag> struct Tagged {
  Tag tag;
  std::uint32_t seen;
  const char *start;
};

/// The fields of a tagged object (docs/spec.md §2.2) against the field table `names`, whose field
/// 0 is `tag` (required, a spelling of Tag; `tagWhat` names it in a type error); `onField(i,
/// value)` reads every other field. Which fields the tag has is for the caller to check.
template <class Tag, class F>
Tagged<Tag> readTagged(JsonReader &r, od::value &v, std::string_view what,
                       std::span<const std::string_view> names, std::string_view tagWhat,
                       F &&onField) {
  const char *start = r.location(v);
  std::optional<Tag> tag;
  const std::uint32_t seen =
      r.fields(v, what, FieldSet{names, fieldBit(0)}, [&](std::size_t i, od::value x) {
        if (i == 0)
          tag = r.enumValue<Tag>(x, tagWhat);
        else
          onField(i, x);
      });
  return {*tag, seen, start};
}

} // namespace

ContractClaim readClaim(JsonReader &r, od::value &v) {
  ContractClaim c;
  const auto t = readTagged<ClaimTag>(r, v, "a contract claim", kClaimFields, "a claim tag",
                                      [&](std::size_t i, od::value x) {
                                        switch (i) {
                                        case 1: c.op = r.enumValue<BackendOp>(x); break;
                                        case 2: c.layout = r.enumValue<TensorLayout>(x); break;
                                        case 3: c.spec = r.string(x, "a spec name"); break;
                                        case 4: c.mode = r.enumValue<VJPMode>(x); break;
                                        }
                                      });
  c.tag = t.tag;
  std::uint32_t shape = kClaimShape[static_cast<std::size_t>(c.tag)];
  if ((shape & kSpecBit) && !claimsHaveSpec(r.edition())) {
    // From 2026-08 `valueRefinement op` and `vjpRefinement op mode` have no spec name.
    shape &= ~kSpecBit;
    if (t.seen & kSpecBit)
      r.failAtPointer(r.pointer() + "/spec", "field \"spec\" of a " + std::string(spelling(c.tag)) +
                                                 " claim is not in edition " +
                                                 std::string(spelling(r.edition())) + "; " +
                                                 editionHint(editionsWithSpec()));
  } else if ((shape & kSpecBit) && !(t.seen & kSpecBit)) {
    r.fail(t.start, "missing field \"spec\" in a " + std::string(spelling(c.tag)) +
                        " claim of edition " + std::string(spelling(r.edition())) +
                        "; without it, " + editionHint(kEveryEdition & ~editionsWithSpec()));
  }
  r.checkTagFields(t.start, kClaimFields, t.seen, shape, shape,
                   [&] { return "a " + std::string(spelling(c.tag)) + " claim"; });
  return c;
}

ContractEvidence readEvidence(JsonReader &r, od::value &v) {
  ContractEvidence e;
  const auto t = readTagged<EvidenceTag>(
      r, v, "contract evidence", kEvidenceFields, "an evidence tag",
      [&](std::size_t i, od::value x) { e.text = r.string(x, i == 1 ? "a name" : "a reason"); });
  e.tag = t.tag;
  const EvidenceText text = evidenceTextOf(e.tag);
  const std::uint32_t wanted = text == EvidenceText::none ? 0u
                               : text == EvidenceText::reason
                                   ? fieldBits(kEvidenceFields, {"reason"})
                                   : fieldBits(kEvidenceFields, {"name"});
  r.checkTagFields(t.start, kEvidenceFields, t.seen, wanted, wanted,
                   [&] { return std::string(spelling(e.tag)) + " evidence"; });
  return e;
}

std::vector<ContractProvenance> readProvenance(JsonReader &r, od::value &v) {
  std::vector<ContractProvenance> out;
  r.elements(v, "provenance", [&](od::value &x) {
    ContractProvenance p;
    const auto t = readTagged<ProvenanceTag>(r, x, "a provenance item", kProvenanceFields,
                                             "a provenance tag", [&](std::size_t i, od::value y) {
                                               switch (i) {
                                               case 1: p.path = r.string(y, "a path"); break;
                                               case 2: p.symbol = r.string(y, "a symbol"); break;
                                               case 3:
                                                 p.buildTarget = r.string(y, "a build target");
                                                 break;
                                               case 4: p.path = r.string(y, "a note"); break;
                                               }
                                             });
    p.tag = t.tag;
    const auto tag = static_cast<std::size_t>(p.tag);
    r.checkTagFields(t.start, kProvenanceFields, t.seen, kProvenanceRequired[tag],
                     kProvenanceAllowed[tag],
                     [&] { return "a " + std::string(spelling(p.tag)) + " provenance item"; });
    out.push_back(std::move(p));
  });
  return out;
}

ContractDescriptor readDescriptor(JsonReader &r, od::value &v) {
  ContractDescriptor d;
  r.fields(
      v, "a contract descriptor",
      FieldSet{kDescriptorFields, fieldBits(kDescriptorFields, {"claim", "summary", "evidence"})},
      [&](std::size_t i, od::value x) {
        switch (i) {
        case 0: d.claim = readClaim(r, x); break;
        case 1: d.summary = std::string(r.string(x, "a summary")); break;
        case 2: d.evidence = readEvidence(r, x); break;
        case 3: d.provenance = readProvenance(r, x); break;
        }
      });
  return d;
}

NumericalPolicy readNumericalPolicy(JsonReader &r, od::value &v) {
  NumericalPolicy p;
  r.fields(v, "a numerical policy", FieldSet{kPolicyFields, 0}, [&](std::size_t i, od::value x) {
    switch (i) {
    case 0: p.rounding = r.enumValue<Rounding>(x); break;
    case 1: p.subnormals = r.enumValue<Subnormals>(x); break;
    case 2: p.contraction = r.enumValue<Contraction>(x); break;
    case 3: p.reduction = r.enumValue<Reduction>(x); break;
    }
  });
  return p;
}

} // namespace lo::io
