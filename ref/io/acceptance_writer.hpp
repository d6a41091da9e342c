// Writers of an acceptance result (docs/spec.md §6.10): the `nn-backend/acceptance-result` JSON
// document and its text report, whose failure lines are upstream's messages (Report.lean,
// `AcceptanceFailure.message`).
#pragma once

#include "ref/acceptance.hpp"
#include "ref/io/output.hpp"

#include <string>
#include <string_view>

namespace lo::io {

/// The failures of `groups` under `policy` (acceptance::acceptGroups), written as they are found:
/// text, or the JSON document when `json`. `profile` is the policy's profile name ("custom" when
/// it is none). Every capsule name and evidence text is cut at kMaxGateTextBytes (as the gate of
/// docs/spec.md §6.6 cuts them), and the failures of a group are computed once per distinct (op,
/// capsule): memory grows with the distinct capsules, not with the groups. Returns whether the
/// policy accepts.
bool writeAcceptance(Sink &out, const Interner &interner, std::string_view profile,
                     const acceptance::KernelPolicy &policy, const GraphLoweringPlan &groups,
                     bool json);

/// Convenience: the document (or the text) as a string.
std::string acceptanceText(const Interner &interner, std::string_view profile,
                           const acceptance::KernelPolicy &policy, const GraphLoweringPlan &groups,
                           bool json);

/// `f` bounded as a gate result's report is (boundedTexts, ref/io/gate_writer.hpp).
acceptance::AcceptanceFailure boundedFailure(acceptance::AcceptanceFailure f);

/// One failure as JSON: {group, kind, op, the fields its kind carries, message}.
void writeAcceptanceFailure(Sink &out, const acceptance::AcceptanceFailure &f, std::size_t group);

} // namespace lo::io
