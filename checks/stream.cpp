// `check --stream`: the checks of docs/spec.md §3 on a plan and a candidate read one kernel and one
// group at a time, for lowerings that do not fit in memory (docs/checks.md,
// "Streaming").
//
// Every group is judged by the same per-group checks as `check` (GroupChecks). What needs the
// whole sequence, provenance and order (docs/spec.md §3.1), is judged by merging the candidate's
// ids with the plan's, which increase: a conforming candidate lists exactly the plan's ids, in the
// plan's order, so any departure is found where it happens.
#include "checks/context.hpp"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <unordered_map>

namespace lo::checks::detail {

namespace {

/// Provenance and order by merging the candidate's node ids with the plan's. The plan is read
/// ahead only as far as the candidate's ids need: when the candidate lists an id beyond the next
/// plan node, the plan is read up to that id (the window), so that an id the plan lacks is found
/// without passing over the nodes before it. Plan nodes the candidate passes over are remembered
/// (skipped): listed later they are out of order, never listed they are missing. The window and
/// the skipped nodes each hold at most kStreamWindow nodes; past that a node is reported missing
/// at once (and, listed later, as listed where the plan does not have it).
class StreamSequence {
public:
  StreamSequence(Judge &j, const NextKernel &plan) : j_(j), plan_(plan) {}

  /// The plan kernel of id `c`, listed at `/groups/g/nodeIds/i`, as a Member whose kernel is
  /// copied into `kernels` (which must have room for it without reallocating).
  Member match(std::size_t g, std::size_t i, NodeId c, std::vector<PlannedNodeKernel> &kernels);

  /// The plan's nodes that no group listed.
  void finish();

  std::uint64_t kernelsRead() const { return read_; }

private:
  struct Planned {
    PlannedNodeKernel kernel;
    std::size_t position;
    std::optional<NodeId> before; // the plan's node before it
  };
  /// Reads one more plan node into the window; false at the end of the plan.
  bool readAhead();
  /// Passes over the window's first node: remembered as skipped, or reported missing when the
  /// skipped nodes are at their limit.
  void skipFront();
  void missing(const Planned &p);
  void closeRun();

  Judge &j_;
  const NextKernel &plan_;
  std::deque<Planned> window_;
  bool planEnded_ = false;
  std::uint64_t read_ = 0;
  std::optional<NodeId> lastRead_;
  std::unordered_map<NodeId, Planned, KeyedHash> skipped_; // keyed: ids come from the input
  std::optional<NodeId> lastMatched_;

