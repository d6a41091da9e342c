#include "tools/diff/shrink.hpp"

#include <algorithm>

namespace lo::diff {

namespace {

class Shrinker {
public:
  Shrinker(Interner &interner, GraphExecutionPlan plan, const StillFails &stillFails,
           const Limits &limits)
      : interner_(interner), plan_(std::move(plan)), stillFails_(stillFails), limits_(limits) {}

  GraphExecutionPlan run() {
    kernels();
    const std::size_t before = stats_.accepted;
    mergeCapsules();
    unifyFields();
    renumber();
    if (stats_.accepted != before) // fewer capsules may let more kernels go
      kernels();
    return std::move(plan_);
  }
  const Stats &stats() const { return stats_; }

private:
  /// Tests a candidate and keeps it when the failure persists.
  bool tryPlan(GraphExecutionPlan candidate) {
    return candidate != plan_ &&
           tryCandidate(plan_, std::move(candidate), stillFails_, limits_, stats_);
  }

  /// Delta debugging (ddmin, complements only): remove one of `n` chunks while the failure
  /// persists; refine to smaller chunks when no chunk can go.
  void kernels() {
    if (!plan_.kernels.empty() && tryPlan(GraphExecutionPlan{}))
      return;
    std::size_t n = 2;
    while (plan_.kernels.size() >= 2) {
      const std::size_t size = plan_.kernels.size();
      n = std::min(n, size);
      const std::size_t chunk = (size + n - 1) / n;
      bool removed = false;
      for (std::size_t start = 0; start < size && !removed; start += chunk) {
        GraphExecutionPlan candidate;
        const auto &k = plan_.kernels;
        candidate.kernels.assign(k.begin(), k.begin() + static_cast<std::ptrdiff_t>(start));
        candidate.kernels.insert(
            candidate.kernels.end(),
            k.begin() + static_cast<std::ptrdiff_t>(std::min(size, start + chunk)), k.end());
        removed = tryPlan(std::move(candidate));
      }
      if (removed)
        n = std::max<std::size_t>(n - 1, 2);
      else if (n >= size || stats_.tests >= limits_.maxTests)
        break;
      else
        n = std::min(size, 2 * n);
    }
  }

  std::vector<CapsuleId> capsulesInOrder() const {
    std::vector<CapsuleId> out;
    for (const auto &k : plan_.kernels)
      if (std::find(out.begin(), out.end(), k.capsule) == out.end())
        out.push_back(k.capsule);
    return out;
  }

  GraphExecutionPlan replaced(CapsuleId from, CapsuleId to) const {
    GraphExecutionPlan p = plan_;
    for (auto &k : p.kernels)
      if (k.capsule == from)
        k.capsule = to;
    return p;
  }

  /// Capsule variety, first step: fewer distinct capsules.
  void mergeCapsules() {
    for (bool progress = true; progress;) {
      progress = false;
      const auto used = capsulesInOrder();
      for (std::size_t i = 1; i < used.size() && !progress; ++i)
        for (std::size_t j = 0; j < i && !progress; ++j)
          if (interner_.capsule(used[i]).op == interner_.capsule(used[j]).op)
            progress = tryPlan(replaced(used[i], used[j]));
    }
  }

  /// Copies field `i` of the capsule's table from `from` to `to`; whether it changed anything.
  static bool copyField(std::size_t i, KernelCapsule &to, const KernelCapsule &from) {
    bool changed = false;
    withField<KernelCapsule>(i, [&](const auto &f) {
      if (!fieldValuesEqual(to.*f.member, from.*f.member)) {
        to.*f.member = from.*f.member;
        changed = true;
      }
    });
    return changed;
  }

  /// Capsule variety, second step: capsules of one op that differ in as few fields as the failure
  /// allows, field by field in the order of `unifyOrder` (the capsule's table).
  void unifyFields() {
    static constexpr auto kOrder = unifyOrder<KernelCapsule>();
    const auto used = capsulesInOrder();
    for (std::size_t i = 1; i < used.size(); ++i) {
      CapsuleId current = used[i];
      for (std::size_t j = 0; j < i; ++j) {
        const KernelCapsule &target = interner_.capsule(used[j]);
        if (target.op != interner_.capsule(current).op)
          continue;
        for (std::size_t field : kOrder) {
          KernelCapsule next = interner_.capsule(current);
          if (!copyField(field, next, target))
            continue;
          const CapsuleId id = interner_.intern(std::move(next));
          if (tryPlan(replaced(current, id)))
            current = id;
        }
      }
    }
  }

  void renumber() {
    GraphExecutionPlan p = plan_;
    for (std::size_t i = 0; i < p.kernels.size(); ++i)
      p.kernels[i].nodeId = i + 1;
    tryPlan(std::move(p));
  }

  Interner &interner_;
  GraphExecutionPlan plan_;
  const StillFails &stillFails_;
  Limits limits_;
  Stats stats_;
};

} // namespace

GraphExecutionPlan shrink(Interner &interner, GraphExecutionPlan failing,
                          const StillFails &stillFails, const Limits &limits, Stats *stats) {
  Shrinker s(interner, std::move(failing), stillFails, limits);
  GraphExecutionPlan out = s.run();
  if (stats)
    *stats = s.stats();
  return out;
}

} // namespace lo::diff
