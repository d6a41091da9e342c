// Writers for the files of docs/spec.md §2.
//
// Deterministic: the same input gives the same bytes (docs/spec.md §2.1). `format` and `version`
// are always written, and every capsule field is written out, defaults included.
#pragma once

#include "ref/audit.hpp"
#include "ref/hash.hpp"
#include "ref/io/limits.hpp"
#include "ref/io/output.hpp"
#include "ref/ir.hpp"
#include "ref/lowering.hpp"
#include "ref/record.hpp"

#include <deque>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace lo::io {

/// The name a key is built from: the capsule's name cut at kMaxKeyNameBytes (cutText).
std::string keyNameOf(std::string name);

/// The written capsule keys (docs/spec.md §2.5, "Capsule keys"), the name cut by keyNameOf. A key
/// that some capsule's own name already took is skipped (a capsule named "a#2" keeps "a#2"; the
/// second "a" then gets "a#3").
class CapsuleKeys {
public:
  CapsuleKeys() = default;
  CapsuleKeys(const Interner &interner, std::span<const CapsuleId> inOrderOfUse);
  /// The next capsule in order of use: keyed when it is new (then returns true). The keys are
  /// made one use at a time, so the keys of a prefix of the uses are the keys of the whole.
  bool add(const Interner &interner, CapsuleId id);
  const std::vector<CapsuleId> &order() const { return order_; }
  const std::string &key(CapsuleId id) const {
    const std::string *k = find(id);
    if (!k)
      throw std::out_of_range("CapsuleKeys::key: a capsule no item uses");
    return *k;
  }
  /// The key of `id`, or null when no item uses it.
  const std::string *find(CapsuleId id) const {
    const auto i = static_cast<std::size_t>(id);
    return i < slot_.size() && slot_[i] ? &keys_[slot_[i] - 1] : nullptr;
  }

private:
  std::vector<CapsuleId> order_;
  std::deque<std::string> keys_;    // in order_'s order
  std::vector<std::uint32_t> slot_; // by capsule id: 1 + its index in keys_, or 0
  // Names come from the input: keyed hashing (ref/hash.hpp).
  std::unordered_map<std::string, std::size_t, KeyedHash> seenNames_; // name -> capsules so far
  std::unordered_set<std::string, KeyedHash> taken_;
};

/// The keys of the capsules of `items` (a plan's kernels or a lowering's groups), in order of
/// first use.
template <class Items> CapsuleKeys capsuleKeysOf(const Interner &interner, const Items &items) {
  std::vector<CapsuleId> used;
  used.reserve(items.size());
  for (const auto &item : items)
    used.push_back(item.capsule);
  return CapsuleKeys(interner, used);
}

/// The edition whose shape a writer writes (its fields only), or none: every field (the seed's
/// shape, what the writers wrote before the lean-dojo lineage; docs/spec.md §1.6).
/// The elements of a JSON array or object on one line, `a,b,...`, each written by `each(item)`.
template <class Range, class Each> void commaSeparated(Sink &out, const Range &items, Each &&each) {
  bool first = true;
  for (const auto &item : items) {
    if (!first)
      out << ',';
    first = false;
    each(item);
  }
}

using WrittenEdition = std::optional<Edition>;

template <class K>
void writeRecord(Sink &out, const typename RecordTable<K>::Value &r, WrittenEdition edition = {});

/// One field's value, by its type (the reader's inverse, ref/io/contract_reader.hpp).
template <class T> void writeFieldValue(Sink &out, const T &v, WrittenEdition edition = {}) {
  if constexpr (Recorded<T>) {
    writeRecord<T>(out, v, edition);
  } else if constexpr (IsVector<T>::value) {
    char before = '[';
    for (const auto &x : v) {
      out << before;
      before = ',';
      writeFieldValue<typename T::value_type>(out, x, edition);
    }
    if (before == '[')
      out << '[';
    out << ']';
  } else if constexpr (IsOptional<T>::value) {
    writeFieldValue(out, *v, edition);
  } else if constexpr (std::is_enum_v<T>) {
    out << '"' << spelling(v) << '"';
  } else if constexpr (std::is_same_v<T, bool>) {
    out << (v ? "true" : "false");
  } else {
    out.jsonString(v);
  }
}

/// A record of table `K` on one line, its fields in the table's order: of a tagged record, those
/// its tag has; an optional field when it has a value; every other field, defaults included.
template <class K>
void writeRecord(Sink &out, const typename RecordTable<K>::Value &r, WrittenEdition edition) {
  char before = '{';
  forEachWrittenField<K>(
      r,
      [&](const auto &f, const auto &value) {
        out << before << '"' << f.name << "\":";
        before = ',';
        writeFieldValue(out, value, edition);
      },
      edition);
  out << '}';
}

void writeCapsule(Sink &out, const KernelCapsule &c, WrittenEdition edition = {});

