// gate (docs/spec.md §6.8): under each preset policy, compares the gate of the candidate's groups
// with the gate of the plan's singleton lowering (verdict, failure kinds in order, each kind's set
// of reports, §6.7), and names the first report one side has and the other lacks, or renamed.
//
// The plan's singleton gate is computed from the plan's kernels directly (one audit row per
// node), never from a reference lowering. Under equality identity in mode coalesced, a later
// member of a group is what the identity lowering hides, as the audit check says: its rows are
// left out of the comparison, and a gate that differs only by them is told as a note.
//
// In an edition with upstream's acceptance gate (§6.10), the failures of the candidate's distinct
// (op, capsule) pairs are compared with the plan's under each maintained profile; under identity,
// a pair the identity lowering itself hides entirely is left out as above.
#include "checks/gate.hpp"

#include "checks/context.hpp"
#include "ref/acceptance_profile.hpp"
#include "ref/gate.hpp"
#include "ref/io/acceptance_writer.hpp"
#include "ref/io/escape.hpp"
#include "ref/io/gate_writer.hpp"

#include <algorithm>
#include <array>
#include <set>

namespace lo::checks::detail {

GateTally::PlanRow &GateTally::planRow(Judge &j, BackendOp op, CapsuleId capsule) {
  const std::uint64_t key =
      (std::uint64_t{static_cast<std::uint8_t>(op)} << 32) | static_cast<std::uint32_t>(capsule);
  if (last_ && last_->first == key)
    return *last_->second;
  const CapsuleId row = j.auditRow(op, capsule).view;
  auto [it, fresh] = plan_.try_emplace(row);
  last_.emplace(key, &it->second);
  return it->second;
}

void GateTally::planned(Judge &j, const PlannedNodeKernel &k) {
  if (acceptance::hasAcceptanceGate(j.options.edition)) {
    auto [it, fresh] = acceptancePlan_.try_emplace({k.op, k.capsule});
    if (fresh) {
      it->second.position = read_;
      it->second.firstNode = k.nodeId;
    }
    ++it->second.compared;
    ++read_;
    return;
  }
  PlanRow &r = planRow(j, k.op, k.capsule);
  if (r.nodes == 0) { // the row's first node
    r.position = read_;
    r.firstNode = k.nodeId;
  }
  ++r.nodes;
  ++r.compared;
  ++read_;
}

void GateTally::group(Judge &j, const GroupSite &site) {
  const LoweredKernelGroup &g = site.group;
  if (acceptance::hasAcceptanceGate(j.options.edition)) {
    acceptanceCandidate_.try_emplace({g.op, g.capsule}, site.index);
    const bool identity = j.identityCoalescing();
    for (std::size_t i = 0; i < site.members.size(); ++i)
      if (const PlannedNodeKernel *k = site.kernel(i)) {
        auto it = acceptancePlan_.find({k->op, k->capsule});
        if (it == acceptancePlan_.end())
          continue;
        if (!it->second.group && it->second.firstNode == k->nodeId)
          it->second.group = site.index;
        // A later member the identity lowering itself would have merged, as for the evidence
        // gate above.
        if (identity && i > 0 && it->second.compared > 0 && k->op == g.op &&
            j.interner.same(Equality::identity, k->capsule, g.capsule))
          --it->second.compared;
      }
    return;
  }
  candidate_.try_emplace(j.auditRow(g.op, g.capsule).view, CandidateRow{site.index});
  const bool identity = j.identityCoalescing();
  for (std::size_t i = 0; i < site.members.size(); ++i) {
    const PlannedNodeKernel *k = site.kernel(i);
    if (!k)
      continue;
    PlanRow &r = planRow(j, k->op, k->capsule);
    if (!r.group && r.firstNode == k->nodeId)
      r.group = site.index;
    // A later member the identity lowering itself would have merged (same op, same identity).
    if (identity && i > 0 && r.compared > 0 && k->op == g.op &&
        j.interner.same(Equality::identity, k->capsule, g.capsule))
      --r.compared;
  }
}

namespace {

/// One audit of the distinct rows, in the order of `rank`.
template <class Map, class Rank, class Keep>
ExecutionAudit rowsOf(const Map &rows, Rank rank, Keep keep) {
  std::vector<std::pair<std::uint64_t, CapsuleId>> order;
  for (const auto &[row, info] : rows)
    if (keep(info))
      order.emplace_back(rank(info), row);
  std::sort(order.begin(), order.end());
  ExecutionAudit a;
  for (const auto &entry : order)
    a.kernels.push_back(KernelAudit{entry.second});
  return a;
}

std::string verdict(const GateResult &r) { return r.accepted() ? "accepted" : "rejected"; }

/// The reports of some audit rows, as sets per disposition: a report is (its row's report key,
/// its obligation), where rows with the same key give the same four reports.
struct ReportSets {
  std::array<std::vector<std::pair<CapsuleId, ContractObligation>>,
             vocabularySize<EvidenceDisposition>()>
      byDisposition;
  template <class Key> void add(const KernelCapsule &row, Key key) {
    for (std::size_t o = 0; o < 4; ++o) {
      const auto obligation = static_cast<ContractObligation>(o);
      byDisposition[static_cast<std::size_t>(disposition(contractOf(row, obligation).evidence))]
          .emplace_back(key(obligation), obligation);
    }
  }
  void seal() {
    for (auto &set : byDisposition) {
      std::sort(set.begin(), set.end());
      set.erase(std::unique(set.begin(), set.end()), set.end());
    }
  }
  const auto &of(GateFailureKind k) const {
    return byDisposition[static_cast<std::size_t>(failureDisposition(k))];
  }
  /// The gate's verdict under `p` (acceptedGiven, ref/gate.hpp).
  bool accepted(const AssurancePolicy &p) const {
    return acceptedGiven(p, [&](GateFailureKind k) { return !of(k).empty(); });
  }
  /// The same gate under `p` (sameGateGiven, ref/gate.hpp): the same set for every kind the
  /// policy looks for.
  bool sameGate(const AssurancePolicy &p, const ReportSets &other) const {
    return sameGateGiven(p, [&](GateFailureKind k) { return of(k) == other.of(k); });
  }
};

} // namespace

CapsuleId GateTally::reportKey(Judge &j, CapsuleId row, ContractObligation o) {
  auto [it, fresh] = keys_.try_emplace(std::uint64_t{static_cast<std::uint32_t>(row)} << 2 |
                                       static_cast<std::uint64_t>(o));
  if (fresh) {
    // What a report shows of a row: its op, capsule name, and each contract's claim and evidence.
    const KernelCapsule &v = j.interner.capsule(row);
    KernelCapsule key;
    key.name = v.name;
    key.op = v.op;
    auto copy = [](ContractDescriptor &to, const ContractDescriptor &from) {
      to.claim = from.claim;
      to.evidence = from.evidence;
    };
    // Only the obligation's own contract: a report shows nothing of the other three.
    switch (o) {
    case ContractObligation::shape: copy(key.shapeContract, v.shapeContract); break;
    case ContractObligation::layout: copy(key.layoutContract, v.layoutContract); break;
    case ContractObligation::value: copy(key.valueContract, v.valueContract); break;
    case ContractObligation::vjp: copy(key.vjpContract, v.vjpContract); break;
    }
    it->second = j.interner.intern(std::move(key));
  }
  return it->second;
}

void GateTally::finishAcceptance(Judge &j) {
  // The pairs the identity lowering itself hides entirely are not compared.
  std::erase_if(acceptancePlan_, [](const auto &entry) { return entry.second.compared == 0; });
  // A conforming candidate has the plan's distinct (op, capsule) pairs: the same failures under
  // every policy.
  bool same = acceptancePlan_.size() == acceptanceCandidate_.size();
  for (const auto &entry : acceptanceCandidate_)
    same = same && acceptancePlan_.count(entry.first) != 0;
  if (same)
    return;
  using acceptance::AcceptanceFailure;
  // A failure as a set element: its JSON without the group (io::writeAcceptanceFailure).
  auto key = [](const AcceptanceFailure &f) {
    return io::writtenText([&](io::Sink &out) { io::writeAcceptanceFailure(out, f, 0); });
  };
  struct Difference {
    const acceptance::MaintainedProfile *profile;
    int severity;
  };
  std::optional<Difference> worst;
  std::string others;
  for (const acceptance::MaintainedProfile &profile : acceptance::kMaintainedProfiles) {
    if (!acceptance::hasProfile(j.options.edition, profile))
      continue;
    auto failuresOf = [&](const auto &rows) {
      std::map<std::string, AcceptanceFailure> set;
      for (const auto &entry : rows)
        for (auto &f : acceptance::acceptanceFailures(profile.policy, entry.first.first,
                                                      j.interner.capsule(entry.first.second)))
          set.try_emplace(key(f), io::boundedFailure(f));
      return set;
    };
    const auto c = failuresOf(acceptanceCandidate_), p = failuresOf(acceptancePlan_);
    bool equal = c.size() == p.size();
    for (const auto &entry : c)
      equal = equal && p.count(entry.first) != 0;
    if (equal)
      continue;
    const bool ca = c.empty(), pa = p.empty();
    const int severity = ca == pa ? 1 : ca ? 3 : 2;
    if (!worst || severity > worst->severity) {
      if (worst)
        others += (others.empty() ? "" : ", ") + std::string(worst->profile->name);
      worst = Difference{&profile, severity};
    } else {
      others += (others.empty() ? "" : ", ") + std::string(profile.name);
    }
  }
  if (!worst)
    return;
  const acceptance::KernelPolicy &policy = worst->profile->policy;
  auto verdictOf = [&](const auto &rows) {
    for (const auto &entry : rows)
      if (!acceptance::acceptable(policy, entry.first.first,
                                  j.interner.capsule(entry.first.second)))
        return std::string("rejected");
    return std::string("accepted");
  };
  const std::string cv = verdictOf(acceptanceCandidate_), pv = verdictOf(acceptancePlan_);
  std::string message = "under profile " + std::string(worst->profile->name) + " the candidate";
  message += worst->severity == 1 ? " and the plan are both " + pv + ", but for different reasons"
                                  : " is " + cv + ", but the plan is " + pv;
  // The first failure the candidate loses (in plan order: its node and the group that lists the
  // node) or, else, the first it adds (in group order).
  std::set<std::string> candidateKeys;
  for (const auto &entry : acceptanceCandidate_)
    for (const auto &f : acceptance::acceptanceFailures(policy, entry.first.first,
                                                        j.interner.capsule(entry.first.second)))
      candidateKeys.insert(key(f));
  std::vector<std::pair<std::uint64_t,
                        const std::pair<const std::pair<BackendOp, CapsuleId>, AcceptanceRow> *>>
      planOrder;
  for (const auto &entry : acceptancePlan_)
    planOrder.emplace_back(entry.second.position, &entry);
  std::sort(planOrder.begin(), planOrder.end());
  std::optional<std::size_t> group;
  std::optional<NodeId> node;
  std::optional<std::string> detail;
  std::set<std::string> planKeys;
  for (const auto &[position, entry] : planOrder)
    for (const auto &f : acceptance::acceptanceFailures(policy, entry->first.first,
                                                        j.interner.capsule(entry->first.second))) {
      planKeys.insert(key(f));
      if (!detail && candidateKeys.count(key(f)) == 0) {
        const AcceptanceRow &row = entry->second;
        node = row.firstNode;
        group = row.group;
        detail = std::string(spelling(f.kind)) + " of node " + std::to_string(row.firstNode) +
                 " (" + io::shownText(acceptance::message(io::boundedFailure(f))) + ") is lost" +
                 (row.group ? " in group " + std::to_string(*row.group)
                            : ": node " + std::to_string(row.firstNode) + " is in no group");
      }
    }
  if (!detail) {
    std::vector<std::pair<std::size_t, std::pair<BackendOp, CapsuleId>>> groupOrder;
    for (const auto &entry : acceptanceCandidate_)
      groupOrder.emplace_back(entry.second, entry.first);
    std::sort(groupOrder.begin(), groupOrder.end());
    for (const auto &[g, pair] : groupOrder) {
      for (const auto &f :
           acceptance::acceptanceFailures(policy, pair.first, j.interner.capsule(pair.second)))
        if (planKeys.count(key(f)) == 0) {
          group = g;
          detail = "group " + std::to_string(g) + " adds " + std::string(spelling(f.kind)) + " (" +
                   io::shownText(acceptance::message(io::boundedFailure(f))) +
                   ") that no node of the plan has";
          break;
        }
      if (detail)
        break;
    }
  }
  message += ": " + detail.value_or("the failures differ");
  if (!others.empty())
    message += "; the gate also differs under profile " + others;
  j.findings.report(Check::gate, group, node, [&] {
    return Description{group ? groupPointer(*group) : std::string("/groups"), std::move(message)};
  });
}

void GateTally::finish(Judge &j) {
  if (acceptance::hasAcceptanceGate(j.options.edition)) {
    finishAcceptance(j);
    return;
  }
  // The common case, a conforming candidate: the same distinct rows on both sides give the same
  // reports, so the same gate under every policy.
  auto sameRows = [&](auto keep) {
    std::size_t kept = 0;
    for (const auto &entry : plan_)
      kept += keep(entry.second);
    if (kept != candidate_.size())
      return false;
    for (const auto &entry : candidate_) {
      auto it = plan_.find(entry.first);
      if (it == plan_.end() || !keep(it->second))
        return false;
    }
    return true;
  };
  if (sameRows([](const PlanRow &r) { return r.nodes > 0; }))
    return;
  const Interner &in = j.interner;
  const ExecutionAudit candidate = rowsOf(
      candidate_, [](const CandidateRow &r) { return std::uint64_t{r.firstGroup}; },
      [](const CandidateRow &) { return true; });
  const ExecutionAudit compared = rowsOf(
      plan_, [](const PlanRow &r) { return r.position; },
      [](const PlanRow &r) { return r.compared > 0; });
  const ExecutionAudit singleton = rowsOf(
      plan_, [](const PlanRow &r) { return r.position; },
      [](const PlanRow &r) { return r.nodes > 0; });

  auto setsOf = [&](const ExecutionAudit &rows) {
    ReportSets sets;
    for (const auto &row : rows.kernels)
      sets.add(in.capsule(row.view),
               [&](ContractObligation o) { return reportKey(j, row.view, o); });
    sets.seal();
    return sets;
  };
  const ReportSets c = setsOf(candidate), p = setsOf(compared);
  const bool identityRows = compared.kernels.size() != singleton.kernels.size();
  const ReportSets q = identityRows ? setsOf(singleton) : p;

  // Which presets differ, and how badly: decided on the report sets alone. The gate results
  // (with their reports) are built only for the one finding that is worded.
  struct Difference {
    const NamedPolicy *preset;
    int severity = 0;
  };
  std::vector<Difference> violations, notes;
  for (const auto &preset : kPolicyPresets) {
    if (c.sameGate(preset.policy, q))
      continue;                                       // the plan's singleton gate itself
    const bool hidden = c.sameGate(preset.policy, p); // only what the identity lowering hides
    const ReportSets &plan = hidden ? q : p;
    const bool ca = c.accepted(preset.policy), pa = plan.accepted(preset.policy);
    // How much it matters to a deployment: the candidate accepted where the plan is rejected is
    // the worst (3), then rejected where the plan is accepted (2), then other reasons (1).
    (hidden ? notes : violations).push_back({&preset, ca == pa ? 1 : ca ? 3 : 2});
  }
  if (violations.empty() && notes.empty())
    return;
  // At most one finding (and one note) per candidate: its sentence is built whether or not the
  // cap lists it.

  // The first report of the first failure kind whose sets differ: one the candidate loses (with
  // the plan node that has it and the group that lists the node) or, else, one it adds.
  auto describe = [&](const std::vector<Difference> &all, const ExecutionAudit &planRows,
                      std::optional<std::size_t> &group, std::optional<NodeId> &node) {
    const Difference *worst = &all.front();
    for (const auto &d : all)
      if (d.severity > worst->severity)
        worst = &d;
    const AssurancePolicy &policy = worst->preset->policy;
    const GateResult gc = gate(in, policy, candidate), gp = gate(in, policy, planRows);
    std::string message = "under policy " + std::string(worst->preset->name) + " the candidate";
    if (worst->severity == 1)
      message += " and the plan are both " + verdict(gp) + ", but for different reasons";
    else
      message += " is " + verdict(gc) + ", but the plan is " + verdict(gp);
    for (std::size_t k = 0; k < vocabularySize<GateFailureKind>(); ++k) {
      const auto kind = static_cast<GateFailureKind>(k);
      const auto c = reportSet(gc, kind), p = reportSet(gp, kind);
      if (c == p)
        continue;
      auto has = [](const std::vector<ObligationReport> &set, const ObligationReport &r) {
        return std::binary_search(set.begin(), set.end(), r, reportLess);
      };
      auto words = [&](const ObligationReport &r) {
        return std::string(spelling(r.evidence.tag)) + " evidence";
      };
      // A lost report whose evidence the candidate carries under another text (the same op,
      // capsule name, obligation, claim and evidence tag): said to be renamed, not only lost.
      auto renamed = [](const std::vector<ObligationReport> &set,
                        const ObligationReport &r) -> const ObligationReport * {
        for (const auto &to : set)
          if (to.op == r.op && to.capsuleName == r.capsuleName && to.obligation == r.obligation &&
              to.claim == r.claim && to.evidence.tag == r.evidence.tag &&
              to.evidence.text != r.evidence.text)
            return &to;
        return nullptr;
      };
      // The plan's rows in plan order, so that the first node that has the report is named.
      std::optional<std::string> detail;
      for (const auto &row : planRows.kernels) {
        for (const auto &r : obligationReports(in, row))
          if (failureKindOf(policy, r.disposition) == kind && has(p, r) && !has(c, r)) {
            const PlanRow &info = plan_.at(row.view);
            node = info.firstNode;
            group = info.group;
            detail = words(r) + " of node " + std::to_string(info.firstNode) + "'s " +
                     std::string(spelling(r.obligation)) + " contract (" + r.capsuleName +
                     ") is lost" +
                     (info.group ? " in group " + std::to_string(*info.group)
                                 : ": node " + std::to_string(info.firstNode) + " is in no group");
            if (const ObligationReport *to = renamed(c, r))
              *detail += ", renamed: the candidate's " + r.capsuleName + " " +
                         std::string(spelling(r.obligation)) + " contract has " + words(*to) + " " +
                         io::quote(to->evidence.text) + ", node " + std::to_string(info.firstNode) +
                         "'s " + io::quote(r.evidence.text);
            break;
          }
        if (detail)
          break;
      }
      for (const auto &row : candidate.kernels) {
        if (detail)
          break;
        for (const auto &r : obligationReports(in, row))
          if (failureKindOf(policy, r.disposition) == kind && has(c, r) && !has(p, r)) {
            const std::size_t g = candidate_.at(row.view).firstGroup;
            group = g;
            detail = "group " + std::to_string(g) + " adds " + words(r) + " to its " +
                     std::string(spelling(r.obligation)) + " contract (" + r.capsuleName +
                     ") that no node of the plan has";
            break;
          }
      }
      message += ": " + detail.value_or("the reports differ") + " (failure " +
                 std::string(spelling(kind)) + ")";
      break;
    }
    std::string others;
    for (const auto &d : all)
      if (&d != worst)
        others += (others.empty() ? "" : ", ") + std::string(d.preset->name);
    if (!others.empty())
      message += "; the gate also differs under policy " + others;
    return message;
  };

  if (!violations.empty()) {
    std::optional<std::size_t> group;
    std::optional<NodeId> node;
    std::string message = describe(violations, compared, group, node);
    j.findings.report(Check::gate, group, node, [&] {
      return Description{group ? groupPointer(*group) : std::string("/groups"), std::move(message)};
    });
  } else if (!notes.empty()) {
    std::optional<std::size_t> group;
    std::optional<NodeId> node;
    j.findings.note("under equality identity the candidate's gate differs from the plan's "
                    "singleton gate, as the identity lowering's does: " +
                    describe(notes, singleton, group, node));
  }
}

} // namespace lo::checks::detail
