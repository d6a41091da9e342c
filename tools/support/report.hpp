// Writers of a conformance report (`check --format text|json|junit|sarif`), reusable by every
// command that checks candidates (check, diff, gen's self-test).
#pragma once

#include "checks/checks.hpp"
#include "ref/io/output.hpp"

#include <string>

namespace lo::cli {

/// What was checked, for the report's header and summary.
struct ReportSubject {
  std::string plan;      // the plan's file name
  std::string candidate; // the candidate's file name
  Mode mode = Mode::coalesced;
  Equality equality = Equality::contract;
  std::size_t groups = 0; // the candidate's groups
  std::size_t nodes = 0;  // the plan's nodes
};

enum class ReportFormat { text, json, junit, sarif };

/// text: one line a violation (`CANDIDATE: /pointer: check: sentence`), then one line a note and
/// one summary line. Ends with a newline.
void writeReportText(io::Sink &out, const checks::Report &report, const ReportSubject &subject);
/// json: {"format":"lowering-oracle/check-report","version":1,..., "violations":[{"check",
/// "group","nodeId","pointer","message"}], "omitted", "notes", "checks"}.
void writeReportJson(io::Sink &out, const checks::Report &report, const ReportSubject &subject);
/// junit: one test suite, one test case per check (failed, passed, or skipped in the other mode).
void writeReportJunit(io::Sink &out, const checks::Report &report, const ReportSubject &subject);
/// SARIF 2.1.0: one run, one rule per check (rule id = check name), one result per violation.
void writeReportSarif(io::Sink &out, const checks::Report &report, const ReportSubject &subject);

void writeReport(io::Sink &out, ReportFormat format, const checks::Report &report,
                 const ReportSubject &subject);

/// "3 violations (maximal 2, capsule 1)".
std::string violationSummary(const checks::Report &report);

} // namespace lo::cli
