#include "checks/context.hpp"

#include "checks/catalogue.hpp"

#include "ref/io/escape.hpp"
#include "ref/io/writer.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace lo::checks::detail {

NodeIndex::NodeIndex(const GraphExecutionPlan &plan) : kernels_(&plan.kernels) {
  NodeId maxId = 0;
  for (const auto &k : plan.kernels)
    maxId = std::max(maxId, k.nodeId);
  const std::size_t n = plan.kernels.size();
  if (n >= kNone)
    throw std::length_error("a plan of more than 2^32 - 2 kernels");
  // A direct table when it is at most a few times larger than the plan.
  dense_ = maxId < 4 * static_cast<NodeId>(n) + 64;
  if (dense_) {
    table_.assign(static_cast<std::size_t>(maxId) + 1, kNone);
    for (std::size_t i = 0; i < n; ++i)
      table_[static_cast<std::size_t>(plan.kernels[i].nodeId)] = static_cast<std::uint32_t>(i);
    return;
  }
  table_.assign(std::bit_ceil(2 * n), kNone);
  mask_ = table_.size() - 1;
  for (std::size_t i = 0; i < n; ++i) {
    const NodeId id = plan.kernels[i].nodeId;
    std::size_t s = keyedHash(id) & mask_;
    while (table_[s] != kNone && plan.kernels[table_[s]].nodeId != id)
      s = (s + 1) & mask_;
    table_[s] = static_cast<std::uint32_t>(i);
  }
}

Report Findings::finish() && {
  Report r;
  // Listed in the order of the checks (the order of docs/spec.md §3.1), then by group.
  std::stable_sort(violations_.begin(), violations_.end(),
                   [](const Violation &a, const Violation &b) { return a.check < b.check; });
  r.violations = std::move(violations_);
  for (std::size_t c = 0; c < vocabularySize<Check>(); ++c)
    if (counts_[c] > cap_)
      r.omitted.emplace_back(static_cast<Check>(c), counts_[c] - cap_);
  r.notes = std::move(notes_);
  return r;
}

KernelAudit Judge::auditRow(BackendOp op, CapsuleId c) {
  const std::uint64_t key =
      (std::uint64_t{static_cast<std::uint8_t>(op)} << 32) | static_cast<std::uint32_t>(c);
  auto &recent = recentRows_[memoSlot(6, key)];
  if (recent.first == key + 1)
    return KernelAudit{recent.second};
  auto [it, fresh] = rows_.try_emplace(key);
  if (fresh)
    it->second = ofPlannedKernel(interner, PlannedKernel{op, c}).view;
  recent = {key + 1, it->second};
  return KernelAudit{it->second};
}

void GroupChecks::judge(GroupSite &site) {
  checkEmptyGroup(judge_, site);
  if (kinds_)
    checkKinds(judge_, site);
  checkOp(judge_, site);
  checkCapsule(judge_, site);
  if (groupingKind_)
    checkGroupingKind(judge_, site);
  if (singleton_)
    checkSingleton(judge_, site);
  checkMaximal(judge_, site, previous_ ? &*previous_ : nullptr);
  checkAuditRows(judge_, site);
  checkTrustBoundaryRows(judge_, site);
  gate_.group(judge_, site);
  if (!site.members.empty()) {
    PreviousGroup &p = previous_ ? *previous_ : previous_.emplace();
    p.index = site.index;
    p.head =
        site.members.front().kernel ? std::optional(*site.members.front().kernel) : std::nullopt;
    p.lastPosition = site.members.back().position;
  }
}

void GroupChecks::finish() {
  const std::size_t cap = judge_.options.maxPerCheck;
  if (judge_.identityNotes > cap)
    judge_.findings.note("and " + std::to_string(judge_.identityNotes - cap) +
                         " more such rows under equality identity");
  gate_.finish(judge_);
}

Context::Context(Interner &interner, const GraphExecutionPlan &plan,
                 const io::LoweringDocument &candidate, const Options &options)
    : Judge(interner, options), plan(plan), candidate(candidate), lowering(candidate.plan),
      index(plan) {}

void Judge::planned(CapsuleId c) {
  const std::size_t position = plannedKernels_++;
  if (lastPlanned_ == c) // a run of one capsule: keyed at its first kernel
    return;
  lastPlanned_ = c;
  if (planKeys_.add(interner, c))
    firstUse_.emplace(c, position);
}

const std::string *Judge::planKey(CapsuleId c, std::size_t upTo) const {
  const auto it = firstUse_.find(c);
  return it == firstUse_.end() || it->second > upTo ? nullptr : planKeys_.find(c);
}

std::string Judge::capsuleWords(CapsuleId c, std::size_t upTo) const {
  const std::string &name = interner.capsule(c).name;
  const std::string *key = planKey(c, upTo);
  return "capsule " + name + (key && *key != name ? " (key " + *key + ")" : "");
}

