// What the HTML picture of a candidate shows beside its report (docs/spec.md §3.5, `html`),
// computed here so that the page only draws it: the reference lowering of the plan, and the gate
// of each lowering under every policy preset (docs/spec.md §6.2), each evaluated by ref/gate.hpp.
#pragma once

#include "ref/gate.hpp"
#include "ref/io/document.hpp"
#include "ref/lowering.hpp"

#include <vector>

namespace lo::checks {

struct PictureFacts {
  /// The plan's lowering under the mode and equality the candidate is judged by.
  GraphLoweringPlan reference;
  /// One gate per preset of kPolicyPresets, in its order: the reference lowering's, and the
  /// candidate's (empty without a candidate).
  std::vector<GateResult> referenceGates, candidateGates;
};

/// The facts of the picture of `candidate` (null: the reference lowering alone) against `plan`.
PictureFacts pictureFacts(Interner &interner, const GraphExecutionPlan &plan,
                          const io::LoweringDocument *candidate, Mode mode, Equality equality);

} // namespace lo::checks