/// How a document is laid out: `pretty` (the JSON form: two spaces a level, one member a line)
/// or `line` (the stream form: a whole object on one line).
enum class Layout { pretty, line };

/// The `capsules` table of a plan, a lowering or a stream header, as a member of the document's
/// top-level object: its capsules by their `keys`, in the keys' order. `pretty` writes
/// `  "capsules": {` with one `"KEY": Capsule` a line; `line` writes
/// `"capsules":{"KEY":Capsule,...}`. No separator is written before or after it.
void writeCapsuleTable(Sink &out, const Interner &interner, const CapsuleKeys &keys,
                       Layout layout = Layout::pretty, WrittenEdition edition = {});
void writeKind(Sink &out, const OpKind &kind);
/// A contract's claim and evidence, as a capsule's descriptor writes them.
void writeContractClaim(Sink &out, const ContractClaim &c);
void writeContractEvidence(Sink &out, const ContractEvidence &e);
/// A provenance item, as a capsule's descriptor writes it: {"tag","path"} and the rest by its tag.
void writeContractProvenance(Sink &out, const ContractProvenance &p);

/// One kernel of a plan on one line: its capsule as `key`, or inline when `key` is null.
void writeKernel(Sink &out, const Interner &interner, const PlannedNodeKernel &k,
                 const std::string *key, WrittenEdition edition = {});
/// Writes the groups of one lowering plan, one group on one line with its capsule as `key`, or
/// inline when `key` is null, keeping the JSON text of each kind and
/// capsule reference once written (a plan repeats a few of them many times). A capsule's reference
/// is the one given with its first group.
class GroupWriter {
public:
  explicit GroupWriter(const Interner &interner, WrittenEdition edition = {})
      : interner_(interner), edition_(edition) {}
  void write(Sink &out, const LoweredKernelGroup &g, const std::string *key);

private:
  const std::string &kindText(KindId id);
  const std::string &capsuleText(CapsuleId id, const std::string *key);
  const Interner &interner_;
  WrittenEdition edition_;
  std::vector<std::string> kinds_;    // by KindId; empty until written
  std::vector<std::string> capsules_; // by CapsuleId; empty until written
  std::vector<std::string> heads_;    // each written field's `{"NAME":` or `,"NAME":`
  std::string tail_;                  // the fields after the lists, and `}`, of tailOf_
  LoweredKernelGroup tailOf_;
  const std::string *tailKey_ = nullptr;
};

/// Where a plan's kernels put their capsules (docs/spec.md §2.4): in the `capsules` table, inline,
/// or `mixed`, alternating the two (the odd kernels by key).
enum class Placement : std::uint8_t { table, inline_, mixed };

/// A GraphExecutionPlan; the `capsules` table holds the capsules of the kernels placed by key (it
/// is left out when none is).
void writeExecutionPlan(Sink &out, const Interner &interner, const GraphExecutionPlan &plan,
                        WrittenEdition edition = {}, Placement placement = Placement::table);

/// A GraphLoweringPlan with its `mode` and `equality`, and its audit when `audit` is given.
void writeLoweringPlan(Sink &out, const Interner &interner, const GraphLoweringPlan &plan,
                       Mode mode, Equality equality, const AuditDocument *audit = nullptr,
                       WrittenEdition edition = {});

/// The lowering of `plan` in `mode` (`lower`), written as writeLoweringPlan writes it, without
/// holding its groups (GroupFold, ref/lowering.hpp).
void writeLoweringOf(Sink &out, const Interner &interner, const GraphExecutionPlan &plan, Mode mode,
                     Equality equality, WrittenEdition edition = {});

/// An ExecutionAudit document (at top level, or nested with `indent`).
void writeAudit(Sink &out, const Interner &interner, const AuditDocument &audit,
                std::string_view indent = "", WrittenEdition edition = {});

/// The audit as text (docs/spec.md §4.3, "audit"): one line a row (op, capsule, provider, device,
/// trust, vjp, numerical policy: the fields `edition` has), then one summary line. With
/// `detailed`, each row is followed by
/// its four contract lines, as the original's `KernelAudit.detailedReportLines`: "Full contract
/// report for a selected backend capsule" (`    shape: CLAIM; EVIDENCE`, then layout, value,
/// vjp; docs/spec.md §6.1).
void writeAuditText(Sink &out, const Interner &interner, const ExecutionAudit &audit,
                    bool detailed = false, WrittenEdition edition = {});

/// Convenience: the document as a string.
std::string executionPlanJson(const Interner &interner, const GraphExecutionPlan &plan,
                              WrittenEdition edition = {});
std::string loweringPlanJson(const Interner &interner, const GraphLoweringPlan &plan, Mode mode,
                             Equality equality, const AuditDocument *audit = nullptr,
                             WrittenEdition edition = {});

} // namespace lo::io
