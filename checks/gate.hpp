// What the `gate` check (docs/spec.md §6.8) gathers while the other checks walk the
// plan and the candidate: the distinct audit rows of the plan's singleton lowering and of the
// candidate's groups, with the first node or group that has each. A gate depends only on the
// *set* of reports, and so on the set of distinct rows: memory is bounded by the distinct
// (op, capsule) pairs, whether the candidate is a whole document or a stream.
#pragma once

#include "ref/audit.hpp"
#include "ref/ir.hpp"
#include "ref/recheck.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>

namespace lo::checks::detail {

struct Judge;
struct GroupSite;

class GateTally {
public:
  /// A kernel of the plan, in plan order (each one once).
  void planned(Judge &j, const PlannedNodeKernel &k);
  /// A group of the candidate, in order, after the plan kernels its members name were `planned`.
  void group(Judge &j, const GroupSite &site);
  /// For each preset, the candidate's gate against the plan's singleton gate: one finding at
  /// most, for the most severe difference.
  void finish(Judge &j);

  /// A singleton row of the plan: how many nodes have it, how many of those the candidate's gate
  /// is compared with, its first node (in plan order) and the group that lists that node.
  struct PlanRow {
    std::uint64_t nodes = 0;
    std::uint64_t compared = 0;
    std::uint64_t position = 0;
    NodeId firstNode = 0;
    std::optional<std::size_t> group;
  };
  /// A row of the candidate's groups: the first group that has it.
  struct CandidateRow {
    std::size_t firstGroup = 0;
  };

private:
  /// In an edition with upstream's acceptance gate (docs/spec.md §6.10): for each maintained
  /// profile of the edition, the failures of the candidate's groups against those of the plan's
  /// kernels, as sets (a failure without its group).
  void finishAcceptance(Judge &j);

  /// The distinct (op, capsule) pairs of the acceptance gate: a plan kernel's first node, its
  /// position and the group that lists it; a group's first index.
  struct AcceptanceRow {
    std::uint64_t position = 0;
    NodeId firstNode = 0;
    std::optional<std::size_t> group;
    /// The pair's nodes less those the identity lowering itself hides (as PlanRow::compared).
    std::uint64_t compared = 0;
  };
  std::map<std::pair<BackendOp, CapsuleId>, AcceptanceRow> acceptancePlan_;
  std::map<std::pair<BackendOp, CapsuleId>, std::size_t> acceptanceCandidate_;

  PlanRow &planRow(Judge &j, BackendOp op, CapsuleId capsule);
  /// The report of `row` for obligation `o` as an interned capsule holding only what the report
  /// shows (op, capsule name, that contract's claim and evidence): equal reports, equal keys.
  CapsuleId reportKey(Judge &j, CapsuleId row, ContractObligation o);

  std::unordered_map<CapsuleId, PlanRow> plan_;
  std::unordered_map<CapsuleId, CandidateRow> candidate_;
  std::unordered_map<std::uint64_t, CapsuleId> keys_; // (row, obligation) -> reportKey
  std::uint64_t read_ = 0;
  // The last (op, capsule) looked up and its row: plans repeat a kernel in runs.
  std::optional<std::pair<std::uint64_t, PlanRow *>> last_;
};

} // namespace lo::checks::detail
