// Shared machinery of the checks (internal to checks/): the plan indexed by node id, the
// candidate, the options, the findings collected so far (with the per-check cap), and the
// helpers that word the one plain sentence of a violation.
#pragma once

#include "checks/catalogue.hpp"
#include "checks/checks.hpp"
#include "checks/gate.hpp"
#include "ref/hash.hpp"
#include "ref/io/writer.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lo::checks::detail {

/// Node id -> position in the plan, in O(1). Dense ids (the common case: 0..n or 1..n) use a
/// direct table; sparse ids an open-addressed table of positions (at least twice as many slots as
/// kernels, 4 bytes each), probed by the keyed hash of the id (ids come from the input). Of two
/// kernels with one id, the later is found.
class NodeIndex {
public:
  static constexpr std::size_t kAbsent = static_cast<std::size_t>(-1);
  explicit NodeIndex(const GraphExecutionPlan &plan);
  std::size_t find(NodeId id) const {
    if (dense_) {
      if (id >= table_.size())
        return kAbsent;
      const auto p = table_[static_cast<std::size_t>(id)];
      return p == kNone ? kAbsent : p;
    }
    for (std::size_t s = keyedHash(id) & mask_;; s = (s + 1) & mask_) {
      const std::uint32_t p = table_[s];
      if (p == kNone)
        return kAbsent;
      if ((*kernels_)[p].nodeId == id)
        return p;
    }
  }

private:
  static constexpr std::uint32_t kNone = UINT32_MAX;
  bool dense_ = false;
  std::vector<std::uint32_t> table_; // by id when dense, else by slot; kNone where there is none
  std::size_t mask_ = 0;             // slots - 1 (sparse)
  const std::vector<PlannedNodeKernel> *kernels_ = nullptr;
};

/// A violation as a check words it: a JSON pointer into the candidate and a sentence.
struct Description {
  std::string pointer;
  std::string message;
  /// Where a single field of the candidate is wrong (Violation::field, expected, actual).
  std::string field = {}, expected = {}, actual = {};
};

/// Violations collected so far, at most `Options::maxPerCheck` listed per check and the rest
/// counted (docs/spec.md §3.5).
class Findings {
public:
  explicit Findings(std::size_t cap) : cap_(cap) {}
  /// The one way a check reports a violation: it is counted, and listed while `check` is under
  /// the cap. `describe()` returns its {JSON pointer, sentence}, and is called only when the
  /// violation is listed (a capped check builds no text).
  template <class Describe>
  void report(Check check, std::optional<std::size_t> group, std::optional<NodeId> node,
              Describe &&describe) {
    if (counts_[index(check)]++ >= cap_)
      return;
    Description d = describe();
    violations_.push_back(Violation{check, group, node, std::move(d.pointer), std::move(d.message),
                                    std::move(d.field), std::move(d.expected),
                                    std::move(d.actual)});
  }
  void note(std::string text) { notes_.push_back(std::move(text)); }
  Report finish() &&;

private:
  static std::size_t index(Check c) { return static_cast<std::size_t>(c); }
  std::size_t cap_;
  std::vector<Violation> violations_;
  std::size_t counts_[vocabularySize<Check>()] = {};
  std::vector<std::string> notes_;
};

/// What every check shares, whether it reads a whole document or a stream: the interner, the
/// options, the findings, and the audit rows built so far.
struct Judge {
  Judge(Interner &interner, const Options &options)
      : interner(interner), options(options), findings(options.maxPerCheck) {}

  Interner &interner;
  const Options &options;
  Findings findings;
  /// Notes told under equality identity by the audit check (counted past the cap).
  std::size_t identityNotes = 0;

  /// The audit row of a group or node of `op` with capsule `c` (`KernelAudit.ofPlannedKernel`),
  /// memoized per (op, capsule).
  KernelAudit auditRow(BackendOp op, CapsuleId c);

  /// The next plan kernel's capsule, in plan order (GroupChecks::planned): keyed by docs/spec.md
  /// §2.5's rule in order of first use, as `gen` and `lower` write the plan, one kernel at a time
  /// (so the whole document and the stream form key alike).
  void planned(CapsuleId c);
  /// The plan's key of `c` when a plan kernel at a position up to `upTo` uses it, else null (not
  /// a capsule of the plan, or one used only later). A sentence names a capsule by its key where
  /// two capsules share a name (docs/spec.md §3.5).
  const std::string *planKey(CapsuleId c, std::size_t upTo) const;
  /// "capsule NAME", and " (key KEY)" when its plan key (up to `upTo`) is not its name.
  std::string capsuleWords(CapsuleId c, std::size_t upTo) const;

