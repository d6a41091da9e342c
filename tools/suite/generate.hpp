// A deterministic generator of GraphExecutionPlans for the conformance suite (`gen`) and the
// differential runner (`diff`).
//
// "a deterministic suite (same seed, same bytes)": every random choice comes from SplitMix64, a
// fixed integer recurrence, and is turned into a bounded value by integer arithmetic only (no
// <random> distributions, whose output differs between standard libraries), so the same seed gives
// the same plans on every platform. Case `i` of seed `S` is the same plan in `gen` and in `diff`.
#pragma once

#include "ref/interner.hpp"
#include "ref/ir.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lo::gen {

/// SplitMix64 (Steele, Lea, Flood 2014): a portable 64-bit generator with a fixed output sequence.
class Rng {
public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  /// A uniform value in [0, n) (n > 0), by rejection so that it is unbiased and portable.
  std::uint64_t below(std::uint64_t n);
  /// True with probability num/den.
  bool chance(std::uint64_t num, std::uint64_t den) { return below(den) < num; }
  template <class T> const T &pick(const std::vector<T> &v) { return v[below(v.size())]; }

private:
  std::uint64_t state_;
};

/// Where a plan's kernels put their capsules: "A kernel's capsule is a key into `capsules` or an
/// inline object." `mixed` alternates the two.
enum class Placement : std::uint8_t { table, inline_, mixed };

/// How a case's plan is written: its placement and, unless it is written as the reference writer
/// writes plans, the seed of its spellings (tools/suite/spelling.hpp: defaults left out or
/// written, members shuffled, escapes, kinds in either form, format and version or not, capsules
/// under two keys).
struct Encoding {
  Placement placement = Placement::table;
  std::optional<std::uint64_t> spelling; // nullopt: the canonical text
  bool operator==(const Encoding &) const = default;
};

struct Case {
  std::string name; // a short slug, e.g. "trusted-external-in-checked-run" or "random"
  GraphExecutionPlan plan;
  Encoding encoding;
};

struct Settings {
  std::uint64_t seed = 1;
  std::size_t maxNodes = 24; // bound on the nodes of a random case
};

/// The number of hand-picked edge cases; they are cases 0 .. edgeCaseCount()-1 of every suite.
std::size_t edgeCaseCount();

/// Case `index` of a suite: a hand-picked edge case for the first indices, then random cases, each
/// drawn from its own generator seeded by (seed, index), so one case reproduces alone.
Case caseAt(Interner &interner, const Settings &settings, std::size_t index);

/// "0007-random": the index, zero-padded, and the case's slug.
std::string caseLabel(std::size_t index, const Case &c);

/// The plan as a GraphExecutionPlan file in the case's encoding: the same plan and encoding give
/// the same bytes, and the text reads back to the plan.
std::string planJson(const Interner &interner, const GraphExecutionPlan &plan, Encoding encoding);

} // namespace lo::gen
