// What a conformance report (`check --format text|json|junit|sarif|html`) is made of, and its entry
// points, reusable by every command that judges candidates (check, diff, verify): one candidate
// or a list of them, each judged (a checks::Report) or not judgeable (an input error, exit status
// 2). One writer per format (writers.hpp), each in its own file, writes it for check, diff and
// verify alike: report_text.cpp, report_json.cpp, report_junit.cpp, report_sarif.cpp and
// html_*.cpp; this file's report.cpp holds the pieces they share and the writer of each format
// (writerOf).
//
// Every text that comes from input (file names, pointers, messages, which name capsules and keys)
// is shown escaped and cut (shownText, ref/io/escape.hpp) in the text, JUnit and SARIF reports, so
// that a hostile name cannot forge a line, hide the verdict or blow up the report (docs/ci.md,
// "Reports").
#pragma once

#include "checks/checks.hpp"
#include "ref/io/error.hpp"
#include "ref/io/escape.hpp"
#include "ref/io/output.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lo::report {

/// What was checked, for the report's header and summary.
struct ReportSubject {
  std::string plan;      // the plan's file name
  std::string candidate; // the candidate's file name
  Mode mode = Mode::coalesced;
  Equality equality = Equality::contract;
  std::size_t groups = 0; // the candidate's groups
  std::size_t nodes = 0;  // the plan's nodes
  Edition edition = kNewestEdition;
};

enum class ReportFormat { text, json, junit, sarif, html };

/// The spellings of the report formats (`--format`, `--report FORMAT=FILE`, docs/spec.md §4.2),
/// in that order: the one table the options, verify's `--report` and the Python module read.
inline constexpr std::pair<std::string_view, ReportFormat> kReportFormats[] = {
    {"text", ReportFormat::text},
    {"json", ReportFormat::json},
    {"junit", ReportFormat::junit},
    {"sarif", ReportFormat::sarif},
    {"html", ReportFormat::html}};

/// An input that could not be judged (exit status 2), reported as an error entry.
struct ReportError {
  std::string file;
  std::size_t line = 0, column = 0; // 1-based; 0 when unknown
  std::string pointer;
  std::string message;
  static ReportError from(const io::InputError &e);
};

/// `FILE[:LINE:COLUMN][: POINTER]: MESSAGE`, every part shown (shownText): an input error as one
/// line of a report.
std::string errorLine(const ReportError &e);

/// One candidate in a report: the one result model of check, diff and verify (a suite entry,
/// suite_report.hpp, is a CaseResult with its policy and positions).
struct CaseResult {
  /// The case's name in a suite ("0003-trusted-external-in-checked-run"); empty for `check`.
  std::string name;
  ReportSubject subject;
  checks::Report report;            // when !error
  std::optional<ReportError> error; // the candidate (or plan) could not be judged
  /// The candidate's text, when at hand: SARIF regions (line and column of each pointer) are
  /// looked up in it after the fact. Empty: no regions.
  std::string_view candidateText;
  double seconds = 0; // time spent reading and judging
  /// html: the candidate's picture (htmlPicture, tools/report/html_report.hpp), made while the
  /// plan and the candidate were at hand; empty: the findings are listed without one, after
  /// `noPicture`, the reason (said on the page).
  std::string picture;
  std::string_view noPicture;
  bool conforms() const { return !error && report.conforms(); }
};

/// How a list of candidates is reported.
struct ReportOptions {
  /// The command named in titles and JUnit class names: "check", "verify", "diff".
  std::string command = "check";
};

/// Writes every candidate in one report of `format`:
///  text:  one line a violation, note or error (`CANDIDATE: /pointer: check: sentence`), one
///         summary line a candidate, and with several candidates one last line of totals
///         (report_text.cpp);
///  json:  exactly one candidate: {"format":"lowering-oracle/check-report","version":1,...};
///         violations carry "check","group","nodeId","pointer","message", and "field",
///         "expected","actual" where they apply; an error entry is "error":{file,line,column,
///         pointer,message} (report_json.cpp);
///  junit: one <testsuite> a candidate, class names unique per candidate, mode and equality,
///         `time` on suites and cases; an error entry is a test case with <error> (the class
///         name scheme perCandidate of report_junit.hpp);
///  sarif: SARIF 2.1.0, one run, one rule per check (rule id = check name) and `invalid-input`,
///         one result per violation or error, with artifact URIs relative to %SRCROOT% (the
///         working directory), regions where the pointer is found, and partialFingerprints
///         (report_sarif.hpp);
///  html:  one self-contained page, one section per candidate with its picture (html_report.hpp).
void writeReports(io::Sink &out, ReportFormat format, const std::vector<CaseResult> &cases,
                  const ReportOptions &options = {});

/// One candidate (what `check` writes).
void writeReport(io::Sink &out, ReportFormat format, const checks::Report &report,
                 const ReportSubject &subject);
void writeReportText(io::Sink &out, const checks::Report &report, const ReportSubject &subject);
void writeReportJson(io::Sink &out, const checks::Report &report, const ReportSubject &subject);

/// "3 violations (maximal 2, capsule 1)".
std::string violationSummary(const checks::Report &report);

/// Text from the input as every report shows it: the one rule of ref/io/escape.hpp.
using io::shownText;

/// `text` shown (shownText) and then XML-escaped, as character data or an attribute value.
void xmlShown(io::Sink &out, std::string_view text);

/// `text` shown (shownText) and then written as a JSON string.
void jsonShown(io::Sink &out, std::string_view text);

/// A file or case name as a JSON report's value: shown as shownText shows it but never cut, so
/// that the report is valid UTF-8 and free of control characters whatever the name.
void jsonName(io::Sink &out, std::string_view text);

// --- Pieces shared by the writers of every format (report_text, report_json, report_junit,
// report_sarif, html_*) ---------------------------------------------------------------------------

/// XML character data or an attribute value (io::xmlText: shown, never cut, markup escaped).
void writeXml(io::Sink &out, std::string_view text);

/// A time in seconds with three decimals ("0.125"); a negative time is 0.
std::string secondsText(double seconds);

/// `/pointer: check: sentence`, the pointer and the sentence shown: a violation as a line.
std::string violationLine(const checks::Violation &v);

/// "the coalesced lowering (equality contract)".
std::string loweringName(Mode mode, Equality equality);

/// Whether a check applies in `mode` (a check that does not is reported skipped).
bool checkAppliesIn(Check check, Mode mode, Edition edition);
/// Why a check that does not apply is skipped: "applies only in mode M" or "not run in edition E".
std::string skippedBecause(Check check, Mode mode, Edition edition);

} // namespace lo::report