  /// Whether groups coalesce under equality identity: a group's later members need only be
  /// `same` in identity as its capsule (and may differ from it in trust level or evidence).
  bool identityCoalescing() const {
    return options.equality == Equality::identity && options.mode == Mode::coalesced;
  }

private:
  std::unordered_map<std::uint64_t, CapsuleId> rows_;
  /// The rows asked for lately, in front of rows_ (a plan's groups ask for a few rows, in runs):
  /// 64 slots by the key's hash, each (key + 1, row), 0 when empty.
  std::array<std::pair<std::uint64_t, CapsuleId>, 64> recentRows_{};
  io::CapsuleKeys planKeys_;
  std::unordered_map<CapsuleId, std::size_t> firstUse_; // plan position of the first use
  std::size_t plannedKernels_ = 0;
  std::optional<CapsuleId> lastPlanned_;
};

/// A node id of a candidate group as the group checks see it: the plan's kernel of that id (null
/// when the plan has no such node) and its position in the plan.
struct Member {
  static constexpr std::size_t kAbsent = NodeIndex::kAbsent;
  const PlannedNodeKernel *kernel = nullptr;
  std::size_t position = kAbsent;
};

/// A group's Members, one per node id, in either of two forms: `check` finds each node in the
/// plan's NodeIndex when it is asked for, holding nothing per id beside the candidate's ids
/// (docs/performance.md, "Hostile inputs"); the stream form holds Members of its own (its
/// kernels are copies).
class MemberList {
public:
  MemberList(const std::vector<PlannedNodeKernel> &plan, const NodeIndex &index,
             const NodeIdList &ids)
      : plan_(&plan), index_(&index), ids_(&ids) {}
  explicit MemberList(const std::vector<Member> &members) : members_(&members) {}
  std::size_t size() const { return members_ ? members_->size() : ids_->size(); }
  bool empty() const { return size() == 0; }
  Member operator[](std::size_t i) const {
    if (members_)
      return (*members_)[i];
    const std::size_t p = index_->find((*ids_)[i]);
    return p == Member::kAbsent ? Member{} : Member{&(*plan_)[p], p};
  }
  Member front() const { return (*this)[0]; }
  Member back() const { return (*this)[size() - 1]; }

private:
  const std::vector<PlannedNodeKernel> *plan_ = nullptr;
  const NodeIndex *index_ = nullptr;
  const NodeIdList *ids_ = nullptr;
  const std::vector<Member> *members_ = nullptr;
};

/// One candidate group, "the group index", and one Member per node id: all that the per-group
/// checks read. The op and capsule checks set `judged` when they name the group.
struct GroupSite {
  std::size_t index;
  const LoweredKernelGroup &group;
  MemberList members;
  bool judged = false;
  const PlannedNodeKernel *kernel(std::size_t i) const { return members[i].kernel; }
};

/// The last non-empty group before the one judged, as `maximal` needs it: its index, its first
/// node's plan kernel (if the plan has it) and the plan position of its last node.
struct PreviousGroup {
  std::size_t index = 0;
  std::optional<PlannedNodeKernel> head;
  std::size_t lastPosition = Member::kAbsent;
};

/// Runs the per-group checks of docs/spec.md §3 on each group in turn, in the order of the
/// section (empty-group, kinds, op, capsule, grouping-kind, singleton, maximal, audit,
/// trust-boundary), remembering the previous group for `maximal`. The whole-document checker and
/// the stream checker both judge their groups through it, so a group is judged the same way in
/// either.
class GroupChecks {
public:
  explicit GroupChecks(Judge &judge)
      : judge_(judge), kinds_(appliesIn(Check::kinds, judge.options.mode, judge.options.edition)),
        groupingKind_(appliesIn(Check::groupingKind, judge.options.mode, judge.options.edition)),
        singleton_(appliesIn(Check::singleton, judge.options.mode, judge.options.edition)) {}
  /// A kernel of the plan, each once, in plan order: the `gate` check's singleton rows, and the
  /// plan's capsule keys (Judge::planned).
  void planned(const PlannedNodeKernel &k) {
    judge_.planned(k.capsule);
    gate_.planned(judge_, k);
  }
  void judge(GroupSite &site);
  /// Tells how many identity notes were past the cap, and judges the gate (docs/spec.md §6).
  void finish();

private:
  Judge &judge_;
  // Whether these checks apply in the run's mode and edition (appliesIn), asked once.
  bool kinds_, groupingKind_, singleton_;
  std::optional<PreviousGroup> previous_;
  GateTally gate_;
};

/// A whole candidate document against a whole plan: the sequence checks (provenance, order) and
/// the carried audit read these.
struct Context : Judge {
  Context(Interner &interner, const GraphExecutionPlan &plan, const io::LoweringDocument &candidate,
          const Options &options);

  const GraphExecutionPlan &plan;
  const io::LoweringDocument &candidate;
  const GraphLoweringPlan &lowering; // candidate.plan
  NodeIndex index;

  /// Whether the groups' ids are the plan's ids as a multiset (set by the provenance check).
  bool sameMultiset = true;

  /// The audit the candidate's groups give: one row per group (computed once).
  const std::vector<KernelAudit> &derivedAudit();

private:
  std::optional<std::vector<KernelAudit>> derived_;
};

