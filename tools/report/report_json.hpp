// The JSON writer of check, diff and verify: the `lowering-oracle/check-report` document of one
// candidate (writeJsonReports, writeReportJson) and the `lowering-oracle/verify-report` document
// of a suite, whose failing entries each hold the check report (writeSuiteJson).
#pragma once

#include "tools/report/report.hpp"

#include <vector>

namespace lo::cli {

struct SuiteReport;

/// check, diff: exactly one candidate (a logic_error otherwise).
void writeJsonReports(io::Sink &out, const std::vector<CaseResult> &cases,
                      const ReportOptions &options);

/// verify: the counts and one result per entry.
void writeSuiteJson(io::Sink &out, const SuiteReport &report);

} // namespace lo::cli
