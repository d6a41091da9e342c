#include "ref/io/writer.hpp"

#include "ref/hash.hpp"
#include "ref/io/escape.hpp"
#include "ref/io/gate_writer.hpp"
#include "ref/recheck.hpp"

#include <algorithm>
#include <array>
#include <type_traits>
#include <unordered_set>

namespace lo::io {

namespace {

/// A field of a vocabulary, `"NAME":"SPELLING"`, after `before` ('{' for the first field of an
/// object, ',' for the others).
template <class E> void enumField(Sink &out, char before, std::string_view name, E value) {
  out << before << '"' << name << "\":\"" << spelling(value) << '"';
}

/// The members of a pretty-printed array or object, one a line four spaces in from `indent`, each
/// written by `each(member)`; `close` (']' or '}') stands on a line of its own two spaces in, or
/// right after the opening bracket when there is no member. `items` is a range, or a function
/// that hands each member to the function it is given.
template <class Range, class Each>
void memberLines(Sink &out, std::string_view indent, const Range &items, char close, Each &&each) {
  bool first = true;
  const auto line = [&](const auto &item) {
    out << (first ? "\n" : ",\n") << indent << "    ";
    first = false;
    each(item);
  };
  if constexpr (std::is_invocable_v<const Range &, decltype(line)>)
    items(line); // a function that hands out the items
  else
    for (const auto &item : items)
      line(item);
  if (!first)
    out << '\n' << indent << "  ";
  out << close;
}

/// The text `write(sink)` writes, kept in `cache[i]` once written (a plan repeats a few kinds,
/// capsule references and audit rows many times). Nothing writes an empty text.
template <class Write>
const std::string &cachedText(std::vector<std::string> &cache, std::size_t i, Write &&write) {
  if (i >= cache.size())
    cache.resize(i + 1);
  if (cache[i].empty())
    cache[i] = writtenText(write);
  return cache[i];
}

} // namespace

void writeContractClaim(Sink &out, const ContractClaim &c) { writeRecord<ContractClaim>(out, c); }
void writeContractEvidence(Sink &out, const ContractEvidence &e) {
  writeRecord<ContractEvidence>(out, e);
}
void writeContractProvenance(Sink &out, const ContractProvenance &p) {
  writeRecord<ContractProvenance>(out, p);
}

void writeCapsuleTable(Sink &out, const Interner &interner, const CapsuleKeys &keys, Layout layout,
                       WrittenEdition edition) {
  auto entry = [&](CapsuleId id, std::string_view colon) {
    out.jsonString(keys.key(id));
    out << colon;
    writeCapsule(out, interner.capsule(id), edition);
  };
  if (layout == Layout::line) {
    out << "\"capsules\":{";
    commaSeparated(out, keys.order(), [&](CapsuleId id) { entry(id, ":"); });
    out << '}';
    return;
  }
  out << "  \"capsules\": {";
  memberLines(out, "", keys.order(), '}', [&](CapsuleId id) { entry(id, ": "); });
}

std::string keyNameOf(std::string name) {
  cutText(name, kMaxKeyNameBytes);
  return name;
}

CapsuleKeys::CapsuleKeys(const Interner &interner, std::span<const CapsuleId> inOrderOfUse) {
  for (CapsuleId id : inOrderOfUse)
    add(interner, id);
}

bool CapsuleKeys::add(const Interner &interner, CapsuleId id) {
  const auto i = static_cast<std::size_t>(id);
  if (i < slot_.size() && slot_[i])
    return false;
  const std::string name = keyNameOf(interner.capsule(id).name);
  std::size_t &n = seenNames_[name];
  std::string key;
  do {
    ++n;
    key = n == 1 ? name : name + "#" + std::to_string(n);
  } while (taken_.count(key));
  taken_.insert(key);
  keys_.push_back(std::move(key));
  if (i >= slot_.size())
    slot_.resize(std::max(i + 1, 2 * slot_.size()), 0);
  slot_[i] = static_cast<std::uint32_t>(keys_.size());
  order_.push_back(id);
  return true;
}

void writeCapsule(Sink &out, const KernelCapsule &c, WrittenEdition edition) {
  writeRecord<KernelCapsule>(out, c, edition);
}

void writeKind(Sink &out, const OpKind &kind) {
  if (isBare(kind.tag)) {
    out << '"' << spelling(kind.tag) << '"';
    return;
  }
  const KindSignature &sig = signature(kind.tag);
  enumField(out, '{', "tag", kind.tag);
  for (std::size_t i = 0; i < sig.params.size(); ++i) {
    out << ",\"" << sig.params[i].name << "\":";
    const auto &values = kind.params[i];
    if (sig.params[i].type == ParamType::natural) {
      out << (values.empty() ? std::uint64_t{0} : values.front());
    } else if (sig.params[i].type == ParamType::hardMask) {
      const HardMaskView mask = decodeHardMask(values);
      out << "{\"shape\":[";
      commaSeparated(out, mask.shape, [&](std::uint64_t n) { out << n; });
      out << "],\"allowed\":[";
      commaSeparated(out, mask.allowed, [&](std::uint64_t b) { out << (b ? "true" : "false"); });
      out << "]}";
    } else if (sig.params[i].type == ParamType::text) {
      out.jsonString(decodeText(values));
    } else if (sig.params[i].type == ParamType::shapes) {
      out << '[';
      commaSeparated(out, decodeShapes(values), [&](std::span<const std::uint64_t> shape) {
        out << '[';
        commaSeparated(out, shape, [&](std::uint64_t n) { out << n; });
        out << ']';
      });
      out << ']';
    } else {
      out << '[';
      commaSeparated(out, values, [&](std::uint64_t n) { out << n; });
      out << ']';
    }
  }
  out << '}';
}

namespace {

/// A kernel's fields after its node id, and its closing brace.
void writeKernelTail(Sink &out, const Interner &interner, const PlannedNodeKernel &k,
                     const std::string *key, WrittenEdition edition) {
  out << ",\"kind\":";
  writeKind(out, interner.kind(k.kind));
  out << ",\"op\":\"" << spelling(k.op) << "\",\"capsule\":";
  if (key)
    out.jsonString(*key);
  else
    writeCapsule(out, interner.capsule(k.capsule), edition);
  out << '}';
}

} // namespace

void writeKernel(Sink &out, const Interner &interner, const PlannedNodeKernel &k,
                 const std::string *key, WrittenEdition edition) {
  out << "{\"nodeId\":" << k.nodeId;
  writeKernelTail(out, interner, k, key, edition);
}

const std::string &GroupWriter::kindText(KindId id) {
  return cachedText(kinds_, static_cast<std::size_t>(id),
                    [&](Sink &s) { writeKind(s, interner_.kind(id)); });
}

const std::string &GroupWriter::capsuleText(CapsuleId id, const std::string *key) {
  return cachedText(capsules_, static_cast<std::size_t>(id), [&](Sink &s) {
    if (key)
      s.jsonString(*key);
    else
      writeCapsule(s, interner_.capsule(id), edition_);
  });
}

void GroupWriter::write(Sink &out, const LoweredKernelGroup &g, const std::string *key) {
  // The group's fields in its table's order, those of the edition only (ref/lowering.hpp). A
  // group's record has no optional field and no tag, so which fields are written depends on the
  // edition alone: each field's `{"NAME":` or `,"NAME":` is made once. The fields after the lists
  // (op, capsule, grouping kind) repeat along a run: their text is kept from the group before.
  static_assert(!Tagged<LoweredKernelGroup>);
  if (heads_.empty())
    forEachWrittenField<LoweredKernelGroup>(
        g,
        [&](const auto &f, const auto &) {
          heads_.push_back((heads_.empty() ? "{\"" : ",\"") + std::string(f.name) + "\":");
        },
        edition_);
  const bool sameTail = !tail_.empty() && g.op == tailOf_.op && g.capsule == tailOf_.capsule &&
                        g.groupingKind == tailOf_.groupingKind && key == tailKey_;
  if (!sameTail)
    tail_.clear(); // made again below, in the room it had
  std::size_t i = 0;
  forEachWrittenField<LoweredKernelGroup>(
      g,
      [&](const auto &, const auto &value) {
        const std::string &head = heads_[i++];
        using T = std::remove_cvref_t<decltype(value)>;
        if constexpr (std::is_same_v<T, NodeIdList>) {
          out << std::string_view(head) << '[';
          commaSeparated(out, value, [&](NodeId id) { out << id; });
          out << ']';
        } else if constexpr (std::is_same_v<T, std::vector<KindId>>) {
          out << std::string_view(head) << '[';
          commaSeparated(out, value, [&](KindId id) { out << std::string_view(kindText(id)); });
          out << ']';
        } else if (!sameTail) {
          tail_ += head;
          if constexpr (std::is_same_v<T, CapsuleId>)
            tail_ += capsuleText(value, key);
          else
            (tail_ += '"', tail_ += spelling(value), tail_ += '"');
        }
      },
      edition_);
  if (!sameTail) {
    tail_ += '}';
    tailOf_ = {{}, {}, g.op, g.capsule, g.groupingKind};
    tailKey_ = key;
  }
  out << std::string_view(tail_);
}

namespace {

/// The start of a document in the JSON form: its `format` and `version`.
void writeFormat(Sink &out, std::string_view format) {
  out << "{\n  \"format\": \"" << format << "\",\n  \"version\": 1,\n";
}

/// A JSON array of the spellings of `values` on one line.
template <class Values> void spellings(Sink &out, const Values &values) {
  out << '[';
  commaSeparated(out, values, [&](auto v) { out << '"' << spelling(v) << '"'; });
  out << ']';
}

} // namespace

void writeExecutionPlan(Sink &out, const Interner &interner, const GraphExecutionPlan &plan,
                        WrittenEdition edition, Placement placement) {
  const auto byKey = [placement](std::size_t i) {
    return placement == Placement::table || (placement == Placement::mixed && i % 2 == 1);
  };
  const CapsuleKeys keys = [&] {
    if (placement == Placement::table)
      return capsuleKeysOf(interner, plan.kernels);
    std::vector<CapsuleId> keyed;
    for (std::size_t i = 0; i < plan.kernels.size(); ++i)
      if (byKey(i))
        keyed.push_back(plan.kernels[i].capsule);
    return CapsuleKeys(interner, keyed);
  }();
  writeFormat(out, "nn-backend/graph-execution-plan");
  if (placement == Placement::table || (placement == Placement::mixed && plan.kernels.size() > 1)) {
    writeCapsuleTable(out, interner, keys, Layout::pretty, edition);
    out << ",\n";
  }
  out << "  \"kernels\": [";
  std::size_t i = 0;
  // A kernel's text after its node id repeats (a run, a model's repeated blocks): the texts
  // written are kept in 64 slots chosen by the kind and the capsule, and written again from there.
  struct Tail {
    const PlannedNodeKernel *of = nullptr;
    const std::string *key = nullptr;
    std::string text;
  };
  std::array<Tail, 64> tails;
  memberLines(out, "", plan.kernels, ']', [&](const PlannedNodeKernel &k) {
    const std::string *key = byKey(i++) ? &keys.key(k.capsule) : nullptr;
    Tail &t = tails[memoSlot(6, k.kind, k.capsule)];
    if (!t.of || k.kind != t.of->kind || k.op != t.of->op || k.capsule != t.of->capsule ||
        key != t.key) {
      t.text = writtenText([&](Sink &s) { writeKernelTail(s, interner, k, key, edition); });
      t.of = &k;
      t.key = key;
    }
    out << "{\"nodeId\":" << k.nodeId << std::string_view(t.text);
  });
  out << "\n}\n";
  out.flush();
}

void writeAudit(Sink &out, const Interner &interner, const AuditDocument &audit,
                std::string_view indent, WrittenEdition edition) {
  const std::string in(indent);
  out << "{\n"
      << in << "  \"format\": \"nn-backend/execution-audit\",\n"
      << in << "  \"version\": 1,\n"
      << in << "  \"kernels\": [";
  std::vector<std::string> rowText; // by the row's view id: a plan repeats a few rows
  memberLines(out, indent, audit.audit.kernels, ']', [&](const KernelAudit &row) {
    out << std::string_view(cachedText(rowText, static_cast<std::size_t>(row.view), [&](Sink &s) {
      writeRecord<AuditRow>(s, interner.capsule(row.view), edition);
    }));
  });
  out << ",\n" << in << "  \"capsuleNames\": [";
  commaSeparated(out, audit.capsuleNames, [&](std::string_view name) { out.jsonString(name); });
  out << "],\n";
  if (!edition || rulesOf(*edition).auditTrustLevels) {
    out << in << "  \"trustLevels\": ";
    spellings(out, audit.trustLevels);
    out << ",\n";
  }
  out << in << "  \"trustedExternalOps\": ";
  spellings(out, audit.trustedExternalOps);
  out << ",\n"
      << in << "  \"hasTrustedExternal\": " << (audit.hasTrustedExternal ? "true" : "false") << '\n'
      << in << '}';
}

namespace {

/// A GraphLoweringPlan whose groups `forEachGroup(each)` hands to `each`, in order.
template <class ForEachGroup>
void writeLowering(Sink &out, const Interner &interner, ForEachGroup &&forEachGroup, Mode mode,
                   Equality equality, const AuditDocument *audit, WrittenEdition edition) {
  CapsuleKeys keys;
  forEachGroup([&](const LoweredKernelGroup &g) { keys.add(interner, g.capsule); });
  writeFormat(out, "nn-backend/graph-lowering-plan");
  out << "  \"mode\": \"" << spelling(mode) << "\",\n  \"equality\": \"" << spelling(equality)
      << "\",\n";
  writeCapsuleTable(out, interner, keys, Layout::pretty, edition);
  out << ",\n  \"groups\": [";
  GroupWriter groups(interner, edition);
  memberLines(out, "", forEachGroup, ']',
              [&](const LoweredKernelGroup &g) { groups.write(out, g, &keys.key(g.capsule)); });
  if (audit) {
    out << ",\n  \"audit\": ";
    writeAudit(out, interner, *audit, "  ", edition);
  }
  out << "\n}\n";
  out.flush();
}

} // namespace

void writeLoweringPlan(Sink &out, const Interner &interner, const GraphLoweringPlan &plan,
                       Mode mode, Equality equality, const AuditDocument *audit,
                       WrittenEdition edition) {
  writeLowering(
      out, interner,
      [&](auto &&each) {
        for (const auto &g : plan.groups)
          each(g);
      },
      mode, equality, audit, edition);
}

void writeLoweringOf(Sink &out, const Interner &interner, const GraphExecutionPlan &plan, Mode mode,
                     Equality equality, WrittenEdition edition) {
  // Lowered twice, holding one group at a time: once for the capsules' keys, once to write.
  writeLowering(
      out, interner,
      [&](auto &&each) {
        GroupFold fold(interner, mode, equality);
        for (const auto &k : plan.kernels)
          fold.push(k, each);
        fold.finish(each);
      },
      mode, equality, nullptr, edition);
}

void writeAuditText(Sink &out, const Interner &interner, const ExecutionAudit &audit, bool detailed,
                    WrittenEdition edition) {
  std::size_t opWidth = 2, nameWidth = 7;
  const std::size_t indexWidth =
      1 + std::to_string(audit.kernels.empty() ? 0 : audit.kernels.size() - 1).size();
  for (const auto &row : audit.kernels) {
    const auto &v = interner.capsule(row.view);
    opWidth = std::max(opWidth, spelling(v.op).size());
    nameWidth = std::max(nameWidth, shownText(v.name, kUncut).size());
  }
  auto pad = [&](std::string_view s, std::size_t w) {
    out << s;
    for (std::size_t i = s.size(); i < w; ++i)
      out << ' ';
  };
  std::size_t trusted = 0;
  for (std::size_t i = 0; i < audit.kernels.size(); ++i) {
    const auto &v = interner.capsule(audit.kernels[i].view);
    if (isTrustedExternal(v))
      ++trusted;
    const std::string index = "#" + std::to_string(i);
    pad(index, indexWidth);
    out << "  ";
    pad(spelling(v.op), opWidth);
    out << "  ";
    pad(shownText(v.name, kUncut), nameWidth);
    out << "  provider=" << spelling(v.provider) << " device=" << spelling(v.device)
        << " trust=" << spelling(v.trustLevel) << " vjp=" << spelling(v.vjpMode) << " numerics=";
    if (!edition || hasSeedCapsule(*edition))
      out << spelling(v.numericalPolicy.rounding) << '/' << spelling(v.numericalPolicy.subnormals)
          << '/' << spelling(v.numericalPolicy.contraction) << '/';
    out << spelling(v.numericalPolicy.reduction) << '\n';
    if (detailed)
      for (const ObligationReport &r : obligationReports(interner, audit.kernels[i]))
        out << "    " << spelling(r.obligation) << ": " << claimLabel(r.claim) << "; "
            << evidenceLabel(r.evidence) << '\n';
  }
  out << std::uint64_t{audit.kernels.size()} << (audit.kernels.size() == 1 ? " row" : " rows")
      << "; trusted-external: ";
  if (trusted == 0)
    out << "none";
  bool first = true;
  for (BackendOp op : trustedExternalOps(interner, audit)) {
    out << (first ? "" : ", ") << spelling(op);
    first = false;
  }
  out << '\n';
  out.flush();
}

std::string executionPlanJson(const Interner &interner, const GraphExecutionPlan &plan,
                              WrittenEdition edition) {
  return writtenText([&](Sink &out) { writeExecutionPlan(out, interner, plan, edition); });
}

std::string loweringPlanJson(const Interner &interner, const GraphLoweringPlan &plan, Mode mode,
                             Equality equality, const AuditDocument *audit,
                             WrittenEdition edition) {
  return writtenText(
      [&](Sink &out) { writeLoweringPlan(out, interner, plan, mode, equality, audit, edition); });
}

} // namespace lo::io
