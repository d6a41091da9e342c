#include "ref/io/reader.hpp"

#include "ref/hash.hpp"
#include "ref/io/contract_reader.hpp"
#include "ref/io/reader_detail.hpp"
#include "ref/io/strict_json.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <iterator>
#include <memory>
#include <unordered_map>

namespace lo::io {

using namespace detail;

namespace {

/// A capsule reference that names a key of a table not read yet (JSON objects are unordered).
struct PendingKey {
  std::size_t index; // kernel or group index
  std::string key;
};

/// A reader of the documents of docs/spec.md §2: the strict JSON layer and the values of the
/// documents (capsules, kinds, kernels, groups, capsule tables), interned in `interner`.
class Reader : public JsonReader {
public:
  /// Reads `source`, interning what it reads in `interner` (none for a reader that only looks).
  explicit Reader(const Source &source, Interner *interner = nullptr,
                  Edition edition = kNewestEdition)
      : JsonReader(source), interner(interner) {
    setEdition(edition);
  }

  /// Reads `source` with `parser` when given (one parser reused for the lines of a stream);
  /// `lineBase` is added to the line numbers of messages.
  Reader(const Source &source, Interner *interner, od::parser *parser, std::size_t lineBase,
         Edition edition)
      : JsonReader(source, parser, lineBase), interner(interner) {
    setEdition(edition);
  }

  Interner *interner = nullptr;

  // --- Domain values -------------------------------------------------------------------------

  enum class CapsuleShape { capsule, auditRow };
  KernelCapsule capsule(od::value &v, CapsuleShape shape);
  KindId kind(od::value &v);
  KindId parseKind(od::value &v, const char *start);
  /// A HardMask `{"shape": Shape, "allowed": [bool]}`, encoded as ref/opkind.hpp says.
  std::vector<std::uint64_t> hardMask(od::value &v);
  std::string_view objectText(const char *start) const;
  /// The capsules table; `order`, when given, receives its keys and capsules in file order.
  KeyTable capsuleTable(od::value &v,
                        std::vector<std::pair<std::string, CapsuleId>> *order = nullptr);
  /// One kernel of a plan. A capsule key is looked up in `table` when there is one, else left in
  /// `key` for later (the table may come after the kernels).
  PlannedNodeKernel kernel(od::value &kv, const KeyTable *table, std::optional<std::string> &key);
  /// One group of a lowering; a capsule key as for `kernel`.
  LoweredKernelGroup group(od::value &gv, const KeyTable *table, std::optional<std::string> &key);
  /// A `capsule` field: an inline capsule, or a key looked up in `table` (or left in `key` when
  /// there is no table yet).
  CapsuleId capsuleRef(od::value &x, const KeyTable *table, std::optional<std::string> &key);
  /// Fails at `pointer()` (spelled only for the message) when kernel `k`'s capsule implements
  /// another op than `k` where the edition makes that invalid input (capsuleOpMustMatch).
  template <class Pointer> void checkCapsuleOp(const PlannedNodeKernel &k, Pointer &&pointer);
  /// The fields a kernel and a group share, `op` (field 2 of both) and `capsule` (field 3).
  void opOrCapsule(std::size_t f, od::value &x, BackendOp &op, CapsuleId &capsule,
                   const KeyTable *table, std::optional<std::string> &key) {
    if (f == 2)
      op = enumValue<BackendOp>(x);
    else
      capsule = capsuleRef(x, table, key);
  }

  /// The capsule of `key`, named at `pointer`, in `table`; `document` ("the plan") says in the
  /// message what has no table when there is none.
  CapsuleId capsuleOfKey(const std::string &pointer, const std::string &key, const KeyTable *table,
                         std::string_view document) {
    auto it = table ? table->find(key) : KeyTable::const_iterator{};
    if (!table || it == table->end())
      failAtPointer(pointer, "capsule key " + quote(key) +
                                 (table ? std::string(" is not in the capsules table")
                                        : " names a capsule, but " + std::string(document) +
                                              " has no capsules table"));
    return it->second;
  }

