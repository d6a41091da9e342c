// One writer per report format (docs/spec.md §3.5): the format's file defines it, and it writes
// both reports of that format, the one of check and diff (a list of candidates: writeReports,
// report.hpp) and the one of verify (a suite: writeSuiteReport, suite_report.hpp), where what each
// format holds is said.
#pragma once

#include "tools/report/report.hpp"

#include <vector>

namespace lo::report {

struct SuiteReport;

struct ReportWriter {
  /// check, diff: every candidate in one report.
  void (*candidates)(io::Sink &out, const std::vector<CaseResult> &cases,
                     const ReportOptions &options);
  /// verify: the suite's entries in one report.
  void (*suite)(io::Sink &out, const SuiteReport &report);
};

/// text: report_text.cpp; json: report_json.cpp; junit: report_junit.cpp; sarif:
/// report_sarif.cpp; html: html_page.cpp.
extern const ReportWriter kTextWriter, kJsonWriter, kJunitWriter, kSarifWriter, kHtmlWriter;

/// The writer of `format`.
const ReportWriter &writerOf(ReportFormat format);

} // namespace lo::report