/// The notes for a candidate that declares another mode or equality than the one checked.
void declarationNotes(Judge &judge, std::optional<Mode> mode, std::optional<Equality> equality,
                      std::optional<Edition> edition = std::nullopt);

/// Whether showing `shown` for what is really `truth` hides a trusted-external boundary: the
/// difference that the trust-boundary check names (the audit check names every other one).
bool hidesBoundary(const Interner &interner, CapsuleId shown, CapsuleId truth);

// --- Wording ----------------------------------------------------------------------------------

/// "/groups/3", "/groups/3/nodeIds/1".
std::string groupPointer(std::size_t g);
std::string groupPointer(std::size_t g, std::string_view field);
std::string groupPointer(std::size_t g, std::string_view field, std::size_t i);

/// "node 7" or "nodes 7, 8" (at most a few listed, then "and N more").
std::string nodeList(std::span<const NodeId> ids);
/// "group 3 (nodes 7, 8)" or "group 3 (no nodes)".
std::string groupLabel(const LoweredKernelGroup &g, std::size_t index);
/// A kind as it is written in files: `relu`, `{"tag":"conv2d",...}`.
std::string kindText(const Interner &interner, KindId kind);
/// "capsule reference.relu".
std::string capsuleText(const Interner &interner, CapsuleId c);
// The provenance and order sentences, shared by the whole-document checks (provenance.cpp,
// order.cpp) and the stream checker (stream.cpp), so that the two agree by construction.

/// provenance: "group 3 lists node 7, which is not in the plan".
std::string extraNodeMessage(std::size_t g, NodeId id);
/// provenance: "group 3 lists node 7 again; the plan has it once".
std::string repeatedNodeMessage(std::size_t g, NodeId id);
/// provenance: "node 7 (relu) of the plan is in no group; it comes after node 6 in the plan"
/// (`before`: the node before it in the plan, none for the plan's first node).
std::string missingNodeMessage(const Interner &interner, const PlannedNodeKernel &k,
                               std::optional<NodeId> before);
/// order: "nodes 7, 8 are out of plan order in group 3; the plan has the first of them right after
/// node 6" (`before` as above, for the first of `moved`).
std::string outOfOrderMessage(const std::vector<NodeId> &moved, std::size_t g,
                              std::optional<NodeId> before);

/// The two sides of a comparison as a message names them, before each value: "the group's" and
/// "node 3's" (docs/spec.md §3.5).
struct Sides {
  std::string first, second;
  /// What the capsule's name is called where the two are compared: `name` for capsules,
  /// `capsuleName` for audit rows (docs/spec.md §2.6).
  std::string_view nameField = "name";
};

/// The first field in which two capsules (or audit rows) differ (docs/spec.md §3.5), by its
/// nested path, with both sides.
struct FieldDifference {
  std::string path;          // "valueContract.provenance[0].path"; empty when they are equal
  std::string first, second; // each side's value as the sentence shows it
  std::string words;         // "PATH: FIRST-SIDE FIRST, SECOND-SIDE SECOND"
  /// `path` as a JSON pointer below the capsule or row: "/valueContract/provenance/0/path".
  std::string pointer() const;
};

/// The first field in which two different capsules differ, with its nested path and both values,
/// each after its side: "trustLevel: the group's checked, node 3's trusted-external",
/// "valueContract.evidence.name: the group's \"a\", node 3's \"b\"". Empty when they are
/// equal.
FieldDifference capsuleDifference(const KernelCapsule &a, const KernelCapsule &b,
                                  const Sides &sides);
/// The first field in which two capsules differ in identity (name, op, provider, device), worded
/// as capsuleDifference words it.
FieldDifference identityDifference(const KernelCapsule &a, const KernelCapsule &b,
                                   const Sides &sides);

// --- The checks, one per file -----------------------------------------------------------------

// The sequence checks read the whole candidate (the stream checker has its own, in stream.cpp).
void checkProvenance(Context &cx);
void checkOrder(Context &cx);

// The per-group checks judge one group (GroupChecks calls them in this order).
void checkEmptyGroup(Judge &j, GroupSite &site);
void checkKinds(Judge &j, GroupSite &site);
void checkOp(Judge &j, GroupSite &site);
void checkCapsule(Judge &j, GroupSite &site);
void checkGroupingKind(Judge &j, GroupSite &site);
void checkSingleton(Judge &j, GroupSite &site);
void checkMaximal(Judge &j, GroupSite &site, const PreviousGroup *previous);
void checkAuditRows(Judge &j, GroupSite &site);
void checkTrustBoundaryRows(Judge &j, GroupSite &site);

// The audit a whole document carries, against the audit derived from its groups (the stream form
// carries no audit).
void checkCarriedAudit(Context &cx);
void checkCarriedTrustBoundary(Context &cx);

} // namespace lo::checks::detail
