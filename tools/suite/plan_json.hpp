// A generated plan as the text of a GraphExecutionPlan file (docs/spec.md §2.4): a case is written
// with its capsules in the table, inline, or alternately both; and either as the reference writer
// writes plans or with drawn spellings (tools/plans/spelling.hpp).
#pragma once

#include "ref/interner.hpp"
#include "ref/io/writer.hpp"
#include "ref/ir.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace lo::suite {

/// Where a plan's kernels put their capsules: the one writer's (ref/io/writer.hpp).
using Placement = io::Placement;

/// How a case's plan is written: its placement and, unless it is written as the reference writer
/// writes plans, the seed of its spellings (tools/plans/spelling.hpp: defaults left out or
/// written, members shuffled, escapes, kinds in either form, format and version or not, capsules
/// under two keys).
struct Encoding {
  Placement placement = Placement::table;
  std::optional<std::uint64_t> spelling; // nullopt: the canonical text
  bool operator==(const Encoding &) const = default;
};

/// The plan as a GraphExecutionPlan file of edition `edition` in the case's encoding: the same
/// plan, encoding and edition give the same bytes, and the text reads back to the plan in that
/// edition (only the fields it has are written, docs/spec.md §2.2).
std::string planJson(const Interner &interner, const GraphExecutionPlan &plan, Encoding encoding,
                     Edition edition);

} // namespace lo::suite
