// The generated cases of selection (docs/spec.md §10; docs/conformance.md, "What is generated"):
// a torchlean.ir.v1 graph and a backend profile with its own modules, drawn from a Choices, for
// `diff --planner`. The draws aim at where a planner goes wrong: a preferred provider behind an
// eligible capsule of another one, capsules the availability hides, trusted-external capsules of
// the preferred provider, capsules refused for one reason each (no forward, contracts misaligned,
// another device or VJP mode), nodes without runtime work, an op no capsule serves, and now and
// then a graph that is not well formed or a registry with a duplicate.
#pragma once

#include "ref/interner.hpp"
#include "ref/profile.hpp"
#include "tools/plans/choices.hpp"

namespace lo::plans {

struct SelectionKnobs {
  std::size_t maxNodes = 24; // at most this many graph nodes
  /// The edition whose values the graph and the capsules draw (a lean-dojo lineage edition:
  /// selection's, docs/spec.md §10).
  Edition edition = kNewestEdition;
};

/// One case: the graph (its kinds interned) and the profile (policy, availability, modules).
struct SelectionCase {
  selection::Graph graph;
  selection::BackendProfile profile;
};

/// A case drawn from `choices` as `knobs` say.
SelectionCase randomSelectionCase(Interner &interner, Choices &choices,
                                  const SelectionKnobs &knobs = {});

/// Case `index` of seed `seed`: drawn from its own generator seeded by both, so that one case
/// reproduces alone and case `index` is the same in `diff --planner` and in `gen`'s suite.
SelectionCase selectionCaseAt(Interner &interner, std::uint64_t seed, std::size_t index,
                              const SelectionKnobs &knobs);

} // namespace lo::plans