  /// The capsule keys read before the table (`/ARRAY/INDEX/capsule`), each resolved as it would
  /// have been had the table come first: `resolved(index, capsule)`.
  template <class F>
  void resolvePending(const std::vector<PendingKey> &pending, const KeyTable *table,
                      std::string_view array, std::string_view document, F &&resolved) {
    for (const auto &p : pending)
      resolved(p.index,
               capsuleOfKey("/" + std::string(array) + "/" + std::to_string(p.index) + "/capsule",
                            p.key, table, document));
  }

private:
  RecentTexts<CapsuleId> recentKeys_; // capsule keys looked up in recentKeysTable_
  const KeyTable *recentKeysTable_ = nullptr;
  RecentTexts<KindId> recentKinds_; // kinds' texts found in kindCache_
  /// Kinds with parameters repeat (the same reshape, layernorm, conv2d): the text of each one read
  /// is kept with its id, and the same text again is not parsed again. At most kMostKindTexts.
  std::unordered_map<std::string_view, KindId, KeyedHash> kindCache_;
};

// --- Capsules ----------------------------------------------------------------------------------

KernelCapsule Reader::capsule(od::value &v, CapsuleShape shape) {
  if (shape == CapsuleShape::auditRow)
    return readRecord<AuditRow>(*this, v);
  return readRecord<KernelCapsule>(*this, v);
}

KeyTable Reader::capsuleTable(od::value &v, std::vector<std::pair<std::string, CapsuleId>> *order) {
  KeyTable table;
  keyedFields(v, "the capsules table", [&](const char *keyAt, std::string_view key, od::value &x) {
    std::string name(key);
    if (table.count(name))
      fail(keyAt, "duplicate capsule key " + quote(name));
    CapsuleId id = interner->intern(capsule(x, CapsuleShape::capsule));
    if (order)
      order->emplace_back(name, id);
    table.emplace(std::move(name), id);
  });
  return table;
}

// --- Kinds -------------------------------------------------------------------------------------

KindId Reader::kind(od::value &v) {
  od::json_type type;
  if (auto err = v.type().get(type))
    failSimd(err, location(v));
  if (type == od::json_type::string) {
    const char *at = location(v);
    std::string_view s = string(v, "a kind");
    auto tag = lookupSpelling<KindTag>(s);
    if (!tag)
      fail(at, "unknown kind " + quote(s) +
                   "; expected one of: " + joinedSpellings<KindTag>(edition()));
    if (!inEdition(*tag, edition()))
      notInEdition(at, "kind", s, editionsOf(*tag));
    if (!isBare(*tag))
      fail(at,
           "kind " + quote(s) + " has parameters and must be written as an object with a \"tag\"");
    return Interner::bareKind(*tag);
  }
  if (type != od::json_type::object)
    fail(location(v), "expected a kind (a string or an object with a \"tag\")");
  const char *start = location(v);
  const std::string_view text = objectText(start);
  if (!text.empty()) {
    if (const KindId *id = recentKinds_.find(text))
      return *id; // as below
    if (auto it = kindCache_.find(text); it != kindCache_.end()) {
      recentKinds_.remember(text, it->second);
      return it->second; // the caller's object iteration skips the unread value
    }
  }
  const KindId id = parseKind(v, start);
  // Cached only when the object the parser read ends where the scan of its text ended.
  if (!text.empty() && kindCache_.size() < kMostKindTexts) {
    const char *after = nullptr, *end = text.data() + text.size();
    const char *limit = bytes().data() + bytes().size();
    while (end < limit && (*end == ' ' || *end == '\n' || *end == '\t' || *end == '\r'))
      ++end;
    if (!doc().current_location().get(after) && after == end) {
      kindCache_.emplace(text, id);
      recentKinds_.remember(text, id);
    }
  }
  return id;
}

std::string_view Reader::objectText(const char *start) const {
  const char *end = bytes().data() + bytes().size();
  if (!start || start >= end || *start != '{')
    return {};
  return bracketedText(start, end, kLongestKindText);
}

constexpr std::string_view kHardMaskFields[] = {"shape", "allowed"};

std::vector<std::uint64_t> Reader::hardMask(od::value &v) {
  std::vector<std::uint64_t> shape, allowed;
  fields(v, "a hard mask",
         FieldSet{kHardMaskFields, fieldBits(kHardMaskFields, {"shape", "allowed"})},
         [&](std::size_t i, od::value x) {
           if (i == 0)
             shape = naturals(x, "a shape");
           else
             elements(x, "allowed",
                      [&](od::value &b) { allowed.push_back(boolean(b, "a boolean") ? 1 : 0); });
         });
  return encodeHardMask(shape, allowed);
}

KindId Reader::parseKind(od::value &v, const char *start) {
  // The tag first, wherever it stands (the fields of an object are unordered), the values of the
  // other fields skipped: then each parameter is judged by its name and type before its value is
  // read, so that a field the kind does not have costs nothing however large its value.
  static const std::size_t kMaxKindParams = [] {
    std::size_t m = 0;
    for (std::size_t t = 0; t < vocabularySize<KindTag>(); ++t)
      m = std::max(m, signature(static_cast<KindTag>(t)).params.size());
    return m;
  }();
  od::object obj = object(v, "a kind");
  std::optional<KindTag> tag;
  std::size_t count = 0;
  std::vector<std::string_view> seen; // at most kMaxKindParams + 1 names, each checked once
  std::optional<KeepIndex> kept(std::in_place, *this); // until the rewind below
  objectFields(obj, [&](const char *keyAt, std::string_view key, od::value &x) {
    if (key != "tag") {
      if (std::find(seen.begin(), seen.end(), key) != seen.end())
        fail(keyAt, "duplicate field " + quote(key) + " in a kind");
      seen.push_back(key);
      // A kind has at most kMaxKindParams parameters: an object with many fields stops here.
      if (++count > kMaxKindParams)
        fail(keyAt, "too many fields in a kind: no kind has more than " +
                        std::to_string(kMaxKindParams) + " parameters besides \"tag\"");
      return;
    }
    if (tag)
      fail(keyAt, "duplicate field \"tag\" in a kind");
    tag = enumValue<KindTag>(x, "a kind tag");
  });
  if (!tag)
    fail(start, "missing field \"tag\" in a kind");
  const KindSignature &sig = signature(*tag);
  OpKind k{*tag, std::vector<std::vector<std::uint64_t>>(sig.params.size())};
  std::vector<bool> have(sig.params.size(), false);
  rewind(obj, *kept);
  kept.reset();
  objectFields(obj, [&](const char *keyAt, std::string_view key, od::value &x) {
    if (key == "tag")
      return;
    std::size_t i = 0;
    while (i < sig.params.size() && sig.params[i].name != key)
      ++i;
    if (i == sig.params.size())
      fail(location(x), "kind " + quote(spelling(*tag)) + " has no parameter " + quote(key));
    if (have[i])
      fail(keyAt, "duplicate field " + quote(key) + " in a kind");
    have[i] = true;
    od::json_type t;
    if (auto err = x.type().get(t))
      failSimd(err, location(x));
    const ParamType want = sig.params[i].type;
    const ParamType found = t == od::json_type::array
                                ? (want == ParamType::shapes ? want : ParamType::naturals)
                            : t == od::json_type::object ? ParamType::hardMask
                            : t == od::json_type::string ? ParamType::text
                                                         : ParamType::natural;
    if (want != found)
      fail(location(x), "parameter " + quote(key) + " of kind " + quote(spelling(*tag)) +
                            (want == ParamType::naturals   ? " must be an array of naturals"
                             : want == ParamType::hardMask ? " must be a hard mask {shape, allowed}"
                             : want == ParamType::text     ? " must be a string"
                             : want == ParamType::shapes   ? " must be an array of shapes"
                                                           : " must be a natural number"));
    if (want == ParamType::naturals) {
      k.params[i] = naturals(x, "a shape");
    } else if (want == ParamType::hardMask) {
      k.params[i] = hardMask(x);
    } else if (want == ParamType::text) {
      const std::string_view text = string(x, "a kind parameter");
      k.params[i].assign(text.begin(), text.end());
    } else if (want == ParamType::shapes) {
      auto &out = k.params[i];
      out.push_back(0);
      elements(x, "an array of shapes", [&](od::value &shape) {
        const std::vector<std::uint64_t> dims = naturals(shape, "a shape");
        ++out[0];
        out.push_back(dims.size());
        out.insert(out.end(), dims.begin(), dims.end());
      });
    } else {
      k.params[i].push_back(natural(x, "a kind parameter"));
    }
  });
  for (std::size_t i = 0; i < sig.params.size(); ++i)
    if (!have[i])
      fail(start,
           "missing parameter " + quote(sig.params[i].name) + " of kind " + quote(spelling(*tag)));
  // A window's arrays have `spatialRank` values each (upstream's `Tensor Nat [spatialRank]`).
  if (!sig.params.empty() && sig.params[0].name == "spatialRank")
    for (std::size_t i = 1; i < sig.params.size(); ++i)
      if (sig.params[i].type == ParamType::naturals && k.params[i].size() != k.params[0][0])
        fail(start, "parameter " + quote(sig.params[i].name) + " of kind " + quote(spelling(*tag)) +
                        " has " + std::to_string(k.params[i].size()) + " values, not spatialRank " +
                        std::to_string(k.params[0][0]));
  return interner->intern(std::move(k));
}

std::string opMessage(BackendOp op) { return quote(spelling(op)); }

template <class Pointer>
void Reader::checkCapsuleOp(const PlannedNodeKernel &k, Pointer &&pointer) {
  const KernelCapsule &c = interner->capsule(k.capsule);
  if (c.op != k.op && capsuleOpMustMatch(edition()))
    failAtPointer(pointer(), "capsule " + quote(c.name) + " implements op " + opMessage(c.op) +
                                 ", but the kernel's op is " + opMessage(k.op));
}

// --- GraphExecutionPlan ------------------------------------------------------------------------

CapsuleId Reader::capsuleRef(od::value &x, const KeyTable *table, std::optional<std::string> &key) {
  od::json_type t;
  if (auto err = x.type().get(t))
    failSimd(err, location(x));
  if (t == od::json_type::object)
    return interner->intern(capsule(x, CapsuleShape::capsule));
  const char *at = location(x);
  std::string_view s = string(x, "a capsule key or an inline capsule");
  if (!table) {
    key = std::string(s);
    return CapsuleId{};
  }
  if (recentKeysTable_ != table) {
    recentKeys_.clear();
    recentKeysTable_ = table;
  }
  if (const CapsuleId *id = recentKeys_.find(s))
    return *id; // a key read before: no keyed hash
  auto it = table->find(s);
  if (it == table->end())
    fail(at, "capsule key " + quote(s) + " is not in the capsules table");
  recentKeys_.remember(it->first, it->second);
  return it->second;
}

PlannedNodeKernel Reader::kernel(od::value &kv, const KeyTable *table,
                                 std::optional<std::string> &key) {
  PlannedNodeKernel k;
  readFields<PlannedNodeKernel>(*this, kv, [&](std::size_t f, od::value x) {
    if (f == 0)
      k.nodeId = natural(x, "a nodeId", kNodeIdLimit);
    else if (f == 1)
      k.kind = kind(x);
    else
      opOrCapsule(f, x, k.op, k.capsule, table, key);
  });
  // A valid plan's op is the one its kind maps to (docs/spec.md §2.4).
  const OpKind &kd = interner->kind(k.kind);
  auto mapped = opOf(kd);
  if (!mapped)
    failAtPointer(pointer() + "/kind",
                  "kind " + quote(spelling(kd.tag)) + " has no runtime work and is never planned");
  if (*mapped != k.op)
    failAtPointer(pointer() + "/op", "op " + opMessage(k.op) + " is not the op of kind " +
                                         quote(spelling(kd.tag)) + ", which maps to " +
                                         opMessage(*mapped));
  return k;
}

} // namespace

std::optional<std::pair<std::size_t, std::size_t>>
detail::firstRepeatedNodeId(const std::vector<PlannedNodeKernel> &kernels) {
  // A plan in increasing order needs no extra memory; any other is sorted.
  bool increasing = true;
  for (std::size_t i = 1; i < kernels.size() && increasing; ++i)
    increasing = kernels[i - 1].nodeId < kernels[i].nodeId;
  if (increasing)
    return std::nullopt;
  std::vector<std::pair<NodeId, std::size_t>> ids;
  ids.reserve(kernels.size());
  for (std::size_t i = 0; i < kernels.size(); ++i)
    ids.emplace_back(kernels[i].nodeId, i);
  std::sort(ids.begin(), ids.end());
  std::optional<std::pair<std::size_t, std::size_t>> dup; // (first, later) with the earliest later
  for (std::size_t i = 1; i < ids.size(); ++i)
    if (ids[i].first == ids[i - 1].first && (!dup || ids[i].second < dup->second))
      dup = std::pair{ids[i - 1].second, ids[i].second};
  return dup;
}

GraphExecutionPlan readExecutionPlan(const Source &source, Interner &interner, Edition edition,
                                     std::optional<Edition> *declared) {
  if (auto plan = readExecutionPlanDirect(source, interner, edition, declared))
    return std::move(*plan);
  return readExecutionPlanStrict(source, interner, edition, declared);
}

LoweringDocument readLoweringPlan(const Source &source, Interner &interner, Edition edition) {
  if (auto lowering = readLoweringPlanDirect(source, interner, edition))
    return std::move(*lowering);
  return readLoweringPlanStrict(source, interner, edition);
}

namespace {

/// What `read(reader, root)` reads of the value that is the whole of `source`, nothing after it.
template <class Read>
auto readAlone(const Source &source, Interner &interner, Edition edition, od::parser &parser,
               Read &&read) {
  Reader r(source, &interner, &parser, 0, edition);
  od::value root;
  if (auto err = r.doc().get_value().get(root))
    r.failSimd(err, nullptr);
  auto value = read(r, root);
  r.expectEnd();
  return value;
}

} // namespace

KeyTable detail::readCapsuleTableDocument(const Source &source, Interner &interner, Edition edition,
                                          od::parser &parser) {
  return readAlone(source, interner, edition, parser,
                   [](Reader &r, od::value &root) { return r.capsuleTable(root); });
}

KindId detail::readKindDocument(const Source &source, Interner &interner, Edition edition,
                                od::parser &parser) {
  return readAlone(source, interner, edition, parser,
                   [](Reader &r, od::value &root) { return r.kind(root); });
}

GraphExecutionPlan detail::readExecutionPlanStrict(const Source &source, Interner &interner,
                                                   Edition edition,
                                                   std::optional<Edition> *declared) {
  Reader r(source, &interner, edition);
  GraphExecutionPlan plan;
  std::optional<KeyTable> table;
  std::vector<PendingKey> pending;

  r.documentFields(
      "a GraphExecutionPlan", kPlanFormat,
      FieldSet{kPlanFields, fieldBits(kPlanFields, {"kernels"})}, [&](std::size_t i, od::value v) {
        switch (i) {
        case 2: table = r.capsuleTable(v); break;
        case 4: { // noted by the caller, never the standard (docs/spec.md §1.6)
          const Edition e = r.enumValue<Edition>(v);
          if (declared)
            *declared = e;
          break;
        }
        case 3: {
          plan.kernels.reserve(source.text.size() / kShortestKernel);
          r.elements(v, "the kernels array", [&](od::value &kv, std::size_t index) {
            std::optional<std::string> key;
            plan.kernels.push_back(r.kernel(kv, table ? &*table : nullptr, key));
            if (key)
              pending.push_back({index, std::move(*key)});
            else
              r.checkCapsuleOp(plan.kernels[index], [&] { return r.pointer() + "/capsule"; });
          });
          break;
        }
        }
      });

  r.resolvePending(pending, table ? &*table : nullptr, "kernels", "the plan",
                   [&](std::size_t i, CapsuleId c) {
                     plan.kernels[i].capsule = c;
                     r.checkCapsuleOp(plan.kernels[i],
                                      [&] { return "/kernels/" + std::to_string(i) + "/capsule"; });
                   });

  if (const auto dup = firstRepeatedNodeId(plan.kernels))
    r.failAtPointer("/kernels/" + std::to_string(dup->second) + "/nodeId",
                    "duplicate nodeId " + std::to_string(plan.kernels[dup->second].nodeId) +
                        " (first at /kernels/" + std::to_string(dup->first) + "/nodeId)");
  return plan;
}

// --- GraphLoweringPlan -------------------------------------------------------------------------

namespace {
constexpr std::string_view kAuditFields[] = {"format",
                                             "version",
                                             "kernels",
                                             "capsuleNames",
                                             "trustLevels",
                                             "trustedExternalOps",
                                             "hasTrustedExternal"};
} // namespace

LoweredKernelGroup Reader::group(od::value &gv, const KeyTable *table,
                                 std::optional<std::string> &key) {
  LoweredKernelGroup g;
  readFields<LoweredKernelGroup>(*this, gv, [&](std::size_t f, od::value x) {
    switch (f) {
    case 0: g.nodeIds = naturals<NodeIdList>(x, "nodeIds", kNodeIdLimit); break;
    case 1: elements(x, "kinds", [&](od::value &kv) { g.kinds.push_back(kind(kv)); }); break;
    case 4: g.groupingKind = enumValue<GroupingKind>(x); break;
    default: opOrCapsule(f, x, g.op, g.capsule, table, key);
    }
  });
  return g;
}

LoweringDocument detail::readLoweringPlanStrict(const Source &source, Interner &interner,
                                                Edition edition) {
  Reader r(source, &interner, edition);
  LoweringDocument out;
  std::optional<KeyTable> table;
  std::vector<PendingKey> pending;

  auto readAudit = [&](od::value v) {
    AuditDocument a;
    // `trustLevels` only in the editions whose audit has it (`EditionRules`, ref/edition.hpp).
    const bool trustLevels = rulesOf(r.edition()).auditTrustLevels;
    constexpr std::uint32_t kTrustLevels = fieldBits(kAuditFields, {"trustLevels"});
    r.fields(
        v, "an ExecutionAudit",
        FieldSet{kAuditFields,
                 fieldBits(kAuditFields, {"kernels", "capsuleNames", "trustLevels",
                                          "trustedExternalOps", "hasTrustedExternal"}) &
                     (trustLevels ? ~std::uint32_t{0} : ~kTrustLevels)},
        [&](std::size_t i, od::value x) {
          if (i == 4 && !trustLevels) {
            EditionSet with = 0;
            for (const auto &rules : kEditionRules)
              if (rules.auditTrustLevels)
                with |= editionBit(rules.edition);
            r.fail(r.location(x), "field \"trustLevels\" of an ExecutionAudit is not in edition " +
                                      std::string(spelling(r.edition())) + "; " +
                                      editionHint(with, r.edition()));
          }
          switch (i) {
          case 0: r.expectFormat(x, kAuditFormat); break;
          case 1: r.expectVersion(x); break;
          case 2:
            r.elements(x, "the audit rows", [&](od::value &row) {
              a.audit.kernels.push_back(
                  KernelAudit{interner.intern(r.capsule(row, Reader::CapsuleShape::auditRow))});
            });
            break;
          case 3: {
            // In one buffer; its bytes are at most the rest of the document's.
            const char *at = r.location(x);
            const std::size_t rest =
                at ? r.bytes().size() - static_cast<std::size_t>(at - r.bytes().data()) : 0;
            a.capsuleNames.reserve(rest / kShortestName, rest);
            r.elements(x, "capsuleNames", [&](od::value &s) {
              a.capsuleNames.push_back(r.string(s, "a capsule name"));
            });
            break;
          }
          case 4:
            r.elements(x, "trustLevels",
                       [&](od::value &s) { a.trustLevels.push_back(r.enumValue<TrustLevel>(s)); });
            break;
          case 5:
            r.elements(x, "trustedExternalOps", [&](od::value &s) {
              a.trustedExternalOps.push_back(r.enumValue<BackendOp>(s));
            });
            break;
          case 6: a.hasTrustedExternal = r.boolean(x, "hasTrustedExternal"); break;
          }
        });
    out.audit = std::move(a);
  };

  r.documentFields("a GraphLoweringPlan", kLoweringFormat,
                   FieldSet{kLoweringFields, fieldBits(kLoweringFields, {"groups"})},
                   [&](std::size_t i, od::value v) {
                     switch (i) {
                     case 2: out.mode = r.enumValue<Mode>(v); break;
                     case 3: out.equality = r.enumValue<Equality>(v); break;
                     case 4: table = r.capsuleTable(v); break;
                     case 7: out.edition = r.enumValue<Edition>(v); break;
                     case 5: {
                       out.plan.groups.reserve(source.text.size() / kShortestGroup);
                       r.elements(v, "the groups array", [&](od::value &gv, std::size_t index) {
                         std::optional<std::string> key;
                         out.plan.groups.push_back(r.group(gv, table ? &*table : nullptr, key));
                         if (key)
                           pending.push_back({index, std::move(*key)});
                       });
                       break;
                     }
                     case 6: readAudit(v); break;
                     }
                   });

  r.resolvePending(pending, table ? &*table : nullptr, "groups", "the file",
                   [&](std::size_t i, CapsuleId c) { out.plan.groups[i].capsule = c; });
  return out;
}

// --- Lines of a stream (ref/io/stream.hpp) ----------------------------------------------------

namespace {
constexpr std::string_view kStreamHeaderFields[] = {"format", "version", "capsules", "mode",
                                                    "equality"};
} // namespace

struct LineReader::Impl {
  Source line;
  od::parser parser;
  Interner *interner = nullptr;
  Edition edition = kNewestEdition;
  std::optional<KeyTable> table;
  std::vector<std::pair<std::string, CapsuleId>> order;