const std::vector<KernelAudit> &Context::derivedAudit() {
  if (!derived_) {
    derived_.emplace();
    derived_->reserve(lowering.groups.size());
    for (const auto &g : lowering.groups)
      derived_->push_back(auditRow(g.op, g.capsule));
  }
  return *derived_;
}

void declarationNotes(Judge &judge, std::optional<Mode> mode, std::optional<Equality> equality,
                      std::optional<Edition> edition) {
  if (auto note = checks::editionNote("the candidate", edition, judge.options.edition))
    judge.findings.note(std::move(*note));
  if (mode && *mode != judge.options.mode)
    judge.findings.note("the candidate declares mode " + std::string(spelling(*mode)) +
                        ", but it is checked as mode " + std::string(spelling(judge.options.mode)));
  if (equality && *equality != judge.options.equality)
    judge.findings.note("the candidate declares equality " + std::string(spelling(*equality)) +
                        ", but it is checked with equality " +
                        std::string(spelling(judge.options.equality)));
}

bool hidesBoundary(const Interner &interner, CapsuleId shown, CapsuleId truth) {
  return isTrustedExternal(interner.capsule(truth)) && !isTrustedExternal(interner.capsule(shown));
}

// --- Wording ----------------------------------------------------------------------------------

std::string groupPointer(std::size_t g) { return "/groups/" + std::to_string(g); }

std::string groupPointer(std::size_t g, std::string_view field) {
  return groupPointer(g) + "/" + std::string(field);
}

std::string groupPointer(std::size_t g, std::string_view field, std::size_t i) {
  return groupPointer(g, field) + "/" + std::to_string(i);
}

std::string nodeList(std::span<const NodeId> ids) {
  constexpr std::size_t kShown = 5;
  std::string out = ids.size() == 1 ? "node " : "nodes ";
  const std::size_t shown = ids.size() <= kShown + 1 ? ids.size() : kShown;
  for (std::size_t i = 0; i < shown; ++i) {
    if (i)
      out += ", ";
    out += std::to_string(ids[i]);
  }
  if (shown < ids.size())
    out += " and " + std::to_string(ids.size() - shown) + " more";
  return out;
}

std::string groupLabel(const LoweredKernelGroup &g, std::size_t index) {
  return "group " + std::to_string(index) + " (" +
         (g.nodeIds.empty() ? std::string("no nodes") : nodeList(g.nodeIds)) + ")";
}

std::string kindText(const Interner &interner, KindId kind) {
  std::string out;
  {
    io::Sink sink(out);
    io::writeKind(sink, interner.kind(kind));
    sink.flush();
  }
  if (out.size() >= 2 && out.front() == '"' && out.back() == '"')
    out = out.substr(1, out.size() - 2);
  return out;
}

std::string extraNodeMessage(std::size_t g, NodeId id) {
  return "group " + std::to_string(g) + " lists node " + std::to_string(id) +
         ", which is not in the plan";
}

std::string repeatedNodeMessage(std::size_t g, NodeId id) {
  return "group " + std::to_string(g) + " lists node " + std::to_string(id) +
         " again; the plan has it once";
}

std::string missingNodeMessage(const Interner &interner, const PlannedNodeKernel &k,
                               std::optional<NodeId> before) {
  const std::string where = before
                                ? "it comes after node " + std::to_string(*before) + " in the plan"
                                : std::string("it is the plan's first node");
  return "node " + std::to_string(k.nodeId) + " (" + kindText(interner, k.kind) +
         ") of the plan is in no group; " + where;
}

std::string outOfOrderMessage(const std::vector<NodeId> &moved, std::size_t g,
                              std::optional<NodeId> before) {
  const bool many = moved.size() > 1;
  const std::string where =
      before ? (many ? "the plan has the first of them right after node "
                     : "the plan has it right after node ") +
                   std::to_string(*before)
             : std::string(many ? "the plan has the first of them first" : "the plan has it first");
  return nodeList(moved) + (many ? " are" : " is") + " out of plan order in group " +
         std::to_string(g) + "; " + where;
}

std::string capsuleText(const Interner &interner, CapsuleId c) {
  return "capsule " + interner.capsule(c).name;
}

namespace {

/// The first field, of those compared in order, in which two capsules differ, with its path and
/// both values, each named by its side: "valueContract.evidence.text: the group's \"suite A\",
/// node 3's \"suite B\"" (docs/spec.md §3.5: both sides named in every comparison). A name or a
/// spec is written as the input spells it; any other text quoted and cut as an input error quotes
/// it (io::quote); the report writers show it escaped.
class FirstDifference {
public:
  FirstDifference(const Sides &sides) : sides_(sides) {}

