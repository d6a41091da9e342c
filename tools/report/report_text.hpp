// The text writer of check, diff and verify (report_text.cpp holds what each line says).
#pragma once

#include "tools/report/report.hpp"

#include <vector>

namespace lo::cli {

struct SuiteReport;

/// check, diff: each candidate's lines, and with several candidates one last line of totals.
void writeTextReports(io::Sink &out, const std::vector<CaseResult> &cases,
                      const ReportOptions &options);

/// verify: the failing entries as check writes them, the errors, notes and the summary line.
void writeSuiteText(io::Sink &out, const SuiteReport &report);

} // namespace lo::cli