  // A run of consecutive out-of-order ids is one finding, as in `check`.
  struct Run {
    std::size_t g = 0, i = 0;
    std::optional<NodeId> before;
    std::vector<NodeId> ids;
  };
  std::optional<Run> run_;
};

bool StreamSequence::readAhead() {
  if (planEnded_)
    return false;
  PlannedNodeKernel k;
  if (!plan_(k)) {
    planEnded_ = true;
    return false;
  }
  if (lastRead_ && k.nodeId <= *lastRead_)
    throw std::invalid_argument("checkStream: the plan's node ids must increase");
  window_.push_back(Planned{k, read_++, lastRead_});
  lastRead_ = k.nodeId;
  return true;
}

void StreamSequence::missing(const Planned &p) {
  j_.findings.report(Check::provenance, std::nullopt, p.kernel.nodeId, [&] {
    return Description{"/groups", missingNodeMessage(j_.interner, p.kernel, p.before)};
  });
}

void StreamSequence::skipFront() {
  Planned p = std::move(window_.front());
  window_.pop_front();
  if (skipped_.size() < kStreamWindow)
    skipped_.emplace(p.kernel.nodeId, std::move(p));
  else
    missing(p);
}

void StreamSequence::closeRun() {
  if (!run_)
    return;
  Run r = std::move(*run_);
  run_.reset();
  j_.findings.report(Check::order, r.g, r.ids.front(), [&] {
    return Description{groupPointer(r.g, "nodeIds", r.i), outOfOrderMessage(r.ids, r.g, r.before)};
  });
}

Member StreamSequence::match(std::size_t g, std::size_t i, NodeId c,
                             std::vector<PlannedNodeKernel> &kernels) {
  auto found = [&](const Planned &p) {
    kernels.push_back(p.kernel);
    return Member{&kernels.back(), p.position};
  };
  if (window_.empty())
    readAhead();
  // The common case: the candidate lists the plan's next node.
  if (!window_.empty() && window_.front().kernel.nodeId == c) {
    closeRun();
    const Member m = found(window_.front());
    lastMatched_ = c;
    window_.pop_front();
    return m;
  }
  // An id beyond the plan's next node: read the plan up to it (the window is sorted by id).
  if (!window_.empty() && c > window_.front().kernel.nodeId) {
    closeRun();
    while (window_.back().kernel.nodeId < c && window_.size() < kStreamWindow && readAhead()) {
    }
    auto at = std::lower_bound(window_.begin(), window_.end(), c,
                               [](const Planned &p, NodeId id) { return p.kernel.nodeId < id; });
    if (at != window_.end() && at->kernel.nodeId == c) {
      // The nodes before it are passed over: out of order if listed later, else missing.
      for (std::size_t n = static_cast<std::size_t>(at - window_.begin()); n > 0; --n)
        skipFront();
      const Member m = found(window_.front());
      lastMatched_ = c;
      window_.pop_front();
      return m;
    }
    j_.findings.report(Check::provenance, g, c, [&] {
      return Description{groupPointer(g, "nodeIds", i), extraNodeMessage(g, c)};
    });
    return Member{};
  }
  // An id before the plan's next node (or past the plan's end): a node passed over earlier is out
  // of order; any other was listed already or is not in the plan.
  if (auto it = skipped_.find(c); it != skipped_.end()) {
    const Member m = found(it->second);
    if (!run_)
      run_ = Run{g, i, it->second.before, {}};
    run_->ids.push_back(c);
    skipped_.erase(it);
    return m;
  }
  closeRun();
  j_.findings.report(Check::provenance, g, c, [&] {
    std::string message;
    if (lastMatched_ && c == *lastMatched_)
      message = repeatedNodeMessage(g, c);
    else if (window_.empty() && planEnded_ && (!lastRead_ || c > *lastRead_))
      message = extraNodeMessage(g, c);
    else
      message = "group " + std::to_string(g) + " lists node " + std::to_string(c) +
                " out of the plan's increasing order, where the plan has " +
                (window_.empty() ? std::string("no more nodes")
                                 : "node " + std::to_string(window_.front().kernel.nodeId)) +
                ": it is listed again or is not in the plan";
    return Description{groupPointer(g, "nodeIds", i), std::move(message)};
  });
  return Member{};
}

void StreamSequence::finish() {
  closeRun();
  // Every plan node never listed, in plan order: the ones passed over, then the rest.
  std::vector<const Planned *> passed;
  passed.reserve(skipped_.size());
  for (const auto &entry : skipped_)
    passed.push_back(&entry.second);
  std::sort(passed.begin(), passed.end(),
            [](const Planned *a, const Planned *b) { return a->position < b->position; });
  for (const Planned *p : passed)
    missing(*p);
  skipped_.clear();
  for (;;) {
    while (!window_.empty()) {
      missing(window_.front());
      window_.pop_front();
    }
    if (!readAhead())
      break;
  }
}

} // namespace

} // namespace lo::checks::detail

namespace lo::checks {

Report checkStream(Interner &interner, const NextKernel &plan, const NextGroup &candidate,
                   const Options &options, std::optional<Mode> declaredMode,
                   std::optional<Equality> declaredEquality, StreamTotals *totals) {
  detail::Judge judge(interner, options);
  detail::declarationNotes(judge, declaredMode, declaredEquality);
  detail::GroupChecks groups(judge);
  // Each plan kernel, as the sequence reads it, is also a singleton row of the plan's gate.
  const NextKernel planned = [&](PlannedNodeKernel &k) {
    if (!plan(k))
      return false;
    groups.planned(k);
    return true;
  };
  detail::StreamSequence sequence(judge, planned);
  LoweredKernelGroup group;
  std::vector<PlannedNodeKernel> kernels;
  std::vector<detail::Member> members;
  std::uint64_t read = 0;
  for (; candidate(group); ++read) {
    const std::size_t g = static_cast<std::size_t>(read);
    kernels.clear();
    kernels.reserve(group.nodeIds.size()); // Members point into it: no reallocation below
    members.clear();
    for (std::size_t i = 0; i < group.nodeIds.size(); ++i)
      members.push_back(sequence.match(g, i, group.nodeIds[i], kernels));
    detail::GroupSite site{g, group, detail::MemberList(members)};
    groups.judge(site);
  }
  sequence.finish();
  groups.finish();
  if (totals)
    *totals = StreamTotals{sequence.kernelsRead(), read};
  return std::move(judge.findings).finish();
}

Report checkStream(Interner &interner, const GraphExecutionPlan &plan,
                   const io::LoweringDocument &candidate, const Options &options) {
  std::size_t k = 0, g = 0;
  const auto &kernels = plan.kernels;
  const auto &groups = candidate.plan.groups;
  return checkStream(
      interner,
      [&](PlannedNodeKernel &out) { return k < kernels.size() && (out = kernels[k++], true); },
      [&](LoweredKernelGroup &out) { return g < groups.size() && (out = groups[g++], true); },
      options, candidate.mode, candidate.equality);
}

} // namespace lo::checks
