// The page `diff` saves beside a finding (report.html, docs/spec.md §3.5), computed: the minimal
// plan and the implementation's output read afresh, the output checked, the picture drawn, and
// the model (HtmlDiffPage, tools/report/html_report.hpp) handed to the page's writer, which
// computes nothing.
#pragma once

#include "ref/edition.hpp"
#include "ref/ir.hpp"

#include <string>

namespace lo::diff {

/// The page of the plan `planText` (plan.json) and the implementation's output `outputText`
/// (output.json), checked under `mode` and `equality`; an output that is not a lowering
/// (`outputIsLowering` false: a gate result, a crash, invalid JSON) is shown as `summary` beside
/// the reference lowering. `heading` and `summary` are shown as text. Both are read in `edition`.
std::string diffReportPage(const std::string &planText, const std::string &outputText,
                           bool outputIsLowering, Mode mode, Equality equality, Edition edition,
                           const std::string &heading, const std::string &summary);

} // namespace lo::diff