  /// Copies a line into a buffer with simdjson's padding.
  const Source &load(std::string_view text) {
    line.text.reserve(text.size() + simdjson::SIMDJSON_PADDING);
    line.text.assign(text);
    return line;
  }
};

LineReader::LineReader(std::string name, Interner &interner, Edition edition)
    : impl_(std::make_unique<Impl>()) {
  impl_->line.name = std::move(name);
  impl_->interner = &interner;
  impl_->edition = edition;
}

LineReader::~LineReader() = default;

const std::vector<std::pair<std::string, CapsuleId>> &
LineReader::readHeader(std::string_view text, std::size_t lineNumber, std::string_view format,
                       StreamDeclaration *declared) {
  Reader r(impl_->load(text), impl_->interner, &impl_->parser, lineNumber - 1, impl_->edition);
  // A plan stream's header has format, version and capsules; a lowering stream's also mode and
  // equality.
  const std::size_t fields = declared ? 5 : 3;
  r.documentFields(
      "a stream header", format,
      FieldSet{std::span(kStreamHeaderFields, fields), fieldBits(kStreamHeaderFields, {"format"})},
      [&](std::size_t i, od::value v) {
        switch (i) {
        case 2: impl_->table = r.capsuleTable(v, &impl_->order); break;
        case 3: declared->mode = r.enumValue<Mode>(v); break;
        case 4: declared->equality = r.enumValue<Equality>(v); break;
        }
      });
  return impl_->order;
}

namespace {

/// One record line (a kernel or a group) read by `read(reader, value, table, key)`; then
/// `validate(reader, record)` for what is checked after the shape. A capsule key needs the
/// header's table.
template <class Impl, class Read, class Validate>
auto readRecord(Impl &impl, std::string_view text, std::size_t lineNumber, Read &&read,
                Validate &&validate) {
  Reader r(impl.load(text), impl.interner, &impl.parser, lineNumber - 1, impl.edition);
  od::value v;
  if (auto err = r.doc().get_value().get(v))
    r.failSimd(err, nullptr);
  std::optional<std::string> key;
  auto record = read(r, v, impl.table ? &*impl.table : nullptr, key);
  r.expectEnd();
  if (key) // read only when the header has no table
    r.capsuleOfKey("/capsule", *key, nullptr, "the stream header");
  validate(r, record);
  return record;
}

} // namespace

LoweredKernelGroup LineReader::readGroup(std::string_view text, std::size_t lineNumber) {
  return readRecord(
      *impl_, text, lineNumber,
      [](Reader &r, od::value &v, const KeyTable *table, std::optional<std::string> &key) {
        return r.group(v, table, key);
      },
      [](Reader &, const LoweredKernelGroup &) {});
}

PlannedNodeKernel LineReader::readKernel(std::string_view text, std::size_t lineNumber) {
  return readRecord(
      *impl_, text, lineNumber,
      [](Reader &r, od::value &v, const KeyTable *table, std::optional<std::string> &key) {
        return r.kernel(v, table, key);
      },
      [&](Reader &r, const PlannedNodeKernel &k) {
        r.checkCapsuleOp(k, [] { return std::string("/capsule"); });
      });
}

// --- Detection ---------------------------------------------------------------------------------

DocumentKind detectDocumentKind(const Source &source) {
  Reader r(source);
  // Through the root value, as the readers do: trailing data is then the reader's to report.
  od::value root;
  od::object obj;
  if (auto err = r.doc().get_value().get(root))
    r.failSimd(err, nullptr);
  if (auto err = root.get_object().get(obj)) {
    if (err == simdjson::INCORRECT_TYPE)
      r.failAtOffset(0, "", "expected a GraphExecutionPlan or a GraphLoweringPlan (a JSON object)");
    r.failSimd(err, nullptr);
  }
  std::optional<DocumentKind> byKey;
  for (auto result : obj) {
    od::field field;
    if (auto err = std::move(result).get(field))
      r.failSimd(err, nullptr);
    std::string_view key;
    if (auto err = field.unescaped_key().get(key))
      r.failSimd(err, nullptr);
    if (key == "format") {
      std::string_view f;
      if (!field.value().get_string().get(f)) {
        if (f == kPlanFormat)
          return DocumentKind::executionPlan;
        if (f == kLoweringFormat)
          return DocumentKind::loweringPlan;
      }
      r.failAtPointer("/format",
                      "format is neither " + quote(kPlanFormat) + " nor " + quote(kLoweringFormat));
    }
    if (key == "kernels" && !byKey)
      byKey = DocumentKind::executionPlan;
    if (key == "groups" && !byKey)
      byKey = DocumentKind::loweringPlan;
  }
  if (!byKey)
    r.failAtOffset(
        0, "",
        "neither a GraphExecutionPlan (no \"kernels\") nor a GraphLoweringPlan (no \"groups\")");
  return *byKey;
}

} // namespace lo::io
