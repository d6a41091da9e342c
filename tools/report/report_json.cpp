// The JSON writer (kJsonWriter, writers.hpp). A check report:
// {"format":"lowering-oracle/check-report", "version":1,...}; violations carry
// "check","group","nodeId","pointer","message", and "field", "expected","actual" where they apply;
// an error entry is "error":{file,line,column,pointer, message}. A verify report: the counts, and
// one result per entry (a failing entry with its check report). Names are shown but never cut
// (jsonName), messages shown (jsonShown).
#include "tools/report/writers.hpp"

#include "checks/catalogue.hpp"
#include "tools/report/suite_report.hpp"

#include <stdexcept>

namespace lo::report {

namespace {

/// A violation's `field`, `expected` and `actual`, where it has them.
void violationFields(io::Sink &out, const checks::Violation &v) {
  if (v.field.empty())
    return;
  out << ",\"field\":";
  out.jsonString(v.field);
  out << ",\"expected\":";
  jsonShown(out, v.expected);
  out << ",\"actual\":";
  jsonShown(out, v.actual);
}

void writeJsonCase(io::Sink &out, const CaseResult &c, bool alone) {
  const ReportSubject &s = c.subject;
  out << "{\"format\":\"lowering-oracle/check-report\",\"version\":1,";
  if (!c.name.empty()) {
    out << "\"case\":";
    jsonName(out, c.name);
    out << ',';
  }
  out << (alone ? "\n " : "") << "\"plan\":";
  jsonName(out, s.plan);
  out << ",\"candidate\":";
  jsonName(out, s.candidate);
  out << ",\"mode\":\"" << spelling(s.mode) << "\",\"equality\":\"" << spelling(s.equality) << "\","
      << (alone ? "\n " : "") << "\"conforms\":" << (c.conforms() ? "true" : "false")
      << ",\"time\":" << secondsText(c.seconds) << ",\"error\":";
  if (c.error) {
    out << "{\"file\":";
    jsonName(out, c.error->file);
    out << ",\"line\":" << std::uint64_t{c.error->line}
        << ",\"column\":" << std::uint64_t{c.error->column} << ",\"pointer\":";
    out.jsonString(c.error->pointer);
    out << ",\"message\":";
    jsonShown(out, c.error->message);
    out << '}';
  } else {
    out << "null";
  }
  const checks::Report &report = c.report;
  out << ',' << (alone ? "\n " : "") << "\"violations\":[";
  for (std::size_t i = 0; i < report.violations.size(); ++i) {
    const auto &v = report.violations[i];
    out << (i ? "," : "") << (alone ? "\n  " : "") << "{\"check\":\"" << spelling(v.check)
        << "\",\"group\":";
    if (v.group)
      out << std::uint64_t{*v.group};
    else
      out << "null";
    out << ",\"nodeId\":";
    if (v.nodeId)
      out << std::uint64_t{*v.nodeId};
    else
      out << "null";
    out << ",\"pointer\":";
    out.jsonString(v.pointer);
    out << ",\"message\":";
    jsonShown(out, v.message);
    violationFields(out, v);
    out << '}';
  }
  out << "]," << (alone ? "\n " : "") << "\"omitted\":[";
  for (std::size_t i = 0; i < report.omitted.size(); ++i)
    out << (i ? "," : "") << "{\"check\":\"" << spelling(report.omitted[i].first)
        << "\",\"count\":" << std::uint64_t{report.omitted[i].second} << '}';
  out << "]," << (alone ? "\n " : "") << "\"notes\":[";
  for (std::size_t i = 0; i < report.notes.size(); ++i) {
    out << (i ? "," : "");
    jsonShown(out, report.notes[i]);
  }
  out << "]," << (alone ? "\n " : "") << "\"checks\":[";
  const auto n = report.countsPerCheck();
  for (std::size_t k = 0; k < n.size(); ++k) {
    const auto check = static_cast<Check>(k);
    out << (k ? "," : "") << (alone ? "\n  " : "") << "{\"check\":\"" << spelling(check)
        << "\",\"status\":\""
        << (!checkAppliesIn(check, s.mode, s.edition) ? "skipped"
            : c.error                                 ? "error"
            : n[k]                                    ? "failed"
                                                      : "passed")
        << "\",\"violations\":" << std::uint64_t{n[k]} << '}';
  }
  out << "]}";
}

} // namespace

/// One candidate's check report (several candidates are judged by `verify`, whose report is
/// writeSuiteJson's).
/// check, diff: exactly one candidate (a logic_error otherwise).
static void writeJsonReports(io::Sink &out, const std::vector<CaseResult> &cases,
                             const ReportOptions &) {
  if (cases.size() != 1)
    throw std::logic_error("a json check report holds one candidate");
  writeJsonCase(out, cases.front(), true);
  out << '\n';
}

void writeReportJson(io::Sink &out, const checks::Report &report, const ReportSubject &subject) {
  CaseResult c;
  c.subject = subject;
  c.report = report;
  writeJsonReports(out, {c}, {});
}

/// verify: the counts and one result per entry.
static void writeVerifyJson(io::Sink &out, const SuiteReport &r) {
  using Status = SuiteEntry::Status;
  writeSuiteJson(out, "lowering-oracle/verify-report", r, [&](const SuiteEntry &e) {
    out << "\"case\":";
    jsonName(out, e.result.name);
    out << ",\"mode\":\"" << spelling(e.result.subject.mode) << "\",\"equality\":\""
        << spelling(e.result.subject.equality) << '"';
    if (!e.policy.empty())
      out << ",\"policy\":\"" << e.policy << '"';
    out << ",\"plan\":";
    jsonName(out, e.result.subject.plan);
    out << ",\"output\":";
    jsonName(out, e.result.subject.candidate);
    out << ",\"status\":\"" << statusName(e.status()) << '"';
    if (e.status() == Status::error) {
      out << ",\"error\":{\"message\":";
      const ReportError &error = *e.result.error;
      jsonShown(out, error.message);
      out << ",\"pointer\":";
      out.jsonString(error.pointer);
      out << ",\"line\":" << std::uint64_t{error.line}
          << ",\"column\":" << std::uint64_t{error.column} << '}';
    } else if (e.status() == Status::fails) {
      out << ",\"report\":";
      writeReportJson(out, e.result.report,
                      e.result.subject); // the document `check --format json` writes
    } else {
      out << ",\"notes\":[";
      for (std::size_t k = 0; k < e.result.report.notes.size(); ++k) {
        out << (k ? "," : "");
        jsonShown(out, e.result.report.notes[k]);
      }
      out << ']';
    }
  });
}

const ReportWriter kJsonWriter{writeJsonReports, writeVerifyJson};

} // namespace lo::report