  FirstDifference &raw(std::string_view field, const std::string &a, const std::string &b) {
    if (found_.path.empty() && a != b)
      found_ = {std::string(field), a, b,
                std::string(field) + ": " + sides_.first + " " + a + ", " + sides_.second + " " +
                    b};
    return *this;
  }
  FirstDifference &text(std::string_view field, std::string_view a, std::string_view b) {
    return a == b ? *this : raw(field, io::quote(a), io::quote(b));
  }
  /// A name or a spec, as the input spells it, without quotes (docs/spec.md §3.5).
  FirstDifference &name(std::string_view field, std::string_view a, std::string_view b) {
    return a == b ? *this : raw(field, std::string(a), std::string(b));
  }
  /// A spec name that an edition may leave out (docs/spec.md §1.6): "absent" when it has none.
  FirstDifference &optionalName(std::string_view field, const std::optional<std::string> &a,
                                const std::optional<std::string> &b) {
    if (a == b)
      return *this;
    return raw(field, a ? *a : "absent", b ? *b : "absent");
  }
  template <class E> FirstDifference &spelled(std::string_view field, E a, E b) {
    return a == b ? *this : raw(field, std::string(spelling(a)), std::string(spelling(b)));
  }
  FirstDifference &boolean(std::string_view field, bool a, bool b) {
    return raw(field, a ? "true" : "false", b ? "true" : "false");
  }
  FirstDifference &optionalText(std::string_view field, const std::optional<std::string> &a,
                                const std::optional<std::string> &b) {
    if (a == b)
      return *this;
    return raw(field, a ? io::quote(*a) : "absent", b ? io::quote(*b) : "absent");
  }

  /// The fields of a record of table `K`, in the table's order, each named by its path after
  /// `at` (docs/spec.md §2.2): those of contract equality, or with `identityOnly` those of
  /// identity. A field that other tags spell otherwise is named as the first side's tag spells it
  /// (`evidence.reason` for trustedBoundary); `nameField`, when given, names the field `name`.
  template <class K>
  FirstDifference &record(const std::string &at, const typename RecordTable<K>::Value &a,
                          const typename RecordTable<K>::Value &b, bool identityOnly = false,
                          std::string_view nameField = {}) {
    forEachField<K>([&](const auto &f, auto) {
      if (!found_.path.empty() || f.has(kFieldAlias) ||
          (identityOnly ? !f.has(kFieldIdentity) : f.has(kFieldOutsideContract)))
        return;
      std::string_view label = f.name == "name" && !nameField.empty() ? nameField : f.name;
      if constexpr (Tagged<K>)
        forEachField<K>([&](const auto &g, auto) {
          if constexpr (std::is_same_v<decltype(f.member), decltype(g.member)>)
            if (g.member == f.member && g.name != f.name &&
                g.forTag(a.*std::get<0>(RecordTable<K>::fields).member) &&
                !f.forTag(a.*std::get<0>(RecordTable<K>::fields).member))
              label = g.name;
        });
      value(at + std::string(label), a.*f.member, b.*f.member, f.has(kFieldVerbatim));
    });
    return *this;
  }
  FieldDifference result() const { return found_; }

private:
  template <class T> void value(const std::string &path, const T &a, const T &b, bool verbatim) {
    if constexpr (Recorded<T>) {
      record<T>(path + ".", a, b);
    } else if constexpr (IsVector<T>::value) {
      if (a.size() != b.size()) {
        raw(path, io::counted(a.size(), "item"), io::counted(b.size(), "item"));
        return;
      }
      auto j = b.begin();
      std::size_t i = 0;
      for (const auto &x : a)
        value<typename T::value_type>(path + "[" + std::to_string(i++) + "]", x, *j++, verbatim);
    } else if constexpr (IsOptional<T>::value) {
      verbatim ? optionalName(path, a, b) : optionalText(path, a, b);
    } else if constexpr (std::is_enum_v<T>) {
      spelled(path, a, b);
    } else if constexpr (std::is_same_v<T, bool>) {
      boolean(path, a, b);
    } else {
      verbatim ? name(path, a, b) : text(path, a, b);
    }
  }

  const Sides &sides_;
  FieldDifference found_;
};

} // namespace

std::string FieldDifference::pointer() const {
  // A dotted path of field names and [index]es: each part a member of the capsule's JSON (RFC
  // 6901: `~` as `~0`, `/` as `~1`; the names here have neither).
  std::string out;
  for (char c : path) {
    if (c == '.' || c == '[')
      out += '/';
    else if (c != ']')
      out += c;
  }
  return path.empty() ? std::string() : "/" + out;
}

FieldDifference capsuleDifference(const KernelCapsule &a, const KernelCapsule &b,
                                  const Sides &sides) {
  return FirstDifference(sides).record<KernelCapsule>("", a, b, false, sides.nameField).result();
}

FieldDifference identityDifference(const KernelCapsule &a, const KernelCapsule &b,
                                   const Sides &sides) {
  // docs/spec.md §1.3: equal `name`, `op`, `provider` and `device`.
  return FirstDifference(sides).record<KernelCapsule>("", a, b, true, sides.nameField).result();
}

} // namespace lo::checks::detail
