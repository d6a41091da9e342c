// The mutation catalogue: operators that each corrupt a reference output in one way, with the
// check of docs/spec.md §3 that must flag the mutant.
#pragma once

#include "checks/checks.hpp"
#include "ref/io/reader.hpp"

#include <optional>
#include <string_view>

namespace lo {

#define LO_MUTATIONS(X)                                                                            \
  X(dropNode, "drop a node")                                                                       \
  X(repeatNode, "repeat a node")                                                                   \
  X(swapGroups, "swap two groups")                                                                 \
  X(splitGroup, "split a group")                                                                   \
  X(mergeGroups, "merge two groups")                                                               \
  X(replaceKind, "replace a kind")                                                                 \
  X(replaceCapsule, "replace the capsule by a contract-different twin")                            \
  X(wrongGroupingKind, "wrong groupingKind")                                                       \
  X(reverseGroup, "reverse a group")                                                               \
  X(addEmptyGroup, "add an empty group")                                                           \
  X(alterAuditRow, "alter an audit row")

LO_DECLARE_VOCABULARY(Mutation, LO_MUTATIONS, "mutation")

} // namespace lo

namespace lo::prop {

struct Mutant {
  io::LoweringDocument document;
  Check expected; // the check that must flag it
};

/// `reference` is the reference lowering of `plan` under `mode` and `equality` (with its audit or
/// without). Returns the mutant `mutation` makes of it, or nothing when the operator does not
/// apply (no group with two nodes to split, no audit to alter, ...). `salt` picks the place.
/// Apart from the corruption itself the mutant stays well formed: group kinds follow group sizes,
/// and an audit present is re-derived from the mutated groups (except by `alterAuditRow`); a
/// capsule it changes keeps to the values of `edition`, the plan's (docs/spec.md §1.6).
std::optional<Mutant> mutate(Mutation mutation, Interner &interner, const GraphExecutionPlan &plan,
                             const io::LoweringDocument &reference, Mode mode, Equality equality,
                             std::uint64_t salt, Edition edition);

} // namespace lo::prop
